package runner

import (
	"fmt"
	"time"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/netsim"
	"github.com/clustersim/clustersim/sim/store"
)

// faults injects a run's fault schedule (spec.faults, or Options.Faults).
type faults struct {
	r *run
	// active are the link and API server faults in force, by index.
	active map[int]*scenarios.Fault
	// order lists active's keys in the order the faults started.
	order []int
	// end is when the last fault ended (0: none ran).
	end time.Duration
}

// scheduleFaults draws the fault schedule from the "faults" random stream
// (so that drawing it shifts no other component's draws) and puts every
// fault on the clock.
func (r *run) scheduleFaults(until time.Duration) error {
	if r.s.Spec.Faults == nil {
		return nil
	}
	sched, err := scenarios.Schedule(r.s, r.res.Seed, r.c.K.Rand("faults"))
	if err != nil {
		return err
	}
	r.res.Faults = sched
	fs := &faults{r: r, active: map[int]*scenarios.Fault{}}
	r.faults = fs
	for i := range sched {
		f := &sched[i]
		if f.At.Duration > until {
			continue
		}
		if r.managers[f.Target] == nil {
			return fmt.Errorf("spec.faults: controller %q is not running", f.Target)
		}
		switch f.Type {
		case scenarios.FaultCrashAfterWrites:
			r.c.At(f.At.Duration, func() { fs.armCrashAfter(f) })
		default:
			r.c.At(f.At.Duration, func() { fs.start(i, f) })
			if f.Type != scenarios.FaultCrash {
				r.c.At(min(f.End(), until), func() { fs.stop(i, f) })
			}
		}
	}
	return nil
}

func ctrlAddr(name string) netsim.Addr { return netsim.Addr("controller/" + name) }

// wholeProcess is what a timeline entry adds when a crash or restart of
// controller name is one of its whole process: kube-controller-manager's
// one process, for its members; "" otherwise.
func (r *run) wholeProcess(name string) string {
	if m := r.managers[name]; m != nil && m.Hosted() != nil {
		return " (" + scenarios.ControllerManagerProcess + "'s one process: all its controllers)"
	}
	return ""
}

// processAddrs are the endpoints of controller name's process: its own,
// or, for a member of kube-controller-manager's one process, every
// endpoint of that process, its leader election's included
// (r.matchAddr), in the network's order.
func (r *run) processAddrs(name string) []netsim.Addr {
	if !r.inProcess(ctrlAddr(name)) {
		return []netsim.Addr{ctrlAddr(name)}
	}
	var out []netsim.Addr
	for _, ep := range r.c.Net.Endpoints() {
		if r.inProcess(ep.Addr()) {
			out = append(out, ep.Addr())
		}
	}
	return out
}

// start begins fault i.
func (fs *faults) start(i int, f *scenarios.Fault) {
	r := fs.r
	// Every fault that aims at a controller aims at its process: a
	// member of kube-controller-manager's one process takes the others
	// with it (processAddrs), and the entry says so.
	e := Entry{At: r.c.K.Now().Duration(), Command: "fault: " + f.String() + r.wholeProcess(f.Target)}
	switch f.Type {
	case scenarios.FaultCrash:
		m := r.managers[f.Target]
		if m.Running() {
			m.Crash()
		}
		r.c.At(f.End(), func() {
			e := Entry{At: r.c.K.Now().Duration(), Command: "fault: restart controller " + f.Target + r.wholeProcess(f.Target)}
			if !m.Running() {
				if err := m.Start(); err != nil {
					e.Err = "error: " + err.Error()
				}
			}
			fs.ended()
			r.record(e)
		})
	case scenarios.FaultPartition:
		if err := r.c.Net.Partition(fmt.Sprintf("fault-%d", i), r.processAddrs(f.Target), []netsim.Addr{cluster.APIServerAddr}, false); err != nil {
			e.Err = "error: " + err.Error()
		}
	case scenarios.FaultBrokenWatch:
		r.c.Store.Compact()
		fallthrough
	default:
		fs.active[i] = f
		fs.order = append(fs.order, i)
		if err := fs.apply(f); err != nil {
			e.Err = "error: " + err.Error()
		}
	}
	r.record(e)
}

// stop ends fault i.
func (fs *faults) stop(i int, f *scenarios.Fault) {
	r := fs.r
	e := Entry{At: r.c.K.Now().Duration(), Command: fmt.Sprintf("fault ends: %s", f.Type)}
	switch f.Type {
	case scenarios.FaultPartition:
		if err := r.c.Net.Heal(fmt.Sprintf("fault-%d", i)); err != nil {
			e.Err = "error: " + err.Error()
		}
	default:
		delete(fs.active, i)
		for j, k := range fs.order {
			if k == i {
				fs.order = append(fs.order[:j], fs.order[j+1:]...)
				break
			}
		}
		if err := fs.apply(f); err != nil {
			e.Err = "error: " + err.Error()
		}
	}
	fs.ended()
	r.record(e)
}

func (fs *faults) ended() { fs.end = max(fs.end, fs.r.c.K.Now().Duration()) }

// apply recomputes what f's kind of fault touches: the API server's
// service time from every slow-API-server fault in force, or the links
// (see applyLinks: the scenario's rule, then the network steps, then the
// link faults in force).
func (fs *faults) apply(f *scenarios.Fault) error {
	r := fs.r
	if f.Type == scenarios.FaultSlowAPIServer {
		var d time.Duration
		for _, i := range fs.order {
			if a := fs.active[i]; a.Type == scenarios.FaultSlowAPIServer {
				d = max(d, a.Delay.Duration)
			}
		}
		r.c.APIEndpoint.SetServiceTime(d)
		return nil
	}
	return r.applyLinks()
}

// armCrashAfter watches the audit log from now on and crashes f's target
// right after its f.Writes-th accepted write, at the same instant (before
// the reply can reach it), then restarts it f.For later.
func (fs *faults) armCrashAfter(f *scenarios.Fault) {
	r := fs.r
	m := r.managers[f.Target]
	actor := m.Actor()
	audit := r.c.Store.Audit()
	seen, count := audit.Len(), 0
	var watches []*store.Watch
	fired := false
	check := store.SinkFunc(func(store.Event) {
		if fired {
			return
		}
		for ; seen < audit.Len(); seen++ {
			if audit.At(seen).Actor != actor {
				continue
			}
			if count++; count == f.Writes {
				fired = true
				for _, w := range watches {
					w.Stop()
				}
				r.c.K.At(r.c.K.Now(), func() {
					r.record(Entry{At: r.c.K.Now().Duration(), Command: fmt.Sprintf("fault: crash controller %s after its write #%d%s", f.Target, f.Writes, r.wholeProcess(f.Target))})
					m.Crash()
					// Saturating: for may be as long as a duration can.
					r.c.K.At(r.c.K.Now().Add(f.For.Duration), func() {
						e := Entry{At: r.c.K.Now().Duration(), Command: "fault: restart controller " + f.Target + r.wholeProcess(f.Target)}
						if !m.Running() {
							if err := m.Start(); err != nil {
								e.Err = "error: " + err.Error()
							}
						}
						fs.ended()
						r.record(e)
					})
				})
				return
			}
		}
	})
	for _, kind := range api.Kinds() {
		w, err := r.c.Store.Watch(kind, r.c.Store.ResourceVersion(), store.ListOptions{}, check)
		if err == nil {
			watches = append(watches, w)
		}
	}
}
