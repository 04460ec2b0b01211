package scenarios

import (
	"testing"
	"testing/fstest"
)

// TestReferencedFileNotQuoted: an error about the content of a file a
// scenario references (here a copy of a passwd file) names what was
// expected and what was found, not the content (docs/scenario-format.md);
// validate of the same file named on the command line may quote it.
func TestReferencedFileNotQuoted(t *testing.T) {
	fsys := fstest.MapFS{
		"users.yaml":  {Data: []byte("root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n")},
		"deploy.yaml": {Data: []byte("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w}\nspec:\n  replicas: hunter2\n")},
	}
	const head = "apiVersion: clustersim.dev/v1alpha1\nkind: Scenario\nmetadata: {name: refs}\nspec:\n  duration: 1m\n  objects:\n"
	for _, tc := range []struct{ objects, err string }{
		{"  - file: users.yaml\n", "users.yaml:1:1: expected a mapping, got a string of 79 bytes"},
		{"  - file: deploy.yaml\n", "deploy.yaml:5:13: spec.replicas: expected an integer, got a string of 7 bytes"},
		{"  - file: .\n", "deploy.yaml:5:13: spec.replicas: expected an integer, got a string of 7 bytes"},
		{"  timeline:\n  - {at: 10s, apply: {file: users.yaml}}\n", "users.yaml:1:1: expected a mapping, got a string of 79 bytes"},
	} {
		_, err := Load("refs.yaml", ".", fsys, []byte(head+tc.objects))
		if err == nil || err.Error() != tc.err {
			t.Errorf("%q: error %v, want %s", tc.objects, err, tc.err)
		}
	}
}
