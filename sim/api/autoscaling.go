package api

// ---- HorizontalPodAutoscaler (autoscaling/v2) ----

// HorizontalPodAutoscaler (autoscaling/v2) scales a workload's replicas to
// hold metrics at their targets. The autoscaling/v1 form is
// HorizontalPodAutoscalerV1; both have kind "HorizontalPodAutoscaler".
type HorizontalPodAutoscaler struct {
	// TypeMeta holds apiVersion and kind.
	TypeMeta `json:",inline"`
	// ObjectMeta is the autoscaler's metadata.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the desired behaviour.
	Spec HorizontalPodAutoscalerSpec `json:"spec,omitempty"`
	// Status is the observed state, written by the HPA controller.
	Status HorizontalPodAutoscalerStatus `json:"status,omitempty"`
}

// CrossVersionObjectReference names the scaled workload.
type CrossVersionObjectReference struct {
	// Kind of the target, e.g. "Deployment".
	Kind string `json:"kind"`
	// Name of the target.
	Name string `json:"name"`
	// APIVersion of the target, e.g. "apps/v1".
	APIVersion string `json:"apiVersion,omitempty"`
}

// HorizontalPodAutoscalerSpec is the desired behaviour of an autoscaler.
type HorizontalPodAutoscalerSpec struct {
	// ScaleTargetRef is the workload to scale.
	ScaleTargetRef CrossVersionObjectReference `json:"scaleTargetRef"`
	// MinReplicas is the lower bound; defaults to 1.
	MinReplicas *int32 `json:"minReplicas,omitempty"`
	// MaxReplicas is the upper bound.
	MaxReplicas int32 `json:"maxReplicas"`
	// Metrics to hold at target; defaults to cpu at 80% utilisation.
	Metrics []MetricSpec `json:"metrics,omitempty"`
	// Behavior tunes scaling speed; nil uses the controller defaults.
	Behavior *HorizontalPodAutoscalerBehavior `json:"behavior,omitempty"`
}

// MetricSourceType names the kind of a metric.
type MetricSourceType string

const (
	// ObjectMetricSourceType is a metric of another object.
	ObjectMetricSourceType MetricSourceType = "Object"
	// PodsMetricSourceType is a per-pod custom metric.
	PodsMetricSourceType MetricSourceType = "Pods"
	// ResourceMetricSourceType is a resource (cpu, memory) of the pods.
	ResourceMetricSourceType MetricSourceType = "Resource"
	// ContainerResourceMetricSourceType is a resource of one container.
	ContainerResourceMetricSourceType MetricSourceType = "ContainerResource"
	// ExternalMetricSourceType is a metric from outside the cluster.
	ExternalMetricSourceType MetricSourceType = "External"
)

// MetricSpec is one metric an autoscaler targets. Only Resource metrics
// are modelled; the others are kept opaque.
type MetricSpec struct {
	// Type says which member is set.
	Type MetricSourceType `json:"type"`
	// Object metric, kept opaque.
	Object *RawValue `json:"object,omitempty"`
	// Pods metric, kept opaque.
	Pods *RawValue `json:"pods,omitempty"`
	// Resource metric.
	Resource *ResourceMetricSource `json:"resource,omitempty"`
	// ContainerResource metric, kept opaque.
	ContainerResource *RawValue `json:"containerResource,omitempty"`
	// External metric, kept opaque.
	External *RawValue `json:"external,omitempty"`
}

// ResourceMetricSource targets a resource of the scaled pods.
type ResourceMetricSource struct {
	// Name of the resource, e.g. "cpu".
	Name ResourceName `json:"name"`
	// Target value.
	Target MetricTarget `json:"target"`
}

// MetricTargetType says how a metric target is expressed.
type MetricTargetType string

const (
	// UtilizationMetricType is a percentage of the pods' requests.
	UtilizationMetricType MetricTargetType = "Utilization"
	// ValueMetricType is an absolute value.
	ValueMetricType MetricTargetType = "Value"
	// AverageValueMetricType is a per-pod average value.
	AverageValueMetricType MetricTargetType = "AverageValue"
)

// DefaultCPUUtilization is the cpu utilisation target (percent) an
// autoscaler gets when it names no metric: 80.
const DefaultCPUUtilization int32 = 80

// MetricTarget is the target of a metric.
type MetricTarget struct {
	// Type says which member is set.
	Type MetricTargetType `json:"type"`
	// Value is the absolute target.
	Value *Quantity `json:"value,omitempty"`
	// AverageValue is the per-pod target.
	AverageValue *Quantity `json:"averageValue,omitempty"`
	// AverageUtilization is the target percentage of requests.
	AverageUtilization *int32 `json:"averageUtilization,omitempty"`
}

// HorizontalPodAutoscalerBehavior tunes scale-up and scale-down.
type HorizontalPodAutoscalerBehavior struct {
	// ScaleUp rules; defaults: window 0, Max of 4 pods or 100% per 15s.
	ScaleUp *HPAScalingRules `json:"scaleUp,omitempty"`
	// ScaleDown rules; defaults: window from the controller (300s), 100% per 15s.
	ScaleDown *HPAScalingRules `json:"scaleDown,omitempty"`
}

// ScalingPolicySelect says how several policies combine.
type ScalingPolicySelect string

const (
	// MaxChangePolicySelect picks the policy allowing the biggest change.
	MaxChangePolicySelect ScalingPolicySelect = "Max"
	// MinChangePolicySelect picks the policy allowing the smallest change.
	MinChangePolicySelect ScalingPolicySelect = "Min"
	// DisabledPolicySelect disables scaling in this direction.
	DisabledPolicySelect ScalingPolicySelect = "Disabled"
)

// HPAScalingRules are the rules for one scaling direction.
type HPAScalingRules struct {
	// StabilizationWindowSeconds considers past recommendations to avoid flapping.
	StabilizationWindowSeconds *int32 `json:"stabilizationWindowSeconds,omitempty"`
	// SelectPolicy defaults to Max.
	SelectPolicy *ScalingPolicySelect `json:"selectPolicy,omitempty"`
	// Policies limit the change per period.
	Policies []HPAScalingPolicy `json:"policies,omitempty"`
	// Tolerance overrides the controller's 10% tolerance.
	Tolerance *Quantity `json:"tolerance,omitempty"`
}

// HPAScalingPolicyType says how a policy's value is read.
type HPAScalingPolicyType string

const (
	// PodsScalingPolicy limits the change to Value pods.
	PodsScalingPolicy HPAScalingPolicyType = "Pods"
	// PercentScalingPolicy limits the change to Value percent.
	PercentScalingPolicy HPAScalingPolicyType = "Percent"
)

// HPAScalingPolicy limits the change in one period.
type HPAScalingPolicy struct {
	// Type of the limit.
	Type HPAScalingPolicyType `json:"type"`
	// Value of the limit.
	Value int32 `json:"value"`
	// PeriodSeconds the limit applies to.
	PeriodSeconds int32 `json:"periodSeconds"`
}

// HorizontalPodAutoscalerStatus is the observed state of an autoscaler.
type HorizontalPodAutoscalerStatus struct {
	// ObservedGeneration is the generation the controller last acted on.
	ObservedGeneration *int64 `json:"observedGeneration,omitempty"`
	// LastScaleTime is when the controller last changed the scale.
	LastScaleTime *Time `json:"lastScaleTime,omitempty"`
	// CurrentReplicas is the target's current replica count.
	CurrentReplicas int32 `json:"currentReplicas,omitempty"`
	// DesiredReplicas is the last computed replica count; always written,
	// as upstream.
	DesiredReplicas int32 `json:"desiredReplicas"`
	// CurrentMetrics are the last observed metric values; written as null
	// when empty, as upstream.
	CurrentMetrics []MetricStatus `json:"currentMetrics"`
	// Conditions are AbleToScale, ScalingActive and ScalingLimited.
	Conditions []HorizontalPodAutoscalerCondition `json:"conditions,omitempty"`
}

// MetricStatus is the observed value of one metric. Only Resource metrics
// are modelled; the others are kept opaque.
type MetricStatus struct {
	// Type says which member is set.
	Type MetricSourceType `json:"type"`
	// Object metric, kept opaque.
	Object *RawValue `json:"object,omitempty"`
	// Pods metric, kept opaque.
	Pods *RawValue `json:"pods,omitempty"`
	// Resource metric.
	Resource *ResourceMetricStatus `json:"resource,omitempty"`
	// ContainerResource metric, kept opaque.
	ContainerResource *RawValue `json:"containerResource,omitempty"`
	// External metric, kept opaque.
	External *RawValue `json:"external,omitempty"`
}

// ResourceMetricStatus is the observed value of a resource metric.
type ResourceMetricStatus struct {
	// Name of the resource.
	Name ResourceName `json:"name"`
	// Current value.
	Current MetricValueStatus `json:"current"`
}

// MetricValueStatus is an observed metric value.
type MetricValueStatus struct {
	// Value is the absolute value.
	Value *Quantity `json:"value,omitempty"`
	// AverageValue is the per-pod average.
	AverageValue *Quantity `json:"averageValue,omitempty"`
	// AverageUtilization is the percentage of requests.
	AverageUtilization *int32 `json:"averageUtilization,omitempty"`
}

// HorizontalPodAutoscalerConditionType names an autoscaler condition.
type HorizontalPodAutoscalerConditionType string

const (
	// ScalingActive means metrics can be computed.
	ScalingActive HorizontalPodAutoscalerConditionType = "ScalingActive"
	// AbleToScale means the target's scale can be read and written.
	AbleToScale HorizontalPodAutoscalerConditionType = "AbleToScale"
	// ScalingLimited means the desired count was clamped.
	ScalingLimited HorizontalPodAutoscalerConditionType = "ScalingLimited"
	// ScaledToZero means the controller scaled the target to zero.
	ScaledToZero HorizontalPodAutoscalerConditionType = "ScaledToZero"
)

// HorizontalPodAutoscalerCondition is one condition of an autoscaler.
type HorizontalPodAutoscalerCondition struct {
	// Type of the condition.
	Type HorizontalPodAutoscalerConditionType `json:"type"`
	// Status of the condition.
	Status ConditionStatus `json:"status"`
	// LastTransitionTime is when Status last changed.
	LastTransitionTime Time `json:"lastTransitionTime,omitempty"`
	// Reason, e.g. "ValidMetricFound".
	Reason string `json:"reason,omitempty"`
	// Message explains the condition.
	Message string `json:"message,omitempty"`
	// ObservedGeneration is the generation the condition was computed for.
	ObservedGeneration *int64 `json:"observedGeneration,omitempty"`
}

// ---- HorizontalPodAutoscaler (autoscaling/v1) ----

// HorizontalPodAutoscalerV1 is the autoscaling/v1 form of an autoscaler:
// a single cpu utilisation target.
type HorizontalPodAutoscalerV1 struct {
	// TypeMeta holds apiVersion and kind.
	TypeMeta `json:",inline"`
	// ObjectMeta is the autoscaler's metadata.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the desired behaviour.
	Spec HorizontalPodAutoscalerV1Spec `json:"spec,omitempty"`
	// Status is the observed state.
	Status HorizontalPodAutoscalerV1Status `json:"status,omitempty"`
}

// HorizontalPodAutoscalerV1Spec is the autoscaling/v1 spec.
type HorizontalPodAutoscalerV1Spec struct {
	// ScaleTargetRef is the workload to scale.
	ScaleTargetRef CrossVersionObjectReference `json:"scaleTargetRef"`
	// MinReplicas is the lower bound; defaults to 1.
	MinReplicas *int32 `json:"minReplicas,omitempty"`
	// MaxReplicas is the upper bound.
	MaxReplicas int32 `json:"maxReplicas"`
	// TargetCPUUtilizationPercentage defaults to 80.
	TargetCPUUtilizationPercentage *int32 `json:"targetCPUUtilizationPercentage,omitempty"`
}

// HorizontalPodAutoscalerV1Status is the autoscaling/v1 status. Like
// upstream, both replica counts are always written.
type HorizontalPodAutoscalerV1Status struct {
	// ObservedGeneration is the generation the controller last acted on.
	ObservedGeneration *int64 `json:"observedGeneration,omitempty"`
	// LastScaleTime is when the controller last changed the scale.
	LastScaleTime *Time `json:"lastScaleTime,omitempty"`
	// CurrentReplicas is the target's current replica count.
	CurrentReplicas int32 `json:"currentReplicas"`
	// DesiredReplicas is the last computed replica count.
	DesiredReplicas int32 `json:"desiredReplicas"`
	// CurrentCPUUtilizationPercentage is the observed average cpu utilisation.
	CurrentCPUUtilizationPercentage *int32 `json:"currentCPUUtilizationPercentage,omitempty"`
}

// ToV2 converts h to autoscaling/v2 as the API server does: the cpu target
// becomes a Resource metric for cpu with Utilization, and the current cpu
// utilisation a Resource metric status. Metadata is deep-copied.
func (h *HorizontalPodAutoscalerV1) ToV2() *HorizontalPodAutoscaler {
	out := &HorizontalPodAutoscaler{
		TypeMeta:   TypeMeta{APIVersion: "autoscaling/v2", Kind: KindHorizontalPodAutoscaler.Name},
		ObjectMeta: *h.ObjectMeta.DeepCopy(),
	}
	out.Spec.ScaleTargetRef = h.Spec.ScaleTargetRef
	out.Spec.MinReplicas = copyPtr(h.Spec.MinReplicas)
	out.Spec.MaxReplicas = h.Spec.MaxReplicas
	if h.Spec.TargetCPUUtilizationPercentage != nil {
		out.Spec.Metrics = []MetricSpec{{
			Type: ResourceMetricSourceType,
			Resource: &ResourceMetricSource{
				Name: ResourceCPU,
				Target: MetricTarget{
					Type:               UtilizationMetricType,
					AverageUtilization: copyPtr(h.Spec.TargetCPUUtilizationPercentage),
				},
			},
		}}
	}
	st := &h.Status
	out.Status.ObservedGeneration = copyPtr(st.ObservedGeneration)
	if st.LastScaleTime != nil {
		t := *st.LastScaleTime
		out.Status.LastScaleTime = &t
	}
	out.Status.CurrentReplicas = st.CurrentReplicas
	out.Status.DesiredReplicas = st.DesiredReplicas
	if st.CurrentCPUUtilizationPercentage != nil {
		out.Status.CurrentMetrics = []MetricStatus{{
			Type: ResourceMetricSourceType,
			Resource: &ResourceMetricStatus{
				Name:    ResourceCPU,
				Current: MetricValueStatus{AverageUtilization: copyPtr(st.CurrentCPUUtilizationPercentage)},
			},
		}}
	}
	return out
}

// HPAToV1 converts h to autoscaling/v1 as the API server does: the target
// is taken from the first cpu Resource metric with an averageUtilization,
// and the current value from the last cpu Resource metric status with an
// averageUtilization. Other metrics, behavior and conditions have no v1 field and
// are dropped. Metadata is deep-copied.
func HPAToV1(h *HorizontalPodAutoscaler) *HorizontalPodAutoscalerV1 {
	out := &HorizontalPodAutoscalerV1{
		TypeMeta:   TypeMeta{APIVersion: "autoscaling/v1", Kind: KindHorizontalPodAutoscaler.Name},
		ObjectMeta: *h.ObjectMeta.DeepCopy(),
	}
	out.Spec.ScaleTargetRef = h.Spec.ScaleTargetRef
	out.Spec.MinReplicas = copyPtr(h.Spec.MinReplicas)
	out.Spec.MaxReplicas = h.Spec.MaxReplicas
	for _, m := range h.Spec.Metrics {
		if m.Type == ResourceMetricSourceType && m.Resource != nil && m.Resource.Name == ResourceCPU &&
			m.Resource.Target.AverageUtilization != nil {
			out.Spec.TargetCPUUtilizationPercentage = copyPtr(m.Resource.Target.AverageUtilization)
			break
		}
	}
	st := &h.Status
	out.Status.ObservedGeneration = copyPtr(st.ObservedGeneration)
	if st.LastScaleTime != nil {
		t := *st.LastScaleTime
		out.Status.LastScaleTime = &t
	}
	out.Status.CurrentReplicas = st.CurrentReplicas
	out.Status.DesiredReplicas = st.DesiredReplicas
	for _, m := range st.CurrentMetrics {
		if m.Type == ResourceMetricSourceType && m.Resource != nil && m.Resource.Name == ResourceCPU &&
			m.Resource.Current.AverageUtilization != nil {
			out.Status.CurrentCPUUtilizationPercentage = copyPtr(m.Resource.Current.AverageUtilization)
		}
	}
	return out
}
