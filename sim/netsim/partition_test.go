package netsim

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/kernel"
)

// TestPartitionReachability sends a datagram between every ordered pair of
// four endpoints under various partitions and compares who heard whom.
func TestPartitionReachability(t *testing.T) {
	addrs := []Addr{"a1", "a2", "b1", "c"}
	type part struct {
		name   string
		a, b   []Addr
		oneWay bool
	}
	tests := []struct {
		name  string
		parts []part
		heal  []string
		// blocked lists the pairs "from->to" that must not get through.
		blocked []string
	}{
		{name: "none"},
		{
			name:    "symmetric",
			parts:   []part{{"p", []Addr{"a1", "a2"}, []Addr{"b1"}, false}},
			blocked: []string{"a1->b1", "a2->b1", "b1->a1", "b1->a2"},
		},
		{
			name:    "one-way",
			parts:   []part{{"p", []Addr{"a1", "a2"}, []Addr{"b1"}, true}},
			blocked: []string{"a1->b1", "a2->b1"},
		},
		{
			name:  "healed",
			parts: []part{{"p", []Addr{"a1", "a2"}, []Addr{"b1"}, false}},
			heal:  []string{"p"},
		},
		{
			name: "two partitions, one healed",
			parts: []part{
				{"p", []Addr{"a1"}, []Addr{"b1"}, false},
				{"q", []Addr{"c"}, []Addr{"a1", "a2"}, true},
			},
			heal:    []string{"p"},
			blocked: []string{"c->a1", "c->a2"},
		},
		{
			name: "overlapping partitions",
			parts: []part{
				{"p", []Addr{"a1"}, []Addr{"b1"}, false},
				{"q", []Addr{"a1", "c"}, []Addr{"b1"}, true},
			},
			blocked: []string{"a1->b1", "b1->a1", "c->b1"},
		},
		{
			name: "members not yet registered",
			parts: []part{
				{"p", []Addr{"a1", "ghost"}, []Addr{"c"}, false},
			},
			blocked: []string{"a1->c", "c->a1"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(1)
			// Register half the endpoints before and half after the
			// partitions, so both paths to membership are exercised.
			boxes := map[Addr]*inbox{}
			for _, a := range addrs[:2] {
				boxes[a] = w.inbox(a)
			}
			for _, p := range tc.parts {
				must(t, w.n.Partition(p.name, p.a, p.b, p.oneWay))
			}
			for _, a := range addrs[2:] {
				boxes[a] = w.inbox(a)
			}
			for _, h := range tc.heal {
				must(t, w.n.Heal(h))
			}
			for _, f := range addrs {
				for _, to := range addrs {
					if f != to {
						w.n.Send(w.ep(f), w.ep(to), fmt.Sprintf("%s->%s", f, to))
					}
				}
			}
			w.run(t)
			var got []string
			for _, f := range addrs {
				for _, to := range addrs {
					if f == to {
						continue
					}
					pair := fmt.Sprintf("%s->%s", f, to)
					heard := slices.Contains(boxes[to].payloads(), any(pair))
					if w.n.Partitioned(f, to) == heard {
						t.Errorf("%s: Partitioned = %v but delivered = %v", pair, w.n.Partitioned(f, to), heard)
					}
					if !heard {
						got = append(got, pair)
					}
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.blocked) {
				t.Errorf("blocked %v, want %v", got, tc.blocked)
			}
			if st := w.n.Stats(); st.DropPartition != uint64(len(tc.blocked)) {
				t.Errorf("DropPartition = %d, want %d", st.DropPartition, len(tc.blocked))
			}
		})
	}
}

// TestPartitionInFlight: a message in flight when a partition starts is lost
// on arrival; one sent before a partition that heals before it arrives gets
// through (the check is at send and at delivery).
func TestPartitionInFlight(t *testing.T) {
	tests := []struct {
		name      string
		partAt    time.Duration
		healAt    time.Duration // 0: never
		delivered bool
	}{
		{"partition while in flight", 5 * time.Millisecond, 0, false},
		{"partition and heal while in flight", 2 * time.Millisecond, 4 * time.Millisecond, true},
		{"partition after arrival", 11 * time.Millisecond, 0, true},
		{"healed at the arrival instant", 1 * time.Millisecond, 10 * time.Millisecond, false}, // heal fires after the arrival event scheduled before it
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(1)
			must(t, w.n.SetDefault(LinkConfig{Latency: Latency{Base: ms(10)}}))
			box := w.inbox("b")
			w.n.Send(w.ep("a"), w.ep("b"), "x")
			w.k.At(kernel.Time(tc.partAt), func() { must(t, w.n.Partition("p", []Addr{"a"}, []Addr{"b"}, false)) })
			if tc.healAt > 0 {
				w.k.At(kernel.Time(tc.healAt), func() { must(t, w.n.Heal("p")) })
			}
			w.run(t)
			if got := len(box.got) == 1; got != tc.delivered {
				t.Errorf("delivered = %v, want %v", got, tc.delivered)
			}
			if st := w.n.Stats(); (st.DropPartition == 1) == tc.delivered {
				t.Errorf("DropPartition = %d", st.DropPartition)
			}
		})
	}
}

func TestPartitionErrors(t *testing.T) {
	w := newWorld(1)
	must(t, w.n.Partition("p", []Addr{"a"}, []Addr{"b"}, false))
	tests := []struct {
		name string
		err  error
		want error
	}{
		{"duplicate name", w.n.Partition("p", []Addr{"c"}, []Addr{"d"}, false), ErrPartitionExists},
		{"empty name", w.n.Partition("", []Addr{"c"}, []Addr{"d"}, false), ErrInvalidPartition},
		{"empty side", w.n.Partition("q", nil, []Addr{"d"}, false), ErrInvalidPartition},
		{"both sides", w.n.Partition("q", []Addr{"c", "d"}, []Addr{"d"}, false), ErrInvalidPartition},
		{"heal unknown", w.n.Heal("nope"), ErrUnknownPartition},
	}
	for _, tc := range tests {
		if !errors.Is(tc.err, tc.want) {
			t.Errorf("%s: err %v, want %v", tc.name, tc.err, tc.want)
		}
	}
	if got := w.n.Partitions(); fmt.Sprint(got) != "[p]" {
		t.Errorf("Partitions() = %v after failed attempts, want [p]", got)
	}
	must(t, w.n.Heal("p"))
	if err := w.n.Heal("p"); !errors.Is(err, ErrUnknownPartition) {
		t.Errorf("second heal: %v", err)
	}
	for i := range maxPartitions {
		must(t, w.n.Partition(fmt.Sprintf("p%02d", i), []Addr{"a"}, []Addr{"b"}, true))
	}
	if err := w.n.Partition("one-too-many", []Addr{"a"}, []Addr{"b"}, true); !errors.Is(err, ErrTooManyPartitions) {
		t.Errorf("65th partition: %v", err)
	}
	must(t, w.n.Heal("p17"))
	must(t, w.n.Partition("reuse", []Addr{"x"}, []Addr{"y"}, false))
	if !w.n.Partitioned("y", "x") || w.n.Partitioned("b", "a") || !w.n.Partitioned("a", "b") {
		t.Error("membership wrong after reusing a freed partition slot")
	}
}
