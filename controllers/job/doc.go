// Package job is Kubernetes' Job controller (kube-controller-manager's
// "job-controller", k/k pkg/controller/job): it runs a Job's pods to
// completion.
//
// What it ports, after upstream's syncJob:
//
//   - pods: parallelism at once, no more than the completions still
//     missing; NonIndexed pods are named "<job>-<random>", Indexed ones
//     "<job>-<index>-<random>" with the batch.kubernetes.io/job-completion-index
//     annotation and label and the JOB_COMPLETION_INDEX variable; created
//     in slow-start batches of 1, 2, 4, ... (none after a batch with a
//     failure); extra pods deleted least advanced first (upstream's
//     controller.ActivePods order), and an Indexed Job's pods without an
//     index below completions, and all but one pod of a repeated index,
//     deleted before any creation; a sync either deletes or creates; with
//     podReplacementPolicy Failed (the default with a podFailurePolicy) a
//     terminating pod is replaced only once gone or failed; each
//     creation and deletion is an event (SuccessfulCreate "Created pod: x",
//     SuccessfulDelete "Deleted pod: x");
//   - back-off: a replacement for failed pods waits 10s doubled per
//     failure since the last success, capped at 10 minutes
//     (DefaultJobPodFailureBackOff, MaxJobPodFailureBackOff in
//     job_controller.go; the Kubernetes documentation says six minutes,
//     the code says ten), measured from the last failure's finish time
//     (backoff_utils.go);
//   - failure: more failed pods than backoffLimit (with restartPolicy
//     OnFailure, container restarts of active pods count), the
//     activeDeadlineSeconds passed, or a podFailurePolicy FailJob rule:
//     FailureTarget, the active pods deleted, then Failed, with upstream's
//     reasons and messages and a Warning event; Ignore rules do not count
//     a failure, Count rules count it;
//   - success: SuccessCriteriaMet, then Complete ("CompletionsReached",
//     "Reached expected number of succeeded pods"), completionTime, event
//     Completed "Job completed";
//   - status: active (the pods created in a sync count at once),
//     ready, terminating (with the pods deleted in the sync), succeeded,
//     failed (with the active pods deleted because the Job failed, and,
//     with podReplacementPolicy TerminatingOrFailed, the terminating pods
//     the controller did not delete as surplus; an Indexed Job's pods
//     without a valid index do not count), startTime,
//     completedIndexes ("0-2,4,5": a run of two written as two indexes;
//     the indexes it lists stay completed when their pods are gone);
//     written even while the controller waits for its own creations and
//     deletions to be observed, or while the Job is being deleted (pods
//     are then left alone);
//   - when it syncs: at once for a Job's creation, deletion or spec
//     change (a new generation), a second later (SyncBatchPeriod,
//     upstream's syncJobBatchPeriod) for a change of its pods or its
//     status, so that a second's changes are one sync; a failed sync is
//     retried after 1s doubling up to a minute (RetryLimits);
//   - ttlSecondsAfterFinished (upstream's separate ttlafterfinished
//     controller, run here in the same sync): the finished Job is deleted
//     with foreground propagation once the time has passed.
//
// What it leaves out: pod tracking with finalizers and
// uncountedTerminatedPods (terminal pods are counted where they are, so a
// terminal pod deleted by hand before a sync is not counted, and the
// surplus pods the controller deleted are remembered in its memory, where
// upstream removes their finalizer: a restarted controller counts those
// still terminating as failed),
// suspend, backoffLimitPerIndex, successPolicy, the FailIndex action,
// managedBy. The scenario loader warns about the fields it accepts and
// does not simulate.
//
// It imports only the API types and the controller runtime; its time is
// the manager's clock.
package job
