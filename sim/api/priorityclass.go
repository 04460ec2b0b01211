package api

// KindPriorityClass is scheduling.k8s.io/v1 PriorityClass.
var KindPriorityClass = Kind{"scheduling.k8s.io", "PriorityClass"}

// PriorityClass is scheduling.k8s.io/v1 PriorityClass (k8s.io/api
// scheduling/v1 types.go): a cluster-scoped mapping from a class name to
// the integer priority the Priority admission plugin writes into a pod's
// spec.priority, and the preemption policy it writes into
// spec.preemptionPolicy. The scheduler orders its queue by priority and
// preempts lower-priority pods for higher-priority ones.
type PriorityClass struct {
	// TypeMeta holds apiVersion and kind.
	TypeMeta `json:",inline"`
	// ObjectMeta is the class's metadata; the class is not namespaced.
	ObjectMeta `json:"metadata,omitempty"`
	// Value is the priority of the pods of this class; user-defined
	// classes may not exceed HighestUserDefinablePriority (1,000,000,000).
	Value int32 `json:"value"`
	// GlobalDefault makes Value the priority of pods that name no class.
	// If several classes claim it, the one with the lowest value wins.
	GlobalDefault bool `json:"globalDefault,omitempty"`
	// Description says when to use the class.
	Description string `json:"description,omitempty"`
	// PreemptionPolicy is PreemptLowerPriority (the default) or Never.
	PreemptionPolicy *PreemptionPolicy `json:"preemptionPolicy,omitempty"`
}

// DeepCopyObject returns a deep copy of in.
func (in *PriorityClass) DeepCopyObject() Object { return deepCopyReflect(in) }

// SetDefaultsPriorityClass applies scheduling/v1 defaults (k/k
// pkg/apis/scheduling/v1/defaults.go SetDefaults_PriorityClass):
// preemptionPolicy PreemptLowerPriority.
func SetDefaultsPriorityClass(pc *PriorityClass) {
	if pc.PreemptionPolicy == nil {
		p := PreemptLowerPriority
		pc.PreemptionPolicy = &p
	}
}

// Priority facts of k/k pkg/apis/scheduling/types.go.
const (
	// HighestUserDefinablePriority is the largest value a PriorityClass
	// not named system-* may have.
	HighestUserDefinablePriority int32 = 1000000000
	// SystemCriticalPriority is the base of the system classes' values.
	SystemCriticalPriority int32 = 2 * HighestUserDefinablePriority
	// SystemPriorityClassPrefix is the prefix reserved for system classes.
	SystemPriorityClassPrefix = "system-"
	// SystemClusterCritical is the class of cluster-critical add-ons.
	SystemClusterCritical = SystemPriorityClassPrefix + "cluster-critical"
	// SystemNodeCritical is the class of node-critical pods.
	SystemNodeCritical = SystemPriorityClassPrefix + "node-critical"
	// DefaultPriorityWhenNoDefaultClassExists is a pod's priority when it
	// names no class and no class is the global default.
	DefaultPriorityWhenNoDefaultClassExists int32 = 0
)

// SystemPriorityClasses returns the two classes every cluster has
// (k/k pkg/apis/scheduling/types.go systemPriorityClasses):
// system-node-critical (2000001000) and system-cluster-critical
// (2000000000), both PreemptLowerPriority.
func SystemPriorityClasses() []*PriorityClass {
	mk := func(name string, value int32, desc string) *PriorityClass {
		p := PreemptLowerPriority
		return &PriorityClass{
			TypeMeta:   TypeMeta{APIVersion: "scheduling.k8s.io/v1", Kind: "PriorityClass"},
			ObjectMeta: ObjectMeta{Name: name},
			Value:      value, Description: desc, PreemptionPolicy: &p,
		}
	}
	return []*PriorityClass{
		mk(SystemNodeCritical, SystemCriticalPriority+1000, "Used for system critical pods that must not be moved from their current node."),
		mk(SystemClusterCritical, SystemCriticalPriority, "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary."),
	}
}
