package store

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
)

// Resolving FieldsV1 paths in objects: reading the value at a path,
// setting it, removing it. A server-side apply resolves one path per
// field of its configuration, and a keyed list's element is found by its
// key (`k:{"name":"nginx"}`): scanning the list for every path made an
// apply quadratic in a list's length (8,000 containers took 11 s).
//
// A resolver lives for one call (an apply, a write's ownership) and
// indexes each long keyed list it searches: a map from key value to the
// first element holding it, built on the list's first search. Nothing is
// shared between calls: several simulations run in one process, and a
// list is another list by the next call. It finds exactly what a scan
// would: the first element, pointers followed, whose field named by the
// key holds the key's value as a string (TestFieldValueKeyedLists,
// FuzzResolverFind).
//
// A list is identified by its elements' address, length and type. The
// resolver's own changes keep its indexes right: an element setAt
// appends joins the index under the list's new identity; an element
// removeAt takes out is marked and skipped, and cut out of its list only
// by flush, once for all (a copy of the list per removed element was
// quadratic too); an element whose key field removeAt zeroes is skipped
// because every hit is checked against the element's key, and a lookup
// of the empty key, the only one a zeroed field can gain, scans.

// indexMinLen is the length from which a keyed list is indexed; shorter
// ones are scanned, which costs less than building a map and keeps the
// common write (a few conditions, one or two containers) allocation-free.
const indexMinLen = 16

// resolver resolves paths in the objects of one call. The zero value is
// ready to use.
type resolver struct {
	lists   map[listID]*listIndex
	pending []*listIndex // lists with removed elements, in order of first removal
}

// listID identifies a list's elements: two slices with the same id hold
// the same elements. The listIndex filed under an id keeps the list
// alive, so that its address is not reused by another list meanwhile.
type listID struct {
	data uintptr
	n    int
	typ  reflect.Type
}

func idOf(list reflect.Value) listID {
	return listID{data: list.Pointer(), n: list.Len(), typ: list.Type()}
}

// listIndex is what a resolver knows of one list: where each value of
// field was when the index was built (first is nil for a list scanned),
// and which elements removeAt has taken out.
type listIndex struct {
	id      listID
	field   string
	key     keyReader
	first   map[string]int // key value -> first position holding it
	next    []int          // position -> next position with the same value, or -1
	removed []bool         // nil until removeAt takes an element out
	list    reflect.Value  // the list (settable once an element is removed)
	depth   int            // the list's path length, once an element is removed
}

// keyReader reads one field of list elements as findKeyed did: pointers
// followed, structs only, the field found by its JSON name once per
// element type, a string kind only.
type keyReader struct {
	field string
	typ   reflect.Type
	idx   []int
	has   bool
}

// read returns element e's key and whether it has one.
func (kr *keyReader) read(e reflect.Value) (string, bool) {
	for e.Kind() == reflect.Pointer {
		if e.IsNil() {
			return "", false
		}
		e = e.Elem()
	}
	if e.Kind() != reflect.Struct {
		return "", false
	}
	if e.Type() != kr.typ {
		kr.typ = e.Type()
		kr.idx, kr.has = fieldByJSON(kr.typ, kr.field)
	}
	if !kr.has {
		return "", false
	}
	if f := e.FieldByIndex(kr.idx); f.Kind() == reflect.String {
		return f.String(), true
	}
	return "", false
}

// parseKeyed reads `k:{"name":"x"}` into its field and value: the key is
// a JSON object of one member whose value is a string. The form
// keyedKey writes for plain text is read directly, any other through
// encoding/json.
func parseKeyed(k string) (field, value string, ok bool) {
	if field, value, ok = parsePlainKeyed(k); ok {
		return field, value, true
	}
	var m map[string]any
	if json.Unmarshal([]byte(k[2:]), &m) != nil || len(m) != 1 {
		return "", "", false
	}
	for f, v := range m {
		s, isStr := v.(string)
		return f, s, isStr
	}
	return "", "", false
}

// parsePlainKeyed reads `k:{"<field>":"<value>"}` whose field and value
// need no escaping (plainJSON); ok is false for any other text.
func parsePlainKeyed(k string) (field, value string, ok bool) {
	rest, ok := strings.CutPrefix(k, `k:{"`)
	if !ok {
		return "", "", false
	}
	if rest, ok = strings.CutSuffix(rest, `"}`); !ok {
		return "", "", false
	}
	field, value, ok = strings.Cut(rest, `":"`)
	if !ok || !plainJSON(field) || !plainJSON(value) {
		return "", "", false
	}
	return field, value, true
}

// find returns the position of the first element of list (a slice or an
// array) whose key field, as k names it, holds k's value, skipping
// removed elements; -1 when there is none or k is no key of one string
// field.
func (r *resolver) find(list reflect.Value, k string) int {
	field, value, ok := parseKeyed(k)
	if !ok {
		return -1
	}
	ix := r.indexOf(list, field)
	if ix == nil || ix.first == nil || ix.field != field || value == "" {
		kr := keyReader{field: field}
		for i := range list.Len() {
			if got, ok := kr.read(list.Index(i)); ok && got == value && !ix.isRemoved(i) {
				return i
			}
		}
		return -1
	}
	i, ok := ix.first[value]
	for ; ok && i >= 0; i = ix.next[i] {
		// The element's key may have been zeroed since the index was
		// built.
		if got, has := ix.key.read(list.Index(i)); has && got == value && !ix.isRemoved(i) {
			return i
		}
	}
	return -1
}

func (ix *listIndex) isRemoved(i int) bool {
	return ix != nil && ix.removed != nil && ix.removed[i]
}

// indexOf returns what the resolver knows of list, indexing it by field
// on first sight if it is a long slice; nil for a short list it has not
// changed, and for an array.
func (r *resolver) indexOf(list reflect.Value, field string) *listIndex {
	if list.Kind() != reflect.Slice {
		return nil
	}
	id := idOf(list)
	if ix, ok := r.lists[id]; ok {
		return ix
	}
	if id.n < indexMinLen {
		return nil
	}
	ix := &listIndex{id: id, field: field, key: keyReader{field: field}, first: map[string]int{}, next: make([]int, id.n), list: list}
	// Backwards, so that first ends at each value's first position and
	// next runs forwards.
	for i := id.n - 1; i >= 0; i-- {
		ix.next[i] = -1
		if v, ok := ix.key.read(list.Index(i)); ok {
			if j, dup := ix.first[v]; dup {
				ix.next[i] = j
			}
			ix.first[v] = i
		}
	}
	r.remember(ix)
	return ix
}

func (r *resolver) remember(ix *listIndex) {
	if r.lists == nil {
		r.lists = map[listID]*listIndex{}
	}
	r.lists[ix.id] = ix
}

// appended moves what the resolver knows of a list, whose id was old, to
// the list after one element was appended to it, whose field holds
// value.
func (r *resolver) appended(old listID, list reflect.Value, field, value string) {
	ix, ok := r.lists[old]
	if !ok {
		return
	}
	delete(r.lists, old)
	ix.id = idOf(list)
	at := ix.id.n - 1
	ix.next = append(ix.next, -1)
	ix.list = list
	if ix.removed != nil {
		ix.removed = append(ix.removed, false)
	}
	if ix.first != nil && ix.field == field && value != "" {
		if j, dup := ix.first[value]; dup {
			for ix.next[j] >= 0 {
				j = ix.next[j]
			}
			ix.next[j] = at
		} else {
			ix.first[value] = at
		}
	}
	r.remember(ix)
}

// remove marks element i of list (settable, at path length depth) as
// removed; flush cuts it out.
func (r *resolver) remove(list reflect.Value, field string, i, depth int) {
	ix := r.indexOf(list, field)
	if ix == nil {
		ix = &listIndex{id: idOf(list), field: field, list: list}
		r.remember(ix)
	}
	if ix.removed == nil {
		ix.removed = make([]bool, ix.id.n)
		ix.list, ix.depth = list, depth
		r.pending = append(r.pending, ix)
	}
	ix.removed[i] = true
}

// flush cuts the removed elements out of their lists, each list copied
// once (a list emptied becomes nil), nested lists before the lists that
// hold them, so that the copy of an element carries its list's cut.
func (r *resolver) flush() {
	slices.SortStableFunc(r.pending, func(a, b *listIndex) int { return b.depth - a.depth })
	for _, ix := range r.pending {
		v := ix.list
		if idOf(v) != ix.id {
			continue // replaced whole since
		}
		kept := 0
		for _, gone := range ix.removed {
			if !gone {
				kept++
			}
		}
		if kept == 0 {
			v.Set(reflect.Zero(v.Type()))
			continue
		}
		n := reflect.MakeSlice(v.Type(), 0, kept)
		for i := 0; i < len(ix.removed); {
			j := i
			for j < len(ix.removed) && !ix.removed[j] {
				j++
			}
			n = reflect.AppendSlice(n, v.Slice(i, j))
			for j < len(ix.removed) && ix.removed[j] {
				j++
			}
			i = j
		}
		v.Set(n)
	}
	r.pending = nil
}

// nth returns the position of list's element i counting only elements
// not removed, or -1.
func (r *resolver) nth(list reflect.Value, i int) int {
	if i < 0 {
		return -1
	}
	var ix *listIndex
	if list.Kind() == reflect.Slice && r.lists != nil {
		ix = r.lists[idOf(list)]
	}
	if ix == nil || ix.removed == nil {
		if i < list.Len() {
			return i
		}
		return -1
	}
	for j, gone := range ix.removed {
		if gone {
			continue
		}
		if i == 0 {
			return j
		}
		i--
	}
	return -1
}

// step descends one key from v (pointers already followed): a struct
// field, a map entry, or a list element by key or index.
func (r *resolver) step(v reflect.Value, k string) (reflect.Value, bool) {
	switch {
	case strings.HasPrefix(k, "f:"):
		name := k[2:]
		switch v.Kind() {
		case reflect.Struct:
			idx, ok := fieldByJSON(v.Type(), name)
			if !ok && v.Type() == unstructuredType {
				// An unstructured object's content: a JSON object.
				mv := v.FieldByName("Fields").MapIndex(reflect.ValueOf(name))
				return mv, mv.IsValid()
			}
			if !ok {
				return reflect.Value{}, false
			}
			return v.FieldByIndex(idx), true
		case reflect.Map:
			mv := v.MapIndex(reflect.ValueOf(name).Convert(v.Type().Key()))
			return mv, mv.IsValid()
		}
	case strings.HasPrefix(k, "k:"):
		if v.Kind() != reflect.Slice && v.Kind() != reflect.Array {
			return reflect.Value{}, false
		}
		if i := r.find(v, k); i >= 0 {
			return v.Index(i), true
		}
	case strings.HasPrefix(k, "i:"):
		i, err := strconv.Atoi(k[2:])
		if err == nil && (v.Kind() == reflect.Slice || v.Kind() == reflect.Array) {
			if i = r.nth(v, i); i >= 0 {
				return v.Index(i), true
			}
		}
	}
	return reflect.Value{}, false
}

func follow(v reflect.Value) (reflect.Value, bool) {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return reflect.Value{}, false
		}
		v = v.Elem()
	}
	return v, true
}

// lookupAny returns the value at p in v, zero and empty values included,
// and whether the path leads anywhere.
func (r *resolver) lookupAny(v reflect.Value, p Path) (reflect.Value, bool) {
	for _, k := range p {
		var ok bool
		if v, ok = follow(v); !ok {
			return reflect.Value{}, false
		}
		if v, ok = r.step(v, k); !ok {
			return reflect.Value{}, false
		}
	}
	return v, v.IsValid()
}

// lookup returns the value at p in v, and whether it is there (a nil
// pointer, map or list, or an empty one, is not).
func (r *resolver) lookup(v reflect.Value, p Path) (reflect.Value, bool) {
	v, ok := r.lookupAny(v, p)
	if !ok {
		return reflect.Value{}, false
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return reflect.Value{}, false
		}
	case reflect.Map, reflect.Slice:
		if v.Len() == 0 {
			return reflect.Value{}, false
		}
	}
	return v, true
}

// FieldValue returns the JSON of the value at p in obj, and whether obj
// has it.
func FieldValue(obj api.Object, p Path) (string, bool) {
	var r resolver
	return r.fieldValue(reflect.ValueOf(obj), p)
}

// fieldValue is FieldValue of the object v.
func (r *resolver) fieldValue(obj reflect.Value, p Path) (string, bool) {
	v, ok := r.lookup(obj, p)
	if !ok {
		return "", false
	}
	if v.CanInterface() {
		if b, err := json.Marshal(v.Interface()); err == nil {
			return string(b), true
		}
	}
	return render(v), true
}

// setAt sets the node at p in v (addressable) to a copy of val, creating
// what is missing on the way (structs behind nil pointers, maps, keyed
// elements); a path ending at a keyed element only makes sure the element
// exists.
func (r *resolver) setAt(v reflect.Value, p Path, val reflect.Value) error {
	if len(p) == 0 {
		if !val.IsValid() {
			v.Set(reflect.Zero(v.Type()))
			return nil
		}
		if !val.Type().AssignableTo(v.Type()) {
			return fmt.Errorf("%s: cannot set %s to %s", p, v.Type(), val.Type())
		}
		v.Set(deepCopy(val))
		return nil
	}
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		v = v.Elem()
	}
	k := p[0]
	if strings.HasPrefix(k, "f:") && v.Type() == unstructuredType {
		if _, ok := fieldByJSON(v.Type(), k[2:]); !ok {
			u := v.Addr().Interface().(*api.Unstructured)
			if u.Fields == nil {
				u.Fields = api.Fields{}
			}
			return setJSON(u.Fields, p, val)
		}
	}
	switch {
	case strings.HasPrefix(k, "f:") && v.Kind() == reflect.Struct:
		idx, ok := fieldByJSON(v.Type(), k[2:])
		if !ok {
			return fmt.Errorf("%s: no field %s in %s", Path(p).String(), k[2:], v.Type())
		}
		return r.setAt(v.FieldByIndex(idx), p[1:], val)
	case strings.HasPrefix(k, "f:") && v.Kind() == reflect.Map:
		if len(p) != 1 {
			return fmt.Errorf("%s: cannot descend into a map value", Path(p).String())
		}
		if v.IsNil() {
			v.Set(reflect.MakeMap(v.Type()))
		}
		key := reflect.ValueOf(k[2:]).Convert(v.Type().Key())
		if !val.IsValid() {
			val = reflect.Zero(v.Type().Elem())
		}
		v.SetMapIndex(key, deepCopy(val))
		return nil
	case strings.HasPrefix(k, "k:") && v.Kind() == reflect.Slice:
		i := r.find(v, k)
		if i < 0 {
			var err error
			if i, err = r.appendKeyed(v, p, k); err != nil {
				return err
			}
		}
		if len(p) == 1 {
			return nil
		}
		return r.setAt(v.Index(i), p[1:], val)
	}
	return fmt.Errorf("%s: cannot set in %s", Path(p).String(), v.Type())
}

// appendKeyed appends to the list v (settable) an element with k's key,
// and returns its position; p is the path from v, for errors.
func (r *resolver) appendKeyed(v reflect.Value, p Path, k string) (int, error) {
	field, value, ok := parseKeyed(k)
	if !ok {
		return -1, fmt.Errorf("bad list key %s", k)
	}
	et := v.Type().Elem()
	ne := reflect.New(deref(et))
	idx, ok := fieldByJSON(deref(et), field)
	if !ok {
		return -1, fmt.Errorf("%s: no key field %s in %s", Path(p).String(), field, deref(et))
	}
	ne.Elem().FieldByIndex(idx).SetString(value)
	old := idOf(v)
	if et.Kind() == reflect.Pointer {
		v.Set(reflect.Append(v, ne))
	} else {
		v.Set(reflect.Append(v, ne.Elem()))
	}
	r.appended(old, v, field, value)
	return v.Len() - 1, nil
}

// removeAt removes the node at p in v (addressable): a field is zeroed, a
// map entry deleted, a list element marked for flush to cut out. A
// missing node is fine.
func (r *resolver) removeAt(v reflect.Value, p Path) {
	for i, k := range p {
		var ok bool
		for v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return
			}
			v = v.Elem()
		}
		last := i == len(p)-1
		if strings.HasPrefix(k, "f:") && v.Type() == unstructuredType {
			if _, ok := fieldByJSON(v.Type(), k[2:]); !ok {
				removeJSON(v.Addr().Interface().(*api.Unstructured).Fields, p[i:])
				return
			}
		}
		switch {
		case last && strings.HasPrefix(k, "f:") && v.Kind() == reflect.Map:
			if !v.IsNil() {
				v.SetMapIndex(reflect.ValueOf(k[2:]).Convert(v.Type().Key()), reflect.Value{})
			}
			return
		case last && strings.HasPrefix(k, "k:") && v.Kind() == reflect.Slice:
			if j := r.find(v, k); j >= 0 && v.CanSet() {
				field, _, _ := parseKeyed(k)
				r.remove(v, field, j, i)
			}
			return
		}
		if v, ok = r.step(v, k); !ok {
			return
		}
		if last && v.CanSet() {
			v.Set(reflect.Zero(v.Type()))
		}
	}
}
