package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode"

	"gopkg.in/yaml.v3"
)

// jsonTree turns JSON text into a generic tree whose numbers stay
// json.Number, so integers are not rounded through float64.
func jsonTree(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("manifest: trailing data after JSON value")
	}
	return v, nil
}

// treeNode builds the YAML node for a generic JSON tree: mapping keys in
// sorted order (as kubectl prints them), integers as !!int and other numbers
// as !!float, strings as !!str. yaml.v3 quotes a !!str whose plain form would
// read back as another type ("2", "true", "null"), so strings stay strings.
func treeNode(v any) (*yaml.Node, error) {
	switch v := v.(type) {
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tagNull, Value: "null"}, nil
	case bool:
		s := "false"
		if v {
			s = "true"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tagBool, Value: s}, nil
	case json.Number:
		tag := tagFloat
		if !strings.ContainsAny(string(v), ".eE") {
			tag = tagInt
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: string(v)}, nil
	case string:
		return stringNode(v), nil
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: tagSeq, Content: make([]*yaml.Node, 0, len(v))}
		for _, e := range v {
			c, err := treeNode(e)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, c)
		}
		return n, nil
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: tagMap, Content: make([]*yaml.Node, 0, 2*len(v))}
		for _, k := range keys {
			c, err := treeNode(v[k])
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, stringNode(k), c)
		}
		return n, nil
	}
	return nil, fmt.Errorf("manifest: unexpected JSON value of type %T", v)
}

// stringNode returns the node for string s, choosing its style where
// yaml.v3's own choice is unsafe or unfriendly:
//   - multi-line text is a literal block (`|`) only when yaml.v3 writes that
//     block back faithfully; it loses newlines of a string that is only
//     newlines or ends in several, and a leading blank or a trailing space
//     needs indicators, so such strings are double-quoted;
//   - a string with a tab, control character or Unicode line separator is
//     double-quoted, where every such character is escaped (YAML 1.1 readers,
//     yaml.v3 among them, fold U+2028 in a single-quoted string into a space);
//   - the words YAML 1.1 reads as booleans (yes, no, on, off, y, n) are
//     quoted, as kubectl quotes them, because YAML 1.1 parsers (PyYAML, the
//     yaml.v2 inside sigs.k8s.io/yaml) still read this output.
//
// Everything else is left to yaml.v3, which quotes a string whose plain form
// would read back as another type ("2", "true", "null").
func stringNode(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: tagStr, Value: s}
	switch {
	case strings.Contains(s, "\n") && literalSafe(s):
		n.Style = yaml.LiteralStyle
	case !printable(s) || strings.Contains(s, "\n"):
		n.Style = yaml.DoubleQuotedStyle
	}
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO",
		"on", "On", "ON", "off", "Off", "OFF":
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// literalSafe reports whether multi-line s survives a literal block.
func literalSafe(s string) bool {
	if s[0] == ' ' || s[0] == '\n' || strings.HasSuffix(s, "\n\n") {
		return false
	}
	for line := range strings.SplitSeq(s, "\n") {
		if strings.HasSuffix(line, " ") || !printable(line) {
			return false
		}
	}
	return true
}

// printable reports whether s has only printable characters and spaces.
func printable(s string) bool {
	for _, r := range s {
		if r != ' ' && !unicode.IsPrint(r) || r == '\ufeff' {
			return false
		}
	}
	return true
}

// emit writes YAML documents separated by "---", indented by two spaces.
// yaml.v3 reports its own failures by panicking with a private type that
// Encode recovers; anything else it panics with is a bug in yaml.v3, which
// is recovered here too so that a bad object is an error, not a crash.
func emit(docs []*yaml.Node) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("manifest: yaml encoder failed: %v", r)
		}
	}()
	if len(docs) == 0 {
		return nil, nil
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	for _, d := range docs {
		if err := enc.Encode(d); err != nil {
			return nil, fmt.Errorf("manifest: encode yaml: %w", err)
		}
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("manifest: encode yaml: %w", err)
	}
	return buf.Bytes(), nil
}
