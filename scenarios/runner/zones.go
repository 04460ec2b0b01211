package runner

import (
	"slices"
	"strings"
	"time"

	"github.com/clustersim/clustersim/controllers/nodelifecycle"
)

// ZoneEvictions is how the node lifecycle controller paced the NoExecute
// taints of one zone's not-Ready nodes over a run (their pods are
// evicted once their tolerations of the taint run out: 300 s by
// default): the zone's disruption states and tainting rates, and the
// nodes it tainted. A zone is reported from its first pass with a
// not-Ready node after it had been Normal (a cluster's start, nodes not
// yet Ready, is not a disruption); zones that never had one are left
// out.
type ZoneEvictions struct {
	// Zone is the zone's name (nodelifecycle.ZoneName; "" for nodes
	// without zone labels); Size its nodes at the last pass.
	Zone string
	Size int
	// Phases are the zone's states from its first not-Ready node on, a
	// new one each time its state or rate changed, in time order.
	Phases []ZonePhase
	// Tainted counts the nodes the tainting pass tainted NoExecute (a
	// node tainted again, after a stale read or a recovery and a new loss,
	// once), First and Last when it wrote the first and the last taint.
	Tainted     int
	First, Last time.Duration
	// NotReadyAtEnd is the zone's not-Ready nodes at the last pass.
	NotReadyAtEnd int
}

// ZonePhase is one stretch of a zone's disruption state and rate.
type ZonePhase struct {
	// From is the pass that entered it; NotReady the zone's not-Ready
	// nodes then.
	From     time.Duration
	State    string
	NotReady int
	// Rate is the nodes a second tainted NoExecute (0: none); Large,
	// whether the zone has more nodes than --large-cluster-size-threshold
	// (nodelifecycle.ZoneStatus).
	Rate  float64
	Large bool
	// AllDisrupted: every zone was fully disrupted and the controller
	// stopped evicting (upstream's master disruption mode).
	AllDisrupted bool
}

// zoneEvictions collects the node lifecycle controller's passes
// (nodelifecycle.ZoneObserver), across its incarnations, by zone.
type zoneEvictions struct {
	now func() time.Duration
	by  map[string]*zoneRecord
}

// zoneRecord is one zone's tally.
type zoneRecord struct {
	ZoneEvictions
	// settled is set once a pass found the zone Normal; reporting starts
	// at its first not-Ready node after that.
	settled, reporting bool
	// tainted are the nodes tainted so far.
	tainted map[string]bool
}

// ZonePass implements nodelifecycle.ZoneObserver.
func (z *zoneEvictions) ZonePass(st nodelifecycle.ZoneStatus) {
	r := z.record(st.Zone)
	r.Size, r.NotReadyAtEnd = st.Size, st.NotReady
	if !r.reporting {
		if st.State == nodelifecycle.ZoneNormal && st.NotReady == 0 {
			r.settled = true
		}
		if !r.settled || st.NotReady == 0 {
			return
		}
		r.reporting = true
	}
	if n := len(r.Phases); n > 0 {
		last := &r.Phases[n-1]
		if last.State == st.State && last.Rate == st.Rate && last.Large == st.Large && last.AllDisrupted == st.AllDisrupted {
			return
		}
	}
	r.Phases = append(r.Phases, ZonePhase{From: z.now(), State: st.State, NotReady: st.NotReady, Rate: st.Rate, Large: st.Large, AllDisrupted: st.AllDisrupted})
}

// Tainted implements nodelifecycle.ZoneObserver.
func (z *zoneEvictions) Tainted(zone, node string) {
	r := z.record(zone)
	at := z.now()
	if r.tainted == nil {
		r.tainted = map[string]bool{}
		r.First = at
	}
	r.tainted[node] = true
	r.Tainted = len(r.tainted)
	r.Last = at
}

func (z *zoneEvictions) record(zone string) *zoneRecord {
	if z.by == nil {
		z.by = map[string]*zoneRecord{}
	}
	r := z.by[zone]
	if r == nil {
		r = &zoneRecord{ZoneEvictions: ZoneEvictions{Zone: zone}}
		z.by[zone] = r
	}
	return r
}

// result is every zone reported or tainted in, in zone order.
func (z *zoneEvictions) result() []ZoneEvictions {
	var out []ZoneEvictions
	for _, r := range z.by {
		if len(r.Phases) > 0 || r.Tainted > 0 {
			out = append(out, r.ZoneEvictions)
		}
	}
	slices.SortFunc(out, func(a, b ZoneEvictions) int { return strings.Compare(a.Zone, b.Zone) })
	return out
}
