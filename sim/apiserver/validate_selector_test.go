package apiserver

import (
	"strings"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestValidateSelectorAsAppsValidation: a Deployment's and a
// ReplicaSet's selector is checked as ValidateDeploymentSpec and
// ValidateReplicaSetSpec check it: a missing one is Required and, as it
// converts to labels.Nothing, matches no template; its keys and values
// are ValidateLabelSelector's, and one that then does not convert is
// "invalid label selector" with the selector as its value. clustersim
// answered a missing selector with Required alone, and a selector that
// did not convert with the converter's error under the value "<invalid>".
func TestValidateSelectorAsAppsValidation(t *testing.T) {
	const mismatch = "spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`"
	for _, tc := range []struct {
		name string
		sel  *api.LabelSelector
		want string
	}{
		{"missing", nil, `is invalid: [spec.selector: Required value, ` + mismatch + `]`},
		{"empty", &api.LabelSelector{}, `is invalid: spec.selector: Invalid value: {}: empty selector is invalid for deployment`},
		{"a key that is not a label key", &api.LabelSelector{MatchLabels: map[string]string{"a b": "web"}},
			`is invalid: [spec.selector.matchLabels: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), spec.selector: Invalid value: {"matchLabels":{"a b":"web"}}: invalid label selector]`},
		{"an operator that is not one", &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "app", Operator: "Near", Values: []string{"web"}}}},
			`is invalid: [spec.selector.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator, spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"Near","values":["web"]}]}: invalid label selector]`},
		{"matching", &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := deployment("web", 1)
			api.SetDefaultsDeployment(d)
			d.Spec.Selector = tc.sel
			rs := &api.ReplicaSet{TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"}, ObjectMeta: d.ObjectMeta,
				Spec: api.ReplicaSetSpec{Replicas: d.Spec.Replicas, Selector: tc.sel, Template: d.Spec.Template}}
			for _, obj := range []api.Object{d, rs} {
				got := ""
				if err := Validate(obj, nil); err != nil {
					got = err.Error()
				}
				if tc.want == "" && got != "" || tc.want != "" && !strings.HasSuffix(got, tc.want) {
					t.Errorf("%s: got %q, want it to end %q", obj.GetTypeMeta().Kind, got, tc.want)
				}
			}
		})
	}
}

func endsWith(s, suffix string) bool {
	return len(s) >= len(suffix) && s[len(s)-len(suffix):] == suffix
}

// TestValidateSelectorStatefulSetAndPDB: a StatefulSet's selector is
// checked as a ReplicaSet's, but one that does not convert is refused
// with no detail (ValidateStatefulSetSpec); a PodDisruptionBudget's has
// ValidateLabelSelector's errors alone (ValidatePodDisruptionBudgetSpec).
// Both answered with the converter's error under the value "<invalid>".
func TestValidateSelectorStatefulSetAndPDB(t *testing.T) {
	badKey := &api.LabelSelector{MatchLabels: map[string]string{"a b": "web"}}
	badOp := &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "app", Operator: "Near", Values: []string{"web"}}}}
	const keyErr = `spec.selector.matchLabels: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`
	const opErr = `spec.selector.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator`
	sts := func(sel *api.LabelSelector) api.Object {
		s := &api.StatefulSet{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
			Spec: api.StatefulSetSpec{Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "web", Image: "image"}}}}}}
		api.SetDefaultsStatefulSet(s)
		s.Spec.Selector = sel
		return s
	}
	pdb := func(sel *api.LabelSelector) api.Object {
		one := api.FromInt32(1)
		return &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"}, Spec: api.PodDisruptionBudgetSpec{MinAvailable: &one, Selector: sel}}
	}
	for _, tc := range []struct {
		name string
		obj  api.Object
		want string
	}{
		{"statefulset: a bad key", sts(badKey), `StatefulSet.apps "web" is invalid: [` + keyErr + `, spec.selector: Invalid value: {"matchLabels":{"a b":"web"}}]`},
		{"statefulset: missing", sts(nil), "StatefulSet.apps \"web\" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`]"},
		{"statefulset: empty", sts(&api.LabelSelector{}), `StatefulSet.apps "web" is invalid: spec.selector: Invalid value: {}: empty selector is invalid for statefulset`},
		{"budget: a bad operator", pdb(badOp), `PodDisruptionBudget.policy "web" is invalid: ` + opErr},
		{"budget: a bad key", pdb(badKey), `PodDisruptionBudget.policy "web" is invalid: ` + keyErr},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ""
			if err := Validate(tc.obj, nil); err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}
