package replicaset_test

import (
	"sort"
	"testing"
	"time"

	"github.com/clustersim/clustersim/controllers/replicaset"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/cluster"
)

// BenchmarkScaleUp measures a ReplicaSet of 500 replicas going from no pod
// to 500 on a perfect network (one BurstReplicas sync of slow-start
// batches, the informer observing every create, the status written):
// pods created per second of wall time.
func BenchmarkScaleUp(b *testing.B) {
	const replicas = 500
	rs := loadFrontend(b)
	n := int32(replicas)
	rs.Spec.Replicas = &n
	for b.Loop() {
		c, _ := newCluster(b, cluster.Config{Seed: 1}, rs)
		c.RunFor(time.Minute)
		got := getRS(b, c, frontendKey)
		if len(ownedPods(c, got)) != replicas || got.Status.Replicas != replicas {
			b.Fatalf("not converged: status %+v", got.Status)
		}
	}
	b.ReportMetric(float64(replicas*b.N)/b.Elapsed().Seconds(), "pods/s")
}

// BenchmarkRankVictims measures choosing 250 of 500 pods to delete with
// ActivePodsWithRanks.
func BenchmarkRankVictims(b *testing.B) {
	now := time.Date(2026, 1, 1, 1, 0, 0, 0, time.UTC)
	pods := make([]*api.Pod, 500)
	for i := range pods {
		pods[i] = &api.Pod{
			ObjectMeta: api.ObjectMeta{Name: "p", UID: api.UID(rune('a' + i%26)), CreationTimestamp: api.NewTime(now.Add(-time.Duration(i) * time.Minute))},
			Spec:       api.PodSpec{NodeName: []string{"", "n1", "n2"}[i%3]},
			Status: api.PodStatus{Phase: api.PodRunning, Conditions: []api.PodCondition{{Type: api.PodReady,
				Status: []api.ConditionStatus{api.ConditionTrue, api.ConditionFalse}[i%2], LastTransitionTime: api.NewTime(now.Add(-time.Duration(i) * time.Second))}}},
		}
	}
	work := make([]*api.Pod, len(pods))
	ranks := make([]int, len(pods))
	for b.Loop() {
		copy(work, pods)
		for i := range ranks {
			ranks[i] = i % 7
		}
		s := replicaset.ActivePodsWithRanks{Pods: work, Rank: ranks, Now: now}
		sortPods(s)
	}
	b.ReportMetric(float64(len(pods)*b.N)/b.Elapsed().Seconds(), "pods/s")
}

func sortPods(s replicaset.ActivePodsWithRanks) { sort.Sort(s) }
