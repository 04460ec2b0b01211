package replicaset_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/controllers/replicaset"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/manifest"
	"github.com/clustersim/clustersim/sim/netsim"
	"github.com/clustersim/clustersim/sim/store"
)

// End-to-end tests: the real controller in a manager, talking to the API
// server across the simulated network, with a user process acting through
// its own client.

const frontendManifest = "../../testdata/kubernetes-docs/frontend-replicaset.yaml"

var frontendKey = api.Key{Namespace: "default", Name: "frontend"}

// loadFrontend decodes the docs' frontend ReplicaSet (3 replicas).
func loadFrontend(t testing.TB) *api.ReplicaSet {
	t.Helper()
	objs, err := manifest.DecodeFile(frontendManifest)
	if err != nil {
		t.Fatal(err)
	}
	rs, ok := objs[0].(*api.ReplicaSet)
	if len(objs) != 1 || !ok {
		t.Fatalf("%s: want one ReplicaSet, got %d objects", frontendManifest, len(objs))
	}
	return rs
}

// newCluster builds a cluster with objs bootstrapped and the ReplicaSet
// controller started.
func newCluster(t testing.TB, cfg cluster.Config, objs ...api.Object) (*cluster.Cluster, *controller.Manager) {
	t.Helper()
	c, err := cluster.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Bootstrap(objs...); err != nil {
		t.Fatal(err)
	}
	m := c.AddManager("kube-controller-manager/replicaset", replicaset.Actor, func(m *controller.Manager) error {
		return replicaset.Setup(m, replicaset.Options{})
	})
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	return c, m
}

// getRS returns the stored ReplicaSet.
func getRS(t testing.TB, c *cluster.Cluster, key api.Key) *api.ReplicaSet {
	t.Helper()
	o, err := c.Store.Get(api.KindReplicaSet, key)
	if err != nil {
		t.Fatal(err)
	}
	return o.(*api.ReplicaSet)
}

// ownedPods returns the stored active pods rs controls, by name.
func ownedPods(c *cluster.Cluster, rs *api.ReplicaSet) []*api.Pod {
	objs, _, _ := c.Store.List(api.KindPod, store.ListOptions{Namespace: rs.Namespace})
	var out []*api.Pod
	for _, o := range objs {
		p := o.(*api.Pod)
		if api.IsControlledBy(p, rs) && replicaset.IsPodActive(p) {
			out = append(out, p)
		}
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

// events returns the stored events about the object named name, as
// "Type Reason Message".
func events(c *cluster.Cluster, name string) []string {
	objs, _, _ := c.Store.List(api.KindEvent, store.ListOptions{Namespace: "default"})
	var out []string
	for _, o := range objs {
		e := o.(*api.Event)
		if e.InvolvedObject.Name == name {
			out = append(out, e.Type+" "+e.Reason+" "+e.Message)
		}
	}
	return out
}

func countPrefix(list []string, prefix string) int {
	n := 0
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			n++
		}
	}
	return n
}

// user runs fn as a user process at virtual time at.
func user(c *cluster.Cluster, at time.Duration, fn func(ctx context.Context, cl client.Client, p *kernel.Process)) {
	cl := c.Client(netsim.Addr("user/admin"), "admin")
	c.At(at, func() {
		c.Go("user", func(p *kernel.Process) { fn(context.Background(), cl, p) })
	})
}

// update changes a ReplicaSet read-modify-write, retrying on any error (a
// lossy network loses requests and replies).
func update(ctx context.Context, cl client.Client, p *kernel.Process, key api.Key, mutate func(*api.ReplicaSet)) error {
	var err error
	for range 30 {
		var rs *api.ReplicaSet
		rs, err = client.GetAs[*api.ReplicaSet](ctx, cl, key)
		if err == nil {
			mutate(rs)
			if _, err = cl.Update(ctx, rs); err == nil {
				return nil
			}
		}
		p.Sleep(time.Second)
	}
	return err
}

func scaleTo(n int32) func(*api.ReplicaSet) {
	return func(rs *api.ReplicaSet) { rs.Spec.Replicas = &n }
}

func TestFrontendReachesThreeReplicas(t *testing.T) {
	c, _ := newCluster(t, cluster.Config{Seed: 1}, loadFrontend(t))
	c.RunFor(30 * time.Second)
	rs := getRS(t, c, frontendKey)
	pods := ownedPods(c, rs)
	if len(pods) != 3 {
		t.Fatalf("%d pods %v, want 3", len(pods), podNames(pods))
	}
	for _, p := range pods {
		if !strings.HasPrefix(p.Name, "frontend-") || len(p.Name) != len("frontend-")+5 {
			t.Errorf("pod name %q, want frontend-<5 chars>", p.Name)
		}
		if p.Labels["tier"] != "frontend" || p.Spec.Containers[0].Image != "nginx" {
			t.Errorf("pod %s does not carry the template: %+v", p.Name, p)
		}
		ref := api.GetControllerOf(&p.ObjectMeta)
		if ref == nil || ref.UID != rs.UID || ref.Kind != "ReplicaSet" || ref.APIVersion != "apps/v1" || ref.BlockOwnerDeletion == nil || !*ref.BlockOwnerDeletion {
			t.Errorf("pod %s owner reference %+v", p.Name, ref)
		}
	}
	st := rs.Status
	if st.Replicas != 3 || st.FullyLabeledReplicas != 3 || st.ObservedGeneration != rs.Generation || st.ReadyReplicas != 0 ||
		st.TerminatingReplicas == nil || *st.TerminatingReplicas != 0 || len(st.Conditions) != 0 {
		t.Errorf("status %+v, want replicas 3, fullyLabeled 3, observedGeneration %d", st, rs.Generation)
	}
	evs := events(c, "frontend")
	for _, p := range pods {
		if !slices.Contains(evs, "Normal SuccessfulCreate Created pod: "+p.Name) {
			t.Errorf("no SuccessfulCreate event for %s in %v", p.Name, evs)
		}
	}
	// Status is written by the controller's identity through the status
	// subresource only.
	for _, r := range c.Store.Audit().Records() {
		if r.Kind == api.KindReplicaSet && r.Actor == replicaset.Actor && r.Subresource != "status" {
			t.Errorf("controller wrote the main resource: %v", r)
		}
	}
}

func TestScaleUpAndDown(t *testing.T) {
	c, _ := newCluster(t, cluster.Config{Seed: 2}, loadFrontend(t))
	user(c, 20*time.Second, func(ctx context.Context, cl client.Client, p *kernel.Process) {
		if err := update(ctx, cl, p, frontendKey, scaleTo(7)); err != nil {
			t.Error(err)
		}
	})
	c.RunFor(40 * time.Second)
	rs := getRS(t, c, frontendKey)
	if n := len(ownedPods(c, rs)); n != 7 || rs.Status.Replicas != 7 || rs.Status.ObservedGeneration != 2 || rs.Generation != 2 {
		t.Fatalf("after scaling up: %d pods, status %+v, generation %d; want 7 pods, observedGeneration 2", n, rs.Status, rs.Generation)
	}
	before := ownedPods(c, rs)
	user(c, 60*time.Second, func(ctx context.Context, cl client.Client, p *kernel.Process) {
		if err := update(ctx, cl, p, frontendKey, scaleTo(2)); err != nil {
			t.Error(err)
		}
	})
	c.RunFor(40 * time.Second)
	rs = getRS(t, c, frontendKey)
	after := ownedPods(c, rs)
	if len(after) != 2 || rs.Status.Replicas != 2 || rs.Status.ObservedGeneration != 3 {
		t.Fatalf("after scaling down: %d pods, status %+v; want 2, observedGeneration 3", len(after), rs.Status)
	}
	if got := countPrefix(events(c, "frontend"), "Normal SuccessfulDelete Deleted pod: "); got != 5 {
		t.Errorf("%d SuccessfulDelete events, want 5", got)
	}
	// Scaling down only deletes: the survivors are pods that were there.
	for _, p := range after {
		if !slices.Contains(podNames(before), p.Name) {
			t.Errorf("survivor %s was not there before", p.Name)
		}
	}
}

func TestDeletedPodIsReplaced(t *testing.T) {
	c, _ := newCluster(t, cluster.Config{Seed: 3}, loadFrontend(t))
	c.RunFor(20 * time.Second)
	rs := getRS(t, c, frontendKey)
	before := podNames(ownedPods(c, rs))
	if len(before) != 3 {
		t.Fatalf("%d pods before, want 3", len(before))
	}
	victim := before[1]
	user(c, 20*time.Second, func(ctx context.Context, cl client.Client, p *kernel.Process) {
		if err := cl.Delete(ctx, api.KindPod, api.Key{Namespace: "default", Name: victim}); err != nil {
			t.Error(err)
		}
	})
	c.RunFor(20 * time.Second)
	after := podNames(ownedPods(c, rs))
	if len(after) != 3 || slices.Contains(after, victim) {
		t.Fatalf("pods after deleting %s: %v; want 3 others", victim, after)
	}
	fresh := 0
	for _, n := range after {
		if !slices.Contains(before, n) {
			fresh++
		}
	}
	if fresh != 1 {
		t.Errorf("%d new pods (%v → %v), want 1 replacement with a new name", fresh, before, after)
	}
}

func TestTerminatingPodIsReplacedAtOnce(t *testing.T) {
	rs := loadFrontend(t)
	c, _ := newCluster(t, cluster.Config{Seed: 4}, rs)
	c.RunFor(20 * time.Second)
	rs = getRS(t, c, frontendKey)
	pods := ownedPods(c, rs)
	// A pod bound to a node gets a grace period: it terminates, and the
	// ReplicaSet replaces it without waiting.
	victim := pods[0].Name
	user(c, 20*time.Second, func(ctx context.Context, cl client.Client, p *kernel.Process) {
		patch := []byte(`{"spec":{"nodeName":"node-1"}}`)
		if _, err := cl.Patch(ctx, api.KindPod, api.Key{Namespace: "default", Name: victim}, client.MergePatch, patch); err != nil {
			t.Error(err)
			return
		}
		if err := cl.Delete(ctx, api.KindPod, api.Key{Namespace: "default", Name: victim}); err != nil {
			t.Error(err)
		}
	})
	c.RunFor(20 * time.Second)
	rs = getRS(t, c, frontendKey)
	if _, err := c.Store.Get(api.KindPod, api.Key{Namespace: "default", Name: victim}); err != nil {
		t.Fatalf("the terminating pod is gone already: %v", err)
	}
	if n := len(ownedPods(c, rs)); n != 3 {
		t.Errorf("%d active pods while one terminates, want 3", n)
	}
	if rs.Status.Replicas != 3 || rs.Status.TerminatingReplicas == nil || *rs.Status.TerminatingReplicas != 1 {
		t.Errorf("status %+v, want replicas 3, terminatingReplicas 1", rs.Status)
	}
}

func TestOrphanIsAdopted(t *testing.T) {
	orphan := &api.Pod{
		TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{Name: "stray", Namespace: "default", Labels: map[string]string{"tier": "frontend"}},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx"}}},
	}
	other := &api.Pod{
		TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{Name: "unrelated", Namespace: "default", Labels: map[string]string{"tier": "backend"}},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx"}}},
	}
	c, _ := newCluster(t, cluster.Config{Seed: 5}, orphan, other, loadFrontend(t))
	c.RunFor(30 * time.Second)
	rs := getRS(t, c, frontendKey)
	pods := ownedPods(c, rs)
	if len(pods) != 3 || !slices.Contains(podNames(pods), "stray") {
		t.Fatalf("owned pods %v, want 3 including the adopted stray", podNames(pods))
	}
	if rs.Status.Replicas != 3 {
		t.Errorf("status.replicas %d, want 3", rs.Status.Replicas)
	}
	if got := countPrefix(events(c, "frontend"), "Normal SuccessfulCreate"); got != 2 {
		t.Errorf("%d pods created, want 2 (one adopted)", got)
	}
	o, _ := c.Store.Get(api.KindPod, api.Key{Namespace: "default", Name: "unrelated"})
	if refs := o.GetObjectMeta().OwnerReferences; len(refs) != 0 {
		t.Errorf("a pod the selector does not match was adopted: %+v", refs)
	}
	// A label change releases the pod, and a replacement is made.
	user(c, 30*time.Second, func(ctx context.Context, cl client.Client, p *kernel.Process) {
		patch := []byte(`{"metadata":{"labels":{"tier":"debug"}}}`)
		if _, err := cl.Patch(ctx, api.KindPod, api.Key{Namespace: "default", Name: "stray"}, client.MergePatch, patch); err != nil {
			t.Error(err)
		}
	})
	c.RunFor(30 * time.Second)
	o, _ = c.Store.Get(api.KindPod, api.Key{Namespace: "default", Name: "stray"})
	if refs := o.GetObjectMeta().OwnerReferences; len(refs) != 0 {
		t.Errorf("released pod still has owner references %+v", refs)
	}
	if pods := ownedPods(c, rs); len(pods) != 3 || slices.Contains(podNames(pods), "stray") {
		t.Errorf("owned pods %v, want 3 without stray", podNames(pods))
	}
}

// quota is an admission plugin that rejects pod creates while on, with
// the ResourceQuota admission message.
type quota struct{ on bool }

const quotaMsg = "exceeded quota: compute-resources, requested: pods=1, used: pods=0, limited: pods=0"

func (q *quota) Name() string { return "TestQuota" }

func (q *quota) Admit(a *apiserver.Attributes) error {
	if q.on && a.Verb == apiserver.Create && a.Kind == api.KindPod {
		return apierr.NewForbidden("pods", a.Object.GetObjectMeta().Name, quotaMsg)
	}
	return nil
}

func TestRejectedCreatesSetReplicaFailure(t *testing.T) {
	c, err := cluster.New(cluster.Config{Seed: 6})
	if err != nil {
		t.Fatal(err)
	}
	q := &quota{on: true}
	c.API.AddValidating(q)
	if err := c.Bootstrap(loadFrontend(t)); err != nil {
		t.Fatal(err)
	}
	m := c.AddManager("kube-controller-manager/replicaset", replicaset.Actor, func(m *controller.Manager) error {
		return replicaset.Setup(m, replicaset.Options{})
	})
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	c.RunFor(20 * time.Second)
	rs := getRS(t, c, frontendKey)
	// The API server names the pod before admission, so the message
	// carries the generated name: `pods "frontend-xxxxx" is forbidden: ...`.
	cond := replicaset.GetCondition(rs.Status, api.ReplicaSetReplicaFailure)
	if cond == nil || cond.Status != api.ConditionTrue || cond.Reason != "FailedCreate" ||
		!strings.HasPrefix(cond.Message, `pods "frontend-`) || !strings.HasSuffix(cond.Message, `" is forbidden: `+quotaMsg) {
		t.Fatalf("condition %+v, want ReplicaFailure True FailedCreate with the quota message", cond)
	}
	evs := events(c, "frontend")
	if !slices.Contains(evs, "Warning FailedCreate Error creating: "+cond.Message) {
		t.Errorf("no FailedCreate event in %v", evs)
	}
	if n := len(ownedPods(c, rs)); n != 0 {
		t.Errorf("%d pods created despite the quota", n)
	}
	// Slow start: every sync makes one doomed create, no more.
	creates := 0
	for _, s := range c.API.Stats() {
		if s.Actor == replicaset.Actor && s.Verb == apiserver.Create && s.Kind == api.KindPod {
			creates += int(s.Count)
		}
	}
	syncs := m.Controllers()[0].Metrics().Errors
	if uint64(creates) != syncs {
		t.Errorf("%d create calls in %d failed syncs, want one each", creates, syncs)
	}
	c.At(20*time.Second, func() { q.on = false })
	c.RunFor(3 * time.Minute)
	rs = getRS(t, c, frontendKey)
	if n := len(ownedPods(c, rs)); n != 3 || rs.Status.Replicas != 3 {
		t.Fatalf("%d pods, status.replicas %d after the quota lifted; want 3", n, rs.Status.Replicas)
	}
	if cond := replicaset.GetCondition(rs.Status, api.ReplicaSetReplicaFailure); cond != nil {
		t.Errorf("ReplicaFailure %+v still set after creates succeed", cond)
	}
}

// lossyRun runs one seeded scenario over a network that drops 5% and
// duplicates 3% of requests and replies: scale 3 → 6, delete two pods,
// scale to 2, then a quiet period. It returns the final pod count, the
// stored ReplicaSet and the trace hash.
func lossyRun(t testing.TB, seed uint64) (int, *api.ReplicaSet, string) {
	link := netsim.LinkConfig{
		Latency:   netsim.Latency{Base: time.Millisecond, Jitter: 4 * time.Millisecond},
		Drop:      0.05,
		Duplicate: 0.03,
	}
	c, _ := newCluster(t, cluster.Config{Seed: seed, Link: link, RequestTimeout: 2 * time.Second}, loadFrontend(t))
	user(c, 15*time.Second, func(ctx context.Context, cl client.Client, p *kernel.Process) {
		if err := update(ctx, cl, p, frontendKey, scaleTo(6)); err != nil {
			t.Errorf("seed %d: scale to 6: %v", seed, err)
		}
		p.Sleep(30 * time.Second)
		l, err := cl.List(ctx, api.KindPod, client.InNamespace("default"))
		for range 10 {
			if err == nil {
				break
			}
			p.Sleep(time.Second)
			l, err = cl.List(ctx, api.KindPod, client.InNamespace("default"))
		}
		if err != nil {
			t.Errorf("seed %d: list pods: %v", seed, err)
			return
		}
		for _, o := range l.Items[:min(2, len(l.Items))] {
			err := cl.Delete(ctx, api.KindPod, o.GetObjectMeta().Key())
			if err != nil && !errors.Is(err, apierr.ErrNotFound) && !errors.Is(err, apierr.ErrTimeout) {
				t.Errorf("seed %d: delete: %v", seed, err)
			}
		}
		p.Sleep(30 * time.Second)
		if err := update(ctx, cl, p, frontendKey, scaleTo(2)); err != nil {
			t.Errorf("seed %d: scale to 2: %v", seed, err)
		}
	})
	c.RunFor(5 * time.Minute)
	rs := getRS(t, c, frontendKey)
	if testing.Verbose() {
		var creates, deletes, errs uint64
		for _, s := range c.API.Stats() {
			if s.Actor == replicaset.Actor && s.Kind == api.KindPod {
				switch s.Verb {
				case apiserver.Create:
					creates += s.Count
				case apiserver.Delete:
					deletes += s.Count
				}
			}
		}
		errs = c.Managers()[0].Controllers()[0].Metrics().Errors
		t.Logf("seed %d: pod creates %d, deletes %d, failed syncs %d, network %+v", seed, creates, deletes, errs, c.Net.Stats())
	}
	return len(ownedPods(c, rs)), rs, c.TraceHash()
}

func TestLossyNetworkConverges(t *testing.T) {
	seeds := 50
	if testing.Short() {
		seeds = 10
	}
	for seed := range uint64(seeds) {
		n, rs, hash := lossyRun(t, seed)
		if n != 2 {
			t.Errorf("seed %d: %d pods after the quiet period, want 2", seed, n)
		}
		if rs.Status.Replicas != 2 || rs.Status.ObservedGeneration != rs.Generation {
			t.Errorf("seed %d: status %+v, generation %d; want replicas 2, generation observed", seed, rs.Status, rs.Generation)
		}
		if cond := replicaset.GetCondition(rs.Status, api.ReplicaSetReplicaFailure); cond != nil {
			t.Errorf("seed %d: ReplicaFailure %+v left after convergence", seed, cond)
		}
		if _, _, again := lossyRun(t, seed); again != hash {
			t.Errorf("seed %d: two runs gave different traces", seed)
		}
	}
}

// TestLossyRunsDiffer makes sure the lossy scenario is not trivially the
// same for every seed: the faults really happen.
func TestLossyRunsDiffer(t *testing.T) {
	_, _, a := lossyRun(t, 100)
	_, _, b := lossyRun(t, 101)
	if a == b {
		t.Error("seeds 100 and 101 gave the same trace")
	}
}

// TestCrashForgetsExpectations: a controller crash in the middle of
// creating loses its expectations and cache; after a restart it relists
// and converges without creating extra pods.
func TestCrashForgetsExpectations(t *testing.T) {
	rs := loadFrontend(t)
	n := int32(20)
	rs.Spec.Replicas = &n
	c, m := newCluster(t, cluster.Config{Seed: 7, Link: netsim.LinkConfig{Latency: netsim.Latency{Base: 5 * time.Millisecond}}}, rs)
	var atCrash int
	c.At(40*time.Millisecond, func() {
		atCrash = c.Store.Len(api.KindPod)
		m.Crash()
	})
	c.At(2*time.Second, func() {
		if err := m.Restart(); err != nil {
			t.Error(err)
		}
	})
	c.RunFor(time.Minute)
	got := getRS(t, c, frontendKey)
	if pods := ownedPods(c, got); len(pods) != 20 || got.Status.Replicas != 20 {
		t.Errorf("%d pods, status.replicas %d after a crash mid-creation; want 20", len(pods), got.Status.Replicas)
	}
	if atCrash == 0 || atCrash >= 20 {
		t.Errorf("%d pods at the crash: it did not interrupt the creation", atCrash)
	}
	if m.Starts() != 2 {
		t.Errorf("manager started %d times, want 2", m.Starts())
	}
}
