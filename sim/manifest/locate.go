package manifest

import (
	"os"
	"strconv"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
	"gopkg.in/yaml.v3"
)

// Located is a decoded object with the YAML it came from, so that errors
// found later (by validation, say) can point at a line and column.
type Located struct {
	Object api.Object
	// File is the name given to DecodeLocated.
	File string
	root *yaml.Node
}

// DecodeLocated is Decode, keeping each object's source document.
func DecodeLocated(file string, data []byte) ([]Located, error) {
	return decodeLocated(file, data, false)
}

// DecodeReferenced is DecodeLocated for a file that another names (a
// scenario's file reference), which may not be a manifest at all (a link
// to /etc/passwd): its errors say what was expected and what kind of
// value was found, and its size ("got a string of 1294 bytes"), but never
// quote a value of the file.
func DecodeReferenced(file string, data []byte) ([]Located, error) {
	return decodeLocated(file, data, true)
}

func decodeLocated(file string, data []byte, redact bool) ([]Located, error) {
	var objs []api.Object
	var roots []*yaml.Node
	spent := 0 // the alias budget is the file's, not each document's
	err := documents(file, data, func(root *yaml.Node) error {
		d := &decoder{file: file, roots: &roots, expanded: spent, redact: redact}
		var err error
		objs, err = d.object(root, objs)
		spent = d.expanded
		return err
	})
	if err != nil {
		return nil, err
	}
	out := make([]Located, len(objs))
	for i, o := range objs {
		out[i] = Located{Object: o, File: file, root: roots[i]}
	}
	return out, nil
}

// DecodeObjectNode decodes one object (or, for a v1 List, several) from a
// YAML node inside a larger file, such as an inline manifest in a scenario:
// errors carry file, line, column and the field path below path.
func DecodeObjectNode(file string, node *yaml.Node, path string) ([]api.Object, error) {
	d := &decoder{file: file, prefix: path}
	return d.object(node, nil)
}

// DecodeFileLocated reads the file at path and decodes it with
// DecodeLocated.
func DecodeFileLocated(path string) ([]Located, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return DecodeLocated(path, data)
}

// Position returns the line and column of the deepest node on a field path
// such as "spec.template.spec.containers[0].image" that exists in the
// source; a path that leaves the source early gives the position of the
// last node it reached (the object itself at worst).
func (l Located) Position(path string) (line, col int) {
	return Position(l.root, path)
}

// Position returns the line and column, within the YAML tree under root,
// of the deepest node on a field path (see Located.Position). It serves
// any strictly decoded YAML, scenario files included.
func Position(root *yaml.Node, path string) (line, col int) {
	line, col, _ = locate(root, path)
	return line, col
}

// Has reports whether the YAML tree under root holds every segment of
// the field path: whether a user wrote the field, where its decoded value
// cannot tell (a zero written is a zero absent).
func Has(root *yaml.Node, path string) bool {
	_, _, found := locate(root, path)
	return found
}

// locate is Position, and whether the whole path was found.
func locate(root *yaml.Node, path string) (line, col int, found bool) {
	n := root
	if n == nil {
		return 0, 0, false
	}
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	line, col = n.Line, n.Column
	for _, seg := range SplitPath(path) {
		for n.Kind == yaml.AliasNode && n.Alias != nil {
			n = n.Alias
		}
		var next *yaml.Node
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == seg {
					next = n.Content[i+1]
					// A scalar is pointed at itself; a mapping or list
					// at its key, where it begins to read.
					if v := next; v.Kind == yaml.ScalarNode && v.Line > 0 {
						line, col = v.Line, v.Column
					} else {
						line, col = n.Content[i].Line, n.Content[i].Column
					}
					break
				}
			}
		case yaml.SequenceNode:
			if i, err := strconv.Atoi(seg); err == nil && i >= 0 && i < len(n.Content) {
				next = n.Content[i]
				line, col = next.Line, next.Column
			}
		}
		if next == nil {
			return line, col, false
		}
		n = next
	}
	return line, col, true
}

// SplitPath splits a field path such as "a.b[0].c[key]" into its
// segments: a, b, 0, c, key. Field errors, audit changes and scenario
// checks all write paths this way. It is ParsePath, lenient: a path
// ParsePath refuses is split at every dot and bracket.
func SplitPath(path string) []string {
	if segs, err := ParsePath(path); err == nil {
		return segs
	}
	var out []string
	for _, part := range strings.Split(path, ".") {
		for part != "" {
			i := strings.IndexByte(part, '[')
			if i < 0 {
				out = append(out, part)
				break
			}
			if i > 0 {
				out = append(out, part[:i])
			}
			j := strings.IndexByte(part[i:], ']')
			if j < 0 {
				out = append(out, part[i+1:])
				break
			}
			out = append(out, part[i+1:i+j])
			part = part[i+j+1:]
		}
	}
	return out
}
