package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/clustersim/clustersim/controllers/nodelifecycle"
	"github.com/clustersim/clustersim/scenarios/runner"
)

// maxZoneLines is how many zones the eviction pacing lists one by one;
// the others are summed on one line, so that a cluster of many zones
// still fits on a screen.
const maxZoneLines = 8

// evictionsText writes, for each zone that lost nodes, how the node
// lifecycle controller paced their NoExecute taints: the figure that
// decides how long a lost zone's pods wait before they are evicted and
// replaced, which upstream only logs ("Controller detected that zone
// zone-a is now in state PartialDisruption").
func evictionsText(w io.Writer, es []runner.ZoneEvictions, tolerationSeconds int64) {
	if len(es) == 0 {
		return
	}
	fmt.Fprintf(w, "\nNode eviction pacing (the node lifecycle controller taints not-Ready nodes NoExecute at its zones' rates; their pods are evicted when their toleration of the taint runs out, %ds unless a pod sets its own):\n", tolerationSeconds)
	for i := range es {
		if i == maxZoneLines && len(es) > maxZoneLines+1 {
			rest := es[i:]
			tainted, notReady := 0, 0
			for _, e := range rest {
				tainted += e.Tainted
				notReady += e.NotReadyAtEnd
			}
			fmt.Fprintf(w, "  and %d more zones: %s tainted, %d not Ready at the end\n", len(rest), plural(tainted, "node", "nodes"), notReady)
			return
		}
		fmt.Fprintf(w, "  %s\n", evictionLine(&es[i]))
	}
}

// evictionLine is one zone's eviction pacing on one line, a phase for
// each state and rate it went through: "zone-a, 100 nodes: 21:14
// PartialDisruption, 99 not Ready: NoExecute taints at 0.01 nodes/s, one
// every 1m40s (--secondary-node-eviction-rate: a partially disrupted
// zone of more than --large-cluster-size-threshold nodes); 24 nodes
// tainted, 21:19 to 59:39; 99 not Ready at the end".
func evictionLine(e *runner.ZoneEvictions) string {
	name := e.Zone
	if name == "" {
		name = "nodes without a zone label"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s, %s: ", name, plural(e.Size, "node", "nodes"))
	for i, p := range e.Phases {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s %s, %d not Ready: %s", clock(p.From), p.State, p.NotReady, phaseRate(p))
	}
	if len(e.Phases) > 0 {
		b.WriteString("; ")
	}
	switch {
	case e.Tainted == 1:
		fmt.Fprintf(&b, "1 node tainted at %s", clock(e.First))
	case e.Tainted > 1:
		fmt.Fprintf(&b, "%d nodes tainted, %s to %s", e.Tainted, clock(e.First), clock(e.Last))
	default:
		b.WriteString("no node tainted")
	}
	fmt.Fprintf(&b, "; %d not Ready at the end", e.NotReadyAtEnd)
	// What the last rate leaves: the not-Ready nodes not yet tainted
	// (as many as are not Ready beyond those tainted), and how long they
	// would take at it.
	if left := e.NotReadyAtEnd - e.Tainted; left > 0 && len(e.Phases) > 0 {
		rate := e.Phases[len(e.Phases)-1].Rate
		if rate <= 0 {
			fmt.Fprintf(&b, ", %d of them not tainted at that rate", left)
		} else {
			more := time.Duration(float64(left) / rate * float64(time.Second)).Round(time.Minute)
			fmt.Fprintf(&b, ", the other %d some %v more at that rate", left, more)
		}
	}
	return b.String()
}

// phaseRate says at what rate a phase tainted and which of
// kube-controller-manager's settings made it so.
func phaseRate(p runner.ZonePhase) string {
	partial := p.State == nodelifecycle.ZonePartialDisruption
	switch {
	case p.AllDisrupted:
		return "no NoExecute taints (every zone fully disrupted: the control plane, not the nodes, is presumed at fault)"
	case partial && !p.Large:
		return "no NoExecute taints (a partially disrupted zone of at most --large-cluster-size-threshold nodes)"
	case partial && p.Rate <= 0:
		return "no NoExecute taints (--secondary-node-eviction-rate 0)"
	case p.Rate <= 0:
		return "no NoExecute taints (--node-eviction-rate 0)"
	}
	rate := "NoExecute taints at " + strconv.FormatFloat(p.Rate, 'g', -1, 64) + " nodes/s"
	if every := time.Duration(float64(time.Second) / p.Rate).Round(time.Millisecond); every > time.Second {
		rate += ", one every " + every.String()
	}
	if partial {
		return rate + " (--secondary-node-eviction-rate: a partially disrupted zone of more than --large-cluster-size-threshold nodes)"
	}
	return rate + " (--node-eviction-rate)"
}
