package report

import (
	"slices"
	"time"

	"github.com/clustersim/clustersim/report/measure"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/gap"
)

// The JSON shapes of a run's measurements (docs/report-schema.md). Times
// are seconds of virtual time from the start of the run, rounded to six
// decimals.

type objectJSON struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
}

func objectOf(o gap.Object) objectJSON {
	return objectJSON{Kind: o.Kind.Name, Namespace: o.Key.Namespace, Name: o.Key.Name}
}

type pointJSON struct {
	At     float64 `json:"atSeconds"`
	Value  int     `json:"value"`
	Detail string  `json:"detail"`
}

type seriesJSON struct {
	objectJSON
	Judged bool        `json:"judged"`
	Points []pointJSON `json:"points"`
}

type gapObjectJSON struct {
	objectJSON
	Opened     int     `json:"opened"`
	OpenTotal  float64 `json:"openSeconds"`
	Longest    float64 `json:"longestSeconds"`
	Peak       int     `json:"peak"`
	PeakDetail string  `json:"peakDetail"`
	OpenAtEnd  bool    `json:"openAtEnd"`
	Judged     bool    `json:"judged"`
}

type intervalJSON struct {
	objectJSON
	From       float64 `json:"fromSeconds"`
	To         float64 `json:"toSeconds"`
	Open       bool    `json:"openAtEnd"`
	Peak       int     `json:"peak"`
	PeakDetail string  `json:"peakDetail"`
}

type convergenceJSON struct {
	At        float64 `json:"atSeconds"`
	Cause     string  `json:"cause"`
	Converged bool    `json:"converged"`
	After     float64 `json:"afterSeconds"`
}

type staleJSON struct {
	objectJSON
	Generation int64   `json:"generation"`
	Observed   int64   `json:"observedGeneration"`
	From       float64 `json:"fromSeconds"`
	To         float64 `json:"toSeconds"`
}

type gapsJSON struct {
	SLO          float64           `json:"sloSeconds"`
	Settle       float64           `json:"settleSeconds"`
	Ignore       []string          `json:"ignoredKinds"`
	Objects      []gapObjectJSON   `json:"objects"`
	Incidents    []intervalJSON    `json:"incidents"`
	Convergence  []convergenceJSON `json:"convergence"`
	StaleSuccess []staleJSON       `json:"staleSuccess"`
	Series       []seriesJSON      `json:"series"`
}

func secs(d time.Duration) float64 { return round6(d.Seconds()) }

func gapsOf(r *runner.Result, g *measure.Gaps) gapsJSON {
	out := gapsJSON{SLO: secs(g.SLO), Settle: secs(g.Settle), Ignore: []string{}, Objects: []gapObjectJSON{}, Incidents: []intervalJSON{},
		Convergence: []convergenceJSON{}, StaleSuccess: []staleJSON{}, Series: []seriesJSON{}}
	for _, k := range g.Ignore {
		out.Ignore = append(out.Ignore, k.Name)
	}
	for _, o := range g.Objects {
		out.Objects = append(out.Objects, gapObjectJSON{objectJSON: objectOf(o.Object), Opened: o.Opened, OpenTotal: secs(o.OpenTotal), Longest: secs(o.Longest),
			Peak: o.Peak, PeakDetail: o.PeakDetail, OpenAtEnd: o.OpenAtEnd, Judged: !o.Ignored})
	}
	for _, iv := range g.Incidents {
		out.Incidents = append(out.Incidents, intervalJSON{objectJSON: objectOf(iv.Object), From: secs(iv.From), To: secs(iv.To), Open: iv.Open, Peak: iv.Peak, PeakDetail: iv.PeakDetail})
	}
	for _, c := range g.Convergence {
		out.Convergence = append(out.Convergence, convergenceJSON{At: secs(c.At), Cause: c.Cause, Converged: c.Settled, After: secs(c.After)})
	}
	for _, s := range g.StaleSuccess {
		out.StaleSuccess = append(out.StaleSuccess, staleJSON{objectJSON: objectOf(s.Object), Generation: s.Generation, Observed: s.Observed, From: secs(s.From), To: secs(s.To)})
	}
	if r.Gaps != nil {
		for _, s := range r.Gaps.Series {
			sj := seriesJSON{objectJSON: objectOf(s.Object), Judged: !slices.Contains(g.Ignore, s.Kind), Points: []pointJSON{}}
			for _, p := range s.Points {
				sj.Points = append(sj.Points, pointJSON{At: secs(p.At), Value: p.Value, Detail: p.Detail})
			}
			out.Series = append(out.Series, sj)
		}
	}
	return out
}

type fightJSON struct {
	objectJSON
	Path         string   `json:"path"`
	Actors       []string `json:"actors"`
	Alternations int      `json:"alternations"`
	First        float64  `json:"firstSeconds"`
	Last         float64  `json:"lastSeconds"`
}

type flapJSON struct {
	objectJSON
	Path      string   `json:"path"`
	Reversals int      `json:"reversals"`
	Values    []string `json:"values"`
	Actors    []string `json:"actors"`
	First     float64  `json:"firstSeconds"`
	Last      float64  `json:"lastSeconds"`
}

type noOpJSON struct {
	Actor string `json:"actor"`
	Kind  string `json:"kind"`
	Count int    `json:"count"`
}

type growthJSON struct {
	objectJSON
	Generations      int      `json:"generations"`
	SpecIntentWrites int      `json:"specIntentWrites"`
	Actors           []string `json:"actors"`
}

type hotLoopJSON struct {
	Controller string  `json:"controller"`
	Start      float64 `json:"startSeconds"`
	Window     float64 `json:"windowSeconds"`
	Reconciles int     `json:"reconciles"`
	PerSecond  float64 `json:"perSecond"`
	Errors     int     `json:"errors"`
}

type findingsJSON struct {
	Fights           []fightJSON   `json:"fights"`
	Flaps            []flapJSON    `json:"flaps"`
	NoOpWrites       []noOpJSON    `json:"noOpWrites"`
	GenerationGrowth []growthJSON  `json:"generationGrowth"`
	HotLoops         []hotLoopJSON `json:"hotLoops"`
}

func findingsOf(m *measure.Report) findingsJSON {
	out := findingsJSON{Fights: []fightJSON{}, Flaps: []flapJSON{}, NoOpWrites: []noOpJSON{}, GenerationGrowth: []growthJSON{}, HotLoops: []hotLoopJSON{}}
	for _, f := range m.Fights {
		out.Fights = append(out.Fights, fightJSON{objectJSON: objectOf(gap.Object{Kind: f.Kind, Key: f.Key}), Path: f.Path, Actors: f.Actors,
			Alternations: f.Alternations, First: secs(f.First), Last: secs(f.Last)})
	}
	for _, f := range m.Flaps {
		out.Flaps = append(out.Flaps, flapJSON{objectJSON: objectOf(gap.Object{Kind: f.Kind, Key: f.Key}), Path: f.Path, Reversals: f.Reversals,
			Values: f.Values, Actors: f.Actors, First: secs(f.First), Last: secs(f.Last)})
	}
	for _, n := range m.NoOpWrites {
		out.NoOpWrites = append(out.NoOpWrites, noOpJSON{Actor: n.Actor, Kind: n.Kind.Name, Count: n.Count})
	}
	for _, g := range m.GenerationGrowth {
		out.GenerationGrowth = append(out.GenerationGrowth, growthJSON{objectJSON: objectOf(gap.Object{Kind: g.Kind, Key: g.Key}),
			Generations: g.Generations, SpecIntentWrites: g.SpecIntentWrites, Actors: g.Actors})
	}
	for _, h := range m.HotLoops {
		out.HotLoops = append(out.HotLoops, hotLoopJSON{Controller: h.Controller, Start: secs(h.Start), Window: secs(h.Window),
			Reconciles: h.Reconciles, PerSecond: round6(h.PerSecond), Errors: h.Errors})
	}
	return out
}

type requestJSON struct {
	Actor   string `json:"actor"`
	Verb    string `json:"verb"`
	Kind    string `json:"kind"`
	Outcome string `json:"outcome"`
	Count   uint64 `json:"count"`
}

func requestsOf(m *measure.Report) []requestJSON {
	out := []requestJSON{}
	for _, q := range m.Cost.Requests {
		out = append(out, requestJSON{Actor: q.Actor, Verb: q.Verb, Kind: q.Kind, Outcome: q.Outcome, Count: q.Count})
	}
	return out
}

type controllerCostJSON struct {
	Controller string `json:"controller"`
	Reconciles int    `json:"reconciles"`
	Errors     int    `json:"errors"`
	Requeues   int    `json:"requeues"`
	Retries    int    `json:"retries"`
}

type timeoutJSON struct {
	Actor string `json:"actor"`
	Count uint64 `json:"count"`
}

type costJSON struct {
	Timeouts     []timeoutJSON        `json:"timeouts"`
	Writes       int                  `json:"writes"`
	NoOpWrites   int                  `json:"noOpWrites"`
	Events       int                  `json:"events"`
	EventUpdates int                  `json:"eventUpdates"`
	Controllers  []controllerCostJSON `json:"controllers"`
}

func costOf(m *measure.Report) costJSON {
	c := m.Cost
	out := costJSON{Writes: c.Writes, NoOpWrites: c.NoOps, Events: c.Events, EventUpdates: c.EventUpdates, Controllers: []controllerCostJSON{}}
	out.Timeouts = []timeoutJSON{}
	for _, a := range c.Actors {
		if a.Timeouts > 0 {
			out.Timeouts = append(out.Timeouts, timeoutJSON{Actor: a.Actor, Count: a.Timeouts})
		}
	}
	for _, k := range c.Controllers {
		out.Controllers = append(out.Controllers, controllerCostJSON{Controller: k.Controller, Reconciles: k.Reconciles, Errors: k.Errors, Requeues: k.Requeues, Retries: k.Retries})
	}
	return out
}

// evictionJSON is one zone's eviction pacing (runner.ZoneEvictions).
type evictionJSON struct {
	Zone              string          `json:"zone"`
	Size              int             `json:"size"`
	Phases            []zonePhaseJSON `json:"phases"`
	Tainted           int             `json:"tainted"`
	FirstTaintSeconds *float64        `json:"firstTaintSeconds,omitempty"`
	LastTaintSeconds  *float64        `json:"lastTaintSeconds,omitempty"`
	NotReadyAtEnd     int             `json:"notReadyAtEnd"`
}

// zonePhaseJSON is one state a zone went through (runner.ZonePhase).
type zonePhaseJSON struct {
	AtSeconds      float64 `json:"atSeconds"`
	State          string  `json:"state"`
	NotReady       int     `json:"notReady"`
	NodesPerSecond float64 `json:"nodesPerSecond"`
	Large          bool    `json:"large"`
	AllDisrupted   bool    `json:"allDisrupted"`
}

// evictionsOf is the run's eviction pacing, zone by zone ([] for none).
func evictionsOf(es []runner.ZoneEvictions) []evictionJSON {
	out := []evictionJSON{}
	for _, e := range es {
		j := evictionJSON{Zone: e.Zone, Size: e.Size, Phases: []zonePhaseJSON{}, Tainted: e.Tainted, NotReadyAtEnd: e.NotReadyAtEnd}
		for _, p := range e.Phases {
			j.Phases = append(j.Phases, zonePhaseJSON{AtSeconds: p.From.Seconds(), State: p.State, NotReady: p.NotReady, NodesPerSecond: p.Rate, Large: p.Large, AllDisrupted: p.AllDisrupted})
		}
		if e.Tainted > 0 {
			first, last := e.First.Seconds(), e.Last.Seconds()
			j.FirstTaintSeconds, j.LastTaintSeconds = &first, &last
		}
		out = append(out, j)
	}
	return out
}
