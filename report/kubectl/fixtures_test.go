package kubectl_test

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// now is the observation time of every fixture.
var now = time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)

func ago(d time.Duration) api.Time { return api.NewTime(now.Add(-d)) }

func agoPtr(d time.Duration) *api.Time {
	t := ago(d)
	return &t
}

func ptr[T any](v T) *T { return &v }

func raw(v any) api.RawValue {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return api.RawValue(b)
}

func rawPtr(v any) *api.RawValue {
	r := raw(v)
	return &r
}

func qty(s string) api.Quantity { return api.MustParseQuantity(s) }

var yes = true

func controllerRef(kind, name, uid string) api.OwnerReference {
	return api.OwnerReference{APIVersion: "apps/v1", Kind: kind, Name: name, UID: api.UID(uid), Controller: &yes, BlockOwnerDeletion: &yes}
}

// running is a running container status.
func running(name string, ready bool, restarts int32, started time.Duration) api.ContainerStatus {
	return api.ContainerStatus{Name: name, Ready: ready, RestartCount: restarts, Image: "docker.io/library/nginx:1.14.2",
		ImageID:     "docker.io/library/nginx@sha256:f7988fb6c02e0ce69257d9bd9cf37ae20a60f1df7563c3a2a6abe24160306b8d",
		ContainerID: "containerd://4d1c3f0e3b2a",
		State:       api.ContainerState{Running: &api.ContainerStateRunning{StartedAt: ago(started)}}}
}

func waiting(name, reason string, restarts int32) api.ContainerStatus {
	return api.ContainerStatus{Name: name, RestartCount: restarts, Image: "nginx:1.14.2",
		State: api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: reason}}}
}

func terminated(name, reason string, code, signal int32) api.ContainerStatus {
	return api.ContainerStatus{Name: name, Image: "busybox:1.36",
		State: api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: code, Signal: signal, Reason: reason,
			StartedAt: ago(5 * time.Minute), FinishedAt: ago(4 * time.Minute)}}}
}

// pod builds a pod with one container per status (named after it).
func pod(name string, phase api.PodPhase, statuses ...api.ContainerStatus) *api.Pod {
	p := &api.Pod{
		TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", CreationTimestamp: ago(10 * time.Minute), UID: api.UID("uid-" + name)},
		Spec:       api.PodSpec{NodeName: "worker-1"},
		Status:     api.PodStatus{Phase: phase, ContainerStatuses: statuses},
	}
	for _, s := range statuses {
		p.Spec.Containers = append(p.Spec.Containers, api.Container{Name: s.Name, Image: s.Image})
	}
	if len(statuses) == 0 {
		p.Spec.Containers = []api.Container{{Name: "app", Image: "nginx:1.14.2"}}
	}
	return p
}

func withCondition(p *api.Pod, t api.PodConditionType, s api.ConditionStatus, reason string) *api.Pod {
	p.Status.Conditions = append(p.Status.Conditions, api.PodCondition{Type: t, Status: s, Reason: reason, LastTransitionTime: ago(9 * time.Minute)})
	return p
}

// statusPods covers every branch of printPod's STATUS, READY and
// RESTARTS.
func statusPods() []*api.Pod {
	crash := waiting("app", "CrashLoopBackOff", 4)
	crash.LastTerminationState = api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 1, Reason: "Error", FinishedAt: ago(38 * time.Second)}}

	terminating := pod("web-terminating", api.PodRunning, running("app", true, 0, 9*time.Minute))
	terminating.DeletionTimestamp = agoPtr(20 * time.Second)

	lost := pod("web-lost", api.PodRunning, running("app", true, 0, 9*time.Minute))
	lost.DeletionTimestamp = agoPtr(time.Minute)
	lost.Status.Reason = "NodeLost"

	pending := pod("web-pending", api.PodPending)
	pending.Spec.NodeName = ""
	withCondition(pending, api.PodScheduled, api.ConditionFalse, "Unschedulable")

	gated := pod("web-gated", api.PodPending)
	gated.Spec.NodeName = ""
	withCondition(gated, api.PodScheduled, api.ConditionFalse, "SchedulingGated")

	initWaiting := pod("init-waiting", api.PodPending, waiting("app", "PodInitializing", 0))
	initWaiting.Spec.InitContainers = []api.Container{{Name: "migrate", Image: "migrate:1"}, {Name: "seed", Image: "seed:1"}}
	initWaiting.Status.InitContainerStatuses = []api.ContainerStatus{
		{Name: "migrate", State: api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 0, Reason: "Completed"}}},
		{Name: "seed", State: api.ContainerState{Running: &api.ContainerStateRunning{StartedAt: ago(time.Minute)}}},
	}
	initPull := pod("init-pull", api.PodPending, waiting("app", "PodInitializing", 0))
	initPull.Spec.InitContainers = []api.Container{{Name: "migrate", Image: "migrate:nope"}}
	initPull.Status.InitContainerStatuses = []api.ContainerStatus{waiting("migrate", "ImagePullBackOff", 0)}

	initFailed := pod("init-failed", api.PodPending, waiting("app", "PodInitializing", 0))
	initFailed.Spec.InitContainers = []api.Container{{Name: "migrate", Image: "migrate:1"}}
	f := terminated("migrate", "Error", 1, 0)
	f.RestartCount = 2
	initFailed.Status.InitContainerStatuses = []api.ContainerStatus{f}

	initExit := pod("init-exitcode", api.PodPending, waiting("app", "PodInitializing", 0))
	initExit.Spec.InitContainers = []api.Container{{Name: "migrate", Image: "migrate:1"}}
	initExit.Status.InitContainerStatuses = []api.ContainerStatus{terminated("migrate", "", 3, 0)}

	sidecar := pod("with-sidecar", api.PodRunning, running("app", true, 1, 2*time.Minute))
	always := api.ContainerRestartPolicyAlways
	sidecar.Spec.InitContainers = []api.Container{{Name: "proxy", Image: "envoy:1", RestartPolicy: &always}}
	proxy := running("proxy", true, 2, 3*time.Minute)
	proxy.Started = &yes
	proxy.LastTerminationState = api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 137, FinishedAt: ago(3 * time.Minute)}}
	sidecar.Status.InitContainerStatuses = []api.ContainerStatus{proxy}
	sidecar.Status.ContainerStatuses[0].LastTerminationState = api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 1, FinishedAt: ago(2*time.Minute + 5*time.Second)}}
	withCondition(sidecar, api.PodInitialized, api.ConditionTrue, "")

	notReady := pod("job-notready", api.PodRunning, terminated("main", "Completed", 0, 0), running("helper", true, 0, 8*time.Minute))
	withCondition(notReady, api.PodReady, api.ConditionFalse, "")

	evicted := pod("web-evicted", api.PodFailed)
	evicted.Status.Reason = "Evicted"
	evicted.Status.Message = "The node was low on resource: memory."

	gates := pod("web-gates", api.PodRunning, running("app", true, 0, 9*time.Minute))
	gates.Spec.ReadinessGates = []api.PodReadinessGate{{ConditionType: "example.com/feature-1"}, {ConditionType: "example.com/feature-2"}}
	withCondition(gates, "example.com/feature-1", api.ConditionTrue, "")
	gates.Status.PodIPs = []api.PodIP{{IP: "10.244.1.7"}}
	gates.Status.NominatedNodeName = "worker-2"

	return []*api.Pod{
		pod("web-running", api.PodRunning, running("app", true, 0, 9*time.Minute)),
		pod("web-notready", api.PodRunning, running("app", false, 0, 9*time.Minute)),
		pod("web-creating", api.PodPending, waiting("app", "ContainerCreating", 0)),
		pod("web-errimagepull", api.PodPending, waiting("app", "ErrImagePull", 0)),
		pod("web-imagepullbackoff", api.PodPending, waiting("app", "ImagePullBackOff", 0)),
		pod("web-crashloop", api.PodRunning, crash),
		pod("job-completed", api.PodSucceeded, terminated("main", "Completed", 0, 0)),
		pod("job-error", api.PodFailed, terminated("main", "Error", 1, 0)),
		pod("job-oomkilled", api.PodFailed, terminated("main", "OOMKilled", 137, 0)),
		pod("job-exitcode", api.PodFailed, terminated("main", "", 137, 0)),
		pod("job-signal", api.PodFailed, terminated("main", "", 0, 9)),
		pod("two-of-three", api.PodRunning, running("a", true, 0, time.Minute), running("b", true, 0, time.Minute), running("c", false, 0, time.Minute)),
		terminating, lost, pending, gated, initWaiting, initPull, initFailed, initExit, sidecar, notReady, evicted, gates,
	}
}

// webDeployment is a Deployment mid-rollout with its two ReplicaSets.
func webDeployment() (*api.Deployment, []*api.ReplicaSet) {
	labels := map[string]string{"app": "nginx"}
	d := &api.Deployment{
		TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: api.ObjectMeta{Name: "nginx-deployment", Namespace: "default", UID: "uid-deploy", Generation: 2,
			CreationTimestamp: ago(12*time.Minute + 30*time.Second), Labels: labels,
			Annotations: map[string]string{
				"deployment.kubernetes.io/revision":                "2",
				"kubectl.kubernetes.io/last-applied-configuration": `{"apiVersion":"apps/v1","kind":"Deployment"}` + "\n",
			}},
		Spec: api.DeploymentSpec{
			Replicas: ptr(int32(3)),
			Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec: api.PodSpec{Containers: []api.Container{{
					Name: "nginx", Image: "nginx:1.16.1",
					Ports: []api.ContainerPort{{ContainerPort: 80, Protocol: api.ProtocolTCP}},
				}}},
			},
			Strategy: api.DeploymentStrategy{Type: api.RollingUpdateDeploymentStrategyType, RollingUpdate: &api.RollingUpdateDeployment{
				MaxUnavailable: ptr(api.FromString("25%")), MaxSurge: ptr(api.FromString("25%"))}},
			RevisionHistoryLimit:    ptr(int32(10)),
			ProgressDeadlineSeconds: ptr(int32(600)),
		},
		Status: api.DeploymentStatus{
			ObservedGeneration: 2, Replicas: 4, UpdatedReplicas: 1, ReadyReplicas: 3, AvailableReplicas: 3, UnavailableReplicas: 1,
			Conditions: []api.DeploymentCondition{
				{Type: api.DeploymentAvailable, Status: api.ConditionTrue, Reason: "MinimumReplicasAvailable", Message: "Deployment has minimum availability."},
				{Type: api.DeploymentProgressing, Status: api.ConditionTrue, Reason: "ReplicaSetUpdated", Message: `ReplicaSet "nginx-deployment-1564180365" is progressing.`},
			},
		},
	}
	rs := func(name, hash, image, revision string, replicas, ready int32, created time.Duration) *api.ReplicaSet {
		l := map[string]string{"app": "nginx", "pod-template-hash": hash}
		r := &api.ReplicaSet{
			TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"},
			ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: api.UID("uid-" + name), CreationTimestamp: ago(created), Labels: l,
				Annotations:     map[string]string{"deployment.kubernetes.io/desired-replicas": "3", "deployment.kubernetes.io/max-replicas": "4", "deployment.kubernetes.io/revision": revision},
				OwnerReferences: []api.OwnerReference{controllerRef("Deployment", "nginx-deployment", "uid-deploy")}},
			Spec: api.ReplicaSetSpec{Replicas: ptr(replicas), Selector: &api.LabelSelector{MatchLabels: l},
				Template: *d.Spec.Template.DeepCopy()},
			Status: api.ReplicaSetStatus{Replicas: replicas, ReadyReplicas: ready, AvailableReplicas: ready, FullyLabeledReplicas: replicas, ObservedGeneration: 1},
		}
		r.Spec.Template.Labels = l
		r.Spec.Template.Spec.Containers[0].Image = image
		return r
	}
	return d, []*api.ReplicaSet{
		rs("nginx-deployment-2035384211", "2035384211", "nginx:1.14.2", "1", 3, 3, 12*time.Minute+30*time.Second),
		rs("nginx-deployment-1564180365", "1564180365", "nginx:1.16.1", "2", 1, 0, 20*time.Second),
	}
}

func event(name, kind, object, typ, reason, message, component string, count int32, first, last time.Duration) *api.Event {
	return &api.Event{
		TypeMeta:       api.TypeMeta{APIVersion: "v1", Kind: "Event"},
		ObjectMeta:     api.ObjectMeta{Name: name, Namespace: "default", CreationTimestamp: ago(first)},
		InvolvedObject: api.ObjectReference{Kind: kind, Namespace: "default", Name: object, UID: api.UID("uid-" + object)},
		Type:           typ, Reason: reason, Message: message, Source: api.EventSource{Component: component},
		FirstTimestamp: ago(first), LastTimestamp: ago(last), Count: count,
	}
}

func deploymentEvents() []*api.Event {
	return []*api.Event{
		event("nginx-deployment.17c1a2b3c4d5e6f7", "Deployment", "nginx-deployment", "Normal", "ScalingReplicaSet",
			"Scaled up replica set nginx-deployment-1564180365 to 1", "deployment-controller", 1, 20*time.Second, 20*time.Second),
		event("nginx-deployment.17c1a2b3c4d5e6f0", "Deployment", "nginx-deployment", "Normal", "ScalingReplicaSet",
			"Scaled up replica set nginx-deployment-2035384211 to 3", "deployment-controller", 1, 12*time.Minute+30*time.Second, 12*time.Minute+30*time.Second),
	}
}

func nodes() []*api.Node {
	info := raw(map[string]string{
		"machineID": "a3c1e5f2b0d84d6e9f3b7c1a2e4d6f80", "systemUUID": "a3c1e5f2-b0d8-4d6e-9f3b-7c1a2e4d6f80",
		"bootID": "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0", "kernelVersion": "6.8.0-45-generic",
		"osImage": "Ubuntu 24.04.1 LTS", "containerRuntimeVersion": "containerd://1.7.22",
		"kubeletVersion": "v1.31.1", "kubeProxyVersion": "v1.31.1", "operatingSystem": "linux", "architecture": "amd64",
	})
	capacity := api.ResourceList{"cpu": qty("4"), "memory": qty("16374584Ki"), "pods": qty("110"), "ephemeral-storage": qty("102626232Ki")}
	alloc := api.ResourceList{"cpu": qty("4"), "memory": qty("16272184Ki"), "pods": qty("110"), "ephemeral-storage": qty("94580335255")}
	cond := func(status api.ConditionStatus, reason, msg string) []api.NodeCondition {
		return []api.NodeCondition{
			{Type: api.NodeMemoryPressure, Status: api.ConditionFalse, Reason: "KubeletHasSufficientMemory", Message: "kubelet has sufficient memory available",
				LastHeartbeatTime: ago(30 * time.Second), LastTransitionTime: ago(2 * time.Hour)},
			{Type: api.NodeReady, Status: status, Reason: reason, Message: msg, LastHeartbeatTime: ago(30 * time.Second), LastTransitionTime: ago(2 * time.Hour)},
		}
	}
	mk := func(name string, status api.ConditionStatus, reason, msg string) *api.Node {
		return &api.Node{
			TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Node"},
			ObjectMeta: api.ObjectMeta{Name: name, UID: api.UID("uid-" + name), CreationTimestamp: ago(50 * time.Hour),
				Labels: map[string]string{"kubernetes.io/hostname": name, "kubernetes.io/os": "linux"}},
			Spec: api.NodeSpec{PodCIDR: "10.244.1.0/24", PodCIDRs: []string{"10.244.1.0/24"}},
			Status: api.NodeStatus{Capacity: capacity, Allocatable: alloc, NodeInfo: info, Conditions: cond(status, reason, msg),
				Addresses: []api.NodeAddress{{Type: api.NodeInternalIP, Address: "172.18.0.3"}, {Type: api.NodeHostName, Address: name}}},
		}
	}
	cp := mk("control-plane", api.ConditionTrue, "KubeletReady", "kubelet is posting ready status")
	cp.Labels["node-role.kubernetes.io/control-plane"] = ""
	cp.Spec.Taints = []api.Taint{{Key: "node-role.kubernetes.io/control-plane", Effect: api.TaintEffectNoSchedule}}
	cordoned := mk("worker-1", api.ConditionTrue, "KubeletReady", "kubelet is posting ready status")
	cordoned.Spec.Unschedulable = true
	cordoned.Spec.Taints = []api.Taint{{Key: "node.kubernetes.io/unschedulable", Effect: api.TaintEffectNoSchedule, TimeAdded: agoPtr(time.Minute)}}
	notReady := mk("worker-2", api.ConditionFalse, "KubeletNotReady", "container runtime network not ready")
	unknown := mk("worker-3", api.ConditionUnknown, "NodeStatusUnknown", "Kubelet stopped posting node status.")
	unknown.Spec.Taints = []api.Taint{
		{Key: "node.kubernetes.io/unreachable", Effect: api.TaintEffectNoSchedule},
		{Key: "node.kubernetes.io/unreachable", Effect: api.TaintEffectNoExecute, TimeAdded: agoPtr(time.Minute)},
	}
	noConditions := mk("worker-4", api.ConditionTrue, "", "")
	noConditions.Status.Conditions = nil
	return []*api.Node{cp, cordoned, notReady, unknown, noConditions}
}

func services() []*api.Service {
	mk := func(name string, typ api.ServiceType, ip string, ports ...api.ServicePort) *api.Service {
		s := &api.Service{
			TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "Service"},
			ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", CreationTimestamp: ago(2 * time.Hour)},
			Spec: api.ServiceSpec{Type: typ, ClusterIP: ip, Ports: ports, Selector: map[string]string{"app": name},
				SessionAffinity: api.ServiceAffinityNone, IPFamilies: []api.IPFamily{api.IPv4Protocol},
				IPFamilyPolicy: ptr(api.IPFamilyPolicySingleStack), InternalTrafficPolicy: ptr(api.ServiceTrafficPolicyCluster)},
		}
		if ip != "" {
			s.Spec.ClusterIPs = []string{ip}
		}
		return s
	}
	tcp := func(name string, port int32, target api.IntOrString, nodePort int32) api.ServicePort {
		return api.ServicePort{Name: name, Port: port, TargetPort: target, NodePort: nodePort, Protocol: api.ProtocolTCP}
	}
	k8s := mk("kubernetes", api.ServiceTypeClusterIP, "10.96.0.1", tcp("https", 443, api.FromInt32(6443), 0))
	k8s.Spec.Selector = nil
	web := mk("web", api.ServiceTypeClusterIP, "10.96.120.7", tcp("http", 80, api.FromInt32(8080), 0), tcp("metrics", 9090, api.FromString("metrics"), 0))
	web.Labels = map[string]string{"app": "web", "tier": "frontend"}
	node := mk("web-nodeport", api.ServiceTypeNodePort, "10.96.44.2", tcp("", 80, api.FromInt32(80), 30080))
	node.Spec.ExternalTrafficPolicy = api.ServiceTrafficPolicyCluster
	lb := mk("web-lb", api.ServiceTypeLoadBalancer, "10.96.9.9", tcp("", 80, api.FromInt32(80), 31380))
	lb.Spec.ExternalTrafficPolicy = api.ServiceTrafficPolicyCluster
	lb.Status.LoadBalancer = raw(map[string]any{"ingress": []map[string]string{{"ip": "203.0.113.20", "ipMode": "VIP"}, {"hostname": "lb.example.com"}}})
	pendingLB := mk("web-lb-pending", api.ServiceTypeLoadBalancer, "10.96.9.10", tcp("", 443, api.FromInt32(8443), 32443))
	ext := mk("db", api.ServiceTypeExternalName, "", api.ServicePort{})
	ext.Spec.Ports = nil
	ext.Spec.ExternalName = "db.example.com"
	ext.Spec.Selector = nil
	headless := mk("web-headless", api.ServiceTypeClusterIP, "None", tcp("", 80, api.FromInt32(80), 0))
	headless.Spec.ExternalIPs = []string{"198.51.100.4"}
	return []*api.Service{k8s, web, node, lb, pendingLB, ext, headless}
}

func endpoints() []*api.Endpoints {
	addr := func(ips ...string) []api.EndpointAddress {
		out := make([]api.EndpointAddress, len(ips))
		for i, ip := range ips {
			out[i] = api.EndpointAddress{IP: ip}
		}
		return out
	}
	mk := func(name string, subsets ...api.EndpointSubset) *api.Endpoints {
		return &api.Endpoints{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Endpoints"},
			ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", CreationTimestamp: ago(2 * time.Hour)}, Subsets: subsets}
	}
	return []*api.Endpoints{
		mk("kubernetes", api.EndpointSubset{Addresses: addr("172.18.0.2"), Ports: []api.EndpointPort{{Name: "https", Port: 6443, Protocol: api.ProtocolTCP}}}),
		mk("web", api.EndpointSubset{
			Addresses:         addr("10.244.1.5", "10.244.2.9"),
			NotReadyAddresses: addr("10.244.3.4"),
			Ports:             []api.EndpointPort{{Name: "http", Port: 8080, Protocol: api.ProtocolTCP}, {Name: "metrics", Port: 9090, Protocol: api.ProtocolTCP}},
		}),
		mk("web-headless", api.EndpointSubset{Addresses: addr("10.244.1.5", "10.244.1.6", "10.244.2.7", "10.244.2.8", "10.244.3.1")}),
		mk("empty"),
	}
}

func autoscalers() []api.Object {
	hpa := func(name string, metrics []api.MetricSpec, current []api.MetricStatus) *api.HorizontalPodAutoscaler {
		return &api.HorizontalPodAutoscaler{
			TypeMeta:   api.TypeMeta{APIVersion: "autoscaling/v2", Kind: "HorizontalPodAutoscaler"},
			ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", CreationTimestamp: ago(90 * time.Second)},
			Spec: api.HorizontalPodAutoscalerSpec{ScaleTargetRef: api.CrossVersionObjectReference{Kind: "Deployment", Name: name, APIVersion: "apps/v1"},
				MinReplicas: ptr(int32(1)), MaxReplicas: 10, Metrics: metrics},
			Status: api.HorizontalPodAutoscalerStatus{CurrentReplicas: 3, DesiredReplicas: 3, CurrentMetrics: current},
		}
	}
	cpu := func(target int32) api.MetricSpec {
		return api.MetricSpec{Type: api.ResourceMetricSourceType, Resource: &api.ResourceMetricSource{Name: api.ResourceCPU,
			Target: api.MetricTarget{Type: api.UtilizationMetricType, AverageUtilization: ptr(target)}}}
	}
	cpuNow := func(v int32) api.MetricStatus {
		return api.MetricStatus{Type: api.ResourceMetricSourceType, Resource: &api.ResourceMetricStatus{Name: api.ResourceCPU,
			Current: api.MetricValueStatus{AverageUtilization: ptr(v), AverageValue: ptr(qty("120m"))}}}
	}
	mem := api.MetricSpec{Type: api.ResourceMetricSourceType, Resource: &api.ResourceMetricSource{Name: api.ResourceMemory,
		Target: api.MetricTarget{Type: api.AverageValueMetricType, AverageValue: ptr(qty("500Mi"))}}}
	memNow := api.MetricStatus{Type: api.ResourceMetricSourceType, Resource: &api.ResourceMetricStatus{Name: api.ResourceMemory,
		Current: api.MetricValueStatus{AverageValue: ptr(qty("256Mi"))}}}
	pods := api.MetricSpec{Type: api.PodsMetricSourceType, Pods: rawPtr(map[string]any{"metric": map[string]string{"name": "packets-per-second"},
		"target": map[string]string{"type": "AverageValue", "averageValue": "1k"}})}
	podsNow := api.MetricStatus{Type: api.PodsMetricSourceType, Pods: rawPtr(map[string]any{"metric": map[string]string{"name": "packets-per-second"},
		"current": map[string]string{"averageValue": "866"}})}
	object := api.MetricSpec{Type: api.ObjectMetricSourceType, Object: rawPtr(map[string]any{"metric": map[string]string{"name": "requests-per-second"},
		"target": map[string]string{"type": "Value", "value": "10k"}})}
	v1 := &api.HorizontalPodAutoscalerV1{
		TypeMeta:   api.TypeMeta{APIVersion: "autoscaling/v1", Kind: "HorizontalPodAutoscaler"},
		ObjectMeta: api.ObjectMeta{Name: "php-apache", Namespace: "default", CreationTimestamp: ago(30 * time.Minute)},
		Spec: api.HorizontalPodAutoscalerV1Spec{ScaleTargetRef: api.CrossVersionObjectReference{Kind: "Deployment", Name: "php-apache"},
			MinReplicas: ptr(int32(1)), MaxReplicas: 10, TargetCPUUtilizationPercentage: ptr(int32(50))},
		Status: api.HorizontalPodAutoscalerV1Status{CurrentReplicas: 7, DesiredReplicas: 7, CurrentCPUUtilizationPercentage: ptr(int32(68))},
	}
	unknown := hpa("starting", []api.MetricSpec{cpu(80)}, nil)
	unknown.Spec.MinReplicas = nil
	return []api.Object{
		hpa("web", []api.MetricSpec{cpu(50)}, []api.MetricStatus{cpuNow(34)}),
		unknown,
		hpa("mixed", []api.MetricSpec{mem, pods, object}, []api.MetricStatus{memNow, podsNow}),
		hpa("none", nil, nil),
		v1,
	}
}

func allEvents() []*api.Event {
	backoff := event("web-crashloop.17c1a2b3c4d5e6f8", "Pod", "web-crashloop", "Warning", "BackOff",
		"Back-off restarting failed container app in pod web-crashloop_default(uid-web-crashloop)", "kubelet", 17, 9*time.Minute, 38*time.Second)
	backoff.InvolvedObject.FieldPath = "spec.containers{app}"
	backoff.Source.Host = "worker-1"
	scheduled := event("web-crashloop.17c1a2b3c4d5e6f1", "Pod", "web-crashloop", "Normal", "Scheduled",
		"Successfully assigned default/web-crashloop to worker-1", "default-scheduler", 1, 10*time.Minute, 10*time.Minute)
	series := event("web-crashloop.17c1a2b3c4d5e6f9", "Pod", "web-crashloop", "Normal", "Pulled",
		"Container image \"nginx:1.14.2\" already present on machine\nand a second line", "", 0, 9*time.Minute, 0)
	series.Source = api.EventSource{}
	series.ReportingController, series.ReportingInstance = "kubelet", "worker-1"
	series.FirstTimestamp, series.LastTimestamp = api.Time{}, api.Time{}
	series.EventTime = api.NewMicroTime(now.Add(-9 * time.Minute))
	series.Series = &api.EventSeries{Count: 4, LastObservedTime: api.NewMicroTime(now.Add(-2 * time.Minute))}
	quotaEv := event("quota.1", "ReplicaSet", "nginx-deployment-1564180365", "Warning", "FailedCreate",
		`Error creating: pods "nginx-deployment-1564180365-x" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=10, limited: pods=10`,
		"replicaset-controller", 5, 10*time.Minute, 15*time.Second)
	quotaEv.Namespace = "team-a"
	return append(deploymentEvents(), backoff, scheduled, series, quotaEv)
}

func quota() *api.ResourceQuota {
	hard := api.ResourceList{"pods": qty("10"), "requests.cpu": qty("2"), "requests.memory": qty("2Gi"), "limits.cpu": qty("4"), "limits.memory": qty("4Gi"), "count/deployments.apps": qty("5")}
	used := api.ResourceList{"pods": qty("10"), "requests.cpu": qty("1500m"), "requests.memory": api.NewQuantity(1073741824, api.DecimalSI), "limits.cpu": qty("3"), "limits.memory": qty("3Gi"), "count/deployments.apps": qty("1")}
	return &api.ResourceQuota{
		TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "ResourceQuota"},
		ObjectMeta: api.ObjectMeta{Name: "compute", Namespace: "default", CreationTimestamp: ago(45 * time.Minute)},
		Spec:       api.ResourceQuotaSpec{Hard: hard},
		Status:     api.ResourceQuotaStatus{Hard: hard, Used: used},
	}
}

// richPod is a pod with every describe section filled in.
func richPod() (*api.Pod, []*api.Event) {
	p := pod("web-5d4c7b9f8-x7k2p", api.PodRunning, running("nginx", true, 0, 9*time.Minute), waiting("log", "CrashLoopBackOff", 3))
	p.Labels = map[string]string{"app": "web", "pod-template-hash": "5d4c7b9f8"}
	p.Annotations = map[string]string{
		"kubectl.kubernetes.io/restartedAt": "2024-05-01T11:49:00Z",
		"example.com/long":                  "a" + string(bytes.Repeat([]byte("bc"), 80)),
		"example.com/multi":                 "first line\nsecond line\n",
	}
	p.OwnerReferences = []api.OwnerReference{controllerRef("ReplicaSet", "web-5d4c7b9f8", "uid-rs")}
	p.Spec.Priority = ptr(int32(0))
	p.Spec.ServiceAccountName = "default"
	p.Spec.NodeSelector = map[string]string{"kubernetes.io/os": "linux", "disktype": "ssd"}
	p.Spec.Tolerations = []api.Toleration{
		{Key: "node.kubernetes.io/unreachable", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: ptr(int64(300))},
		{Key: "node.kubernetes.io/not-ready", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: ptr(int64(300))},
		{Key: "dedicated", Operator: api.TolerationOpEqual, Value: "web", Effect: api.TaintEffectNoSchedule},
		{Operator: api.TolerationOpExists},
	}
	p.Status.HostIP = "172.18.0.3"
	p.Status.PodIP = "10.244.1.5"
	p.Status.PodIPs = []api.PodIP{{IP: "10.244.1.5"}}
	p.Status.StartTime = agoPtr(10 * time.Minute)
	p.Status.QOSClass = ""
	for _, c := range []api.PodConditionType{api.PodReadyToStartContainers, api.PodInitialized, api.PodReady, api.ContainersReady, api.PodScheduled} {
		s := api.ConditionTrue
		if c == api.PodReady || c == api.ContainersReady {
			s = api.ConditionFalse
		}
		withCondition(p, c, s, "")
	}
	p.Spec.InitContainers = []api.Container{{Name: "migrate", Image: "migrate:1.2", Command: []string{"/bin/migrate", "--to=latest"}}}
	p.Status.InitContainerStatuses = []api.ContainerStatus{{Name: "migrate", Image: "migrate:1.2", ImageID: "docker.io/library/migrate@sha256:0123", ContainerID: "containerd://aa11",
		State: api.ContainerState{Terminated: &api.ContainerStateTerminated{Reason: "Completed", ExitCode: 0, StartedAt: ago(10 * time.Minute), FinishedAt: ago(9*time.Minute + 50*time.Second)}}}}
	log := &p.Status.ContainerStatuses[1]
	log.ImageID = "docker.io/library/busybox@sha256:9ae97d36"
	log.ContainerID = "containerd://bb22"
	log.LastTerminationState = api.ContainerState{Terminated: &api.ContainerStateTerminated{Reason: "Error", ExitCode: 1, StartedAt: ago(70 * time.Second), FinishedAt: ago(65 * time.Second)}}
	p.Spec.Containers = []api.Container{
		{
			Name: "nginx", Image: "nginx:1.14.2",
			Ports: []api.ContainerPort{{ContainerPort: 80, Protocol: api.ProtocolTCP}, {Name: "metrics", ContainerPort: 9113, Protocol: api.ProtocolTCP}},
			Resources: api.ResourceRequirements{
				Limits:   api.ResourceList{"cpu": qty("500m"), "memory": qty("128Mi")},
				Requests: api.ResourceList{"cpu": qty("250m"), "memory": qty("64Mi")},
			},
			LivenessProbe: &api.Probe{ProbeHandler: api.ProbeHandler{HTTPGet: rawPtr(map[string]any{"path": "/healthz", "port": 80})},
				InitialDelaySeconds: 3, TimeoutSeconds: 1, PeriodSeconds: 10, SuccessThreshold: 1, FailureThreshold: 3},
			ReadinessProbe: &api.Probe{ProbeHandler: api.ProbeHandler{TCPSocket: rawPtr(map[string]any{"port": "http"})},
				TimeoutSeconds: 1, PeriodSeconds: 5, SuccessThreshold: 1, FailureThreshold: 3},
			StartupProbe: &api.Probe{ProbeHandler: api.ProbeHandler{Exec: rawPtr(map[string]any{"command": []string{"cat", "/tmp/ready"}})},
				TimeoutSeconds: 1, PeriodSeconds: 10, SuccessThreshold: 1, FailureThreshold: 30},
			EnvFrom: []api.RawValue{raw(map[string]any{"configMapRef": map[string]string{"name": "web-config"}}),
				raw(map[string]any{"secretRef": map[string]any{"name": "web-secret", "optional": true}, "prefix": "SECRET_"})},
			Env: []api.EnvVar{
				{Name: "MODE", Value: "production"},
				{Name: "BANNER", Value: "hello\nworld"},
				{Name: "POD_NAME", ValueFrom: rawPtr(map[string]any{"fieldRef": map[string]string{"apiVersion": "v1", "fieldPath": "metadata.name"}})},
				{Name: "NODE", ValueFrom: rawPtr(map[string]any{"fieldRef": map[string]string{"apiVersion": "v1", "fieldPath": "spec.nodeName"}})},
				{Name: "CPU_LIMIT", ValueFrom: rawPtr(map[string]any{"resourceFieldRef": map[string]string{"resource": "limits.cpu", "divisor": "1m"}})},
				{Name: "MEM_REQUEST", ValueFrom: rawPtr(map[string]any{"resourceFieldRef": map[string]string{"resource": "requests.memory", "divisor": "1Mi"}})},
				{Name: "PASSWORD", ValueFrom: rawPtr(map[string]any{"secretKeyRef": map[string]string{"name": "db", "key": "password"}})},
				{Name: "COLOR", ValueFrom: rawPtr(map[string]any{"configMapKeyRef": map[string]any{"name": "web-config", "key": "color", "optional": true}})},
			},
			VolumeMounts: []api.VolumeMount{
				{Name: "kube-api-access-8n2xk", MountPath: "/var/run/secrets/kubernetes.io/serviceaccount", ReadOnly: true},
				{Name: "config", MountPath: "/etc/nginx/conf.d"},
				{Name: "cache", MountPath: "/var/cache/nginx", SubPath: "nginx"},
			},
		},
		{Name: "log", Image: "busybox:1.36", Args: []string{"tail", "-f", "/var/log/nginx/access.log"},
			Resources:    api.ResourceRequirements{Limits: api.ResourceList{"memory": qty("32Mi")}},
			VolumeMounts: []api.VolumeMount{{Name: "data", MountPath: "/data"}}},
	}
	p.Spec.Volumes = []api.Volume{
		{Name: "config", Source: map[string]api.RawValue{"configMap": raw(map[string]any{"name": "nginx-conf", "defaultMode": 420})}},
		{Name: "cache", Source: map[string]api.RawValue{"emptyDir": raw(map[string]any{})}},
		{Name: "scratch", Source: map[string]api.RawValue{"emptyDir": raw(map[string]any{"medium": "Memory", "sizeLimit": "64Mi"})}},
		{Name: "data", Source: map[string]api.RawValue{"persistentVolumeClaim": raw(map[string]any{"claimName": "web-data"})}},
		{Name: "logs", Source: map[string]api.RawValue{"hostPath": raw(map[string]any{"path": "/var/log", "type": "Directory"})}},
		{Name: "creds", Source: map[string]api.RawValue{"secret": raw(map[string]any{"secretName": "web-secret", "optional": false})}},
		{Name: "podinfo", Source: map[string]api.RawValue{"downwardAPI": raw(map[string]any{"items": []map[string]any{
			{"path": "labels", "fieldRef": map[string]string{"fieldPath": "metadata.labels"}}}})}},
		{Name: "kube-api-access-8n2xk", Source: map[string]api.RawValue{"projected": raw(map[string]any{"defaultMode": 420, "sources": []map[string]any{
			{"serviceAccountToken": map[string]any{"expirationSeconds": 3607, "path": "token"}},
			{"configMap": map[string]any{"name": "kube-root-ca.crt", "items": []map[string]string{{"key": "ca.crt", "path": "ca.crt"}}}},
			{"downwardAPI": map[string]any{"items": []map[string]any{{"path": "namespace", "fieldRef": map[string]string{"apiVersion": "v1", "fieldPath": "metadata.namespace"}}}}},
		}})}},
		{Name: "odd", Source: map[string]api.RawValue{"nfs": raw(map[string]any{"server": "nfs.example.com", "path": "/exports"})}},
	}
	ev := func(name, typ, reason, msg, component string, count int32, first, last time.Duration) *api.Event {
		e := event(name, "Pod", p.Name, typ, reason, msg, component, count, first, last)
		return e
	}
	return p, []*api.Event{
		ev("e5", "Warning", "BackOff", "Back-off restarting failed container log in pod web-5d4c7b9f8-x7k2p_default(uid-web-5d4c7b9f8-x7k2p)", "kubelet", 12, 9*time.Minute, 20*time.Second),
		ev("e1", "Normal", "Scheduled", "Successfully assigned default/web-5d4c7b9f8-x7k2p to worker-1", "default-scheduler", 1, 10*time.Minute, 10*time.Minute),
		ev("e2", "Normal", "Pulled", `Container image "nginx:1.14.2" already present on machine`, "kubelet", 1, 9*time.Minute+50*time.Second, 9*time.Minute+50*time.Second),
		ev("e3", "Normal", "Created", "Created container: nginx", "kubelet", 1, 9*time.Minute+50*time.Second, 9*time.Minute+50*time.Second),
		ev("e4", "Normal", "Started", "Started container nginx", "kubelet", 1, 9*time.Minute+49*time.Second, 9*time.Minute+49*time.Second),
	}
}
