package apiserver

import (
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/netsim"
	"github.com/clustersim/clustersim/sim/store"
)

// Verb is an API verb, as RBAC spells it.
type Verb uint8

// The verbs the server serves.
const (
	Get Verb = iota + 1
	List
	Watch
	Create
	Update
	Patch
	Delete
	// Apply is server-side apply (a PATCH with
	// application/apply-patch+yaml in Kubernetes): authorized as "patch",
	// recorded as "apply".
	Apply
)

var verbNames = [...]string{Get: "get", List: "list", Watch: "watch", Create: "create", Update: "update", Patch: "patch", Delete: "delete", Apply: "apply"}

// String returns the RBAC spelling: get, list, watch, create, update,
// patch, delete; "apply" for server-side apply.
func (v Verb) String() string {
	if int(v) < len(verbNames) && verbNames[v] != "" {
		return verbNames[v]
	}
	return "unknown"
}

// Verbs lists every verb, in a fixed order.
func Verbs() []Verb { return []Verb{Get, List, Watch, Create, Update, Patch, Delete, Apply} }

// IsWrite reports whether the verb changes the store.
func (v Verb) IsWrite() bool { return v >= Create }

// PatchType is the format of a patch body.
type PatchType uint8

// The patch formats the server understands.
const (
	// MergePatch is RFC 7386 JSON merge patch (application/merge-patch+json):
	// objects merge, null deletes a key, lists are replaced whole.
	MergePatch PatchType = iota + 1
	// StrategicMergePatch is Kubernetes' strategic merge patch, as kubectl
	// sends it: like MergePatch, except that lists of objects with a merge
	// key (containers by name, ports by containerPort, conditions by type,
	// ...) are merged element by element.
	StrategicMergePatch
	// JSONPatch is RFC 6902 JSON patch (application/json-patch+json): a
	// list of add, remove, replace, move, copy and test operations at
	// JSON pointers (kubectl rollout undo sends one).
	JSONPatch
)

// Request is one API call. Objects in a request belong to the server once
// sent; the client keeps its own copy.
type Request struct {
	Verb        Verb
	Kind        api.Kind
	Namespace   string
	Name        string
	Subresource string // "" or "status"
	// Actor is the authenticated user making the call.
	Actor string
	// Object is the body of a create or update, or the apply
	// configuration of an apply.
	Object api.Object
	// Patch and PatchType are the body of a patch.
	Patch     []byte
	PatchType PatchType
	// ListOptions select objects for list and watch.
	ListOptions store.ListOptions
	// ResourceVersion is where a watch starts (0: from the current state,
	// with a synthetic ADDED per object).
	ResourceVersion uint64
	// DeleteOptions are a delete's preconditions and cascading policy.
	DeleteOptions store.DeleteOptions
	// FieldManager names the writer for field ownership; empty means the
	// actor. Server-side apply requires it.
	FieldManager string
	// Force makes a server-side apply take the fields it conflicts on
	// from their managers (kubectl's --force-conflicts).
	Force bool
	// FieldValidation is a patch's fieldValidation directive
	// (FieldValidationIgnore, Warn or Strict): the patched object's fields
	// its kind (or a custom kind's schema) does not declare are dropped,
	// and refused under Strict (a 422) or warned of under Warn
	// (Response.Warnings). Empty, the simulation's own requests, refuses
	// them as before: a 422 for a built-in kind, the schema's 400 for a
	// custom one. A create's or update's body is decoded by the client
	// (clustersim serve), which drops its unknown fields before sending.
	FieldValidation string
	// WatchReceiver is where a watch's stream is delivered: the client end
	// of the connection the request came in on. Watches over the network
	// only.
	WatchReceiver netsim.StreamReceiver
}

// Key returns the request's object key.
func (r *Request) Key() api.Key { return api.Key{Namespace: r.Namespace, Name: r.Name} }

// Response is the server's answer. Objects in a response are the store's
// and shared: a client copies before handing them to code that may mutate.
type Response struct {
	// Object is the result of get, create, update, patch and delete.
	Object api.Object
	// Items is the result of list.
	Items []api.Object
	// ResourceVersion is the store's resourceVersion for a list.
	ResourceVersion uint64
	// Err is the failure, a *apierr.StatusError.
	Err error
	// Warnings are the strict decoding errors a patch under
	// FieldValidationWarn dropped, one per field: the API server's
	// Warning headers.
	Warnings []string
	// Stream is the stream an accepted network watch's events travel on.
	Stream *netsim.Stream
}
