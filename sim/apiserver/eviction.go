package apiserver

import (
	"fmt"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/store"
)

// The eviction subresource (POST pods/<name>/eviction), as k/k
// pkg/registry/core/pod/storage/eviction.go serves it: a pod that is
// terminal, pending or already being deleted is deleted at once; otherwise
// the one PodDisruptionBudget selecting it must allow a disruption, which
// the eviction takes (status.disruptionsAllowed decremented, the pod
// recorded in status.disruptedPods) before deleting the pod. The server
// handles one request at a time, so upstream's conflict retries on the
// budget's status never happen here.

// EvictionSubresource is the subresource name of a pod's eviction.
const EvictionSubresource = "eviction"

// loopbackActor is the identity the API server writes as when it
// updates an object on its own behalf (its loopback client).
const loopbackActor = QuotaActor

// violatesBudget is eviction.go's 429 message.
const violatesBudget = "Cannot evict pod as it would violate the pod's disruption budget."

// MaxDisruptedPodSize is eviction.go's bound on status.disruptedPods.
const MaxDisruptedPodSize = 2000

func (s *Server) evict(req *Request) *Response {
	ev, ok := req.Object.(*api.Eviction)
	if !ok {
		return &Response{Err: apierr.NewBadRequest(fmt.Sprintf("not a Eviction object: %T", req.Object))}
	}
	if ev.Name != req.Name {
		return &Response{Err: apierr.NewBadRequest("name in URL does not match name in Eviction object")}
	}
	if !s.authz.Allowed(req.Actor, "create", "pods", EvictionSubresource) {
		return &Response{Err: apierr.NewForbidden("pods", req.Name,
			forbiddenMessage(req.Actor, "create", "pods", EvictionSubresource, "", req.Namespace))}
	}
	obj, err := s.store.Get(api.KindPod, req.Key())
	if err != nil {
		return &Response{Err: err}
	}
	pod := obj.(*api.Pod)
	opts := store.DeleteOptions{}
	if d := ev.DeleteOptions; d != nil && d.GracePeriodSeconds != nil {
		g := *d.GracePeriodSeconds
		opts.GracePeriodSeconds = &g
	}
	if canIgnorePDB(pod) {
		return s.deleteEvicted(req, opts)
	}
	pdbs, err := s.podBudgets(pod)
	if err != nil {
		return &Response{Err: err}
	}
	switch len(pdbs) {
	case 0:
		return s.deleteEvicted(req, opts)
	case 1:
	default:
		return &Response{Err: &apierr.StatusError{Code: 500, Reason: apierr.InternalError,
			Message: "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support."}}
	}
	pdb := pdbs[0]
	// An unready pod does not count towards healthy: with the budget met
	// (or AlwaysAllow) it is evicted without taking a disruption.
	if !api.IsPodReady(pod) {
		policy := api.IfHealthyBudget
		if p := pdb.Spec.UnhealthyPodEvictionPolicy; p != nil {
			policy = *p
		}
		if policy == api.AlwaysAllow || pdb.Status.CurrentHealthy >= pdb.Status.DesiredHealthy && pdb.Status.DesiredHealthy > 0 {
			return s.deleteEvicted(req, opts)
		}
	}
	if err := s.checkAndDecrement(pod.Name, pdb); err != nil {
		return &Response{Err: err}
	}
	return s.deleteEvicted(req, opts)
}

// canIgnorePDB is eviction.go's: terminal, pending and terminating pods
// are deleted without consulting budgets.
func canIgnorePDB(p *api.Pod) bool {
	switch p.Status.Phase {
	case api.PodSucceeded, api.PodFailed, api.PodPending:
		return true
	}
	return p.DeletionTimestamp != nil
}

// podBudgets returns the budgets of the pod's namespace whose selector
// selects it (eviction.go's getPodDisruptionBudgets): with policy/v1
// semantics, an empty selector selects every pod and a nil or invalid one
// none.
func (s *Server) podBudgets(p *api.Pod) ([]*api.PodDisruptionBudget, error) {
	objs, _, err := s.store.List(api.KindPodDisruptionBudget, store.ListOptions{Namespace: p.Namespace})
	if err != nil {
		return nil, err
	}
	var out []*api.PodDisruptionBudget
	for _, o := range objs {
		pdb := o.(*api.PodDisruptionBudget)
		sel, err := api.LabelSelectorAsSelector(pdb.Spec.Selector)
		if err != nil || !sel.Matches(p.Labels) {
			continue
		}
		out = append(out, pdb)
	}
	return out, nil
}

// budgetProcessing is createTooManyRequestsError: the budget's status is
// older than its spec.
func budgetProcessing(name string) error {
	err := apierr.NewTooManyRequests(violatesBudget, 10)
	err.Causes = []apierr.FieldError{{Type: api.DisruptionBudgetCause, Detail: fmt.Sprintf("The disruption budget %s is still being processed by the server.", name)}}
	return err
}

// checkAndDecrement is eviction.go's: the budget must be current and allow
// a disruption; the eviction takes it and records the pod as disrupted,
// so that the disruption controller does not count it as healthy while
// its deletion is on the way.
func (s *Server) checkAndDecrement(podName string, pdb *api.PodDisruptionBudget) error {
	if pdb.Status.ObservedGeneration < pdb.Generation {
		return budgetProcessing(pdb.Name)
	}
	if pdb.Status.DisruptionsAllowed < 0 {
		return apierr.NewForbidden("poddisruptionbudget.policy", pdb.Name, "pdb disruptions allowed is negative")
	}
	if len(pdb.Status.DisruptedPods) > MaxDisruptedPodSize {
		return apierr.NewForbidden("poddisruptionbudget.policy", pdb.Name, "DisruptedPods map too big - too many evictions not confirmed by PDB controller")
	}
	if pdb.Status.DisruptionsAllowed == 0 {
		err := apierr.NewTooManyRequests(violatesBudget, 0)
		err.Causes = []apierr.FieldError{{Type: api.DisruptionBudgetCause, Detail: fmt.Sprintf("The disruption budget %s needs %d healthy pods and has %d currently",
			pdb.Name, pdb.Status.DesiredHealthy, pdb.Status.CurrentHealthy)}}
		return err
	}
	cp := pdb.DeepCopy()
	cp.Status.DisruptionsAllowed--
	now := api.NewTime(s.k.Now().Wall()).Rfc3339Copy()
	if cp.Status.DisruptionsAllowed == 0 {
		cp.UpdateDisruptionAllowedCondition(now)
	}
	if cp.Status.DisruptedPods == nil {
		cp.Status.DisruptedPods = map[string]api.Time{}
	}
	cp.Status.DisruptedPods[podName] = now
	_, err := s.store.Update(store.Op{Actor: loopbackActor}, cp, "status")
	return err
}

// deleteEvicted deletes the evicted pod as the requesting user; the
// response carries the pod as the delete left it.
func (s *Server) deleteEvicted(req *Request, opts store.DeleteOptions) *Response {
	old, err := s.store.Get(api.KindPod, req.Key())
	if err != nil {
		return &Response{Err: err}
	}
	if err := s.admission(Attributes{Verb: Delete, Kind: api.KindPod, Subresource: EvictionSubresource, Actor: req.Actor, Old: old, Store: s.store}, true); err != nil {
		return &Response{Err: err}
	}
	o, _, err := s.store.Delete(store.Op{Actor: req.Actor, Verb: "delete"}, api.KindPod, req.Key(), opts)
	return &Response{Object: o, Err: err}
}
