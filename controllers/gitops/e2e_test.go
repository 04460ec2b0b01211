package gitops_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/clustersim/clustersim/controllers/gitops"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/manifest"
	"github.com/clustersim/clustersim/sim/netsim"
	"github.com/clustersim/clustersim/sim/store"
)

// End-to-end tests: the syncer in a manager, talking to the API server
// over the simulated network, while users and a stand-in HPA change the
// live state.

const (
	userActor = "alice"
	hpaActor  = "system:serviceaccount:kube-system:horizontal-pod-autoscaler"
)

var depKey = api.Key{Namespace: "default", Name: "nginx-deployment"}

// nginx returns the docs' nginx Deployment (replicas 3, nginx:1.14.2),
// with image and replicas changed when given.
func nginx(t testing.TB, image string, replicas int32) *api.Deployment {
	t.Helper()
	objs, err := manifest.DecodeFile("../../testdata/kubernetes-docs/nginx-deployment.yaml")
	if err != nil {
		t.Fatal(err)
	}
	d := objs[0].(*api.Deployment)
	if image != "" {
		d.Spec.Template.Spec.Containers[0].Image = image
	}
	if replicas != 0 {
		d.Spec.Replicas = &replicas
	}
	return d
}

func configMap(name string) *api.ConfigMap {
	return &api.ConfigMap{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"}, ObjectMeta: api.ObjectMeta{Name: name}, Data: map[string]string{"k": "v"}}
}

// at is virtual time d as the clock reads it.
func at(d time.Duration) time.Time { return kernel.Time(d).Wall() }

type env struct {
	t *testing.T
	c *cluster.Cluster
	s *gitops.Syncer
	m *controller.Manager
}

func newEnv(t *testing.T, app gitops.Application, opts gitops.Options) *env {
	t.Helper()
	c, err := cluster.New(cluster.Config{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	s, err := gitops.New([]gitops.Application{app}, opts)
	if err != nil {
		t.Fatal(err)
	}
	m := c.AddManager("argocd-application-controller", gitops.Actor, s.Setup)
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	return &env{t: t, c: c, s: s, m: m}
}

// do runs fn as actor at virtual time d.
func (e *env) do(d time.Duration, actor string, fn func(ctx context.Context, c client.Client)) {
	cl := e.c.Client(netsim.Addr("user/"+actor), actor)
	e.c.At(d, func() { e.c.Go(actor, func(*kernel.Process) { fn(context.Background(), cl) }) })
}

// editImage has the user set the Deployment's image at d (an update as
// kubectl edit would send).
func (e *env) editImage(d time.Duration, image string) {
	e.do(d, userActor, func(ctx context.Context, c client.Client) {
		dep, err := client.GetAs[*api.Deployment](ctx, c, depKey)
		if err != nil {
			e.t.Errorf("user get: %v", err)
			return
		}
		dep.Spec.Template.Spec.Containers[0].Image = image
		if _, err := c.Update(ctx, dep); err != nil {
			e.t.Errorf("user update: %v", err)
		}
	})
}

// hpa sets spec.replicas to n every period from start on, as an HPA whose
// recommendation is n would.
func (e *env) hpa(start, period time.Duration, n int32) {
	cl := e.c.Client("controller/hpa", hpaActor)
	clock := client.NewClock(e.c.K)
	e.c.At(start, func() {
		e.c.Go("hpa", func(*kernel.Process) {
			ctx := context.Background()
			for {
				dep, err := client.GetAs[*api.Deployment](ctx, cl, depKey)
				if err == nil && (dep.Spec.Replicas == nil || *dep.Spec.Replicas != n) {
					dep.Spec.Replicas = &n
					_, _ = cl.Update(ctx, dep)
				}
				clock.Sleep(period)
			}
		})
	})
}

func (e *env) until(d time.Duration) { e.c.RunFor(d - time.Duration(e.c.K.Now())) }

func (e *env) deployment() *api.Deployment {
	o, err := e.c.Store.Get(api.KindDeployment, depKey)
	if err != nil {
		e.t.Fatalf("deployment: %v", err)
	}
	return o.(*api.Deployment)
}

func (e *env) image() string { return e.deployment().Spec.Template.Spec.Containers[0].Image }

func (e *env) status() gitops.AppStatus { return e.s.Status()[0] }

// replicaWriters lists, in order, the actors whose accepted writes changed
// the Deployment's spec.replicas.
func (e *env) replicaWriters() []string {
	var out []string
	for _, r := range e.c.Store.Audit().Records() {
		if r.Kind != api.KindDeployment || r.Key != depKey {
			continue
		}
		if slices.ContainsFunc(r.Changes(), func(c store.Change) bool { return c.Path == "spec.replicas" }) {
			out = append(out, r.Actor)
		}
	}
	return out
}

func automated(selfHeal, prune bool) gitops.SyncPolicy {
	return gitops.SyncPolicy{Automated: &gitops.Automated{SelfHeal: selfHeal, Prune: prune}}
}

// TestManualEditReverted: a user changes the image. With selfHeal the
// syncer puts Git's image back within seconds; without it the edit stays
// until a new commit, and the first poll after that commit syncs.
func TestManualEditReverted(t *testing.T) {
	const git, edited = "nginx:1.14.2", "nginx:1.99"
	t.Run("selfHeal", func(t *testing.T) {
		repo := gitops.NewRepo("https://git.example/web")
		repo.Commit(at(0), []api.Object{nginx(t, "", 0)})
		e := newEnv(t, gitops.Application{Name: "web", Repo: repo, SyncPolicy: automated(true, false)}, gitops.Options{})
		e.editImage(time.Minute, edited)
		e.until(time.Minute + 5*time.Second)
		if got := e.image(); got != git {
			t.Fatalf("image %q 5s after the edit, want Git's %q", got, git)
		}
		// The audit log shows the edit and the revert, seconds apart.
		var writes []string
		for _, r := range e.c.Store.Audit().Records() {
			for c := range r.EachChange() {
				if c.Path == "spec.template.spec.containers[nginx].image" {
					writes = append(writes, r.Actor+" "+c.New+" at "+r.Time.String())
				}
			}
		}
		if len(writes) != 3 {
			t.Fatalf("image writes %q, want create, edit, revert", writes)
		}
		t.Logf("image writes: %q", writes)
		st := e.status()
		if n := len(st.History); n != 2 || st.History[1].Initiator != gitops.InitiatorSelfHeal || st.History[1].Phase != gitops.Succeeded ||
			st.SelfHealAttempts != 1 || st.Sync != gitops.Synced {
			t.Errorf("status %+v", st)
		}
		if got := st.History[1].Applied; !slices.Equal(got, []string{"Deployment/default/nginx-deployment"}) {
			t.Errorf("self-heal applied %v", got)
		}
	})
	t.Run("no selfHeal", func(t *testing.T) {
		repo := gitops.NewRepo("https://git.example/web")
		repo.Commit(at(0), []api.Object{nginx(t, "", 0)})
		// A new commit at 10m changes only the replica count.
		rev2 := repo.Commit(at(10*time.Minute), []api.Object{nginx(t, "", 4)})
		e := newEnv(t, gitops.Application{Name: "web", Repo: repo, SyncPolicy: automated(false, false)}, gitops.Options{})
		e.editImage(time.Minute, edited)
		e.until(10 * time.Minute)
		if got := e.image(); got != edited {
			t.Fatalf("image %q before the new commit, want the edit %q to persist", got, edited)
		}
		st := e.status()
		if st.Sync != gitops.OutOfSync || len(st.History) != 1 {
			t.Errorf("before the commit: %s with %d syncs", st.Sync, len(st.History))
		}
		if rs := st.Resources[0]; !slices.Equal(rs.Diff, []string{"/spec/template/spec/containers/0/image"}) {
			t.Errorf("diff %v", rs.Diff)
		}
		// The next poll comes within Resync + Jitter (3m).
		e.until(13*time.Minute + time.Second)
		if got := e.image(); got != git {
			t.Fatalf("image %q after the new commit, want Git's %q", got, git)
		}
		st = e.status()
		last := st.History[len(st.History)-1]
		if last.Revision != rev2 || last.Initiator != gitops.InitiatorAutomated || *e.deployment().Spec.Replicas != 4 {
			t.Errorf("last sync %+v", last)
		}
		if last.StartedAt.Before(at(10 * time.Minute)) {
			t.Errorf("synced at %v, before the commit", last.StartedAt)
		}
	})
}

// TestHPAFight: Git says replicas 3, an HPA says 5 every 15s. With
// selfHeal and no ignoreDifferences the two take turns writing
// spec.replicas (the syncer ever slower, by its back-off); with
// ignoreDifferences /spec/replicas and RespectIgnoreDifferences they stop;
// with ignoreDifferences alone a sync (of a new commit) still resets the
// count once.
func TestHPAFight(t *testing.T) {
	ignoreReplicas := []gitops.IgnoreDifference{{Group: "apps", Kind: "Deployment", JSONPointers: []string{"/spec/replicas"}}}
	tests := []struct {
		name    string
		ignore  []gitops.IgnoreDifference
		respect bool
		// want checks the writers of spec.replicas.
		want func(t *testing.T, writers []string)
		// replicas at the end, 0 = unchecked
		replicas int32
	}{{
		name: "fight",
		want: func(t *testing.T, w []string) {
			if len(w) < 8 {
				t.Errorf("only %d writes to spec.replicas: %v", len(w), w)
			}
			for i := range w {
				want := gitops.Actor
				if i%2 == 1 {
					want = hpaActor
				}
				if w[i] != want {
					t.Fatalf("write %d by %s, want %s: the writers do not alternate: %v", i, w[i], want, w)
				}
			}
		},
	}, {
		name:     "ignoreDifferences and RespectIgnoreDifferences",
		ignore:   ignoreReplicas,
		respect:  true,
		replicas: 5,
		want: func(t *testing.T, w []string) {
			if !slices.Equal(w, []string{gitops.Actor, hpaActor}) {
				t.Errorf("writers %v, want the create and one HPA write", w)
			}
		},
	}, {
		name:     "ignoreDifferences alone",
		ignore:   ignoreReplicas,
		replicas: 5,
		want: func(t *testing.T, w []string) {
			// The commit at 5m syncs the image and, with it, Git's
			// replicas; the HPA sets its own again.
			if !slices.Equal(w, []string{gitops.Actor, hpaActor, gitops.Actor, hpaActor}) {
				t.Errorf("writers %v, want create, HPA, the sync of the new commit, HPA", w)
			}
		},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			repo := gitops.NewRepo("https://git.example/web")
			repo.Commit(at(0), []api.Object{nginx(t, "", 0)})
			repo.Commit(at(5*time.Minute), []api.Object{nginx(t, "nginx:1.16.1", 0)})
			app := gitops.Application{Name: "web", Repo: repo, SyncPolicy: automated(true, false), IgnoreDifferences: tc.ignore,
				SyncOptions: gitops.SyncOptions{RespectIgnoreDifferences: tc.respect}}
			e := newEnv(t, app, gitops.Options{})
			e.hpa(15*time.Second, 15*time.Second, 5)
			e.until(20 * time.Minute)
			tc.want(t, e.replicaWriters())
			if tc.replicas != 0 {
				if got := *e.deployment().Spec.Replicas; got != tc.replicas {
					t.Errorf("replicas %d, want %d", got, tc.replicas)
				}
			}
			if got := e.image(); got != "nginx:1.16.1" {
				t.Errorf("image %q, want the second commit's", got)
			}
		})
	}
}

// TestPrune: a commit that drops a ConfigMap deletes it with prune; without
// prune the ConfigMap stays and the application is OutOfSync.
func TestPrune(t *testing.T) {
	for _, prune := range []bool{true, false} {
		repo := gitops.NewRepo("https://git.example/web")
		repo.Commit(at(0), []api.Object{nginx(t, "", 0), configMap("settings")})
		repo.Commit(at(5*time.Minute), []api.Object{nginx(t, "", 0)})
		e := newEnv(t, gitops.Application{Name: "web", Repo: repo, SyncPolicy: automated(false, prune)}, gitops.Options{})
		e.until(time.Minute)
		if _, err := e.c.Store.Get(api.KindConfigMap, api.Key{Namespace: "default", Name: "settings"}); err != nil {
			t.Fatalf("prune=%v: the first commit's ConfigMap: %v", prune, err)
		}
		e.until(9 * time.Minute)
		_, err := e.c.Store.Get(api.KindConfigMap, api.Key{Namespace: "default", Name: "settings"})
		st := e.status()
		if prune {
			gone := err != nil
			if o, _ := e.c.Store.Get(api.KindConfigMap, api.Key{Namespace: "default", Name: "settings"}); o != nil && o.GetObjectMeta().DeletionTimestamp != nil {
				gone = true // held by the foreground finalizer: no garbage collector runs here
			}
			if !gone || st.Sync != gitops.Synced || !slices.Equal(st.History[len(st.History)-1].Pruned, []string{"ConfigMap/default/settings"}) {
				t.Errorf("prune: configmap err %v, status %+v", err, st)
			}
			continue
		}
		if err != nil || st.Sync != gitops.OutOfSync {
			t.Errorf("no prune: configmap err %v, sync %s", err, st.Sync)
		}
		if i := slices.IndexFunc(st.Resources, func(r gitops.ResourceStatus) bool { return r.RequiresPruning }); i < 0 || st.Resources[i].Name != "settings" {
			t.Errorf("no prune: resources %+v", st.Resources)
		}
	}
}

// TestManualPolicy: nothing is applied until someone syncs.
func TestManualPolicy(t *testing.T) {
	repo := gitops.NewRepo("https://git.example/web")
	repo.Commit(at(0), []api.Object{nginx(t, "", 0)})
	e := newEnv(t, gitops.Application{Name: "web", Repo: repo}, gitops.Options{})
	e.until(5 * time.Minute)
	if _, err := e.c.Store.Get(api.KindDeployment, depKey); err == nil {
		t.Fatal("a manual application synced by itself")
	}
	if st := e.status(); st.Sync != gitops.OutOfSync || !st.Resources[0].Missing {
		t.Errorf("status %+v", st)
	}
	e.c.At(5*time.Minute, func() {
		if err := e.s.Sync("web", false); err != nil {
			t.Error(err)
		}
	})
	e.until(5*time.Minute + time.Second)
	st := e.status()
	if _, err := e.c.Store.Get(api.KindDeployment, depKey); err != nil || st.Sync != gitops.Synced || st.History[0].Initiator != gitops.InitiatorManual {
		t.Errorf("after sync: %v, status %+v", err, st)
	}
	// Managed fields: the syncer owns what Git sets, by server-side apply.
	owners := e.c.Store.ManagedFields(e.deployment())
	if len(owners) == 0 || owners[0].Manager != gitops.FieldManager || owners[0].Operation != store.OperationApply {
		t.Errorf("managedFields %+v", owners)
	}
}

// TestRestartKeepsHistory: the manager crashes and restarts; the status
// survives and self-heal still works.
func TestRestartKeepsHistory(t *testing.T) {
	repo := gitops.NewRepo("https://git.example/web")
	repo.Commit(at(0), []api.Object{nginx(t, "", 0)})
	e := newEnv(t, gitops.Application{Name: "web", Repo: repo, SyncPolicy: automated(true, false)}, gitops.Options{})
	e.c.At(time.Minute, e.m.Crash)
	e.c.At(2*time.Minute, func() {
		if err := e.m.Start(); err != nil {
			t.Error(err)
		}
	})
	e.editImage(3*time.Minute, "nginx:1.99")
	e.until(3*time.Minute + 5*time.Second)
	st := e.status()
	if e.image() != "nginx:1.14.2" || len(st.History) != 2 || st.History[1].ID != 2 {
		t.Errorf("image %s, history %+v", e.image(), st.History)
	}
}

// TestDeterministic: the same seed gives the same trace.
func TestDeterministic(t *testing.T) {
	run := func() string {
		repo := gitops.NewRepo("https://git.example/web")
		repo.Commit(at(0), []api.Object{nginx(t, "", 0)})
		e := newEnv(t, gitops.Application{Name: "web", Repo: repo, SyncPolicy: automated(true, false)}, gitops.Options{})
		e.hpa(15*time.Second, 15*time.Second, 5)
		e.until(10 * time.Minute)
		return e.c.TraceHash()
	}
	if a, b := run(), run(); a != b {
		t.Errorf("two runs differ: %s %s", a, b)
	}
}

// TestLossyNetwork: with a third of the syncer's requests or replies lost,
// syncs fail with timeouts, are retried, and the application converges;
// a manual edit is still reverted.
func TestLossyNetwork(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		c, err := cluster.New(cluster.Config{Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		lossy := netsim.LinkConfig{Latency: netsim.Latency{Base: time.Millisecond, Jitter: 4 * time.Millisecond}, Drop: 0.3, Duplicate: 0.05}
		if err := c.Net.SetLinkBoth("controller/argocd-application-controller", cluster.APIServerAddr, lossy); err != nil {
			t.Fatal(err)
		}
		repo := gitops.NewRepo("https://git.example/web")
		repo.Commit(at(0), []api.Object{nginx(t, "", 0), configMap("settings")})
		s, err := gitops.New([]gitops.Application{{Name: "web", Repo: repo, SyncPolicy: automated(true, false)}}, gitops.Options{})
		if err != nil {
			t.Fatal(err)
		}
		m := c.AddManager("argocd-application-controller", gitops.Actor, s.Setup)
		if err := m.Start(); err != nil {
			t.Fatal(err)
		}
		e := &env{t: t, c: c, s: s, m: m}
		// Over this link the informers' first lists take minutes (their
		// requests time out too); edit once the application has synced.
		e.editImage(15*time.Minute, "nginx:1.99")
		e.until(30 * time.Minute)
		st := e.status()
		if e.image() != "nginx:1.14.2" || st.Sync != gitops.Synced {
			t.Errorf("seed %d: image %s, %s after %d syncs", seed, e.image(), st.Sync, len(st.History))
		}
		healed := false
		for _, h := range st.History {
			healed = healed || h.Initiator == gitops.InitiatorSelfHeal && h.StartedAt.After(at(15*time.Minute))
		}
		if !healed {
			t.Errorf("seed %d: no self-heal after the edit: %+v", seed, st.History)
		}
	}
}
