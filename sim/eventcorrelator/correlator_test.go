package eventcorrelator_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/eventcorrelator"
	"github.com/clustersim/clustersim/sim/kernel"
)

func pod(reason, message string) eventcorrelator.Event {
	return eventcorrelator.Event{
		Component: "kubelet", Host: "node-1",
		Kind: "Pod", APIVersion: "v1", Namespace: "my-ns", Name: "my-pod", UID: "uid-1",
		Type: "Normal", Reason: reason, Message: message,
	}
}

func repeat(n int, e eventcorrelator.Event) []eventcorrelator.Event {
	out := make([]eventcorrelator.Event, n)
	for i := range out {
		out[i] = e
	}
	return out
}

// similar returns n events like e whose messages differ (client-go's
// makeSimilarEvents).
func similar(n int, e eventcorrelator.Event) []eventcorrelator.Event {
	out := repeat(n, e)
	for i := range out {
		out[i].Message = fmt.Sprintf("%s%d", e.Message, i)
	}
	return out
}

// unique returns n events about the object with distinct reasons
// (client-go's makeUniqueEvents).
func unique(n int) []eventcorrelator.Event {
	out := make([]eventcorrelator.Event, n)
	for i := range out {
		out[i] = pod(fmt.Sprintf("reason%d", i), fmt.Sprintf("message%d", i))
	}
	return out
}

// TestCorrelate ports the rows of client-go's TestEventCorrelator and
// TestEventSpamFilter (tools/record/events_cache_test.go), and adds the
// spam filter's refill and the count an event it refused leaves behind.
// Events come interval apart; each one written is filed (Written).
func TestCorrelate(t *testing.T) {
	similarEvent := pod("similar", "similar message")
	similarEvent.FieldPath = "spec.containers{container1}"
	otherContainer := similarEvent
	otherContainer.FieldPath = "spec.containers{container2}"
	tests := []struct {
		name     string
		previous []eventcorrelator.Event
		interval time.Duration
		gap      time.Duration // before the event, if not interval
		event    eventcorrelator.Event
		skip     bool
		update   bool
		message  string
		count    int32
	}{
		{name: "create a single event", interval: 5 * time.Second,
			event: pod("first", "i am first"), message: "i am first", count: 1},
		{name: "the same event should just count", previous: repeat(1, pod("duplicate", "me again")), interval: 5 * time.Second,
			event: pod("duplicate", "me again"), update: true, message: "me again", count: 2},
		{name: "the same event counts even past the aggregate's threshold", previous: repeat(eventcorrelator.AggregateMaxEvents, pod("duplicate", "me again")), interval: 30 * time.Second,
			event: pod("duplicate", "me again"), update: true, message: "me again", count: eventcorrelator.AggregateMaxEvents + 1},
		{name: "the same event an hour later still counts", previous: repeat(1, pod("duplicate", "me again")), interval: time.Hour,
			event: pod("duplicate", "me again"), update: true, message: "me again", count: 2},
		{name: "the same event is spam if it comes too often", previous: repeat(eventcorrelator.SpamBurst+1, pod("duplicate", "me again")), interval: time.Second,
			event: pod("duplicate", "me again"), skip: true},
		{name: "many unique events are each created", previous: unique(9), interval: 5 * time.Second,
			event: pod("unique", "snowflake"), message: "snowflake", count: 1},
		{name: "similar events aggregate", previous: similar(eventcorrelator.AggregateMaxEvents-1, similarEvent), interval: 5 * time.Second,
			event: similarEvent, message: eventcorrelator.CombinedPrefix + "similar message", count: 1},
		{name: "similar events many times count the aggregate", previous: similar(eventcorrelator.AggregateMaxEvents, similarEvent), interval: 5 * time.Second,
			event: similarEvent, update: true, message: eventcorrelator.CombinedPrefix + "similar message", count: 2},
		{name: "events from different containers do not aggregate", previous: repeat(1, otherContainer), interval: 5 * time.Second,
			event: similarEvent, message: "similar message", count: 1},
		{name: "similar events further apart than the interval do not aggregate", previous: similar(eventcorrelator.AggregateMaxEvents-1, similarEvent), interval: eventcorrelator.AggregateInterval + time.Second,
			event: similarEvent, message: "similar message", count: 1},
		{name: "similar events exactly the interval apart aggregate", previous: similar(eventcorrelator.AggregateMaxEvents-1, similarEvent), interval: eventcorrelator.AggregateInterval,
			event: similarEvent, message: eventcorrelator.CombinedPrefix + "similar message", count: 1},
		{name: "a different reason about the same object is spam past the burst", previous: unique(eventcorrelator.SpamBurst), interval: time.Second,
			event: pod("duplicate", "me again"), skip: true},
		{name: "a different source is not", previous: unique(eventcorrelator.SpamBurst), interval: time.Second,
			event: func() eventcorrelator.Event { e := pod("duplicate", "me again"); e.Host = "node-2"; return e }(), message: "me again", count: 1},
		{name: "a different object is not", previous: unique(eventcorrelator.SpamBurst), interval: time.Second,
			event: func() eventcorrelator.Event { e := pod("duplicate", "me again"); e.UID = "uid-2"; return e }(), message: "me again", count: 1},
		{name: "the filter lets one through each 300 s", previous: unique(eventcorrelator.SpamBurst), interval: 13 * time.Second,
			event: pod("duplicate", "me again"), message: "me again", count: 1},
		// Every try is counted, the refused ones too: the next Event
		// written carries them.
		{name: "the filter refuses just short of a token", previous: unique(eventcorrelator.SpamBurst), interval: 11 * time.Second,
			event: pod("duplicate", "me again"), skip: true},
		{name: "refused repeats still count", previous: repeat(2*eventcorrelator.SpamBurst, pod("duplicate", "me again")), interval: time.Second, gap: 300 * time.Second,
			event: pod("duplicate", "me again"), update: true, message: "me again", count: 2*eventcorrelator.SpamBurst + 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := eventcorrelator.New()
			rng := rand.New(rand.NewPCG(1, 2))
			now := kernel.Time(0)
			for i, e := range tt.previous {
				if i > 0 {
					now = now.Add(tt.interval)
				}
				e.At = now
				if r := c.Correlate(&e, now, rng); !r.Skip {
					c.Written(&r)
				}
			}
			if tt.gap == 0 {
				tt.gap = tt.interval
			}
			now = now.Add(tt.gap)
			e := tt.event
			e.At = now
			r := c.Correlate(&e, now, rng)
			if r.Skip != tt.skip {
				t.Fatalf("skip %v, want %v", r.Skip, tt.skip)
			}
			if tt.skip {
				return
			}
			if r.Update != tt.update || r.Message != tt.message || r.Count != tt.count {
				t.Errorf("update %v, message %q, count %d; want %v, %q, %d", r.Update, r.Message, r.Count, tt.update, tt.message, tt.count)
			}
			if !strings.HasPrefix(r.Name, e.Name+".") {
				t.Errorf("name %q, want the object's name and a suffix", r.Name)
			}
			if r.Last != now {
				t.Errorf("lastTimestamp %v, want %v", r.Last, now)
			}
		})
	}
}

// TestReplicaSetOfAThousand is the case that matters at scale: a
// ReplicaSet controller creating 1,000 pods in a minute writes 9 Events,
// then the combined one (created once, then patched), and nothing after
// its 25th event until the bucket refills.
func TestReplicaSetOfAThousand(t *testing.T) {
	c := eventcorrelator.New()
	rng := rand.New(rand.NewPCG(1, 2))
	created, updated, skipped := 0, 0, 0
	var combined eventcorrelator.Result
	for i := range 1000 {
		now := kernel.Time(time.Duration(i) * 60 * time.Millisecond)
		e := eventcorrelator.Event{Component: "replicaset-controller", Kind: "ReplicaSet", APIVersion: "apps/v1",
			Namespace: "default", Name: "web-5d8f", UID: "rs-1", Type: "Normal", Reason: "SuccessfulCreate",
			Message: fmt.Sprintf("Created pod: web-5d8f-%05d", i), At: now}
		r := c.Correlate(&e, now, rng)
		switch {
		case r.Skip:
			skipped++
			continue
		case r.Update:
			updated++
		default:
			created++
		}
		c.Written(&r)
		if strings.HasPrefix(r.Message, eventcorrelator.CombinedPrefix) {
			combined = r
		}
	}
	if created != 10 || updated != 15 || skipped != 975 {
		t.Errorf("%d created, %d updated, %d skipped; want 10, 15, 975", created, updated, skipped)
	}
	if combined.Count != 16 || combined.Message != eventcorrelator.CombinedPrefix+"Created pod: web-5d8f-00024" {
		t.Errorf("the combined Event: count %d, message %q", combined.Count, combined.Message)
	}
}

// TestDroppingStaleGroupsChangesNothing feeds the same random events to a
// correlator that drops groups idle past AggregateInterval and to one
// that keeps them (client-go's); every result must match, and an event
// long after the last leaves its own group alone.
func TestDroppingStaleGroupsChangesNothing(t *testing.T) {
	combined := 0
	defer func() {
		if combined == 0 {
			t.Errorf("no event was combined: the streams do not reach the aggregator's threshold")
		}
	}()
	for seed := range uint64(20) {
		src := rand.New(rand.NewPCG(seed, 7))
		a, b := eventcorrelator.New(), eventcorrelator.NewKeepingStale()
		ra, rb := rand.New(rand.NewPCG(1, 1)), rand.New(rand.NewPCG(1, 1))
		now := kernel.Time(0)
		for i := range 3000 {
			// Six groups, a group's events some 6 minutes apart on
			// average: groups go stale and come back, and some reach
			// ten messages within the interval.
			gaps := []time.Duration{0, time.Second, 10 * time.Second, 30 * time.Second, time.Minute, 2 * time.Minute, 3 * time.Minute}
			now = now.Add(gaps[src.IntN(len(gaps))])
			e := eventcorrelator.Event{Component: "c", Kind: "Pod", APIVersion: "v1", Namespace: "ns",
				Name: fmt.Sprintf("p%d", src.IntN(3)), Type: "Normal", Reason: fmt.Sprintf("r%d", src.IntN(2)),
				Message: fmt.Sprintf("m%d", src.IntN(14)), At: now}
			x, y := a.Correlate(&e, now, ra), b.Correlate(&e, now, rb)
			if x != y {
				t.Fatalf("seed %d, event %d: %+v against %+v", seed, i, x, y)
			}
			if strings.HasPrefix(x.Message, eventcorrelator.CombinedPrefix) {
				combined++
			}
			if !x.Skip && src.IntN(4) > 0 {
				a.Written(&x)
				b.Written(&y)
			}
		}
		late := eventcorrelator.Event{Component: "c", Kind: "Pod", APIVersion: "v1", Namespace: "ns", Name: "late", Type: "Normal", Reason: "r", Message: "m"}
		a.Correlate(&late, now.Add(eventcorrelator.AggregateInterval+time.Second), ra)
		if ga, _, _ := a.Sizes(); ga != 1 {
			t.Errorf("seed %d: %d groups kept after an event past the interval, want its own alone", seed, ga)
		}
		if ga, _, _ := b.Sizes(); ga > 6 {
			t.Errorf("seed %d: %d groups kept, more than the 6 there are", seed, ga)
		}
	}
}

// TestCachesAreBounded checks that each cache keeps at most CacheSize
// entries, the least recently used going first: an Event whose key was
// pushed out is created anew.
func TestCachesAreBounded(t *testing.T) {
	c := eventcorrelator.New()
	rng := rand.New(rand.NewPCG(1, 2))
	ev := func(i int) eventcorrelator.Event {
		return eventcorrelator.Event{Component: "scheduler", Kind: "Pod", APIVersion: "v1", Namespace: "ns",
			Name: fmt.Sprintf("pod-%d", i), UID: "u", Type: "Normal", Reason: "Scheduled", Message: "assigned"}
	}
	write := func(i int) eventcorrelator.Result {
		e := ev(i)
		r := c.Correlate(&e, 0, rng)
		if !r.Skip {
			c.Written(&r)
		}
		return r
	}
	write(0)
	if r := write(0); !r.Update || r.Count != 2 {
		t.Fatalf("a repeat: update %v count %d", r.Update, r.Count)
	}
	for i := 1; i <= eventcorrelator.CacheSize; i++ {
		write(i)
	}
	if g, l, s := c.Sizes(); g != eventcorrelator.CacheSize || l != eventcorrelator.CacheSize || s != eventcorrelator.CacheSize {
		t.Errorf("caches of %d, %d, %d entries, want %d each", g, l, s, eventcorrelator.CacheSize)
	}
	if r := write(0); r.Update {
		t.Errorf("pod-0's Event was pushed out of the logger, yet its repeat is an update (count %d)", r.Count)
	}
	if r := write(eventcorrelator.CacheSize); !r.Update || r.Count != 2 {
		t.Errorf("the most recent key: update %v count %d", r.Update, r.Count)
	}
}

// TestEachFieldTellsEventsApart checks that an event differing from one
// written before in any one field of client-go's getEventKey is a new
// Event, not a repeat of the first.
func TestEachFieldTellsEventsApart(t *testing.T) {
	base := pod("Started", "Started container app")
	base.FieldPath = "spec.containers{app}"
	edits := map[string]func(*eventcorrelator.Event){
		"component":  func(e *eventcorrelator.Event) { e.Component = "other" },
		"host":       func(e *eventcorrelator.Event) { e.Host = "node-2" },
		"kind":       func(e *eventcorrelator.Event) { e.Kind = "Node" },
		"apiVersion": func(e *eventcorrelator.Event) { e.APIVersion = "v2" },
		"namespace":  func(e *eventcorrelator.Event) { e.Namespace = "other" },
		"name":       func(e *eventcorrelator.Event) { e.Name = "my-pod2" },
		"fieldPath":  func(e *eventcorrelator.Event) { e.FieldPath = "" },
		"uid":        func(e *eventcorrelator.Event) { e.UID = "uid-2" },
		"type":       func(e *eventcorrelator.Event) { e.Type = "Warning" },
		"reason":     func(e *eventcorrelator.Event) { e.Reason = "Created" },
		"message":    func(e *eventcorrelator.Event) { e.Message = "x" },
		// Moving a boundary between two fields is a different key too.
		"boundary": func(e *eventcorrelator.Event) { e.Namespace, e.Name = "my-nsm", "y-pod" },
	}
	for name, edit := range edits {
		t.Run(name, func(t *testing.T) {
			c := eventcorrelator.New()
			rng := rand.New(rand.NewPCG(1, 2))
			first := base
			r := c.Correlate(&first, 0, rng)
			c.Written(&r)
			e := base
			edit(&e)
			if r := c.Correlate(&e, 0, rng); r.Update {
				t.Errorf("an event with another %s is a repeat (count %d)", name, r.Count)
			}
			same := base
			if r := c.Correlate(&same, 0, rng); !r.Update {
				t.Errorf("the same event again is not a repeat")
			}
		})
	}
}
