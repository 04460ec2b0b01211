package measure

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/store"
)

const (
	hpaActor = "system:serviceaccount:kube-system:horizontal-pod-autoscaler"
	argo     = "system:serviceaccount:argocd:argocd-application-controller"
	user     = "alice"
)

var web = api.Key{Namespace: "default", Name: "web"}

// rec builds an audit record at second s changing one path.
func rec(s int, actor string, kind api.Kind, path, old, new string) store.AuditRecord {
	return store.AuditRecord{Time: kernel.Time(time.Duration(s) * time.Second), Actor: actor, Verb: "update", Kind: kind, Key: web}.
		WithChanges(store.Change{Path: path, Old: old, New: new, OldSet: old != "", NewSet: new != ""})
}

func replicas(vals ...string) []store.AuditRecord {
	var out []store.AuditRecord
	for i := 1; i < len(vals); i++ {
		actor := hpaActor
		if i%2 == 0 {
			actor = argo
		}
		out = append(out, rec(i*10, actor, api.KindDeployment, "spec.replicas", vals[i-1], vals[i]))
	}
	return out
}

func TestFlaps(t *testing.T) {
	tests := []struct {
		name      string
		audit     []store.AuditRecord
		opts      Options
		reversals int // 0: no flap
		values    string
	}{
		{"none", replicas("1", "2", "3", "4"), Options{}, 0, ""},
		{"one reversal", replicas("3", "7", "3"), Options{}, 1, "3→7→3"},
		{"three reversals", replicas("3", "7", "3", "7", "3"), Options{}, 3, "3→7→3→7→3"},
		{"outside window", replicas("3", "7", "3"), Options{FlapWindow: 5 * time.Second}, 0, ""},
		{"ignored path", []store.AuditRecord{
			rec(1, "system:node:a", api.KindLease, "spec.renewTime", "a", "b"),
			rec(2, "system:node:a", api.KindLease, "spec.renewTime", "b", "a"),
			rec(3, "system:node:a", api.KindLease, "spec.renewTime", "a", "b"),
		}, Options{}, 0, ""},
		{"status counter ignored", []store.AuditRecord{
			rec(1, "x", api.KindDeployment, "status.replicas", "3", "4"),
			rec(2, "x", api.KindDeployment, "status.replicas", "4", "3"),
		}, Options{}, 0, ""},
		{"node ready kept", []store.AuditRecord{
			rec(1, "k", api.KindNode, "status.conditions[Ready].status", "True", "False"),
			rec(2, "k", api.KindNode, "status.conditions[Ready].status", "False", "True"),
		}, Options{}, 1, "True→False→True"},
		{"empty ignore list", []store.AuditRecord{
			rec(1, "x", api.KindDeployment, "status.replicas", "3", "4"),
			rec(2, "x", api.KindDeployment, "status.replicas", "4", "3"),
		}, Options{Ignore: []string{}}, 1, "3→4→3"},
		{"removal resets", append(replicas("3", "7"), store.AuditRecord{Kind: api.KindDeployment, Key: web, Removed: true, Time: kernel.Time(15 * time.Second)},
			rec(20, user, api.KindDeployment, "spec.replicas", "", "3")), Options{}, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := Analyze(&runner.Result{Audit: tt.audit}, tt.opts)
			if tt.reversals == 0 {
				if len(rep.Flaps) != 0 {
					t.Fatalf("flaps = %+v, want none", rep.Flaps)
				}
				return
			}
			if len(rep.Flaps) != 1 {
				t.Fatalf("flaps = %+v, want one", rep.Flaps)
			}
			if got := rep.Flaps[0].Reversals; got != tt.reversals {
				t.Errorf("reversals = %d, want %d", got, tt.reversals)
			}
			if got := strings.Join(rep.Flaps[0].Values, "→"); got != tt.values {
				t.Errorf("values = %s, want %s", got, tt.values)
			}
		})
	}
}

func TestFights(t *testing.T) {
	tests := []struct {
		name  string
		audit []store.AuditRecord
		alts  int // 0: no fight
	}{
		{"two writers", replicas("3", "7", "3", "7", "3"), 3},
		{"long fight", replicas("3", "7", "3", "7", "3", "7", "3"), 5},
		{"below minimum", replicas("3", "7", "3"), 0},
		{"one writer", []store.AuditRecord{
			rec(1, user, api.KindDeployment, "spec.replicas", "3", "7"),
			rec(2, user, api.KindDeployment, "spec.replicas", "7", "3"),
			rec(3, user, api.KindDeployment, "spec.replicas", "3", "7"),
			rec(4, user, api.KindDeployment, "spec.replicas", "7", "3"),
		}, 0},
		{"handoff", []store.AuditRecord{
			rec(1, user, api.KindDeployment, "spec.template.spec.containers[nginx].image", "a", "b"),
			rec(2, "bob", api.KindDeployment, "spec.template.spec.containers[nginx].image", "b", "c"),
		}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := Analyze(&runner.Result{Audit: tt.audit}, Options{})
			if tt.alts == 0 {
				if len(rep.Fights) != 0 {
					t.Fatalf("fights = %+v, want none", rep.Fights)
				}
				return
			}
			if len(rep.Fights) != 1 {
				t.Fatalf("fights = %+v, want one", rep.Fights)
			}
			f := rep.Fights[0]
			if f.Alternations != tt.alts || f.Path != "spec.replicas" || !slices.Equal(f.Actors, []string{argo, hpaActor}) {
				t.Errorf("fight = %+v", f)
			}
			if f.First != 20*time.Second {
				t.Errorf("first = %v, want 20s", f.First)
			}
			// The HPA writes 7 at the odd records, Argo 3 at the even.
			n := len(tt.audit)
			want := []Set{{Actor: argo, Values: []string{"3"}, Writes: n / 2}, {Actor: hpaActor, Values: []string{"7"}, Writes: (n + 1) / 2}}
			slices.SortFunc(want, func(a, b Set) int { return strings.Compare(a.Actor, b.Actor) })
			if !reflect.DeepEqual(f.Values, want) {
				t.Errorf("values = %+v, want %+v", f.Values, want)
			}
		})
	}
}

func TestNoOpsAndGrowth(t *testing.T) {
	gen := func(s int, actor, old, new string, spec ...string) store.AuditRecord {
		r := rec(s, actor, api.KindDeployment, "metadata.generation", old, new)
		for _, p := range spec {
			r = r.WithChanges(append(r.Changes(), store.Change{Path: p, Old: "1", New: "2", OldSet: true, NewSet: true})...)
		}
		return r
	}
	audit := []store.AuditRecord{
		gen(0, user, "", "1"),
		gen(1, user, "1", "2", "spec.replicas"),
		gen(2, hpaActor, "2", "3", "spec.replicas"),
		gen(3, hpaActor, "3", "4", "spec.replicas"),
		{Actor: "naive", Kind: api.KindConfigMap, NoOp: true},
		{Actor: "naive", Kind: api.KindConfigMap, NoOp: true},
		{Actor: "a", Kind: api.KindConfigMap, NoOp: true},
	}
	rep := Analyze(&runner.Result{Audit: audit}, Options{})
	want := []NoOps{{Actor: "a", Kind: api.KindConfigMap, Count: 1}, {Actor: "naive", Kind: api.KindConfigMap, Count: 2}}
	if !slices.Equal(rep.NoOpWrites, want) {
		t.Errorf("no-ops = %+v, want %+v", rep.NoOpWrites, want)
	}
	if len(rep.GenerationGrowth) != 1 {
		t.Fatalf("growth = %+v", rep.GenerationGrowth)
	}
	g := rep.GenerationGrowth[0]
	if g.Generations != 3 || g.SpecIntentWrites != 1 || !slices.Equal(g.Actors, []string{hpaActor}) {
		t.Errorf("growth = %+v", g)
	}
}

// distinct returns n reconciles of n different keys in one second.
func distinct(ctl string, n int) []runner.Reconcile {
	var out []runner.Reconcile
	for i := range n {
		at := time.Duration(i) * 10 * time.Millisecond
		out = append(out, runner.Reconcile{Controller: ctl, Key: api.Key{Namespace: "default", Name: strconv.Itoa(i)}, Start: at, End: at})
	}
	return out
}

// rounds returns n keys reconciled in turn, times rounds over, within
// the first 10 s.
func rounds(ctl string, n, times int) []runner.Reconcile {
	var out []runner.Reconcile
	for r := range times {
		for i := range n {
			at := time.Duration(r*n+i) * 10 * time.Millisecond
			out = append(out, runner.Reconcile{Controller: ctl, Key: api.Key{Namespace: "default", Name: strconv.Itoa(i)}, Start: at, End: at})
		}
	}
	return out
}

// statusWrites returns n pod status changes by kubelets in the first 10s.
func statusWrites(n int) []store.AuditRecord {
	var out []store.AuditRecord
	for i := range n {
		r := rec(0, "system:node:a", api.KindPod, "status.phase", "Pending", "Running")
		r.Time = kernel.Time(time.Duration(i) * 10 * time.Second / time.Duration(n))
		out = append(out, r)
	}
	return out
}

// leaseRenewals returns n lease renewals by kubelets in the first 10s.
func leaseRenewals(n int) []store.AuditRecord {
	out := statusWrites(n)
	for i := range out {
		cs := out[i].Changes()
		cs[0].Path = "spec.renewTime"
		out[i] = out[i].WithChanges(cs...)
		out[i].Kind = api.KindLease
	}
	return out
}

func TestHotLoops(t *testing.T) {
	many := func(ctl string, from, n int, every time.Duration) []runner.Reconcile {
		var out []runner.Reconcile
		for i := range n {
			at := time.Duration(from)*time.Second + time.Duration(i)*every
			out = append(out, runner.Reconcile{Controller: ctl, Key: web, Start: at, End: at, Err: "boom"})
		}
		return out
	}
	tests := []struct {
		name   string
		rec    []runner.Reconcile
		audit  []store.AuditRecord
		opts   Options
		want   int // hot loops
		recons int
	}{
		{"fast, no change", many("naive", 0, 200, 100*time.Millisecond), nil, Options{}, 1, 200},
		{"slow", many("naive", 0, 20, time.Second), nil, Options{}, 0, 0},
		{"fast with change", many("naive", 0, 100, 100*time.Millisecond),
			[]store.AuditRecord{rec(5, "x", api.KindDeployment, "spec.replicas", "1", "2")}, Options{}, 0, 0},
		{"heartbeats do not hide it", many("naive", 0, 100, 100*time.Millisecond),
			[]store.AuditRecord{rec(5, "system:node:a", api.KindLease, "spec.renewTime", "a", "b")}, Options{}, 1, 100},
		{"other actor's change, attributed", many("naive", 0, 100, 100*time.Millisecond),
			[]store.AuditRecord{rec(5, "x", api.KindDeployment, "spec.replicas", "1", "2")},
			Options{ControllerActors: map[string]string{"naive": "naive-actor"}}, 1, 100},
		// A built-in controller at start-up: a reconcile per pod, each
		// pod once (a backlog), is not a loop.
		{"many keys once each", distinct("scheduler", 100), nil, Options{ControllerActors: map[string]string{"scheduler": "sched"}}, 0, 0},
		// Keys coming back: 40 keys three times each in 10 s is a loop
		// (120 reconciles, more than twice the keys); 60 keys twice
		// each is not.
		{"a few keys round and round", rounds("naive", 40, 3), nil, Options{}, 1, 120},
		{"keys twice each", rounds("naive", 60, 2), nil, Options{}, 0, 0},
		// Reconciles in proportion to the changes others make (status
		// writes while pods start) are event-driven, not a loop.
		{"as many reconciles as changes", many("rs", 0, 100, 100*time.Millisecond), statusWrites(60),
			Options{ControllerActors: map[string]string{"rs": "rs-actor"}}, 0, 0},
		{"lease renewals are not changes", many("rs", 0, 100, 100*time.Millisecond), leaseRenewals(60),
			Options{ControllerActors: map[string]string{"rs": "rs-actor"}}, 1, 100},
		{"far more reconciles than changes", many("rs", 0, 100, 100*time.Millisecond), statusWrites(10),
			Options{ControllerActors: map[string]string{"rs": "rs-actor"}}, 1, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := Analyze(&runner.Result{Reconciles: tt.rec, Audit: tt.audit}, tt.opts)
			if len(rep.HotLoops) != tt.want {
				t.Fatalf("hot loops = %+v, want %d", rep.HotLoops, tt.want)
			}
			if tt.want > 0 && rep.HotLoops[0].Reconciles != tt.recons {
				t.Errorf("reconciles = %d, want %d", rep.HotLoops[0].Reconciles, tt.recons)
			}
		})
	}
}

func TestCost(t *testing.T) {
	res := &runner.Result{
		Reconciles: []runner.Reconcile{
			{Controller: "c", Key: web, Err: "x"},
			{Controller: "c", Key: web, Requeue: true},
			{Controller: "c", Key: web},
		},
		Audit: []store.AuditRecord{
			{Verb: "create", Kind: api.KindEvent},
			{Verb: "update", Kind: api.KindEvent},
			{Verb: "update", Kind: api.KindPod, NoOp: true},
		},
	}
	res.Requests = append(res.Requests,
		statOf("b", "update", "conflict", 2), statOf("a", "get", "ok", 5), statOf("a", "get", "not-found", 1))
	c := Analyze(res, Options{}).Cost
	if len(c.Controllers) != 1 || c.Controllers[0] != (ControllerCost{Controller: "c", Reconciles: 3, Errors: 1, Requeues: 1, Retries: 1}) {
		t.Errorf("controllers = %+v", c.Controllers)
	}
	if c.Events != 1 || c.EventUpdates != 1 || c.Writes != 3 || c.NoOps != 1 {
		t.Errorf("cost = %+v", c)
	}
	wantActors := []ActorCost{{Actor: "a", Total: 6, OK: 5, NotFound: 1}, {Actor: "b", Total: 2, Conflict: 2}}
	if !slices.Equal(c.Actors, wantActors) {
		t.Errorf("actors = %+v, want %+v", c.Actors, wantActors)
	}
	if c.Requests[0].Actor != "a" || c.Requests[0].Outcome != "not-found" {
		t.Errorf("requests not sorted: %+v", c.Requests)
	}
}

func TestGlob(t *testing.T) {
	tests := []struct {
		pattern, kind, path string
		want                bool
	}{
		{"status.*", "Pod", "status.phase", true},
		{"metadata.*Timestamp", "Pod", "metadata.creationTimestamp", true},
		{"Lease:spec.renewTime", "Lease", "spec.renewTime", true},
		{"Lease:spec.renewTime", "Pod", "spec.renewTime", false},
		{"status.conditions[*].status", "Node", "status.conditions[Ready].status", true},
		{"spec.replicas", "Deployment", "spec.replicasX", false},
	}
	for _, tt := range tests {
		if got := patternMatch(tt.pattern, tt.kind, tt.path); got != tt.want {
			t.Errorf("patternMatch(%q, %q, %q) = %v", tt.pattern, tt.kind, tt.path, got)
		}
	}
}

func statOf(actor, verb, outcome string, n uint64) cluster.Stat {
	return cluster.Stat{Actor: actor, Verb: verb, Kind: "Pod", Outcome: outcome, Count: n}
}

// TestSummaryFolds checks that findings differing only in the object or
// the kubelet are one line each up to FoldAbove of them, and one line
// with counts beyond, in the place of the first.
func TestSummaryFolds(t *testing.T) {
	noops := func(n int) []NoOps {
		out := []NoOps{{Actor: "alice", Kind: api.KindConfigMap, Count: 2}}
		for i := range n {
			out = append(out, NoOps{Actor: "system:node:n-" + strconv.Itoa(i), Kind: api.KindNode, Count: i + 1})
		}
		return append(out, NoOps{Actor: "system:serviceaccount:x", Kind: api.KindPod, Count: 1})
	}
	flaps := func(n int) []Flap {
		var out []Flap
		for i := range n {
			out = append(out, Flap{Kind: api.KindNode, Key: api.Key{Name: "n-" + strconv.Itoa(i)}, Path: "status.conditions[Ready].status",
				Reversals: 1, Values: []string{"True", "Unknown", "True"}, First: time.Duration(i) * time.Minute, Last: time.Duration(i) * time.Minute})
		}
		return out
	}
	tests := []struct {
		name string
		rep  Report
		want []string
	}{
		{"three kubelets, a line each", Report{NoOpWrites: noops(3)}, []string{
			"no-op writes: alice wrote 2 unchanged configmap objects",
			"no-op writes: system:node:n-0 wrote 1 unchanged node objects",
			"no-op writes: system:node:n-1 wrote 2 unchanged node objects",
			"no-op writes: system:node:n-2 wrote 3 unchanged node objects",
			"no-op writes: system:serviceaccount:x wrote 1 unchanged pod objects",
		}},
		{"five thousand kubelets, one line", Report{NoOpWrites: noops(5000)}, []string{
			"no-op writes: alice wrote 2 unchanged configmap objects",
			"no-op writes: 5000 kubelets (system:node:*) wrote 12502500 unchanged node objects",
			"no-op writes: system:serviceaccount:x wrote 1 unchanged pod objects",
		}},
		{"three flapping nodes", Report{Flaps: flaps(3)}, []string{
			"flap: node n-0 status.conditions[Ready].status reversed once, at 0:00 (True→Unknown→True)",
			"flap: node n-1 status.conditions[Ready].status reversed once, at 1:00 (True→Unknown→True)",
			"flap: node n-2 status.conditions[Ready].status reversed once, at 2:00 (True→Unknown→True)",
		}},
		{"fifty flapping nodes", Report{Flaps: flaps(50)}, []string{
			"flap: 50 node objects (n-0, n-1, n-2, …) status.conditions[Ready].status reversed 50 times in all from 0:00 to 49:00",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.rep.Summary(); !slices.Equal(got, tt.want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestHotLoopsFold checks that one controller's hot-loop stretches, more
// than FoldAbove of them, are one line with their sums, and that a
// controller with FoldAbove or fewer keeps a line a stretch.
func TestHotLoopsFold(t *testing.T) {
	stretch := func(ctl string, startSec, reconciles int) HotLoop {
		w := 10 * time.Second
		return HotLoop{Controller: ctl, Start: time.Duration(startSec) * time.Second, Window: w, Reconciles: reconciles, PerSecond: float64(reconciles) / w.Seconds()}
	}
	var loops []HotLoop
	for i := range FoldAbove + 2 {
		loops = append(loops, stretch("deployment", 1620+60*i, 90+i))
	}
	loops = append(loops, stretch("naive", 100, 200), stretch("naive", 400, 150))
	rep := &Report{HotLoops: loops}
	var got []string
	for _, l := range rep.Lines() {
		got = append(got, l.Text)
	}
	want := []string{
		"hot loop: deployment reconciled 460 times in 5 stretches of 50s in all (at most 9.4/s) from 27:00 to 31:10 without changing the store",
		"hot loop: naive reconciled 200 times in 10s (20.0/s) from 1:40 without changing the store",
		"hot loop: naive reconciled 150 times in 10s (15.0/s) from 6:40 without changing the store",
	}
	if !slices.Equal(got, want) {
		t.Errorf("lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
