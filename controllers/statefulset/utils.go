package statefulset

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/clustersim/clustersim/controllers/replicaset"
	"github.com/clustersim/clustersim/sim/api"
)

// The helpers of k/k pkg/controller/statefulset/stateful_set_utils.go.

// getParentNameAndOrdinal returns the name of the pod's parent set and its
// ordinal, or "" and -1 for a name without an ordinal; the parent name
// and -1 for an ordinal beyond int32. Upstream matches the name with the
// regular expression (.*)-([0-9]+)$ (statefulPodRegex); splitOrdinal
// finds the same match by hand (TestParentNameAndOrdinalIsRegex compares
// the two): a sync reads every pod of its set, several times, and the
// expression was a tenth of a run with a 300-replica set.
func getParentNameAndOrdinal(p *api.Pod) (string, int) {
	parent, digits, ok := splitOrdinal(p.Name)
	if !ok {
		return "", -1
	}
	i, err := strconv.ParseInt(digits, 10, 32)
	if err != nil {
		return parent, -1
	}
	return parent, int(i)
}

// splitOrdinal is statefulPodRegex's leftmost match in name: the digits
// ([0-9]+) must run from the last '-' to the end (an earlier '-' would
// leave that one among them), and the parent (.*, which matches no
// newline) starts after the last newline before it.
func splitOrdinal(name string) (parent, digits string, ok bool) {
	dash := strings.LastIndexByte(name, '-')
	if dash < 0 || dash == len(name)-1 {
		return "", "", false
	}
	digits = name[dash+1:]
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return "", "", false
		}
	}
	parent = name[:dash]
	if nl := strings.LastIndexByte(parent, '\n'); nl >= 0 {
		parent = parent[nl+1:]
	}
	return parent, digits, true
}

// sortByOrdinal sorts pods by ascending ordinal, comparing as
// slices.SortFunc with getOrdinal's difference does, but parsing each
// pod's name once: a sync sorts all of a set's pods (37% of a
// 600-replica set's run went to the comparisons' parsing, when it was a
// regular expression's).
func sortByOrdinal(pods []*api.Pod) {
	ordinals := make(map[*api.Pod]int, len(pods))
	for _, p := range pods {
		ordinals[p] = getOrdinal(p)
	}
	slices.SortFunc(pods, func(a, b *api.Pod) int { return ordinals[a] - ordinals[b] })
}

func getOrdinal(p *api.Pod) int {
	_, o := getParentNameAndOrdinal(p)
	return o
}

func getParentName(p *api.Pod) string {
	n, _ := getParentNameAndOrdinal(p)
	return n
}

// getPodName is "<set>-<ordinal>".
func getPodName(set *api.StatefulSet, ordinal int) string {
	return fmt.Sprintf("%s-%d", set.Name, ordinal)
}

// getPersistentVolumeClaimName is "<template>-<set>-<ordinal>".
func getPersistentVolumeClaimName(set *api.StatefulSet, claim *api.PersistentVolumeClaim, ordinal int) string {
	return fmt.Sprintf("%s-%s-%d", claim.Name, set.Name, ordinal)
}

// isMemberOf: the pod's name makes it one of set's.
func isMemberOf(set *api.StatefulSet, p *api.Pod) bool { return getParentName(p) == set.Name }

// getStartOrdinal is spec.ordinals.start (0 by default).
func getStartOrdinal(set *api.StatefulSet) int {
	if set.Spec.Ordinals != nil {
		return int(set.Spec.Ordinals.Start)
	}
	return 0
}

func replicasOf(set *api.StatefulSet) int {
	if set.Spec.Replicas != nil {
		return int(*set.Spec.Replicas)
	}
	return 1
}

// getEndOrdinal is the last ordinal in range.
func getEndOrdinal(set *api.StatefulSet) int { return getStartOrdinal(set) + replicasOf(set) - 1 }

// podInOrdinalRange: the pod's ordinal is in [start, end].
func podInOrdinalRange(p *api.Pod, set *api.StatefulSet) bool {
	o := getOrdinal(p)
	return o >= getStartOrdinal(set) && o <= getEndOrdinal(set)
}

// identityMatches: the pod has the name, namespace and pod-name label of a
// member of set.
func identityMatches(set *api.StatefulSet, p *api.Pod) bool {
	parent, ordinal := getParentNameAndOrdinal(p)
	return ordinal >= 0 && set.Name == parent && p.Name == getPodName(set, ordinal) &&
		p.Namespace == set.Namespace && p.Labels != nil && p.Labels[api.StatefulSetPodNameLabel] == p.Name
}

// claimNameOf returns the claimName of a persistentVolumeClaim volume
// source, or "" for another source.
func claimNameOf(v *api.Volume) string {
	raw, ok := v.Source["persistentVolumeClaim"]
	if !ok {
		return ""
	}
	var src struct {
		ClaimName string `json:"claimName"`
	}
	if raw.Decode(&src) != nil {
		return ""
	}
	return src.ClaimName
}

// claimVolume is a persistentVolumeClaim volume.
func claimVolume(name, claim string) api.Volume {
	src, _ := api.NewRawValue(map[string]string{"claimName": claim})
	return api.Volume{Name: name, Source: map[string]api.RawValue{"persistentVolumeClaim": src}}
}

// storageMatches: the pod's volumes name the claims of set's templates.
func storageMatches(set *api.StatefulSet, p *api.Pod) bool {
	ordinal := getOrdinal(p)
	if ordinal < 0 {
		return false
	}
	for i := range set.Spec.VolumeClaimTemplates {
		c := &set.Spec.VolumeClaimTemplates[i]
		j := slices.IndexFunc(p.Spec.Volumes, func(v api.Volume) bool { return v.Name == c.Name })
		if j < 0 || claimNameOf(&p.Spec.Volumes[j]) != getPersistentVolumeClaimName(set, c, ordinal) {
			return false
		}
	}
	return true
}

// getPersistentVolumeClaims returns the claims of pod, in template order:
// each template named for the pod, in set's namespace, with the template's
// labels and the selector's matchLabels.
func getPersistentVolumeClaims(set *api.StatefulSet, p *api.Pod) []*api.PersistentVolumeClaim {
	ordinal := getOrdinal(p)
	out := make([]*api.PersistentVolumeClaim, 0, len(set.Spec.VolumeClaimTemplates))
	for i := range set.Spec.VolumeClaimTemplates {
		c := set.Spec.VolumeClaimTemplates[i].DeepCopy()
		c.TypeMeta = api.TypeMeta{APIVersion: "v1", Kind: api.KindPersistentVolumeClaim.Name}
		c.Name = getPersistentVolumeClaimName(set, &set.Spec.VolumeClaimTemplates[i], ordinal)
		c.Namespace = set.Namespace
		if set.Spec.Selector != nil && len(set.Spec.Selector.MatchLabels) > 0 {
			if c.Labels == nil {
				c.Labels = map[string]string{}
			}
			for k, v := range set.Spec.Selector.MatchLabels {
				c.Labels[k] = v
			}
		}
		c.Status = api.PersistentVolumeClaimStatus{}
		out = append(out, c)
	}
	return out
}

// updateStorage makes the pod's volumes name its claims: the claim
// volumes first, in template order (upstream iterates a map), then the
// pod's other volumes.
func updateStorage(set *api.StatefulSet, p *api.Pod) {
	claims := getPersistentVolumeClaims(set, p)
	vols := make([]api.Volume, 0, len(claims)+len(p.Spec.Volumes))
	names := map[string]bool{}
	for i, c := range claims {
		name := set.Spec.VolumeClaimTemplates[i].Name
		names[name] = true
		vols = append(vols, claimVolume(name, c.Name))
	}
	for _, v := range p.Spec.Volumes {
		if !names[v.Name] {
			vols = append(vols, v)
		}
	}
	p.Spec.Volumes = vols
}

// updateIdentity sets the pod's name, namespace, pod-name and pod-index
// labels.
func updateIdentity(set *api.StatefulSet, p *api.Pod) {
	ordinal := getOrdinal(p)
	p.Name = getPodName(set, ordinal)
	p.Namespace = set.Namespace
	if p.Labels == nil {
		p.Labels = map[string]string{}
	}
	p.Labels[api.StatefulSetPodNameLabel] = p.Name
	p.Labels[api.PodIndexLabel] = strconv.Itoa(ordinal)
}

// initIdentity is updateIdentity plus the hostname and subdomain.
func initIdentity(set *api.StatefulSet, p *api.Pod) {
	updateIdentity(set, p)
	p.Spec.Hostname = p.Name
	p.Spec.Subdomain = set.Spec.ServiceName
}

// isRunningAndReady: phase Running and the Ready condition True.
func isRunningAndReady(p *api.Pod) bool {
	return p.Status.Phase == api.PodRunning && api.IsPodReady(p)
}

// isRunningAndAvailable: running and ready for minReadySeconds.
func isRunningAndAvailable(p *api.Pod, minReadySeconds int32, now time.Time) bool {
	return p.Status.Phase == api.PodRunning && replicaset.IsPodAvailable(p, minReadySeconds, now)
}

// isCreated: the apiserver has the pod (it has a phase).
func isCreated(p *api.Pod) bool { return p.Status.Phase != "" }

func isPending(p *api.Pod) bool   { return p.Status.Phase == api.PodPending }
func isFailed(p *api.Pod) bool    { return p.Status.Phase == api.PodFailed }
func isSucceeded(p *api.Pod) bool { return p.Status.Phase == api.PodSucceeded }

// isTerminating: the pod has a deletion timestamp.
func isTerminating(p *api.Pod) bool { return p.DeletionTimestamp != nil }

// isHealthy: running, ready, not terminating.
func isHealthy(p *api.Pod) bool { return isRunningAndReady(p) && !isTerminating(p) }

// isUnavailable: not healthy or not yet available.
func isUnavailable(p *api.Pod, minReadySeconds int32, now time.Time) bool {
	return !isHealthy(p) || !replicaset.IsPodAvailable(p, minReadySeconds, now)
}

// allowsBurst: Parallel pod management.
func allowsBurst(set *api.StatefulSet) bool {
	return set.Spec.PodManagementPolicy == api.ParallelPodManagement
}

// getPodRevision is the pod's controller-revision-hash label.
func getPodRevision(p *api.Pod) string {
	if p.Labels == nil {
		return ""
	}
	return p.Labels[api.LabelControllerRevisionHash]
}

func setPodRevision(p *api.Pod, revision string) {
	if p.Labels == nil {
		p.Labels = map[string]string{}
	}
	p.Labels[api.LabelControllerRevisionHash] = revision
}

// newStatefulSetPod is a pod of set's template with ordinal's identity and
// storage, owned by set.
func newStatefulSetPod(set *api.StatefulSet, ordinal int) *api.Pod {
	ref := api.NewControllerRef(set)
	p := replicaset.PodFromTemplate(&set.Spec.Template, set, &ref)
	p.Name = getPodName(set, ordinal)
	initIdentity(set, p)
	updateStorage(set, p)
	return p
}

// newVersionedStatefulSetPod creates the pod of ordinal at the current
// revision when the rolling update keeps it there (below the partition),
// at the update revision otherwise.
func newVersionedStatefulSetPod(currentSet, updateSet *api.StatefulSet, currentRevision, updateRevision string, ordinal int) *api.Pod {
	us := currentSet.Spec.UpdateStrategy
	if us.Type == api.RollingUpdateStatefulSetStrategyType &&
		(us.RollingUpdate == nil && ordinal < getStartOrdinal(currentSet)+int(currentSet.Status.CurrentReplicas)) ||
		(us.RollingUpdate != nil && us.RollingUpdate.Partition != nil && ordinal < getStartOrdinal(currentSet)+int(*us.RollingUpdate.Partition)) {
		p := newStatefulSetPod(currentSet, ordinal)
		setPodRevision(p, currentRevision)
		return p
	}
	p := newStatefulSetPod(updateSet, ordinal)
	setPodRevision(p, updateRevision)
	return p
}

// getStatefulSetMaxUnavailable resolves maxUnavailable against the
// replicas, rounding down, at least 1 (default 1).
func getStatefulSetMaxUnavailable(maxUnavailable *api.IntOrString, replicaCount int) (int, error) {
	mu := api.FromInt32(1)
	if maxUnavailable != nil {
		mu = *maxUnavailable
	}
	n, err := api.GetScaledValueFromIntOrPercent(&mu, replicaCount, false)
	if err != nil {
		return 0, err
	}
	return max(n, 1), nil
}

// completeRollingUpdate finishes a rolling update whose pods are all
// updated and ready: the update revision becomes the current one.
func completeRollingUpdate(set *api.StatefulSet, st *api.StatefulSetStatus) {
	if set.Spec.UpdateStrategy.Type == api.RollingUpdateStatefulSetStrategyType &&
		st.UpdatedReplicas == st.Replicas && st.ReadyReplicas == st.Replicas {
		st.CurrentReplicas = st.UpdatedReplicas
		st.CurrentRevision = st.UpdateRevision
	}
}

// inconsistentStatus: the computed status differs from the stored one.
func inconsistentStatus(set *api.StatefulSet, st *api.StatefulSetStatus) bool {
	s := &set.Status
	return st.ObservedGeneration > s.ObservedGeneration || st.Replicas != s.Replicas ||
		st.CurrentReplicas != s.CurrentReplicas || st.ReadyReplicas != s.ReadyReplicas ||
		st.UpdatedReplicas != s.UpdatedReplicas || st.CurrentRevision != s.CurrentRevision ||
		st.AvailableReplicas != s.AvailableReplicas || st.UpdateRevision != s.UpdateRevision
}

// retentionPolicy returns the set's policy, Retain/Retain when unset.
func retentionPolicy(set *api.StatefulSet) api.StatefulSetPersistentVolumeClaimRetentionPolicy {
	p := api.StatefulSetPersistentVolumeClaimRetentionPolicy{WhenDeleted: api.RetainPersistentVolumeClaimRetentionPolicyType, WhenScaled: api.RetainPersistentVolumeClaimRetentionPolicyType}
	if s := set.Spec.PersistentVolumeClaimRetentionPolicy; s != nil {
		if s.WhenDeleted != "" {
			p.WhenDeleted = s.WhenDeleted
		}
		if s.WhenScaled != "" {
			p.WhenScaled = s.WhenScaled
		}
	}
	return p
}

// The owner references of a claim, after upstream's stateful_set_utils.go
// (matchesRef, hasUnexpectedController, hasNonControllerOwner,
// isClaimOwnerUpToDate, updateClaimOwnerRefForSetAndPod, hasOwnerRef,
// hasStaleOwnerRef, addControllerRef).
const (
	podAPIVersion = "v1"
	setAPIVersion = "apps/v1"
)

// matchesRef: ref names obj of kind (apiVersion, kind and name; the uid
// is not compared, as upstream's matchesRef).
func matchesRef(ref *api.OwnerReference, m *api.ObjectMeta, apiVersion, kind string) bool {
	return ref.APIVersion == apiVersion && ref.Kind == kind && ref.Name == m.Name
}

func matchesSet(ref *api.OwnerReference, set *api.StatefulSet) bool {
	return matchesRef(ref, &set.ObjectMeta, setAPIVersion, api.KindStatefulSet.Name)
}

func matchesPod(ref *api.OwnerReference, p *api.Pod) bool {
	return matchesRef(ref, &p.ObjectMeta, podAPIVersion, api.KindPod.Name)
}

// hasOwnerRef: claim has a reference to the owner's uid, controller or not.
func hasOwnerRef(claim *api.PersistentVolumeClaim, owner *api.ObjectMeta) bool {
	return slices.ContainsFunc(claim.OwnerReferences, func(r api.OwnerReference) bool { return r.UID == owner.UID })
}

// hasStaleOwnerRef: the first reference of claim naming the owner carries
// another uid (a deleted owner of the same name).
func hasStaleOwnerRef(claim *api.PersistentVolumeClaim, owner *api.ObjectMeta, apiVersion, kind string) bool {
	for i := range claim.OwnerReferences {
		if matchesRef(&claim.OwnerReferences[i], owner, apiVersion, kind) {
			return claim.OwnerReferences[i].UID != owner.UID
		}
	}
	return false
}

// hasUnexpectedController: under a retention policy other than
// Retain/Retain, the claim has a controller that is neither the set nor
// the pod, or a reference to them with a stale uid.
func hasUnexpectedController(claim *api.PersistentVolumeClaim, set *api.StatefulSet, p *api.Pod) bool {
	pol := retentionPolicy(set)
	if pol.WhenScaled == api.RetainPersistentVolumeClaimRetentionPolicyType && pol.WhenDeleted == api.RetainPersistentVolumeClaimRetentionPolicyType {
		return false
	}
	for i := range claim.OwnerReferences {
		ref := &claim.OwnerReferences[i]
		switch {
		case matchesSet(ref, set):
			if ref.UID != set.UID {
				return true
			}
		case matchesPod(ref, p):
			if ref.UID != p.UID {
				return true
			}
		case ref.Controller != nil && *ref.Controller:
			return true
		}
	}
	return false
}

// hasNonControllerOwner: the set or the pod owns the claim without being
// its controller.
func hasNonControllerOwner(claim *api.PersistentVolumeClaim, set *api.StatefulSet, p *api.Pod) bool {
	return slices.ContainsFunc(claim.OwnerReferences, func(r api.OwnerReference) bool {
		return (r.UID == set.UID || r.UID == p.UID) && (r.Controller == nil || !*r.Controller)
	})
}

// wantedClaimRefs says which owners the retention policy wants on a claim
// of pod: the set (whenDeleted Delete, pod in range), the pod (whenScaled
// Delete, pod condemned by a scale-down).
func wantedClaimRefs(set *api.StatefulSet, p *api.Pod) (podRef, setRef bool) {
	pol := retentionPolicy(set)
	del := api.DeletePersistentVolumeClaimRetentionPolicyType
	scaledDown := !podInOrdinalRange(p, set)
	switch {
	case pol.WhenScaled != del && pol.WhenDeleted != del:
		return false, false
	case pol.WhenScaled != del:
		return false, true
	case pol.WhenDeleted != del:
		return scaledDown, false
	default:
		return scaledDown, !scaledDown
	}
}

// isClaimOwnerUpToDate: the claim's set and pod owner references are as
// the retention policy wants. A claim with a stale reference to the set
// or pod is left alone (up to date); one with another controller is up to
// date unless it also names the set or pod (to be scrubbed); a
// non-controller reference to either is not.
func isClaimOwnerUpToDate(claim *api.PersistentVolumeClaim, set *api.StatefulSet, p *api.Pod) bool {
	if hasStaleOwnerRef(claim, &set.ObjectMeta, setAPIVersion, api.KindStatefulSet.Name) || hasStaleOwnerRef(claim, &p.ObjectMeta, podAPIVersion, api.KindPod.Name) {
		return true
	}
	if hasUnexpectedController(claim, set, p) {
		return !hasOwnerRef(claim, &set.ObjectMeta) && !hasOwnerRef(claim, &p.ObjectMeta)
	}
	if hasNonControllerOwner(claim, set, p) {
		return false
	}
	podRef, setRef := wantedClaimRefs(set, p)
	return hasOwnerRef(claim, &p.ObjectMeta) == podRef && hasOwnerRef(claim, &set.ObjectMeta) == setRef
}

// updateClaimOwnerRefForSetAndPod scrubs the claim's references to the
// set and the pod and, unless another controller manages the claim, adds
// the controller references the retention policy wants.
func updateClaimOwnerRefForSetAndPod(claim *api.PersistentVolumeClaim, set *api.StatefulSet, p *api.Pod) {
	unexpected := hasUnexpectedController(claim, set, p)
	claim.OwnerReferences = slices.DeleteFunc(claim.OwnerReferences, func(r api.OwnerReference) bool {
		return matchesSet(&r, set) || matchesPod(&r, p)
	})
	if unexpected {
		return
	}
	podRef, setRef := wantedClaimRefs(set, p)
	add := func(owner api.Object, apiVersion, kind string) {
		if hasOwnerRef(claim, owner.GetObjectMeta()) {
			return
		}
		ref := api.NewControllerRef(owner)
		ref.APIVersion, ref.Kind = apiVersion, kind
		claim.OwnerReferences = append(claim.OwnerReferences, ref)
	}
	if podRef {
		add(p, podAPIVersion, api.KindPod.Name)
	}
	if setRef {
		add(set, setAPIVersion, api.KindStatefulSet.Name)
	}
}
