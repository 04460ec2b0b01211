package job

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"time"

	"github.com/clustersim/clustersim/controllers/replicaset"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
)

// Actor is the identity kube-controller-manager runs this controller as.
const Actor = "system:serviceaccount:kube-system:job-controller"

// Component is the source component of the controller's events.
const Component = "job-controller"

// Name is the controller's name in its manager.
const Name = "job-controller"

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
	c, err := m.NewController(Name, controller.Options{Workers: opts.Workers}, r)
	if err != nil {
		return err
	}
	c.Watch(jobInf, controller.EnqueueObject())
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
		c.Enqueue(controller.Request{Key: j.Key()})
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
	terminating               int32
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
			v.terminating++
		default:
			v.active = append(v.active, p)
			if api.IsPodReady(p) {
				v.ready++
			}
		}
	}
	return v
}

// Reconcile syncs one Job.
func (r *reconciler) Reconcile(ctx context.Context, req controller.Request) (controller.Result, error) {
	key := req.Key.String()
	obj, ok := r.jobs.Get(req.Key)
	if !ok {
		r.exp.Delete(key)
		return controller.Result{}, nil
	}
	j, ok := obj.(*api.Job)
	if !ok || j.DeletionTimestamp != nil {
		return controller.Result{}, nil
	}
	if done, _ := j.Finished(); done {
		return r.ttl(ctx, j)
	}
	if !r.exp.Satisfied(key) {
		return controller.Result{}, nil // the pods' events enqueue the Job again
	}
	now := r.clock.Now()
	orig := j
	j = j.DeepCopy()
	v := r.podsOf(j)
	st := &j.Status
	if st.StartTime == nil {
		t := api.NewTime(now).Rfc3339Copy()
		st.StartTime = &t
	}

	// Failed pods the pod failure policy ignores do not count.
	var counted []*api.Pod
	failMsg := ""
	for _, p := range v.failed {
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
	indexed := j.Spec.CompletionMode != nil && *j.Spec.CompletionMode == api.IndexedCompletion
	var doneIdx []int
	if indexed {
		for _, p := range v.succeeded {
			if i := podIndex(p); i >= 0 && j.Spec.Completions != nil && i < int(*j.Spec.Completions) {
				doneIdx = append(doneIdx, i)
			}
		}
		doneIdx = uniq(doneIdx)
		succeeded = int32(len(doneIdx))
		st.CompletedIndexes = formatIndexes(slices.Clone(doneIdx))
	}
	st.Succeeded, st.Failed = max(st.Succeeded, succeeded), max(st.Failed, failed)

	// A condition already targeted finishes once no pod is left running.
	var result controller.Result
	target := j.Condition(api.JobFailureTarget)
	success := j.Condition(api.JobSuccessCriteriaMet)
	if target == nil && success == nil {
		reason, msg := "", ""
		switch {
		case failMsg != "":
			reason, msg = ReasonPodFailurePolicy, failMsg
		case exceedsBackoffLimit(j, st.Failed, v.active):
			reason, msg = ReasonBackoffLimitExceeded, MsgBackoffLimitExceeded
		case pastDeadline(j, now):
			reason, msg = ReasonDeadlineExceeded, MsgDeadlineExceeded
		}
		if reason != "" {
			target = addCondition(j, api.JobFailureTarget, reason, msg, now)
		} else if complete(j, st.Succeeded, doneIdx, len(v.active)) {
			success = addCondition(j, api.JobSuccessCriteriaMet, ReasonCompletionsReached, MsgCompletionsReached, now)
		}
	}
	var manageErr error
	switch {
	case target != nil || success != nil:
		manageErr = r.deletePods(ctx, j, v.active)
		if len(v.active) == 0 && v.terminating == 0 {
			if target != nil {
				addCondition(j, api.JobFailed, target.Reason, target.Message, now)
				r.recorder.Eventf(j, client.EventTypeWarning, target.Reason, "%s", target.Message)
			} else {
				addCondition(j, api.JobComplete, success.Reason, success.Message, now)
				t := api.NewTime(now).Rfc3339Copy()
				st.CompletionTime = &t
				r.recorder.Eventf(j, client.EventTypeNormal, ReasonCompleted, "Job completed")
			}
		}
		v.active = nil
	default:
		var wait time.Duration
		v.active, wait, manageErr = r.manage(ctx, j, v, doneIdx, now)
		if wait > 0 {
			result.RequeueAfter = wait
		}
		if d := j.Spec.ActiveDeadlineSeconds; d != nil {
			left := st.StartTime.Time.Add(time.Duration(*d) * time.Second).Sub(now)
			if result.RequeueAfter == 0 || left < result.RequeueAfter {
				result.RequeueAfter = max(left, time.Second)
			}
		}
	}
	st.Active = int32(len(v.active))
	ready := v.ready
	if len(v.active) == 0 {
		ready = 0
	}
	st.Ready = &ready
	term := v.terminating
	st.Terminating = &term
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

func uniq(s []int) []int {
	slices.Sort(s)
	return slices.Compact(s)
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

// manage creates or deletes pods towards the wanted number of active pods
// (upstream's manageJob), after the failure back-off; it returns the
// active pods after its deletions and how long to wait for the back-off.
func (r *reconciler) manage(ctx context.Context, j *api.Job, v view, doneIdx []int, now time.Time) ([]*api.Pod, time.Duration, error) {
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
			want = min(active, parallelism) // no new pods once one succeeded
		}
	default:
		left := *j.Spec.Completions - j.Status.Succeeded
		if j.Spec.CompletionMode != nil && *j.Spec.CompletionMode == api.IndexedCompletion {
			left = *j.Spec.Completions - int32(len(doneIdx))
		}
		want = max(0, min(parallelism, left))
	}
	if active > want {
		victims := slices.Clone(v.active)
		// Newest first, so the pods that ran longest stay.
		slices.SortStableFunc(victims, func(a, b *api.Pod) int { return b.CreationTimestamp.Time.Compare(a.CreationTimestamp.Time) })
		victims = victims[:active-want]
		err := r.deletePods(ctx, j, victims)
		rest := slices.DeleteFunc(slices.Clone(v.active), func(p *api.Pod) bool { return slices.Contains(victims, p) })
		return rest, 0, err
	}
	if active == want {
		return v.active, 0, nil
	}
	if wait := newBackoff(v.succeeded, v.failed).remaining(now, DefaultJobPodFailureBackOff, MaxJobPodFailureBackOff); wait > 0 {
		return v.active, wait, nil
	}
	n := min(int(want-active), MaxPodCreateDeletePerSync)
	var indexes []int
	if j.Spec.CompletionMode != nil && *j.Spec.CompletionMode == api.IndexedCompletion {
		indexes = pendingIndexes(*j.Spec.Completions, doneIdx, v.active, n)
		n = len(indexes)
	}
	key := j.Key().String()
	r.exp.ExpectCreations(key, n)
	var errs []error
	for i := 0; i < n; i++ {
		idx := -1
		if indexes != nil {
			idx = indexes[i]
		}
		if err := r.createPod(ctx, j, idx); err != nil {
			r.exp.CreationObserved(key)
			errs = append(errs, err)
		}
	}
	return v.active, 0, errors.Join(errs...)
}

// pendingIndexes returns up to n of the lowest indexes below completions
// that neither succeeded nor have an active pod.
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

// createPod creates one pod of j (index -1 for a NonIndexed Job) and
// records the event, as upstream's RealPodControl.
func (r *reconciler) createPod(ctx context.Context, j *api.Job, index int) error {
	ref := api.NewControllerRef(j)
	p := replicaset.PodFromTemplate(&j.Spec.Template, j, &ref)
	if index >= 0 {
		s := strconv.Itoa(index)
		p.GenerateName = fmt.Sprintf("%s-%d-", j.Name, index)
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
// is fine.
func (r *reconciler) deletePods(ctx context.Context, j *api.Job, pods []*api.Pod) error {
	if len(pods) == 0 {
		return nil
	}
	keys := make([]string, len(pods))
	for i, p := range pods {
		keys[i] = p.Key().String()
	}
	r.exp.ExpectDeletions(j.Key().String(), keys)
	var errs []error
	for _, p := range pods {
		err := r.client.Delete(ctx, api.KindPod, p.Key())
		switch {
		case err == nil:
			r.recorder.Eventf(j, client.EventTypeNormal, ReasonSuccessfulDelete, "Deleted pod: %v", p.Name)
		case errors.Is(err, apierr.ErrNotFound):
			r.exp.DeletionObserved(j.Key().String(), p.Key().String())
		default:
			r.exp.DeletionObserved(j.Key().String(), p.Key().String())
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
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
