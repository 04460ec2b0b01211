package manifest

import (
	"fmt"
	"strings"
)

// PathError is a field path that does not parse: what is wrong, and the
// byte offset in the path where it was found.
type PathError struct {
	Path   string
	Offset int
	Msg    string
}

// Error returns the message with the offset, counted from 1 as a
// column is.
func (e *PathError) Error() string {
	return fmt.Sprintf("%s (at character %d of %q)", e.Msg, e.Offset+1, e.Path)
}

// ParsePath parses a field path into its segments, strictly. A path is
// field names separated by dots, each optionally followed by bracketed
// keys: "spec.template.spec.containers[nginx].image",
// "status.conditions[Progressing].reason", "spec.containers[0]". A key
// in brackets is taken as written up to the closing bracket, dots and
// slashes included, so that any label or annotation key is addressable:
// "metadata.annotations[deployment.kubernetes.io/revision]" (the audit
// log's own form); it may be quoted, 'key' or "key", as kubectl's
// JSONPath allows. A field name may also escape a dot (or a bracket or a
// backslash) with a backslash, as kubectl's JSONPath does:
// "metadata.annotations.deployment\.kubernetes\.io/revision". Empty
// names and keys, unclosed brackets or quotes, a trailing backslash and
// text after a closing bracket other than "." or "[" are errors.
func ParsePath(path string) ([]string, error) {
	fail := func(at int, format string, args ...any) error {
		return &PathError{Path: path, Offset: at, Msg: fmt.Sprintf(format, args...)}
	}
	if path == "" {
		return nil, fail(0, "empty path")
	}
	var out []string
	i := 0
	// afterSeg: a name or key was just read, so a dot may follow.
	afterSeg := false
	for i < len(path) {
		switch c := path[i]; {
		case c == '[':
			start := i
			i++
			var key string
			if i < len(path) && (path[i] == '\'' || path[i] == '"') {
				q := path[i]
				end := strings.IndexByte(path[i+1:], q)
				if end < 0 {
					return nil, fail(i, "unclosed quote %c", q)
				}
				key = path[i+1 : i+1+end]
				i += end + 2
				if i >= len(path) || path[i] != ']' {
					return nil, fail(i, "a quoted key ends with ']'")
				}
			} else {
				end := strings.IndexByte(path[i:], ']')
				if end < 0 {
					return nil, fail(start, "unclosed '['")
				}
				key = path[i : i+end]
				i += end
			}
			if key == "" {
				return nil, fail(start, "empty key in brackets")
			}
			out = append(out, key)
			i++ // the ']'
			afterSeg = true
			if i < len(path) && path[i] != '.' && path[i] != '[' {
				return nil, fail(i, "after ']' comes '.', '[' or the end of the path")
			}
		case c == '.':
			if !afterSeg {
				return nil, fail(i, "empty field name")
			}
			if i == len(path)-1 {
				return nil, fail(i, "the path ends with '.'")
			}
			i++
			afterSeg = false
			if path[i] == '.' || path[i] == '[' {
				return nil, fail(i, "empty field name")
			}
		case c == ']':
			return nil, fail(i, "']' without '['")
		default:
			var name strings.Builder
			for i < len(path) && path[i] != '.' && path[i] != '[' {
				switch path[i] {
				case ']':
					return nil, fail(i, "']' without '['")
				case '\\':
					if i+1 == len(path) {
						return nil, fail(i, "the path ends with '\\'")
					}
					i++
				}
				name.WriteByte(path[i])
				i++
			}
			out = append(out, name.String())
			afterSeg = true
		}
	}
	return out, nil
}

// FormatPath writes segments as a path ParsePath reads back: names
// joined by dots, with '.', '[', ']' and '\' escaped by a backslash.
func FormatPath(segs []string) string {
	var b strings.Builder
	for i, s := range segs {
		if i > 0 {
			b.WriteByte('.')
		}
		for j := 0; j < len(s); j++ {
			if strings.IndexByte(".[]\\", s[j]) >= 0 {
				b.WriteByte('\\')
			}
			b.WriteByte(s[j])
		}
	}
	return b.String()
}
