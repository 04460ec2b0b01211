package store

import (
	"strings"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
)

var widgetKind = api.Kind{Group: "example.com", Name: "Widget"}

func widgetStore(t *testing.T) *Store {
	t.Helper()
	s := New(kernel.New(1))
	info := api.ResourceInfo{Kind: widgetKind, Version: "v1", Resource: "widgets", Singular: "widget", Namespaced: true, HasStatus: true, Generation: true}
	if err := s.Kinds().Register(info, "example.com/v1"); err != nil {
		t.Fatal(err)
	}
	return s
}

func widget(replicas int64) *api.Unstructured {
	u := &api.Unstructured{TypeMeta: api.TypeMeta{APIVersion: "example.com/v1", Kind: "Widget"}, ObjectMeta: api.ObjectMeta{Name: "w", Namespace: "default"}}
	u.Set("spec.replicas", replicas)
	return u
}

// TestCustomResourceGenerationAndStatus: a custom kind's generation moves
// with spec changes only; the status subresource changes status only, and
// a main-resource update keeps the stored status.
func TestCustomResourceGenerationAndStatus(t *testing.T) {
	s := widgetStore(t)
	op := Op{Actor: "test"}
	in := widget(1)
	in.Set("status.ready", 5) // dropped on create: status has its subresource
	o, err := s.Create(op, in)
	if err != nil {
		t.Fatal(err)
	}
	u := o.(*api.Unstructured)
	if u.Generation != 1 {
		t.Errorf("generation after create = %d, want 1", u.Generation)
	}
	if _, ok := u.Get("status"); ok {
		t.Errorf("create kept status: %v", u.Fields)
	}
	steps := []struct {
		name     string
		mutate   func(u *api.Unstructured)
		sub      string
		wantGen  int64
		wantPath string
	}{
		{"spec change", func(u *api.Unstructured) { u.Set("spec.replicas", 3) }, "", 2, "spec.replicas"},
		{"label change", func(u *api.Unstructured) { u.Labels = map[string]string{"a": "b"} }, "", 2, "metadata.labels[a]"},
		{"status write", func(u *api.Unstructured) { u.Set("status.ready", 3); u.Set("spec.replicas", 9) }, "status", 2, "status.ready"},
		{"status ignored on update", func(u *api.Unstructured) { u.Set("status.ready", 7); u.Set("spec.size", "big") }, "", 3, "spec.size"},
	}
	for _, st := range steps {
		cp := o.DeepCopyObject().(*api.Unstructured)
		st.mutate(cp)
		o, err = s.Update(op, cp, st.sub)
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		u := o.(*api.Unstructured)
		if u.Generation != st.wantGen {
			t.Errorf("%s: generation = %d, want %d", st.name, u.Generation, st.wantGen)
		}
		recs := s.Audit().Records()
		last := recs[len(recs)-1]
		var paths []string
		for c := range last.EachChange() {
			paths = append(paths, c.Path)
		}
		if len(paths) == 0 || paths[0] != st.wantPath {
			t.Errorf("%s: changes %v, want first %s", st.name, paths, st.wantPath)
		}
	}
	u = o.(*api.Unstructured)
	if r, _ := u.Get("spec.replicas"); r != int64(3) {
		t.Errorf("status write changed spec: replicas = %v", r)
	}
	if r, _ := u.Get("status.ready"); r != int64(3) {
		t.Errorf("update changed status: ready = %v", r)
	}
	if mf := u.ManagedFields; len(mf) == 0 || !strings.Contains(mf[0].FieldsV1.String(), "f:spec") {
		t.Errorf("managedFields = %+v", mf)
	}
}

// TestCustomResourceApply: server-side apply of a custom resource merges
// the configuration into the live object, removes what the manager
// stopped applying, and records the manager's fields.
func TestCustomResourceApply(t *testing.T) {
	s := widgetStore(t)
	live := widget(1)
	live.Set("spec.size", "small")
	o, err := s.Create(Op{Actor: "test", FieldManager: "creator"}, live)
	if err != nil {
		t.Fatal(err)
	}
	apply := func(cfg *api.Unstructured) *api.Unstructured {
		t.Helper()
		merged, conflicts, err := s.PlanApply(o, cfg, "applier")
		if err != nil || len(conflicts) > 0 {
			t.Fatalf("PlanApply: %v %v", err, conflicts)
		}
		res, err := s.Update(Op{Actor: "test", FieldManager: "applier", Applied: cfg.DeepCopyObject()}, merged, "")
		if err != nil {
			t.Fatal(err)
		}
		o = res
		return res.(*api.Unstructured)
	}
	// Another manager's field with another value is a conflict.
	if _, conflicts, _ := s.PlanApply(o, widget(4), "applier"); len(conflicts) != 1 || conflicts[0].Path.String() != ".spec.replicas" {
		t.Errorf("conflicts = %v, want one on .spec.replicas", conflicts)
	}
	cfg := widget(1)
	cfg.Set("spec.owner", "ops")
	u := apply(cfg)
	if r, _ := u.Get("spec.owner"); r != "ops" {
		t.Errorf("owner = %v, want ops", r)
	}
	if sz, _ := u.Get("spec.size"); sz != "small" {
		t.Errorf("size = %v, want small (another manager's)", sz)
	}
	var applied string
	for _, mf := range u.ManagedFields {
		if mf.Manager == "applier" {
			applied = mf.FieldsV1.String()
		}
	}
	if !strings.Contains(applied, `"f:owner"`) || !strings.Contains(applied, `"f:replicas"`) {
		t.Errorf("applier's fields = %s", applied)
	}
	// The applier stops applying owner: it goes.
	u = apply(widget(1))
	if _, ok := u.Get("spec.owner"); ok {
		t.Errorf("owner kept after the applier dropped it: %v", u.Fields)
	}
}

// TestTablesByKindNotName: a custom kind named as a built-in one, its
// name the very string of the built-in's (the table memo's key), has a
// table of its own; each kind's objects stay in its table whichever
// kind was looked up last.
func TestTablesByKindNotName(t *testing.T) {
	s := New(kernel.New(1))
	pods := api.Kind{Group: "example.com", Name: api.KindPod.Name}
	info := api.ResourceInfo{Kind: pods, Version: "v1", Resource: "pods", Singular: "pod", Namespaced: true}
	if err := s.Kinds().Register(info, "example.com/v1"); err != nil {
		t.Fatal(err)
	}
	op := Op{Actor: "test"}
	custom := &api.Unstructured{TypeMeta: api.TypeMeta{APIVersion: "example.com/v1", Kind: api.KindPod.Name}, ObjectMeta: api.ObjectMeta{Name: "c", Namespace: "default"}}
	for i := range 3 { // each kind looked up after the other, more than once
		if i == 0 {
			if _, err := s.Create(op, custom); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Create(op, &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"}}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.Get(pods, api.Key{Namespace: "default", Name: "c"}); err != nil {
			t.Errorf("round %d: the custom kind's object: %v", i, err)
		}
		if _, err := s.Get(pods, api.Key{Namespace: "default", Name: "p"}); err == nil {
			t.Errorf("round %d: the built-in pod found as the custom kind's", i)
		}
		if _, err := s.Get(api.KindPod, api.Key{Namespace: "default", Name: "p"}); err != nil {
			t.Errorf("round %d: the built-in pod: %v", i, err)
		}
		if _, err := s.Get(api.KindPod, api.Key{Namespace: "default", Name: "c"}); err == nil {
			t.Errorf("round %d: the custom object found as a built-in pod", i)
		}
	}
}
