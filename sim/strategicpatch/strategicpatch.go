package strategicpatch

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Patch directives (strategicpatch's directive markers).
const (
	directiveMarker     = "$patch"
	deleteDirective     = "delete"
	replaceDirective    = "replace"
	mergeDirective      = "merge"
	retainKeysDirective = "$retainKeys"
	deleteFromPrimitive = "$deleteFromPrimitiveList/"
	setElementOrder     = "$setElementOrder/"
)

// TwoWay returns the strategic merge patch turning a into b
// (strategicpatch.CreateTwoWayMergePatch): changed and added fields, null
// for removed ones, keyed lists element by element with delete directives
// and $setElementOrder. A patch made against a stale a leaves alone what
// the writer did not change, whatever the server holds there now: the
// kubelet's node status patch, made against its node lister's copy,
// relies on that.
func TwoWay(a, b map[string]any) (map[string]any, error) {
	return diffMaps(a, b, nil, diffOptions{}, false, metaOf)
}

// Apply applies a strategic merge patch with its directives to doc and
// returns the result; doc and patch are not modified
// (strategicpatch.StrategicMergeMapPatch).
func Apply(doc, patch map[string]any) (map[string]any, error) {
	return applyPatch(doc, patch, nil, metaOf, false)
}

// fieldMeta is the patch metadata of one field (the patchStrategy and
// patchMergeKey struct tags of k8s.io/api): a list merges by key, merges
// as a set of scalars, or (neither) is replaced whole; a map with
// retainKeys drops the fields a patch does not name.
type fieldMeta struct {
	mergeKey   string
	primitive  bool
	retainKeys bool
	// replace is patchStrategy replace on a map: the diff carries the
	// modified map whole and a patch replaces the map whole.
	replace bool
}

// lookup returns the patch metadata of field inside the map reached by
// path; metaOf is the one of the kinds clustersim serves (tests give
// their own schema).
type lookup func(path []string, field string) fieldMeta

func (m fieldMeta) merging() bool { return m.mergeKey != "" || m.primitive }

// containerLists are the fields holding containers.
var containerLists = []string{"containers", "initContainers", "ephemeralContainers"}

// metaOf returns the patch metadata of field inside the map reached by
// path (the map keys from the root; list elements add nothing). It covers
// the fields of the kinds clustersim serves; every other list is atomic.
func metaOf(path []string, field string) fieldMeta {
	parent := ""
	if len(path) > 0 {
		parent = path[len(path)-1]
	}
	switch field {
	case "containers", "initContainers", "ephemeralContainers", "imagePullSecrets", "resourceClaims", "schedulingGates":
		return fieldMeta{mergeKey: "name"}
	case "volumes":
		return fieldMeta{mergeKey: "name", retainKeys: true}
	case "env":
		return fieldMeta{mergeKey: "name"}
	case "volumeMounts":
		return fieldMeta{mergeKey: "mountPath"}
	case "volumeDevices":
		return fieldMeta{mergeKey: "devicePath"}
	case "hostAliases":
		return fieldMeta{mergeKey: "ip"}
	case "topologySpreadConstraints":
		return fieldMeta{mergeKey: "topologyKey"}
	case "conditions":
		return fieldMeta{mergeKey: "type"}
	case "ports":
		if slices.Contains(containerLists, parent) {
			return fieldMeta{mergeKey: "containerPort"}
		}
		if len(path) == 1 && parent == "spec" { // a Service's ports
			return fieldMeta{mergeKey: "port"}
		}
	case "ownerReferences":
		if parent == "metadata" {
			return fieldMeta{mergeKey: "uid"}
		}
	case "finalizers":
		if parent == "metadata" {
			return fieldMeta{primitive: true}
		}
	case "strategy":
		if len(path) == 1 && parent == "spec" { // a Deployment's strategy
			return fieldMeta{retainKeys: true}
		}
	}
	return fieldMeta{}
}

// diffOptions are strategicpatch's DiffOptions; SetElementOrder is always
// on, as in the three-way patch.
type diffOptions struct {
	ignoreChangesAndAdditions bool
	ignoreDeletions           bool
}

// patchError is a document that cannot be diffed or patched (a keyed list
// element without its key, a list of lists): bad input, not a failure of
// the cluster.
type patchError struct {
	msg string
	// status is the API server's answer to the refusal
	// (interpretStrategicMergePatchError): 400 for a malformed directive
	// list, 422 for a list of lists, 0 for every other (a 500).
	status int
}

// Error returns the message.
func (e *patchError) Error() string { return e.msg }

func typeName(v any) string { return reflect.TypeOf(v).String() }

// ThreeWay returns kubectl's three-way strategic merge patch: the
// changes and additions from current to modified, plus the deletions from
// original (the last applied configuration) to modified.
func ThreeWay(original, modified, current map[string]any) (map[string]any, error) {
	return threeWay(original, modified, current, metaOf)
}

// threeWay is ThreeWay with the patch metadata of meta.
func threeWay(original, modified, current map[string]any, meta lookup) (map[string]any, error) {
	delta, err := diffMaps(current, modified, nil, diffOptions{ignoreDeletions: true}, false, meta)
	if err != nil {
		return nil, err
	}
	deletions, err := diffMaps(original, modified, nil, diffOptions{ignoreChangesAndAdditions: true}, false, meta)
	if err != nil {
		return nil, err
	}
	return applyPatch(deletions, delta, nil, meta, true)
}

// diffMaps returns the patch turning a into b under opts (strategicpatch's
// diffMaps). retain asks for a $retainKeys directive (the map's field has
// the retainKeys strategy).
func diffMaps(a, b map[string]any, path []string, opts diffOptions, retain bool, meta lookup) (map[string]any, error) {
	patch := map[string]any{}
	var retainList []any
	for _, k := range slices.Sorted(maps.Keys(b)) {
		bv := b[k]
		if retain && bv != nil {
			retainList = append(retainList, k)
		}
		av, ok := a[k]
		if !ok {
			if !opts.ignoreChangesAndAdditions {
				patch[k] = bv
			}
			continue
		}
		if av == nil || bv == nil || typeName(av) != typeName(bv) {
			if !opts.ignoreChangesAndAdditions && !reflect.DeepEqual(av, bv) {
				patch[k] = bv
			}
			continue
		}
		switch at := av.(type) {
		case map[string]any:
			m := meta(path, k)
			if m.replace {
				// handleMapDiff: the modified map whole, changed or not.
				if !opts.ignoreChangesAndAdditions {
					patch[k] = bv
				}
				continue
			}
			sub, err := diffMaps(at, bv.(map[string]any), append(slices.Clip(path), k), opts, m.retainKeys, meta)
			if err != nil {
				return nil, err
			}
			if len(sub) > 0 {
				patch[k] = sub
			}
		case []any:
			m := meta(path, k)
			if !m.merging() {
				replaceIfNotEqual(patch, k, at, bv, opts)
				continue
			}
			add, del, order, err := diffLists(at, bv.([]any), append(slices.Clip(path), k), m, opts, meta)
			if err != nil {
				return nil, err
			}
			if len(add) > 0 {
				patch[k] = add
			}
			if len(del) > 0 {
				patch[deleteFromPrimitive+k] = del
			}
			if len(order) > 0 {
				patch[setElementOrder+k] = order
			}
		default:
			replaceIfNotEqual(patch, k, av, bv, opts)
		}
	}
	if !opts.ignoreDeletions {
		for _, k := range slices.Sorted(maps.Keys(a)) {
			if _, ok := b[k]; !ok {
				patch[k] = nil
			}
		}
	}
	if len(retainList) > 0 && (len(patch) > 0 || hasAdditionalNewField(a, b)) {
		patch[retainKeysDirective] = retainList
	}
	return patch, nil
}

func replaceIfNotEqual(patch map[string]any, k string, a, b any, opts diffOptions) {
	if !opts.ignoreChangesAndAdditions && !reflect.DeepEqual(a, b) {
		patch[k] = b
	}
}

// hasAdditionalNewField reports whether original has a non-null field that
// modified lacks.
func hasAdditionalNewField(original, modified map[string]any) bool {
	for k, v := range original {
		if v == nil {
			continue
		}
		if _, ok := modified[k]; !ok {
			return true
		}
	}
	return false
}

// byKey sorts maps by their merge key's %v as upstream's
// SortableSliceOfMaps does (its Less is "not after").
type byKey struct {
	s   []map[string]any
	key string
}

func (b byKey) Len() int      { return len(b.s) }
func (b byKey) Swap(i, j int) { b.s[i], b.s[j] = b.s[j], b.s[i] }
func (b byKey) Less(i, j int) bool {
	return keyString(b.s[i][b.key]) <= keyString(b.s[j][b.key])
}

// sortByKey returns the maps of list sorted by key (sortMapsBasedOnField).
func sortByKey(list []any, key string) []map[string]any {
	s := make([]map[string]any, len(list))
	for i, e := range list {
		s[i] = e.(map[string]any)
	}
	sort.Sort(byKey{s, key})
	return s
}

// keyString is the string form strategicpatch compares merge keys by.
func keyString(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case json.Number:
		return string(t)
	case bool:
		return strconv.FormatBool(t)
	case float64:
		return strconv.FormatFloat(t, 'g', -1, 64)
	}
	return fmt.Sprintf("%v", v)
}

// firstIndexes maps the key string (keyString) of each element of list
// to the index of its first occurrence; by names an element's key, ok
// false for one that has none. A lookup in it stands for a scan of the
// list, so that merging two long lists is not quadratic: a patch is user
// input, and a list of 10,000 containers took 10 s to merge by scans.
func firstIndexes(list []any, by func(e any) (v any, ok bool)) map[string]int {
	idx := make(map[string]int, len(list))
	for i, e := range list {
		if v, ok := by(e); ok {
			if _, seen := idx[keyString(v)]; !seen {
				idx[keyString(v)] = i
			}
		}
	}
	return idx
}

// scalar is the identity of a list element compared whole (a list of
// scalars).
func scalar(e any) (any, bool) { return e, true }

// keyOf returns the identity of a list element merged by key: the key's
// value of a map that holds it (not null), as findMapInSliceBasedOnKeyValue
// matches.
func keyOf(key string) func(e any) (any, bool) {
	return func(e any) (any, bool) {
		em, ok := e.(map[string]any)
		if !ok || em[key] == nil {
			return nil, false
		}
		return em[key], true
	}
}

// keyed returns list element e as a map and its merge key's value as a
// string, or apimachinery's error for an element that is not a map or
// lacks the key.
func keyed(e any, key string) (map[string]any, string, error) {
	em, ok := e.(map[string]any)
	if !ok {
		return nil, "", &patchError{msg: fmt.Sprintf("unexpected %s in a list merged by %s", typeName(e), key)}
	}
	kv, ok := em[key]
	if !ok {
		return nil, "", &patchError{msg: fmt.Sprintf("map: %v does not contain declared merge key: %s", em, key)}
	}
	return em, keyString(kv), nil
}

// diffLists diffs two lists with merge semantics: the patch list (changed
// and added elements in modified's order, then delete directives), the
// parallel deletion list of a list of scalars, and the $setElementOrder
// list.
func diffLists(a, b []any, path []string, m fieldMeta, opts diffOptions, meta lookup) (add, del, order []any, err error) {
	if len(a) == 0 {
		if len(b) == 0 || opts.ignoreChangesAndAdditions {
			return nil, nil, nil, nil
		}
		return b, nil, nil, nil
	}
	if m.primitive {
		return diffScalarLists(a, b, opts)
	}
	// Upstream's diffListsOfMaps: both lists sorted by their keys' %v
	// (sort.Sort with its Less, equal keys included, so that duplicate
	// keys pair as upstream pairs them), walked side by side; the changed
	// and added elements then take modified's order (normalizeSliceOrder)
	// and the delete directives follow in key order.
	key := m.mergeKey
	for _, l := range [][]any{a, b} {
		for _, e := range l {
			if _, _, err := keyed(e, key); err != nil {
				return nil, nil, nil, err
			}
		}
	}
	as, bs := sortByKey(a, key), sortByKey(b, key)
	var dels []any
	for i, j := 0, 0; i < len(as) || j < len(bs); {
		var ka, kb string
		if i < len(as) {
			ka = keyString(as[i][key])
		}
		if j < len(bs) {
			kb = keyString(bs[j][key])
		}
		switch {
		case i < len(as) && j < len(bs) && ka == kb:
			sub, err := diffMaps(as[i], bs[j], path, opts, m.retainKeys, meta)
			if err != nil {
				return nil, nil, nil, err
			}
			if len(sub) > 0 {
				sub[key] = bs[j][key]
				add = append(add, sub)
			}
			i++
			j++
		case j < len(bs) && (i >= len(as) || ka > kb):
			if !opts.ignoreChangesAndAdditions {
				add = append(add, bs[j])
			}
			j++
		default:
			if !opts.ignoreDeletions {
				dels = append(dels, map[string]any{key: as[i][key], directiveMarker: deleteDirective})
			}
			i++
		}
	}
	inB := firstIndexes(b, keyOf(key))
	index := func(e any) int {
		v, ok := keyOf(key)(e)
		if !ok {
			return -1
		}
		if i, ok := inB[keyString(v)]; ok {
			return i
		}
		return -1
	}
	sort.SliceStable(add, func(x, y int) bool { return index(add[x]) < index(add[y]) })
	add = append(add, dels...)
	orderSame := len(a) == len(b)
	for i := 0; orderSame && i < len(a); i++ {
		orderSame = keyString(a[i].(map[string]any)[key]) == keyString(b[i].(map[string]any)[key])
	}
	if (!opts.ignoreChangesAndAdditions && (len(add) > 0 || !orderSame)) || (!opts.ignoreDeletions && len(add) > 0) {
		for _, e := range b {
			order = append(order, map[string]any{key: e.(map[string]any)[key]})
		}
	}
	return add, nil, order, nil
}

// diffScalarLists diffs two lists of scalars merged as sets.
func diffScalarLists(a, b []any, opts diffOptions) (add, del, order []any, err error) {
	inA, inB := firstIndexes(a, scalar), firstIndexes(b, scalar)
	if !opts.ignoreChangesAndAdditions {
		added := map[string]bool{}
		for _, v := range b {
			if _, ok := inA[keyString(v)]; !ok && !added[keyString(v)] {
				added[keyString(v)] = true
				add = append(add, v)
			}
		}
	}
	if !opts.ignoreDeletions {
		deleted := map[string]bool{}
		for _, v := range a {
			if _, ok := inB[keyString(v)]; !ok && !deleted[keyString(v)] {
				deleted[keyString(v)] = true
				del = append(del, v)
			}
		}
		slices.SortFunc(del, func(x, y any) int { return strings.Compare(keyString(x), keyString(y)) })
	}
	if (!opts.ignoreDeletions && len(del) > 0) || (!opts.ignoreChangesAndAdditions && !reflect.DeepEqual(a, b)) {
		order = b
	}
	return add, del, order, nil
}

// applyPatch applies a strategic merge patch with its directives to doc
// and returns the result; doc and patch are not modified
// (strategicpatch's mergeMap with StrategicMergePatch's options: the
// parallel lists merged, nulls the document lacks ignored). asPatch
// merges two patches instead, as the three-way patch merges its
// deletions (doc) and its changes (patch) with mergeMap's default
// options: the directives of both are kept ($setElementOrder and
// $retainKeys must agree, $deleteFromPrimitiveList lists unite), nulls
// stay.
func applyPatch(doc, patch map[string]any, path []string, meta lookup, asPatch bool) (map[string]any, error) {
	if v, ok := patch[directiveMarker]; ok {
		switch v {
		case replaceDirective:
			if asPatch {
				out := maps.Clone(patch)
				delete(out, directiveMarker)
				return out, nil
			}
			out := StripDirectives(patch).(map[string]any)
			return out, nil
		case deleteDirective:
			return map[string]any{}, nil
		}
		return nil, badPatchType(v, patch)
	}
	out := make(map[string]any, len(doc))
	for k, v := range doc {
		out[k] = v
	}
	if rk, ok := patch[retainKeysDirective]; ok && asPatch {
		if dk, ok := out[retainKeysDirective]; ok && !reflect.DeepEqual(dk, rk) {
			return nil, &patchError{msg: fmt.Sprintf("%v and %v are not deep equal: this may happen when calculating the 3-way diff patch", dk, rk)}
		}
		out[retainKeysDirective] = rk
	} else if ok {
		keep, ok := rk.([]any)
		if !ok {
			return nil, &patchError{msg: "invalid patch format of retainKeys", status: 400}
		}
		kept := make(map[string]bool, len(keep))
		for _, e := range keep {
			if k, ok := e.(string); ok {
				kept[k] = true
			}
		}
		retained := func(k string) bool { return kept[k] }
		for k, v := range patch {
			if v == nil || k == retainKeysDirective || strings.HasPrefix(k, deleteFromPrimitive) || strings.HasPrefix(k, setElementOrder) {
				continue
			}
			if !retained(k) {
				return nil, &patchError{msg: "invalid patch format of retainKeys", status: 400}
			}
		}
		for k := range out {
			if !retained(k) {
				delete(out, k)
			}
		}
	}
	// The lists a $setElementOrder orders: checked against their patch
	// list (validatePatchWithSetOrderList), then merged and ordered with
	// the others below.
	orders := map[string][]any{}
	for _, k := range slices.Sorted(maps.Keys(patch)) {
		field, ok := strings.CutPrefix(k, setElementOrder)
		if !ok {
			continue
		}
		order, ok := patch[k].([]any)
		if !ok {
			return nil, &patchError{msg: fmt.Sprintf("expected a []interface {}, but received a %s", typeName(patch[k]))}
		}
		if asPatch {
			if do, ok := out[k]; ok && !reflect.DeepEqual(do, patch[k]) {
				return nil, &patchError{msg: "invalid patch format of setElementOrder list", status: 400}
			}
			out[k] = patch[k]
		}
		m := meta(path, field)
		if pl, ok := patch[field].([]any); ok {
			if err := checkOrder(pl, order, m.mergeKey); err != nil {
				return nil, err
			}
		}
		orders[field] = order
	}
	for _, k := range slices.Sorted(maps.Keys(patch)) {
		if _, ok := strings.CutPrefix(k, deleteFromPrimitive); ok && asPatch {
			dl, dok := out[k].([]any)
			pl, pok := patch[k].([]any)
			if dok && pok {
				out[k] = reorder(mergeScalars(dl, pl), pl, dl, "")
			} else {
				out[k] = patch[k]
			}
		} else if field, ok := strings.CutPrefix(k, deleteFromPrimitive); ok {
			drop, _ := patch[k].([]any)
			if list, ok := out[field].([]any); ok {
				dropped := firstIndexes(drop, scalar)
				out[field] = slices.DeleteFunc(slices.Clone(list), func(e any) bool {
					_, ok := dropped[keyString(e)]
					return ok
				})
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(patch)) {
		if strings.HasPrefix(k, "$") {
			continue
		}
		pv := patch[k]
		if pv == nil {
			if asPatch {
				out[k] = nil
			} else {
				delete(out, k)
			}
			continue
		}
		dv, ok := out[k]
		if !ok || dv == nil || typeName(dv) != typeName(pv) {
			// A new value: its nulls discarded (not in a patch), a map
			// with a $patch dropped (discardNullValuesFromPatch,
			// removeDirectives).
			if !asPatch {
				pv = discardNulls(pv)
			}
			if v, keep := removeDirectives(pv); keep {
				if l, ok := v.([]any); ok && orders[k] != nil {
					v = reorder(l, orders[k], nil, meta(path, k).mergeKey)
				}
				out[k] = v
			} else {
				delete(out, k)
			}
			continue
		}
		m := meta(path, k)
		switch dt := dv.(type) {
		case map[string]any:
			if m.replace {
				out[k] = pv
				continue
			}
			merged, err := applyPatch(dt, pv.(map[string]any), append(slices.Clip(path), k), meta, asPatch)
			if err != nil {
				return nil, err
			}
			out[k] = merged
		case []any:
			if !m.merging() {
				out[k] = pv
				continue
			}
			merged, err := mergeList(dt, pv.([]any), orders[k], m, append(slices.Clip(path), k), meta, asPatch)
			if err != nil {
				return nil, err
			}
			out[k] = merged
		default:
			out[k] = pv
		}
	}
	// A $setElementOrder without its patch list orders the document's.
	for _, field := range slices.Sorted(maps.Keys(orders)) {
		if _, ok := patch[field]; ok {
			continue
		}
		if list, ok := out[field].([]any); ok {
			out[field] = reorder(list, orders[field], list, meta(path, field).mergeKey)
		}
	}
	return out, nil
}

// badPatchType is mergepatch.ErrBadPatchType: a $patch directive this
// place does not know.
func badPatchType(directive any, m map[string]any) error {
	return &patchError{msg: fmt.Sprintf("unknown patch type: %s in map: %v", directive, m)}
}

// checkOrder is upstream's validatePatchWithSetOrderList: the elements
// of the patch list (but deletions and other directives) come in the
// order of its $setElementOrder list.
func checkOrder(patchList, order []any, key string) error {
	if len(order) == 0 || len(patchList) == 0 {
		return nil
	}
	var items []any
	for _, e := range patchList {
		if em, ok := e.(map[string]any); ok && key != "" && em[directiveMarker] != nil {
			continue
		}
		items = append(items, e)
	}
	id := func(v any) string {
		if m, ok := v.(map[string]any); ok && key != "" {
			return keyString(m[key])
		}
		return keyString(v)
	}
	i, j := 0, 0
	for i < len(items) && j < len(order) {
		if id(items[i]) == id(order[j]) {
			i++
		}
		j++
	}
	if i < len(items) && j >= len(order) {
		return &patchError{msg: fmt.Sprintf("The order in patch list:\n%v\n doesn't match $setElementOrder list:\n%v\n", patchList, order)}
	}
	return nil
}

// discardNulls returns v without the null fields of its maps, at any
// depth (discardNullValuesFromPatch): a new value the patch adds.
func discardNulls(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			if e != nil {
				out[k] = discardNulls(e)
			}
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = discardNulls(e)
		}
		return out
	}
	return v
}

// removeDirectives is upstream's removeDirectives: a map with a $patch
// is dropped (keep false), and so are such maps in lists and maps.
func removeDirectives(v any) (any, bool) {
	switch t := v.(type) {
	case map[string]any:
		if _, ok := t[directiveMarker]; ok {
			return nil, false
		}
		out := make(map[string]any, len(t))
		for k, e := range t {
			if e, keep := removeDirectives(e); keep {
				out[k] = e
			}
		}
		return out, true
	case []any:
		out := make([]any, 0, len(t))
		for _, e := range t {
			if e, keep := removeDirectives(e); keep {
				out = append(out, e)
			}
		}
		return out, true
	}
	return v, true
}

// mergeList merges patch into doc, a list merged by key or as a set
// (upstream's mergeSlice): the elements all of one type, not lists; a
// list of maps takes its $patch elements first (delete removes the
// elements with the key, replace makes the other elements the list,
// anything else is refused), then merges the others by key or appends
// them; a list of scalars takes the patch's new values. The result is
// in the order of order (the $setElementOrder list, else the patch
// list), the document's elements the patch does not name among them as
// they stood (reorder).
func mergeList(doc, patch, order []any, m fieldMeta, path []string, meta lookup, asPatch bool) ([]any, error) {
	if len(doc) == 0 && len(patch) == 0 {
		return doc, nil
	}
	elem := ""
	for _, l := range [][]any{doc, patch} {
		for _, e := range l {
			tn := "nil"
			if e != nil {
				tn = typeName(e)
			}
			if elem == "" {
				elem = tn
				if _, ok := e.([]any); ok {
					return nil, &patchError{msg: "lists of lists are not supported", status: 422}
				}
			} else if tn != elem {
				return nil, &patchError{msg: fmt.Sprintf("list element types are not identical: %v", fmt.Sprint([][]any{doc, patch}))}
			}
		}
	}
	if elem != typeName(map[string]any{}) {
		merged := mergeScalars(doc, patch)
		if order == nil {
			order = patch
		}
		return reorder(merged, order, doc, ""), nil
	}
	key := m.mergeKey
	if key == "" {
		return nil, &patchError{msg: fmt.Sprintf("cannot merge lists without merge key for %s", strings.Join(path, "."))}
	}
	// out shares its array with view, as upstream's merge shares the
	// decoded list's (json's append growth gives its capacity): the
	// deletions shift elements within it and the appends fill its spare
	// room, and with a $setElementOrder upstream orders by what the
	// list's first len(doc) places then hold (normalizeElementOrder's
	// serverOrder is the list before the merge, over that array).
	var view []any
	for _, e := range doc {
		view = append(view, e)
	}
	out := view
	var items []any
	replace := false
	for _, pe := range patch {
		pm := pe.(map[string]any)
		d, ok := pm[directiveMarker]
		if !ok {
			items = append(items, pe)
			continue
		}
		switch d {
		case deleteDirective:
			kv, ok := pm[key]
			if !ok {
				return nil, &patchError{msg: fmt.Sprintf("map: %v does not contain declared merge key: %s", pm, key)}
			}
			for {
				i := indexByKey(out, key, kv)
				if i < 0 {
					break
				}
				out = append(out[:i], out[i+1:]...)
			}
		case replaceDirective:
			replace = true
		case mergeDirective:
			return nil, &patchError{msg: "merging lists cannot yet be specified in the patch"}
		default:
			return nil, badPatchType(d, pm)
		}
	}
	if replace {
		if items == nil {
			items = []any{}
		}
		return items, nil
	}
	server := out
	// Where each key first stands in out, kept as elements are appended
	// (indexByKey's answer without its scan; nothing moves in out from
	// here on).
	at := firstIndexes(out, keyOf(key))
	for _, pe := range items {
		pm := pe.(map[string]any)
		kv, ok := pm[key]
		if !ok {
			return nil, &patchError{msg: fmt.Sprintf("map: %v does not contain declared merge key: %s", pm, key)}
		}
		i, found := -1, false
		if kv != nil {
			i, found = at[keyString(kv)]
		}
		if !found {
			out = append(out, pm)
			if kv != nil {
				at[keyString(kv)] = len(out) - 1
			}
			continue
		}
		merged, err := applyPatch(out[i].(map[string]any), pm, path, meta, asPatch)
		if err != nil {
			return nil, err
		}
		out[i] = merged
	}
	if order == nil {
		order = items
	} else {
		server = view
	}
	return reorder(slices.Clone(out), order, slices.Clone(server), key), nil
}

// indexByKey returns the index of the first map of list whose key is v
// (findMapInSliceBasedOnKeyValue), or -1.
func indexByKey(list []any, key string, v any) int {
	ks := keyString(v)
	return slices.IndexFunc(list, func(e any) bool {
		em, ok := e.(map[string]any)
		return ok && em[key] != nil && keyString(em[key]) == ks
	})
}

// mergeScalars merges patch into list, a list of scalars merged as a
// set (patchStrategy merge without a key): list's values, then the
// patch's, each once (upstream's deduplicateScalars of the two
// appended); neither is changed.
func mergeScalars(list, patch []any) []any {
	merged := make([]any, 0, len(list)+len(patch))
	seen := make(map[string]bool, len(list)+len(patch))
	for _, l := range [][]any{list, patch} {
		for _, v := range l {
			if !seen[keyString(v)] {
				seen[keyString(v)] = true
				merged = append(merged, v)
			}
		}
	}
	return merged
}

// reorder returns list, a merged list, in the order upstream's
// normalizeElementOrder gives it (NormalizeOrder): order is the patch's
// list or its $setElementOrder, server the list before the patch, key
// the merge key ("" for scalars). Elements are matched by their key's
// value (a scalar by itself), written as %v, as the merge matches them.
func reorder(list, order, server []any, key string) []any {
	// An element is its key's value when the list merges by key and it
	// is a map, else itself.
	id := func(v any) (any, bool) {
		if m, ok := v.(map[string]any); ok && key != "" {
			return m[key], true
		}
		return v, true
	}
	inOrder, inOld := firstIndexes(order, id), firstIndexes(server, id)
	index := func(idx map[string]int, v any) int {
		k, _ := id(v)
		if i, ok := idx[keyString(k)]; ok {
			return i
		}
		return -1
	}
	inPatch, inServer := make([]int, len(list)), make([]int, len(list))
	for i, e := range list {
		inPatch[i], inServer[i] = index(inOrder, e), index(inOld, e)
	}
	out := make([]any, len(list))
	for i, j := range NormalizeOrder(inPatch, inServer) {
		out[i] = list[j]
	}
	return out
}

// NormalizeOrder returns the order of a list a strategic merge made, as
// upstream's normalizeElementOrder and mergeSortedSlice give it: element
// i of the merged list is named by the patch (or its $setElementOrder)
// at inPatch[i] (-1: not named, a server-only element) and stood at
// inServer[i] in the list before the patch (-1: new). The named elements
// come in the patch's order; each server-only one, in the old order,
// goes before the first named element that stood after it, so that a new
// element comes before the old ones it does not follow. The result is a
// permutation of the indexes.
func NormalizeOrder(inPatch, inServer []int) []int {
	var named, serverOnly []int
	for i, p := range inPatch {
		if p >= 0 {
			named = append(named, i)
		} else {
			serverOnly = append(serverOnly, i)
		}
	}
	// sort.SliceStable with upstream's comparators (normalizeSliceOrder:
	// an element missing from the order compares as less).
	sort.SliceStable(named, func(a, b int) bool { return inPatch[named[a]] < inPatch[named[b]] })
	sort.SliceStable(serverOnly, func(a, b int) bool {
		ia, ib := inServer[serverOnly[a]], inServer[serverOnly[b]]
		if ia >= 0 && ib >= 0 {
			return ia < ib
		}
		return true
	})
	out := make([]int, 0, len(inPatch))
	i, j := 0, 0
	for i < len(serverOnly) || j < len(named) {
		switch {
		case i >= len(serverOnly):
			out = append(out, named[j])
			j++
		case j >= len(named):
			out = append(out, serverOnly[i])
			i++
		default:
			l, r := inServer[serverOnly[i]], inServer[named[j]]
			if l >= 0 && r >= 0 && l < r {
				out = append(out, serverOnly[i])
				i++
			} else {
				out = append(out, named[j])
				j++
			}
		}
	}
	return out
}

// StripDirectives returns v without directive keys or delete-directive
// elements, for values copied into a document whole.
func StripDirectives(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			if strings.HasPrefix(k, "$") {
				continue
			}
			out[k] = StripDirectives(e)
		}
		return out
	case []any:
		out := make([]any, 0, len(t))
		for _, e := range t {
			if m, ok := e.(map[string]any); ok && m[directiveMarker] == deleteDirective {
				continue
			}
			out = append(out, StripDirectives(e))
		}
		return out
	}
	return v
}

// HasDirective reports whether a patch uses a directive other than
// $setElementOrder: one whose meaning StripDirectives would drop ($patch,
// $retainKeys, $deleteFromPrimitiveList), so that the stripped patch is
// not the same patch.
func HasDirective(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			if k == directiveMarker || k == retainKeysDirective || strings.HasPrefix(k, deleteFromPrimitive) {
				return true
			}
			if HasDirective(e) {
				return true
			}
		}
	case []any:
		for _, e := range t {
			if HasDirective(e) {
				return true
			}
		}
	}
	return false
}

// StatusCode is the HTTP status the API server answers a strategic merge
// PATCH with when Apply refused it with err (the patch handler's
// interpretStrategicMergePatchError): 400 for a malformed directive
// list ($retainKeys, $setElementOrder, $deleteFromPrimitiveList), 422
// for a list of lists or content outside its $retainKeys, and 500 for
// every other refusal, which upstream's handler passes on as it is (an
// unknown $patch, a missing merge key, mixed element types).
func StatusCode(err error) int {
	if pe, ok := errors.AsType[*patchError](err); ok && pe.status != 0 {
		return pe.status
	}
	return 500
}
