package scenarios

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/clustersim/clustersim/sim/manifest"
)

// Source is a scenario's text and where its file references resolve: a
// file, or a built-in. A sweep loads it again for each grid point with
// fields replaced (With).
type Source struct {
	// Name is the file path or "builtin:<name>.yaml", as errors name it.
	Name string
	data []byte
	// builtin sources resolve references in the embedded tree.
	builtin bool
	dir     string // the scenario's directory, relative to root
	root    string // absolute; files only
	rootDir string // --root as given
	limits  Limits
	users   []string // Options.Users
}

// OpenSource reads a scenario file (or, when no file has that name, a
// built-in scenario) without loading it.
func OpenSource(arg string, opts Options) (*Source, error) {
	lim := opts.Limits.WithDefaults()
	if _, err := os.Stat(arg); err != nil {
		if IsBuiltin(arg) {
			data, err := fs.ReadFile(builtinFS, path.Join("builtin", arg+".yaml"))
			if err != nil {
				return nil, err
			}
			return &Source{Name: "builtin:" + arg + ".yaml", data: data, builtin: true, dir: "builtin", limits: lim, users: opts.Users}, nil
		}
		return nil, fmt.Errorf("%s: no such file, and no built-in scenario of that name (clustersim list shows them)", arg)
	}
	data, err := ReadFile(arg, lim)
	if err != nil {
		return nil, err
	}
	dir, err := filepath.Abs(filepath.Dir(arg))
	if err != nil {
		return nil, err
	}
	return sourceAt(arg, data, dir, "the scenario", opts)
}

// sourceAt is the source of data, named name, whose file references
// resolve against the absolute directory dir (what, in messages), which
// must lie inside opts.Root (default: dir itself).
func sourceAt(name string, data []byte, dir, what string, opts Options) (*Source, error) {
	root := dir
	if opts.Root != "" {
		var err error
		if root, err = filepath.Abs(opts.Root); err != nil {
			return nil, err
		}
	}
	rel, err := filepath.Rel(root, dir)
	if err != nil || !fs.ValidPath(filepath.ToSlash(rel)) {
		return nil, fmt.Errorf("%s: %s is not inside --root %s", name, what, opts.Root)
	}
	return &Source{Name: name, data: data, dir: filepath.ToSlash(rel), root: root, rootDir: opts.Root, limits: opts.Limits.WithDefaults(), users: opts.Users}, nil
}

// Assignment replaces the value at a field path of the scenario document
// (see SetPath).
type Assignment struct {
	Path, Value string
}

// Apply returns a source whose text has each assignment applied, in
// order: a grid point that loads (With) as often as it runs.
func (s *Source) Apply(sets ...Assignment) (*Source, error) {
	data, err := SetPaths(s.Name, s.data, sets...)
	if err != nil {
		return nil, err
	}
	c := *s
	c.data = data
	return &c, nil
}

// With loads the scenario with each assignment applied to its text, in
// order.
func (s *Source) With(sets ...Assignment) (*Scenario, error) {
	data := s.data
	if len(sets) > 0 {
		var err error
		if data, err = SetPaths(s.Name, data, sets...); err != nil {
			return nil, err
		}
	}
	if s.builtin {
		return LoadWith(s.Name, s.dir, builtinFS, data, Options{Limits: s.limits, Users: s.users})
	}
	r, err := os.OpenRoot(s.root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	l := &loader{dir: s.dir, fsys: r.FS(), limits: s.limits, rootDir: s.rootDir, users: s.users}
	return l.loadData(s.Name, data)
}

// SetPaths returns the YAML document data with each assignment's path
// set to its value. A path is dot-separated keys from the document's root
// ("spec.cluster.nodeGroups[0].count"); a list element is selected by
// index ([0]), by a field's value ([name=zone-a], [metadata.name=web]),
// or all of them ([*]). Missing keys on the way are created as mappings;
// a missing index is an error. The value is written as a plain YAML
// scalar, so "3" is an integer and "4Gi" a string, as if typed into the
// file; a value in { } or [ ] is a YAML flow collection
// ({cpu: "4", memory: 16Gi}).
func SetPaths(file string, data []byte, sets ...Assignment) ([]byte, error) {
	if err := manifest.CheckText(file, data); err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, fmt.Errorf("%s: --set needs a file with one YAML document", file)
	}
	for _, a := range sets {
		if err := setPath(doc.Content[0], a.Path, a.Value); err != nil {
			return nil, fmt.Errorf("--set %s=%s: %w", a.Path, a.Value, err)
		}
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// pathSegments splits "a.b[0].c[metadata.name=x]" into "a", "b", "[0]",
// "c", "[metadata.name=x]" (dots inside [ ] belong to the selector).
func pathSegments(p string) ([]string, error) {
	var out []string
	key := ""
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '.':
			if key == "" && (len(out) == 0 || !strings.HasPrefix(out[len(out)-1], "[")) {
				return nil, fmt.Errorf("empty path segment in %q", p)
			}
			if key != "" {
				out = append(out, key)
				key = ""
			}
		case '[':
			if key != "" {
				out = append(out, key)
				key = ""
			}
			j := strings.IndexByte(p[i:], ']')
			if j < 0 {
				return nil, fmt.Errorf("unclosed [ in %q", p)
			}
			out = append(out, p[i:i+j+1])
			i += j
		default:
			key += string(c)
		}
	}
	if key != "" {
		out = append(out, key)
	}
	if len(out) == 0 || strings.HasSuffix(p, ".") {
		return nil, fmt.Errorf("empty path segment in %q", p)
	}
	return out, nil
}

func setPath(n *yaml.Node, p, value string) error {
	segs, err := pathSegments(p)
	if err != nil {
		return err
	}
	v, err := valueNode(value)
	if err != nil {
		return err
	}
	return setSegs(n, segs, 0, v)
}

// valueNode is the node a value is written as: a plain scalar, or for a
// value in { } or [ ] the YAML flow collection it spells
// ({cpu: "4", memory: 16Gi}).
func valueNode(value string) (*yaml.Node, error) {
	if strings.HasPrefix(value, "{") || strings.HasPrefix(value, "[") {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(value), &doc); err != nil || len(doc.Content) != 1 {
			return nil, fmt.Errorf("value %q is not a YAML flow mapping or list", value)
		}
		return doc.Content[0], nil
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Value: value}, nil
}

// setSegs sets segs[i:] under n to a copy of v.
func setSegs(n *yaml.Node, segs []string, i int, v *yaml.Node) error {
	seg := segs[i]
	last := i == len(segs)-1
	where := strings.Join(segs[:i], ".")
	if strings.HasPrefix(seg, "[") {
		if n.Kind != yaml.SequenceNode {
			return fmt.Errorf("%s is not a list", where)
		}
		sel := seg[1 : len(seg)-1]
		var items []*yaml.Node
		switch k, want, ok := strings.Cut(sel, "="); {
		case sel == "*":
			items = n.Content
			if len(items) == 0 {
				return fmt.Errorf("%s is empty", where)
			}
		case ok:
			for _, item := range n.Content {
				if f := lookup(item, k); f != nil && f.Value == want {
					items = append(items, item)
					break
				}
			}
			if len(items) == 0 {
				return fmt.Errorf("no element of %s has %s", where, sel)
			}
		default:
			idx, err := strconv.Atoi(sel)
			if err != nil || idx < 0 || idx >= len(n.Content) {
				return fmt.Errorf("%s has no element %s (it has %d)", where, seg, len(n.Content))
			}
			items = n.Content[idx : idx+1]
		}
		for _, item := range items {
			if last {
				*item = *v
				continue
			}
			if err := setSegs(item, segs, i+1, v); err != nil {
				return err
			}
		}
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("%s is not a mapping", where)
	}
	next := mapValue(n, seg)
	if next == nil {
		if !last && strings.HasPrefix(segs[i+1], "[") {
			return fmt.Errorf("%s: no such list", strings.Join(segs[:i+1], "."))
		}
		next = &yaml.Node{Kind: yaml.MappingNode}
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: seg}, next)
	}
	if last {
		*next = *v
		return nil
	}
	return setSegs(next, segs, i+1, v)
}

// lookup follows a dotted key ("metadata.name") from mapping n.
func lookup(n *yaml.Node, key string) *yaml.Node {
	for part := range strings.SplitSeq(key, ".") {
		if n = mapValue(n, part); n == nil {
			return nil
		}
	}
	return n
}

// CheckSetPath fails when path (SetPaths' syntax) names no field of the
// scenario format, such as spec.nosuch: a sweep of a typo is refused
// before anything runs, rather than failing in the rewritten file at a
// position the user's file does not have. Under a field of free form (a
// manifest of spec.objects, a value with its own decoding) any path is
// taken, and so is a missing list index (SetPaths reports those).
func CheckSetPath(path string) error {
	segs, err := pathSegments(path)
	if err != nil {
		return err
	}
	bad, names, _, t := typePath(reflect.TypeFor[Scenario](), segs, true)
	if bad < 0 {
		return nil
	}
	at, s := strings.Join(segs[:bad], "."), segs[bad]
	switch {
	case t.Kind() == reflect.Slice || t.Kind() == reflect.Array:
		return fmt.Errorf("%s is a list: select an item ([0], [name=x] or [*]) before %q", at, s)
	case strings.HasPrefix(s, "["):
		return fmt.Errorf("%s is not a list: %s does not select from it", at, s)
	case len(names) > 0:
		if at == "" {
			at = "the scenario"
		}
		return fmt.Errorf("%s has no field %q (docs/scenario-format.md lists them)", at, s)
	}
	return fmt.Errorf("%s is a single value: it has no field %q", at, s)
}
