package api

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Kind identifies an object kind: its API group and its name, as
// apimachinery's schema.GroupKind ({"apps", "Deployment"}; the core group is
// ""). It is the identity of a kind everywhere (store tables, requests,
// informers, the audit log, the garbage collector): a custom resource's
// "Deployment" in group "example.com" is another kind than apps/v1
// Deployment. The version is how a kind is encoded, not who it is: it is
// kept in the registry (ResourceInfo.Version, the apiVersions it is served
// at).
type Kind struct {
	// Group is the API group, "" for core.
	Group string
	// Name is the kind in CamelCase, e.g. "Deployment".
	Name string
}

// String returns the kind's name, as kubectl prints a kind ("Deployment");
// GroupKind gives the qualified form.
func (k Kind) String() string { return k.Name }

// GroupKind returns "Name.group", or "Name" for the core group: the form
// of schema.GroupKind.String() that Kubernetes' messages use
// ("Deployment.apps").
func (k Kind) GroupKind() string {
	if k.Group == "" {
		return k.Name
	}
	return k.Name + "." + k.Group
}

// IsZero reports whether k names no kind.
func (k Kind) IsZero() bool { return k == Kind{} }

// Compare orders kinds by name, then group (so that built-in kinds,
// whose names are unique, sort as their names do).
func (k Kind) Compare(o Kind) int {
	if c := strings.Compare(k.Name, o.Name); c != 0 {
		return c
	}
	return strings.Compare(k.Group, o.Group)
}

// GroupOf returns the group of an apiVersion: "apps" for "apps/v1", "" for
// "v1".
func GroupOf(apiVersion string) string {
	g, _, ok := strings.Cut(apiVersion, "/")
	if !ok {
		return ""
	}
	return g
}

// KindFor returns the kind an apiVersion and a kind name denote: the group
// comes from the apiVersion.
func KindFor(apiVersion, kind string) Kind { return Kind{Group: GroupOf(apiVersion), Name: kind} }

// The built-in kinds.
var (
	// KindPod is core/v1 Pod.
	KindPod = Kind{"", "Pod"}
	// KindNode is core/v1 Node.
	KindNode = Kind{"", "Node"}
	// KindNamespace is core/v1 Namespace.
	KindNamespace = Kind{"", "Namespace"}
	// KindService is core/v1 Service.
	KindService = Kind{"", "Service"}
	// KindEndpoints is core/v1 Endpoints.
	KindEndpoints = Kind{"", "Endpoints"}
	// KindEvent is core/v1 Event.
	KindEvent = Kind{"", "Event"}
	// KindResourceQuota is core/v1 ResourceQuota.
	KindResourceQuota = Kind{"", "ResourceQuota"}
	// KindConfigMap is core/v1 ConfigMap.
	KindConfigMap = Kind{"", "ConfigMap"}
	// KindDeployment is apps/v1 Deployment.
	KindDeployment = Kind{"apps", "Deployment"}
	// KindReplicaSet is apps/v1 ReplicaSet.
	KindReplicaSet = Kind{"apps", "ReplicaSet"}
	// KindDaemonSet is apps/v1 DaemonSet.
	KindDaemonSet = Kind{"apps", "DaemonSet"}
	// KindLease is coordination.k8s.io/v1 Lease.
	KindLease = Kind{"coordination.k8s.io", "Lease"}
	// KindSecret is core/v1 Secret (stored, not interpreted).
	KindSecret = Kind{"", "Secret"}
	// KindServiceAccount is core/v1 ServiceAccount (stored, not
	// interpreted).
	KindServiceAccount = Kind{"", "ServiceAccount"}
	// KindHorizontalPodAutoscaler is autoscaling/v2 (and v1)
	// HorizontalPodAutoscaler.
	KindHorizontalPodAutoscaler = Kind{"autoscaling", "HorizontalPodAutoscaler"}
	// KindPodDisruptionBudget is policy/v1 PodDisruptionBudget.
	KindPodDisruptionBudget = Kind{"policy", "PodDisruptionBudget"}
	// KindCustomResourceDefinition is apiextensions.k8s.io/v1
	// CustomResourceDefinition: loading one registers the kind it defines.
	KindCustomResourceDefinition = Kind{"apiextensions.k8s.io", "CustomResourceDefinition"}
)

// PrinterColumn is one of a kind's additional columns in `get`
// (apiextensions' CustomResourceColumnDefinition).
type PrinterColumn struct {
	// Name is the column header, upper-cased when printed.
	Name string `json:"name"`
	// Type is the OpenAPI type of the value: integer, number, string,
	// boolean or date.
	Type string `json:"type"`
	// Format is an optional OpenAPI format (ignored by the printers).
	Format string `json:"format,omitempty"`
	// Description is shown nowhere in the simulator; kept for round trips.
	Description string `json:"description,omitempty"`
	// Priority above 0 shows the column only in -o wide.
	Priority int32 `json:"priority,omitempty"`
	// JSONPath selects the value, e.g. ".spec.replicas".
	JSONPath string `json:"jsonPath"`
}

// ResourceInfo describes how a kind is served.
type ResourceInfo struct {
	// Kind is the object kind, its group included.
	Kind Kind
	// Version is the preferred (storage) version.
	Version string
	// Resource is the lowercase plural used in URLs and messages, e.g. "deployments".
	Resource string
	// Namespaced is false for cluster-scoped kinds (Node, Namespace).
	Namespaced bool
	// HasStatus reports a status subresource.
	HasStatus bool
	// Generation reports a kind whose strategy maintains
	// metadata.generation (bumped by spec changes).
	Generation bool
	// Singular is the lowercase singular name, e.g. "deployment".
	Singular string
	// ShortNames are kubectl's abbreviations, e.g. "deploy": for a
	// built-in kind, those the real API server's discovery lists (each
	// storage's ShortNames() in k/k pkg/registry), which serve's
	// discovery documents carry.
	ShortNames []string
	// Columns are a custom kind's additionalPrinterColumns (nil for the
	// built-in kinds, whose printers are kubectl's own).
	Columns []PrinterColumn
	// Custom marks a kind defined by a CustomResourceDefinition, whose
	// objects are *Unstructured.
	Custom bool

	// apiVersion and groupResource are APIVersion's and GroupResource's
	// results, made once by the registry (named) for the kinds it
	// serves: the API server stamps every object it is sent with its
	// apiVersion, and a string built on each request was an allocation
	// on every write ("apps/v1", "coordination.k8s.io/v1"). Empty in a
	// ResourceInfo made by hand, whose methods build them.
	apiVersion, groupResource string
}

// named returns r with its apiVersion and groupResource made.
func (r ResourceInfo) named() ResourceInfo {
	r.apiVersion, r.groupResource = "", ""
	r.apiVersion, r.groupResource = r.APIVersion(), r.GroupResource()
	return r
}

// Group returns the kind's API group, "" for core.
func (r ResourceInfo) Group() string { return r.Kind.Group }

// GroupResource returns "resource.group", or "resource" for the core
// group: the form Kubernetes error messages use ("deployments.apps").
func (r ResourceInfo) GroupResource() string {
	if r.groupResource != "" {
		return r.groupResource
	}
	if r.Kind.Group == "" {
		return r.Resource
	}
	return r.Resource + "." + r.Kind.Group
}

// APIVersion returns "group/version", or "version" for the core group.
func (r ResourceInfo) APIVersion() string {
	if r.apiVersion != "" {
		return r.apiVersion
	}
	if r.Kind.Group == "" {
		return r.Version
	}
	return r.Kind.Group + "/" + r.Version
}

// kindEntry is one served kind: its info and the apiVersions it is served
// at, each with its Go type.
type kindEntry struct {
	info     ResourceInfo
	versions []versionEntry
}

type versionEntry struct {
	apiVersion string
	new        func() Object
}

func oneVersion(apiVersion string, f func() Object) []versionEntry {
	return []versionEntry{{apiVersion, f}}
}

func toLower(s string) string { return strings.ToLower(s) }

func builtinInfo(k Kind, version, resource string, namespaced, status, generation bool) ResourceInfo {
	return ResourceInfo{Kind: k, Version: version, Resource: resource, Namespaced: namespaced, HasStatus: status, Generation: generation, Singular: strings.ToLower(k.Name)}.named()
}

func withShortNames(info ResourceInfo, names ...string) ResourceInfo {
	info.ShortNames = names
	return info
}

// builtin is the registry of the built-in kinds, sorted by kind. It is
// never mutated: a cluster's own registry (NewRegistry) starts from it.
var builtin = indexed(&Registry{entries: []kindEntry{
	{builtinInfo(KindClusterRole, "v1", "clusterroles", false, false, false), oneVersion("rbac.authorization.k8s.io/v1", func() Object { return &ClusterRole{} })},
	{builtinInfo(KindClusterRoleBinding, "v1", "clusterrolebindings", false, false, false), oneVersion("rbac.authorization.k8s.io/v1", func() Object { return &ClusterRoleBinding{} })},
	{withShortNames(builtinInfo(KindConfigMap, "v1", "configmaps", true, false, false), "cm"), oneVersion("v1", func() Object { return &ConfigMap{} })},
	{withShortNames(builtinInfo(KindCronJob, "v1", "cronjobs", true, true, true), "cj"), oneVersion("batch/v1", func() Object { return &CronJob{} })},
	{withShortNames(builtinInfo(KindCustomResourceDefinition, "v1", "customresourcedefinitions", false, true, false), "crd", "crds"), oneVersion("apiextensions.k8s.io/v1", func() Object { return &CustomResourceDefinition{} })},
	{withShortNames(builtinInfo(KindDaemonSet, "v1", "daemonsets", true, true, true), "ds"), oneVersion("apps/v1", func() Object { return &DaemonSet{} })},
	{withShortNames(builtinInfo(KindDeployment, "v1", "deployments", true, true, true), "deploy"), oneVersion("apps/v1", func() Object { return &Deployment{} })},
	{builtinInfo(KindEndpointSlice, "v1", "endpointslices", true, false, true), oneVersion("discovery.k8s.io/v1", func() Object { return &EndpointSlice{} })},
	{withShortNames(builtinInfo(KindEndpoints, "v1", "endpoints", true, false, false), "ep"), oneVersion("v1", func() Object { return &Endpoints{} })},
	{withShortNames(builtinInfo(KindEvent, "v1", "events", true, false, false), "ev"), oneVersion("v1", func() Object { return &Event{} })},
	{withShortNames(builtinInfo(KindHorizontalPodAutoscaler, "v2", "horizontalpodautoscalers", true, true, true), "hpa"), []versionEntry{
		{"autoscaling/v2", func() Object { return &HorizontalPodAutoscaler{} }},
		{"autoscaling/v1", func() Object { return &HorizontalPodAutoscalerV1{} }},
	}},
	{withShortNames(builtinInfo(KindIngress, "v1", "ingresses", true, true, true), "ing"), oneVersion("networking.k8s.io/v1", func() Object { return &Ingress{} })},
	{builtinInfo(KindJob, "v1", "jobs", true, true, true), oneVersion("batch/v1", func() Object { return &Job{} })},
	{builtinInfo(KindLease, "v1", "leases", true, false, false), oneVersion("coordination.k8s.io/v1", func() Object { return &Lease{} })},
	{withShortNames(builtinInfo(KindLimitRange, "v1", "limitranges", true, false, false), "limits"), oneVersion("v1", func() Object { return &LimitRange{} })},
	{withShortNames(builtinInfo(KindNamespace, "v1", "namespaces", false, true, false), "ns"), oneVersion("v1", func() Object { return &Namespace{} })},
	{withShortNames(builtinInfo(KindNetworkPolicy, "v1", "networkpolicies", true, false, true), "netpol"), oneVersion("networking.k8s.io/v1", func() Object { return &NetworkPolicy{} })},
	{withShortNames(builtinInfo(KindNode, "v1", "nodes", false, true, false), "no"), oneVersion("v1", func() Object { return &Node{} })},
	{withShortNames(builtinInfo(KindPersistentVolume, "v1", "persistentvolumes", false, true, false), "pv"), oneVersion("v1", func() Object { return &PersistentVolume{} })},
	{withShortNames(builtinInfo(KindPersistentVolumeClaim, "v1", "persistentvolumeclaims", true, true, false), "pvc"), oneVersion("v1", func() Object { return &PersistentVolumeClaim{} })},
	{withShortNames(builtinInfo(KindPod, "v1", "pods", true, true, true), "po"), oneVersion("v1", func() Object { return &Pod{} })},
	{withShortNames(builtinInfo(KindPodDisruptionBudget, "v1", "poddisruptionbudgets", true, true, true), "pdb"), oneVersion("policy/v1", func() Object { return &PodDisruptionBudget{} })},
	{withShortNames(builtinInfo(KindPriorityClass, "v1", "priorityclasses", false, false, false), "pc"), oneVersion("scheduling.k8s.io/v1", func() Object { return &PriorityClass{} })},
	{withShortNames(builtinInfo(KindReplicaSet, "v1", "replicasets", true, true, true), "rs"), oneVersion("apps/v1", func() Object { return &ReplicaSet{} })},
	{withShortNames(builtinInfo(KindResourceQuota, "v1", "resourcequotas", true, true, false), "quota"), oneVersion("v1", func() Object { return &ResourceQuota{} })},
	{builtinInfo(KindRole, "v1", "roles", true, false, false), oneVersion("rbac.authorization.k8s.io/v1", func() Object { return &Role{} })},
	{builtinInfo(KindRoleBinding, "v1", "rolebindings", true, false, false), oneVersion("rbac.authorization.k8s.io/v1", func() Object { return &RoleBinding{} })},
	{builtinInfo(KindSecret, "v1", "secrets", true, false, false), oneVersion("v1", func() Object { return &Secret{} })},
	{withShortNames(builtinInfo(KindService, "v1", "services", true, true, false), "svc"), oneVersion("v1", func() Object { return &Service{} })},
	{withShortNames(builtinInfo(KindServiceAccount, "v1", "serviceaccounts", true, false, false), "sa"), oneVersion("v1", func() Object { return &ServiceAccount{} })},
	{withShortNames(builtinInfo(KindStatefulSet, "v1", "statefulsets", true, true, true), "sts"), oneVersion("apps/v1", func() Object { return &StatefulSet{} })},
	{withShortNames(builtinInfo(KindStorageClass, "v1", "storageclasses", false, false, false), "sc"), oneVersion("storage.k8s.io/v1", func() Object { return &StorageClass{} })},
}})

// indexed gives r the index of its entries by kind and returns it.
func indexed(r *Registry) *Registry {
	r.index = make(map[Kind]int, len(r.entries))
	for i, e := range r.entries {
		r.index[e.info.Kind] = i
	}
	return r
}

// Registry is a set of served kinds: the built-in ones, and those that a
// cluster's CustomResourceDefinitions add (each simulated cluster has its
// own, so runs side by side never see each other's custom kinds). Lookups
// are by Kind; a registry is not safe for concurrent mutation.
type Registry struct {
	entries []kindEntry // built-ins first (sorted), then custom kinds in registration order
	// index holds each entry's position by its kind: every API request
	// looks its kind up, and a search of the entries read one entry's
	// cache line per kind passed.
	index map[Kind]int
}

// NewRegistry returns a registry serving the built-in kinds, to which
// Register adds custom ones.
func NewRegistry() *Registry {
	return &Registry{entries: slices.Clone(builtin.entries), index: maps.Clone(builtin.index)}
}

// Builtin returns the read-only registry of the built-in kinds.
func Builtin() *Registry { return builtin }

func (r *Registry) find(k Kind) *kindEntry {
	if i, ok := r.index[k]; ok {
		return &r.entries[i]
	}
	return nil
}

// Lookup returns how kind k is served, or false for an unknown kind.
func (r *Registry) Lookup(k Kind) (ResourceInfo, bool) {
	if r == nil {
		r = builtin
	}
	if e := r.find(k); e != nil {
		return e.info, true
	}
	return ResourceInfo{}, false
}

// Kinds returns every served kind, sorted by name and group.
func (r *Registry) Kinds() []Kind {
	out := make([]Kind, len(r.entries))
	for i, e := range r.entries {
		out[i] = e.info.Kind
	}
	slices.SortFunc(out, Kind.Compare)
	return out
}

// Resolve returns the kind that a resource name denotes: its plural,
// singular, kind name or a short name, lowercase ("deployments",
// "deploy", "widget"), optionally qualified by its group
// ("widgets.example.com"). A name shared by several groups resolves to
// the built-in kind first, as kubectl prefers the core and apps groups.
func (r *Registry) Resolve(name string) (Kind, bool) {
	name = strings.ToLower(name)
	for _, e := range r.entries {
		in := e.info
		for _, n := range append([]string{in.Resource, in.Singular, strings.ToLower(in.Kind.Name)}, in.ShortNames...) {
			if n == "" {
				continue
			}
			if name == n || in.Kind.Group != "" && name == n+"."+in.Kind.Group {
				return in.Kind, true
			}
		}
	}
	return Kind{}, false
}

// Register adds a custom kind served at apiVersions (each "group/version"),
// whose objects are *Unstructured. Registering a kind that is already
// served fails, unless it is the same custom definition again.
func (r *Registry) Register(info ResourceInfo, apiVersions ...string) error {
	if r == builtin {
		return &RegisterError{Kind: info.Kind, Reason: "the built-in registry is read-only"}
	}
	if e := r.find(info.Kind); e != nil {
		if e.info.Custom && e.info.Resource == info.Resource && e.info.Namespaced == info.Namespaced {
			e.info = info
			return nil
		}
		return &RegisterError{Kind: info.Kind, Reason: "the kind is already served"}
	}
	info.Custom = true
	e := kindEntry{info: info}
	for _, v := range apiVersions {
		e.versions = append(e.versions, versionEntry{apiVersion: v, new: func() Object { return &Unstructured{} }})
	}
	if r.index == nil {
		indexed(r) // a Registry{} of its own, not NewRegistry's
	}
	r.index[info.Kind] = len(r.entries)
	r.entries = append(r.entries, e)
	return nil
}

// RegisterError is a kind that cannot be registered.
type RegisterError struct {
	// Kind is the kind asked for.
	Kind Kind
	// Reason says why.
	Reason string
}

// Error returns "cannot register Widget.example.com: <reason>".
func (e *RegisterError) Error() string {
	return "cannot register " + e.Kind.GroupKind() + ": " + e.Reason
}

// APIVersions returns the apiVersions kind k is served at, preferred first
// (nil for an unknown kind).
func (r *Registry) APIVersions(k Kind) []string {
	e := r.find(k)
	if e == nil {
		return nil
	}
	out := make([]string, len(e.versions))
	for i, v := range e.versions {
		out[i] = v.apiVersion
	}
	return out
}

// New returns a new zero object of the Go type served for apiVersion and
// kind, with its TypeMeta set: "autoscaling/v1" HorizontalPodAutoscaler
// gives a *HorizontalPodAutoscalerV1, a custom kind an *Unstructured.
// Anything else is an *UnknownKindError.
func (r *Registry) New(apiVersion, kind string) (Object, error) {
	if e := r.find(KindFor(apiVersion, kind)); e != nil {
		for _, v := range e.versions {
			if v.apiVersion == apiVersion {
				o := v.new()
				*o.GetTypeMeta() = TypeMeta{APIVersion: apiVersion, Kind: kind}
				return o, nil
			}
		}
	}
	return nil, &UnknownKindError{APIVersion: apiVersion, Kind: kind}
}

// Lookup returns how built-in kind k is served, or false for an unknown
// kind.
func Lookup(k Kind) (ResourceInfo, bool) { return builtin.Lookup(k) }

// Kinds returns every built-in kind, sorted.
func Kinds() []Kind { return builtin.Kinds() }

// APIVersions returns the apiVersions built-in kind k is served at,
// preferred first (nil for an unknown kind).
func APIVersions(k Kind) []string { return builtin.APIVersions(k) }

// New returns a new zero object of the built-in Go type served for
// apiVersion and kind (see Registry.New).
func New(apiVersion, kind string) (Object, error) { return builtin.New(apiVersion, kind) }

// UnknownKindError reports an apiVersion/kind pair the simulator does not
// serve.
type UnknownKindError struct {
	// APIVersion as requested, e.g. "apps/v1".
	APIVersion string
	// Kind as requested, e.g. "Foo".
	Kind string
}

// Error returns `no kind "Foo" is registered for version "apps/v1"`.
func (e *UnknownKindError) Error() string {
	return "no kind " + strconv.Quote(e.Kind) + " is registered for version " + strconv.Quote(e.APIVersion)
}

// KindOf returns the kind of o: from its Go type for the built-in types
// (TypeMeta may be empty for objects built in code), from its TypeMeta for
// an *Unstructured; the zero Kind for a type this package does not define.
func KindOf(o Object) Kind {
	switch o := o.(type) {
	case *Pod:
		return KindPod
	case *Node:
		return KindNode
	case *Namespace:
		return KindNamespace
	case *Service:
		return KindService
	case *Endpoints:
		return KindEndpoints
	case *EndpointSlice:
		return KindEndpointSlice
	case *Event:
		return KindEvent
	case *ResourceQuota:
		return KindResourceQuota
	case *ConfigMap:
		return KindConfigMap
	case *Secret:
		return KindSecret
	case *ServiceAccount:
		return KindServiceAccount
	case *Deployment:
		return KindDeployment
	case *ReplicaSet:
		return KindReplicaSet
	case *DaemonSet:
		return KindDaemonSet
	case *Lease:
		return KindLease
	case *PodDisruptionBudget:
		return KindPodDisruptionBudget
	case *HorizontalPodAutoscaler, *HorizontalPodAutoscalerV1:
		return KindHorizontalPodAutoscaler
	case *CustomResourceDefinition:
		return KindCustomResourceDefinition
	case *LimitRange:
		return KindLimitRange
	case *PriorityClass:
		return KindPriorityClass
	case *Job:
		return KindJob
	case *CronJob:
		return KindCronJob
	case *Ingress:
		return KindIngress
	case *NetworkPolicy:
		return KindNetworkPolicy
	case *Role:
		return KindRole
	case *RoleBinding:
		return KindRoleBinding
	case *ClusterRole:
		return KindClusterRole
	case *ClusterRoleBinding:
		return KindClusterRoleBinding
	case *StatefulSet:
		return KindStatefulSet
	case *PersistentVolumeClaim:
		return KindPersistentVolumeClaim
	case *PersistentVolume:
		return KindPersistentVolume
	case *StorageClass:
		return KindStorageClass
	case *Unstructured:
		return KindFor(o.APIVersion, o.Kind)
	}
	return Kind{}
}
