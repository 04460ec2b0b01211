package gap

import (
	"cmp"
	"slices"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// Interval is one stretch during which an object's gap was open.
type Interval struct {
	Object
	// From is when the gap opened; To when it closed, or the run's end
	// if it never did (then Open is true).
	From, To time.Duration
	Open     bool
	// Peak is the largest gap of the stretch and PeakDetail what was
	// compared at its first occurrence.
	Peak       int
	PeakDetail string
}

// Duration is how long the gap stayed open (up to the run's end).
func (iv Interval) Duration() time.Duration { return iv.To - iv.From }

// Intervals returns every stretch of an open gap of every object, sorted
// by opening time, then kind and key.
func (tl *Timeline) Intervals() []Interval {
	var out []Interval
	for i := range tl.Series {
		out = append(out, tl.Series[i].Intervals(tl.End)...)
	}
	slices.SortStableFunc(out, func(a, b Interval) int {
		return cmp.Or(cmp.Compare(a.From, b.From), a.compare(b.Object))
	})
	return out
}

// Intervals returns the series' stretches of an open gap in time order;
// one still open at end runs to end.
func (s *Series) Intervals(end time.Duration) []Interval {
	var out []Interval
	var cur *Interval
	for _, p := range s.Points {
		switch {
		case p.Value > 0 && cur == nil:
			out = append(out, Interval{Object: s.Object, From: p.At, Peak: p.Value, PeakDetail: p.Detail})
			cur = &out[len(out)-1]
		case p.Value > 0 && p.Value > cur.Peak:
			cur.Peak, cur.PeakDetail = p.Value, p.Detail
		case p.Value == 0 && cur != nil:
			cur.To = p.At
			cur = nil
		}
	}
	if cur != nil {
		cur.To, cur.Open = max(end, cur.From), true
	}
	return out
}

// Incidents are the intervals that stayed open longer than slo (those
// still open at the end included, if already longer than slo).
func (tl *Timeline) Incidents(slo time.Duration) []Interval {
	var out []Interval
	for _, iv := range tl.Intervals() {
		if iv.Duration() > slo {
			out = append(out, iv)
		}
	}
	return out
}

// span is a stretch of time during which some gap was open.
type span struct{ from, to time.Duration }

// openSpans merges every object's open intervals into disjoint spans in
// time order; a span still open at the end runs to End and open reports
// it.
func (tl *Timeline) openSpans() (spans []span, open bool) {
	ivs := tl.Intervals()
	for _, iv := range ivs {
		if iv.Duration() == 0 && !iv.Open {
			continue
		}
		open = open || iv.Open
		if n := len(spans); n > 0 && iv.From <= spans[n-1].to {
			spans[n-1].to = max(spans[n-1].to, iv.To)
			continue
		}
		spans = append(spans, span{iv.From, iv.To})
	}
	return spans, open
}

// Settled returns the first instant at or after t from which every gap
// is closed and stays closed for at least settle, within the run; ok is
// false when there is none ("never, within the run"): a gap still open
// at the end, or too little of the run left to see it stay closed.
//
// next is the time of the next cause after t (0 for none): a stretch
// that stays closed from before next until next counts as settled even
// if shorter than settle, so a gap the next action opens is not blamed
// on this one. A stretch that begins at or after next must last settle.
func (tl *Timeline) Settled(t, settle, next time.Duration) (at time.Duration, ok bool) {
	spans, openAtEnd := tl.openSpans()
	cur := t
	need := func() time.Duration {
		if next > cur {
			return min(settle, next-cur)
		}
		return settle
	}
	for i, s := range spans {
		if s.to <= cur {
			continue
		}
		if s.from <= cur {
			// Inside an open span: wait for it to close.
			if i == len(spans)-1 && openAtEnd {
				return 0, false
			}
			cur = s.to
			continue
		}
		if s.from-cur >= need() {
			return cur, true
		}
		if i == len(spans)-1 && openAtEnd {
			return 0, false
		}
		cur = s.to
	}
	if tl.End-cur >= need() {
		return cur, true
	}
	return 0, false
}

// OpenAt returns how many objects had an open gap at t, and their total
// gap.
func (tl *Timeline) OpenAt(t time.Duration) (objects, total int) {
	for i := range tl.Series {
		if v := tl.Series[i].At(t).Value; v > 0 {
			objects++
			total += v
		}
	}
	return objects, total
}

// KindTotal returns the sum of the gaps of every object of kind as one
// step series (Object.Key empty).
func (tl *Timeline) KindTotal(kind api.Kind) Series {
	var members []*Series
	for i := range tl.Series {
		if tl.Series[i].Kind == kind {
			members = append(members, &tl.Series[i])
		}
	}
	out := Sum(members)
	out.Object = Object{Kind: kind}
	return out
}

// Sum adds step series into one (its Object left empty): a point at
// every time any of them changes, where the total changes.
func Sum(series []*Series) Series {
	var out Series
	var times []time.Duration
	for _, s := range series {
		for _, p := range s.Points {
			times = append(times, p.At)
		}
	}
	slices.Sort(times)
	times = slices.Compact(times)
	for _, at := range times {
		sum := 0
		for _, s := range series {
			sum += s.At(at).Value
		}
		if n := len(out.Points); n > 0 && out.Points[n-1].Value == sum {
			continue
		}
		out.Points = append(out.Points, Point{At: at, Value: sum})
	}
	return out
}

// Sample returns the series' value at 0, step, 2×step, ... up to end
// inclusive (a step of 0 or less gives no samples).
func (s *Series) Sample(step, end time.Duration) []int {
	if step <= 0 || end < 0 {
		return nil
	}
	out := make([]int, 0, end/step+1)
	i := 0
	v := 0
	for t := time.Duration(0); t <= end; t += step {
		for i < len(s.Points) && s.Points[i].At <= t {
			v = s.Points[i].Value
			i++
		}
		out = append(out, v)
	}
	return out
}

// Without returns the timeline without the series of the given kinds
// (their StaleSuccess and EmptySelectors stretches too); the series are shared, not copied.
func (tl *Timeline) Without(kinds []api.Kind) *Timeline {
	if len(kinds) == 0 {
		return tl
	}
	out := &Timeline{End: tl.End}
	for _, s := range tl.Series {
		if !slices.Contains(kinds, s.Kind) {
			out.Series = append(out.Series, s)
		}
	}
	for _, s := range tl.StaleSuccess {
		if !slices.Contains(kinds, s.Kind) {
			out.StaleSuccess = append(out.StaleSuccess, s)
		}
	}
	for _, e := range tl.EmptySelectors {
		if !slices.Contains(kinds, e.Kind) {
			out.EmptySelectors = append(out.EmptySelectors, e)
		}
	}
	return out
}
