package apiserver

import (
	"encoding/json"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// Bad values that upstream's validation passes as a struct of its
// internal API packages (k8s.io/kubernetes/pkg/apis/...). Those types
// have no json tags, so field.Error.ErrorBody (apimachinery v0.37)
// prints them as JSON with their Go field names, every field present,
// in declaration order: {"Key":"k","Operator":"Exists",...}. The types
// below mirror the internal ones field for field, so that encoding/json
// renders them the same; values of external types (metav1.LabelSelector,
// intstr.IntOrString) keep their own JSON, as api's types do.

// coreToleration is pkg/apis/core.Toleration.
type coreToleration struct {
	Key               string
	Operator          api.TolerationOperator
	Value             string
	Effect            api.TaintEffect
	TolerationSeconds *int64
}

func tolerationValue(t *api.Toleration) coreToleration {
	return coreToleration{Key: t.Key, Operator: t.Operator, Value: t.Value, Effect: t.Effect, TolerationSeconds: t.TolerationSeconds}
}

// coreServicePort is pkg/apis/core.ServicePort.
type coreServicePort struct {
	Name        string
	Protocol    api.Protocol
	AppProtocol *string
	Port        int32
	TargetPort  api.IntOrString
	NodePort    int32
}

// policyPDBSpec is pkg/apis/policy.PodDisruptionBudgetSpec.
type policyPDBSpec struct {
	MinAvailable               *api.IntOrString
	Selector                   *api.LabelSelector
	MaxUnavailable             *api.IntOrString
	UnhealthyPodEvictionPolicy *api.UnhealthyPodEvictionPolicyType
}

func pdbSpecValue(s *api.PodDisruptionBudgetSpec) policyPDBSpec {
	return policyPDBSpec{MinAvailable: s.MinAvailable, Selector: s.Selector, MaxUnavailable: s.MaxUnavailable, UnhealthyPodEvictionPolicy: s.UnhealthyPodEvictionPolicy}
}

// batchSuccessPolicy is pkg/apis/batch.SuccessPolicy.
type batchSuccessPolicy struct {
	Rules []batchSuccessPolicyRule
}

// batchSuccessPolicyRule is pkg/apis/batch.SuccessPolicyRule.
type batchSuccessPolicyRule struct {
	SucceededIndexes *string
	SucceededCount   *int32
}

// successPolicyValue is the job's successPolicy (kept as raw JSON, not
// simulated) as upstream's internal batch.SuccessPolicy prints; nil is
// null. A policy that does not decode (the decoder has refused it
// already) is shown abbreviated.
func successPolicyValue(r *api.RawValue) any {
	if r == nil || len(*r) == 0 {
		return nil
	}
	var v1 struct {
		Rules []struct {
			SucceededIndexes *string `json:"succeededIndexes"`
			SucceededCount   *int32  `json:"succeededCount"`
		} `json:"rules"`
	}
	if json.Unmarshal(*r, &v1) != nil {
		return apierr.Literal("{...}")
	}
	var p batchSuccessPolicy
	if v1.Rules != nil {
		p.Rules = make([]batchSuccessPolicyRule, len(v1.Rules))
		for i, r := range v1.Rules {
			p.Rules[i] = batchSuccessPolicyRule{SucceededIndexes: r.SucceededIndexes, SucceededCount: r.SucceededCount}
		}
	}
	return p
}

// batchPodFailurePolicy is pkg/apis/batch.PodFailurePolicy, with its
// rules, exit-code requirements and pod-condition patterns.
type batchPodFailurePolicy struct {
	Rules []batchPodFailurePolicyRule
}

type batchPodFailurePolicyRule struct {
	Action          string
	OnExitCodes     *batchOnExitCodes
	OnPodConditions []batchOnPodConditionsPattern
}

type batchOnExitCodes struct {
	ContainerName *string
	Operator      string
	Values        []int32
}

type batchOnPodConditionsPattern struct {
	Type   string
	Status api.ConditionStatus
}

// podFailurePolicyValue is p as upstream's internal batch.PodFailurePolicy
// prints; nil is null.
func podFailurePolicyValue(p *api.PodFailurePolicy) any {
	if p == nil {
		return nil
	}
	var out batchPodFailurePolicy
	if p.Rules != nil {
		out.Rules = make([]batchPodFailurePolicyRule, len(p.Rules))
	}
	for i, r := range p.Rules {
		rule := batchPodFailurePolicyRule{Action: r.Action}
		if c := r.OnExitCodes; c != nil {
			rule.OnExitCodes = &batchOnExitCodes{ContainerName: c.ContainerName, Operator: c.Operator, Values: c.Values}
		}
		if r.OnPodConditions != nil {
			rule.OnPodConditions = make([]batchOnPodConditionsPattern, len(r.OnPodConditions))
			for j, c := range r.OnPodConditions {
				rule.OnPodConditions[j] = batchOnPodConditionsPattern{Type: c.Type, Status: c.Status}
			}
		}
		out.Rules[i] = rule
	}
	return out
}

// coreScopeSelector is pkg/apis/core.ScopeSelector, with its
// ScopedResourceSelectorRequirements.
type coreScopeSelector struct {
	MatchExpressions []coreScopedRequirement
}

type coreScopedRequirement struct {
	ScopeName api.ResourceQuotaScope
	Operator  api.ScopeSelectorOperator
	Values    []string
}

func scopeSelectorValue(sel *api.ScopeSelector) coreScopeSelector {
	var out coreScopeSelector
	if sel.MatchExpressions != nil {
		out.MatchExpressions = make([]coreScopedRequirement, len(sel.MatchExpressions))
		for i, r := range sel.MatchExpressions {
			out.MatchExpressions[i] = coreScopedRequirement{ScopeName: r.ScopeName, Operator: r.Operator, Values: r.Values}
		}
	}
	return out
}

// appsStatefulSetRollingUpdate is pkg/apis/apps.RollingUpdateStatefulSetStrategy,
// whose partition is an int32 (an unset v1 partition converts to 0).
type appsStatefulSetRollingUpdate struct {
	Partition      int32
	MaxUnavailable *api.IntOrString
}

func statefulSetRollingUpdateValue(ru *api.RollingUpdateStatefulSetStrategy) appsStatefulSetRollingUpdate {
	v := appsStatefulSetRollingUpdate{MaxUnavailable: ru.MaxUnavailable}
	if ru.Partition != nil {
		v.Partition = *ru.Partition
	}
	return v
}
