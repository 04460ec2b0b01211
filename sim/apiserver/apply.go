package apiserver

import (
	"errors"
	"fmt"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/store"
)

// Server-side apply (Kubernetes' PATCH with application/apply-patch+yaml):
// the request's Object is an apply configuration, the fields its author
// cares about, and FieldManager names the author. The server merges it
// into the live object (store.PlanApply): the configuration's fields take
// its values, fields the manager applied before and no longer applies are
// removed unless another manager owns them, everything else is kept. A
// field another manager owns with a different value is a conflict: the
// apply fails with 409 and apimachinery's message unless Force is set, in
// which case the applier takes the field. An apply of an object that does
// not exist creates it. Defaulting, admission and validation then run as
// for an update (or a create), and the store records who owns what.

// rbacVerb returns the verb authorization checks for v: server-side apply
// is a patch to RBAC.
func rbacVerb(v Verb) string {
	if v == Apply {
		return "patch"
	}
	return v.String()
}

// errFieldManagerRequired is apimachinery's answer to an apply without a
// field manager.
func errFieldManagerRequired() error {
	return apierr.NewInvalid("PatchOptions.meta.k8s.io", "", apierr.FieldError{Field: "fieldManager", Type: "Required value", Detail: "is required for apply patch"})
}

func (s *Server) apply(op store.Op, req *Request, info api.ResourceInfo) *Response {
	if req.Object == nil {
		return &Response{Err: apierr.NewBadRequest("apply needs an object")}
	}
	if req.Subresource != "" {
		return &Response{Err: apierr.NewBadRequest("apply of a subresource is not supported")}
	}
	if req.FieldManager == "" {
		return &Response{Err: errFieldManagerRequired()}
	}
	if req.Name == "" {
		return &Response{Err: apierr.NewBadRequest("name is required for apply")}
	}
	config := req.Object
	config.GetObjectMeta().ManagedFields = nil
	op.FieldManager = req.FieldManager
	// The store reads the configuration after defaulting and admission
	// have changed the object being written: keep them apart.
	op.Applied = config.DeepCopyObject()
	live, err := s.store.Get(req.Kind, req.Key())
	if errors.Is(err, apierr.ErrNotFound) {
		// Create on apply: the create needs create permission too.
		if !s.authz.Allowed(req.Actor, "create", info.Resource, "") {
			return &Response{Err: apierr.NewForbidden(info.GroupResource(), req.Name,
				forbiddenMessage(req.Actor, "create", info.Resource, "", info.Group(), req.Namespace))}
		}
		obj := config
		api.SetDefaults(obj)
		if err := s.admission(Attributes{Verb: Create, Kind: req.Kind, Actor: req.Actor, Object: obj, Store: s.store}, false); err != nil {
			return &Response{Err: err}
		}
		o, err := s.store.Create(op, obj)
		return &Response{Object: o, Err: err}
	}
	if err != nil {
		return &Response{Err: err}
	}
	merged, conflicts, err := s.store.PlanApply(live, config, req.FieldManager)
	if err != nil {
		return &Response{Err: apierr.NewBadRequest(err.Error())}
	}
	if len(conflicts) > 0 && !req.Force {
		return &Response{Err: NewApplyConflict(conflicts)}
	}
	api.SetDefaults(merged)
	if err := s.admission(Attributes{Verb: Update, Kind: req.Kind, Actor: req.Actor, Object: merged, Old: live, Store: s.store}, false); err != nil {
		return &Response{Err: err}
	}
	o, err := s.store.Update(op, merged, "")
	return &Response{Object: o, Err: err}
}

// NewApplyConflict is the 409 Conflict of an apply that would take fields
// from other managers, with apimachinery's message (managedfields
// internal/conflict.go): for one conflict
//
//	Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas
//
// and for several, grouped by manager in order,
//
//	Apply failed with 2 conflicts: conflicts with "hpa" using apps/v1:
//	- .spec.replicas
//	- .spec.template.spec.containers[name="nginx"].image
//
// An Update manager is named with the apiVersion it used ("using"), an
// Apply manager by name only; a subresource manager adds `with
// subresource "status"`. Each conflict is also a cause, with the path as
// its field.
func NewApplyConflict(conflicts []store.Conflict) *apierr.StatusError {
	causes := make([]apierr.FieldError, len(conflicts))
	for i, c := range conflicts {
		causes[i] = apierr.FieldError{Field: c.Path.String(), Type: "FieldManagerConflict", Detail: "conflict with " + printManager(c)}
	}
	var msg string
	if len(conflicts) == 1 {
		msg = fmt.Sprintf("Apply failed with 1 conflict: conflict with %s: %s", printManager(conflicts[0]), conflicts[0].Path)
	} else {
		var lines []string
		for i, c := range conflicts {
			if i == 0 || !sameManager(conflicts[i-1], c) {
				lines = append(lines, fmt.Sprintf("conflicts with %s:", printManager(c)))
			}
			lines = append(lines, "- "+c.Path.String())
		}
		msg = fmt.Sprintf("Apply failed with %d conflicts: %s", len(conflicts), strings.Join(lines, "\n"))
	}
	return &apierr.StatusError{Code: 409, Reason: apierr.Conflict, Message: msg, Causes: causes}
}

func sameManager(a, b store.Conflict) bool {
	return a.Manager == b.Manager && a.Operation == b.Operation && a.APIVersion == b.APIVersion && a.Subresource == b.Subresource
}

// printManager names a conflict's manager as apimachinery does (without
// the time, which is not part of a manager's identity).
func printManager(c store.Conflict) string {
	s := fmt.Sprintf("%q", c.Manager)
	if c.Subresource != "" {
		s = fmt.Sprintf("%s with subresource %q", s, c.Subresource)
	}
	if c.Operation == store.OperationUpdate {
		s = fmt.Sprintf("%s using %s", s, c.APIVersion)
	}
	return s
}
