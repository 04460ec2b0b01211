package api

import (
	"fmt"
	"maps"
	"reflect"
	"testing"
	"time"
)

var semTestTime = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// TestSemanticEqual: equality.Semantic.DeepEqual's rules, on which the
// Deployment controller's template and status comparisons and the API
// server's Job update checks rest.
func TestSemanticEqual(t *testing.T) {
	t1 := NewTime(semTestTime)
	t2 := Time{Time: semTestTime.In(time.FixedZone("x", 3600))}
	tests := []struct {
		name string
		a, b any
		want bool
	}{
		{"nil and empty map", map[string]string(nil), map[string]string{}, true},
		{"nil and empty slice", []int(nil), []int{}, true},
		{"different maps", map[string]string{"a": "1"}, map[string]string{"a": "2"}, false},
		{"same instant in two zones", t1, t2, true},
		{"quantities by value", MustParseQuantity("0.5"), MustParseQuantity("500m"), true},
		{"nil and non-nil pointer", (*int32)(nil), new(int32), false},
		{"nil and empty tolerations in a pod spec", PodSpec{}, PodSpec{Tolerations: []Toleration{}}, true},
		{"requests by amount", ResourceList{ResourceCPU: MustParseQuantity("1")}, ResourceList{ResourceCPU: MustParseQuantity("1000m")}, true},
		{"different requests", ResourceList{ResourceCPU: MustParseQuantity("1")}, ResourceList{ResourceCPU: MustParseQuantity("2")}, false},
		{"statuses with nil and empty conditions", DeploymentStatus{Replicas: 1}, DeploymentStatus{Replicas: 1, Conditions: []DeploymentCondition{}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SemanticEqual(tt.a, tt.b); got != tt.want {
				t.Errorf("SemanticEqual = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestSameElements(t *testing.T) {
	refs := []OwnerReference{{Name: "a"}, {Name: "b"}}
	copied := append([]OwnerReference(nil), refs...)
	for _, tc := range []struct {
		name string
		a, b []OwnerReference
		want bool
	}{
		{"the same slice", refs, refs, true},
		{"both nil", nil, nil, true},
		{"nil and empty", nil, []OwnerReference{}, true},
		{"a shallow copy's", refs, refs[:len(refs):len(refs)], true},
		{"equal elements of another array", refs, copied, false},
		{"a prefix of the same array", refs, refs[:1], false},
		{"the same array from its second element", refs[1:], refs[:1], false},
	} {
		if got := SameElements(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: SameElements = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// A caller compares the elements only when the lists are not the very
// same ones: a status write's new object shares its old one's lists.
func ExampleSameElements() {
	old := &Pod{ObjectMeta: ObjectMeta{Finalizers: []string{"example.com/cleanup"}}}
	cur := *old // a shallow copy, as a status write's object is
	cur.Status.Phase = PodRunning
	fmt.Println(SameElements(old.Finalizers, cur.Finalizers))
	fmt.Println(SameElements(old.Finalizers, []string{"example.com/cleanup"}))
	// Output:
	// true
	// false
}

// TestMapsDeepEqual holds MapsDeepEqual to reflect.DeepEqual, nil
// against empty included (unequal to it, unlike SemanticEqual), and
// EqualEntries to maps.Equal (nil and empty alike).
func TestMapsDeepEqual(t *testing.T) {
	m := map[string]string{"app": "web", "tier": "scale"}
	for _, tc := range []struct {
		name string
		a, b map[string]string
	}{
		{"both nil", nil, nil},
		{"nil and empty", nil, map[string]string{}},
		{"empty and nil", map[string]string{}, nil},
		{"both empty", map[string]string{}, map[string]string{}},
		{"the same map", m, m},
		{"equal entries", m, map[string]string{"tier": "scale", "app": "web"}},
		{"a value differs", m, map[string]string{"app": "web", "tier": "other"}},
		{"a key differs", m, map[string]string{"app": "web", "zone": "scale"}},
		{"one more entry", m, map[string]string{"app": "web", "tier": "scale", "x": ""}},
		{"an empty value against none", map[string]string{"a": ""}, map[string]string{"b": ""}},
	} {
		want := reflect.DeepEqual(tc.a, tc.b)
		if got := MapsDeepEqual(tc.a, tc.b); got != want {
			t.Errorf("%s: MapsDeepEqual = %v, want %v (reflect.DeepEqual)", tc.name, got, want)
		}
		if got, want := EqualEntries(tc.a, tc.b), maps.Equal(tc.a, tc.b); got != want {
			t.Errorf("%s: EqualEntries = %v, want %v (maps.Equal)", tc.name, got, want)
		}
	}
}

// TestSlicesDeepEqual holds SlicesDeepEqual to reflect.DeepEqual, nil
// against empty included.
func TestSlicesDeepEqual(t *testing.T) {
	raw := RawValue(`{"a":1}`)
	for _, tc := range []struct {
		name string
		a, b RawValue
	}{
		{"both nil", nil, nil},
		{"nil and empty", nil, RawValue{}},
		{"empty and nil", RawValue{}, nil},
		{"both empty", RawValue{}, RawValue{}},
		{"the same bytes", raw, raw},
		{"equal bytes", raw, RawValue(`{"a":1}`)},
		{"a byte differs", raw, RawValue(`{"a":2}`)},
		{"a prefix", raw, raw[:3]},
	} {
		want := reflect.DeepEqual(tc.a, tc.b)
		if got := SlicesDeepEqual(tc.a, tc.b); got != want {
			t.Errorf("%s: SlicesDeepEqual = %v, want %v (reflect.DeepEqual)", tc.name, got, want)
		}
	}
}
