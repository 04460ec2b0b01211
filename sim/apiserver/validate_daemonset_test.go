package apiserver

import (
	"strings"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestValidateDaemonSet checks ValidateDaemonSetSpec's messages
// (k/k pkg/apis/apps/validation/validation.go) on a defaulted DaemonSet.
func TestValidateDaemonSet(t *testing.T) {
	valid := func() *api.DaemonSet {
		ds := &api.DaemonSet{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "agent"},
			Spec: api.DaemonSetSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "agent"}},
				Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "agent"}},
					Spec: api.PodSpec{Containers: []api.Container{{Name: "a", Image: "agent:1"}}}}}}
		api.SetDefaultsDaemonSet(ds)
		return ds
	}
	zero, one := api.FromInt32(0), api.FromInt32(1)
	tests := []struct {
		name   string
		modify func(ds *api.DaemonSet)
		want   string // "" for valid
	}{
		{"defaulted", func(*api.DaemonSet) {}, ""},
		{"empty selector", func(ds *api.DaemonSet) { ds.Spec.Selector = &api.LabelSelector{} }, "spec.selector: Invalid value: {}: empty selector is invalid for daemonset"},
		{"labels do not match", func(ds *api.DaemonSet) { ds.Spec.Template.Labels = map[string]string{"app": "other"} }, "`selector` does not match template `labels`"},
		{"restartPolicy Never", func(ds *api.DaemonSet) { ds.Spec.Template.Spec.RestartPolicy = api.RestartPolicyNever }, `spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"`},
		{"both zero", func(ds *api.DaemonSet) { ds.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = &zero }, "spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0"},
		{"both set", func(ds *api.DaemonSet) { ds.Spec.UpdateStrategy.RollingUpdate.MaxSurge = &one }, "spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: \"1\": may not be set when maxUnavailable is non-zero"},
		// Upstream TestValidateDaemonSet's rows not above.
		// ValidateDaemonSetSpec has no Required for the selector: a
		// missing one converts to labels.Nothing, which the template's
		// labels do not match (upstream's row accepts that field).
		{"nil selector", func(ds *api.DaemonSet) { ds.Spec.Selector = nil }, "spec.template.metadata.labels: Invalid value: {\"app\":\"agent\"}: `selector` does not match template `labels`"},
		{"a selector key that is not a label key", func(ds *api.DaemonSet) {
			ds.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"a b": "agent"}}
		},
			`spec.selector.matchLabels: Invalid value: "a b": name part must consist of`},
		{"invalid restart policy 1", func(ds *api.DaemonSet) { ds.Spec.Template.Spec.RestartPolicy = api.RestartPolicyOnFailure }, `spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"`},
		{"active deadline seconds", func(ds *api.DaemonSet) { s := int64(60); ds.Spec.Template.Spec.ActiveDeadlineSeconds = &s }, "spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported"},
		{"template may not contain ephemeral containers", func(ds *api.DaemonSet) {
			ds.Spec.Template.Spec.EphemeralContainers = []api.RawValue{api.RawValue(`{"name":"debug","image":"image"}`)}
		}, "spec.template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template"},
		{"unknown strategy", func(ds *api.DaemonSet) { ds.Spec.UpdateStrategy.Type = "Recreate" }, `spec.updateStrategy: Unsupported value: "Recreate"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds := valid()
			tt.modify(ds)
			err := Validate(ds, nil)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("error %v, want one holding %q", err, tt.want)
			}
		})
	}
}
