package api

import (
	"strings"
	"testing"
)

// rl parses "cpu=1,memory=1Gi" into a ResourceList.
func rl(s string) ResourceList {
	if s == "" {
		return nil
	}
	out := ResourceList{}
	for _, kv := range strings.Split(s, ",") {
		k, v, _ := strings.Cut(kv, "=")
		out[ResourceName(k)] = MustParseQuantity(v)
	}
	return out
}

// ctr is a container with requests and limits in rl's syntax.
func ctr(name, req, lim string) Container {
	return Container{Name: name, Resources: ResourceRequirements{Requests: rl(req), Limits: rl(lim)}}
}

// sidecar is ctr as a restartable init container.
func sidecar(name, req, lim string) Container {
	c := ctr(name, req, lim)
	c.RestartPolicy = ptr(ContainerRestartPolicyAlways)
	return c
}

// render prints a ResourceList as sorted name=value pairs.
func render(l ResourceList) string {
	var parts []string
	for _, n := range l.SortedNames() {
		q := l[n]
		parts = append(parts, string(n)+"="+q.String())
	}
	return strings.Join(parts, ",")
}

// TestQuotaUsage holds QuotaUsage to upstream's quota evaluators (k/k
// pkg/quota/v1/evaluator/core pods.go, persistent_volume_claims.go,
// services.go) and its pod sums to component-helpers' PodRequests and
// PodLimits.
func TestQuotaUsage(t *testing.T) {
	pod := func(spec PodSpec) *Pod { return &Pod{ObjectMeta: ObjectMeta{Name: "p", Namespace: "ns"}, Spec: spec} }
	tests := []struct {
		name string
		obj  Object
		want string
	}{{
		name: "limits-only container with a sidecar and an init container: the sidecar adds to the sum",
		obj: pod(PodSpec{
			InitContainers: []Container{ctr("migrate", "cpu=100m,memory=128Mi", "cpu=500m,memory=512Mi"), sidecar("log", "cpu=100m,memory=64Mi", "cpu=100m,memory=64Mi")},
			Containers:     []Container{ctr("web", "cpu=1,memory=1Gi", "cpu=1,memory=1Gi")},
		}),
		want: "count/pods=1,cpu=1100m,limits.cpu=1100m,limits.memory=1088Mi,memory=1088Mi,pods=1,requests.cpu=1100m,requests.memory=1088Mi",
	}, {
		name: "an init container after a sidecar needs the sidecar beside it",
		obj: pod(PodSpec{
			InitContainers: []Container{sidecar("log", "cpu=100m", ""), ctr("warm", "cpu=2", "")},
			Containers:     []Container{ctr("web", "cpu=1", "")},
		}),
		want: "count/pods=1,cpu=2100m,pods=1,requests.cpu=2100m",
	}, {
		name: "overhead adds to requests and to limits that are set",
		obj:  pod(PodSpec{Overhead: rl("cpu=250m,memory=120Mi"), Containers: []Container{ctr("c", "cpu=1,memory=1Gi", "memory=2Gi")}}),
		want: "count/pods=1,cpu=1250m,limits.memory=2168Mi,memory=1144Mi,pods=1,requests.cpu=1250m,requests.memory=1144Mi",
	}, {
		name: "pod-level resources replace the containers' sum",
		obj:  pod(PodSpec{Resources: &ResourceRequirements{Requests: rl("cpu=2"), Limits: rl("cpu=4")}, Containers: []Container{ctr("a", "cpu=500m", ""), ctr("b", "", "")}}),
		want: "count/pods=1,cpu=2,limits.cpu=4,pods=1,requests.cpu=2",
	}, {
		name: "ephemeral storage, hugepages and an extended resource",
		obj:  pod(PodSpec{Containers: []Container{ctr("c", "ephemeral-storage=1Gi,hugepages-2Mi=4Mi,nvidia.com/gpu=1", "ephemeral-storage=2Gi,hugepages-2Mi=4Mi,nvidia.com/gpu=1")}}),
		want: "count/pods=1,ephemeral-storage=1Gi,hugepages-2Mi=4Mi,limits.ephemeral-storage=2Gi,pods=1,requests.ephemeral-storage=1Gi,requests.hugepages-2Mi=4Mi,requests.nvidia.com/gpu=1",
	}, {
		name: "a finished pod counts only in count/pods",
		obj:  &Pod{ObjectMeta: ObjectMeta{Name: "p", Namespace: "ns"}, Spec: PodSpec{Containers: []Container{ctr("c", "cpu=1", "")}}, Status: PodStatus{Phase: PodSucceeded}},
		want: "count/pods=1",
	}, {
		name: "a claim of a class",
		obj: &PersistentVolumeClaim{ObjectMeta: ObjectMeta{Name: "data", Namespace: "ns"},
			Spec: PersistentVolumeClaimSpec{StorageClassName: ptr("fast"), Resources: VolumeResourceRequirements{Requests: rl("storage=8Gi")}}},
		want: "count/persistentvolumeclaims=1,fast.storageclass.storage.k8s.io/persistentvolumeclaims=1,fast.storageclass.storage.k8s.io/requests.storage=8Gi,persistentvolumeclaims=1,requests.storage=8Gi",
	}, {
		name: "a claim without a class, expanded beyond its request",
		obj: &PersistentVolumeClaim{ObjectMeta: ObjectMeta{Name: "data", Namespace: "ns"},
			Spec:   PersistentVolumeClaimSpec{Resources: VolumeResourceRequirements{Requests: rl("storage=8Gi")}},
			Status: PersistentVolumeClaimStatus{AllocatedResources: rl("storage=10Gi")}},
		want: "count/persistentvolumeclaims=1,persistentvolumeclaims=1,requests.storage=10Gi",
	}, {
		name: "a NodePort Service counts its ports",
		obj:  &Service{ObjectMeta: ObjectMeta{Name: "s", Namespace: "ns"}, Spec: ServiceSpec{Type: ServiceTypeNodePort, Ports: []ServicePort{{Port: 80}, {Port: 443}}}},
		want: "count/services=1,services=1,services.nodeports=2",
	}, {
		name: "a LoadBalancer Service without node ports",
		obj: &Service{ObjectMeta: ObjectMeta{Name: "s", Namespace: "ns"},
			Spec: ServiceSpec{Type: ServiceTypeLoadBalancer, AllocateLoadBalancerNodePorts: ptr(false), Ports: []ServicePort{{Port: 80}}}},
		want: "count/services=1,services=1,services.loadbalancers=1",
	}, {
		name: "a Secret",
		obj:  &Secret{ObjectMeta: ObjectMeta{Name: "s", Namespace: "ns"}},
		want: "count/secrets=1,secrets=1",
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := render(QuotaUsage(tc.obj)); got != tc.want {
				t.Errorf("QuotaUsage =\n %s\nwant\n %s", got, tc.want)
			}
		})
	}
}

// TestQuotaCountedKind: the kind whose objects each quota resource counts.
func TestQuotaCountedKind(t *testing.T) {
	for _, tc := range []struct {
		name ResourceName
		want Kind // zero: no kind besides pods
	}{
		{"persistentvolumeclaims", KindPersistentVolumeClaim},
		{"requests.storage", KindPersistentVolumeClaim},
		{"gold.storageclass.storage.k8s.io/persistentvolumeclaims", KindPersistentVolumeClaim},
		{"secrets", KindSecret},
		{"services.loadbalancers", KindService},
		{"count/secrets", KindSecret},
		{"count/jobs.batch", KindJob},
		{"count/statefulsets.apps", KindStatefulSet},
		{"count/widgets.example.com", Kind{}},
		{"requests.cpu", Kind{}},
		{"pods", Kind{}},
	} {
		got, ok := QuotaCountedKind(tc.name)
		if got != tc.want || ok == tc.want.IsZero() {
			t.Errorf("QuotaCountedKind(%s) = %v, %v; want %v", tc.name, got, ok, tc.want)
		}
	}
}
