package scenarios

import (
	"strings"
	"testing"
	"testing/fstest"
)

// TestUnknownPriorityClass: a bare Pod of spec.objects naming a class that
// exists neither in the scenario nor as a system class is refused at load
// with file:line:column and the field, inline or in a referenced file (the
// API server would refuse it at bootstrap); a workload template naming
// one loads with a warning naming the field; known and system classes
// pass silently.
func TestUnknownPriorityClass(t *testing.T) {
	const head = "apiVersion: clustersim.dev/v1alpha1\nkind: Scenario\nmetadata: {name: pc}\nspec:\n  duration: 1m\n  objects:\n"
	const class = "  - {apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: {name: high}, value: 1000}\n"
	pod := func(name, class string) string {
		return "  - apiVersion: v1\n    kind: Pod\n    metadata: {name: " + name + "}\n    spec:\n      priorityClassName: " + class +
			"\n      containers: [{name: app, image: nginx:1.14.2}]\n"
	}
	const deploy = "  - apiVersion: apps/v1\n    kind: Deployment\n    metadata: {name: web}\n    spec:\n      selector: {matchLabels: {app: web}}\n" +
		"      template:\n        metadata: {labels: {app: web}}\n        spec:\n          priorityClassName: urgent\n          containers: [{name: app, image: nginx:1.14.2}]\n"
	fsys := fstest.MapFS{
		"pods.yaml": {Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: filed}\nspec:\n  priorityClassName: missing\n  containers: [{name: app, image: nginx:1.14.2}]\n")},
	}
	cases := []struct {
		name, doc string
		err       string
		warn      string
	}{
		{name: "class in the scenario", doc: pod("a", "high") + class},
		{name: "system class", doc: pod("a", "system-node-critical") + pod("b", "system-cluster-critical")},
		{name: "unknown class inline", doc: class + pod("ok", "high") + pod("bad", "low"),
			err: `pc.yaml:18:26: spec.objects[2].spec.priorityClassName: pods "bad" is forbidden: no PriorityClass with name low was found; define the PriorityClass in spec.objects or name system-cluster-critical or system-node-critical`},
		{name: "unknown class in a list", doc: "  - apiVersion: v1\n    kind: List\n    items:\n    - {apiVersion: v1, kind: Pod, metadata: {name: listed}, spec: {priorityClassName: nope, containers: [{name: app, image: nginx:1.14.2}]}}\n",
			err: `pc.yaml:10:87: spec.objects[0].items[0].spec.priorityClassName: pods "listed" is forbidden: no PriorityClass with name nope was found; define the PriorityClass in spec.objects or name system-cluster-critical or system-node-critical`},
		{name: "unknown class in a referenced file", doc: "  - file: pods.yaml\n",
			err: `pods.yaml:9:22: spec.priorityClassName: pods "filed" is forbidden: no PriorityClass with name missing was found; define the PriorityClass in spec.objects or name system-cluster-critical or system-node-critical`},
		{name: "workload template", doc: deploy,
			warn: "warning: pc.yaml:15:30: Deployment/web: spec.template.spec.priorityClassName: no PriorityClass with name urgent was found: the Priority admission plugin will refuse every pod of the template (the controller reports FailedCreate)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Load("pc.yaml", ".", fsys, []byte(head+tc.doc))
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error\n%v\nwant\n%s", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var warns []string
			for _, w := range s.Warnings() {
				if strings.Contains(w.Field, "priorityClassName") {
					warns = append(warns, w.String())
				}
			}
			if tc.warn == "" && len(warns) > 0 || tc.warn != "" && (len(warns) != 1 || warns[0] != tc.warn) {
				t.Errorf("warnings %q, want %q", warns, tc.warn)
			}
		})
	}
}
