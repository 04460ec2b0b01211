package apiserver

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// admitFunc is an Admitter from a function.
type admitFunc func(a *Attributes) error

func (admitFunc) Name() string                { return "test" }
func (f admitFunc) Admit(a *Attributes) error { return f(a) }

// TestAdmissionAttributes: every write's plugins see that write's
// attributes (create, update, delete, apply), the server keeps no
// reference to a write's objects once it is admitted, and a write a
// plugin makes through the server while admitting another (nested
// admission) gets attributes of its own, leaving the outer write's as
// they were.
func TestAdmissionAttributes(t *testing.T) {
	f := newFixture(t)
	type seen struct {
		verb Verb
		kind api.Kind
		name string
	}
	var got []seen
	nested := false
	f.srv.AddValidating(admitFunc(func(a *Attributes) error {
		o := a.Object
		if o == nil {
			o = a.Old
		}
		got = append(got, seen{a.Verb, a.Kind, o.GetObjectMeta().Name})
		if a.Kind == api.KindConfigMap && a.Verb == Create && o.GetObjectMeta().Name == "outer" && !nested {
			nested = true
			before := *a
			inner := f.do(&Request{Verb: Create, Kind: api.KindConfigMap, Namespace: "default", Actor: user,
				Object: &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "inner"}}})
			if inner.Err != nil {
				t.Errorf("nested create: %v", inner.Err)
			}
			if *a != before {
				t.Errorf("the outer write's attributes changed under a nested write: %+v, were %+v", *a, before)
			}
		}
		return nil
	}))
	f.must(t, &Request{Verb: Create, Kind: api.KindConfigMap, Namespace: "default", Actor: user,
		Object: &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "outer"}}})
	cm := f.must(t, &Request{Verb: Get, Kind: api.KindConfigMap, Namespace: "default", Name: "outer", Actor: user}).(*api.ConfigMap).DeepCopy()
	cm.Data = map[string]string{"k": "v"}
	f.must(t, &Request{Verb: Update, Kind: api.KindConfigMap, Namespace: "default", Name: "outer", Actor: user, Object: cm})
	f.must(t, &Request{Verb: Delete, Kind: api.KindConfigMap, Namespace: "default", Name: "inner", Actor: user})
	want := []seen{
		{Create, api.KindConfigMap, "outer"},
		{Create, api.KindConfigMap, "inner"},
		{Update, api.KindConfigMap, "outer"},
		{Delete, api.KindConfigMap, "inner"},
	}
	if len(got) != len(want) {
		t.Fatalf("plugins saw %+v; want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("write %d: plugins saw %+v; want %+v", i, got[i], want[i])
		}
	}
	if f.srv.attrs != (Attributes{}) || f.srv.admitting {
		t.Errorf("after the writes the server holds %+v (admitting %v); want nothing", f.srv.attrs, f.srv.admitting)
	}
}

// TestAdmissionAllocatesNoAttributes: admitting a write allocates no
// Attributes (the server's own are reused).
func TestAdmissionAllocatesNoAttributes(t *testing.T) {
	f := newFixture(t)
	obj := &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "c", Namespace: "default"}}
	if allocs := testing.AllocsPerRun(100, func() {
		if err := f.srv.admission(Attributes{Verb: Create, Kind: api.KindConfigMap, Actor: user, Object: obj, Store: f.srv.store}, false); err != nil {
			t.Fatal(err)
		}
	}); allocs != 0 {
		t.Errorf("admission allocates %v times a write; want 0", allocs)
	}
}
