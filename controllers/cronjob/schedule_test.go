package cronjob

import (
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
			cj := &api.CronJob{ObjectMeta: api.ObjectMeta{CreationTimestamp: api.NewTime(tc.creation)}, Spec: api.CronJobSpec{Schedule: tc.schedule, StartingDeadlineSeconds: tc.deadline}}
			if tc.lastSchedule != nil {
				ls := api.NewTime(*tc.lastSchedule)
				cj.Status.LastScheduleTime = &ls
			}
			sched, err := cron.ParseStandard(tc.schedule)
			if err != nil {
				t.Fatal(err)
			}
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

// TestJobName: upstream's getJobName, minutes since the epoch.
func TestJobName(t *testing.T) {
	cj := &api.CronJob{ObjectMeta: api.ObjectMeta{Name: "hello"}}
	if got := jobName(cj, time.Date(2026, 1, 1, 0, 1, 0, 0, time.UTC)); got != "hello-29453761" {
		t.Errorf("job name %s", got)
	}
}
