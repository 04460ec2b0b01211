package api

import (
	"regexp"
	"strings"
)

// Server-side defaults, as the API server applies them on create and update
// (k/k pkg/apis/{apps,core,autoscaling}/.../defaults.go and the generated
// defaulters). Each function only fills fields that are unset, so applying
// it twice changes nothing.

// SetDefaults applies the server-side defaults of o's kind; kinds without
// defaults are left unchanged.
func SetDefaults(o Object) {
	switch t := o.(type) {
	case *Deployment:
		SetDefaultsDeployment(t)
	case *ReplicaSet:
		SetDefaultsReplicaSet(t)
	case *DaemonSet:
		SetDefaultsDaemonSet(t)
	case *Pod:
		SetDefaultsPod(t)
	case *Service:
		SetDefaultsService(t)
	case *Endpoints:
		SetDefaultsEndpoints(t)
	case *EndpointSlice:
		SetDefaultsEndpointSlice(t)
	case *HorizontalPodAutoscaler:
		SetDefaultsHPA(t)
	case *HorizontalPodAutoscalerV1:
		SetDefaultsHPAV1(t)
	case *Namespace:
		SetDefaultsNamespace(t)
	case *Node:
		SetDefaultsNode(t)
	case *Job:
		SetDefaultsJob(t)
	case *StatefulSet:
		SetDefaultsStatefulSet(t)
	case *PersistentVolumeClaim:
		SetDefaultsPersistentVolumeClaim(t)
	case *PersistentVolume:
		SetDefaultsPersistentVolume(t)
	case *StorageClass:
		SetDefaultsStorageClass(t)
	case *CronJob:
		SetDefaultsCronJob(t)
	case *LimitRange:
		SetDefaultsLimitRange(t)
	case *PriorityClass:
		SetDefaultsPriorityClass(t)
	case *Secret:
		SetDefaultsSecret(t)
	case *NetworkPolicy:
		SetDefaultsNetworkPolicy(t)
	case *RoleBinding:
		setDefaultsBinding(&t.RoleRef, t.Subjects)
	case *ClusterRoleBinding:
		setDefaultsBinding(&t.RoleRef, t.Subjects)
	}
}

// SetDefaultsSecret does to a Secret what the API server does to one it
// is given: stringData's values go into data, overwriting a key of both,
// and stringData is dropped (it is write-only: k/k pkg/apis/core/v1
// conversion.go Convert_v1_Secret_To_core_Secret); an empty type becomes
// Opaque (SetDefaults_Secret).
func SetDefaultsSecret(s *Secret) {
	if len(s.StringData) > 0 {
		if s.Data == nil {
			s.Data = make(map[string][]byte, len(s.StringData))
		}
		for k, v := range s.StringData {
			s.Data[k] = []byte(v)
		}
	}
	s.StringData = nil
	if s.Type == "" {
		s.Type = "Opaque"
	}
}

func int32Ptr(v int32) *int32 { return &v }

func int64Ptr(v int64) *int64 { return &v }

// SetDefaultsDeployment applies apps/v1 Deployment defaults: replicas 1,
// strategy RollingUpdate with maxUnavailable and maxSurge "25%" (only for
// RollingUpdate), revisionHistoryLimit 10, progressDeadlineSeconds 600, and
// the pod template's spec defaults.
func SetDefaultsDeployment(d *Deployment) {
	if d.Spec.Replicas == nil {
		d.Spec.Replicas = int32Ptr(1)
	}
	s := &d.Spec.Strategy
	if s.Type == "" {
		s.Type = RollingUpdateDeploymentStrategyType
	}
	if s.Type == RollingUpdateDeploymentStrategyType {
		if s.RollingUpdate == nil {
			s.RollingUpdate = &RollingUpdateDeployment{}
		}
		if s.RollingUpdate.MaxUnavailable == nil {
			v := FromString("25%")
			s.RollingUpdate.MaxUnavailable = &v
		}
		if s.RollingUpdate.MaxSurge == nil {
			v := FromString("25%")
			s.RollingUpdate.MaxSurge = &v
		}
	}
	if d.Spec.RevisionHistoryLimit == nil {
		d.Spec.RevisionHistoryLimit = int32Ptr(10)
	}
	if d.Spec.ProgressDeadlineSeconds == nil {
		d.Spec.ProgressDeadlineSeconds = int32Ptr(600)
	}
	SetDefaultsPodSpec(&d.Spec.Template.Spec)
}

// SetDefaultsReplicaSet applies apps/v1 ReplicaSet defaults: replicas 1 and
// the pod template's spec defaults.
func SetDefaultsReplicaSet(rs *ReplicaSet) {
	if rs.Spec.Replicas == nil {
		rs.Spec.Replicas = int32Ptr(1)
	}
	SetDefaultsPodSpec(&rs.Spec.Template.Spec)
}

// SetDefaultsPod applies the pod spec defaults plus the ones upstream
// applies to Pods only, never to templates: requests default to limits per
// resource, enableServiceLinks true, and hostPort = containerPort for
// hostNetwork pods.
func SetDefaultsPod(p *Pod) {
	SetDefaultsPodSpec(&p.Spec)
	for i := range p.Spec.Containers {
		defaultRequestsFromLimits(&p.Spec.Containers[i].Resources)
	}
	for i := range p.Spec.InitContainers {
		defaultRequestsFromLimits(&p.Spec.InitContainers[i].Resources)
	}
	if p.Spec.EnableServiceLinks == nil {
		yes := true
		p.Spec.EnableServiceLinks = &yes
	}
	if p.Spec.HostNetwork {
		defaultHostPorts(p.Spec.Containers)
		defaultHostPorts(p.Spec.InitContainers)
	}
}

func defaultRequestsFromLimits(r *ResourceRequirements) {
	if r.Limits == nil {
		return
	}
	if r.Requests == nil {
		r.Requests = make(ResourceList, len(r.Limits))
	}
	for name, q := range r.Limits {
		if _, ok := r.Requests[name]; !ok {
			r.Requests[name] = q
		}
	}
}

func defaultHostPorts(cs []Container) {
	for i := range cs {
		for j := range cs[i].Ports {
			if cs[i].Ports[j].HostPort == 0 {
				cs[i].Ports[j].HostPort = cs[i].Ports[j].ContainerPort
			}
		}
	}
}

// SetDefaultsPodSpec applies pod spec defaults (for pods and templates):
// dnsPolicy ClusterFirst, restartPolicy Always, securityContext {},
// terminationGracePeriodSeconds 30, schedulerName default-scheduler, an
// emptyDir for a volume naming no source, and the container defaults of
// every init and regular container.
func SetDefaultsPodSpec(s *PodSpec) {
	if s.DNSPolicy == "" {
		s.DNSPolicy = DNSClusterFirst
	}
	if s.RestartPolicy == "" {
		s.RestartPolicy = RestartPolicyAlways
	}
	if s.SecurityContext == nil {
		empty := RawValue("{}")
		s.SecurityContext = &empty
	}
	if s.TerminationGracePeriodSeconds == nil {
		s.TerminationGracePeriodSeconds = int64Ptr(DefaultTerminationGracePeriodSeconds)
	}
	if s.SchedulerName == "" {
		s.SchedulerName = DefaultSchedulerName
	}
	for i := range s.Volumes {
		// SetDefaults_Volume: a volume naming no source is an emptyDir.
		if len(s.Volumes[i].Source) == 0 {
			s.Volumes[i].Source = map[string]RawValue{"emptyDir": RawValue("{}")}
		}
	}
	defaultVolumeSources(s.Volumes)
	for i := range s.InitContainers {
		SetDefaultsContainer(&s.InitContainers[i])
	}
	for i := range s.Containers {
		SetDefaultsContainer(&s.Containers[i])
	}
}

// SetDefaultsContainer applies container defaults: imagePullPolicy from the
// image reference (DefaultImagePullPolicy), terminationMessagePath
// /dev/termination-log, terminationMessagePolicy File, port protocol TCP and
// probe defaults.
func SetDefaultsContainer(c *Container) {
	if c.ImagePullPolicy == "" {
		c.ImagePullPolicy = DefaultImagePullPolicy(c.Image)
	}
	if c.TerminationMessagePath == "" {
		c.TerminationMessagePath = DefaultTerminationMessagePath
	}
	if c.TerminationMessagePolicy == "" {
		c.TerminationMessagePolicy = TerminationMessageReadFile
	}
	for i := range c.Ports {
		if c.Ports[i].Protocol == "" {
			c.Ports[i].Protocol = ProtocolTCP
		}
	}
	for _, p := range []*Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
		if p != nil {
			SetDefaultsProbe(p)
			defaultHTTPGet(p)
		}
	}
	defaultFieldRefs(c.Env)
}

// SetDefaultsProbe applies probe defaults: timeoutSeconds 1, periodSeconds
// 10, successThreshold 1, failureThreshold 3.
func SetDefaultsProbe(p *Probe) {
	if p.TimeoutSeconds == 0 {
		p.TimeoutSeconds = 1
	}
	if p.PeriodSeconds == 0 {
		p.PeriodSeconds = 10
	}
	if p.SuccessThreshold == 0 {
		p.SuccessThreshold = 1
	}
	if p.FailureThreshold == 0 {
		p.FailureThreshold = 3
	}
}

// imageRef matches a docker reference: [domain[:port]/]path[:tag][@digest],
// with path components in lowercase (distribution/reference grammar).
var imageRef = regexp.MustCompile(`^(?:(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*|\[[a-fA-F0-9:]+\])(?::[0-9]+)?/)?` +
	`[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*` +
	`(:[\w][\w.-]{0,127})?` +
	`(@[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,})?$`)

var hexID = regexp.MustCompile(`^[a-f0-9]{64}$`)

// DefaultImagePullPolicy returns the pull policy the API server defaults for
// image: Always when the tag is "latest" or there is neither tag nor digest
// ("nginx", "registry:5000/app"), IfNotPresent otherwise ("nginx:1.14.2",
// "nginx@sha256:..."). An unparsable reference gets IfNotPresent, as
// upstream ignores the parse error and sees no tag.
func DefaultImagePullPolicy(image string) PullPolicy {
	if imageTag(image) == "latest" {
		return PullAlways
	}
	return PullIfNotPresent
}

// imageTag returns the tag of image as k/k's parsers.ParseImageName does:
// "latest" when there is neither tag nor digest, "" when there is only a
// digest or the reference does not parse.
func imageTag(image string) string {
	m := imageRef.FindStringSubmatch(image)
	if m == nil || hexID.MatchString(image) {
		return ""
	}
	name := image
	if i := strings.IndexByte(name, '@'); i >= 0 {
		name = name[:i]
	}
	name = strings.TrimSuffix(name, m[1])
	if len(name) > 255 {
		return ""
	}
	tag, digest := strings.TrimPrefix(m[1], ":"), m[2]
	if tag == "" && digest == "" {
		return "latest"
	}
	return tag
}

// SetDefaultsService applies Service defaults: sessionAffinity None (and
// no affinity config), ClientIP timeout 10800s, type ClusterIP, port
// protocol TCP, targetPort = port when unset, externalTrafficPolicy Cluster
// for an externally accessible service (NodePort, LoadBalancer, or
// ClusterIP with externalIPs), internalTrafficPolicy Cluster, and
// allocateLoadBalancerNodePorts true for LoadBalancer.
func SetDefaultsService(s *Service) {
	sp := &s.Spec
	if sp.SessionAffinity == "" {
		sp.SessionAffinity = ServiceAffinityNone
	}
	if sp.SessionAffinity == ServiceAffinityNone {
		sp.SessionAffinityConfig = nil
	}
	if sp.SessionAffinity == ServiceAffinityClientIP {
		if sp.SessionAffinityConfig == nil {
			sp.SessionAffinityConfig = &SessionAffinityConfig{}
		}
		if sp.SessionAffinityConfig.ClientIP == nil {
			sp.SessionAffinityConfig.ClientIP = &ClientIPConfig{}
		}
		if sp.SessionAffinityConfig.ClientIP.TimeoutSeconds == nil {
			sp.SessionAffinityConfig.ClientIP.TimeoutSeconds = int32Ptr(DefaultClientIPServiceAffinitySeconds)
		}
	}
	if sp.Type == "" {
		sp.Type = ServiceTypeClusterIP
	}
	for i := range sp.Ports {
		p := &sp.Ports[i]
		if p.Protocol == "" {
			p.Protocol = ProtocolTCP
		}
		if p.TargetPort == FromInt32(0) || p.TargetPort == FromString("") {
			p.TargetPort = FromInt32(p.Port)
		}
	}
	external := sp.Type == ServiceTypeNodePort || sp.Type == ServiceTypeLoadBalancer
	// ExternallyAccessible (k/k pkg/api/service): a ClusterIP service
	// with externalIPs is reached from outside too.
	if (external || sp.Type == ServiceTypeClusterIP && len(sp.ExternalIPs) > 0) && sp.ExternalTrafficPolicy == "" {
		sp.ExternalTrafficPolicy = ServiceTrafficPolicyCluster
	}
	if sp.InternalTrafficPolicy == nil && (external || sp.Type == ServiceTypeClusterIP) {
		v := ServiceTrafficPolicyCluster
		sp.InternalTrafficPolicy = &v
	}
	if sp.Type == ServiceTypeLoadBalancer && sp.AllocateLoadBalancerNodePorts == nil {
		yes := true
		sp.AllocateLoadBalancerNodePorts = &yes
	}
}

// SetDefaultsEndpoints defaults every endpoint port's protocol to TCP.
func SetDefaultsEndpoints(e *Endpoints) {
	for i := range e.Subsets {
		for j := range e.Subsets[i].Ports {
			if e.Subsets[i].Ports[j].Protocol == "" {
				e.Subsets[i].Ports[j].Protocol = ProtocolTCP
			}
		}
	}
}

// SetDefaultsHPA applies autoscaling/v2 defaults: minReplicas 1, a cpu
// Utilization metric at 80% when there are no metrics, and, when behavior
// is set, the default scale-up (window 0, Max of 4 pods or 100% per 15s)
// and scale-down (window nil, Max of 100% per 15s) rules for unset fields.
func SetDefaultsHPA(h *HorizontalPodAutoscaler) {
	if h.Spec.MinReplicas == nil {
		h.Spec.MinReplicas = int32Ptr(1)
	}
	if len(h.Spec.Metrics) == 0 {
		h.Spec.Metrics = []MetricSpec{{
			Type: ResourceMetricSourceType,
			Resource: &ResourceMetricSource{
				Name:   ResourceCPU,
				Target: MetricTarget{Type: UtilizationMetricType, AverageUtilization: int32Ptr(DefaultCPUUtilization)},
			},
		}}
	}
	if b := h.Spec.Behavior; b != nil {
		b.ScaleUp = defaultScalingRules(b.ScaleUp, scaleUpRules())
		b.ScaleDown = defaultScalingRules(b.ScaleDown, scaleDownRules())
	}
}

func scaleUpRules() *HPAScalingRules {
	sel := MaxChangePolicySelect
	return &HPAScalingRules{
		StabilizationWindowSeconds: int32Ptr(0),
		SelectPolicy:               &sel,
		Policies: []HPAScalingPolicy{
			{Type: PodsScalingPolicy, Value: 4, PeriodSeconds: 15},
			{Type: PercentScalingPolicy, Value: 100, PeriodSeconds: 15},
		},
	}
}

func scaleDownRules() *HPAScalingRules {
	sel := MaxChangePolicySelect
	return &HPAScalingRules{
		SelectPolicy: &sel,
		Policies:     []HPAScalingPolicy{{Type: PercentScalingPolicy, Value: 100, PeriodSeconds: 15}},
	}
}

// defaultScalingRules fills the unset fields of r from def, as upstream's
// copyHPAScalingRules (def is freshly allocated and may be returned).
func defaultScalingRules(r, def *HPAScalingRules) *HPAScalingRules {
	if r == nil {
		return def
	}
	if r.StabilizationWindowSeconds == nil {
		r.StabilizationWindowSeconds = def.StabilizationWindowSeconds
	}
	if r.SelectPolicy == nil {
		r.SelectPolicy = def.SelectPolicy
	}
	if r.Policies == nil {
		r.Policies = def.Policies
	}
	return r
}

// SetDefaultsHPAV1 applies autoscaling/v1 defaults: minReplicas 1 and a cpu
// target of 80% (upstream applies the latter during conversion, with the
// same visible result).
func SetDefaultsHPAV1(h *HorizontalPodAutoscalerV1) {
	if h.Spec.MinReplicas == nil {
		h.Spec.MinReplicas = int32Ptr(1)
	}
	if h.Spec.TargetCPUUtilizationPercentage == nil {
		h.Spec.TargetCPUUtilizationPercentage = int32Ptr(DefaultCPUUtilization)
	}
}

// SetDefaultsNamespace sets status.phase Active and the
// kubernetes.io/metadata.name label to the namespace's name.
func SetDefaultsNamespace(n *Namespace) {
	if n.Status.Phase == "" {
		n.Status.Phase = NamespaceActive
	}
	if n.Name != "" {
		if n.Labels == nil {
			n.Labels = map[string]string{}
		}
		n.Labels[LabelMetadataName] = n.Name
	}
}

// SetDefaultsNode defaults status.allocatable to a copy of capacity.
func SetDefaultsNode(n *Node) {
	if n.Status.Allocatable == nil && n.Status.Capacity != nil {
		n.Status.Allocatable = n.Status.Capacity.DeepCopy()
	}
}
