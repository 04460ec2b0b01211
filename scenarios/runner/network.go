package runner

import (
	"slices"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/sim/netsim"
)

// netChanges are the network steps in force.
type netChanges struct {
	// active are the changes in force, in the order they started.
	active []*scenarios.NetworkChange
}

// startNetChange puts a network step in force and, if it has an end
// within the run, schedules its end.
func (r *run) startNetChange(st *scenarios.Step) {
	c := st.Network
	e := Entry{At: st.At.Duration, Command: "network: " + c.String()}
	r.net.active = append(r.net.active, c)
	if err := r.applyLinks(); err != nil {
		e.Err = "error: " + err.Error()
	}
	r.record(e)
	if c.Until != nil {
		r.c.At(c.Until.Duration, func() { r.endNetChange(c) })
	}
}

// endNetChange takes a network step out of force: the links it touched
// return to their configuration before it (or under the changes still in
// force).
func (r *run) endNetChange(c *scenarios.NetworkChange) {
	e := Entry{At: r.c.K.Now().Duration(), Command: "network change ends: " + c.From + " " + changeArrow(c.Both) + " " + c.To}
	if i := slices.Index(r.net.active, c); i >= 0 {
		r.net.active = slices.Delete(r.net.active, i, i+1)
	}
	if err := r.applyLinks(); err != nil {
		e.Err = "error: " + err.Error()
	}
	r.record(e)
}

func changeArrow(both bool) string {
	if both {
		return "<->"
	}
	return "->"
}

// pairs lists the directions from each of from to each of to, itself
// excluded.
func pairs(from, to []netsim.Addr) [][2]netsim.Addr {
	var out [][2]netsim.Addr
	for _, f := range from {
		for _, t := range to {
			if f != t {
				out = append(out, [2]netsim.Addr{f, t})
			}
		}
	}
	return out
}
