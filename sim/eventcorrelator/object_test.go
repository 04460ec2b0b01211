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

// TestObjectMatchesCaches feeds the same random events about one object
// (types, reasons, field paths, messages from small sets; bursts and
// pauses around the aggregation interval and the spam filter's refill) to
// a Correlator and to an Object: every result must match, combined
// Events and refused ones included.
func TestObjectMatchesCaches(t *testing.T) {
	combined, skipped := 0, 0
	for seed := range uint64(40) {
		src := rand.New(rand.NewPCG(seed, 11))
		c := eventcorrelator.New()
		var o eventcorrelator.Object
		ra, rb := rand.New(rand.NewPCG(2, 2)), rand.New(rand.NewPCG(2, 2))
		now := kernel.Time(0)
		gaps := []time.Duration{0, time.Second, 5 * time.Second, 20 * time.Second, 20 * time.Second, time.Minute, 6 * time.Minute, 11 * time.Minute}
		for i := range 600 {
			now = now.Add(gaps[src.IntN(len(gaps))])
			e := eventcorrelator.Event{Component: "kubelet", Host: "node-1", Kind: "Pod", APIVersion: "v1", Namespace: "ns", Name: "web-1", UID: "u1",
				FieldPath: []string{"", "spec.containers{app}", "spec.containers{side}"}[src.IntN(3)],
				Type:      []string{"Normal", "Warning"}[src.IntN(2)], Reason: []string{"BackOff", "Unhealthy"}[src.IntN(2)],
				Message: fmt.Sprintf("m%d", src.IntN(13)), At: now}
			x, y := c.Correlate(&e, now, ra), o.Correlate(&e, now, rb)
			if x.Skip != y.Skip || x.Update != y.Update || x.Name != y.Name || x.Message != y.Message || x.Count != y.Count || x.First != y.First || x.Last != y.Last {
				t.Fatalf("seed %d, event %d (%+v):\ncaches %+v\nobject %+v", seed, i, e, x, y)
			}
			if strings.HasPrefix(x.Message, eventcorrelator.CombinedPrefix) {
				combined++
			}
			if x.Skip {
				skipped++
				continue
			}
			if src.IntN(5) > 0 { // written; else dropped after its tries
				c.Written(&x)
				o.Written(&e, &y)
			}
		}
	}
	if combined == 0 || skipped == 0 {
		t.Errorf("%d combined, %d refused: the streams miss the aggregator or the spam filter", combined, skipped)
	}
}
