package api

// Lease (coordination.k8s.io/v1) is a lock with a holder and a renew time:
// node heartbeats and leader election.
type Lease struct {
	// TypeMeta holds apiVersion and kind.
	TypeMeta `json:",inline"`
	// ObjectMeta is the lease's metadata.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the lease's state.
	Spec LeaseSpec `json:"spec,omitempty"`
}

// LeaseSpec is the state of a lease.
type LeaseSpec struct {
	// HolderIdentity is the current holder.
	HolderIdentity *string `json:"holderIdentity,omitempty"`
	// LeaseDurationSeconds a holder may wait before renewing (kubelet: 40).
	LeaseDurationSeconds *int32 `json:"leaseDurationSeconds,omitempty"`
	// AcquireTime is when the current holder acquired the lease.
	AcquireTime *MicroTime `json:"acquireTime,omitempty"`
	// RenewTime is the holder's last renewal.
	RenewTime *MicroTime `json:"renewTime,omitempty"`
	// LeaseTransitions counts changes of holder.
	LeaseTransitions *int32 `json:"leaseTransitions,omitempty"`
	// Strategy for coordinated leader election, e.g. "OldestEmulationVersion".
	Strategy *string `json:"strategy,omitempty"`
	// PreferredHolder is the holder coordinated election wants next.
	PreferredHolder *string `json:"preferredHolder,omitempty"`
}
