package apiserver

import (
	"errors"
	"strings"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// TestPatchKeepsNameAndNamespace: a patch that would change the object's
// name or namespace is refused with upstream's messages (handlers/patch.go
// checkName); kubectl patch --type merge -p '{"metadata":{"name":"other"}}'
// was answered "patched (no change)".
func TestPatchKeepsNameAndNamespace(t *testing.T) {
	f := newFixture(t)
	f.must(t, &Request{Verb: Create, Kind: api.KindConfigMap, Actor: controller, Namespace: "default",
		Object: &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "c", Namespace: "default"}, Data: map[string]string{"a": "b"}}})
	for _, tc := range []struct {
		name  string
		typ   PatchType
		patch string
		want  string
	}{
		{"merge: name", MergePatch, `{"metadata":{"name":"other"}}`, "the name of the object (other) does not match the name on the URL (c)"},
		{"strategic: namespace", StrategicMergePatch, `{"metadata":{"namespace":"kube-system"}}`, "the namespace of the object (kube-system) does not match the namespace on the URL (default)"},
		{"json: name", JSONPatch, `[{"op":"replace","path":"/metadata/name","value":"x"}]`, "the name of the object (x) does not match the name on the URL (c)"},
		{"merge: data", MergePatch, `{"data":{"a":"c"}}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := f.do(&Request{Verb: Patch, Kind: api.KindConfigMap, Actor: controller, Namespace: "default", Name: "c", PatchType: tc.typ, Patch: []byte(tc.patch)})
			got := ""
			if resp.Err != nil {
				got = resp.Err.Error()
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestJSONPatchStatus: a JSON patch that does not decode is a 400, one of
// too many operations a 413, and one whose operation does not apply (a
// failed test, a missing path, copies past the bound) kube-apiserver's
// generic 422, which does not name the operation (handlers/patch.go,
// applyJSPatch: NewGenericServerResponse). clustersim answered the last
// with a 400 naming it.
func TestJSONPatchStatus(t *testing.T) {
	f := newFixture(t)
	f.must(t, &Request{Verb: Create, Kind: api.KindConfigMap, Actor: controller, Namespace: "default",
		Object: &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "c", Namespace: "default"}, Data: map[string]string{"a": "b"}}})
	const rejected = "the server rejected our request due to an error in our request"
	for _, tc := range []struct {
		name, patch string
		code        int
		reason      apierr.Reason
		msg         string
	}{
		{"failed test", `[{"op":"test","path":"/data/a","value":"x"}]`, 422, apierr.Invalid, rejected},
		{"remove of a missing key", `[{"op":"remove","path":"/data/nope"}]`, 422, apierr.Invalid, rejected},
		{"unknown operation", `[{"op":"frob","path":"/data/a"}]`, 422, apierr.Invalid, rejected},
		{"copies past 3 MiB", copyBomb(40), 422, apierr.Invalid, rejected},
		{"an op that is not a string", `[{"op":1,"path":"/data/a"}]`, 422, apierr.Invalid, rejected},
		// What does not decode is jsonpatch.DecodePatch's error, which
		// names the library's types.
		{"not a list", `{"op":"add"}`, 400, apierr.BadRequest, "json: cannot unmarshal object into Go value of type jsonpatch.Patch"},
		{"not an object", `[{"op":"test","path":"/data/a","value":"b"},7]`, 400, apierr.BadRequest, "json: cannot unmarshal number into Go value of type jsonpatch.Operation"},
		{"not JSON", `[{"op":`, 400, apierr.BadRequest, "unexpected end of JSON input"},
		{"too many operations", "[" + strings.Repeat(`{"op":"test","path":"/data/a","value":"b"},`, 10000) + `{"op":"test","path":"/data/a","value":"b"}]`,
			413, apierr.RequestEntityTooLarge, "Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := f.do(&Request{Verb: Patch, Kind: api.KindConfigMap, Actor: controller, Namespace: "default", Name: "c", PatchType: JSONPatch, Patch: []byte(tc.patch)})
			var se *apierr.StatusError
			if !errors.As(resp.Err, &se) {
				t.Fatalf("error %v, want a status error", resp.Err)
			}
			if se.Code != tc.code || se.Reason != tc.reason || se.Message != tc.msg || len(se.Causes) != 0 || se.Kind != "" || se.Name != "" {
				t.Errorf("got %d %s %q (causes %v, kind %q, name %q), want %d %s %q and nothing else", se.Code, se.Reason, se.Message, se.Causes, se.Kind, se.Name, tc.code, tc.reason, tc.msg)
			}
		})
	}
}

// TestPatchKeepsKind: a patch that changes the object's apiVersion or
// kind is a 422 of the field "patch", as upstream's patchers answer a
// patched object their codec cannot decode into the resource's type; one
// that removes them keeps the object's (decoded with the resource's
// defaults). A JSON patch replacing /apiVersion with "v1" was stored: the
// Deployment, kept as "v1", then failed every later patch ("no kind
// \"Deployment\" is registered for version \"v1\"").
func TestPatchKeepsKind(t *testing.T) {
	f := newFixture(t)
	f.must(t, &Request{Verb: Create, Kind: api.KindConfigMap, Actor: controller, Namespace: "default",
		Object: &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "c", Namespace: "default"}, Data: map[string]string{"a": "b"}}})
	for _, tc := range []struct {
		name  string
		typ   PatchType
		patch string
		want  string // a substring of the 422's message; "" for success
	}{
		{"json: apiVersion", JSONPatch, `[{"op":"replace","path":"/apiVersion","value":"apps/v1"}]`, `no kind "ConfigMap" is registered for version "apps/v1"`},
		{"json: kind", JSONPatch, `[{"op":"replace","path":"/kind","value":"Secret"}]`, `the kind of the object (v1, Kind=Secret) is not the resource's (v1, Kind=ConfigMap)`},
		{"merge: kind", MergePatch, `{"kind":"Pod"}`, `the kind of the object (v1, Kind=Pod) is not the resource's (v1, Kind=ConfigMap)`},
		{"strategic: apiVersion", StrategicMergePatch, `{"apiVersion":"v2"}`, `no kind "ConfigMap" is registered for version "v2"`},
		{"json: remove kind", JSONPatch, `[{"op":"remove","path":"/kind"},{"op":"remove","path":"/apiVersion"}]`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := f.do(&Request{Verb: Patch, Kind: api.KindConfigMap, Actor: controller, Namespace: "default", Name: "c", PatchType: tc.typ, Patch: []byte(tc.patch)})
			var se *apierr.StatusError
			switch {
			case tc.want == "" && resp.Err != nil:
				t.Errorf("got %v, want success", resp.Err)
			case tc.want != "" && (!errors.As(resp.Err, &se) || se.Code != 422 || !strings.Contains(se.Message, tc.want)):
				t.Errorf("got %v, want a 422 holding %q", resp.Err, tc.want)
			}
			got := f.must(t, &Request{Verb: Get, Kind: api.KindConfigMap, Actor: controller, Namespace: "default", Name: "c"})
			if tm := got.GetTypeMeta(); tm.APIVersion != "v1" || tm.Kind != "ConfigMap" {
				t.Errorf("stored as %s %s; want v1 ConfigMap", tm.APIVersion, tm.Kind)
			}
		})
	}
}
