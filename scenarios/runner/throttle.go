package runner

import (
	"slices"
	"strings"
	"time"

	"github.com/clustersim/clustersim/scenarios"
)

// LongThrottle is the wait above which client-go logs a throttled request
// at its default verbosity ("Waited for ... due to client-side
// throttling, not priority and fairness"; extraLongThrottleLatency, 1 s,
// in k8s.io/client-go rest/request.go).
const LongThrottle = time.Second

// ActorThrottling is how one actor's paced client (spec.controllers' qps
// and burst, or the default pacing) waited for its token bucket over a
// run: the requests that waited, how long, and the stretches during which
// every request waited (the client was saturated).
type ActorThrottling struct {
	Actor string
	// Pacing is the client's bucket.
	Pacing scenarios.Pacing
	// Requests are the requests the bucket let through; Waited those that
	// waited for a token, Long those that waited longer than LongThrottle.
	Requests, Waited, Long uint64
	// TotalWait and LongestWait sum and bound the waits.
	TotalWait, LongestWait time.Duration
	// Stretches are the stretches of consecutive waiting requests, in
	// time order: from the first one's arrival to the last one's send.
	Stretches []ThrottleStretch
}

// ThrottleStretch is a stretch of consecutive requests that each waited
// for a token: a saturated client sends them QPS a second, so Waited
// requests take Waited/QPS seconds.
type ThrottleStretch struct {
	// Start is when the first of them asked for a token, End when the
	// last was sent.
	Start, End time.Duration
	// Waited counts them.
	Waited uint64
}

// Duration is End - Start.
func (s ThrottleStretch) Duration() time.Duration { return s.End - s.Start }

// Longest is the longest stretch (the first of equal ones); ok is false
// when there is none.
func (a *ActorThrottling) Longest() (s ThrottleStretch, ok bool) {
	for _, st := range a.Stretches {
		if !ok || st.Duration() > s.Duration() {
			s, ok = st, true
		}
	}
	return s, ok
}

// throttling collects every paced client's waits by actor.
type throttling struct {
	by map[string]*actorThrottle
}

// actorThrottle is one actor's tally, with its open stretch.
type actorThrottle struct {
	ActorThrottling
	open bool
	// folded tallies many clients (every kubelet's) as one actor: no
	// stretches, which would mix theirs.
	folded bool
}

// KubeletsActor is the actor the kubelets' throttling is folded under,
// one line for every node.
const KubeletsActor = "system:node:*"

// paced returns the client.Options.Paced of actor's client paced at p,
// reading the virtual clock with now.
func (t *throttling) paced(actor string, p scenarios.Pacing, now func() time.Duration) func(time.Duration) {
	if t.by == nil {
		t.by = map[string]*actorThrottle{}
	}
	a := t.by[actor]
	if a == nil {
		a = &actorThrottle{ActorThrottling: ActorThrottling{Actor: actor, Pacing: p}}
		t.by[actor] = a
	}
	return func(wait time.Duration) {
		a.Requests++
		if wait <= 0 {
			a.open = false
			return
		}
		at := now()
		a.Waited++
		a.TotalWait += wait
		a.LongestWait = max(a.LongestWait, wait)
		if wait > LongThrottle {
			a.Long++
		}
		if a.folded {
			return
		}
		if !a.open {
			a.Stretches = append(a.Stretches, ThrottleStretch{Start: at})
			a.open = true
		}
		st := &a.Stretches[len(a.Stretches)-1]
		st.End = max(st.End, at+wait)
		st.Waited++
	}
}

// foldedPaced is paced for the many clients tallied as actor (every
// kubelet's API client, say), without stretches.
func (t *throttling) foldedPaced(actor string, p scenarios.Pacing, now func() time.Duration) func(time.Duration) {
	f := t.paced(actor, p, now)
	t.by[actor].folded = true
	return f
}

// result is every actor that waited at least once, in actor order.
func (t *throttling) result() []ActorThrottling {
	var out []ActorThrottling
	for _, a := range t.by {
		if a.Waited > 0 {
			out = append(out, a.ActorThrottling)
		}
	}
	slices.SortFunc(out, func(a, b ActorThrottling) int { return strings.Compare(a.Actor, b.Actor) })
	return out
}
