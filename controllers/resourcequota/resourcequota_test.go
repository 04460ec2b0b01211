package resourcequota_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/controllers/resourcequota"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/manifest"
	"github.com/clustersim/clustersim/sim/netsim"
)

// quotaPodCluster is a cluster with the quota-pod.yaml quota (pods: 2)
// and the resource quota controller running.
func quotaPodCluster(t *testing.T) (*cluster.Cluster, *controller.Manager) {
	t.Helper()
	c, err := cluster.New(cluster.Config{Seed: 1, Link: netsim.LinkConfig{Latency: netsim.Latency{Base: time.Millisecond}}})
	if err != nil {
		t.Fatal(err)
	}
	objs, err := manifest.DecodeFile("../../testdata/kubernetes-docs/quota-pod.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Bootstrap(objs...); err != nil {
		t.Fatal(err)
	}
	m := c.AddManager("resourcequota", resourcequota.Actor, func(m *controller.Manager) error {
		return resourcequota.Setup(m, resourcequota.Options{})
	})
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	return c, m
}

func TestQuotaStatusAndReplenishment(t *testing.T) {
	c, _ := quotaPodCluster(t)
	cl := c.Client("user/alice", "alice")
	ctx := context.Background()
	var errs []error
	pod := func(name string) *api.Pod {
		return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"}, Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}}
	}
	c.Go("alice", func(p *kernel.Process) {
		p.Sleep(5 * time.Second) // the controller fills in the quota's status
		for _, n := range []string{"a", "b", "c"} {
			_, err := cl.Create(ctx, pod(n))
			errs = append(errs, err)
		}
		errs = append(errs, cl.Delete(ctx, api.KindPod, api.Key{Namespace: "default", Name: "a"}))
		p.Sleep(5 * time.Second) // replenishment
		_, err := cl.Create(ctx, pod("d"))
		errs = append(errs, err)
	})
	c.RunFor(time.Minute)
	if len(errs) != 5 {
		t.Fatalf("user did %d steps, want 5", len(errs))
	}
	for i, want := range []bool{true, true, false, true, true} {
		if (errs[i] == nil) != want {
			t.Errorf("step %d: err = %v", i, errs[i])
		}
	}
	if want := `pods "c" is forbidden: exceeded quota: pod-demo, requested: pods=1, used: pods=2, limited: pods=2`; errs[2] == nil || errs[2].Error() != want || !errors.Is(errs[2], apierr.ErrForbidden) {
		t.Errorf("third pod: %v\nwant %s", errs[2], want)
	}
	q, err := c.Store.Get(api.KindResourceQuota, api.Key{Namespace: "default", Name: "pod-demo"})
	if err != nil {
		t.Fatal(err)
	}
	used := q.(*api.ResourceQuota).Status.Used[api.ResourcePods]
	if used.String() != "2" {
		t.Errorf("status.used.pods = %s, want 2", used.String())
	}
}

// TestQuotaCountsFurtherKinds: a quota on claims, storage and Secrets is
// recalculated from those objects when the controller is given their
// kinds (the runner passes scenarios.QuotaKinds), as upstream's
// controller counts every resource a quota names; without them the
// resync reset every such usage to 0.
func TestQuotaCountsFurtherKinds(t *testing.T) {
	c, err := cluster.New(cluster.Config{Seed: 1, Link: netsim.LinkConfig{Latency: netsim.Latency{Base: time.Millisecond}}})
	if err != nil {
		t.Fatal(err)
	}
	hard := api.ResourceList{}
	for _, n := range []string{"persistentvolumeclaims=10", "requests.storage=100Gi", "fast.storageclass.storage.k8s.io/requests.storage=50Gi", "count/secrets=5", "secrets=5"} {
		k, v, _ := strings.Cut(n, "=")
		hard[api.ResourceName(k)] = api.MustParseQuantity(v)
	}
	claim := func(name, class, size string) *api.PersistentVolumeClaim {
		cl := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"}}
		if class != "" {
			cl.Spec.StorageClassName = &class
		}
		cl.Spec.AccessModes = []string{api.ReadWriteOnce}
		cl.Spec.Resources.Requests = api.ResourceList{api.ResourceStorage: api.MustParseQuantity(size)}
		return cl
	}
	if err := c.Bootstrap(
		&api.ResourceQuota{ObjectMeta: api.ObjectMeta{Name: "storage", Namespace: "default"}, Spec: api.ResourceQuotaSpec{Hard: hard}},
		claim("data-0", "fast", "8Gi"), claim("data-1", "fast", "8Gi"), claim("uploads", "", "20Gi"),
		&api.Secret{ObjectMeta: api.ObjectMeta{Name: "a", Namespace: "default"}},
		&api.Secret{ObjectMeta: api.ObjectMeta{Name: "b", Namespace: "default"}},
		// A scoped quota counts only the pods in its scope.
		&api.ResourceQuota{ObjectMeta: api.ObjectMeta{Name: "besteffort", Namespace: "default"}, Spec: api.ResourceQuotaSpec{
			Hard: api.ResourceList{api.ResourcePods: api.MustParseQuantity("5")}, Scopes: []api.ResourceQuotaScope{api.ResourceQuotaScopeBestEffort}}},
		&api.Pod{ObjectMeta: api.ObjectMeta{Name: "be", Namespace: "default"}, Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}},
		&api.Pod{ObjectMeta: api.ObjectMeta{Name: "burstable", Namespace: "default"}, Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx",
			Resources: api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: api.MustParseQuantity("100m")}}}}}},
	); err != nil {
		t.Fatal(err)
	}
	var kinds []api.Kind
	for name := range hard {
		if k, ok := api.QuotaCountedKind(name); ok && !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
	}
	slices.SortFunc(kinds, api.Kind.Compare)
	m := c.AddManager("resourcequota", resourcequota.Actor, func(m *controller.Manager) error {
		return resourcequota.Setup(m, resourcequota.Options{Kinds: kinds})
	})
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	c.RunFor(10 * time.Second)
	q, err := c.Store.Get(api.KindResourceQuota, api.Key{Namespace: "default", Name: "storage"})
	if err != nil {
		t.Fatal(err)
	}
	used := q.(*api.ResourceQuota).Status.Used
	var got []string
	for _, n := range used.SortedNames() {
		got = append(got, string(n)+"="+used[n].String())
	}
	want := "count/secrets=2 fast.storageclass.storage.k8s.io/requests.storage=16Gi persistentvolumeclaims=3 requests.storage=36Gi secrets=2"
	if g := strings.Join(got, " "); g != want {
		t.Errorf("status.used = %s\nwant %s", g, want)
	}
	be, err := c.Store.Get(api.KindResourceQuota, api.Key{Namespace: "default", Name: "besteffort"})
	if err != nil {
		t.Fatal(err)
	}
	if used := be.(*api.ResourceQuota).Status.Used[api.ResourcePods]; used.String() != "1" {
		t.Errorf("BestEffort quota: status.used.pods = %s, want 1", used.String())
	}
}

// TestQuotaCountsObjectsBeingDeleted: an object held by a finalizer after
// its deletion is still stored, and upstream's CalculateUsageStats counts
// every object its lister holds: a ConfigMap being deleted keeps its
// place in configmaps and count/configmaps until it is gone.
func TestQuotaCountsObjectsBeingDeleted(t *testing.T) {
	c, err := cluster.New(cluster.Config{Seed: 1, Link: netsim.LinkConfig{Latency: netsim.Latency{Base: time.Millisecond}}})
	if err != nil {
		t.Fatal(err)
	}
	hard := api.ResourceList{api.ResourceConfigMaps: api.MustParseQuantity("5"), "count/configmaps": api.MustParseQuantity("5")}
	if err := c.Bootstrap(
		&api.ResourceQuota{ObjectMeta: api.ObjectMeta{Name: "objects", Namespace: "default"}, Spec: api.ResourceQuotaSpec{Hard: hard}},
		&api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "held", Namespace: "default", Finalizers: []string{"example.com/hold"}}},
		&api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "plain", Namespace: "default"}},
	); err != nil {
		t.Fatal(err)
	}
	m := c.AddManager("resourcequota", resourcequota.Actor, func(m *controller.Manager) error {
		return resourcequota.Setup(m, resourcequota.Options{})
	})
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	cl := c.Client("user/alice", "alice")
	var errs []error
	c.Go("alice", func(p *kernel.Process) {
		p.Sleep(5 * time.Second)
		for _, n := range []string{"held", "plain"} {
			errs = append(errs, cl.Delete(context.Background(), api.KindConfigMap, api.Key{Namespace: "default", Name: n}))
		}
	})
	c.RunFor(20 * time.Second)
	if err := errors.Join(errs...); err != nil || len(errs) != 2 {
		t.Fatalf("deletes: %v (%d)", err, len(errs))
	}
	held, err := c.Store.Get(api.KindConfigMap, api.Key{Namespace: "default", Name: "held"})
	if err != nil || held.GetObjectMeta().DeletionTimestamp == nil {
		t.Fatalf("held ConfigMap %v, %v: want it stored with a deletionTimestamp", held, err)
	}
	q, err := c.Store.Get(api.KindResourceQuota, api.Key{Namespace: "default", Name: "objects"})
	if err != nil {
		t.Fatal(err)
	}
	used := q.(*api.ResourceQuota).Status.Used
	for _, name := range []api.ResourceName{api.ResourceConfigMaps, "count/configmaps"} {
		if v := used[name]; v.String() != "1" {
			t.Errorf("status.used[%s] = %s, want 1 (the ConfigMap being deleted)", name, v.String())
		}
	}
}

// TestQuotaSyncsOnlyWhenUsageGoesBack: the admission plugin charges what
// is created and the controller is not asked to recount on creates,
// status writes or label changes (upstream's QuotaMonitor has no AddFunc
// and filters updates); a delete is synced at once. Planted (every pod
// change enqueuing the namespace's quotas, as before), the label changes
// cost a recount each and the test fails.
func TestQuotaSyncsOnlyWhenUsageGoesBack(t *testing.T) {
	c, m := quotaPodCluster(t)
	reconciles := func() uint64 { return m.Controllers()[0].Metrics().Reconciles }
	cl := c.Client("user/alice", "alice")
	ctx := context.Background()
	var counts []uint64
	var errs []error
	c.Go("alice", func(p *kernel.Process) {
		p.Sleep(5 * time.Second) // the controller fills in the quota's status
		counts = append(counts, reconciles())
		_, err := cl.Create(ctx, &api.Pod{ObjectMeta: api.ObjectMeta{Name: "a", Namespace: "default"}, Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}})
		errs = append(errs, err)
		for i := range 20 {
			o, err := cl.Get(ctx, api.KindPod, api.Key{Namespace: "default", Name: "a"})
			if err != nil {
				errs = append(errs, err)
				return
			}
			pod := o.(*api.Pod)
			pod.Labels = map[string]string{"round": strings.Repeat("x", i+1)}
			_, err = cl.Update(ctx, pod)
			errs = append(errs, err)
		}
		p.Sleep(5 * time.Second)
		counts = append(counts, reconciles())
		errs = append(errs, cl.Delete(ctx, api.KindPod, api.Key{Namespace: "default", Name: "a"}))
		p.Sleep(5 * time.Second)
		counts = append(counts, reconciles())
	})
	c.RunFor(time.Minute)
	for i, err := range errs {
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	if len(counts) != 3 {
		t.Fatalf("counts %v", counts)
	}
	if counts[0] == 0 {
		t.Errorf("the quota was never synced")
	}
	if counts[1] != counts[0] {
		t.Errorf("a create and 20 label changes made %d recounts, want none", counts[1]-counts[0])
	}
	if counts[2] != counts[1]+1 {
		t.Errorf("the delete made %d recounts, want 1", counts[2]-counts[1])
	}
}
