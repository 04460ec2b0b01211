package kubectl

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/clustersim/clustersim/controllers/deployment"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/client"
)

// Annotations kubectl's rollout commands read or write.
const (
	// RestartedAtAnnotation is the pod template annotation `rollout
	// restart` sets to the time, RFC 3339.
	RestartedAtAnnotation = "kubectl.kubernetes.io/restartedAt"
	// ChangeCauseAnnotation is the annotation `rollout history` shows as
	// CHANGE-CAUSE.
	ChangeCauseAnnotation = "kubernetes.io/change-cause"
)

// RolloutStatus returns what `kubectl rollout status deployment/<name>`
// prints for d at one instant (polymorphichelpers' DeploymentStatusViewer,
// without the trailing newline) and whether the rollout is done. A
// Deployment whose Progressing condition has reason
// ProgressDeadlineExceeded fails with `deployment "<name>" exceeded its
// progress deadline` (ErrProgressDeadline), printed after "error: ".
func RolloutStatus(d *api.Deployment) (msg string, done bool, err error) {
	if d == nil {
		return "", false, newError(BadInput, "rollout status needs a deployment")
	}
	if d.Generation <= d.Status.ObservedGeneration {
		cond := deployment.GetDeploymentCondition(d.Status, api.DeploymentProgressing)
		if cond != nil && cond.Reason == deployment.TimedOutReason {
			return "", false, newError(ProgressDeadline, "deployment %q exceeded its progress deadline", d.Name)
		}
		if d.Spec.Replicas != nil && d.Status.UpdatedReplicas < *d.Spec.Replicas {
			return fmt.Sprintf("Waiting for deployment %q rollout to finish: %d out of %d new replicas have been updated...", d.Name, d.Status.UpdatedReplicas, *d.Spec.Replicas), false, nil
		}
		if d.Status.Replicas > d.Status.UpdatedReplicas {
			return fmt.Sprintf("Waiting for deployment %q rollout to finish: %d old replicas are pending termination...", d.Name, d.Status.Replicas-d.Status.UpdatedReplicas), false, nil
		}
		if d.Status.AvailableReplicas < d.Status.UpdatedReplicas {
			return fmt.Sprintf("Waiting for deployment %q rollout to finish: %d of %d updated replicas are available...", d.Name, d.Status.AvailableReplicas, d.Status.UpdatedReplicas), false, nil
		}
		return fmt.Sprintf("deployment %q successfully rolled out", d.Name), true, nil
	}
	return "Waiting for deployment spec update to be observed...", false, nil
}

// TimedOutMessage is what `kubectl rollout status --timeout=d` prints
// after "error: " when the rollout is not done within d: the text of
// wait.ErrWaitTimeout, which client-go's watchtools.UntilWithoutRetry
// returns when its context ends (k8s.io/client-go/tools/watch/until.go).
const TimedOutMessage = "timed out waiting for the condition"

// DeletedMessage is what `kubectl rollout status` prints after "error: "
// when the object it watches is deleted
// (k8s.io/kubectl/pkg/cmd/rollout/rollout_status.go).
const DeletedMessage = "object has been deleted"

// RolloutStatusOf returns what one look of `kubectl rollout status`
// prints for a Deployment, DaemonSet or StatefulSet and whether the
// rollout is done: polymorphichelpers' StatusViewer for the kind
// (k8s.io/kubectl/pkg/polymorphichelpers/rollout_status.go), without
// the trailing newline. Another kind fails with Unsupported.
func RolloutStatusOf(o api.Object) (msg string, done bool, err error) {
	switch x := o.(type) {
	case *api.Deployment:
		return RolloutStatus(x)
	case *api.DaemonSet:
		return daemonSetStatus(x)
	case *api.StatefulSet:
		return statefulSetStatus(x)
	}
	return "", false, newError(Unsupported, "no status viewer has been implemented for %T", o)
}

// daemonSetStatus is kubectl's DaemonSetStatusViewer.
func daemonSetStatus(ds *api.DaemonSet) (string, bool, error) {
	if ds.Spec.UpdateStrategy.Type != api.RollingUpdateDaemonSetStrategyType {
		// kubectl names the StatefulSet constant here; both are
		// "RollingUpdate".
		return "", true, newError(Unsupported, "rollout status is only available for RollingUpdate strategy type")
	}
	st := ds.Status
	if ds.Generation <= st.ObservedGeneration {
		if st.UpdatedNumberScheduled < st.DesiredNumberScheduled {
			return fmt.Sprintf("Waiting for daemon set %q rollout to finish: %d out of %d new pods have been updated...", ds.Name, st.UpdatedNumberScheduled, st.DesiredNumberScheduled), false, nil
		}
		if st.NumberAvailable < st.DesiredNumberScheduled {
			return fmt.Sprintf("Waiting for daemon set %q rollout to finish: %d of %d updated pods are available...", ds.Name, st.NumberAvailable, st.DesiredNumberScheduled), false, nil
		}
		return fmt.Sprintf("daemon set %q successfully rolled out", ds.Name), true, nil
	}
	return "Waiting for daemon set spec update to be observed...", false, nil
}

// statefulSetStatus is kubectl's StatefulSetStatusViewer, quirk
// included: a RollingUpdate strategy with its rollingUpdate parameters
// set (the API server defaults partition to 0) ends at "partitioned roll
// out complete" once the pods above the partition are updated.
func statefulSetStatus(sts *api.StatefulSet) (string, bool, error) {
	if sts.Spec.UpdateStrategy.Type != api.RollingUpdateStatefulSetStrategyType {
		return "", true, newError(Unsupported, "rollout status is only available for RollingUpdate strategy type")
	}
	st := sts.Status
	if st.ObservedGeneration == 0 || sts.Generation > st.ObservedGeneration {
		return "Waiting for statefulset spec update to be observed...", false, nil
	}
	if sts.Spec.Replicas != nil && st.ReadyReplicas < *sts.Spec.Replicas {
		return fmt.Sprintf("Waiting for %d pods to be ready...", *sts.Spec.Replicas-st.ReadyReplicas), false, nil
	}
	if ru := sts.Spec.UpdateStrategy.RollingUpdate; ru != nil {
		if sts.Spec.Replicas != nil && ru.Partition != nil && st.UpdatedReplicas < *sts.Spec.Replicas-*ru.Partition {
			return fmt.Sprintf("Waiting for partitioned roll out to finish: %d out of %d new pods have been updated...", st.UpdatedReplicas, *sts.Spec.Replicas-*ru.Partition), false, nil
		}
		return fmt.Sprintf("partitioned roll out complete: %d new pods have been updated...", st.UpdatedReplicas), true, nil
	}
	if st.UpdateRevision != st.CurrentRevision {
		return fmt.Sprintf("waiting for statefulset rolling update to complete %d pods at revision %s...", st.UpdatedReplicas, st.UpdateRevision), false, nil
	}
	return fmt.Sprintf("statefulset rolling update complete %d pods at revision %s...", st.CurrentReplicas, st.CurrentRevision), true, nil
}

// annotationsToSkip are the Deployment annotations rollout undo keeps from
// the Deployment rather than taking from the ReplicaSet.
var annotationsToSkip = []string{
	LastAppliedAnnotation,
	deployment.RevisionAnnotation,
	deployment.RevisionHistoryAnnotation,
	deployment.DesiredReplicasAnnotation,
	deployment.MaxReplicasAnnotation,
	deployment.DeprecatedRollbackToAnnotation,
}

// RolloutUndo rolls a Deployment back as `kubectl rollout undo
// deployment/<name> [--to-revision=n]` does for apps/v1 (kubectl's
// DeploymentRollbacker): it reads the Deployment (twice, as kubectl does),
// lists the ReplicaSets it controls, picks the one of revision toRevision
// (0: the previous revision), and replaces the Deployment's pod template
// with that ReplicaSet's (minus the pod-template-hash label) and its
// annotations with the ReplicaSet's (keeping the Deployment's own
// revision, last-applied and replicas annotations). It prints
// "deployment.apps/<name> rolled back", or "deployment.apps/<name> skipped
// rollback (current template already matches revision n)" without a write.
// kubectl sends a JSON patch replacing both; the simulator's API server
// takes the equivalent JSON merge patch.
func RolloutUndo(ctx context.Context, c client.Client, key api.Key, toRevision int64) ([]string, error) {
	key = scoped(api.KindDeployment, key)
	if _, err := client.GetAs[*api.Deployment](ctx, c, key); err != nil {
		return nil, err
	}
	if toRevision < 0 {
		return nil, revisionNotFound(toRevision)
	}
	d, err := client.GetAs[*api.Deployment](ctx, c, key)
	if err != nil {
		return nil, fmt.Errorf("failed to retrieve Deployment %s: %w", key.Name, err)
	}
	rs, err := revisionReplicaSet(ctx, c, d, toRevision)
	if err != nil {
		return nil, err
	}
	if d.Spec.Paused {
		return nil, newError(PausedRollback, "you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again")
	}
	if deployment.EqualIgnoreHash(&rs.Spec.Template, &d.Spec.Template) {
		return []string{line(api.KindDeployment, d.Name, fmt.Sprintf("skipped rollback (current template already matches revision %d)", toRevision))}, nil
	}
	template := rs.Spec.Template.DeepCopy()
	delete(template.Labels, deployment.DefaultDeploymentUniqueLabelKey)
	annotations := map[string]string{}
	for _, k := range annotationsToSkip {
		if v, ok := d.Annotations[k]; ok {
			annotations[k] = v
		}
	}
	for k, v := range rs.Annotations {
		if !slices.Contains(annotationsToSkip, k) {
			annotations[k] = v
		}
	}
	body, err := replacePatch(d, template, annotations)
	if err != nil {
		return nil, fmt.Errorf("failed restoring revision %d: %w", toRevision, err)
	}
	if _, err := c.Patch(ctx, api.KindDeployment, key, client.MergePatch, body); err != nil {
		return nil, fmt.Errorf("failed restoring revision %d: %w", toRevision, err)
	}
	return []string{line(api.KindDeployment, d.Name, "rolled back")}, nil
}

func revisionNotFound(r int64) error {
	return newError(RevisionNotFound, "unable to find specified revision %v in history", r)
}

// replacePatch returns the JSON merge patch that replaces d's pod template
// and annotations with the given ones, the meaning of kubectl's JSON patch
// of /spec/template and /metadata/annotations.
func replacePatch(d *api.Deployment, template *api.PodTemplateSpec, annotations map[string]string) ([]byte, error) {
	cur, err := jsonTree(d.Spec.Template)
	if err != nil {
		return nil, err
	}
	want, err := jsonTree(*template)
	if err != nil {
		return nil, err
	}
	patch := map[string]any{}
	if tp := mergePatchDiff(cur, want); len(tp) > 0 {
		patch["spec"] = map[string]any{"template": tp}
	}
	ca := map[string]any{}
	for k, v := range d.Annotations {
		ca[k] = v
	}
	wa := map[string]any{}
	for k, v := range annotations {
		wa[k] = v
	}
	if ap := mergePatchDiff(ca, wa); len(ap) > 0 {
		patch["metadata"] = map[string]any{"annotations": ap}
	}
	return encode(patch)
}

// jsonTree encodes any value as a JSON object tree.
func jsonTree(v any) (map[string]any, error) {
	b, err := encode(v)
	if err != nil {
		return nil, err
	}
	return decodeObject(b)
}

// replicaSets returns the ReplicaSets d controls, old ones oldest first and
// the new one last (kubectl's GetAllReplicaSets: allOldRSs then newRS).
func replicaSets(ctx context.Context, c client.Client, d *api.Deployment) (old []*api.ReplicaSet, newRS *api.ReplicaSet, err error) {
	list := func(ns string, sel api.Selector) ([]*api.ReplicaSet, error) {
		return client.ListAs[*api.ReplicaSet](ctx, c, client.InNamespace(ns), client.MatchingSelector(sel))
	}
	rss, err := deployment.ListReplicaSets(d, list)
	if err != nil {
		return nil, nil, err
	}
	_, old = deployment.FindOldReplicaSets(d, rss)
	return old, deployment.FindNewReplicaSet(d, rss), nil
}

// revisionReplicaSet finds the ReplicaSet of a revision of d, or of the
// previous revision for 0 (kubectl's deploymentRevision).
func revisionReplicaSet(ctx context.Context, c client.Client, d *api.Deployment, toRevision int64) (*api.ReplicaSet, error) {
	old, newRS, err := replicaSets(ctx, c, d)
	if err != nil {
		return nil, fmt.Errorf("failed to retrieve replica sets from deployment %s: %w", d.Name, err)
	}
	all := old
	if newRS != nil {
		all = append(all, newRS)
	}
	var latest, previous *api.ReplicaSet
	latestRev, previousRev := int64(-1), int64(-1)
	for _, rs := range all {
		v, err := deployment.Revision(rs)
		if err != nil {
			continue
		}
		if toRevision == 0 {
			if latestRev < v {
				previousRev, previous = latestRev, latest
				latestRev, latest = v, rs
			} else if previousRev < v {
				previousRev, previous = v, rs
			}
		} else if toRevision == v {
			return rs, nil
		}
	}
	if toRevision > 0 {
		return nil, revisionNotFound(toRevision)
	}
	if previous == nil {
		return nil, newError(NoHistory, "no rollout history found for deployment %q", d.Name)
	}
	return previous, nil
}

// RolloutRestart restarts a Deployment's pods as `kubectl rollout restart`
// does: it sets the pod template annotation kubectl.kubernetes.io/restartedAt
// to now (RFC 3339) with a strategic merge patch and prints
// "deployment.apps/<name> restarted". A paused Deployment fails with
// kubectl's `error: deployments.apps "<name>" can't restart paused
// deployment (run rollout resume first)` (ErrPausedRestart).
func RolloutRestart(ctx context.Context, c client.Client, key api.Key, now time.Time) ([]string, error) {
	key = scoped(api.KindDeployment, key)
	d, err := client.GetAs[*api.Deployment](ctx, c, key)
	if err != nil {
		return nil, err
	}
	if d.Spec.Paused {
		return nil, newError(PausedRestart, "%s %q can't restart paused deployment (run rollout resume first)", resourceString(api.KindDeployment), d.Name)
	}
	edited := d.DeepCopy()
	if edited.Spec.Template.Annotations == nil {
		edited.Spec.Template.Annotations = map[string]string{}
	}
	edited.Spec.Template.Annotations[RestartedAtAnnotation] = now.Format(time.RFC3339)
	lines, err := patchEdited(ctx, c, api.KindDeployment, d, edited, "restarted")
	if err != nil {
		return nil, fmt.Errorf("failed to patch: %w", err)
	}
	if len(lines) == 0 {
		// Restarted twice within a second: kubectl reports the empty
		// patch, and still sends it and prints "restarted".
		if _, err := c.Patch(ctx, api.KindDeployment, key, client.StrategicMergePatch, []byte("{}")); err != nil {
			return nil, fmt.Errorf("failed to patch: %w", err)
		}
		return []string{line(api.KindDeployment, d.Name, "restarted")}, fmt.Errorf("failed to create patch for %s: empty patch", d.Name)
	}
	return lines, nil
}

// RolloutPause pauses a Deployment as `kubectl rollout pause` does and
// prints "deployment.apps/<name> paused". A paused Deployment fails with
// kubectl's `error: deployments.apps "<name>" is already paused`
// (ErrAlreadyPaused): kubectl's pauser refuses before its "already paused"
// printer can be reached.
func RolloutPause(ctx context.Context, c client.Client, key api.Key) ([]string, error) {
	return setPaused(ctx, c, key, true)
}

// RolloutResume resumes a paused Deployment as `kubectl rollout resume`
// does and prints "deployment.apps/<name> resumed". A Deployment that is
// not paused fails with `error: deployments.apps "<name>" is not paused`
// (ErrNotPaused).
func RolloutResume(ctx context.Context, c client.Client, key api.Key) ([]string, error) {
	return setPaused(ctx, c, key, false)
}

func setPaused(ctx context.Context, c client.Client, key api.Key, paused bool) ([]string, error) {
	key = scoped(api.KindDeployment, key)
	d, err := client.GetAs[*api.Deployment](ctx, c, key)
	if err != nil {
		return nil, err
	}
	if d.Spec.Paused == paused {
		if paused {
			return nil, newError(AlreadyPaused, "%s %q is already paused", resourceString(api.KindDeployment), d.Name)
		}
		return nil, newError(NotPaused, "%s %q is not paused", resourceString(api.KindDeployment), d.Name)
	}
	edited := d.DeepCopy()
	edited.Spec.Paused = paused
	op := "resumed"
	if paused {
		op = "paused"
	}
	lines, err := patchEdited(ctx, c, api.KindDeployment, d, edited, op)
	if err != nil {
		return nil, fmt.Errorf("failed to patch: %w", err)
	}
	return lines, nil
}

// History is a Deployment's rollout history, as `kubectl rollout history`
// reads it.
type History struct {
	// Name is the Deployment's name.
	Name string
	// Revisions are the revisions in increasing order.
	Revisions []Revision
}

// Revision is one revision of a Deployment: the pod template of the
// ReplicaSet carrying it.
type Revision struct {
	// Number is the deployment.kubernetes.io/revision of the ReplicaSet.
	Number int64
	// ChangeCause is the ReplicaSet's kubernetes.io/change-cause
	// annotation, "" when it has none.
	ChangeCause string
	// Template is the ReplicaSet's pod template, with the change cause
	// added to its annotations as kubectl shows it.
	Template api.PodTemplateSpec
}

// RolloutHistory reads a Deployment's rollout history as `kubectl rollout
// history deployment/<name>` does: the Deployment (twice, as kubectl does)
// and the ReplicaSets it controls, one revision per ReplicaSet.
func RolloutHistory(ctx context.Context, c client.Client, key api.Key) (*History, error) {
	key = scoped(api.KindDeployment, key)
	if _, err := client.GetAs[*api.Deployment](ctx, c, key); err != nil {
		return nil, err
	}
	d, err := client.GetAs[*api.Deployment](ctx, c, key)
	if err != nil {
		return nil, fmt.Errorf("failed to retrieve deployment %s: %w", key.Name, err)
	}
	old, newRS, err := replicaSets(ctx, c, d)
	if err != nil {
		return nil, fmt.Errorf("failed to retrieve replica sets from deployment %s: %w", d.Name, err)
	}
	all := old
	if newRS != nil {
		all = append(all, newRS)
	}
	byRev := map[int64]Revision{}
	for _, rs := range all {
		v, err := deployment.Revision(rs)
		if err != nil {
			continue
		}
		t := *rs.Spec.Template.DeepCopy()
		cause := rs.Annotations[ChangeCauseAnnotation]
		if t.Annotations == nil {
			t.Annotations = map[string]string{}
		}
		if cause != "" {
			t.Annotations[ChangeCauseAnnotation] = cause
		}
		byRev[v] = Revision{Number: v, ChangeCause: cause, Template: t}
	}
	h := &History{Name: d.Name}
	for _, r := range byRev {
		h.Revisions = append(h.Revisions, r)
	}
	slices.SortFunc(h.Revisions, func(a, b Revision) int {
		switch {
		case a.Number < b.Number:
			return -1
		case a.Number > b.Number:
			return 1
		}
		return 0
	})
	return h, nil
}

// Lines returns what `kubectl rollout history deployment/<name>` prints:
// the object name with a trailing space (kubectl's name printer with an
// operation that starts with a newline), then the REVISION / CHANGE-CAUSE
// table, then an empty line; or "No rollout history found.".
func (h *History) Lines() []string {
	out := []string{ObjectName(api.KindDeployment, h.Name) + " "}
	if len(h.Revisions) == 0 {
		return append(out, "No rollout history found.")
	}
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "REVISION\tCHANGE-CAUSE\n")
	for _, r := range h.Revisions {
		cause := r.ChangeCause
		if cause == "" {
			cause = "<none>"
		}
		fmt.Fprintf(tw, "%d\t%s\n", r.Number, cause)
	}
	_ = tw.Flush() // a bytes.Buffer never fails
	out = append(out, strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")...)
	return append(out, "")
}

// Revision returns revision n of the history, or ErrRevisionNotFound with
// kubectl's "unable to find the specified revision".
func (h *History) Revision(n int64) (Revision, error) {
	for _, r := range h.Revisions {
		if r.Number == n {
			return r, nil
		}
	}
	return Revision{}, newError(RevisionNotFound, "unable to find the specified revision")
}
