package store

import (
	"reflect"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
)

// TestCreateGatedPod: a pod created with scheduling gates gets the pod
// strategy's PodScheduled=False SchedulingGated condition (whatever
// status it was sent with), one without gates none.
func TestCreateGatedPod(t *testing.T) {
	gated := []api.PodCondition{{Type: api.PodScheduled, Status: api.ConditionFalse, Reason: "SchedulingGated",
		Message: "Scheduling is blocked due to non-empty scheduling gates"}}
	for _, tc := range []struct {
		name  string
		gates []api.PodSchedulingGate
		want  []api.PodCondition
	}{
		{"gated", []api.PodSchedulingGate{{Name: "example.com/quota"}}, gated},
		{"not gated", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(kernel.New(1))
			p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"},
				Spec:   api.PodSpec{SchedulingGates: tc.gates, Containers: []api.Container{{Name: "c", Image: "nginx"}}},
				Status: api.PodStatus{Conditions: []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}}}
			o, err := s.Create(Op{}, p)
			if err != nil {
				t.Fatal(err)
			}
			if got := o.(*api.Pod).Status.Conditions; !reflect.DeepEqual(got, tc.want) {
				t.Errorf("conditions %+v, want %+v", got, tc.want)
			}
		})
	}
}
