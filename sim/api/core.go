package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"sort"
)

// ResourceName names a compute resource or a quota item ("cpu", "memory",
// "requests.cpu", "count/deployments.apps").
type ResourceName string

// Resource names the simulator and quotas use.
const (
	// ResourceCPU is CPU in cores; MilliValue gives millicores.
	ResourceCPU ResourceName = "cpu"
	// ResourceMemory is memory in bytes.
	ResourceMemory ResourceName = "memory"
	// ResourceStorage is persistent storage in bytes.
	ResourceStorage ResourceName = "storage"
	// ResourceEphemeralStorage is node-local scratch space in bytes.
	ResourceEphemeralStorage ResourceName = "ephemeral-storage"
	// ResourcePods is a pod count (node capacity or quota).
	ResourcePods ResourceName = "pods"
	// ResourceServices is a quota on the number of Services.
	ResourceServices ResourceName = "services"
	// ResourceConfigMaps is a quota on the number of ConfigMaps.
	ResourceConfigMaps ResourceName = "configmaps"
	// ResourceQuotas is a quota on the number of ResourceQuotas.
	ResourceQuotas ResourceName = "resourcequotas"
	// ResourceRequestsCPU is a quota on the sum of cpu requests.
	ResourceRequestsCPU ResourceName = "requests.cpu"
	// ResourceRequestsMemory is a quota on the sum of memory requests.
	ResourceRequestsMemory ResourceName = "requests.memory"
	// ResourceRequestsEphemeralStorage is a quota on the sum of
	// ephemeral-storage requests.
	ResourceRequestsEphemeralStorage ResourceName = "requests.ephemeral-storage"
	// ResourceLimitsCPU is a quota on the sum of cpu limits.
	ResourceLimitsCPU ResourceName = "limits.cpu"
	// ResourceLimitsMemory is a quota on the sum of memory limits.
	ResourceLimitsMemory ResourceName = "limits.memory"
	// ResourceLimitsEphemeralStorage is a quota on the sum of
	// ephemeral-storage limits.
	ResourceLimitsEphemeralStorage ResourceName = "limits.ephemeral-storage"
)

// ObjectCountResource returns the quota name counting objects of a
// group-resource: ObjectCountResource("deployments.apps") is
// "count/deployments.apps".
func ObjectCountResource(groupResource string) ResourceName {
	return ResourceName("count/" + groupResource)
}

// ResourceList maps resource names to quantities (requests, limits,
// capacity, quota hard and used).
type ResourceList map[ResourceName]Quantity

// Name returns the quantity of name, or a zero quantity in defaultFormat
// when absent.
func (rl ResourceList) Name(name ResourceName, defaultFormat Format) Quantity {
	if q, ok := rl[name]; ok {
		return q
	}
	return Quantity{format: defaultFormat}
}

// Cpu returns the cpu quantity, zero when absent.
func (rl ResourceList) Cpu() Quantity { return rl.Name(ResourceCPU, DecimalSI) }

// Memory returns the memory quantity, zero when absent.
func (rl ResourceList) Memory() Quantity { return rl.Name(ResourceMemory, BinarySI) }

// Pods returns the pods quantity, zero when absent.
func (rl ResourceList) Pods() Quantity { return rl.Name(ResourcePods, DecimalSI) }

// StorageEphemeral returns the ephemeral-storage quantity, zero when absent.
func (rl ResourceList) StorageEphemeral() Quantity {
	return rl.Name(ResourceEphemeralStorage, BinarySI)
}

// SortedNames returns the names in rl in sorted order, for output that must
// not depend on map iteration.
func (rl ResourceList) SortedNames() []ResourceName {
	names := make([]ResourceName, 0, len(rl))
	for n := range rl {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return names[i] < names[j] })
	return names
}

// ConditionStatus is the status of a condition.
type ConditionStatus string

const (
	// ConditionTrue means the condition holds.
	ConditionTrue ConditionStatus = "True"
	// ConditionFalse means the condition does not hold.
	ConditionFalse ConditionStatus = "False"
	// ConditionUnknown means the state cannot be told.
	ConditionUnknown ConditionStatus = "Unknown"
)

// Protocol is a network protocol of a port.
type Protocol string

const (
	// ProtocolTCP is TCP, the default.
	ProtocolTCP Protocol = "TCP"
	// ProtocolUDP is UDP.
	ProtocolUDP Protocol = "UDP"
	// ProtocolSCTP is SCTP.
	ProtocolSCTP Protocol = "SCTP"
)

// ObjectReference points at any object (Event involvedObject, Endpoints
// targetRef).
type ObjectReference struct {
	// Kind of the referent.
	Kind string `json:"kind,omitempty"`
	// Namespace of the referent.
	Namespace string `json:"namespace,omitempty"`
	// Name of the referent.
	Name string `json:"name,omitempty"`
	// UID of the referent.
	UID UID `json:"uid,omitempty"`
	// APIVersion of the referent.
	APIVersion string `json:"apiVersion,omitempty"`
	// ResourceVersion of the referent when the reference was made.
	ResourceVersion string `json:"resourceVersion,omitempty"`
	// FieldPath points inside the referent, e.g. "spec.containers{web}".
	FieldPath string `json:"fieldPath,omitempty"`
}

// LocalObjectReference names an object in the same namespace.
type LocalObjectReference struct {
	// Name of the referent.
	Name string `json:"name,omitempty"`
}

// ---- Pod ----

// Pod is a group of containers scheduled together onto one node.
type Pod struct {
	// TypeMeta holds apiVersion and kind.
	TypeMeta `json:",inline"`
	// ObjectMeta is the pod's metadata.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the desired state.
	Spec PodSpec `json:"spec,omitempty"`
	// Status is the observed state, written by the scheduler and kubelet.
	Status PodStatus `json:"status,omitempty"`
}

// PodTemplateSpec is the pod a workload controller stamps out.
type PodTemplateSpec struct {
	// ObjectMeta is copied to created pods (labels, annotations).
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the pod spec of created pods.
	Spec PodSpec `json:"spec,omitempty"`
}

// RestartPolicy says when the kubelet restarts a pod's containers.
type RestartPolicy string

const (
	// RestartPolicyAlways restarts containers whenever they exit (default).
	RestartPolicyAlways RestartPolicy = "Always"
	// RestartPolicyOnFailure restarts containers that exit non-zero.
	RestartPolicyOnFailure RestartPolicy = "OnFailure"
	// RestartPolicyNever never restarts containers.
	RestartPolicyNever RestartPolicy = "Never"
)

// ContainerRestartPolicy is a per-container restart policy; only Always
// (sidecar init containers) is defined.
type ContainerRestartPolicy string

// ContainerRestartPolicyAlways makes an init container a restartable sidecar.
const ContainerRestartPolicyAlways ContainerRestartPolicy = "Always"

// DNSPolicy says how a pod's DNS is configured.
type DNSPolicy string

const (
	// DNSClusterFirst uses cluster DNS first (default).
	DNSClusterFirst DNSPolicy = "ClusterFirst"
	// DNSClusterFirstWithHostNet is ClusterFirst for hostNetwork pods.
	DNSClusterFirstWithHostNet DNSPolicy = "ClusterFirstWithHostNet"
	// DNSDefault inherits the node's DNS configuration.
	DNSDefault DNSPolicy = "Default"
	// DNSNone uses only dnsConfig.
	DNSNone DNSPolicy = "None"
)

// PreemptionPolicy says whether a pod may preempt lower-priority pods.
type PreemptionPolicy string

const (
	// PreemptLowerPriority allows preemption (default).
	PreemptLowerPriority PreemptionPolicy = "PreemptLowerPriority"
	// PreemptNever forbids preemption.
	PreemptNever PreemptionPolicy = "Never"
)

// DefaultSchedulerName is the scheduler pods get when they name none.
const DefaultSchedulerName = "default-scheduler"

// DefaultTerminationGracePeriodSeconds is the grace period pods get when
// they set none: 30 seconds.
const DefaultTerminationGracePeriodSeconds int64 = 30

// PodSpec is the desired state of a pod (core/v1 PodSpec).
type PodSpec struct {
	// Volumes that containers may mount.
	Volumes []Volume `json:"volumes,omitempty"`
	// InitContainers run in order, each to completion, before Containers.
	InitContainers []Container `json:"initContainers,omitempty"`
	// Containers are the pod's main containers; at least one.
	Containers []Container `json:"containers"`
	// EphemeralContainers are debugging containers, kept opaque.
	EphemeralContainers []RawValue `json:"ephemeralContainers,omitempty"`
	// RestartPolicy defaults to Always.
	RestartPolicy RestartPolicy `json:"restartPolicy,omitempty"`
	// TerminationGracePeriodSeconds defaults to 30.
	TerminationGracePeriodSeconds *int64 `json:"terminationGracePeriodSeconds,omitempty"`
	// ActiveDeadlineSeconds bounds the pod's run time.
	ActiveDeadlineSeconds *int64 `json:"activeDeadlineSeconds,omitempty"`
	// DNSPolicy defaults to ClusterFirst.
	DNSPolicy DNSPolicy `json:"dnsPolicy,omitempty"`
	// NodeSelector requires node labels to match for scheduling.
	NodeSelector map[string]string `json:"nodeSelector,omitempty"`
	// ServiceAccountName is the pod's service account.
	ServiceAccountName string `json:"serviceAccountName,omitempty"`
	// DeprecatedServiceAccount is the old alias of ServiceAccountName.
	DeprecatedServiceAccount string `json:"serviceAccount,omitempty"`
	// AutomountServiceAccountToken controls token mounting.
	AutomountServiceAccountToken *bool `json:"automountServiceAccountToken,omitempty"`
	// NodeName is set by the scheduler's binding (or by the user to bypass it).
	NodeName string `json:"nodeName,omitempty"`
	// HostNetwork puts the pod in the node's network namespace.
	HostNetwork bool `json:"hostNetwork,omitempty"`
	// HostPID shares the node's PID namespace.
	HostPID bool `json:"hostPID,omitempty"`
	// HostIPC shares the node's IPC namespace.
	HostIPC bool `json:"hostIPC,omitempty"`
	// ShareProcessNamespace shares one PID namespace among the containers.
	ShareProcessNamespace *bool `json:"shareProcessNamespace,omitempty"`
	// SecurityContext is the pod security context, kept opaque; defaults to {}.
	SecurityContext *RawValue `json:"securityContext,omitempty"`
	// ImagePullSecrets name secrets for pulling images.
	ImagePullSecrets []LocalObjectReference `json:"imagePullSecrets,omitempty"`
	// Hostname overrides the pod's hostname.
	Hostname string `json:"hostname,omitempty"`
	// Subdomain sets the pod's DNS subdomain.
	Subdomain string `json:"subdomain,omitempty"`
	// Affinity holds node affinity and pod (anti-)affinity.
	Affinity *Affinity `json:"affinity,omitempty"`
	// SchedulerName defaults to "default-scheduler".
	SchedulerName string `json:"schedulerName,omitempty"`
	// Tolerations let the pod run on tainted nodes.
	Tolerations []Toleration `json:"tolerations,omitempty"`
	// HostAliases are extra /etc/hosts entries, kept opaque.
	HostAliases []RawValue `json:"hostAliases,omitempty"`
	// PriorityClassName names the pod's priority class.
	PriorityClassName string `json:"priorityClassName,omitempty"`
	// Priority is resolved from PriorityClassName by admission.
	Priority *int32 `json:"priority,omitempty"`
	// DNSConfig is extra DNS configuration, kept opaque.
	DNSConfig *RawValue `json:"dnsConfig,omitempty"`
	// ReadinessGates are extra conditions required for readiness.
	ReadinessGates []PodReadinessGate `json:"readinessGates,omitempty"`
	// RuntimeClassName names the container runtime class.
	RuntimeClassName *string `json:"runtimeClassName,omitempty"`
	// EnableServiceLinks injects service environment variables; defaults
	// to true for pods.
	EnableServiceLinks *bool `json:"enableServiceLinks,omitempty"`
	// PreemptionPolicy defaults to PreemptLowerPriority.
	PreemptionPolicy *PreemptionPolicy `json:"preemptionPolicy,omitempty"`
	// Overhead is the runtime class's per-pod overhead.
	Overhead ResourceList `json:"overhead,omitempty"`
	// TopologySpreadConstraints spread the pod's kind over domains.
	TopologySpreadConstraints []TopologySpreadConstraint `json:"topologySpreadConstraints,omitempty"`
	// SetHostnameAsFQDN sets the hostname to the pod's FQDN.
	SetHostnameAsFQDN *bool `json:"setHostnameAsFQDN,omitempty"`
	// OS names the pod's operating system, kept opaque ({"name": "linux"}).
	OS *RawValue `json:"os,omitempty"`
	// HostUsers controls the user namespace.
	HostUsers *bool `json:"hostUsers,omitempty"`
	// SchedulingGates block scheduling while any is present.
	SchedulingGates []PodSchedulingGate `json:"schedulingGates,omitempty"`
	// ResourceClaims are dynamic resource claims, kept opaque.
	ResourceClaims []RawValue `json:"resourceClaims,omitempty"`
	// Resources are pod-level requests and limits.
	Resources *ResourceRequirements `json:"resources,omitempty"`
	// HostnameOverride sets the pod's hostname exactly.
	HostnameOverride *string `json:"hostnameOverride,omitempty"`
}

// PodReadinessGate names an extra condition required for readiness.
type PodReadinessGate struct {
	// ConditionType is the pod condition type that must be True.
	ConditionType PodConditionType `json:"conditionType"`
}

// PodSchedulingGate blocks scheduling until removed.
type PodSchedulingGate struct {
	// Name of the gate.
	Name string `json:"name"`
}

// PullPolicy says when the kubelet pulls an image.
type PullPolicy string

const (
	// PullAlways pulls on every container start (default for :latest or no tag).
	PullAlways PullPolicy = "Always"
	// PullNever never pulls.
	PullNever PullPolicy = "Never"
	// PullIfNotPresent pulls when the image is missing (default otherwise).
	PullIfNotPresent PullPolicy = "IfNotPresent"
)

// TerminationMessagePolicy says where a container's termination message
// comes from.
type TerminationMessagePolicy string

const (
	// TerminationMessageReadFile reads terminationMessagePath (default).
	TerminationMessageReadFile TerminationMessagePolicy = "File"
	// TerminationMessageFallbackToLogsOnError uses the log tail on error.
	TerminationMessageFallbackToLogsOnError TerminationMessagePolicy = "FallbackToLogsOnError"
)

// DefaultTerminationMessagePath is the default terminationMessagePath.
const DefaultTerminationMessagePath = "/dev/termination-log"

// Container is one container of a pod (core/v1 Container).
type Container struct {
	// Name is unique within the pod.
	Name string `json:"name"`
	// Image is the container image reference, e.g. "nginx:1.14.2".
	Image string `json:"image,omitempty"`
	// Command overrides the image entrypoint.
	Command []string `json:"command,omitempty"`
	// Args overrides the image cmd.
	Args []string `json:"args,omitempty"`
	// WorkingDir overrides the image working directory.
	WorkingDir string `json:"workingDir,omitempty"`
	// Ports are informational container ports.
	Ports []ContainerPort `json:"ports,omitempty"`
	// EnvFrom sources are kept opaque.
	EnvFrom []RawValue `json:"envFrom,omitempty"`
	// Env are environment variables.
	Env []EnvVar `json:"env,omitempty"`
	// Resources are the container's requests and limits.
	Resources ResourceRequirements `json:"resources,omitempty"`
	// ResizePolicy is kept opaque.
	ResizePolicy []RawValue `json:"resizePolicy,omitempty"`
	// RestartPolicy is set to Always for sidecar init containers.
	RestartPolicy *ContainerRestartPolicy `json:"restartPolicy,omitempty"`
	// RestartPolicyRules are kept opaque.
	RestartPolicyRules []RawValue `json:"restartPolicyRules,omitempty"`
	// VolumeMounts mount pod volumes into the container.
	VolumeMounts []VolumeMount `json:"volumeMounts,omitempty"`
	// VolumeDevices are kept opaque.
	VolumeDevices []RawValue `json:"volumeDevices,omitempty"`
	// LivenessProbe restarts the container when it fails.
	LivenessProbe *Probe `json:"livenessProbe,omitempty"`
	// ReadinessProbe gates the container's readiness.
	ReadinessProbe *Probe `json:"readinessProbe,omitempty"`
	// StartupProbe holds off the other probes until it succeeds.
	StartupProbe *Probe `json:"startupProbe,omitempty"`
	// Lifecycle hooks are kept opaque.
	Lifecycle *RawValue `json:"lifecycle,omitempty"`
	// TerminationMessagePath defaults to /dev/termination-log.
	TerminationMessagePath string `json:"terminationMessagePath,omitempty"`
	// TerminationMessagePolicy defaults to File.
	TerminationMessagePolicy TerminationMessagePolicy `json:"terminationMessagePolicy,omitempty"`
	// ImagePullPolicy defaults from the image tag (see SetDefaultsContainer).
	ImagePullPolicy PullPolicy `json:"imagePullPolicy,omitempty"`
	// SecurityContext is kept opaque.
	SecurityContext *RawValue `json:"securityContext,omitempty"`
	// Stdin keeps stdin open.
	Stdin bool `json:"stdin,omitempty"`
	// StdinOnce closes stdin after the first attach.
	StdinOnce bool `json:"stdinOnce,omitempty"`
	// TTY allocates a terminal.
	TTY bool `json:"tty,omitempty"`
}

// ContainerPort is a port a container listens on.
type ContainerPort struct {
	// Name is an IANA service name, unique within the pod.
	Name string `json:"name,omitempty"`
	// HostPort exposes the port on the node.
	HostPort int32 `json:"hostPort,omitempty"`
	// ContainerPort is the port number in the pod's network namespace.
	ContainerPort int32 `json:"containerPort"`
	// Protocol defaults to TCP.
	Protocol Protocol `json:"protocol,omitempty"`
	// HostIP binds HostPort to one node address.
	HostIP string `json:"hostIP,omitempty"`
}

// EnvVar is one environment variable.
type EnvVar struct {
	// Name of the variable.
	Name string `json:"name"`
	// Value of the variable, with $(VAR) expansion.
	Value string `json:"value,omitempty"`
	// ValueFrom is a reference source, kept opaque.
	ValueFrom *RawValue `json:"valueFrom,omitempty"`
}

// ResourceRequirements are a container's (or pod's) requests and limits.
type ResourceRequirements struct {
	// Limits are the maximum amounts allowed.
	Limits ResourceList `json:"limits,omitempty"`
	// Requests are the amounts the scheduler reserves; default to Limits
	// per resource for pods.
	Requests ResourceList `json:"requests,omitempty"`
	// Claims are dynamic resource claims, kept opaque.
	Claims []RawValue `json:"claims,omitempty"`
}

// VolumeMount mounts a pod volume into a container.
type VolumeMount struct {
	// Name of the pod volume.
	Name string `json:"name"`
	// ReadOnly mounts read-only.
	ReadOnly bool `json:"readOnly,omitempty"`
	// RecursiveReadOnly is "Disabled", "IfPossible" or "Enabled".
	RecursiveReadOnly *string `json:"recursiveReadOnly,omitempty"`
	// MountPath is the path inside the container.
	MountPath string `json:"mountPath"`
	// SubPath mounts a sub-path of the volume.
	SubPath string `json:"subPath,omitempty"`
	// MountPropagation is "None", "HostToContainer" or "Bidirectional".
	MountPropagation *string `json:"mountPropagation,omitempty"`
	// SubPathExpr is SubPath with $(VAR) expansion.
	SubPathExpr string `json:"subPathExpr,omitempty"`
}

// Probe is a liveness, readiness or startup check. Defaults: timeout 1s,
// period 10s, success threshold 1, failure threshold 3.
type Probe struct {
	// ProbeHandler says what the probe does; its members are opaque.
	ProbeHandler `json:",inline"`
	// InitialDelaySeconds waits before the first probe.
	InitialDelaySeconds int32 `json:"initialDelaySeconds,omitempty"`
	// TimeoutSeconds bounds one probe; defaults to 1.
	TimeoutSeconds int32 `json:"timeoutSeconds,omitempty"`
	// PeriodSeconds is the probe interval; defaults to 10.
	PeriodSeconds int32 `json:"periodSeconds,omitempty"`
	// SuccessThreshold is the consecutive successes needed; defaults to 1.
	SuccessThreshold int32 `json:"successThreshold,omitempty"`
	// FailureThreshold is the consecutive failures tolerated; defaults to 3.
	FailureThreshold int32 `json:"failureThreshold,omitempty"`
	// TerminationGracePeriodSeconds overrides the pod's on probe failure.
	TerminationGracePeriodSeconds *int64 `json:"terminationGracePeriodSeconds,omitempty"`
}

// ProbeHandler is the action of a probe; exactly one member is set.
type ProbeHandler struct {
	// Exec runs a command, kept opaque.
	Exec *RawValue `json:"exec,omitempty"`
	// HTTPGet performs an HTTP GET, kept opaque.
	HTTPGet *RawValue `json:"httpGet,omitempty"`
	// TCPSocket opens a TCP connection, kept opaque.
	TCPSocket *RawValue `json:"tcpSocket,omitempty"`
	// GRPC calls the gRPC health service, kept opaque.
	GRPC *RawValue `json:"grpc,omitempty"`
}

// Volume is a pod volume: a name plus exactly one source (emptyDir,
// configMap, persistentVolumeClaim, ...). The source is kept opaque: every
// key other than "name" is stored in Source and written back verbatim.
type Volume struct {
	// Name is unique within the pod.
	Name string `json:"name"`
	// Source maps the source's JSON key (e.g. "emptyDir") to its value.
	Source map[string]RawValue `json:"-"`
}

// MarshalJSON writes name followed by the source keys in sorted order.
func (v Volume) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	name, err := json.Marshal(v.Name)
	if err != nil {
		return nil, err
	}
	buf.WriteString(`{"name":`)
	buf.Write(name)
	keys := make([]string, 0, len(v.Source))
	for k := range v.Source {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		kb, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		vb, err := v.Source[k].MarshalJSON()
		if err != nil {
			return nil, err
		}
		buf.WriteByte(',')
		buf.Write(kb)
		buf.WriteByte(':')
		buf.Write(vb)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// errVolumeName is returned for a volume whose name is not a string.
var errVolumeName = errors.New("volume name must be a string")

// UnmarshalJSON reads name and keeps every other key as the source.
func (v *Volume) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	out := Volume{}
	for k, raw := range m {
		if k == "name" {
			if err := json.Unmarshal(raw, &out.Name); err != nil {
				return errVolumeName
			}
			continue
		}
		var rv RawValue
		if err := rv.UnmarshalJSON(raw); err != nil {
			return err
		}
		if out.Source == nil {
			out.Source = make(map[string]RawValue, len(m))
		}
		out.Source[k] = rv
	}
	*v = out
	return nil
}

// Affinity groups a pod's scheduling affinity rules.
type Affinity struct {
	// NodeAffinity constrains the nodes the pod may run on.
	NodeAffinity *NodeAffinity `json:"nodeAffinity,omitempty"`
	// PodAffinity attracts the pod to domains of matching pods.
	PodAffinity *PodAffinity `json:"podAffinity,omitempty"`
	// PodAntiAffinity repels the pod from domains of matching pods.
	PodAntiAffinity *PodAntiAffinity `json:"podAntiAffinity,omitempty"`
}

// NodeAffinity holds hard and soft node-selection rules.
type NodeAffinity struct {
	// RequiredDuringSchedulingIgnoredDuringExecution must hold to schedule.
	RequiredDuringSchedulingIgnoredDuringExecution *NodeSelector `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty"`
	// PreferredDuringSchedulingIgnoredDuringExecution adds weights to
	// matching nodes' scores.
	PreferredDuringSchedulingIgnoredDuringExecution []PreferredSchedulingTerm `json:"preferredDuringSchedulingIgnoredDuringExecution,omitempty"`
}

// NodeSelector is an OR of node selector terms.
type NodeSelector struct {
	// NodeSelectorTerms are ORed; an empty list matches nothing.
	NodeSelectorTerms []NodeSelectorTerm `json:"nodeSelectorTerms"`
}

// NodeSelectorTerm is an AND of requirements on node labels and fields.
type NodeSelectorTerm struct {
	// MatchExpressions are requirements on node labels.
	MatchExpressions []NodeSelectorRequirement `json:"matchExpressions,omitempty"`
	// MatchFields are requirements on node fields (metadata.name).
	MatchFields []NodeSelectorRequirement `json:"matchFields,omitempty"`
}

// NodeSelectorOperator relates a node label to values.
type NodeSelectorOperator string

const (
	// NodeSelectorOpIn requires the value to be in Values.
	NodeSelectorOpIn NodeSelectorOperator = "In"
	// NodeSelectorOpNotIn requires the value not to be in Values.
	NodeSelectorOpNotIn NodeSelectorOperator = "NotIn"
	// NodeSelectorOpExists requires the label to be present.
	NodeSelectorOpExists NodeSelectorOperator = "Exists"
	// NodeSelectorOpDoesNotExist requires the label to be absent.
	NodeSelectorOpDoesNotExist NodeSelectorOperator = "DoesNotExist"
	// NodeSelectorOpGt requires an integer value greater than Values[0].
	NodeSelectorOpGt NodeSelectorOperator = "Gt"
	// NodeSelectorOpLt requires an integer value less than Values[0].
	NodeSelectorOpLt NodeSelectorOperator = "Lt"
)

// NodeSelectorRequirement is one requirement of a node selector term.
type NodeSelectorRequirement struct {
	// Key is the label key (or field name for matchFields).
	Key string `json:"key"`
	// Operator relates the key to Values.
	Operator NodeSelectorOperator `json:"operator"`
	// Values are the operand; one integer for Gt and Lt.
	Values []string `json:"values,omitempty"`
}

// PreferredSchedulingTerm is a weighted soft node-affinity term.
type PreferredSchedulingTerm struct {
	// Weight in 1..100 added to matching nodes' scores.
	Weight int32 `json:"weight"`
	// Preference is the term nodes must match to get Weight.
	Preference NodeSelectorTerm `json:"preference"`
}

// TaintEffect is what a taint does to pods that do not tolerate it.
type TaintEffect string

const (
	// TaintEffectNoSchedule keeps new pods off the node.
	TaintEffectNoSchedule TaintEffect = "NoSchedule"
	// TaintEffectPreferNoSchedule steers new pods away from the node.
	TaintEffectPreferNoSchedule TaintEffect = "PreferNoSchedule"
	// TaintEffectNoExecute also evicts running pods (after tolerationSeconds).
	TaintEffectNoExecute TaintEffect = "NoExecute"
)

// TolerationOperator relates a toleration's key to its value.
type TolerationOperator string

const (
	// TolerationOpExists tolerates any value.
	TolerationOpExists TolerationOperator = "Exists"
	// TolerationOpEqual tolerates one value (the default).
	TolerationOpEqual TolerationOperator = "Equal"
)

// Toleration lets a pod run on nodes with a matching taint.
type Toleration struct {
	// Key is the taint key; empty with Exists matches all taints.
	Key string `json:"key,omitempty"`
	// Operator defaults to Equal.
	Operator TolerationOperator `json:"operator,omitempty"`
	// Value is matched with Equal.
	Value string `json:"value,omitempty"`
	// Effect restricts the toleration to one effect; empty matches all.
	Effect TaintEffect `json:"effect,omitempty"`
	// TolerationSeconds bounds how long a NoExecute taint is tolerated.
	TolerationSeconds *int64 `json:"tolerationSeconds,omitempty"`
}

// ToleratesTaint reports whether t tolerates taint, as upstream: effect and
// key must match when set, then Equal compares values and Exists matches
// any value.
func (t *Toleration) ToleratesTaint(taint *Taint) bool {
	if t.Effect != "" && t.Effect != taint.Effect {
		return false
	}
	if t.Key != "" && t.Key != taint.Key {
		return false
	}
	switch t.Operator {
	case "", TolerationOpEqual:
		return t.Value == taint.Value
	case TolerationOpExists:
		return true
	}
	return false
}

// Taint repels pods that do not tolerate it from a node.
type Taint struct {
	// Key of the taint.
	Key string `json:"key"`
	// Value of the taint.
	Value string `json:"value,omitempty"`
	// Effect of the taint.
	Effect TaintEffect `json:"effect"`
	// TimeAdded is set for NoExecute taints.
	TimeAdded *Time `json:"timeAdded,omitempty"`
}

// PodPhase is the coarse lifecycle phase of a pod.
type PodPhase string

const (
	// PodPending means accepted but not all containers started.
	PodPending PodPhase = "Pending"
	// PodRunning means bound and at least one container running.
	PodRunning PodPhase = "Running"
	// PodSucceeded means all containers exited 0 and will not restart.
	PodSucceeded PodPhase = "Succeeded"
	// PodFailed means all containers exited and one failed.
	PodFailed PodPhase = "Failed"
	// PodUnknown means the state could not be obtained.
	PodUnknown PodPhase = "Unknown"
)

// PodConditionType names a pod condition.
type PodConditionType string

const (
	// PodScheduled is set by the scheduler (False/Unschedulable on failure).
	PodScheduled PodConditionType = "PodScheduled"
	// PodReadyToStartContainers means the sandbox is ready.
	PodReadyToStartContainers PodConditionType = "PodReadyToStartContainers"
	// PodInitialized means all init containers succeeded.
	PodInitialized PodConditionType = "Initialized"
	// ContainersReady means all containers are ready.
	ContainersReady PodConditionType = "ContainersReady"
	// PodReady means the pod can serve and counts toward availability.
	PodReady PodConditionType = "Ready"
	// DisruptionTarget means the pod is about to be terminated.
	DisruptionTarget PodConditionType = "DisruptionTarget"
)

// PodReasonUnschedulable is the PodScheduled=False reason when no node fits.
const PodReasonUnschedulable = "Unschedulable"

// PodQOSClass is a pod's quality-of-service class.
type PodQOSClass string

const (
	// PodQOSGuaranteed means requests equal limits for every container.
	PodQOSGuaranteed PodQOSClass = "Guaranteed"
	// PodQOSBurstable means some requests are set.
	PodQOSBurstable PodQOSClass = "Burstable"
	// PodQOSBestEffort means no requests or limits.
	PodQOSBestEffort PodQOSClass = "BestEffort"
)

// PodStatus is the observed state of a pod.
type PodStatus struct {
	// ObservedGeneration is the pod generation the status reflects.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Phase is the coarse lifecycle phase.
	Phase PodPhase `json:"phase,omitempty"`
	// Conditions are the pod's conditions.
	Conditions []PodCondition `json:"conditions,omitempty"`
	// Message explains the phase.
	Message string `json:"message,omitempty"`
	// Reason is a CamelCase reason for the phase, e.g. "Evicted".
	Reason string `json:"reason,omitempty"`
	// NominatedNodeName is set by preemption.
	NominatedNodeName string `json:"nominatedNodeName,omitempty"`
	// HostIP is the node's primary IP.
	HostIP string `json:"hostIP,omitempty"`
	// HostIPs are the node's IPs.
	HostIPs []HostIP `json:"hostIPs,omitempty"`
	// PodIP is the pod's primary IP.
	PodIP string `json:"podIP,omitempty"`
	// PodIPs are the pod's IPs.
	PodIPs []PodIP `json:"podIPs,omitempty"`
	// StartTime is when the kubelet acknowledged the pod.
	StartTime *Time `json:"startTime,omitempty"`
	// InitContainerStatuses has one entry per init container.
	InitContainerStatuses []ContainerStatus `json:"initContainerStatuses,omitempty"`
	// ContainerStatuses has one entry per container.
	ContainerStatuses []ContainerStatus `json:"containerStatuses,omitempty"`
	// QOSClass is the pod's QoS class.
	QOSClass PodQOSClass `json:"qosClass,omitempty"`
	// EphemeralContainerStatuses has one entry per ephemeral container.
	EphemeralContainerStatuses []ContainerStatus `json:"ephemeralContainerStatuses,omitempty"`
	// Resize is the deprecated in-place resize status.
	Resize string `json:"resize,omitempty"`
	// ResourceClaimStatuses are kept opaque.
	ResourceClaimStatuses []RawValue `json:"resourceClaimStatuses,omitempty"`
}

// PodCondition is one condition of a pod.
type PodCondition struct {
	// Type of the condition.
	Type PodConditionType `json:"type"`
	// ObservedGeneration is the pod generation the condition reflects.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Status of the condition.
	Status ConditionStatus `json:"status"`
	// LastProbeTime is when the condition was last probed.
	LastProbeTime Time `json:"lastProbeTime,omitempty"`
	// LastTransitionTime is when Status last changed.
	LastTransitionTime Time `json:"lastTransitionTime,omitempty"`
	// Reason is a CamelCase reason for the last transition.
	Reason string `json:"reason,omitempty"`
	// Message is a human-readable explanation.
	Message string `json:"message,omitempty"`
}

// PodIP is one IP address of a pod.
type PodIP struct {
	// IP is the address.
	IP string `json:"ip"`
}

// HostIP is one IP address of a pod's node.
type HostIP struct {
	// IP is the address.
	IP string `json:"ip"`
}

// ContainerStatus is the observed state of one container.
type ContainerStatus struct {
	// Name of the container.
	Name string `json:"name"`
	// State is the current state.
	State ContainerState `json:"state,omitempty"`
	// LastTerminationState is the previous termination, if any.
	LastTerminationState ContainerState `json:"lastState,omitempty"`
	// Ready reports whether the readiness probe passes.
	Ready bool `json:"ready"`
	// RestartCount counts restarts of the container.
	RestartCount int32 `json:"restartCount"`
	// Image is the image the container runs.
	Image string `json:"image"`
	// ImageID is the image's digest reference.
	ImageID string `json:"imageID"`
	// ContainerID is the runtime's ID, "<type>://<id>".
	ContainerID string `json:"containerID,omitempty"`
	// Started reports whether the startup probe passed.
	Started *bool `json:"started,omitempty"`
	// AllocatedResources are the resources allocated by the node.
	AllocatedResources ResourceList `json:"allocatedResources,omitempty"`
	// Resources are the resources actually configured.
	Resources *ResourceRequirements `json:"resources,omitempty"`
	// VolumeMounts statuses are kept opaque.
	VolumeMounts []RawValue `json:"volumeMounts,omitempty"`
	// User identity is kept opaque.
	User *RawValue `json:"user,omitempty"`
	// AllocatedResourcesStatus is kept opaque.
	AllocatedResourcesStatus []RawValue `json:"allocatedResourcesStatus,omitempty"`
	// StopSignal is the signal used to stop the container.
	StopSignal *string `json:"stopSignal,omitempty"`
}

// ContainerState holds exactly one of waiting, running or terminated.
type ContainerState struct {
	// Waiting is set while the container has not started.
	Waiting *ContainerStateWaiting `json:"waiting,omitempty"`
	// Running is set while the container runs.
	Running *ContainerStateRunning `json:"running,omitempty"`
	// Terminated is set after the container exited.
	Terminated *ContainerStateTerminated `json:"terminated,omitempty"`
}

// ContainerStateWaiting describes a container that has not started.
type ContainerStateWaiting struct {
	// Reason, e.g. "ContainerCreating", "ImagePullBackOff", "CrashLoopBackOff".
	Reason string `json:"reason,omitempty"`
	// Message explains the reason.
	Message string `json:"message,omitempty"`
}

// ContainerStateRunning describes a running container.
type ContainerStateRunning struct {
	// StartedAt is when the container last started.
	StartedAt Time `json:"startedAt,omitempty"`
}

// ContainerStateTerminated describes an exited container.
type ContainerStateTerminated struct {
	// ExitCode of the container's process.
	ExitCode int32 `json:"exitCode"`
	// Signal that killed it, if any.
	Signal int32 `json:"signal,omitempty"`
	// Reason, e.g. "Completed", "Error", "OOMKilled".
	Reason string `json:"reason,omitempty"`
	// Message explains the reason.
	Message string `json:"message,omitempty"`
	// StartedAt is when the container started.
	StartedAt Time `json:"startedAt,omitempty"`
	// FinishedAt is when it exited.
	FinishedAt Time `json:"finishedAt,omitempty"`
	// ContainerID of the exited container.
	ContainerID string `json:"containerID,omitempty"`
}

// ---- Binding ----

// Binding is the body of a create on a pod's binding subresource (v1
// Binding, POST pods/<name>/binding): it assigns the pod it names to the
// node Target names. kube-scheduler binds this way (its DefaultBinder);
// the API server sets spec.nodeName and the PodScheduled condition in one
// write (k/k pkg/registry/core/pod/storage/storage.go, BindingREST).
type Binding struct {
	// TypeMeta holds apiVersion (v1) and kind (Binding).
	TypeMeta `json:",inline"`
	// ObjectMeta names the pod (name, namespace); a uid, when set, must
	// be the pod's (a precondition).
	ObjectMeta `json:"metadata,omitempty"`
	// Target is the node the pod is bound to (kind Node, name).
	Target ObjectReference `json:"target"`
}

// DeepCopyInto copies in into out.
func (in *Binding) DeepCopyInto(out *Binding) {
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
}

// DeepCopy returns a deep copy of in.
func (in *Binding) DeepCopy() *Binding {
	if in == nil {
		return nil
	}
	out := new(Binding)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject returns a deep copy of in as an Object.
func (in *Binding) DeepCopyObject() Object {
	if c := in.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// ---- Node ----

// Node is a worker machine.
type Node struct {
	// TypeMeta holds apiVersion and kind.
	TypeMeta `json:",inline"`
	// ObjectMeta is the node's metadata.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the desired state.
	Spec NodeSpec `json:"spec,omitempty"`
	// Status is the observed state, written by the kubelet and node lifecycle.
	Status NodeStatus `json:"status,omitempty"`
}

// NodeSpec is the desired state of a node.
type NodeSpec struct {
	// PodCIDR is the node's pod address range.
	PodCIDR string `json:"podCIDR,omitempty"`
	// PodCIDRs are the node's pod address ranges.
	PodCIDRs []string `json:"podCIDRs,omitempty"`
	// ProviderID is the cloud provider's node ID.
	ProviderID string `json:"providerID,omitempty"`
	// Unschedulable cordons the node.
	Unschedulable bool `json:"unschedulable,omitempty"`
	// Taints repel pods that do not tolerate them.
	Taints []Taint `json:"taints,omitempty"`
	// ConfigSource is deprecated and kept opaque.
	ConfigSource *RawValue `json:"configSource,omitempty"`
	// DoNotUseExternalID is deprecated.
	DoNotUseExternalID string `json:"externalID,omitempty"`
}

// NodePhase is the deprecated lifecycle phase of a node.
type NodePhase string

const (
	// NodePending means the node is not yet configured.
	NodePending NodePhase = "Pending"
	// NodeRunning means the node is configured.
	NodeRunning NodePhase = "Running"
	// NodeTerminated means the node left the cluster.
	NodeTerminated NodePhase = "Terminated"
)

// NodeConditionType names a node condition.
type NodeConditionType string

const (
	// NodeReady means the kubelet is healthy and ready for pods.
	NodeReady NodeConditionType = "Ready"
	// NodeMemoryPressure means memory is low.
	NodeMemoryPressure NodeConditionType = "MemoryPressure"
	// NodeDiskPressure means disk is low.
	NodeDiskPressure NodeConditionType = "DiskPressure"
	// NodePIDPressure means process IDs are low.
	NodePIDPressure NodeConditionType = "PIDPressure"
	// NodeNetworkUnavailable means the network is not configured.
	NodeNetworkUnavailable NodeConditionType = "NetworkUnavailable"
)

// NodeStatus is the observed state of a node.
type NodeStatus struct {
	// Capacity is the node's total resources.
	Capacity ResourceList `json:"capacity,omitempty"`
	// Allocatable is what pods may use; defaults to Capacity.
	Allocatable ResourceList `json:"allocatable,omitempty"`
	// Phase is deprecated.
	Phase NodePhase `json:"phase,omitempty"`
	// Conditions are the node's conditions (Ready, pressures).
	Conditions []NodeCondition `json:"conditions,omitempty"`
	// Addresses are the node's addresses.
	Addresses []NodeAddress `json:"addresses,omitempty"`
	// DaemonEndpoints are kept opaque.
	DaemonEndpoints RawValue `json:"daemonEndpoints,omitempty"`
	// NodeInfo (versions, OS, architecture) is kept opaque.
	NodeInfo RawValue `json:"nodeInfo,omitempty"`
	// Images on the node are kept opaque.
	Images []RawValue `json:"images,omitempty"`
	// VolumesInUse lists attached volumes in use.
	VolumesInUse []string `json:"volumesInUse,omitempty"`
	// VolumesAttached are kept opaque.
	VolumesAttached []RawValue `json:"volumesAttached,omitempty"`
	// Config is deprecated and kept opaque.
	Config *RawValue `json:"config,omitempty"`
	// RuntimeHandlers are kept opaque.
	RuntimeHandlers []RawValue `json:"runtimeHandlers,omitempty"`
	// Features are kept opaque.
	Features *RawValue `json:"features,omitempty"`
}

// NodeCondition is one condition of a node.
type NodeCondition struct {
	// Type of the condition.
	Type NodeConditionType `json:"type"`
	// Status of the condition.
	Status ConditionStatus `json:"status"`
	// LastHeartbeatTime is the kubelet's last report of this condition.
	LastHeartbeatTime Time `json:"lastHeartbeatTime,omitempty"`
	// LastTransitionTime is when Status last changed.
	LastTransitionTime Time `json:"lastTransitionTime,omitempty"`
	// Reason, e.g. "KubeletReady" or "NodeStatusUnknown".
	Reason string `json:"reason,omitempty"`
	// Message, e.g. "Kubelet stopped posting node status.".
	Message string `json:"message,omitempty"`
}

// NodeAddressType is the kind of a node address.
type NodeAddressType string

const (
	// NodeHostName is the node's hostname.
	NodeHostName NodeAddressType = "Hostname"
	// NodeInternalIP is reachable inside the cluster.
	NodeInternalIP NodeAddressType = "InternalIP"
	// NodeExternalIP is reachable from outside.
	NodeExternalIP NodeAddressType = "ExternalIP"
	// NodeInternalDNS resolves inside the cluster.
	NodeInternalDNS NodeAddressType = "InternalDNS"
	// NodeExternalDNS resolves from outside.
	NodeExternalDNS NodeAddressType = "ExternalDNS"
)

// NodeAddress is one address of a node.
type NodeAddress struct {
	// Type of the address.
	Type NodeAddressType `json:"type"`
	// Address text.
	Address string `json:"address"`
}

// ---- Namespace ----

// Namespace scopes names of namespaced objects.
type Namespace struct {
	// TypeMeta holds apiVersion and kind.
	TypeMeta `json:",inline"`
	// ObjectMeta is the namespace's metadata.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the desired state.
	Spec NamespaceSpec `json:"spec,omitempty"`
	// Status is the observed state.
	Status NamespaceStatus `json:"status,omitempty"`
}

// NamespaceSpec is the desired state of a namespace.
type NamespaceSpec struct {
	// Finalizers must be cleared before the namespace is removed.
	Finalizers []string `json:"finalizers,omitempty"`
}

// NamespacePhase is the lifecycle phase of a namespace.
type NamespacePhase string

const (
	// NamespaceActive means the namespace accepts new objects (default).
	NamespaceActive NamespacePhase = "Active"
	// NamespaceTerminating means the namespace is being deleted.
	NamespaceTerminating NamespacePhase = "Terminating"
)

// NamespaceStatus is the observed state of a namespace.
type NamespaceStatus struct {
	// Phase defaults to Active.
	Phase NamespacePhase `json:"phase,omitempty"`
	// Conditions are the namespace's deletion conditions.
	Conditions []NamespaceCondition `json:"conditions,omitempty"`
}

// NamespaceCondition is one condition of a namespace.
type NamespaceCondition struct {
	// Type of the condition, e.g. "NamespaceDeletionContentFailure".
	Type string `json:"type"`
	// Status of the condition.
	Status ConditionStatus `json:"status"`
	// LastTransitionTime is when Status last changed.
	LastTransitionTime Time `json:"lastTransitionTime,omitempty"`
	// Reason for the last transition.
	Reason string `json:"reason,omitempty"`
	// Message explains the condition.
	Message string `json:"message,omitempty"`
}

// ---- Service ----

// Service exposes a set of pods behind one virtual address.
type Service struct {
	// TypeMeta holds apiVersion and kind.
	TypeMeta `json:",inline"`
	// ObjectMeta is the service's metadata.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the desired state.
	Spec ServiceSpec `json:"spec,omitempty"`
	// Status is the observed state.
	Status ServiceStatus `json:"status,omitempty"`
}

// ServiceType says how a service is exposed.
type ServiceType string

const (
	// ServiceTypeClusterIP exposes a cluster-internal IP (default).
	ServiceTypeClusterIP ServiceType = "ClusterIP"
	// ServiceTypeNodePort also exposes a port on every node.
	ServiceTypeNodePort ServiceType = "NodePort"
	// ServiceTypeLoadBalancer also provisions an external load balancer.
	ServiceTypeLoadBalancer ServiceType = "LoadBalancer"
	// ServiceTypeExternalName is a DNS alias.
	ServiceTypeExternalName ServiceType = "ExternalName"
)

// ServiceAffinity is a service's session affinity.
type ServiceAffinity string

const (
	// ServiceAffinityNone spreads connections (default).
	ServiceAffinityNone ServiceAffinity = "None"
	// ServiceAffinityClientIP pins a client IP to one endpoint.
	ServiceAffinityClientIP ServiceAffinity = "ClientIP"
)

// DefaultClientIPServiceAffinitySeconds is the ClientIP affinity timeout
// default: 10800 seconds (3 hours).
const DefaultClientIPServiceAffinitySeconds int32 = 10800

// ServiceTrafficPolicy says whether traffic may leave the receiving node.
type ServiceTrafficPolicy string

const (
	// ServiceTrafficPolicyCluster routes to any ready endpoint (default).
	ServiceTrafficPolicyCluster ServiceTrafficPolicy = "Cluster"
	// ServiceTrafficPolicyLocal routes only to endpoints on the same node.
	ServiceTrafficPolicyLocal ServiceTrafficPolicy = "Local"
)

// IPFamily is an IP family of a service.
type IPFamily string

const (
	// IPv4Protocol is IPv4.
	IPv4Protocol IPFamily = "IPv4"
	// IPv6Protocol is IPv6.
	IPv6Protocol IPFamily = "IPv6"
)

// IPFamilyPolicy says how many IP families a service gets.
type IPFamilyPolicy string

const (
	// IPFamilyPolicySingleStack assigns one family.
	IPFamilyPolicySingleStack IPFamilyPolicy = "SingleStack"
	// IPFamilyPolicyPreferDualStack assigns two families when available.
	IPFamilyPolicyPreferDualStack IPFamilyPolicy = "PreferDualStack"
	// IPFamilyPolicyRequireDualStack requires two families.
	IPFamilyPolicyRequireDualStack IPFamilyPolicy = "RequireDualStack"
)

// ServiceSpec is the desired state of a service.
type ServiceSpec struct {
	// Ports the service exposes.
	Ports []ServicePort `json:"ports,omitempty"`
	// Selector picks the pods behind the service (equality only).
	Selector map[string]string `json:"selector,omitempty"`
	// ClusterIP is allocated by the server unless "None" (headless).
	ClusterIP string `json:"clusterIP,omitempty"`
	// ClusterIPs are the allocated IPs, one per family.
	ClusterIPs []string `json:"clusterIPs,omitempty"`
	// Type defaults to ClusterIP.
	Type ServiceType `json:"type,omitempty"`
	// ExternalIPs also route to the service.
	ExternalIPs []string `json:"externalIPs,omitempty"`
	// SessionAffinity defaults to None.
	SessionAffinity ServiceAffinity `json:"sessionAffinity,omitempty"`
	// LoadBalancerIP is deprecated.
	LoadBalancerIP string `json:"loadBalancerIP,omitempty"`
	// LoadBalancerSourceRanges restrict load balancer clients.
	LoadBalancerSourceRanges []string `json:"loadBalancerSourceRanges,omitempty"`
	// ExternalName is the DNS target of an ExternalName service.
	ExternalName string `json:"externalName,omitempty"`
	// ExternalTrafficPolicy defaults to Cluster for NodePort and LoadBalancer.
	ExternalTrafficPolicy ServiceTrafficPolicy `json:"externalTrafficPolicy,omitempty"`
	// HealthCheckNodePort serves health checks for Local traffic policy.
	HealthCheckNodePort int32 `json:"healthCheckNodePort,omitempty"`
	// PublishNotReadyAddresses includes unready endpoints.
	PublishNotReadyAddresses bool `json:"publishNotReadyAddresses,omitempty"`
	// SessionAffinityConfig holds the ClientIP timeout.
	SessionAffinityConfig *SessionAffinityConfig `json:"sessionAffinityConfig,omitempty"`
	// IPFamilies are the service's IP families.
	IPFamilies []IPFamily `json:"ipFamilies,omitempty"`
	// IPFamilyPolicy says how many families to assign.
	IPFamilyPolicy *IPFamilyPolicy `json:"ipFamilyPolicy,omitempty"`
	// AllocateLoadBalancerNodePorts defaults to true for LoadBalancer.
	AllocateLoadBalancerNodePorts *bool `json:"allocateLoadBalancerNodePorts,omitempty"`
	// LoadBalancerClass selects a load balancer implementation.
	LoadBalancerClass *string `json:"loadBalancerClass,omitempty"`
	// InternalTrafficPolicy defaults to Cluster.
	InternalTrafficPolicy *ServiceTrafficPolicy `json:"internalTrafficPolicy,omitempty"`
	// TrafficDistribution expresses routing preferences, e.g. "PreferClose".
	TrafficDistribution *string `json:"trafficDistribution,omitempty"`
}

// ServicePort is one port of a service.
type ServicePort struct {
	// Name is required when there is more than one port.
	Name string `json:"name,omitempty"`
	// Protocol defaults to TCP.
	Protocol Protocol `json:"protocol,omitempty"`
	// AppProtocol is the application protocol hint.
	AppProtocol *string `json:"appProtocol,omitempty"`
	// Port is the service's port.
	Port int32 `json:"port"`
	// TargetPort is the pods' port number or name; defaults to Port.
	// Tagged omitzero so that an unset target port is not invented as 0
	// when a manifest is re-encoded (upstream would write 0).
	TargetPort IntOrString `json:"targetPort,omitempty,omitzero"`
	// NodePort is allocated for NodePort and LoadBalancer services.
	NodePort int32 `json:"nodePort,omitempty"`
}

// SessionAffinityConfig configures session affinity.
type SessionAffinityConfig struct {
	// ClientIP configures ClientIP affinity.
	ClientIP *ClientIPConfig `json:"clientIP,omitempty"`
}

// ClientIPConfig configures ClientIP affinity.
type ClientIPConfig struct {
	// TimeoutSeconds defaults to 10800.
	TimeoutSeconds *int32 `json:"timeoutSeconds,omitempty"`
}

// ServiceStatus is the observed state of a service.
type ServiceStatus struct {
	// LoadBalancer ingress points are kept opaque.
	LoadBalancer RawValue `json:"loadBalancer,omitempty"`
	// Conditions are kept opaque.
	Conditions []RawValue `json:"conditions,omitempty"`
}

// ---- Endpoints ----

// EndpointsMaxCapacity is the most addresses an Endpoints object holds:
// the endpoints controller truncates a Service's beyond it (upstream's
// maxCapacity), and EndpointSlices hold the rest.
const EndpointsMaxCapacity = 1000

// Endpoints lists the addresses behind a service.
type Endpoints struct {
	// TypeMeta holds apiVersion and kind.
	TypeMeta `json:",inline"`
	// ObjectMeta is the endpoints' metadata; its name is the service's.
	ObjectMeta `json:"metadata,omitempty"`
	// Subsets group addresses sharing ports.
	Subsets []EndpointSubset `json:"subsets,omitempty"`
}

// EndpointSubset is a set of addresses sharing a set of ports.
type EndpointSubset struct {
	// Addresses are ready endpoints.
	Addresses []EndpointAddress `json:"addresses,omitempty"`
	// NotReadyAddresses are endpoints not yet ready.
	NotReadyAddresses []EndpointAddress `json:"notReadyAddresses,omitempty"`
	// Ports the addresses serve.
	Ports []EndpointPort `json:"ports,omitempty"`
}

// EndpointAddress is one endpoint.
type EndpointAddress struct {
	// IP of the endpoint.
	IP string `json:"ip"`
	// Hostname of the endpoint.
	Hostname string `json:"hostname,omitempty"`
	// NodeName hosting the endpoint.
	NodeName *string `json:"nodeName,omitempty"`
	// TargetRef points at the pod.
	TargetRef *ObjectReference `json:"targetRef,omitempty"`
}

// EndpointPort is one port of an endpoint subset.
type EndpointPort struct {
	// Name matches the service port's name.
	Name string `json:"name,omitempty"`
	// Port number.
	Port int32 `json:"port"`
	// Protocol defaults to TCP.
	Protocol Protocol `json:"protocol,omitempty"`
	// AppProtocol is the application protocol hint.
	AppProtocol *string `json:"appProtocol,omitempty"`
}

// ---- Event ----

// Event types.
const (
	// EventTypeNormal is an informational event.
	EventTypeNormal = "Normal"
	// EventTypeWarning reports something that may need attention.
	EventTypeWarning = "Warning"
)

// Event is a core/v1 event about an object ("Scaled up replica set ...").
type Event struct {
	// TypeMeta holds apiVersion and kind.
	TypeMeta `json:",inline"`
	// ObjectMeta is the event's metadata.
	ObjectMeta `json:"metadata"`
	// InvolvedObject is the object the event is about.
	InvolvedObject ObjectReference `json:"involvedObject"`
	// Reason is a CamelCase machine-readable reason, e.g. "ScalingReplicaSet".
	Reason string `json:"reason,omitempty"`
	// Message is the human-readable description.
	Message string `json:"message,omitempty"`
	// Source is the reporting component and host.
	Source EventSource `json:"source,omitempty"`
	// FirstTimestamp is when the event was first recorded.
	FirstTimestamp Time `json:"firstTimestamp,omitempty"`
	// LastTimestamp is when the most recent occurrence was recorded.
	LastTimestamp Time `json:"lastTimestamp,omitempty"`
	// Count of occurrences.
	Count int32 `json:"count,omitempty"`
	// Type is Normal or Warning.
	Type string `json:"type,omitempty"`
	// EventTime is when the event was first observed (microseconds).
	EventTime MicroTime `json:"eventTime,omitempty"`
	// Series describes a repeating event.
	Series *EventSeries `json:"series,omitempty"`
	// Action taken or failed, e.g. "Binding".
	Action string `json:"action,omitempty"`
	// Related is a secondary object.
	Related *ObjectReference `json:"related,omitempty"`
	// ReportingController is the reporting controller's name.
	ReportingController string `json:"reportingComponent"`
	// ReportingInstance is the reporting controller's instance ID.
	ReportingInstance string `json:"reportingInstance"`
}

// EventSource names the component that reported an event.
type EventSource struct {
	// Component, e.g. "default-scheduler" or "deployment-controller".
	Component string `json:"component,omitempty"`
	// Host the component runs on.
	Host string `json:"host,omitempty"`
}

// EventSeries describes a repeating event.
type EventSeries struct {
	// Count of occurrences in the series.
	Count int32 `json:"count,omitempty"`
	// LastObservedTime of the series.
	LastObservedTime MicroTime `json:"lastObservedTime,omitempty"`
}

// ---- ResourceQuota ----

// ResourceQuota limits aggregate resource use in a namespace.
type ResourceQuota struct {
	// TypeMeta holds apiVersion and kind.
	TypeMeta `json:",inline"`
	// ObjectMeta is the quota's metadata.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the desired state.
	Spec ResourceQuotaSpec `json:"spec,omitempty"`
	// Status is the observed usage.
	Status ResourceQuotaStatus `json:"status,omitempty"`
}

// ResourceQuotaScope restricts which objects a quota tracks.
type ResourceQuotaScope string

// ResourceQuotaSpec is the desired state of a quota.
type ResourceQuotaSpec struct {
	// Hard are the enforced limits.
	Hard ResourceList `json:"hard,omitempty"`
	// Scopes restrict the tracked objects, e.g. "NotTerminating".
	Scopes []ResourceQuotaScope `json:"scopes,omitempty"`
	// ScopeSelector restricts the tracked objects by scope expressions;
	// every expression must match, as every scope of Scopes.
	ScopeSelector *ScopeSelector `json:"scopeSelector,omitempty"`
}

// ScopeSelector is a quota's scope expressions.
type ScopeSelector struct {
	// MatchExpressions are ANDed.
	MatchExpressions []ScopedResourceSelectorRequirement `json:"matchExpressions,omitempty"`
}

// ScopedResourceSelectorRequirement is one scope expression: the scope,
// an operator (In, NotIn, Exists, DoesNotExist) and, for In and NotIn,
// values (priority class names for the PriorityClass scope).
type ScopedResourceSelectorRequirement struct {
	// ScopeName is the scope.
	ScopeName ResourceQuotaScope `json:"scopeName"`
	// Operator relates the scope to Values.
	Operator ScopeSelectorOperator `json:"operator"`
	// Values are what In and NotIn compare with.
	Values []string `json:"values,omitempty"`
}

// ScopeSelectorOperator is a scope expression's operator.
type ScopeSelectorOperator string

// The scope selector operators.
const (
	ScopeSelectorOpIn           ScopeSelectorOperator = "In"
	ScopeSelectorOpNotIn        ScopeSelectorOperator = "NotIn"
	ScopeSelectorOpExists       ScopeSelectorOperator = "Exists"
	ScopeSelectorOpDoesNotExist ScopeSelectorOperator = "DoesNotExist"
)

// ResourceQuotaStatus is the observed usage of a quota.
type ResourceQuotaStatus struct {
	// Hard are the enforced limits as last observed.
	Hard ResourceList `json:"hard,omitempty"`
	// Used is the current usage.
	Used ResourceList `json:"used,omitempty"`
}

// ---- ConfigMap ----

// ConfigMap holds configuration data.
type ConfigMap struct {
	// TypeMeta holds apiVersion and kind.
	TypeMeta `json:",inline"`
	// ObjectMeta is the config map's metadata.
	ObjectMeta `json:"metadata,omitempty"`
	// Immutable forbids changes to the data.
	Immutable *bool `json:"immutable,omitempty"`
	// Data holds UTF-8 values.
	Data map[string]string `json:"data,omitempty"`
	// BinaryData holds binary values (base64 in JSON).
	BinaryData map[string][]byte `json:"binaryData,omitempty"`
}

// UpdatePodCondition sets cond in st as Kubernetes' podutil.UpdatePodCondition
// does: the condition replaces the one of its type (or is appended), its
// lastTransitionTime now when it is new or its status changes, kept
// otherwise. It reports whether anything changed: status, reason,
// message, lastProbeTime or lastTransitionTime.
func UpdatePodCondition(st *PodStatus, cond PodCondition, now Time) bool {
	cond.LastTransitionTime = now
	for i := range st.Conditions {
		old := &st.Conditions[i]
		if old.Type != cond.Type {
			continue
		}
		if cond.Status == old.Status {
			cond.LastTransitionTime = old.LastTransitionTime
		}
		same := cond.Status == old.Status && cond.Reason == old.Reason && cond.Message == old.Message &&
			cond.LastProbeTime.Equal(&old.LastProbeTime) && cond.LastTransitionTime.Equal(&old.LastTransitionTime)
		*old = cond
		return !same
	}
	st.Conditions = append(st.Conditions, cond)
	return true
}

// IsPodReady reports whether the pod's Ready condition is True
// (Kubernetes' podutil.IsPodReady): the kubelet's verdict, whatever the
// phase.
func IsPodReady(p *Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == PodReady {
			return c.Status == ConditionTrue
		}
	}
	return false
}
