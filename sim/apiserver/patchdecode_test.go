package apiserver

import (
	"errors"
	"strings"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// TestPatchThatDoesNotDecode: a patch whose result does not decode into
// the kind (a string for an int32) is upstream's 422 Invalid of the field
// "patch", naming no object: the patch map as the value of a strategic
// merge patch, the patched object as that of a merge patch.
func TestPatchThatDoesNotDecode(t *testing.T) {
	const detail = "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32"
	for _, tc := range []struct {
		name string
		typ  PatchType
		want string // the message's start
	}{
		{"strategic", StrategicMergePatch, ` "" is invalid: patch: Invalid value: "map[spec:map[replicas:three]]": ` + detail},
		{"merge", MergePatch, ` "" is invalid: patch: Invalid value: "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.must(t, &Request{Verb: Create, Kind: api.KindDeployment, Actor: user, Object: deployment("web", 1)})
			resp := f.do(&Request{Verb: Patch, Kind: api.KindDeployment, Namespace: "default", Name: "web", Actor: user, PatchType: tc.typ,
				Patch: []byte(`{"spec":{"replicas":"three"}}`)})
			var se *apierr.StatusError
			if !errors.As(resp.Err, &se) || se.Code != 422 || se.Reason != apierr.Invalid || len(se.Causes) != 1 || se.Causes[0].Field != "patch" {
				t.Fatalf("err = %#v, want a 422 Invalid of the field patch", resp.Err)
			}
			if !strings.HasPrefix(se.Message, tc.want) || !strings.HasSuffix(se.Message, detail) {
				t.Errorf("message %q, want it to start %q and end %q", se.Message, tc.want, detail)
			}
		})
	}
}
