// Package endpoints is Kubernetes' Endpoints controller
// (kube-controller-manager's "endpoint-controller", k/k
// pkg/controller/endpoint): for every Service with a selector it keeps an
// Endpoints object of the same name listing the IP of every selected pod,
// ready pods under addresses and the others under notReadyAddresses, with
// the service's ports resolved against each pod (a numeric targetPort as
// is, a named one through the pod's container ports).
//
// What it ports, after upstream:
//
//   - which pods count (ShouldPodBeInEndpoints): not terminal, with an IP,
//     and not terminating unless the service publishes not-ready
//     addresses, which also puts every counted pod under addresses;
//   - the address (podToEndpointAddressForService): the pod IP of the
//     service's IP family, the node name, a targetRef to the pod, and the
//     pod's hostname when its subdomain is the service's name;
//   - ports (FindPort): a named targetPort that a pod does not declare
//     leaves that port out for that pod; a service without ports
//     publishes addresses only when it is headless;
//   - packing (RepackSubsets): addresses that serve the same set of ports
//     with the same readiness share one subset; not ready wins over ready
//     for an address seen twice;
//   - capacity: more than 1000 addresses are truncated, ready ones kept
//     first, with the annotation endpoints.kubernetes.io/over-capacity:
//     truncated;
//   - labels: the service's, plus service.kubernetes.io/headless for a
//     headless service;
//   - writes only when the subsets, labels or capacity annotation differ,
//     Warning events FailedToCreateEndpoint and FailedToUpdateEndpoint,
//     deletion of the Endpoints when the service is gone, and re-creation
//     when someone deletes them.
//   - --endpoint-updates-batch-period (Options.UpdatesBatchPeriod, a
//     scenario's updatesBatchPeriod): a pod's change queues its Services
//     that much later, batching their other pods' changes into one sync.
//   - the staleEndpointsTracker: after an update, a sync that still finds
//     the resourceVersion it replaced in its cache fails ("endpoints
//     informer cache is out of date, resource version N already processed
//     for endpoints ns/name") and is retried, rather than writing over it
//     to a conflict.
//
// Deviations: upstream sorts ports and subsets by an md5 of their
// contents; here ports sort by name, number and protocol, and subsets by
// their ports and then their first address, which is deterministic and
// reads naturally but may order several subsets differently. The
// endpoints.kubernetes.io/last-change-trigger-time annotation is not
// written.
//
// Imports: api, apierr, client, informer and controller only.
//
// Determinism contract: no wall clock, no goroutines, no randomness.
// Pods and services come from informer listers in namespace/name order;
// the packing groups addresses in maps but sorts every output list, so
// map iteration never reaches an object or an event.
package endpoints
