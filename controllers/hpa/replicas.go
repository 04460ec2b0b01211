package hpa

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// Errors of the replica calculation, with upstream's texts (they appear in
// conditions and events).
var (
	// ErrNoPods: the target's selector matches no pod.
	ErrNoPods = errors.New("no pods returned by selector while calculating replica count")
	// ErrNoReadyMetrics: every pod with a sample was unready or ignored.
	ErrNoReadyMetrics = errors.New("did not receive metrics for targeted pods (pods might be unready)")
	// ErrNoMatchingMetrics: no sample belongs to a pod with a request.
	ErrNoMatchingMetrics = errors.New("no metrics returned matched known pods")
	// ErrNoMetrics: the metrics API returned no sample at all.
	ErrNoMetrics = errors.New("no metrics returned from resource metrics API")
	// ErrNoMetricsAPI: no metrics API is installed (Options.Metrics is
	// nil), as on a cluster without metrics-server.
	ErrNoMetricsAPI = errors.New("the server could not find the requested resource (get pods.metrics.k8s.io)")
)

// MissingRequestError is a pod container without a request for the
// metric's resource: utilization cannot be computed.
type MissingRequestError struct {
	// Resource is the metric's resource, e.g. cpu.
	Resource api.ResourceName
	// Container and Pod name the container without a request.
	Container, Pod string
}

// Error returns upstream's "missing request for cpu in container c of Pod p".
func (e *MissingRequestError) Error() string {
	return fmt.Sprintf("missing request for %s in container %s of Pod %s", e.Resource, e.Container, e.Pod)
}

// podMetric is one pod's sample (upstream's metricsclient.PodMetric).
type podMetric struct {
	timestamp time.Time
	window    time.Duration
	value     int64
}

// podMetrics maps pod names to samples (metricsclient.PodMetricsInfo).
type podMetrics map[string]podMetric

// tolerances are the ratios around 1 within which no scaling happens, one
// per direction (upstream's Tolerances).
type tolerances struct {
	down, up float64
}

// within reports whether usageRatio is too close to 1 to act on.
func (t tolerances) within(usageRatio float64) bool {
	return 1.0-t.down <= usageRatio && usageRatio <= 1.0+t.up
}

// calculator holds the replica calculation's timing knobs (upstream's
// ReplicaCalculator without the clients: pods and samples are passed in).
type calculator struct {
	cpuInitializationPeriod time.Duration
	initialReadinessDelay   time.Duration
}

type nameSet map[string]bool

// podCondition returns p's condition of type t, or nil.
func podCondition(p *api.Pod, t api.PodConditionType) *api.PodCondition {
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == t {
			return &p.Status.Conditions[i]
		}
	}
	return nil
}

// groupPods sorts pods into ready ones (counted), unready ones (pending,
// or cpu samples not to be trusted yet), missing ones (no sample) and
// ignored ones (terminating or failed), as upstream's groupPods.
func (c calculator) groupPods(pods []*api.Pod, metrics podMetrics, resource api.ResourceName, now time.Time) (ready int, unready, missing, ignored nameSet) {
	unready, missing, ignored = nameSet{}, nameSet{}, nameSet{}
	for _, p := range pods {
		if p.DeletionTimestamp != nil || p.Status.Phase == api.PodFailed {
			ignored[p.Name] = true
			continue
		}
		if p.Status.Phase == api.PodPending {
			unready[p.Name] = true
			continue
		}
		m, found := metrics[p.Name]
		if !found {
			missing[p.Name] = true
			continue
		}
		if resource == api.ResourceCPU {
			var notReady bool
			cond := podCondition(p, api.PodReady)
			if cond == nil || p.Status.StartTime == nil {
				notReady = true
			} else if p.Status.StartTime.Add(c.cpuInitializationPeriod).After(now) {
				// Still initializing: ignore the sample if the pod is
				// unready or no full window was collected since its last
				// readiness transition.
				notReady = cond.Status == api.ConditionFalse || m.timestamp.Before(cond.LastTransitionTime.Add(m.window))
			} else {
				// Ignore the sample of a pod that is unready and has never
				// been ready.
				notReady = cond.Status == api.ConditionFalse && p.Status.StartTime.Add(c.initialReadinessDelay).After(cond.LastTransitionTime.Time)
			}
			if notReady {
				unready[p.Name] = true
				continue
			}
		}
		ready++
	}
	return ready, unready, missing, ignored
}

// podRequest returns a pod's request for resource: its pod-level request
// when it has one (PodLevelResources), else the sum over its containers
// and restartable (sidecar) init containers, each of which must have one.
func podRequest(p *api.Pod, resource api.ResourceName) (int64, error) {
	if r := p.Spec.Resources; r != nil && len(r.Requests) > 0 {
		if q, ok := r.Requests[resource]; ok {
			return q.MilliValue(), nil
		}
	}
	containers := make([]*api.Container, 0, len(p.Spec.Containers))
	for i := range p.Spec.Containers {
		containers = append(containers, &p.Spec.Containers[i])
	}
	for i := range p.Spec.InitContainers {
		c := &p.Spec.InitContainers[i]
		if c.RestartPolicy != nil && *c.RestartPolicy == api.ContainerRestartPolicyAlways {
			containers = append(containers, c)
		}
	}
	var sum int64
	for _, c := range containers {
		q, ok := c.Resources.Requests[resource]
		if !ok {
			return 0, &MissingRequestError{Resource: resource, Container: c.Name, Pod: p.Name}
		}
		sum += q.MilliValue()
	}
	return sum, nil
}

func podRequests(pods []*api.Pod, resource api.ResourceName) (map[string]int64, error) {
	out := make(map[string]int64, len(pods))
	for _, p := range pods {
		r, err := podRequest(p, resource)
		if err != nil {
			return nil, err
		}
		out[p.Name] = r
	}
	return out, nil
}

func removeMetrics(metrics podMetrics, pods nameSet) {
	for name := range pods {
		delete(metrics, name)
	}
}

// utilizationRatio is upstream's GetResourceUtilizationRatio: the summed
// usage over the summed requests of the pods with both, as a whole
// percentage (truncated), divided by the target; and the average raw
// usage. Sums do not depend on map order.
func utilizationRatio(metrics podMetrics, requests map[string]int64, target int32) (ratio float64, utilization int32, raw int64, err error) {
	var metricsTotal, requestsTotal int64
	entries := 0
	for name, m := range metrics {
		req, ok := requests[name]
		if !ok {
			continue // an extraneous sample: missing requests are checked elsewhere
		}
		metricsTotal += m.value
		requestsTotal += req
		entries++
	}
	if requestsTotal == 0 {
		return 0, 0, 0, ErrNoMatchingMetrics
	}
	utilization = int32(metricsTotal * 100 / requestsTotal)
	return float64(utilization) / float64(target), utilization, metricsTotal / int64(entries), nil
}

// usageRatio is upstream's GetMetricUsageRatio: the average sample over
// the target.
func usageRatio(metrics podMetrics, target int64) (ratio float64, usage int64) {
	var total int64
	for _, m := range metrics {
		total += m.value
	}
	usage = total / int64(len(metrics))
	return float64(usage) / float64(target), usage
}

// resourceReplicas is upstream's GetResourceReplicas for a utilization
// target: the replica count, the current utilization (percent of
// request) and the average raw usage.
func (c calculator) resourceReplicas(pods []*api.Pod, metrics podMetrics, currentReplicas, target int32, resource api.ResourceName, tol tolerances, now time.Time) (replicas, utilization int32, raw int64, err error) {
	if len(pods) == 0 {
		return 0, 0, 0, ErrNoPods
	}
	readyCount, unready, missing, ignored := c.groupPods(pods, metrics, resource, now)
	removeMetrics(metrics, ignored)
	removeMetrics(metrics, unready)
	if len(metrics) == 0 {
		return 0, 0, 0, ErrNoReadyMetrics
	}
	requests, err := podRequests(pods, resource)
	if err != nil {
		return 0, 0, 0, err
	}
	ratio, utilization, raw, err := utilizationRatio(metrics, requests, target)
	if err != nil {
		return 0, 0, 0, err
	}
	scaleUpWithUnready := len(unready) > 0 && ratio > 1.0
	if !scaleUpWithUnready && len(missing) == 0 {
		if tol.within(ratio) {
			return currentReplicas, utilization, raw, nil
		}
		return ceil32(ratio * float64(readyCount)), utilization, raw, nil
	}
	if len(missing) > 0 {
		switch {
		case ratio < 1.0:
			// A scale-down: missing pods use 100% of their request, or
			// the target if it is higher.
			fallback := int64(max(100, target))
			for name := range missing {
				metrics[name] = podMetric{value: requests[name] * fallback / 100}
			}
		case ratio > 1.0:
			for name := range missing {
				metrics[name] = podMetric{value: 0}
			}
		}
	}
	if scaleUpWithUnready {
		for name := range unready {
			metrics[name] = podMetric{value: 0}
		}
	}
	newRatio, _, _, err := utilizationRatio(metrics, requests, target)
	if err != nil {
		return 0, utilization, raw, err
	}
	if tol.within(newRatio) || (ratio < 1.0 && newRatio > 1.0) || (ratio > 1.0 && newRatio < 1.0) {
		// Too small a change, or the direction would reverse.
		return currentReplicas, utilization, raw, nil
	}
	n := ceil32(newRatio * float64(len(metrics)))
	if (newRatio < 1.0 && n > currentReplicas) || (newRatio > 1.0 && n < currentReplicas) {
		return currentReplicas, utilization, raw, nil
	}
	return n, utilization, raw, nil
}

// plainReplicas is upstream's calcPlainMetricReplicas, used for an
// AverageValue resource target: the replica count and the average usage.
func (c calculator) plainReplicas(pods []*api.Pod, metrics podMetrics, currentReplicas int32, target int64, resource api.ResourceName, tol tolerances, now time.Time) (replicas int32, usage int64, err error) {
	if len(pods) == 0 {
		return 0, 0, ErrNoPods
	}
	readyCount, unready, missing, ignored := c.groupPods(pods, metrics, resource, now)
	removeMetrics(metrics, ignored)
	removeMetrics(metrics, unready)
	if len(metrics) == 0 {
		return 0, 0, ErrNoReadyMetrics
	}
	ratio, usage := usageRatio(metrics, target)
	scaleUpWithUnready := len(unready) > 0 && ratio > 1.0
	if !scaleUpWithUnready && len(missing) == 0 {
		if tol.within(ratio) {
			return currentReplicas, usage, nil
		}
		return ceil32(ratio * float64(readyCount)), usage, nil
	}
	if len(missing) > 0 {
		switch {
		case ratio < 1.0:
			for name := range missing {
				metrics[name] = podMetric{value: target}
			}
		case ratio > 1.0:
			for name := range missing {
				metrics[name] = podMetric{value: 0}
			}
		}
	}
	if scaleUpWithUnready {
		for name := range unready {
			metrics[name] = podMetric{value: 0}
		}
	}
	newRatio, _ := usageRatio(metrics, target)
	if tol.within(newRatio) || (ratio < 1.0 && newRatio > 1.0) || (ratio > 1.0 && newRatio < 1.0) {
		return currentReplicas, usage, nil
	}
	n := ceil32(newRatio * float64(len(metrics)))
	if (newRatio < 1.0 && n > currentReplicas) || (newRatio > 1.0 && n < currentReplicas) {
		return currentReplicas, usage, nil
	}
	return n, usage, nil
}

// ceil32 rounds up to an int32, saturating at MaxInt32.
func ceil32(v float64) int32 {
	c := math.Ceil(v)
	if c >= math.MaxInt32 {
		return math.MaxInt32
	}
	return int32(c)
}
