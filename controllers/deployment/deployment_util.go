package deployment

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// The pure helpers of this file follow k/k
// pkg/controller/deployment/util/deployment_util.go. They read their
// arguments and never call the API; kubectl-like tools (rollout status,
// history, undo) use them too.

// Annotations and labels the controller reads and writes.
const (
	// RevisionAnnotation is a ReplicaSet's revision in its Deployment's
	// rollout sequence (1, 2, ...); the Deployment carries the revision of
	// its new ReplicaSet.
	RevisionAnnotation = "deployment.kubernetes.io/revision"
	// RevisionHistoryAnnotation lists, comma-separated, the older revisions
	// a ReplicaSet served before a rollback made it new again.
	RevisionHistoryAnnotation = "deployment.kubernetes.io/revision-history"
	// DesiredReplicasAnnotation is the Deployment's spec.replicas when the
	// ReplicaSet was last sized; a difference marks a scaling event.
	DesiredReplicasAnnotation = "deployment.kubernetes.io/desired-replicas"
	// MaxReplicasAnnotation is spec.replicas + maxSurge when the ReplicaSet
	// was last sized; proportional scaling divides by it.
	MaxReplicasAnnotation = "deployment.kubernetes.io/max-replicas"
	// DeprecatedRollbackToAnnotation carries extensions/v1beta1's
	// spec.rollbackTo.revision through apps/v1; the controller rolls back
	// to that revision (0: the previous one) and removes it.
	DeprecatedRollbackToAnnotation = "deprecated.deployment.rollback.to"
	// LastAppliedConfigAnnotation is kubectl apply's record; it is never
	// copied from a Deployment to its ReplicaSets.
	LastAppliedConfigAnnotation = "kubectl.kubernetes.io/last-applied-configuration"
	// DefaultDeploymentUniqueLabelKey is the label holding the pod template
	// hash on a Deployment's ReplicaSets, their selectors and their pods.
	DefaultDeploymentUniqueLabelKey = "pod-template-hash"
)

// Condition reasons and event reasons, verbatim from upstream.
const (
	// ReplicaSetUpdatedReason: Progressing True, a ReplicaSet of the rollout
	// changed ("ReplicaSet \"x\" is progressing.").
	ReplicaSetUpdatedReason = "ReplicaSetUpdated"
	// FailedRSCreateReason: Progressing False, the new ReplicaSet could not
	// be created ("Failed to create new replica set \"x\": <err>"); also the
	// reason of the Warning event.
	FailedRSCreateReason = "ReplicaSetCreateError"
	// NewReplicaSetReason: Progressing True, the controller created the new
	// ReplicaSet ("Created new replica set \"x\"").
	NewReplicaSetReason = "NewReplicaSetCreated"
	// FoundNewRSReason: Progressing True, an existing ReplicaSet was found
	// to be the new one ("Found new replica set \"x\"").
	FoundNewRSReason = "FoundNewReplicaSet"
	// NewRSAvailableReason: Progressing True, the rollout is complete
	// ("ReplicaSet \"x\" has successfully progressed.").
	NewRSAvailableReason = "NewReplicaSetAvailable"
	// TimedOutReason: Progressing False, no progress for
	// progressDeadlineSeconds ("ReplicaSet \"x\" has timed out
	// progressing.").
	TimedOutReason = "ProgressDeadlineExceeded"
	// PausedDeployReason: Progressing Unknown, "Deployment is paused".
	PausedDeployReason = "DeploymentPaused"
	// ResumedDeployReason: Progressing Unknown, "Deployment is resumed".
	ResumedDeployReason = "DeploymentResumed"
	// MinimumReplicasAvailable: Available True, "Deployment has minimum
	// availability.".
	MinimumReplicasAvailable = "MinimumReplicasAvailable"
	// MinimumReplicasUnavailable: Available False, "Deployment does not
	// have minimum availability.".
	MinimumReplicasUnavailable = "MinimumReplicasUnavailable"

	// RollbackRevisionNotFound is the Warning event reason of a rollback to
	// a revision that does not exist.
	RollbackRevisionNotFound = "DeploymentRollbackRevisionNotFound"
	// RollbackTemplateUnchanged is the Warning event reason of a rollback
	// to the template the Deployment already has.
	RollbackTemplateUnchanged = "DeploymentRollbackTemplateUnchanged"
	// RollbackDone is the Normal event reason of a rollback.
	RollbackDone = "DeploymentRollback"
	// ScalingReplicaSetReason is the Normal event reason of every resize:
	// "Scaled up replica set %s from 0 to %d" on create, "Scaled %s replica
	// set %s from %d to %d" later (the order since Kubernetes 1.32, PR
	// #125118; "to %d from %d" before).
	ScalingReplicaSetReason = "ScalingReplicaSet"
	// SelectingAllReason is the Warning event reason of a Deployment with
	// an empty selector.
	SelectingAllReason = "SelectingAll"
)

// Errors of the helpers; they are data, matched with errors.Is.
var (
	// ErrUnknownStrategy: a strategy type other than RollingUpdate and
	// Recreate.
	ErrUnknownStrategy = errors.New("deployment strategy type isn't supported")
	// ErrNoMatchingDeployment: no Deployment selects a ReplicaSet
	// (GetDeploymentsForReplicaSet).
	ErrNoMatchingDeployment = errors.New("no deployment selects the replica set")
	// ErrBadAnnotation: an annotation that must hold a non-negative int32
	// holds something else.
	ErrBadAnnotation = errors.New("invalid annotation value")
)

// matchError is ErrNoMatchingDeployment with upstream's message.
type matchError struct{ msg string }

// Error returns upstream's message.
func (e *matchError) Error() string { return e.msg }

// Is matches ErrNoMatchingDeployment.
func (e *matchError) Is(target error) bool { return target == ErrNoMatchingDeployment }

// specReplicas returns d's spec.replicas; unset means the API default, 1.
func specReplicas(d *api.Deployment) int32 {
	if d.Spec.Replicas == nil {
		return 1
	}
	return *d.Spec.Replicas
}

// rsReplicas returns rs's spec.replicas (0 for a nil rs); unset means the
// API default, 1.
func rsReplicas(rs *api.ReplicaSet) int32 {
	if rs == nil {
		return 0
	}
	if rs.Spec.Replicas == nil {
		return 1
	}
	return *rs.Spec.Replicas
}

// setRSReplicas sets rs's spec.replicas to n.
func setRSReplicas(rs *api.ReplicaSet, n int32) { rs.Spec.Replicas = &n }

// NewDeploymentCondition returns a condition whose lastUpdateTime and
// lastTransitionTime are now, truncated to whole seconds as the API stores
// them.
func NewDeploymentCondition(condType api.DeploymentConditionType, status api.ConditionStatus, reason, message string, now time.Time) *api.DeploymentCondition {
	t := api.NewTime(now).Rfc3339Copy()
	return &api.DeploymentCondition{
		Type:               condType,
		Status:             status,
		LastUpdateTime:     t,
		LastTransitionTime: t,
		Reason:             reason,
		Message:            message,
	}
}

// GetDeploymentCondition returns a copy of the condition of condType in
// status, or nil.
func GetDeploymentCondition(status api.DeploymentStatus, condType api.DeploymentConditionType) *api.DeploymentCondition {
	for i := range status.Conditions {
		if c := status.Conditions[i]; c.Type == condType {
			return &c
		}
	}
	return nil
}

// SetDeploymentCondition puts condition into status, replacing the one of
// its type (which moves to the end). A condition with the same status and
// reason is left as it is; one with the same status keeps its
// lastTransitionTime.
func SetDeploymentCondition(status *api.DeploymentStatus, condition api.DeploymentCondition) {
	cur := GetDeploymentCondition(*status, condition.Type)
	if cur != nil && cur.Status == condition.Status && cur.Reason == condition.Reason {
		return
	}
	if cur != nil && cur.Status == condition.Status {
		condition.LastTransitionTime = cur.LastTransitionTime
	}
	status.Conditions = append(filterOutCondition(status.Conditions, condition.Type), condition)
}

// RemoveDeploymentCondition removes the condition of condType from status.
func RemoveDeploymentCondition(status *api.DeploymentStatus, condType api.DeploymentConditionType) {
	status.Conditions = filterOutCondition(status.Conditions, condType)
}

// filterOutCondition returns a new slice without the conditions of condType
// (nil when none is left).
func filterOutCondition(conditions []api.DeploymentCondition, condType api.DeploymentConditionType) []api.DeploymentCondition {
	var out []api.DeploymentCondition
	for _, c := range conditions {
		if c.Type != condType {
			out = append(out, c)
		}
	}
	return out
}

// ReplicaSetToDeploymentCondition turns a ReplicaSet condition
// (ReplicaFailure) into the Deployment condition of the same type; both
// times are the ReplicaSet condition's lastTransitionTime.
func ReplicaSetToDeploymentCondition(cond api.ReplicaSetCondition) api.DeploymentCondition {
	return api.DeploymentCondition{
		Type:               api.DeploymentConditionType(cond.Type),
		Status:             cond.Status,
		LastTransitionTime: cond.LastTransitionTime,
		LastUpdateTime:     cond.LastTransitionTime,
		Reason:             cond.Reason,
		Message:            cond.Message,
	}
}

// SetDeploymentRevision sets d's revision annotation and reports whether it
// changed.
func SetDeploymentRevision(d *api.Deployment, revision string) bool {
	if d.Annotations == nil {
		d.Annotations = map[string]string{}
	}
	if d.Annotations[RevisionAnnotation] == revision {
		return false
	}
	d.Annotations[RevisionAnnotation] = revision
	return true
}

// MaxRevision returns the highest revision of rss (0 for none); revisions
// that do not parse are skipped.
func MaxRevision(rss []*api.ReplicaSet) int64 {
	var highest int64
	for _, rs := range rss {
		if rs == nil {
			continue
		}
		if v, err := Revision(rs); err == nil && v > highest {
			highest = v
		}
	}
	return highest
}

// LastRevision returns the second highest revision of rss, the one a
// rollback without a revision goes back to (0 for none).
func LastRevision(rss []*api.ReplicaSet) int64 {
	var highest, second int64
	for _, rs := range rss {
		if rs == nil {
			continue
		}
		v, err := Revision(rs)
		switch {
		case err != nil:
		case v >= highest:
			second, highest = highest, v
		case v > second:
			second = v
		}
	}
	return second
}

// Revision returns the revision annotation of obj (a Deployment or a
// ReplicaSet): 0 when absent, a *strconv.NumError when it is not a number.
func Revision(obj api.Object) (int64, error) {
	v, ok := obj.GetObjectMeta().Annotations[RevisionAnnotation]
	if !ok {
		return 0, nil
	}
	return strconv.ParseInt(v, 10, 64)
}

// SetNewReplicaSetAnnotations prepares newRS's annotations for becoming (or
// staying) d's new ReplicaSet: d's annotations are copied (except the
// skipped ones), the revision is raised to newRevision if lower (an older
// revision is then appended to the revision history, within
// revHistoryLimitInChars characters), and a ReplicaSet about to be created
// (exists false) gets the replicas annotations. It reports whether any
// annotation changed.
func SetNewReplicaSetAnnotations(d *api.Deployment, newRS *api.ReplicaSet, newRevision string, exists bool, revHistoryLimitInChars int) bool {
	changed := copyDeploymentAnnotationsToReplicaSet(d, newRS)
	if newRS.Annotations == nil {
		newRS.Annotations = map[string]string{}
	}
	oldRevision, hadRevision := newRS.Annotations[RevisionAnnotation]
	oldRevisionInt, err := strconv.ParseInt(oldRevision, 10, 64)
	if err != nil {
		if oldRevision != "" {
			return false
		}
		oldRevisionInt = 0
	}
	newRevisionInt, err := strconv.ParseInt(newRevision, 10, 64)
	if err != nil {
		return false
	}
	if oldRevisionInt < newRevisionInt {
		newRS.Annotations[RevisionAnnotation] = newRevision
		changed = true
	}
	// A ReplicaSet that had a revision and gets a newer one is being rolled
	// back to: keep its old revisions for history.
	if hadRevision && oldRevisionInt < newRevisionInt {
		history := newRS.Annotations[RevisionHistoryAnnotation]
		olds := strings.Split(history, ",")
		if len(olds[0]) == 0 {
			newRS.Annotations[RevisionHistoryAnnotation] = oldRevision
		} else {
			total := len(history) + len(oldRevision) + 1
			start := 0
			for total > revHistoryLimitInChars && start < len(olds) {
				total -= len(olds[start]) + 1
				start++
			}
			if total <= revHistoryLimitInChars {
				newRS.Annotations[RevisionHistoryAnnotation] = strings.Join(append(olds[start:], oldRevision), ",")
			}
		}
	}
	if !exists && SetReplicasAnnotations(newRS, specReplicas(d), specReplicas(d)+MaxSurge(d)) {
		changed = true
	}
	return changed
}

// skipCopyAnnotation reports whether a Deployment annotation stays off its
// ReplicaSets: kubectl's last-applied configuration, the rollback request
// and the controller's own bookkeeping.
func skipCopyAnnotation(key string) bool {
	switch key {
	case LastAppliedConfigAnnotation, RevisionAnnotation, RevisionHistoryAnnotation,
		DesiredReplicasAnnotation, MaxReplicasAnnotation, DeprecatedRollbackToAnnotation:
		return true
	}
	return false
}

// sortedKeys returns m's keys in order, so that no decision depends on map
// iteration order.
func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// copyDeploymentAnnotationsToReplicaSet copies d's annotations (except the
// skipped ones) to rs and reports whether rs changed.
func copyDeploymentAnnotationsToReplicaSet(d *api.Deployment, rs *api.ReplicaSet) bool {
	changed := false
	if rs.Annotations == nil {
		rs.Annotations = map[string]string{}
	}
	for _, k := range sortedKeys(d.Annotations) {
		v := d.Annotations[k]
		if cur, ok := rs.Annotations[k]; skipCopyAnnotation(k) || (ok && cur == v) {
			continue
		}
		rs.Annotations[k] = v
		changed = true
	}
	return changed
}

// SetDeploymentAnnotationsTo replaces d's annotations with those of the
// ReplicaSet it rolls back to, keeping d's own skipped annotations.
func SetDeploymentAnnotationsTo(d *api.Deployment, rollbackToRS *api.ReplicaSet) {
	kept := map[string]string{}
	for k, v := range d.Annotations {
		if skipCopyAnnotation(k) {
			kept[k] = v
		}
	}
	for k, v := range rollbackToRS.Annotations {
		if !skipCopyAnnotation(k) {
			kept[k] = v
		}
	}
	d.Annotations = kept
}

// FindActiveOrLatest returns the only active (non-zero) ReplicaSet of
// newRS and oldRSs, or, when none is active, newRS or else the newest old
// one; with several active ReplicaSets it returns nil (they must be scaled
// proportionally).
func FindActiveOrLatest(newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet) *api.ReplicaSet {
	if newRS == nil && len(oldRSs) == 0 {
		return nil
	}
	olds := slices.Clone(oldRSs)
	sort.Sort(sort.Reverse(ReplicaSetsByCreationTimestamp(olds)))
	active := FilterActiveReplicaSets(append(olds, newRS))
	switch len(active) {
	case 0:
		if newRS != nil {
			return newRS
		}
		return olds[0]
	case 1:
		return active[0]
	}
	return nil
}

// GetDesiredReplicasAnnotation returns rs's desired-replicas annotation and
// whether it holds a number.
func GetDesiredReplicasAnnotation(rs *api.ReplicaSet) (int32, bool) {
	return getIntFromAnnotation(rs, DesiredReplicasAnnotation)
}

func getMaxReplicasAnnotation(rs *api.ReplicaSet) (int32, bool) {
	return getIntFromAnnotation(rs, MaxReplicasAnnotation)
}

// getIntFromAnnotation reads a non-negative int32 annotation; absent or
// invalid values report false.
func getIntFromAnnotation(rs *api.ReplicaSet, key string) (int32, bool) {
	v, ok, err := getNonNegativeInt32FromAnnotation(rs, key)
	if err != nil {
		return 0, false
	}
	return v, ok
}

// getNonNegativeInt32FromAnnotation reads annotation key of rs as a
// non-negative int32: (0, false, nil) when absent, an error wrapping
// ErrBadAnnotation (and the strconv error: "invalid syntax", "value out of
// range") when it is something else.
func getNonNegativeInt32FromAnnotation(rs *api.ReplicaSet, key string) (int32, bool, error) {
	s, ok := rs.Annotations[key]
	if !ok {
		return 0, false, nil
	}
	v, err := strconv.ParseUint(s, 10, 31)
	if err != nil {
		return 0, false, fmt.Errorf("%w %s=%q: %w", ErrBadAnnotation, key, s, err)
	}
	return int32(v), true, nil
}

// SetReplicasAnnotations sets rs's desired-replicas and max-replicas
// annotations and reports whether they changed.
func SetReplicasAnnotations(rs *api.ReplicaSet, desiredReplicas, maxReplicas int32) bool {
	if rs.Annotations == nil {
		rs.Annotations = map[string]string{}
	}
	changed := false
	if s := strconv.FormatInt(int64(desiredReplicas), 10); rs.Annotations[DesiredReplicasAnnotation] != s {
		rs.Annotations[DesiredReplicasAnnotation] = s
		changed = true
	}
	if s := strconv.FormatInt(int64(maxReplicas), 10); rs.Annotations[MaxReplicasAnnotation] != s {
		rs.Annotations[MaxReplicasAnnotation] = s
		changed = true
	}
	return changed
}

// ReplicasAnnotationsNeedUpdate reports whether SetReplicasAnnotations
// would change rs.
func ReplicasAnnotationsNeedUpdate(rs *api.ReplicaSet, desiredReplicas, maxReplicas int32) bool {
	if rs.Annotations == nil {
		return true
	}
	return rs.Annotations[DesiredReplicasAnnotation] != strconv.FormatInt(int64(desiredReplicas), 10) ||
		rs.Annotations[MaxReplicasAnnotation] != strconv.FormatInt(int64(maxReplicas), 10)
}

// MaxUnavailable returns how many pods a rolling Deployment may have
// unavailable: maxUnavailable resolved against spec.replicas (rounded
// down), never more than spec.replicas; 0 for Recreate or 0 replicas.
func MaxUnavailable(d *api.Deployment) int32 {
	if !IsRollingUpdate(d) || specReplicas(d) == 0 {
		return 0
	}
	ru := d.Spec.Strategy.RollingUpdate
	var surge, unavail *api.IntOrString
	if ru != nil {
		surge, unavail = ru.MaxSurge, ru.MaxUnavailable
	}
	// A bad value is rejected by validation; it resolves to 0 here.
	_, maxUnavailable, _ := ResolveFenceposts(surge, unavail, specReplicas(d))
	return min(maxUnavailable, specReplicas(d))
}

// MinAvailable returns spec.replicas − MaxUnavailable for a rolling
// Deployment, 0 for Recreate.
func MinAvailable(d *api.Deployment) int32 {
	if !IsRollingUpdate(d) {
		return 0
	}
	return specReplicas(d) - MaxUnavailable(d)
}

// MaxSurge returns how many pods above spec.replicas a rolling Deployment
// may run: maxSurge resolved against spec.replicas (rounded up); 0 for
// Recreate.
func MaxSurge(d *api.Deployment) int32 {
	if !IsRollingUpdate(d) {
		return 0
	}
	ru := d.Spec.Strategy.RollingUpdate
	var surge, unavail *api.IntOrString
	if ru != nil {
		surge, unavail = ru.MaxSurge, ru.MaxUnavailable
	}
	maxSurge, _, _ := ResolveFenceposts(surge, unavail, specReplicas(d))
	return maxSurge
}

// GetProportion returns how many replicas rs gains (or loses, negative)
// in a proportional scale of d that must add deploymentReplicasToAdd in
// all, deploymentReplicasAdded of them already given to other ReplicaSets:
// rs's fraction, bounded by what is left to add.
func GetProportion(rs *api.ReplicaSet, d *api.Deployment, deploymentReplicasToAdd, deploymentReplicasAdded int32) int32 {
	if rs == nil || rsReplicas(rs) == 0 || deploymentReplicasToAdd == 0 || deploymentReplicasToAdd == deploymentReplicasAdded {
		return 0
	}
	fraction := getReplicaSetFraction(rs, d)
	allowed := deploymentReplicasToAdd - deploymentReplicasAdded
	if deploymentReplicasToAdd > 0 {
		// Scaling up: never add more than is left to add.
		return min(fraction, allowed)
	}
	// Scaling down: never remove more than is left to remove.
	return max(fraction, allowed)
}

// getReplicaSetFraction estimates rs's share of a scaling event of d:
// rs.replicas × (d.replicas + maxSurge) / max-replicas annotation, rounded,
// minus rs.replicas. Without a usable annotation the Deployment's current
// status.replicas stands in; when that is 0 too the Deployment is unsynced
// and nothing is scaled.
func getReplicaSetFraction(rs *api.ReplicaSet, d *api.Deployment) int32 {
	if specReplicas(d) == 0 {
		// Scaling to zero: the fraction is the whole ReplicaSet.
		return -rsReplicas(rs)
	}
	deploymentMaxReplicas := specReplicas(d) + MaxSurge(d)
	annotated, ok := getMaxReplicasAnnotation(rs)
	if !ok || annotated == 0 {
		annotated = d.Status.Replicas
	}
	if annotated == 0 {
		return 0
	}
	size := float64(rsReplicas(rs)) * float64(deploymentMaxReplicas) / float64(annotated)
	return roundToInt32(size) - rsReplicas(rs)
}

// roundToInt32 rounds half away from zero, as k8s.io/utils/integer does.
func roundToInt32(a float64) int32 {
	return int32(math.Round(a))
}

// RSListFunc lists the ReplicaSets of a namespace that a selector matches,
// from a cache or through a client.
type RSListFunc func(namespace string, sel api.Selector) ([]*api.ReplicaSet, error)

// ListReplicaSets returns the ReplicaSets d's selector matches and d
// controls. It does not adopt or release anything (only the controller
// does).
func ListReplicaSets(d *api.Deployment, list RSListFunc) ([]*api.ReplicaSet, error) {
	sel, err := api.LabelSelectorAsSelector(d.Spec.Selector)
	if err != nil {
		return nil, err
	}
	all, err := list(d.Namespace, sel)
	if err != nil {
		return nil, err
	}
	owned := make([]*api.ReplicaSet, 0, len(all))
	for _, rs := range all {
		if api.IsControlledBy(rs, d) {
			owned = append(owned, rs)
		}
	}
	return owned, nil
}

// EqualIgnoreHash reports whether two pod templates are semantically equal
// apart from the pod-template-hash label (which a Deployment's own template
// never has): quantities compare by value, times by instant, and nil and
// empty maps and slices are equal.
//
// Upstream deep-copies both templates to delete the label from the copies;
// this compares the labels apart and the rest on shallow copies without
// labels, which semanticEqual only reads: the same comparison without
// copying two pod specs on every sync of every Deployment.
func EqualIgnoreHash(template1, template2 *api.PodTemplateSpec) bool {
	if !labelsEqualIgnoring(template1.Labels, template2.Labels, DefaultDeploymentUniqueLabelKey) {
		return false
	}
	t1, t2 := *template1, *template2
	t1.Labels, t2.Labels = nil, nil
	return api.SemanticEqual(&t1, &t2)
}

// labelsEqualIgnoring reports whether a and b hold the same labels apart
// from key (nil and empty are equal, as semanticEqual has them).
func labelsEqualIgnoring(a, b map[string]string, key string) bool {
	n := 0
	for k, v := range a {
		if k == key {
			continue
		}
		if w, ok := b[k]; !ok || w != v {
			return false
		}
		n++
	}
	if _, ok := b[key]; ok {
		n++
	}
	return n == len(b)
}

// FindNewReplicaSet returns the ReplicaSet of rsList whose template equals
// d's (ignoring the hash label), the oldest one if several do, or nil.
func FindNewReplicaSet(d *api.Deployment, rsList []*api.ReplicaSet) *api.ReplicaSet {
	sorted := slices.Clone(rsList)
	sort.Sort(ReplicaSetsByCreationTimestamp(sorted))
	for _, rs := range sorted {
		if rs != nil && EqualIgnoreHash(&rs.Spec.Template, &d.Spec.Template) {
			// Several new ReplicaSets can exist after upgrades
			// (kubernetes#40415): the oldest one is chosen.
			return rs
		}
	}
	return nil
}

// FindOldReplicaSets returns the ReplicaSets of rsList other than d's new
// one, oldest first: those with replicas, and all of them.
func FindOldReplicaSets(d *api.Deployment, rsList []*api.ReplicaSet) (withReplicas, all []*api.ReplicaSet) {
	return oldReplicaSets(rsList, FindNewReplicaSet(d, rsList))
}

// oldReplicaSets is FindOldReplicaSets given the new ReplicaSet (nil for
// none).
func oldReplicaSets(rsList []*api.ReplicaSet, newRS *api.ReplicaSet) (withReplicas, all []*api.ReplicaSet) {
	sorted := slices.Clone(rsList)
	sort.Sort(ReplicaSetsByCreationTimestamp(sorted))
	for _, rs := range sorted {
		if rs == nil || (newRS != nil && rs.UID == newRS.UID) {
			continue
		}
		all = append(all, rs)
		if rsReplicas(rs) != 0 {
			withReplicas = append(withReplicas, rs)
		}
	}
	return withReplicas, all
}

// SetFromReplicaSetTemplate sets d's template to template without the hash
// label (a rollback) and returns d.
func SetFromReplicaSetTemplate(d *api.Deployment, template api.PodTemplateSpec) *api.Deployment {
	t := template.DeepCopy()
	d.Spec.Template.ObjectMeta = t.ObjectMeta
	d.Spec.Template.Spec = t.Spec
	d.Spec.Template.Labels = cloneAndRemoveLabel(d.Spec.Template.Labels, DefaultDeploymentUniqueLabelKey)
	return d
}

// GetReplicaCountForReplicaSets returns the sum of spec.replicas.
func GetReplicaCountForReplicaSets(rss []*api.ReplicaSet) int32 {
	var n int32
	for _, rs := range rss {
		n += rsReplicas(rs)
	}
	return n
}

// GetActualReplicaCountForReplicaSets returns the sum of status.replicas
// (non-terminating pods).
func GetActualReplicaCountForReplicaSets(rss []*api.ReplicaSet) int32 {
	var n int32
	for _, rs := range rss {
		if rs != nil {
			n += rs.Status.Replicas
		}
	}
	return n
}

// GetTerminatingReplicaCountForReplicaSets returns the sum of
// status.terminatingReplicas, or nil when a synced ReplicaSet does not
// report it (the count is unknown). A ReplicaSet never synced
// (observedGeneration 0) without the field counts as 0.
func GetTerminatingReplicaCountForReplicaSets(rss []*api.ReplicaSet) *int32 {
	var n int32
	for _, rs := range rss {
		if rs == nil {
			continue
		}
		if rs.Status.TerminatingReplicas == nil {
			if rs.Status.ObservedGeneration == 0 {
				continue
			}
			return nil
		}
		n += *rs.Status.TerminatingReplicas
	}
	return &n
}

// GetReadyReplicaCountForReplicaSets returns the sum of
// status.readyReplicas.
func GetReadyReplicaCountForReplicaSets(rss []*api.ReplicaSet) int32 {
	var n int32
	for _, rs := range rss {
		if rs != nil {
			n += rs.Status.ReadyReplicas
		}
	}
	return n
}

// GetAvailableReplicaCountForReplicaSets returns the sum of
// status.availableReplicas.
func GetAvailableReplicaCountForReplicaSets(rss []*api.ReplicaSet) int32 {
	var n int32
	for _, rs := range rss {
		if rs != nil {
			n += rs.Status.AvailableReplicas
		}
	}
	return n
}

// IsRollingUpdate reports whether d uses the RollingUpdate strategy.
func IsRollingUpdate(d *api.Deployment) bool {
	return d.Spec.Strategy.Type == api.RollingUpdateDeploymentStrategyType
}

// DeploymentComplete reports whether newStatus shows d fully rolled out:
// updated == spec.replicas == status.replicas == available, with the
// current generation observed.
func DeploymentComplete(d *api.Deployment, newStatus *api.DeploymentStatus) bool {
	n := specReplicas(d)
	return newStatus.UpdatedReplicas == n &&
		newStatus.Replicas == n &&
		newStatus.AvailableReplicas == n &&
		newStatus.ObservedGeneration >= d.Generation
}

// DeploymentProgressing reports whether newStatus shows progress over d's
// current status: more updated pods, fewer old pods, more ready or more
// available pods.
func DeploymentProgressing(d *api.Deployment, newStatus *api.DeploymentStatus) bool {
	old := d.Status
	oldOld := old.Replicas - old.UpdatedReplicas
	newOld := newStatus.Replicas - newStatus.UpdatedReplicas
	return newStatus.UpdatedReplicas > old.UpdatedReplicas ||
		newOld < oldOld ||
		newStatus.ReadyReplicas > old.ReadyReplicas ||
		newStatus.AvailableReplicas > old.AvailableReplicas
}

// DeploymentTimedOut reports whether d has made no progress for
// progressDeadlineSeconds at now: its Progressing condition in newStatus
// was last updated more than the deadline before now (strictly), or it
// already says ProgressDeadlineExceeded. A completed rollout
// (NewReplicaSetAvailable) never times out, nor a Deployment without a
// deadline.
func DeploymentTimedOut(d *api.Deployment, newStatus *api.DeploymentStatus, now time.Time) bool {
	if !HasProgressDeadline(d) {
		return false
	}
	cond := GetDeploymentCondition(*newStatus, api.DeploymentProgressing)
	if cond == nil {
		return false
	}
	// After a successful rollout, a resync that sees a new ReplicaSet
	// before the cached Deployment shows it must not report a timeout.
	if cond.Reason == NewRSAvailableReason {
		return false
	}
	if cond.Reason == TimedOutReason {
		return true
	}
	deadline := time.Duration(*d.Spec.ProgressDeadlineSeconds) * time.Second
	return cond.LastUpdateTime.Add(deadline).Before(now)
}

// NewRSNewReplicas returns the size d's new ReplicaSet should have now: for
// RollingUpdate, as much as maxSurge allows above spec.replicas over all
// ReplicaSets, up to spec.replicas; for Recreate, spec.replicas.
func NewRSNewReplicas(d *api.Deployment, allRSs []*api.ReplicaSet, newRS *api.ReplicaSet) (int32, error) {
	switch d.Spec.Strategy.Type {
	case api.RollingUpdateDeploymentStrategyType:
		var surgeValue *api.IntOrString
		if ru := d.Spec.Strategy.RollingUpdate; ru != nil {
			surgeValue = ru.MaxSurge
		}
		maxSurge, err := api.GetScaledValueFromIntOrPercent(surgeValue, int(specReplicas(d)), true)
		if err != nil {
			return 0, err
		}
		current := GetReplicaCountForReplicaSets(allRSs)
		maxTotal := specReplicas(d) + int32(maxSurge)
		if current >= maxTotal {
			return rsReplicas(newRS), nil
		}
		up := min(maxTotal-current, specReplicas(d)-rsReplicas(newRS))
		return rsReplicas(newRS) + up, nil
	case api.RecreateDeploymentStrategyType:
		return specReplicas(d), nil
	}
	return 0, fmt.Errorf("%w: %q", ErrUnknownStrategy, d.Spec.Strategy.Type)
}

// IsSaturated reports whether rs holds all of d: spec.replicas, the
// desired-replicas annotation and available pods all equal d's
// spec.replicas.
func IsSaturated(d *api.Deployment, rs *api.ReplicaSet) bool {
	if rs == nil {
		return false
	}
	desired, err := strconv.Atoi(rs.Annotations[DesiredReplicasAnnotation])
	if err != nil {
		return false
	}
	n := specReplicas(d)
	return rsReplicas(rs) == n && int32(desired) == n && rs.Status.AvailableReplicas == n
}

// ResolveFenceposts resolves maxSurge (rounded up) and maxUnavailable
// (rounded down) against desired; nil means 0. When both resolve to 0,
// maxUnavailable becomes 1, so that a rollout can always proceed. A value
// that is neither an int nor a percentage is an *api.IntOrStringError.
func ResolveFenceposts(maxSurge, maxUnavailable *api.IntOrString, desired int32) (int32, int32, error) {
	zero := api.FromInt32(0)
	if maxSurge == nil {
		maxSurge = &zero
	}
	if maxUnavailable == nil {
		maxUnavailable = &zero
	}
	surge, err := api.GetScaledValueFromIntOrPercent(maxSurge, int(desired), true)
	if err != nil {
		return 0, 0, err
	}
	unavailable, err := api.GetScaledValueFromIntOrPercent(maxUnavailable, int(desired), false)
	if err != nil {
		return 0, 0, err
	}
	if surge == 0 && unavailable == 0 {
		// Validation forbids both being 0 explicitly, but rounding down
		// can make maxUnavailable 0; surge may be impossible (quota), so
		// allow one unavailable pod.
		unavailable = 1
	}
	return int32(surge), int32(unavailable), nil
}

// HasProgressDeadline reports whether d has a progress deadline
// (progressDeadlineSeconds set and not MaxInt32).
func HasProgressDeadline(d *api.Deployment) bool {
	return d.Spec.ProgressDeadlineSeconds != nil && *d.Spec.ProgressDeadlineSeconds != math.MaxInt32
}

// HasRevisionHistoryLimit reports whether d limits its old ReplicaSets
// (revisionHistoryLimit set and not MaxInt32).
func HasRevisionHistoryLimit(d *api.Deployment) bool {
	return d.Spec.RevisionHistoryLimit != nil && *d.Spec.RevisionHistoryLimit != math.MaxInt32
}

// GetDeploymentsForReplicaSet returns the Deployments of deployments (in
// their order) whose non-empty selector matches rs's labels, in rs's
// namespace. Only the one rs's controller reference names manages it. No
// match is an error matching ErrNoMatchingDeployment.
func GetDeploymentsForReplicaSet(deployments []*api.Deployment, rs *api.ReplicaSet) ([]*api.Deployment, error) {
	if len(rs.Labels) == 0 {
		return nil, &matchError{msg: fmt.Sprintf("no deployments found for ReplicaSet %v because it has no labels", rs.Name)}
	}
	var out []*api.Deployment
	for _, d := range deployments {
		if d.Namespace != rs.Namespace {
			continue
		}
		sel, err := api.LabelSelectorAsSelector(d.Spec.Selector)
		if err != nil {
			continue // an invalid selector matches nothing
		}
		// A nil or empty selector must match nothing, not everything.
		if sel.Empty() || !sel.Matches(rs.Labels) {
			continue
		}
		out = append(out, d)
	}
	if len(out) == 0 {
		return nil, &matchError{msg: fmt.Sprintf("could not find deployments set for ReplicaSet %s in namespace %s with labels: %v", rs.Name, rs.Namespace, rs.Labels)}
	}
	return out, nil
}

// cloneAndAddLabel returns a copy of labels with key=value added.
func cloneAndAddLabel(labels map[string]string, key, value string) map[string]string {
	out := make(map[string]string, len(labels)+1)
	for k, v := range labels {
		out[k] = v
	}
	out[key] = value
	return out
}

// cloneAndRemoveLabel returns a copy of labels without key.
func cloneAndRemoveLabel(labels map[string]string, key string) map[string]string {
	if labels == nil {
		return nil
	}
	out := make(map[string]string, len(labels))
	for k, v := range labels {
		if k != key {
			out[k] = v
		}
	}
	return out
}

// cloneSelectorAndAddLabel returns a copy of sel requiring key=value too.
func cloneSelectorAndAddLabel(sel *api.LabelSelector, key, value string) *api.LabelSelector {
	out := &api.LabelSelector{}
	if sel != nil {
		out = sel.DeepCopy()
	}
	out.MatchLabels = cloneAndAddLabel(out.MatchLabels, key, value)
	return out
}
