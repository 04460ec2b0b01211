package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/clustersim/clustersim/sim/api"
)

// Change is one leaf field that a write changed, with its old and new value
// rendered as text. A field that did not exist before (or no longer exists)
// has Old (or New) "" and OldSet (NewSet) false.
//
// Paths follow the manifest's field names. List elements that carry a
// "type" or "name" field are addressed by it, so a list reordering is not a
// change of every element: status.conditions[Available].status,
// spec.template.spec.containers[nginx].image. Other list elements are
// addressed by index, map entries by key: metadata.labels[app].
type Change struct {
	Path   string
	Old    string
	New    string
	OldSet bool
	NewSet bool
}

// Diff returns the leaf-level changes between two values of the same type
// (nil pointers and zero values are fine), in field order with map keys
// sorted. Unexported fields are ignored. Values whose type implements
// json.Marshaler (times, quantities, int-or-strings, raw values) are leaves
// rendered by their JSON form.
func Diff(old, new any) []Change { return diff(old, new, nil, "") }

// diff is Diff with the paths interned in intern when it is not nil (an
// audit log repeats a few hundred paths millions of times), and without
// the subtree at the path skip when it is not "".
func diff(old, new any, intern map[string]string, skip string) []Change {
	return diffWith(&differ{intern: intern, skip: skip}, old, new)
}

// diffWith diffs with d, whose buffers it grows (and keeps, for reuse).
func diffWith(d *differ, old, new any) []Change {
	a, b := reflect.ValueOf(old), reflect.ValueOf(new)
	if !d.reflective && b.Kind() == reflect.Pointer && (!a.IsValid() || a.Type() == b.Type()) {
		// Objects are pointers to structs: walk their memory.
		var pa unsafe.Pointer
		if a.IsValid() {
			pa = a.UnsafePointer()
		}
		pb := b.UnsafePointer()
		if pa == pb && pa != nil {
			return d.out // the very same object (walk's sameData)
		}
		info := infoOf(b.Type()).elem
		d.walkPtr(pa, pb, info, d.root(info))
		return d.out
	}
	d.walk(a, b, a.IsValid(), b.IsValid())
	return d.out
}

type differ struct {
	path   []byte
	out    []Change
	intern map[string]string
	skip   string
	// keys is a stack of the list keys and map entries the walk is
	// comparing, reused across levels (and across diffs by the audit
	// log) instead of allocated per list.
	keys    []string
	entries []mapEntry
	// audit is set for the audit log, which drops the changes of
	// metadata.resourceVersion and metadata.managedFields: the differ
	// may then skip an object's metadata when nothing else in it
	// changed (metaUnchanged), which most updates are.
	audit bool
	// walkEqual turns off the == shortcut of equalTypes (for tests
	// that compare it with the walk).
	walkEqual bool
	// reflective makes the walk go through reflect.Values all the way
	// (walkInfo), not through memory (walkPtr): tests compare the two.
	reflective bool
	// leaves holds the two values of a map entry that walkLeafMap
	// compares (allocated once: the audit log reuses its differ).
	leaves *leafPair
	// entry is the path length of the map entry (or list element)
	// walkMap (walkList) is walking when one side lacks it (0: none): a
	// key is there or not whatever its value, so its value appearing or
	// leaving is a change even when it is the zero value (hard: {pods:
	// "0"}, a label of "", an argument of ""), where a struct field's
	// zero value is what omitempty would not print.
	entry int
	// roots are the path trees of the object types walked, when paths
	// are interned.
	roots map[*typeInfo]*pathNode
	// renewTime is the interned "spec.renewTime", once leaseRenewal
	// has looked it up.
	renewTime string
	// deferRenew lets leaseRenewal leave its change's two times
	// unrendered (the audit log's differ: auditChanges sets it): the
	// change then has empty Old and New, and renew holds the times for
	// the log's consumer to render (deferredRenewal), which it does only
	// for a renewal it keeps or traces, not for one it counts.
	deferRenew bool
	renew      deferredRenewal
	// seconds are the times the walk through memory rendered last,
	// by their Unix second: an api.Time renders by its second alone,
	// and most of those a run renders are within a few seconds of now
	// (creation timestamps, conditions' transitions, Events' first and
	// last times). Rendering each afresh was a tenth of the 3,000-node
	// probe's allocations.
	seconds [renderedSeconds]renderedTime
	// renewals are the lease renew times leaseRenewal rendered last, by
	// Unix second and microsecond (made at the first renewal): a
	// renewal's old time is the new one of the lease's renewal before,
	// ten seconds and one renewal of every other node earlier.
	renewals []renderedTime
	// renewSeconds are the "2006-01-02T15:04:05" parts of the renew
	// times renderRenewTime rendered last, by Unix second (its low four
	// bits): a renewal's old and new times are ten seconds apart, and at
	// thousands of nodes a few hundred renewals share each second, so
	// that a renew time is those bytes and its microseconds.
	renewSeconds [16]renewSecond
}

// renewSecond is the text of one UTC second, as RFC3339Micro begins it.
type renewSecond struct {
	unix int64
	set  bool
	text [len("2006-01-02T15:04:05")]byte
}

// How many rendered times the differ keeps: seconds, a few around now;
// renew times, the leases of a few thousand nodes.
const (
	renderedSeconds  = 16
	renderedRenewals = 1 << 13
)

// renderedTime is one time the differ rendered, by its Unix second and
// microsecond within it (floored, as the rendering is, also before
// 1970; 0 for an api.Time, which renders by its second).
type renderedTime struct {
	unix     int64
	micro    int32
	rendered string // "" when empty
}

// rendered returns the rendering of the time (unix, micro) from slots,
// direct-mapped, rendering it with render when its slot holds another.
// The second's multiplier is odd, so that whole seconds (micro 0) spread
// over every slot: with a million, a multiple of 16, they all fell in
// one.
func rendered(slots []renderedTime, unix int64, micro int32, render func() string) string {
	r := &slots[(uint64(unix)*1_000_003+uint64(micro))%uint64(len(slots))]
	if r.rendered == "" || r.unix != unix || r.micro != micro {
		*r = renderedTime{unix: unix, micro: micro, rendered: render()}
	}
	return r.rendered
}

// renderTime is renderTime through the differ's rendered seconds.
func (d *differ) renderTime(t api.Time) string {
	if t.Time.IsZero() {
		return "null"
	}
	return rendered(d.seconds[:], t.Unix(), 0, func() string { return renderTime(t) })
}

// renderRenewTime is renderMicroTime through the differ's rendered
// renew times.
func (d *differ) renderRenewTime(t api.MicroTime) string {
	if t.Time.IsZero() {
		return "null"
	}
	if d.renewals == nil {
		d.renewals = make([]renderedTime, renderedRenewals)
	}
	return rendered(d.renewals, t.Unix(), int32(t.Nanosecond()/1000), func() string { return d.renderMicro(t) })
}

// renderMicro is renderMicroTime through the differ's rendered seconds
// (renewSeconds): the second's text formatted once (AppendFormat), the
// microseconds after it. The zero time and a time outside years 0 to
// 9999 are renderMicroTime's. TestRenderMicro holds the two to the same text.
func (d *differ) renderMicro(t api.MicroTime) string {
	if t.Time.IsZero() {
		return renderMicroTime(t) // "null", though its second may be kept
	}
	u := t.UTC()
	unix := u.Unix()
	sec := &d.renewSeconds[unix&15]
	if !sec.set || sec.unix != unix {
		if !inRenderedYears(u) {
			return renderMicroTime(t)
		}
		if text := u.AppendFormat(sec.text[:0], "2006-01-02T15:04:05"); len(text) != len(sec.text) {
			sec.set = false
			return renderMicroTime(t)
		}
		sec.unix, sec.set = unix, true
	}
	var b [len(api.RFC3339Micro) - len("07:00")]byte // "2006-01-02T15:04:05.000000Z"
	copy(b[:], sec.text[:])
	b[len(sec.text)] = '.'
	us := u.Nanosecond() / 1000
	for i := len(b) - 2; i > len(sec.text); i-- {
		b[i] = byte('0' + us%10)
		us /= 10
	}
	b[len(b)-1] = 'Z'
	return string(b[:])
}

// pathNode is one interned path of the walk through memory with the
// paths below it: the walk goes down the tree beside the path it builds,
// so that a change takes its path from its node instead of looking its
// text up in the interned paths (most changes of a create or a status
// write: a few hundred distinct paths, millions of changes).
type pathNode struct {
	path   string               // interned when a change first needs it
	named  bool                 // path is set
	fields []*pathNode          // by position in the struct type's fields
	keys   map[string]*pathNode // by list or map key
	index  []*pathNode          // by list position
}

// root returns the path tree of objects of info's type, nil when paths
// are not interned.
func (d *differ) root(info *typeInfo) *pathNode {
	if d.intern == nil {
		return nil
	}
	n := d.roots[info]
	if n == nil {
		if d.roots == nil {
			d.roots = map[*typeInfo]*pathNode{}
		}
		n = &pathNode{}
		d.roots[info] = n
	}
	return n
}

// internPath returns the current path, interned.
func (d *differ) internPath() string {
	if p, ok := d.intern[string(d.path)]; ok {
		return p
	}
	p := string(d.path)
	d.intern[p] = p
	return p
}

// field returns n's child for the field at position i of n's struct
// type (of n fields); nil below nil. A node's path is the walk's path
// where it is reached.
func (n *pathNode) field(i, fields int) *pathNode {
	if n == nil {
		return nil
	}
	if n.fields == nil {
		n.fields = make([]*pathNode, fields)
	}
	c := n.fields[i]
	if c == nil {
		c = &pathNode{}
		n.fields[i] = c
	}
	return c
}

// key returns n's child for list or map key k.
func (n *pathNode) key(k string) *pathNode {
	if n == nil {
		return nil
	}
	c := n.keys[k]
	if c == nil {
		if n.keys == nil {
			n.keys = map[string]*pathNode{}
		}
		c = &pathNode{}
		n.keys[k] = c
	}
	return c
}

// at returns n's child for list position i.
func (n *pathNode) at(i int) *pathNode {
	if n == nil {
		return nil
	}
	for len(n.index) <= i {
		n.index = append(n.index, nil)
	}
	c := n.index[i]
	if c == nil {
		c = &pathNode{}
		n.index[i] = c
	}
	return c
}

// leafPair is where walkLeafMap puts the two values it compares.
type leafPair struct {
	str [2]string
	qty [2]api.Quantity
}

var (
	marshalerType    = reflect.TypeFor[json.Marshaler]()
	unstructuredType = reflect.TypeFor[api.Unstructured]()
	objectMetaType   = reflect.TypeFor[api.ObjectMeta]()
	stringMapType    = reflect.TypeFor[map[string]string]()
	resourceListType = reflect.TypeFor[api.ResourceList]()
	quantityType     = reflect.TypeFor[api.Quantity]()
	timeType         = reflect.TypeFor[api.Time]()
	microTimeType    = reflect.TypeFor[api.MicroTime]()
)

// fieldInfo is the JSON name of a struct field, cached per type.
type fieldInfo struct {
	index  int
	name   string // "" for an inlined embedded struct
	inline bool
	info   *typeInfo // of the field's type
	offset uintptr   // in the struct
}

// leafCompare is how leafEqual compares two leaves of a type.
type leafCompare uint8

const (
	cmpString  leafCompare = iota // by their strings
	cmpBool                       // by their bools
	cmpInt                        // by their signed integers
	cmpUint                       // by their unsigned integers
	cmpFloat                      // by their floats
	cmpEqual                      // with ==: comparable, no interface inside
	cmpDynamic                    // with == when the values are comparable, else by render
	cmpRender                     // by render: not comparable
)

// typeInfo is what the differ needs to know of a type, computed once per
// type: one lookup per value walked instead of one per question asked.
type typeInfo struct {
	typ    reflect.Type
	kind   reflect.Kind
	size   uintptr
	leaf   bool        // rendered whole rather than walked
	cmp    leafCompare // for leaves
	fields []fieldInfo // for structs
	// eq compares two values of a comparable struct type with ==, for
	// the types in equalTypes: equal values have no change to walk.
	eq func(a, b unsafe.Pointer) bool
	// elem is the element type's info for pointers, slices, arrays
	// and maps: the walk goes down a value's static types without a
	// cache lookup per value.
	elem *typeInfo
	// keyField is the position in fields of the field that keys a
	// list of this struct type (elemKey: the first string field named
	// "type" or "name"), or -1.
	keyField int
	arrayLen int // for arrays
}

// equalOf returns == on values of T behind two pointers.
func equalOf[T comparable]() func(a, b unsafe.Pointer) bool {
	return func(a, b unsafe.Pointer) bool { return *(*T)(a) == *(*T)(b) }
}

// equalTypes are the comparable struct types (no interface inside, so ==
// cannot panic) that lists of hot writes hold, mostly unchanged from one
// write to the next: a pod's or node's conditions. Values equal under ==
// render the same field by field (equal strings and numbers, times of
// the same instant and location, the same pointers), so the walk may skip
// them; unequal ones are walked as before.
var equalTypes = map[reflect.Type]func(a, b unsafe.Pointer) bool{
	reflect.TypeFor[api.PodCondition]():        equalOf[api.PodCondition](),
	reflect.TypeFor[api.NodeCondition]():       equalOf[api.NodeCondition](),
	reflect.TypeFor[api.DeploymentCondition](): equalOf[api.DeploymentCondition](),
	reflect.TypeFor[api.ReplicaSetCondition](): equalOf[api.ReplicaSetCondition](),
	reflect.TypeFor[api.NodeAddress]():         equalOf[api.NodeAddress](),
	reflect.TypeFor[api.ContainerPort]():       equalOf[api.ContainerPort](),
	reflect.TypeFor[api.PodIP]():               equalOf[api.PodIP](),
	reflect.TypeFor[api.HostIP]():              equalOf[api.HostIP](),
}

// typeCache maps reflect.Type to *typeInfo. Readers load the map without
// a lock; a new type copies it under typeMu (a few dozen types ever, so
// copies are rare). Simulations may run side by side (run --seeds).
var (
	typeCache atomic.Pointer[map[reflect.Type]*typeInfo]
	typeMu    sync.Mutex
)

func infoOf(t reflect.Type) *typeInfo {
	if m := typeCache.Load(); m != nil {
		if info, ok := (*m)[t]; ok {
			return info
		}
	}
	typeMu.Lock()
	defer typeMu.Unlock()
	cur := typeCache.Load()
	if cur != nil {
		if info, ok := (*cur)[t]; ok {
			return info
		}
	}
	next := map[reflect.Type]*typeInfo{}
	if cur != nil {
		maps.Copy(next, *cur)
	}
	info := buildInfo(t, next)
	typeCache.Store(&next)
	return info
}

// buildInfo returns t's info from m, or adds it and the infos of the
// types it holds (in place or behind pointers) to m. It registers t's
// info before building the others, so recursive types end.
func buildInfo(t reflect.Type, m map[reflect.Type]*typeInfo) *typeInfo {
	if info, ok := m[t]; ok {
		return info
	}
	info := &typeInfo{typ: t, kind: t.Kind(), size: t.Size(), leaf: leafType(t), cmp: compareOf(t), eq: equalTypes[t], keyField: -1}
	m[t] = info
	switch t.Kind() {
	case reflect.Struct:
		info.fields = structFields(t)
		for i := range info.fields {
			f := &info.fields[i]
			sf := t.Field(f.index)
			ft := sf.Type
			f.info, f.offset = buildInfo(ft, m), sf.Offset
			if info.keyField < 0 && (f.name == "type" || f.name == "name") && ft.Kind() == reflect.String {
				info.keyField = i
			}
		}
	case reflect.Array:
		info.arrayLen = t.Len()
		info.elem = buildInfo(t.Elem(), m)
	case reflect.Pointer, reflect.Slice, reflect.Map:
		info.elem = buildInfo(t.Elem(), m)
	}
	return info
}

func fieldsOf(t reflect.Type) []fieldInfo { return infoOf(t).fields }

func structFields(t reflect.Type) []fieldInfo {
	var fs []fieldInfo
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		tag := sf.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		if sf.Anonymous && name == "" {
			fs = append(fs, fieldInfo{index: i, inline: true})
			continue
		}
		if name == "" {
			name = sf.Name
		}
		fs = append(fs, fieldInfo{index: i, name: name})
	}
	return fs
}

// isLeaf reports whether values of t are rendered whole rather than walked.
func isLeaf(t reflect.Type) bool { return infoOf(t).leaf }

func leafType(t reflect.Type) bool {
	leaf := true
	// An unstructured object marshals itself, but is walked like any
	// object: its fields are its content.
	if t == unstructuredType || !t.Implements(marshalerType) && !reflect.PointerTo(t).Implements(marshalerType) {
		switch t.Kind() {
		case reflect.Struct, reflect.Map, reflect.Slice, reflect.Array, reflect.Pointer, reflect.Interface:
			leaf = t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 // []byte
		}
	}
	return leaf
}

func compareOf(t reflect.Type) leafCompare {
	switch t.Kind() {
	case reflect.String:
		return cmpString
	case reflect.Bool:
		return cmpBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return cmpInt
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return cmpUint
	case reflect.Float32, reflect.Float64:
		return cmpFloat
	}
	switch {
	case !t.Comparable():
		return cmpRender
	case holdsInterface(t):
		return cmpDynamic
	}
	return cmpEqual
}

// holdsInterface reports whether a value of t holds an interface
// in place (not behind a pointer), whose dynamic value may not be
// comparable.
func holdsInterface(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.Array:
		return holdsInterface(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if holdsInterface(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

// sameData reports whether a and b are the very same map or slice (or
// pointer): objects share unchanged parts, so this skips whole subtrees.
func sameData(a, b reflect.Value, kind reflect.Kind) bool {
	switch kind {
	case reflect.Pointer, reflect.Map:
		return a.Pointer() == b.Pointer()
	case reflect.Slice:
		return a.Len() == b.Len() && (a.Len() == 0 || a.Pointer() == b.Pointer())
	}
	return false
}

func render(v reflect.Value) string {
	switch v.Kind() {
	case reflect.String:
		return v.String()
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.FormatUint(v.Uint(), 10)
	case reflect.Float32, reflect.Float64:
		return strconv.FormatFloat(v.Float(), 'g', -1, 64)
	}
	// Times are most of a heartbeat's changes: formatted as their
	// MarshalJSON would, without its quotes and allocations.
	switch v.Type() {
	case timeType:
		return renderTime(timeOf[api.Time](v))
	case microTimeType:
		return renderMicroTime(timeOf[api.MicroTime](v))
	}
	var m json.Marshaler
	if v.Type().Implements(marshalerType) {
		m = v.Interface().(json.Marshaler)
	} else if v.CanAddr() {
		m, _ = v.Addr().Interface().(json.Marshaler)
	} else {
		p := reflect.New(v.Type())
		p.Elem().Set(v)
		m, _ = p.Interface().(json.Marshaler)
	}
	if m != nil {
		return renderMarshaler(m)
	}
	b, _ := json.Marshal(v.Interface())
	return string(b)
}

// renderMarshaler is render of a value that marshals itself: its JSON,
// unquoted when it is a string.
func renderMarshaler(m json.Marshaler) string {
	b, err := m.MarshalJSON()
	if err != nil {
		return "<" + err.Error() + ">"
	}
	if s, err := strconv.Unquote(string(b)); err == nil {
		return s
	}
	return string(b)
}

// renderTime is render of a Time: its MarshalJSON without the quotes.
func renderTime(t api.Time) string {
	if t.Time.IsZero() {
		return "null"
	}
	var buf [len(time.RFC3339) + 8]byte
	return string(t.UTC().AppendFormat(buf[:0], time.RFC3339))
}

// renderMicroTime is render of a MicroTime.
func renderMicroTime(t api.MicroTime) string {
	if t.Time.IsZero() {
		return "null"
	}
	var buf [len(api.RFC3339Micro) + 8]byte
	return string(t.UTC().AppendFormat(buf[:0], api.RFC3339Micro))
}

// timeOf returns v's value of type T, through its address when it has
// one: v.Interface() copies the value to the heap.
func timeOf[T any](v reflect.Value) T {
	if v.CanAddr() {
		return *v.Addr().Interface().(*T)
	}
	return v.Interface().(T)
}

func (d *differ) emit(old, new reflect.Value, oldSet, newSet bool) {
	// A zero value appearing or disappearing with its parent is not a
	// change worth reporting: it is what omitempty would not print. A
	// map entry's is (d.entry).
	if d.entry != len(d.path) && (!oldSet && new.IsZero() || !newSet && old.IsValid() && old.IsZero()) {
		return
	}
	c := Change{OldSet: oldSet, NewSet: newSet}
	if oldSet {
		c.Old = render(old)
	}
	if newSet {
		c.New = render(new)
	}
	d.add(c, nil)
}

// add appends c at the current path (node's, when known) unless its
// values render the same.
func (d *differ) add(c Change, node *pathNode) {
	if c.OldSet && c.NewSet && c.Old == c.New {
		return
	}
	if node != nil {
		if !node.named {
			node.path, node.named = d.internPath(), true
		}
		c.Path = node.path
	} else if p, ok := d.intern[string(d.path)]; ok {
		c.Path = p
	} else {
		c.Path = string(d.path)
		if d.intern != nil {
			d.intern[c.Path] = c.Path
		}
	}
	d.out = append(d.out, c)
}

// walk compares a and b (either may be invalid: absent). aSet/bSet say
// whether the field exists on each side.
func (d *differ) walk(a, b reflect.Value, aSet, bSet bool) {
	var ta, tb *typeInfo
	if a.IsValid() {
		ta = infoOf(a.Type())
	}
	if b.IsValid() {
		tb = infoOf(b.Type())
	}
	d.walkInfo(a, b, aSet, bSet, ta, tb)
}

// walkInfo is walk with the infos of a's and b's types (for a valid
// value) known: a field's, an element's, the type a pointer points to.
func (d *differ) walkInfo(a, b reflect.Value, aSet, bSet bool, ta, tb *typeInfo) {
	if aSet && bSet && a.IsValid() && b.IsValid() && ta == tb && sameData(a, b, ta.kind) {
		return
	}
	// Dereference pointers and interfaces; a nil pointer is an absent
	// value.
	for a.IsValid() && (ta.kind == reflect.Pointer || ta.kind == reflect.Interface) {
		if a.IsNil() {
			a, aSet = reflect.Value{}, false
			break
		}
		a = a.Elem()
		if ta.kind == reflect.Pointer {
			ta = ta.elem
			if ta.leaf {
				break
			}
		} else {
			ta = infoOf(a.Type())
		}
	}
	for b.IsValid() && (tb.kind == reflect.Pointer || tb.kind == reflect.Interface) {
		if b.IsNil() {
			b, bSet = reflect.Value{}, false
			break
		}
		b = b.Elem()
		if tb.kind == reflect.Pointer {
			tb = tb.elem
			if tb.leaf {
				break
			}
		} else {
			tb = infoOf(b.Type())
		}
	}
	if !aSet && !bSet {
		return
	}
	info := tb
	if aSet {
		info = ta
	}
	if aSet && bSet && ta != tb {
		d.emit(a, b, true, true)
		return
	}
	if info.leaf {
		if aSet && bSet && leafEqual(a, b, info.cmp) {
			return
		}
		d.emit(a, b, aSet, bSet)
		return
	}
	switch info.kind {
	case reflect.Struct:
		if aSet && bSet && sameBits(a, b, info.size) {
			return
		}
		if info.eq != nil && !d.walkEqual && aSet && bSet && a.CanAddr() && b.CanAddr() &&
			info.eq(unsafe.Pointer(a.UnsafeAddr()), unsafe.Pointer(b.UnsafeAddr())) {
			return
		}
		mark := len(d.path)
		// Metadata unchanged but for the fields the audit log drops
		// and the generation: only the generation can be a change.
		onlyGeneration := d.audit && info.typ == objectMetaType && aSet && bSet && a.CanAddr() && b.CanAddr() &&
			metaUnchanged((*api.ObjectMeta)(unsafe.Pointer(a.UnsafeAddr())), (*api.ObjectMeta)(unsafe.Pointer(b.UnsafeAddr())))
		for i := range info.fields {
			f := &info.fields[i]
			if onlyGeneration && f.name != "generation" {
				continue
			}
			var fa, fb reflect.Value
			if aSet {
				fa = a.Field(f.index)
			}
			if bSet {
				fb = b.Field(f.index)
			}
			if f.inline {
				d.walkInfo(fa, fb, aSet, bSet, f.info, f.info)
				continue
			}
			d.enter(f.name)
			if d.skip != "" && string(d.path) == d.skip {
				d.path = d.path[:mark]
				continue
			}
			d.walkInfo(fa, fb, aSet && !emptyList(fa), bSet && !emptyList(fb), f.info, f.info)
			d.path = d.path[:mark]
		}
	case reflect.Map:
		d.walkMap(a, b, aSet, bSet, info)
	case reflect.Slice, reflect.Array:
		d.walkList(a, b, aSet, bSet, info)
	}
}

// sameBits reports whether two addressable values of one struct type
// are the same bytes: every scalar equal and every string, slice, map,
// pointer and interface the very same data. Nothing in them can differ
// then. A status write shares the stored object's spec and metadata
// (withStatusOf copies the object shallowly), so this skips them at the
// cost of one memory comparison instead of a field-by-field walk. It may
// say false of equal values (padding, or equal data in different
// places: the walk then compares them), never true of different ones.
func sameBits(a, b reflect.Value, n uintptr) bool {
	if !a.CanAddr() || !b.CanAddr() {
		return false
	}
	if n == 0 {
		return true
	}
	return sameBytes(unsafe.Pointer(a.UnsafeAddr()), unsafe.Pointer(b.UnsafeAddr()), n)
}

// zeroBytes reports whether b, a value's memory, is all zero bytes: the
// zero value of any type, which the walk renders as absent. A value
// larger than zeroes is reported not zero (the walk then looks into it).
func zeroBytes(b []byte) bool {
	switch len(b) {
	case 8:
		return binary.LittleEndian.Uint64(b) == 0
	case 4:
		return binary.LittleEndian.Uint32(b) == 0
	case 1:
		return b[0] == 0
	}
	return len(b) <= len(zeroes) && bytes.Equal(b, zeroes[:len(b)])
}

// bytesAt is the n bytes of memory at p.
func bytesAt(p unsafe.Pointer, n uintptr) []byte { return unsafe.Slice((*byte)(p), n) }

// zeroes is what zeroBytes compares with.
var zeroes [1024]byte

// sameBytes reports whether the n bytes at a and at b are the same
// (sameBits' comparison, the walk's and the typed fast paths').
func sameBytes(a, b unsafe.Pointer, n uintptr) bool {
	return a == b || bytes.Equal(unsafe.Slice((*byte)(a), n), unsafe.Slice((*byte)(b), n))
}

// metaUnchanged reports whether a and b are equal in every field of
// ObjectMeta but resourceVersion, generation and managedFields (the
// fields an update's bookkeeping changes), so that the walk of metadata
// can stop at the generation. It may say false of metadata that only
// render the same (then the walk compares them as always), never true of
// metadata that differ. TestMetaUnchangedFields fails when ObjectMeta or
// OwnerReference gain a field this does not compare.
func metaUnchanged(a, b *api.ObjectMeta) bool {
	return a.Name == b.Name && a.GenerateName == b.GenerateName && a.Namespace == b.Namespace &&
		a.SelfLink == b.SelfLink && a.UID == b.UID && a.CreationTimestamp == b.CreationTimestamp &&
		samePtr(a.DeletionTimestamp, b.DeletionTimestamp) && samePtr(a.DeletionGracePeriodSeconds, b.DeletionGracePeriodSeconds) &&
		api.EqualEntries(a.Labels, b.Labels) && api.EqualEntries(a.Annotations, b.Annotations) &&
		(api.SameElements(a.OwnerReferences, b.OwnerReferences) || slices.EqualFunc(a.OwnerReferences, b.OwnerReferences, api.OwnerReference.Equal)) &&
		(api.SameElements(a.Finalizers, b.Finalizers) || slices.Equal(a.Finalizers, b.Finalizers))
}

// samePtr reports whether a and b are both nil or point to equal values.
func samePtr[T comparable](a, b *T) bool {
	return a == b || a != nil && b != nil && *a == *b
}

// both returns old and new as *T when both are non-nil *T (a Lease
// renewal, a pod's status write: the fast paths' writes).
func both[T any, P interface {
	*T
	api.Object
}](old, new api.Object) (a, b *T, ok bool) {
	pa, okA := old.(P)
	pb, okB := new.(P)
	a, b = (*T)(pa), (*T)(pb)
	return a, b, okA && okB && a != nil && b != nil
}

// leaseRenewal is the audit diff of a lease update that changes at most
// spec.renewTime (and resourceVersion or managedFields, which the audit
// leaves out), without the reflective walk: more than half of a
// cluster's writes are such renewals (every kubelet's every 10 s). It
// appends what the walk would (TestAuditDiffSkipsUnchangedMeta compares
// them) and reports true, or reports false and appends nothing when the
// update changes anything else: the walk then diffs it.
// TestLeaseRenewalFields fails when Lease or LeaseSpec gain a field.
func (d *differ) leaseRenewal(a, b *api.Lease) bool {
	sa, sb := &a.Spec, &b.Spec
	if a.TypeMeta != b.TypeMeta || a.Generation != b.Generation || !metaUnchanged(&a.ObjectMeta, &b.ObjectMeta) ||
		!samePtr(sa.HolderIdentity, sb.HolderIdentity) || !samePtr(sa.LeaseDurationSeconds, sb.LeaseDurationSeconds) ||
		!samePtr(sa.AcquireTime, sb.AcquireTime) || !samePtr(sa.LeaseTransitions, sb.LeaseTransitions) ||
		!samePtr(sa.Strategy, sb.Strategy) || !samePtr(sa.PreferredHolder, sb.PreferredHolder) ||
		(sa.RenewTime == nil) != (sb.RenewTime == nil) {
		return false
	}
	if samePtr(sa.RenewTime, sb.RenewTime) {
		return true
	}
	var c Change
	if ra, rb, ok := d.renewStamps(*sa.RenewTime, *sb.RenewTime); ok {
		if ra == rb {
			return true // the same rendering: no change
		}
		c = Change{OldSet: true, NewSet: true}
		d.renew = deferredRenewal{old: ra, new: rb, at: len(d.out) + 1}
	} else {
		c = Change{Old: d.renderRenewTime(*sa.RenewTime), New: d.renderRenewTime(*sb.RenewTime), OldSet: true, NewSet: true}
		if c.Old == c.New {
			return true
		}
	}
	const path = "spec.renewTime"
	if d.renewTime != "" {
		c.Path = d.renewTime
	} else if p, ok := d.intern[path]; ok {
		c.Path, d.renewTime = p, p
	} else {
		c.Path = path
		if d.intern != nil {
			d.intern[path] = path
			d.renewTime = path
		}
	}
	d.out = append(d.out, c)
	return true
}

// deferredRenewal is a lease renewal's change of spec.renewTime whose
// two times leaseRenewal left for the audit log's consumer to render,
// each as its stamp (all its rendering depends on), and where that change
// is among the write's changes: at is its index plus one (0: none).
type deferredRenewal struct {
	old, new renewStamp
	at       int
}

// renewStamp is a renew time as RFC3339Micro renders it: its Unix time in
// microseconds, floored (time.Time.UnixMicro).
type renewStamp int64

// renewStamps returns the stamps of a renewal's old and new times, and
// false when d renders them at once: when it does not defer them
// (deferRenew), or when either renders other than by its stamp (the zero
// time, "null", and a time outside years 0 to 9999).
func (d *differ) renewStamps(a, b api.MicroTime) (ra, rb renewStamp, ok bool) {
	if !d.deferRenew || a.Time.IsZero() || b.Time.IsZero() || !inRenderedYears(a.Time) || !inRenderedYears(b.Time) {
		return 0, 0, false
	}
	return renewStamp(a.UnixMicro()), renewStamp(b.UnixMicro()), true
}

// The Unix seconds of 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z:
// the times RFC3339Micro renders in its 27 bytes.
const (
	firstRenderedUnix = -62167219200
	lastRenderedUnix  = 253402300799
)

// inRenderedYears reports whether t is in years 0 to 9999 (UTC), the
// years RFC3339 renders in four digits (and whose microseconds an int64
// holds).
func inRenderedYears(t time.Time) bool {
	u := t.Unix()
	return u >= firstRenderedUnix && u <= lastRenderedUnix
}

// render fills in the two times of c, the change of spec.renewTime
// leaseRenewal left unrendered, as leaseRenewal renders them when it
// does not defer, with d's memory of rendered times: the consumer's own
// differ, not the store's.
func (r *deferredRenewal) render(d *differ, c *Change) {
	c.Old = d.renderRenewTime(r.old.time())
	c.New = d.renderRenewTime(r.new.time())
}

// time returns a time that renders as s does.
func (s renewStamp) time() api.MicroTime {
	return api.NewMicroTime(time.UnixMicro(int64(s)))
}

// eventInfo is the info of api.Event, whose path tree (d.root)
// eventCreate shares with the walk.
var eventInfo = infoOf(reflect.TypeFor[api.Event]())

// The positions of the fields eventCreate renders among their types'
// fields (structFields), and how many fields each type has: the walk's
// path nodes are by position. TestEventCreateFields holds them to the
// types.
const (
	evTypeMeta       = 0 // inlined
	evMeta           = 1
	evInvolved       = 2
	evReason         = 3
	evMessage        = 4
	evSource         = 5
	evFirstTimestamp = 6
	evLastTimestamp  = 7
	evCount          = 8
	evType           = 9
	evReporting      = 14 // reportingComponent
	evInstance       = 15
	evFieldsN        = 16

	tmAPIVersion = 0
	tmKind       = 1
	tmFieldsN    = 2

	omName              = 0
	omNamespace         = 2
	omUID               = 4
	omResourceVersion   = 5
	omCreationTimestamp = 7
	omFieldsN           = 15

	orKind            = 0
	orNamespace       = 1
	orName            = 2
	orUID             = 3
	orAPIVersion      = 4
	orResourceVersion = 5
	orFieldPath       = 6
	orFieldsN         = 7

	esComponent = 0
	esHost      = 1
	esFieldsN   = 2
)

// managedFieldsPath is the subtree the audit log's differ skips.
const managedFieldsPath = "metadata.managedFields"

// eventCreate is the audit diff of the create of an Event (old nil)
// without the walk: Events are the most frequent create of a large run
// (a kubelet's every pull, start and kill), and the walk of one went
// through some forty fields and their type and path trees, cache misses
// at scale. It appends to d.out exactly the changes the walk would
// (diffWith(d, nil, e)): each leaf that is not its zero value, in field
// order, rendered as the walk renders it (strings as they are, the count
// in decimal, times through the differ's rendered seconds), with the
// path the walk would give it, interned in d.intern when that is not
// nil; and it reports true. The zero values, omitempty or not
// (reportingComponent), are no change of a create.
//
// It appends nothing and reports false, for the walk to diff the Event,
// when the Event has anything the fast path does not render: a
// generateName, selfLink, generation, deletion timestamp or grace
// period, labels, annotations, owner references or finalizers, an
// eventTime, series, action or related object; managedFields unless the
// differ skips them (d.skip, as the audit log's does: the walk then
// never reads them); any skip other than managedFields'; and a nil
// Event. TestEventCreateMatchesWalk and FuzzEventCreate compare it with
// the walk, and TestEventCreateFields fails when Event, ObjectMeta,
// ObjectReference or EventSource gain a field.
func (d *differ) eventCreate(e *api.Event) bool {
	if e == nil || d.skip != "" && d.skip != managedFieldsPath {
		return false
	}
	m := &e.ObjectMeta
	if m.GenerateName != "" || m.SelfLink != "" || m.Generation != 0 || m.DeletionTimestamp != nil ||
		m.DeletionGracePeriodSeconds != nil || len(m.Labels) > 0 || len(m.Annotations) > 0 ||
		len(m.OwnerReferences) > 0 || len(m.Finalizers) > 0 || len(m.ManagedFields) > 0 && d.skip == "" ||
		e.EventTime != (api.MicroTime{}) || e.Series != nil || e.Action != "" || e.Related != nil {
		return false
	}
	root := d.root(eventInfo)
	tm := root.field(evTypeMeta, evFieldsN) // inlined: its fields at the top
	created(d, tm, tmAPIVersion, tmFieldsN, "apiVersion", e.APIVersion, renderString)
	created(d, tm, tmKind, tmFieldsN, "kind", e.Kind, renderString)
	d.eventNested(root, evMeta, "metadata", func(n *pathNode) {
		created(d, n, omName, omFieldsN, "name", m.Name, renderString)
		created(d, n, omNamespace, omFieldsN, "namespace", m.Namespace, renderString)
		created(d, n, omUID, omFieldsN, "uid", string(m.UID), renderString)
		created(d, n, omResourceVersion, omFieldsN, "resourceVersion", m.ResourceVersion, renderString)
		created(d, n, omCreationTimestamp, omFieldsN, "creationTimestamp", m.CreationTimestamp, (*differ).renderTime)
	})
	o := &e.InvolvedObject
	d.eventNested(root, evInvolved, "involvedObject", func(n *pathNode) {
		created(d, n, orKind, orFieldsN, "kind", o.Kind, renderString)
		created(d, n, orNamespace, orFieldsN, "namespace", o.Namespace, renderString)
		created(d, n, orName, orFieldsN, "name", o.Name, renderString)
		created(d, n, orUID, orFieldsN, "uid", string(o.UID), renderString)
		created(d, n, orAPIVersion, orFieldsN, "apiVersion", o.APIVersion, renderString)
		created(d, n, orResourceVersion, orFieldsN, "resourceVersion", o.ResourceVersion, renderString)
		created(d, n, orFieldPath, orFieldsN, "fieldPath", o.FieldPath, renderString)
	})
	created(d, root, evReason, evFieldsN, "reason", e.Reason, renderString)
	created(d, root, evMessage, evFieldsN, "message", e.Message, renderString)
	d.eventNested(root, evSource, "source", func(n *pathNode) {
		created(d, n, esComponent, esFieldsN, "component", e.Source.Component, renderString)
		created(d, n, esHost, esFieldsN, "host", e.Source.Host, renderString)
	})
	created(d, root, evFirstTimestamp, evFieldsN, "firstTimestamp", e.FirstTimestamp, (*differ).renderTime)
	created(d, root, evLastTimestamp, evFieldsN, "lastTimestamp", e.LastTimestamp, (*differ).renderTime)
	created(d, root, evCount, evFieldsN, "count", int64(e.Count), renderInt)
	created(d, root, evType, evFieldsN, "type", e.Type, renderString)
	created(d, root, evReporting, evFieldsN, "reportingComponent", e.ReportingController, renderString)
	created(d, root, evInstance, evFieldsN, "reportingInstance", e.ReportingInstance, renderString)
	return true
}

// eventNested renders the leaves of an Event's struct field name (at
// position pos) with fn, below its path node and at its path.
func (d *differ) eventNested(root *pathNode, pos int, name string, fn func(n *pathNode)) {
	mark := len(d.path)
	d.path = append(d.path, name...)
	fn(root.field(pos, evFieldsN))
	d.path = d.path[:mark]
}

// created is fastLeafOf for a leaf a create brings (absent before): none
// when it is the zero value.
func created[T comparable](d *differ, node *pathNode, pos, fields int, name string, v T, render func(*differ, T) string) {
	var zero T
	if v != zero {
		d.fastLeaf(node, pos, fields, name, Change{New: render(d, v), NewSet: true})
	}
}

// podInfo is the info of api.Pod, whose path tree (d.root) podStatusUpdate
// shares with the walk.
var podInfo = infoOf(reflect.TypeFor[api.Pod]())

// The positions of the fields podStatusUpdate renders among their
// types' fields (structFields: every field of these types is exported
// and named, so a field's position is its index), and how many fields
// each type has: the walk's path nodes are by position (pathNode.field).
// TestPodStatusUpdateFields holds them to the types.
const (
	podSpecPos   = 2 // Pod.Spec
	podStatusPos = 3 // Pod.Status
	podFieldsN   = 4

	psObservedGeneration = 0
	psPhase              = 1
	psConditions         = 2
	psMessage            = 3
	psReason             = 4
	psNominatedNodeName  = 5
	psHostIP             = 6
	psHostIPs            = 7
	psPodIP              = 8
	psPodIPs             = 9
	psStartTime          = 10
	psInitContainers     = 11
	psContainers         = 12
	psQOSClass           = 13
	psResize             = 15
	psFieldsN            = 17

	pcType               = 0
	pcObservedGeneration = 1
	pcStatus             = 2
	pcLastProbeTime      = 3
	pcLastTransitionTime = 4
	pcReason             = 5
	pcMessage            = 6
	pcFieldsN            = 7

	ipPos     = 0 // HostIP.IP, PodIP.IP
	ipFieldsN = 1

	csName         = 0
	csState        = 1
	csLastState    = 2
	csReady        = 3
	csRestartCount = 4
	csImage        = 5
	csImageID      = 6
	csContainerID  = 7
	csStarted      = 8
	csFieldsN      = 15

	stWaiting    = 0
	stRunning    = 1
	stTerminated = 2
	stFieldsN    = 3

	waitReason  = 0
	waitMessage = 1
	waitFieldsN = 2

	runStartedAt = 0
	runFieldsN   = 1

	termExitCode    = 0
	termSignal      = 1
	termReason      = 2
	termMessage     = 3
	termStartedAt   = 4
	termFinishedAt  = 5
	termContainerID = 6
	termFieldsN     = 7
)

// sameMemory reports whether *a and *b are the same bytes (the walk's
// sameBits): nothing in them can differ then.
func sameMemory[T any](a, b *T) bool {
	return sameBytes(unsafe.Pointer(a), unsafe.Pointer(b), unsafe.Sizeof(*a))
}

// podStatusUpdate is the audit diff of a pod update that changes only
// the pod's status (and resourceVersion or managedFields, which the
// audit leaves out), without the walk: a kubelet's status write, the
// most frequent update of a large run (withStatusOf gives it the stored
// pod's metadata and spec, the very same memory). It appends to d.out
// exactly the changes the walk would (diffWith(d, a, b) with the audit
// log's differ), in the walk's order, rendered as the walk renders them,
// at the walk's paths (through the walk's own path tree, so interned
// alike), and reports true.
//
// It appends nothing and reports false, for the walk to diff the
// update, unless the differ is the audit log's (audit set, no skip but
// managedFields', not reflective, walkEqual off, no path begun), the two
// pods have the same TypeMeta and generation, metadata unchanged for the
// audit (metaUnchanged) and the same spec bytes (sameBits) but for the
// node's name (a binding, pods/binding's: the change of spec.nodeName
// comes first); and unless
// the statuses' lists are ones it renders: conditions, init container
// and container statuses with the same keys (type, name: non-empty,
// distinct) in the same order on both sides, and, in each container
// status, allocatedResources, resources, volumeMounts, user,
// allocatedResourcesStatus and stopSignal unchanged (empty on both sides
// or the very same data); ephemeralContainerStatuses and
// resourceClaimStatuses likewise. hostIPs and podIPs may change in any
// way. TestPodStatusUpdateMatchesWalk and FuzzPodStatusUpdate compare it
// with the walk; TestPodStatusUpdateFields fails when the types it
// renders gain, lose or rename a field.
func (d *differ) podStatusUpdate(a, b *api.Pod) bool {
	if a == nil || b == nil || !d.audit || d.reflective || d.walkEqual || len(d.path) != 0 ||
		d.skip != "" && d.skip != managedFieldsPath {
		return false
	}
	if a == b {
		return true // the very same pod: the walk has nothing
	}
	if a.TypeMeta != b.TypeMeta || a.Generation != b.Generation || !metaUnchanged(&a.ObjectMeta, &b.ObjectMeta) ||
		!sameSpecButNodeName(&a.Spec, &b.Spec) {
		return false
	}
	sa, sb := &a.Status, &b.Status
	if !podStatusRendered(sa, sb) {
		return false
	}
	if a.Spec.NodeName != b.Spec.NodeName {
		// A binding: the spec's one change, before the status's.
		d.path = append(d.path, "spec"...)
		d.podString(d.root(podInfo).field(podSpecPos, podFieldsN), specNodeNamePos, specFieldsN, "nodeName",
			a.Spec.NodeName, b.Spec.NodeName, true, true)
		d.path = d.path[:0]
	}
	if sameMemory(sa, sb) {
		return true
	}
	node := d.root(podInfo).field(podStatusPos, podFieldsN)
	d.path = append(d.path, "status"...)
	d.podInt(node, psObservedGeneration, psFieldsN, "observedGeneration", sa.ObservedGeneration, sb.ObservedGeneration, true, true)
	d.podString(node, psPhase, psFieldsN, "phase", string(sa.Phase), string(sb.Phase), true, true)
	d.podConditions(node.field(psConditions, psFieldsN), sa.Conditions, sb.Conditions)
	d.podString(node, psMessage, psFieldsN, "message", sa.Message, sb.Message, true, true)
	d.podString(node, psReason, psFieldsN, "reason", sa.Reason, sb.Reason, true, true)
	d.podString(node, psNominatedNodeName, psFieldsN, "nominatedNodeName", sa.NominatedNodeName, sb.NominatedNodeName, true, true)
	d.podString(node, psHostIP, psFieldsN, "hostIP", sa.HostIP, sb.HostIP, true, true)
	podIPList(d, node.field(psHostIPs, psFieldsN), "hostIPs", sa.HostIPs, sb.HostIPs, hostIPOf)
	d.podString(node, psPodIP, psFieldsN, "podIP", sa.PodIP, sb.PodIP, true, true)
	podIPList(d, node.field(psPodIPs, psFieldsN), "podIPs", sa.PodIPs, sb.PodIPs, podIPOf)
	if ta, tb := sa.StartTime, sb.StartTime; ta != tb {
		va, aSet := pointee(ta)
		vb, bSet := pointee(tb)
		d.podTime(node, psStartTime, psFieldsN, "startTime", va, vb, aSet, bSet)
	}
	d.podContainers(node.field(psInitContainers, psFieldsN), "initContainerStatuses", sa.InitContainerStatuses, sb.InitContainerStatuses)
	d.podContainers(node.field(psContainers, psFieldsN), "containerStatuses", sa.ContainerStatuses, sb.ContainerStatuses)
	d.podString(node, psQOSClass, psFieldsN, "qosClass", string(sa.QOSClass), string(sb.QOSClass), true, true)
	d.podString(node, psResize, psFieldsN, "resize", sa.Resize, sb.Resize, true, true)
	d.path = d.path[:0]
	return true
}

// The position of PodSpec.NodeName among the spec's fields, and their
// number: the path nodes of a binding's one spec change.
var (
	specFieldsN     = len(infoOf(reflect.TypeFor[api.PodSpec]()).fields)
	specNodeNamePos = fieldPos(reflect.TypeFor[api.PodSpec](), "nodeName")
)

// fieldPos returns the position among t's fields (the walk's) of the one
// named name (its JSON name); it panics when t has none, so that any
// test run fails on a renamed field.
func fieldPos(t reflect.Type, name string) int {
	i := slices.IndexFunc(infoOf(t).fields, func(f fieldInfo) bool { return f.name == name })
	if i < 0 {
		panic("store: " + t.String() + " has no field " + name)
	}
	return i
}

// sameSpecButNodeName reports whether two specs are the same bytes (the
// walk's sameBits) but for nodeName's: a status write's spec is the
// stored pod's, a binding's that with a node's name.
func sameSpecButNodeName(a, b *api.PodSpec) bool {
	off := unsafe.Offsetof(a.NodeName)
	end := off + unsafe.Sizeof(a.NodeName)
	pa, pb := unsafe.Pointer(a), unsafe.Pointer(b)
	return sameBytes(pa, pb, off) && sameBytes(unsafe.Add(pa, end), unsafe.Add(pb, end), unsafe.Sizeof(*a)-end)
}

// podStatusRendered reports whether podStatusUpdate renders every
// change between two statuses: the lists it walks have the same keys
// in the same order (podKeyed), and those it does not render are
// unchanged: both empty (absent to the walk) or the very same elements
// (its sameData), which api.SameElements says both, and
// podContainerRendered. It writes nothing.
func podStatusRendered(a, b *api.PodStatus) bool {
	if !api.SameElements(a.EphemeralContainerStatuses, b.EphemeralContainerStatuses) ||
		!api.SameElements(a.ResourceClaimStatuses, b.ResourceClaimStatuses) ||
		!podKeyed(a.Conditions, b.Conditions, conditionKey) ||
		!podKeyed(a.InitContainerStatuses, b.InitContainerStatuses, containerKey) ||
		!podKeyed(a.ContainerStatuses, b.ContainerStatuses, containerKey) {
		return false
	}
	ok := true
	check := func(_ string, x, y *api.ContainerStatus) {
		var none api.ContainerStatus // an absent element: nothing set
		if x == nil {
			x = &none
		}
		if y == nil {
			y = &none
		}
		ok = ok && podContainerRendered(x, y)
	}
	keyedPairs(a.InitContainerStatuses, b.InitContainerStatuses, containerKey, check)
	keyedPairs(a.ContainerStatuses, b.ContainerStatuses, containerKey, check)
	return ok
}

// podContainerRendered reports whether the fields of a container status
// podStatusUpdate does not render are unchanged to the walk (an absent
// status is the zero one: those fields must then be empty on the other
// side).
func podContainerRendered(a, b *api.ContainerStatus) bool {
	return (len(a.AllocatedResources) == 0 && len(b.AllocatedResources) == 0 || api.SameMap(a.AllocatedResources, b.AllocatedResources)) &&
		a.Resources == b.Resources && a.User == b.User && a.StopSignal == b.StopSignal &&
		api.SameElements(a.VolumeMounts, b.VolumeMounts) && api.SameElements(a.AllocatedResourcesStatus, b.AllocatedResourcesStatus)
}

// conditionKey and containerKey are the keys the walk addresses the
// elements of a pod's conditions and container statuses by (elemKey).
func conditionKey(c *api.PodCondition) string    { return string(c.Type) }
func containerKey(c *api.ContainerStatus) string { return c.Name }

// podKeyed reports whether the walk pairs the elements of a and b by
// key (keyedListAt, eachPair): every element of each with a non-empty
// key, no key twice in one list. Or a and b are the very same elements,
// which the walk does not look into.
func podKeyed[T any](a, b []T, key func(*T) string) bool {
	return api.SameElements(a, b) || keyedAll(a, key) && keyedAll(b, key)
}

// keyedAll reports whether every element of l has a non-empty key of
// its own in l.
func keyedAll[T any](l []T, key func(*T) string) bool {
	for i := range l {
		k := key(&l[i])
		if k == "" {
			return false
		}
		for j := range i {
			if key(&l[j]) == k {
				return false
			}
		}
	}
	return true
}

// keyedPairs calls fn with each pair of elements of a and b the walk
// compares, as eachPair orders them when both lists are keyed
// (podKeyed): a's elements in their order, each with b's element of its
// key or nil, then b's elements whose key a lacks, with nil. Nothing
// when a and b are both empty or the very same elements (the walk's
// emptyAt and sameData).
func keyedPairs[T any](a, b []T, key func(*T) string, fn func(k string, x, y *T)) {
	if api.SameElements(a, b) { // both empty, or the very same elements
		return
	}
	// Most writes keep the keys where they were: a[i] pairs with b[i]
	// (keys are distinct), and b has no key a lacks.
	aligned := len(a) == len(b)
	for i := 0; aligned && i < len(a); i++ {
		aligned = key(&a[i]) == key(&b[i])
	}
	if aligned {
		for i := range a {
			fn(key(&a[i]), &a[i], &b[i])
		}
		return
	}
	for i := range a {
		k := key(&a[i])
		var y *T
		for j := range b {
			if key(&b[j]) == k {
				y = &b[j]
				break
			}
		}
		fn(k, &a[i], y)
	}
	for j := range b {
		k := key(&b[j])
		found := false
		for i := range a {
			if key(&a[i]) == k {
				found = true
				break
			}
		}
		if !found {
			fn(k, nil, &b[j])
		}
	}
}

// fastLeaf appends c at the current path's field name (at position pos
// of fields, below node), as the walk's add does: unless it renders the
// same on both sides, with the walk's interned path. A path node named
// before gives its path without the path being spelled out again.
func (d *differ) fastLeaf(node *pathNode, pos, fields int, name string, c Change) {
	if c.OldSet && c.NewSet && c.Old == c.New {
		return
	}
	leaf := node.field(pos, fields)
	if leaf != nil && leaf.named {
		c.Path = leaf.path
		d.out = append(d.out, c)
		return
	}
	mark := d.enter(name) // as the walk's: a top-level field has no dot
	d.add(c, leaf)
	d.path = d.path[:mark]
}

// fastLeafOf is the walk's change of a leaf (emitAt) at field name, a
// side absent where its set flag is false (its value then the zero one):
// none when both sides are set and equal, or one side is absent and the
// other the zero value (a zero value appearing or leaving with its
// parent); each present side rendered by render. Two sides that render
// the same are no change either (add).
func fastLeafOf[T comparable](d *differ, node *pathNode, pos, fields int, name string, a, b T, aSet, bSet bool, render func(*differ, T) string) {
	var zero T
	if aSet && bSet && a == b || !aSet && b == zero || !bSet && a == zero {
		return
	}
	c := Change{OldSet: aSet, NewSet: bSet}
	if aSet {
		c.Old = render(d, a)
	}
	if bSet {
		c.New = render(d, b)
	}
	d.fastLeaf(node, pos, fields, name, c)
}

// The walk's renderings of the leaves the typed fast paths emit: a string as
// it is, an integer in decimal, a bool as "true" or "false", a time
// through the differ's rendered seconds ((*differ).renderTime; equal
// times compare equal under ==, as leafEqualAt has them, and the zero
// time is every bit zero, the location too, as zeroAt has it).
func renderString(_ *differ, s string) string { return s }
func renderInt(_ *differ, n int64) string     { return strconv.FormatInt(n, 10) }
func renderBool(_ *differ, b bool) string     { return strconv.FormatBool(b) }

// podString, podInt, podBool and podTime are fastLeafOf for the leaf
// types podStatusUpdate renders.
func (d *differ) podString(node *pathNode, pos, fields int, name, a, b string, aSet, bSet bool) {
	fastLeafOf(d, node, pos, fields, name, a, b, aSet, bSet, renderString)
}

func (d *differ) podInt(node *pathNode, pos, fields int, name string, a, b int64, aSet, bSet bool) {
	fastLeafOf(d, node, pos, fields, name, a, b, aSet, bSet, renderInt)
}

func (d *differ) podBool(node *pathNode, pos, fields int, name string, a, b, aSet, bSet bool) {
	fastLeafOf(d, node, pos, fields, name, a, b, aSet, bSet, renderBool)
}

func (d *differ) podTime(node *pathNode, pos, fields int, name string, a, b api.Time, aSet, bSet bool) {
	fastLeafOf(d, node, pos, fields, name, a, b, aSet, bSet, (*differ).renderTime)
}

// pointee returns what p points to and true, or the zero value and false
// for nil: a pointer the walk follows, absent when nil.
func pointee[T any](p *T) (T, bool) {
	if p == nil {
		var zero T
		return zero, false
	}
	return *p, true
}

// podKeyedList appends the changes of a keyed list at field name (both
// lists keyed: podKeyed), node its path node: the walk's, pair by pair
// (keyedPairs) at "[key]", the pairs same says are unchanged skipped, an
// element one side lacks absent there (none, the zero element, in its
// place, its set flag false: its zero values no change), each pair's
// leaves rendered by fn below the element's path node.
func podKeyedList[T any](d *differ, node *pathNode, name string, a, b []T, key func(*T) string, same func(x, y *T) bool, none *T,
	fn func(el *pathNode, x, y *T, xSet, ySet bool)) {
	if api.SameElements(a, b) { // both empty, or the very same elements
		return
	}
	mark := len(d.path)
	d.path = append(d.path, '.')
	d.path = append(d.path, name...)
	keyedPairs(a, b, key, func(k string, x, y *T) {
		if x != nil && y != nil && same(x, y) {
			return
		}
		xSet, ySet := x != nil, y != nil
		if !xSet {
			x = none
		}
		if !ySet {
			y = none
		}
		at := len(d.path)
		d.path = append(d.path, '[')
		d.path = append(d.path, k...)
		d.path = append(d.path, ']')
		fn(node.key(k), x, y, xSet, ySet)
		d.path = d.path[:at]
	})
	d.path = d.path[:mark]
}

// noCondition and noContainerStatus are the elements a pair's absent
// side reads as (podKeyedList): zero, never written.
var (
	noCondition       api.PodCondition
	noContainerStatus api.ContainerStatus
)

// podConditions appends the changes of a pod's conditions (podKeyedList
// at "conditions"; equal conditions, under ==, are unchanged to the
// walk: equalTypes).
func (d *differ) podConditions(node *pathNode, a, b []api.PodCondition) {
	podKeyedList(d, node, "conditions", a, b, conditionKey, func(x, y *api.PodCondition) bool { return *x == *y }, &noCondition,
		func(el *pathNode, ca, cb *api.PodCondition, aSet, bSet bool) {
			d.podString(el, pcType, pcFieldsN, "type", string(ca.Type), string(cb.Type), aSet, bSet)
			d.podInt(el, pcObservedGeneration, pcFieldsN, "observedGeneration", ca.ObservedGeneration, cb.ObservedGeneration, aSet, bSet)
			d.podString(el, pcStatus, pcFieldsN, "status", string(ca.Status), string(cb.Status), aSet, bSet)
			d.podTime(el, pcLastProbeTime, pcFieldsN, "lastProbeTime", ca.LastProbeTime, cb.LastProbeTime, aSet, bSet)
			d.podTime(el, pcLastTransitionTime, pcFieldsN, "lastTransitionTime", ca.LastTransitionTime, cb.LastTransitionTime, aSet, bSet)
			d.podString(el, pcReason, pcFieldsN, "reason", ca.Reason, cb.Reason, aSet, bSet)
			d.podString(el, pcMessage, pcFieldsN, "message", ca.Message, cb.Message, aSet, bSet)
		})
}

// zeroIPElement is a HostIP or a PodIP of ip "" rendered (its ip has no
// omitempty).
const zeroIPElement = `{"ip":""}`

// hostIPOf and podIPOf are the one field of a HostIP and a PodIP.
func hostIPOf(ip *api.HostIP) string { return ip.IP }
func podIPOf(ip *api.PodIP) string   { return ip.IP }

// podIPList appends the changes of a list of IPs (hostIPs, podIPs: its
// elements have no key) below node, the list field name's: the walk's,
// by index, "[i].ip", an element one side lacks absent there (or, of ip
// "", the element "[i]" whole).
func podIPList[T any](d *differ, node *pathNode, name string, a, b []T, ip func(*T) string) {
	if api.SameElements(a, b) { // both empty, or the very same elements
		return
	}
	mark := len(d.path)
	d.path = append(d.path, '.')
	d.path = append(d.path, name...)
	for i := range max(len(a), len(b)) {
		var va, vb string
		if i < len(a) {
			va = ip(&a[i])
		}
		if i < len(b) {
			vb = ip(&b[i])
		}
		aSet, bSet := i < len(a), i < len(b)
		if aSet && bSet && va == vb {
			continue
		}
		at := len(d.path)
		d.path = append(d.path, '[')
		d.path = strconv.AppendInt(d.path, int64(i), 10)
		d.path = append(d.path, ']')
		if !aSet && vb == "" || !bSet && va == "" {
			// An element one side lacks whose one field is zero: there
			// all the same, the whole element the change, as the walk
			// has it (walkListPtr).
			c := Change{OldSet: aSet, NewSet: bSet}
			if aSet {
				c.Old = zeroIPElement
			} else {
				c.New = zeroIPElement
			}
			d.add(c, node.at(i))
		} else {
			d.podString(node.at(i), ipPos, ipFieldsN, "ip", va, vb, aSet, bSet)
		}
		d.path = d.path[:at]
	}
	d.path = d.path[:mark]
}

// podContainers appends the changes of a pod's container statuses at
// field name (podKeyedList; with nothing but the fields it renders
// changed, podContainerRendered; the very same bytes unchanged), in
// field order, the states' nil pointers absent as ever.
func (d *differ) podContainers(node *pathNode, name string, a, b []api.ContainerStatus) {
	podKeyedList(d, node, name, a, b, containerKey, sameMemory[api.ContainerStatus], &noContainerStatus,
		func(el *pathNode, ca, cb *api.ContainerStatus, aSet, bSet bool) {
			d.podString(el, csName, csFieldsN, "name", ca.Name, cb.Name, aSet, bSet)
			d.containerState(el.field(csState, csFieldsN), "state", &ca.State, &cb.State)
			d.containerState(el.field(csLastState, csFieldsN), "lastState", &ca.LastTerminationState, &cb.LastTerminationState)
			d.podBool(el, csReady, csFieldsN, "ready", ca.Ready, cb.Ready, aSet, bSet)
			d.podInt(el, csRestartCount, csFieldsN, "restartCount", int64(ca.RestartCount), int64(cb.RestartCount), aSet, bSet)
			d.podString(el, csImage, csFieldsN, "image", ca.Image, cb.Image, aSet, bSet)
			d.podString(el, csImageID, csFieldsN, "imageID", ca.ImageID, cb.ImageID, aSet, bSet)
			d.podString(el, csContainerID, csFieldsN, "containerID", ca.ContainerID, cb.ContainerID, aSet, bSet)
			if sa, sb := ca.Started, cb.Started; sa != sb {
				va, aSet := pointee(sa)
				vb, bSet := pointee(sb)
				d.podBool(el, csStarted, csFieldsN, "started", va, vb, aSet, bSet)
			}
		})
}

// podPointer appends the changes of a pointer field the walk follows,
// at field name (position pos of fields below node): fn renders the
// pointee's leaves below its path node, an absent side (nil) the zero
// value with its set flag false. Nothing when both are the same pointer,
// nil included.
func podPointer[T any](d *differ, node *pathNode, pos, fields int, name string, a, b *T, fn func(n *pathNode, va, vb T, aSet, bSet bool)) {
	if a == b {
		return
	}
	va, aSet := pointee(a)
	vb, bSet := pointee(b)
	at := len(d.path)
	d.path = append(d.path, '.')
	d.path = append(d.path, name...)
	fn(node.field(pos, fields), va, vb, aSet, bSet)
	d.path = d.path[:at]
}

// containerState appends the changes of a container's state (or last
// state) below node, the field name's: of waiting, running and
// terminated in turn (podPointer). A state of a status one side lacks is
// the zero one there: all its pointers absent, as the walk's nil struct
// has them.
func (d *differ) containerState(node *pathNode, name string, a, b *api.ContainerState) {
	if *a == *b {
		return // the same pointers
	}
	mark := len(d.path)
	d.path = append(d.path, '.')
	d.path = append(d.path, name...)
	podPointer(d, node, stWaiting, stFieldsN, "waiting", a.Waiting, b.Waiting,
		func(n *pathNode, va, vb api.ContainerStateWaiting, aSet, bSet bool) {
			d.podString(n, waitReason, waitFieldsN, "reason", va.Reason, vb.Reason, aSet, bSet)
			d.podString(n, waitMessage, waitFieldsN, "message", va.Message, vb.Message, aSet, bSet)
		})
	podPointer(d, node, stRunning, stFieldsN, "running", a.Running, b.Running,
		func(n *pathNode, va, vb api.ContainerStateRunning, aSet, bSet bool) {
			d.podTime(n, runStartedAt, runFieldsN, "startedAt", va.StartedAt, vb.StartedAt, aSet, bSet)
		})
	podPointer(d, node, stTerminated, stFieldsN, "terminated", a.Terminated, b.Terminated,
		func(n *pathNode, va, vb api.ContainerStateTerminated, aSet, bSet bool) {
			d.podInt(n, termExitCode, termFieldsN, "exitCode", int64(va.ExitCode), int64(vb.ExitCode), aSet, bSet)
			d.podInt(n, termSignal, termFieldsN, "signal", int64(va.Signal), int64(vb.Signal), aSet, bSet)
			d.podString(n, termReason, termFieldsN, "reason", va.Reason, vb.Reason, aSet, bSet)
			d.podString(n, termMessage, termFieldsN, "message", va.Message, vb.Message, aSet, bSet)
			d.podTime(n, termStartedAt, termFieldsN, "startedAt", va.StartedAt, vb.StartedAt, aSet, bSet)
			d.podTime(n, termFinishedAt, termFieldsN, "finishedAt", va.FinishedAt, vb.FinishedAt, aSet, bSet)
			d.podString(n, termContainerID, termFieldsN, "containerID", va.ContainerID, vb.ContainerID, aSet, bSet)
		})
	d.path = d.path[:mark]
}

// leafEqual compares two leaves of one type (compared as cmp says)
// without allocating for the common scalar kinds.
func leafEqual(a, b reflect.Value, cmp leafCompare) bool {
	switch cmp {
	case cmpString:
		return a.String() == b.String()
	case cmpBool:
		return a.Bool() == b.Bool()
	case cmpInt:
		return a.Int() == b.Int()
	case cmpUint:
		return a.Uint() == b.Uint()
	case cmpFloat:
		return a.Float() == b.Float()
	case cmpEqual:
		return a.Equal(b)
	case cmpDynamic:
		if a.Comparable() {
			return a.Equal(b)
		}
	}
	return render(a) == render(b)
}

func present(v reflect.Value, set bool) reflect.Value {
	if !set {
		return reflect.Value{}
	}
	return v
}

// emptyList treats an empty map or slice like an absent one, as omitempty
// does.
func emptyList(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Map, reflect.Slice:
		return v.Len() == 0
	}
	return false
}

// mapEntry is one entry of a map the walk compares.
type mapEntry struct {
	key string
	val reflect.Value
}

// mapEntries appends m's entries to the differ's entry stack, sorted by
// key, and returns them.
func (d *differ) mapEntries(m reflect.Value) []mapEntry {
	base := len(d.entries)
	if m.IsValid() {
		iter := m.MapRange()
		for iter.Next() {
			d.entries = append(d.entries, mapEntry{iter.Key().String(), iter.Value()})
		}
	}
	es := d.entries[base:]
	slices.SortFunc(es, func(x, y mapEntry) int { return strings.Compare(x.key, y.key) })
	return es
}

func (d *differ) walkMap(a, b reflect.Value, aSet, bSet bool, info *typeInfo) {
	base := len(d.entries)
	defer func() { clear(d.entries[base:]); d.entries = d.entries[:base] }()
	ea := d.mapEntries(a)
	eb := d.mapEntries(b)
	mark := len(d.path)
	// A JSON object (an unstructured object's content) is addressed like
	// struct fields, "spec.replicas"; a map of a typed object by key,
	// "metadata.labels[app]".
	elem := info.elem
	dotted := elem.kind == reflect.Interface
	// Both sides are sorted by key (map keys are unique): merge them.
	for i, j := 0, 0; i < len(ea) || j < len(eb); {
		var k string
		var va, vb reflect.Value
		switch {
		case j == len(eb) || i < len(ea) && ea[i].key < eb[j].key:
			k, va = ea[i].key, ea[i].val
			i++
		case i == len(ea) || eb[j].key < ea[i].key:
			k, vb = eb[j].key, eb[j].val
			j++
		default:
			k, va, vb = ea[i].key, ea[i].val, eb[j].val
			i++
			j++
		}
		if dotted {
			d.enter(k)
		} else {
			d.path = append(d.path, '[')
			d.path = append(d.path, k...)
			d.path = append(d.path, ']')
		}
		if va.IsValid() != vb.IsValid() {
			d.walkEntry(va, vb, elem)
		} else {
			d.walkInfo(va, vb, va.IsValid(), vb.IsValid(), elem, elem)
		}
		d.path = d.path[:mark]
	}
}

// walkEntry walks a map entry (or list element) only one side has, at
// the current path: it is there whatever its value, so a zero leaf
// appearing or leaving is a change (d.entry), and so is an empty object
// or list, which the walk below would find nothing in (a custom
// resource's selector: {}, which selects everything where no selector
// selects nothing), or an object of a struct type whose fields are all
// zero (a toleration of {}).
func (d *differ) walkEntry(va, vb reflect.Value, elem *typeInfo) {
	saved, before := d.entry, len(d.out)
	d.entry = len(d.path)
	d.walkInfo(va, vb, va.IsValid(), vb.IsValid(), elem, elem)
	d.entry = saved
	v := va
	if !v.IsValid() {
		v = vb
	}
	for v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	if len(d.out) == before && ((v.Kind() == reflect.Map || v.Kind() == reflect.Slice) && v.Len() == 0 || elem.kind == reflect.Struct) {
		c := Change{OldSet: va.IsValid(), NewSet: vb.IsValid()}
		if c.OldSet {
			c.Old = render(v)
		} else {
			c.New = render(v)
		}
		d.add(c, nil)
	}
}

// elemKey returns the value of a list element's "type" or "name" field, the
// key by which such lists are addressed.
func elemKey(v reflect.Value) (string, bool) {
	return elemKeyInfo(v, infoOf(v.Type()))
}

// elemKeyInfo is elemKey of a value whose type's info is info.
func elemKeyInfo(v reflect.Value, info *typeInfo) (string, bool) {
	for info.kind == reflect.Pointer {
		if v.IsNil() {
			return "", false
		}
		v = v.Elem()
		info = info.elem
	}
	if info.kind != reflect.Struct || info.keyField < 0 {
		return "", false
	}
	return v.Field(info.fields[info.keyField].index).String(), true
}

// keyedList returns the keys of v's elements, or false when some
// element has no key or shares one.
func keyedList(v reflect.Value) (keys []string, ok bool) {
	var d differ
	if !v.IsValid() {
		return nil, true
	}
	return d.keyedList(v, infoOf(v.Type()).elem)
}

// keyedList appends the keys of v's elements (of a type whose info is
// elem) to the differ's key stack and returns them, or reports false (and
// appends nothing) when some element has no key or shares one.
func (d *differ) keyedList(v reflect.Value, elem *typeInfo) (keys []string, ok bool) {
	if !v.IsValid() {
		return nil, true
	}
	base := len(d.keys)
	var seen map[string]struct{}
	for i := range v.Len() {
		k, ok := elemKeyInfo(v.Index(i), elem)
		if !ok || k == "" || repeats(&seen, d.keys[base:], k) {
			d.keys = d.keys[:base]
			return nil, false
		}
		d.keys = append(d.keys, k)
	}
	return d.keys[base:], true
}

func (d *differ) walkList(a, b reflect.Value, aSet, bSet bool, info *typeInfo) {
	elem := info.elem
	// The keys of both sides stay on the key stack while the elements
	// are walked (nested lists push theirs above them).
	base := len(d.keys)
	defer func() { clear(d.keys[base:]); d.keys = d.keys[:base] }()
	ka, okA := d.keyedList(present(a, aSet), elem)
	kb, okB := d.keyedList(present(b, bSet), elem)
	na, nb := 0, 0
	if aSet {
		na = a.Len()
	}
	if bSet {
		nb = b.Len()
	}
	d.eachPair(ka, kb, okA && okB && (len(ka) > 0 || len(kb) > 0), na, nb, nil, func(ia, ib int, _ *pathNode) {
		var va, vb reflect.Value
		if ia >= 0 {
			va = a.Index(ia)
		}
		if ib >= 0 {
			vb = b.Index(ib)
		}
		if (ia >= 0) != (ib >= 0) {
			d.walkEntry(va, vb, elem) // an element one side lacks
			return
		}
		d.walkInfo(va, vb, ia >= 0, ib >= 0, elem, elem)
	})
}

// longKeys is the number of keys from which a list's keys are found in a
// map rather than by a scan: below it a scan costs less and allocates
// nothing; above it, scans made a diff quadratic in a list's length.
const longKeys = 16

// repeats reports whether k is among keys, a list's keys so far, and
// then counts k in: seen holds keys once they are long (nil before).
func repeats(seen *map[string]struct{}, keys []string, k string) bool {
	if len(keys) < longKeys {
		return slices.Contains(keys, k)
	}
	if *seen == nil {
		*seen = make(map[string]struct{}, 2*len(keys))
		for _, x := range keys {
			(*seen)[x] = struct{}{}
		}
	}
	if _, ok := (*seen)[k]; ok {
		return true
	}
	(*seen)[k] = struct{}{}
	return false
}

// keyPositions finds keys among a list's distinct keys: at a hint first
// (lists mostly keep their order), then by a scan while the list is
// short, by a map built on first need once it is long.
type keyPositions struct {
	keys []string
	at   map[string]int
}

// index returns k's position, or -1; hint is where to look first.
func (p *keyPositions) index(k string, hint int) int {
	if hint >= 0 && hint < len(p.keys) && p.keys[hint] == k {
		return hint
	}
	if len(p.keys) < longKeys {
		return slices.Index(p.keys, k)
	}
	if p.at == nil {
		p.at = make(map[string]int, len(p.keys))
		for i, x := range p.keys {
			p.at[x] = i
		}
	}
	if i, ok := p.at[k]; ok {
		return i
	}
	return -1
}

// eachPair calls fn with the positions of each pair of elements of two
// lists of na and nb elements to compare, -1 for an element one side
// lacks, with the path at the pair's element: by key when keyed (a's
// keys ka in their order, then b's keys kb that a lacks), else by index;
// and with the element's node below node.
func (d *differ) eachPair(ka, kb []string, keyed bool, na, nb int, node *pathNode, fn func(ia, ib int, child *pathNode)) {
	mark := len(d.path)
	if keyed {
		inA, inB := keyPositions{keys: ka}, keyPositions{keys: kb}
		for n := range len(ka) + len(kb) {
			var k string
			ia := n
			if n < len(ka) {
				k = ka[n]
			} else if k, ia = kb[n-len(ka)], -1; inA.index(k, n-len(ka)) >= 0 {
				continue
			}
			d.path = append(d.path, '[')
			d.path = append(d.path, k...)
			d.path = append(d.path, ']')
			fn(ia, inB.index(k, n), node.key(k))
			d.path = d.path[:mark]
		}
		return
	}
	for i := range max(na, nb) {
		ia, ib := i, i
		if i >= na {
			ia = -1
		}
		if i >= nb {
			ib = -1
		}
		d.path = append(d.path, '[')
		d.path = strconv.AppendInt(d.path, int64(i), 10)
		d.path = append(d.path, ']')
		fn(ia, ib, node.at(i))
		d.path = d.path[:mark]
	}
}

// The walk through memory. Objects are pointers to structs, and every
// value reached from one through fields, pointers, slice and array
// elements is addressable: walkPtr compares such values where they lie,
// with the field offsets and element sizes of their types' infos, instead
// of through reflect.Values (an allocation-free but costly indirection per
// field). It finds exactly the changes walkInfo would (a value is absent
// when its pointer is nil: a nil pointer field, an empty list, a missing
// element), and hands the values it does not walk in place (interfaces,
// maps) to walkInfo. TestWalkPtrMatchesReflect compares the two.

// valueAt returns the value of info's type at p, addressable, or the
// invalid Value (absent) for nil.
func valueAt(p unsafe.Pointer, info *typeInfo) reflect.Value {
	if p == nil {
		return reflect.Value{}
	}
	return reflect.NewAt(info.typ, p).Elem()
}

// at returns p+off, or nil for nil.
func at(p unsafe.Pointer, off uintptr) unsafe.Pointer {
	if p == nil {
		return nil
	}
	return unsafe.Add(p, off)
}

// sliceHeader is the memory layout of a slice.
type sliceHeader struct {
	data unsafe.Pointer
	len  int
	cap  int
}

// listOf returns the length and first element of the slice or array of
// info's type at p (0 and nil when absent).
func listOf(p unsafe.Pointer, info *typeInfo) (int, unsafe.Pointer) {
	if p == nil {
		return 0, nil
	}
	if info.kind == reflect.Array {
		return info.arrayLen, p
	}
	h := (*sliceHeader)(p)
	return h.len, h.data
}

// emptyAt is emptyList of the value of info's type at p.
func emptyAt(p unsafe.Pointer, info *typeInfo) bool {
	switch info.kind {
	case reflect.Slice:
		return (*sliceHeader)(p).len == 0
	case reflect.Map:
		return *(*unsafe.Pointer)(p) == nil || valueAt(p, info).Len() == 0
	}
	return false
}

// leafEqualAt is leafEqual of two leaves of info's type in memory.
func leafEqualAt(a, b unsafe.Pointer, info *typeInfo) bool {
	switch info.kind {
	case reflect.String:
		return *(*string)(a) == *(*string)(b)
	case reflect.Bool:
		return *(*bool)(a) == *(*bool)(b)
	case reflect.Int:
		return *(*int)(a) == *(*int)(b)
	case reflect.Int8, reflect.Uint8:
		return *(*uint8)(a) == *(*uint8)(b)
	case reflect.Int16, reflect.Uint16:
		return *(*uint16)(a) == *(*uint16)(b)
	case reflect.Int32, reflect.Uint32:
		return *(*uint32)(a) == *(*uint32)(b)
	case reflect.Int64, reflect.Uint64:
		return *(*uint64)(a) == *(*uint64)(b)
	case reflect.Uint:
		return *(*uint)(a) == *(*uint)(b)
	}
	// Times are most leaves of a status: == as leafEqual's cmpEqual.
	switch info.typ {
	case timeType:
		return *(*api.Time)(a) == *(*api.Time)(b)
	case microTimeType:
		return *(*api.MicroTime)(a) == *(*api.MicroTime)(b)
	}
	return leafEqual(valueAt(a, info), valueAt(b, info), info.cmp)
}

// walkPtr is walkInfo of the values of info's type at a and b (nil:
// absent).
// node is the path's node, nil when paths are not interned.
func (d *differ) walkPtr(a, b unsafe.Pointer, info *typeInfo, node *pathNode) {
	if a != nil && b != nil {
		switch info.kind {
		case reflect.Pointer, reflect.Map:
			if *(*unsafe.Pointer)(a) == *(*unsafe.Pointer)(b) {
				return // the same data (sameData)
			}
		case reflect.Slice:
			ha, hb := (*sliceHeader)(a), (*sliceHeader)(b)
			if ha.len == hb.len && (ha.len == 0 || ha.data == hb.data) {
				return
			}
		}
	}
	// Dereference pointers; a nil pointer is an absent value. Both
	// sides have the same static type. A pointer to a leaf is
	// dereferenced once and the leaf compared (even an interface).
	toLeaf := false
	for info.kind == reflect.Pointer {
		if a != nil {
			a = *(*unsafe.Pointer)(a)
		}
		if b != nil {
			b = *(*unsafe.Pointer)(b)
		}
		info = info.elem
		if info.leaf {
			toLeaf = true
			break
		}
	}
	if a == nil && b == nil {
		return
	}
	if info.kind == reflect.Interface && !toLeaf {
		// Dynamic types: walkInfo dereferences the interfaces.
		d.walkInfo(valueAt(a, info), valueAt(b, info), a != nil, b != nil, info, info)
		return
	}
	if info.leaf {
		if a != nil && b != nil && leafEqualAt(a, b, info) {
			return
		}
		d.emitAt(a, b, info, node)
		return
	}
	switch info.kind {
	case reflect.Map:
		if (info.typ == stringMapType || info.typ == resourceListType) && d.leaves == nil {
			d.leaves = new(leafPair)
		}
		switch info.typ {
		case stringMapType:
			walkLeafMap(d, mapAt[map[string]string](a), mapAt[map[string]string](b), info.elem, &d.leaves.str, node)
		case resourceListType:
			walkLeafMap(d, mapAt[api.ResourceList](a), mapAt[api.ResourceList](b), info.elem, &d.leaves.qty, node)
		default:
			d.walkMap(valueAt(a, info), valueAt(b, info), a != nil, b != nil, info)
		}
	case reflect.Slice, reflect.Array:
		d.walkListPtr(a, b, info, node)
	case reflect.Struct:
		d.walkStructPtr(a, b, info, node)
	}
}

func (d *differ) walkStructPtr(a, b unsafe.Pointer, info *typeInfo, node *pathNode) {
	if a != nil && b != nil {
		if sameBytes(a, b, info.size) {
			return // the same bytes (sameBits)
		}
		if info.eq != nil && !d.walkEqual && info.eq(a, b) {
			return
		}
	}
	// Metadata unchanged but for the fields the audit log drops and
	// the generation: only the generation can be a change.
	onlyGeneration := d.audit && info.typ == objectMetaType && a != nil && b != nil &&
		metaUnchanged((*api.ObjectMeta)(a), (*api.ObjectMeta)(b))
	n := len(info.fields)
	for i := range info.fields {
		f := &info.fields[i]
		if onlyGeneration && f.name != "generation" {
			continue
		}
		d.walkField(at(a, f.offset), at(b, f.offset), f, i, n, node)
	}
}

// enter appends field or key name to d.path (after a dot unless it is the
// first) and returns the path's length before it.
func (d *differ) enter(name string) int {
	mark := len(d.path)
	if mark > 0 {
		d.path = append(d.path, '.')
	}
	d.path = append(d.path, name...)
	return mark
}

// walkField is the walk's step through field i of two structs of info's
// type, fa and fb the field's values (nil: absent), node the structs'
// path node and d.path their path (podCreate's createdField takes it for
// the fields it leaves to the walk).
func (d *differ) walkField(fa, fb unsafe.Pointer, f *fieldInfo, i, n int, node *pathNode) {
	if f.inline {
		d.walkPtr(fa, fb, f.info, node.field(i, n))
		return
	}
	if fa != nil && fb != nil {
		if sameBytes(fa, fb, f.info.size) {
			return // the same bytes (sameBits), as a whole struct's above
		}
	} else if (fa == nil || zeroBytes(bytesAt(fa, f.info.size))) && (fb == nil || zeroBytes(bytesAt(fb, f.info.size))) {
		// One side absent (a create, a delete): a zero value is an
		// absent one, and most of an object's fields are zero (a pod's
		// create walked some forty).
		return
	}
	mark := d.enter(f.name)
	if d.skip != "" && string(d.path) == d.skip {
		d.path = d.path[:mark]
		return
	}
	if fa != nil && emptyAt(fa, f.info) {
		fa = nil
	}
	if fb != nil && emptyAt(fb, f.info) {
		fb = nil
	}
	d.walkPtr(fa, fb, f.info, node.field(i, n))
	d.path = d.path[:mark]
}

// elemKeyAt is elemKey of the element of info's type at p.
func elemKeyAt(p unsafe.Pointer, info *typeInfo) (string, bool) {
	for info.kind == reflect.Pointer {
		p = *(*unsafe.Pointer)(p)
		if p == nil {
			return "", false
		}
		info = info.elem
	}
	if info.kind != reflect.Struct || info.keyField < 0 {
		return "", false
	}
	return *(*string)(unsafe.Add(p, info.fields[info.keyField].offset)), true
}

// keyedListAt is keyedList of n elements of info's type from p.
func (d *differ) keyedListAt(n int, p unsafe.Pointer, info *typeInfo) (keys []string, ok bool) {
	base := len(d.keys)
	var seen map[string]struct{}
	for i := range n {
		k, ok := elemKeyAt(unsafe.Add(p, uintptr(i)*info.size), info)
		if !ok || k == "" || repeats(&seen, d.keys[base:], k) {
			d.keys = d.keys[:base]
			return nil, false
		}
		d.keys = append(d.keys, k)
	}
	return d.keys[base:], true
}

// walkListPtr is walkList of the lists of info's type at a and b.
func (d *differ) walkListPtr(a, b unsafe.Pointer, info *typeInfo, node *pathNode) {
	elem := info.elem
	na, da := listOf(a, info)
	nb, db := listOf(b, info)
	base := len(d.keys)
	defer func() { clear(d.keys[base:]); d.keys = d.keys[:base] }()
	ka, okA := d.keyedListAt(na, da, elem)
	kb, okB := d.keyedListAt(nb, db, elem)
	d.eachPair(ka, kb, okA && okB && (len(ka) > 0 || len(kb) > 0), na, nb, node, func(ia, ib int, child *pathNode) {
		var va, vb unsafe.Pointer
		if ia >= 0 {
			va = unsafe.Add(da, uintptr(ia)*elem.size)
		}
		if ib >= 0 {
			vb = unsafe.Add(db, uintptr(ib)*elem.size)
		}
		if (va == nil) != (vb == nil) {
			// An element one side lacks: there whatever its value, a
			// leaf or an object whose fields are all zero (which the
			// walk finds nothing in).
			before := len(d.out)
			if !elem.leaf {
				d.walkPtr(va, vb, elem, child)
			}
			if len(d.out) == before && (elem.leaf || elem.kind == reflect.Struct) {
				d.emitEntryAt(va, vb, elem, child)
			}
			return
		}
		d.walkPtr(va, vb, elem, child)
	})
}

// emitAt is emit of the leaves of info's type at a and b (nil: absent).
func (d *differ) emitAt(a, b unsafe.Pointer, info *typeInfo, node *pathNode) {
	if a == nil && zeroAt(b, info) || b == nil && zeroAt(a, info) {
		return
	}
	d.emitEntryAt(a, b, info, node)
}

// emitEntryAt is emitAt without its zero rule: the change of a leaf
// whose presence is its own, a map entry's or a list element's (see
// differ.entry).
func (d *differ) emitEntryAt(a, b unsafe.Pointer, info *typeInfo, node *pathNode) {
	c := Change{OldSet: a != nil, NewSet: b != nil}
	if info.typ == timeType {
		// Rendered through the differ's seconds.
		if a != nil {
			c.Old = d.renderTime(*(*api.Time)(a))
		}
		if b != nil {
			c.New = d.renderTime(*(*api.Time)(b))
		}
		d.add(c, node)
		return
	}
	if a != nil {
		c.Old = renderAt(a, info)
	}
	if b != nil {
		c.New = renderAt(b, info)
	}
	d.add(c, node)
}

// zeroAt is IsZero of the value of info's type at p.
func zeroAt(p unsafe.Pointer, info *typeInfo) bool {
	switch info.kind {
	case reflect.String:
		return len(*(*string)(p)) == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		switch info.size {
		case 1:
			return *(*uint8)(p) == 0
		case 2:
			return *(*uint16)(p) == 0
		case 4:
			return *(*uint32)(p) == 0
		case 8:
			return *(*uint64)(p) == 0
		}
	}
	return valueAt(p, info).IsZero()
}

// renderAt is render of the value of info's type at p.
func renderAt(p unsafe.Pointer, info *typeInfo) string {
	switch info.kind {
	case reflect.String:
		return *(*string)(p)
	case reflect.Bool:
		return strconv.FormatBool(*(*bool)(p))
	case reflect.Int:
		return strconv.FormatInt(int64(*(*int)(p)), 10)
	case reflect.Int8:
		return strconv.FormatInt(int64(*(*int8)(p)), 10)
	case reflect.Int16:
		return strconv.FormatInt(int64(*(*int16)(p)), 10)
	case reflect.Int32:
		return strconv.FormatInt(int64(*(*int32)(p)), 10)
	case reflect.Int64:
		return strconv.FormatInt(*(*int64)(p), 10)
	case reflect.Uint8:
		return strconv.FormatUint(uint64(*(*uint8)(p)), 10)
	case reflect.Uint16:
		return strconv.FormatUint(uint64(*(*uint16)(p)), 10)
	case reflect.Uint32:
		return strconv.FormatUint(uint64(*(*uint32)(p)), 10)
	case reflect.Uint64:
		return strconv.FormatUint(*(*uint64)(p), 10)
	case reflect.Uint:
		return strconv.FormatUint(uint64(*(*uint)(p)), 10)
	}
	switch info.typ {
	case timeType:
		return renderTime(*(*api.Time)(p))
	case microTimeType:
		return renderMicroTime(*(*api.MicroTime)(p))
	case quantityType:
		// A resource list's values: render's MarshalJSON unquoted, which
		// is String (a quantity has no character JSON escapes).
		return (*api.Quantity)(p).String()
	}
	return render(valueAt(p, info))
}

// mapAt returns the map of type M at p, or nil for nil.
func mapAt[M any](p unsafe.Pointer) M {
	var m M
	if p != nil {
		m = *(*M)(p)
	}
	return m
}

// walkLeafMap is walkMap of two maps of leaves (labels, annotations,
// resource lists) without reflection: the entries in key order, each
// pair of values copied to v (the differ's) and compared there.
func walkLeafMap[K ~string, V any](d *differ, a, b map[K]V, elem *typeInfo, v *[2]V, node *pathNode) {
	base := len(d.keys)
	defer func() { clear(d.keys[base:]); d.keys = d.keys[:base] }()
	for k := range a {
		d.keys = append(d.keys, string(k))
	}
	mid := len(d.keys)
	for k := range b {
		d.keys = append(d.keys, string(k))
	}
	ka, kb := d.keys[base:mid], d.keys[mid:]
	slices.Sort(ka)
	slices.Sort(kb)
	mark := len(d.path)
	for i, j := 0, 0; i < len(ka) || j < len(kb); {
		var k string
		var pa, pb unsafe.Pointer
		inA := j == len(kb) || i < len(ka) && ka[i] <= kb[j]
		inB := i == len(ka) || j < len(kb) && kb[j] <= ka[i]
		if inA {
			k = ka[i]
			v[0], pa = a[K(k)], unsafe.Pointer(&v[0])
			i++
		}
		if inB {
			k = kb[j]
			v[1], pb = b[K(k)], unsafe.Pointer(&v[1])
			j++
		}
		d.path = append(d.path, '[')
		d.path = append(d.path, k...)
		d.path = append(d.path, ']')
		if pa == nil || pb == nil {
			// An entry one side lacks: a change, its value zero or not.
			d.emitEntryAt(pa, pb, elem, node.key(k))
		} else {
			d.walkPtr(pa, pb, elem, node.key(k))
		}
		d.path = d.path[:mark]
	}
	clear(v[:])
}
