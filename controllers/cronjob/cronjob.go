package cronjob

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"
	_ "time/tzdata" // time zones load the same on every machine

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/cron"
	"github.com/clustersim/clustersim/sim/informer"
)

// Actor is the identity kube-controller-manager runs this controller as.
const Actor = "system:serviceaccount:kube-system:cronjob-controller"

// Component is the source component of the controller's events.
const Component = "cronjob-controller"

// Name is the controller's name in its manager.
const Name = "cronjob-controller"

// DefaultWorkers is --concurrent-cron-job-syncs: 5.
const DefaultWorkers = 5

// nextScheduleDelta is how long after a schedule time the CronJob is
// looked at again (upstream's nextScheduleDelta).
const nextScheduleDelta = 100 * time.Millisecond

// Options configure the controller; zero fields take the defaults.
type Options struct {
	// Workers is the number of CronJobs synced at once (default 5).
	Workers int
}

type lister interface {
	Get(key api.Key) (api.Object, bool)
	ByIndex(name, value string) []api.Object
}

type reconciler struct {
	client   client.Client
	recorder client.EventRecorder
	clock    client.PassiveClock
	cronjobs lister
	jobs     lister
}

// Setup registers the CronJob controller with m: informers on CronJobs
// and Jobs (indexed by controller); a CronJob is synced when it or one of
// its Jobs changes (when its schedule or time zone changes, at the new
// schedule's next time), and after each schedule time.
func Setup(m *controller.Manager, opts Options) error {
	if opts.Workers <= 0 {
		opts.Workers = DefaultWorkers
	}
	cjInf, err := m.Informer(api.KindCronJob, informer.Options{})
	if err != nil {
		return err
	}
	jobInf, err := m.Informer(api.KindJob, informer.Options{})
	if err != nil {
		return err
	}
	jobInf.AddIndex(indexControllerName, byControllerName)
	r := &reconciler{client: m.Client(), recorder: m.Recorder(Component), clock: m.Clock(), cronjobs: cjInf.Lister(), jobs: jobInf.Lister()}
	c, err := m.NewController(Name, controller.Options{Workers: opts.Workers}, r)
	if err != nil {
		return err
	}
	// The informer is watched for its sync (workers wait for it) with no
	// mapping: the handler below enqueues, as upstream's, whose update
	// handler delays the sync of a CronJob whose schedule changed.
	c.Watch(cjInf, func(api.Object) []controller.Request { return nil })
	enqueue := func(obj api.Object) { c.Enqueue(controller.Request{Key: obj.GetObjectMeta().Key()}) }
	cjInf.AddEventHandler(informer.HandlerFuncs{
		AddFunc:    enqueue,
		UpdateFunc: func(old, obj api.Object) { r.updateCronJob(c, old, obj) },
		DeleteFunc: enqueue,
	})
	owner := func(obj api.Object) {
		j, ok := obj.(*api.Job)
		if !ok {
			return
		}
		ref := api.GetControllerOfNoCopy(&j.ObjectMeta)
		if ref == nil || ref.Kind != api.KindCronJob.Name {
			return
		}
		if cj, ok := informer.ResolveControllerRef[*api.CronJob](r.cronjobs, api.KindCronJob, j.Namespace, ref); ok && cj != nil {
			c.Enqueue(controller.Request{Key: cj.Key()})
		}
	}
	jobInf.AddEventHandler(informer.HandlerFuncs{
		AddFunc: owner,
		UpdateFunc: func(old, obj api.Object) {
			if old.GetObjectMeta().ResourceVersion != obj.GetObjectMeta().ResourceVersion {
				owner(obj)
			}
		},
		DeleteFunc: owner,
	})
	return nil
}

// enqueuer is the part of the controller's queue updateCronJob uses.
type enqueuer interface {
	Enqueue(controller.Request)
	EnqueueAfter(controller.Request, time.Duration)
}

// updateCronJob is upstream's update handler: a CronJob whose schedule or
// time zone changed is synced at its next schedule time under the new
// schedule, not at once (a time the new schedule missed before the
// change is not run); one whose new schedule does not parse is not synced,
// with an UnParseableCronJobSchedule event; any other change syncs it at
// once.
func (r *reconciler) updateCronJob(q enqueuer, old, obj api.Object) {
	oldCJ, ok1 := old.(*api.CronJob)
	cj, ok2 := obj.(*api.CronJob)
	if !ok1 || !ok2 {
		return
	}
	req := controller.Request{Key: cj.Key()}
	if oldCJ.Spec.Schedule == cj.Spec.Schedule && reflect.DeepEqual(oldCJ.Spec.TimeZone, cj.Spec.TimeZone) {
		q.Enqueue(req)
		return
	}
	sched, err := scheduleOf(cj)
	if err != nil {
		r.recorder.Eventf(cj, client.EventTypeWarning, "UnParseableCronJobSchedule", "unparseable schedule for cronjob: %s", cj.Spec.Schedule)
		return
	}
	q.EnqueueAfter(req, nextScheduleTimeDuration(cj, r.clock.Now(), sched))
}

// scheduleOf parses cj's schedule in its time zone (upstream parses
// formatSchedule's "TZ=<zone> <schedule>"; a zone set in the schedule
// wins).
func scheduleOf(cj *api.CronJob) (*cron.Schedule, error) {
	loc := time.UTC
	if tz := cj.Spec.TimeZone; tz != nil {
		l, err := time.LoadLocation(*tz)
		if err != nil {
			return nil, err
		}
		loc = l
	}
	sched, err := cron.ParseStandard(cj.Spec.Schedule)
	if err != nil {
		return nil, err
	}
	if sched.Location() == nil {
		sched.SetLocation(loc)
	}
	return sched, nil
}

// indexControllerName files a Job under "<namespace>/<name of its
// controller>", whatever the controller's kind and UID.
const indexControllerName = "cronjob-controller/controller-name"

func byControllerName(o api.Object, out []string) []string {
	m := o.GetObjectMeta()
	if ref := api.GetControllerOfNoCopy(m); ref != nil {
		return append(out, m.Namespace+"/"+ref.Name)
	}
	return out
}

// jobsOf returns the Jobs of cj's namespace whose controller has cj's
// name, as upstream's getJobsToBeReconciled: the name alone, not the kind
// or UID, so a Job of another controller of that name, or of a CronJob
// deleted and created again, is reconciled too (an UnexpectedJob while
// it runs, deleted past the history limits once finished).
func (r *reconciler) jobsOf(cj *api.CronJob) []*api.Job {
	var jobs []*api.Job
	for _, o := range r.jobs.ByIndex(indexControllerName, cj.Namespace+"/"+cj.Name) {
		if j, ok := o.(*api.Job); ok {
			jobs = append(jobs, j)
		}
	}
	return jobs
}

// Reconcile syncs one CronJob (upstream's sync: cleanupFinishedJobs,
// then syncCronJob).
func (r *reconciler) Reconcile(ctx context.Context, req controller.Request) (controller.Result, error) {
	obj, ok := r.cronjobs.Get(req.Key)
	if !ok {
		return controller.Result{}, nil
	}
	orig, ok := obj.(*api.CronJob)
	if !ok {
		return controller.Result{}, nil
	}
	jobs := r.jobsOf(orig)
	fresh, err := r.refresh(ctx, orig, jobs)
	if err != nil {
		return controller.Result{}, err
	}
	if fresh != nil {
		orig = fresh
	}
	cj := orig.DeepCopy()
	// As upstream's sync: the finished Jobs beyond the history limits go
	// first, so a CronJob whose next Job cannot be created (a quota on
	// Jobs) still frees room; one status write for both; a requeue time
	// wins over the error of the sync.
	r.cleanupFinishedJobs(ctx, cj, jobs)
	requeue, syncErr := r.syncCronJob(ctx, cj, jobs)
	if !reflect.DeepEqual(orig.Status, cj.Status) {
		if _, err := r.client.UpdateStatus(ctx, cj); err != nil {
			return controller.Result{}, err
		}
	}
	if requeue > 0 {
		return controller.Result{RequeueAfter: requeue}, nil
	}
	return controller.Result{}, syncErr
}

// refresh reads the CronJob from the server when the cache's copy misses
// an unfinished Job of its own from its active list, and returns the
// server's copy if that lists it (upstream's syncCronJob re-reads it with
// GetCronJob there: the Job's creation may have been seen before the
// status update that recorded it). It returns nil to go on with cj.
func (r *reconciler) refresh(ctx context.Context, cj *api.CronJob, jobs []*api.Job) (*api.CronJob, error) {
	for _, j := range jobs {
		if done, _ := j.Finished(); done || inActiveList(cj, j.UID) {
			continue
		}
		o, err := r.client.Get(ctx, api.KindCronJob, cj.Key())
		if err != nil {
			return nil, err
		}
		if fresh, ok := o.(*api.CronJob); ok && fresh.UID == cj.UID && inActiveList(fresh, j.UID) {
			return fresh, nil
		}
	}
	return nil, nil
}

// syncCronJob is upstream's syncCronJob: it updates cj's status from its
// Jobs and creates the Job of the most recent unmet schedule time; it
// returns when to look again (0: not before something changes).
func (r *reconciler) syncCronJob(ctx context.Context, cj *api.CronJob, jobs []*api.Job) (time.Duration, error) {
	now := r.clock.Now().UTC()
	children := map[api.UID]bool{}
	for _, j := range jobs {
		children[j.UID] = true
		found := inActiveList(cj, j.UID)
		done, cond := j.Finished()
		switch {
		case !found && !done:
			r.recorder.Eventf(cj, client.EventTypeWarning, "UnexpectedJob", "Saw a job that the controller did not create or forgot: %s", j.Name)
		case found && done:
			deleteFromActiveList(cj, j.UID)
			r.recorder.Eventf(cj, client.EventTypeNormal, "SawCompletedJob", "Saw completed job: %s, condition: %v", j.Name, cond)
		}
		if done && cond == api.JobComplete && j.Status.CompletionTime != nil {
			if cj.Status.LastSuccessfulTime == nil || j.Status.CompletionTime.Time.After(cj.Status.LastSuccessfulTime.Time) {
				t := *j.Status.CompletionTime
				cj.Status.LastSuccessfulTime = &t
			}
		}
	}
	for _, ref := range slices.Clone(cj.Status.Active) {
		if children[ref.UID] {
			continue
		}
		// Read from the server: a slow watch may not have delivered it.
		_, err := r.client.Get(ctx, api.KindJob, api.Key{Namespace: ref.Namespace, Name: ref.Name})
		switch {
		case errors.Is(err, apierr.ErrNotFound):
			r.recorder.Eventf(cj, client.EventTypeNormal, "MissingJob", "Active job went missing: %v", ref.Name)
			deleteFromActiveList(cj, ref.UID)
		case err != nil:
			return 0, err
		}
	}
	if cj.DeletionTimestamp != nil {
		return 0, nil
	}
	loc := time.UTC
	if tz := cj.Spec.TimeZone; tz != nil {
		l, err := time.LoadLocation(*tz)
		if err != nil {
			r.recorder.Eventf(cj, client.EventTypeWarning, "UnknownTimeZone", "invalid timeZone: %q: %s", *tz, err)
			return 0, nil
		}
		loc = l
	}
	if cj.Spec.Suspend != nil && *cj.Spec.Suspend {
		return 0, nil
	}
	if strings.Contains(cj.Spec.Schedule, "TZ") {
		r.recorder.Eventf(cj, client.EventTypeWarning, "UnsupportedSchedule", "CRON_TZ or TZ used in schedule %q is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details", cj.Spec.Schedule)
	}
	sched, err := cron.ParseStandard(cj.Spec.Schedule)
	if err != nil {
		r.recorder.Eventf(cj, client.EventTypeWarning, "UnparseableSchedule", "unparseable schedule: %q : %s", cj.Spec.Schedule, err)
		return 0, nil
	}
	if sched.Location() == nil {
		sched.SetLocation(loc)
	}
	scheduled, missed, err := mostRecentScheduleTime(cj, now, sched, true)
	if err != nil {
		r.recorder.Eventf(cj, client.EventTypeWarning, "InvalidSchedule", "invalid schedule: %s : %s", cj.Spec.Schedule, err)
		return 0, nil
	}
	if missed == manyMissed {
		r.recorder.Eventf(cj, client.EventTypeWarning, "TooManyMissedTimes", "too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew")
	}
	if scheduled == nil {
		return nextScheduleTimeDuration(cj, now, sched), nil
	}
	if d := cj.Spec.StartingDeadlineSeconds; d != nil && scheduled.Add(time.Duration(*d)*time.Second).Before(now) {
		r.recorder.Eventf(cj, client.EventTypeWarning, "MissSchedule", "Missed scheduled time to start a job: %s", scheduled.UTC().Format(time.RFC1123Z))
		return nextScheduleTimeDuration(cj, now, sched), nil
	}
	name := jobName(cj, *scheduled)
	if inActiveListByName(cj, name) || cj.Status.LastScheduleTime != nil && cj.Status.LastScheduleTime.Time.Equal(*scheduled) {
		return nextScheduleTimeDuration(cj, now, sched), nil
	}
	if cj.Spec.ConcurrencyPolicy == "Forbid" && len(cj.Status.Active) > 0 {
		r.recorder.Eventf(cj, client.EventTypeNormal, "JobAlreadyActive", "Not starting job because prior execution is running and concurrency policy is Forbid")
		return nextScheduleTimeDuration(cj, now, sched), nil
	}
	if cj.Spec.ConcurrencyPolicy == "Replace" {
		for _, ref := range slices.Clone(cj.Status.Active) {
			o, err := r.client.Get(ctx, api.KindJob, api.Key{Namespace: ref.Namespace, Name: ref.Name})
			if err != nil {
				r.recorder.Eventf(cj, client.EventTypeWarning, "FailedGet", "Get job: %v", err)
				return 0, err
			}
			if err := r.deleteJob(ctx, cj, ref.Namespace, ref.Name); err != nil {
				return 0, fmt.Errorf("could not replace job %s/%s", ref.Namespace, ref.Name)
			}
			deleteFromActiveList(cj, o.GetObjectMeta().UID)
		}
	}
	job := jobFromTemplate(cj, *scheduled, sched)
	created, err := r.client.Create(ctx, job)
	switch {
	case errors.Is(err, apierr.ErrAlreadyExists):
		// Created before, by this controller (whose status update was
		// lost) or by someone else (who is left to it): upstream adds
		// its own Job to the active list, finished or not.
		got, gerr := r.client.Get(ctx, api.KindJob, job.Key())
		if gerr != nil {
			return 0, gerr
		}
		existing := got.(*api.Job)
		if ref := api.GetControllerOfNoCopy(&existing.ObjectMeta); ref == nil || ref.UID != cj.UID || inActiveList(cj, existing.UID) {
			return 0, nil
		}
		created = existing
	case err != nil:
		r.recorder.Eventf(cj, client.EventTypeWarning, "FailedCreate", "Error creating job: %v", err)
		return 0, err
	default:
		r.recorder.Eventf(cj, client.EventTypeNormal, "SuccessfulCreate", "Created job %v", created.GetObjectMeta().Name)
	}
	cm := created.GetObjectMeta()
	cj.Status.Active = append(cj.Status.Active, api.ObjectReference{Kind: api.KindJob.Name, Namespace: cm.Namespace, Name: cm.Name,
		UID: cm.UID, APIVersion: "batch/v1", ResourceVersion: cm.ResourceVersion})
	t := api.NewTime(*scheduled)
	cj.Status.LastScheduleTime = &t
	return nextScheduleTimeDuration(cj, now, sched), nil
}

// missedSchedules says how many schedule times passed unmet.
type missedSchedules int

const (
	noneMissed missedSchedules = iota
	fewMissed
	manyMissed
)

// mostRecentScheduleTime returns the most recent schedule time at or
// before now since the last schedule (or the creation), or nil, and how
// many were missed (upstream's mostRecentScheduleTime in utils.go,
// including its estimate of the missed count from the interval between
// two schedule times).
func mostRecentScheduleTime(cj *api.CronJob, now time.Time, sched *cron.Schedule, withDeadline bool) (*time.Time, missedSchedules, error) {
	earliest := earliestTime(cj, now, withDeadline)
	t1 := sched.Next(earliest)
	t2 := sched.Next(t1)
	if now.Before(t1) {
		return nil, noneMissed, nil
	}
	if now.Before(t2) {
		return &t1, noneMissed, nil
	}
	between := int64(t2.Sub(t1).Round(time.Second).Seconds())
	if between < 1 {
		return nil, noneMissed, fmt.Errorf("time difference between two schedules is less than 1 second")
	}
	elapsed := int64(now.Sub(t1).Seconds())
	missedCount := elapsed/between + 1
	var mostRecent time.Time
	potentialEarliest := t1.Add(time.Duration((missedCount-1-1)*between) * time.Second)
	for t := sched.Next(potentialEarliest); !t.After(now) && !t.IsZero(); t = sched.Next(t) {
		mostRecent = t
	}
	missed := fewMissed
	if missedCount > 100 {
		missed = manyMissed
	}
	if mostRecent.IsZero() {
		return nil, missed, nil
	}
	return &mostRecent, missed, nil
}

func earliestTime(cj *api.CronJob, now time.Time, withDeadline bool) time.Time {
	earliest := cj.CreationTimestamp.Time
	if cj.Status.LastScheduleTime != nil {
		earliest = cj.Status.LastScheduleTime.Time
	}
	if d := cj.Spec.StartingDeadlineSeconds; withDeadline && d != nil {
		if deadline := now.Add(-time.Duration(*d) * time.Second); deadline.After(earliest) {
			earliest = deadline
		}
	}
	return earliest
}

// nextScheduleTimeDuration is how long until 100 ms after the next
// schedule time (upstream's nextScheduleTimeDuration): the next time after
// the most recent one; with none, after the earliest time when nothing
// was missed, else after now (upstream's approximation of the missed
// count can find no most recent time although some were missed: counting
// from the earliest time then would give a time long past, and a requeue
// every 100 ms until the next schedule).
func nextScheduleTimeDuration(cj *api.CronJob, now time.Time, sched *cron.Schedule) time.Duration {
	from := now
	mostRecent, missed, err := mostRecentScheduleTime(cj, now, sched, false)
	switch {
	case err != nil:
	case mostRecent != nil:
		from = *mostRecent
	case missed == noneMissed:
		from = earliestTime(cj, now, false)
	}
	next := sched.Next(from)
	if next.IsZero() {
		return 0
	}
	return max(next.Add(nextScheduleDelta).Sub(now), nextScheduleDelta)
}

// jobName is "<cronjob>-<scheduled time in minutes since the epoch>"
// (upstream's getJobName and getTimeHashInMinutes).
func jobName(cj *api.CronJob, scheduled time.Time) string {
	return fmt.Sprintf("%s-%d", cj.Name, scheduled.Unix()/60)
}

// jobFromTemplate is upstream's getJobFromTemplate2: the template's
// labels, annotations and spec, the scheduled-timestamp annotation in the
// schedule's zone, a controller reference to the CronJob.
func jobFromTemplate(cj *api.CronJob, scheduled time.Time, sched *cron.Schedule) *api.Job {
	t := cj.DeepCopy().Spec.JobTemplate
	ann := t.Annotations
	if ann == nil {
		ann = map[string]string{}
	}
	ts := scheduled
	if l := sched.Location(); l != nil {
		ts = ts.In(l)
	}
	ann[api.CronJobScheduledTimestampAnnotation] = ts.Format(time.RFC3339)
	ref := api.NewControllerRef(cj)
	return &api.Job{
		TypeMeta: api.TypeMeta{APIVersion: "batch/v1", Kind: api.KindJob.Name},
		ObjectMeta: api.ObjectMeta{Name: jobName(cj, scheduled), Namespace: cj.Namespace, Labels: t.Labels, Annotations: ann,
			OwnerReferences: []api.OwnerReference{ref}},
		Spec: t.Spec,
	}
}

// byJobStartTime orders Jobs by start time, a Job not started last, then
// by name (upstream's byJobStartTime).
func byJobStartTime(a, b *api.Job) int {
	switch {
	case a.Status.StartTime == nil && b.Status.StartTime == nil:
	case b.Status.StartTime == nil:
		return -1
	case a.Status.StartTime == nil:
		return 1
	case !a.Status.StartTime.Time.Equal(b.Status.StartTime.Time):
		return a.Status.StartTime.Time.Compare(b.Status.StartTime.Time)
	}
	return strings.Compare(a.Name, b.Name)
}

func inActiveList(cj *api.CronJob, uid api.UID) bool {
	return slices.ContainsFunc(cj.Status.Active, func(r api.ObjectReference) bool { return r.UID == uid })
}

func inActiveListByName(cj *api.CronJob, name string) bool {
	return slices.ContainsFunc(cj.Status.Active, func(r api.ObjectReference) bool { return r.Name == name && r.Namespace == cj.Namespace })
}

func deleteFromActiveList(cj *api.CronJob, uid api.UID) {
	cj.Status.Active = slices.DeleteFunc(cj.Status.Active, func(r api.ObjectReference) bool { return r.UID == uid })
	if len(cj.Status.Active) == 0 {
		cj.Status.Active = nil
	}
}

// deleteJob deletes a Job with background propagation and records it
// (upstream's deleteJob: any error, NotFound too, is a FailedDelete).
func (r *reconciler) deleteJob(ctx context.Context, cj *api.CronJob, ns, name string) error {
	err := r.client.Delete(ctx, api.KindJob, api.Key{Namespace: ns, Name: name}, client.PropagationPolicy(client.Background))
	if err != nil {
		r.recorder.Eventf(cj, client.EventTypeWarning, "FailedDelete", "Deleted job: %v", err)
		return err
	}
	r.recorder.Eventf(cj, client.EventTypeNormal, "SuccessfulDelete", "Deleted job %v", name)
	return nil
}

// cleanupFinishedJobs deletes the oldest finished Jobs beyond the history
// limits (upstream's cleanupFinishedJobs and removeOldestJobs, oldest by
// start time, then name).
func (r *reconciler) cleanupFinishedJobs(ctx context.Context, cj *api.CronJob, jobs []*api.Job) {
	if cj.Spec.SuccessfulJobsHistoryLimit == nil && cj.Spec.FailedJobsHistoryLimit == nil {
		return
	}
	var succeeded, failed []*api.Job
	for _, j := range jobs {
		if j.DeletionTimestamp != nil {
			continue
		}
		switch _, c := j.Finished(); c {
		case api.JobComplete:
			succeeded = append(succeeded, j)
		case api.JobFailed:
			failed = append(failed, j)
		}
	}
	if l := cj.Spec.SuccessfulJobsHistoryLimit; l != nil {
		r.removeOldestJobs(ctx, cj, succeeded, *l)
	}
	if l := cj.Spec.FailedJobsHistoryLimit; l != nil {
		r.removeOldestJobs(ctx, cj, failed, *l)
	}
}

func (r *reconciler) removeOldestJobs(ctx context.Context, cj *api.CronJob, jobs []*api.Job, limit int32) {
	n := len(jobs) - int(limit)
	if n <= 0 {
		return
	}
	slices.SortStableFunc(jobs, byJobStartTime)
	for _, j := range jobs[:n] {
		if r.deleteJob(ctx, cj, j.Namespace, j.Name) == nil {
			deleteFromActiveList(cj, j.UID)
		}
	}
}
