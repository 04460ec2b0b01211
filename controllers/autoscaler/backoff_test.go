package autoscaler

import (
	"testing"
	"time"
)

// The rows of cluster-autoscaler's utils/backoff/exponential_backoff_test.go
// (TestBackoffTwoKeys, TestMaxBackoff, TestRemoveBackoff,
// TestResetStaleBackoffData, TestIncreaseExistingBackoff), each step an
// action at an offset from the start and the back-off it expects.
func TestBackoff(t *testing.T) {
	start := time.Date(2023, 12, 12, 12, 0, 0, 0, time.UTC)
	type step struct {
		at     time.Duration
		op     string // "fail", "remove", "stale", "check"
		group  string
		want   bool // check: backed off
		groups int  // stale: groups left
	}
	ms := time.Millisecond
	for _, tc := range []struct {
		name                string
		initial, max, reset time.Duration
		steps               []step
	}{
		{name: "TestBackoffTwoKeys", initial: 10 * time.Minute, max: time.Hour, reset: 3 * time.Hour, steps: []step{
			{at: 0, op: "check", group: "id1", want: false},
			{at: 0, op: "check", group: "id2", want: false},
			{at: time.Minute, op: "fail", group: "id1"},
			{at: 2 * time.Minute, op: "check", group: "id1", want: true},
			{at: 0, op: "check", group: "id2", want: false},
			{at: 11*time.Minute + ms, op: "check", group: "id1", want: false},
		}},
		{name: "TestMaxBackoff", initial: time.Minute, max: 3 * time.Minute, reset: 3 * time.Hour, steps: []step{
			{at: 0, op: "fail", group: "id1"},
			{at: 0, op: "check", group: "id1", want: true},
			{at: time.Minute + ms, op: "check", group: "id1", want: false},
			{at: time.Minute, op: "fail", group: "id1"},
			{at: time.Minute, op: "check", group: "id1", want: true},
			{at: 3 * time.Minute, op: "check", group: "id1", want: false},
			{at: 3 * time.Minute, op: "fail", group: "id1"},
			{at: 3 * time.Minute, op: "check", group: "id1", want: true},
			{at: 6 * time.Minute, op: "check", group: "id1", want: false},
		}},
		{name: "TestRemoveBackoff", initial: time.Minute, max: 3 * time.Minute, reset: 3 * time.Hour, steps: []step{
			{at: 0, op: "fail", group: "id1"},
			{at: 0, op: "check", group: "id1", want: true},
			{at: 0, op: "remove", group: "id1"},
			{at: 0, op: "check", group: "id1", want: false},
		}},
		{name: "TestResetStaleBackoffData", initial: time.Minute, max: 3 * time.Minute, reset: 3 * time.Hour, steps: []step{
			{at: 0, op: "fail", group: "id1"},
			{at: time.Hour, op: "fail", group: "id2"},
			{at: time.Hour, op: "stale", groups: 2},
			{at: 4 * time.Hour, op: "stale", groups: 1},
			{at: 5 * time.Hour, op: "stale", groups: 0},
		}},
		{name: "TestIncreaseExistingBackoff", initial: time.Second, max: 10 * time.Minute, reset: 3 * time.Hour, steps: []step{
			{at: 0, op: "fail", group: "id1"},
			{at: 0, op: "check", group: "id1", want: true},
			{at: time.Second + ms, op: "check", group: "id1", want: false},
			{at: time.Second + ms, op: "fail", group: "id1"}, // 2s now
			{at: time.Second + ms, op: "check", group: "id1", want: true},
			{at: 2*time.Second + ms, op: "fail", group: "id1"}, // during: still 2s
			{at: 2*time.Second + ms, op: "check", group: "id1", want: true},
			{at: 4*time.Second + 2*ms, op: "check", group: "id1", want: false},
		}},
		// Ours: the defaults, 5m doubling to 30m; the fourth failure in a
		// row is capped.
		{name: "defaults", initial: DefaultInitialNodeGroupBackoffDuration, max: DefaultMaxNodeGroupBackoffDuration, reset: DefaultNodeGroupBackoffResetTimeout, steps: []step{
			{at: 0, op: "fail", group: "a"},
			{at: 5 * time.Minute, op: "check", group: "a", want: true},
			{at: 5*time.Minute + ms, op: "fail", group: "a"}, // 10m
			{at: 15*time.Minute + ms, op: "check", group: "a", want: true},
			{at: 15*time.Minute + 2*ms, op: "fail", group: "a"}, // 20m
			{at: 35*time.Minute + 3*ms, op: "fail", group: "a"}, // 30m, not 40m
			{at: 65*time.Minute + 3*ms, op: "check", group: "a", want: true},
			{at: 65*time.Minute + 4*ms, op: "check", group: "a", want: false},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBackoff(tc.initial, tc.max, tc.reset)
			for i, s := range tc.steps {
				now := start.Add(s.at)
				switch s.op {
				case "fail":
					b.fail(s.group, "timeout", now)
				case "remove":
					b.remove(s.group)
				case "stale":
					b.removeStale(now)
					if len(b.groups) != s.groups {
						t.Errorf("step %d: %d groups after removeStale, want %d", i, len(b.groups), s.groups)
					}
				case "check":
					if got := b.backedOff(s.group, now); got != s.want {
						t.Errorf("step %d: %s backed off at %s: %v, want %v", i, s.group, s.at, got, s.want)
					}
				}
			}
		})
	}
}
