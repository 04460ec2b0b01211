package kubectl_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/clustersim/clustersim/report/kubectl"
	"github.com/clustersim/clustersim/sim/api"
)

// TestGetCustom: a custom kind prints NAME, then its additional printer
// columns (priority 1 only with -o wide, a missing value as <none>, a
// date as an age), or NAME and AGE when it declares none.
func TestGetCustom(t *testing.T) {
	kind := api.Kind{Group: "example.com", Name: "Widget"}
	created := api.NewTime(now.Add(-90 * time.Second))
	w := func(name string, replicas any) api.Object {
		u := &api.Unstructured{TypeMeta: api.TypeMeta{APIVersion: "example.com/v1", Kind: "Widget"}, ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", CreationTimestamp: created}}
		if replicas != nil {
			u.Set("spec.replicas", replicas)
		}
		return u
	}
	cols := []api.PrinterColumn{
		{Name: "Replicas", Type: "integer", JSONPath: ".spec.replicas"},
		{Name: "Owner", Type: "string", JSONPath: ".spec.owner", Priority: 1},
		{Name: "Created", Type: "date", JSONPath: ".metadata.creationTimestamp"},
	}
	tests := []struct {
		name string
		info api.ResourceInfo
		opts kubectl.GetOptions
		want string
	}{
		{"columns", api.ResourceInfo{Kind: kind, Namespaced: true, Columns: cols}, kubectl.GetOptions{},
			"NAME   REPLICAS   CREATED\na      3          90s\nb      <none>     90s\n"},
		{"wide", api.ResourceInfo{Kind: kind, Namespaced: true, Columns: cols}, kubectl.GetOptions{Wide: true},
			"NAME   REPLICAS   OWNER    CREATED\na      3          <none>   90s\nb      <none>     <none>   90s\n"},
		{"default columns", api.ResourceInfo{Kind: kind, Namespaced: true}, kubectl.GetOptions{},
			"NAME   AGE\na      90s\nb      90s\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			tc.opts.Custom = &tc.info
			if err := kubectl.Get(&buf, kind, []api.Object{w("b", nil), w("a", 3)}, now, tc.opts); err != nil {
				t.Fatal(err)
			}
			if buf.String() != tc.want {
				t.Errorf("got\n%s\nwant\n%s", buf.String(), tc.want)
			}
		})
	}
}
