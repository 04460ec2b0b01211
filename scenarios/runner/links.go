package runner

import (
	"cmp"
	"slices"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/netsim"
)

// dir is one direction of a link, from -> to.
type dir = [2]netsim.Addr

// applyLinks sets every direction that a network step or a fault
// profile's link fault touches to its one configuration: the scenario's
// link rule for it (spec.network.links, else spec.network.default), then
// the network steps in force in the order they started, then the link
// faults in force. Directions no step or fault touches any more go back
// to the rule alone. Both sources start from the same base, recomputed
// from the rules every time, so neither can restore a value the other
// set (a permanent drop undone, or a window's drop made permanent). It is
// called whenever a step or a fault starts or ends, when endpoints join
// (added nodes) and after the link rules are set again.
func (r *run) applyLinks() error {
	if len(r.net.active) == 0 && len(r.overlaid) == 0 && (r.faults == nil || len(r.faults.order) == 0) {
		return nil
	}
	cfgs := map[dir]netsim.LinkConfig{}
	var order []dir
	layer := func(d dir) (netsim.LinkConfig, error) {
		if cfg, ok := cfgs[d]; ok {
			return cfg, nil
		}
		order = append(order, d)
		cfg, _, err := r.ruleLink(d)
		return cfg, err
	}
	for _, c := range r.net.active {
		from, to := r.addrs([]string{c.From}), r.addrs([]string{c.To})
		dirs := pairs(from, to)
		if c.Both {
			dirs = append(dirs, pairs(to, from)...)
		}
		for _, d := range dirs {
			cfg, err := layer(d)
			if err != nil {
				return err
			}
			cfgs[d] = c.Apply(cfg)
		}
	}
	if r.faults != nil {
		for _, i := range r.faults.order {
			f := r.faults.active[i]
			if f.Type == scenarios.FaultSlowAPIServer {
				continue
			}
			// Every endpoint of the target's process: a member of
			// kube-controller-manager's one process gets its watches and
			// its lease through the process's.
			for _, ctrl := range r.processAddrs(f.Target) {
				for _, d := range []dir{{ctrl, cluster.APIServerAddr}, {cluster.APIServerAddr, ctrl}} {
					cfg, err := layer(d)
					if err != nil {
						return err
					}
					cfgs[d] = faultLink(f, d, cfg)
				}
			}
		}
	}
	for _, d := range order {
		if err := r.c.Net.SetLink(d[0], d[1], cfgs[d]); err != nil {
			return err
		}
	}
	var restore []dir
	for d := range r.overlaid {
		if _, ok := cfgs[d]; !ok {
			restore = append(restore, d)
		}
	}
	slices.SortFunc(restore, func(a, b dir) int {
		if c := cmp.Compare(a[0], b[0]); c != 0 {
			return c
		}
		return cmp.Compare(a[1], b[1])
	})
	for _, d := range restore {
		cfg, ruled, err := r.ruleLink(d)
		if err != nil {
			return err
		}
		if ruled {
			if err := r.c.Net.SetLink(d[0], d[1], cfg); err != nil {
				return err
			}
		} else {
			r.c.Net.ClearLink(d[0], d[1])
		}
		delete(r.overlaid, d)
	}
	if len(order) > 0 && r.overlaid == nil {
		r.overlaid = map[dir]bool{}
	}
	for _, d := range order {
		r.overlaid[d] = true
	}
	return nil
}

// ruleLink is the configuration the scenario's rules give direction d:
// the last rule of spec.network.links that matches it (as applyLinkRules
// sets them), else the network's default (ruled false).
func (r *run) ruleLink(d dir) (cfg netsim.LinkConfig, ruled bool, err error) {
	rules := r.s.Spec.Network.Links
	for i := len(rules) - 1; i >= 0; i-- {
		rule := rules[i]
		from, to := string(d[0]), string(d[1])
		if (r.matchAddr(rule.From, from) && r.matchAddr(rule.To, to)) || (rule.Both && r.matchAddr(rule.From, to) && r.matchAddr(rule.To, from)) {
			cfg, err := scenarios.LinkConfig(rule.Link)
			return cfg, true, err
		}
	}
	return r.c.Net.Default(), false, nil
}

// faultLink is cfg under link fault f, for direction d of the link
// between f's target and the API server: the larger of each probability
// or lag.
func faultLink(f *scenarios.Fault, d dir, cfg netsim.LinkConfig) netsim.LinkConfig {
	toCtrl := d[0] == cluster.APIServerAddr
	switch f.Type {
	case scenarios.FaultLossy:
		cfg.Drop = max(cfg.Drop, f.Drop)
		cfg.Duplicate = max(cfg.Duplicate, f.Duplicate)
	case scenarios.FaultBrokenWatch:
		if toCtrl {
			cfg.StreamBreak = max(cfg.StreamBreak, f.StreamBreak)
		}
	case scenarios.FaultCacheLag:
		if toCtrl {
			cfg.StreamLag = max(cfg.StreamLag, f.Delay.Duration)
		}
	}
	return cfg
}
