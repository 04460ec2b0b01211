package informer_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/informer"
)

func newInformer(t *testing.T, h *harness, kind api.Kind, opts informer.Options, resync time.Duration) (*informer.Informer, *log) {
	t.Helper()
	inf, err := informer.New(h.k, h.tr, informer.Config{Name: "test", Actor: system, Resync: resync}, kind, opts)
	if err != nil {
		t.Fatal(err)
	}
	l := &log{}
	inf.AddEventHandler(l)
	return inf, l
}

func keys(objs []api.Object) []string {
	var out []string
	for _, o := range objs {
		out = append(out, o.GetObjectMeta().Key().String())
	}
	return out
}

func same(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n got %q\nwant %q", what, got, want)
	}
}

func TestListThenWatch(t *testing.T) {
	h := newHarness(t, 0)
	h.create(configMap("other", "b", nil))
	h.create(configMap("default", "z", nil))
	h.create(configMap("default", "a", nil))
	inf, l := newInformer(t, h, api.KindConfigMap, informer.Options{}, 0)
	if inf.HasSynced() {
		t.Fatal("synced before start")
	}
	inf.Start()
	h.runUntil(time.Second)
	if !inf.HasSynced() {
		t.Fatal("not synced after the first list")
	}
	same(t, "initial list", l.take(), []string{"add default/a", "add default/z", "add other/b"})

	steps := []struct {
		name string
		do   func()
		want []string
	}{
		{"create", func() { h.create(configMap("default", "m", nil)) }, []string{"add default/m"}},
		{"update", func() {
			h.update(api.KindConfigMap, api.Key{Namespace: "default", Name: "a"}, func(o api.Object) {
				o.(*api.ConfigMap).Data = map[string]string{"k": "v"}
			})
		}, []string{"update default/a"}},
		{"delete", func() { h.del(api.KindConfigMap, api.Key{Namespace: "other", Name: "b"}) }, []string{"delete other/b"}},
		{"no-op update is no event", func() {
			h.update(api.KindConfigMap, api.Key{Namespace: "default", Name: "a"}, func(api.Object) {})
		}, nil},
	}
	for _, s := range steps {
		s.do()
		same(t, s.name, l.take(), s.want)
	}
	lister := inf.Lister()
	same(t, "lister", keys(lister.List(api.Everything(), "")), []string{"default/a", "default/m", "default/z"})
	same(t, "lister in namespace", keys(lister.List(api.Everything(), "other")), nil)
	if o, ok := lister.Get(api.Key{Namespace: "default", Name: "a"}); !ok || o.(*api.ConfigMap).Data["k"] != "v" {
		t.Errorf("Get default/a = %v, %v; want the updated object", o, ok)
	}
	if cm, ok := informer.GetAs[*api.ConfigMap](lister, api.Key{Namespace: "default", Name: "m"}); !ok || cm.Name != "m" {
		t.Errorf("GetAs default/m = %v, %v", cm, ok)
	}
	if _, ok := informer.GetAs[*api.Pod](lister, api.Key{Namespace: "default", Name: "m"}); ok {
		t.Error("GetAs with the wrong type succeeded")
	}
	if got := len(informer.ListAs[*api.ConfigMap](lister, api.Everything(), "default")); got != 3 {
		t.Errorf("ListAs = %d objects, want 3", got)
	}
	// The cache shares the store's objects: no copy per informer.
	stored, _ := h.st.Get(api.KindConfigMap, api.Key{Namespace: "default", Name: "m"})
	if cached, _ := lister.Get(api.Key{Namespace: "default", Name: "m"}); cached != stored {
		t.Error("cached object is a copy, want the store's shared object")
	}
	if s := inf.Stats(); s.Lists != 1 || s.Watches != 1 || s.Events != 3 {
		t.Errorf("stats %+v, want 1 list, 1 watch, 3 events", s)
	}
}

func TestAddEventHandlerAfterSyncReplaysAdds(t *testing.T) {
	h := newHarness(t, 0)
	h.create(configMap("default", "b", nil))
	h.create(configMap("default", "a", nil))
	inf, _ := newInformer(t, h, api.KindConfigMap, informer.Options{}, 0)
	inf.Start()
	h.runUntil(time.Second)
	late := &log{}
	inf.AddEventHandler(late)
	same(t, "late handler", late.take(), []string{"add default/a", "add default/b"})
}

func TestRelistAfterExpired(t *testing.T) {
	tests := []struct {
		name string
		// breakWatch ends the informer's watch at t=1s.
		breakWatch func(h *harness)
		want       informer.Stats
	}{
		{
			// The stream breaks; during the back-off more writes than the
			// history holds go by, so the re-watch from the old
			// resourceVersion is refused with 410 and the informer relists.
			name:       "re-watch falls behind the history",
			breakWatch: func(h *harness) { h.tr.cut(errors.New("connection reset")) },
			want:       informer.Stats{Lists: 2, Watches: 2, Relists: 1, Breaks: 1},
		},
		{
			name:       "watch closed with Expired",
			breakWatch: func(h *harness) { h.tr.cut(apierr.NewTooOldResourceVersion(5, 9)) },
			want:       informer.Stats{Lists: 2, Watches: 2, Relists: 1},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, 4)
			h.create(configMap("default", "keep", nil))
			h.create(configMap("default", "gone", nil))
			h.create(configMap("default", "changed", nil))
			inf, l := newInformer(t, h, api.KindConfigMap, informer.Options{}, 0)
			inf.Start()
			h.at(time.Second, func() {
				l.take()
				tc.breakWatch(h)
				// Writes the informer does not see as events.
				h.del(api.KindConfigMap, api.Key{Namespace: "default", Name: "gone"})
				h.update(api.KindConfigMap, api.Key{Namespace: "default", Name: "changed"}, func(o api.Object) {
					o.(*api.ConfigMap).Data = map[string]string{"v": "2"}
				})
				for _, n := range []string{"n1", "n2", "n3", "n4", "n5"} {
					h.create(configMap("default", n, nil))
				}
			})
			h.runUntil(time.Minute)
			// The relist brings the cache up to date, told in key order.
			same(t, "after relist", l.take(), []string{
				"update default/changed", "delete default/gone", "same default/keep",
				"add default/n1", "add default/n2", "add default/n3", "add default/n4", "add default/n5",
			})
			got := inf.Stats()
			got.Events, got.Timeouts, got.Stale = 0, 0, 0
			if got != tc.want {
				t.Errorf("stats %+v, want %+v", got, tc.want)
			}
			same(t, "cache", keys(inf.Lister().List(api.Everything(), "")), []string{
				"default/changed", "default/keep", "default/n1", "default/n2", "default/n3", "default/n4", "default/n5",
			})
		})
	}
}

// TestListAsMatchesList: List and ListAs (which share one walk of the
// cache) return the objects each selector and namespace select, in
// namespace/name order, never nil.
func TestListAsMatchesList(t *testing.T) {
	h := newHarness(t, 0)
	for i, ns := range []string{"default", "other", "default", "default", "other"} {
		labels := map[string]string{"app": "web"}
		if i%2 == 1 {
			labels = map[string]string{"app": "db"}
		}
		h.create(configMap(ns, fmt.Sprintf("cm-%d", i), labels))
	}
	inf, _ := newInformer(t, h, api.KindConfigMap, informer.Options{}, 0)
	inf.Start()
	h.runUntil(time.Second)
	lister := inf.Lister()
	tests := []struct {
		name, ns string
		sel      api.Selector
		want     []string
	}{
		{"everything", "", api.Everything(), []string{"default/cm-0", "default/cm-2", "default/cm-3", "other/cm-1", "other/cm-4"}},
		{"everything in default", "default", api.Everything(), []string{"default/cm-0", "default/cm-2", "default/cm-3"}},
		{"everything in missing", "missing", api.Everything(), nil},
		{"app=web", "", api.SelectorFromSet(map[string]string{"app": "web"}), []string{"default/cm-0", "default/cm-2", "other/cm-4"}},
		{"app=db in other", "other", api.SelectorFromSet(map[string]string{"app": "db"}), []string{"other/cm-1"}},
		{"app=none", "", api.SelectorFromSet(map[string]string{"app": "none"}), nil},
		{"zero selector", "", api.Selector{}, nil},
	}
	for _, tt := range tests {
		untyped := lister.List(tt.sel, tt.ns)
		typed := informer.ListAs[*api.ConfigMap](lister, tt.sel, tt.ns)
		if untyped == nil || typed == nil {
			t.Errorf("%s: List or ListAs returned nil, want an empty slice", tt.name)
		}
		var got []string
		for _, cm := range typed {
			got = append(got, cm.Namespace+"/"+cm.Name)
		}
		same(t, tt.name+": List", keys(untyped), tt.want)
		same(t, tt.name+": ListAs", got, tt.want)
	}
	if n := len(informer.ListAs[*api.Pod](lister, api.Everything(), "")); n != 0 {
		t.Errorf("ListAs of another type = %d objects, want 0", n)
	}
}

// TestListByLabelIndex: a List whose selector requires a label a single
// value reads the index of that label (made by the first such list); it
// returns what a walk of every object gives, in the same order, as
// objects are created, relabelled and deleted in two namespaces, and
// after a relist rebuilds the cache.
func TestListByLabelIndex(t *testing.T) {
	h := newHarness(t, 0)
	inf, _ := newInformer(t, h, api.KindConfigMap, informer.Options{}, 0)
	inf.Start()
	lister := inf.Lister()
	r := rand.New(rand.NewPCG(3, 4))
	apps := []string{"web", "db", "cache"}
	namespaces := []string{"default", "other"}
	live := map[api.Key]bool{}
	for step := range 300 {
		key := api.Key{Namespace: namespaces[r.IntN(2)], Name: fmt.Sprintf("cm-%d", r.IntN(15))}
		labels := map[string]string{"app": apps[r.IntN(len(apps))]}
		if r.IntN(3) == 0 {
			labels["tier"] = "front"
		}
		if r.IntN(5) == 0 {
			delete(labels, "app")
		}
		switch {
		case !live[key]:
			h.create(configMap(key.Namespace, key.Name, labels))
			live[key] = true
		case r.IntN(4) == 0:
			h.del(api.KindConfigMap, key)
			delete(live, key)
		default:
			h.update(api.KindConfigMap, key, func(o api.Object) { o.GetObjectMeta().Labels = labels })
		}
		h.runUntil(time.Duration(step+1) * time.Second)
		for _, app := range apps {
			for _, ns := range []string{"", "default", "other", "aaa", "kube-system", "zzz"} { // the last three hold nothing
				indexed := api.SelectorFromSet(map[string]string{"app": app})
				withTier := api.SelectorFromSet(map[string]string{"app": app, "tier": "front"})
				// The same selections, written so that no label has a
				// single required value: a walk of every object.
				walk := mustParse(t, "app in ("+app+",none-such)")
				walkTier := mustParse(t, "app in ("+app+",none-such),tier in (front,none-such)")
				same(t, fmt.Sprintf("step %d app=%s in %q", step, app, ns), keys(lister.List(indexed, ns)), keys(lister.List(walk, ns)))
				same(t, fmt.Sprintf("step %d app=%s,tier=front in %q", step, app, ns), keys(lister.List(withTier, ns)), keys(lister.List(walkTier, ns)))
			}
		}
		if step == 150 {
			// The watch closes with Expired: the informer lists again
			// into a new cache, which must index the label too.
			h.tr.cut(apierr.NewTooOldResourceVersion(5, 9))
		}
	}
	if st := inf.Stats(); st.Relists != 1 {
		t.Errorf("%d relists, want 1", st.Relists)
	}
}

func mustParse(t *testing.T, s string) api.Selector {
	t.Helper()
	sel, err := api.ParseSelector(s)
	if err != nil {
		t.Fatal(err)
	}
	return sel
}
