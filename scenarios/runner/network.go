package runner

import (
	"cmp"
	"slices"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/sim/netsim"
)

// netChanges are the network steps in force and what the links they
// touch were before them.
type netChanges struct {
	// active are the changes in force, in the order they started.
	active []*scenarios.NetworkChange
	// base is each touched direction's configuration before any change.
	base map[[2]netsim.Addr]netsim.LinkConfig
}

// startNetChange puts a network step in force and, if it has an end
// within the run, schedules its end.
func (r *run) startNetChange(st *scenarios.Step) {
	c := st.Network
	e := Entry{At: st.At.Duration, Command: "network: " + c.String()}
	r.net.active = append(r.net.active, c)
	if err := r.applyNetChanges(); err != nil {
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
	if err := r.applyNetChanges(); err != nil {
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

// applyNetChanges sets every link the changes in force touch to its base
// configuration with the changes applied in order, and restores the base
// of the links none touches any more. It is called again when endpoints
// join (added nodes) and after the link rules are set again.
func (r *run) applyNetChanges() error {
	if len(r.net.active) == 0 && len(r.net.base) == 0 {
		return nil
	}
	if r.net.base == nil {
		r.net.base = map[[2]netsim.Addr]netsim.LinkConfig{}
	}
	cfgs := map[[2]netsim.Addr]netsim.LinkConfig{}
	var order [][2]netsim.Addr
	for _, c := range r.net.active {
		from, to := r.addrs([]string{c.From}), r.addrs([]string{c.To})
		dirs := pairs(from, to)
		if c.Both {
			dirs = append(dirs, pairs(to, from)...)
		}
		for _, d := range dirs {
			cfg, ok := cfgs[d]
			if !ok {
				base, ok := r.net.base[d]
				if !ok {
					base = r.c.Net.Link(d[0], d[1])
					r.net.base[d] = base
				}
				cfg = base
				order = append(order, d)
			}
			cfgs[d] = c.Apply(cfg)
		}
	}
	for _, d := range order {
		if err := r.c.Net.SetLink(d[0], d[1], cfgs[d]); err != nil {
			return err
		}
	}
	var restore [][2]netsim.Addr
	for d := range r.net.base {
		if _, ok := cfgs[d]; !ok {
			restore = append(restore, d)
		}
	}
	slices.SortFunc(restore, func(a, b [2]netsim.Addr) int {
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		return cmp.Compare(a[1], b[1])
	})
	for _, d := range restore {
		if err := r.c.Net.SetLink(d[0], d[1], r.net.base[d]); err != nil {
			return err
		}
		delete(r.net.base, d)
	}
	return nil
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
