package strategicpatch

import (
	"strings"
	"testing"
)

// Upstream's patch_test.go (apimachinery v0.37.2) tests not ported, and
// why:
//   - TestSortMergeLists (sortMergeListTestCaseData): tests
//     sortMergeListsByName, upstream's own test helper; we have no such
//     function (the diff sorts as diffListsOfMaps does, sortByKey).
//   - TestStrategicMergePatch's "bad original", "bad patch" (invalid JSON
//     document) and "bad struct", "nil struct" (wrong schema argument)
//     checks: ours takes decoded documents and a fixed schema, so there
//     are no bytes to refuse and no schema argument to get wrong.
//   - The three-way rows' conflict checks (CreateThreeWayMergePatch with
//     overwrite false): kubectl apply always overwrites and clustersim
//     has no conflict detection; those rows are checked with overwrite.
//   - TestUnknownField's "diff" row (skip below).
//
// mergeItemMeta is the patch metadata of upstream's MergeItem test struct
// (patch_test.go), by field name as the struct nests itself:
//
//	MergingList           []MergeItem `patchStrategy:"merge" patchMergeKey:"name"`
//	MergeItemPtr          *MergeItem  `patchStrategy:"merge" patchMergeKey:"name"`
//	MergingIntList        []int       `patchStrategy:"merge"`
//	ReplacingItem         runtime.RawExtension `patchStrategy:"replace"`
//	RetainKeysMap         RetainKeysMergeItem  `patchStrategy:"retainKeys"`
//	RetainKeysMergingList []MergeItem `patchStrategy:"merge,retainKeys" patchMergeKey:"name"`
//
// (upstream's rows use mergeItemPtr as a list, which its struct lookup
// merges by name like mergingList). nonMergingList, nonMergingIntList,
// simpleMap and the
// scalars have no strategy (RetainKeysMergeItem's fields are MergeItem's).
func mergeItemMeta(_ []string, field string) fieldMeta {
	switch field {
	case "mergingList", "mergeItemPtr":
		return fieldMeta{mergeKey: "name"}
	case "mergingIntList":
		return fieldMeta{primitive: true}
	case "replacingItem":
		return fieldMeta{replace: true}
	case "retainKeysMap":
		return fieldMeta{retainKeys: true}
	case "retainKeysMergingList":
		return fieldMeta{mergeKey: "name", retainKeys: true}
	}
	return fieldMeta{}
}

// upstreamRow is one of upstream's StrategicMergePatchTestCaseData (or
// ...RawTestCaseData) rows, its documents as JSON ("" is upstream's
// omitted document: an empty object).
type upstreamRow struct {
	name                                string
	original, twoWay, modified, current string
	threeWay, result, twoWayResult      string
	// wantErr is upstream's ExpectedError: applying the patch fails
	// with an error containing it.
	wantErr string
	// skip says why a row is not run: a feature clustersim does not have.
	skip string
}

// doc decodes a row's document; "" is the empty object upstream's
// CreateTwoWayMergePatch and StrategicMergePatch make of no bytes.
func doc(t *testing.T, s string) map[string]any {
	t.Helper()
	if s == "" {
		return map[string]any{}
	}
	return tree(t, s)
}

// encode is json.Marshal of a document ("{}" for a nil one), as
// upstream's tests compare them.
func encode(t *testing.T, m map[string]any) string {
	t.Helper()
	if m == nil {
		return "{}"
	}
	return mustEncode(t, m)
}

// checkApply applies patch to original with mergeItemMeta and checks the
// result (or wantErr), as upstream's testPatchApplication does.
func checkApply(t *testing.T, meta lookup, what, original, patch string, want, wantErr string) {
	t.Helper()
	got, err := applyPatch(doc(t, original), doc(t, patch), nil, meta, false)
	if wantErr != "" {
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("%s: applying %s to %s: error %v, want one containing %q", what, patch, original, err, wantErr)
		}
		return
	}
	if err != nil {
		t.Errorf("%s: applying %s to %s: %v", what, patch, original, err)
		return
	}
	if g, w := encode(t, got), encode(t, doc(t, want)); g != w {
		t.Errorf("%s: applying %s to %s\n got %s\nwant %s", what, patch, original, g, w)
	}
}

// runTwoWay is upstream's testTwoWayPatch: the two-way patch from
// original to modified is twoWay, and applying it to original gives
// twoWayResult (modified if none).
func runTwoWay(t *testing.T, meta lookup, r upstreamRow) {
	t.Helper()
	if r.skip != "" {
		t.Skip(r.skip)
	}
	p, err := diffMaps(doc(t, r.original), doc(t, r.modified), nil, diffOptions{}, false, meta)
	if err != nil {
		t.Errorf("two-way patch: %v", err)
		return
	}
	if g, w := encode(t, p), encode(t, doc(t, r.twoWay)); g != w {
		t.Errorf("two-way patch\n got %s\nwant %s", g, w)
	}
	want := r.twoWayResult
	if want == "" {
		want = r.modified
	}
	checkApply(t, meta, "two-way", r.original, encode(t, p), want, r.wantErr)
}

// runThreeWay is upstream's testThreeWayPatch with overwrite (kubectl
// apply's): the patch from original, modified and current is threeWay,
// and applying it to current gives result. clustersim has no conflict
// detection (kubectl always overwrites), so the rows upstream expects a
// conflict of without overwrite are checked with overwrite, as upstream
// checks them next.
func runThreeWay(t *testing.T, meta lookup, r upstreamRow) {
	t.Helper()
	if r.skip != "" {
		t.Skip(r.skip)
	}
	if r.result == "" {
		return // upstream's conflict-only rows: no patch with overwrite to check
	}
	p, err := threeWay(doc(t, r.original), doc(t, r.modified), doc(t, r.current), meta)
	if err != nil {
		t.Errorf("three-way patch: %v", err)
		return
	}
	if g, w := encode(t, p), encode(t, doc(t, r.threeWay)); g != w {
		t.Errorf("three-way patch\n got %s\nwant %s", g, w)
	}
	checkApply(t, meta, "three-way", r.current, encode(t, p), r.result, r.wantErr)
}

// TestUpstreamStrategicMergePatch runs upstream's TestStrategicMergePatch
// rows (createStrategicMergePatchTestCaseData and
// strategicMergePatchRawTestCases) and TestReplaceWithRawExtension's
// (replaceRawExtensionPatchTestCases) and TestUnknownField's: two-way and three-way patches made
// and applied.
func TestUpstreamStrategicMergePatch(t *testing.T) {
	for _, table := range []struct {
		name string
		rows []upstreamRow
	}{
		{"createStrategicMergePatchTestCaseData", upstreamCreateRows},
		{"strategicMergePatchRawTestCases", upstreamRawRows},
		{"replaceRawExtensionPatchTestCases", upstreamRawExtensionRows},
		{"TestUnknownField", upstreamUnknownFieldRows},
	} {
		t.Run(table.name, func(t *testing.T) {
			for _, r := range table.rows {
				t.Run(r.name+"/TwoWay", func(t *testing.T) { runTwoWay(t, mergeItemMeta, r) })
				t.Run(r.name+"/ThreeWay", func(t *testing.T) { runThreeWay(t, mergeItemMeta, r) })
			}
		})
	}
}

// TestUpstreamCustomStrategicMergePatch runs upstream's
// TestCustomStrategicMergePatch rows (customStrategicMergePatchTestCaseData
// and customStrategicMergePatchRawTestCases): hand-written patches
// applied to original.
func TestUpstreamCustomStrategicMergePatch(t *testing.T) {
	for _, table := range []struct {
		name string
		rows []upstreamRow
	}{
		{"customStrategicMergePatchTestCaseData", upstreamCustomRows},
		{"customStrategicMergePatchRawTestCases", upstreamCustomRawRows},
	} {
		t.Run(table.name, func(t *testing.T) {
			for _, r := range table.rows {
				t.Run(r.name, func(t *testing.T) {
					want := r.twoWayResult
					if want == "" {
						want = r.modified
					}
					checkApply(t, mergeItemMeta, "apply", r.original, r.twoWay, want, r.wantErr)
				})
			}
		})
	}
}

// TestUpstreamNumberConversion runs upstream's TestNumberConversion rows:
// the two-way patch of PrecisionItem documents (no patch strategies) keeps
// the largest int64 and float64 values exact.
func TestUpstreamNumberConversion(t *testing.T) {
	none := func([]string, string) fieldMeta { return fieldMeta{} }
	for _, r := range upstreamNumberRows {
		t.Run(r.name, func(t *testing.T) { runTwoWay(t, none, r) })
	}
}

// TestUpstreamDirectives checks applying the $patch directives, and the
// malformed patches upstream refuses, against what apimachinery
// v0.37.2's patch.go does (mergeMap, handleDirectiveInMergeMap,
// mergeSliceWithSpecialElements, removeDirectives and the errors of
// mergepatch/errors.go). No upstream table holds these rows: upstream's
// own error rows are in customStrategicMergePatchRawTestCases. Each row
// was checked against upstream's StrategicMergePatch with its MergeItem
// struct.
func TestUpstreamDirectives(t *testing.T) {
	for _, r := range []struct {
		name, original, patch, want, wantErr string
	}{
		{
			name:     "$patch: replace in a map replaces it",
			original: `{"simpleMap":{"a":"1"}}`,
			patch:    `{"simpleMap":{"$patch":"replace","b":"2"}}`,
			want:     `{"simpleMap":{"b":"2"}}`,
		},
		{
			name:     "$patch: delete in a map empties it",
			original: `{"simpleMap":{"a":"1"}}`,
			patch:    `{"simpleMap":{"$patch":"delete"}}`,
			want:     `{"simpleMap":{}}`,
		},
		{
			name:     "a new map with $patch is dropped (removeDirectives)",
			original: `{"name":"a"}`,
			patch:    `{"simpleMap":{"$patch":"replace","b":"2"}}`,
			want:     `{"name":"a"}`,
		},
		{
			name:     "unknown $patch in a map",
			original: `{"simpleMap":{"a":"1"}}`,
			patch:    `{"simpleMap":{"$patch":"foo","b":"2"}}`,
			wantErr:  "unknown patch type: foo in map: map[$patch:foo b:2]",
		},
		{
			name:     "unknown $patch at the top",
			original: `{"name":"a"}`,
			patch:    `{"$patch":"foo"}`,
			wantErr:  "unknown patch type: foo in map: map[$patch:foo]",
		},
		{
			name:     "$patch: merge in a map is unknown there",
			original: `{"simpleMap":{"a":"1"}}`,
			patch:    `{"simpleMap":{"$patch":"merge","b":"2"}}`,
			wantErr:  "unknown patch type: merge in map: map[$patch:merge b:2]",
		},
		{
			name:     "unknown $patch in a merging list element",
			original: `{"mergingList":[{"name":"a"}]}`,
			patch:    `{"mergingList":[{"$patch":"foo","name":"a","value":"1"}]}`,
			wantErr:  "unknown patch type: foo in map: map[$patch:foo name:a value:1]",
		},
		{
			name:     "unknown $patch in a new merging list element",
			original: `{"mergingList":[{"name":"a"}]}`,
			patch:    `{"mergingList":[{"$patch":"foo","name":"b"}]}`,
			wantErr:  "unknown patch type: foo in map: map[$patch:foo name:b]",
		},
		{
			name:     "$patch: merge in a merging list",
			original: `{"mergingList":[{"name":"a"}]}`,
			patch:    `{"mergingList":[{"$patch":"merge"}]}`,
			wantErr:  "merging lists cannot yet be specified in the patch",
		},
		{
			name:     "$patch: replace in a merging list replaces the list with the other elements",
			original: `{"mergingList":[{"name":"a","value":"1"},{"name":"c"}]}`,
			patch:    `{"mergingList":[{"name":"b"},{"$patch":"replace"},{"name":"a"}]}`,
			want:     `{"mergingList":[{"name":"b"},{"name":"a"}]}`,
		},
		{
			name:     "$patch: delete without the merge key",
			original: `{"mergingList":[{"name":"a"}]}`,
			patch:    `{"mergingList":[{"$patch":"delete","value":"a"}]}`,
			wantErr:  "map: map[$patch:delete value:a] does not contain declared merge key: name",
		},
		{
			name:     "a merging list patched with scalars",
			original: `{"mergingList":[{"name":"a"}]}`,
			patch:    `{"mergingList":["a"]}`,
			wantErr:  "list element types are not identical",
		},
		{
			name:     "a list where a map was replaces it (mismatched types)",
			original: `{"simpleMap":{"a":"1"}}`,
			patch:    `{"simpleMap":["a"]}`,
			want:     `{"simpleMap":["a"]}`,
		},
		{
			name:     "$retainKeys not a list",
			original: `{"retainKeysMap":{"name":"a"}}`,
			patch:    `{"retainKeysMap":{"$retainKeys":"name","name":"b"}}`,
			wantErr:  "invalid patch format of retainKeys",
		},
		{
			name:     "$deleteFromPrimitiveList not a list deletes nothing",
			original: `{"mergingIntList":[1,2]}`,
			patch:    `{"$deleteFromPrimitiveList/mergingIntList":1}`,
			want:     `{"mergingIntList":[1,2]}`,
		},
		{
			name:     "$setElementOrder not a list",
			original: `{"mergingList":[{"name":"a"}]}`,
			patch:    `{"$setElementOrder/mergingList":{"name":"a"}}`,
			wantErr:  "expected a []interface {}, but received a map[string]interface {}",
		},
	} {
		t.Run(r.name, func(t *testing.T) {
			checkApply(t, mergeItemMeta, "apply", r.original, r.patch, r.want, r.wantErr)
		})
	}
}

// TestStatusCode: the API server's status for each class of refusal, as
// interpretStrategicMergePatchError sorts mergepatch's errors: the
// malformed directive lists are 400s, a list of lists a 422, and any
// other error (here an unknown $patch and elements of two types) is
// passed on as it is, a 500.
func TestStatusCode(t *testing.T) {
	fin := func(v ...any) map[string]any { return map[string]any{"metadata": map[string]any{"finalizers": v}} }
	for _, tc := range []struct {
		name       string
		doc, patch map[string]any
		code       int
	}{
		{"retainKeys not a list", map[string]any{"data": map[string]any{}}, map[string]any{"data": map[string]any{"$retainKeys": "a"}}, 400},
		{"a list of lists", fin([]any{"x"}), fin([]any{"y"}), 422},
		{"an unknown $patch", map[string]any{"data": map[string]any{}}, map[string]any{"data": map[string]any{"$patch": "frob"}}, 500},
		{"elements of two types", fin("x"), fin([]any{"y"}), 500},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Apply(tc.doc, tc.patch)
			if err == nil {
				t.Fatal("Apply accepted the patch")
			}
			if got := StatusCode(err); got != tc.code {
				t.Errorf("StatusCode(%q) = %d, want %d", err, got, tc.code)
			}
		})
	}
}
