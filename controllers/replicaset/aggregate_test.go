package replicaset

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/controller"
)

// TestAggregatesMatchFullPath drives two ReplicaSets with overlapping
// selectors through random pod and ReplicaSet changes (pods created,
// relabelled, orphaned, adopted by either, made ready and unready,
// finished, terminating, deleted, moved to another namespace; selector,
// template label, minReadySeconds, replicas and deletion edits; a
// ReplicaSet re-created with a new UID) and syncs both after each change.
// reconcile fails the test when a sync's fast path differs from the full
// path or an aggregate from a recount (verify.go); the test also fails if
// either path was not taken often, so that it cannot pass vacuously.
func TestAggregatesMatchFullPath(t *testing.T) {
	for seed := range uint64(4) {
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) {
			h := newHarness(BurstReplicas)
			rng := rand.New(rand.NewPCG(seed, 11))
			rsA := newReplicaSet(3, map[string]string{"app": "a"})
			rsA.Name, rsA.UID = "a", "uid-a"
			rsA.Spec.Template.Labels = map[string]string{"app": "a", "tier": "web"}
			rsB := newReplicaSet(4, map[string]string{"app": "b"})
			rsB.Name, rsB.UID = "b", "uid-b"
			rsB.Spec.Template.Labels = map[string]string{"app": "b"}
			rss := []*api.ReplicaSet{rsA, rsB}
			for _, rs := range rss {
				h.addRS(rs)
			}
			names := make([]string, 16)
			for i := range names {
				names[i] = fmt.Sprintf("pod-%02d", i)
			}
			for step := range 400 {
				h.clock.step(time.Second)
				op := randomChange(rng, h, rss, names)
				for i, rs := range rss {
					if rng.IntN(2) == 0 {
						// Act as if every create and delete was
						// observed, so that syncs also manage replicas.
						h.r.exp.Delete(keyOf(rs).String())
					}
					if _, err := reconcile(t, h, rs); err != nil {
						t.Logf("step %d (%s), %s: %v", step, op, rss[i].Name, err)
					}
				}
				if t.Failed() {
					t.Fatalf("step %d: %s", step, op)
				}
			}
			t.Logf("%d fast syncs, %d full syncs", h.r.fastSyncs, h.r.fullSyncs)
			if h.r.fastSyncs < 50 || h.r.fullSyncs < 50 {
				t.Errorf("%d fast and %d full syncs: want at least 50 of each", h.r.fastSyncs, h.r.fullSyncs)
			}
		})
	}
}

// randomChange makes one random change to the cached pods or ReplicaSets
// (always a new object, as an informer delivers) and names it.
func randomChange(rng *rand.Rand, h *harness, rss []*api.ReplicaSet, names []string) string {
	name := names[rng.IntN(len(names))]
	key := api.Key{Namespace: "default", Name: name}
	var p *api.Pod
	if o, ok := h.pods.objs[key]; ok {
		p = o.(*api.Pod).DeepCopy()
	}
	put := func() {
		h.pods.add(p)
		h.client.put(p.DeepCopy())
	}
	pick := func() *api.ReplicaSet { return rss[rng.IntN(len(rss))] }
	now := api.NewTime(h.clock.Now())
	switch n := rng.IntN(20); {
	case n < 5 || p == nil:
		owner := pick()
		p = newPod(name, owner, api.PodRunning, nil, rng.IntN(4) != 0)
		p.UID = api.UID(fmt.Sprintf("uid-%s-%d", name, rng.Uint32()))
		p.Labels = maps.Clone(owner.Spec.Template.Labels)
		if rng.IntN(3) == 0 {
			p.Status.Phase, p.Status.Conditions = api.PodPending, nil
		}
		put()
		return "create " + name
	case n < 7:
		p.Labels = map[string]string{"app": []string{"a", "b", "c"}[rng.IntN(3)]}
		if rng.IntN(2) == 0 {
			p.Labels["tier"] = "web"
		}
		p.ResourceVersion += "1"
		put()
		return "relabel " + name
	case n < 9:
		if rng.IntN(2) == 0 {
			p.OwnerReferences = nil
		} else {
			p.OwnerReferences = []api.OwnerReference{api.NewControllerRef(pick())}
		}
		put()
		return "orphan or adopt " + name
	case n < 12:
		ready := rng.IntN(2) == 0
		p.Status.Phase = api.PodRunning
		p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionFalse, LastTransitionTime: now}}
		if ready {
			p.Status.Conditions[0].Status = api.ConditionTrue
		}
		put()
		return fmt.Sprintf("ready=%v %s", ready, name)
	case n < 13:
		p.Status.Phase = []api.PodPhase{api.PodSucceeded, api.PodFailed}[rng.IntN(2)]
		put()
		return "finish " + name
	case n < 15:
		p.DeletionTimestamp = &now
		put()
		return "terminate " + name
	case n < 17:
		h.pods.remove(key)
		delete(h.client.objs[api.KindPod], key)
		return "delete " + name
	case n < 18:
		// A pod of the same name in another namespace, still referring
		// to a ReplicaSet of default: listed under its UID, never
		// claimed.
		p.Namespace = "other"
		h.pods.add(p)
		return "other namespace " + name
	}
	i := rng.IntN(len(rss))
	rs := rss[i].DeepCopy()
	var what string
	switch rng.IntN(7) {
	case 0:
		rs.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": rs.Name}}
		if rng.IntN(2) == 0 {
			rs.Spec.Selector.MatchLabels["tier"] = "web"
		}
		what = "selector"
	case 1:
		rs.Spec.Template.Labels = map[string]string{"app": rs.Name}
		if rng.IntN(2) == 0 {
			rs.Spec.Template.Labels["tier"] = "web"
		}
		what = "template labels"
	case 2:
		rs.Spec.MinReadySeconds = []int32{0, 0, 5}[rng.IntN(3)]
		what = "minReadySeconds"
	case 3, 4:
		rs.Spec.Replicas = int32p(int32(rng.IntN(8)))
		what = "replicas"
	case 5:
		if rs.DeletionTimestamp == nil {
			rs.DeletionTimestamp = &now
		} else {
			rs.DeletionTimestamp = nil
		}
		what = "deletionTimestamp"
	case 6:
		// Deleted and created again: a new UID, the old one's pods are
		// now someone else's.
		h.r.deleteRS(rs)
		rs.UID = api.UID(fmt.Sprintf("uid-%s-%d", rs.Name, rng.Uint32()))
		what = "re-created"
	}
	rs.Generation++
	rss[i] = rs
	h.addRS(rs)
	return what + " of " + rs.Name
}

// BenchmarkSyncOnePodChange measures a sync after one pod of a ReplicaSet
// of n ready pods became unready or ready again (the status changes every
// time): the fast path, which reads the aggregate, against the full path,
// forced by minReadySeconds 1 (nothing else differs: every pod has been
// ready for an hour). The fast path's cost should not grow with n.
func BenchmarkSyncOnePodChange(b *testing.B) {
	saved := verifyFastPath
	verifyFastPath = nil // the check runs the full path
	defer func() { verifyFastPath = saved }()
	for _, path := range []string{"fast", "full"} {
		for _, n := range []int{100, 1000, 10000} {
			b.Run(fmt.Sprintf("path=%s/pods=%d", path, n), func(b *testing.B) {
				h := newHarness(BurstReplicas)
				rs := newReplicaSet(int32(n), map[string]string{"foo": "bar"})
				if path == "full" {
					rs.Spec.MinReadySeconds = 1
				}
				h.addRS(rs)
				readySince := testEpoch.Add(-time.Hour)
				pods := make([]*api.Pod, n)
				for i := range pods {
					pods[i] = newPod(fmt.Sprintf("pod-%05d", i), rs, api.PodRunning, &readySince, true)
					h.pods.add(pods[i])
				}
				req := controller.Request{Key: keyOf(rs)}
				ctx := context.Background()
				if _, err := h.r.Reconcile(ctx, req); err != nil {
					b.Fatal(err)
				}
				unready := pods[0].DeepCopy()
				unready.Status.Conditions[0].Status = api.ConditionFalse
				fast := h.r.fastSyncs
				i := 0
				for b.Loop() {
					i++
					h.pods.add([]*api.Pod{unready, pods[0]}[i%2])
					if _, err := h.r.Reconcile(ctx, req); err != nil {
						b.Fatal(err)
					}
				}
				if gotFast := h.r.fastSyncs > fast; gotFast != (path == "fast") {
					b.Fatalf("path %s: fast syncs %d -> %d", path, fast, h.r.fastSyncs)
				}
			})
		}
	}
}
