package apiserver

import (
	"fmt"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// DefaultTolerationSecondsValue is kube-apiserver's default for both
// --default-not-ready-toleration-seconds and
// --default-unreachable-toleration-seconds: 300 seconds, so that a pod on a
// node that stops reporting is evicted about five minutes after the node
// lifecycle controller taints the node.
const DefaultTolerationSecondsValue int64 = 300

// DefaultTolerationSeconds is the mutating admission plugin of that name
// (k/k plugin/pkg/admission/defaulttolerationseconds): on pod create it
// adds the tolerations
//
//	node.kubernetes.io/not-ready:NoExecute op=Exists for NotReadySeconds
//	node.kubernetes.io/unreachable:NoExecute op=Exists for UnreachableSeconds
//
// in that order, each unless the pod already tolerates that taint: a
// toleration whose key is the taint's or empty (every key) and whose
// effect is NoExecute or empty (every effect) counts, whatever its
// operator, value and tolerationSeconds, as upstream decides.
//
// Upstream also runs the plugin on pod updates; clustersim runs it on
// creates only (every pod is created through admission, so the result is
// the same, and an update never changes a pod's tolerations behind the
// writer's back).
type DefaultTolerationSeconds struct {
	// NotReadySeconds is the tolerationSeconds of the not-ready toleration
	// (kube-apiserver's default: 300). 0 is a valid value: evict at once.
	NotReadySeconds int64
	// UnreachableSeconds is the tolerationSeconds of the unreachable
	// toleration (kube-apiserver's default: 300).
	UnreachableSeconds int64
}

// NewDefaultTolerationSeconds returns the plugin with kube-apiserver's
// defaults: 300 seconds for both tolerations.
func NewDefaultTolerationSeconds() DefaultTolerationSeconds {
	return DefaultTolerationSeconds{NotReadySeconds: DefaultTolerationSecondsValue, UnreachableSeconds: DefaultTolerationSecondsValue}
}

// Name returns "DefaultTolerationSeconds".
func (DefaultTolerationSeconds) Name() string { return "DefaultTolerationSeconds" }

// Admit adds the default tolerations to a pod being created.
func (d DefaultTolerationSeconds) Admit(a *Attributes) error {
	if a.Verb != Create || a.Kind != api.KindPod || a.Subresource != "" || a.Object == nil {
		return nil
	}
	pod, ok := a.Object.(*api.Pod)
	if !ok {
		return apierr.NewBadRequest(fmt.Sprintf("expected *api.Pod but got %T", a.Object))
	}
	notReady, unreachable := false, false
	for i := range pod.Spec.Tolerations {
		t := &pod.Spec.Tolerations[i]
		if t.Effect != api.TaintEffectNoExecute && t.Effect != "" {
			continue
		}
		if t.Key == api.TaintNodeNotReady || t.Key == "" {
			notReady = true
		}
		if t.Key == api.TaintNodeUnreachable || t.Key == "" {
			unreachable = true
		}
	}
	if !notReady {
		pod.Spec.Tolerations = append(pod.Spec.Tolerations, toleration(api.TaintNodeNotReady, d.NotReadySeconds))
	}
	if !unreachable {
		pod.Spec.Tolerations = append(pod.Spec.Tolerations, toleration(api.TaintNodeUnreachable, d.UnreachableSeconds))
	}
	return nil
}

func toleration(key string, seconds int64) api.Toleration {
	s := seconds
	return api.Toleration{Key: key, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: &s}
}

// SetDefaultTolerationSeconds replaces the tolerationSeconds the
// DefaultTolerationSeconds plugin gives new pods (kube-apiserver's
// --default-not-ready-toleration-seconds and
// --default-unreachable-toleration-seconds). If the server has no such
// plugin, one is added after the other mutating plugins.
func (s *Server) SetDefaultTolerationSeconds(notReady, unreachable int64) {
	p := DefaultTolerationSeconds{NotReadySeconds: notReady, UnreachableSeconds: unreachable}
	for i, m := range s.mutating {
		if _, ok := m.(DefaultTolerationSeconds); ok {
			s.mutating[i] = p
			return
		}
	}
	s.AddMutating(p)
}
