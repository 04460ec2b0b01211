package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestValidateAndRunWarn: a scheduling field that is accepted and not
// simulated is named on stderr by validate and by run; both still succeed.
func TestValidateAndRunWarn(t *testing.T) {
	doc := `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: warn}
spec:
  duration: 1m
  cluster:
    nodeGroups: [{name: worker, count: 1, capacity: {cpu: "4", memory: 16Gi}}]
  objects:
  - apiVersion: v1
    kind: Pod
    metadata: {name: p}
    spec:
      resourceClaims: [{name: gpu, resourceClaimName: gpu-claim}]
      containers: [{name: c, image: nginx:1.14.2}]
`
	path := filepath.Join(t.TempDir(), "warn.yaml")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	const want = "Pod/p: spec.resourceClaims: accepted but not simulated: dynamic resource allocation is not simulated"
	for _, args := range [][]string{{"validate", path}, {"run", path}} {
		code, _, errOut := runMain(args...)
		if code != exitOK || !strings.Contains(errOut, "warning: ") || !strings.Contains(errOut, want) {
			t.Errorf("%v: exit %d, stderr %q lacks %q", args, code, errOut, want)
		}
	}
}
