package hpa

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
	"github.com/clustersim/clustersim/sim/workqueue"
)

// Actor is the identity kube-controller-manager runs this controller as.
const Actor = "system:serviceaccount:kube-system:horizontal-pod-autoscaler"

// Component is the source component of the controller's events.
const Component = "horizontal-pod-autoscaler"

// Name is the controller's name in its manager.
const Name = "horizontal-pod-autoscaler"

// Defaults, as kube-controller-manager's (k/k
// pkg/controller/podautoscaler/config/v1alpha1/defaults.go) and
// metrics-server's.
const (
	// DefaultSyncPeriod is --horizontal-pod-autoscaler-sync-period: 15s.
	DefaultSyncPeriod = 15 * time.Second
	// DefaultTolerance is --horizontal-pod-autoscaler-tolerance: 0.1.
	DefaultTolerance = 0.1
	// DefaultDownscaleStabilization is
	// --horizontal-pod-autoscaler-downscale-stabilization: 5m.
	DefaultDownscaleStabilization = 5 * time.Minute
	// DefaultCPUInitializationPeriod is
	// --horizontal-pod-autoscaler-cpu-initialization-period: 5m.
	DefaultCPUInitializationPeriod = 5 * time.Minute
	// DefaultInitialReadinessDelay is
	// --horizontal-pod-autoscaler-initial-readiness-delay: 30s.
	DefaultInitialReadinessDelay = 30 * time.Second
	// DefaultWorkers is --concurrent-horizontal-pod-autoscaler-syncs: 5.
	DefaultWorkers = 5
	// DefaultMetricWindow is the window of a metrics-server sample, its
	// --metric-resolution: 15s.
	DefaultMetricWindow = 15 * time.Second
)

// MetricsClient is what the controller needs of a resource metrics API
// (metrics-server): the CPU usage of pods. sim/metrics.Source implements
// it.
type MetricsClient interface {
	// PodCPU returns the CPU usage, in millicores, of the pods of
	// namespace whose labels selector matches, by pod name, and the time
	// the samples were taken. Pods without a sample are absent.
	PodCPU(ctx context.Context, namespace string, selector api.Selector) (map[string]int64, time.Time, error)
}

// Options configure the controller; zero fields take the defaults.
type Options struct {
	// Metrics is the resource metrics API; nil means none is installed,
	// and every autoscaler fails to get its metrics as on a cluster
	// without metrics-server.
	Metrics MetricsClient
	// Workers is the number of autoscalers synced at once (default 5).
	Workers int
	// SyncPeriod is how often each autoscaler is synced (default 15s).
	SyncPeriod time.Duration
	// Tolerance is the ratio around 1 within which the usage ratio causes
	// no scaling (default 0.1); a per-direction spec.behavior tolerance
	// overrides it. A tolerance of exactly 0 cannot be set here: use a
	// tiny positive value.
	Tolerance float64
	// DownscaleStabilization is how far back recommendations are
	// considered before scaling down, for autoscalers without a
	// scale-down stabilization window of their own (default 5m).
	DownscaleStabilization time.Duration
	// CPUInitializationPeriod is how long after a pod starts its CPU
	// samples are only trusted once a full window follows its readiness
	// (default 5m).
	CPUInitializationPeriod time.Duration
	// InitialReadinessDelay is how long after a pod starts an unready pod
	// is assumed to have never been ready (default 30s).
	InitialReadinessDelay time.Duration
	// MetricWindow is the window of each sample the metrics API returns
	// (default 15s, metrics-server's resolution).
	MetricWindow time.Duration
	// Observer, if set, is told of every reconcile.
	Observer controller.Observer
}

func (o *Options) defaults() {
	if o.Workers <= 0 {
		o.Workers = DefaultWorkers
	}
	if o.SyncPeriod <= 0 {
		o.SyncPeriod = DefaultSyncPeriod
	}
	if o.Tolerance <= 0 {
		o.Tolerance = DefaultTolerance
	}
	if o.DownscaleStabilization <= 0 {
		o.DownscaleStabilization = DefaultDownscaleStabilization
	}
	if o.CPUInitializationPeriod <= 0 {
		o.CPUInitializationPeriod = DefaultCPUInitializationPeriod
	}
	if o.InitialReadinessDelay <= 0 {
		o.InitialReadinessDelay = DefaultInitialReadinessDelay
	}
	if o.MetricWindow <= 0 {
		o.MetricWindow = DefaultMetricWindow
	}
}

// lister is what the reconciler reads from informer caches.
type lister interface {
	Get(key api.Key) (api.Object, bool)
	List(sel api.Selector, namespace string) []api.Object
}

// reconciler syncs one autoscaler per request (upstream's
// HorizontalController.reconcileKey).
type reconciler struct {
	client   client.Client
	recorder client.EventRecorder
	clock    client.PassiveClock
	hpas     lister
	pods     lister
	opts     Options
	calc     calculator
	hist     *history
}

// fixedInterval is upstream's FixedItemIntervalRateLimiter: every retry
// waits one sync period, so an autoscaler whose sync failed is synced
// again at the usual pace, not sooner.
type fixedInterval struct{ d time.Duration }

// When returns the sync period, whatever the item's history.
func (f fixedInterval) When(controller.Request) time.Duration { return f.d }

// Forget does nothing: there is no history to forget.
func (f fixedInterval) Forget(controller.Request) {}

// NumRequeues is always 0.
func (f fixedInterval) NumRequeues(controller.Request) int { return 0 }

var _ workqueue.RateLimiter[controller.Request] = fixedInterval{}

// Setup registers the HPA controller with m: informers on
// HorizontalPodAutoscalers and Pods, and a controller whose requests are
// autoscalers, each synced one sync period after it is first seen and then
// every sync period.
func Setup(m *controller.Manager, opts Options) error {
	opts.defaults()
	hpaInf, err := m.Informer(api.KindHorizontalPodAutoscaler, informer.Options{})
	if err != nil {
		return err
	}
	podInf, err := m.Informer(api.KindPod, informer.Options{})
	if err != nil {
		return err
	}
	r := newReconciler(m.Client(), m.Recorder(Component), m.Clock(), hpaInf.Lister(), podInf.Lister(), opts)
	c, err := m.NewController(Name, controller.Options{Workers: opts.Workers, RateLimiter: fixedInterval{opts.SyncPeriod}, Observer: opts.Observer}, r)
	if err != nil {
		return err
	}
	// Upstream adds every informer event rate limited, that is one sync
	// period later; an autoscaler already waiting keeps its earlier time.
	enqueue := func(obj api.Object) {
		c.EnqueueAfter(controller.Request{Key: obj.GetObjectMeta().Key()}, opts.SyncPeriod)
	}
	hpaInf.AddEventHandler(informer.HandlerFuncs{
		AddFunc:    enqueue,
		UpdateFunc: func(_, obj api.Object) { enqueue(obj) },
	})
	return nil
}

func newReconciler(c client.Client, rec client.EventRecorder, clock client.PassiveClock, hpas, pods lister, opts Options) *reconciler {
	opts.defaults()
	return &reconciler{
		client: c, recorder: rec, clock: clock, hpas: hpas, pods: pods, opts: opts,
		calc: calculator{cpuInitializationPeriod: opts.CPUInitializationPeriod, initialReadinessDelay: opts.InitialReadinessDelay},
		hist: newHistory(opts.DownscaleStabilization),
	}
}

// Reconcile syncs one autoscaler and asks to run again one sync period
// later; a deleted autoscaler's history is forgotten.
func (r *reconciler) Reconcile(ctx context.Context, req controller.Request) (controller.Result, error) {
	o, ok := r.hpas.Get(req.Key)
	h, isHPA := o.(*api.HorizontalPodAutoscaler)
	if !ok || !isHPA {
		r.hist.forget(req.Key.String())
		return controller.Result{}, nil
	}
	err := r.reconcileAutoscaler(ctx, h, req.Key.String())
	return controller.Result{RequeueAfter: r.opts.SyncPeriod}, err
}

// scale is what the HPA reads of its target (upstream's autoscaling/v1
// Scale).
type scale struct {
	// obj is the target as read, a private copy the rescale writes.
	obj            api.Object
	specReplicas   int32
	statusReplicas int32
	selector       *api.LabelSelector
}

// mappingError is the REST mapper's answer for a kind it does not serve.
type mappingError struct{ kind, group string }

// Error returns the REST mapper's "no matches for kind ... in group ...".
func (e *mappingError) Error() string {
	return fmt.Sprintf("no matches for kind %q in group %q", e.kind, e.group)
}

// getScale reads the target's scale: a Deployment or ReplicaSet of group
// apps (any version).
func (r *reconciler) getScale(ctx context.Context, namespace string, ref api.CrossVersionObjectReference) (*scale, error) {
	group, _, _ := strings.Cut(ref.APIVersion, "/")
	if !strings.Contains(ref.APIVersion, "/") {
		group = ""
	}
	kind := api.Kind{Group: group, Name: ref.Kind}
	if group != "apps" || (kind != api.KindDeployment && kind != api.KindReplicaSet) {
		return nil, &mappingError{kind: ref.Kind, group: group}
	}
	o, err := r.client.Get(ctx, kind, api.Key{Namespace: namespace, Name: ref.Name})
	if err != nil {
		return nil, err
	}
	s := &scale{obj: o}
	switch t := o.(type) {
	case *api.Deployment:
		s.specReplicas, s.statusReplicas, s.selector = replicasOf(t.Spec.Replicas), t.Status.Replicas, t.Spec.Selector
	case *api.ReplicaSet:
		s.specReplicas, s.statusReplicas, s.selector = replicasOf(t.Spec.Replicas), t.Status.Replicas, t.Spec.Selector
	default:
		return nil, fmt.Errorf("%w: got %T", client.ErrWrongType, o)
	}
	return s, nil
}

func replicasOf(p *int32) int32 {
	if p == nil {
		return 1
	}
	return *p
}

// setReplicas writes replicas to the target's spec.replicas, as a scale
// update would, with the resourceVersion read.
func (r *reconciler) setReplicas(ctx context.Context, s *scale, replicas int32) error {
	switch t := s.obj.(type) {
	case *api.Deployment:
		t.Spec.Replicas = &replicas
	case *api.ReplicaSet:
		t.Spec.Replicas = &replicas
	}
	_, err := r.client.Update(ctx, s.obj)
	return err
}

func (r *reconciler) now() time.Time { return r.clock.Now() }

// setCondition sets a condition of h, stamping lastTransitionTime when the
// status changes (upstream's setConditionInList).
func (r *reconciler) setCondition(h *api.HorizontalPodAutoscaler, typ api.HorizontalPodAutoscalerConditionType, status api.ConditionStatus, reason, format string, args ...any) {
	var c *api.HorizontalPodAutoscalerCondition
	for i := range h.Status.Conditions {
		if h.Status.Conditions[i].Type == typ {
			c = &h.Status.Conditions[i]
			break
		}
	}
	if c == nil {
		h.Status.Conditions = append(h.Status.Conditions, api.HorizontalPodAutoscalerCondition{Type: typ})
		c = &h.Status.Conditions[len(h.Status.Conditions)-1]
	}
	if c.Status != status {
		c.LastTransitionTime = api.NewTime(r.now().Truncate(time.Second))
	}
	c.Status = status
	c.Reason = reason
	c.Message = fmt.Sprintf(format, args...)
}

// setStatus rebuilds h's status as upstream's setStatus does.
func (r *reconciler) setStatus(h *api.HorizontalPodAutoscaler, current, desired int32, metrics []api.MetricStatus, rescale bool) {
	h.Status = api.HorizontalPodAutoscalerStatus{
		CurrentReplicas: current,
		DesiredReplicas: desired,
		LastScaleTime:   h.Status.LastScaleTime,
		CurrentMetrics:  metrics,
		Conditions:      h.Status.Conditions,
	}
	if rescale {
		t := api.NewTime(r.now().Truncate(time.Second))
		h.Status.LastScaleTime = &t
	}
}

// setCurrentReplicasAndMetrics is upstream's
// setCurrentReplicasAndMetricsInStatus: on a failed sync the status takes
// the current count and this sync's metric statuses (an empty one for each
// metric that failed, nil when none was computed), not the last sync's
// (k/k PR #121039, v1.29, for issue #119788).
func (r *reconciler) setCurrentReplicasAndMetrics(h *api.HorizontalPodAutoscaler, current int32, metrics []api.MetricStatus) {
	r.setStatus(h, current, h.Status.DesiredReplicas, metrics, false)
}

// sameStatus compares two statuses as they would be serialized (times at
// second precision, quantities canonical), as upstream's semantic
// equality does.
func sameStatus(a, b *api.HorizontalPodAutoscalerStatus) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(ja, jb)
}

// updateStatusIfNeeded writes h's status unless it equals old.
func (r *reconciler) updateStatusIfNeeded(ctx context.Context, old *api.HorizontalPodAutoscalerStatus, h *api.HorizontalPodAutoscaler) error {
	if sameStatus(old, &h.Status) {
		return nil
	}
	if _, err := r.client.UpdateStatus(ctx, h); err != nil {
		r.recorder.Eventf(h, client.EventTypeWarning, "FailedUpdateStatus", "%s", err.Error())
		return fmt.Errorf("failed to update status for %s: %v", h.Name, err)
	}
	return nil
}

// reconcileAutoscaler is upstream's reconcileAutoscaler.
func (r *reconciler) reconcileAutoscaler(ctx context.Context, shared *api.HorizontalPodAutoscaler, key string) error {
	h := shared.DeepCopy()
	orig := h.Status.DeepCopy()
	ref := h.Spec.ScaleTargetRef
	reference := fmt.Sprintf("%s/%s/%s", ref.Kind, h.Namespace, ref.Name)

	s, err := r.getScale(ctx, h.Namespace, ref)
	if err != nil {
		r.recorder.Eventf(h, client.EventTypeWarning, "FailedGetScale", "%s", err.Error())
		r.setCondition(h, api.AbleToScale, api.ConditionFalse, "FailedGetScale", "the HPA controller was unable to get the target's current scale: %v", err)
		if uerr := r.updateStatusIfNeeded(ctx, orig, h); uerr != nil {
			err = errors.Join(err, uerr)
		}
		var me *mappingError
		if errors.As(err, &me) {
			return fmt.Errorf("unable to determine resource for scale target reference: %w", err)
		}
		return fmt.Errorf("failed to query scale subresource for %s: %w", reference, err)
	}
	r.setCondition(h, api.AbleToScale, api.ConditionTrue, "SucceededGetScale", "the HPA controller was able to get the target's current scale")
	current := s.specReplicas
	r.hist.recordInitial(key, current, r.now())

	minReplicas := int32(1)
	if h.Spec.MinReplicas != nil {
		minReplicas = *h.Spec.MinReplicas
	}
	var (
		desired       int32
		rescaleReason string
		statuses      []api.MetricStatus
		metricsErr    error
	)
	rescale := true
	switch {
	case s.specReplicas == 0 && minReplicas != 0:
		// Autoscaling is disabled for this target.
		desired, rescale = 0, false
		r.setCondition(h, api.ScalingActive, api.ConditionFalse, "ScalingDisabled", "scaling is disabled since the replica count of the target is zero")
	case current > h.Spec.MaxReplicas:
		rescaleReason, desired = "Current number of replicas above Spec.MaxReplicas", h.Spec.MaxReplicas
	case current < minReplicas:
		rescaleReason, desired = "Current number of replicas below Spec.MinReplicas", minReplicas
	default:
		var metricDesired int32
		var metricName string
		metricDesired, metricName, statuses, err = r.computeReplicasForMetrics(ctx, h, s)
		if err != nil && metricDesired == -1 {
			r.setCurrentReplicasAndMetrics(h, current, statuses)
			if uerr := r.updateStatusIfNeeded(ctx, orig, h); uerr != nil {
				err = errors.Join(err, uerr)
			}
			r.recorder.Eventf(h, client.EventTypeWarning, "FailedComputeMetricsReplicas", "%s", err.Error())
			return fmt.Errorf("failed to compute desired number of replicas based on listed metrics for %s: %w", reference, err)
		}
		metricsErr = err // some metrics failed but others scale: proceed, then report
		rescaleMetric := ""
		if metricDesired > desired {
			desired, rescaleMetric = metricDesired, metricName
		}
		if desired > current {
			rescaleReason = fmt.Sprintf("%s above target", rescaleMetric)
		}
		if desired < current {
			rescaleReason = "All metrics below target"
		}
		var l limits
		if h.Spec.Behavior == nil {
			l = r.hist.normalize(key, current, desired, minReplicas, h.Spec.MaxReplicas, r.now())
		} else {
			b := completeBehavior(h.Spec.Behavior, r.opts.DownscaleStabilization)
			l = r.hist.normalizeWithBehaviors(normalizationArg{
				key: key, scaleUp: b.ScaleUp, scaleDown: b.ScaleDown,
				minReplicas: minReplicas, maxReplicas: h.Spec.MaxReplicas,
				currentReplicas: current, desired: desired,
			}, r.now())
		}
		r.setCondition(h, api.AbleToScale, api.ConditionTrue, l.ableReason, "%s", l.ableMessage)
		limited := api.ConditionFalse
		if l.limited {
			limited = api.ConditionTrue
		}
		r.setCondition(h, api.ScalingLimited, limited, l.limitReason, "%s", l.limitMessage)
		desired = l.replicas
		rescale = desired != current
	}

	if rescale {
		if err := r.setReplicas(ctx, s, desired); err != nil {
			r.recorder.Eventf(h, client.EventTypeWarning, "FailedRescale", "New size: %d; reason: %s; error: %v", desired, rescaleReason, err.Error())
			r.setCondition(h, api.AbleToScale, api.ConditionFalse, "FailedUpdateScale", "the HPA controller was unable to update the target scale: %v", err)
			r.setCurrentReplicasAndMetrics(h, current, statuses)
			if uerr := r.updateStatusIfNeeded(ctx, orig, h); uerr != nil {
				err = errors.Join(err, uerr)
			}
			return fmt.Errorf("failed to rescale %s: %w", reference, err)
		}
		r.setCondition(h, api.AbleToScale, api.ConditionTrue, "SucceededRescale", "the HPA controller was able to update the target scale to %d", desired)
		r.recorder.Eventf(h, client.EventTypeNormal, "SuccessfulRescale", "New size: %d; reason: %s", desired, rescaleReason)
		var b *api.HorizontalPodAutoscalerBehavior
		if h.Spec.Behavior != nil {
			b = completeBehavior(h.Spec.Behavior, r.opts.DownscaleStabilization)
		}
		r.hist.storeScaleEvent(b, key, current, desired, r.now())
	} else {
		desired = current
	}
	r.setStatus(h, current, desired, statuses, rescale)
	if err := r.updateStatusIfNeeded(ctx, orig, h); err != nil {
		return errors.Join(metricsErr, err)
	}
	return metricsErr
}

// computeReplicasForMetrics is upstream's: the largest proposal over the
// metrics, or -1 with an error when every metric failed or one failed
// while the others would scale down.
func (r *reconciler) computeReplicasForMetrics(ctx context.Context, h *api.HorizontalPodAutoscaler, s *scale) (int32, string, []api.MetricStatus, error) {
	if s.selector == nil {
		const msg = "selector is required"
		r.recorder.Eventf(h, client.EventTypeWarning, "SelectorRequired", msg)
		r.setCondition(h, api.ScalingActive, api.ConditionFalse, "InvalidSelector", "the HPA target's scale is missing a selector")
		return -1, "", nil, errors.New(msg)
	}
	selector, err := api.LabelSelectorAsSelector(s.selector)
	if err != nil {
		msg := fmt.Sprintf("couldn't convert selector into a corresponding internal selector object: %v", err)
		r.recorder.Eventf(h, client.EventTypeWarning, "InvalidSelector", "%s", msg)
		r.setCondition(h, api.ScalingActive, api.ConditionFalse, "InvalidSelector", "%s", msg)
		return -1, "", nil, errors.New(msg)
	}
	specs := h.Spec.Metrics
	if len(specs) == 0 {
		// The API server defaults a cpu target, so only a stored object
		// that bypassed defaulting gets here.
		err := errors.New("invalid metrics (0 invalid out of 0), first error is: no metrics specified")
		r.setCondition(h, api.ScalingActive, api.ConditionFalse, "InvalidMetricSourceType", "the HPA was unable to compute the replica count: no metrics specified")
		return -1, "", nil, err
	}
	statuses := make([]api.MetricStatus, len(specs))
	var (
		replicas     int32
		metric       string
		invalid      int
		firstErr     error
		firstInvalid api.HorizontalPodAutoscalerCondition
	)
	for i := range specs {
		proposal, name, cond, err := r.computeReplicasForMetric(ctx, h, &specs[i], s.specReplicas, selector, &statuses[i])
		if err != nil {
			if invalid == 0 {
				firstInvalid, firstErr = cond, err
			}
			invalid++
			continue
		}
		if replicas == 0 || proposal > replicas {
			replicas, metric = proposal, name
		}
	}
	if invalid >= len(specs) || (invalid > 0 && replicas < s.specReplicas) {
		r.setCondition(h, firstInvalid.Type, firstInvalid.Status, firstInvalid.Reason, "%s", firstInvalid.Message)
		return -1, "", statuses, fmt.Errorf("invalid metrics (%v invalid out of %v), first error is: %w", invalid, len(specs), firstErr)
	}
	r.setCondition(h, api.ScalingActive, api.ConditionTrue, "ValidMetricFound", "the HPA was able to successfully calculate a replica count from %s", metric)
	var err2 error
	if invalid > 0 {
		err2 = fmt.Errorf("invalid metrics (%v invalid out of %v), first error is: %w", invalid, len(specs), firstErr)
	}
	return replicas, metric, statuses, err2
}

// unableCondition is upstream's getUnableComputeReplicaCountCondition: it
// records a Warning event with reason and returns the ScalingActive False
// condition to set.
func (r *reconciler) unableCondition(h *api.HorizontalPodAutoscaler, reason string, err error) api.HorizontalPodAutoscalerCondition {
	r.recorder.Eventf(h, client.EventTypeWarning, reason, "%s", err.Error())
	return api.HorizontalPodAutoscalerCondition{
		Type:    api.ScalingActive,
		Status:  api.ConditionFalse,
		Reason:  reason,
		Message: fmt.Sprintf("the HPA was unable to compute the replica count: %v", err),
	}
}

// Errors for the metric types the simulated cluster has no adapter for,
// as upstream reports them without a custom or external metrics API.
var (
	errNoCustomMetrics   = errors.New("unable to fetch metrics from custom metrics API: no custom metrics API (custom.metrics.k8s.io) registered")
	errNoExternalMetrics = errors.New("unable to fetch metrics from external metrics API: no external metrics API (external.metrics.k8s.io) registered")
)

// computeReplicasForMetric is upstream's, for one metric spec.
func (r *reconciler) computeReplicasForMetric(ctx context.Context, h *api.HorizontalPodAutoscaler, spec *api.MetricSpec, specReplicas int32, selector api.Selector, status *api.MetricStatus) (int32, string, api.HorizontalPodAutoscalerCondition, error) {
	switch spec.Type {
	case api.ResourceMetricSourceType:
		if spec.Resource == nil {
			err := errors.New("invalid resource metric source: neither a utilization target nor a value target was set")
			return 0, "", r.unableCondition(h, "FailedGetResourceMetric", err), err
		}
		proposal, name, err := r.computeStatusForResourceMetric(ctx, h, spec.Resource, specReplicas, selector, status)
		if err != nil {
			cond := r.unableCondition(h, "FailedGetResourceMetric", err)
			return 0, "", cond, fmt.Errorf("failed to get %s resource metric value: %w", spec.Resource.Name, err)
		}
		return proposal, name, api.HorizontalPodAutoscalerCondition{}, nil
	case api.PodsMetricSourceType:
		err := fmt.Errorf("unable to get metric: %w", errNoCustomMetrics)
		return 0, "", r.unableCondition(h, "FailedGetPodsMetric", err), fmt.Errorf("failed to get pods metric value: %w", err)
	case api.ObjectMetricSourceType:
		err := fmt.Errorf("unable to get metric: %w", errNoCustomMetrics)
		return 0, "", r.unableCondition(h, "FailedGetObjectMetric", err), fmt.Errorf("failed to get object metric value: %w", err)
	case api.ExternalMetricSourceType:
		err := fmt.Errorf("unable to get external metric: %w", errNoExternalMetrics)
		return 0, "", r.unableCondition(h, "FailedGetExternalMetric", err), err
	case api.ContainerResourceMetricSourceType:
		err := fmt.Errorf("unable to get container resource metric: %w", ErrNoMetrics)
		return 0, "", r.unableCondition(h, "FailedGetContainerResourceMetric", err), err
	}
	err := fmt.Errorf("unknown metric source type %q", string(spec.Type))
	return 0, "", r.unableCondition(h, "InvalidMetricSourceType", err), err
}

// computeStatusForResourceMetric is upstream's computeStatusForResourceMetricGeneric
// for a pod resource metric: an AverageValue target uses the plain
// calculation, a Utilization target the utilization one.
func (r *reconciler) computeStatusForResourceMetric(ctx context.Context, h *api.HorizontalPodAutoscaler, spec *api.ResourceMetricSource, current int32, selector api.Selector, status *api.MetricStatus) (int32, string, error) {
	target := spec.Target
	tol := r.tolerances(h)
	if target.AverageValue != nil {
		metrics, _, err := r.resourceMetric(ctx, spec.Name, h.Namespace, selector)
		if err != nil {
			return 0, "", fmt.Errorf("failed to get %s usage: unable to get metrics for resource %s: %w", spec.Name, spec.Name, err)
		}
		replicas, usage, err := r.calc.plainReplicas(r.podsOf(h.Namespace, selector), metrics, current, target.AverageValue.MilliValue(), spec.Name, tol, r.now())
		if err != nil {
			return 0, "", fmt.Errorf("failed to get %s usage: %w", spec.Name, err)
		}
		v := api.NewMilliQuantity(usage, api.DecimalSI)
		*status = api.MetricStatus{Type: api.ResourceMetricSourceType, Resource: &api.ResourceMetricStatus{
			Name: spec.Name, Current: api.MetricValueStatus{AverageValue: &v}}}
		return replicas, fmt.Sprintf("%s resource", spec.Name), nil
	}
	if target.AverageUtilization == nil {
		return 0, "", errors.New("invalid resource metric source: neither a utilization target nor a value target was set")
	}
	metrics, _, err := r.resourceMetric(ctx, spec.Name, h.Namespace, selector)
	if err != nil {
		return 0, "", fmt.Errorf("failed to get %s utilization: unable to get metrics for resource %s: %w", spec.Name, spec.Name, err)
	}
	replicas, utilization, raw, err := r.calc.resourceReplicas(r.podsOf(h.Namespace, selector), metrics, current, *target.AverageUtilization, spec.Name, tol, r.now())
	if err != nil {
		return 0, "", fmt.Errorf("failed to get %s utilization: %w", spec.Name, err)
	}
	v := api.NewMilliQuantity(raw, api.DecimalSI)
	*status = api.MetricStatus{Type: api.ResourceMetricSourceType, Resource: &api.ResourceMetricStatus{
		Name: spec.Name, Current: api.MetricValueStatus{AverageUtilization: &utilization, AverageValue: &v}}}
	return replicas, fmt.Sprintf("%s resource utilization (percentage of request)", spec.Name), nil
}

// tolerances are the controller's tolerance, overridden per direction by
// the autoscaler's behavior (HPAConfigurableTolerance).
func (r *reconciler) tolerances(h *api.HorizontalPodAutoscaler) tolerances {
	t := tolerances{down: r.opts.Tolerance, up: r.opts.Tolerance}
	if b := h.Spec.Behavior; b != nil {
		if b.ScaleDown != nil && b.ScaleDown.Tolerance != nil {
			t.down = b.ScaleDown.Tolerance.AsApproximateFloat64()
		}
		if b.ScaleUp != nil && b.ScaleUp.Tolerance != nil {
			t.up = b.ScaleUp.Tolerance.AsApproximateFloat64()
		}
	}
	return t
}

// podsOf lists the cached pods of namespace that selector matches.
func (r *reconciler) podsOf(namespace string, selector api.Selector) []*api.Pod {
	objs := r.pods.List(selector, namespace)
	out := make([]*api.Pod, 0, len(objs))
	for _, o := range objs {
		if p, ok := o.(*api.Pod); ok {
			out = append(out, p)
		}
	}
	return out
}

// resourceMetric is upstream's resource metrics client: the samples of
// the selected pods, with their timestamp and window.
func (r *reconciler) resourceMetric(ctx context.Context, resource api.ResourceName, namespace string, selector api.Selector) (podMetrics, time.Time, error) {
	if r.opts.Metrics == nil {
		return nil, time.Time{}, fmt.Errorf("unable to fetch metrics from resource metrics API: %w", ErrNoMetricsAPI)
	}
	if resource != api.ResourceCPU {
		return nil, time.Time{}, ErrNoMetrics // the simulated metrics API models cpu only
	}
	vals, ts, err := r.opts.Metrics.PodCPU(ctx, namespace, selector)
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("unable to fetch metrics from resource metrics API: %w", err)
	}
	if len(vals) == 0 {
		return nil, time.Time{}, ErrNoMetrics
	}
	out := make(podMetrics, len(vals))
	for name, v := range vals {
		out[name] = podMetric{timestamp: ts, window: r.opts.MetricWindow, value: v}
	}
	return out, ts, nil
}
