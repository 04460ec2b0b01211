package apiserver

import (
	"strings"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestValidateMetadataFirst: an object's metadata errors come before its
// spec's, as upstream's ValidateObjectMeta runs before the kind's spec
// validation.
func TestValidateMetadataFirst(t *testing.T) {
	d := deployment("web", 1)
	d.Labels = map[string]string{"bad key!": "x"}
	d.Spec.Template.Labels = map[string]string{"app": "other"}
	api.SetDefaults(d)
	err := Validate(d, nil)
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	meta, tmpl := strings.Index(msg, "metadata.labels: "), strings.Index(msg, "spec.template.metadata.labels: ")
	if meta < 0 || tmpl < 0 || meta > tmpl {
		t.Errorf("metadata.labels at %d, spec.template.metadata.labels at %d in %s", meta, tmpl, msg)
	}
}
