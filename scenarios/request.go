package scenarios

import (
	"encoding/json"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/manifest"
)

// Request is one API write as a client sent it: what clustersim serve
// --record writes for each write kubectl made, so that the recording
// replays it at the same virtual time, as the same user, across the same
// network.
type Request struct {
	// Verb is create, update, patch, apply (server-side) or delete.
	Verb string `json:"verb"`
	// APIVersion and Kind name the resource ("apps/v1", "Deployment").
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	// Namespace and Name name the object (the body's for a create).
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name,omitempty"`
	// Subresource is "", "status", or "eviction" (a create on a Pod
	// whose object is a policy/v1 Eviction: kubectl drain's evictions).
	Subresource string `json:"subresource,omitempty"`
	// Object is the body of a create, update or apply.
	Object *yaml.Node `json:"object,omitempty"`
	// PatchType (merge, strategic or json) and Patch (its JSON) are a
	// patch's body.
	PatchType string `json:"patchType,omitempty"`
	Patch     string `json:"patch,omitempty"`
	// FieldValidation is a patch's fieldValidation directive (Ignore,
	// Warn or Strict), as the API server's patch handler honours it: the
	// fields the patched object's kind does not declare are dropped (and
	// refused under Strict) instead of refusing the patch. clustersim
	// serve --record writes the directive a client's patch carried (Warn
	// when it carried none), so that the replay applies what serve did.
	FieldValidation string `json:"fieldValidation,omitempty"`
	// FieldManager and Force are a write's field manager and server-side
	// apply's --force-conflicts.
	FieldManager string `json:"fieldManager,omitempty"`
	Force        bool   `json:"force,omitempty"`
	// Propagation (Background, Foreground, Orphan), GracePeriodSeconds
	// and the preconditions are a delete's options.
	Propagation                 string `json:"propagation,omitempty"`
	GracePeriodSeconds          *int64 `json:"gracePeriodSeconds,omitempty"`
	PreconditionUID             string `json:"preconditionUID,omitempty"`
	PreconditionResourceVersion string `json:"preconditionResourceVersion,omitempty"`
	// Parsed is Object decoded.
	Parsed api.Object `json:"-"`
}

// RequestVerbs are the verbs a request step may have.
var RequestVerbs = []string{"create", "update", "patch", "apply", "delete"}

// PatchTypes are a request step's patch types.
var PatchTypes = []string{"merge", "strategic", "json"}

// request checks a request step and decodes its object.
func (l *loader) request(field string, rq *Request) error {
	if !slices.Contains(RequestVerbs, rq.Verb) {
		return l.errorf(field+".verb", "%q: want one of %s", rq.Verb, strings.Join(RequestVerbs, ", "))
	}
	if rq.APIVersion == "" {
		return l.errorf(field+".apiVersion", "required")
	}
	k, err := l.kind(field+".kind", rq.Kind)
	if err != nil {
		return err
	}
	if g := api.GroupOf(rq.APIVersion); g != k.Group {
		return l.errorf(field+".apiVersion", "%s does not serve kind %s (its group is %q)", rq.APIVersion, rq.Kind, k.Group)
	}
	info, known := api.Lookup(k)
	served := api.Builtin().APIVersions(k)
	if crd := l.crds[k]; crd != nil {
		info, known, served = crd.ResourceInfo(), true, crd.ServedAPIVersions()
	}
	if !slices.Contains(served, rq.APIVersion) {
		return l.errorf(field+".apiVersion", "%s is not served: kind %s is served at %s", rq.APIVersion, k.Name, strings.Join(served, ", "))
	}
	// The run sends the kind as the API names it, whatever alias the
	// step gives.
	rq.Kind = k.Name
	switch rq.Subresource {
	case "", "status":
	case "eviction":
		if k != api.KindPod || rq.Verb != "create" {
			return l.errorf(field+".subresource", "eviction is a create on a Pod")
		}
	default:
		return l.errorf(field+".subresource", "%q: want status, eviction or nothing", rq.Subresource)
	}
	needsObject := rq.Verb == "create" || rq.Verb == "update" || rq.Verb == "apply"
	switch {
	case needsObject && rq.Object == nil:
		return l.errorf(field+".object", "required for %s", rq.Verb)
	case !needsObject && rq.Object != nil:
		return l.errorf(field+".object", "a %s carries no object", rq.Verb)
	case rq.Verb == "patch" && !slices.Contains(PatchTypes, rq.PatchType):
		return l.errorf(field+".patchType", "%q: want one of %s", rq.PatchType, strings.Join(PatchTypes, ", "))
	case rq.Verb == "patch" && !json.Valid([]byte(rq.Patch)):
		return l.errorf(field+".patch", "not JSON")
	case rq.FieldValidation != "" && rq.Verb != "patch":
		return l.errorf(field+".fieldValidation", "a %s carries none (only a patch's is kept: a create's or update's object is the one the server applied)", rq.Verb)
	case rq.FieldValidation != "" && !slices.Contains(apiserver.FieldValidations, rq.FieldValidation):
		return l.errorf(field+".fieldValidation", "%q: want Ignore, Warn or Strict", rq.FieldValidation)
	case rq.Verb != "create" && rq.Name == "":
		return l.errorf(field+".name", "required for %s", rq.Verb)
	case rq.Verb == "apply" && rq.FieldManager == "":
		return l.errorf(field+".fieldManager", "required for apply")
	}
	switch rq.Propagation {
	case "", "Background", "Foreground", "Orphan":
	default:
		return l.errorf(field+".propagation", "%q: want Background, Foreground or Orphan", rq.Propagation)
	}
	if rq.Object != nil && rq.Subresource == "eviction" {
		ev := &api.Eviction{}
		if err := manifest.DecodeNode(l.file, rq.Object, field+".object", ev); err != nil {
			return err
		}
		rq.Parsed = ev
	}
	if rq.Object != nil && rq.Parsed == nil {
		objs, err := manifest.DecodeObjectNode(l.file, rq.Object, field+".object")
		if err != nil {
			return err
		}
		if len(objs) != 1 {
			return l.errorf(field+".object", "one object, not %d", len(objs))
		}
		if api.KindOf(objs[0]) != k {
			return l.errorf(field+".object", "a %s, not the request's %s", api.KindOf(objs[0]).Name, k.Name)
		}
		rq.Parsed = objs[0]
	}
	// No namespace is the default namespace, as everywhere in a
	// scenario (the body's own, for a request that carries one).
	if known && info.Namespaced && rq.Namespace == "" {
		rq.Namespace = DefaultNamespace
		if rq.Parsed != nil && rq.Parsed.GetObjectMeta().Namespace != "" {
			rq.Namespace = rq.Parsed.GetObjectMeta().Namespace
		}
	}
	return nil
}
