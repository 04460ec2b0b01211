package apiserver

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// firstCause returns the first field error of a 422, or fails t.
func firstCause(t *testing.T, err error) (apierr.FieldError, []apierr.FieldError) {
	t.Helper()
	var se *apierr.StatusError
	if !errors.As(err, &se) || len(se.Causes) == 0 {
		t.Fatalf("error %v, want a 422 with causes", err)
	}
	return se.Causes[0], se.Causes
}

// TestValidateJobFieldsUpstream ports the rows of upstream's TestValidateJob
// (k/k pkg/apis/batch/validation/validation_test.go) for
// podReplacementPolicy, completionMode, backoffLimitPerIndex,
// maxFailedIndexes and the restartPolicy a podFailurePolicy requires,
// keyed as there by "<field>:<part of the message>" and checked as
// upstream checks them: the first error is of that field and holds that
// text. The completionMode and successPolicy rows follow
// validateJobSpec's code (upstream's test has no row for them).
//
// Rows left out: the podFailurePolicy rules' own rows (see
// TestValidatePodFailurePolicyUpstream), the success policy's rules (the policy is kept opaque: accepted, not
// simulated, and warned about), the selector rows (see
// TestValidateJobUpstream).
func TestValidateJobFieldsUpstream(t *testing.T) {
	i32 := func(v int32) *int32 { return &v }
	str := func(s string) *string { return &s }
	job := func(mod func(s *api.JobSpec)) *api.Job {
		j := &api.Job{ObjectMeta: api.ObjectMeta{Name: "myjob", Namespace: "default"}, Spec: api.JobSpec{
			Template: api.PodTemplateSpec{Spec: api.PodSpec{RestartPolicy: api.RestartPolicyOnFailure, Containers: []api.Container{{Name: "abc", Image: "image"}}}}}}
		mod(&j.Spec)
		return j
	}
	never := func(s *api.JobSpec) { s.Template.Spec.RestartPolicy = api.RestartPolicyNever }
	ignore := &api.PodFailurePolicy{Rules: []api.PodFailurePolicyRule{{Action: "Ignore",
		OnPodConditions: []api.PodFailurePolicyOnPodConditionsPattern{{Type: "DisruptionTarget", Status: api.ConditionTrue}}}}}
	success := api.RawValue(`{"rules":[{"succeededCount":1}]}`)
	tests := []struct {
		key string // "" for valid
		obj *api.Job
	}{
		{"", job(func(s *api.JobSpec) {
			never(s)
			s.CompletionMode, s.Completions, s.BackoffLimitPerIndex, s.MaxFailedIndexes = str(api.IndexedCompletion), i32(10), i32(1), i32(10)
		})},
		{"", job(func(s *api.JobSpec) { s.PodReplacementPolicy = str(api.PodReplacementFailed) })},
		{"", job(func(s *api.JobSpec) {
			s.CompletionMode, s.Completions, s.SuccessPolicy = str(api.IndexedCompletion), i32(3), &success
		})},
		{`spec.podReplacementPolicy: Unsupported value: "TerminatingOrFailed": supported values: "Failed"`, job(func(s *api.JobSpec) {
			never(s)
			s.PodReplacementPolicy, s.PodFailurePolicy = str(api.PodReplacementTerminatingOrFailed), ignore
		})},
		{`spec.podReplacementPolicy: Unsupported value: "": supported values: "Failed", "TerminatingOrFailed"`, job(func(s *api.JobSpec) {
			never(s)
			s.PodReplacementPolicy = str("")
		})},
		{`spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified`,
			job(func(s *api.JobSpec) { s.PodFailurePolicy = &api.PodFailurePolicy{Rules: []api.PodFailurePolicyRule{}} })},
		{"spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode", job(func(s *api.JobSpec) { s.BackoffLimitPerIndex = i32(1) })},
		{"spec.backoffLimitPerIndex:must be greater than or equal to 0", job(func(s *api.JobSpec) {
			s.BackoffLimitPerIndex, s.CompletionMode = i32(-1), str(api.IndexedCompletion)
		})},
		{"spec.maxFailedIndexes: Invalid value: 11: must be less than or equal to completions", job(func(s *api.JobSpec) {
			s.Completions, s.MaxFailedIndexes, s.BackoffLimitPerIndex, s.CompletionMode = i32(10), i32(11), i32(1), str(api.IndexedCompletion)
		})},
		{"spec.maxFailedIndexes: Required value: must be specified when completions is above 100000", job(func(s *api.JobSpec) {
			s.Completions, s.BackoffLimitPerIndex, s.CompletionMode = i32(100_001), i32(1), str(api.IndexedCompletion)
		})},
		{"spec.parallelism: Invalid value: 50000: must be less than or equal to 10000 when completions are above 100000 and used with backoff limit per index", job(func(s *api.JobSpec) {
			s.Completions, s.Parallelism, s.BackoffLimitPerIndex, s.MaxFailedIndexes, s.CompletionMode = i32(100_001), i32(50_000), i32(1), i32(1), str(api.IndexedCompletion)
		})},
		{"spec.maxFailedIndexes: Invalid value: 100001: must be less than or equal to 100000", job(func(s *api.JobSpec) {
			s.Completions, s.BackoffLimitPerIndex, s.MaxFailedIndexes, s.CompletionMode = i32(100_001), i32(1), i32(100_001), str(api.IndexedCompletion)
		})},
		{"spec.maxFailedIndexes: Invalid value: 50000: must be less than or equal to 10000 when completions are above 100000 and used with backoff limit per index", job(func(s *api.JobSpec) {
			s.Completions, s.BackoffLimitPerIndex, s.MaxFailedIndexes, s.CompletionMode = i32(100_001), i32(1), i32(50_000), str(api.IndexedCompletion)
		})},
		{"spec.maxFailedIndexes:must be greater than or equal to 0", job(func(s *api.JobSpec) {
			s.BackoffLimitPerIndex, s.MaxFailedIndexes, s.CompletionMode = i32(1), i32(-1), str(api.IndexedCompletion)
		})},
		{"spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified", job(func(s *api.JobSpec) {
			s.MaxFailedIndexes, s.CompletionMode = i32(1), str(api.IndexedCompletion)
		})},
		{`spec.completionMode: Unsupported value: "Ordered": supported values: "NonIndexed", "Indexed"`, job(func(s *api.JobSpec) { s.CompletionMode = str("Ordered") })},
		{`spec.successPolicy: Invalid value: {"Rules":[{"SucceededIndexes":null,"SucceededCount":1}]}: requires indexed completion mode`, job(func(s *api.JobSpec) { s.SuccessPolicy = &success })},
	}
	for _, tt := range tests {
		name := tt.key
		if name == "" {
			name = "valid"
		}
		t.Run(name, func(t *testing.T) {
			err := Validate(tt.obj, nil)
			if tt.key == "" {
				if err != nil {
					t.Errorf("error %v, want none", err)
				}
				return
			}
			field, text, _ := strings.Cut(tt.key, ":")
			first, _ := firstCause(t, err)
			if first.Field != field || !strings.Contains(first.Error(), text) {
				t.Errorf("first error %q, want %q (all: %v)", first.Error(), tt.key, err)
			}
		})
	}
}

// TestValidateCronJobUpstream ports the rows of upstream's
// TestValidateCronJob (k/k pkg/apis/batch/validation/validation_test.go),
// checked as upstream checks them: the first error is of the row's field;
// here its whole text is compared. The CronJobs are not defaulted, as
// upstream's are not (so an empty concurrencyPolicy is seen).
//
// Rows covered by TestValidateBatch already: a schedule with TZ, of four
// fields, with an hour out of range; an unknown zone. The update rows
// with an old schedule holding TZ are TestValidateCronJobUpdateUpstream's.
func TestValidateCronJobUpstream(t *testing.T) {
	i32 := func(v int32) *int32 { return &v }
	cj := func(mod func(c *api.CronJob)) *api.CronJob {
		c := &api.CronJob{ObjectMeta: api.ObjectMeta{Name: "mycronjob", Namespace: "default"}, Spec: api.CronJobSpec{
			Schedule: "* * * * ?", ConcurrencyPolicy: "Allow", JobTemplate: api.JobTemplateSpec{Spec: api.JobSpec{
				Template: api.PodTemplateSpec{Spec: api.PodSpec{RestartPolicy: api.RestartPolicyOnFailure, DNSPolicy: "ClusterFirst",
					Containers: []api.Container{{Name: "abc", Image: "image", ImagePullPolicy: api.PullIfNotPresent}}}}}}}}
		mod(c)
		return c
	}
	zone := func(z string) func(c *api.CronJob) {
		return func(c *api.CronJob) { c.Spec.Schedule, c.Spec.TimeZone = "0 * * * *", &z }
	}
	tests := []struct {
		name string
		obj  *api.CronJob
		want string // the first error; "" for valid
	}{
		{"basic scheduled job", cj(func(*api.CronJob) {}), ""},
		{"non-standard scheduled", cj(func(c *api.CronJob) { c.Spec.Schedule = "@hourly" }), ""},
		{"correct timeZone value", cj(zone("America/New_York")), ""},
		{"spec.schedule: Invalid value", cj(func(c *api.CronJob) { c.Spec.Schedule = "error" }),
			`spec.schedule: Invalid value: "error": expected exactly 5 fields, found 1: [error]`},
		{"spec.schedule: Required value", cj(func(c *api.CronJob) { c.Spec.Schedule = "" }), "spec.schedule: Required value"},
		{"spec.timeZone: timeZone must be nil or non-empty string", cj(zone("")),
			`spec.timeZone: Invalid value: "": timeZone must be nil or non-empty string`},
		{"spec.timeZone: timeZone must be an explicit time zone", cj(zone("Local")),
			`spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones`},
		{"spec.timeZone: leading space", cj(zone(" Continent/Zone")), `spec.timeZone: Invalid value: " Continent/Zone": unknown time zone  Continent/Zone`},
		{"spec.timeZone: invalid zone", cj(zone("Continent/InvalidZone")),
			`spec.timeZone: Invalid value: "Continent/InvalidZone": unknown time zone Continent/InvalidZone`},
		{"spec.timeZone: a space", cj(zone(" ")), `spec.timeZone: Invalid value: " ": unknown time zone  `},
		{"spec.timeZone: trailing space", cj(zone("Continent/Zone ")), `spec.timeZone: Invalid value: "Continent/Zone ": unknown time zone Continent/Zone `},
		{"spec.startingDeadlineSeconds", cj(func(c *api.CronJob) { d := int64(-1); c.Spec.StartingDeadlineSeconds = &d }),
			"spec.startingDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0"},
		{"spec.successfulJobsHistoryLimit", cj(func(c *api.CronJob) { c.Spec.SuccessfulJobsHistoryLimit = i32(-1) }),
			"spec.successfulJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0"},
		{"spec.failedJobsHistoryLimit", cj(func(c *api.CronJob) { c.Spec.FailedJobsHistoryLimit = i32(-1) }),
			"spec.failedJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0"},
		{"spec.concurrencyPolicy: Required value", cj(func(c *api.CronJob) { c.Spec.ConcurrencyPolicy = "" }), "spec.concurrencyPolicy: Required value"},
		{"spec.jobTemplate.spec.parallelism", cj(func(c *api.CronJob) { c.Spec.JobTemplate.Spec.Parallelism = i32(-1) }),
			"spec.jobTemplate.spec.parallelism: Invalid value: -1: must be greater than or equal to 0"},
		{"spec.jobTemplate.spec.completions", cj(func(c *api.CronJob) { c.Spec.JobTemplate.Spec.Completions = i32(-1) }),
			"spec.jobTemplate.spec.completions: Invalid value: -1: must be greater than or equal to 0"},
		{"spec.jobTemplate.spec.activeDeadlineSeconds", cj(func(c *api.CronJob) { d := int64(-1); c.Spec.JobTemplate.Spec.ActiveDeadlineSeconds = &d }),
			"spec.jobTemplate.spec.activeDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0"},
		{"spec.jobTemplate.spec.selector", cj(func(c *api.CronJob) {
			c.Spec.JobTemplate.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"a": "b"}}
		}), "spec.jobTemplate.spec.selector: Invalid value: {\"matchLabels\":{\"a\":\"b\"}}: `selector` will be auto-generated"},
		{"metadata.name: must be no more than 52 characters", cj(func(c *api.CronJob) { c.Name = "10000000002000000000300000000040000000005000000000123" }),
			`metadata.name: Invalid value: "10000000002000000000300000000040000000005000000000123": must be no more than 52 characters`},
		{"spec.jobTemplate.spec.manualSelector", cj(func(c *api.CronJob) { m := true; c.Spec.JobTemplate.Spec.ManualSelector = &m }),
			`spec.jobTemplate.spec.manualSelector: Unsupported value: true: supported values: "nil", "false"`},
		{"spec.jobTemplate.spec.template.spec.restartPolicy: Required value", cj(func(c *api.CronJob) {
			c.Spec.JobTemplate.Spec.Template.Spec.RestartPolicy = api.RestartPolicyAlways
		}), `spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"`},
		{"spec.jobTemplate.spec.template.spec.restartPolicy: Unsupported value", cj(func(c *api.CronJob) {
			c.Spec.JobTemplate.Spec.Template.Spec.RestartPolicy = "Invalid"
		}), `spec.jobTemplate.spec.template.spec.restartPolicy: Unsupported value: "Invalid": supported values: "Always", "OnFailure", "Never"`},
		{"spec.jobTemplate.spec.ttlSecondsAfterFinished", cj(func(c *api.CronJob) { c.Spec.JobTemplate.Spec.TTLSecondsAfterFinished = i32(-1) }),
			"spec.jobTemplate.spec.ttlSecondsAfterFinished: Invalid value: -1: must be greater than or equal to 0"},
		// validateTimeZone: "local" is not "Local" to LoadLocation, and
		// both errors are reported.
		{"spec.timeZone: local", cj(zone("local")),
			`spec.timeZone: Invalid value: "local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Validate(tt.obj, nil)
			if tt.want == "" {
				if err != nil {
					t.Errorf("error %v, want none", err)
				}
				return
			}
			first, _ := firstCause(t, err)
			if first.Error() != tt.want {
				t.Errorf("first error %q\nwant %q\n(all: %v)", first.Error(), tt.want, err)
			}
		})
	}
	// validateTimeZone goes on after "Local": "local" is no zone
	// time.LoadLocation knows either.
	want := `CronJob.batch "mycronjob" is invalid: [spec.timeZone: Invalid value: "local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones, ` +
		`spec.timeZone: Invalid value: "local": unknown time zone local]`
	if err := Validate(cj(zone("local")), nil); err == nil || err.Error() != want {
		t.Errorf("local: %v\nwant %s", err, want)
	}
}

// TestValidatePodFailurePolicyUpstream ports the podFailurePolicy rows of
// upstream's TestValidateJob (k/k
// pkg/apis/batch/validation/validation_test.go), keyed as there by the
// first error's whole text, on a Job whose template restarts Never and
// has one container "abc". The FailIndex row follows
// validatePodFailurePolicyRule's code.
func TestValidatePodFailurePolicyUpstream(t *testing.T) {
	str := func(s string) *string { return &s }
	job := func(rules ...api.PodFailurePolicyRule) *api.Job {
		return &api.Job{ObjectMeta: api.ObjectMeta{Name: "myjob", Namespace: "default"}, Spec: api.JobSpec{
			PodFailurePolicy: &api.PodFailurePolicy{Rules: rules},
			Template: api.PodTemplateSpec{Spec: api.PodSpec{RestartPolicy: api.RestartPolicyNever,
				Containers: []api.Container{{Name: "abc", Image: "image"}}}}}}
	}
	codes := func(action, op string, values ...int32) api.PodFailurePolicyRule {
		return api.PodFailurePolicyRule{Action: action, OnExitCodes: &api.PodFailurePolicyOnExitCodesRequirement{Operator: op, Values: values}}
	}
	cond := func(action, typ string, status api.ConditionStatus) api.PodFailurePolicyRule {
		return api.PodFailurePolicyRule{Action: action, OnPodConditions: []api.PodFailurePolicyOnPodConditionsPattern{{Type: typ, Status: status}}}
	}
	named := func(r api.PodFailurePolicyRule, c string) api.PodFailurePolicyRule {
		r.OnExitCodes.ContainerName = str(c)
		return r
	}
	count := func(n int, rule func(i int) api.PodFailurePolicyRule) []api.PodFailurePolicyRule {
		var out []api.PodFailurePolicyRule
		for i := range n {
			out = append(out, rule(i))
		}
		return out
	}
	manyValues := make([]int32, 256)
	for i := range manyValues {
		manyValues[i] = int32(i)
	}
	manyPatterns := cond("FailJob", "", api.ConditionTrue)
	manyPatterns.OnPodConditions = nil
	for i := range 21 {
		manyPatterns.OnPodConditions = append(manyPatterns.OnPodConditions,
			api.PodFailurePolicyOnPodConditionsPattern{Type: fmt.Sprintf("CustomType_%d", i), Status: api.ConditionTrue})
	}
	both := named(codes("FailJob", "In", 1, 2, 3), "abc")
	both.OnPodConditions = cond("", "DisruptionTarget", api.ConditionTrue).OnPodConditions
	tests := []struct {
		job  *api.Job
		want string // the first error; "" for valid
	}{
		{job(named(codes("Ignore", "In", 1, 2, 3), "abc"), codes("FailJob", "NotIn", 0, 5), cond("Count", "DisruptionTarget", api.ConditionTrue)), ""},
		{job(api.PodFailurePolicyRule{Action: "FailJob"}),
			"spec.podFailurePolicy.rules[0]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required"},
		{job(codes("FailJob", "In", 11, 11)), "spec.podFailurePolicy.rules[0].onExitCodes.values[1]: Duplicate value: 11"},
		{job(codes("FailJob", "In", manyValues...)), "spec.podFailurePolicy.rules[0].onExitCodes.values: Too many: 256: must have at most 255 items"},
		{job(count(21, func(i int) api.PodFailurePolicyRule { return codes("FailJob", "In", int32(i+1)) })...),
			"spec.podFailurePolicy.rules: Too many: 21: must have at most 20 items"},
		{job(manyPatterns), "spec.podFailurePolicy.rules[0].onPodConditions: Too many: 21: must have at most 20 items"},
		{job(codes("FailJob", "In", 12, 13, 13, 13)), "spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 13"},
		{job(codes("FailJob", "In", 19, 11)), "spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: [19,11]: must be ordered"},
		{job(codes("FailJob", "In", []int32{}...)), "spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []: at least one value is required"},
		{job(codes("", "In", 1, 2, 3)), `spec.podFailurePolicy.rules[0].action: Required value: valid values: ["Count" "FailIndex" "FailJob" "Ignore"]`},
		{job(codes("FailJob", "", 1, 2, 3)), `spec.podFailurePolicy.rules[0].onExitCodes.operator: Required value: valid values: ["In" "NotIn"]`},
		{job(both), "spec.podFailurePolicy.rules[0]: Invalid value: specifying both OnExitCodes and OnPodConditions is not supported"},
		{job(codes("Ignore", "In", 1, 0, 2)), "spec.podFailurePolicy.rules[0].onExitCodes.values[1]: Invalid value: 0: must not be 0 for the In operator"},
		{job(named(codes("Ignore", "In", 1, 2, 3), "abc"), named(codes("FailJob", "In", 5, 6, 7), "xyz")),
			`spec.podFailurePolicy.rules[1].onExitCodes.containerName: Invalid value: "xyz": must be one of the container or initContainer names in the pod template`},
		{job(named(codes("UnknownAction", "In", 1, 2, 3), "abc")),
			`spec.podFailurePolicy.rules[0].action: Unsupported value: "UnknownAction": supported values: "Count", "FailIndex", "FailJob", "Ignore"`},
		{job(codes("Ignore", "UnknownOperator", 1, 2, 3)),
			`spec.podFailurePolicy.rules[0].onExitCodes.operator: Unsupported value: "UnknownOperator": supported values: "In", "NotIn"`},
		{job(cond("Ignore", "DisruptionTarget", "")),
			`spec.podFailurePolicy.rules[0].onPodConditions[0].status: Required value: valid values: ["False" "True" "Unknown"]`},
		{job(cond("Ignore", "DisruptionTarget", "UnknownStatus")),
			`spec.podFailurePolicy.rules[0].onPodConditions[0].status: Unsupported value: "UnknownStatus": supported values: "False", "True", "Unknown"`},
		{job(cond("Ignore", "", api.ConditionTrue)), `spec.podFailurePolicy.rules[0].onPodConditions[0].type: Invalid value: "": name part must be non-empty`},
		{job(cond("Ignore", "Invalid Condition Type", api.ConditionTrue)),
			`spec.podFailurePolicy.rules[0].onPodConditions[0].type: Invalid value: "Invalid Condition Type": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`},
		{job(codes("FailIndex", "In", 1)), `spec.podFailurePolicy.rules[0].action: Invalid value: "FailIndex": requires the backoffLimitPerIndex to be set`},
	}
	for _, tt := range tests {
		name := tt.want
		if name == "" {
			name = "valid"
		}
		t.Run(name, func(t *testing.T) {
			err := Validate(tt.job, nil)
			if tt.want == "" {
				if err != nil {
					t.Errorf("error %v, want none", err)
				}
				return
			}
			first, _ := firstCause(t, err)
			if first.Error() != tt.want {
				t.Errorf("first error %q\nwant %q\n(all: %v)", first.Error(), tt.want, err)
			}
		})
	}
}

// TestValidateCronJobUpdateUpstream ports the update rows of upstream's
// TestValidateCronJobSpec and TestValidateCronJobUpdate (k/k
// pkg/apis/batch/validation/validation_test.go), checked against
// ValidateCronJobUpdate's code: a schedule whose stored one held TZ may
// keep it, but not beside spec.timeZone; an unchanged time zone is not
// checked again; the 52-character name limit is ValidateCronJobCreate's
// alone.
func TestValidateCronJobUpdateUpstream(t *testing.T) {
	cj := func(name, schedule string, tz *string) *api.CronJob {
		return &api.CronJob{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"}, Spec: api.CronJobSpec{
			Schedule: schedule, TimeZone: tz, ConcurrencyPolicy: "Allow", JobTemplate: api.JobTemplateSpec{Spec: api.JobSpec{
				Template: api.PodTemplateSpec{Spec: api.PodSpec{RestartPolicy: api.RestartPolicyOnFailure,
					Containers: []api.Container{{Name: "abc", Image: "image", ImagePullPolicy: api.PullIfNotPresent}}}}}}}}
	}
	zone := func(z string) *string { return &z }
	long := "10000000002000000000300000000040000000005000000000123"
	tests := []struct {
		name     string
		old, obj *api.CronJob
		want     string // the whole error; "" for valid
	}{
		{"old schedule has TZ, kept", cj("mycronjob", "TZ=UTC 0 * * * *", nil), cj("mycronjob", "TZ=UTC 0 * * * *", nil), ""},
		{"old schedule has TZ, changed", cj("mycronjob", "TZ=UTC 0 * * * *", nil), cj("mycronjob", "CRON_TZ=UTC 5 * * * *", nil), ""},
		{"old schedule has TZ, beside timeZone", cj("mycronjob", "TZ=UTC 0 * * * *", nil), cj("mycronjob", "TZ=UTC 0 * * * *", zone("UTC")),
			`CronJob.batch "mycronjob" is invalid: spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use both timeZone field and TZ or CRON_TZ in schedule`},
		{"old schedule without TZ", cj("mycronjob", "0 * * * *", nil), cj("mycronjob", "TZ=UTC 0 * * * *", nil),
			`CronJob.batch "mycronjob" is invalid: spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead`},
		{"unchanged invalid timeZone", cj("mycronjob", "0 * * * *", zone("Continent/InvalidZone")), cj("mycronjob", "5 * * * *", zone("Continent/InvalidZone")), ""},
		{"changed invalid timeZone", cj("mycronjob", "0 * * * *", zone("America/New_York")), cj("mycronjob", "0 * * * *", zone("Continent/InvalidZone")),
			`CronJob.batch "mycronjob" is invalid: spec.timeZone: Invalid value: "Continent/InvalidZone": unknown time zone Continent/InvalidZone`},
		{"name longer than 52 characters", cj(long, "0 * * * *", nil), cj(long, "5 * * * *", nil), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Validate(tt.obj, tt.old)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tt.want != "" && (err == nil || err.Error() != tt.want):
				t.Errorf("error %v\nwant %s", err, tt.want)
			}
		})
	}
}

// TestValidateJobUpdateUpstream ports the rows of upstream's
// TestValidateJobUpdate (k/k pkg/apis/batch/validation/validation_test.go),
// checked as upstream checks them: the only error is of the row's field
// and type (value and detail are not compared there; here the type is
// part of want). AllowElasticIndexedJobs is always on (GA in v1.31), so
// its false rows are the true ones; the AllowMutableSchedulingDirectives
// rows are run with the stored Job suspended and never started, which is
// how the Job strategy sets that option, plus two rows for the strategy's
// rule itself (a started Job only once suspended with no active pods).
func TestValidateJobUpdateUpstream(t *testing.T) {
	i32 := func(v int32) *int32 { return &v }
	i64 := func(v int64) *int64 { return &v }
	str := func(s string) *string { return &s }
	yes := true
	base := func(mod func(s *api.JobSpec)) *api.Job {
		j := &api.Job{ObjectMeta: api.ObjectMeta{Name: "abc", Namespace: "default", UID: "1a2b3c", ResourceVersion: "1"}, Spec: api.JobSpec{
			Template: api.PodTemplateSpec{Spec: api.PodSpec{RestartPolicy: api.RestartPolicyOnFailure, DNSPolicy: api.DNSClusterFirst,
				Containers: []api.Container{{Name: "abc", Image: "image", ImagePullPolicy: api.PullIfNotPresent}}}}}}
		api.GenerateJobSelector(j)
		if mod != nil {
			mod(&j.Spec)
		}
		return j
	}
	never := func(s *api.JobSpec) { s.Template.Spec.RestartPolicy = api.RestartPolicyNever }
	indexed := func(n int32) func(s *api.JobSpec) {
		return func(s *api.JobSpec) { never(s); s.CompletionMode, s.Completions = str(api.IndexedCompletion), i32(n) }
	}
	suspended := func(mod func(s *api.JobSpec)) func(s *api.JobSpec) {
		return func(s *api.JobSpec) {
			s.Suspend = &yes
			if mod != nil {
				mod(s)
			}
		}
	}
	nodeAffinity := func(v string) *api.Affinity {
		return &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
			NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: []api.NodeSelectorRequirement{{Key: "foo", Operator: "In", Values: []string{"bar", v}}}}}}}}
	}
	withAffinity := func(s *api.JobSpec) { s.Template.Spec.Affinity = nodeAffinity("value") }
	ignore := func() *api.PodFailurePolicy {
		return &api.PodFailurePolicy{Rules: []api.PodFailurePolicyRule{{Action: "Ignore",
			OnPodConditions: []api.PodFailurePolicyOnPodConditionsPattern{{Type: "DisruptionTarget", Status: api.ConditionTrue}}}}}
	}
	success := api.RawValue(`{"rules":[{"succeededIndexes":"1-3"}]}`)
	tolerations := []api.Toleration{{Key: "foo", Operator: "Equal", Value: "bar", Effect: "PreferNoSchedule"}}
	tests := []struct {
		name   string
		old    *api.Job
		update func(j *api.Job)
		want   string // "<field>: <type>" of the only error; "" for valid
	}{
		{"mutable fields", base(func(s *api.JobSpec) {
			s.Parallelism, s.ActiveDeadlineSeconds, s.TTLSecondsAfterFinished = i32(5), i64(2), i32(1)
		}),
			func(j *api.Job) {
				j.Spec.Parallelism, j.Spec.ActiveDeadlineSeconds, j.Spec.TTLSecondsAfterFinished, j.Spec.ManualSelector = i32(2), i64(3), i32(2), &yes
			}, ""},
		{"invalid attempt to set managedBy field", base(nil), func(j *api.Job) { j.Spec.ManagedBy = str("example.com/custom-controller") },
			"spec.managedBy: Invalid value"},
		{"invalid update of the managedBy field", base(func(s *api.JobSpec) { s.ManagedBy = str("example.com/custom-controller1") }),
			func(j *api.Job) { j.Spec.ManagedBy = str("example.com/custom-controller2") }, "spec.managedBy: Invalid value"},
		{"immutable completions for non-indexed jobs", base(nil), func(j *api.Job) { j.Spec.Completions = i32(1) }, "spec.completions: Invalid value"},
		{"immutable selector", base(func(s *api.JobSpec) { s.Template.Labels["foo"] = "bar" }),
			func(j *api.Job) { j.Spec.Selector.MatchLabels["foo"] = "bar" }, "spec.selector: Invalid value"},
		{"add success policy", base(indexed(5)), func(j *api.Job) { j.Spec.SuccessPolicy = &success }, "spec.successPolicy: Invalid value"},
		{"update success policy", base(func(s *api.JobSpec) { indexed(5)(s); s.SuccessPolicy = &success }),
			func(j *api.Job) {
				p := api.RawValue(`{"rules":[{"succeededIndexes":"1-3"},{"succeededCount":3}]}`)
				j.Spec.SuccessPolicy = &p
			},
			"spec.successPolicy: Invalid value"},
		{"remove success policy", base(func(s *api.JobSpec) { indexed(5)(s); s.SuccessPolicy = &success }),
			func(j *api.Job) { j.Spec.SuccessPolicy = nil }, "spec.successPolicy: Invalid value"},
		{"add pod failure policy", base(never), func(j *api.Job) { j.Spec.PodFailurePolicy = ignore() }, "spec.podFailurePolicy: Invalid value"},
		{"update pod failure policy", base(func(s *api.JobSpec) { never(s); s.PodFailurePolicy = ignore() }),
			func(j *api.Job) {
				j.Spec.PodFailurePolicy.Rules = append(j.Spec.PodFailurePolicy.Rules, api.PodFailurePolicyRule{Action: "Count",
					OnPodConditions: []api.PodFailurePolicyOnPodConditionsPattern{{Type: "DisruptionTarget", Status: api.ConditionTrue}}})
			}, "spec.podFailurePolicy: Invalid value"},
		{"remove pod failure policy", base(func(s *api.JobSpec) { never(s); s.PodFailurePolicy = ignore() }),
			func(j *api.Job) { j.Spec.PodFailurePolicy = nil }, "spec.podFailurePolicy: Invalid value"},
		{"set backoff limit per index", base(indexed(3)), func(j *api.Job) { j.Spec.BackoffLimitPerIndex = i32(1) }, "spec.backoffLimitPerIndex: Invalid value"},
		{"unset backoff limit per index", base(func(s *api.JobSpec) { indexed(3)(s); s.BackoffLimitPerIndex = i32(1) }),
			func(j *api.Job) { j.Spec.BackoffLimitPerIndex = nil }, "spec.backoffLimitPerIndex: Invalid value"},
		{"update backoff limit per index", base(func(s *api.JobSpec) { indexed(3)(s); s.BackoffLimitPerIndex = i32(1) }),
			func(j *api.Job) { j.Spec.BackoffLimitPerIndex = i32(2) }, "spec.backoffLimitPerIndex: Invalid value"},
		{"set max failed indexes", base(func(s *api.JobSpec) { indexed(3)(s); s.BackoffLimitPerIndex = i32(1) }),
			func(j *api.Job) { j.Spec.MaxFailedIndexes = i32(1) }, ""},
		{"unset max failed indexes", base(func(s *api.JobSpec) { indexed(3)(s); s.BackoffLimitPerIndex, s.MaxFailedIndexes = i32(1), i32(1) }),
			func(j *api.Job) { j.Spec.MaxFailedIndexes = nil }, ""},
		{"update max failed indexes", base(func(s *api.JobSpec) { indexed(3)(s); s.BackoffLimitPerIndex, s.MaxFailedIndexes = i32(1), i32(1) }),
			func(j *api.Job) { j.Spec.MaxFailedIndexes = i32(2) }, ""},
		{"immutable pod template", base(func(s *api.JobSpec) { s.CompletionMode, s.Completions = str(api.IndexedCompletion), i32(3) }),
			func(j *api.Job) { j.Spec.Template.Spec.DNSPolicy = api.DNSClusterFirstWithHostNet }, "spec.template: Invalid value"},
		{"immutable completion mode", base(func(s *api.JobSpec) { s.CompletionMode, s.Completions = str(api.IndexedCompletion), i32(2) }),
			func(j *api.Job) { j.Spec.CompletionMode = str(api.NonIndexedCompletion) }, "spec.completionMode: Invalid value"},
		{"immutable completions for non-indexed job when AllowElasticIndexedJobs is true",
			base(func(s *api.JobSpec) { s.CompletionMode, s.Completions = str(api.NonIndexedCompletion), i32(2) }),
			func(j *api.Job) { j.Spec.Completions = i32(4) }, "spec.completions: Invalid value"},
		{"immutable node affinity", base(nil), func(j *api.Job) { j.Spec.Template.Spec.Affinity = nodeAffinity("value2") }, "spec.template: Invalid value"},
		{"add node affinity", base(suspended(nil)), func(j *api.Job) { j.Spec.Template.Spec.Affinity = nodeAffinity("value2") }, ""},
		{"update node affinity", base(suspended(withAffinity)), func(j *api.Job) { j.Spec.Template.Spec.Affinity = nodeAffinity("value2") }, ""},
		{"remove node affinity", base(suspended(withAffinity)), func(j *api.Job) { j.Spec.Template.Spec.Affinity.NodeAffinity = nil }, ""},
		{"remove affinity", base(suspended(withAffinity)), func(j *api.Job) { j.Spec.Template.Spec.Affinity = nil }, ""},
		{"immutable tolerations", base(nil), func(j *api.Job) { j.Spec.Template.Spec.Tolerations = tolerations }, "spec.template: Invalid value"},
		{"mutable tolerations", base(suspended(nil)), func(j *api.Job) { j.Spec.Template.Spec.Tolerations = tolerations }, ""},
		{"immutable node selector", base(nil), func(j *api.Job) { j.Spec.Template.Spec.NodeSelector = map[string]string{"foo": "bar"} }, "spec.template: Invalid value"},
		{"mutable node selector", base(suspended(nil)), func(j *api.Job) { j.Spec.Template.Spec.NodeSelector = map[string]string{"foo": "bar"} }, ""},
		{"immutable annotations", base(nil), func(j *api.Job) { j.Spec.Template.Annotations = map[string]string{"foo": "baz"} }, "spec.template: Invalid value"},
		{"mutable annotations", base(suspended(nil)), func(j *api.Job) { j.Spec.Template.Annotations = map[string]string{"foo": "baz"} }, ""},
		{"immutable labels", base(nil), func(j *api.Job) { j.Spec.Template.Labels["bar"] = "baz" }, "spec.template: Invalid value"},
		{"mutable labels", base(suspended(nil)), func(j *api.Job) { j.Spec.Template.Labels["bar"] = "baz" }, ""},
		{"immutable schedulingGates", base(nil), func(j *api.Job) { j.Spec.Template.Spec.SchedulingGates = []api.PodSchedulingGate{{Name: "gate"}} },
			"spec.template: Invalid value"},
		{"mutable schedulingGates", base(suspended(nil)), func(j *api.Job) { j.Spec.Template.Spec.SchedulingGates = []api.PodSchedulingGate{{Name: "gate"}} }, ""},
		{"update completions and parallelism to same value is valid", base(func(s *api.JobSpec) { indexed(1)(s); s.Parallelism = i32(1) }),
			func(j *api.Job) { j.Spec.Completions, j.Spec.Parallelism = i32(2), i32(2) }, ""},
		{"previous parallelism != previous completions, new parallelism == new completions", base(func(s *api.JobSpec) { indexed(1)(s); s.Parallelism = i32(2) }),
			func(j *api.Job) { j.Spec.Completions, j.Spec.Parallelism = i32(3), i32(3) }, ""},
		{"indexed job updating completions and parallelism to different values is invalid", base(func(s *api.JobSpec) { indexed(1)(s); s.Parallelism = i32(1) }),
			func(j *api.Job) { j.Spec.Completions, j.Spec.Parallelism = i32(2), i32(3) }, "spec.completions: Invalid value"},
		{"indexed job with completions set updated to nil does not panic", base(func(s *api.JobSpec) { indexed(1)(s); s.Parallelism = i32(1) }),
			func(j *api.Job) { j.Spec.Completions, j.Spec.Parallelism = nil, i32(3) }, "spec.completions: Required value"},
		{"indexed job with completions unchanged, parallelism reduced to less than completions", base(func(s *api.JobSpec) { indexed(2)(s); s.Parallelism = i32(2) }),
			func(j *api.Job) { j.Spec.Parallelism = i32(1) }, ""},
		{"indexed job with completions unchanged, parallelism increased higher than completions", base(func(s *api.JobSpec) { indexed(2)(s); s.Parallelism = i32(2) }),
			func(j *api.Job) { j.Spec.Parallelism = i32(3) }, ""},
		// The Job strategy's AllowMutableSchedulingDirectives.
		{"started suspended job with active pods", func() *api.Job {
			j := base(suspended(nil))
			now := api.NewTime(time.Unix(0, 0))
			j.Status.StartTime, j.Status.Active = &now, 1
			j.Status.Conditions = []api.JobCondition{{Type: api.JobSuspended, Status: api.ConditionTrue}}
			return j
		}(), func(j *api.Job) { j.Spec.Template.Spec.NodeSelector = map[string]string{"foo": "bar"} }, "spec.template: Invalid value"},
		{"started job suspended with no active pods", func() *api.Job {
			j := base(suspended(nil))
			now := api.NewTime(time.Unix(0, 0))
			j.Status.StartTime = &now
			j.Status.Conditions = []api.JobCondition{{Type: api.JobSuspended, Status: api.ConditionTrue}}
			return j
		}(), func(j *api.Job) { j.Spec.Template.Spec.NodeSelector = map[string]string{"foo": "bar"} }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := tt.old.DeepCopy()
			tt.update(n)
			err := Validate(n, tt.old)
			if tt.want == "" {
				if err != nil {
					t.Errorf("error %v, want none", err)
				}
				return
			}
			first, all := firstCause(t, err)
			if got := first.Field + ": " + first.Type; got != tt.want || len(all) != 1 {
				t.Errorf("errors %v, want only %s", err, tt.want)
			}
		})
	}
}
