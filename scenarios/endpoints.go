package scenarios

import (
	"fmt"
	"slices"
	"strings"
)

// endpoints lists every network endpoint the run will have at some point:
// the API server, each running controller (and the GitOps syncer and IaC
// tool), the kubelet of every node the scenario declares or adds, each
// user the timeline acts as ("admin" when a step names none) and each of
// users (Options.Users: serve's kubectl). The names are the runner's
// (sim/cluster, scenarios/runner).
func endpoints(s *Scenario, w *world, users ...string) []string {
	out := []string{"apiserver"}
	for _, c := range AllControllers() {
		if Runs(s, c) {
			out = append(out, "controller/"+c)
		}
	}
	if s.OneProcess() && len(processMembers(s)) > 0 {
		out = append(out, "controller/"+ControllerManagerProcess)
	}
	if s.Spec.GitOps != nil {
		out = append(out, "controller/gitops")
	}
	if s.Spec.IaC != nil {
		out = append(out, "controller/iac")
	}
	for _, g := range s.Spec.Cluster.NodeGroups {
		if g.Autoscaling != nil {
			out = append(out, "controller/cluster-autoscaler")
			break
		}
	}
	for n := range w.nodes {
		out = append(out, "kubelet/"+n)
	}
	as := map[string]bool{}
	for _, u := range users {
		as[u] = true
	}
	for _, st := range s.Spec.Timeline {
		u := st.As
		if u == "" {
			u = "admin"
		}
		as[u] = true
	}
	for u := range as {
		out = append(out, "user/"+u)
	}
	slices.Sort(out)
	return out
}

// MatchEndpoint reports whether an endpoint name matches a pattern of
// spec.network.links or a partition: the name itself, or a prefix ending
// in "*".
func MatchEndpoint(pattern, addr string) bool {
	if p, ok := strings.CutSuffix(pattern, "*"); ok {
		return strings.HasPrefix(addr, p)
	}
	return pattern == addr
}

// faultPatterns checks that every endpoint pattern of the link rules and of the
// partitions matches an endpoint that exists at some point of the run, so
// that a typo does not silently inject nothing.
func (l *loader) faultPatterns(s *Scenario, w *world) error {
	eps := endpoints(s, w, l.users...)
	check := func(field, pattern string) error {
		if pattern == "" {
			return l.errorf(field, "required")
		}
		for _, e := range eps {
			if MatchEndpoint(pattern, e) {
				return nil
			}
		}
		return l.errorf(field, "%q matches no endpoint of this run (endpoints are apiserver, controller/<name>, kubelet/<node>, user/<name>; here: %s)", pattern, abbreviate(eps, 12))
	}
	for i, r := range s.Spec.Network.Links {
		if err := check(fmt.Sprintf("spec.network.links[%d].from", i), r.From); err != nil {
			return err
		}
		if err := check(fmt.Sprintf("spec.network.links[%d].to", i), r.To); err != nil {
			return err
		}
	}
	for i, st := range s.Spec.Timeline {
		if c := st.Network; c != nil {
			if err := check(fmt.Sprintf("spec.timeline[%d].network.from", i), c.From); err != nil {
				return err
			}
			if err := check(fmt.Sprintf("spec.timeline[%d].network.to", i), c.To); err != nil {
				return err
			}
		}
		p := st.Partition
		if p == nil {
			continue
		}
		for _, side := range []struct {
			name string
			pats []string
		}{{"a", p.A}, {"b", p.B}} {
			for j, pat := range side.pats {
				if err := check(fmt.Sprintf("spec.timeline[%d].partition.%s[%d]", i, side.name, j), pat); err != nil {
					return err
				}
			}
		}
		// A partition cuts the links between an endpoint of side a and
		// another one of side b: sides that match one same endpoint and
		// nothing else would cut nothing.
		matched := map[string]bool{}
		for _, pat := range slices.Concat(p.A, p.B) {
			for _, e := range eps {
				if MatchEndpoint(pat, e) {
					matched[e] = true
				}
			}
		}
		if len(matched) == 1 {
			return l.errorf(fmt.Sprintf("spec.timeline[%d].partition.b", i), "both sides hold only %s: an endpoint cannot be partitioned from itself, so this would cut nothing", sortedKeys(matched)[0])
		}
	}
	return nil
}

// abbreviate joins the first n names and says how many more there are.
func abbreviate(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:n], ", "), len(names)-n)
}

// processOf is the process controller name runs in: kube-controller-
// manager's one process (ControllerManagerProcess) for its controllers
// when s runs it as one (spec.cluster.controllerManager: one-process),
// else the controller's own.
func processOf(s *Scenario, name string) string {
	if s.OneProcess() && InControllerManager(name) {
		return ControllerManagerProcess
	}
	return name
}

// processMembers are the controllers of kube-controller-manager that run
// in s (Runs, as the runner starts them), sorted: the members of its one
// process when s runs it as one. Runs reads every object s declares, so
// the loader asks only once all are read.
func processMembers(s *Scenario) []string {
	var out []string
	for _, c := range AllControllers() {
		if InControllerManager(c) && Runs(s, c) {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return out
}

// processNamed explains, for a name that is no running controller, that
// it names kube-controller-manager's one process, which a crash or a
// fault reaches through one of its controllers (those of running, the
// loader's set of the controllers a crash may name); "" when it does
// not.
func processNamed(s *Scenario, running map[string]bool, name string) string {
	if name != ControllerManagerProcess || !s.OneProcess() {
		return ""
	}
	var members []string
	for _, c := range sortedKeys(running) {
		if InControllerManager(c) {
			members = append(members, c)
		}
	}
	return fmt.Sprintf("%s is the process of its controllers here (spec.cluster.controllerManager: %s), not a controller: name one of them (%s); a crash or fault of one is one of the whole process", name, ControllerManagerOneProcess, strings.Join(members, ", "))
}

// oneProcessSides explains why a partition between sides a and b cannot
// be: both name an endpoint of kube-controller-manager's one process,
// which is one process on one connection (the runner names all of its
// endpoints for any of them); "" when they do not. Its controllers are
// taken whether they run or not (an on-demand one runs for kinds a
// later step may declare; a pattern that names only endpoints that do
// not exist is faultPatterns' error).
func oneProcessSides(s *Scenario, a, b []string) string {
	if !s.OneProcess() {
		return ""
	}
	eps := []string{"controller/" + ControllerManagerProcess}
	for _, c := range Controllers {
		if InControllerManager(c) {
			eps = append(eps, "controller/"+c)
		}
	}
	side := func(patterns []string) string {
		for _, p := range patterns {
			for _, e := range eps {
				if MatchEndpoint(p, e) {
					return e
				}
			}
		}
		return ""
	}
	ea, eb := side(a), side(b)
	if ea == "" || eb == "" {
		return ""
	}
	return fmt.Sprintf("%s (side a) and %s (side b) are both endpoints of %s's one process (spec.cluster.controllerManager: %s), which is one process on one connection: a partition cannot run between its controllers", ea, eb, ControllerManagerProcess, ControllerManagerOneProcess)
}
