package api

import (
	"maps"
	"math"
	"slices"
)

// The batch/v1 kinds (k8s.io/api batch/v1 types.go).
var (
	// KindJob is batch/v1 Job.
	KindJob = Kind{"batch", "Job"}
	// KindCronJob is batch/v1 CronJob.
	KindCronJob = Kind{"batch", "CronJob"}
)

// Job labels and annotations (k8s.io/api batch/v1 types.go).
const (
	// JobControllerUIDLabel is the label the generated selector matches.
	JobControllerUIDLabel = "batch.kubernetes.io/controller-uid"
	// JobNameLabel carries the Job's name on its pods.
	JobNameLabel = "batch.kubernetes.io/job-name"
	// LegacyJobControllerUIDLabel and LegacyJobNameLabel are the older
	// labels, still set.
	LegacyJobControllerUIDLabel = "controller-uid"
	LegacyJobNameLabel          = "job-name"
	// JobCompletionIndexAnnotation is an Indexed Job's pod's index (also
	// a label).
	JobCompletionIndexAnnotation = "batch.kubernetes.io/job-completion-index"
	// CronJobScheduledTimestampAnnotation is the scheduled time of a Job
	// a CronJob created (RFC 3339).
	CronJobScheduledTimestampAnnotation = "batch.kubernetes.io/cronjob-scheduled-timestamp"
)

// Job condition types.
const (
	JobComplete           = "Complete"
	JobFailed             = "Failed"
	JobSuspended          = "Suspended"
	JobFailureTarget      = "FailureTarget"
	JobSuccessCriteriaMet = "SuccessCriteriaMet"
)

// Completion modes.
const (
	NonIndexedCompletion = "NonIndexed"
	IndexedCompletion    = "Indexed"
)

// Pod replacement policies (spec.podReplacementPolicy).
const (
	// PodReplacementTerminatingOrFailed replaces a pod once it is
	// terminating or failed: the default without a podFailurePolicy.
	PodReplacementTerminatingOrFailed = "TerminatingOrFailed"
	// PodReplacementFailed replaces a pod only once it has failed (its
	// phase Failed, or gone): the default, and the only value allowed,
	// with a podFailurePolicy.
	PodReplacementFailed = "Failed"
)

// Job is batch/v1 Job: pods run to completion.
type Job struct {
	// TypeMeta holds apiVersion and kind.
	TypeMeta `json:",inline"`
	// ObjectMeta is the job's metadata.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the desired behaviour.
	Spec JobSpec `json:"spec,omitempty"`
	// Status is what the Job controller observed.
	Status JobStatus `json:"status,omitempty"`
}

// JobSpec is a Job's desired behaviour.
type JobSpec struct {
	// Parallelism is how many pods run at once (default 1).
	Parallelism *int32 `json:"parallelism,omitempty"`
	// Completions is how many pods must succeed (default 1 when
	// parallelism is unset too; nil: any success, once all pods end).
	Completions *int32 `json:"completions,omitempty"`
	// ActiveDeadlineSeconds bounds the Job's running time.
	ActiveDeadlineSeconds *int64 `json:"activeDeadlineSeconds,omitempty"`
	// PodFailurePolicy decides what a pod failure means.
	PodFailurePolicy *PodFailurePolicy `json:"podFailurePolicy,omitempty"`
	// SuccessPolicy is accepted and not simulated.
	SuccessPolicy *RawValue `json:"successPolicy,omitempty"`
	// BackoffLimit is how many failed pods fail the Job (default 6).
	BackoffLimit *int32 `json:"backoffLimit,omitempty"`
	// BackoffLimitPerIndex is accepted and not simulated.
	BackoffLimitPerIndex *int32 `json:"backoffLimitPerIndex,omitempty"`
	// MaxFailedIndexes is accepted and not simulated.
	MaxFailedIndexes *int32 `json:"maxFailedIndexes,omitempty"`
	// Selector selects the Job's pods; generated unless ManualSelector.
	Selector *LabelSelector `json:"selector,omitempty"`
	// ManualSelector keeps the given selector.
	ManualSelector *bool `json:"manualSelector,omitempty"`
	// Template is the pods' template.
	Template PodTemplateSpec `json:"template"`
	// TTLSecondsAfterFinished deletes the finished Job after so long.
	TTLSecondsAfterFinished *int32 `json:"ttlSecondsAfterFinished,omitempty"`
	// CompletionMode is NonIndexed (default) or Indexed.
	CompletionMode *string `json:"completionMode,omitempty"`
	// Suspend stops the Job from creating pods.
	Suspend *bool `json:"suspend,omitempty"`
	// PodReplacementPolicy is TerminatingOrFailed (default) or Failed.
	PodReplacementPolicy *string `json:"podReplacementPolicy,omitempty"`
	// ManagedBy names the Job's controller (default kubernetes.io/job-controller).
	ManagedBy *string `json:"managedBy,omitempty"`
}

// PodFailurePolicy is a list of rules, evaluated in order.
type PodFailurePolicy struct {
	Rules []PodFailurePolicyRule `json:"rules"`
}

// PodFailurePolicyRule matches a failed pod by exit codes or conditions.
type PodFailurePolicyRule struct {
	// Action is FailJob, FailIndex, Ignore or Count.
	Action          string                                   `json:"action"`
	OnExitCodes     *PodFailurePolicyOnExitCodesRequirement  `json:"onExitCodes,omitempty"`
	OnPodConditions []PodFailurePolicyOnPodConditionsPattern `json:"onPodConditions,omitempty"`
}

// PodFailurePolicyOnExitCodesRequirement matches container exit codes.
type PodFailurePolicyOnExitCodesRequirement struct {
	ContainerName *string `json:"containerName,omitempty"`
	// Operator is In or NotIn.
	Operator string  `json:"operator"`
	Values   []int32 `json:"values"`
}

// PodFailurePolicyOnPodConditionsPattern matches a pod condition.
type PodFailurePolicyOnPodConditionsPattern struct {
	Type   string          `json:"type"`
	Status ConditionStatus `json:"status,omitempty"`
}

// JobStatus is what the Job controller observed.
type JobStatus struct {
	Conditions     []JobCondition `json:"conditions,omitempty"`
	StartTime      *Time          `json:"startTime,omitempty"`
	CompletionTime *Time          `json:"completionTime,omitempty"`
	// Active, Succeeded, Failed, Terminating and Ready count pods.
	Active      int32  `json:"active,omitempty"`
	Succeeded   int32  `json:"succeeded,omitempty"`
	Failed      int32  `json:"failed,omitempty"`
	Terminating *int32 `json:"terminating,omitempty"`
	Ready       *int32 `json:"ready,omitempty"`
	// CompletedIndexes lists an Indexed Job's succeeded indexes ("0-2,4").
	CompletedIndexes string `json:"completedIndexes,omitempty"`
	// FailedIndexes is set only with backoffLimitPerIndex (not simulated).
	FailedIndexes *string `json:"failedIndexes,omitempty"`
	// UncountedTerminatedPods is kept opaque (pod tracking by finalizers
	// is not simulated).
	UncountedTerminatedPods *RawValue `json:"uncountedTerminatedPods,omitempty"`
}

// JobCondition is one condition of a Job.
type JobCondition struct {
	Type               string          `json:"type"`
	Status             ConditionStatus `json:"status"`
	LastProbeTime      Time            `json:"lastProbeTime,omitempty"`
	LastTransitionTime Time            `json:"lastTransitionTime,omitempty"`
	Reason             string          `json:"reason,omitempty"`
	Message            string          `json:"message,omitempty"`
}

// JobCondition returns the condition of type t, or nil.
func (j *Job) Condition(t string) *JobCondition {
	for i := range j.Status.Conditions {
		if j.Status.Conditions[i].Type == t {
			return &j.Status.Conditions[i]
		}
	}
	return nil
}

// Finished reports whether the Job is Complete or Failed, and which.
func (j *Job) Finished() (bool, string) {
	for _, c := range j.Status.Conditions {
		if (c.Type == JobComplete || c.Type == JobFailed) && c.Status == ConditionTrue {
			return true, c.Type
		}
	}
	return false, ""
}

// CronJob is batch/v1 CronJob: Jobs on a schedule.
type CronJob struct {
	// TypeMeta holds apiVersion and kind.
	TypeMeta `json:",inline"`
	// ObjectMeta is the cron job's metadata.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the schedule and the Job template.
	Spec CronJobSpec `json:"spec,omitempty"`
	// Status is what the CronJob controller observed.
	Status CronJobStatus `json:"status,omitempty"`
}

// CronJobSpec is a CronJob's schedule and Job template.
type CronJobSpec struct {
	// Schedule is in cron syntax ("*/5 * * * *", "@hourly").
	Schedule string `json:"schedule"`
	// TimeZone is an IANA time zone name (default the controller's: UTC).
	TimeZone *string `json:"timeZone,omitempty"`
	// StartingDeadlineSeconds is how late a run may start.
	StartingDeadlineSeconds *int64 `json:"startingDeadlineSeconds,omitempty"`
	// ConcurrencyPolicy is Allow (default), Forbid or Replace.
	ConcurrencyPolicy string `json:"concurrencyPolicy,omitempty"`
	// Suspend stops new runs.
	Suspend *bool `json:"suspend,omitempty"`
	// JobTemplate is the Jobs' template.
	JobTemplate JobTemplateSpec `json:"jobTemplate"`
	// SuccessfulJobsHistoryLimit keeps so many finished Jobs (default 3).
	SuccessfulJobsHistoryLimit *int32 `json:"successfulJobsHistoryLimit,omitempty"`
	// FailedJobsHistoryLimit keeps so many failed Jobs (default 1).
	FailedJobsHistoryLimit *int32 `json:"failedJobsHistoryLimit,omitempty"`
}

// JobTemplateSpec is a Job's metadata and spec.
type JobTemplateSpec struct {
	ObjectMeta `json:"metadata,omitempty"`
	Spec       JobSpec `json:"spec,omitempty"`
}

// CronJobStatus is what the CronJob controller observed.
type CronJobStatus struct {
	Active             []ObjectReference `json:"active,omitempty"`
	LastScheduleTime   *Time             `json:"lastScheduleTime,omitempty"`
	LastSuccessfulTime *Time             `json:"lastSuccessfulTime,omitempty"`
}

// Jobs and CronJobs are copied field by field (their controllers write
// them often: a CronJob's status at every schedule and every finished
// Job, a Job's at every pod's end), through the typed copies of the pod
// template, metadata and selector; TestDeepCopyIndependent fails when a
// field is left out.

// DeepCopyObject returns a deep copy of in (nil for nil).
func (in *Job) DeepCopyObject() Object {
	if c := in.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopy returns a deep copy of in (nil for nil).
func (in *Job) DeepCopy() *Job {
	if in == nil {
		return nil
	}
	out := new(Job)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyInto copies in into out, sharing no memory with in.
func (in *Job) DeepCopyInto(out *Job) {
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	in.Spec.DeepCopyInto(&out.Spec)
	in.Status.DeepCopyInto(&out.Status)
}

// DeepCopyInto copies in into out, sharing no memory with in.
func (in *JobSpec) DeepCopyInto(out *JobSpec) {
	*out = *in
	out.Parallelism = copyPtr(in.Parallelism)
	out.Completions = copyPtr(in.Completions)
	out.ActiveDeadlineSeconds = copyPtr(in.ActiveDeadlineSeconds)
	if in.PodFailurePolicy != nil {
		out.PodFailurePolicy = new(PodFailurePolicy)
		in.PodFailurePolicy.DeepCopyInto(out.PodFailurePolicy)
	}
	out.SuccessPolicy = copyRawPtr(in.SuccessPolicy)
	out.BackoffLimit = copyPtr(in.BackoffLimit)
	out.BackoffLimitPerIndex = copyPtr(in.BackoffLimitPerIndex)
	out.MaxFailedIndexes = copyPtr(in.MaxFailedIndexes)
	out.Selector = in.Selector.DeepCopy()
	out.ManualSelector = copyPtr(in.ManualSelector)
	in.Template.DeepCopyInto(&out.Template)
	out.TTLSecondsAfterFinished = copyPtr(in.TTLSecondsAfterFinished)
	out.CompletionMode = copyPtr(in.CompletionMode)
	out.Suspend = copyPtr(in.Suspend)
	out.PodReplacementPolicy = copyPtr(in.PodReplacementPolicy)
	out.ManagedBy = copyPtr(in.ManagedBy)
}

// DeepCopyInto copies in into out, sharing no memory with in.
func (in *PodFailurePolicy) DeepCopyInto(out *PodFailurePolicy) {
	*out = *in
	if in.Rules == nil {
		return
	}
	out.Rules = make([]PodFailurePolicyRule, len(in.Rules))
	for i, r := range in.Rules {
		o := &out.Rules[i]
		*o = r
		if e := r.OnExitCodes; e != nil {
			o.OnExitCodes = &PodFailurePolicyOnExitCodesRequirement{ContainerName: copyPtr(e.ContainerName), Operator: e.Operator, Values: slices.Clone(e.Values)}
		}
		o.OnPodConditions = slices.Clone(r.OnPodConditions)
	}
}

// DeepCopyInto copies in into out, sharing no memory with in.
func (in *JobStatus) DeepCopyInto(out *JobStatus) {
	*out = *in
	out.Conditions = slices.Clone(in.Conditions) // strings and times: values
	out.StartTime = copyPtr(in.StartTime)
	out.CompletionTime = copyPtr(in.CompletionTime)
	out.Terminating = copyPtr(in.Terminating)
	out.Ready = copyPtr(in.Ready)
	out.FailedIndexes = copyPtr(in.FailedIndexes)
	out.UncountedTerminatedPods = copyRawPtr(in.UncountedTerminatedPods)
}

// DeepCopyObject returns a deep copy of in (nil for nil).
func (in *CronJob) DeepCopyObject() Object {
	if c := in.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopy returns a deep copy of in (nil for nil).
func (in *CronJob) DeepCopy() *CronJob {
	if in == nil {
		return nil
	}
	out := new(CronJob)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyInto copies in into out, sharing no memory with in.
func (in *CronJob) DeepCopyInto(out *CronJob) {
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	s, o := &in.Spec, &out.Spec
	o.TimeZone = copyPtr(s.TimeZone)
	o.StartingDeadlineSeconds = copyPtr(s.StartingDeadlineSeconds)
	o.Suspend = copyPtr(s.Suspend)
	s.JobTemplate.ObjectMeta.DeepCopyInto(&o.JobTemplate.ObjectMeta)
	s.JobTemplate.Spec.DeepCopyInto(&o.JobTemplate.Spec)
	o.SuccessfulJobsHistoryLimit = copyPtr(s.SuccessfulJobsHistoryLimit)
	o.FailedJobsHistoryLimit = copyPtr(s.FailedJobsHistoryLimit)
	out.Status.Active = slices.Clone(in.Status.Active) // ObjectReference holds strings only
	out.Status.LastScheduleTime = copyPtr(in.Status.LastScheduleTime)
	out.Status.LastSuccessfulTime = copyPtr(in.Status.LastSuccessfulTime)
}

// SetDefaultsJob applies batch/v1 Job defaults (k/k
// pkg/apis/batch/v1/defaults.go SetDefaults_Job): completions and
// parallelism 1 when both are unset, parallelism 1, backoffLimit 6
// (MaxInt32 with a backoffLimitPerIndex), the template's labels on a Job
// without labels, completionMode NonIndexed, suspend false, a
// podFailurePolicy's onPodConditions status "True", manualSelector false,
// podReplacementPolicy TerminatingOrFailed (Failed with a
// podFailurePolicy), and the template's pod defaults.
func SetDefaultsJob(j *Job) {
	s := &j.Spec
	if s.Completions == nil && s.Parallelism == nil {
		s.Completions = int32Ptr(1)
	}
	if s.Parallelism == nil {
		s.Parallelism = int32Ptr(1)
	}
	if s.BackoffLimit == nil {
		if s.BackoffLimitPerIndex != nil {
			s.BackoffLimit = int32Ptr(math.MaxInt32)
		} else {
			s.BackoffLimit = int32Ptr(6)
		}
	}
	if s.Template.Labels != nil && len(j.Labels) == 0 {
		j.Labels = maps.Clone(s.Template.Labels)
	}
	if s.CompletionMode == nil {
		m := NonIndexedCompletion
		s.CompletionMode = &m
	}
	if s.Suspend == nil {
		f := false
		s.Suspend = &f
	}
	if p := s.PodFailurePolicy; p != nil {
		for i := range p.Rules {
			for j := range p.Rules[i].OnPodConditions {
				if c := &p.Rules[i].OnPodConditions[j]; c.Status == "" {
					c.Status = ConditionTrue
				}
			}
		}
	}
	if s.PodReplacementPolicy == nil {
		p := PodReplacementTerminatingOrFailed
		if s.PodFailurePolicy != nil {
			p = PodReplacementFailed
		}
		s.PodReplacementPolicy = &p
	}
	if s.ManualSelector == nil {
		f := false
		s.ManualSelector = &f
	}
	SetDefaultsPodSpec(&s.Template.Spec)
}

// SetDefaultsCronJob applies batch/v1 CronJob defaults
// (SetDefaults_CronJob): concurrencyPolicy Allow, suspend false, history
// limits 3 successful and 1 failed, and the Job template's defaults but
// for its selector.
func SetDefaultsCronJob(c *CronJob) {
	s := &c.Spec
	if s.ConcurrencyPolicy == "" {
		s.ConcurrencyPolicy = "Allow"
	}
	if s.Suspend == nil {
		f := false
		s.Suspend = &f
	}
	if s.SuccessfulJobsHistoryLimit == nil {
		s.SuccessfulJobsHistoryLimit = int32Ptr(3)
	}
	if s.FailedJobsHistoryLimit == nil {
		s.FailedJobsHistoryLimit = int32Ptr(1)
	}
	SetDefaultsPodSpec(&s.JobTemplate.Spec.Template.Spec)
}

// GenerateJobSelector gives a Job without a manual selector its selector
// and pod labels from its uid (k/k pkg/registry/batch/job/strategy.go
// generateSelector): controller-uid and job-name labels, old and new.
func GenerateJobSelector(j *Job) {
	if j.Spec.ManualSelector != nil && *j.Spec.ManualSelector {
		return
	}
	uid := string(j.UID)
	if j.Spec.Template.Labels == nil {
		j.Spec.Template.Labels = map[string]string{}
	}
	for _, kv := range [][2]string{{LegacyJobControllerUIDLabel, uid}, {JobControllerUIDLabel, uid}, {LegacyJobNameLabel, j.Name}, {JobNameLabel, j.Name}} {
		if _, ok := j.Spec.Template.Labels[kv[0]]; !ok {
			j.Spec.Template.Labels[kv[0]] = kv[1]
		}
	}
	j.Spec.Selector = &LabelSelector{MatchLabels: map[string]string{JobControllerUIDLabel: uid}}
	// Upstream defaults a Job again whenever it is read from storage, and
	// SetDefaults_Job then gives a Job without labels its template's,
	// generated ones included: every read shows them.
	if len(j.Labels) == 0 {
		j.Labels = maps.Clone(j.Spec.Template.Labels)
	}
}
