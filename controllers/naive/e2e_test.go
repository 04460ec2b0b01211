package naive_test

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/clustersim/clustersim/controllers/deployment"
	"github.com/clustersim/clustersim/controllers/naive"
	"github.com/clustersim/clustersim/controllers/resourcequota"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/netsim"
)

// operatorAddr is the operator's network endpoint in these tests.
const operatorAddr netsim.Addr = "controller/app-operator"

var webKey = api.Key{Namespace: "default", Name: "web"}

// app is an App ConfigMap.
func app(name, image string, replicas int) *api.ConfigMap {
	return &api.ConfigMap{
		TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{naive.AppLabel: naive.AppKind}},
		Data:       map[string]string{"image": image, "replicas": strconv.Itoa(replicas)},
	}
}

// deploymentsQuota allows n Deployments in the default namespace.
func deploymentsQuota(n string) *api.ResourceQuota {
	return &api.ResourceQuota{
		TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "ResourceQuota"},
		ObjectMeta: api.ObjectMeta{Name: "deployments", Namespace: "default"},
		Spec:       api.ResourceQuotaSpec{Hard: api.ResourceList{"count/deployments.apps": api.MustParseQuantity(n)}},
	}
}

// env is a control plane with the Deployment and quota controllers (no
// ReplicaSet controller, scheduler or nodes: no Deployment ever becomes
// available) and the operator.
type env struct {
	c  *cluster.Cluster
	op *controller.Manager
}

func newEnv(t *testing.T, opts naive.Options, objs ...api.Object) *env {
	t.Helper()
	c, err := cluster.New(cluster.Config{Seed: 1, Link: netsim.LinkConfig{Latency: netsim.Latency{Base: 2 * time.Millisecond}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	if err := c.Bootstrap(objs...); err != nil {
		t.Fatal(err)
	}
	for _, m := range []struct {
		name, actor string
		setup       func(*controller.Manager) error
	}{
		{"resourcequota", resourcequota.Actor, func(m *controller.Manager) error { return resourcequota.Setup(m, resourcequota.Options{}) }},
		{"deployment", deployment.Actor, func(m *controller.Manager) error { return deployment.Setup(m, deployment.Options{}) }},
	} {
		if err := c.AddManager(m.name, m.actor, m.setup).Start(); err != nil {
			t.Fatal(err)
		}
	}
	op := c.AddManager("app-operator", naive.Actor, func(m *controller.Manager) error { return naive.Setup(m, opts) })
	if err := op.Start(); err != nil {
		t.Fatal(err)
	}
	return &env{c: c, op: op}
}

// writes counts the operator's accepted writes: those that changed
// something, and no-ops.
func (e *env) writes() (changed, noop int) {
	for _, r := range e.c.Store.Audit().Records() {
		if r.Actor != naive.Actor {
			continue
		}
		if r.NoOp {
			noop++
		} else {
			changed++
		}
	}
	return changed, noop
}

// requests counts the operator's requests of verb with outcome ("" for
// any).
func (e *env) requests(verb apiserver.Verb, outcome apiserver.Outcome) uint64 {
	var n uint64
	for _, s := range e.c.API.Stats() {
		if s.Actor == naive.Actor && s.Verb == verb && (outcome == "" || s.Outcome == outcome) {
			n += s.Count
		}
	}
	return n
}

// reconciles is the operator controller's reconcile count.
func (e *env) reconciles() uint64 {
	var n uint64
	for _, c := range e.op.Controllers() {
		n += c.Metrics().Reconciles
	}
	return n
}

// replicas is the live Deployment's spec.replicas (-1 if there is none).
func (e *env) replicas(t *testing.T, key api.Key) int32 {
	t.Helper()
	o, err := e.c.Store.Get(api.KindDeployment, key)
	if err != nil {
		return -1
	}
	return *o.(*api.Deployment).Spec.Replicas
}

// patchApp changes the app's data as a user would, now.
func (e *env) patchApp(t *testing.T, name, data string) {
	t.Helper()
	cl := e.c.Client("user/admin", "admin")
	e.c.Go("admin", func(*kernel.Process) {
		if _, err := cl.Patch(context.Background(), api.KindConfigMap, api.Key{Namespace: "default", Name: name}, client.MergePatch, []byte(`{"data":`+data+`}`)); err != nil {
			t.Errorf("patch app %s: %v", name, err)
		}
	})
}

// TestDesigns runs each design on one healthy app for 10 s and checks
// its signature in writes, requests and reconciles.
func TestDesigns(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts naive.Options
		// check gets the writes that changed something, the no-ops, the
		// reconciles and the GETs.
		check func(t *testing.T, changed, noop int, reconciles, gets uint64)
	}{
		{"none writes once", naive.Options{}, func(t *testing.T, changed, noop int, reconciles, gets uint64) {
			if changed != 1 || noop != 0 {
				t.Errorf("writes %d changed, %d no-op; want the create alone", changed, noop)
			}
			if reconciles > 20 || gets != 0 {
				t.Errorf("%d reconciles, %d GETs; want a few reconciles from the cache", reconciles, gets)
			}
		}},
		{"compare with defaults fights", naive.Options{Flaw: naive.FlawCompareWithDefaults}, func(t *testing.T, changed, noop int, reconciles, gets uint64) {
			if changed < 100 {
				t.Errorf("%d writes that changed something; want a fight (hundreds)", changed)
			}
		}},
		{"requeue without back-off polls", naive.Options{Flaw: naive.FlawRequeueWithoutBackoff}, func(t *testing.T, changed, noop int, reconciles, gets uint64) {
			if changed != 1 || noop != 0 {
				t.Errorf("writes %d changed, %d no-op; want the create alone", changed, noop)
			}
			if reconciles < 800 {
				t.Errorf("%d reconciles in 10s; want about 100 a second", reconciles)
			}
		}},
		{"retry without back-off is quiet when nothing fails", naive.Options{Flaw: naive.FlawRetryWithoutBackoff}, func(t *testing.T, changed, noop int, reconciles, gets uint64) {
			if changed != 1 || reconciles > 20 {
				t.Errorf("%d writes, %d reconciles; want the create and a few reconciles", changed, reconciles)
			}
		}},
		{"resync re-reads the API server", naive.Options{Resync: 2 * time.Second}, func(t *testing.T, changed, noop int, reconciles, gets uint64) {
			if changed != 1 || noop != 0 {
				t.Errorf("writes %d changed, %d no-op; want the create alone", changed, noop)
			}
			if reconciles < 5 || gets < 2*reconciles {
				t.Errorf("%d reconciles, %d GETs; want one every 2s, each reading the app and the Deployment", reconciles, gets)
			}
		}},
		{"edge-triggered creates on ADDED", naive.Options{Flaw: naive.FlawEdgeTriggered}, func(t *testing.T, changed, noop int, reconciles, gets uint64) {
			if changed != 1 || reconciles != 1 || gets != 0 {
				t.Errorf("%d writes, %d reconciles, %d GETs; want one reconcile that creates", changed, reconciles, gets)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, tc.opts, app("web", "nginx:1.14.2", 2))
			e.c.RunFor(10 * time.Second)
			if got := e.replicas(t, webKey); got != 2 {
				t.Errorf("web replicas %d, want 2", got)
			}
			changed, noop := e.writes()
			tc.check(t, changed, noop, e.reconciles(), e.requests(apiserver.Get, ""))
		})
	}
}

// TestFailingCreate: a quota rejects every create for 30 s, then is
// raised. Without back-off the operator retries every 10 ms; with it, the
// rate limiter's 5 ms·2^n leaves about a dozen attempts, and the create
// after the fix waits for the next one.
func TestFailingCreate(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		flaw                 naive.Flaw
		minForbid, maxForbid uint64
		// createdBy is the latest time web may be created.
		createdBy time.Duration
	}{
		{"retry without back-off", naive.FlawRetryWithoutBackoff, 1000, 3000, 31 * time.Second},
		{"back-off", naive.FlawNone, 10, 16, 45 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			legacy := &api.Deployment{
				TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
				ObjectMeta: api.ObjectMeta{Name: "legacy", Namespace: "default"},
				Spec: api.DeploymentSpec{
					Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "legacy"}},
					Template: api.PodTemplateSpec{
						ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "legacy"}},
						Spec:       api.PodSpec{Containers: []api.Container{{Name: "legacy", Image: "nginx:1.14.2"}}},
					},
				},
			}
			e := newEnv(t, naive.Options{Flaw: tc.flaw}, deploymentsQuota("1"), legacy, app("web", "nginx:1.14.2", 2))
			e.c.RunFor(30 * time.Second)
			forbidden := e.requests(apiserver.Create, apiserver.Forbidden)
			if forbidden < tc.minForbid || forbidden > tc.maxForbid {
				t.Errorf("%d forbidden creates in 30s, want %d to %d", forbidden, tc.minForbid, tc.maxForbid)
			}
			if e.replicas(t, webKey) != -1 {
				t.Fatal("web exists while the quota is full")
			}
			cl := e.c.Client("user/admin", "admin")
			e.c.Go("admin", func(*kernel.Process) {
				_, err := cl.Patch(context.Background(), api.KindResourceQuota, api.Key{Namespace: "default", Name: "deployments"}, client.MergePatch, []byte(`{"spec":{"hard":{"count/deployments.apps":"2"}}}`))
				if err != nil {
					t.Errorf("raise quota: %v", err)
				}
			})
			e.c.RunFor(tc.createdBy - 30*time.Second)
			if got := e.replicas(t, webKey); got != 2 {
				t.Errorf("web replicas %d at %v, want 2", got, tc.createdBy)
			}
		})
	}
}

// TestLostEvent loses every watch event to the operator for one second
// around an app's change: the edge-triggered operator never makes the
// change unless a later change of the same app arrives; the
// level-triggered one makes it at its next resync.
func TestLostEvent(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts naive.Options
		lose bool
		// later, if set, is a second change at 10 s, delivered.
		later string
		want  int32
	}{
		{"edge, event delivered", naive.Options{Flaw: naive.FlawEdgeTriggered}, false, "", 4},
		{"edge, event lost", naive.Options{Flaw: naive.FlawEdgeTriggered}, true, "", 2},
		{"edge, event lost, the next change repairs it", naive.Options{Flaw: naive.FlawEdgeTriggered}, true, `{"replicas":"3"}`, 3},
		{"no resync, event lost", naive.Options{}, true, "", 2},
		{"level with resync, event lost", naive.Options{Resync: 5 * time.Second}, true, "", 4},
		{"level with resync, event delivered", naive.Options{Resync: 5 * time.Second}, false, "", 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, tc.opts, app("web", "nginx:1.14.2", 2))
			e.c.RunFor(5 * time.Second)
			if tc.lose {
				if err := e.c.Net.SetStreamLoss(cluster.APIServerAddr, operatorAddr, 1); err != nil {
					t.Fatal(err)
				}
			}
			e.patchApp(t, "web", `{"replicas":"4"}`)
			e.c.RunFor(time.Second)
			if err := e.c.Net.SetStreamLoss(cluster.APIServerAddr, operatorAddr, 0); err != nil {
				t.Fatal(err)
			}
			e.c.RunFor(4 * time.Second)
			if tc.later != "" {
				e.patchApp(t, "web", tc.later)
			}
			e.c.RunFor(10 * time.Second)
			if got := e.replicas(t, webKey); got != tc.want {
				t.Errorf("web replicas %d, want %d", got, tc.want)
			}
		})
	}
}

// TestEdgeImage: an image change is carried by its event and set on the
// app's container.
func TestEdgeImage(t *testing.T) {
	e := newEnv(t, naive.Options{Flaw: naive.FlawEdgeTriggered}, app("web", "nginx:1.14.2", 2))
	e.c.RunFor(2 * time.Second)
	e.patchApp(t, "web", `{"image":"nginx:1.16.1","replicas":"3"}`)
	e.c.RunFor(2 * time.Second)
	o, err := e.c.Store.Get(api.KindDeployment, webKey)
	if err != nil {
		t.Fatal(err)
	}
	d := o.(*api.Deployment)
	if img := d.Spec.Template.Spec.Containers[0].Image; img != "nginx:1.16.1" || *d.Spec.Replicas != 3 {
		t.Errorf("image %s, replicas %d; want nginx:1.16.1 and 3", img, *d.Spec.Replicas)
	}
}

// TestSetupRejects: options Setup cannot run with fail the manager's
// start with ErrInvalidOptions.
func TestSetupRejects(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts naive.Options
		ok   bool
	}{
		{"defaults", naive.Options{}, true},
		{"resync", naive.Options{Resync: time.Second}, true},
		{"every flaw", naive.Options{Flaw: naive.FlawBusyWait}, true},
		{"unknown flaw", naive.Options{Flaw: naive.FlawBusyWait + 1}, false},
		{"negative flaw", naive.Options{Flaw: -1}, false},
		{"negative resync", naive.Options{Resync: -time.Second}, false},
		{"resync with a flaw", naive.Options{Flaw: naive.FlawCompareWithDefaults, Resync: time.Second}, false},
		{"negative workers", naive.Options{Workers: -1}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := cluster.New(cluster.Config{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			err = c.AddManager("app-operator", naive.Actor, func(m *controller.Manager) error { return naive.Setup(m, tc.opts) }).Start()
			if tc.ok != (err == nil) || !tc.ok && !errors.Is(err, naive.ErrInvalidOptions) {
				t.Errorf("Start: %v, want ok=%v (or ErrInvalidOptions)", err, tc.ok)
			}
		})
	}
}
