package manifest

import (
	"fmt"
	"unicode/utf8"
)

// CheckText is checkText for callers that parse YAML with yaml.v3
// themselves (a scenario rewritten by --set): nil, or an *Error.
func CheckText(file string, data []byte) error {
	if e := checkText(file, data); e != nil {
		return e
	}
	return nil
}

// checkText finds the first character of data that yaml.v3's reader
// refuses: a byte that is not UTF-8 (or, after a UTF-16 byte order mark,
// not UTF-16), or a control character other than tab and line breaks. It
// returns an *Error at its line and column, where yaml.v3 says "line 1"
// (its reader errors carry a byte offset that its message drops). The
// characters it accepts are those yaml.v3's reader accepts (readerc.go),
// so it refuses no text that yaml.v3 would parse. Lines and columns are
// counted as yaml.v3 counts them: a line break is LF, CR, CR LF, NEL,
// LS or PS, a column is a character, and a leading byte order mark is
// not one.
func checkText(file string, data []byte) *Error {
	p := textPos{line: 1, col: 1}
	switch {
	case len(data) >= 2 && (data[0] == 0xff && data[1] == 0xfe || data[0] == 0xfe && data[1] == 0xff):
		return p.utf16(file, data[2:], data[0] == 0xfe)
	case len(data) >= 3 && data[0] == 0xef && data[1] == 0xbb && data[2] == 0xbf:
		data = data[3:]
	}
	for i := 0; i < len(data); {
		c := data[i]
		if c >= 0x20 && c <= 0x7e {
			p.col++
			i++
			continue
		}
		r, w := rune(c), 1
		if c >= 0x80 {
			r, w = utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && w == 1 {
				return p.errorf(file, "invalid UTF-8 (byte 0x%02X): YAML text is UTF-8, or UTF-16 with a byte order mark", c)
			}
		}
		if !yamlChar(r) {
			return p.errorf(file, "control character %U is not allowed in YAML (only tab and line breaks are)", r)
		}
		p.advance(r, i+w < len(data) && data[i+w] == '\n')
		i += w
	}
	return nil
}

// textPos is a position in a text being scanned: a 1-based line and
// column, and whether the last character was a CR (a CR LF is one break).
type textPos struct {
	line, col int
	cr        bool
}

func (p *textPos) errorf(file, format string, args ...any) *Error {
	return &Error{File: file, Line: p.line, Column: p.col, Msg: fmt.Sprintf(format, args...)}
}

// advance moves past r; lfNext says whether the next character is LF.
func (p *textPos) advance(r rune, lfNext bool) {
	switch r {
	case '\r':
		if lfNext {
			return // the LF ends the line
		}
		p.line, p.col = p.line+1, 1
	case '\n', 0x85, 0x2028, 0x2029:
		p.line, p.col = p.line+1, 1
	default:
		p.col++
	}
}

// utf16 checks data after a UTF-16 byte order mark. A broken surrogate
// pair or an odd byte at the end is left to yaml.v3, which reports it.
func (p *textPos) utf16(file string, data []byte, bigEndian bool) *Error {
	unit := func(i int) rune {
		if bigEndian {
			return rune(data[i])<<8 | rune(data[i+1])
		}
		return rune(data[i+1])<<8 | rune(data[i])
	}
	for i := 0; i+1 < len(data); {
		r, w := unit(i), 2
		switch {
		case r&0xfc00 == 0xdc00:
			return nil
		case r&0xfc00 == 0xd800:
			if i+3 >= len(data) || unit(i+2)&0xfc00 != 0xdc00 {
				return nil
			}
			r, w = 0x10000+(r&0x3ff)<<10+(unit(i+2)&0x3ff), 4
		}
		if !yamlChar(r) {
			return p.errorf(file, "control character %U is not allowed in YAML (only tab and line breaks are)", r)
		}
		p.advance(r, i+w+1 < len(data) && unit(i+w) == '\n')
		i += w
	}
	return nil
}

// yamlChar reports whether YAML text may hold r (yaml.v3's reader:
// #x9 | #xA | #xD | [#x20-#x7E] | #x85 | [#xA0-#xD7FF] | [#xE000-#xFFFD]
// | [#x10000-#x10FFFF]).
func yamlChar(r rune) bool {
	switch {
	case r == 0x09, r == 0x0a, r == 0x0d, r >= 0x20 && r <= 0x7e, r == 0x85:
		return true
	case r >= 0xa0 && r <= 0xd7ff, r >= 0xe000 && r <= 0xfffd, r >= 0x10000 && r <= 0x10ffff:
		return true
	}
	return false
}
