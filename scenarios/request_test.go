package scenarios

import (
	"strings"
	"testing"
	"time"
)

func TestRequestStep(t *testing.T) {
	head := "apiVersion: clustersim.dev/v1alpha1\nkind: Scenario\nmetadata: {name: r}\nspec:\n  duration: 1m\n  timeline:\n  - at: 1s\n    as: kubectl\n    request: "
	for _, tc := range []struct {
		name, step, err string
	}{
		{"patch", `{verb: patch, apiVersion: apps/v1, kind: Deployment, namespace: default, name: web, patchType: strategic, patch: '{"spec":{"replicas":2}}'}`, ""},
		{"create", `{verb: create, apiVersion: v1, kind: ConfigMap, namespace: default, object: {apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {a: b}}}`, ""},
		{"delete", `{verb: delete, apiVersion: v1, kind: Pod, namespace: default, name: p, propagation: Background}`, ""},
		{"eviction", `{verb: create, apiVersion: v1, kind: Pod, namespace: default, name: p, subresource: eviction, object: {apiVersion: policy/v1, kind: Eviction, metadata: {name: p, namespace: default}}}`, ""},
		{"eviction of a Deployment", `{verb: create, apiVersion: apps/v1, kind: Deployment, name: p, subresource: eviction, object: {apiVersion: policy/v1, kind: Eviction, metadata: {name: p}}}`, `spec.timeline[0].request.subresource: eviction is a create on a Pod`},
		{"unknown verb", `{verb: get, apiVersion: v1, kind: Pod, name: p}`, `spec.timeline[0].request.verb: "get": want one of create, update, patch, apply, delete`},
		{"group mismatch", `{verb: delete, apiVersion: v1, kind: Deployment, name: p}`, `spec.timeline[0].request.apiVersion: v1 does not serve kind Deployment (its group is "apps")`},
		{"version not served", `{verb: delete, apiVersion: apps/v9, kind: Deployment, name: p}`, `r.yaml:9:41: spec.timeline[0].request.apiVersion: apps/v9 is not served: kind Deployment is served at apps/v1`},
		{"an older version served", `{verb: delete, apiVersion: autoscaling/v1, kind: HorizontalPodAutoscaler, name: p}`, ""},
		{"patch type", `{verb: patch, apiVersion: v1, kind: Pod, name: p, patchType: yaml, patch: '{}'}`, `spec.timeline[0].request.patchType: "yaml": want one of merge, strategic, json`},
		{"not JSON", `{verb: patch, apiVersion: v1, kind: Pod, name: p, patchType: merge, patch: '{'}`, `spec.timeline[0].request.patch: not JSON`},
		{"patch with a directive", `{verb: patch, apiVersion: apps/v1, kind: Deployment, name: web, patchType: merge, patch: '{"spec":{"colour":1}}', fieldValidation: Warn}`, ""},
		{"unknown directive", `{verb: patch, apiVersion: apps/v1, kind: Deployment, name: web, patchType: merge, patch: '{}', fieldValidation: Sometimes}`, `spec.timeline[0].request.fieldValidation: "Sometimes": want Ignore, Warn or Strict`},
		{"directive of a create", `{verb: create, apiVersion: v1, kind: ConfigMap, object: {apiVersion: v1, kind: ConfigMap, metadata: {name: c}}, fieldValidation: Warn}`, `spec.timeline[0].request.fieldValidation: a create carries none`},
		{"no object", `{verb: create, apiVersion: v1, kind: Pod}`, `spec.timeline[0].request.object: required for create`},
		{"object of another kind", `{verb: create, apiVersion: v1, kind: Pod, object: {apiVersion: v1, kind: ConfigMap, metadata: {name: c}}}`, `spec.timeline[0].request.object: a ConfigMap, not the request's Pod`},
		{"unknown field in the object", `{verb: create, apiVersion: v1, kind: ConfigMap, object: {apiVersion: v1, kind: ConfigMap, metadata: {name: c}, dta: {}}}`, `dta`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load("r.yaml", "", nil, []byte(head+tc.step+"\n"))
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("error %v, want one containing %q", err, tc.err)
			}
		})
	}
}

// TestRequestDefaults: a request step without a namespace is in the
// default namespace (the body's, for one that carries a namespace), as
// everywhere in a scenario, and its kind is sent as the API names it
// whatever alias the step gives; before, the run sent namespace "" (a
// NotFound, or "the namespace of the provided object is empty") and the
// alias as the kind. A cluster-scoped kind keeps no namespace.
func TestRequestDefaults(t *testing.T) {
	head := "apiVersion: clustersim.dev/v1alpha1\nkind: Scenario\nmetadata: {name: r}\nspec:\n  duration: 1m\n  timeline:\n"
	for _, tc := range []struct{ step, namespace, kind string }{
		{`{verb: delete, apiVersion: apps/v1, kind: deploy, name: web}`, "default", "Deployment"},
		{`{verb: delete, apiVersion: apps/v1, kind: Deployment, namespace: team, name: web}`, "team", "Deployment"},
		{`{verb: create, apiVersion: v1, kind: cm, object: {apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: team}}}`, "team", "ConfigMap"},
		{`{verb: create, apiVersion: v1, kind: Pod, name: p, subresource: eviction, object: {apiVersion: policy/v1, kind: Eviction, metadata: {name: p}}}`, "default", "Pod"},
		{`{verb: delete, apiVersion: v1, kind: nodes, name: n}`, "", "Node"},
	} {
		s, err := Load("r.yaml", "", nil, []byte(head+"  - {at: 1s, request: "+tc.step+"}\n"))
		if err != nil {
			t.Fatalf("%s: %v", tc.step, err)
		}
		if rq := s.Spec.Timeline[0].Request; rq.Namespace != tc.namespace || rq.Kind != tc.kind {
			t.Errorf("%s: namespace %q, kind %q; want %q, %q", tc.step, rq.Namespace, rq.Kind, tc.namespace, tc.kind)
		}
	}
}

func TestWithRecording(t *testing.T) {
	s, err := Builtin("deployment-bad-image")
	if err != nil {
		t.Fatal(err)
	}
	rec := []Recorded{{At: time.Minute + time.Nanosecond, As: "kubectl", Request: Request{Verb: "patch", APIVersion: "apps/v1", Kind: "Deployment",
		Namespace: "default", Name: "nginx-deployment", PatchType: "merge", Patch: `{"spec":{"replicas":2}}`}}}
	for _, tc := range []struct {
		timeline bool
		steps    int
	}{
		{true, 5}, // the four steps up to 2m, then the request
		{false, 1},
	} {
		data, err := s.WithRecording(7, 2*time.Minute, nil, tc.timeline, rec)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), "file:") {
			t.Errorf("timeline %v: a file reference is left:\n%s", tc.timeline, data)
		}
		got, err := Load("recorded.yaml", "", nil, data)
		if err != nil {
			t.Fatalf("timeline %v: the recording does not load: %v\n%s", tc.timeline, err, data)
		}
		last := got.Spec.Timeline[len(got.Spec.Timeline)-1]
		switch {
		case len(got.Spec.Timeline) != tc.steps:
			t.Errorf("timeline %v: %d steps, want %d", tc.timeline, len(got.Spec.Timeline), tc.steps)
		case got.Spec.Duration.Duration != 2*time.Minute || *got.Spec.Seed != 7 || len(got.Spec.Expect) != 0:
			t.Errorf("timeline %v: duration %v, seed %d, %d expectations", tc.timeline, got.Spec.Duration.Duration, *got.Spec.Seed, len(got.Spec.Expect))
		case last.Request == nil || last.At.Duration != rec[0].At || last.As != "kubectl" || last.Request.Patch != rec[0].Request.Patch:
			t.Errorf("timeline %v: last step %+v, want the recorded request", tc.timeline, last)
		case len(got.Objects) != len(s.Objects):
			t.Errorf("timeline %v: %d objects, want %d", tc.timeline, len(got.Objects), len(s.Objects))
		}
	}
}

// TestRecordingDropsDeadUserLinks: a recording that leaves out the
// timeline (serve --timeline=false, or a session stopped before the
// steps) leaves out the users those steps acted as, so a network link of
// such a user (rolling-update's user/admin link) would match no endpoint
// and the file would not load; the recording drops it, and keeps it when
// a kept step acts as that user.
func TestRecordingDropsDeadUserLinks(t *testing.T) {
	s, err := Builtin("rolling-update")
	if err != nil {
		t.Fatal(err)
	}
	rec := []Recorded{{At: 10 * time.Second, As: "kubectl", Request: Request{Verb: "patch", APIVersion: "apps/v1", Kind: "Deployment",
		Namespace: "default", Name: "web", PatchType: "merge", Patch: `{"spec":{"replicas":2}}`}}}
	for _, tc := range []struct {
		name     string
		timeline bool
		end      time.Duration
		links    int
	}{
		{"no timeline", false, 2 * time.Minute, 0},
		{"stopped before the first step", true, 20 * time.Second, 0},
		{"steps kept", true, 2 * time.Minute, 1},
	} {
		data, err := s.WithRecording(7, tc.end, nil, tc.timeline, rec)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Load("recorded.yaml", "", nil, data)
		if err != nil {
			t.Fatalf("%s: the recording does not load: %v\n%s", tc.name, err, data)
		}
		if n := len(got.Spec.Network.Links); n != tc.links {
			t.Errorf("%s: %d links, want %d", tc.name, n, tc.links)
		}
		const said = "left out, as no step of this recording acts as their user: user/admin -> apiserver"
		if strings.Contains(string(data), said) != (tc.links == 0) {
			t.Errorf("%s: the file says %q: %v, want %v", tc.name, said, !(tc.links == 0), tc.links == 0)
		}
	}
}
