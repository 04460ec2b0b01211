package hpa

import (
	"math"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// Legacy scale-up limit without spec.behavior: at most
// max(scaleUpLimitFactor × current, scaleUpLimitMinimum) replicas.
const (
	scaleUpLimitFactor  = 2.0
	scaleUpLimitMinimum = 4.0
)

// Condition reasons the normalization sets, verbatim from upstream.
const (
	// ReasonDesiredWithinRange is ScalingLimited False: no bound applied.
	ReasonDesiredWithinRange = "DesiredWithinRange"
	// ReasonScaleUpLimit is ScalingLimited True: the scale-up rate limit
	// (legacy max(2×current, 4), or the behavior's policies) applied.
	ReasonScaleUpLimit = "ScaleUpLimit"
	// ReasonScaleDownLimit is ScalingLimited True: the behavior's
	// scale-down policies applied.
	ReasonScaleDownLimit = "ScaleDownLimit"
	// ReasonTooManyReplicas is ScalingLimited True: maxReplicas applied.
	ReasonTooManyReplicas = "TooManyReplicas"
	// ReasonTooFewReplicas is ScalingLimited True: minReplicas applied.
	ReasonTooFewReplicas = "TooFewReplicas"
	// ReasonScaleUpStabilized is AbleToScale True: a scale-up was held to
	// the lowest recommendation of the scale-up window.
	ReasonScaleUpStabilized = "ScaleUpStabilized"
	// ReasonScaleDownStabilized is AbleToScale True: a scale-down was
	// held to the highest recommendation of the scale-down window.
	ReasonScaleDownStabilized = "ScaleDownStabilized"
	// ReasonReadyForNewScale is AbleToScale True: the recommendation was
	// not stabilized.
	ReasonReadyForNewScale = "ReadyForNewScale"
)

// Condition messages, verbatim from upstream.
const (
	messageWithinRange      = "the desired count is within the acceptable range"
	messageScaleUpLimit     = "the desired replica count is increasing faster than the maximum scale rate"
	messageScaleDownLimit   = "the desired replica count is decreasing faster than the maximum scale rate"
	messageTooManyReplicas  = "the desired replica count is more than the maximum replica count"
	messageTooFewReplicas   = "the desired replica count is less than the minimum replica count"
	messageUpStabilized     = "recent recommendations were lower than current one, applying the lowest recent recommendation"
	messageDownStabilized   = "recent recommendations were higher than current one, applying the highest recent recommendation"
	messageReadyForNewScale = "recommended size matches current size"
)

// recommendation is one unstabilized desired replica count and when it was
// made (upstream's timestampedRecommendation).
type recommendation struct {
	replicas int32
	at       time.Time
}

// scaleEvent is one rescale: how many replicas it added or removed (always
// positive) and when; outdated events are reused (upstream's
// timestampedScaleEvent).
type scaleEvent struct {
	change   int32
	at       time.Time
	outdated bool
}

// history is the controller's memory of one incarnation: per autoscaler
// key, the recent recommendations and scale events. It dies with the
// controller, as upstream's does.
type history struct {
	downscaleWindow time.Duration
	recommendations map[string][]recommendation
	scaleUpEvents   map[string][]scaleEvent
	scaleDownEvents map[string][]scaleEvent
}

func newHistory(downscaleWindow time.Duration) *history {
	return &history{
		downscaleWindow: downscaleWindow,
		recommendations: map[string][]recommendation{},
		scaleUpEvents:   map[string][]scaleEvent{},
		scaleDownEvents: map[string][]scaleEvent{},
	}
}

func (h *history) forget(key string) {
	delete(h.recommendations, key)
	delete(h.scaleUpEvents, key)
	delete(h.scaleDownEvents, key)
}

// recordInitial seeds an autoscaler's recommendations with the current
// count the first time it is seen.
func (h *history) recordInitial(key string, current int32, now time.Time) {
	if h.recommendations[key] == nil {
		h.recommendations[key] = []recommendation{{current, now}}
	}
}

// stabilize is upstream's stabilizeRecommendation (no behavior): it
// records desired, replacing the last recommendation older than the
// downscale window if there is one, and returns the highest
// recommendation within the window.
func (h *history) stabilize(key string, desired int32, now time.Time) int32 {
	best := desired
	foundOld, oldIndex := false, 0
	cutoff := now.Add(-h.downscaleWindow)
	for i, r := range h.recommendations[key] {
		if r.at.Before(cutoff) {
			foundOld, oldIndex = true, i
		} else if r.replicas > best {
			best = r.replicas
		}
	}
	if foundOld {
		h.recommendations[key][oldIndex] = recommendation{desired, now}
	} else {
		h.recommendations[key] = append(h.recommendations[key], recommendation{desired, now})
	}
	return best
}

// limits is what normalization decided: the replica count and the
// conditions it sets.
type limits struct {
	replicas int32
	// ableReason/ableMessage are the AbleToScale condition's (True).
	ableReason, ableMessage string
	// limited reports ScalingLimited True; limitReason/limitMessage are
	// its reason and message either way.
	limited                   bool
	limitReason, limitMessage string
}

// normalize is upstream's normalizeDesiredReplicas, for an autoscaler
// without spec.behavior.
func (h *history) normalize(key string, current, desired, minReplicas, maxReplicas int32, now time.Time) limits {
	stabilized := h.stabilize(key, desired, now)
	var l limits
	if stabilized != desired {
		l.ableReason, l.ableMessage = ReasonScaleDownStabilized, messageDownStabilized
	} else {
		l.ableReason, l.ableMessage = ReasonReadyForNewScale, messageReadyForNewScale
	}
	l.replicas, l.limitReason, l.limitMessage = convertWithRules(current, stabilized, minReplicas, maxReplicas)
	l.limited = l.replicas != stabilized
	return l
}

// scaleUpLimit is upstream's calculateScaleUpLimit: max(2×current, 4).
func scaleUpLimit(current int32) int32 {
	return int32(math.Max(scaleUpLimitFactor*float64(current), scaleUpLimitMinimum))
}

// convertWithRules is upstream's convertDesiredReplicasWithRules: the
// min/max bounds and the legacy scale-up limit.
func convertWithRules(current, desired, minReplicas, maxReplicas int32) (int32, string, string) {
	limit := scaleUpLimit(current)
	maxAllowed, reason, message := maxReplicas, ReasonTooManyReplicas, messageTooManyReplicas
	if maxReplicas > limit {
		maxAllowed, reason, message = limit, ReasonScaleUpLimit, messageScaleUpLimit
	}
	switch {
	case desired < minReplicas:
		return minReplicas, ReasonTooFewReplicas, messageTooFewReplicas
	case desired > maxAllowed:
		return maxAllowed, reason, message
	}
	return desired, ReasonDesiredWithinRange, messageWithinRange
}

// normalizationArg is upstream's NormalizationArg.
type normalizationArg struct {
	key                      string
	scaleUp, scaleDown       *api.HPAScalingRules
	minReplicas, maxReplicas int32
	currentReplicas, desired int32
}

// normalizeWithBehaviors is upstream's normalizeDesiredReplicasWithBehaviors:
// stabilization per direction, then the policies' rate limits and the
// bounds. The rules must be complete (defaulted, with a scale-down window).
func (h *history) normalizeWithBehaviors(arg normalizationArg, now time.Time) limits {
	stabilized, reason, message := h.stabilizeWithBehaviors(arg, now)
	var l limits
	if stabilized != arg.desired {
		l.ableReason, l.ableMessage = reason, message
	} else {
		l.ableReason, l.ableMessage = ReasonReadyForNewScale, messageReadyForNewScale
	}
	arg.desired = stabilized
	l.replicas, l.limitReason, l.limitMessage = h.convertWithBehaviorRate(arg, now)
	l.limited = l.replicas != stabilized
	return l
}

// stabilizeWithBehaviors is upstream's stabilizeRecommendationWithBehaviors:
// the lowest recommendation within the scale-up window bounds a scale-up,
// the highest within the scale-down window bounds a scale-down; desired is
// recorded, replacing the last recommendation older than both windows.
func (h *history) stabilizeWithBehaviors(arg normalizationArg, now time.Time) (int32, string, string) {
	foundOld, oldIndex := false, 0
	up := arg.desired
	upCutoff := now.Add(-time.Second * time.Duration(*arg.scaleUp.StabilizationWindowSeconds))
	down := arg.desired
	downCutoff := now.Add(-time.Second * time.Duration(*arg.scaleDown.StabilizationWindowSeconds))
	for i, r := range h.recommendations[arg.key] {
		if r.at.After(upCutoff) {
			up = min(r.replicas, up)
		}
		if r.at.After(downCutoff) {
			down = max(r.replicas, down)
		}
		if r.at.Before(upCutoff) && r.at.Before(downCutoff) {
			foundOld, oldIndex = true, i
		}
	}
	rec := arg.currentReplicas
	if rec < up {
		rec = up
	}
	if rec > down {
		rec = down
	}
	if foundOld {
		h.recommendations[arg.key][oldIndex] = recommendation{arg.desired, now}
	} else {
		h.recommendations[arg.key] = append(h.recommendations[arg.key], recommendation{arg.desired, now})
	}
	if arg.desired >= arg.currentReplicas {
		return rec, ReasonScaleUpStabilized, messageUpStabilized
	}
	return rec, ReasonScaleDownStabilized, messageDownStabilized
}

// convertWithBehaviorRate is upstream's convertDesiredReplicasWithBehaviorRate.
func (h *history) convertWithBehaviorRate(arg normalizationArg, now time.Time) (int32, string, string) {
	var reason, message string
	switch {
	case arg.desired > arg.currentReplicas:
		limit := scaleUpLimitWithRules(arg.currentReplicas, h.scaleUpEvents[arg.key], h.scaleDownEvents[arg.key], arg.scaleUp, now)
		if limit < arg.currentReplicas {
			// No further scale-up until the recent events age out.
			limit = arg.currentReplicas
		}
		maxAllowed := arg.maxReplicas
		if maxAllowed > limit {
			maxAllowed, reason, message = limit, ReasonScaleUpLimit, messageScaleUpLimit
		} else {
			reason, message = ReasonTooManyReplicas, messageTooManyReplicas
		}
		if arg.desired > maxAllowed {
			return maxAllowed, reason, message
		}
	case arg.desired < arg.currentReplicas:
		limit := scaleDownLimitWithRules(arg.currentReplicas, h.scaleUpEvents[arg.key], h.scaleDownEvents[arg.key], arg.scaleDown, now)
		if limit > arg.currentReplicas {
			limit = arg.currentReplicas
		}
		minAllowed := arg.minReplicas
		if minAllowed < limit {
			minAllowed, reason, message = limit, ReasonScaleDownLimit, messageScaleDownLimit
		} else {
			reason, message = ReasonTooFewReplicas, messageTooFewReplicas
		}
		if arg.desired < minAllowed {
			return minAllowed, reason, message
		}
	}
	return arg.desired, ReasonDesiredWithinRange, messageWithinRange
}

// replicasChangePerPeriod sums the changes of the events newer than
// periodSeconds.
func replicasChangePerPeriod(periodSeconds int32, events []scaleEvent, now time.Time) int32 {
	cutoff := now.Add(-time.Second * time.Duration(periodSeconds))
	var n int32
	for _, e := range events {
		if e.at.After(cutoff) {
			n += e.change
		}
	}
	return n
}

func selectPolicy(r *api.HPAScalingRules) api.ScalingPolicySelect {
	if r.SelectPolicy == nil {
		return api.MaxChangePolicySelect
	}
	return *r.SelectPolicy
}

// periodStart is the replica count at the start of a policy's period: the
// current count less the replicas added and plus those removed within it.
// Both directions count (k/k PR #109058, for issue #108354: a period with
// a scale-up and a scale-down otherwise starts from a count never seen).
func periodStart(current, periodSeconds int32, upEvents, downEvents []scaleEvent, now time.Time) int32 {
	return current - replicasChangePerPeriod(periodSeconds, upEvents, now) + replicasChangePerPeriod(periodSeconds, downEvents, now)
}

// scaleUpLimitWithRules is upstream's calculateScaleUpLimitWithScalingRules:
// the most replicas the policies allow now, from each period's starting
// count.
func scaleUpLimitWithRules(current int32, upEvents, downEvents []scaleEvent, rules *api.HPAScalingRules, now time.Time) int32 {
	var result int32
	var pick func(a, b int32) int32
	switch selectPolicy(rules) {
	case api.DisabledPolicySelect:
		return current
	case api.MinChangePolicySelect:
		result, pick = math.MaxInt32, func(a, b int32) int32 { return min(a, b) }
	default:
		result, pick = math.MinInt32, func(a, b int32) int32 { return max(a, b) }
	}
	for _, p := range rules.Policies {
		start := periodStart(current, p.PeriodSeconds, upEvents, downEvents, now)
		var proposed int32
		switch p.Type {
		case api.PodsScalingPolicy:
			proposed = start + p.Value
		case api.PercentScalingPolicy:
			// Rounded up, or a small count could never grow.
			proposed = int32(math.Ceil(float64(start) * (1 + float64(p.Value)/100)))
		}
		result = pick(result, proposed)
	}
	return result
}

// scaleDownLimitWithRules is upstream's calculateScaleDownLimitWithBehaviors:
// the fewest replicas the policies allow now.
func scaleDownLimitWithRules(current int32, upEvents, downEvents []scaleEvent, rules *api.HPAScalingRules, now time.Time) int32 {
	var result int32
	var pick func(a, b int32) int32
	switch selectPolicy(rules) {
	case api.DisabledPolicySelect:
		return current
	case api.MinChangePolicySelect:
		result, pick = math.MinInt32, func(a, b int32) int32 { return max(a, b) }
	default:
		result, pick = math.MaxInt32, func(a, b int32) int32 { return min(a, b) }
	}
	for _, p := range rules.Policies {
		start := periodStart(current, p.PeriodSeconds, upEvents, downEvents, now)
		var proposed int32
		switch p.Type {
		case api.PodsScalingPolicy:
			proposed = start - p.Value
		case api.PercentScalingPolicy:
			proposed = int32(float64(start) * (1 - float64(p.Value)/100))
		}
		result = pick(result, proposed)
	}
	return result
}

func longestPolicyPeriod(rules *api.HPAScalingRules) int32 {
	var longest int32
	for _, p := range rules.Policies {
		longest = max(longest, p.PeriodSeconds)
	}
	return longest
}

// storeScaleEvent is upstream's storeScaleEvent: with a behavior, the
// rescale is recorded in its direction's events, reusing the last event
// older than the direction's longest policy period.
func (h *history) storeScaleEvent(behavior *api.HorizontalPodAutoscalerBehavior, key string, prev, next int32, now time.Time) {
	if behavior == nil {
		return // only behaviors read events
	}
	events, rules, change := h.scaleDownEvents, behavior.ScaleDown, prev-next
	if next > prev {
		events, rules, change = h.scaleUpEvents, behavior.ScaleUp, next-prev
	}
	list := events[key]
	if rules != nil {
		cutoff := now.Add(-time.Second * time.Duration(longestPolicyPeriod(rules)))
		for i := range list {
			if list[i].at.Before(cutoff) {
				list[i].outdated = true
			}
		}
	}
	foundOld, oldIndex := false, 0
	for i, e := range list {
		if e.outdated {
			foundOld, oldIndex = true, i
		}
	}
	ev := scaleEvent{change: change, at: now}
	if foundOld {
		list[oldIndex] = ev
	} else {
		list = append(list, ev)
	}
	events[key] = list
}

// completeBehavior returns a copy of b with upstream's defaults filled in
// (the API server's defaulting, GenerateHPAScaleUpRules and
// GenerateHPAScaleDownRules) and the scale-down window defaulted to the
// controller's (maybeInitScaleDownStabilizationWindow).
func completeBehavior(b *api.HorizontalPodAutoscalerBehavior, downscaleWindow time.Duration) *api.HorizontalPodAutoscalerBehavior {
	out := &api.HorizontalPodAutoscalerBehavior{}
	maxSel := api.MaxChangePolicySelect
	up := &api.HPAScalingRules{
		StabilizationWindowSeconds: new32(0),
		SelectPolicy:               &maxSel,
		Policies: []api.HPAScalingPolicy{
			{Type: api.PodsScalingPolicy, Value: 4, PeriodSeconds: 15},
			{Type: api.PercentScalingPolicy, Value: 100, PeriodSeconds: 15},
		},
	}
	down := &api.HPAScalingRules{
		SelectPolicy: &maxSel,
		Policies:     []api.HPAScalingPolicy{{Type: api.PercentScalingPolicy, Value: 100, PeriodSeconds: 15}},
	}
	out.ScaleUp = fill(b.ScaleUp, up)
	out.ScaleDown = fill(b.ScaleDown, down)
	if out.ScaleDown.StabilizationWindowSeconds == nil {
		out.ScaleDown.StabilizationWindowSeconds = new32(int32(downscaleWindow / time.Second))
	}
	return out
}

func fill(r, def *api.HPAScalingRules) *api.HPAScalingRules {
	if r == nil {
		return def
	}
	out := r.DeepCopy()
	if out.StabilizationWindowSeconds == nil {
		out.StabilizationWindowSeconds = def.StabilizationWindowSeconds
	}
	if out.SelectPolicy == nil {
		out.SelectPolicy = def.SelectPolicy
	}
	if out.Policies == nil {
		out.Policies = def.Policies
	}
	return out
}

func new32(v int32) *int32 { return &v }
