package manifest

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Error is a manifest that cannot be loaded: bad YAML syntax, a missing or
// unknown kind, an unknown or duplicate field, a value of the wrong type.
// Callers match it with errors.As; Err, when set, is the underlying cause
// (an *api.UnknownKindError, a Quantity parse error) for errors.Is/As.
type Error struct {
	// File is the file name as given to Decode or DecodeNode.
	File string
	// Line is the 1-based line of the offending node; 0 when unknown.
	Line int
	// Column is the 1-based column of the offending node; 0 when unknown
	// (yaml.v3 reports lines but no columns for syntax errors).
	Column int
	// Field is the field path of the offending value, such as
	// spec.template.spec.containers[0].image, or "" at a document root. For
	// unknown and duplicate fields it is the path of the enclosing mapping.
	Field string
	// Msg says what is wrong, e.g. `unknown field "imagePullPolcy"`.
	Msg string
	// Err is the underlying error, if any; Unwrap returns it.
	Err error
}

// Error formats the error as "<file>:<line>:<col>: <field>: <msg>", leaving
// out the parts that are unknown or empty.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(e.Line))
		if e.Column > 0 {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(e.Column))
		}
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap returns the underlying cause so that errors.Is and errors.As see
// through an *Error to, for example, an *api.UnknownKindError.
func (e *Error) Unwrap() error { return e.Err }

// parserProblems are the messages of libyaml's parser (as opposed to its
// scanner). yaml.v3 reports a parser error's line 0-based, a scanner error's
// 1-based (decode.go, parser.fail), so the loader must tell them apart to
// print the line a reader sees in an editor.
var parserProblems = []string{
	"did not find expected <stream-start>",
	"did not find expected <document start>",
	"found undefined tag handle",
	"did not find expected node content",
	"did not find expected '-' indicator",
	"did not find expected key",
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
	"found duplicate %YAML directive",
	"found incompatible YAML document",
	"found duplicate %TAG directive",
}

// syntaxError converts an error from yaml.v3's parser ("yaml: line 3: found
// character that cannot start any token") into an *Error with a 1-based line.
// data is the whole input, used to locate an unknown anchor, which yaml.v3
// reports without any position.
func syntaxError(file string, data []byte, err error) *Error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 0
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if i := strings.Index(rest, ": "); i > 0 {
			if n, convErr := strconv.Atoi(rest[:i]); convErr == nil {
				line, msg = n, rest[i+2:]
			}
		}
	}
	e := &Error{File: file, Msg: msg, Err: err}
	switch {
	case isParserProblem(msg):
		// A missing line means mark line 0, which is the first line.
		e.Line = line + 1
	case strings.HasPrefix(msg, "unknown anchor '"):
		name := strings.TrimSuffix(strings.TrimPrefix(msg, "unknown anchor '"), "' referenced")
		e.Line, e.Column = findAlias(data, name)
	case line > 0:
		e.Line = line
	default:
		// Scanner errors on the first line are printed without a line
		// because yaml.v3 tests the 0-based mark against 0.
		e.Line = 1
	}
	switch {
	case e.Column != 0 || e.Line == 0:
	case strings.HasPrefix(msg, "found character that cannot start any token"):
		// Almost always a tab in the indentation: point at it.
		e.Column = tabColumn(data, e.Line)
	case msg == "found a tab character that violates indentation":
		// yaml.v3 gives the line where the plain scalar starts; the tab
		// indents one of its continuation lines.
		e.Line, e.Column = indentTab(data, e.Line)
	case strings.HasPrefix(msg, "exceeded max depth"):
		e.Column = nestingColumn(data, e.Line)
	}
	return e
}

// indentTab returns the 1-based line and column of the first tab in the
// indentation of a line after the 1-based line from, or from and 0 if
// there is none.
func indentTab(data []byte, from int) (line, col int) {
	for i, l := range bytes.Split(data, []byte("\n")) {
		if i < from {
			continue
		}
		indent := l[:len(l)-len(bytes.TrimLeft(l, " \t"))]
		if j := bytes.IndexByte(indent, '\t'); j >= 0 {
			return i + 1, j + 1
		}
		if len(indent) < len(bytes.TrimRight(l, "\r")) {
			break // a line of text without a tab: not a continuation
		}
	}
	return from, 0
}

// nestingColumn returns the 1-based column where the nesting that passes
// yaml.v3's depth limit starts on a 1-based line of data: its first [ or
// {, else its first character that is not a space (a block nesting), or 0.
func nestingColumn(data []byte, line int) int {
	lines := bytes.SplitN(data, []byte("\n"), line+1)
	if line > len(lines) {
		return 0
	}
	l := lines[line-1]
	i := bytes.IndexAny(l, "[{")
	if i < 0 {
		i = len(l) - len(bytes.TrimLeft(l, " "))
		if i == len(l) {
			return 0
		}
	}
	return 1 + utf8.RuneCount(l[:i])
}

// tabColumn returns the 1-based column of the first tab on a 1-based line
// of data, or 0 if it has none.
func tabColumn(data []byte, line int) int {
	lines := bytes.SplitN(data, []byte("\n"), line+1)
	if line > len(lines) {
		return 0
	}
	if i := bytes.IndexByte(lines[line-1], '\t'); i >= 0 {
		return 1 + len([]rune(string(lines[line-1][:i])))
	}
	return 0
}

func isParserProblem(msg string) bool {
	for _, p := range parserProblems {
		if msg == p {
			return true
		}
	}
	return false
}

// findAlias returns the 1-based line and column of the first "*name" alias in
// data, or 0, 0 if there is none. It is a best effort: an alias-like text
// inside a quoted string would also match, but yaml.v3 gives nothing better.
func findAlias(data []byte, name string) (line, col int) {
	needle := []byte("*" + name)
	off := 0
	for {
		i := bytes.Index(data[off:], needle)
		if i < 0 {
			return 0, 0
		}
		start := off + i
		end := start + len(needle)
		before := start == 0 || strings.IndexByte(" \t\r\n[{,:-?", data[start-1]) >= 0
		after := end == len(data) || strings.IndexByte(" \t\r\n]},", data[end]) >= 0
		if before && after {
			line = 1 + bytes.Count(data[:start], []byte("\n"))
			col = 1 + len([]rune(string(data[bytes.LastIndexByte(data[:start], '\n')+1:start])))
			return line, col
		}
		off = start + 1
	}
}
