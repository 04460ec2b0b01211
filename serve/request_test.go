package serve

import (
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/apiserver"
)

// TestUnsimulated holds the refusals of what the simulation has nothing
// behind (kubectl logs, exec, attach, port-forward, debug, auth can-i) to a 400
// that says so, where a 404 would suggest a wrong path or a missing
// object; other kinds' unknown subresources stay 404.
func TestUnsimulated(t *testing.T) {
	h := NewHandler(nil, nil, Options{Token: "t"})
	for _, tc := range []struct {
		method, path string
		code         int
		msg          string
	}{
		{"GET", "/api/v1/namespaces/default/pods/web-1/log?container=nginx&follow=true", 400, "clustersim serve does not simulate container logs: the simulated containers write none"},
		{"POST", "/api/v1/namespaces/default/pods/web-1/exec?command=ls&stdout=true", 400, "clustersim serve does not simulate exec: "},
		{"GET", "/api/v1/namespaces/default/pods/web-1/exec?command=ls&stdout=true", 400, "clustersim serve does not simulate exec: "},
		{"POST", "/api/v1/namespaces/default/pods/web-1/attach?stdin=true", 400, "clustersim serve does not simulate attach: "},
		{"POST", "/api/v1/namespaces/default/pods/web-1/portforward", 400, "clustersim serve does not simulate port forwarding: "},
		{"PATCH", "/api/v1/namespaces/default/pods/web-1/ephemeralcontainers", 400, "clustersim serve does not simulate ephemeral containers (kubectl debug): "},
		{"GET", "/api/v1/namespaces/default/pods/web-1/ephemeralcontainers", 400, "clustersim serve does not simulate ephemeral containers (kubectl debug): "},
		{"GET", "/api/v1/namespaces/default/pods/web-1/proxy", 404, "the server could not find the requested resource"},
		{"GET", "/apis/apps/v1/namespaces/default/deployments/web/log", 404, "the server could not find the requested resource"},
		{"GET", "/api/v1/pods/web-1/log", 404, "the server could not find the requested resource"},
	} {
		u := httptest.NewRequest(tc.method, tc.path, nil)
		tg, ok := parsePath(u.URL.Path)
		if !ok {
			t.Fatalf("%s: parsePath failed", tc.path)
		}
		info, err := resolve(api.NewRegistry(), tg)
		if err == nil {
			_, _, _, err = h.request(u, tg, info, nil)
		}
		var se *apierr.StatusError
		if !errors.As(err, &se) || se.Code != tc.code || !strings.HasPrefix(se.Message, tc.msg) {
			t.Errorf("%s %s: %v; want %d %q", tc.method, tc.path, err, tc.code, tc.msg)
		}
	}
	// client-go's typed clientset sends protobuf bodies by default: a
	// create and a delete's DeleteOptions (whose preconditions would
	// otherwise be dropped) are refused with what to set instead.
	for _, method := range []string{"POST", "PUT", "DELETE"} {
		path := "/api/v1/namespaces/default/configmaps"
		if method != "POST" {
			path += "/c"
		}
		u := httptest.NewRequest(method, path, nil)
		u.Header.Set("Content-Type", "application/vnd.kubernetes.protobuf")
		tg, _ := parsePath(u.URL.Path)
		info, err := resolve(api.NewRegistry(), tg)
		if err != nil {
			t.Fatal(err)
		}
		_, _, _, err = h.request(u, tg, info, []byte("k8s\x00\x0a\x0f\x0a\x02v1\x12\x0dDeleteOptions"))
		var se *apierr.StatusError
		if !errors.As(err, &se) || se.Code != 415 || !strings.Contains(se.Message, `rest.Config sets ContentType: "application/json"`) {
			t.Errorf("%s %s with a protobuf body: %v; want the 415 that names rest.Config.ContentType", method, path, err)
		}
	}
	for _, path := range []string{
		"/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
		"/apis/authorization.k8s.io/v1/selfsubjectrulesreviews",
		"/apis/authorization.k8s.io/v1/namespaces/default/localsubjectaccessreviews",
	} {
		// kubectl auth can-i sends protobuf: refused before the body is read.
		r := httptest.NewRequest("POST", path, strings.NewReader("\x6b\x38\x73\x00"))
		r.Header.Set("Authorization", "Bearer t")
		r.Header.Set("Content-Type", "application/vnd.kubernetes.protobuf")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != 400 || !strings.Contains(w.Body.String(), `"message":"clustersim serve does not simulate access reviews (kubectl auth can-i)`) {
			t.Errorf("POST %s: %d %s; want the 400 refusal", path, w.Code, w.Body)
		}
	}
}

// TestScaleStatefulSet: kubectl scale statefulset sends a merge patch of
// the scale subresource, made a merge patch of the StatefulSet's
// spec.replicas; a GET answers the StatefulSet's Scale.
func TestScaleStatefulSet(t *testing.T) {
	h := NewHandler(nil, nil, Options{Token: "t"})
	u := httptest.NewRequest("PATCH", "/apis/apps/v1/namespaces/default/statefulsets/web/scale", nil)
	u.Header.Set("Content-Type", "application/merge-patch+json")
	tg, _ := parsePath(u.URL.Path)
	info, err := resolve(api.NewRegistry(), tg)
	if err != nil {
		t.Fatal(err)
	}
	req, post, _, err := h.request(u, tg, info, []byte(`{"spec":{"replicas":2}}`))
	if err != nil {
		t.Fatal(err)
	}
	if req.Verb != apiserver.Patch || req.Kind != api.KindStatefulSet || req.Name != "web" || string(req.Patch) != `{"spec":{"replicas":2}}` {
		t.Errorf("request = %+v; want a merge patch of StatefulSet web's spec.replicas", req)
	}
	three := int32(3)
	sts := &api.StatefulSet{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec:   api.StatefulSetSpec{Replicas: &three, Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}},
		Status: api.StatefulSetStatus{Replicas: 2}}
	sc := post(&apiserver.Response{Object: sts}).(map[string]any)
	if sc["spec"].(map[string]any)["replicas"] != int32(3) || sc["status"].(map[string]any)["replicas"] != int32(2) || sc["status"].(map[string]any)["selector"] != "app=web" {
		t.Errorf("scale = %v; want spec.replicas 3, status.replicas 2, selector app=web", sc)
	}
}

// TestDecodeError holds a body that does not decode to the API server's
// transformDecodeError wording: the kind and version it claims, the kind
// it was decoded as, and encoding/json's type error (the real decoder is
// a fork of it) or the strict decoder's unknown field with its path.
func TestDecodeError(t *testing.T) {
	for _, tc := range []struct {
		kind api.Kind
		body string
		want string
	}{
		{api.KindDeployment, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":"three"}}`,
			`Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32`},
		{api.KindPod, `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{"app":true}}}`,
			`Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.labels of type string`},
		{api.KindDeployment, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"template":{"spec":{"containers":[{"name":"c","imagePullPolcy":"Always"}]}}}}`,
			`Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.template.spec.containers[0].imagePullPolcy"`},
		{api.KindConfigMap, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"colour":"red"}`,
			`ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "colour"`},
		// Unknown field and wrong type: the type error wins, as upstream's
		// non-strict errors trump strict ones.
		{api.KindDeployment, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","colour":"red"},"spec":{"replicas":"three"}}`,
			`Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32`},
	} {
		info, _ := api.Lookup(tc.kind)
		_, err := decodeObject(api.NewRegistry(), info, []byte(tc.body))
		var se *apierr.StatusError
		if !errors.As(err, &se) || se.Code != 400 || se.Message != tc.want {
			t.Errorf("decodeObject(%s) = %v;\nwant 400 %s", tc.body, err, tc.want)
		}
	}
}

// TestDryRunRefused: a server-side dry run is refused with the documented
// 400 wherever kubectl puts it: in the query (create, patch, apply), in a
// DELETE's DeleteOptions (kubectl delete --dry-run=server) and in an
// Eviction's (kubectl drain --dry-run=server). Those two were carried out
// as real deletes and evictions.
func TestDryRunRefused(t *testing.T) {
	h := NewHandler(nil, nil, Options{Token: "t"})
	for _, tc := range []struct {
		name, method, path, body string
		refused                  bool
	}{
		{"query", "PATCH", "/api/v1/namespaces/default/configmaps/c?dryRun=All", `{}`, true},
		{"delete options", "DELETE", "/api/v1/namespaces/default/configmaps/c", `{"kind":"DeleteOptions","apiVersion":"v1","dryRun":["All"]}`, true},
		{"eviction", "POST", "/api/v1/namespaces/default/pods/web-1/eviction", `{"kind":"Eviction","apiVersion":"policy/v1","metadata":{"name":"web-1"},"deleteOptions":{"dryRun":["All"]}}`, true},
		{"a plain delete", "DELETE", "/api/v1/namespaces/default/configmaps/c", `{"kind":"DeleteOptions","apiVersion":"v1","propagationPolicy":"Background"}`, false},
		{"a plain eviction", "POST", "/api/v1/namespaces/default/pods/web-1/eviction", `{"kind":"Eviction","apiVersion":"policy/v1","metadata":{"name":"web-1"}}`, false},
		{"an empty dry run list", "DELETE", "/api/v1/namespaces/default/configmaps/c", `{"dryRun":[]}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := httptest.NewRequest(tc.method, tc.path, strings.NewReader(tc.body))
			u.Header.Set("Content-Type", "application/json")
			tg, ok := parsePath(u.URL.Path)
			if !ok {
				t.Fatalf("%s: parsePath failed", tc.path)
			}
			info, err := resolve(api.NewRegistry(), tg)
			if err != nil {
				t.Fatal(err)
			}
			if tc.method == "PATCH" {
				u.Header.Set("Content-Type", "application/merge-patch+json")
			}
			_, _, _, err = h.request(u, tg, info, []byte(tc.body))
			var se *apierr.StatusError
			refused := errors.As(err, &se) && se.Code == 400 && strings.HasPrefix(se.Message, "dryRun is not supported by clustersim serve")
			if refused != tc.refused {
				t.Errorf("%s %s %s: %v; want refused %v", tc.method, tc.path, tc.body, err, tc.refused)
			}
		})
	}
}

// TestSelfSubjectReview: kubectl auth whoami's SelfSubjectReview (sent as
// protobuf) is answered 201 with the gateway's user, in the group every
// authenticated user is in; other versions, names and methods are not
// served. kubectl said "the selfsubjectreviews API is not enabled in the
// cluster".
func TestSelfSubjectReview(t *testing.T) {
	h := NewHandler(nil, &Gateway{actor: "kubectl"}, Options{Token: "t"})
	for _, tc := range []struct {
		method, path string
		code         int
		body         string
	}{
		{"POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews", 201, `"status":{"userInfo":{"groups":["system:authenticated"],"username":"kubectl"}}`},
		{"GET", "/apis/authentication.k8s.io/v1/selfsubjectreviews", 405, `"reason":"MethodNotAllowed"`},
		{"POST", "/apis/authentication.k8s.io/v1beta1/selfsubjectreviews", 404, `"reason":"NotFound"`},
		{"POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews/x", 404, `"reason":"NotFound"`},
	} {
		r := httptest.NewRequest(tc.method, tc.path, strings.NewReader("\x6b\x38\x73\x00"))
		r.Header.Set("Authorization", "Bearer t")
		r.Header.Set("Content-Type", "application/vnd.kubernetes.protobuf")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != tc.code || !strings.Contains(w.Body.String(), tc.body) {
			t.Errorf("%s %s: %d %s; want %d and %s", tc.method, tc.path, w.Code, w.Body, tc.code, tc.body)
		}
	}
}

// TestCheckKind: a body of another kind in the resource's group and
// version (a StatefulSet sent to deployments) is refused naming the
// kinds, as the API server's decoder does (transformDecodeError); serve
// said "the API version in the data (apps/v1) does not match the
// expected API version (apps/v1)". A body in another group keeps the
// API version refusal.
func TestCheckKind(t *testing.T) {
	reg := api.NewRegistry()
	info, err := resolve(reg, target{group: "apps", version: "v1", resource: "deployments"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		obj api.Object
		msg string
	}{
		{&api.StatefulSet{TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "StatefulSet"}}, `StatefulSet in version "v1" cannot be handled as a Deployment: the body's kind is StatefulSet, not the resource's kind Deployment`},
		{&api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}}, "the API version in the data (v1) does not match the expected API version (apps/v1)"},
	} {
		_, err := checkKind(tc.obj, info)
		var se *apierr.StatusError
		if !errors.As(err, &se) || se.Code != 400 || se.Message != tc.msg {
			t.Errorf("%T: %v; want 400 %q", tc.obj, err, tc.msg)
		}
	}
}
