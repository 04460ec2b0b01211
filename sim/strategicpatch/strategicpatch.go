package strategicpatch

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
)

// Patch directives (strategicpatch's directive markers).
const (
	directiveMarker     = "$patch"
	deleteDirective     = "delete"
	replaceDirective    = "replace"
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
	return applyPatch(doc, patch, nil, metaOf)
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
type patchError struct{ msg string }

// Error returns the message.
func (e *patchError) Error() string { return e.msg }

func typeName(v any) string { return reflect.TypeOf(v).String() }

// sortedKeys returns the keys of m in order.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

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
	return mergePatches(deletions, delta, nil, meta), nil
}

// diffMaps returns the patch turning a into b under opts (strategicpatch's
// diffMaps). retain asks for a $retainKeys directive (the map's field has
// the retainKeys strategy).
func diffMaps(a, b map[string]any, path []string, opts diffOptions, retain bool, meta lookup) (map[string]any, error) {
	patch := map[string]any{}
	var retainList []any
	for _, k := range sortedKeys(b) {
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
		for _, k := range sortedKeys(a) {
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

// keyString is the string form strategicpatch compares merge keys by.
func keyString(v any) string { return fmt.Sprintf("%v", v) }

// keyed returns list element e as a map and its merge key's value as a
// string, or apimachinery's error for an element that is not a map or
// lacks the key.
func keyed(e any, key string) (map[string]any, string, error) {
	em, ok := e.(map[string]any)
	if !ok {
		return nil, "", &patchError{fmt.Sprintf("unexpected %s in a list merged by %s", typeName(e), key)}
	}
	kv, ok := em[key]
	if !ok {
		return nil, "", &patchError{fmt.Sprintf("map: %v does not contain declared merge key: %s", em, key)}
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
	key := m.mergeKey
	aByKey := map[string]map[string]any{}
	var aKeys []string
	for _, e := range a {
		em, ks, err := keyed(e, key)
		if err != nil {
			return nil, nil, nil, err
		}
		if _, dup := aByKey[ks]; !dup {
			aByKey[ks] = em
			aKeys = append(aKeys, ks)
		}
	}
	bKeys := map[string]bool{}
	for _, e := range b {
		em, ks, err := keyed(e, key)
		if err != nil {
			return nil, nil, nil, err
		}
		bKeys[ks] = true
		ae, found := aByKey[ks]
		if !found {
			if !opts.ignoreChangesAndAdditions {
				add = append(add, em)
			}
			continue
		}
		sub, err := diffMaps(ae, em, path, opts, m.retainKeys, meta)
		if err != nil {
			return nil, nil, nil, err
		}
		if len(sub) > 0 {
			sub[key] = em[key]
			add = append(add, sub)
		}
	}
	if !opts.ignoreDeletions {
		sort.Strings(aKeys)
		for _, ks := range aKeys {
			if !bKeys[ks] {
				add = append(add, map[string]any{key: aByKey[ks][key], directiveMarker: deleteDirective})
			}
		}
	}
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
	in := func(list []any, v any) bool {
		return slices.ContainsFunc(list, func(e any) bool { return keyString(e) == keyString(v) })
	}
	if !opts.ignoreChangesAndAdditions {
		for _, v := range b {
			if !in(a, v) && !in(add, v) {
				add = append(add, v)
			}
		}
	}
	if !opts.ignoreDeletions {
		for _, v := range a {
			if !in(b, v) && !in(del, v) {
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

// mergePatches combines the deletions patch d and the delta patch p of a
// three-way patch into one (strategicpatch's mergeMap without merging the
// parallel lists): maps merge, keyed lists unite by key with delete
// directives last, everything else is taken from p.
func mergePatches(d, p map[string]any, path []string, meta lookup) map[string]any {
	out := make(map[string]any, len(d)+len(p))
	for k, v := range d {
		out[k] = v
	}
	for _, k := range sortedKeys(p) {
		pv := p[k]
		dv, ok := out[k]
		if !ok || dv == nil || pv == nil || strings.HasPrefix(k, "$") {
			out[k] = pv
			continue
		}
		switch dt := dv.(type) {
		case map[string]any:
			if pt, ok := pv.(map[string]any); ok {
				out[k] = mergePatches(dt, pt, append(slices.Clip(path), k), meta)
				continue
			}
		case []any:
			if pt, ok := pv.([]any); ok {
				if m := meta(path, k); m.merging() {
					out[k] = unitePatchLists(dt, pt, m, append(slices.Clip(path), k), meta)
					continue
				}
			}
		}
		out[k] = pv
	}
	return out
}

// unitePatchLists unites the patch lists of one field: elements with the
// same key merge, delete directives go last.
func unitePatchLists(d, p []any, m fieldMeta, path []string, meta lookup) []any {
	if m.primitive {
		out := slices.Clone(d)
		for _, v := range p {
			if !slices.ContainsFunc(out, func(e any) bool { return keyString(e) == keyString(v) }) {
				out = append(out, v)
			}
		}
		return out
	}
	var items, deletes []any
	used := make([]bool, len(d))
	for _, pe := range p {
		pm, ok := pe.(map[string]any)
		if !ok {
			items = append(items, pe)
			continue
		}
		merged := pe
		for i, de := range d {
			dm, ok := de.(map[string]any)
			if ok && !used[i] && dm[directiveMarker] == nil && keyString(dm[m.mergeKey]) == keyString(pm[m.mergeKey]) {
				merged = mergePatches(dm, pm, path, meta)
				used[i] = true
				break
			}
		}
		if mm, ok := merged.(map[string]any); ok && mm[directiveMarker] == deleteDirective {
			deletes = append(deletes, merged)
		} else {
			items = append(items, merged)
		}
	}
	for i, de := range d {
		if used[i] {
			continue
		}
		if dm, ok := de.(map[string]any); ok && dm[directiveMarker] == deleteDirective {
			deletes = append(deletes, de)
		} else {
			items = append(items, de)
		}
	}
	return append(items, deletes...)
}

// applyPatch applies a strategic merge patch with its directives to doc
// and returns the result; doc and patch are not modified
// (strategicpatch's StrategicMergeMapPatch).
func applyPatch(doc, patch map[string]any, path []string, meta lookup) (map[string]any, error) {
	if v, ok := patch[directiveMarker]; ok {
		switch v {
		case replaceDirective:
			out := StripDirectives(patch).(map[string]any)
			return out, nil
		case deleteDirective:
			return map[string]any{}, nil
		}
		return nil, &patchError{fmt.Sprintf("Unknown patch type: %v in map: %v", v, patch)}
	}
	out := make(map[string]any, len(doc))
	for k, v := range doc {
		out[k] = v
	}
	if rk, ok := patch[retainKeysDirective]; ok {
		keep, ok := rk.([]any)
		if !ok {
			return nil, &patchError{"invalid patch: $retainKeys is not a list"}
		}
		for k := range out {
			if !slices.ContainsFunc(keep, func(e any) bool { return e == k }) {
				delete(out, k)
			}
		}
	}
	originals := map[string][]any{}
	for _, k := range sortedKeys(patch) {
		if field, ok := strings.CutPrefix(k, deleteFromPrimitive); ok {
			drop, _ := patch[k].([]any)
			if list, ok := out[field].([]any); ok {
				out[field] = slices.DeleteFunc(slices.Clone(list), func(e any) bool {
					return slices.ContainsFunc(drop, func(x any) bool { return keyString(x) == keyString(e) })
				})
			}
		}
	}
	for _, k := range sortedKeys(patch) {
		if strings.HasPrefix(k, "$") {
			continue
		}
		pv := patch[k]
		if pv == nil {
			delete(out, k)
			continue
		}
		dv, ok := out[k]
		if !ok || dv == nil {
			out[k] = StripDirectives(pv)
			continue
		}
		switch dt := dv.(type) {
		case map[string]any:
			if pt, ok := pv.(map[string]any); ok {
				merged, err := applyPatch(dt, pt, append(slices.Clip(path), k), meta)
				if err != nil {
					return nil, err
				}
				out[k] = merged
				continue
			}
		case []any:
			if pt, ok := pv.([]any); ok {
				m := meta(path, k)
				switch {
				case m.mergeKey != "":
					originals[k] = dt
					merged, err := applyKeyedList(dt, pt, m, append(slices.Clip(path), k), meta)
					if err != nil {
						return nil, err
					}
					out[k] = merged
					continue
				case m.primitive:
					originals[k] = dt
					out[k] = MergeScalars(dt, pt)
					continue
				}
			}
		}
		out[k] = StripDirectives(pv)
	}
	for _, k := range sortedKeys(patch) {
		field, ok := strings.CutPrefix(k, setElementOrder)
		if !ok {
			continue
		}
		order, _ := patch[k].([]any)
		list, ok := out[field].([]any)
		if !ok {
			continue
		}
		server := originals[field]
		if server == nil {
			server, _ = doc[field].([]any)
		}
		out[field] = Reorder(list, order, server, meta(path, field).mergeKey)
	}
	return out, nil
}

// applyKeyedList merges a patch list into a list merged by key: delete
// directives remove elements, elements with a known key merge, new ones are
// appended.
func applyKeyedList(doc, patch []any, m fieldMeta, path []string, meta lookup) ([]any, error) {
	out := slices.Clone(doc)
	for _, pe := range patch {
		pm, ok := pe.(map[string]any)
		if !ok {
			return nil, &patchError{fmt.Sprintf("unexpected %s in a list merged by %s", typeName(pe), m.mergeKey)}
		}
		ks := keyString(pm[m.mergeKey])
		idx := slices.IndexFunc(out, func(e any) bool {
			em, ok := e.(map[string]any)
			return ok && keyString(em[m.mergeKey]) == ks
		})
		switch pm[directiveMarker] {
		case deleteDirective:
			out = slices.DeleteFunc(out, func(e any) bool {
				em, ok := e.(map[string]any)
				return ok && keyString(em[m.mergeKey]) == ks
			})
			continue
		case replaceDirective:
			if idx >= 0 {
				out[idx] = StripDirectives(pm)
			} else {
				out = append(out, StripDirectives(pm))
			}
			continue
		}
		if idx < 0 {
			out = append(out, StripDirectives(pm))
			continue
		}
		merged, err := applyPatch(out[idx].(map[string]any), pm, path, meta)
		if err != nil {
			return nil, err
		}
		out[idx] = merged
	}
	return out, nil
}

// MergeScalars merges patch into list, a list of scalars merged as a
// set (patchStrategy merge without a key): list's values, then the
// patch's, each once (upstream's deduplicateScalars of the two
// appended); neither is changed.
func MergeScalars(list, patch []any) []any {
	merged := make([]any, 0, len(list)+len(patch))
	for _, l := range [][]any{list, patch} {
		for _, v := range l {
			if !slices.ContainsFunc(merged, func(e any) bool { return keyString(e) == keyString(v) }) {
				merged = append(merged, v)
			}
		}
	}
	return merged
}

// Reorder returns list, a merged list, in the order upstream's
// normalizeElementOrder gives it (NormalizeOrder): order is the patch's
// list or its $setElementOrder, server the list before the patch, key
// the merge key ("" for scalars). Elements are matched by their key's
// value (a scalar by itself), written as %v, as the merge matches them.
func Reorder(list, order, server []any, key string) []any {
	id := func(v any) string {
		if key == "" {
			return keyString(v)
		}
		if m, ok := v.(map[string]any); ok {
			return keyString(m[key])
		}
		return keyString(v)
	}
	index := func(l []any, v any) int {
		s := id(v)
		return slices.IndexFunc(l, func(e any) bool { return id(e) == s })
	}
	inPatch, inServer := make([]int, len(list)), make([]int, len(list))
	for i, e := range list {
		inPatch[i], inServer[i] = index(order, e), index(server, e)
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
