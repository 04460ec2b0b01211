package imperative_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/clustersim/clustersim/controllers/replicaset"
	"github.com/clustersim/clustersim/scenarios/imperative"
	"github.com/clustersim/clustersim/scenarios/kubectl"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/manifest"
	"github.com/clustersim/clustersim/sim/netsim"
	"github.com/clustersim/clustersim/sim/store"
)

const (
	user     = "alice"
	userAddr = netsim.Addr("user/alice")
)

// lossy is the user's link in both directions: 10% of requests and
// replies lost, 5% duplicated, a few milliseconds of latency.
var lossy = netsim.LinkConfig{
	Latency:   netsim.Latency{Base: time.Millisecond, Jitter: 4 * time.Millisecond},
	Drop:      0.10,
	Duplicate: 0.05,
}

var template = api.PodTemplateSpec{
	ObjectMeta: api.ObjectMeta{Labels: map[string]string{"tier": "frontend"}},
	Spec:       api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx"}}},
}

// newCluster builds a cluster whose user link is lossy.
func newCluster(t testing.TB, seed uint64, objs ...api.Object) *cluster.Cluster {
	t.Helper()
	c, err := cluster.New(cluster.Config{Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Net.SetLinkBoth(userAddr, cluster.APIServerAddr, lossy); err != nil {
		t.Fatal(err)
	}
	if err := c.Bootstrap(objs...); err != nil {
		t.Fatal(err)
	}
	return c
}

// asUser runs fn as the user and then lets the cluster run for quiet.
func asUser(t testing.TB, c *cluster.Cluster, quiet time.Duration, fn func(ctx context.Context, cl client.Client, clock client.Clock)) {
	t.Helper()
	cl := c.Client(userAddr, user)
	clock := client.NewClock(c.K)
	done := false
	c.Go("user", func(*kernel.Process) {
		fn(context.Background(), cl, clock)
		done = true
	})
	for range 30 {
		c.RunFor(10 * time.Second)
		if done {
			break
		}
	}
	if !done {
		t.Fatal("the user did not finish within 5 minutes")
	}
	c.RunFor(quiet)
}

// activePods counts the pods of the default namespace labelled
// tier=frontend that are not being deleted.
func activePods(c *cluster.Cluster) int {
	sel := api.SelectorFromSet(map[string]string{"tier": "frontend"})
	objs, _, _ := c.Store.List(api.KindPod, store.ListOptions{Namespace: "default", Labels: &sel})
	n := 0
	for _, o := range objs {
		if o.GetObjectMeta().DeletionTimestamp == nil {
			n++
		}
	}
	return n
}

// tally counts seeds by outcome against the wanted count.
type tally struct{ tooFew, right, tooMany int }

func (t *tally) add(got, want int) {
	switch {
	case got < want:
		t.tooFew++
	case got > want:
		t.tooMany++
	default:
		t.right++
	}
}

const seeds = 200

// TestCommandsVersusDeclaration is the lesson: over a link that drops 10%
// and duplicates 5% of messages, "create 3 pods one by one, retrying on
// timeout" ends with the wrong number of pods in some seeds, while
// applying a ReplicaSet with replicas: 3 (re-applied until an apply
// succeeds) ends with exactly 3 in every seed.
func TestCommandsVersusDeclaration(t *testing.T) {
	rsObjs, err := manifest.DecodeFile("../../testdata/kubernetes-docs/frontend-replicaset.yaml")
	if err != nil {
		t.Fatal(err)
	}
	policies := []struct {
		name string
		opts imperative.Options
	}{
		{"retry 3 times", imperative.Options{}},
		{"no retry", imperative.Options{Retries: -1}},
	}
	var commands [2]tally
	var declared tally
	for seed := uint64(1); seed <= seeds; seed++ {
		for i, p := range policies {
			c := newCluster(t, seed)
			asUser(t, c, time.Minute, func(ctx context.Context, cl client.Client, clock client.Clock) {
				cmds := imperative.New(cl, clock, p.opts)
				for range 3 {
					cmds.CreateReplica(ctx, "default", "frontend-", template)
				}
			})
			commands[i].add(activePods(c), 3)
		}

		c := newCluster(t, seed)
		m := c.AddManager("kube-controller-manager/replicaset", replicaset.Actor, func(m *controller.Manager) error {
			return replicaset.Setup(m, replicaset.Options{})
		})
		if err := m.Start(); err != nil {
			t.Fatal(err)
		}
		asUser(t, c, 2*time.Minute, func(ctx context.Context, cl client.Client, clock client.Clock) {
			// A declaration is idempotent: apply until the apply is known to
			// have succeeded.
			for range 20 {
				if _, err := kubectl.Apply(ctx, cl, rsObjs, kubectl.ApplyOptions{}); err == nil {
					return
				}
				clock.Sleep(time.Second)
			}
		})
		if got := activePods(c); got != 3 {
			t.Errorf("seed %d: the declared ReplicaSet ended with %d pods, want 3", seed, got)
		}
		declared.add(activePods(c), 3)
	}
	for i, p := range policies {
		tl := commands[i]
		t.Logf("commands, %s: %d seeds too few, %d right, %d too many (of %d)", p.name, tl.tooFew, tl.right, tl.tooMany, seeds)
		if tl.right == 0 || tl.right == seeds {
			t.Errorf("commands, %s: %d of %d seeds right; the lesson needs both outcomes", p.name, tl.right, seeds)
		}
	}
	t.Logf("declaration: %d seeds too few, %d right, %d too many (of %d)", declared.tooFew, declared.right, declared.tooMany, seeds)
	if commands[0].tooMany == 0 {
		t.Error("retrying commands never created too many pods")
	}
	if commands[1].tooFew == 0 {
		t.Error("commands without retry never created too few pods")
	}
}

// TestCommands checks each command over a perfect network, and that
// failures are data.
func TestCommands(t *testing.T) {
	web := &api.Deployment{
		TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.DeploymentSpec{
			Replicas: ptr(int32(2)),
			Selector: &api.LabelSelector{MatchLabels: template.Labels},
			Template: template,
		},
	}
	tests := []struct {
		name string
		opts imperative.Options
		run  func(ctx context.Context, cmds *imperative.Commands) (imperative.Result, error)
		// check inspects the cluster afterwards.
		check   func(t *testing.T, c *cluster.Cluster, r imperative.Result)
		wantErr error
	}{{
		name: "create one more replica",
		run: func(ctx context.Context, cmds *imperative.Commands) (imperative.Result, error) {
			return cmds.CreateReplica(ctx, "default", "frontend-", template)
		},
		check: func(t *testing.T, c *cluster.Cluster, r imperative.Result) {
			if n := activePods(c); n != 1 || r.Attempts != 1 || r.Target == "" {
				t.Errorf("%d pods, result %+v", n, r)
			}
			o, err := c.Store.Get(api.KindPod, keyOf(r.Target))
			if err != nil || len(o.GetObjectMeta().OwnerReferences) != 0 {
				t.Errorf("created pod %s: %v (owners %v)", r.Target, err, o)
			}
		},
	}, {
		name: "delete one replica",
		run: func(ctx context.Context, cmds *imperative.Commands) (imperative.Result, error) {
			for range 2 {
				if _, err := cmds.CreateReplica(ctx, "default", "frontend-", template); err != nil {
					return imperative.Result{}, err
				}
			}
			return cmds.DeleteReplica(ctx, "default", template.Labels)
		},
		check: func(t *testing.T, c *cluster.Cluster, r imperative.Result) {
			if n := activePods(c); n != 1 {
				t.Errorf("%d pods left, want 1", n)
			}
		},
	}, {
		name: "delete with nothing to delete",
		run: func(ctx context.Context, cmds *imperative.Commands) (imperative.Result, error) {
			return cmds.DeleteReplica(ctx, "default", template.Labels)
		},
		wantErr: imperative.ErrNoReplica,
	}, {
		name: "scale up by one, blind",
		run: func(ctx context.Context, cmds *imperative.Commands) (imperative.Result, error) {
			return cmds.ScaleUp(ctx, api.KindDeployment, api.Key{Namespace: "default", Name: "web"})
		},
		check: func(t *testing.T, c *cluster.Cluster, r imperative.Result) {
			o, _ := c.Store.Get(api.KindDeployment, api.Key{Namespace: "default", Name: "web"})
			if got := *o.(*api.Deployment).Spec.Replicas; got != 3 || r.Replicas != 3 {
				t.Errorf("replicas %d (result %d), want 3", got, r.Replicas)
			}
		},
	}, {
		name: "scale up a kind without replicas",
		run: func(ctx context.Context, cmds *imperative.Commands) (imperative.Result, error) {
			return cmds.ScaleUp(ctx, api.KindNamespace, api.Key{Name: "default"})
		},
		wantErr: imperative.ErrNotScalable,
	}, {
		name: "increment a counter",
		opts: imperative.Options{UseResourceVersion: true},
		run: func(ctx context.Context, cmds *imperative.Commands) (imperative.Result, error) {
			if _, err := cmds.Increment(ctx, counterKey, "count", 5); err != nil {
				return imperative.Result{}, err
			}
			return cmds.Increment(ctx, counterKey, "count", 2)
		},
		check: func(t *testing.T, c *cluster.Cluster, r imperative.Result) {
			if got := counterValue(t, c); got != "9" || r.Value != 9 || r.Command != imperative.CommandIncrement {
				t.Errorf("count %q, result %+v; want 9", got, r)
			}
		},
	}, {
		name: "increment a key that is not a number",
		run: func(ctx context.Context, cmds *imperative.Commands) (imperative.Result, error) {
			return cmds.Increment(ctx, counterKey, "text", 1)
		},
		wantErr: imperative.ErrNotCounter,
	}, {
		name: "increment past a 64-bit integer",
		run: func(ctx context.Context, cmds *imperative.Commands) (imperative.Result, error) {
			return cmds.Increment(ctx, counterKey, "count", math.MaxInt64-1) // count is 2
		},
		wantErr: imperative.ErrCounterOverflow,
	}, {
		name: "decrement past a 64-bit integer",
		run: func(ctx context.Context, cmds *imperative.Commands) (imperative.Result, error) {
			if _, err := cmds.Increment(ctx, counterKey, "count", math.MinInt64+1); err != nil { // 2 -> MinInt64+3
				return imperative.Result{}, err
			}
			return cmds.Increment(ctx, counterKey, "count", -4)
		},
		wantErr: imperative.ErrCounterOverflow,
	}, {
		name: "increment to the largest 64-bit integer",
		run: func(ctx context.Context, cmds *imperative.Commands) (imperative.Result, error) {
			return cmds.Increment(ctx, counterKey, "count", math.MaxInt64-2)
		},
		check: func(t *testing.T, c *cluster.Cluster, r imperative.Result) {
			if got := counterValue(t, c); got != "9223372036854775807" || r.Value != math.MaxInt64 {
				t.Errorf("count %q, result %+v; want 9223372036854775807", got, r)
			}
		},
	}, {
		name: "increment a missing configmap",
		run: func(ctx context.Context, cmds *imperative.Commands) (imperative.Result, error) {
			return cmds.Increment(ctx, api.Key{Namespace: "default", Name: "nope"}, "count", 1)
		},
		wantErr: apierr.ErrNotFound,
	}, {
		name: "scale up something missing",
		run: func(ctx context.Context, cmds *imperative.Commands) (imperative.Result, error) {
			return cmds.ScaleUp(ctx, api.KindDeployment, api.Key{Namespace: "default", Name: "nope"})
		},
		wantErr: apierr.ErrNotFound,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := cluster.New(cluster.Config{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Bootstrap(web, newCounter()); err != nil {
				t.Fatal(err)
			}
			var r imperative.Result
			var rerr error
			var cmds *imperative.Commands
			asUser(t, c, 0, func(ctx context.Context, cl client.Client, clock client.Clock) {
				cmds = imperative.New(cl, clock, tc.opts)
				r, rerr = tc.run(ctx, cmds)
			})
			if tc.wantErr != nil {
				if !errors.Is(rerr, tc.wantErr) || !errors.Is(r.Err, tc.wantErr) {
					t.Fatalf("error %v, want %v", rerr, tc.wantErr)
				}
			} else if rerr != nil {
				t.Fatal(rerr)
			}
			if tc.check != nil {
				tc.check(t, c, r)
			}
			if res := cmds.Results(); len(res) == 0 || res[len(res)-1].Command != r.Command {
				t.Errorf("results %+v", res)
			}
		})
	}
}

// TestScaleUpRetries: a scale-up whose reply is lost is retried and adds
// one more; with resourceVersion a concurrent writer's change is read
// again instead of overwritten.
func TestScaleUpRetries(t *testing.T) {
	for _, useRV := range []bool{false, true} {
		over := 0
		for seed := uint64(1); seed <= 60; seed++ {
			rs := &api.ReplicaSet{
				TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"},
				ObjectMeta: api.ObjectMeta{Name: "frontend", Namespace: "default"},
				Spec:       api.ReplicaSetSpec{Replicas: ptr(int32(1)), Selector: &api.LabelSelector{MatchLabels: template.Labels}, Template: template},
			}
			c := newCluster(t, seed, rs)
			asUser(t, c, 0, func(ctx context.Context, cl client.Client, clock client.Clock) {
				cmds := imperative.New(cl, clock, imperative.Options{UseResourceVersion: useRV})
				for range 3 {
					cmds.ScaleUp(ctx, api.KindReplicaSet, api.Key{Namespace: "default", Name: "frontend"})
				}
			})
			o, _ := c.Store.Get(api.KindReplicaSet, api.Key{Namespace: "default", Name: "frontend"})
			if got := *o.(*api.ReplicaSet).Spec.Replicas; got > 4 {
				over++
			}
		}
		// A resourceVersion does not make "+1" idempotent: a retry after a
		// lost reply reads the new value and adds again.
		if over == 0 {
			t.Errorf("useResourceVersion=%v: three scale-ups never overshot 4 in 60 seeds", useRV)
		}
	}
}

var counterKey = api.Key{Namespace: "default", Name: "counter"}

// newCounter is a ConfigMap holding count: "2" and a key that is not a
// number.
func newCounter() *api.ConfigMap {
	return &api.ConfigMap{
		TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: api.ObjectMeta{Name: counterKey.Name, Namespace: counterKey.Namespace},
		Data:       map[string]string{"count": "2", "text": "hello"},
	}
}

func counterValue(t testing.TB, c *cluster.Cluster) string {
	t.Helper()
	o, err := c.Store.Get(api.KindConfigMap, counterKey)
	if err != nil {
		t.Fatal(err)
	}
	return o.(*api.ConfigMap).Data["count"]
}

// TestLostUpdates is lesson 14: two writers each add 1 to a counter ten
// times, at once, over links with a few to a few tens of milliseconds of
// latency and no loss. Writing without the resourceVersion read loses
// updates (the final count is below 22) in most seeds; writing with it
// loses none in any seed, at the price of conflicts and re-reads.
func TestLostUpdates(t *testing.T) {
	const (
		seeds  = 40
		times  = 10
		start  = 2
		wanted = start + 2*times
	)
	slow := netsim.LinkConfig{Latency: netsim.Latency{Base: 5 * time.Millisecond, Jitter: 20 * time.Millisecond}}
	for _, useRV := range []bool{true, false} {
		lossy, conflicts := 0, 0
		for seed := uint64(1); seed <= seeds; seed++ {
			c, err := cluster.New(cluster.Config{Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Bootstrap(newCounter()); err != nil {
				t.Fatal(err)
			}
			done := 0
			for _, name := range []string{"alice", "bob"} {
				addr := netsim.Addr("user/" + name)
				cl := c.Client(addr, name)
				if err := c.Net.SetLinkBoth(addr, cluster.APIServerAddr, slow); err != nil {
					t.Fatal(err)
				}
				c.Go(name, func(*kernel.Process) {
					cmds := imperative.New(cl, client.NewClock(c.K), imperative.Options{UseResourceVersion: useRV})
					for range times {
						r, err := cmds.Increment(context.Background(), counterKey, "count", 1)
						if err != nil {
							t.Errorf("seed %d: %s: %v", seed, name, err)
						}
						conflicts += r.Conflicts
					}
					done++
				})
			}
			c.RunFor(time.Minute)
			if done != 2 {
				t.Fatalf("seed %d: %d writers finished", seed, done)
			}
			got := counterValue(t, c)
			switch {
			case useRV && got != fmt.Sprint(wanted):
				t.Errorf("seed %d: with resourceVersion the count is %s, want %d", seed, got, wanted)
			case got != fmt.Sprint(wanted):
				lossy++
			}
			c.Close()
		}
		t.Logf("resourceVersion %v: %d of %d seeds lost updates; %d conflicts", useRV, lossy, seeds, conflicts)
		if useRV && conflicts == 0 {
			t.Error("two writers with resourceVersion never conflicted")
		}
		if !useRV && (lossy < seeds/2 || conflicts != 0) {
			t.Errorf("without resourceVersion: %d of %d seeds lost updates (want most), %d conflicts (want 0)", lossy, seeds, conflicts)
		}
	}
}

func keyOf(s string) api.Key {
	for i := range len(s) {
		if s[i] == '/' {
			return api.Key{Namespace: s[:i], Name: s[i+1:]}
		}
	}
	return api.Key{Name: s}
}

func ptr[T any](v T) *T { return &v }

// scripted is a client whose Get and Create fail as scripted, call by
// call: "timeout" fails before sending, "lost" sends (the server acts)
// and then reports a timeout, as a lost reply does; "" passes through.
type scripted struct {
	client.Client
	gets, creates []string
}

func (s *scripted) next(list *[]string) string {
	if len(*list) == 0 {
		return ""
	}
	v := (*list)[0]
	*list = (*list)[1:]
	return v
}

func (s *scripted) Get(ctx context.Context, kind api.Kind, key api.Key) (api.Object, error) {
	switch s.next(&s.gets) {
	case "timeout":
		return nil, apierr.NewTimeout("get", "deployments.apps", key.Name, time.Duration(0))
	case "missing":
		return nil, apierr.NewNotFound("deployments.apps", key.Name)
	}
	return s.Client.Get(ctx, kind, key)
}

func (s *scripted) Create(ctx context.Context, obj api.Object) (api.Object, error) {
	switch s.next(&s.creates) {
	case "timeout":
		return nil, apierr.NewTimeout("create", "pods", "", time.Duration(0))
	case "lost":
		if _, err := s.Client.Create(ctx, obj); err != nil {
			return nil, err
		}
		return nil, apierr.NewTimeout("create", "pods", "", time.Duration(0))
	}
	return s.Client.Create(ctx, obj)
}

// TestCreateReplicaFromRetriesEveryRequest: CreateReplicaFrom retries a
// timed-out read of the template as it retries a timed-out create, and
// logs every attempt: the request it sent, its target, its outcome, a
// timed-out write marked ambiguous. Planted: reading the template once,
// outside the retried attempt (what the runner did), failed the "read
// times out" row with a timeout after one attempt.
func TestCreateReplicaFromRetriesEveryRequest(t *testing.T) {
	dep := &api.Deployment{
		TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.DeploymentSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"tier": "frontend"}},
			Template: template},
	}
	for _, tc := range []struct {
		name          string
		gets, creates []string
		retries       int
		attempts      []string // each attempt's request and outcome, "get timed out"
		ambiguous     int
		pods          int
		failed        bool
	}{
		{"read times out", []string{"timeout"}, nil, 0, []string{"get timed out", "create ok"}, 0, 1, false},
		{"create applied, reply lost", nil, []string{"lost"}, 0, []string{"create timed out", "create ok"}, 1, 2, false},
		{"retries exhausted", nil, []string{"timeout", "lost", "lost"}, 2, []string{"create timed out", "create timed out", "create timed out"}, 3, 2, true},
		{"template missing", []string{"missing"}, nil, 0, []string{"get refused"}, 0, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := cluster.New(cluster.Config{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Bootstrap(dep); err != nil {
				t.Fatal(err)
			}
			var res imperative.Result
			var cerr error
			cl := &scripted{Client: c.Client(userAddr, user), gets: tc.gets, creates: tc.creates}
			done := false
			c.Go("user", func(*kernel.Process) {
				res, cerr = imperative.New(cl, client.NewClock(c.K), imperative.Options{Retries: tc.retries}).
					CreateReplicaFrom(context.Background(), api.KindDeployment, api.Key{Namespace: "default", Name: "web"})
				done = true
			})
			c.RunFor(time.Minute)
			if !done {
				t.Fatal("the command did not finish")
			}
			var got []string
			ambiguous := 0
			for _, a := range res.Log {
				got = append(got, a.Request+" "+a.Outcome)
				if a.Ambiguous {
					ambiguous++
				}
				t.Log(a)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.attempts) || ambiguous != tc.ambiguous {
				t.Errorf("attempts %q (%d ambiguous), want %q (%d)", got, ambiguous, tc.attempts, tc.ambiguous)
			}
			if res.Attempts != len(res.Log) {
				t.Errorf("Attempts %d, Log %d", res.Attempts, len(res.Log))
			}
			if n := activePods(c); n != tc.pods {
				t.Errorf("%d pods, want %d", n, tc.pods)
			}
			if (cerr != nil) != tc.failed {
				t.Errorf("error %v, want failed %v", cerr, tc.failed)
			}
		})
	}
}
