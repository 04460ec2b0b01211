package job

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/clustersim/clustersim/controllers/replicaset"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
	"github.com/clustersim/clustersim/sim/workqueue"
)

// Actor is the identity kube-controller-manager runs this controller as.
const Actor = "system:serviceaccount:kube-system:job-controller"

// Component is the source component of the controller's events.
const Component = "job-controller"

// Name is the controller's name in its manager.
const Name = "job-controller"

// SyncBatchPeriod is how long after a change of one of its pods, or of
// its status, a Job is synced (upstream's syncJobBatchPeriod).
const SyncBatchPeriod = time.Second

// RetryLimits are the Job controller's work queue's: a failed sync is
// retried after 1s (DefaultJobApiBackOff), doubling up to a minute
// (MaxJobApiBackOff), and no overall bucket: upstream builds its queue on
// an ItemExponentialFailureRateLimiter alone
// (pkg/controller/job/job_controller.go, newControllerWithClock).
var RetryLimits = workqueue.Limits{BaseDelay: time.Second, MaxDelay: time.Minute}

// DefaultWorkers is --concurrent-job-syncs: 5.
const DefaultWorkers = 5

// Event reasons (k/k pkg/controller/job/job_controller.go and
// controller_utils.go's RealPodControl).
const (
	ReasonSuccessfulCreate = "SuccessfulCreate"
	ReasonFailedCreate     = "FailedCreate"
	ReasonSuccessfulDelete = "SuccessfulDelete"
	ReasonCompleted        = "Completed"
)

// Options configure the controller; zero fields take the defaults.
type Options struct {
	// Workers is the number of Jobs synced at once (default 5).
	Workers int
}

type lister interface {
	Get(key api.Key) (api.Object, bool)
	ByIndex(name, value string) []api.Object
}

// reconciler syncs one Job per request (upstream's syncJob).
type reconciler struct {
	client   client.Client
	recorder client.EventRecorder
	clock    client.PassiveClock
	jobs     lister
	pods     lister
	exp      *replicaset.Expectations
	// removed holds, by Job key, the pods the controller deleted as
	// surplus (or once the Job succeeded): upstream removes their tracking
	// finalizer before deleting them, so they never count as failed. Kept
	// while the pods are seen and the Job is unfinished; a restarted
	// controller has forgotten them.
	removed map[string]map[api.UID]bool
}

// Setup registers the Job controller with m: informers on Jobs and Pods
// (indexed by controller), a Job synced when it or one of its pods
// changes.
func Setup(m *controller.Manager, opts Options) error {
	if opts.Workers <= 0 {
		opts.Workers = DefaultWorkers
	}
	jobInf, err := m.Informer(api.KindJob, informer.Options{})
	if err != nil {
		return err
	}
	podInf, err := m.Informer(api.KindPod, informer.Options{})
	if err != nil {
		return err
	}
	podInf.AddIndex(informer.IndexController, informer.ByController)
	r := &reconciler{client: m.Client(), recorder: m.Recorder(Component), clock: m.Clock(),
		jobs: jobInf.Lister(), pods: podInf.Lister(), exp: replicaset.NewExpectations(m.Clock())}
	c, err := m.NewController(Name, controller.Options{Workers: opts.Workers, Limits: &RetryLimits}, r)
	if err != nil {
		return err
	}
	// A Job's own creation, deletion or spec change syncs it at once;
	// its status writes and its pods' changes a second later, so that
	// the changes of one second are one sync (upstream's
	// enqueueSyncJobImmediately and enqueueSyncJobBatched).
	jobInf.AddEventHandler(informer.HandlerFuncs{
		AddFunc: func(obj api.Object) { c.Enqueue(controller.Request{Key: obj.GetObjectMeta().Key()}) },
		UpdateFunc: func(old, obj api.Object) {
			key := controller.Request{Key: obj.GetObjectMeta().Key()}
			if old.GetObjectMeta().Generation == obj.GetObjectMeta().Generation {
				c.EnqueueAfter(key, SyncBatchPeriod)
			} else {
				c.Enqueue(key)
			}
		},
		DeleteFunc: func(obj api.Object) { c.Enqueue(controller.Request{Key: obj.GetObjectMeta().Key()}) },
	})
	jobOf := func(obj api.Object, created bool) {
		p, ok := obj.(*api.Pod)
		if !ok {
			return
		}
		ref := api.GetControllerOfNoCopy(&p.ObjectMeta)
		if ref == nil || ref.Kind != api.KindJob.Name {
			return
		}
		j, ok := informer.ResolveControllerRef[*api.Job](r.jobs, api.KindJob, p.Namespace, ref)
		if !ok || j == nil {
			return
		}
		if created {
			r.exp.CreationObserved(j.Key().String())
		}
		c.EnqueueAfter(controller.Request{Key: j.Key()}, SyncBatchPeriod)
	}
	podInf.AddEventHandler(informer.HandlerFuncs{
		AddFunc: func(obj api.Object) { jobOf(obj, true) },
		UpdateFunc: func(old, obj api.Object) {
			if old.GetObjectMeta().ResourceVersion != obj.GetObjectMeta().ResourceVersion {
				jobOf(obj, false)
			}
		},
		DeleteFunc: func(obj api.Object) {
			if p, ok := obj.(*api.Pod); ok {
				if ref := api.GetControllerOfNoCopy(&p.ObjectMeta); ref != nil {
					if j, ok := informer.ResolveControllerRef[*api.Job](r.jobs, api.KindJob, p.Namespace, ref); ok && j != nil {
						r.exp.DeletionObserved(j.Key().String(), p.Key().String())
					}
				}
			}
			jobOf(obj, false)
		},
	})
	return nil
}

// view is what one sync sees of a Job's pods.
type view struct {
	active, succeeded, failed []*api.Pod
	terminating               []*api.Pod
	ready                     int32
}

func (r *reconciler) podsOf(j *api.Job) view {
	var v view
	for _, o := range r.pods.ByIndex(informer.IndexController, string(j.UID)) {
		p, ok := o.(*api.Pod)
		if !ok {
			continue
		}
		switch {
		case p.Status.Phase == api.PodSucceeded:
			v.succeeded = append(v.succeeded, p)
		case p.Status.Phase == api.PodFailed:
			v.failed = append(v.failed, p)
		case p.DeletionTimestamp != nil:
			v.terminating = append(v.terminating, p)
		default:
			v.active = append(v.active, p)
			if api.IsPodReady(p) {
				v.ready++
			}
		}
	}
	return v
}

// Reconcile syncs one Job (upstream's syncJob). As upstream, it counts a
// Job's pods and writes its status even while it waits for the pods it
// created or deleted to be observed, or while the Job is being deleted;
// it only leaves the pods alone then.
func (r *reconciler) Reconcile(ctx context.Context, req controller.Request) (controller.Result, error) {
	key := req.Key.String()
	obj, ok := r.jobs.Get(req.Key)
	if !ok {
		r.exp.Delete(key)
		delete(r.removed, key)
		return controller.Result{}, nil
	}
	j, ok := obj.(*api.Job)
	if !ok {
		return controller.Result{}, nil
	}
	deleting := j.DeletionTimestamp != nil
	if done, _ := j.Finished(); done {
		delete(r.removed, key)
		if deleting {
			return controller.Result{}, nil
		}
		return r.ttl(ctx, j)
	}
	satisfied := r.exp.Satisfied(key)
	now := r.clock.Now()
	orig := j
	j = j.DeepCopy()
	v := r.podsOf(j)
	removed := r.removedOf(key, v)
	st := &j.Status
	if st.StartTime == nil {
		t := api.NewTime(now).Rfc3339Copy()
		st.StartTime = &t
	}
	indexed := j.Spec.CompletionMode != nil && *j.Spec.CompletionMode == api.IndexedCompletion

	// Failed pods count, and with podReplacementPolicy TerminatingOrFailed
	// terminating ones too (upstream's isPodFailed), but for those the
	// pod failure policy ignores, an Indexed Job's pods without an index
	// below completions (upstream's getValidPodsWithFilter) and the pods
	// the controller deleted as surplus.
	failedPods := slices.Clone(v.failed)
	if !onlyReplaceFailedPods(j) {
		failedPods = append(failedPods, v.terminating...)
	}
	failedPods = slices.DeleteFunc(failedPods, func(p *api.Pod) bool { return removed[p.UID] || indexed && !validIndex(j, p) })
	var counted []*api.Pod
	failMsg := ""
	for _, p := range failedPods {
		action, msg := matchPodFailurePolicy(j.Spec.PodFailurePolicy, p)
		if action == actionIgnore {
			continue
		}
		counted = append(counted, p)
		if action == actionFailJob && failMsg == "" {
			failMsg = msg
		}
	}
	succeeded, failed := int32(len(v.succeeded)), int32(len(counted))
	var doneIdx []int
	if indexed {
		doneIdx = succeededIndexes(j, v.succeeded)
		succeeded = int32(len(doneIdx))
		st.CompletedIndexes = formatIndexes(slices.Clone(doneIdx))
	}
	st.Succeeded, st.Failed = max(st.Succeeded, succeeded), max(st.Failed, failed)

	// A condition already targeted finishes once no pod is left running.
	var result controller.Result
	target := j.Condition(api.JobFailureTarget)
	success := j.Condition(api.JobSuccessCriteriaMet)
	reason, msg := "", ""
	if target == nil && success == nil {
		switch {
		case failMsg != "":
			reason, msg = ReasonPodFailurePolicy, failMsg
		case exceedsBackoffLimit(j, st.Failed, v.active):
			reason, msg = ReasonBackoffLimitExceeded, MsgBackoffLimitExceeded
		case pastDeadline(j, now):
			reason, msg = ReasonDeadlineExceeded, MsgDeadlineExceeded
		}
		if reason == "" && complete(j, st.Succeeded, doneIdx, len(v.active)) {
			success = addCondition(j, api.JobSuccessCriteriaMet, ReasonCompletionsReached, MsgCompletionsReached, now)
		}
	}
	active, ready, terminating := v.active, v.ready, int32(len(v.terminating))
	var created int32
	var manageErr error
	switch {
	case target != nil || success != nil || reason != "":
		// Upstream's deleteActivePods: a finished Job's active pods are
		// deleted, and count as terminating from now on.
		var left []*api.Pod
		var deletedReady int32
		left, deletedReady, manageErr = r.deletePods(ctx, j, active, success != nil)
		deleted := int32(len(active) - len(left))
		terminating += deleted
		ready -= deletedReady
		if reason != "" {
			// The pods deleted because the Job failed count as failed
			// (upstream counts every unfinished pod of a failing Job); the
			// FailureTarget condition is written once every active pod was
			// deleted and the expectations are met.
			st.Failed += deleted
			if len(left) == 0 && satisfied {
				target = addCondition(j, api.JobFailureTarget, reason, msg, now)
			}
		}
		active = left
		if len(active) == 0 && terminating == 0 && satisfied {
			switch {
			case target != nil:
				addCondition(j, api.JobFailed, target.Reason, target.Message, now)
				r.recorder.Eventf(j, client.EventTypeWarning, target.Reason, "%s", target.Message)
			case success != nil:
				addCondition(j, api.JobComplete, success.Reason, success.Message, now)
				t := api.NewTime(now).Rfc3339Copy()
				st.CompletionTime = &t
				r.recorder.Eventf(j, client.EventTypeNormal, ReasonCompleted, "Job completed")
			}
		}
	default:
		if satisfied && !deleting {
			var m managed
			m, manageErr = r.manage(ctx, j, v, failedPods, doneIdx, now)
			active, created, ready, terminating = m.active, m.created, ready-m.deletedReady, terminating+m.deleted
			if m.wait > 0 {
				result.RequeueAfter = m.wait
			}
		}
		if d := j.Spec.ActiveDeadlineSeconds; d != nil {
			// Upstream's queue.AddAfter(key, syncDuration): exactly when
			// the deadline passes (not past it yet here, so left > 0).
			left := st.StartTime.Time.Add(time.Duration(*d) * time.Second).Sub(now)
			if result.RequeueAfter == 0 || left < result.RequeueAfter {
				result.RequeueAfter = left
			}
		}
	}
	st.Active = int32(len(active)) + created
	st.Ready = &ready
	st.Terminating = &terminating
	if st.UncountedTerminatedPods == nil {
		empty := api.RawValue(`{}`)
		st.UncountedTerminatedPods = &empty
	}
	if !reflect.DeepEqual(orig.Status, j.Status) {
		if _, err := r.client.UpdateStatus(ctx, j); err != nil {
			return controller.Result{}, err
		}
	}
	if manageErr != nil {
		return controller.Result{}, manageErr
	}
	return result, nil
}

// exceedsBackoffLimit: more counted failures than backoffLimit, or, with
// restartPolicy OnFailure, as many container restarts of active pods
// (upstream's pastBackoffLimitOnFailure; any restart when the limit is 0).
func exceedsBackoffLimit(j *api.Job, failed int32, active []*api.Pod) bool {
	limit := int32(6)
	if j.Spec.BackoffLimit != nil {
		limit = *j.Spec.BackoffLimit
	}
	if failed > limit {
		return true
	}
	if j.Spec.Template.Spec.RestartPolicy != api.RestartPolicyOnFailure {
		return false
	}
	n := restartsOf(active)
	if limit == 0 {
		return n > 0
	}
	return n >= limit
}

// pastDeadline: the Job has run activeDeadlineSeconds since its start.
func pastDeadline(j *api.Job, now time.Time) bool {
	d := j.Spec.ActiveDeadlineSeconds
	if d == nil || j.Status.StartTime == nil {
		return false
	}
	return !now.Before(j.Status.StartTime.Time.Add(time.Duration(*d) * time.Second))
}

// complete: every completion reached; without completions, a success and
// no pod left running (upstream's syncJob, "complete" for a work queue).
func complete(j *api.Job, succeeded int32, doneIdx []int, active int) bool {
	if j.Spec.Completions == nil {
		return succeeded > 0 && active == 0
	}
	if j.Spec.CompletionMode != nil && *j.Spec.CompletionMode == api.IndexedCompletion {
		return len(doneIdx) >= int(*j.Spec.Completions)
	}
	return succeeded >= *j.Spec.Completions
}

// addCondition sets condition t True (upstream's newCondition), keeping
// an existing one's transition time.
func addCondition(j *api.Job, t, reason, msg string, now time.Time) *api.JobCondition {
	ts := api.NewTime(now).Rfc3339Copy()
	if c := j.Condition(t); c != nil {
		c.Status, c.Reason, c.Message, c.LastProbeTime = api.ConditionTrue, reason, msg, ts
		return c
	}
	j.Status.Conditions = append(j.Status.Conditions, api.JobCondition{Type: t, Status: api.ConditionTrue, LastProbeTime: ts, LastTransitionTime: ts, Reason: reason, Message: msg})
	return &j.Status.Conditions[len(j.Status.Conditions)-1]
}

// managed is what manage did: the active pods left after its deletions,
// how many pods it created, how many it deleted (and of them ready), how long the failure back-off
// still holds creations.
type managed struct {
	active                []*api.Pod
	created               int32
	deleted, deletedReady int32
	wait                  time.Duration
}

// manage creates or deletes pods towards the wanted number of active pods
// (upstream's manageJob), after the failure back-off. As upstream, a sync
// either deletes or creates: an Indexed Job's pods without a valid index
// and all but one pod of a repeated index are deleted first.
func (r *reconciler) manage(ctx context.Context, j *api.Job, v view, failed []*api.Pod, doneIdx []int, now time.Time) (managed, error) {
	parallelism := int32(1)
	if j.Spec.Parallelism != nil {
		parallelism = *j.Spec.Parallelism
	}
	active := int32(len(v.active))
	var want int32
	switch {
	case j.Spec.Completions == nil:
		want = parallelism
		if j.Status.Succeeded > 0 {
			want = active // no new pods once one succeeded, and none deleted
		}
	default:
		left := *j.Spec.Completions - j.Status.Succeeded
		if j.Spec.CompletionMode != nil && *j.Spec.CompletionMode == api.IndexedCompletion {
			left = *j.Spec.Completions - int32(len(doneIdx))
		}
		want = max(0, min(parallelism, left))
	}
	if victims := activePodsForRemoval(j, v.active, int(max(0, active-want))); len(victims) > 0 {
		victims = victims[:min(len(victims), MaxPodCreateDeletePerSync)]
		left, deletedReady, err := r.deletePods(ctx, j, victims, true)
		deleted := slices.DeleteFunc(slices.Clone(victims), func(p *api.Pod) bool { return slices.Contains(left, p) })
		rest := slices.DeleteFunc(slices.Clone(v.active), func(p *api.Pod) bool { return slices.Contains(deleted, p) })
		return managed{active: rest, deleted: int32(len(deleted)), deletedReady: deletedReady}, err
	}
	// With podReplacementPolicy Failed (the default when a pod failure
	// policy is set), a terminating pod is replaced only once it is gone
	// or has failed.
	var terminating int32
	var held []*api.Pod
	if onlyReplaceFailedPods(j) {
		terminating, held = int32(len(v.terminating)), v.terminating
	}
	if active+terminating >= want {
		return managed{active: v.active}, nil
	}
	if wait := newBackoff(v.succeeded, failed).remaining(now, DefaultJobPodFailureBackOff, MaxJobPodFailureBackOff); wait > 0 {
		return managed{active: v.active, wait: wait}, nil
	}
	n := min(int(want-active-terminating), MaxPodCreateDeletePerSync)
	var indexes []int
	if j.Spec.CompletionMode != nil && *j.Spec.CompletionMode == api.IndexedCompletion {
		indexes = pendingIndexes(*j.Spec.Completions, doneIdx, append(slices.Clone(v.active), held...), n)
		n = len(indexes)
	}
	// Upstream's slow start: batches of 1, 2, 4, ... pods, none after a
	// batch in which a creation failed; the pods created count as active
	// at once.
	key := j.Key().String()
	r.exp.ExpectCreations(key, n)
	var errs []error
	created := int32(0)
	for i, batch := 0, 1; i < n; i, batch = i+batch, batch*2 {
		failed := false
		for k := i; k < min(i+batch, n); k++ {
			idx := -1
			if indexes != nil {
				idx = indexes[k]
			}
			if err := r.createPod(ctx, j, idx); err != nil {
				r.exp.CreationObserved(key)
				errs = append(errs, err)
				failed = true
			} else {
				created++
			}
		}
		if skipped := n - min(i+batch, n); failed && skipped > 0 {
			r.exp.Lower(key, skipped, 0)
			break
		}
	}
	return managed{active: v.active, created: created}, errors.Join(errs...)
}

// activePodsForRemoval picks the active pods to delete (upstream's
// activePodsForRemoval): for an Indexed Job, every pod without an index
// below completions and all but the most advanced pod of each repeated
// index; then, up to rmAtLeast, the least advanced of the others
// (controller.ActivePods' order: unscheduled, pending, not ready, ready
// for less time, more restarts, newer first).
func activePodsForRemoval(j *api.Job, pods []*api.Pod, rmAtLeast int) []*api.Pod {
	var rm, left []*api.Pod
	if j.Spec.CompletionMode != nil && *j.Spec.CompletionMode == api.IndexedCompletion {
		byIndex := slices.Clone(pods)
		slices.SortStableFunc(byIndex, func(a, b *api.Pod) int { return podIndex(a) - podIndex(b) })
		for i := 0; i < len(byIndex); {
			k := i + 1
			for k < len(byIndex) && podIndex(byIndex[k]) == podIndex(byIndex[i]) {
				k++
			}
			same := byIndex[i:k]
			if !validIndex(j, same[0]) {
				rm = append(rm, same...)
			} else {
				sortActivePods(same)
				rm = append(rm, same[:len(same)-1]...)
				left = append(left, same[len(same)-1])
			}
			i = k
		}
	} else {
		left = slices.Clone(pods)
	}
	if len(rm) < rmAtLeast {
		sortActivePods(left)
		rm = append(rm, left[:rmAtLeast-len(rm)]...)
	}
	return rm
}

// sortActivePods sorts pods in upstream's controller.ActivePods order,
// the first to delete first.
func sortActivePods(pods []*api.Pod) {
	sort.Stable(replicaset.ActivePods(pods))
}

// removedOf returns the surplus pods deleted of the Job with key still
// seen in v (all of them when v is empty), forgetting the others; nil
// when there are none.
func (r *reconciler) removedOf(key string, v view) map[api.UID]bool {
	m := r.removed[key]
	if len(m) == 0 || len(v.active)+len(v.succeeded)+len(v.failed)+len(v.terminating) == 0 {
		return m
	}
	seen := map[api.UID]bool{}
	for _, l := range [][]*api.Pod{v.active, v.succeeded, v.failed, v.terminating} {
		for _, p := range l {
			seen[p.UID] = true
		}
	}
	for uid := range m {
		if !seen[uid] {
			delete(m, uid)
		}
	}
	if len(m) == 0 {
		delete(r.removed, key)
		return nil
	}
	return m
}

// markRemoved remembers p, a surplus pod of the Job with key just
// deleted.
func (r *reconciler) markRemoved(key string, p *api.Pod) {
	if r.removed == nil {
		r.removed = map[string]map[api.UID]bool{}
	}
	if r.removed[key] == nil {
		r.removed[key] = map[api.UID]bool{}
	}
	r.removed[key][p.UID] = true
}

// onlyReplaceFailedPods: podReplacementPolicy Failed, or a pod failure
// policy (upstream's onlyReplaceFailedPods; the API defaults the policy to
// Failed then).
func onlyReplaceFailedPods(j *api.Job) bool {
	return j.Spec.PodReplacementPolicy != nil && *j.Spec.PodReplacementPolicy == "Failed" || j.Spec.PodFailurePolicy != nil
}

// pendingIndexes returns up to n of the lowest indexes below completions
// that neither succeeded nor have an active pod (nor, with
// podReplacementPolicy Failed, a terminating one: active holds them then).
func pendingIndexes(completions int32, done []int, active []*api.Pod, n int) []int {
	taken := map[int]bool{}
	for _, i := range done {
		taken[i] = true
	}
	for _, p := range active {
		taken[podIndex(p)] = true
	}
	var out []int
	for i := 0; i < int(completions) && len(out) < n; i++ {
		if !taken[i] {
			out = append(out, i)
		}
	}
	return out
}

// podGenerateNameWithIndex is upstream's: "<job>-<index>-", the Job's name
// cut so that the whole fits api.MaxGeneratedNameLength and the index stays.
func podGenerateNameWithIndex(job string, index int) string {
	suffix := "-" + strconv.Itoa(index) + "-"
	prefix := job + suffix
	if len(prefix) > api.MaxGeneratedNameLength {
		prefix = prefix[:api.MaxGeneratedNameLength-len(suffix)] + suffix
	}
	return prefix
}

// createPod creates one pod of j (index -1 for a NonIndexed Job) and
// records the event, as upstream's RealPodControl.
func (r *reconciler) createPod(ctx context.Context, j *api.Job, index int) error {
	ref := api.NewControllerRef(j)
	p := replicaset.PodFromTemplate(&j.Spec.Template, j, &ref)
	if index >= 0 {
		s := strconv.Itoa(index)
		p.GenerateName = podGenerateNameWithIndex(j.Name, index)
		if p.Annotations == nil {
			p.Annotations = map[string]string{}
		}
		p.Annotations[api.JobCompletionIndexAnnotation] = s
		if p.Labels == nil {
			p.Labels = map[string]string{}
		}
		p.Labels[api.JobCompletionIndexAnnotation] = s
		for _, cs := range [][]api.Container{p.Spec.InitContainers, p.Spec.Containers} {
			for i := range cs {
				cs[i].Env = append(cs[i].Env, api.EnvVar{Name: "JOB_COMPLETION_INDEX", Value: s})
			}
		}
	}
	// p was built for this create alone: given away, not copied.
	name, err := client.CreateGiven(ctx, r.client, p)
	if err != nil {
		r.recorder.Eventf(j, client.EventTypeWarning, ReasonFailedCreate, "Error creating: %v", err)
		return err
	}
	r.recorder.Eventf(j, client.EventTypeNormal, ReasonSuccessfulCreate, "Created pod: %v", name)
	return nil
}

// deletePods deletes pods of j, each with its event; a pod already gone
// counts as deleted. It returns the pods it could not delete and how many
// of those it deleted were ready (upstream's deleteActivePods). Surplus
// pods (upstream's deleteJobPods, which removes their finalizer first)
// are remembered so as never to count as failed.
func (r *reconciler) deletePods(ctx context.Context, j *api.Job, pods []*api.Pod, surplus bool) ([]*api.Pod, int32, error) {
	if len(pods) == 0 {
		return nil, 0, nil
	}
	keys := make([]string, len(pods))
	for i, p := range pods {
		keys[i] = p.Key().String()
	}
	r.exp.ExpectDeletions(j.Key().String(), keys)
	var left []*api.Pod
	var ready int32
	var errs []error
	for _, p := range pods {
		err := r.client.Delete(ctx, api.KindPod, p.Key())
		switch {
		case err == nil:
			r.recorder.Eventf(j, client.EventTypeNormal, ReasonSuccessfulDelete, "Deleted pod: %v", p.Name)
			if surplus {
				r.markRemoved(j.Key().String(), p)
			}
		case errors.Is(err, apierr.ErrNotFound):
			r.exp.DeletionObserved(j.Key().String(), p.Key().String())
		default:
			r.exp.DeletionObserved(j.Key().String(), p.Key().String())
			left = append(left, p)
			errs = append(errs, err)
			continue
		}
		if api.IsPodReady(p) {
			ready++
		}
	}
	return left, ready, errors.Join(errs...)
}

// ttl deletes a finished Job ttlSecondsAfterFinished after it finished
// (upstream's ttlafterfinished controller: foreground deletion, the
// finish time being the Complete or Failed condition's transition).
func (r *reconciler) ttl(ctx context.Context, j *api.Job) (controller.Result, error) {
	if j.Spec.TTLSecondsAfterFinished == nil {
		return controller.Result{}, nil
	}
	_, t := j.Finished()
	c := j.Condition(t)
	expire := c.LastTransitionTime.Time.Add(time.Duration(*j.Spec.TTLSecondsAfterFinished) * time.Second)
	if left := expire.Sub(r.clock.Now()); left > 0 {
		return controller.Result{RequeueAfter: left}, nil
	}
	err := r.client.Delete(ctx, api.KindJob, j.Key(), client.PropagationPolicy(client.Foreground))
	if err != nil && !errors.Is(err, apierr.ErrNotFound) {
		return controller.Result{}, err
	}
	return controller.Result{}, nil
}
