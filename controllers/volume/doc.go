// Package volume is Kubernetes' persistent volume controller
// (kube-controller-manager's "persistentvolume-binder", k/k
// pkg/controller/volume/persistentvolume/pv_controller.go) together with a
// simulated external provisioner (the kubernetes-csi external-provisioner
// sidecar of a CSI driver): it binds PersistentVolumeClaims to
// PersistentVolumes and creates volumes for claims of a StorageClass.
//
// What it ports:
//
//   - a claim without storageClassName gets the default class (the one
//     annotated storageclass.kubernetes.io/is-default-class: "true"), as
//     the DefaultStorageClass admission plugin and the controller's
//     retroactive assignment do;
//   - an unbound claim binds to the smallest Available volume of its class
//     whose access modes and capacity suffice (and, for a claim of a
//     WaitForFirstConsumer class, whose node affinity admits the selected
//     node); binding writes the volume's claimRef and Bound phase, then the
//     claim's volumeName, the pv.kubernetes.io/bind-completed and
//     bound-by-controller annotations and its Bound status with capacity
//     and access modes (bindVolumeToClaim, bindClaimToVolume);
//   - a claim of a WaitForFirstConsumer class waits, with the event
//     WaitForFirstConsumer "waiting for first consumer to be created
//     before binding", until the scheduler annotates it
//     volume.kubernetes.io/selected-node;
//   - otherwise the claim is annotated volume.kubernetes.io/storage-provisioner
//     with its class's provisioner, with the event ExternalProvisioning
//     ("Waiting for a volume to be created either by the external
//     provisioner '<p>' or manually by the system administrator. ..."),
//     and the simulated provisioner creates the volume "pvc-<claim uid>"
//     (events Provisioning and ProvisioningSucceeded from the provisioner):
//     the claim's request and access modes, the class's reclaim policy,
//     pre-bound to the claim. A zonal volume gets node affinity on
//     topology.kubernetes.io/zone: the selected node's zone, else the
//     first zone of the class's allowedTopologies;
//   - a bound claim whose volume is gone is Lost (Warning ClaimLost "Bound
//     claim has lost its PersistentVolume. Data on the volume is lost!");
//   - a volume whose claim is gone is Released, and deleted when its
//     reclaim policy is Delete.
//
// What it leaves out: volume expansion, snapshots and data sources, block
// volumes' attach and mount, access-mode conflicts between pods, storage
// capacity, the Recycle policy, label selectors of claims beyond
// matchLabels, and provisioning time (a volume is created in the sync that
// decides it).
//
// It imports only the API types and the controller runtime; its time is
// the manager's clock.
package volume
