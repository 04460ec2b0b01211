package kubelet

import (
	"reflect"
	"runtime"
	"slices"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestReadyPodSizeClass: a readyPod is allocated in a size class of its
// own, apart from api.Pod's and from its conditions' (nConds of them),
// which is what keeps the versions of ready pods out of the spans of the
// short-lived versions (readyPod's comment). Go's allocator is asked,
// not a copy of its table: the class whose count of allocations grows
// by the n objects allocated. Planted: readyPod without its conditions
// (the class of api.Pod) fails it.
func TestReadyPodSizeClass(t *testing.T) {
	pod := sizeClassOf(t, func() any { return new(api.Pod) })
	ready := sizeClassOf(t, func() any { return new(readyPod) })
	conds := sizeClassOf(t, func() any { return new([nConds]api.PodCondition) })
	if ready == pod || ready == conds {
		t.Errorf("readyPod (%d B) is in the size class of %d B, as api.Pod (%d B, class %d) or its conditions (class %d)",
			reflect.TypeFor[readyPod]().Size(), ready, reflect.TypeFor[api.Pod]().Size(), pod, conds)
	}
}

// sizeClassOf returns the object size of the class that alloc's objects
// come from: the class whose allocation count grew by at least the
// number allocated.
func sizeClassOf(t *testing.T, alloc func() any) uint32 {
	t.Helper()
	const n = 1000
	keep := make([]any, 0, n)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range n {
		keep = append(keep, alloc())
	}
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(keep)
	for i := range after.BySize {
		if after.BySize[i].Mallocs-before.BySize[i].Mallocs >= n {
			return after.BySize[i].Size
		}
	}
	t.Fatalf("no size class counted %d allocations", n)
	return 0
}

// TestReadyStatusInOneAllocation: the status write of a Ready pod puts
// its conditions in the readyPod's own array, with the capacity of their
// number (an append to a copy must not write into the stored pod); a pod
// that is not Ready gets a plain api.Pod and conditions of their own;
// a Ready pod with more conditions than the array holds gets its own
// slice; and the conditions are the same either way. Planted: newStatusPod
// giving a ready pod no room fails it.
func TestReadyStatusInOneAllocation(t *testing.T) {
	k := runningKubelet(t, "a")
	var ps *podState
	for _, s := range k.slots {
		if s != nil {
			ps = s
		}
	}
	if ps == nil || ps.conds[condReady].status != api.ConditionTrue {
		t.Fatal("the pod is not Ready after a minute")
	}
	offset := reflect.TypeFor[readyPod]().Field(1).Offset
	tests := []struct {
		name    string
		ready   bool
		foreign int // conditions the kubelet does not own, on the pod (0 or 1)
		inside  bool
	}{
		{name: "ready", ready: true, inside: true},
		{name: "not ready", ready: false},
		{name: "ready, a condition of another owner", ready: true, foreign: 1},
	}
	saved, savedConds := ps.conds[condReady].status, ps.pod.Status.Conditions
	defer func() { ps.conds[condReady].status, ps.pod.Status.Conditions = saved, savedConds }()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps.conds[condReady].status = api.ConditionFalse
			if tt.ready {
				ps.conds[condReady].status = api.ConditionTrue
			}
			ps.pod.Status.Conditions = savedConds
			if tt.foreign > 0 {
				ps.pod.Status.Conditions = append(slices.Clone(savedConds), api.PodCondition{Type: api.DisruptionTarget, Status: api.ConditionTrue})
			}
			p, room := newStatusPod(ps)
			st := k.buildStatus(ps, room)
			want := k.buildStatus(ps, nil)
			if !reflect.DeepEqual(st, want) {
				t.Fatalf("conditions in the readyPod differ:\n%+v\nwant\n%+v", st.Conditions, want.Conditions)
			}
			if len(st.Conditions) != nConds+tt.foreign || cap(st.Conditions) != len(st.Conditions) {
				t.Errorf("conditions: length %d, capacity %d; want %d, capacity equal", len(st.Conditions), cap(st.Conditions), nConds+tt.foreign)
			}
			inside := reflect.ValueOf(&st.Conditions[0]).Pointer() == reflect.ValueOf(p).Pointer()+offset
			if inside != tt.inside {
				t.Errorf("conditions in the pod's own allocation: %v, want %v", inside, tt.inside)
			}
		})
	}
}
