package measure

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/store"
)

// referenceSegments is the plain reading of segments: every field's runs
// in the order they first appear in the log, split at its object's
// removals, then those of two steps or more, ordered object by object
// (by each object's first appearance), each object's in log order.
func referenceSegments(audit []store.AuditRecord, o Options) []segment {
	var all []segment
	var objs []object
	open := map[object]map[string]int{}
	for i := range audit {
		r := &audit[i]
		ob := object{r.Kind, r.Key}
		if r.NoOp && !r.Removed {
			continue
		}
		if !slices.Contains(objs, ob) {
			objs = append(objs, ob)
		}
		if r.Removed {
			delete(open, ob)
			continue
		}
		for c := range r.EachChange() {
			if o.ignored(r.Kind.Name, c.Path) {
				continue
			}
			if open[ob] == nil {
				open[ob] = map[string]int{}
			}
			j, ok := open[ob][c.Path]
			if !ok {
				j = len(all)
				open[ob][c.Path] = j
				all = append(all, segment{f: field{r.Kind, r.Key, c.Path}})
				if c.OldSet {
					all[j].steps = append(all[j].steps, step{r.Time.Duration(), "", c.Old})
				}
			}
			all[j].steps = append(all[j].steps, step{r.Time.Duration(), r.Actor, value(c)})
		}
	}
	var out []segment
	for _, ob := range objs {
		for _, s := range all {
			if s.f.kind == ob.kind && s.f.key == ob.key && len(s.steps) >= 2 {
				out = append(out, s)
			}
		}
	}
	return out
}

// TestSegmentsMatchReference compares segments with referenceSegments on
// random logs: a few objects of three kinds written by a few actors, with
// creates, updates, no-ops, removals and re-creates, fields set, changed
// and unset, an ignored path, and Events kept brief, as a large run
// keeps them (segments leaves their records out; the reference reads
// them).
// The log is read whole, and cut into up to three parts read side by
// side (kernel.Parallel), which must give the same runs in the same
// order.
func TestSegmentsMatchReference(t *testing.T) {
	for _, parts := range []int{1, 3} {
		t.Run(fmt.Sprintf("parts=%d", parts), func(t *testing.T) {
			inParts(t, parts)
			segmentsMatchReference(t)
		})
	}
}

func segmentsMatchReference(t *testing.T) {
	o := Options{Ignore: []string{"Deployment:spec.b"}}.withDefaults()
	for seed := range uint64(200) {
		audit := randomLog(seed)
		got, want := segments(audit, o), referenceSegments(audit, o)
		if len(got) == 0 && len(want) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("seed %d: segments\n%+v\nwant\n%+v", seed, got, want)
		}
	}
}

// segments collects eachSegment's runs, each with its own copy of its
// steps.
func segments(audit []store.AuditRecord, o Options) []segment {
	parts := make([][]segment, maxParts)
	eachSegment(audit, o, func(part int, s segment) {
		parts[part] = append(parts[part], segment{f: s.f, steps: slices.Clone(s.steps)})
	})
	return slices.Concat(parts...)
}

// inParts makes eachSegment cut every log of more than one record into
// up to n parts, until the test ends.
func inParts(t *testing.T, n int) {
	minRecords, workers := minPartRecords, segmentWorkers
	minPartRecords, segmentWorkers = 1, func() int { return n }
	t.Cleanup(func() { minPartRecords, segmentWorkers = minRecords, workers })
}

// randomLog is a random audit log: a few objects of three kinds written
// by a few actors, with creates, updates, no-ops, removals and
// re-creates, fields set, changed and unset, an ignored path, and Events
// kept brief, as a large run keeps them.
func randomLog(seed uint64) []store.AuditRecord {
	paths := []string{"spec.a", "spec.b", "status.c", "metadata.labels[x]"}
	kinds := []api.Kind{api.KindPod, api.KindDeployment, api.KindEvent}
	actors := []string{"alice", "system:node:n", "system:kube-scheduler"}
	rng := rand.New(rand.NewPCG(seed, 7))
	var audit []store.AuditRecord
	for i := range 10 + rng.IntN(60) {
		r := store.AuditRecord{
			Time:  kernel.Time(i),
			Actor: actors[rng.IntN(len(actors))],
			Verb:  "update",
			Kind:  kinds[rng.IntN(len(kinds))],
			Key:   api.Key{Namespace: "ns", Name: fmt.Sprintf("o%d", rng.IntN(4))},
		}
		switch rng.IntN(10) {
		case 0:
			r.Removed, r.Verb = true, "delete"
			// An Event's writes are brief (AuditLog.BriefEvents),
			// its removal too.
			r.Brief = r.Kind == api.KindEvent
		case 1:
			r.NoOp = true
		default:
			if r.Kind == api.KindEvent {
				r.Brief = true // written, its changes not kept
				break
			}
			var cs []store.Change
			for _, p := range paths {
				if rng.IntN(2) == 0 {
					continue
				}
				old, new := fmt.Sprint(rng.IntN(3)), fmt.Sprint(rng.IntN(3))
				cs = append(cs, store.Change{Path: p, Old: old, New: new, OldSet: rng.IntN(3) > 0, NewSet: rng.IntN(4) > 0})
			}
			r = r.WithChanges(cs...)
		}
		audit = append(audit, r)
	}
	return audit
}

// TestFlapsAndFightsInParts: the flaps and fights of a log read in up
// to three parts side by side are those of the log read whole, in the
// same order, on random logs with flaps and fights in them (a flap
// needs one reversal, a fight one alternation; nothing ignored). Run
// under the race detector, it also holds the parts to writing only
// their own (Options.forPart).
func TestFlapsAndFightsInParts(t *testing.T) {
	o := Options{Ignore: []string{}, FlapMin: 1, FightMin: 1}.withDefaults()
	found := 0
	for seed := range uint64(200) {
		audit := randomLog(seed)
		wantFlaps, wantFights := flapsAndFights(audit, o)
		t.Run("", func(t *testing.T) {
			inParts(t, 3)
			gotFlaps, gotFights := flapsAndFights(audit, o)
			if !reflect.DeepEqual(gotFlaps, wantFlaps) || !reflect.DeepEqual(gotFights, wantFights) {
				t.Fatalf("seed %d: in parts\n%+v\n%+v\nwhole\n%+v\n%+v", seed, gotFlaps, gotFights, wantFlaps, wantFights)
			}
		})
		found += len(wantFlaps) + len(wantFights)
	}
	if found == 0 {
		t.Fatal("no flap or fight in any log: the test compares nothing")
	}
}

// TestSegmentParts: the parts' bounds, with minPartRecords at its
// default: a log of fewer than twice its records is one part; a larger
// one is cut at the first object that starts at or past each even share
// of the records, into at most n and maxParts
// parts, never between an object's records or into an empty part.
func TestSegmentParts(t *testing.T) {
	// starts builds start for objects of the given record counts.
	starts := func(counts ...int) []int32 {
		s := []int32{0}
		for _, c := range counts {
			s = append(s, s[len(s)-1]+int32(c))
		}
		return s
	}
	for _, tc := range []struct {
		name  string
		start []int32
		n     int
		want  []int
	}{
		{"empty", starts(), 4, []int{0, 0}},
		{"under two parts' worth", starts(60000, 39999), 2, []int{0, 2}},
		{"two parts' worth", starts(50000, 50000), 2, []int{0, 1, 2}},
		{"one processor", starts(50000, 50000, 50000), 1, []int{0, 3}},
		{"fewer objects than parts", starts(400000), 4, []int{0, 1}},
		{"four even parts", starts(50000, 50000, 50000, 50000, 50000, 50000, 50000, 50000), 4, []int{0, 2, 4, 6, 8}},
		{"at most maxParts", starts(slices.Repeat([]int{50000}, 20)...), 64, []int{0, 3, 5, 8, 10, 13, 15, 18, 20}},
	} {
		if got := segmentParts(tc.start, tc.n); !slices.Equal(got, tc.want) {
			t.Errorf("%s: parts %v, want %v", tc.name, got, tc.want)
		}
	}
}
