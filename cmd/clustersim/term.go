package main

import (
	"io"
	"os"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/clustersim/clustersim/report"
)

// terminalWidth is how many columns text output may use: $COLUMNS when it
// is a positive number, else the width of the terminal stdout is, else 0
// (no limit: output piped to a file or a program keeps its long lines).
func terminalWidth(stdout io.Writer) int {
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	if f, ok := stdout.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
			return w
		}
	}
	return 0
}

// fitted wraps stdout for a text report fitted to the terminal's width
// (see terminalWidth); done writes what is left and must be called once
// the report is written.
func fitted(stdout io.Writer) (w io.Writer, done func()) {
	w = report.Fit(stdout, terminalWidth(stdout))
	if f, ok := w.(*report.Fitted); ok {
		return w, func() { _ = f.Flush() }
	}
	return w, func() {}
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progress counts finished runs out of n on stderr as a bar with the rate
// and the time left, when stderr is a terminal; otherwise it prints
// nothing. It is safe for concurrent use; done clears the bar. While it
// is drawn, the process's notes (noteWriter: the heap governor's) are
// written above it rather than into it.
type progress struct {
	mu  sync.Mutex // the bar's: add, done and note take turns
	bar *progressbar.ProgressBar
}

// shownProgress is the bar on stderr now, nil when none is drawn.
var shownProgress atomic.Pointer[progress]

// newProgress starts a bar of n runs described by what ("lesson 8").
func newProgress(stderr io.Writer, n int, what string) *progress {
	if !isTerminal(stderr) || n <= 1 {
		return &progress{}
	}
	p := newBar(stderr, n, what)
	shownProgress.Store(p)
	return p
}

// newBar is newProgress's bar, drawn on w whatever w is.
func newBar(w io.Writer, n int, what string) *progress {
	return &progress{bar: progressbar.NewOptions(n,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("runs"),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionFullWidth(),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionUseANSICodes(true),
		// Drawn at once: the user sees the work started, and the rate
		// counts from now, not from the first finished run.
		progressbar.OptionSetRenderBlankState(true),
	)}
}

// add counts one finished run.
func (p *progress) add() {
	if p.bar != nil {
		p.mu.Lock()
		defer p.mu.Unlock()
		_ = p.bar.Add(1)
	}
}

// done finishes and clears the bar.
func (p *progress) done() {
	if p.bar != nil {
		shownProgress.CompareAndSwap(p, nil)
		p.mu.Lock()
		defer p.mu.Unlock()
		_ = p.bar.Finish()
		_ = p.bar.Clear()
	}
}

// note writes b to w (the terminal the bar is drawn on) on lines of its
// own: the bar cleared first and drawn again after.
func (p *progress) note(w io.Writer, b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	_ = p.bar.Clear()
	n, err := w.Write(b)
	_ = p.bar.RenderBlank()
	return n, err
}

// noteWriter writes the process's notes to w, above the progress bar
// when one is drawn (shownProgress): a note written into a bar's line
// would run into it, and the bar would be drawn over the note's end.
type noteWriter struct{ w io.Writer }

func (n noteWriter) Write(b []byte) (int, error) {
	if p := shownProgress.Load(); p != nil {
		return p.note(n.w, b)
	}
	return n.w.Write(b)
}
