// Package cronjob is Kubernetes' CronJob controller (kube-controller-manager's
// "cronjob-controller", k/k pkg/controller/cronjob, the v2 controller): it
// creates a CronJob's Jobs on its schedule, on the virtual clock.
//
// What it ports, after upstream's syncCronJob:
//
//   - schedules in cron syntax as robfig/cron/v3's ParseStandard reads
//     them (sim/cron: five fields, names, steps, @hourly and the other
//     descriptors, @every), in spec.timeZone (time.LoadLocation; the zone
//     database is embedded with time/tzdata, so a machine without one
//     loads the same zones), else UTC, the controller's zone;
//   - the most recent unmet schedule time since lastScheduleTime (or the
//     creation time), bounded by startingDeadlineSeconds; more than 100
//     missed times is a TooManyMissedTimes warning; a time older than the
//     deadline is skipped with a MissSchedule warning;
//   - concurrencyPolicy: Allow, Forbid ("JobAlreadyActive") and Replace
//     (the active Jobs read from the server, a failed read a FailedGet
//     warning, and deleted first; a failed deletion, NotFound too, a
//     FailedDelete warning and no new Job);
//   - a TZ= or CRON_TZ= prefix in the schedule is used, with upstream's
//     UnsupportedSchedule warning;
//   - a Job of the scheduled name that already exists: if it is the
//     CronJob's and not in its active list (a lost status update), it is
//     added there, finished or not; someone else's is left alone;
//   - an unfinished Job of its own missing from the cached CronJob's
//     active list: the CronJob is read again from the server (the cache
//     may lag behind its last status update) before an UnexpectedJob
//     warning;
//   - the Job "<cronjob>-<scheduled time in minutes since the epoch>", with
//     the batch.kubernetes.io/cronjob-scheduled-timestamp annotation and a
//     controller reference; events SuccessfulCreate "Created job x",
//     SawCompletedJob "Saw completed job: x, condition: Complete",
//     SuccessfulDelete "Deleted job x";
//   - status.active, lastScheduleTime, lastSuccessfulTime;
//   - the history limits: the oldest finished Jobs beyond
//     successfulJobsHistoryLimit (3) and failedJobsHistoryLimit (1) are
//     deleted, with background propagation, before anything else in the
//     sync (so a CronJob whose next Job a quota refuses still frees room);
//   - a requeue 100 ms after the next schedule time.
//
// It imports only the API types and the controller runtime; its time is
// the manager's clock.
package cronjob
