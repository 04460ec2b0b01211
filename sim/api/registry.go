package api

import "strconv"

// Kind is an object kind as written in manifests ("Deployment").
type Kind string

// The kinds the simulator serves.
const (
	// KindPod is core/v1 Pod.
	KindPod Kind = "Pod"
	// KindNode is core/v1 Node.
	KindNode Kind = "Node"
	// KindNamespace is core/v1 Namespace.
	KindNamespace Kind = "Namespace"
	// KindService is core/v1 Service.
	KindService Kind = "Service"
	// KindEndpoints is core/v1 Endpoints.
	KindEndpoints Kind = "Endpoints"
	// KindEvent is core/v1 Event.
	KindEvent Kind = "Event"
	// KindResourceQuota is core/v1 ResourceQuota.
	KindResourceQuota Kind = "ResourceQuota"
	// KindConfigMap is core/v1 ConfigMap.
	KindConfigMap Kind = "ConfigMap"
	// KindDeployment is apps/v1 Deployment.
	KindDeployment Kind = "Deployment"
	// KindReplicaSet is apps/v1 ReplicaSet.
	KindReplicaSet Kind = "ReplicaSet"
	// KindLease is coordination.k8s.io/v1 Lease.
	KindLease Kind = "Lease"
	// KindSecret is core/v1 Secret (stored, not interpreted).
	KindSecret Kind = "Secret"
	// KindServiceAccount is core/v1 ServiceAccount (stored, not
	// interpreted).
	KindServiceAccount Kind = "ServiceAccount"
	// KindHorizontalPodAutoscaler is autoscaling/v2 (and v1)
	// HorizontalPodAutoscaler.
	KindHorizontalPodAutoscaler Kind = "HorizontalPodAutoscaler"
)

// ResourceInfo describes how a kind is served.
type ResourceInfo struct {
	// Kind is the object kind.
	Kind Kind
	// Group is the API group, "" for core.
	Group string
	// Version is the preferred (storage) version.
	Version string
	// Resource is the lowercase plural used in URLs and messages, e.g. "deployments".
	Resource string
	// Namespaced is false for cluster-scoped kinds (Node, Namespace).
	Namespaced bool
	// HasStatus reports a status subresource.
	HasStatus bool
}

// GroupResource returns "resource.group", or "resource" for the core
// group: the form Kubernetes error messages use ("deployments.apps").
func (r ResourceInfo) GroupResource() string {
	if r.Group == "" {
		return r.Resource
	}
	return r.Resource + "." + r.Group
}

// APIVersion returns "group/version", or "version" for the core group.
func (r ResourceInfo) APIVersion() string {
	if r.Group == "" {
		return r.Version
	}
	return r.Group + "/" + r.Version
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

// registry lists served kinds sorted by kind.
var registry = []kindEntry{
	{ResourceInfo{KindConfigMap, "", "v1", "configmaps", true, false}, oneVersion("v1", func() Object { return &ConfigMap{} })},
	{ResourceInfo{KindDeployment, "apps", "v1", "deployments", true, true}, oneVersion("apps/v1", func() Object { return &Deployment{} })},
	{ResourceInfo{KindEndpoints, "", "v1", "endpoints", true, false}, oneVersion("v1", func() Object { return &Endpoints{} })},
	{ResourceInfo{KindEvent, "", "v1", "events", true, false}, oneVersion("v1", func() Object { return &Event{} })},
	{ResourceInfo{KindHorizontalPodAutoscaler, "autoscaling", "v2", "horizontalpodautoscalers", true, true}, []versionEntry{
		{"autoscaling/v2", func() Object { return &HorizontalPodAutoscaler{} }},
		{"autoscaling/v1", func() Object { return &HorizontalPodAutoscalerV1{} }},
	}},
	{ResourceInfo{KindLease, "coordination.k8s.io", "v1", "leases", true, false}, oneVersion("coordination.k8s.io/v1", func() Object { return &Lease{} })},
	{ResourceInfo{KindNamespace, "", "v1", "namespaces", false, true}, oneVersion("v1", func() Object { return &Namespace{} })},
	{ResourceInfo{KindNode, "", "v1", "nodes", false, true}, oneVersion("v1", func() Object { return &Node{} })},
	{ResourceInfo{KindPod, "", "v1", "pods", true, true}, oneVersion("v1", func() Object { return &Pod{} })},
	{ResourceInfo{KindReplicaSet, "apps", "v1", "replicasets", true, true}, oneVersion("apps/v1", func() Object { return &ReplicaSet{} })},
	{ResourceInfo{KindResourceQuota, "", "v1", "resourcequotas", true, true}, oneVersion("v1", func() Object { return &ResourceQuota{} })},
	{ResourceInfo{KindSecret, "", "v1", "secrets", true, false}, oneVersion("v1", func() Object { return &Secret{} })},
	{ResourceInfo{KindService, "", "v1", "services", true, true}, oneVersion("v1", func() Object { return &Service{} })},
	{ResourceInfo{KindServiceAccount, "", "v1", "serviceaccounts", true, false}, oneVersion("v1", func() Object { return &ServiceAccount{} })},
}

func find(k Kind) *kindEntry {
	for i := range registry {
		if registry[i].info.Kind == k {
			return &registry[i]
		}
	}
	return nil
}

// Lookup returns how kind k is served, or false for an unknown kind.
func Lookup(k Kind) (ResourceInfo, bool) {
	if e := find(k); e != nil {
		return e.info, true
	}
	return ResourceInfo{}, false
}

// Kinds returns every served kind, sorted.
func Kinds() []Kind {
	out := make([]Kind, len(registry))
	for i, e := range registry {
		out[i] = e.info.Kind
	}
	return out
}

// APIVersions returns the apiVersions kind k is served at, preferred first
// (nil for an unknown kind).
func APIVersions(k Kind) []string {
	e := find(k)
	if e == nil {
		return nil
	}
	out := make([]string, len(e.versions))
	for i, v := range e.versions {
		out[i] = v.apiVersion
	}
	return out
}

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

// New returns a new zero object of the Go type served for apiVersion and
// kind, with its TypeMeta set; "autoscaling/v1" HorizontalPodAutoscaler
// gives a *HorizontalPodAutoscalerV1. Anything else is an
// *UnknownKindError.
func New(apiVersion, kind string) (Object, error) {
	if e := find(Kind(kind)); e != nil {
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

// KindOf returns the kind of o from its Go type (TypeMeta may be empty for
// objects built in code), or "" for a type this package does not define.
func KindOf(o Object) Kind {
	switch o.(type) {
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
	case *Lease:
		return KindLease
	case *HorizontalPodAutoscaler, *HorizontalPodAutoscalerV1:
		return KindHorizontalPodAutoscaler
	}
	return ""
}
