package informer_test

import (
	"slices"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/informer"
)

func owned(p *api.Pod, uid api.UID) *api.Pod {
	yes := true
	p.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs-" + string(uid), UID: uid, Controller: &yes}}
	return p
}

// TestIndexes drives an informer through creates, binds, adoptions,
// releases and deletes, and checks after each step that the controller
// and node indexes list exactly what filtering the whole cache finds, in
// the same order; one index is added before the start and one after the
// first list (it must file what is already cached).
func TestIndexes(t *testing.T) {
	h := newHarness(t, 0)
	h.create(owned(pod("default", "b", ""), "u1"))
	h.create(pod("default", "orphan", "n1"))
	inf, _ := newInformer(t, h, api.KindPod, informer.Options{}, 0)
	inf.AddIndex(informer.IndexController, informer.ByController)
	inf.Start()
	h.runUntil(time.Second)
	inf.AddIndex(informer.IndexNodeName, informer.ByNodeName)
	inf.AddIndex(informer.IndexNodeName, func(api.Object, []string) []string { return nil }) // ignored: same name
	lister := inf.Lister()

	podKey := func(name string) api.Key { return api.Key{Namespace: "default", Name: name} }
	bind := func(name, node string) func() {
		return func() { h.update(api.KindPod, podKey(name), func(o api.Object) { o.(*api.Pod).Spec.NodeName = node }) }
	}
	steps := []struct {
		name string
		do   func()
	}{
		{"start", func() {}},
		{"create owned", func() { h.create(owned(pod("default", "a", ""), "u1")) }},
		{"create in other namespace", func() { h.create(owned(pod("other", "a", "n1"), "u1")) }},
		{"create orphan elsewhere", func() { h.create(pod("other", "o", "n2")) }},
		{"bind", bind("a", "n2")},
		{"adopt", func() {
			h.update(api.KindPod, podKey("orphan"), func(o api.Object) { owned(o.(*api.Pod), "u2") })
		}},
		{"release", func() {
			h.update(api.KindPod, podKey("b"), func(o api.Object) { o.(*api.Pod).OwnerReferences = nil })
		}},
		{"status only", func() {
			h.update(api.KindPod, podKey("a"), func(o api.Object) { o.(*api.Pod).Labels = map[string]string{"x": "y"} })
		}},
		{"delete", func() { h.del(api.KindPod, podKey("a")) }},
	}
	at := time.Second
	for _, st := range steps {
		at += time.Second
		h.at(at, st.do)
		h.runUntil(at + 500*time.Millisecond)
		all := lister.List(api.Everything(), "")
		values := map[string]map[string]bool{}
		for _, o := range all {
			for name, fn := range map[string]informer.IndexFunc{informer.IndexController: informer.ByController, informer.IndexNodeName: informer.ByNodeName} {
				for _, v := range fn(o, nil) {
					if values[name] == nil {
						values[name] = map[string]bool{}
					}
					values[name][v] = true
				}
			}
		}
		for _, name := range []string{informer.IndexController, informer.IndexNodeName} {
			probe := []string{"u1", "u2", informer.OrphanIndexValue("default"), informer.OrphanIndexValue("other"), "n1", "n2", ""}
			for _, v := range probe {
				var want []api.Object
				for _, o := range all {
					fn := informer.ByController
					if name == informer.IndexNodeName {
						fn = informer.ByNodeName
					}
					if slices.Contains(fn(o, nil), v) {
						want = append(want, o)
					}
				}
				got := lister.ByIndex(name, v)
				if !slices.Equal(got, want) {
					t.Errorf("%s: ByIndex(%s, %q) = %v, want %v", st.name, name, v, keys(got), keys(want))
				}
			}
		}
	}
	if got := keys(lister.ByIndex(informer.IndexController, "u2")); !slices.Equal(got, []string{"default/orphan"}) {
		t.Errorf("adopted pod: %v", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("ByIndex of an index never added did not panic")
		}
	}()
	lister.ByIndex("nope", "x")
}
