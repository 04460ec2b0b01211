package cronjob

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/cron"
	"github.com/clustersim/clustersim/sim/informer"
)

// The tests of this file port upstream's TestControllerV2SyncCronJob
// (k/k pkg/controller/cronjob/cronjob_controllerv2_test.go, the table as
// read at commit 1c9cf914; the controller's syncCronJob read at 67a06c20),
// every row but "never ran, is time in zone, but time zone disabled" (the
// CronJobTimeZone gate is gone) and "do nothing if the namespace is
// terminating" (the simulated API server's refusal carries no
// NamespaceTerminating cause). Upstream's fake job control becomes a
// fake client: Get of the Job answers the row's Job (or its get error),
// Get of the CronJob the server's copy, whose active list always holds a
// still active Job.
//
// Upstream's table checks expectActive only against status updates its
// fake CronJob control recorded, which syncCronJob never makes, so the
// column is not checked there; four rows carry a value its code does not
// give, and have here the one it gives: the two "create job failed" rows
// (AlreadyExists: the Job, ours, is added to the active list) and "never
// ran, is time in zone, but TZ is also set in schedule" (created) have 1,
// "with @every schedule, prev ran but done, long overdue, past deadline"
// (nothing created) has 0. Likewise upstream checks only that an error
// comes when a row expects one; here no other row may return one, and
// "still active, is time, get job failed, R", whose syncCronJob returns
// the Get's error, expects it.

var (
	shortDead  int64 = 10
	mediumDead int64 = 2 * 60 * 60
	longDead   int64 = 1000000
	noDead     int64 = -12345

	errorSchedule = "obvious error schedule"
	onTheHour     = "0 * * * ?"
	everyHour     = "@every 1h"
	errorTimeZone = "bad-time-zone"
	newYork       = "America/New_York"
)

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

var (
	justAfterThePriorHour  = at("2016-05-19T09:01:00Z")
	justBeforeThePriorHour = at("2016-05-19T08:59:00Z")
	justAfterTheHour       = at("2016-05-19T10:01:00Z")
	justBeforeTheHour      = at("2016-05-19T09:59:00Z")
	justBeforeTheNextHour  = at("2016-05-19T10:59:00Z")
	weekAfterTheHour       = at("2016-05-26T10:00:00Z")
	topOfTheHourT          = at("2016-05-19T10:00:00Z")
)

func justAfterTheHourInZone(tz string) time.Time {
	loc, err := time.LoadLocation(tz)
	if err != nil {
		panic(err)
	}
	t, err := time.ParseInLocation(time.RFC3339, "2016-05-19T10:01:00Z", loc)
	if err != nil {
		panic(err)
	}
	return t
}

// cronJob is upstream's: mycronjob in snazzycats, template labels a=b,
// annotations x=y.
func cronJob() *api.CronJob {
	one := int32(1)
	return &api.CronJob{TypeMeta: api.TypeMeta{APIVersion: "batch/v1", Kind: "CronJob"},
		ObjectMeta: api.ObjectMeta{Name: "mycronjob", Namespace: "snazzycats", UID: "1a2b3c", CreationTimestamp: api.NewTime(justBeforeTheHour)},
		Spec: api.CronJobSpec{Schedule: "* * * * ?", ConcurrencyPolicy: "Allow",
			JobTemplate: api.JobTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"a": "b"}, Annotations: map[string]string{"x": "y"}},
				Spec: api.JobSpec{Parallelism: &one, Completions: &one, Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"foo": "bar"}},
					Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "foo/bar"}}}}}}}}
}

type fakeClock struct{ t time.Time }

func (c *fakeClock) Now() time.Time                  { return c.t }
func (c *fakeClock) Since(t time.Time) time.Duration { return c.t.Sub(t) }

// fakeClient is upstream's fakeJobControl and fakeCJControl in one.
type fakeClient struct {
	client.Client
	job               *api.Job
	cronJob           *api.CronJob
	createErr, getErr error
	deleteErr         error
	statusWrites      int
	foreign           bool // the Job Get answers has no controller
	created           []*api.Job
	deleted           []string
}

func (c *fakeClient) Get(_ context.Context, kind api.Kind, k api.Key) (api.Object, error) {
	switch {
	case kind == api.KindCronJob:
		return c.cronJob.DeepCopy(), nil
	case c.getErr != nil:
		return nil, c.getErr
	case c.job == nil:
		return nil, apierr.NewNotFound("jobs.batch", k.Name)
	}
	j := c.job.DeepCopy()
	if c.foreign {
		j.OwnerReferences = nil
	}
	return j, nil
}

func (c *fakeClient) Create(_ context.Context, o api.Object) (api.Object, error) {
	if c.createErr != nil {
		return nil, c.createErr
	}
	j := o.(*api.Job).DeepCopy()
	j.UID = api.UID(fmt.Sprint("created-", len(c.created)))
	c.created = append(c.created, j)
	return j, nil
}

func (c *fakeClient) Delete(_ context.Context, _ api.Kind, k api.Key, _ ...client.DeleteOption) error {
	if c.deleteErr != nil {
		return c.deleteErr
	}
	c.deleted = append(c.deleted, k.Name)
	return nil
}

type events []string

func (e *events) Eventf(_ api.Object, typ, reason, format string, args ...any) {
	*e = append(*e, typ+" "+reason+" "+fmt.Sprintf(format, args...))
}

// jobRef is upstream's getRef of a Job.
func jobRef(j *api.Job) api.ObjectReference {
	return api.ObjectReference{Kind: "Job", APIVersion: "batch/v1", Namespace: j.Namespace, Name: j.Name, UID: j.UID}
}

func TestControllerV2SyncCronJob(t *testing.T) {
	type row struct {
		concurrencyPolicy string
		suspend           bool
		schedule          string
		timeZone          *string
		deadline          int64

		ranPreviously, stillActive bool

		cronjobCreationTime, jobCreationTime, lastScheduleTime, now time.Time
		jobCreateError, jobGetErr                                   error
		jobDeleteErr                                                error
		foreignJob                                                  bool

		expectCreate, expectDelete bool
		expectActive               int
		expectedWarnings           int
		expectErr                  bool
		expectRequeueAfter         bool
		expectedRequeueDuration    time.Duration
		expectUpdateStatus         bool
		jobStillNotFoundInLister   bool
		jobPresentInCJActiveStatus bool
	}
	const d = nextScheduleDelta
	alreadyExists := apierr.NewAlreadyExists("jobs.batch", "")
	tests := map[string]row{
		"never ran, not valid schedule, A": {concurrencyPolicy: "Allow", schedule: errorSchedule, deadline: noDead, jobCreationTime: justAfterThePriorHour, now: justBeforeTheHour,
			expectedWarnings: 1, jobPresentInCJActiveStatus: true},
		"never ran, not valid schedule, F": {concurrencyPolicy: "Forbid", schedule: errorSchedule, deadline: noDead, jobCreationTime: justAfterThePriorHour, now: justBeforeTheHour,
			expectedWarnings: 1, jobPresentInCJActiveStatus: true},
		"never ran, not valid schedule, R": {concurrencyPolicy: "Forbid", schedule: errorSchedule, deadline: noDead, jobCreationTime: justAfterThePriorHour, now: justBeforeTheHour,
			expectedWarnings: 1, jobPresentInCJActiveStatus: true},
		"never ran, not valid time zone": {concurrencyPolicy: "Allow", schedule: onTheHour, timeZone: &errorTimeZone, deadline: noDead, jobCreationTime: justAfterThePriorHour, now: justBeforeTheHour,
			expectedWarnings: 1, jobPresentInCJActiveStatus: true},
		"never ran, not time, A": {concurrencyPolicy: "Allow", schedule: onTheHour, deadline: noDead, jobCreationTime: justAfterThePriorHour, now: justBeforeTheHour,
			expectRequeueAfter: true, expectedRequeueDuration: time.Minute + d, jobPresentInCJActiveStatus: true},
		"never ran, not time, F": {concurrencyPolicy: "Forbid", schedule: onTheHour, deadline: noDead, jobCreationTime: justAfterThePriorHour, now: justBeforeTheHour,
			expectRequeueAfter: true, expectedRequeueDuration: time.Minute + d, jobPresentInCJActiveStatus: true},
		"never ran, not time, R": {concurrencyPolicy: "Replace", schedule: onTheHour, deadline: noDead, jobCreationTime: justAfterThePriorHour, now: justBeforeTheHour,
			expectRequeueAfter: true, expectedRequeueDuration: time.Minute + d, jobPresentInCJActiveStatus: true},
		"never ran, not time in zone": {concurrencyPolicy: "Allow", schedule: onTheHour, timeZone: &newYork, deadline: noDead, jobCreationTime: justAfterThePriorHour, now: justBeforeTheHour,
			expectRequeueAfter: true, expectedRequeueDuration: time.Minute + d, jobPresentInCJActiveStatus: true},
		"never ran, is time, A": {concurrencyPolicy: "Allow", schedule: onTheHour, deadline: noDead, jobCreationTime: justAfterThePriorHour, now: justAfterTheHour,
			expectCreate: true, expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: time.Hour - time.Minute + d, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
		"never ran, is time, F": {concurrencyPolicy: "Forbid", schedule: onTheHour, deadline: noDead, jobCreationTime: justAfterThePriorHour, now: justAfterTheHour,
			expectCreate: true, expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: time.Hour - time.Minute + d, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
		"never ran, is time, R": {concurrencyPolicy: "Replace", schedule: onTheHour, deadline: noDead, jobCreationTime: justAfterThePriorHour, now: justAfterTheHour,
			expectCreate: true, expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: time.Hour - time.Minute + d, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
		"never ran, is time in zone": {concurrencyPolicy: "Allow", schedule: onTheHour, timeZone: &newYork, deadline: noDead, jobCreationTime: justAfterThePriorHour, now: justAfterTheHourInZone(newYork),
			expectCreate: true, expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: time.Hour - time.Minute + d, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
		"never ran, is time in zone, but TZ is also set in schedule": {concurrencyPolicy: "Allow", schedule: "TZ=UTC " + onTheHour, timeZone: &newYork, deadline: noDead,
			jobCreationTime: justAfterThePriorHour, now: justAfterTheHourInZone(newYork),
			expectCreate: true, expectActive: 1, expectedWarnings: 1, expectRequeueAfter: true, expectedRequeueDuration: time.Hour - time.Minute + d, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
		"never ran, is time, suspended": {concurrencyPolicy: "Allow", suspend: true, schedule: onTheHour, deadline: noDead, jobCreationTime: justAfterThePriorHour, now: justAfterTheHour,
			jobPresentInCJActiveStatus: true},
		"never ran, is time, past deadline": {concurrencyPolicy: "Allow", schedule: onTheHour, deadline: shortDead, jobCreationTime: justAfterThePriorHour,
			now: justAfterTheHour.Add(time.Minute * time.Duration(shortDead+1)), expectRequeueAfter: true,
			expectedRequeueDuration: time.Hour - time.Minute - time.Minute*time.Duration(shortDead+1) + d, jobPresentInCJActiveStatus: true},
		"never ran, is time, not past deadline": {concurrencyPolicy: "Allow", schedule: onTheHour, deadline: longDead, jobCreationTime: justAfterThePriorHour, now: justAfterTheHour,
			expectCreate: true, expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: time.Hour - time.Minute + d, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},

		"prev ran but done, not time, A": {concurrencyPolicy: "Allow", schedule: onTheHour, deadline: noDead, ranPreviously: true, jobCreationTime: justAfterThePriorHour, now: justBeforeTheHour,
			expectRequeueAfter: true, expectedRequeueDuration: time.Minute + d, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
		"prev ran but done, not time, F": {concurrencyPolicy: "Forbid", schedule: onTheHour, deadline: noDead, ranPreviously: true, jobCreationTime: justAfterThePriorHour, now: justBeforeTheHour,
			expectRequeueAfter: true, expectedRequeueDuration: time.Minute + d, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
		"prev ran but done, not time, R": {concurrencyPolicy: "Replace", schedule: onTheHour, deadline: noDead, ranPreviously: true, jobCreationTime: justAfterThePriorHour, now: justBeforeTheHour,
			expectRequeueAfter: true, expectedRequeueDuration: time.Minute + d, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
		"prev ran but done, is time, A": {concurrencyPolicy: "Allow", schedule: onTheHour, deadline: noDead, ranPreviously: true, jobCreationTime: justAfterThePriorHour, now: justAfterTheHour,
			expectCreate: true, expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: time.Hour - time.Minute + d, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
		"prev ran but done, is time, create job failed, A": {concurrencyPolicy: "Allow", schedule: onTheHour, deadline: noDead, ranPreviously: true, jobCreationTime: justAfterThePriorHour, now: justAfterTheHour,
			jobCreateError: alreadyExists, expectActive: 1, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
		"prev ran but done, is time, job not present in CJ active status, create job failed, A": {concurrencyPolicy: "Allow", schedule: onTheHour, deadline: noDead, ranPreviously: true,
			jobCreationTime: justAfterThePriorHour, now: justAfterTheHour, jobCreateError: alreadyExists, expectActive: 1, expectUpdateStatus: true},
		"prev ran but done, is time, F": {concurrencyPolicy: "Forbid", schedule: onTheHour, deadline: noDead, ranPreviously: true, jobCreationTime: justAfterThePriorHour, now: justAfterTheHour,
			expectCreate: true, expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: time.Hour - time.Minute + d, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
		"prev ran but done, is time, R": {concurrencyPolicy: "Replace", schedule: onTheHour, deadline: noDead, ranPreviously: true, jobCreationTime: justAfterThePriorHour, now: justAfterTheHour,
			expectCreate: true, expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: time.Hour - time.Minute + d, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
		"prev ran but done, is time, suspended": {concurrencyPolicy: "Allow", suspend: true, schedule: onTheHour, deadline: noDead, ranPreviously: true, jobCreationTime: justAfterThePriorHour, now: justAfterTheHour,
			expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
		"prev ran but done, is time, past deadline": {concurrencyPolicy: "Allow", schedule: onTheHour, deadline: shortDead, ranPreviously: true, jobCreationTime: justAfterThePriorHour, now: justAfterTheHour,
			expectRequeueAfter: true, expectedRequeueDuration: time.Hour - time.Minute + d, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
		"prev ran but done, is time, not past deadline": {concurrencyPolicy: "Allow", schedule: onTheHour, deadline: longDead, ranPreviously: true, jobCreationTime: justAfterThePriorHour, now: justAfterTheHour,
			expectCreate: true, expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: time.Hour - time.Minute + d, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},

		"still active, not time, A": {concurrencyPolicy: "Allow", schedule: onTheHour, deadline: noDead, ranPreviously: true, stillActive: true, jobCreationTime: justAfterThePriorHour, now: justBeforeTheHour,
			expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: time.Minute + d, jobPresentInCJActiveStatus: true},
		"still active, not time, F": {concurrencyPolicy: "Forbid", schedule: onTheHour, deadline: noDead, ranPreviously: true, stillActive: true, jobCreationTime: justAfterThePriorHour, now: justBeforeTheHour,
			expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: time.Minute + d, jobPresentInCJActiveStatus: true},
		"still active, not time, R": {concurrencyPolicy: "Replace", schedule: onTheHour, deadline: noDead, ranPreviously: true, stillActive: true, jobCreationTime: justAfterThePriorHour, now: justBeforeTheHour,
			expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: time.Minute + d, jobPresentInCJActiveStatus: true},
		"still active, is time, A": {concurrencyPolicy: "Allow", schedule: onTheHour, deadline: noDead, ranPreviously: true, stillActive: true, jobCreationTime: justAfterThePriorHour, now: justAfterTheHour,
			expectCreate: true, expectActive: 2, expectRequeueAfter: true, expectedRequeueDuration: time.Hour - time.Minute + d, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
		"still active, is time, F": {concurrencyPolicy: "Forbid", schedule: onTheHour, deadline: noDead, ranPreviously: true, stillActive: true, jobCreationTime: justAfterThePriorHour, now: justAfterTheHour,
			expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: time.Hour - time.Minute + d, jobPresentInCJActiveStatus: true},
		"still active, is time, R": {concurrencyPolicy: "Replace", schedule: onTheHour, deadline: noDead, ranPreviously: true, stillActive: true, jobCreationTime: justAfterThePriorHour, now: justAfterTheHour,
			expectCreate: true, expectDelete: true, expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: time.Hour - time.Minute + d, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
		"still active, is time, get job failed, R": {concurrencyPolicy: "Replace", schedule: onTheHour, deadline: noDead, ranPreviously: true, stillActive: true, jobCreationTime: justAfterThePriorHour, now: justAfterTheHour,
			jobGetErr: apierr.NewBadRequest("request is invalid"), expectErr: true, expectActive: 1, expectedWarnings: 1, jobPresentInCJActiveStatus: true},
		"still active, is time, suspended": {concurrencyPolicy: "Allow", suspend: true, schedule: onTheHour, deadline: noDead, ranPreviously: true, stillActive: true, jobCreationTime: justAfterThePriorHour, now: justAfterTheHour,
			expectActive: 1, jobPresentInCJActiveStatus: true},
		"still active, is time, past deadline": {concurrencyPolicy: "Allow", schedule: onTheHour, deadline: shortDead, ranPreviously: true, stillActive: true, jobCreationTime: justAfterThePriorHour, now: justAfterTheHour,
			expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: time.Hour - time.Minute + d, jobPresentInCJActiveStatus: true},
		"still active, is time, not past deadline": {concurrencyPolicy: "Allow", schedule: onTheHour, deadline: longDead, ranPreviously: true, stillActive: true, jobCreationTime: justAfterThePriorHour, now: justAfterTheHour,
			expectCreate: true, expectActive: 2, expectRequeueAfter: true, expectedRequeueDuration: time.Hour - time.Minute + d, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},

		// Not upstream's rows: its syncCronJob returns the error of the
		// Get that looks for an active Job gone from the cache, and a
		// Replace whose deletion fails (NotFound too) records FailedDelete
		// and creates nothing.
		"still active, went missing from the cache, get job failed": {concurrencyPolicy: "Allow", schedule: onTheHour, deadline: noDead, ranPreviously: true, stillActive: true,
			jobCreationTime: justAfterThePriorHour, now: justAfterTheHour, jobGetErr: apierr.NewBadRequest("request is invalid"), expectErr: true,
			jobStillNotFoundInLister: true, jobPresentInCJActiveStatus: true},
		"still active, is time, delete job failed, R": {concurrencyPolicy: "Replace", schedule: onTheHour, deadline: noDead, ranPreviously: true, stillActive: true,
			jobCreationTime: justAfterThePriorHour, now: justAfterTheHour, jobDeleteErr: apierr.NewNotFound("jobs.batch", "gone"), expectErr: true,
			expectedWarnings: 1, jobPresentInCJActiveStatus: true},
		// Not upstream's row: a Job of the scheduled name that is not the
		// CronJob's is left to whoever made it (no error, no requeue).
		"prev ran but done, is time, create job failed, the Job is not ours": {concurrencyPolicy: "Allow", schedule: onTheHour, deadline: noDead, ranPreviously: true,
			jobCreationTime: justAfterThePriorHour, now: justAfterTheHour, jobCreateError: alreadyExists, foreignJob: true, expectRequeueAfter: true, expectUpdateStatus: true},
		"this ran but done, time drifted back, F": {concurrencyPolicy: "Forbid", schedule: onTheHour, deadline: noDead, ranPreviously: true, jobCreationTime: justAfterTheHour, now: justBeforeTheHour,
			jobCreateError: alreadyExists, expectRequeueAfter: true, expectedRequeueDuration: time.Minute + d, expectUpdateStatus: true},
		"this started but went missing, not past deadline, A": {concurrencyPolicy: "Allow", schedule: onTheHour, deadline: longDead, ranPreviously: true, stillActive: true,
			jobCreationTime: topOfTheHourT.Add(100 * time.Millisecond), now: justAfterTheHour.Add(100 * time.Millisecond), expectActive: 1, expectRequeueAfter: true,
			expectedRequeueDuration: time.Hour - time.Minute - 100*time.Millisecond + d, jobStillNotFoundInLister: true, jobPresentInCJActiveStatus: true},
		"this started but went missing, not past deadline, f": {concurrencyPolicy: "Forbid", schedule: onTheHour, deadline: longDead, ranPreviously: true, stillActive: true,
			jobCreationTime: topOfTheHourT.Add(100 * time.Millisecond), now: justAfterTheHour.Add(100 * time.Millisecond), expectActive: 1, expectRequeueAfter: true,
			expectedRequeueDuration: time.Hour - time.Minute - 100*time.Millisecond + d, jobStillNotFoundInLister: true, jobPresentInCJActiveStatus: true},
		"this started but went missing, not past deadline, R": {concurrencyPolicy: "Replace", schedule: onTheHour, deadline: longDead, ranPreviously: true, stillActive: true,
			jobCreationTime: topOfTheHourT.Add(100 * time.Millisecond), now: justAfterTheHour.Add(100 * time.Millisecond), expectActive: 1, expectRequeueAfter: true,
			expectedRequeueDuration: time.Hour - time.Minute - 100*time.Millisecond + d, jobStillNotFoundInLister: true, jobPresentInCJActiveStatus: true},
		"this started but is not present in cronjob active list, not past deadline, A": {concurrencyPolicy: "Allow", schedule: onTheHour, deadline: longDead, ranPreviously: true, stillActive: true,
			jobCreationTime: topOfTheHourT.Add(100 * time.Millisecond), now: justAfterTheHour.Add(100 * time.Millisecond), expectActive: 1, expectRequeueAfter: true,
			expectedRequeueDuration: time.Hour - time.Minute - 100*time.Millisecond + d},
		"this started but is not present in cronjob active list, not past deadline, f": {concurrencyPolicy: "Forbid", schedule: onTheHour, deadline: longDead, ranPreviously: true, stillActive: true,
			jobCreationTime: topOfTheHourT.Add(100 * time.Millisecond), now: justAfterTheHour.Add(100 * time.Millisecond), expectActive: 1, expectRequeueAfter: true,
			expectedRequeueDuration: time.Hour - time.Minute - 100*time.Millisecond + d},
		"this started but is not present in cronjob active list, not past deadline, R": {concurrencyPolicy: "Replace", schedule: onTheHour, deadline: longDead, ranPreviously: true, stillActive: true,
			jobCreationTime: topOfTheHourT.Add(100 * time.Millisecond), now: justAfterTheHour.Add(100 * time.Millisecond), expectActive: 1, expectRequeueAfter: true,
			expectedRequeueDuration: time.Hour - time.Minute - 100*time.Millisecond + d},

		"with @every schedule, never ran, not time": {concurrencyPolicy: "Allow", schedule: everyHour, deadline: noDead, cronjobCreationTime: justBeforeTheHour, jobCreationTime: justBeforeTheHour,
			now: topOfTheHourT, expectRequeueAfter: true, expectedRequeueDuration: time.Hour - time.Minute + d, jobPresentInCJActiveStatus: true},
		"with @every schedule, never ran, is time": {concurrencyPolicy: "Allow", schedule: everyHour, deadline: noDead, cronjobCreationTime: justBeforeThePriorHour, jobCreationTime: justBeforeThePriorHour,
			now: justBeforeTheHour, expectRequeueAfter: true, expectedRequeueDuration: time.Hour + d, jobPresentInCJActiveStatus: true, expectCreate: true, expectActive: 1, expectUpdateStatus: true},
		"with @every schedule, never ran, is time, past deadline": {concurrencyPolicy: "Allow", schedule: everyHour, deadline: shortDead, cronjobCreationTime: justBeforeThePriorHour,
			jobCreationTime: justBeforeThePriorHour, now: justBeforeTheHour.Add(time.Second * time.Duration(shortDead+1)), expectRequeueAfter: true,
			expectedRequeueDuration: time.Hour - time.Second*time.Duration(shortDead+1) + d, jobPresentInCJActiveStatus: true},
		"with @every schedule, never ran, is time, not past deadline": {concurrencyPolicy: "Allow", schedule: everyHour, deadline: longDead, cronjobCreationTime: justBeforeThePriorHour,
			jobCreationTime: justBeforeThePriorHour, now: justBeforeTheHour.Add(time.Second * time.Duration(shortDead-1)), expectCreate: true, expectActive: 1, expectRequeueAfter: true,
			expectedRequeueDuration: time.Hour - time.Second*time.Duration(shortDead-1) + d, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
		"with @every schedule, prev ran but done, not time": {concurrencyPolicy: "Allow", schedule: everyHour, deadline: noDead, ranPreviously: true, cronjobCreationTime: justBeforeThePriorHour,
			jobCreationTime: justBeforeThePriorHour, lastScheduleTime: justBeforeTheHour, now: topOfTheHourT, expectRequeueAfter: true,
			expectedRequeueDuration: time.Hour - time.Minute + d, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
		"with @every schedule, prev ran but done, is time": {concurrencyPolicy: "Allow", schedule: everyHour, deadline: noDead, ranPreviously: true, cronjobCreationTime: justBeforeThePriorHour,
			jobCreationTime: justBeforeThePriorHour, lastScheduleTime: justBeforeTheHour, now: topOfTheHourT.Add(time.Hour), expectCreate: true, expectActive: 1, expectRequeueAfter: true,
			expectedRequeueDuration: time.Hour - time.Minute + d, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
		"with @every schedule, prev ran but done, is time, past deadline": {concurrencyPolicy: "Allow", schedule: everyHour, deadline: shortDead, ranPreviously: true, cronjobCreationTime: justBeforeThePriorHour,
			jobCreationTime: justBeforeThePriorHour, lastScheduleTime: justBeforeTheHour, now: justBeforeTheNextHour.Add(time.Second * time.Duration(shortDead+1)), expectRequeueAfter: true,
			expectedRequeueDuration: time.Hour - time.Second*time.Duration(shortDead+1) + d, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
		"with @every schedule, still active, not time": {concurrencyPolicy: "Allow", schedule: everyHour, deadline: noDead, ranPreviously: true, stillActive: true, cronjobCreationTime: justBeforeThePriorHour,
			jobCreationTime: justBeforeTheHour, lastScheduleTime: justBeforeTheHour, now: topOfTheHourT, expectActive: 1, expectRequeueAfter: true,
			expectedRequeueDuration: time.Hour - time.Minute + d, jobPresentInCJActiveStatus: true},
		"with @every schedule, still active, is time": {concurrencyPolicy: "Allow", schedule: everyHour, deadline: noDead, ranPreviously: true, stillActive: true, cronjobCreationTime: justBeforeThePriorHour,
			jobCreationTime: justBeforeThePriorHour, lastScheduleTime: justBeforeThePriorHour, now: justAfterTheHour, expectCreate: true, expectActive: 2, expectRequeueAfter: true,
			expectedRequeueDuration: time.Hour - 2*time.Minute + d, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
		"with @every schedule, still active, is time, past deadline": {concurrencyPolicy: "Allow", schedule: everyHour, deadline: shortDead, ranPreviously: true, stillActive: true,
			cronjobCreationTime: justBeforeThePriorHour, jobCreationTime: justBeforeTheHour, lastScheduleTime: justBeforeTheHour, now: justBeforeTheNextHour.Add(time.Second * time.Duration(shortDead+1)),
			expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: time.Hour - time.Second*time.Duration(shortDead+1) + d, jobPresentInCJActiveStatus: true},
		"with @every schedule, still active, is time, not past deadline": {concurrencyPolicy: "Allow", schedule: everyHour, deadline: longDead, ranPreviously: true, stillActive: true,
			cronjobCreationTime: justBeforeThePriorHour, jobCreationTime: justBeforeTheHour, lastScheduleTime: justBeforeTheHour, now: justBeforeTheNextHour.Add(time.Second * time.Duration(shortDead-1)),
			expectCreate: true, expectActive: 2, expectRequeueAfter: true, expectedRequeueDuration: time.Hour - time.Second*time.Duration(shortDead-1) + d, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
		"with @every schedule, prev ran but done, long overdue, no deadline": {concurrencyPolicy: "Allow", schedule: everyHour, deadline: noDead, ranPreviously: true,
			cronjobCreationTime: justAfterThePriorHour, lastScheduleTime: justAfterTheHour, jobCreationTime: justAfterThePriorHour, now: weekAfterTheHour,
			expectCreate: true, expectActive: 1, expectedWarnings: 1, expectRequeueAfter: true, expectedRequeueDuration: time.Minute + d, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
		"with @every schedule, prev ran but done, long overdue, past deadline": {concurrencyPolicy: "Allow", schedule: everyHour, deadline: shortDead, ranPreviously: true,
			cronjobCreationTime: justAfterThePriorHour, lastScheduleTime: justAfterTheHour, jobCreationTime: justAfterThePriorHour,
			now: weekAfterTheHour.Add(time.Minute).Add(time.Second * time.Duration(shortDead+1)), expectRequeueAfter: true,
			expectedRequeueDuration: time.Hour - time.Second*time.Duration(shortDead+1) + d, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	}
	// The long overdue rows: too many missed times warn, unless the
	// deadline is short enough to bound them.
	for _, p := range []string{"Allow", "Replace", "Forbid"} {
		for _, dl := range []struct {
			name     string
			deadline int64
			warnings int
		}{{"not past deadline", longDead, 1}, {"no deadline", noDead, 1}, {"past medium deadline", mediumDead, 0}, {"past short deadline", shortDead, 0}} {
			tests[fmt.Sprintf("prev ran but done, long overdue, %s, %s", dl.name, p[:1])] = row{concurrencyPolicy: p, schedule: onTheHour, deadline: dl.deadline, ranPreviously: true,
				jobCreationTime: justAfterThePriorHour, now: weekAfterTheHour, expectCreate: true, expectActive: 1, expectedWarnings: dl.warnings, expectRequeueAfter: true,
				expectedRequeueDuration: time.Hour + d, expectUpdateStatus: true, jobPresentInCJActiveStatus: true}
		}
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			cj := cronJob()
			cj.Spec.ConcurrencyPolicy = tc.concurrencyPolicy
			cj.Spec.Suspend = &tc.suspend
			cj.Spec.Schedule = tc.schedule
			cj.Spec.TimeZone = tc.timeZone
			if tc.deadline != noDead {
				cj.Spec.StartingDeadlineSeconds = &tc.deadline
			}
			var job *api.Job
			var jobs []*api.Job
			realCJ := cj.DeepCopy()
			if tc.ranPreviously {
				cj.CreationTimestamp = api.NewTime(justBeforeThePriorHour)
				if !tc.cronjobCreationTime.IsZero() {
					cj.CreationTimestamp = api.NewTime(tc.cronjobCreationTime)
				}
				last := api.NewTime(justAfterThePriorHour)
				if !tc.lastScheduleTime.IsZero() {
					last = api.NewTime(tc.lastScheduleTime)
				}
				cj.Status.LastScheduleTime = &last
				sched, err := cron.ParseStandard(cj.Spec.Schedule)
				if err != nil {
					t.Fatal(err)
				}
				job = jobFromTemplate(cj, tc.jobCreationTime, sched)
				job.CreationTimestamp = api.NewTime(tc.jobCreationTime)
				job.UID = "1234"
				if tc.stillActive {
					if tc.jobPresentInCJActiveStatus {
						cj.Status.Active = []api.ObjectReference{jobRef(job)}
					}
					realCJ.Status.Active = []api.ObjectReference{jobRef(job)}
				} else {
					done := api.NewTime(tc.jobCreationTime.Add(10 * time.Second))
					job.Status.CompletionTime = &done
					job.Status.Conditions = []api.JobCondition{{Type: api.JobComplete, Status: api.ConditionTrue}}
				}
				if !tc.jobStillNotFoundInLister {
					jobs = append(jobs, job)
				}
			} else {
				cj.CreationTimestamp = api.NewTime(justBeforeTheHour)
				if !tc.cronjobCreationTime.IsZero() {
					cj.CreationTimestamp = api.NewTime(tc.cronjobCreationTime)
				}
			}
			c := &fakeClient{job: job, cronJob: realCJ, createErr: tc.jobCreateError, getErr: tc.jobGetErr, deleteErr: tc.jobDeleteErr, foreign: tc.foreignJob}
			ev := &events{}
			r := &reconciler{client: c, recorder: ev, clock: &fakeClock{tc.now}}
			fresh, err := r.refresh(context.Background(), cj, jobs)
			if fresh != nil {
				cj = fresh
			}
			cjCopy := cj.DeepCopy()
			var requeue time.Duration
			if err == nil {
				requeue, err = r.syncCronJob(context.Background(), cjCopy, jobs)
			}
			if !tc.expectErr && err != nil {
				t.Errorf("error %v", err)
			}
			if tc.expectErr && err == nil {
				t.Errorf("no error, requeue after %v", requeue)
			}
			if tc.expectRequeueAfter && requeue != tc.expectedRequeueDuration {
				t.Errorf("requeue after %v, want %v", requeue, tc.expectedRequeueDuration)
			}
			updated := fmt.Sprint(cj.Status) != fmt.Sprint(cjCopy.Status)
			if updated != tc.expectUpdateStatus {
				t.Errorf("status changed %v, want %v: %+v", updated, tc.expectUpdateStatus, cjCopy.Status)
			}
			if tc.ranPreviously && !tc.stillActive {
				want := tc.jobCreationTime.Add(10 * time.Second)
				if lst := cjCopy.Status.LastSuccessfulTime; lst == nil || !lst.Time.Equal(want) {
					t.Errorf("lastSuccessfulTime %v, want %v", lst, want)
				}
			}
			wantCreates, wantDeletes := 0, 0
			if tc.expectCreate {
				wantCreates = 1
			}
			if tc.expectDelete {
				wantDeletes = 1
			}
			if len(c.created) != wantCreates || len(c.deleted) != wantDeletes {
				t.Errorf("created %d, deleted %d; want %d and %d", len(c.created), len(c.deleted), wantCreates, wantDeletes)
			}
			for _, j := range c.created {
				ref := api.GetControllerOfNoCopy(&j.ObjectMeta)
				if ref == nil || ref.APIVersion != "batch/v1" || ref.Kind != "CronJob" || ref.Name != cj.Name || ref.UID != cj.UID || ref.Controller == nil || !*ref.Controller {
					t.Errorf("created job's controller %+v", ref)
				}
			}
			wantEvents := wantCreates + wantDeletes + tc.expectedWarnings
			if name == "still active, is time, F" {
				wantEvents++ // JobAlreadyActive
			}
			warnings := 0
			for _, e := range *ev {
				if strings.HasPrefix(e, client.EventTypeWarning) {
					warnings++
				}
			}
			if len(*ev) != wantEvents || warnings != tc.expectedWarnings {
				t.Errorf("events %q; want %d, %d of them warnings", *ev, wantEvents, tc.expectedWarnings)
			}
			if tc.expectUpdateStatus && len(cjCopy.Status.Active) != tc.expectActive {
				t.Errorf("active %d, want %d", len(cjCopy.Status.Active), tc.expectActive)
			}
		})
	}
}

func (c *fakeClient) UpdateStatus(_ context.Context, o api.Object) (api.Object, error) {
	c.cronJob = o.(*api.CronJob).DeepCopy()
	c.statusWrites++
	return o, nil
}

// TestControllerV2CleanupFinishedJobs ports upstream's table of the same
// name (cronjob_controllerv2_test.go at 1c9cf914) through Reconcile: the
// oldest finished Job beyond successfulJobsHistoryLimit is deleted even
// when the Job of the schedule cannot be created (a quota on Jobs), and
// none while the limit is not reached.
func TestControllerV2CleanupFinishedJobs(t *testing.T) {
	tests := []struct {
		name         string
		now          time.Time
		limit        int32
		startTimes   map[string]time.Time
		createErr    error
		wantDeleted  []string
		wantErr      bool
		wantRequeue  bool
		wantCreateOK bool
	}{
		{"jobs are still deleted when a cronjob can't create jobs due to jobs quota being reached (avoiding a deadlock)", justAfterTheHour, 1,
			map[string]time.Time{"finished-job-started-hour-ago": justBeforeThePriorHour, "finished-job-started-minute-ago": justBeforeTheHour},
			&apierr.StatusError{Code: 500, Reason: apierr.InternalError, Message: "Internal error occurred: quota for # of jobs reached"}, []string{"finished-job-started-hour-ago"}, true, false, false},
		{"jobs are not deleted if history limit not reached", justBeforeTheHour, 2,
			map[string]time.Time{"finished-job-started-hour-ago": justBeforeThePriorHour}, nil, nil, false, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cj := &api.CronJob{ObjectMeta: api.ObjectMeta{Namespace: "foo-ns", Name: "fooer", UID: "fooer-uid"},
				Spec: api.CronJobSpec{Schedule: onTheHour, SuccessfulJobsHistoryLimit: &tc.limit,
					JobTemplate: api.JobTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"key": "value"}}}}}
			last := api.NewTime(justAfterThePriorHour)
			cj.Status.LastScheduleTime = &last
			jobs := jobStore{}
			for _, name := range []string{"finished-job-started-hour-ago", "finished-job-started-minute-ago"} {
				start, ok := tc.startTimes[name]
				if !ok {
					continue
				}
				st := api.NewTime(start)
				yes := true
				jobs = append(jobs, &api.Job{ObjectMeta: api.ObjectMeta{Namespace: "foo-ns", Name: name, UID: api.UID(name),
					OwnerReferences: []api.OwnerReference{{APIVersion: "batch/v1", Kind: "CronJob", Name: "fooer", UID: cj.UID, Controller: &yes}}},
					Status: api.JobStatus{StartTime: &st, Conditions: []api.JobCondition{{Type: api.JobComplete, Status: api.ConditionTrue}}}})
			}
			c := &fakeClient{cronJob: cj, createErr: tc.createErr}
			r := &reconciler{client: c, recorder: &events{}, clock: &fakeClock{tc.now}, cronjobs: informer.Static{cj}, jobs: jobs}
			res, err := r.Reconcile(context.Background(), controller.Request{Key: cj.Key()})
			if (err != nil) != tc.wantErr || (res.RequeueAfter > 0) != tc.wantRequeue {
				t.Errorf("Reconcile = %+v, %v; want error %v, requeue %v", res, err, tc.wantErr, tc.wantRequeue)
			}
			if fmt.Sprint(c.deleted) != fmt.Sprint(tc.wantDeleted) {
				t.Errorf("deleted %v, want %v", c.deleted, tc.wantDeleted)
			}
		})
	}
}

// fakeQueue is upstream's fakeQueue: it keeps the delay of the last
// EnqueueAfter; Enqueue is a delay of 0.
type fakeQueue struct {
	delay    time.Duration
	enqueued bool
}

func (q *fakeQueue) Enqueue(controller.Request) { q.delay, q.enqueued = 0, true }
func (q *fakeQueue) EnqueueAfter(_ controller.Request, d time.Duration) {
	q.delay, q.enqueued = d, true
}

// TestControllerV2UpdateCronJob ports upstream's table of the same name
// (cronjob_controllerv2_test.go as stored by the index, no commit given),
// all six rows, on updateCronJob at a second before the hour: a changed
// schedule is synced at its next time under the new schedule; another
// change at once. "spec.timeZone changed" (the schedule empty) expects a
// delay of 0 because nothing is enqueued: the schedule does not parse.
// Before, every update of a CronJob synced it at once, so a schedule
// changed to one that had missed a time since the last run started a Job
// for that time at the change; upstream waits for the next time.
func TestControllerV2UpdateCronJob(t *testing.T) {
	now := at("2016-05-19T09:59:59Z")
	tests := []struct {
		name                   string
		oldSchedule, schedule  string
		oldTZ, tz              *string
		lastScheduled          bool
		wantDelay              time.Duration
		wantEnqueued, wantWarn bool
	}{
		{name: "spec.template changed", wantEnqueued: true},
		{name: "spec.schedule changed", oldSchedule: "30 * * * *", schedule: "*/1 * * * *", lastScheduled: true,
			wantDelay: time.Second + nextScheduleDelta, wantEnqueued: true},
		{name: "spec.schedule with @every changed - cadence decrease", oldSchedule: "@every 1m", schedule: "@every 3m", lastScheduled: true,
			wantDelay: 2*time.Minute + time.Second + nextScheduleDelta, wantEnqueued: true},
		{name: "spec.schedule with @every changed - cadence increase", oldSchedule: "@every 3m", schedule: "@every 1m", lastScheduled: true,
			wantDelay: time.Second + nextScheduleDelta, wantEnqueued: true},
		{name: "spec.timeZone not changed", oldTZ: &newYork, tz: &newYork, wantEnqueued: true},
		{name: "spec.timeZone changed", oldTZ: &newYork, wantWarn: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			old, cj := cronJob(), cronJob()
			old.Spec.Schedule, cj.Spec.Schedule = tc.oldSchedule, tc.schedule
			old.Spec.TimeZone, cj.Spec.TimeZone = tc.oldTZ, tc.tz
			cj.Spec.JobTemplate.Labels = map[string]string{"a": "foo"}
			if tc.lastScheduled {
				last := api.NewTime(justBeforeTheHour)
				old.Status.LastScheduleTime, cj.Status.LastScheduleTime = &last, &last
			}
			ev := &events{}
			r := &reconciler{recorder: ev, clock: &fakeClock{now}}
			q := &fakeQueue{}
			r.updateCronJob(q, old, cj)
			if q.delay != tc.wantDelay || q.enqueued != tc.wantEnqueued {
				t.Errorf("enqueued %v after %v, want %v after %v", q.enqueued, q.delay, tc.wantEnqueued, tc.wantDelay)
			}
			if warned := len(*ev) == 1 && strings.HasPrefix((*ev)[0], "Warning UnParseableCronJobSchedule unparseable schedule for cronjob: "); warned != tc.wantWarn || len(*ev) > 1 {
				t.Errorf("events %q, want an UnParseableCronJobSchedule warning: %v", *ev, tc.wantWarn)
			}
		})
	}
}

// jobStore is a Job lister for the tests: informer.Static with the
// controller's index by controller name.
type jobStore informer.Static

func (s jobStore) Get(k api.Key) (api.Object, bool) { return informer.Static(s).Get(k) }

func (s jobStore) ByIndex(name, value string) []api.Object {
	if name != indexControllerName {
		return informer.Static(s).ByIndex(name, value)
	}
	var out []api.Object
	for _, o := range s {
		if slices.Contains(byControllerName(o, nil), value) {
			out = append(out, o)
		}
	}
	return out
}

// TestControllerV2GetJobsToBeReconciled ports upstream's table of the
// same name (cronjob_controllerv2_test.go as stored by the index, no
// commit given), all four rows, on jobsOf: the Jobs of the CronJob's
// namespace whose controller reference names it, whatever their labels,
// and, as upstream, whatever the reference's kind and UID (the rows'
// references carry a name alone). Jobs were found by their controller's
// UID before: the fourth row failed (its rows' CronJob and references
// all have an empty UID, so both Jobs were found); a row of ours, a Job
// of an earlier CronJob of the same name (another UID), failed too.
func TestControllerV2GetJobsToBeReconciled(t *testing.T) {
	yes := true
	job := func(ns, name, owner string, labels map[string]string) *api.Job {
		j := &api.Job{ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name, Labels: labels}}
		if owner != "" {
			j.OwnerReferences = []api.OwnerReference{{Name: owner, Controller: &yes}}
		}
		return j
	}
	other := map[string]string{"key": "different-value"}
	tests := []struct {
		name string
		jobs jobStore
		want []string
		uid  api.UID // the CronJob's; upstream's rows have none
	}{
		{"test getting jobs in namespace without controller reference",
			jobStore{job("foo-ns", "foo", "", nil), job("foo-ns", "foo1", "", nil), job("foo-ns", "foo2", "", nil)}, nil, ""},
		{"test getting jobs in namespace with a controller reference",
			jobStore{job("foo-ns", "foo", "", nil), job("foo-ns", "foo1", "fooer", nil), job("foo-ns", "foo2", "", nil)}, []string{"foo1"}, ""},
		{"test getting jobs in other namespaces",
			jobStore{job("bar-ns", "foo", "", nil), job("bar-ns", "foo1", "", nil), job("bar-ns", "foo2", "", nil)}, nil, ""},
		{"test getting jobs whose labels do not match job template",
			jobStore{job("foo-ns", "foo-fooer-owner-ref", "fooer", other), job("foo-ns", "foo-other-owner-ref", "another-cronjob", other)},
			[]string{"foo-fooer-owner-ref"}, ""},
		{"a Job of an earlier CronJob of the same name",
			jobStore{&api.Job{ObjectMeta: api.ObjectMeta{Namespace: "foo-ns", Name: "fooer-1", OwnerReferences: []api.OwnerReference{
				{APIVersion: "batch/v1", Kind: "CronJob", Name: "fooer", UID: "earlier-uid", Controller: &yes}}}}},
			[]string{"fooer-1"}, "new-uid"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cj := &api.CronJob{ObjectMeta: api.ObjectMeta{Namespace: "foo-ns", Name: "fooer", UID: tc.uid},
				Spec: api.CronJobSpec{JobTemplate: api.JobTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"key": "value"}}}}}
			r := &reconciler{jobs: tc.jobs}
			var got []string
			for _, j := range r.jobsOf(cj) {
				got = append(got, j.Name)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("jobs %v, want %v", got, tc.want)
			}
		})
	}
}

// TestControllerV2JobAlreadyExists ports upstream's
// TestControllerV2JobAlreadyExistsButNotInActiveStatus and
// TestControllerV2JobAlreadyExistsButDifferentOwner
// (cronjob_controllerv2_test.go as stored by the index, no commit given)
// on Reconcile: a Forbid CronJob due at its time finds its Job already
// there (AlreadyExists, the Job missing from the cache and the active
// list): its own Job is added to the active list in the one status
// write; a Job with no owner is left alone, with no status write.
func TestControllerV2JobAlreadyExists(t *testing.T) {
	for _, tc := range []struct {
		name        string
		foreign     bool
		wantWrites  int
		wantActives int
	}{
		{"TestControllerV2JobAlreadyExistsButNotInActiveStatus", false, 1, 1},
		{"TestControllerV2JobAlreadyExistsButDifferentOwner", true, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cj := cronJob()
			cj.Spec.ConcurrencyPolicy = "Forbid"
			cj.Spec.Schedule = everyHour
			last := api.NewTime(justBeforeThePriorHour)
			cj.Status.LastScheduleTime = &last
			cj.Status.Active = []api.ObjectReference{}
			sched, err := scheduleOf(cj)
			if err != nil {
				t.Fatal(err)
			}
			job := jobFromTemplate(cj, justAfterThePriorHour, sched)
			job.UID = "1234"
			c := &fakeClient{job: job, cronJob: cj.DeepCopy(), createErr: apierr.NewAlreadyExists("jobs.batch", ""), foreign: tc.foreign}
			r := &reconciler{client: c, recorder: &events{}, clock: &fakeClock{justBeforeTheHour}, cronjobs: informer.Static{cj}, jobs: jobStore{}}
			if _, err := r.Reconcile(context.Background(), controller.Request{Key: cj.Key()}); err != nil {
				t.Fatal(err)
			}
			if c.statusWrites != tc.wantWrites {
				t.Fatalf("%d status writes, want %d", c.statusWrites, tc.wantWrites)
			}
			if tc.wantWrites == 0 {
				return
			}
			act := c.cronJob.Status.Active
			if len(act) != tc.wantActives || act[0].UID != "1234" || act[0].Name != job.Name || act[0].Kind != "Job" || act[0].APIVersion != "batch/v1" {
				t.Errorf("active %+v, want the Job %s (uid 1234)", act, job.Name)
			}
		})
	}
}
