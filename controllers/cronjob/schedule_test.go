package cronjob

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/cron"
)

// TestMostRecentScheduleTime follows upstream's table of the same name
// (k/k pkg/controller/cronjob/utils_test.go).
func TestMostRecentScheduleTime(t *testing.T) {
	topOfTheHour := time.Date(2016, time.May, 19, 10, 0, 0, 0, time.UTC)
	deadline := int64(600)
	tests := []struct {
		name             string
		schedule         string
		creation         time.Time
		lastSchedule     *time.Time
		deadline         *int64
		now              time.Time
		want             *time.Time
		wantMissed       missedSchedules
		wantErrSubstring string
	}{
		{name: "now before next schedule", schedule: "0 * * * *", creation: topOfTheHour, now: topOfTheHour.Add(30 * time.Second)},
		{name: "now just after next schedule", schedule: "0 * * * *", creation: topOfTheHour, now: topOfTheHour.Add(61 * time.Minute), want: ptr(topOfTheHour.Add(time.Hour))},
		{name: "missed 2 schedules", schedule: "0 * * * *", creation: topOfTheHour, now: topOfTheHour.Add(2*time.Hour + time.Minute), want: ptr(topOfTheHour.Add(2 * time.Hour)), wantMissed: fewMissed},
		{name: "last schedule time is set", schedule: "0 * * * *", creation: topOfTheHour.Add(-10 * time.Hour), lastSchedule: ptr(topOfTheHour), now: topOfTheHour.Add(61 * time.Minute), want: ptr(topOfTheHour.Add(time.Hour))},
		{name: "many missed schedules", schedule: "* * * * *", creation: topOfTheHour, now: topOfTheHour.Add(3 * time.Hour), want: ptr(topOfTheHour.Add(3 * time.Hour)), wantMissed: manyMissed},
		{name: "many missed schedules with a starting deadline", schedule: "* * * * *", creation: topOfTheHour, deadline: &deadline, now: topOfTheHour.Add(3 * time.Hour), want: ptr(topOfTheHour.Add(3 * time.Hour)), wantMissed: fewMissed},
		{name: "complex schedule", schedule: "30 6-16/4 * * 1-5", creation: time.Date(2016, time.May, 19, 6, 0, 0, 0, time.UTC), now: time.Date(2016, time.May, 23, 16, 30, 0, 0, time.UTC),
			want: ptr(time.Date(2016, time.May, 23, 14, 30, 0, 0, time.UTC)), wantMissed: fewMissed},
		{name: "rogue cronjob", schedule: "59 23 31 2 *", creation: topOfTheHour, now: topOfTheHour.Add(time.Hour), wantErrSubstring: "time difference between two schedules is less than 1 second"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cj, sched := scheduledCronJob(t, tc.schedule, tc.creation, tc.lastSchedule, tc.deadline)
			got, missed, err := mostRecentScheduleTime(cj, tc.now, sched, true)
			if (err != nil) != (tc.wantErrSubstring != "") || err != nil && !strings.Contains(err.Error(), tc.wantErrSubstring) {
				t.Fatalf("error %v, want %q", err, tc.wantErrSubstring)
			}
			if (got == nil) != (tc.want == nil) || got != nil && !got.Equal(*tc.want) || missed != tc.wantMissed {
				t.Errorf("most recent %v, missed %v; want %v, %v", got, missed, tc.want, tc.wantMissed)
			}
		})
	}
}

func ptr(t time.Time) *time.Time { return &t }

// scheduledCronJob is a CronJob created at creation, last scheduled at
// lastSchedule (nil: never), with the schedule parsed.
func scheduledCronJob(t *testing.T, schedule string, creation time.Time, lastSchedule *time.Time, deadline *int64) (*api.CronJob, *cron.Schedule) {
	t.Helper()
	cj := &api.CronJob{ObjectMeta: api.ObjectMeta{CreationTimestamp: api.NewTime(creation)}, Spec: api.CronJobSpec{Schedule: schedule, StartingDeadlineSeconds: deadline}}
	if lastSchedule != nil {
		ls := api.NewTime(*lastSchedule)
		cj.Status.LastScheduleTime = &ls
	}
	sched, err := cron.ParseStandard(schedule)
	if err != nil {
		t.Fatal(err)
	}
	return cj, sched
}

// TestJobName: upstream's getJobName, minutes since the epoch.
func TestJobName(t *testing.T) {
	cj := &api.CronJob{ObjectMeta: api.ObjectMeta{Name: "hello"}}
	if got := jobName(cj, time.Date(2026, 1, 1, 0, 1, 0, 0, time.UTC)); got != "hello-29453761" {
		t.Errorf("job name %s", got)
	}
}

// TestMostRecentScheduleTimeRows ports the rows of upstream's
// TestMostRecentScheduleTime newer than the table above (utils_test.go as
// stored by the index, with earliestTime returned): the earliest time the
// search starts from, the most recent schedule time (nil: none, including
// upstream's approximation missing one: "another complex schedule"), and
// how many were missed.
func TestMostRecentScheduleTimeRows(t *testing.T) {
	top := time.Date(2016, time.May, 19, 10, 0, 0, 0, time.UTC)
	after := func(d time.Duration) time.Time { return top.Add(d) }
	oneMinute, tenSeconds := int64(60), int64(10)
	tests := []struct {
		name         string
		schedule     string
		creation     time.Time
		lastSchedule *time.Time
		deadline     *int64
		includeSDS   bool
		now          time.Time
		wantEarliest time.Time
		wantRecent   *time.Time
		wantMissed   missedSchedules
		wantErr      bool
	}{
		{name: "now before next schedule", schedule: "0 * * * *", creation: top, now: after(30 * time.Second), wantEarliest: top},
		{name: "now just after next schedule", schedule: "0 * * * *", creation: top, now: after(61 * time.Minute), wantEarliest: top, wantRecent: ptr(after(60 * time.Minute))},
		{name: "missed 5 schedules", schedule: "0 * * * *", creation: after(10 * time.Second), now: after(301 * time.Minute),
			wantEarliest: after(10 * time.Second), wantRecent: ptr(after(300 * time.Minute)), wantMissed: fewMissed},
		{name: "complex schedule", schedule: "30 6-16/4 * * 1-5", creation: top, lastSchedule: ptr(after(30 * time.Minute)), now: after(24*time.Hour + 31*time.Minute),
			wantEarliest: after(30 * time.Minute), wantRecent: ptr(after(24*time.Hour + 30*time.Minute)), wantMissed: fewMissed},
		{name: "another complex schedule", schedule: "30 10,11,12 * * 1-5", creation: top, lastSchedule: ptr(after(30 * time.Minute)), now: after(30*time.Hour + 30*time.Minute),
			wantEarliest: after(30 * time.Minute), wantMissed: fewMissed},
		{name: "complex schedule with longer diff between executions", schedule: "30 6-16/4 * * 1-5", creation: top, lastSchedule: ptr(after(30 * time.Minute)),
			now: after(96*time.Hour + 31*time.Minute), wantEarliest: after(30 * time.Minute), wantRecent: ptr(after(96*time.Hour + 30*time.Minute)), wantMissed: fewMissed},
		{name: "complex schedule with shorter diff between executions", schedule: "30 6-16/4 * * 1-5", creation: top, now: after(24*time.Hour + 31*time.Minute),
			wantEarliest: top, wantRecent: ptr(after(24*time.Hour + 30*time.Minute)), wantMissed: fewMissed},
		{name: "@every schedule", schedule: "@every 1h", creation: after(-59 * time.Minute), lastSchedule: ptr(after(time.Minute)), deadline: &tenSeconds,
			now: after(7 * 24 * time.Hour), wantEarliest: after(time.Minute), wantRecent: ptr(after(6*24*time.Hour + 23*time.Hour + time.Minute)), wantMissed: manyMissed},
		{name: "rogue cronjob", schedule: "59 23 31 2 *", creation: after(10 * time.Second), now: after(time.Hour), wantErr: true},
		{name: "earliestTime being CreationTimestamp and LastScheduleTime", schedule: "0 * * * *", creation: top, lastSchedule: ptr(top), now: after(30 * time.Second), wantEarliest: top},
		{name: "earliestTime being LastScheduleTime", schedule: "*/5 * * * *", creation: top, lastSchedule: ptr(after(30 * time.Minute)), now: after(31 * time.Minute),
			wantEarliest: after(30 * time.Minute)},
		{name: "earliestTime being LastScheduleTime (within StartingDeadlineSeconds)", schedule: "*/5 * * * *", creation: top, lastSchedule: ptr(after(30 * time.Minute)),
			deadline: &oneMinute, now: after(31 * time.Minute), wantEarliest: after(30 * time.Minute)},
		{name: "earliestTime being LastScheduleTime (outside StartingDeadlineSeconds)", schedule: "*/5 * * * *", creation: top, lastSchedule: ptr(after(30 * time.Minute)),
			deadline: &oneMinute, includeSDS: true, now: after(32 * time.Minute), wantEarliest: after(31 * time.Minute)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cj, sched := scheduledCronJob(t, tc.schedule, tc.creation, tc.lastSchedule, tc.deadline)
			got, missed, err := mostRecentScheduleTime(cj, tc.now, sched, tc.includeSDS)
			if tc.wantErr {
				if err == nil {
					t.Error("no error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if e := earliestTime(cj, tc.now, tc.includeSDS); !e.Equal(tc.wantEarliest) {
				t.Errorf("earliest %v, want %v", e, tc.wantEarliest)
			}
			if (got == nil) != (tc.wantRecent == nil) || got != nil && !got.Equal(*tc.wantRecent) || missed != tc.wantMissed {
				t.Errorf("most recent %v, missed %v; want %v, %v", got, missed, tc.wantRecent, tc.wantMissed)
			}
		})
	}
}

// TestNextScheduleTimeDuration is upstream's table of the same name
// (utils_test.go as above).
func TestNextScheduleTimeDuration(t *testing.T) {
	top := time.Date(2016, time.May, 19, 10, 0, 0, 0, time.UTC)
	after := func(d time.Duration) time.Time { return top.Add(d) }
	for _, tc := range []struct {
		name         string
		schedule     string
		lastSchedule *time.Time
		now          time.Time
		want         time.Duration
	}{
		{"complex schedule skipping weekend", "30 6-16/4 * * 1-5", ptr(after(30 * time.Minute)), after(24*time.Hour + 31*time.Minute), 3*time.Hour + 59*time.Minute + nextScheduleDelta},
		{"another complex schedule skipping weekend", "30 10,11,12 * * 1-5", ptr(after(30 * time.Minute)), after(30*time.Hour + 30*time.Minute), 66*time.Hour + nextScheduleDelta},
		{"once a week cronjob, missed two runs", "0 12 * * 4", ptr(after(2 * time.Hour)), after(19*24*time.Hour + time.Hour + 30*time.Minute), 48*time.Hour + 30*time.Minute + nextScheduleDelta},
		{"no previous run of a cronjob", "0 12 * * 5", nil, after(6 * time.Hour), 20*time.Hour + nextScheduleDelta},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cj, sched := scheduledCronJob(t, tc.schedule, top, tc.lastSchedule, nil)
			if got := nextScheduleTimeDuration(cj, tc.now, sched); got != tc.want {
				t.Errorf("next schedule in %v, want %v", got, tc.want)
			}
		})
	}
}

// TestGetJobFromTemplate2, TestNextScheduleTime and TestByJobStartTime are
// upstream's tests of the same names (utils_test.go as stored by the
// index, no commit given), on jobFromTemplate, mostRecentScheduleTime
// with the starting deadline (upstream's nextScheduleTime) and
// byJobStartTime.
func TestGetJobFromTemplate2(t *testing.T) {
	scheduled := time.Date(2016, time.May, 19, 10, 0, 0, 0, time.UTC)
	utc, rome := "UTC", "Europe/Rome"
	for _, tc := range []struct {
		name        string
		timeZone    *string
		annotations map[string]string
		want        string
		count       int
	}{
		{"UTC timezone and one annotation", &utc, map[string]string{"x": "y"}, "2016-05-19T10:00:00Z", 2},
		{"nil timezone and one annotation", nil, map[string]string{"x": "y"}, "2016-05-19T10:00:00Z", 2},
		{"correct timezone and multiple annotation", &rome, map[string]string{"x": "y", "z": "x"}, "2016-05-19T12:00:00+02:00", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cj := &api.CronJob{ObjectMeta: api.ObjectMeta{Name: "mycronjob", Namespace: "snazzycats", UID: "1a2b3c"},
				Spec: api.CronJobSpec{Schedule: "* * * * ?", TimeZone: tc.timeZone, JobTemplate: api.JobTemplateSpec{
					ObjectMeta: api.ObjectMeta{Labels: map[string]string{"a": "b"}, Annotations: tc.annotations}}}}
			sched, err := cron.ParseStandard(cj.Spec.Schedule)
			if err != nil {
				t.Fatal(err)
			}
			if tc.timeZone != nil {
				loc, err := time.LoadLocation(*tc.timeZone)
				if err != nil {
					t.Fatal(err)
				}
				sched.SetLocation(loc)
			}
			j := jobFromTemplate(cj, scheduled, sched)
			if !strings.HasPrefix(j.Name, "mycronjob-") || len(j.Labels) != 1 || len(j.Annotations) != tc.count ||
				j.Annotations[api.CronJobScheduledTimestampAnnotation] != tc.want {
				t.Errorf("job %s labels %v annotations %v; want %d annotations, scheduled at %s", j.Name, j.Labels, j.Annotations, tc.count, tc.want)
			}
		})
	}
}

func TestNextScheduleTime(t *testing.T) {
	t1 := time.Date(2016, time.May, 19, 10, 0, 0, 0, time.UTC)
	t2 := t1.Add(time.Hour)
	twoHours := int64(2 * 60 * 60)
	for _, tc := range []struct {
		name         string
		schedule     string
		creation     time.Time
		lastSchedule *time.Time
		deadline     *int64
		now          time.Time
		want         *time.Time
		wantSome     bool
		wantErr      bool
	}{
		{name: "no known start times, and none needed yet", schedule: "0 * * * ?", creation: t1.Add(-10 * time.Minute), now: t1.Add(-7 * time.Minute)},
		{name: "no known start times, and one needed", schedule: "0 * * * ?", creation: t1.Add(-10 * time.Minute), now: t1.Add(2 * time.Second), want: &t1},
		{name: "known LastScheduleTime, no start needed", schedule: "0 * * * ?", creation: t1.Add(-10 * time.Minute), lastSchedule: &t1, now: t1.Add(2 * time.Minute)},
		{name: "known LastScheduleTime, a start needed", schedule: "0 * * * ?", creation: t1.Add(-10 * time.Minute), lastSchedule: &t1, now: t2.Add(5 * time.Minute), want: &t2},
		{name: "known LastScheduleTime, two starts needed", schedule: "0 * * * ?", creation: t1.Add(-2 * time.Hour), lastSchedule: ptr(t1.Add(-time.Hour)), now: t2.Add(5 * time.Minute), want: &t2},
		{name: "now is way way ahead of last start time, and there is no deadline", schedule: "0 * * * ?", creation: t1.Add(-2 * time.Hour), lastSchedule: ptr(t1.Add(-time.Hour)),
			now: t2.Add(10 * 24 * time.Hour), wantSome: true},
		{name: "now is way way ahead of last start time, but there is a short deadline", schedule: "0 * * * ?", creation: t1.Add(-2 * time.Hour), lastSchedule: ptr(t1.Add(-time.Hour)),
			deadline: &twoHours, now: t2.Add(10 * 24 * time.Hour), wantSome: true},
		{name: "the error from mostRecentScheduleTime gets populated up", schedule: "59 23 31 2 *", creation: t1.Add(10 * time.Second), now: t1.Add(time.Hour), wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cj, sched := scheduledCronJob(t, tc.schedule, tc.creation, tc.lastSchedule, tc.deadline)
			got, _, err := mostRecentScheduleTime(cj, tc.now, sched, true)
			switch {
			case tc.wantErr:
				if err == nil || got != nil {
					t.Errorf("got %v, %v; want an error and no time", got, err)
				}
			case tc.wantSome:
				if got == nil {
					t.Error("no start time, want one")
				}
			case (got == nil) != (tc.want == nil) || got != nil && !got.Equal(*tc.want):
				t.Errorf("start time %v, want %v", got, tc.want)
			}
		})
	}
}

func TestByJobStartTime(t *testing.T) {
	now := api.NewTime(time.Date(2018, time.January, 1, 2, 3, 4, 5, time.UTC))
	later := api.NewTime(time.Date(2019, time.January, 1, 2, 3, 4, 5, time.UTC))
	job := func(name string, start *api.Time) *api.Job {
		return &api.Job{ObjectMeta: api.ObjectMeta{Name: name}, Status: api.JobStatus{StartTime: start}}
	}
	aNil, bNil, aSet, bSet, aSetLater := job("a", nil), job("b", nil), job("a", &now), job("b", &now), job("a", &later)
	for _, tc := range []struct {
		name            string
		input, expected []*api.Job
	}{
		{"both have nil start times", []*api.Job{bNil, aNil}, []*api.Job{aNil, bNil}},
		{"only the first has a nil start time", []*api.Job{aNil, bSet}, []*api.Job{bSet, aNil}},
		{"only the second has a nil start time", []*api.Job{aSet, bNil}, []*api.Job{aSet, bNil}},
		{"both have non-nil, equal start time", []*api.Job{bSet, aSet}, []*api.Job{aSet, bSet}},
		{"both have non-nil, different start time", []*api.Job{aSetLater, bSet}, []*api.Job{bSet, aSetLater}},
	} {
		slices.SortStableFunc(tc.input, byJobStartTime)
		if !slices.Equal(tc.input, tc.expected) {
			t.Errorf("%s: jobs not sorted as expected", tc.name)
		}
	}
}
