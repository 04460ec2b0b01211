package manifest

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// MaxAliasNodes caps how many nodes one DecodeNode call (or one file of
// Decode, or one CheckAliases call) may visit through YAML aliases and
// merge keys, counting every visit. Aliases let a few bytes
// stand for exponentially many nodes ("billion laughs"); real manifests use
// few or none, so the cap is generous for them and fatal for a bomb.
const MaxAliasNodes = 100_000

// maxDepth caps how deeply decoding may nest, counting nodes reached through
// aliases. yaml.v3 stops plain nesting at 10,000 levels; aliases can stack
// anchors on top of that, and the recursion must stay well within the stack.
const maxDepth = 20_000

// YAML short tags, as yaml.v3 resolves them (YAML 1.2 core schema).
const (
	tagStr       = "!!str"
	tagInt       = "!!int"
	tagFloat     = "!!float"
	tagBool      = "!!bool"
	tagNull      = "!!null"
	tagTimestamp = "!!timestamp"
	tagBinary    = "!!binary"
	tagMerge     = "!!merge"
	tagMap       = "!!map"
	tagSeq       = "!!seq"
)

var (
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	nodeType        = reflect.TypeFor[yaml.Node]()
	nodePtrType     = reflect.TypeFor[*yaml.Node]()
)

// DecodeNode fills out, which must be a non-nil pointer, from node strictly:
// struct fields are named by their `json` tags, unknown and duplicate keys
// are errors, scalars must have the field's type and fit in it, and types
// implementing json.Unmarshaler receive their subtree as JSON. A null node
// leaves out's target at its zero value. file names the input in errors and
// path is the field path of node ("" at a document root). Every failure in
// the input is an *Error for the first offending node in document order.
//
// An empty sequence, mapping or base64 string decodes to a nil slice or map
// in a struct field tagged omitempty (encoding/json drops it, so it is as
// good as absent) and to an empty non-nil one everywhere else, so that
// decoding, encoding with encoding/json and decoding again gives a
// reflect.DeepEqual value. A *yaml.Node target receives the node itself (a
// yaml.Node target a copy), to be decoded later.
func DecodeNode(file string, node *yaml.Node, path string, out any) error {
	v := reflect.ValueOf(out)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return fmt.Errorf("manifest: decode target must be a non-nil pointer, got %T", out)
	}
	if node = docRoot(node); node == nil {
		return nil
	}
	d := &decoder{file: file, prefix: path}
	return d.value(node, v.Elem())
}

// docRoot is the content of a document node (nil for an empty one), or
// node itself.
func docRoot(node *yaml.Node) *yaml.Node {
	if node != nil && node.Kind == yaml.DocumentNode {
		if len(node.Content) == 0 {
			return nil
		}
		return node.Content[0]
	}
	return node
}

// decoder holds the state of one DecodeNode call (or one document).
type decoder struct {
	file string
	// roots, when set, collects the mapping node of every object decoded,
	// in order (DecodeLocated).
	roots *[]*yaml.Node
	// prefix is the caller's field path; segs lead from there to the node
	// being decoded. The path is only rendered when an error needs it, so
	// deep documents cost no string building.
	prefix string
	segs   []seg
	// viaAlias is how many aliases (or merge keys) enclose the node being
	// decoded; nodes visited while it is positive count against the cap.
	viaAlias int
	expanded int
	depth    int // nodes entered and not yet left
	// anchors are the anchored nodes being decoded, innermost last, to catch
	// an alias that refers to its own ancestor (`a: &x [*x]`).
	anchors []*yaml.Node
	// omitEmpty is set while entering the value of a struct field tagged
	// omitempty; resolved consumes it.
	omitEmpty bool
	// apiObject is set while an API object (object) is decoded: it goes
	// to the API server as JSON, which has no infinity or NaN, so a float
	// field refuses them as a value kept as JSON does (jsonScalar).
	apiObject bool
	// redact keeps the input's values out of messages (DecodeReferenced):
	// they say what a value is ("a string of 1234 bytes"), not what it
	// holds.
	redact bool
}

// seg is one step of a field path: a struct field, a map key or an index.
type seg struct {
	name  string
	index int
	kind  segKind
}

type segKind uint8

const (
	segField segKind = iota
	segKey
	segIndex
)

func (d *decoder) push(s seg) { d.segs = append(d.segs, s) }

func (d *decoder) pop() { d.segs = d.segs[:len(d.segs)-1] }

// maxPathSegs bounds how much of a field path an error prints: the first and
// last maxPathSegs/2 steps of a pathologically deep path, "..." between.
const maxPathSegs = 64

// path renders the field path of the node being decoded.
func (d *decoder) path() string {
	var b strings.Builder
	b.WriteString(d.prefix)
	for i, s := range d.segs {
		if len(d.segs) > maxPathSegs && i >= maxPathSegs/2 && i < len(d.segs)-maxPathSegs/2 {
			if i == maxPathSegs/2 {
				b.WriteString("...")
			}
			continue
		}
		switch {
		case s.kind == segIndex:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.index))
			b.WriteByte(']')
		case s.kind == segKey && !plainKey(s.name):
			b.WriteByte('[')
			b.WriteString(s.name)
			b.WriteByte(']')
		default:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.name)
		}
	}
	return b.String()
}

// errorf reports a problem at node n, under the current field path.
func (d *decoder) errorf(n *yaml.Node, format string, args ...any) *Error {
	return &Error{File: d.file, Line: n.Line, Column: n.Column, Field: d.path(), Msg: fmt.Sprintf(format, args...)}
}

// wrap reports err, returned by a type's own decoding, at node n.
func (d *decoder) wrap(n *yaml.Node, err error) *Error {
	return &Error{File: d.file, Line: n.Line, Column: n.Column, Field: d.path(), Msg: err.Error(), Err: err}
}

// enter is called for every node before it is decoded. It follows an alias
// to its target, enforces the alias budget and detects cycles. The caller
// must call leave with the returned token when done with the node.
func (d *decoder) enter(n *yaml.Node) (*yaml.Node, int, error) {
	token := 0
	if n.Kind == yaml.AliasNode {
		t := n.Alias
		if t == nil {
			return nil, 0, d.errorf(n, "unknown anchor %q referenced", n.Value)
		}
		for _, a := range d.anchors {
			if a == t {
				return nil, 0, d.errorf(n, "anchor %q value contains itself", n.Value)
			}
		}
		if t.Kind == yaml.AliasNode {
			return nil, 0, d.errorf(n, "alias %q refers to another alias", n.Value)
		}
		d.viaAlias++
		token |= 1
		n = t
	}
	if d.viaAlias > 0 {
		d.expanded++
		if d.expanded > MaxAliasNodes {
			d.leave(token)
			return nil, 0, d.aliasError(n)
		}
	}
	if d.depth >= maxDepth {
		d.leave(token)
		return nil, 0, d.errorf(n, "document nests deeper than %d levels", maxDepth)
	}
	d.depth++
	token |= 4
	if n.Anchor != "" {
		d.anchors = append(d.anchors, n)
		token |= 2
	}
	return n, token, nil
}

func (d *decoder) leave(token int) {
	if token&4 != 0 {
		d.depth--
	}
	if token&2 != 0 {
		d.anchors = d.anchors[:len(d.anchors)-1]
	}
	if token&1 != 0 {
		d.viaAlias--
	}
}

// value decodes n into v, which must be settable.
func (d *decoder) value(n *yaml.Node, v reflect.Value) error {
	n, token, err := d.enter(n)
	if err != nil {
		return err
	}
	defer d.leave(token)
	return d.resolved(n, v)
}

// resolved decodes n, already entered (never an alias), into v.
func (d *decoder) resolved(n *yaml.Node, v reflect.Value) error {
	omit := d.omitEmpty
	d.omitEmpty = false
	if v.Type() == nodeType {
		v.Set(reflect.ValueOf(*n))
		return nil
	}
	if isNull(n) {
		v.SetZero()
		return nil
	}
	if v.Type() == nodePtrType {
		// The node itself, not a copy: the caller decodes it later with
		// the same decoder, and anchors are recognised by address.
		v.Set(reflect.ValueOf(n))
		return nil
	}
	// A tag on a scalar is checked by the scalar's decoder; one on a
	// mapping or a sequence would otherwise be dropped without a word.
	if tag := n.ShortTag(); n.Kind == yaml.MappingNode && tag != tagMap || n.Kind == yaml.SequenceNode && tag != tagSeq {
		return d.errorf(n, "unsupported tag %s", tag)
	}
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		v = v.Elem()
		// Behind a pointer, empty and absent differ: keep it empty.
		omit = false
	}
	if v.CanAddr() && v.Addr().Type().Implements(unmarshalerType) {
		return d.unmarshaler(n, v.Addr().Interface().(json.Unmarshaler))
	}

	switch v.Kind() {
	case reflect.Struct:
		return d.structure(n, v)
	case reflect.Map:
		return d.mapping(n, v, omit)
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 && n.Kind == yaml.ScalarNode {
			return d.bytes(n, v, omit)
		}
		return d.slice(n, v, omit)
	case reflect.Array:
		return d.array(n, v)
	case reflect.Interface:
		if v.NumMethod() != 0 {
			return d.errorf(n, "cannot decode into Go type %s", v.Type())
		}
		g, err := d.generic(n)
		if err != nil {
			return err
		}
		if g == nil {
			v.SetZero()
		} else {
			v.Set(reflect.ValueOf(g))
		}
		return nil
	case reflect.String:
		s, err := d.str(n)
		if err != nil {
			return err
		}
		v.SetString(s)
		return nil
	case reflect.Bool:
		b, err := d.boolean(n)
		if err != nil {
			return err
		}
		v.SetBool(b)
		return nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		i, err := d.integer(n, v.Type())
		if err != nil {
			return err
		}
		v.SetInt(i)
		return nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u, err := d.unsigned(n, v.Type())
		if err != nil {
			return err
		}
		v.SetUint(u)
		return nil
	case reflect.Float32, reflect.Float64:
		f, err := d.float(n, v.Type())
		if err != nil {
			return err
		}
		v.SetFloat(f)
		return nil
	}
	return d.errorf(n, "cannot decode into Go type %s", v.Type())
}

// pair is one key/value of a mapping after merge keys are resolved.
type pair struct {
	key, val *yaml.Node
	name     string
	merged   bool // came from a merge key: counts against the alias cap
}

// pairs lists the entries of mapping n in document order, with merge keys
// (`<<: *base`) expanded in place. Explicit keys override merged ones and an
// earlier merge source overrides a later one, as the YAML merge spec says. A
// key given twice explicitly is an error: noun is "field" or "key".
func (d *decoder) pairs(n *yaml.Node, noun string) ([]pair, error) {
	var (
		out   []pair
		first map[string]int // name -> index in out, for large mappings
		merge bool
	)
	find := func(name string) int {
		if first != nil {
			if i, ok := first[name]; ok {
				return i
			}
			return -1
		}
		for i := range out {
			if out[i].name == name {
				return i
			}
		}
		return -1
	}
	add := func(p pair) {
		out = append(out, p)
		if first != nil {
			first[p.name] = len(out) - 1
		} else if len(out) > 16 {
			first = make(map[string]int, len(n.Content)/2)
			for i := range out {
				first[out[i].name] = i
			}
		}
	}
	if len(n.Content)%2 != 0 {
		return nil, d.errorf(n, "mapping has a key without a value")
	}
	for i := 0; i < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if isMergeKey(k) {
			merge = true
			continue
		}
		name, err := d.key(k)
		if err != nil {
			return nil, err
		}
		if j := find(name); j >= 0 {
			return nil, d.errorf(k, "duplicate %s %q (first at line %d)", noun, name, out[j].key.Line)
		}
		add(pair{key: k, val: v, name: name})
	}
	if !merge {
		return out, nil
	}
	// Second pass: rebuild in document order with merged entries in place
	// of their merge key, skipping names given explicitly or merged before.
	explicit := out
	explicitNames := newNameSet(explicit)
	out, first = nil, nil
	next := 0
	for i := 0; i < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !isMergeKey(k) {
			add(explicit[next])
			next++
			continue
		}
		sources, err := d.mergeSources(v)
		if err != nil {
			return nil, err
		}
		for _, src := range sources {
			ps, err := d.mergePairs(src, noun)
			if err != nil {
				return nil, err
			}
			for _, p := range ps {
				if d.expanded++; d.expanded > MaxAliasNodes {
					return nil, d.aliasError(p.key)
				}
				if find(p.name) >= 0 || explicitNames.has(explicit, p.name) {
					continue
				}
				p.merged = true
				add(p)
			}
		}
	}
	return out, nil
}

// isMergeKey reports whether k is the merge key `<<` (plain, not quoted).
func isMergeKey(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.ShortTag() == tagMerge
}

// nameSet answers "is this name among these pairs", linearly for the
// small mappings manifests have and by map for large ones.
type nameSet map[string]bool

func newNameSet(ps []pair) nameSet {
	if len(ps) <= 16 {
		return nil
	}
	s := make(nameSet, len(ps))
	for _, p := range ps {
		s[p.name] = true
	}
	return s
}

func (s nameSet) has(ps []pair, name string) bool {
	if s != nil {
		return s[name]
	}
	for _, p := range ps {
		if p.name == name {
			return true
		}
	}
	return false
}

func (d *decoder) aliasError(n *yaml.Node) *Error {
	return d.errorf(n, "file contains excessive aliasing (more than %d nodes expanded through aliases and merge keys)", MaxAliasNodes)
}

// mergeSources returns the mappings a merge key's value names: one mapping
// or a sequence of mappings, usually aliases.
func (d *decoder) mergeSources(v *yaml.Node) ([]*yaml.Node, error) {
	t, token, err := d.enter(v)
	if err != nil {
		return nil, err
	}
	defer d.leave(token)
	switch t.Kind {
	case yaml.MappingNode:
		return []*yaml.Node{v}, nil
	case yaml.SequenceNode:
		for _, e := range t.Content {
			r := e
			if e.Kind == yaml.AliasNode && e.Alias != nil {
				r = e.Alias
			}
			if r.Kind != yaml.MappingNode {
				return nil, d.errorf(e, "merge key needs a mapping or a sequence of mappings, got %s", d.describe(r))
			}
		}
		return t.Content, nil
	}
	return nil, d.errorf(t, "merge key needs a mapping or a sequence of mappings, got %s", d.describe(t))
}

// mergePairs lists the entries of a merge source (which may itself use merge
// keys), guarding against cycles through enter.
func (d *decoder) mergePairs(src *yaml.Node, noun string) ([]pair, error) {
	t, token, err := d.enter(src)
	if err != nil {
		return nil, err
	}
	defer d.leave(token)
	return d.pairs(t, noun)
}

// key returns the name of mapping key k, which must be a scalar.
func (d *decoder) key(k *yaml.Node) (string, error) {
	t := k
	if k.Kind == yaml.AliasNode && k.Alias != nil {
		t = k.Alias
	}
	if t.Kind != yaml.ScalarNode {
		return "", d.errorf(k, "expected a scalar mapping key, got %s", d.describe(t))
	}
	return t.Value, nil
}

func (d *decoder) structure(n *yaml.Node, v reflect.Value) error {
	if n.Kind != yaml.MappingNode {
		return d.typeError(n, "a mapping")
	}
	fields := fieldsOf(v.Type())
	ps, err := d.pairs(n, "field")
	if err != nil {
		return err
	}
	for _, p := range ps {
		f, ok := fields[p.name]
		if !ok {
			return d.errorf(p.key, "unknown field %q", p.name)
		}
		fv, err := d.fieldValue(v, f.index, p.key)
		if err != nil {
			return err
		}
		d.omitEmpty = f.omitEmpty
		d.push(seg{name: p.name})
		err = d.child(p, fv)
		d.pop()
		if err != nil {
			return err
		}
	}
	return nil
}

// child decodes one mapping entry's value, counting it as an alias
// expansion when it came from a merge key.
func (d *decoder) child(p pair, v reflect.Value) error {
	if p.merged {
		d.viaAlias++
		defer func() { d.viaAlias-- }()
	}
	return d.value(p.val, v)
}

// fieldValue walks index from struct v, allocating nil embedded pointers.
func (d *decoder) fieldValue(v reflect.Value, index []int, k *yaml.Node) (reflect.Value, error) {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				if !v.CanSet() {
					return reflect.Value{}, d.errorf(k, "cannot set embedded pointer to unexported struct %s", v.Type().Elem())
				}
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, nil
}

// emptyValue sets v, a slice or map, to what an empty sequence or mapping
// decodes to: nil where omitempty will drop it, empty otherwise.
func emptyValue(v reflect.Value, omit bool) {
	switch {
	case omit:
		v.SetZero()
	case v.Kind() == reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
	default:
		v.Set(reflect.MakeSlice(v.Type(), 0, 0))
	}
}

func (d *decoder) mapping(n *yaml.Node, v reflect.Value, omit bool) error {
	if n.Kind != yaml.MappingNode {
		return d.typeError(n, "a mapping")
	}
	t := v.Type()
	if t.Key().Kind() != reflect.String {
		return d.errorf(n, "cannot decode into Go type %s: map keys must be strings", t)
	}
	ps, err := d.pairs(n, "key")
	if err != nil {
		return err
	}
	if len(ps) == 0 {
		emptyValue(v, omit)
		return nil
	}
	if v.IsNil() {
		v.Set(reflect.MakeMapWithSize(t, len(ps)))
	}
	for _, p := range ps {
		e := reflect.New(t.Elem()).Elem()
		d.push(seg{name: p.name, kind: segKey})
		err := d.child(p, e)
		d.pop()
		if err != nil {
			return err
		}
		k := reflect.New(t.Key()).Elem()
		k.SetString(p.name)
		v.SetMapIndex(k, e)
	}
	return nil
}

func (d *decoder) slice(n *yaml.Node, v reflect.Value, omit bool) error {
	if n.Kind != yaml.SequenceNode {
		return d.typeError(n, "a sequence")
	}
	if len(n.Content) == 0 {
		emptyValue(v, omit)
		return nil
	}
	s := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
	for i, e := range n.Content {
		d.push(seg{index: i, kind: segIndex})
		err := d.value(e, s.Index(i))
		d.pop()
		if err != nil {
			return err
		}
	}
	v.Set(s)
	return nil
}

func (d *decoder) array(n *yaml.Node, v reflect.Value) error {
	if n.Kind != yaml.SequenceNode {
		return d.typeError(n, "a sequence")
	}
	if len(n.Content) > v.Len() {
		return d.errorf(n, "expected at most %d elements, got %d", v.Len(), len(n.Content))
	}
	for i := 0; i < v.Len(); i++ {
		if i >= len(n.Content) {
			v.Index(i).SetZero()
			continue
		}
		d.push(seg{index: i, kind: segIndex})
		err := d.value(n.Content[i], v.Index(i))
		d.pop()
		if err != nil {
			return err
		}
	}
	return nil
}

// bytes decodes a base64 string into a []byte, as encoding/json does
// (line breaks are skipped, blanks are not).
func (d *decoder) bytes(n *yaml.Node, v reflect.Value, omit bool) error {
	tag := n.ShortTag()
	if tag != tagStr && tag != tagBinary {
		return d.typeError(n, "a base64 string")
	}
	// Only !!binary text may hold blanks; in a string, as in the JSON
	// the API server decodes, base64 skips line breaks and nothing else.
	text := n.Value
	if tag == tagBinary {
		text = stripSpace(text)
	}
	b, err := base64.StdEncoding.DecodeString(text)
	if err != nil {
		return d.wrap(n, err)
	}
	if len(b) == 0 {
		emptyValue(v, omit)
		return nil
	}
	v.SetBytes(b)
	return nil
}

// stripSpace removes the line breaks and blanks that YAML block scalars and
// the !!binary tag allow inside base64 text.
func stripSpace(s string) string {
	if !strings.ContainsAny(s, " \t\r\n") {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\r', '\n':
			return -1
		}
		return r
	}, s)
}

// unmarshaler hands n to a json.Unmarshaler as JSON text.
func (d *decoder) unmarshaler(n *yaml.Node, u json.Unmarshaler) error {
	data, err := d.jsonResolved(nil, n)
	if err != nil {
		return err
	}
	if err := u.UnmarshalJSON(data); err != nil {
		return d.wrap(n, err)
	}
	return nil
}

// str decodes a string scalar. Timestamps count as strings: they are only
// strings YAML happened to recognise, and Kubernetes reads them as strings.
func (d *decoder) str(n *yaml.Node) (string, error) {
	if n.Kind == yaml.ScalarNode {
		switch n.ShortTag() {
		case tagStr, tagTimestamp, tagBinary, tagMerge:
			return text(n), nil
		}
	}
	return "", d.typeError(n, "a string")
}

func (d *decoder) boolean(n *yaml.Node) (bool, error) {
	if n.Kind == yaml.ScalarNode && n.ShortTag() == tagBool {
		if b, ok := parseBool(n.Value); ok {
			return b, nil
		}
		return false, d.errorf(n, "invalid boolean %s", d.quoted(n.Value))
	}
	return false, d.typeError(n, "a boolean")
}

func (d *decoder) integer(n *yaml.Node, t reflect.Type) (int64, error) {
	value, err := d.intValue(n, t)
	if err != nil {
		return 0, err
	}
	i, u, neg, err := parseInt(value)
	bits := t.Bits()
	switch {
	case err == strconv.ErrSyntax:
		return 0, d.errorf(n, "invalid integer %s", d.quoted(n.Value))
	case err != nil,
		neg && bits < 64 && i < -1<<(bits-1),
		!neg && u > 1<<(bits-1)-1:
		return 0, d.errorf(n, "value %s overflows %s", d.clipped(n.Value), t)
	case neg:
		return i, nil
	}
	return int64(u), nil
}

func (d *decoder) unsigned(n *yaml.Node, t reflect.Type) (uint64, error) {
	value, err := d.intValue(n, t)
	if err != nil {
		return 0, err
	}
	i, u, neg, err := parseInt(value)
	switch {
	case err == strconv.ErrSyntax:
		return 0, d.errorf(n, "invalid integer %s", d.quoted(n.Value))
	case err != nil, neg && i != 0, t.Bits() < 64 && u>>t.Bits() != 0:
		return 0, d.errorf(n, "value %s overflows %s", d.clipped(n.Value), t)
	}
	return u, nil
}

// intValue returns the digits an integer field reads from n: an integer
// scalar's own, or, in an API object, a float's whose value is whole
// (3.0, 1e3, !!float 3),
// written as encoding/json writes it. That is what such a float becomes
// on its way to the API (sigs.k8s.io/yaml reads the YAML into float64 and
// marshals it to JSON, appendJSONFloat), and the API's decoder reads the
// JSON 3 into an int32 as it would the YAML 3; a float with a fraction
// (3.5) it refuses, and so does this. A whole float too large for the
// field is an overflow, as its JSON digits are. A scenario's own fields,
// which take no such route, keep to integers.
func (d *decoder) intValue(n *yaml.Node, t reflect.Type) (string, error) {
	if d.apiObject && n.Kind == yaml.ScalarNode && n.ShortTag() == tagFloat {
		if f, ok := parseFloat(n.Value); ok && !math.IsInf(f, 0) && f == math.Trunc(f) {
			if math.Abs(f) >= 1<<64 {
				return "", d.errorf(n, "value %s overflows %s", d.clipped(n.Value), t)
			}
			return string(appendJSONFloat(nil, f)), nil
		}
	}
	if err := d.intTag(n, t); err != nil {
		return "", err
	}
	return n.Value, nil
}

// intTag checks that n is an integer scalar. yaml.v3 resolves a decimal too
// large for 64 bits as a float; that is reported as the overflow it is.
func (d *decoder) intTag(n *yaml.Node, t reflect.Type) error {
	if n.Kind == yaml.ScalarNode {
		switch n.ShortTag() {
		case tagInt:
			return nil
		case tagFloat:
			// Unless the float is explicit (!!float 3).
			if n.Style&yaml.TaggedStyle == 0 && isDecimal(n.Value) {
				return d.errorf(n, "value %s overflows %s", d.clipped(n.Value), t)
			}
		}
	}
	return d.typeError(n, "an integer")
}

// isDecimal reports whether s is an optionally signed run of decimal digits.
func isDecimal(s string) bool {
	s = strings.TrimLeft(s, "+-")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func (d *decoder) float(n *yaml.Node, t reflect.Type) (float64, error) {
	if n.Kind == yaml.ScalarNode {
		switch n.ShortTag() {
		case tagInt:
			i, u, neg, err := parseInt(n.Value)
			switch {
			case err != nil:
				return 0, d.errorf(n, "invalid integer %s", d.quoted(n.Value))
			case neg:
				return float64(i), nil
			}
			return float64(u), nil
		case tagFloat:
			f, ok := parseFloat(n.Value)
			if !ok {
				return 0, d.errorf(n, "invalid number %s", d.quoted(n.Value))
			}
			if d.apiObject && (math.IsInf(f, 0) || math.IsNaN(f)) {
				return 0, d.errorf(n, "%s is not a finite number (JSON, and so the API, has no infinity or NaN)", clip(n.Value))
			}
			if t.Kind() == reflect.Float32 && !math.IsInf(f, 0) && math.Abs(f) > math.MaxFloat32 {
				return 0, d.errorf(n, "value %s overflows %s", n.Value, t)
			}
			return f, nil
		case tagStr:
			// yaml.v3 resolves a plain number beyond float64's range
			// (1e400) as a string; it is the overflow it looks like.
			if n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0 {
				if _, err := strconv.ParseFloat(n.Value, 64); errors.Is(err, strconv.ErrRange) {
					return 0, d.errorf(n, "value %s overflows %s", d.clipped(n.Value), t)
				}
			}
		}
	}
	return 0, d.typeError(n, "a number")
}

// generic decodes n into the types encoding/json would use for an any,
// except that integers stay integers: map[string]any, []any, string,
// int64 (uint64 above MaxInt64), float64, bool and nil.
func (d *decoder) generic(n *yaml.Node) (any, error) {
	switch n.Kind {
	case yaml.MappingNode:
		ps, err := d.pairs(n, "key")
		if err != nil {
			return nil, err
		}
		m := make(map[string]any, len(ps))
		for _, p := range ps {
			var v any
			d.push(seg{name: p.name, kind: segKey})
			err := d.child(p, reflect.ValueOf(&v).Elem())
			d.pop()
			if err != nil {
				return nil, err
			}
			m[p.name] = v
		}
		return m, nil
	case yaml.SequenceNode:
		s := make([]any, len(n.Content))
		for i, e := range n.Content {
			d.push(seg{index: i, kind: segIndex})
			err := d.value(e, reflect.ValueOf(&s[i]).Elem())
			d.pop()
			if err != nil {
				return nil, err
			}
		}
		return s, nil
	case yaml.ScalarNode:
		switch tag := n.ShortTag(); tag {
		case tagNull:
			return nil, nil
		case tagStr, tagTimestamp, tagBinary, tagMerge:
			return text(n), nil
		case tagBool:
			return d.boolean(n)
		case tagInt:
			i, u, neg, err := parseInt(n.Value)
			switch {
			case err != nil:
				return nil, d.errorf(n, "invalid integer %s", d.quoted(n.Value))
			case neg:
				return i, nil
			case u > math.MaxInt64:
				return u, nil
			}
			return int64(u), nil
		case tagFloat:
			f, ok := parseFloat(n.Value)
			if !ok {
				return nil, d.errorf(n, "invalid number %s", d.quoted(n.Value))
			}
			return f, nil
		default:
			return nil, d.errorf(n, "unsupported tag %s", tag)
		}
	}
	return nil, d.errorf(n, "unexpected YAML node kind %d", n.Kind)
}

// typeError reports that n is not what the target needs. Custom tags get
// their own message because "expected a string, got !foo" hides the cause.
func (d *decoder) typeError(n *yaml.Node, want string) *Error {
	if n.Kind == yaml.ScalarNode {
		if tag := n.ShortTag(); !knownTag(tag) {
			return d.errorf(n, "unsupported tag %s", tag)
		}
	}
	return d.errorf(n, "expected %s, got %s", want, d.describe(n))
}

func knownTag(tag string) bool {
	switch tag {
	case tagStr, tagInt, tagFloat, tagBool, tagNull, tagTimestamp, tagBinary, tagMerge:
		return true
	}
	return false
}

// text returns the string a string-like scalar stands for: its value, or
// for !!binary its base64 text without the line breaks YAML allows in it
// (a []byte target decodes that text; any other target keeps it as text).
func text(n *yaml.Node) string {
	if n.Tag == tagBinary || n.ShortTag() == tagBinary {
		return stripSpace(n.Value)
	}
	return n.Value
}

// isNull reports whether n is a null scalar (`null`, `~` or nothing).
func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == tagNull || n.Kind == 0
}

// describe names what a node is, for "expected X, got Y" messages.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a sequence"
	case yaml.DocumentNode:
		return "a document"
	case yaml.AliasNode:
		return "an alias"
	case yaml.ScalarNode:
		switch tag := n.ShortTag(); tag {
		case tagStr, tagMerge:
			return "string " + quote(n.Value)
		case tagInt:
			return "integer " + clip(n.Value)
		case tagFloat:
			return "float " + clip(n.Value)
		case tagBool:
			return "boolean " + clip(n.Value)
		case tagNull:
			return "null"
		case tagTimestamp:
			return "timestamp " + clip(n.Value)
		case tagBinary:
			return "binary data"
		default:
			return tag + " " + quote(n.Value)
		}
	}
	return fmt.Sprintf("a node of kind %d", n.Kind)
}

// describe is describe(n), or with d.redact what kind of scalar n is
// and its size, without its value.
func (d *decoder) describe(n *yaml.Node) string {
	if !d.redact || n.Kind != yaml.ScalarNode {
		return describe(n)
	}
	switch tag := n.ShortTag(); tag {
	case tagStr, tagMerge:
		return fmt.Sprintf("a string of %d bytes", len(n.Value))
	case tagInt:
		return "an integer"
	case tagFloat:
		return "a float"
	case tagBool:
		return "a boolean"
	case tagNull:
		return "null"
	case tagTimestamp:
		return "a timestamp"
	case tagBinary:
		return "binary data"
	default:
		return fmt.Sprintf("a %s value of %d bytes", tag, len(n.Value))
	}
}

// quoted is quote(s), or with d.redact its size.
func (d *decoder) quoted(s string) string {
	if d.redact {
		return fmt.Sprintf("of %d bytes", len(s))
	}
	return quote(s)
}

// clipped is clip(s), or with d.redact its size.
func (d *decoder) clipped(s string) string {
	if d.redact {
		return fmt.Sprintf("of %d bytes", len(s))
	}
	return clip(s)
}

// clip shortens a value quoted in an error so one bad line stays one line.
func clip(s string) string {
	const max = 64
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return string(r[:max]) + "..."
}

func quote(s string) string { return strconv.Quote(clip(s)) }

// parseBool accepts the booleans of the YAML 1.2 core schema.
func parseBool(s string) (v, ok bool) {
	switch s {
	case "true", "True", "TRUE":
		return true, true
	case "false", "False", "FALSE":
		return false, true
	}
	return false, false
}

// parseInt parses a YAML integer the way yaml.v3 resolves one (decimal,
// 0x, 0o, 0b, legacy 0-octal, underscores ignored). It returns the value as
// int64 when negative and as uint64 otherwise; err is strconv.ErrSyntax if s
// is not an integer and strconv.ErrRange if it does not fit in 64 bits.
func parseInt(s string) (i int64, u uint64, neg bool, err error) {
	plain := strings.ReplaceAll(s, "_", "")
	if strings.HasPrefix(plain, "-") {
		i, err = strconv.ParseInt(plain, 0, 64)
		return i, 0, true, numErr(err)
	}
	u, err = strconv.ParseUint(strings.TrimPrefix(plain, "+"), 0, 64)
	return 0, u, false, numErr(err)
}

func numErr(err error) error {
	if ne, ok := err.(*strconv.NumError); ok {
		return ne.Err
	}
	return err
}

// parseFloat parses a YAML float, including .inf and .nan.
func parseFloat(s string) (float64, bool) {
	switch s {
	case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF":
		return math.Inf(1), true
	case "-.inf", "-.Inf", "-.INF":
		return math.Inf(-1), true
	case ".nan", ".NaN", ".NAN":
		return math.NaN(), true
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(s, "_", ""), 64)
	if err != nil {
		// A float literal too large for float64 is still a number; report
		// it as the infinity strconv returns rather than as garbage.
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f, true
		}
		return 0, false
	}
	return f, true
}

// plainKey reports whether a map key prints as `.key` in a field path;
// any other key (app.kubernetes.io/name, one with spaces, the empty key)
// prints as `[key]`, so the path stays unambiguous.
func plainKey(key string) bool {
	if key == "" {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// CheckAliases walks the document under node as decoding would, following
// aliases and merge keys, and fails with an *Error if more than
// MaxAliasNodes nodes are reached through aliases, if an alias contains
// itself, or if the document nests deeper than decoding allows. A format
// that decodes parts of one file separately (a scenario decodes each
// step's patch on its own) calls it once on the whole file, so that the
// alias budget is the file's, not each part's.
func CheckAliases(file string, node *yaml.Node) error {
	if node = docRoot(node); node == nil {
		return nil
	}
	d := &decoder{file: file}
	return d.walk(node)
}

func (d *decoder) walk(n *yaml.Node) error {
	n, token, err := d.enter(n)
	if err != nil {
		return err
	}
	defer d.leave(token)
	for _, c := range n.Content {
		if err := d.walk(c); err != nil {
			return err
		}
	}
	return nil
}
