package scenarios

import (
	"strings"
	"testing"
	"testing/fstest"
)

// TestWarnings: scheduling fields that are accepted and not simulated
// are named, with the object and path; modelled ones are not.
func TestWarnings(t *testing.T) {
	doc := `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: warn}
spec:
  duration: 1m
  cluster:
    nodeGroups: [{name: worker, count: 1, capacity: {cpu: "4", memory: 16Gi}}]
  objects:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec:
          priorityClassName: high
          topologySpreadConstraints:
          - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}}
          affinity:
            podAntiAffinity:
              requiredDuringSchedulingIgnoredDuringExecution:
              - {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: web}}, namespaceSelector: {}}
              preferredDuringSchedulingIgnoredDuringExecution:
              - weight: 10
                podAffinityTerm: {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: web}}, namespaceSelector: {matchLabels: {team: a}}}
          containers: [{name: web, image: nginx:1.14.2}]
`
	s, err := Load("warn.yaml", ".", fstest.MapFS{}, []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range s.Warnings() {
		got = append(got, w.String())
	}
	want := []string{
		"warning: warn.yaml: Deployment/web: spec.template.spec.priorityClassName: accepted but not simulated: priority classes are not resolved and preemption is not simulated",
		"warning: warn.yaml: Deployment/web: spec.template.spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.namespaceSelector: accepted but not simulated: namespaces are not selected by label; only the listed namespaces (or {} for all) count",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
