package api

import "reflect"

// The kinds below are stored, validated and listed but not simulated:
// real manifests carry them next to their workloads (an Ingress in front
// of a Service, a NetworkPolicy, the RBAC objects of a ServiceAccount), so
// they load, and the scenario loader warns that nothing acts on them.
// Their types follow k8s.io/api networking/v1 and rbac/v1.

// The kinds stored and not simulated.
var (
	// KindIngress is networking.k8s.io/v1 Ingress.
	KindIngress = Kind{"networking.k8s.io", "Ingress"}
	// KindNetworkPolicy is networking.k8s.io/v1 NetworkPolicy.
	KindNetworkPolicy = Kind{"networking.k8s.io", "NetworkPolicy"}
	// KindRole is rbac.authorization.k8s.io/v1 Role.
	KindRole = Kind{"rbac.authorization.k8s.io", "Role"}
	// KindRoleBinding is rbac.authorization.k8s.io/v1 RoleBinding.
	KindRoleBinding = Kind{"rbac.authorization.k8s.io", "RoleBinding"}
	// KindClusterRole is rbac.authorization.k8s.io/v1 ClusterRole.
	KindClusterRole = Kind{"rbac.authorization.k8s.io", "ClusterRole"}
	// KindClusterRoleBinding is rbac.authorization.k8s.io/v1
	// ClusterRoleBinding.
	KindClusterRoleBinding = Kind{"rbac.authorization.k8s.io", "ClusterRoleBinding"}
)

// Unsimulated reports whether objects of kind k are stored and listed
// but nothing in the simulation acts on them.
func Unsimulated(k Kind) bool {
	switch k {
	case KindIngress, KindNetworkPolicy, KindRole, KindRoleBinding, KindClusterRole, KindClusterRoleBinding:
		return true
	}
	return false
}

// Ingress is networking.k8s.io/v1 Ingress: HTTP routes from outside the
// cluster to Services. Stored, not simulated (no ingress controller).
type Ingress struct {
	// TypeMeta holds apiVersion and kind.
	TypeMeta `json:",inline"`
	// ObjectMeta is the ingress's metadata.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the routes.
	Spec IngressSpec `json:"spec,omitempty"`
	// Status is the load balancer's status, kept opaque.
	Status *RawValue `json:"status,omitempty"`
}

// IngressSpec is an Ingress's routes.
type IngressSpec struct {
	// IngressClassName names the IngressClass (the controller).
	IngressClassName *string `json:"ingressClassName,omitempty"`
	// DefaultBackend takes requests no rule matches.
	DefaultBackend *IngressBackend `json:"defaultBackend,omitempty"`
	// TLS are the TLS hosts and their certificates' Secrets.
	TLS []IngressTLS `json:"tls,omitempty"`
	// Rules are the host and path rules.
	Rules []IngressRule `json:"rules,omitempty"`
}

// IngressBackend is where matched requests go: a Service port or a
// resource.
type IngressBackend struct {
	// Service is a Service and port.
	Service *IngressServiceBackend `json:"service,omitempty"`
	// Resource is another object (kept as a typed local reference).
	Resource *TypedLocalObjectReference `json:"resource,omitempty"`
}

// IngressServiceBackend is a Service and one of its ports.
type IngressServiceBackend struct {
	// Name is the Service's name.
	Name string `json:"name"`
	// Port is the Service's port, by name or number.
	Port ServiceBackendPort `json:"port,omitempty"`
}

// ServiceBackendPort is a Service port by name or by number.
type ServiceBackendPort struct {
	Name   string `json:"name,omitempty"`
	Number int32  `json:"number,omitempty"`
}

// TypedLocalObjectReference names an object in the same namespace.
type TypedLocalObjectReference struct {
	APIGroup *string `json:"apiGroup,omitempty"`
	Kind     string  `json:"kind"`
	Name     string  `json:"name"`
}

// IngressTLS is a set of hosts served with one certificate.
type IngressTLS struct {
	Hosts      []string `json:"hosts,omitempty"`
	SecretName string   `json:"secretName,omitempty"`
}

// IngressRule routes one host's (or every host's) requests.
type IngressRule struct {
	Host string                `json:"host,omitempty"`
	HTTP *HTTPIngressRuleValue `json:"http,omitempty"`
}

// HTTPIngressRuleValue are a rule's paths.
type HTTPIngressRuleValue struct {
	Paths []HTTPIngressPath `json:"paths"`
}

// HTTPIngressPath routes a path to a backend.
type HTTPIngressPath struct {
	// Path is matched as PathType says.
	Path string `json:"path,omitempty"`
	// PathType is Exact, Prefix or ImplementationSpecific (required).
	PathType *string `json:"pathType"`
	// Backend receives the matched requests.
	Backend IngressBackend `json:"backend"`
}

// NetworkPolicy is networking.k8s.io/v1 NetworkPolicy: which traffic
// the selected pods may receive and send. Stored, not simulated (the
// simulated network has no pod traffic).
type NetworkPolicy struct {
	// TypeMeta holds apiVersion and kind.
	TypeMeta `json:",inline"`
	// ObjectMeta is the policy's metadata.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the policy.
	Spec NetworkPolicySpec `json:"spec,omitempty"`
}

// NetworkPolicySpec is a NetworkPolicy's rules.
type NetworkPolicySpec struct {
	// PodSelector selects the pods the policy applies to ({} for all).
	PodSelector LabelSelector `json:"podSelector"`
	// Ingress are the allowed incoming connections.
	Ingress []NetworkPolicyIngressRule `json:"ingress,omitempty"`
	// Egress are the allowed outgoing connections.
	Egress []NetworkPolicyEgressRule `json:"egress,omitempty"`
	// PolicyTypes are Ingress and/or Egress.
	PolicyTypes []string `json:"policyTypes,omitempty"`
}

// NetworkPolicyIngressRule allows traffic from peers to ports.
type NetworkPolicyIngressRule struct {
	Ports []NetworkPolicyPort `json:"ports,omitempty"`
	From  []NetworkPolicyPeer `json:"from,omitempty"`
}

// NetworkPolicyEgressRule allows traffic to peers on ports.
type NetworkPolicyEgressRule struct {
	Ports []NetworkPolicyPort `json:"ports,omitempty"`
	To    []NetworkPolicyPeer `json:"to,omitempty"`
}

// NetworkPolicyPort is a port (or range) and protocol.
type NetworkPolicyPort struct {
	Protocol *string      `json:"protocol,omitempty"`
	Port     *IntOrString `json:"port,omitempty"`
	EndPort  *int32       `json:"endPort,omitempty"`
}

// NetworkPolicyPeer is pods, namespaces or an IP block.
type NetworkPolicyPeer struct {
	PodSelector       *LabelSelector `json:"podSelector,omitempty"`
	NamespaceSelector *LabelSelector `json:"namespaceSelector,omitempty"`
	IPBlock           *IPBlock       `json:"ipBlock,omitempty"`
}

// IPBlock is a CIDR with exceptions.
type IPBlock struct {
	CIDR   string   `json:"cidr"`
	Except []string `json:"except,omitempty"`
}

// PolicyRule is one rule of a Role or ClusterRole.
type PolicyRule struct {
	Verbs           []string `json:"verbs"`
	APIGroups       []string `json:"apiGroups,omitempty"`
	Resources       []string `json:"resources,omitempty"`
	ResourceNames   []string `json:"resourceNames,omitempty"`
	NonResourceURLs []string `json:"nonResourceURLs,omitempty"`
}

// Role is rbac.authorization.k8s.io/v1 Role: permissions in a namespace.
// Stored, not simulated (authorization is the simulator's own rule
// table).
type Role struct {
	// TypeMeta holds apiVersion and kind.
	TypeMeta `json:",inline"`
	// ObjectMeta is the role's metadata.
	ObjectMeta `json:"metadata,omitempty"`
	// Rules are the permissions.
	Rules []PolicyRule `json:"rules,omitempty"`
}

// ClusterRole is rbac.authorization.k8s.io/v1 ClusterRole: permissions
// cluster-wide. Stored, not simulated.
type ClusterRole struct {
	// TypeMeta holds apiVersion and kind.
	TypeMeta `json:",inline"`
	// ObjectMeta is the role's metadata.
	ObjectMeta `json:"metadata,omitempty"`
	// Rules are the permissions.
	Rules []PolicyRule `json:"rules,omitempty"`
	// AggregationRule builds the rules from other ClusterRoles.
	AggregationRule *AggregationRule `json:"aggregationRule,omitempty"`
}

// AggregationRule selects the ClusterRoles whose rules are aggregated.
type AggregationRule struct {
	ClusterRoleSelectors []LabelSelector `json:"clusterRoleSelectors,omitempty"`
}

// Subject is a user, group or ServiceAccount a binding grants to.
type Subject struct {
	Kind      string `json:"kind"`
	APIGroup  string `json:"apiGroup,omitempty"`
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
}

// RoleRef is the role a binding grants.
type RoleRef struct {
	APIGroup string `json:"apiGroup"`
	Kind     string `json:"kind"`
	Name     string `json:"name"`
}

// RoleBinding is rbac.authorization.k8s.io/v1 RoleBinding: a Role or
// ClusterRole granted in a namespace. Stored, not simulated.
type RoleBinding struct {
	// TypeMeta holds apiVersion and kind.
	TypeMeta `json:",inline"`
	// ObjectMeta is the binding's metadata.
	ObjectMeta `json:"metadata,omitempty"`
	// Subjects receive the role.
	Subjects []Subject `json:"subjects,omitempty"`
	// RoleRef is the role.
	RoleRef RoleRef `json:"roleRef"`
}

// ClusterRoleBinding is rbac.authorization.k8s.io/v1 ClusterRoleBinding:
// a ClusterRole granted cluster-wide. Stored, not simulated.
type ClusterRoleBinding struct {
	// TypeMeta holds apiVersion and kind.
	TypeMeta `json:",inline"`
	// ObjectMeta is the binding's metadata.
	ObjectMeta `json:"metadata,omitempty"`
	// Subjects receive the role.
	Subjects []Subject `json:"subjects,omitempty"`
	// RoleRef is the role.
	RoleRef RoleRef `json:"roleRef"`
}

// DeepCopyObject returns a deep copy of in.
func (in *Ingress) DeepCopyObject() Object { return deepCopyReflect(in) }

// DeepCopyObject returns a deep copy of in.
func (in *NetworkPolicy) DeepCopyObject() Object { return deepCopyReflect(in) }

// DeepCopyObject returns a deep copy of in.
func (in *Role) DeepCopyObject() Object { return deepCopyReflect(in) }

// DeepCopyObject returns a deep copy of in.
func (in *ClusterRole) DeepCopyObject() Object { return deepCopyReflect(in) }

// DeepCopyObject returns a deep copy of in.
func (in *RoleBinding) DeepCopyObject() Object { return deepCopyReflect(in) }

// DeepCopyObject returns a deep copy of in.
func (in *ClusterRoleBinding) DeepCopyObject() Object { return deepCopyReflect(in) }

// deepCopyReflect copies an object of a kind that is stored and not
// simulated, or simulated and rarely written (StorageClass, LimitRange,
// PriorityClass, RBAC, Ingress, NetworkPolicy), by walking its value:
// such objects are few, so a generic copy beats hand-written code to
// keep in step. A kind a controller writes as its objects change has a
// typed copy instead (a reflective copy of a CronJob was a fifth of a
// run with fifty of them; docs/PERFORMANCE.md, forty-first pass).
// Nil in, nil out.
func deepCopyReflect[T Object](in T) Object {
	v := reflect.ValueOf(in)
	if v.IsNil() {
		return nil
	}
	out := reflect.New(v.Elem().Type())
	copyValue(out.Elem(), v.Elem())
	return out.Interface().(Object)
}

// copyValue sets dst to a deep copy of src (of the same type). Unexported
// struct fields are copied by value: the types it serves hold them only
// in value types (Time, Quantity) that are never mutated in place.
func copyValue(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		p := reflect.New(src.Elem().Type())
		copyValue(p.Elem(), src.Elem())
		dst.Set(p)
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		s := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
		for i := range src.Len() {
			copyValue(s.Index(i), src.Index(i))
		}
		dst.Set(s)
	case reflect.Map:
		if src.IsNil() {
			return
		}
		m := reflect.MakeMapWithSize(src.Type(), src.Len())
		for it := src.MapRange(); it.Next(); {
			e := reflect.New(src.Type().Elem()).Elem()
			copyValue(e, it.Value())
			m.SetMapIndex(it.Key(), e)
		}
		dst.Set(m)
	case reflect.Struct:
		dst.Set(src)
		for i := range src.NumField() {
			if src.Type().Field(i).IsExported() {
				copyValue(dst.Field(i), src.Field(i))
			}
		}
	default:
		dst.Set(src)
	}
}

// SetDefaultsNetworkPolicy applies networking/v1 defaults
// (SetDefaults_NetworkPolicy, SetDefaults_NetworkPolicyPort): policyTypes
// [Ingress] when none are given, plus Egress when there are egress rules;
// a port's protocol TCP.
func SetDefaultsNetworkPolicy(p *NetworkPolicy) {
	s := &p.Spec
	if len(s.PolicyTypes) == 0 {
		s.PolicyTypes = []string{"Ingress"}
		if len(s.Egress) > 0 {
			s.PolicyTypes = append(s.PolicyTypes, "Egress")
		}
	}
	tcp := func(ports []NetworkPolicyPort) {
		for i := range ports {
			if ports[i].Protocol == nil {
				v := string(ProtocolTCP)
				ports[i].Protocol = &v
			}
		}
	}
	for i := range s.Ingress {
		tcp(s.Ingress[i].Ports)
	}
	for i := range s.Egress {
		tcp(s.Egress[i].Ports)
	}
}

// setDefaultsBinding applies rbac/v1 defaults to a binding
// (SetDefaults_RoleBinding, SetDefaults_ClusterRoleBinding,
// SetDefaults_Subject): roleRef.apiGroup rbac.authorization.k8s.io, and
// a User or Group subject's apiGroup the same.
func setDefaultsBinding(ref *RoleRef, subjects []Subject) {
	const group = "rbac.authorization.k8s.io"
	if ref.APIGroup == "" {
		ref.APIGroup = group
	}
	for i := range subjects {
		if s := &subjects[i]; s.APIGroup == "" && (s.Kind == "User" || s.Kind == "Group") {
			s.APIGroup = group
		}
	}
}
