package api

import (
	"testing"
	"time"
)

// TestUpdatePodCondition is podutil's UpdatePodCondition table: a new
// condition is appended at now; the same status keeps the transition
// time; a changed status takes now; a rewrite that changes nothing
// reports no change; another type is left alone.
func TestUpdatePodCondition(t *testing.T) {
	t0 := NewTime(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))
	now := NewTime(time.Date(2024, 1, 1, 0, 1, 0, 0, time.UTC))
	ready := func(s ConditionStatus, reason string, at Time) PodCondition {
		return PodCondition{Type: PodReady, Status: s, Reason: reason, LastTransitionTime: at}
	}
	other := PodCondition{Type: PodScheduled, Status: ConditionTrue, LastTransitionTime: t0}
	tests := []struct {
		name    string
		before  []PodCondition
		cond    PodCondition
		want    []PodCondition
		changed bool
	}{
		{"new", []PodCondition{other}, ready(ConditionTrue, "", Time{}), []PodCondition{other, ready(ConditionTrue, "", now)}, true},
		{"same status, same reason", []PodCondition{ready(ConditionTrue, "", t0), other}, ready(ConditionTrue, "", Time{}), []PodCondition{ready(ConditionTrue, "", t0), other}, false},
		{"same status, new reason", []PodCondition{ready(ConditionTrue, "", t0)}, ready(ConditionTrue, "R", Time{}), []PodCondition{ready(ConditionTrue, "R", t0)}, true},
		{"status changes", []PodCondition{ready(ConditionTrue, "", t0)}, ready(ConditionFalse, "", Time{}), []PodCondition{ready(ConditionFalse, "", now)}, true},
	}
	for _, tt := range tests {
		st := &PodStatus{Conditions: append([]PodCondition(nil), tt.before...)}
		changed := UpdatePodCondition(st, tt.cond, now)
		if changed != tt.changed || len(st.Conditions) != len(tt.want) {
			t.Fatalf("%s: changed %v, %+v; want %v, %+v", tt.name, changed, st.Conditions, tt.changed, tt.want)
		}
		for i, c := range st.Conditions {
			w := tt.want[i]
			if c.Type != w.Type || c.Status != w.Status || c.Reason != w.Reason || !c.LastTransitionTime.Equal(&w.LastTransitionTime) {
				t.Errorf("%s: condition %d = %+v, want %+v", tt.name, i, c, w)
			}
		}
	}
}
