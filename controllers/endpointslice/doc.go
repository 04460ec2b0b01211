// Package endpointslice is Kubernetes' EndpointSlice controller
// (kube-controller-manager's "endpointslice-controller", k/k
// pkg/controller/endpointslice with the reconciler of
// staging/src/k8s.io/endpointslice): for every Service with a selector it
// keeps EndpointSlices (discovery.k8s.io/v1) beside the Endpoints of
// controllers/endpoints.
//
// What it ports, after upstream:
//
//   - one set of slices per address type of the service (its IP
//     families), named <service>-<suffix> through generateName (the API
//     server draws the suffix from the kernel's random stream), labelled
//     kubernetes.io/service-name and endpointslice.kubernetes.io/managed-by:
//     endpointslice-controller.k8s.io plus the service's labels (and
//     service.kubernetes.io/headless for a headless service), owned by the
//     service (a controller reference the garbage collector follows);
//   - endpoints (podToEndpoint): the pod's addresses of the slice's
//     type, conditions serving (pod ready), terminating (pod being
//     deleted) and ready (serving and not terminating, or the service
//     publishes not-ready addresses), nodeName, the node's
//     topology.kubernetes.io/zone, a targetRef to the pod, and the hostname
//     when the pod's subdomain is the service; terminating pods stay in
//     the slice until they are gone;
//   - ports (getEndpointPorts): slices group endpoints that serve the
//     same resolved ports;
//   - reconcileByPortMapping: existing slices keep their endpoints in
//     place, lose the gone ones (an emptied slice is deleted) and are
//     updated only when something changed; new endpoints fill updated
//     slices first, then the unchanged slice they fit best, then new
//     slices of at most maxEndpointsPerSlice (default 100); a service
//     without endpoints keeps one placeholder slice; creates that
//     coincide with deletes become updates (finalize);
//   - no creates for a service being deleted; a Warning event
//     FailedToUpdateEndpointSlices when a write fails.
//   - --endpointslice-updates-batch-period (Options.UpdatesBatchPeriod,
//     a scenario's updatesBatchPeriod): a pod's change queues its
//     Services that much later, batching their other pods' changes.
//   - the EndpointSliceTracker (tracker.go): the generation of each slice
//     the controller wrote, so that a managed slice someone else made,
//     changed or deleted syncs its Service again after
//     endpointSliceChangeMinSyncDelay (1s, or the batch period when
//     longer), its own writes' events do not, and a sync whose cache is
//     behind its own writes fails with ErrStaleCache and is retried
//     after the queue's backoff (RetryLimits: 1s doubling up to 1000s).
//
// Deviations: new endpoints are added in pod name order (upstream pops
// them from a hash set); the simulator allocates no cluster IPs, so a service without
// one and without IP families gets IPv4 slices; topology hints, traffic
// distribution and the last-change-trigger-time annotation are not
// written; a pod whose node is unknown is left out until the next sync
// (upstream also requeues the service).
//
// Imports: api, apierr, client, informer, controller and
// controllers/endpoints (ShouldPodBeInEndpoints, FindPort).
//
// Determinism contract: no wall clock, no goroutines, no randomness of
// its own. Pods, services and slices come from informer listers in
// namespace/name order; maps are only looked up, never iterated into an
// output (the tracker's staleness check counts over one: any order gives
// the same count).
package endpointslice
