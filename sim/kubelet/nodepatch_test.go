package kubelet

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

var patchT0 = api.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))

// healthyStatus is a node's status as a healthy kubelet reports it, every
// condition last written at t.
func healthyStatus(t api.Time) api.NodeStatus {
	st := api.NodeStatus{
		Capacity:  api.ResourceList{api.ResourceCPU: api.MustParseQuantity("4")},
		Addresses: []api.NodeAddress{{Type: api.NodeInternalIP, Address: "10.0.0.1"}},
		NodeInfo:  api.RawValue(`{"kubeletVersion":"v1"}`),
	}
	for _, c := range kubeletConditions {
		st.Conditions = append(st.Conditions, api.NodeCondition{Type: c.typ, Status: c.status, Reason: c.reason, Message: c.message,
			LastHeartbeatTime: t, LastTransitionTime: t})
	}
	return st
}

// TestConditionsPatchMatches holds the kubelet's typed conditions patch
// to statusPatchJSON, the two-way strategic merge patch of the two
// statuses through JSON (sim/strategicpatch):
// for random changes to a node's conditions (statuses, reasons,
// messages, times, conditions added, removed and moved), conditionsPatch
// either declines or gives the same patch, and it takes every change the
// kubelet's own setters make (status, reason, message and times).
func TestConditionsPatchMatches(t *testing.T) {
	base := healthyStatus(patchT0)
	generic := func(old, cur *api.NodeStatus) any {
		b, err := statusPatchJSON(old, cur)
		if err != nil {
			t.Fatal(err)
		}
		var p any
		if err := json.Unmarshal(b, &p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	rng := rand.New(rand.NewPCG(3, 4))
	taken, setterLike := 0, 0
	for n := range 500 {
		cur := base
		cur.Conditions = append([]api.NodeCondition(nil), base.Conditions...)
		setters := true // only changes the kubelet's setters make
		for range rng.IntN(4) {
			i := rng.IntN(len(cur.Conditions))
			c := &cur.Conditions[i]
			switch rng.IntN(9) {
			case 0:
				c.Status = []api.ConditionStatus{api.ConditionTrue, api.ConditionFalse, api.ConditionUnknown}[rng.IntN(3)]
			case 1:
				c.Reason = []string{"", "KubeletReady", "NodeStatusUnknown"}[rng.IntN(3)]
				setters = setters && c.Reason != ""
			case 2:
				c.Message = fmt.Sprint("message ", rng.IntN(2))
			case 3:
				c.LastHeartbeatTime = api.NewTime(c.LastHeartbeatTime.Add(time.Duration(rng.IntN(3)) * 500 * time.Millisecond))
			case 4:
				c.LastTransitionTime = api.NewTime(c.LastTransitionTime.Add(time.Duration(rng.IntN(600)) * time.Second))
			case 5:
				cur.Conditions = append(cur.Conditions, api.NodeCondition{Type: "Custom", Status: api.ConditionTrue, LastHeartbeatTime: patchT0, LastTransitionTime: patchT0})
				setters = false
			case 6:
				cur.Conditions = append(cur.Conditions[:i:i], cur.Conditions[i+1:]...)
				setters = false
			case 7:
				j := rng.IntN(len(cur.Conditions))
				cur.Conditions[i], cur.Conditions[j] = cur.Conditions[j], cur.Conditions[i]
				setters = setters && i == j
			case 8:
				if rng.IntN(4) == 0 {
					cur.Capacity = api.ResourceList{api.ResourceCPU: api.MustParseQuantity("8")}
					setters = false
				}
			}
			if len(cur.Conditions) == 0 {
				break
			}
		}
		b, ok := conditionsPatch(&base, &cur)
		if setters {
			setterLike++
			if !ok {
				t.Errorf("change %d: declined a change of the kubelet's setters: %+v", n, cur.Conditions)
			}
		}
		if !ok {
			continue
		}
		taken++
		var got any
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("change %d: %s: %v", n, b, err)
		}
		if want := generic(&base, &cur); !reflect.DeepEqual(got, want) {
			wb, _ := json.Marshal(want)
			t.Errorf("change %d:\ntyped %s\nJSON  %s", n, b, wb)
		}
	}
	if taken < setterLike || setterLike < 100 {
		t.Errorf("typed patch taken %d times, %d changes like the setters'", taken, setterLike)
	}
}

// BenchmarkStatusPatch makes a kubelet's heartbeat patch (every
// condition's lastHeartbeatTime moved): from the typed conditions, and
// through JSON (statusPatchJSON).
func BenchmarkStatusPatch(b *testing.B) {
	old := healthyStatus(patchT0)
	cur := old
	cur.Conditions = append([]api.NodeCondition(nil), old.Conditions...)
	for i := range cur.Conditions {
		cur.Conditions[i].LastHeartbeatTime = api.NewTime(patchT0.Add(5 * time.Minute))
	}
	if _, ok := conditionsPatch(&old, &cur); !ok {
		b.Fatal("the typed patch declined a heartbeat")
	}
	b.Run("typed", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			conditionsPatch(&old, &cur)
		}
	})
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := statusPatchJSON(&old, &cur); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestRestDeepEqual holds restDeepEqual to reflect.DeepEqual of the two
// statuses without their conditions, field by field: nil against empty,
// a quantity written two ways, and the fields it leaves to DeepEqual.
func TestRestDeepEqual(t *testing.T) {
	base := func() api.NodeStatus {
		return api.NodeStatus{
			Capacity:        api.ResourceList{api.ResourceCPU: api.MustParseQuantity("8"), api.ResourceMemory: api.MustParseQuantity("32Gi")},
			Allocatable:     api.ResourceList{api.ResourceCPU: api.MustParseQuantity("8")},
			Conditions:      []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue}},
			Addresses:       []api.NodeAddress{{Type: api.NodeInternalIP, Address: "10.0.0.1"}},
			DaemonEndpoints: api.RawValue(`{"kubeletEndpoint":{"Port":10250}}`),
			NodeInfo:        api.RawValue(`{"kubeletVersion":"v1.37.0"}`),
		}
	}
	tests := []struct {
		name   string
		change func(st *api.NodeStatus)
		before func(st *api.NodeStatus) // old's change, if any
	}{
		{"equal", func(*api.NodeStatus) {}, nil},
		{"other conditions only", func(st *api.NodeStatus) { st.Conditions = nil }, nil},
		{"capacity nil", func(st *api.NodeStatus) { st.Capacity = nil }, nil},
		{"capacity empty", func(st *api.NodeStatus) { st.Capacity = api.ResourceList{} }, nil},
		{"capacity nil against empty", func(st *api.NodeStatus) { st.Capacity = api.ResourceList{} }, func(st *api.NodeStatus) { st.Capacity = nil }},
		{"node info nil against empty", func(st *api.NodeStatus) { st.NodeInfo = api.RawValue{} }, func(st *api.NodeStatus) { st.NodeInfo = nil }},
		{"addresses nil against empty", func(st *api.NodeStatus) { st.Addresses = []api.NodeAddress{} }, func(st *api.NodeStatus) { st.Addresses = nil }},
		{"a quantity written another way", func(st *api.NodeStatus) { st.Capacity[api.ResourceCPU] = api.MustParseQuantity("8000m") }, nil},
		{"an allocatable entry more", func(st *api.NodeStatus) { st.Allocatable[api.ResourceMemory] = api.MustParseQuantity("1Gi") }, nil},
		{"phase", func(st *api.NodeStatus) { st.Phase = "Running" }, nil},
		{"addresses empty", func(st *api.NodeStatus) { st.Addresses = []api.NodeAddress{} }, nil},
		{"an address changed", func(st *api.NodeStatus) {
			st.Addresses = []api.NodeAddress{{Type: api.NodeInternalIP, Address: "10.0.0.2"}}
		}, nil},
		{"daemon endpoints nil", func(st *api.NodeStatus) { st.DaemonEndpoints = nil }, nil},
		{"node info empty", func(st *api.NodeStatus) { st.NodeInfo = api.RawValue{} }, nil},
		{"node info changed", func(st *api.NodeStatus) { st.NodeInfo = api.RawValue(`{"kubeletVersion":"v1.36.0"}`) }, nil},
		{"images, left to DeepEqual", func(st *api.NodeStatus) { st.Images = []api.RawValue{api.RawValue(`{}`)} }, nil},
		{"volumes in use, left to DeepEqual", func(st *api.NodeStatus) { st.VolumesInUse = []string{} }, nil},
		{"config, left to DeepEqual", func(st *api.NodeStatus) { st.Config = &api.RawValue{} }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old, cur := base(), base()
			tt.change(&cur)
			if tt.before != nil {
				tt.before(&old)
			}
			strip := func(st api.NodeStatus) api.NodeStatus { st.Conditions = nil; return st }
			want := reflect.DeepEqual(strip(old), strip(cur))
			if got := restDeepEqual(&old, &cur); got != want {
				t.Errorf("restDeepEqual = %v, want %v (reflect.DeepEqual)", got, want)
			}
			if got := restDeepEqual(&cur, &old); got != want {
				t.Errorf("restDeepEqual, the other way = %v, want %v", got, want)
			}
		})
	}
}
