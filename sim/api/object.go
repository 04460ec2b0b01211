package api

// Object is implemented (with pointer receivers) by every top-level kind.
// GetObjectMeta and GetTypeMeta come from the embedded ObjectMeta and
// TypeMeta.
type Object interface {
	// GetObjectMeta returns the object's own metadata; callers must not
	// mutate a shared object (deep-copy it first).
	GetObjectMeta() *ObjectMeta
	// GetTypeMeta returns the object's own apiVersion and kind.
	GetTypeMeta() *TypeMeta
	// DeepCopyObject returns a fully independent copy.
	DeepCopyObject() Object
}

var (
	_ Object = (*Pod)(nil)
	_ Object = (*Node)(nil)
	_ Object = (*Namespace)(nil)
	_ Object = (*Service)(nil)
	_ Object = (*Endpoints)(nil)
	_ Object = (*Event)(nil)
	_ Object = (*ResourceQuota)(nil)
	_ Object = (*ConfigMap)(nil)
	_ Object = (*Deployment)(nil)
	_ Object = (*ReplicaSet)(nil)
	_ Object = (*DaemonSet)(nil)
	_ Object = (*Lease)(nil)
	_ Object = (*PodDisruptionBudget)(nil)
	_ Object = (*HorizontalPodAutoscaler)(nil)
	_ Object = (*HorizontalPodAutoscalerV1)(nil)
)
