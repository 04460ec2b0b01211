package apiserver

import (
	"errors"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// TestStrategicPatchStatus: a strategic merge patch the merge refuses is
// answered as upstream's patch handler answers it
// (interpretStrategicMergePatchError): a malformed directive list is a
// 400 with the merge's text, a list of lists the generic 422 (a typed
// object cannot hold one: strategicpatch's TestStatusCode), and any
// other refusal (an unknown $patch, a merge key missing) the merge's
// error itself, which kube-apiserver's error handling makes a 500 with no
// reason. The server merged with a second implementation of its own,
// which took an unknown $patch as nothing and answered 200.
func TestStrategicPatchStatus(t *testing.T) {
	f := newFixture(t)
	f.must(t, &Request{Verb: Create, Kind: api.KindConfigMap, Actor: controller, Namespace: "default",
		Object: &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "c", Namespace: "default", Finalizers: []string{"x/y"}}, Data: map[string]string{"a": "b"}}})
	for _, tc := range []struct {
		name, patch string
		code        int
		reason      apierr.Reason
		msg         string
	}{
		{"unknown $patch", `{"data":{"$patch":"frob"}}`, 500, "", "unknown patch type: frob in map: map[$patch:frob]"},
		{"$retainKeys not a list", `{"data":{"$retainKeys":"a"}}`, 400, apierr.BadRequest, "invalid patch format of retainKeys"},
		{"a merge", `{"data":{"a":"c"}}`, 0, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := f.do(&Request{Verb: Patch, Kind: api.KindConfigMap, Actor: controller, Namespace: "default", Name: "c", PatchType: StrategicMergePatch, Patch: []byte(tc.patch)})
			if tc.code == 0 {
				if resp.Err != nil {
					t.Fatalf("error %v, want the patch applied", resp.Err)
				}
				if got := resp.Object.(*api.ConfigMap).Data["a"]; got != "c" {
					t.Errorf("data.a = %q, want c", got)
				}
				return
			}
			var se *apierr.StatusError
			if !errors.As(resp.Err, &se) {
				t.Fatalf("error %v, want a status error", resp.Err)
			}
			if se.Code != tc.code || se.Reason != tc.reason || se.Message != tc.msg || len(se.Causes) != 0 {
				t.Errorf("got %d %q %q (causes %v), want %d %q %q", se.Code, se.Reason, se.Message, se.Causes, tc.code, tc.reason, tc.msg)
			}
		})
	}
}
