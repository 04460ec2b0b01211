package api

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
)

func TestDefaultImagePullPolicy(t *testing.T) {
	digest := "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	tests := []struct {
		image string
		want  PullPolicy
	}{
		{"nginx", PullAlways},
		{"nginx:latest", PullAlways},
		{"nginx:1.14.2", PullIfNotPresent},
		{"library/nginx", PullAlways},
		{"docker.io/library/nginx:1.16.1", PullIfNotPresent},
		{"registry:5000/app", PullAlways},
		{"registry:5000/app:v1", PullIfNotPresent},
		{"registry:5000/app:latest", PullAlways},
		{"localhost:5000/team/app", PullAlways},
		{"registry.k8s.io/hpa-example", PullAlways},
		{"nginx@" + digest, PullIfNotPresent},
		{"nginx:1.14@" + digest, PullIfNotPresent},
		{"nginx:latest@" + digest, PullAlways},
		{"registry:5000/app@" + digest, PullIfNotPresent},
		{"[::1]:5000/app:v2", PullIfNotPresent},
		{"", PullIfNotPresent},       // does not parse: no tag seen
		{"Nginx", PullIfNotPresent},  // uppercase repository does not parse
		{"nginx:", PullIfNotPresent}, // empty tag does not parse
		{"nginx@sha256:abc", PullIfNotPresent},
		{"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", PullIfNotPresent},
		{"my-registry.example.com/Team/app", PullIfNotPresent},
		{"My-Registry.example.com/team/app", PullAlways}, // domains may have capitals
	}
	for _, tt := range tests {
		if got := DefaultImagePullPolicy(tt.image); got != tt.want {
			t.Errorf("DefaultImagePullPolicy(%q) = %s, want %s", tt.image, got, tt.want)
		}
	}
}

func TestSetDefaultsDeployment(t *testing.T) {
	d := &Deployment{Spec: DeploymentSpec{Template: PodTemplateSpec{Spec: PodSpec{
		Containers: []Container{{Name: "web", Image: "nginx:1.14.2", Ports: []ContainerPort{{ContainerPort: 80}},
			Resources: ResourceRequirements{Limits: ResourceList{ResourceCPU: MustParseQuantity("500m")}}}},
	}}}}
	SetDefaults(d)
	s := d.Spec
	pct := FromString("25%")
	checks := []struct {
		name      string
		got, want any
	}{
		{"replicas", *s.Replicas, int32(1)},
		{"strategy", s.Strategy.Type, RollingUpdateDeploymentStrategyType},
		{"maxUnavailable", *s.Strategy.RollingUpdate.MaxUnavailable, pct},
		{"maxSurge", *s.Strategy.RollingUpdate.MaxSurge, pct},
		{"revisionHistoryLimit", *s.RevisionHistoryLimit, int32(10)},
		{"progressDeadlineSeconds", *s.ProgressDeadlineSeconds, int32(600)},
		{"minReadySeconds", s.MinReadySeconds, int32(0)},
		{"template dnsPolicy", s.Template.Spec.DNSPolicy, DNSClusterFirst},
		{"template pullPolicy", s.Template.Spec.Containers[0].ImagePullPolicy, PullIfNotPresent},
		{"template port protocol", s.Template.Spec.Containers[0].Ports[0].Protocol, ProtocolTCP},
		// Templates get neither requests from limits nor enableServiceLinks: those are Pod-only.
		{"template requests", s.Template.Spec.Containers[0].Resources.Requests == nil, true},
		{"template enableServiceLinks", s.Template.Spec.EnableServiceLinks == nil, true},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}

	three, one := int32(3), FromInt32(1)
	kept := &Deployment{Spec: DeploymentSpec{Replicas: &three, Strategy: DeploymentStrategy{
		Type: RollingUpdateDeploymentStrategyType, RollingUpdate: &RollingUpdateDeployment{MaxSurge: &one}}}}
	SetDefaultsDeployment(kept)
	if *kept.Spec.Replicas != 3 || *kept.Spec.Strategy.RollingUpdate.MaxSurge != one || *kept.Spec.Strategy.RollingUpdate.MaxUnavailable != pct {
		t.Errorf("set values overwritten or unset ones missed: %+v", kept.Spec.Strategy.RollingUpdate)
	}
	recreate := &Deployment{Spec: DeploymentSpec{Strategy: DeploymentStrategy{Type: RecreateDeploymentStrategyType}}}
	SetDefaultsDeployment(recreate)
	if recreate.Spec.Strategy.RollingUpdate != nil {
		t.Error("Recreate got rollingUpdate defaults")
	}
	again := d.DeepCopy()
	SetDefaults(again)
	if !reflect.DeepEqual(again, d) {
		t.Error("defaulting twice changed the object")
	}
}

func TestSetDefaultsReplicaSet(t *testing.T) {
	rs := &ReplicaSet{Spec: ReplicaSetSpec{Template: PodTemplateSpec{Spec: PodSpec{Containers: []Container{{Name: "c", Image: "nginx"}}}}}}
	SetDefaults(rs)
	if *rs.Spec.Replicas != 1 || rs.Spec.Template.Spec.RestartPolicy != RestartPolicyAlways || rs.Spec.Template.Spec.Containers[0].ImagePullPolicy != PullAlways {
		t.Errorf("ReplicaSet defaults: %+v", rs.Spec)
	}
	zero := int32(0)
	rs0 := &ReplicaSet{Spec: ReplicaSetSpec{Replicas: &zero}}
	SetDefaultsReplicaSet(rs0)
	if *rs0.Spec.Replicas != 0 {
		t.Error("explicit 0 replicas overwritten")
	}
}

func TestSetDefaultsPod(t *testing.T) {
	p := &Pod{Spec: PodSpec{
		HostNetwork: true,
		Volumes:     []Volume{{Name: "scratch"}, {Name: "cfg", Source: map[string]RawValue{"configMap": RawValue(`{"name":"web"}`)}}},
		InitContainers: []Container{{Name: "init", Image: "busybox:1.36",
			Resources: ResourceRequirements{Limits: ResourceList{ResourceMemory: MustParseQuantity("64Mi")}}}},
		Containers: []Container{{
			Name: "web", Image: "nginx",
			Ports: []ContainerPort{{ContainerPort: 8080}},
			Resources: ResourceRequirements{
				Limits:   ResourceList{ResourceCPU: MustParseQuantity("500m"), ResourceMemory: MustParseQuantity("256Mi")},
				Requests: ResourceList{ResourceCPU: MustParseQuantity("200m")},
			},
			LivenessProbe:  &Probe{InitialDelaySeconds: 5},
			ReadinessProbe: &Probe{PeriodSeconds: 3, FailureThreshold: 1},
			StartupProbe:   &Probe{},
		}},
	}}
	SetDefaults(p)
	s := p.Spec
	c := s.Containers[0]
	checks := []struct {
		name      string
		got, want any
	}{
		{"dnsPolicy", s.DNSPolicy, DNSClusterFirst},
		{"restartPolicy", s.RestartPolicy, RestartPolicyAlways},
		{"securityContext", s.SecurityContext.String(), "{}"},
		{"terminationGracePeriodSeconds", *s.TerminationGracePeriodSeconds, int64(30)},
		{"schedulerName", s.SchedulerName, "default-scheduler"},
		{"enableServiceLinks", *s.EnableServiceLinks, true},
		{"imagePullPolicy", c.ImagePullPolicy, PullAlways},
		{"init imagePullPolicy", s.InitContainers[0].ImagePullPolicy, PullIfNotPresent},
		{"terminationMessagePath", c.TerminationMessagePath, "/dev/termination-log"},
		{"terminationMessagePolicy", c.TerminationMessagePolicy, TerminationMessageReadFile},
		{"port protocol", c.Ports[0].Protocol, ProtocolTCP},
		{"hostNetwork hostPort", c.Ports[0].HostPort, int32(8080)},
		{"cpu request kept", c.Resources.Requests.Cpu().String(), "200m"},
		{"memory request from limit", c.Resources.Requests.Memory().String(), "256Mi"},
		{"init memory request from limit", s.InitContainers[0].Resources.Requests.Memory().String(), "64Mi"},
		{"liveness", *c.LivenessProbe, Probe{InitialDelaySeconds: 5, TimeoutSeconds: 1, PeriodSeconds: 10, SuccessThreshold: 1, FailureThreshold: 3}},
		{"readiness keeps set values", *c.ReadinessProbe, Probe{TimeoutSeconds: 1, PeriodSeconds: 3, SuccessThreshold: 1, FailureThreshold: 1}},
		{"startup", *c.StartupProbe, Probe{TimeoutSeconds: 1, PeriodSeconds: 10, SuccessThreshold: 1, FailureThreshold: 3}},
		{"a volume without a source is an emptyDir", s.Volumes[0].Source, map[string]RawValue{"emptyDir": RawValue("{}")}},
		{"a configMap volume gets defaultMode 0644", s.Volumes[1].Source, map[string]RawValue{"configMap": RawValue(`{"defaultMode":420,"name":"web"}`)}},
	}
	for _, ch := range checks {
		if !reflect.DeepEqual(ch.got, ch.want) {
			t.Errorf("%s = %v, want %v", ch.name, ch.got, ch.want)
		}
	}
	// Defaults serialize like a pod read back from a real API server.
	b, _ := json.Marshal(p.Spec.SecurityContext)
	if string(b) != "{}" {
		t.Errorf("securityContext encodes as %s", b)
	}
	off := false
	kept := &Pod{Spec: PodSpec{EnableServiceLinks: &off, DNSPolicy: DNSDefault, RestartPolicy: RestartPolicyNever, SchedulerName: "mine"}}
	SetDefaultsPod(kept)
	if *kept.Spec.EnableServiceLinks || kept.Spec.DNSPolicy != DNSDefault || kept.Spec.RestartPolicy != RestartPolicyNever || kept.Spec.SchedulerName != "mine" {
		t.Errorf("set values overwritten: %+v", kept.Spec)
	}
}

func TestSetDefaultsService(t *testing.T) {
	tests := []struct {
		name string
		in   ServiceSpec
		want ServiceSpec
	}{
		{
			name: "cluster IP",
			in:   ServiceSpec{Ports: []ServicePort{{Port: 80}, {Port: 53, Protocol: ProtocolUDP, TargetPort: FromString("dns")}}},
			want: ServiceSpec{Type: ServiceTypeClusterIP, SessionAffinity: ServiceAffinityNone, InternalTrafficPolicy: ptr(ServiceTrafficPolicyCluster),
				Ports: []ServicePort{{Port: 80, Protocol: ProtocolTCP, TargetPort: FromInt32(80)}, {Port: 53, Protocol: ProtocolUDP, TargetPort: FromString("dns")}}},
		},
		{
			name: "node port",
			in:   ServiceSpec{Type: ServiceTypeNodePort, Ports: []ServicePort{{Port: 80, TargetPort: FromString("")}}},
			want: ServiceSpec{Type: ServiceTypeNodePort, SessionAffinity: ServiceAffinityNone, ExternalTrafficPolicy: ServiceTrafficPolicyCluster,
				InternalTrafficPolicy: ptr(ServiceTrafficPolicyCluster), Ports: []ServicePort{{Port: 80, Protocol: ProtocolTCP, TargetPort: FromInt32(80)}}},
		},
		{
			name: "load balancer with client IP affinity",
			in:   ServiceSpec{Type: ServiceTypeLoadBalancer, SessionAffinity: ServiceAffinityClientIP, ExternalTrafficPolicy: ServiceTrafficPolicyLocal},
			want: ServiceSpec{Type: ServiceTypeLoadBalancer, SessionAffinity: ServiceAffinityClientIP, ExternalTrafficPolicy: ServiceTrafficPolicyLocal,
				InternalTrafficPolicy: ptr(ServiceTrafficPolicyCluster), AllocateLoadBalancerNodePorts: ptr(true),
				SessionAffinityConfig: &SessionAffinityConfig{ClientIP: &ClientIPConfig{TimeoutSeconds: ptr(int32(10800))}}},
		},
		{
			name: "external name",
			in:   ServiceSpec{Type: ServiceTypeExternalName, ExternalName: "db.example.com", SessionAffinityConfig: &SessionAffinityConfig{}},
			want: ServiceSpec{Type: ServiceTypeExternalName, ExternalName: "db.example.com", SessionAffinity: ServiceAffinityNone},
		},
	}
	for _, tt := range tests {
		s := &Service{Spec: tt.in}
		SetDefaults(s)
		if !reflect.DeepEqual(s.Spec, tt.want) {
			got, _ := json.Marshal(s.Spec)
			want, _ := json.Marshal(tt.want)
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, want)
		}
	}
}

func ptr[T any](v T) *T { return &v }

func TestSetDefaultsHPA(t *testing.T) {
	h := &HorizontalPodAutoscaler{}
	SetDefaults(h)
	if *h.Spec.MinReplicas != 1 || len(h.Spec.Metrics) != 1 || h.Spec.Behavior != nil {
		t.Fatalf("defaults: %+v", h.Spec)
	}
	m := h.Spec.Metrics[0]
	if m.Type != ResourceMetricSourceType || m.Resource.Name != ResourceCPU || m.Resource.Target.Type != UtilizationMetricType || *m.Resource.Target.AverageUtilization != 80 {
		t.Errorf("default metric: %+v", m.Resource)
	}

	withBehavior := &HorizontalPodAutoscaler{Spec: HorizontalPodAutoscalerSpec{
		Metrics:  []MetricSpec{{Type: ResourceMetricSourceType, Resource: &ResourceMetricSource{Name: ResourceMemory}}},
		Behavior: &HorizontalPodAutoscalerBehavior{ScaleDown: &HPAScalingRules{StabilizationWindowSeconds: ptr(int32(60))}},
	}}
	SetDefaultsHPA(withBehavior)
	b := withBehavior.Spec.Behavior
	sel := MaxChangePolicySelect
	wantUp := &HPAScalingRules{StabilizationWindowSeconds: ptr(int32(0)), SelectPolicy: &sel,
		Policies: []HPAScalingPolicy{{PodsScalingPolicy, 4, 15}, {PercentScalingPolicy, 100, 15}}}
	wantDown := &HPAScalingRules{StabilizationWindowSeconds: ptr(int32(60)), SelectPolicy: &sel,
		Policies: []HPAScalingPolicy{{PercentScalingPolicy, 100, 15}}}
	if !reflect.DeepEqual(b.ScaleUp, wantUp) || !reflect.DeepEqual(b.ScaleDown, wantDown) {
		got, _ := json.Marshal(b)
		t.Errorf("behavior defaults = %s", got)
	}
	if len(withBehavior.Spec.Metrics) != 1 || withBehavior.Spec.Metrics[0].Resource.Name != ResourceMemory {
		t.Error("metrics overwritten")
	}

	v1 := &HorizontalPodAutoscalerV1{}
	SetDefaults(v1)
	if *v1.Spec.MinReplicas != 1 || *v1.Spec.TargetCPUUtilizationPercentage != 80 {
		t.Errorf("v1 defaults: %+v", v1.Spec)
	}
}

func TestSetDefaultsNamespaceNodeEndpoints(t *testing.T) {
	ns := &Namespace{ObjectMeta: ObjectMeta{Name: "team-a"}}
	SetDefaults(ns)
	if ns.Status.Phase != NamespaceActive || ns.Labels[LabelMetadataName] != "team-a" {
		t.Errorf("namespace: %+v", ns)
	}
	terminating := &Namespace{Status: NamespaceStatus{Phase: NamespaceTerminating}}
	SetDefaultsNamespace(terminating)
	if terminating.Status.Phase != NamespaceTerminating || terminating.Labels != nil {
		t.Errorf("terminating namespace: %+v", terminating)
	}

	n := &Node{Status: NodeStatus{Capacity: ResourceList{ResourceCPU: MustParseQuantity("4"), ResourcePods: MustParseQuantity("110")}}}
	SetDefaults(n)
	if !reflect.DeepEqual(n.Status.Allocatable, n.Status.Capacity) {
		t.Errorf("allocatable = %v", n.Status.Allocatable)
	}
	n.Status.Allocatable[ResourceCPU] = MustParseQuantity("3")
	if n.Status.Capacity.Cpu().Value() != 4 {
		t.Error("allocatable shares capacity's map")
	}

	ep := &Endpoints{Subsets: []EndpointSubset{{Ports: []EndpointPort{{Port: 80}, {Port: 53, Protocol: ProtocolUDP}}}}}
	SetDefaults(ep)
	if ep.Subsets[0].Ports[0].Protocol != ProtocolTCP || ep.Subsets[0].Ports[1].Protocol != ProtocolUDP {
		t.Errorf("endpoints: %+v", ep.Subsets)
	}

	cm := &ConfigMap{Data: map[string]string{"a": "b"}}
	before := cm.DeepCopy()
	SetDefaults(cm) // no defaults for config maps
	if !reflect.DeepEqual(cm, before) {
		t.Error("config map changed")
	}
}

func TestHPAConversion(t *testing.T) {
	gen := int64(4)
	v1 := &HorizontalPodAutoscalerV1{
		ObjectMeta: ObjectMeta{Name: "frontend-scaler", Labels: map[string]string{"a": "b"}},
		Spec: HorizontalPodAutoscalerV1Spec{
			ScaleTargetRef: CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "frontend"},
			MinReplicas:    ptr(int32(3)), MaxReplicas: 10, TargetCPUUtilizationPercentage: ptr(int32(50)),
		},
		Status: HorizontalPodAutoscalerV1Status{ObservedGeneration: &gen, CurrentReplicas: 3, DesiredReplicas: 5,
			CurrentCPUUtilizationPercentage: ptr(int32(90)), LastScaleTime: &Time{fillTime}},
	}
	v2 := v1.ToV2()
	if v2.APIVersion != "autoscaling/v2" || v2.Kind != "HorizontalPodAutoscaler" || v2.Name != "frontend-scaler" ||
		*v2.Spec.MinReplicas != 3 || v2.Spec.MaxReplicas != 10 || v2.Spec.ScaleTargetRef != v1.Spec.ScaleTargetRef {
		t.Fatalf("ToV2 = %+v", v2)
	}
	if len(v2.Spec.Metrics) != 1 || v2.Spec.Metrics[0].Type != ResourceMetricSourceType || v2.Spec.Metrics[0].Resource.Name != ResourceCPU ||
		v2.Spec.Metrics[0].Resource.Target.Type != UtilizationMetricType || *v2.Spec.Metrics[0].Resource.Target.AverageUtilization != 50 {
		t.Errorf("ToV2 metric = %+v", v2.Spec.Metrics)
	}
	if *v2.Status.ObservedGeneration != 4 || v2.Status.DesiredReplicas != 5 || *v2.Status.CurrentMetrics[0].Resource.Current.AverageUtilization != 90 {
		t.Errorf("ToV2 status = %+v", v2.Status)
	}
	v2.Labels["a"] = "changed"
	*v2.Spec.MinReplicas = 9
	if v1.Labels["a"] != "b" || *v1.Spec.MinReplicas != 3 {
		t.Error("ToV2 shares memory with its input")
	}

	back := HPAToV1(v1.ToV2())
	if !reflect.DeepEqual(back.Spec, v1.Spec) || !reflect.DeepEqual(back.Status, v1.Status) || back.APIVersion != "autoscaling/v1" {
		t.Errorf("v1 -> v2 -> v1 = %+v / %+v", back.Spec, back.Status)
	}

	noCPU := &HorizontalPodAutoscaler{Spec: HorizontalPodAutoscalerSpec{MaxReplicas: 3, Metrics: []MetricSpec{
		{Type: ResourceMetricSourceType, Resource: &ResourceMetricSource{Name: ResourceMemory, Target: MetricTarget{AverageUtilization: ptr(int32(70))}}},
		{Type: PodsMetricSourceType, Pods: &RawValue{}},
	}}}
	if got := HPAToV1(noCPU); got.Spec.TargetCPUUtilizationPercentage != nil || got.Status.CurrentCPUUtilizationPercentage != nil {
		t.Errorf("memory-only HPA gave a cpu target: %+v", got.Spec)
	}
	if got := (&HorizontalPodAutoscalerV1{}).ToV2(); got.Spec.Metrics != nil || got.Status.CurrentMetrics != nil {
		t.Errorf("empty v1 gave metrics: %+v", got.Spec.Metrics)
	}
}

// TestSetDefaultsSecret: stringData is merged into data and never kept,
// and the type defaults to Opaque, as the API server stores a Secret.
func TestSetDefaultsSecret(t *testing.T) {
	tests := []struct {
		name string
		in   Secret
		want Secret
	}{
		{"stringData joins data and wins", Secret{Data: map[string][]byte{"password": []byte("old"), "user": []byte("u")}, StringData: map[string]string{"password": "new", "token": "abc"}, Type: "Opaque"},
			Secret{Data: map[string][]byte{"password": []byte("new"), "token": []byte("abc"), "user": []byte("u")}, Type: "Opaque"}},
		{"stringData alone", Secret{StringData: map[string]string{"token": "abc"}},
			Secret{Data: map[string][]byte{"token": []byte("abc")}, Type: "Opaque"}},
		{"a typed secret keeps its type", Secret{Data: map[string][]byte{"tls.crt": []byte("c"), "tls.key": []byte("k")}, Type: "kubernetes.io/tls"},
			Secret{Data: map[string][]byte{"tls.crt": []byte("c"), "tls.key": []byte("k")}, Type: "kubernetes.io/tls"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.in
			SetDefaults(&got)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("SetDefaults =\n %+v\nwant\n %+v", got, tc.want)
			}
		})
	}
}

// TestSetDefaultsJob: the Job defaults of k/k SetDefaults_Job that the
// simulator had left out: the template's labels on a Job without labels
// (and, after the selector is generated, the generated ones: upstream
// defaults again on every read), an onPodConditions pattern's status
// "True", backoffLimit MaxInt32 with a per-index limit.
func TestSetDefaultsJob(t *testing.T) {
	tmpl := func(labels map[string]string) JobSpec {
		return JobSpec{Template: PodTemplateSpec{ObjectMeta: ObjectMeta{Labels: labels}, Spec: PodSpec{Containers: []Container{{Name: "c", Image: "busybox"}}}}}
	}
	t.Run("template labels on a Job without labels", func(t *testing.T) {
		j := &Job{ObjectMeta: ObjectMeta{Name: "pi"}, Spec: tmpl(map[string]string{"app": "pi"})}
		SetDefaults(j)
		if !reflect.DeepEqual(j.Labels, map[string]string{"app": "pi"}) {
			t.Errorf("labels = %v", j.Labels)
		}
		j.Spec.Template.Labels["tier"] = "batch"
		if _, shared := j.Labels["tier"]; shared {
			t.Errorf("the Job's labels share the template's map")
		}
	})
	t.Run("a Job's own labels are kept", func(t *testing.T) {
		j := &Job{ObjectMeta: ObjectMeta{Name: "pi", Labels: map[string]string{"team": "a"}}, Spec: tmpl(map[string]string{"app": "pi"})}
		SetDefaults(j)
		if !reflect.DeepEqual(j.Labels, map[string]string{"team": "a"}) {
			t.Errorf("labels = %v", j.Labels)
		}
	})
	t.Run("generated labels show on a Job without labels", func(t *testing.T) {
		j := &Job{ObjectMeta: ObjectMeta{Name: "pi", UID: "u1"}, Spec: tmpl(nil)}
		SetDefaults(j)
		GenerateJobSelector(j)
		want := map[string]string{JobControllerUIDLabel: "u1", LegacyJobControllerUIDLabel: "u1", JobNameLabel: "pi", LegacyJobNameLabel: "pi"}
		if !reflect.DeepEqual(j.Labels, want) {
			t.Errorf("labels = %v, want %v", j.Labels, want)
		}
	})
	t.Run("podFailurePolicy and per-index back-off", func(t *testing.T) {
		s := tmpl(nil)
		s.BackoffLimitPerIndex = ptr(int32(1))
		s.PodFailurePolicy = &PodFailurePolicy{Rules: []PodFailurePolicyRule{{Action: "Ignore", OnPodConditions: []PodFailurePolicyOnPodConditionsPattern{{Type: "DisruptionTarget"}, {Type: "Ready", Status: ConditionFalse}}}}}
		j := &Job{ObjectMeta: ObjectMeta{Name: "pi"}, Spec: s}
		SetDefaults(j)
		got := j.Spec.PodFailurePolicy.Rules[0].OnPodConditions
		if got[0].Status != ConditionTrue || got[1].Status != ConditionFalse {
			t.Errorf("onPodConditions = %+v", got)
		}
		if *j.Spec.BackoffLimit != math.MaxInt32 {
			t.Errorf("backoffLimit = %d", *j.Spec.BackoffLimit)
		}
	})
}

// TestSetDefaultsNetworkPolicyAndBindings: networking/v1 and rbac/v1
// defaults the simulator had left out (the objects are stored, not
// simulated, but kubectl get -o yaml and diffs show them).
func TestSetDefaultsNetworkPolicyAndBindings(t *testing.T) {
	tcp, udp := "TCP", "UDP"
	np := &NetworkPolicy{Spec: NetworkPolicySpec{
		Ingress: []NetworkPolicyIngressRule{{Ports: []NetworkPolicyPort{{Port: ptr(FromInt32(8080))}, {Protocol: &udp}}}},
		Egress:  []NetworkPolicyEgressRule{{Ports: []NetworkPolicyPort{{Port: ptr(FromInt32(53))}}}}}}
	SetDefaults(np)
	want := NetworkPolicySpec{PolicyTypes: []string{"Ingress", "Egress"},
		Ingress: []NetworkPolicyIngressRule{{Ports: []NetworkPolicyPort{{Protocol: &tcp, Port: ptr(FromInt32(8080))}, {Protocol: &udp}}}},
		Egress:  []NetworkPolicyEgressRule{{Ports: []NetworkPolicyPort{{Protocol: &tcp, Port: ptr(FromInt32(53))}}}}}
	if !reflect.DeepEqual(np.Spec, want) {
		t.Errorf("NetworkPolicy spec = %+v\nwant %+v", np.Spec, want)
	}
	ingressOnly := &NetworkPolicy{}
	SetDefaults(ingressOnly)
	if !reflect.DeepEqual(ingressOnly.Spec.PolicyTypes, []string{"Ingress"}) {
		t.Errorf("policyTypes of a policy without rules = %v", ingressOnly.Spec.PolicyTypes)
	}
	rb := &RoleBinding{RoleRef: RoleRef{Kind: "Role", Name: "r"}, Subjects: []Subject{{Kind: "ServiceAccount", Name: "web"}, {Kind: "User", Name: "jane"}, {Kind: "Group", Name: "devs"}}}
	SetDefaults(rb)
	if rb.RoleRef.APIGroup != "rbac.authorization.k8s.io" || rb.Subjects[0].APIGroup != "" || rb.Subjects[1].APIGroup != "rbac.authorization.k8s.io" || rb.Subjects[2].APIGroup != "rbac.authorization.k8s.io" {
		t.Errorf("RoleBinding = %+v", rb)
	}
	crb := &ClusterRoleBinding{RoleRef: RoleRef{Kind: "ClusterRole", Name: "view"}}
	SetDefaults(crb)
	if crb.RoleRef.APIGroup != "rbac.authorization.k8s.io" {
		t.Errorf("ClusterRoleBinding roleRef = %+v", crb.RoleRef)
	}
}

// TestRawDefaults: the defaults inside the raw JSON parts of a pod spec
// (k/k SetDefaults_HTTPGetAction, SetDefaults_ConfigMapVolumeSource and
// siblings, SetDefaults_ObjectFieldSelector), which kubectl get -o yaml
// of a Kubernetes pod shows; a value already defaulted, or one that sets
// them, is left as it is, without allocating.
func TestRawDefaults(t *testing.T) {
	raw := func(s string) *RawValue { v := RawValue(s); return &v }
	spec := &PodSpec{
		Volumes: []Volume{
			{Name: "cfg", Source: map[string]RawValue{"configMap": RawValue(`{"name":"web"}`)}},
			{Name: "tls", Source: map[string]RawValue{"secret": RawValue(`{"secretName":"tls","defaultMode":256}`)}},
			{Name: "all", Source: map[string]RawValue{"projected": RawValue(`{"sources":[]}`)}},
			{Name: "data", Source: map[string]RawValue{"persistentVolumeClaim": RawValue(`{"claimName":"d"}`)}},
		},
		Containers: []Container{{Name: "c", Image: "nginx",
			Env: []EnvVar{{Name: "POD", ValueFrom: raw(`{"fieldRef":{"fieldPath":"metadata.name"}}`)},
				{Name: "KEY", ValueFrom: raw(`{"secretKeyRef":{"name":"s","key":"k"}}`)}},
			ReadinessProbe: &Probe{ProbeHandler: ProbeHandler{HTTPGet: raw(`{"port":"http"}`)}},
			LivenessProbe:  &Probe{ProbeHandler: ProbeHandler{HTTPGet: raw(`{"path":"/healthz","port":8080,"scheme":"HTTPS"}`)}},
		}},
	}
	SetDefaultsPodSpec(spec)
	c := spec.Containers[0]
	for _, ch := range []struct{ name, got, want string }{
		{"configMap", string(spec.Volumes[0].Source["configMap"]), `{"defaultMode":420,"name":"web"}`},
		{"secret keeps its mode", string(spec.Volumes[1].Source["secret"]), `{"secretName":"tls","defaultMode":256}`},
		{"projected", string(spec.Volumes[2].Source["projected"]), `{"defaultMode":420,"sources":[]}`},
		{"claim untouched", string(spec.Volumes[3].Source["persistentVolumeClaim"]), `{"claimName":"d"}`},
		{"fieldRef apiVersion", string(*c.Env[0].ValueFrom), `{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.name"}}`},
		{"secretKeyRef untouched", string(*c.Env[1].ValueFrom), `{"secretKeyRef":{"name":"s","key":"k"}}`},
		{"httpGet path and scheme", string(*c.ReadinessProbe.HTTPGet), `{"path":"/","port":"http","scheme":"HTTP"}`},
		{"httpGet that sets them", string(*c.LivenessProbe.HTTPGet), `{"path":"/healthz","port":8080,"scheme":"HTTPS"}`},
	} {
		if ch.got != ch.want {
			t.Errorf("%s = %s, want %s", ch.name, ch.got, ch.want)
		}
	}
	if n := testing.AllocsPerRun(50, func() { SetDefaultsPodSpec(spec) }); n != 0 {
		t.Errorf("defaulting a defaulted spec again: %v allocations, want 0", n)
	}
}
