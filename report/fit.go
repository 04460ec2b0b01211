package report

import (
	"bytes"
	"io"
	"strings"

	"github.com/clipperhouse/displaywidth"
)

// Fitted is a writer that fits text to a terminal Width columns wide:
// tables written through it (Table, PlainTable) wrap their cells to fit,
// and any other line wider than Width is wrapped at spaces, its
// continuation lines indented past the line's own indent. A word wider
// than the room left is cut with "…" (the full text is in -o wide, JSON
// and the HTML report). Lines are written as they end; Flush writes a
// last line that has no newline.
type Fitted struct {
	w       io.Writer
	width   int
	partial []byte
	err     error
}

// Fit returns w fitted to width columns, or w itself when width is not
// positive (no limit: a pipe or a file).
func Fit(w io.Writer, width int) io.Writer {
	if width <= 0 {
		return w
	}
	return &Fitted{w: w, width: width}
}

// Width is the number of columns text is fitted to.
func (f *Fitted) Width() int { return f.width }

// Write buffers p and writes every completed line, fitted.
func (f *Fitted) Write(p []byte) (int, error) {
	if f.err != nil {
		return 0, f.err
	}
	f.partial = append(f.partial, p...)
	for {
		i := bytes.IndexByte(f.partial, '\n')
		if i < 0 {
			break
		}
		f.emit(string(f.partial[:i]))
		f.partial = f.partial[i+1:]
	}
	return len(p), f.err
}

// Flush writes a last line that was not ended by a newline.
func (f *Fitted) Flush() error {
	if len(f.partial) > 0 && f.err == nil {
		f.emit(string(f.partial))
		f.partial = nil
	}
	return f.err
}

func (f *Fitted) emit(line string) {
	for _, l := range Wrap(line, f.width) {
		if f.err == nil {
			_, f.err = io.WriteString(f.w, l+"\n")
		}
	}
}

// columns is the display width of s in a terminal.
func columns(s string) int { return displaywidth.String(s) }

// Wrap breaks line into lines no wider than width columns: at spaces
// where it can, continuation lines indented two columns past the line's
// own indent; a single word wider than the room is cut with "…".
func Wrap(line string, width int) []string {
	if width <= 0 || columns(line) <= width {
		return []string{line}
	}
	trimmed := strings.TrimLeft(line, " ")
	indent := len(line) - len(trimmed)
	hang := strings.Repeat(" ", min(indent+2, width/2))
	var out []string
	cur := line[:indent]
	curCols, empty := indent, true
	for _, word := range strings.Fields(trimmed) {
		wc := columns(word)
		if !empty && curCols+1+wc > width {
			out = append(out, cur)
			cur, curCols, empty = hang, len(hang), true
		}
		if !empty {
			cur += " "
			curCols++
		}
		if curCols+wc > width {
			word = cut(word, width-curCols)
			wc = columns(word)
		}
		cur += word
		curCols += wc
		empty = false
	}
	return append(out, cur)
}

// cut shortens s to at most n columns, ending in "…".
func cut(s string, n int) string {
	if columns(s) <= n {
		return s
	}
	var b strings.Builder
	cols := 0
	for _, r := range s {
		rc := columns(string(r))
		if cols+rc > n-1 {
			break
		}
		b.WriteRune(r)
		cols += rc
	}
	return b.String() + "…"
}
