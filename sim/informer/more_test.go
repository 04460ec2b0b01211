package informer_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/informer"
	"github.com/clustersim/clustersim/sim/kernel"
)

func TestResyncReplaysCache(t *testing.T) {
	h := newHarness(t, 0)
	h.create(configMap("other", "b", nil))
	h.create(configMap("default", "a", nil))
	inf, l := newInformer(t, h, api.KindConfigMap, informer.Options{}, 30*time.Second)
	inf.Start()
	h.runUntil(time.Second)
	l.take()
	sent := len(h.tr.sent)
	h.runUntil(65 * time.Second)
	same(t, "two resyncs", l.take(), []string{"same default/a", "same other/b", "same default/a", "same other/b"})
	if len(h.tr.sent) != sent {
		t.Errorf("resync contacted the server: %v", h.tr.sent[sent:])
	}
	if s := inf.Stats(); s.Resyncs != 2 {
		t.Errorf("Resyncs = %d, want 2", s.Resyncs)
	}
}

func TestSelectiveInformers(t *testing.T) {
	web := map[string]string{"app": "web"}
	tests := []struct {
		name  string
		kind  api.Kind
		opts  informer.Options
		steps func(h *harness)
		want  []string
	}{
		{
			name: "label selector",
			kind: api.KindConfigMap,
			opts: informer.Options{LabelSelector: "app=web"},
			steps: func(h *harness) {
				h.create(configMap("default", "plain", nil))
				h.create(configMap("default", "web", web))
				key := api.Key{Namespace: "default", Name: "plain"}
				h.update(api.KindConfigMap, key, func(o api.Object) { o.GetObjectMeta().Labels = web })      // enters
				h.update(api.KindConfigMap, key, func(o api.Object) { o.GetObjectMeta().Labels = nil })      // leaves
				h.update(api.KindConfigMap, key, func(o api.Object) { o.GetObjectMeta().Annotations = web }) // unseen
				h.del(api.KindConfigMap, key)                                                                // unseen
				h.del(api.KindConfigMap, api.Key{Namespace: "default", Name: "web"})
			},
			want: []string{"add default/web", "add default/plain", "delete default/plain", "delete default/web"},
		},
		{
			name: "namespace",
			kind: api.KindConfigMap,
			opts: informer.Options{Namespace: "other"},
			steps: func(h *harness) {
				h.create(configMap("default", "x", nil))
				h.create(configMap("other", "y", nil))
			},
			want: []string{"add other/y"},
		},
		{
			name: "node name",
			kind: api.KindPod,
			opts: informer.Options{NodeName: "node-1"},
			steps: func(h *harness) {
				h.create(pod("default", "unbound", ""))
				h.create(pod("default", "elsewhere", "node-2"))
				h.create(pod("default", "here", "node-1"))
				h.update(api.KindPod, api.Key{Namespace: "default", Name: "unbound"}, func(o api.Object) {
					o.(*api.Pod).Spec.NodeName = "node-1" // bound: enters
				})
				h.del(api.KindPod, api.Key{Namespace: "default", Name: "elsewhere"})
				h.del(api.KindPod, api.Key{Namespace: "default", Name: "here"})
			},
			want: []string{"add default/here", "add default/unbound", "delete default/here"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, 0)
			inf, l := newInformer(t, h, tc.kind, tc.opts, 0)
			inf.Start()
			h.runUntil(time.Second)
			tc.steps(h)
			same(t, "handler calls", l.take(), tc.want)
			// A fresh informer lists what the watch ended with.
			fresh, _ := newInformer(t, h, tc.kind, tc.opts, 0)
			fresh.Start()
			h.runUntil(2 * time.Second)
			same(t, "cache vs fresh list", keys(inf.Lister().List(api.Everything(), "")), keys(fresh.Lister().List(api.Everything(), "")))
		})
	}
}

func TestWatchTimeoutReopensWithoutRelist(t *testing.T) {
	h := newHarness(t, 0)
	inf, l := newInformer(t, h, api.KindConfigMap, informer.Options{}, 0)
	inf.Start()
	for i := range 60 {
		d := time.Duration(i+1) * 30 * time.Second
		h.at(d, func() { h.create(configMap("default", fmt.Sprintf("cm-%02d", i), nil)) })
	}
	h.runUntil(31 * time.Minute)
	s := inf.Stats()
	// Each watch lasts 5–10 minutes: over 31 minutes, 3 to 6 timeouts.
	if s.Timeouts < 3 || s.Timeouts > 6 || s.Watches != s.Timeouts+1 || s.Lists != 1 {
		t.Errorf("stats %+v, want 3–6 timeouts, one more watch than timeouts, a single list", s)
	}
	if got := len(l.take()); got != 60 {
		t.Errorf("%d handler calls, want 60 adds with no gap or repeat across reopened watches", got)
	}
}

// parseSent returns the virtual times (as durations) of the requests with
// the given verb.
func parseSent(t *testing.T, sent []string, verb apiserver.Verb) []time.Duration {
	t.Helper()
	var out []time.Duration
	for _, s := range sent {
		at, v, _ := strings.Cut(s, " ")
		if v != verb.String() {
			continue
		}
		d, err := time.ParseDuration(strings.TrimPrefix(at, "t="))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, d)
	}
	return out
}

func TestBackoff(t *testing.T) {
	tests := []struct {
		name string
		verb apiserver.Verb
		// the n-th pause (from 0) lies in [lo, 2·lo]
		pauses []time.Duration
	}{
		{"failing lists", apiserver.List, []time.Duration{800 * time.Millisecond, 1600 * time.Millisecond, 3200 * time.Millisecond,
			6400 * time.Millisecond, 12800 * time.Millisecond, 25600 * time.Millisecond, 30 * time.Second, 30 * time.Second}},
		{"refused watches", apiserver.Watch, []time.Duration{800 * time.Millisecond, 1600 * time.Millisecond, 3200 * time.Millisecond}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, 0)
			h.tr.failVerbs = map[apiserver.Verb]bool{tc.verb: true}
			inf, _ := newInformer(t, h, api.KindConfigMap, informer.Options{}, 0)
			inf.Start()
			h.runUntil(10 * time.Minute)
			times := parseSent(t, h.tr.sent, tc.verb)
			if len(times) < len(tc.pauses)+1 {
				t.Fatalf("%d attempts: %v", len(times), times)
			}
			for i, lo := range tc.pauses {
				// Times print with millisecond precision.
				gap := times[i+1] - times[i]
				if gap < lo-time.Millisecond || gap > 2*lo+time.Millisecond {
					t.Errorf("pause %d = %v, want in [%v, %v]", i, gap, lo, 2*lo)
				}
			}
			h.tr.failVerbs = nil
			h.runUntil(12 * time.Minute)
			if !inf.HasSynced() || inf.Stats().Watches == 0 {
				t.Errorf("informer did not recover: %+v", inf.Stats())
			}
		})
	}
}

func TestDuplicateEventsAreDropped(t *testing.T) {
	h := newHarness(t, 0)
	h.tr.dup = true
	inf, l := newInformer(t, h, api.KindConfigMap, informer.Options{}, 0)
	inf.Start()
	h.runUntil(time.Second)
	h.create(configMap("default", "a", nil))
	h.update(api.KindConfigMap, api.Key{Namespace: "default", Name: "a"}, func(o api.Object) {
		o.(*api.ConfigMap).Data = map[string]string{"k": "v"}
	})
	h.del(api.KindConfigMap, api.Key{Namespace: "default", Name: "a"})
	same(t, "handler calls", l.take(), []string{"add default/a", "update default/a", "delete default/a"})
	if s := inf.Stats(); s.Stale != 3 {
		t.Errorf("Stale = %d, want 3", s.Stale)
	}
}

func TestShortWatchesBackOff(t *testing.T) {
	h := newHarness(t, 0)
	inf, _ := newInformer(t, h, api.KindConfigMap, informer.Options{}, 0)
	inf.Start()
	// A server that closes every watch at once, cleanly.
	var closer func()
	closer = func() {
		h.tr.cut(nil)
		if h.k.Now() < kernel.Time(time.Minute) {
			h.k.At(h.k.Now().Add(100*time.Millisecond), closer)
		}
	}
	h.at(time.Second, closer)
	h.runUntil(time.Minute)
	if w := inf.Stats().Watches; w > 20 {
		t.Errorf("%d watches in a minute against a server closing them at once, want back-off", w)
	}
}

func TestFactory(t *testing.T) {
	h := newHarness(t, 0)
	f := informer.NewFactory(h.k, h.tr, informer.Config{Name: "mgr", Actor: system})
	a, err := f.Informer(api.KindPod, informer.Options{LabelSelector: "b=2,a=1"})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := f.Informer(api.KindPod, informer.Options{LabelSelector: "a=1,b=2"})
	c, _ := f.Informer(api.KindPod, informer.Options{})
	if a != b || a == c {
		t.Errorf("sharing: same selection shared %v, different selection shared %v", a == b, a == c)
	}
	if got, want := a.Name(), "mgr/informer/Pod{labels=a=1,b=2}"; got != want {
		t.Errorf("Name = %q, want %q", got, want)
	}
	bad := []struct {
		name string
		kind api.Kind
		opts informer.Options
		want error
	}{
		{"unknown kind", api.Kind{Group: "example.com", Name: "Widget"}, informer.Options{}, informer.ErrUnknownKind},
		{"bad selector", api.KindPod, informer.Options{LabelSelector: "a in (("}, informer.ErrInvalidOptions},
		{"node name on a config map", api.KindConfigMap, informer.Options{NodeName: "n"}, informer.ErrInvalidOptions},
	}
	for _, tc := range bad {
		if _, err := f.Informer(tc.kind, tc.opts); !errors.Is(err, tc.want) {
			t.Errorf("%s: err = %v, want %v", tc.name, err, tc.want)
		}
	}
	h.create(pod("default", "p", ""))
	f.Start()
	synced := false
	h.k.Spawn("waiter", func(p *kernel.Process) { synced = f.WaitForSync(p) })
	h.runUntil(time.Second)
	if !synced || !f.HasSynced() || c.Lister().Len() != 1 {
		t.Fatalf("factory not synced: %v %v %d", synced, f.HasSynced(), c.Lister().Len())
	}
	late, _ := f.Informer(api.KindConfigMap, informer.Options{})
	h.runUntil(2 * time.Second)
	if !late.HasSynced() {
		t.Error("an informer made after Start was not started")
	}
	f.Stop()
	if c.Lister().Len() != 0 || h.k.Live() != 0 {
		t.Errorf("after Stop: %d cached, %d live processes; want 0, 0", c.Lister().Len(), h.k.Live())
	}
	released := true
	h.k.Spawn("late waiter", func(p *kernel.Process) { released = c.WaitForSync(p) })
	h.runUntil(3 * time.Second)
	if released {
		t.Error("WaitForSync on a stopped informer reported true")
	}
	// A stopped informer's watch is gone: writes reach nobody.
	h.create(pod("default", "q", ""))
	if c.Lister().Len() != 0 {
		t.Error("a stopped informer still receives events")
	}
}

// TestCacheOrderUnderChurn checks the cache's sorted indexes against a
// model: random puts and deletes across namespaces, lists in between.
func TestCacheOrderUnderChurn(t *testing.T) {
	h := newHarness(t, 0)
	inf, _ := newInformer(t, h, api.KindConfigMap, informer.Options{}, 0)
	inf.Start()
	h.runUntil(time.Second)
	rng := rand.New(rand.NewPCG(1, 2))
	model := map[api.Key]bool{}
	nss := []string{"default", "other"}
	for i := range 1200 {
		key := api.Key{Namespace: nss[rng.IntN(2)], Name: fmt.Sprintf("cm-%03d", rng.IntN(40))}
		if model[key] {
			h.del(api.KindConfigMap, key)
			delete(model, key)
		} else {
			h.create(configMap(key.Namespace, key.Name, nil))
			model[key] = true
		}
		if i%5 == 0 {
			var want []string
			for k := range model {
				want = append(want, k.String())
			}
			slices.Sort(want)
			if got := keys(inf.Lister().List(api.Everything(), "")); !slices.Equal(got, want) {
				t.Fatalf("step %d: cache lists %v, want %v", i, got, want)
			}
		}
	}
}

// TestRefusedWatch: as client-go's Reflector.watch, 429 Too Many
// Requests (isWatchErrorRetriable) makes the informer watch again after
// the back-off, and so does a lost watch request (a timeout: a real
// connection would have retransmitted it); any other refusal (503,
// forbidden) ends ListAndWatch and the informer lists again after the
// back-off. Planted: the old rule (503 watched again) failed the
// unavailable row.
func TestRefusedWatch(t *testing.T) {
	tests := []struct {
		name      string
		err       error
		wantLists uint64
	}{
		{"too many requests: watch again", apierr.ErrTooManyRequests, 1},
		{"unavailable: start over with a list", apierr.NewServiceUnavailable("down"), 2},
		{"timeout (a lost request): watch again", apierr.NewTimeout("watch", "configmaps", "", time.Second), 1},
		{"forbidden: start over with a list", apierr.NewForbidden("configmaps", "", "no"), 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, 0)
			h.tr.refuse = tc.err
			inf, _ := newInformer(t, h, api.KindConfigMap, informer.Options{}, 0)
			inf.Start()
			h.runUntil(5 * time.Second)
			s := inf.Stats()
			if s.WatchErrors != 1 || s.Watches != 1 || s.Lists != tc.wantLists {
				t.Errorf("stats %+v, want 1 refused watch, 1 accepted, %d lists", s, tc.wantLists)
			}
			times := parseSent(t, h.tr.sent, apiserver.Watch)
			if len(times) != 2 || times[1]-times[0] < informer.InitialBackoff {
				t.Errorf("watch attempts at %v, want a second one after a back-off", times)
			}
		})
	}
}

// TestActivity: the informer tells its OnActivity hook of every relist,
// reopened watch and resync, with why the last watch ended, and of
// nothing else (not the first list, not a watch event). Planted: telling
// the first list as a relist failed every row.
func TestActivity(t *testing.T) {
	tests := []struct {
		name   string
		resync time.Duration
		act    func(h *harness)
		until  time.Duration
		want   []string
	}{
		{"nothing happens", 0, func(*harness) {}, time.Minute, nil},
		{"stream broken: watch reopened at once", 0, func(h *harness) { h.tr.cut(errors.New("connection reset")) }, time.Minute,
			[]string{"rewatch stream broken failed=0 objects=0"}},
		{"410 Expired: relist after the back-off", 0, func(h *harness) { h.tr.cut(apierr.NewTooOldResourceVersion(5, 9)) }, time.Minute,
			[]string{"relist 410 Expired failed=0 objects=1"}},
		{"watch timeout: watch reopened", 0, func(*harness) {}, 11 * time.Minute,
			[]string{"rewatch watch timeout failed=0 objects=0"}},
		{"resync replays the cache", 25 * time.Second, func(*harness) {}, time.Minute,
			[]string{"resync  failed=0 objects=1", "resync  failed=0 objects=1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, 0)
			h.create(configMap("default", "a", nil))
			var got []string
			inf, err := informer.New(h.k, h.tr, informer.Config{Name: "test", Actor: system, Resync: tc.resync, OnActivity: func(a informer.Activity) {
				got = append(got, fmt.Sprintf("%s %s failed=%d objects=%d", a.Op, a.Reason, a.Failed, a.Objects))
			}}, api.KindConfigMap, informer.Options{})
			if err != nil {
				t.Fatal(err)
			}
			inf.Start()
			h.at(5*time.Second, func() { tc.act(h) })
			h.runUntil(tc.until)
			same(t, "activity", got, tc.want)
		})
	}
}
