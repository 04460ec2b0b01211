package iac

import (
	"slices"
	"testing"
	"time"
)

func TestScheduleNext(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	tests := []struct {
		name  string
		s     Schedule
		from  time.Duration
		want  time.Duration
		found bool
	}{
		{"nothing", Schedule{}, 0, 0, false},
		{"list, first", Schedule{At: []time.Time{at(5 * time.Minute), at(time.Minute)}}, 0, time.Minute, true},
		{"list, exact", Schedule{At: []time.Time{at(time.Minute)}}, time.Minute, time.Minute, true},
		{"list, past", Schedule{At: []time.Time{at(time.Minute)}}, 2 * time.Minute, 0, false},
		{"every from start", Schedule{Every: 10 * time.Minute}, 0, 0, true},
		{"every, between", Schedule{Every: 10 * time.Minute}, 11 * time.Minute, 20 * time.Minute, true},
		{"every, on the tick", Schedule{Every: 10 * time.Minute}, 20 * time.Minute, 20 * time.Minute, true},
		{"every with a start", Schedule{Every: time.Hour, Start: at(30 * time.Minute)}, 0, 30 * time.Minute, true},
		{"both, the sooner", Schedule{Every: time.Hour, At: []time.Time{at(7 * time.Minute)}}, time.Minute, 7 * time.Minute, true},
	}
	for _, tc := range tests {
		got, ok := tc.s.next(at(tc.from), t0)
		if ok != tc.found || ok && !got.Equal(at(tc.want)) {
			t.Errorf("%s: %v %v, want %v %v", tc.name, got.Sub(t0), ok, tc.want, tc.found)
		}
	}
}

func TestPlanStrings(t *testing.T) {
	tests := []struct {
		p    Plan
		want string
	}{
		{Plan{}, "No changes. Your infrastructure matches the configuration."},
		{Plan{Add: 1, Changes: []Change{{Action: Create}}}, "Plan: 1 to add, 0 to change, 0 to destroy."},
		{Plan{Add: 1, Change: 2, Destroy: 3, Changes: make([]Change, 6)}, "Plan: 1 to add, 2 to change, 3 to destroy."},
	}
	for _, tc := range tests {
		if got := tc.p.String(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
	r := RunRecord{Added: 1, Changed: 0, Destroyed: 2}
	if got := r.Summary(); got != "Apply complete! Resources: 1 added, 0 changed, 2 destroyed." {
		t.Errorf("summary %q", got)
	}
}

func TestMergeDiffAndProject(t *testing.T) {
	from := map[string]any{"spec": map[string]any{"replicas": 3, "paused": true, "c": []any{map[string]any{"name": "a", "image": "1"}}}}
	to := map[string]any{"spec": map[string]any{"replicas": 4, "c": []any{map[string]any{"name": "a", "image": "1"}}}, "metadata": map[string]any{"labels": map[string]any{"x": "y"}}}
	patch, ptrs := mergeDiff(from, to)
	if want := []string{"/metadata", "/spec/paused", "/spec/replicas"}; !slices.Equal(ptrs, want) {
		t.Errorf("pointers %v, want %v", ptrs, want)
	}
	if got, want := canonical(patch), `{"metadata":{"labels":{"x":"y"}},"spec":{"paused":null,"replicas":4}}`; got != want {
		t.Errorf("patch %s, want %s", got, want)
	}
	live := map[string]any{"spec": map[string]any{"replicas": 9, "extra": 1, "c": []any{map[string]any{"name": "b"}, map[string]any{"name": "a", "image": "2", "pull": "Always"}}}}
	p, _ := project(from, live)
	if got, want := canonical(p), `{"spec":{"c":[{"image":"2","name":"a"}],"replicas":9}}`; got != want {
		t.Errorf("projection %s, want %s", got, want)
	}
}
