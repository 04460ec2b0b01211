package apiserver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/store"
)

// LimitRangerAnnotation records on a pod the defaults LimitRanger set.
const LimitRangerAnnotation = "kubernetes.io/limit-ranger"

// LimitRanger is the LimitRanger admission plugin
// (k/k plugin/pkg/admission/limitranger/admission.go) for pods: on create,
// the mutating half fills each container's missing limits from the
// namespace's LimitRanges' default and its missing requests from
// defaultRequest, noting it in the kubernetes.io/limit-ranger annotation;
// the validating half rejects a pod whose containers and init containers
// (type Container) or totals (type Pod: sidecars counted, pod-level
// resources in place of the containers') break a min, max or
// maxLimitRequestRatio, with 403 and upstream's messages. Constraints are
// checked in resource name order (upstream iterates a map).
type LimitRanger struct {
	// Validate selects the validating half; else the mutating one.
	Validate bool
}

// Name returns "LimitRanger".
func (LimitRanger) Name() string { return "LimitRanger" }

// Admit applies defaults or checks constraints on a pod create.
func (l LimitRanger) Admit(a *Attributes) error {
	p, ok := a.Object.(*api.Pod)
	if a.Verb != Create || !ok || a.Kind != api.KindPod || p.Namespace == "" {
		return nil
	}
	ranges, _, err := a.Store.List(api.KindLimitRange, store.ListOptions{Namespace: p.Namespace})
	if err != nil || len(ranges) == 0 {
		return nil
	}
	var errs []string
	for _, o := range ranges {
		lr, ok := o.(*api.LimitRange)
		if !ok {
			continue
		}
		if !l.Validate {
			applyLimitDefaults(p, lr)
			continue
		}
		errs = append(errs, limitErrors(p, lr)...)
	}
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return apierr.NewForbidden("pods", p.Name, errs[0])
	}
	return apierr.NewForbidden("pods", p.Name, "["+strings.Join(errs, ", ")+"]")
}

// applyLimitDefaults is upstream's mergePodResourceRequirements with
// defaultContainerResourceRequirements (the annotation reads "LimitRanger
// plugin set: cpu request for container nginx; cpu limit for container
// nginx").
func applyLimitDefaults(p *api.Pod, lr *api.LimitRange) {
	defLimits, defRequests := api.ResourceList{}, api.ResourceList{}
	for _, it := range lr.Spec.Limits {
		if it.Type != api.LimitTypeContainer {
			continue
		}
		for k, v := range it.DefaultRequest {
			defRequests[k] = v
		}
		for k, v := range it.Default {
			defLimits[k] = v
		}
	}
	var notes []string
	merge := func(cs []api.Container, what string) {
		for i := range cs {
			c := &cs[i]
			var setReq, setLim []string
			for _, k := range sortedResourceNames(defRequests) {
				if _, ok := c.Resources.Requests[k]; !ok {
					if c.Resources.Requests == nil {
						c.Resources.Requests = api.ResourceList{}
					}
					c.Resources.Requests[k] = defRequests[k]
					setReq = append(setReq, string(k))
				}
			}
			for _, k := range sortedResourceNames(defLimits) {
				if _, ok := c.Resources.Limits[k]; !ok {
					if c.Resources.Limits == nil {
						c.Resources.Limits = api.ResourceList{}
					}
					c.Resources.Limits[k] = defLimits[k]
					setLim = append(setLim, string(k))
				}
			}
			if len(setReq) > 0 {
				notes = append(notes, fmt.Sprintf("%s request for %s %s", strings.Join(setReq, ", "), what, c.Name))
			}
			if len(setLim) > 0 {
				notes = append(notes, fmt.Sprintf("%s limit for %s %s", strings.Join(setLim, ", "), what, c.Name))
			}
		}
	}
	merge(p.Spec.InitContainers, "init container")
	merge(p.Spec.Containers, "container")
	if len(notes) > 0 {
		if p.Annotations == nil {
			p.Annotations = map[string]string{}
		}
		p.Annotations[LimitRangerAnnotation] = "LimitRanger plugin set: " + strings.Join(notes, "; ")
	}
}

// limitErrors is upstream's PodLimitFunc's constraint checks.
func limitErrors(p *api.Pod, lr *api.LimitRange) []string {
	var errs []string
	check := func(typ string, it api.LimitRangeItem, req, lim api.ResourceList) {
		for _, k := range sortedResourceNames(it.Min) {
			errs = appendIf(errs, minConstraint(typ, k, it.Min[k], req, lim))
		}
		for _, k := range sortedResourceNames(it.Max) {
			errs = appendIf(errs, maxConstraint(typ, k, it.Max[k], req, lim))
		}
		for _, k := range sortedResourceNames(it.MaxLimitRequestRatio) {
			errs = appendIf(errs, ratioConstraint(typ, k, it.MaxLimitRequestRatio[k], req, lim))
		}
	}
	for _, it := range lr.Spec.Limits {
		switch it.Type {
		case api.LimitTypeContainer:
			// Init containers are containers too (upstream checks both).
			for _, cs := range [][]api.Container{p.Spec.Containers, p.Spec.InitContainers} {
				for _, c := range cs {
					check(it.Type, it, c.Resources.Requests, c.Resources.Limits)
				}
			}
		case api.LimitTypePod:
			// Upstream's podRequests and podLimits: the containers with
			// the sidecars, or the largest init container beside the
			// sidecars before it; pod-level resources (api.PodLevel) in
			// their place.
			req, lim := api.AggregateContainers(&p.Spec)
			api.PodLevel(&p.Spec, req, lim)
			check(it.Type, it, req, lim)
		}
	}
	return errs
}

func appendIf(errs []string, s string) []string {
	if s != "" {
		errs = append(errs, s)
	}
	return errs
}

// value is the quantity a constraint compares: millis for cpu (upstream's
// requestLimitEnforcedValues).
func value(k api.ResourceName, q api.Quantity) int64 {
	if k == api.ResourceCPU {
		return q.MilliValue()
	}
	return q.Value()
}

func minConstraint(typ string, k api.ResourceName, enforced api.Quantity, req, lim api.ResourceList) string {
	r, reqOK := req[k]
	l, limOK := lim[k]
	switch {
	case !reqOK:
		return fmt.Sprintf("minimum %s usage per %s is %s.  No request is specified", k, typ, enforced.String())
	case value(k, r) < value(k, enforced):
		return fmt.Sprintf("minimum %s usage per %s is %s, but request is %s", k, typ, enforced.String(), r.String())
	case limOK && value(k, l) < value(k, enforced):
		return fmt.Sprintf("minimum %s usage per %s is %s, but limit is %s", k, typ, enforced.String(), l.String())
	}
	return ""
}

func maxConstraint(typ string, k api.ResourceName, enforced api.Quantity, req, lim api.ResourceList) string {
	r, reqOK := req[k]
	l, limOK := lim[k]
	switch {
	case !limOK:
		return fmt.Sprintf("maximum %s usage per %s is %s.  No limit is specified", k, typ, enforced.String())
	case value(k, l) > value(k, enforced):
		return fmt.Sprintf("maximum %s usage per %s is %s, but limit is %s", k, typ, enforced.String(), l.String())
	case reqOK && value(k, r) > value(k, enforced):
		return fmt.Sprintf("maximum %s usage per %s is %s, but request is %s", k, typ, enforced.String(), r.String())
	}
	return ""
}

func ratioConstraint(typ string, k api.ResourceName, enforced api.Quantity, req, lim api.ResourceList) string {
	r, reqOK := req[k]
	l, limOK := lim[k]
	if !reqOK || value(k, r) == 0 {
		return fmt.Sprintf("%s max limit to request ratio per %s is %s, but no request is specified or request is 0", k, typ, enforced.String())
	}
	if !limOK || value(k, l) == 0 {
		return fmt.Sprintf("%s max limit to request ratio per %s is %s, but no limit is specified or limit is 0", k, typ, enforced.String())
	}
	ratio := float64(value(k, l)) / float64(value(k, r))
	if ratio*1000 > float64(enforced.MilliValue()) {
		return fmt.Sprintf("%s max limit to request ratio per %s is %s, but provided ratio is %f", k, typ, enforced.String(), ratio)
	}
	return ""
}

func sortedResourceNames(l api.ResourceList) []api.ResourceName {
	out := make([]api.ResourceName, 0, len(l))
	for k := range l {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
