// Package hpa is Kubernetes' HorizontalPodAutoscaler controller
// (kube-controller-manager's "horizontal-pod-autoscaler", k/k
// pkg/controller/podautoscaler) for resource metrics: every sync period
// (15s) it reads each autoscaler's scale target (a Deployment or a
// ReplicaSet), asks a MetricsClient for the CPU usage of the target's
// pods, computes the desired replica count with upstream's algorithm, and
// writes it to the target's spec.replicas, reporting what it saw in the
// autoscaler's status and events.
//
// What it ports, after upstream:
//
//   - the replica calculator (replica_calculator.go): pods grouped into
//     ready, unready (pending, or CPU samples taken too early: the 5 minute
//     CPU initialization period and 30s initial readiness delay), missing
//     (no sample) and ignored (terminating or failed); utilization =
//     Σusage·100/Σrequests truncated to a whole percent; no change within
//     the tolerance (10%); missing pods count as 100% (or the target, if
//     higher) on a scale-down and 0% on a scale-up, unready pods as 0% on a
//     scale-up, and a re-computation that would reverse the direction
//     keeps the current count;
//   - normalization without spec.behavior: the highest recommendation of
//     the last 5 minutes (downscale stabilization), then at most
//     max(2×current, 4) replicas and the min/max bounds, with the
//     ScalingLimited reasons ScaleUpLimit, TooManyReplicas, TooFewReplicas
//     and DesiredWithinRange;
//   - normalization with spec.behavior: per-direction stabilization windows
//     over the recorded recommendations, scale-up and scale-down policies
//     (Pods and Percent per period, combined by selectPolicy Max, Min or
//     Disabled) over the scale events of each period, and per-direction
//     tolerances (behavior.scaleUp/scaleDown.tolerance);
//   - conditions AbleToScale, ScalingActive and ScalingLimited with
//     upstream's reasons and messages, status currentReplicas,
//     desiredReplicas, currentMetrics and lastScaleTime, and the events
//     SuccessfulRescale, FailedRescale, FailedGetScale,
//     FailedGetResourceMetric, FailedComputeMetricsReplicas and
//     FailedUpdateStatus;
//   - the queue: an autoscaler is synced once per sync period, starting one
//     period after it is first seen, errors included (upstream's fixed-
//     interval rate limiter).
//
// The simulated API server has no scale subresource: the scale is read
// with a Get of the target and written with an Update of its
// spec.replicas, carrying the resourceVersion read, so a write racing the
// deployment controller's fails with a Conflict as a scale update would.
// Only Resource metrics for cpu are served (the simulated metrics API
// models CPU); other metric types fail as they do on a cluster without a
// custom or external metrics adapter.
//
// Imports: api, apierr, client, informer, workqueue and controller only.
// Metrics come through the MetricsClient interface this package defines
// (sim/metrics.Source implements it), never from the store.
//
// Determinism contract: no wall clock (time comes from the manager's
// Clock), no goroutines, no randomness. Recommendations and scale events
// are kept per autoscaler in slices in arrival order; maps are only read
// by key or summed, so iteration order never decides an outcome.
package hpa
