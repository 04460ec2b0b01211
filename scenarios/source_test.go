package scenarios

import (
	"strings"
	"testing"
)

// TestSetPaths: keys, indexes and name selectors reach the field; a
// missing leaf key is created; wrong paths are errors naming the part
// that does not exist.
func TestSetPaths(t *testing.T) {
	doc := `spec:
  cluster:
    nodeGroups:
    - {name: a, count: 3, capacity: {cpu: "4", memory: 16Gi}}
    - {name: b, count: 1, capacity: {cpu: "8", memory: 32Gi}}
  objects:
  - {apiVersion: v1, kind: ConfigMap, metadata: {name: other}}
  - {apiVersion: apps/v1, kind: Deployment, metadata: {name: web}, spec: {replicas: 3}}
`
	tests := []struct {
		path, value string
		want        string // a substring of the output, or of the error
		err         bool
	}{
		{"spec.cluster.nodeGroups[0].count", "5", "count: 5", false},
		{"spec.cluster.nodeGroups[name=b].count", "7", "{name: b, count: 7,", false},
		{"spec.cluster.nodeGroups[name=b].capacity.cpu", "16", "cpu: 16", false},
		{"spec.duration", "30m", "duration: 30m", false},
		{"spec.cluster.nodeGroups[*].count", "4", "{name: a, count: 4, capacity: {cpu: \"4\", memory: 16Gi}}\n      - {name: b, count: 4,", false},
		{"spec.cluster.nodeGroups[*].capacity", `{cpu: "8", memory: 32Gi}`, "{name: a, count: 3, capacity: {cpu: \"8\", memory: 32Gi}}\n      - {name: b, count: 1, capacity: {cpu: \"8\", memory: 32Gi}}", false},
		{"spec.objects[metadata.name=web].spec.replicas", "60", "replicas: 60", false},
		{"spec.cluster.nodeGroups[2].count", "1", "spec.cluster.nodeGroups has no element [2] (it has 2)", true},
		{"spec.cluster.nodeGroups[name=c].count", "1", "no element of spec.cluster.nodeGroups has name=c", true},
		{"spec.cluster.count[0]", "1", "spec.cluster.count: no such list", true},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			out, err := SetPaths("f.yaml", []byte(doc), Assignment{tt.path, tt.value})
			if tt.err {
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("error %v, want one holding %q", err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(out), tt.want) {
				t.Errorf("output lacks %q:\n%s", tt.want, out)
			}
		})
	}
}

// TestSetPathsBadText: a file with a control character or a byte that is
// not UTF-8 is refused by --set at the character's line and column, as
// loading it would be (yaml.v3 alone says "line 1").
func TestSetPathsBadText(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{"spec:\n  duration: 1m\n  x: a\x00b\n", "f.yaml:3:7: control character U+0000 is not allowed in YAML (only tab and line breaks are)"},
		{"spec:\n  duration: 1m\n# \xfe\n", "f.yaml:3:3: invalid UTF-8 (byte 0xFE): YAML text is UTF-8, or UTF-16 with a byte order mark"},
	} {
		_, err := SetPaths("f.yaml", []byte(tc.doc), Assignment{"spec.duration", "2m"})
		if err == nil || err.Error() != tc.want {
			t.Errorf("error %v, want %s", err, tc.want)
		}
	}
}
