package store

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
)

// TestZeroValuedMapEntries: a map entry (or a list element) is there or
// not whatever its value, so one of a zero value appearing or leaving is
// a change, in the
// walk through memory and the reflective one alike, and a write that
// adds only such entries is stored, not taken for a no-op: a quota's
// hard: {pods: "0"} (before, its status kept no entry and the quota
// admitted every pod), a label or a ConfigMap key of "", a custom
// resource's field of 0, a container's argument of "", a list element
// whose fields are all zero (a toleration of {}, which tolerates any
// taint of an empty value). A struct field's zero value appearing stays no change
// (omitempty would not print it).
func TestZeroValuedMapEntries(t *testing.T) {
	zero := api.Quantity{}
	tests := []struct {
		name     string
		old, new api.Object
		want     string // the one change's path, "" for none
	}{
		{"quota hard", &api.ResourceQuota{ObjectMeta: api.ObjectMeta{Name: "q", Namespace: "default"}},
			&api.ResourceQuota{ObjectMeta: api.ObjectMeta{Name: "q", Namespace: "default"}, Status: api.ResourceQuotaStatus{Hard: api.ResourceList{"pods": zero}}},
			"status.hard[pods]"},
		{"label of \"\"", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "c", Namespace: "default", Labels: map[string]string{"a": "b"}}},
			&api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "c", Namespace: "default", Labels: map[string]string{"a": "b", "role": ""}}},
			"metadata.labels[role]"},
		{"data key of \"\" leaving", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "c", Namespace: "default"}, Data: map[string]string{"k": "", "j": "x"}},
			&api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "c", Namespace: "default"}, Data: map[string]string{"j": "x"}},
			"data[k]"},
		{"custom field of 0", &api.Unstructured{TypeMeta: api.TypeMeta{APIVersion: "example.com/v1", Kind: "Widget"}, ObjectMeta: api.ObjectMeta{Name: "w", Namespace: "default"}, Fields: api.Fields{"spec": map[string]any{"size": int64(3)}}},
			&api.Unstructured{TypeMeta: api.TypeMeta{APIVersion: "example.com/v1", Kind: "Widget"}, ObjectMeta: api.ObjectMeta{Name: "w", Namespace: "default"}, Fields: api.Fields{"spec": map[string]any{"size": int64(3), "replicas": int64(0)}}},
			"spec.replicas"},
		{"an argument of \"\"", podWithArgs("a"), podWithArgs("a", ""), "spec.containers[c].args[1]"},
		{"a finalizer of \"\" leaving", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "c", Namespace: "default", Finalizers: []string{"x", ""}}},
			&api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "c", Namespace: "default", Finalizers: []string{"x"}}},
			"metadata.finalizers[1]"},
		{"a custom list's 0", &api.Unstructured{TypeMeta: api.TypeMeta{APIVersion: "example.com/v1", Kind: "Widget"}, ObjectMeta: api.ObjectMeta{Name: "w", Namespace: "default"}, Fields: api.Fields{"spec": map[string]any{"sizes": []any{int64(3)}}}},
			&api.Unstructured{TypeMeta: api.TypeMeta{APIVersion: "example.com/v1", Kind: "Widget"}, ObjectMeta: api.ObjectMeta{Name: "w", Namespace: "default"}, Fields: api.Fields{"spec": map[string]any{"sizes": []any{int64(3), int64(0)}}}},
			"spec.sizes[1]"},
		{"a custom resource's empty object", &api.Unstructured{TypeMeta: api.TypeMeta{APIVersion: "example.com/v1", Kind: "Widget"}, ObjectMeta: api.ObjectMeta{Name: "w", Namespace: "default"}, Fields: api.Fields{"spec": map[string]any{"size": int64(3)}}},
			&api.Unstructured{TypeMeta: api.TypeMeta{APIVersion: "example.com/v1", Kind: "Widget"}, ObjectMeta: api.ObjectMeta{Name: "w", Namespace: "default"}, Fields: api.Fields{"spec": map[string]any{"size": int64(3), "selector": map[string]any{}}}},
			"spec.selector"},
		{"a custom resource's empty list leaving", &api.Unstructured{TypeMeta: api.TypeMeta{APIVersion: "example.com/v1", Kind: "Widget"}, ObjectMeta: api.ObjectMeta{Name: "w", Namespace: "default"}, Fields: api.Fields{"spec": map[string]any{"size": int64(3), "items": []any{}}}},
			&api.Unstructured{TypeMeta: api.TypeMeta{APIVersion: "example.com/v1", Kind: "Widget"}, ObjectMeta: api.ObjectMeta{Name: "w", Namespace: "default"}, Fields: api.Fields{"spec": map[string]any{"size": int64(3)}}},
			"spec.items"},
		{"a list's element of zero fields", podWithTolerations(api.Toleration{Key: "a", Operator: "Exists"}),
			podWithTolerations(api.Toleration{Key: "a", Operator: "Exists"}, api.Toleration{}), "spec.tolerations[1]"},
		{"a list's element of zero fields leaving", podWithTolerations(api.Toleration{}),
			podWithTolerations(), "spec.tolerations[0]"},
		{"a struct field's zero value", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "c", Namespace: "default"}},
			&api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "c", Namespace: "default", Generation: 0}},
			""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, reflective := range []bool{false, true} {
				_, plain := diffBoth(tc.old, tc.new, reflective)
				var paths []string
				for _, c := range plain {
					paths = append(paths, c.Path)
				}
				if tc.want == "" && len(paths) != 0 || tc.want != "" && (len(paths) != 1 || paths[0] != tc.want) {
					t.Errorf("reflective %v: changes at %q, want %q", reflective, paths, tc.want)
				}
			}
		})
	}
	// Through the store: the status write of the quota's zero entries
	// is stored.
	s := New(kernel.New(1))
	op := Op{Actor: "test"}
	q, err := s.Create(op, &api.ResourceQuota{ObjectMeta: api.ObjectMeta{Name: "q", Namespace: "default"}, Spec: api.ResourceQuotaSpec{Hard: api.ResourceList{"pods": zero}}})
	if err != nil {
		t.Fatal(err)
	}
	upd := q.DeepCopyObject().(*api.ResourceQuota)
	upd.Status.Hard, upd.Status.Used = api.ResourceList{"pods": zero}, api.ResourceList{"pods": zero}
	if _, err := s.Update(op, upd, "status"); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(api.KindResourceQuota, api.Key{Namespace: "default", Name: "q"})
	if err != nil {
		t.Fatal(err)
	}
	if st := got.(*api.ResourceQuota).Status; len(st.Hard) != 1 || len(st.Used) != 1 {
		t.Errorf("stored status %+v, want hard and used of pods 0", st)
	}
}

// podWithArgs is a pod whose container has args.
func podWithTolerations(ts ...api.Toleration) *api.Pod {
	p := pod("p", "", nil)
	p.Spec.Tolerations = ts
	return p
}

func podWithArgs(args ...string) *api.Pod {
	p := pod("p", "", nil)
	p.Spec.Containers[0].Args = args
	return p
}

// TestEndpointSliceGeneration: an EndpointSlice's generation starts at 1
// and moves with any change but to its metadata, or to its labels
// (endpointSliceStrategy's PrepareForUpdate), not with an annotation.
func TestEndpointSliceGeneration(t *testing.T) {
	s := New(kernel.New(1))
	op := Op{Actor: "test"}
	o, err := s.Create(op, &api.EndpointSlice{ObjectMeta: api.ObjectMeta{Name: "e", Namespace: "default"}, AddressType: "IPv4"})
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name   string
		change func(e *api.EndpointSlice)
		want   int64
	}{
		{"created", func(*api.EndpointSlice) {}, 1},
		{"an endpoint", func(e *api.EndpointSlice) { e.Endpoints = []api.Endpoint{{Addresses: []string{"10.0.0.1"}}} }, 2},
		{"an annotation", func(e *api.EndpointSlice) { e.Annotations = map[string]string{"a": "b"} }, 2},
		{"a label", func(e *api.EndpointSlice) { e.Labels = map[string]string{"a": "b"} }, 3},
	}
	for i, st := range steps {
		if i > 0 {
			u := o.DeepCopyObject().(*api.EndpointSlice)
			st.change(u)
			if o, err = s.Update(op, u, ""); err != nil {
				t.Fatal(err)
			}
		}
		if g := o.GetObjectMeta().Generation; g != st.want {
			t.Errorf("after %s: generation %d, want %d", st.name, g, st.want)
		}
	}
}
