package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/clustersim/clustersim/sim/addrmemo"
	"github.com/clustersim/clustersim/sim/api"
)

// Field ownership (metadata.managedFields), as Kubernetes' field manager
// keeps it: every accepted create and update records, per field manager,
// the fields it set. An Update operation takes the fields it changed from
// every other manager; an Apply operation (server-side apply) owns exactly
// the fields of its apply configuration and shares the fields whose value
// it agrees with.
//
// The store computes ownership from the audit diff it already has
// (Change.Path, in the `[name]` keyed-list form), converted once per
// distinct path into the FieldsV1 key form ("f:spec", "f:replicas",
// `k:{"name":"nginx"}`). Paths and field sets are interned per Go type:
// a set is a sorted list of small integers, and equal sets (the pods of one
// ReplicaSet have the same managers and fields) share one rendered FieldsV1
// value, so a write that changes fields a manager already owns allocates
// only its new entry list.
//
// Granularity follows the Go types and the audit diff, which is close to
// but not exactly Kubernetes' schema: lists of scalars (args, finalizers),
// lists whose elements carry no unique "name" or "type" (tolerations,
// ports without names) and label selectors are atomic (owned whole); lists
// keyed by "name" or "type" are keyed by that field (containers, env,
// conditions; Kubernetes keys container ports by containerPort and
// ownerReferences by uid); map entries are fields ("f:app" under
// "f:labels"). A keyed list element's own node (".") is owned by the
// manager that added it. Server-set metadata (name, namespace, uid,
// resourceVersion, generation, creationTimestamp, deletion fields),
// apiVersion and kind are never owned, nor is status by a main-resource
// write of a kind with a status subresource.

// Managed-fields operations.
const (
	// OperationApply marks an entry written by server-side apply.
	OperationApply = "Apply"
	// OperationUpdate marks an entry written by create, update or patch.
	OperationUpdate = "Update"
	// FieldsTypeV1 is the only fieldsType: FieldsV1's JSON set format.
	FieldsTypeV1 = "FieldsV1"
)

// Path is a field path in FieldsV1 form, one key per level:
// ["f:spec", "f:replicas"]; `k:{"name":"nginx"}` for the element of a
// keyed list, "i:0" for an element by index, "v:<json>" for a set member.
type Path []string

// String returns the path as Kubernetes prints it in apply conflicts
// (structured-merge-diff's Path.String): ".spec.replicas",
// `.spec.template.spec.containers[name="nginx"].image`,
// ".metadata.labels.app".
func (p Path) String() string {
	var b strings.Builder
	for _, k := range p {
		switch {
		case strings.HasPrefix(k, "f:"):
			b.WriteByte('.')
			b.WriteString(k[2:])
		case strings.HasPrefix(k, "k:"):
			b.WriteByte('[')
			b.WriteString(keyString(k[2:]))
			b.WriteByte(']')
		case strings.HasPrefix(k, "i:"):
			b.WriteByte('[')
			b.WriteString(k[2:])
			b.WriteByte(']')
		case strings.HasPrefix(k, "v:"):
			b.WriteString("[=")
			b.WriteString(k[2:])
			b.WriteByte(']')
		default:
			b.WriteString(k)
		}
	}
	return b.String()
}

// keyString renders a key's JSON object as `name="nginx"` (fields in name
// order, comma-separated, values as JSON).
func keyString(js string) string {
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(js), &m); err != nil {
		return js
	}
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	slices.Sort(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + "=" + string(m[n])
	}
	return strings.Join(parts, ",")
}

// Managed is one decoded managedFields entry.
type Managed struct {
	// Manager is the field manager's name.
	Manager string
	// Operation is OperationApply or OperationUpdate.
	Operation string
	// APIVersion the fields were written with.
	APIVersion string
	// Subresource is "" or "status".
	Subresource string
	// Time is when the entry last changed, to the second.
	Time api.Time
	// Fields are the owned paths, in FieldsV1 order.
	Fields []Path
}

// Owns reports whether the entry owns path p.
func (m Managed) Owns(p Path) bool {
	return slices.ContainsFunc(m.Fields, func(q Path) bool { return slices.Equal(p, q) })
}

// Conflict is a field a server-side apply would take from another
// manager: the manager owns it and holds another value there.
type Conflict struct {
	// Manager, Operation, APIVersion and Subresource identify the owner.
	Manager     string
	Operation   string
	APIVersion  string
	Subresource string
	// Path is the contested field.
	Path Path
}

// fieldSet is an interned, immutable set of path ids with its rendered
// FieldsV1 value.
type fieldSet struct {
	ids []uint32 // ascending
	// low holds the ids below lowIDs as bits (id i: bit i%64 of word
	// i/64), so that membership needs no search for them: a type's paths
	// are numbered as they are first written, and the paths of the
	// writes that come again and again (a pod's status, a lease's
	// renewal) are among the first. sameOwners compares every update's
	// changed paths with every manager's set; asking has for each, a
	// binary search, was 1.09 of its 2.50 s in a CPU profile of the
	// 5,000-node probe, and it now compares them a word at a time.
	low [lowIDs / 64]uint64
	raw api.RawValue
}

// lowIDs is how many of the lowest ids a fieldSet keeps as bits.
const lowIDs = 256

// newFieldSet returns the set of ids (ascending, no duplicates), which
// it keeps.
func newFieldSet(ids []uint32) *fieldSet {
	s := &fieldSet{ids: ids}
	s.low, _ = lowBits(ids)
	return s
}

// lowBits returns the ids (ascending) below lowIDs as a fieldSet keeps
// them, and the rest of ids, from the first id of lowIDs up.
func lowBits(ids []uint32) (low [lowIDs / 64]uint64, rest []uint32) {
	cut, _ := slices.BinarySearch(ids, lowIDs)
	for _, id := range ids[:cut] {
		low[id/64] |= 1 << (id % 64)
	}
	return low, ids[cut:]
}

func (s *fieldSet) has(id uint32) bool {
	if id < lowIDs {
		return s.low[id/64]&(1<<(id%64)) != 0
	}
	_, ok := slices.BinarySearch(s.ids, id)
	return ok
}

// pathInfo is an interned path.
type pathInfo struct {
	keys   Path
	status bool // under f:status
	leaf   bool // ends at a scalar: a removal needs no existence check
}

// canon is the canonical ids of one audit-diff path: none (not owned),
// one, or two (a keyed element's key field and the element itself).
type canon struct {
	ids [2]uint32
	n   uint8
}

// fieldIndex interns one Go type's paths and field sets.
type fieldIndex struct {
	typ   reflect.Type
	raw   map[string]canon
	ids   map[string]uint32
	paths []pathInfo
	sets  map[uint64][]*fieldSet
	byRaw map[*api.RawValue]*fieldSet
	// byText finds an interned set by its rendered bytes, for a
	// managedFields entry whose FieldsV1 is a copy of the set's rather
	// than the set's own (a stored object the API server copied, such
	// as a pod its graceful delete marked): the set parsing the bytes
	// would give, without the parse.
	byText map[string]*fieldSet
	buf    []uint32 // scratch for the ids of a set being computed
	memos  [64]changedMemo
}

// changedMemo remembers the ids a list of changes, all setting a value,
// changed: writes of one kind by one component change the same fields
// over and over (an event's create, a pod's status), and the audit log
// hands them over as the same interned path strings.
type changedMemo struct {
	skipStatus bool
	paths      []string
	ids        []uint32
	// created is the managedFields list the last create with these
	// changes got: a ReplicaSet's pods, created by one manager within
	// one second, get the same list (the same entry, time and field
	// set), which managed then returns without building and sharing it
	// again.
	created createdFields
	// set is the field set a create with these changes owns (nil until
	// one is computed): the same interned set for every such create,
	// whoever its manager.
	set *fieldSet
}

// createdFields is a create's managedFields list and what it was made
// of besides the changes.
type createdFields struct {
	manager, apiVersion, subresource string
	time                             *api.Time
	list                             []api.ManagedFieldsEntry
}

// memo returns the memo of changes (skipping status or not) and whether
// it holds their ids; nil when a change removes a value (whose ids depend
// on the object, not only on the paths). Paths are compared by their
// data and length: the same interned strings.
func (fi *fieldIndex) memo(changes []Change, skipStatus bool) (*changedMemo, bool) {
	h := uint64(14695981039346656037)
	if skipStatus {
		h ^= 1
	}
	for i := range changes {
		c := &changes[i]
		if !c.NewSet {
			return nil, false
		}
		h ^= uint64(addrmemo.Addr(c.Path)) ^ uint64(len(c.Path))<<48
		h *= 1099511628211
	}
	m := &fi.memos[h%uint64(len(fi.memos))]
	if m.skipStatus != skipStatus || len(m.paths) != len(changes) || m.paths == nil {
		return m, false
	}
	for i, p := range m.paths {
		q := changes[i].Path
		if !addrmemo.Same(p, q) {
			return m, false
		}
	}
	return m, true
}

// fieldsFor returns the field index of obj's Go type.
func (s *Store) fieldsFor(obj api.Object) *fieldIndex {
	t := reflect.TypeOf(obj)
	if fi, ok := s.fields[t]; ok {
		return fi
	}
	if s.fields == nil {
		s.fields = map[reflect.Type]*fieldIndex{}
	}
	fi := &fieldIndex{typ: t, raw: map[string]canon{}, ids: map[string]uint32{}, sets: map[uint64][]*fieldSet{}, byRaw: map[*api.RawValue]*fieldSet{}, byText: map[string]*fieldSet{}}
	s.fields[t] = fi
	return fi
}

// id interns keys (copied) and returns their id.
func (fi *fieldIndex) id(keys []string, leaf bool) uint32 {
	j := strings.Join(keys, "\x00")
	if id, ok := fi.ids[j]; ok {
		if leaf {
			fi.paths[id].leaf = true
		}
		return id
	}
	id := uint32(len(fi.paths))
	fi.ids[j] = id
	fi.paths = append(fi.paths, pathInfo{keys: slices.Clone(keys), status: len(keys) > 0 && keys[0] == "f:status", leaf: leaf})
	return id
}

// canon converts an audit-diff path to its canonical ids, cached.
func (fi *fieldIndex) canon(raw string) canon {
	if c, ok := fi.raw[raw]; ok {
		return c
	}
	var c canon
	keys, elem, leaf := canonicalKeys(fi.typ, raw)
	if len(keys) > 0 && !stripped(keys) {
		c.ids[0] = fi.id(keys, leaf)
		c.n = 1
		if elem != nil {
			c.ids[1] = fi.id(elem, false)
			c.n = 2
		}
	}
	fi.raw[raw] = c
	return c
}

// stripped reports whether a path is never owned: identity and
// server-set metadata, apiVersion and kind (Kubernetes' stripMeta).
func stripped(keys []string) bool {
	switch keys[0] {
	case "f:apiVersion", "f:kind":
		return true
	case "f:metadata":
		if len(keys) < 2 {
			return true
		}
		switch keys[1] {
		case "f:name", "f:namespace", "f:uid", "f:resourceVersion", "f:generation", "f:creationTimestamp",
			"f:selfLink", "f:managedFields", "f:deletionTimestamp", "f:deletionGracePeriodSeconds":
			return true
		}
	}
	return false
}

// token is one step of an audit-diff path: a field name or a bracketed
// map key, list key or index.
type token struct {
	name    string
	bracket bool
}

// splitPath splits "spec.containers[nginx].image" into its tokens.
func splitPath(p string) []token {
	var out []token
	for i := 0; i < len(p); {
		switch p[i] {
		case '.':
			i++
		case '[':
			end := strings.IndexByte(p[i:], ']')
			if end < 0 {
				return append(out, token{name: p[i+1:], bracket: true})
			}
			out = append(out, token{name: p[i+1 : i+end], bracket: true})
			i += end + 1
		default:
			end := strings.IndexAny(p[i:], ".[")
			if end < 0 {
				end = len(p) - i
			}
			out = append(out, token{name: p[i : i+end]})
			i += end
		}
	}
	return out
}

var labelSelectorType = reflect.TypeFor[api.LabelSelector]()

func deref(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// atomicStruct lists struct types owned whole, as Kubernetes' schema marks
// them (+structType=atomic).
func atomicStruct(t reflect.Type) bool { return t == labelSelectorType }

// canonicalKeys converts an audit-diff path of a value of type t into
// FieldsV1 keys, cut at an atomic node; elem is the keyed element's own
// path when the path is that element's key field; leaf reports that the
// path ends at a scalar.
func canonicalKeys(t reflect.Type, raw string) (keys, elem Path, leaf bool) {
	toks := splitPath(raw)
	t = deref(t)
	for i := 0; i < len(toks); i++ {
		if isLeaf(t) {
			return keys, nil, true
		}
		tok := toks[i]
		switch t.Kind() {
		case reflect.Struct:
			if tok.bracket {
				return nil, nil, false
			}
			ft, ok := fieldType(t, tok.name)
			if !ok && t == unstructuredType {
				return jsonKeys(keys, toks[i:])
			}
			if !ok {
				return nil, nil, false
			}
			keys = append(keys, "f:"+tok.name)
			t = deref(ft)
			if atomicStruct(t) {
				return keys, nil, false
			}
		case reflect.Map:
			if !tok.bracket {
				return nil, nil, false
			}
			keys = append(keys, "f:"+tok.name)
			t = deref(t.Elem())
		case reflect.Slice, reflect.Array:
			e := deref(t.Elem())
			kf := keyField(e)
			if !tok.bracket || kf == "" || allDigits(tok.name) {
				return keys, nil, false // atomic list
			}
			keys = append(keys, keyedKey(kf, tok.name))
			t = e
			if i+2 == len(toks) && !toks[i+1].bracket && toks[i+1].name == kf {
				elem = slices.Clone(keys)
			}
		default:
			return keys, nil, true
		}
	}
	return keys, elem, isLeaf(t)
}

// jsonKeys continues keys along an unstructured object's content, which
// has no schema here: objects are walked by field name, and a list is
// owned whole (as a structural schema's list without x-kubernetes-list-type
// is atomic).
func jsonKeys(keys Path, toks []token) (Path, Path, bool) {
	for _, tok := range toks {
		if tok.bracket {
			return keys, nil, false
		}
		keys = append(keys, "f:"+tok.name)
	}
	return keys, nil, true
}

func allDigits(s string) bool {
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

// keyedKey returns `k:{"<field>":"<value>"}`.
func keyedKey(field, value string) string {
	var b []byte
	b = append(b, "k:{"...)
	b = appendJSONString(b, field)
	b = append(b, ':')
	b = appendJSONString(b, value)
	b = append(b, '}')
	return string(b)
}

// plainJSON reports whether s is written in JSON as it is, between
// quotes: printable ASCII without quotes, backslashes or the characters
// encoding/json escapes for HTML.
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x7f || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

func appendJSONString(b []byte, s string) []byte {
	if plainJSON(s) {
		b = append(b, '"')
		b = append(b, s...)
		return append(b, '"')
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return append(b, bytes.TrimRight(buf.Bytes(), "\n")...)
}

// typeKey caches per-type lookups.
type typeKey struct {
	t    reflect.Type
	name string
}

var fieldIndexCache sync.Map // typeKey -> []int (nil: no such field)

// fieldByJSON returns the index path of the field of struct type t whose
// JSON name is name, looking through inlined embedded structs.
func fieldByJSON(t reflect.Type, name string) ([]int, bool) {
	k := typeKey{t, name}
	if v, ok := fieldIndexCache.Load(k); ok {
		idx := v.([]int)
		return idx, idx != nil
	}
	idx := findField(t, name)
	fieldIndexCache.Store(k, idx)
	return idx, idx != nil
}

func findField(t reflect.Type, name string) []int {
	for _, f := range fieldsOf(t) {
		if f.inline {
			ft := t.Field(f.index).Type
			if ft.Kind() == reflect.Struct {
				if sub := findField(ft, name); sub != nil {
					return append([]int{f.index}, sub...)
				}
			}
			continue
		}
		if f.name == name {
			return []int{f.index}
		}
	}
	return nil
}

func fieldType(t reflect.Type, name string) (reflect.Type, bool) {
	idx, ok := fieldByJSON(t, name)
	if !ok {
		return nil, false
	}
	return t.FieldByIndex(idx).Type, true
}

var keyFieldCache sync.Map // reflect.Type -> string

// keyField returns the JSON name of the field that keys elements of type
// e in the audit diff (the first string field named "type" or "name"), or
// "" when lists of e are atomic.
func keyField(e reflect.Type) string {
	if e.Kind() != reflect.Struct || isLeaf(e) {
		return ""
	}
	if v, ok := keyFieldCache.Load(e); ok {
		return v.(string)
	}
	kf := ""
	for _, f := range fieldsOf(e) {
		if (f.name == "type" || f.name == "name") && e.Field(f.index).Type.Kind() == reflect.String {
			kf = f.name
			break
		}
	}
	keyFieldCache.Store(e, kf)
	return kf
}

// intern returns the shared set holding exactly ids (ascending, no
// duplicates), rendering it on first use; nil for an empty set.
func (fi *fieldIndex) intern(ids []uint32) *fieldSet {
	if len(ids) == 0 {
		return nil
	}
	h := uint64(14695981039346656037)
	for _, id := range ids {
		h ^= uint64(id)
		h *= 1099511628211
	}
	for _, s := range fi.sets[h] {
		if slices.Equal(s.ids, ids) {
			return s
		}
	}
	s := newFieldSet(slices.Clone(ids))
	s.raw = fi.render(s.ids)
	fi.sets[h] = append(fi.sets[h], s)
	fi.byRaw[&s.raw] = s
	fi.byText[string(s.raw)] = s
	return s
}

// comparePathKeys orders FieldsV1 keys as structured-merge-diff does:
// fields, then keys, then values, then indexes; each by its text (indexes
// by number).
func compareKey(a, b string) int {
	ra, rb := keyRank(a), keyRank(b)
	if ra != rb {
		return ra - rb
	}
	if ra == 3 {
		x, _ := strconv.Atoi(a[2:])
		y, _ := strconv.Atoi(b[2:])
		return x - y
	}
	return strings.Compare(a, b)
}

func keyRank(k string) int {
	if len(k) < 2 {
		return 4
	}
	switch k[:2] {
	case "f:":
		return 0
	case "k:":
		return 1
	case "v:":
		return 2
	case "i:":
		return 3
	}
	return 4
}

func comparePaths(a, b Path) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if c := compareKey(a[i], b[i]); c != 0 {
			return c
		}
	}
	return len(a) - len(b)
}

// render encodes a set as FieldsV1 JSON: nested objects, "." for a node
// that is itself owned and has owned children, {} for an owned leaf; keys
// in structured-merge-diff's order.
func (fi *fieldIndex) render(ids []uint32) api.RawValue {
	paths := make([]Path, len(ids))
	for i, id := range ids {
		paths[i] = fi.paths[id].keys
	}
	return renderPaths(paths)
}

func renderPaths(paths []Path) api.RawValue {
	paths = slices.Clone(paths)
	slices.SortFunc(paths, comparePaths)
	paths = slices.CompactFunc(paths, func(a, b Path) bool { return slices.Equal(a, b) })
	b := make([]byte, 0, 32*len(paths))
	b = renderLevel(b, paths, 0)
	return api.RawValue(b)
}

// renderLevel writes the object for the paths (sorted, sharing their first
// d keys) at depth d.
func renderLevel(b []byte, paths []Path, d int) []byte {
	b = append(b, '{')
	i := 0
	first := true
	if i < len(paths) && len(paths[i]) == d {
		b = append(b, `".":{}`...)
		first = false
		i++
	}
	for i < len(paths) {
		k := paths[i][d]
		j := i
		for j < len(paths) && paths[j][d] == k {
			j++
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendJSONString(b, k)
		b = append(b, ':')
		if j == i+1 && len(paths[i]) == d+1 {
			b = append(b, "{}"...)
		} else {
			b = renderLevel(b, paths[i:j], d+1)
		}
		i = j
	}
	return append(b, '}')
}

// ParseFieldsV1 decodes a FieldsV1 value into its paths, in FieldsV1
// order. A node marked "." is a path of its own.
func ParseFieldsV1(raw api.RawValue) ([]Path, error) {
	var tree map[string]any
	if err := json.Unmarshal(raw, &tree); err != nil {
		return nil, fmt.Errorf("fieldsV1: %w", err)
	}
	var out []Path
	var walk func(prefix Path, m map[string]any) error
	walk = func(prefix Path, m map[string]any) error {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, compareKey)
		for _, k := range keys {
			if k == "." {
				out = append(out, slices.Clone(prefix))
				continue
			}
			sub, ok := m[k].(map[string]any)
			if !ok {
				return fmt.Errorf("fieldsV1: %s: not an object", append(prefix, k).String())
			}
			p := append(slices.Clone(prefix), k)
			if len(sub) == 0 {
				out = append(out, p)
				continue
			}
			if err := walk(p, sub); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(nil, tree); err != nil {
		return nil, err
	}
	slices.SortFunc(out, comparePaths)
	return out, nil
}

// entry is a decoded managedFields entry over interned sets.
type entry struct {
	manager, operation, apiVersion, subresource string
	time                                        *api.Time
	set                                         *fieldSet
}

// same reports whether e and o are one manager: name, operation and
// subresource, and apiVersion for Update entries (an applier keeps one
// entry across versions), as Kubernetes' manager identifier.
func (e *entry) same(manager, operation, apiVersion, subresource string) bool {
	return e.manager == manager && e.operation == operation && e.subresource == subresource &&
		(operation == OperationApply || e.apiVersion == apiVersion)
}

// decode reads an object's managedFields: interned sets are found by
// their rendered value (the set's own, or a copy of its bytes); others
// (an object written from outside the store) are parsed and interned.
func (fi *fieldIndex) decode(mf []api.ManagedFieldsEntry) []entry {
	out := make([]entry, 0, len(mf)+1)
	for i := range mf {
		e := &mf[i]
		set := fi.byRaw[e.FieldsV1]
		if set == nil && e.FieldsV1 != nil {
			set = fi.byText[string(*e.FieldsV1)]
		}
		if set == nil && e.FieldsV1 != nil {
			paths, err := ParseFieldsV1(*e.FieldsV1)
			if err != nil {
				continue // not ours to repair: an unreadable entry is dropped
			}
			ids := make([]uint32, 0, len(paths))
			for _, p := range paths {
				ids = append(ids, fi.id(p, false))
			}
			slices.Sort(ids)
			set = fi.intern(slices.Compact(ids))
		}
		if set == nil {
			continue
		}
		out = append(out, entry{manager: e.Manager, operation: e.Operation, apiVersion: e.APIVersion, subresource: e.Subresource, time: e.Time, set: set})
	}
	return out
}

// encode renders entries in Kubernetes' order: operation, time, manager,
// apiVersion, subresource.
func encodeEntries(es []entry) []api.ManagedFieldsEntry {
	if len(es) == 0 {
		return nil
	}
	out := make([]api.ManagedFieldsEntry, len(es))
	for i, e := range es {
		out[i] = api.ManagedFieldsEntry{Manager: e.manager, Operation: e.operation, APIVersion: e.apiVersion, Time: e.time,
			FieldsType: FieldsTypeV1, FieldsV1: &e.set.raw, Subresource: e.subresource}
	}
	slices.SortStableFunc(out, compareEncoded)
	return out
}

// fieldManager returns the manager a write records: the op's, else its
// actor.
func (op Op) fieldManager() string {
	if op.FieldManager != "" {
		return op.FieldManager
	}
	return op.Actor
}

// idSet is a small sorted set of ids under construction.
type idSet []uint32

func (s *idSet) add(id uint32) {
	i, found := slices.BinarySearch(*s, id)
	if !found {
		*s = slices.Insert(*s, i, id)
	}
}

func (s idSet) has(id uint32) bool {
	_, ok := slices.BinarySearch(s, id)
	return ok
}

// minus returns set without the ids in drop (set itself when none is in
// it).
func (fi *fieldIndex) minus(set *fieldSet, drop idSet) *fieldSet {
	if set == nil || len(drop) == 0 {
		return set
	}
	hit := false
	for _, id := range drop {
		if set.has(id) {
			hit = true
			break
		}
	}
	if !hit {
		return set
	}
	ids := fi.buf[:0]
	for _, id := range set.ids {
		if !drop.has(id) {
			ids = append(ids, id)
		}
	}
	fi.buf = ids
	return fi.intern(ids)
}

// union returns set with add added (set itself when it has them all).
func (fi *fieldIndex) union(set *fieldSet, add idSet) *fieldSet {
	if len(add) == 0 {
		return set
	}
	var have []uint32
	if set != nil {
		all := true
		for _, id := range add {
			if !set.has(id) {
				all = false
				break
			}
		}
		if all {
			return set
		}
		have = set.ids
	}
	// Merge the two ascending lists into the scratch buffer (intern
	// copies what it keeps).
	ids := fi.buf[:0]
	i, j := 0, 0
	for i < len(have) || j < len(add) {
		switch {
		case j == len(add) || i < len(have) && have[i] < add[j]:
			ids = append(ids, have[i])
			i++
		case i == len(have) || add[j] < have[i]:
			ids = append(ids, add[j])
			j++
		default:
			ids = append(ids, have[i])
			i++
			j++
		}
	}
	fi.buf = ids
	return fi.intern(ids)
}

// managed computes the managedFields of obj after a write described by
// op and changes (old is nil for a create), and reports whether they
// differ from old's. subresource is the write's ("" or "status").
func (s *Store) managed(op Op, old, obj api.Object, changes []Change, subresource string, hasStatus bool) ([]api.ManagedFieldsEntry, bool) {
	fi := s.fieldsFor(obj)
	skipStatus := subresource == "" && hasStatus
	// Scratch sets reused across writes (the store is single-threaded;
	// sets that are kept are interned copies).
	changed, removed := s.scratch[0][:0], s.scratch[1][:0]
	defer func() { s.scratch[0], s.scratch[1] = changed[:0], removed[:0] }()
	memo, hit := fi.memo(changes, skipStatus)
	manager := op.fieldManager()
	apiVersion := obj.GetTypeMeta().APIVersion
	if hit && old == nil && op.Applied == nil {
		now := s.timeNow()
		if c := &memo.created; c.list != nil && c.manager == manager && c.apiVersion == apiVersion &&
			c.subresource == subresource && c.time == now {
			return c.list, true
		}
		// Creators that take turns (5,000 kubelets, each creating a
		// pod's three Events within one second) overwrite the memo's
		// create: the list shareEntries keeps for this manager is this
		// create's when it is its one entry, with this second and set.
		if memo.set != nil {
			if prev := s.byManager[manager]; len(prev) == 1 && createdEntry(&prev[0], manager, apiVersion, subresource, now, memo.set) {
				memo.created = createdFields{manager: manager, apiVersion: apiVersion, subresource: subresource, time: now, list: prev}
				return prev, true
			}
		}
	}
	if hit {
		changed = append(changed, memo.ids...)
	} else {
		for _, c := range changes {
			cn := fi.canon(c.Path)
			for i := range cn.n {
				id := cn.ids[i]
				if skipStatus && fi.paths[id].status {
					continue
				}
				if c.NewSet {
					changed.add(id)
				} else {
					removed.add(id)
				}
			}
		}
		if memo != nil {
			memo.created, memo.set = createdFields{}, nil
			memo.skipStatus = skipStatus
			memo.paths = memo.paths[:0]
			for _, c := range changes {
				memo.paths = append(memo.paths, c.Path)
			}
			memo.ids = append(memo.ids[:0], changed...)
		}
	}
	// A removal of part of an atomic node (one element of a list of
	// scalars) is a change of the node unless the node is gone.
	if len(removed) > 0 {
		kept := removed[:0]
		v := reflect.ValueOf(obj)
		var r resolver
		for _, id := range removed {
			if changed.has(id) {
				continue
			}
			if !fi.paths[id].leaf {
				if _, ok := r.lookup(v, fi.paths[id].keys); ok {
					changed.add(id)
					continue
				}
			}
			kept = append(kept, id)
		}
		removed = kept
	}
	if op.Applied == nil && old != nil {
		if mf, ok := s.sameOwners(fi, old.GetObjectMeta().ManagedFields, manager, apiVersion, subresource, changed, removed); ok {
			return mf, len(changed) > 0
		}
	}
	var entries []entry
	if old != nil {
		entries = fi.decode(old.GetObjectMeta().ManagedFields)
	}
	operation := OperationUpdate
	var applied *fieldSet
	if op.Applied != nil {
		operation = OperationApply
		applied = fi.intern(fi.configIDs(op.Applied, true))
	}
	now := s.timeNow()
	out := make([]entry, 0, len(entries)+1)
	mine := -1
	for _, e := range entries {
		if e.same(manager, operation, apiVersion, subresource) {
			mine = len(out)
			out = append(out, e)
			continue
		}
		e.set = fi.minus(fi.minus(e.set, removed), changed)
		if e.set != nil {
			out = append(out, e)
		}
	}
	var set *fieldSet
	prev := (*fieldSet)(nil)
	if mine >= 0 {
		prev = out[mine].set
	}
	if applied != nil {
		set = fi.minus(applied, removed)
	} else {
		set = fi.union(fi.minus(prev, removed), changed)
	}
	// The writer's time moves when its write changed something (Update),
	// or when the apply changed the object or what it owns (Apply); an
	// apply that changes nothing is no write at all.
	touched := len(changed) > 0
	if applied != nil {
		touched = len(changes) > 0 || set != prev || mine < 0
	}
	switch {
	case set == nil && mine >= 0:
		out = slices.Delete(out, mine, mine+1)
	case set != nil && mine >= 0:
		out[mine].set = set
		out[mine].apiVersion = apiVersion
		if touched {
			out[mine].time = now
		}
	case set != nil:
		out = append(out, entry{manager: manager, operation: operation, apiVersion: apiVersion, subresource: subresource, time: now, set: set})
	}
	diff := len(out) != len(entries)
	if !diff {
		for i := range out {
			// Entries keep their order through the loop above.
			if out[i].set != entries[i].set || out[i].manager != entries[i].manager || out[i].time != entries[i].time {
				diff = true
				break
			}
		}
	}
	if !diff && old != nil {
		return old.GetObjectMeta().ManagedFields, false
	}
	creator := "" // shareEntries keeps a list per manager for creates only
	if old == nil {
		creator = manager
	}
	list := s.shareEntries(encodeEntries(out), creator)
	if old == nil && applied == nil && memo != nil && len(changed) > 0 && len(removed) == 0 {
		memo.created = createdFields{manager: manager, apiVersion: apiVersion, subresource: subresource, time: now, list: list}
		memo.set = set
	}
	return list, true
}

// createdEntry reports whether e is the entry a create by manager at now
// owning set gets (encodeEntries of managed's one entry): the same
// strings, and the very same time and field set.
func createdEntry(e *api.ManagedFieldsEntry, manager, apiVersion, subresource string, now *api.Time, set *fieldSet) bool {
	return e.Time == now && e.FieldsV1 == &set.raw && e.Manager == manager && e.Operation == OperationUpdate &&
		e.APIVersion == apiVersion && e.Subresource == subresource && e.FieldsType == FieldsTypeV1
}

// sameOwners is managed's fast path for the common update: the writer
// already owns every field it changed, nobody else owns any of them, and
// nothing was removed. Only the writer's time moves (when the write changed
// something); the entries are copied, not decoded. ok is false when the
// write needs the full computation.
func (s *Store) sameOwners(fi *fieldIndex, mf []api.ManagedFieldsEntry, manager, apiVersion, subresource string, changed, removed idSet) ([]api.ManagedFieldsEntry, bool) {
	if len(removed) > 0 {
		return nil, false
	}
	// The changed ids below lowIDs as bits, compared with each set's bits
	// a word at a time; the others (rare: a type's first paths are the
	// ones written again and again) one by one.
	low, high := lowBits(changed)
	mine := -1
	for i := range mf {
		e := &mf[i]
		set := fi.byRaw[e.FieldsV1]
		if set == nil {
			return nil, false
		}
		if e.Manager == manager && e.Operation == OperationUpdate && e.Subresource == subresource && e.APIVersion == apiVersion {
			for w := range low {
				if low[w]&^set.low[w] != 0 {
					return nil, false
				}
			}
			for _, id := range high {
				if !set.has(id) {
					return nil, false
				}
			}
			mine = i
			continue
		}
		for w := range low {
			if low[w]&set.low[w] != 0 {
				return nil, false
			}
		}
		for _, id := range high {
			if set.has(id) {
				return nil, false
			}
		}
	}
	if mine < 0 {
		return nil, len(changed) == 0 && len(mf) == 0
	}
	now := s.timeNow()
	if len(changed) == 0 || mf[mine].Time != nil && mf[mine].Time.Equal(now) {
		return mf, true
	}
	out := slices.Clone(mf)
	out[mine].Time = now
	if len(out) == 1 {
		// The writer's own list, such as a lease's at its renewal
		// (1,748,767 of them in the 5,000-node probe, each kubelet its own
		// manager): no list shareEntries keeps is equal to it but one
		// of an object the same manager wrote with the same fields
		// in the same second.
		return out, true
	}
	// The order is by time: the writer's entry may move.
	if !slices.IsSortedFunc(out, compareEncoded) {
		slices.SortStableFunc(out, compareEncoded)
	}
	return s.shareEntries(out, ""), true
}

// sharedLists is how many recent managedFields lists shareEntries
// compares a new list with.
const sharedLists = 8

// shareEntries returns a list equal to mf among the last sharedLists it
// was given or, for a create (manager not empty), the last one a create
// by manager was given; else mf itself. The objects written in one
// second by one manager with the same fields, such as the pods of a
// ReplicaSet, then share one list, as they already share its time and
// field set. The ring serves writers that take turns (a ReplicaSet's
// creates between the scheduler's binds); the list per manager serves
// the many creators that interleave, such as 5,000 kubelets, each
// creating a few Events a second that the ring of eight has forgotten
// by the time the same kubelet creates again. Updates do not use it:
// most are lease renewals, whose lists differ from the last by their
// time (a lookup and a store per renewal for nothing, 1,759,546 of them
// at 5,000 nodes). Stored objects are never changed in place, so sharing
// is safe. The comparison is cheap: the times and field sets are shared
// pointers, the strings nearly always the same constants. The lists kept
// are one per creating manager and sharedLists more, whatever the run's
// length.
func (s *Store) shareEntries(mf []api.ManagedFieldsEntry, manager string) []api.ManagedFieldsEntry {
	for _, prev := range s.lists {
		if slices.Equal(prev, mf) {
			return prev
		}
	}
	if manager != "" {
		if prev, ok := s.byManager[manager]; ok && slices.Equal(prev, mf) {
			return prev
		}
	}
	mf = mf[:len(mf):len(mf)]
	s.lists[s.nextList] = mf
	s.nextList = (s.nextList + 1) % sharedLists
	if manager != "" {
		s.byManager[manager] = mf
	}
	return mf
}

// timeNow returns the current second as a shared, immutable *api.Time:
// every entry written within one second points at the same value.
func (s *Store) timeNow() *api.Time {
	now := s.now()
	if s.nowTime == nil || !s.nowTime.Time.Equal(now.Time) {
		t := new(api.Time)
		*t = now
		s.nowTime = t
	}
	return s.nowTime
}

// compareEncoded orders entries as Kubernetes does: operation, time,
// manager, apiVersion, subresource.
func compareEncoded(a, b api.ManagedFieldsEntry) int {
	if a.Operation != b.Operation {
		return strings.Compare(a.Operation, b.Operation)
	}
	var ta, tb int64
	if a.Time != nil {
		ta = a.Time.Unix()
	}
	if b.Time != nil {
		tb = b.Time.Unix()
	}
	if ta != tb {
		if ta < tb {
			return -1
		}
		return 1
	}
	if a.Manager != b.Manager {
		return strings.Compare(a.Manager, b.Manager)
	}
	if a.APIVersion != b.APIVersion {
		return strings.Compare(a.APIVersion, b.APIVersion)
	}
	return strings.Compare(a.Subresource, b.Subresource)
}

// configIDs returns the ids of the fields an apply configuration sets:
// every leaf reached through a pointer or holding a non-zero value, map
// entries, keyed list elements and atomic nodes, without stripped
// metadata and (main resource) status. ids are sorted.
func (fi *fieldIndex) configIDs(obj api.Object, skipStatus bool) []uint32 {
	paths := configPaths(obj)
	ids := make([]uint32, 0, len(paths))
	for _, p := range paths {
		if len(p.keys) == 0 || stripped(p.keys) || skipStatus && p.keys[0] == "f:status" {
			continue
		}
		ids = append(ids, fi.id(p.keys, p.leaf))
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// configPath is a field an apply configuration sets, in the order it
// appears.
type configPath struct {
	keys Path
	leaf bool
}

// configPaths walks obj in field order. The keys of the path being
// walked are one stack, appended to in place (each path kept is a copy).
func configPaths(obj api.Object) []configPath {
	var out []configPath
	var walk func(v reflect.Value, keys Path, present bool)
	add := func(keys Path, leaf bool) { out = append(out, configPath{keys: slices.Clone(keys), leaf: leaf}) }
	walk = func(v reflect.Value, keys Path, present bool) {
		for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
			if v.IsNil() {
				return
			}
			if v.Kind() == reflect.Pointer {
				present = true
			}
			v = v.Elem()
		}
		t := v.Type()
		if isLeaf(t) {
			if present || !v.IsZero() {
				add(keys, true)
			}
			return
		}
		if atomicStruct(t) {
			add(keys, false)
			return
		}
		switch t.Kind() {
		case reflect.Struct:
			for _, f := range fieldsOf(t) {
				fv := v.Field(f.index)
				if f.inline {
					walk(fv, keys, false)
					continue
				}
				walk(fv, append(keys, "f:"+f.name), false)
			}
		case reflect.Map:
			if v.Len() == 0 {
				return
			}
			names := make([]string, 0, v.Len())
			for _, k := range v.MapKeys() {
				names = append(names, k.String())
			}
			slices.Sort(names)
			for _, n := range names {
				walk(v.MapIndex(reflect.ValueOf(n).Convert(t.Key())), append(keys, "f:"+n), true)
			}
		case reflect.Slice, reflect.Array:
			if v.Len() == 0 {
				return
			}
			kf := keyField(deref(t.Elem()))
			ks, ok := keyedList(v)
			if kf == "" || !ok || slices.ContainsFunc(ks, allDigits) {
				add(keys, false)
				return
			}
			for i, k := range ks {
				ek := append(keys, keyedKey(kf, k))
				add(ek, false)
				walk(v.Index(i), ek, false)
			}
		}
	}
	walk(reflect.ValueOf(obj), nil, false)
	return out
}

// setJSON sets the value at p (f: keys) in an unstructured object's
// content to a copy of val, creating the objects on the way.
func setJSON(m map[string]any, p Path, val reflect.Value) error {
	for i, k := range p {
		name, ok := strings.CutPrefix(k, "f:")
		if !ok {
			return fmt.Errorf("%s: lists of an unstructured object are set whole", Path(p).String())
		}
		if i == len(p)-1 {
			if !val.IsValid() {
				delete(m, name)
				return nil
			}
			m[name] = api.DeepCopyJSON(val.Interface())
			return nil
		}
		next, ok := m[name].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[name] = next
		}
		m = next
	}
	return nil
}

// removeJSON deletes the value at p (f: keys) from an unstructured
// object's content; a missing one is fine.
func removeJSON(m map[string]any, p Path) {
	for i, k := range p {
		name, ok := strings.CutPrefix(k, "f:")
		if !ok || m == nil {
			return
		}
		if i == len(p)-1 {
			delete(m, name)
			return
		}
		m, _ = m[name].(map[string]any)
	}
}

// deepCopy returns a copy of v sharing no pointers, maps or slices with
// it.
func deepCopy(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return reflect.Zero(v.Type())
		}
		n := reflect.New(v.Type().Elem())
		n.Elem().Set(deepCopy(v.Elem()))
		return n
	case reflect.Slice:
		if v.IsNil() {
			return reflect.Zero(v.Type())
		}
		n := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			n.Index(i).Set(deepCopy(v.Index(i)))
		}
		return n
	case reflect.Map:
		if v.IsNil() {
			return reflect.Zero(v.Type())
		}
		n := reflect.MakeMapWithSize(v.Type(), v.Len())
		it := v.MapRange()
		for it.Next() {
			n.SetMapIndex(it.Key(), deepCopy(it.Value()))
		}
		return n
	case reflect.Struct:
		n := reflect.New(v.Type()).Elem()
		n.Set(v)
		for i := range v.NumField() {
			if n.Field(i).CanSet() {
				n.Field(i).Set(deepCopy(v.Field(i)))
			}
		}
		return n
	}
	return v
}

// ManagedFields decodes obj's managedFields entries, in their order.
// Entries that do not decode are left out.
func (s *Store) ManagedFields(obj api.Object) []Managed {
	fi := s.fieldsFor(obj)
	es := fi.decode(obj.GetObjectMeta().ManagedFields)
	out := make([]Managed, len(es))
	for i, e := range es {
		m := Managed{Manager: e.manager, Operation: e.operation, APIVersion: e.apiVersion, Subresource: e.subresource}
		if e.time != nil {
			m.Time = *e.time
		}
		for _, id := range e.set.ids {
			m.Fields = append(m.Fields, fi.paths[id].keys)
		}
		slices.SortFunc(m.Fields, comparePaths)
		out[i] = m
	}
	return out
}

// PlanApply merges an apply configuration into the live object as
// server-side apply does, for manager: every field the configuration sets
// takes its value; a field the manager applied before and no longer
// applies is removed unless another manager owns it; everything else is
// kept. It returns the merged object (live is not modified) and the
// conflicts: fields of the configuration that another manager owns with
// a different value, sorted by manager, then path. The caller rejects a
// non-forced apply with conflicts, or stores the merged object with an
// Op whose Applied is config, which records the ownership.
func (s *Store) PlanApply(live, config api.Object, manager string) (api.Object, []Conflict, error) {
	if reflect.TypeOf(live) != reflect.TypeOf(config) {
		return nil, nil, fmt.Errorf("apply configuration is a %T, the object a %T", config, live)
	}
	fi := s.fieldsFor(live)
	entries := fi.decode(live.GetObjectMeta().ManagedFields)
	var prev *fieldSet
	var others []entry
	for _, e := range entries {
		if e.same(manager, OperationApply, "", "") {
			prev = e.set
			continue
		}
		others = append(others, e)
	}
	applied := fi.configIDs(config, true)
	// One resolver reads the configuration and the live object, another
	// changes the merged one: each indexes a long list once.
	var read, write resolver
	conflicts := conflictsWith(fi, &read, live, config, applied, others)
	merged := live.DeepCopyObject()
	mv := reflect.ValueOf(merged).Elem()
	if err := mergeConfig(&read, &write, mv, config); err != nil {
		return nil, nil, err
	}
	if prev != nil {
		removeUnapplied(&write, mv, unapplied(fi, prev, applied, others))
	}
	mm, cm := merged.GetObjectMeta(), config.GetObjectMeta()
	if cm.ResourceVersion != "" {
		mm.ResourceVersion = cm.ResourceVersion
	}
	return merged, conflicts, nil
}

// conflictsWith returns the fields of applied (ids, ascending) that one
// of others owns while live holds another value there than config, one
// conflict per owner, sorted by manager, then path.
func conflictsWith(fi *fieldIndex, r *resolver, live, config api.Object, applied []uint32, others []entry) []Conflict {
	lv, cv := reflect.ValueOf(live), reflect.ValueOf(config)
	var conflicts []Conflict
	for _, id := range applied {
		p := fi.paths[id].keys
		if strings.HasPrefix(p[len(p)-1], "k:") {
			continue // an element's own node: its key is its value
		}
		var want string
		wantKnown := false
		for _, e := range others {
			if !e.set.has(id) {
				continue
			}
			if !wantKnown {
				want, _ = r.fieldValue(cv, p)
				wantKnown = true
			}
			if got, ok := r.fieldValue(lv, p); ok && got == want {
				continue
			}
			conflicts = append(conflicts, Conflict{Manager: e.manager, Operation: e.operation, APIVersion: e.apiVersion, Subresource: e.subresource, Path: p})
		}
	}
	slices.SortStableFunc(conflicts, func(a, b Conflict) int {
		if c := strings.Compare(a.Manager, b.Manager); c != 0 {
			return c
		}
		if c := strings.Compare(a.Operation, b.Operation); c != 0 {
			return c
		}
		if c := strings.Compare(a.APIVersion, b.APIVersion); c != 0 {
			return c
		}
		if c := strings.Compare(a.Subresource, b.Subresource); c != 0 {
			return c
		}
		return comparePaths(a.Path, b.Path)
	})
	return conflicts
}

// mergeConfig sets every field config sets (but stripped metadata and
// status) in mv, the merged object, in the configuration's field order;
// read resolves paths in config, write in mv.
func mergeConfig(read, write *resolver, mv reflect.Value, config api.Object) error {
	cv := reflect.ValueOf(config)
	for _, cp := range configPaths(config) {
		if len(cp.keys) == 0 || stripped(cp.keys) || cp.keys[0] == "f:status" {
			continue
		}
		val, ok := read.lookup(cv, cp.keys)
		if !ok && cp.leaf {
			// A pointer to a zero value, or an empty map entry.
			val, ok = read.lookupAny(cv, cp.keys)
		}
		if !ok && !strings.HasPrefix(cp.keys[len(cp.keys)-1], "k:") {
			continue
		}
		if err := write.setAt(mv, cp.keys, val); err != nil {
			return err
		}
	}
	return nil
}

// unapplied returns the fields of prev, the manager's last apply, that
// applied (ids, ascending) no longer has and none of others owns, itself
// or below it, shortest first (stable in id order).
func unapplied(fi *fieldIndex, prev *fieldSet, applied []uint32, others []entry) []Path {
	var gone []Path
	var owned ownedPaths
	for _, id := range prev.ids {
		if _, ok := slices.BinarySearch(applied, id); ok {
			continue
		}
		if owned == nil {
			owned = ownedBy(fi, others)
		}
		p := fi.paths[id].keys
		if owned.hasBelow(p) {
			continue
		}
		gone = append(gone, p)
	}
	slices.SortStableFunc(gone, func(a, b Path) int { return len(a) - len(b) })
	return gone
}

// removeUnapplied removes the paths gone (shortest first) from mv. An
// element that goes takes its fields with it (including the defaults
// nobody owns): the paths below it are skipped.
func removeUnapplied(r *resolver, mv reflect.Value, gone []Path) {
	elems := map[string]bool{}
	for _, p := range gone {
		if belowElement(elems, p) {
			continue
		}
		r.removeAt(mv, p)
		if strings.HasPrefix(p[len(p)-1], "k:") {
			elems[strings.Join(p, "\x00")] = true
		}
	}
	r.flush()
}

// belowElement reports whether a proper prefix of p ending at a keyed
// element is in elems (paths joined by NUL).
func belowElement(elems map[string]bool, p Path) bool {
	if len(elems) == 0 {
		return false
	}
	for i := range len(p) - 1 {
		if strings.HasPrefix(p[i], "k:") && elems[strings.Join(p[:i+1], "\x00")] {
			return true
		}
	}
	return false
}

// ownedPaths is every path some entries own, in slices.Compare order,
// where the paths below a path follow it.
type ownedPaths []Path

// ownedBy returns the paths es own (never nil).
func ownedBy(fi *fieldIndex, es []entry) ownedPaths {
	out := ownedPaths{}
	for _, e := range es {
		for _, id := range e.set.ids {
			out = append(out, fi.paths[id].keys)
		}
	}
	slices.SortFunc(out, slices.Compare)
	return out
}

// hasBelow reports whether o has p or a path below it: the first path
// not before p starts with p if any does.
func (o ownedPaths) hasBelow(p Path) bool {
	i, _ := slices.BinarySearchFunc(o, p, slices.Compare)
	return i < len(o) && len(o[i]) >= len(p) && slices.Equal(o[i][:len(p)], p)
}
