package api

// NodeConditionsPatch is a strategic merge patch of a Node's
// status.conditions and nothing else, the patch a kubelet sends nearly
// every time: the kubelet makes it without JSON maps and the API server
// applies it to the typed Node.
type NodeConditionsPatch struct {
	Status *NodeConditionsPatchStatus `json:"status"`
}

// NodeConditionsPatchStatus is the status of a NodeConditionsPatch: the
// changed conditions and the order of them all.
type NodeConditionsPatchStatus struct {
	// Order is the "$setElementOrder/conditions" directive: every
	// condition's type, in the new order.
	Order []NodeConditionPatch `json:"$setElementOrder/conditions,omitempty"`
	// Conditions are the changed, new and deleted conditions.
	Conditions []NodeConditionPatch `json:"conditions,omitempty"`
}

// NodeConditionPatch is one element of a conditions patch: its merge key,
// the fields it sets (nil: left as they are), or, with Patch "delete", a
// deletion.
type NodeConditionPatch struct {
	Type               NodeConditionType `json:"type"`
	Status             *ConditionStatus  `json:"status,omitempty"`
	LastHeartbeatTime  *Time             `json:"lastHeartbeatTime,omitempty"`
	LastTransitionTime *Time             `json:"lastTransitionTime,omitempty"`
	Reason             *string           `json:"reason,omitempty"`
	Message            *string           `json:"message,omitempty"`
	Patch              string            `json:"$patch,omitempty"`
}
