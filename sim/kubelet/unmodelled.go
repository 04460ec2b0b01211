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

// UnmodelledFields lists what of spec the kubelet accepts but does not
// simulate: the pod's activeDeadlineSeconds and runtimeClassName, a
// postStart hook (never run), and a preStop hook whose duration is not
// known (only sleep, and an exec of "sleep N", take their time). Probes
// are run (probes.go): every action (exec, httpGet, tcpSocket, grpc)
// asks the simulated application, which answers as its image says.
func UnmodelledFields(spec *api.PodSpec) []Unmodelled {
	var out []Unmodelled
	if spec.ActiveDeadlineSeconds != nil {
		out = append(out, Unmodelled{"activeDeadlineSeconds", "the kubelet does not end the pod at its deadline (no DeadlineExceeded): it runs on"})
	}
	if spec.RuntimeClassName != nil {
		out = append(out, Unmodelled{"runtimeClassName", "RuntimeClasses are not simulated: the pod runs without one, admitted even when the class does not exist (Kubernetes refuses it then) and without the class's overhead"})
	}
	for _, list := range []struct {
		field string
		cs    []api.Container
	}{{"initContainers", spec.InitContainers}, {"containers", spec.Containers}} {
		for i := range list.cs {
			c := &list.cs[i]
			at := fmt.Sprintf("%s[%d].", list.field, i)
			if hasPostStart(c) {
				out = append(out, Unmodelled{at + "lifecycle.postStart", "the hook is not run: the container counts as started at once (Kubernetes starts the next container only once the hook returns, and kills the container if it fails)"})
			}
			if h := preStopOf(c); h.set && !h.modelled {
				out = append(out, Unmodelled{at + "lifecycle.preStop", "the hook is not run: it is taken to return at once (only sleep, and an exec of sleep N, take their time)"})
			}
		}
	}
	return out
}

// hasPostStart reports whether c has a postStart hook.
func hasPostStart(c *api.Container) bool {
	h, ok := c.Hooks()
	return ok && h.PostStart != nil
}
