package garbagecollector_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/clustersim/clustersim/controllers/garbagecollector"
	"github.com/clustersim/clustersim/controllers/replicaset"
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

// End-to-end tests: the garbage collector and the ReplicaSet controller,
// each in its own manager, against the simulated API server; a user
// process deletes owners with each propagation policy.

var rsKey = api.Key{Namespace: "default", Name: "frontend"}

func loadFrontend(t testing.TB) *api.ReplicaSet {
	t.Helper()
	objs, err := manifest.DecodeFile("../../testdata/kubernetes-docs/frontend-replicaset.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return objs[0].(*api.ReplicaSet)
}

type env struct {
	c  *cluster.Cluster
	rs *controller.Manager
	gc *controller.Manager
}

// newEnv builds a cluster with objs bootstrapped (in order; bootstrap
// fills each object's uid back), and the ReplicaSet controller and the
// garbage collector started.
func newEnv(t testing.TB, cfg cluster.Config, objs ...api.Object) *env {
	t.Helper()
	c, err := cluster.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range objs {
		if err := c.Bootstrap(o); err != nil {
			t.Fatal(err)
		}
	}
	e := &env{c: c}
	e.rs = c.AddManager("kube-controller-manager/replicaset", replicaset.Actor, func(m *controller.Manager) error {
		return replicaset.Setup(m, replicaset.Options{})
	})
	e.gc = c.AddManager("kube-controller-manager/garbage-collector", garbagecollector.Actor, func(m *controller.Manager) error {
		return garbagecollector.Setup(m, garbagecollector.Options{})
	})
	for _, m := range []*controller.Manager{e.rs, e.gc} {
		if err := m.Start(); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

// get returns the stored object, or nil when absent.
func (e *env) get(kind api.Kind, key api.Key) api.Object {
	o, err := e.c.Store.Get(kind, key)
	if err != nil {
		return nil
	}
	return o
}

// pods returns the stored pods of namespace default, by name.
func (e *env) pods() []*api.Pod {
	objs, _, _ := e.c.Store.List(api.KindPod, store.ListOptions{Namespace: "default"})
	out := make([]*api.Pod, 0, len(objs))
	for _, o := range objs {
		out = append(out, o.(*api.Pod))
	}
	return out
}

func podNames(ps []*api.Pod) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name)
	}
	return out
}

// user runs fn as a user process at virtual time at.
func (e *env) user(t testing.TB, at time.Duration, fn func(ctx context.Context, cl client.Client, p *kernel.Process) error) {
	cl := e.c.Client(netsim.Addr("user/admin"), "admin")
	e.c.At(at, func() {
		e.c.Go("user", func(p *kernel.Process) {
			if err := fn(context.Background(), cl, p); err != nil {
				t.Error(err)
			}
		})
	})
}

func deleteRS(policy client.Propagation) func(ctx context.Context, cl client.Client, p *kernel.Process) error {
	return func(ctx context.Context, cl client.Client, p *kernel.Process) error {
		return cl.Delete(ctx, api.KindReplicaSet, rsKey, client.PropagationPolicy(policy))
	}
}

// removedAt returns the virtual time at which the audit log shows the
// object leaving the store, and whether it did.
func (e *env) removedAt(kind api.Kind, key api.Key) (kernel.Time, bool) {
	for _, r := range e.c.Store.Audit().Records() {
		if r.Kind == kind && r.Key == key && r.Removed {
			return r.Time, true
		}
	}
	return 0, false
}

func TestBackgroundDeletionRemovesPods(t *testing.T) {
	e := newEnv(t, cluster.Config{Seed: 1}, loadFrontend(t))
	e.c.RunFor(20 * time.Second)
	if n := len(e.pods()); n != 3 {
		t.Fatalf("%d pods before the delete, want 3", n)
	}
	e.user(t, 20*time.Second, deleteRS(client.Background))
	e.c.RunFor(20 * time.Second)
	if e.get(api.KindReplicaSet, rsKey) != nil {
		t.Error("the ReplicaSet survived a background delete")
	}
	if pods := e.pods(); len(pods) != 0 {
		t.Errorf("pods %v left after their ReplicaSet was deleted", podNames(pods))
	}
	// The collector deleted them, each with a precondition on its uid.
	deleted := 0
	for _, r := range e.c.Store.Audit().Records() {
		if r.Kind == api.KindPod && r.Removed {
			if r.Actor != garbagecollector.Actor {
				t.Errorf("pod %s removed by %s", r.Key, r.Actor)
			}
			deleted++
		}
	}
	if deleted != 3 {
		t.Errorf("%d pods removed, want 3", deleted)
	}
}

func TestDefaultPropagationIsBackground(t *testing.T) {
	e := newEnv(t, cluster.Config{Seed: 2}, loadFrontend(t))
	e.user(t, 20*time.Second, func(ctx context.Context, cl client.Client, p *kernel.Process) error {
		return cl.Delete(ctx, api.KindReplicaSet, rsKey)
	})
	e.c.RunFor(40 * time.Second)
	if e.get(api.KindReplicaSet, rsKey) != nil || len(e.pods()) != 0 {
		t.Errorf("after a delete without policy: ReplicaSet present %v, pods %v", e.get(api.KindReplicaSet, rsKey) != nil, podNames(e.pods()))
	}
}

// TestForegroundDeletionWaitsForPods binds the pods to a node, so that
// deleting them only starts their graceful termination: the ReplicaSet,
// deleted in the foreground, must stay (with a deletionTimestamp and the
// foregroundDeletion finalizer) until a stand-in kubelet confirms the pods
// gone.
func TestForegroundDeletionWaitsForPods(t *testing.T) {
	e := newEnv(t, cluster.Config{Seed: 3}, loadFrontend(t))
	e.c.RunFor(20 * time.Second)
	names := podNames(e.pods())
	if len(names) != 3 {
		t.Fatalf("%d pods, want 3", len(names))
	}
	e.user(t, 20*time.Second, func(ctx context.Context, cl client.Client, p *kernel.Process) error {
		for _, n := range names {
			patch := []byte(`{"spec":{"nodeName":"node-1"}}`)
			if _, err := cl.Patch(ctx, api.KindPod, api.Key{Namespace: "default", Name: n}, client.MergePatch, patch); err != nil {
				return err
			}
		}
		return deleteRS(client.Foreground)(ctx, cl, p)
	})
	e.c.RunFor(30 * time.Second)
	o := e.get(api.KindReplicaSet, rsKey)
	if o == nil {
		t.Fatal("the ReplicaSet is gone while its pods terminate")
	}
	rs := o.(*api.ReplicaSet)
	if rs.DeletionTimestamp == nil || !slices.Contains(rs.Finalizers, api.FinalizerDeleteDependents) {
		t.Fatalf("ReplicaSet deletionTimestamp %v finalizers %v, want set and foregroundDeletion", rs.DeletionTimestamp, rs.Finalizers)
	}
	pods := e.pods()
	if len(pods) != 3 {
		t.Fatalf("pods %v, want the 3 terminating ones (no replacements for a ReplicaSet being deleted)", podNames(pods))
	}
	for _, p := range pods {
		if p.DeletionTimestamp == nil {
			t.Errorf("pod %s not being deleted", p.Name)
		}
	}
	if rs.Status.TerminatingReplicas == nil || *rs.Status.TerminatingReplicas != 3 || rs.Status.Replicas != 0 {
		t.Errorf("status %+v, want replicas 0, terminatingReplicas 3", rs.Status)
	}
	// The kubelet stand-in confirms the terminations.
	e.user(t, 50*time.Second, func(ctx context.Context, cl client.Client, p *kernel.Process) error {
		for _, n := range names {
			if err := cl.Delete(ctx, api.KindPod, api.Key{Namespace: "default", Name: n}, client.GracePeriodSeconds(0)); err != nil {
				return err
			}
		}
		return nil
	})
	e.c.RunFor(20 * time.Second)
	if e.get(api.KindReplicaSet, rsKey) != nil {
		t.Fatal("the ReplicaSet stayed after its pods were gone")
	}
	rsGone, _ := e.removedAt(api.KindReplicaSet, rsKey)
	for _, n := range names {
		at, ok := e.removedAt(api.KindPod, api.Key{Namespace: "default", Name: n})
		if !ok || at > rsGone {
			t.Errorf("pod %s removed at %v (%v), after the ReplicaSet at %v", n, at, ok, rsGone)
		}
	}
}

func TestForegroundDeletionOfUnboundPods(t *testing.T) {
	e := newEnv(t, cluster.Config{Seed: 4}, loadFrontend(t))
	e.user(t, 20*time.Second, deleteRS(client.Foreground))
	e.c.RunFor(40 * time.Second)
	if e.get(api.KindReplicaSet, rsKey) != nil || len(e.pods()) != 0 {
		t.Fatalf("ReplicaSet present %v, pods %v; want both gone", e.get(api.KindReplicaSet, rsKey) != nil, podNames(e.pods()))
	}
	rsGone, ok := e.removedAt(api.KindReplicaSet, rsKey)
	if !ok {
		t.Fatal("no removal of the ReplicaSet in the audit log")
	}
	for _, r := range e.c.Store.Audit().Records() {
		if r.Kind == api.KindPod && r.Removed && r.Time > rsGone {
			t.Errorf("pod %s removed after its ReplicaSet", r.Key)
		}
		if r.Kind == api.KindReplicaSet && r.Removed && r.Actor != garbagecollector.Actor {
			t.Errorf("ReplicaSet removed by %s, want the collector removing its finalizer", r.Actor)
		}
	}
}

func TestOrphanDeletionKeepsPods(t *testing.T) {
	e := newEnv(t, cluster.Config{Seed: 5}, loadFrontend(t))
	e.c.RunFor(20 * time.Second)
	before := podNames(e.pods())
	e.user(t, 20*time.Second, deleteRS(client.Orphan))
	e.c.RunFor(30 * time.Second)
	if e.get(api.KindReplicaSet, rsKey) != nil {
		t.Error("the ReplicaSet survived an orphan delete")
	}
	pods := e.pods()
	if !slices.Equal(podNames(pods), before) {
		t.Fatalf("pods %v, want the same %v", podNames(pods), before)
	}
	for _, p := range pods {
		if len(p.OwnerReferences) != 0 || p.DeletionTimestamp != nil {
			t.Errorf("pod %s: owner references %+v, deletionTimestamp %v; want none", p.Name, p.OwnerReferences, p.DeletionTimestamp)
		}
	}
	// Re-creating the ReplicaSet adopts the orphans instead of creating.
	e.user(t, 50*time.Second, func(ctx context.Context, cl client.Client, p *kernel.Process) error {
		rs := loadFrontend(t)
		rs.Namespace = "default"
		_, err := cl.Create(ctx, rs)
		return err
	})
	e.c.RunFor(20 * time.Second)
	rs := e.get(api.KindReplicaSet, rsKey).(*api.ReplicaSet)
	pods = e.pods()
	if !slices.Equal(podNames(pods), before) {
		t.Fatalf("pods %v after re-creating the ReplicaSet, want the adopted %v", podNames(pods), before)
	}
	for _, p := range pods {
		if !api.IsControlledBy(p, rs) {
			t.Errorf("pod %s not adopted by the new ReplicaSet", p.Name)
		}
	}
}

// chain bootstraps a Deployment and a ReplicaSet it controls (by hand:
// the Deployment controller is not running), selecting the frontend pods.
func chain(t testing.TB, e *env) {
	t.Helper()
	rs := e.get(api.KindReplicaSet, rsKey)
	if rs != nil {
		t.Fatal("chain: the ReplicaSet must be created here")
	}
	d := &api.Deployment{
		TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: api.ObjectMeta{Name: "frontend", Namespace: "default"},
		Spec: api.DeploymentSpec{
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"tier": "frontend"}},
			Template: loadFrontend(t).Spec.Template,
		},
	}
	if err := e.c.Bootstrap(d); err != nil {
		t.Fatal(err)
	}
	stored := e.get(api.KindDeployment, rsKey)
	owned := loadFrontend(t)
	owned.OwnerReferences = []api.OwnerReference{api.NewControllerRef(stored)}
	if err := e.c.Bootstrap(owned); err != nil {
		t.Fatal(err)
	}
}

func TestDeploymentChainCascades(t *testing.T) {
	for _, policy := range []client.Propagation{client.Background, client.Foreground} {
		t.Run(string(policy), func(t *testing.T) {
			e := newEnv(t, cluster.Config{Seed: 6})
			chain(t, e)
			e.c.RunFor(20 * time.Second)
			if n := len(e.pods()); n != 3 {
				t.Fatalf("%d pods, want 3", n)
			}
			e.user(t, 20*time.Second, func(ctx context.Context, cl client.Client, p *kernel.Process) error {
				return cl.Delete(ctx, api.KindDeployment, rsKey, client.PropagationPolicy(policy))
			})
			e.c.RunFor(40 * time.Second)
			if e.get(api.KindDeployment, rsKey) != nil || e.get(api.KindReplicaSet, rsKey) != nil || len(e.pods()) != 0 {
				t.Fatalf("left: deployment %v, replicaset %v, pods %v",
					e.get(api.KindDeployment, rsKey) != nil, e.get(api.KindReplicaSet, rsKey) != nil, podNames(e.pods()))
			}
			if policy == client.Foreground {
				// Bottom up: pods, then the ReplicaSet, then the Deployment.
				dGone, _ := e.removedAt(api.KindDeployment, rsKey)
				rsGone, _ := e.removedAt(api.KindReplicaSet, rsKey)
				if !(rsGone <= dGone) {
					t.Errorf("ReplicaSet removed at %v, after the Deployment at %v", rsGone, dGone)
				}
				for _, r := range e.c.Store.Audit().Records() {
					if r.Kind == api.KindPod && r.Removed && r.Time > rsGone {
						t.Errorf("pod %s removed after the ReplicaSet", r.Key)
					}
				}
			}
		})
	}
}

// TestOwnerRecreatedIsAbsent: a pod whose owner reference names a
// ReplicaSet that exists under that name with another uid (the owner was
// deleted and re-created) is collected; pods of the live ReplicaSet are
// not.
func TestOwnerRecreatedIsAbsent(t *testing.T) {
	rs := loadFrontend(t)
	zero := int32(1)
	rs.Spec.Replicas = &zero
	stale := &api.Pod{
		TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{Name: "stale", Namespace: "default", Labels: map[string]string{"tier": "frontend"},
			OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "frontend", UID: "0f3e-old-incarnation",
				Controller: ptr(true), BlockOwnerDeletion: ptr(true)}}},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx"}}},
	}
	e := newEnv(t, cluster.Config{Seed: 7}, rs, stale)
	e.c.RunFor(30 * time.Second)
	if e.get(api.KindPod, api.Key{Namespace: "default", Name: "stale"}) != nil {
		t.Error("the pod of a previous incarnation of its owner was not collected")
	}
	live := e.get(api.KindReplicaSet, rsKey).(*api.ReplicaSet)
	pods := e.pods()
	if len(pods) != 1 || !api.IsControlledBy(pods[0], live) {
		t.Errorf("pods %v, want the live ReplicaSet's one pod", podNames(pods))
	}
}

// TestDanglingReferenceIsPatchedOut: a pod with one present and one absent
// owner keeps living, without the dangling reference.
func TestDanglingReferenceIsPatchedOut(t *testing.T) {
	cm := &api.ConfigMap{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"}, ObjectMeta: api.ObjectMeta{Name: "owner", Namespace: "default"}}
	e := newEnv(t, cluster.Config{Seed: 8}, cm)
	live := e.get(api.KindConfigMap, api.Key{Namespace: "default", Name: "owner"})
	pod := &api.Pod{
		TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{Name: "shared", Namespace: "default", OwnerReferences: []api.OwnerReference{
			{APIVersion: "v1", Kind: "ConfigMap", Name: "owner", UID: live.GetObjectMeta().UID},
			{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "gone", UID: "dead-beef"},
		}},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "busybox"}}},
	}
	if err := e.c.Bootstrap(pod); err != nil {
		t.Fatal(err)
	}
	e.c.RunFor(30 * time.Second)
	o := e.get(api.KindPod, api.Key{Namespace: "default", Name: "shared"})
	if o == nil {
		t.Fatal("a pod with a present owner was deleted")
	}
	refs := o.GetObjectMeta().OwnerReferences
	if len(refs) != 1 || refs[0].Name != "owner" {
		t.Errorf("owner references %+v, want only the ConfigMap", refs)
	}
	// Now its last owner goes (ConfigMaps are not monitored: the
	// collector learns it by polling the virtual node).
	e.user(t, 30*time.Second, func(ctx context.Context, cl client.Client, p *kernel.Process) error {
		return cl.Delete(ctx, api.KindConfigMap, api.Key{Namespace: "default", Name: "owner"})
	})
	e.c.RunFor(30 * time.Minute)
	if e.get(api.KindPod, api.Key{Namespace: "default", Name: "shared"}) != nil {
		t.Error("the pod outlived its last owner")
	}
}

// TestCollectorRestart: a collector that crashes while the ReplicaSet is
// being deleted in the foreground finishes the job after its restart, from
// a fresh list.
func TestCollectorRestart(t *testing.T) {
	e := newEnv(t, cluster.Config{Seed: 9}, loadFrontend(t))
	e.c.At(19*time.Second, e.gc.Crash)
	e.user(t, 20*time.Second, deleteRS(client.Foreground))
	e.c.At(40*time.Second, func() {
		if err := e.gc.Restart(); err != nil {
			t.Error(err)
		}
	})
	e.c.RunFor(35 * time.Second)
	if e.get(api.KindReplicaSet, rsKey) == nil || len(e.pods()) != 3 {
		t.Fatal("something was collected while the collector was down")
	}
	e.c.RunFor(30 * time.Second)
	if e.get(api.KindReplicaSet, rsKey) != nil || len(e.pods()) != 0 {
		t.Errorf("after the restart: ReplicaSet present %v, pods %v", e.get(api.KindReplicaSet, rsKey) != nil, podNames(e.pods()))
	}
}

// TestLossyCascades deletes a Deployment chain over a lossy network for
// several seeds: everything goes, nothing else does, and a seed replays
// exactly.
func TestLossyCascades(t *testing.T) {
	link := netsim.LinkConfig{Latency: netsim.Latency{Base: time.Millisecond, Jitter: 4 * time.Millisecond}, Drop: 0.05, Duplicate: 0.03}
	run := func(seed uint64, policy client.Propagation) (*env, string) {
		bystander := loadFrontend(t)
		bystander.Name = "bystander"
		bystander.Spec.Selector.MatchLabels = map[string]string{"tier": "bystander"}
		bystander.Spec.Template.Labels = map[string]string{"tier": "bystander"}
		e := newEnv(t, cluster.Config{Seed: seed, Link: link}, bystander)
		chain(t, e)
		e.user(t, 2*time.Minute, func(ctx context.Context, cl client.Client, p *kernel.Process) error {
			var err error
			for range 20 {
				err = cl.Delete(ctx, api.KindDeployment, rsKey, client.PropagationPolicy(policy))
				if err == nil || errors.Is(err, apierr.ErrNotFound) {
					return nil
				}
				p.Sleep(time.Second)
			}
			return err
		})
		e.c.RunFor(10 * time.Minute)
		return e, e.c.TraceHash()
	}
	for seed := range uint64(10) {
		policy := []client.Propagation{client.Background, client.Foreground, client.Orphan}[seed%3]
		e, hash := run(seed, policy)
		var names []string
		for _, p := range e.pods() {
			if p.Labels["tier"] == "frontend" {
				names = append(names, p.Name)
			}
		}
		wantFrontend := 0
		if policy == client.Orphan {
			wantFrontend = 3 // the ReplicaSet keeps them; only the Deployment goes
		}
		if e.get(api.KindDeployment, rsKey) != nil || len(names) != wantFrontend {
			t.Errorf("seed %d %s: deployment present %v, frontend pods %v", seed, policy, e.get(api.KindDeployment, rsKey) != nil, names)
		}
		if rsLeft := e.get(api.KindReplicaSet, rsKey) != nil; rsLeft != (policy == client.Orphan) {
			t.Errorf("seed %d %s: ReplicaSet present %v", seed, policy, rsLeft)
		}
		if b := e.get(api.KindReplicaSet, api.Key{Namespace: "default", Name: "bystander"}); b == nil || len(e.pods())-len(names) != 3 {
			t.Errorf("seed %d %s: the bystander ReplicaSet or its pods were touched", seed, policy)
		}
		if seed < 3 {
			if _, again := run(seed, policy); again != hash {
				t.Errorf("seed %d: two runs gave different traces", seed)
			}
		}
	}
}

func ptr[T any](v T) *T { return &v }

// TestCustomKindDefinedDuringRun: a CustomResourceDefinition created
// while the collector runs makes its kind monitored, so that deleting a
// custom resource created after it collects the ConfigMap it owns; a
// ConfigMap owned by a custom resource of a kind defined before the
// collector started is collected the same way (the control). The owner
// lives five minutes: by then the rate-limited re-checks of an owner the
// collector does not watch (a virtual node) are minutes apart, so only a
// watch of the new kind collects the ConfigMap within seconds.
func TestCustomKindDefinedDuringRun(t *testing.T) {
	objs, err := manifest.DecodeFile("../../testdata/custom-resources/widgets-crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	crd := objs[0].(*api.CustomResourceDefinition)
	widget := api.Kind{Group: "example.com", Name: "Widget"}
	for _, tc := range []struct {
		name string
		// defineAt is when a user creates the definition; 0 bootstraps
		// it before the collector starts.
		defineAt time.Duration
	}{
		{"defined at start", 0},
		{"defined during the run", 5 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var boot []api.Object
			if tc.defineAt == 0 {
				boot = append(boot, crd.DeepCopyObject())
			}
			e := newEnv(t, cluster.Config{Seed: 9}, boot...)
			if tc.defineAt > 0 {
				e.user(t, tc.defineAt, func(ctx context.Context, cl client.Client, p *kernel.Process) error {
					_, err := cl.Create(ctx, crd.DeepCopyObject())
					return err
				})
			}
			key := api.Key{Namespace: "default", Name: "gear"}
			cmKey := api.Key{Namespace: "default", Name: "gear-config"}
			e.user(t, 10*time.Second, func(ctx context.Context, cl client.Client, p *kernel.Process) error {
				w := &api.Unstructured{TypeMeta: api.TypeMeta{APIVersion: "example.com/v1", Kind: "Widget"}, ObjectMeta: api.ObjectMeta{Namespace: key.Namespace, Name: key.Name}}
				w.Set("spec.replicas", 2)
				o, err := cl.Create(ctx, w)
				if err != nil {
					return err
				}
				cm := &api.ConfigMap{ObjectMeta: api.ObjectMeta{Namespace: cmKey.Namespace, Name: cmKey.Name, OwnerReferences: []api.OwnerReference{api.NewControllerRef(o)}}}
				_, err = cl.Create(ctx, cm)
				return err
			})
			del := 5 * time.Minute
			e.user(t, del, func(ctx context.Context, cl client.Client, p *kernel.Process) error {
				return cl.Delete(ctx, widget, key)
			})
			e.c.RunFor(del - time.Second)
			monitored := false
			for _, inf := range e.gc.Factory().Informers() {
				monitored = monitored || inf.Kind() == widget
			}
			if !monitored {
				t.Error("the collector has no informer of Widgets")
			}
			if e.get(api.KindConfigMap, cmKey) == nil {
				t.Fatal("the ConfigMap was not created, or collected while its owner lived")
			}
			e.c.RunFor(time.Minute)
			if e.get(widget, key) != nil {
				t.Fatal("the Widget survived its deletion")
			}
			at, ok := e.removedAt(api.KindConfigMap, cmKey)
			if !ok {
				t.Fatal("the ConfigMap owned by the deleted Widget was not collected")
			}
			if at < kernel.Time(del) || at > kernel.Time(del+2*time.Second) {
				t.Errorf("the ConfigMap was removed at %v, want within 2s of its owner's deletion at %v", time.Duration(at), del)
			}
		})
	}
}
