package kubelet

import (
	"fmt"

	"github.com/clustersim/clustersim/sim/api"
)

// Unmodelled is a pod spec field the kubelet accepts but does not
// simulate: its path from the pod spec, and what is not simulated.
type Unmodelled struct {
	Field string
	Why   string
}

// UnmodelledFields lists the probes of spec's containers, which the
// kubelet does not run: a readiness probe's action (exec, httpGet,
// tcpSocket, grpc) is taken to succeed from initialDelaySeconds on, so
// the container turns ready then; a liveness probe never fails, so it
// restarts nothing; a startup probe succeeds at once.
func UnmodelledFields(spec *api.PodSpec) []Unmodelled {
	var out []Unmodelled
	for _, list := range []struct {
		field string
		cs    []api.Container
	}{{"initContainers", spec.InitContainers}, {"containers", spec.Containers}} {
		for i := range list.cs {
			c := &list.cs[i]
			at := fmt.Sprintf("%s[%d].", list.field, i)
			if p := c.ReadinessProbe; p != nil {
				out = append(out, Unmodelled{at + "readinessProbe." + probeAction(p), "the probe is not run: the container turns ready initialDelaySeconds after it starts"})
			}
			if p := c.LivenessProbe; p != nil {
				out = append(out, Unmodelled{at + "livenessProbe." + probeAction(p), "the probe is not run: it never fails, so it restarts nothing"})
			}
			if p := c.StartupProbe; p != nil {
				out = append(out, Unmodelled{at + "startupProbe." + probeAction(p), "the probe is not run: the container counts as started at once"})
			}
			if h := preStopOf(c); h.set && !h.modelled {
				out = append(out, Unmodelled{at + "lifecycle.preStop", "the hook is not run: it is taken to return at once (only sleep, and an exec of sleep N, take their time)"})
			}
		}
	}
	return out
}

// probeAction names the probe's action field.
func probeAction(p *api.Probe) string {
	switch {
	case p.Exec != nil:
		return "exec"
	case p.HTTPGet != nil:
		return "httpGet"
	case p.TCPSocket != nil:
		return "tcpSocket"
	case p.GRPC != nil:
		return "grpc"
	}
	return "(no action)"
}
