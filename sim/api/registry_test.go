package api

import (
	"errors"
	"reflect"
	"slices"
	"testing"
)

func TestNew(t *testing.T) {
	tests := []struct {
		apiVersion, kind string
		want             Object
	}{
		{"v1", "Pod", &Pod{}},
		{"v1", "Node", &Node{}},
		{"v1", "Namespace", &Namespace{}},
		{"v1", "Service", &Service{}},
		{"v1", "Endpoints", &Endpoints{}},
		{"v1", "Event", &Event{}},
		{"v1", "ResourceQuota", &ResourceQuota{}},
		{"v1", "ConfigMap", &ConfigMap{}},
		{"apps/v1", "Deployment", &Deployment{}},
		{"apps/v1", "ReplicaSet", &ReplicaSet{}},
		{"coordination.k8s.io/v1", "Lease", &Lease{}},
		{"autoscaling/v2", "HorizontalPodAutoscaler", &HorizontalPodAutoscaler{}},
		{"autoscaling/v1", "HorizontalPodAutoscaler", &HorizontalPodAutoscalerV1{}},
	}
	for _, tt := range tests {
		o, err := New(tt.apiVersion, tt.kind)
		if err != nil {
			t.Errorf("New(%q, %q): %v", tt.apiVersion, tt.kind, err)
			continue
		}
		if reflect.TypeOf(o) != reflect.TypeOf(tt.want) {
			t.Errorf("New(%q, %q) = %T, want %T", tt.apiVersion, tt.kind, o, tt.want)
		}
		if tm := o.GetTypeMeta(); tm.APIVersion != tt.apiVersion || tm.Kind != tt.kind {
			t.Errorf("New(%q, %q) TypeMeta = %+v", tt.apiVersion, tt.kind, tm)
		}
		if KindOf(o) != KindFor(tt.apiVersion, tt.kind) {
			t.Errorf("KindOf(%T) = %q", o, KindOf(o))
		}
	}
}

func TestNewUnknown(t *testing.T) {
	tests := []struct{ apiVersion, kind, msg string }{
		{"apps/v1", "Foo", `no kind "Foo" is registered for version "apps/v1"`},
		{"v1", "Deployment", `no kind "Deployment" is registered for version "v1"`},
		{"apps/v1beta1", "Deployment", `no kind "Deployment" is registered for version "apps/v1beta1"`},
		{"autoscaling/v2beta2", "HorizontalPodAutoscaler", `no kind "HorizontalPodAutoscaler" is registered for version "autoscaling/v2beta2"`},
		{"events.k8s.io/v1", "Event", `no kind "Event" is registered for version "events.k8s.io/v1"`},
		{"", "", `no kind "" is registered for version ""`},
	}
	for _, tt := range tests {
		o, err := New(tt.apiVersion, tt.kind)
		var uk *UnknownKindError
		if o != nil || !errors.As(err, &uk) || err.Error() != tt.msg || uk.Kind != tt.kind || uk.APIVersion != tt.apiVersion {
			t.Errorf("New(%q, %q) = %v, %v; want %s", tt.apiVersion, tt.kind, o, err, tt.msg)
		}
	}
}

func TestLookup(t *testing.T) {
	tests := []struct {
		kind          Kind
		groupResource string
		apiVersion    string
		namespaced    bool
		hasStatus     bool
	}{
		{KindDeployment, "deployments.apps", "apps/v1", true, true},
		{KindReplicaSet, "replicasets.apps", "apps/v1", true, true},
		{KindPod, "pods", "v1", true, true},
		{KindNode, "nodes", "v1", false, true},
		{KindNamespace, "namespaces", "v1", false, true},
		{KindService, "services", "v1", true, true},
		{KindEndpoints, "endpoints", "v1", true, false},
		{KindEvent, "events", "v1", true, false},
		{KindResourceQuota, "resourcequotas", "v1", true, true},
		{KindConfigMap, "configmaps", "v1", true, false},
		{KindSecret, "secrets", "v1", true, false},
		{KindServiceAccount, "serviceaccounts", "v1", true, false},
		{KindLease, "leases.coordination.k8s.io", "coordination.k8s.io/v1", true, false},
		{KindHorizontalPodAutoscaler, "horizontalpodautoscalers.autoscaling", "autoscaling/v2", true, true},
		{KindDaemonSet, "daemonsets.apps", "apps/v1", true, true},
		{KindCustomResourceDefinition, "customresourcedefinitions.apiextensions.k8s.io", "apiextensions.k8s.io/v1", false, true},
		{KindPodDisruptionBudget, "poddisruptionbudgets.policy", "policy/v1", true, true},
		{KindJob, "jobs.batch", "batch/v1", true, true},
		{KindStatefulSet, "statefulsets.apps", "apps/v1", true, true},
		{KindEndpointSlice, "endpointslices.discovery.k8s.io", "discovery.k8s.io/v1", true, false},
		{KindPersistentVolumeClaim, "persistentvolumeclaims", "v1", true, true},
		{KindPersistentVolume, "persistentvolumes", "v1", false, true},
		{KindStorageClass, "storageclasses.storage.k8s.io", "storage.k8s.io/v1", false, false},
		{KindLimitRange, "limitranges", "v1", true, false},
		{KindPriorityClass, "priorityclasses.scheduling.k8s.io", "scheduling.k8s.io/v1", false, false},
		{KindCronJob, "cronjobs.batch", "batch/v1", true, true},
		{KindIngress, "ingresses.networking.k8s.io", "networking.k8s.io/v1", true, true},
		{KindNetworkPolicy, "networkpolicies.networking.k8s.io", "networking.k8s.io/v1", true, false},
		{KindRole, "roles.rbac.authorization.k8s.io", "rbac.authorization.k8s.io/v1", true, false},
		{KindRoleBinding, "rolebindings.rbac.authorization.k8s.io", "rbac.authorization.k8s.io/v1", true, false},
		{KindClusterRole, "clusterroles.rbac.authorization.k8s.io", "rbac.authorization.k8s.io/v1", false, false},
		{KindClusterRoleBinding, "clusterrolebindings.rbac.authorization.k8s.io", "rbac.authorization.k8s.io/v1", false, false},
	}
	for _, tt := range tests {
		info, ok := Lookup(tt.kind)
		if !ok || info.Kind != tt.kind || info.GroupResource() != tt.groupResource || info.APIVersion() != tt.apiVersion ||
			info.Namespaced != tt.namespaced || info.HasStatus != tt.hasStatus {
			t.Errorf("Lookup(%s) = %+v %v", tt.kind, info, ok)
		}
	}
	if _, ok := Lookup(Kind{Name: "Foo"}); ok {
		t.Error("Lookup(Foo) found")
	}
	kinds := Kinds()
	if len(kinds) != len(tests) || !slices.IsSortedFunc(kinds, Kind.Compare) {
		t.Errorf("Kinds() = %v", kinds)
	}
	if v := APIVersions(KindHorizontalPodAutoscaler); !slices.Equal(v, []string{"autoscaling/v2", "autoscaling/v1"}) {
		t.Errorf("APIVersions(HPA) = %v", v)
	}
	if APIVersions(Kind{Name: "Foo"}) != nil {
		t.Error("APIVersions(Foo)")
	}
	if !KindOf(nil).IsZero() {
		t.Error("KindOf(nil)")
	}
}

// TestResourceInfoNames holds APIVersion and GroupResource to the same
// strings whether the registry made them (named) or a ResourceInfo made
// by hand builds them, for built-in and custom kinds, and checks that
// the registry's cost no allocation: the API server stamps every object
// it is sent with its apiVersion.
func TestResourceInfoNames(t *testing.T) {
	crd := &CustomResourceDefinition{Spec: CustomResourceDefinitionSpec{
		Group: "example.com", Scope: "Namespaced",
		Names:    CustomResourceDefinitionNames{Plural: "widgets", Kind: "Widget"},
		Versions: []CustomResourceDefinitionVersion{{Name: "v1beta1", Served: true, Storage: true}},
	}}
	tests := []struct {
		name                      string
		info                      ResourceInfo
		apiVersion, groupResource string
	}{
		{"core", mustLookup(t, KindPod), "v1", "pods"},
		{"apps", mustLookup(t, KindReplicaSet), "apps/v1", "replicasets.apps"},
		{"coordination", mustLookup(t, KindLease), "coordination.k8s.io/v1", "leases.coordination.k8s.io"},
		{"custom", crd.ResourceInfo(), "example.com/v1beta1", "widgets.example.com"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			byHand := tt.info
			byHand.apiVersion, byHand.groupResource = "", ""
			for _, info := range []ResourceInfo{tt.info, byHand} {
				if got := info.APIVersion(); got != tt.apiVersion {
					t.Errorf("APIVersion() = %q, want %q", got, tt.apiVersion)
				}
				if got := info.GroupResource(); got != tt.groupResource {
					t.Errorf("GroupResource() = %q, want %q", got, tt.groupResource)
				}
			}
			if n := testing.AllocsPerRun(10, func() { namesSink[0], namesSink[1] = tt.info.APIVersion(), tt.info.GroupResource() }); n != 0 {
				t.Errorf("the registry's names: %v allocations, want 0", n)
			}
		})
	}
}

// namesSink keeps the names TestResourceInfoNames asks for on the heap,
// as a stored object's apiVersion is: a string built and dropped at once
// would be built on the stack, and AllocsPerRun would not see it.
var namesSink [2]string

func mustLookup(t *testing.T, k Kind) ResourceInfo {
	t.Helper()
	info, ok := Builtin().Lookup(k)
	if !ok {
		t.Fatalf("no %v", k)
	}
	return info
}

// TestRegistriesApart: a kind registered in one cluster's registry is
// found there, by Lookup and by New, and in no other registry (each
// starts from the built-ins' own copy of entries and index); registering
// it again is refused; the built-ins are found in each.
func TestRegistriesApart(t *testing.T) {
	widget := Kind{Group: "example.com", Name: "Widget"}
	a, b := NewRegistry(), NewRegistry()
	info := ResourceInfo{Kind: widget, Resource: "widgets", Namespaced: true}
	if err := a.Register(info, "example.com/v1"); err != nil {
		t.Fatal(err)
	}
	if got, ok := a.Lookup(widget); !ok || got.Resource != "widgets" || !got.Custom {
		t.Errorf("a.Lookup(Widget) = %+v, %v", got, ok)
	}
	if _, ok := b.Lookup(widget); ok {
		t.Error("b.Lookup(Widget) found the kind registered in a")
	}
	if _, ok := Builtin().Lookup(widget); ok {
		t.Error("Builtin().Lookup(Widget) found the kind registered in a")
	}
	if err := a.Register(ResourceInfo{Kind: KindPod, Resource: "pods"}, "v1"); err == nil {
		t.Error("registering Pod again: no error")
	}
	for _, r := range []*Registry{a, b, Builtin()} {
		for _, k := range Builtin().Kinds() {
			if got, ok := r.Lookup(k); !ok || got.Kind != k {
				t.Errorf("Lookup(%s) = %+v, %v", k, got, ok)
			}
		}
	}
	if got := a.Kinds(); len(got) != len(Builtin().Kinds())+1 || got[len(got)-1] != widget {
		t.Errorf("a.Kinds() = %v", got)
	}
	// A registry of its own (the zero value): no built-ins, and custom
	// kinds as in any other.
	var z Registry
	if err := z.Register(info, "example.com/v1"); err != nil {
		t.Fatal(err)
	}
	if _, ok := z.Lookup(widget); !ok {
		t.Error("a zero Registry does not find the kind registered in it")
	}
	if _, ok := z.Lookup(KindPod); ok {
		t.Error("a zero Registry finds Pod")
	}
}
