package api

// ---- Deployment (apps/v1) ----

// Deployment declares a replicated, rolling-updated set of pods.
type Deployment struct {
	// TypeMeta holds apiVersion and kind.
	TypeMeta `json:",inline"`
	// ObjectMeta is the deployment's metadata.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the desired state.
	Spec DeploymentSpec `json:"spec,omitempty"`
	// Status is the observed state, written by the deployment controller.
	Status DeploymentStatus `json:"status,omitempty"`
}

// DeploymentSpec is the desired state of a deployment.
type DeploymentSpec struct {
	// Replicas is the desired pod count; defaults to 1. Leave it unset in
	// manifests when an HPA owns the scale.
	Replicas *int32 `json:"replicas,omitempty"`
	// Selector must match the template's labels.
	Selector *LabelSelector `json:"selector"`
	// Template is the pod template of every ReplicaSet.
	Template PodTemplateSpec `json:"template"`
	// Strategy is how old pods are replaced; defaults to RollingUpdate
	// with 25% max unavailable and 25% max surge.
	Strategy DeploymentStrategy `json:"strategy,omitempty"`
	// MinReadySeconds a pod must be ready to count as available.
	MinReadySeconds int32 `json:"minReadySeconds,omitempty"`
	// RevisionHistoryLimit is how many old ReplicaSets to keep; defaults to 10.
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty"`
	// Paused stops rollouts (scaling still happens).
	Paused bool `json:"paused,omitempty"`
	// ProgressDeadlineSeconds before Progressing turns False; defaults to 600.
	ProgressDeadlineSeconds *int32 `json:"progressDeadlineSeconds,omitempty"`
}

// DeploymentStrategyType names a deployment strategy.
type DeploymentStrategyType string

const (
	// RecreateDeploymentStrategyType kills all old pods before creating new ones.
	RecreateDeploymentStrategyType DeploymentStrategyType = "Recreate"
	// RollingUpdateDeploymentStrategyType replaces pods gradually (default).
	RollingUpdateDeploymentStrategyType DeploymentStrategyType = "RollingUpdate"
)

// DeploymentStrategy is how a deployment replaces pods.
type DeploymentStrategy struct {
	// Type defaults to RollingUpdate.
	Type DeploymentStrategyType `json:"type,omitempty"`
	// RollingUpdate parameters; only with Type RollingUpdate.
	RollingUpdate *RollingUpdateDeployment `json:"rollingUpdate,omitempty"`
}

// RollingUpdateDeployment bounds a rolling update.
type RollingUpdateDeployment struct {
	// MaxUnavailable pods below the desired count (int or percent, rounded
	// down); defaults to "25%".
	MaxUnavailable *IntOrString `json:"maxUnavailable,omitempty"`
	// MaxSurge pods above the desired count (int or percent, rounded up);
	// defaults to "25%".
	MaxSurge *IntOrString `json:"maxSurge,omitempty"`
}

// DeploymentStatus is the observed state of a deployment.
type DeploymentStatus struct {
	// ObservedGeneration is the generation the controller last acted on.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Replicas counts non-terminating pods of all ReplicaSets.
	Replicas int32 `json:"replicas,omitempty"`
	// UpdatedReplicas counts pods of the new ReplicaSet.
	UpdatedReplicas int32 `json:"updatedReplicas,omitempty"`
	// ReadyReplicas counts ready pods.
	ReadyReplicas int32 `json:"readyReplicas,omitempty"`
	// AvailableReplicas counts pods ready for at least minReadySeconds.
	AvailableReplicas int32 `json:"availableReplicas,omitempty"`
	// UnavailableReplicas is desired minus available (not below 0).
	UnavailableReplicas int32 `json:"unavailableReplicas,omitempty"`
	// TerminatingReplicas counts pods with a deletionTimestamp.
	TerminatingReplicas *int32 `json:"terminatingReplicas,omitempty"`
	// Conditions are Available, Progressing and ReplicaFailure.
	Conditions []DeploymentCondition `json:"conditions,omitempty"`
	// CollisionCount disambiguates template-hash collisions.
	CollisionCount *int32 `json:"collisionCount,omitempty"`
}

// DeploymentConditionType names a deployment condition.
type DeploymentConditionType string

const (
	// DeploymentAvailable means at least replicas-maxUnavailable pods are available.
	DeploymentAvailable DeploymentConditionType = "Available"
	// DeploymentProgressing means the rollout progresses or completed.
	DeploymentProgressing DeploymentConditionType = "Progressing"
	// DeploymentReplicaFailure means a ReplicaSet could not create or delete pods.
	DeploymentReplicaFailure DeploymentConditionType = "ReplicaFailure"
)

// DeploymentCondition is one condition of a deployment.
type DeploymentCondition struct {
	// Type of the condition.
	Type DeploymentConditionType `json:"type"`
	// Status of the condition.
	Status ConditionStatus `json:"status"`
	// LastUpdateTime is refreshed on any progress.
	LastUpdateTime Time `json:"lastUpdateTime,omitempty"`
	// LastTransitionTime is when Status last changed.
	LastTransitionTime Time `json:"lastTransitionTime,omitempty"`
	// Reason, e.g. "NewReplicaSetAvailable".
	Reason string `json:"reason,omitempty"`
	// Message, e.g. `ReplicaSet "web-5d4c" has successfully progressed.`.
	Message string `json:"message,omitempty"`
}

// ---- ReplicaSet (apps/v1) ----

// ReplicaSet keeps a number of identical pods running.
type ReplicaSet struct {
	// TypeMeta holds apiVersion and kind.
	TypeMeta `json:",inline"`
	// ObjectMeta is the replica set's metadata.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the desired state.
	Spec ReplicaSetSpec `json:"spec,omitempty"`
	// Status is the observed state, written by the replica set controller.
	Status ReplicaSetStatus `json:"status,omitempty"`
}

// ReplicaSetSpec is the desired state of a replica set.
type ReplicaSetSpec struct {
	// Replicas is the desired pod count; defaults to 1.
	Replicas *int32 `json:"replicas,omitempty"`
	// MinReadySeconds a pod must be ready to count as available.
	MinReadySeconds int32 `json:"minReadySeconds,omitempty"`
	// Selector must match the template's labels.
	Selector *LabelSelector `json:"selector"`
	// Template is the pod template of created pods.
	Template PodTemplateSpec `json:"template,omitempty"`
}

// ReplicaSetStatus is the observed state of a replica set.
type ReplicaSetStatus struct {
	// Replicas counts non-terminating pods. Like upstream it is always
	// written, so a manifest without status re-encodes with
	// "status: {replicas: 0}", as kubectl prints it.
	Replicas int32 `json:"replicas"`
	// FullyLabeledReplicas counts pods whose labels match the template's.
	FullyLabeledReplicas int32 `json:"fullyLabeledReplicas,omitempty"`
	// ReadyReplicas counts ready pods.
	ReadyReplicas int32 `json:"readyReplicas,omitempty"`
	// AvailableReplicas counts pods ready for at least minReadySeconds.
	AvailableReplicas int32 `json:"availableReplicas,omitempty"`
	// TerminatingReplicas counts pods with a deletionTimestamp.
	TerminatingReplicas *int32 `json:"terminatingReplicas,omitempty"`
	// ObservedGeneration is the generation the controller last acted on.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Conditions are ReplicaFailure.
	Conditions []ReplicaSetCondition `json:"conditions,omitempty"`
}

// ReplicaSetConditionType names a replica set condition.
type ReplicaSetConditionType string

// ReplicaSetReplicaFailure means pods could not be created or deleted
// (reason FailedCreate or FailedDelete).
const ReplicaSetReplicaFailure ReplicaSetConditionType = "ReplicaFailure"

// ReplicaSetCondition is one condition of a replica set.
type ReplicaSetCondition struct {
	// Type of the condition.
	Type ReplicaSetConditionType `json:"type"`
	// Status of the condition.
	Status ConditionStatus `json:"status"`
	// LastTransitionTime is when Status last changed.
	LastTransitionTime Time `json:"lastTransitionTime,omitempty"`
	// Reason, e.g. "FailedCreate".
	Reason string `json:"reason,omitempty"`
	// Message is the error text.
	Message string `json:"message,omitempty"`
}
