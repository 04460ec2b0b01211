// Package job is Kubernetes' Job controller (kube-controller-manager's
// "job-controller", k/k pkg/controller/job): it runs a Job's pods to
// completion.
//
// What it ports, after upstream's syncJob:
//
//   - pods: parallelism at once, no more than the completions still
//     missing; NonIndexed pods are named "<job>-<random>", Indexed ones
//     "<job>-<index>-<random>" with the batch.kubernetes.io/job-completion-index
//     annotation and label and the JOB_COMPLETION_INDEX variable; each
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
//   - status: active, ready, terminating, succeeded, failed, startTime,
//     completedIndexes;
//   - ttlSecondsAfterFinished (upstream's separate ttlafterfinished
//     controller, run here in the same sync): the finished Job is deleted
//     with foreground propagation once the time has passed.
//
// What it leaves out: pod tracking with finalizers and
// uncountedTerminatedPods (terminal pods are counted where they are, so a
// terminal pod deleted by hand before a sync is not counted), suspend,
// backoffLimitPerIndex, successPolicy, podReplacementPolicy Failed, the
// FailIndex action, managedBy. The scenario loader warns about the fields
// it accepts and does not simulate.
//
// It imports only the API types and the controller runtime; its time is
// the manager's clock.
package job
