package scenarios

import (
	"testing"
)

// TestRunsOnDemand: an on-demand controller runs when the scenario
// declares its kind anywhere it can be created from (spec.objects, an
// apply step, a GitOps commit, spec.iac), and not otherwise; listing it
// decides for itself. A Job only in a GitOps commit left the job
// controller off: argocd applied the Job and nothing ran it.
func TestRunsOnDemand(t *testing.T) {
	const job = `{apiVersion: batch/v1, kind: Job, metadata: {name: j}, spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}}}`
	const cm = `{apiVersion: v1, kind: ConfigMap, metadata: {name: c}}`
	for _, tc := range []struct {
		name, spec string
		runs       bool
	}{
		{"nothing", "", false},
		{"spec.objects", "  objects: [" + job + "]\n", true},
		{"apply step", "  timeline: [{at: 1m, apply: {objects: [" + job + "]}}]\n", true},
		{"gitops commit", "  gitops:\n    applications: [{name: app, automated: {}, commits: [{at: 0s, objects: [" + job + "]}]}]\n", true},
		{"iac", "  iac: {every: 1m, objects: [" + job + "]}\n", true},
		{"another kind in a commit", "  gitops:\n    applications: [{name: app, commits: [{at: 0s, objects: [" + cm + "]}]}]\n", false},
		{"listed off", "  controllers: {job: {enabled: false}}\n  objects: [" + job + "]\n", false},
	} {
		src := "apiVersion: clustersim.dev/v1alpha1\nkind: Scenario\nmetadata: {name: r}\nspec:\n  duration: 2m\n  cluster:\n    nodeGroups: [{name: w, count: 1, capacity: {cpu: \"4\", memory: 8Gi}}]\n" + tc.spec
		s, err := Load("r.yaml", ".", nil, []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := Runs(s, "job"); got != tc.runs {
			t.Errorf("%s: the job controller runs %v, want %v", tc.name, got, tc.runs)
		}
	}
}
