package apiserver

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/clustersim/clustersim/sim/addrmemo"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/store"
)

// Attributes describe a write being admitted. Object is the request's own
// copy: mutating admission may change it. Old is the stored object for
// updates, patches and deletes (shared: do not mutate).
type Attributes struct {
	Verb        Verb
	Kind        api.Kind
	Subresource string
	Actor       string
	Object      api.Object
	Old         api.Object
	// Store reads the current state (for quota, namespaces); it must not be
	// written through.
	Store *store.Store
}

// Admitter is an admission plugin. Mutating plugins change a.Object;
// validating ones only return errors. A non-nil error rejects the request
// with that error (a *apierr.StatusError, typically Forbidden). a is the
// plugin's only during Admit: the server fills the same Attributes for
// the next write (one fewer allocation a write), so a plugin that needs
// something of it later copies that out (*a, or a field).
type Admitter interface {
	// Name identifies the plugin, e.g. "NamespaceLifecycle".
	Name() string
	// Admit admits or rejects a write.
	Admit(a *Attributes) error
}

// Server serves API requests against a store: authorization, defaulting,
// admission, validation, then the store. It is a plain value called on the
// event loop; Endpoint puts it on the simulated network.
type Server struct {
	k          *kernel.Kernel
	store      *store.Store
	authz      *Authorizer
	mutating   []Admitter
	validating []Admitter
	stats      map[string]*actorStats
	// recent finds an actor's stats by where its name is (statsOf).
	recent addrmemo.Memo[*actorStats]
	// counting takes each request's actor, verb, kind and outcome to a
	// goroutine beside the event loop (kernel.Pipe), which counts them
	// into stats and recent: their consumer's between syncs (Stats
	// syncs). At thousands of nodes each count read an actor's cold
	// record, 3% of the event loop.
	counting *kernel.Pipe[counted]
	down     bool
	crds     map[api.Kind]*api.CustomResourceDefinition // the definition of each custom kind served
	// attrs are the Attributes of the write being admitted (admission),
	// admitting whether they are in use.
	attrs     Attributes
	admitting bool
}

// New returns a server over st with the default rule table and the
// admission plugins Kubernetes enables by default that clustersim models:
// DefaultTolerationSeconds, LimitRanger's defaults, Priority and
// DefaultStorageClass (mutating), NamespaceLifecycle, LimitRanger's
// constraints, Priority's single-default check and ResourceQuota.
func New(k *kernel.Kernel, st *store.Store) *Server {
	s := &Server{k: k, store: st, authz: NewAuthorizer(DefaultRules()), stats: map[string]*actorStats{}}
	s.AddMutating(NewDefaultTolerationSeconds())
	s.AddMutating(LimitRanger{})
	s.AddMutating(Priority{})
	s.AddMutating(DefaultStorageClass{})
	s.AddValidating(NamespaceLifecycle{})
	s.AddValidating(LimitRanger{Validate: true})
	s.AddValidating(Priority{Validate: true})
	s.AddValidating(ResourceQuota{})
	return s
}

// Kinds returns the registry of served kinds (the store's).
func (s *Server) Kinds() *api.Registry { return s.store.Kinds() }

// Store returns the server's store.
func (s *Server) Store() *store.Store { return s.store }

// SetRules replaces the authorization rule table.
func (s *Server) SetRules(rules []Rule) { s.authz = NewAuthorizer(rules) }

// AddMutating appends a mutating admission plugin; they run in the order
// added, after defaulting.
func (s *Server) AddMutating(a Admitter) { s.mutating = append(s.mutating, a) }

// AddValidating appends a validating admission plugin; they run in the
// order added, after validation.
func (s *Server) AddValidating(a Admitter) { s.validating = append(s.validating, a) }

// SetAvailable makes the server answer every request (true) or fail every
// request with 503 ServiceUnavailable (false), an API-server outage.
func (s *Server) SetAvailable(up bool) { s.down = !up }

// Outcome classifies how a request ended, for cost accounting.
type Outcome string

// Outcomes, as counted per actor and verb.
const (
	OK          Outcome = "ok"
	NotFound    Outcome = "not-found"
	Conflict    Outcome = "conflict"
	Forbidden   Outcome = "forbidden"
	Invalid     Outcome = "invalid"
	Exists      Outcome = "already-exists"
	Expired     Outcome = "expired"
	Unavailable Outcome = "unavailable"
	// TooManyRequests is a 429: an eviction a disruption budget refused.
	TooManyRequests Outcome = "too-many-requests"
	OtherError      Outcome = "error"
)

func outcomeOf(err error) Outcome {
	if err == nil {
		return OK
	}
	switch apierr.ReasonOf(err) {
	case apierr.NotFound:
		return NotFound
	case apierr.Conflict:
		return Conflict
	case apierr.Forbidden:
		return Forbidden
	case apierr.Invalid:
		return Invalid
	case apierr.AlreadyExists:
		return Exists
	case apierr.Expired:
		return Expired
	case apierr.ServiceUnavailable:
		return Unavailable
	case apierr.TooManyRequests:
		return TooManyRequests
	}
	return OtherError
}

// actorStats are one actor's request counts, by verb, kind and
// outcome: an actor uses few of those, so a short scan finds its count
// once one lookup by the actor's name found the list (a map keyed by all
// four hashed five strings on every request).
//
// The first counts live in the record itself (inline), next to the slice
// that reads them: with one record per kubelet, a large cluster's records
// do not stay in the processor's caches, and a kubelet's most frequent
// request (a lease renewal, moved first) then costs one miss, not two.
type actorStats struct {
	counts []statCount
	inline [2]statCount
}

type statCount struct {
	verb    Verb
	kind    api.Kind
	outcome Outcome
	n       uint64
}

// statsOf returns the actor's counts, adding them when the actor is new.
// Every client names itself with one string for all its requests (a
// kubelet's "system:node:NAME", built once), so s.recent finds its
// counts by the string's address (addrmemo) before the map: with one
// actor per kubelet, the map's table and the names it compares do not
// stay in the processor's caches, and the lookup cost a kubelet's every
// request two to three cache misses. The memo grows with the actors, to
// four slots each (at most addrmemo.Max; a growth forgets the slots,
// which refill as their actors come back).
func (s *Server) statsOf(actor string) *actorStats {
	if a, ok := s.recent.Get(actor); ok {
		return a
	}
	a := s.stats[actor]
	if a == nil {
		a = &actorStats{}
		a.counts = a.inline[:0]
		s.stats[actor] = a
		s.recent.Grow(4 * len(s.stats))
	}
	s.recent.Put(actor, a)
	return a
}

// counted is a request on its way to be counted.
type counted struct {
	actor   string
	kind    api.Kind
	verb    Verb
	outcome Outcome
}

// How many requests a batch to the counting consumer holds before it is
// sent, and how many sent batches may wait for it.
const (
	countBatchRequests = 2048
	countBatchDepth    = 8
)

// countLater hands one request to the counting consumer.
func (s *Server) countLater(actor string, verb Verb, kind api.Kind, outcome Outcome) {
	if s.counting == nil {
		s.counting = kernel.NewPipe(countBatchRequests, countBatchDepth, func(r counted) { s.count(r.actor, r.verb, r.kind, r.outcome) })
	}
	s.counting.Put(counted{actor: actor, kind: kind, verb: verb, outcome: outcome})
}

// count adds one request to the statistics.
func (s *Server) count(actor string, verb Verb, kind api.Kind, outcome Outcome) {
	a := s.statsOf(actor)
	for i := range a.counts {
		c := &a.counts[i]
		if c.verb == verb && c.outcome == outcome && c.kind == kind {
			c.n++
			// Move the count one place forward: an actor's most frequent
			// requests (a kubelet's lease renewals) end up first, found
			// after one comparison instead of a dozen (the scan was a
			// fortieth of the 3,000-node probe's CPU). Stats sorts.
			if i > 0 {
				a.counts[i-1], a.counts[i] = a.counts[i], a.counts[i-1]
			}
			return
		}
	}
	a.counts = append(a.counts, statCount{verb: verb, kind: kind, outcome: outcome, n: 1})
}

// Stat is the number of requests one actor made with one verb on one kind
// that ended with one outcome.
type Stat struct {
	Actor   string
	Verb    Verb
	Kind    api.Kind
	Outcome Outcome
	Count   uint64
}

// Stats returns the request counts, sorted by actor, verb, kind, outcome.
func (s *Server) Stats() []Stat {
	s.counting.Sync()
	var out []Stat
	for actor, a := range s.stats {
		for _, c := range a.counts {
			out = append(out, Stat{Actor: actor, Verb: c.verb, Kind: c.kind, Outcome: c.outcome, Count: c.n})
		}
	}
	slices.SortFunc(out, func(a, b Stat) int {
		return cmp.Or(cmp.Compare(a.Actor, b.Actor), cmp.Compare(a.Verb, b.Verb), a.Kind.Compare(b.Kind), cmp.Compare(a.Outcome, b.Outcome))
	})
	return out
}

// Handle serves one request and returns its response. The request's Object
// becomes the server's.
func (s *Server) Handle(req *Request) *Response {
	resp := s.handle(req)
	s.countLater(req.Actor, req.Verb, req.Kind, outcomeOf(resp.Err))
	return resp
}

func (s *Server) handle(req *Request) *Response {
	if s.down {
		return &Response{Err: apierr.NewServiceUnavailable("the server is currently unable to handle the request")}
	}
	info, ok := s.store.Kinds().Lookup(req.Kind)
	if !ok {
		return &Response{Err: apierr.NewBadRequest(fmt.Sprintf("the server could not find the requested resource (kind %q)", req.Kind.String()))}
	}
	if req.Verb == Create && req.Kind == api.KindPod && req.Subresource == EvictionSubresource {
		return s.evict(req)
	}
	if req.Verb == Create && req.Kind == api.KindPod && req.Subresource == BindingSubresource {
		return s.bind(req)
	}
	if req.Object != nil {
		// The server stores one version of each kind: an autoscaling/v1
		// HPA is converted to autoscaling/v2, and every stored object
		// carries its apiVersion and kind.
		if v1, ok := req.Object.(*api.HorizontalPodAutoscalerV1); ok {
			req.Object = v1.ToV2()
		}
		tm := req.Object.GetTypeMeta()
		tm.APIVersion, tm.Kind = info.APIVersion(), info.Kind.Name
		// Take the body's name and namespace when the request leaves them
		// out, as kubectl's REST paths would carry them.
		m := req.Object.GetObjectMeta()
		if req.Namespace == "" {
			req.Namespace = m.Namespace
		}
		if req.Name == "" {
			req.Name = m.Name
		}
		if info.Namespaced && m.Namespace == "" {
			m.Namespace = req.Namespace
		}
		if m.Namespace != req.Namespace && info.Namespaced {
			return &Response{Err: apierr.NewBadRequest("the namespace of the provided object does not match the namespace sent on the request")}
		}
	}
	if !info.Namespaced {
		req.Namespace = ""
		if req.Object != nil && (req.Verb == Create || req.Verb == Update) {
			// A cluster-scoped object's namespace is cleared, not refused
			// (rest.BeforeCreate and BeforeUpdate:
			// EnsureObjectNamespaceMatchesRequestNamespace).
			req.Object.GetObjectMeta().Namespace = ""
		}
	}
	if verb := rbacVerb(req.Verb); !s.authz.Allowed(req.Actor, verb, info.Resource, req.Subresource) {
		return &Response{Err: apierr.NewForbidden(info.GroupResource(), req.Name,
			forbiddenMessage(req.Actor, verb, info.Resource, req.Subresource, info.Group(), req.Namespace))}
	}
	op := store.Op{Actor: req.Actor, Verb: req.Verb.String(), FieldManager: req.FieldManager}
	switch req.Verb {
	case Get:
		o, err := s.store.Get(req.Kind, req.Key())
		return &Response{Object: o, Err: err}
	case List:
		opts := req.ListOptions
		opts.Namespace = req.Namespace
		items, rv, err := s.store.List(req.Kind, opts)
		return &Response{Items: items, ResourceVersion: rv, Err: err}
	case Create:
		if req.Object == nil {
			return &Response{Err: apierr.NewBadRequest("create needs an object")}
		}
		if req.Subresource != "" {
			return &Response{Err: apierr.NewBadRequest("create of a subresource is not supported")}
		}
		obj := req.Object
		api.SetDefaults(obj)
		if err := s.store.AssignName(obj); err != nil {
			return &Response{Err: err}
		}
		req.Name = obj.GetObjectMeta().Name
		if err := s.admission(Attributes{Verb: Create, Kind: req.Kind, Actor: req.Actor, Object: obj, Store: s.store}, false); err != nil {
			return &Response{Err: err}
		}
		if crd, ok := obj.(*api.CustomResourceDefinition); ok {
			if err := s.established(crd); err != nil {
				return &Response{Err: err}
			}
		}
		o, err := s.store.Create(op, obj)
		if crd, ok := o.(*api.CustomResourceDefinition); ok && err == nil {
			// The apiextensions controllers accept the names and
			// establish the kind: one status write, as theirs.
			cp := crd.DeepCopy()
			cp.Status = definitionStatus(cp, api.NewTime(s.k.Now().Wall()).Rfc3339Copy())
			if st, serr := s.store.Update(store.Op{Actor: "system:apiextensions-apiserver"}, cp, "status"); serr == nil {
				o = st
				s.crds[crd.ResourceInfo().Kind] = st.(*api.CustomResourceDefinition)
			}
		}
		return &Response{Object: o, Err: err}
	case Update:
		if req.Object == nil {
			return &Response{Err: apierr.NewBadRequest("update needs an object")}
		}
		return s.update(op, req, req.Object, info)
	case Patch:
		old, err := s.store.Get(req.Kind, req.Key())
		if err != nil {
			return &Response{Err: err}
		}
		if req.FieldValidation != "" {
			return s.patchValidated(op, req, old, info)
		}
		obj, err := applyPatch(old, req.Patch, req.PatchType)
		if err != nil {
			return &Response{Err: err}
		}
		return s.update(op, req, obj, info)
	case Delete:
		old, err := s.store.Get(req.Kind, req.Key())
		if err != nil {
			return &Response{Err: err}
		}
		if err := s.admission(Attributes{Verb: Delete, Kind: req.Kind, Actor: req.Actor, Old: old, Store: s.store}, true); err != nil {
			return &Response{Err: err}
		}
		o, _, err := s.store.Delete(op, req.Kind, req.Key(), req.DeleteOptions)
		return &Response{Object: o, Err: err}
	case Apply:
		return s.apply(op, req, info)
	case Watch:
		return &Response{Err: apierr.NewBadRequest("watch is served by Endpoint, not Handle")}
	}
	return &Response{Err: apierr.NewBadRequest(fmt.Sprintf("unknown verb %d", req.Verb))}
}

// patchValidated is a patch under req's fieldValidation directive: the
// patched object's unknown fields (a custom resource's, those its schema
// prunes) are dropped; under Strict any strict decoding error refuses
// the patch, under Warn each is a warning of the answer.
func (s *Server) patchValidated(op store.Op, req *Request, old api.Object, info api.ResourceInfo) *Response {
	obj, strict, value, err := applyPatchValidated(old, req.Patch, req.PatchType, req.FieldValidation)
	if err != nil {
		return &Response{Err: err}
	}
	if u, ok := obj.(*api.Unstructured); ok {
		if crd := s.crds[api.KindOf(u)]; crd != nil {
			strict = capStrict(append(strict, UnknownMessages(PruneCustom(crd, u))...))
		}
	}
	var warnings []string
	switch req.FieldValidation {
	case FieldValidationStrict:
		if len(strict) > 0 {
			return &Response{Err: patchStrictInvalid(value, strict)}
		}
	case FieldValidationWarn:
		warnings = strict
	}
	resp := s.update(op, req, obj, info)
	resp.Warnings = warnings
	return resp
}

func (s *Server) update(op store.Op, req *Request, obj api.Object, info api.ResourceInfo) *Response {
	old, err := s.store.Get(req.Kind, req.Key())
	if err != nil {
		return &Response{Err: err}
	}
	if info.Custom && req.Verb == Update && obj.GetObjectMeta().ResourceVersion == "" &&
		(req.Subresource == "" || req.Subresource == "status" && info.HasStatus) {
		// apiextensions-apiserver's customResourceStrategy does not
		// AllowUnconditionalUpdate, so the registry refuses an update
		// (of the object or its status) without a resourceVersion, naming
		// the resource where a kind goes (registry/store.go Update).
		return &Response{Err: apierr.NewInvalid(info.GroupResource(), req.Name, apierr.FieldError{
			Field: "metadata.resourceVersion", Type: "Invalid value", Value: uint64(0), Detail: "must be specified for an update"})}
	}
	if req.Subresource == "" {
		api.SetDefaults(obj)
	}
	if req.Subresource == "status" && info.HasStatus {
		// The status strategy's PrepareForUpdate runs before validation:
		// what is validated and stored is the stored spec (and metadata)
		// with the request's status.
		obj = store.ForStatus(obj, old)
	}
	if err := s.admission(Attributes{Verb: req.Verb, Kind: req.Kind, Subresource: req.Subresource, Actor: req.Actor, Object: obj, Old: old, Store: s.store}, false); err != nil {
		return &Response{Err: err}
	}
	o, err := s.store.Update(op, obj, req.Subresource)
	if crd, ok := o.(*api.CustomResourceDefinition); ok && err == nil && req.Subresource == "" {
		// A changed definition serves its new schema and columns.
		if rerr := s.established(crd); rerr != nil {
			return &Response{Err: rerr}
		}
	}
	return &Response{Object: o, Err: err}
}

// admission admits a write with attributes v: validating admission only
// (a delete's) when validating, else admit's whole chain. The plugins
// see the server's own Attributes set to v, cleared after them, so that
// a write allocates none; a write admitted while another's plugins run
// (a plugin that writes through the server) gets a value of its own.
func (s *Server) admission(v Attributes, validating bool) error {
	a := &s.attrs
	if s.admitting {
		a = new(Attributes)
	} else {
		s.admitting = true
		defer func() { s.attrs, s.admitting = Attributes{}, false }()
	}
	*a = v
	if validating {
		return s.admitValidating(a)
	}
	return s.admit(a)
}

// admit runs mutating admission, validation and validating admission, on
// a custom resource given its schema's defaults first (apiextensions-
// apiserver defaults it as it decodes the request).
func (s *Server) admit(a *Attributes) error {
	switch {
	case a.Verb == Create:
		PrepareForCreate(a.Object)
	case a.Subresource == "":
		prepareForUpdate(a.Object, a.Old)
	}
	if u, ok := a.Object.(*api.Unstructured); ok {
		if crd := s.crds[api.KindOf(u)]; crd != nil {
			DefaultCustom(crd, u)
		}
	}
	for _, m := range s.mutating {
		if err := m.Admit(a); err != nil {
			return err
		}
	}
	validate := Validate
	if a.Subresource == "status" {
		// A status strategy's ValidateUpdate checks the metadata and
		// the status, never the spec (ValidateJobUpdateStatus,
		// ValidateStatefulSetStatusUpdate, ...).
		validate = ValidateStatusUpdate
	}
	if err := validate(a.Object, a.Old); err != nil {
		return err
	}
	if err := s.validateKinds(a); err != nil {
		return err
	}
	return s.admitValidating(a)
}

func (s *Server) admitValidating(a *Attributes) error {
	for _, v := range s.validating {
		if err := v.Admit(a); err != nil {
			return err
		}
	}
	return nil
}

// NamespaceLifecycle rejects deleting the namespaces a cluster cannot do
// without, and creating objects in a namespace that does not exist or is
// being deleted, as the admission plugin of that name does.
type NamespaceLifecycle struct{}

// Name returns "NamespaceLifecycle".
func (NamespaceLifecycle) Name() string { return "NamespaceLifecycle" }

// immortalNamespaces are the plugin's: never deleted.
var immortalNamespaces = []string{"default", "kube-system", "kube-public"}

// Admit refuses deleting an immortal namespace, and checks the object's
// namespace on create.
func (NamespaceLifecycle) Admit(a *Attributes) error {
	if a.Verb == Delete && a.Kind == api.KindNamespace && a.Old != nil && slices.Contains(immortalNamespaces, a.Old.GetObjectMeta().Name) {
		return apierr.NewForbidden("namespaces", a.Old.GetObjectMeta().Name, "this namespace may not be deleted")
	}
	if a.Verb != Create || a.Object == nil {
		return nil
	}
	ns := a.Object.GetObjectMeta().Namespace
	if ns == "" {
		return nil
	}
	o, err := a.Store.Get(api.KindNamespace, api.Key{Name: ns})
	if err != nil {
		return apierr.NewNotFound("namespaces", ns)
	}
	if o.GetObjectMeta().DeletionTimestamp != nil {
		info, _ := a.Store.Kinds().Lookup(a.Kind)
		return apierr.NewForbidden(info.GroupResource(), a.Object.GetObjectMeta().Name,
			fmt.Sprintf("unable to create new content in namespace %s because it is being terminated", ns))
	}
	return nil
}

// StartWatch authorizes a watch request and registers it with the store:
// events go to sink synchronously. The error is a status error (Forbidden,
// Expired for a resourceVersion older than the store's history, ...).
func (s *Server) StartWatch(req *Request, sink store.Sink) (*store.Watch, error) {
	err := s.startWatchCheck(req)
	if err == nil {
		opts := req.ListOptions
		opts.Namespace = req.Namespace
		var w *store.Watch
		w, err = s.store.Watch(req.Kind, req.ResourceVersion, opts, sink)
		s.countLater(req.Actor, Watch, req.Kind, outcomeOf(err))
		return w, err
	}
	s.countLater(req.Actor, Watch, req.Kind, outcomeOf(err))
	return nil, err
}

func (s *Server) startWatchCheck(req *Request) error {
	if s.down {
		return apierr.NewServiceUnavailable("the server is currently unable to handle the request")
	}
	info, ok := s.store.Kinds().Lookup(req.Kind)
	if !ok {
		return apierr.NewBadRequest(fmt.Sprintf("the server could not find the requested resource (kind %q)", req.Kind.String()))
	}
	if !info.Namespaced {
		req.Namespace = ""
	}
	if !s.authz.Allowed(req.Actor, "watch", info.Resource, "") {
		return apierr.NewForbidden(info.GroupResource(), "", forbiddenMessage(req.Actor, "watch", info.Resource, "", info.Group(), req.Namespace))
	}
	return nil
}

func badRequest(msg string) error { return apierr.NewBadRequest(msg) }
