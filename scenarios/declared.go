package scenarios

import "github.com/clustersim/clustersim/sim/api"

// Declared lists every object the scenario declares anywhere: its
// objects, those of the timeline's apply and server-side apply steps, of
// the GitOps commits and of the IaC declaration.
func (s *Scenario) Declared() []api.Object {
	out := append([]api.Object(nil), s.Objects...)
	for _, st := range s.Spec.Timeline {
		if st.Apply != nil {
			out = append(out, st.Apply.Parsed...)
		}
		if st.ServerSideApply != nil {
			out = append(out, st.ServerSideApply.Parsed...)
		}
	}
	if g := s.Spec.GitOps; g != nil {
		for _, a := range g.Applications {
			for _, c := range a.Commits {
				out = append(out, c.Parsed...)
			}
		}
	}
	if c := s.Spec.IaC; c != nil {
		out = append(out, c.Parsed...)
	}
	return out
}
