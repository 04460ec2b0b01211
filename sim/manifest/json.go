package manifest

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// toJSON appends the JSON form of YAML subtree n to buf, for a type that
// decodes itself with json.Unmarshaler. Scalars keep the type their YAML tag
// gives them: `pods: 2` becomes 2 and `pods: "2"` becomes "2", so the type
// sees exactly what the same manifest written as JSON would show it. Object
// keys are written in sorted order: key order means nothing in JSON, and a
// type that keeps its JSON verbatim (api.RawValue) must see the same bytes
// whether the manifest was written by hand or by Encode, which sorts keys.
func (d *decoder) toJSON(buf []byte, n *yaml.Node) ([]byte, error) {
	n, token, err := d.enter(n)
	if err != nil {
		return nil, err
	}
	defer d.leave(token)
	return d.jsonResolved(buf, n)
}

// jsonResolved is toJSON for a node already entered (never an alias).
func (d *decoder) jsonResolved(buf []byte, n *yaml.Node) ([]byte, error) {
	switch n.Kind {
	case yaml.MappingNode:
		ps, err := d.pairs(n, "key")
		if err != nil {
			return nil, err
		}
		if !slices.IsSortedFunc(ps, comparePairs) {
			return d.jsonSorted(buf, ps)
		}
		buf = append(buf, '{')
		for i, p := range ps {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendJSONString(buf, p.name)
			buf = append(buf, ':')
			if buf, err = d.jsonValue(buf, p); err != nil {
				return nil, err
			}
		}
		return append(buf, '}'), nil
	case yaml.SequenceNode:
		buf = append(buf, '[')
		for i, e := range n.Content {
			if i > 0 {
				buf = append(buf, ',')
			}
			var err error
			d.push(seg{index: i, kind: segIndex})
			buf, err = d.toJSON(buf, e)
			d.pop()
			if err != nil {
				return nil, err
			}
		}
		return append(buf, ']'), nil
	case yaml.ScalarNode:
		return d.jsonScalar(buf, n)
	case 0:
		return append(buf, "null"...), nil
	}
	return nil, d.errorf(n, "unexpected YAML node kind %d", n.Kind)
}

// jsonValue appends the JSON of one mapping entry's value.
func (d *decoder) jsonValue(buf []byte, p pair) ([]byte, error) {
	if p.merged {
		d.viaAlias++
		defer func() { d.viaAlias-- }()
	}
	d.push(seg{name: p.name, kind: segKey})
	defer d.pop()
	return d.toJSON(buf, p.val)
}

// jsonSorted writes a mapping whose keys are out of order: values are
// converted in document order, so the first error is still the first in
// the document, then written sorted by key.
func (d *decoder) jsonSorted(buf []byte, ps []pair) ([]byte, error) {
	type entry struct {
		name string
		json []byte
	}
	entries := make([]entry, len(ps))
	for i, p := range ps {
		v, err := d.jsonValue(nil, p)
		if err != nil {
			return nil, err
		}
		entries[i] = entry{p.name, v}
	}
	slices.SortFunc(entries, func(a, b entry) int { return strings.Compare(a.name, b.name) })
	buf = append(buf, '{')
	for i, e := range entries {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendJSONString(buf, e.name)
		buf = append(buf, ':')
		buf = append(buf, e.json...)
	}
	return append(buf, '}'), nil
}

func comparePairs(a, b pair) int { return strings.Compare(a.name, b.name) }

func (d *decoder) jsonScalar(buf []byte, n *yaml.Node) ([]byte, error) {
	switch tag := n.ShortTag(); tag {
	case tagNull:
		return append(buf, "null"...), nil
	case tagStr, tagTimestamp, tagBinary, tagMerge:
		return appendJSONString(buf, text(n)), nil
	case tagBool:
		b, err := d.boolean(n)
		if err != nil {
			return nil, err
		}
		return strconv.AppendBool(buf, b), nil
	case tagInt:
		if isJSONInt(n.Value) {
			return append(buf, n.Value...), nil
		}
		i, u, neg, err := parseInt(n.Value)
		switch {
		case err != nil:
			return nil, d.errorf(n, "invalid integer %s", d.quoted(n.Value))
		case neg:
			return strconv.AppendInt(buf, i, 10), nil
		}
		return strconv.AppendUint(buf, u, 10), nil
	case tagFloat:
		f, ok := parseFloat(n.Value)
		switch {
		case !ok:
			return nil, d.errorf(n, "invalid number %s", d.quoted(n.Value))
		case math.IsInf(f, 0) || math.IsNaN(f):
			return nil, d.errorf(n, "%s is not a finite number (JSON, and so the API, has no infinity or NaN)", clip(n.Value))
		}
		return appendJSONFloat(buf, f), nil
	default:
		return nil, d.errorf(n, "unsupported tag %s", tag)
	}
}

// isJSONInt reports whether s is an integer in JSON syntax, so that it can
// be copied as is (keeping digits beyond 64 bits for the type to judge).
func isJSONInt(s string) bool {
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	if s == "" || s[0] == '0' && len(s) > 1 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isJSONNumber reports whether s is a number in JSON syntax
// (-?int(.digits)?([eE][+-]?digits)?), so that it can be copied as is.
func isJSONNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() bool {
		start := i
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
		return i > start
	}
	start := i
	if !digits() || s[start] == '0' && i-start > 1 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if !digits() {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if !digits() {
			return false
		}
	}
	return i == len(s)
}

// appendJSONString appends s as a JSON string. Unlike strconv.Quote it uses
// only JSON escapes, and like encoding/json it turns invalid UTF-8 into
// U+FFFD.
func appendJSONString(buf []byte, s string) []byte {
	const hex = "0123456789abcdef"
	buf = append(buf, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				buf = append(buf, '\\', c)
			case c == '\n':
				buf = append(buf, '\\', 'n')
			case c == '\r':
				buf = append(buf, '\\', 'r')
			case c == '\t':
				buf = append(buf, '\\', 't')
			case c < 0x20:
				buf = append(buf, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				buf = append(buf, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			buf = append(buf, `\ufffd`...)
		} else {
			buf = append(buf, s[i:i+size]...)
		}
		i += size
	}
	return append(buf, '"')
}

// appendJSONFloat appends f as encoding/json writes a float64, which is
// what a YAML float becomes on its way to the API: sigs.k8s.io/yaml reads
// the YAML into float64 and marshals it to JSON. So 0.0 is written 0 and
// 1e3 1000, which the API's decoders then read as integers (an
// unstructured object's int64, an int32 field's 3 for 3.0), and digits
// beyond float64's precision are rounded as upstream rounds them.
func appendJSONFloat(buf []byte, f float64) []byte {
	b, _ := json.Marshal(f) // finite: the caller refused infinities and NaN
	return append(buf, b...)
}
