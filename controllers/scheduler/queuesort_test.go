package scheduler

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/workqueue"
)

// podLister serves pods by key to queuePriority.
type podLister map[api.Key]*api.Pod

func (l podLister) Get(key api.Key) (api.Object, bool) {
	p, ok := l[key]
	return p, ok
}

// TestPrioritySortLess is upstream's TestLess
// (k/k pkg/scheduler/framework/plugins/queuesort/priority_sort_test.go)
// replayed against the scheduler's active queue: p1 first when its
// priority is higher, or equal and it was added to the queue earlier.
// The queue stands in for Less: p1 is queued at t1 and p2 at t2, and the
// pod handed out first is the one Less puts first.
func TestPrioritySortLess(t *testing.T) {
	low, high := int32(10), int32(100)
	cases := []struct {
		name       string
		p1, p2     *int32
		p1Earlier  bool
		wantP1Less bool
	}{
		{"p1.priority less than p2.priority", &low, &high, true, false},
		{"p1.priority greater than p2.priority", &high, &low, true, true},
		{"equal priority. p1 is added to schedulingQ earlier than p2", &high, &high, true, true},
		{"equal priority. p2 is added to schedulingQ earlier than p1", &high, &high, false, false},
		{"p1 without priority (0) against a negative p2", nil, ptr(int32(-5)), false, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p1, p2 := testPod("p1"), testPod("p2")
			p1.Spec.Priority, p2.Spec.Priority = tc.p1, tc.p2
			pods := podLister{p1.Key(): p1, p2.Key(): p2}
			q := workqueue.NewPriority(kernel.New(1), nil, func(r controller.Request) int64 { return queuedPriority(pods.Get(r.Key)) })
			order := []*api.Pod{p1, p2}
			if !tc.p1Earlier {
				order = []*api.Pod{p2, p1}
			}
			for _, p := range order {
				q.Add(controller.Request{Key: p.Key()})
			}
			first, _ := q.Get(nil)
			if got := first.Key == p1.Key(); got != tc.wantP1Less {
				t.Errorf("Less(p1, p2) = %v, want %v", got, tc.wantP1Less)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }
