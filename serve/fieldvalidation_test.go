package serve

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/cluster"
)

// stepLoop is a Loop for tests: Post runs fn at once, then runs the
// simulation far enough (virtual time) for the request it sent to be
// answered, so that a handler's call finds its reply waiting.
type stepLoop struct{ c *cluster.Cluster }

func (l *stepLoop) Post(fn func()) bool {
	fn()
	l.c.RunFor(2 * time.Second)
	return true
}

func (l *stepLoop) Done() <-chan struct{} { return nil }

// testServer is a Handler in front of a bare simulated control plane
// (an API server, no controllers), run by a stepLoop.
type testServer struct {
	t *testing.T
	h *Handler
}

func newTestServer(t *testing.T) *testServer {
	t.Helper()
	c, err := cluster.New(cluster.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return &testServer{t: t, h: NewHandler(&stepLoop{c: c}, NewGateway(c, "kubectl"), Options{Token: "t"})}
}

func (ts *testServer) do(method, path, contentType, body string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	r.Header.Set("Authorization", "Bearer t")
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	w := httptest.NewRecorder()
	ts.h.ServeHTTP(w, r)
	return w
}

// must is do, which must answer code.
func (ts *testServer) must(code int, method, path, contentType, body string) *httptest.ResponseRecorder {
	ts.t.Helper()
	w := ts.do(method, path, contentType, body)
	if w.Code != code {
		ts.t.Fatalf("%s %s: %d %s; want %d", method, path, w.Code, w.Body, code)
	}
	return w
}

const widgetsCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"widgets.example.com"},
"spec":{"group":"example.com","names":{"plural":"widgets","singular":"widget","kind":"Widget"},"scope":"Namespaced",
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{
"spec":{"type":"object","properties":{"size":{"type":"integer"},"parts":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"}}}}}}}}}}]}}`

func deploymentJSON(name string, spec string) string {
	return `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"` + name + `","namespace":"default"},"spec":{` + spec +
		`"replicas":1,"selector":{"matchLabels":{"app":"` + name + `"}},"template":{"metadata":{"labels":{"app":"` + name + `"}},` +
		`"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}`
}

func widgetJSON(name string, spec string) string {
	return `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"` + name + `","namespace":"default"},"spec":{` + spec + `"size":1}}`
}

// withFoo is the object at path, read back, with spec.foo set: an
// update's body that keeps the resourceVersion.
func (ts *testServer) withFoo(path string) string {
	ts.t.Helper()
	var m map[string]any
	if err := json.Unmarshal(ts.must(200, "GET", path, "", "").Body.Bytes(), &m); err != nil {
		ts.t.Fatal(err)
	}
	m["spec"].(map[string]any)["foo"] = 1
	b, _ := json.Marshal(m)
	return string(b)
}

// hasFoo reports whether the stored object at path has spec.foo.
func (ts *testServer) hasFoo(path string) bool {
	ts.t.Helper()
	var m struct {
		Spec map[string]any `json:"spec"`
	}
	if err := json.Unmarshal(ts.must(200, "GET", path, "", "").Body.Bytes(), &m); err != nil {
		ts.t.Fatal(err)
	}
	_, ok := m.Spec["foo"]
	return ok
}

// TestFieldValidation holds each fieldValidation directive (none, which
// is Warn, Ignore, Warn, Strict) on each write that decodes a body
// (create, update, merge, strategic merge and JSON patch) of a built-in
// kind (Deployment) and a custom one (a Widget, whose schema does not
// declare spec.foo) to kube-apiserver's answer: under Strict the
// request is refused (create and update a 400, transformDecodeError's
// message; a patch a 422 Invalid of "patch"); under Warn it succeeds,
// spec.foo dropped, with `Warning: 299 - "unknown field \"spec.foo\""`;
// under Ignore it succeeds, spec.foo dropped, without a warning.
func TestFieldValidation(t *testing.T) {
	ts := newTestServer(t)
	ts.must(201, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", "application/json", widgetsCRD)

	kinds := []struct {
		name, collection, kind string
		object                 func(name, spec string) string
	}{
		{"deployment", "/apis/apps/v1/namespaces/default/deployments", "Deployment", deploymentJSON},
		{"widget", "/apis/example.com/v1/namespaces/default/widgets", "Widget", widgetJSON},
	}
	ops := []struct {
		name, method, contentType, patch string
	}{
		{"create", "POST", "application/json", ""},
		{"update", "PUT", "application/json", ""},
		{"merge", "PATCH", "application/merge-patch+json", `{"spec":{"foo":1}}`},
		{"strategic", "PATCH", "application/strategic-merge-patch+json", `{"spec":{"foo":1}}`},
		{"json", "PATCH", "application/json-patch+json", `[{"op":"add","path":"/spec/foo","value":1}]`},
	}
	const warning = `299 - "unknown field \"spec.foo\""`
	n := 0
	for _, k := range kinds {
		for _, op := range ops {
			for _, directive := range []string{"", "Ignore", "Warn", "Strict"} {
				n++
				name := fmt.Sprintf("%s-%d", k.name, n)
				t.Run(fmt.Sprintf("%s/%s/%s", k.name, op.name, directive), func(t *testing.T) {
					query := ""
					if directive != "" {
						query = "?fieldValidation=" + directive
					}
					item := k.collection + "/" + name
					if k.name == "widget" && op.name == "strategic" {
						// A custom resource takes no strategic merge patch,
						// whatever the directive.
						ts.must(201, "POST", k.collection, "application/json", k.object(name, ""))
						if w := ts.do("PATCH", item+query, op.contentType, op.patch); w.Code != 415 {
							t.Errorf("%d %s; want 415", w.Code, w.Body)
						}
						return
					}
					var w *httptest.ResponseRecorder
					switch op.method {
					case "POST":
						w = ts.do("POST", k.collection+query, op.contentType, k.object(name, `"foo":1,`))
					case "PUT":
						ts.must(201, "POST", k.collection, "application/json", k.object(name, ""))
						w = ts.do("PUT", item+query, op.contentType, ts.withFoo(item))
					default:
						ts.must(201, "POST", k.collection, "application/json", k.object(name, ""))
						w = ts.do("PATCH", item+query, op.contentType, op.patch)
					}
					if directive == "Strict" {
						var st struct {
							Code    int    `json:"code"`
							Message string `json:"message"`
						}
						if err := json.Unmarshal(w.Body.Bytes(), &st); err != nil {
							t.Fatalf("%d %s: %v", w.Code, w.Body, err)
						}
						switch {
						case op.method != "PATCH":
							want := k.kind + ` in version "v1" cannot be handled as a ` + k.kind + `: strict decoding error: unknown field "spec.foo"`
							if w.Code != 400 || st.Code != 400 || st.Message != want {
								t.Errorf("%d %q; want 400 %q", w.Code, st.Message, want)
							}
						case op.name == "strategic":
							// NewInvalid of no kind and no name: upstream's message
							// starts with a space too.
							want := ` "" is invalid: patch: Invalid value: "map[spec:map[foo:1]]": strict decoding error: unknown field "spec.foo"`
							if w.Code != 422 || st.Message != want {
								t.Errorf("%d %q; want 422 %q", w.Code, st.Message, want)
							}
						default:
							// The value quoted is the patched object, as the patch made it.
							if w.Code != 422 || !strings.HasPrefix(st.Message, ` "" is invalid: patch: Invalid value: "{`) ||
								!strings.Contains(st.Message, `\"foo\":1`) || !strings.HasSuffix(st.Message, `": strict decoding error: unknown field "spec.foo"`) {
								t.Errorf("%d %q; want the 422 Invalid of the patched object", w.Code, st.Message)
							}
						}
						if got := w.Header().Values("Warning"); len(got) > 0 {
							t.Errorf("a refusal warns %q", got)
						}
						return
					}
					if w.Code != 200 && w.Code != 201 {
						t.Fatalf("%d %s; want success", w.Code, w.Body)
					}
					got := w.Header().Values("Warning")
					if directive == "Ignore" && len(got) > 0 {
						t.Errorf("Ignore warns %q", got)
					}
					if directive != "Ignore" && (len(got) != 1 || got[0] != warning) {
						t.Errorf("warnings %q; want [%s]", got, warning)
					}
					if ts.hasFoo(item) {
						t.Errorf("the stored object keeps spec.foo")
					}
				})
			}
		}
	}
}

// TestFieldValidationDetails holds the details of the strict decoding
// errors: every error named, in document order (sigs.k8s.io/json's),
// list items as [i], duplicate keys among them (the last one kept under
// Warn and Ignore), a JSON patch's own unknown keys as "json patch ...",
// a custom resource's pruned fields sorted; a value of the wrong type
// refused whatever the directive; an invalid directive refused as
// ValidateCreateOptions refuses it.
func TestFieldValidationDetails(t *testing.T) {
	ts := newTestServer(t)
	ts.must(201, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", "application/json", widgetsCRD)
	const deployments = "/apis/apps/v1/namespaces/default/deployments"
	const widgets = "/apis/example.com/v1/namespaces/default/widgets"
	message := func(w *httptest.ResponseRecorder) string {
		var st struct {
			Message string `json:"message"`
		}
		json.Unmarshal(w.Body.Bytes(), &st)
		return st.Message
	}
	body := `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d1","namespace":"default","bogus":true},"spec":{"replicas":1,"zeta":1,"replicas":2,` +
		`"selector":{"matchLabels":{"app":"d"}},"template":{"metadata":{"labels":{"app":"d"}},"spec":{"containers":[{"name":"c","image":"nginx","imagePullPolcy":"Always"}]}}}}`
	w := ts.do("POST", deployments+"?fieldValidation=Strict", "application/json", body)
	want := `Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "metadata.bogus", unknown field "spec.zeta", ` +
		`duplicate field "spec.replicas", unknown field "spec.template.spec.containers[0].imagePullPolcy"`
	if w.Code != 400 || message(w) != want {
		t.Errorf("Strict create: %d %q\nwant 400 %q", w.Code, message(w), want)
	}
	w = ts.must(201, "POST", deployments, "application/json", body)
	if got := w.Header().Values("Warning"); strings.Join(got, "|") != `299 - "unknown field \"metadata.bogus\""|299 - "unknown field \"spec.zeta\""|`+
		`299 - "duplicate field \"spec.replicas\""|299 - "unknown field \"spec.template.spec.containers[0].imagePullPolcy\""` {
		t.Errorf("Warn create: warnings %q", got)
	}
	var d struct {
		Spec struct {
			Replicas int `json:"replicas"`
		} `json:"spec"`
	}
	json.Unmarshal(w.Body.Bytes(), &d)
	if d.Spec.Replicas != 2 {
		t.Errorf("Warn create: replicas %d; want the last of the duplicates, 2", d.Spec.Replicas)
	}

	// YAML bodies are decoded as JSON ones.
	yamlBody := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c1, namespace: default}\ndata: {a: b}\nextra: 1\n"
	if w = ts.do("POST", "/api/v1/namespaces/default/configmaps?fieldValidation=Strict", "application/yaml", yamlBody); w.Code != 400 ||
		message(w) != `ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "extra"` {
		t.Errorf("Strict YAML create: %d %q", w.Code, message(w))
	}
	if w = ts.do("POST", "/api/v1/namespaces/default/configmaps?fieldValidation=Ignore", "application/yaml", yamlBody); w.Code != 201 || len(w.Header().Values("Warning")) > 0 {
		t.Errorf("Ignore YAML create: %d %s %q", w.Code, w.Body, w.Header().Values("Warning"))
	}

	// A value of the wrong type trumps the strict errors, whatever the directive.
	bad := strings.Replace(deploymentJSON("d2", `"foo":1,`), `"replicas":1`, `"replicas":"one"`, 1)
	for _, directive := range []string{"Ignore", "Warn", "Strict"} {
		w = ts.do("POST", deployments+"?fieldValidation="+directive, "application/json", bad)
		if w.Code != 400 || !strings.Contains(message(w), "cannot unmarshal string into Go struct field") {
			t.Errorf("%s create of a bad replicas: %d %q; want the type error", directive, w.Code, message(w))
		}
	}

	// A JSON patch's operations are decoded strictly too.
	w = ts.do("PATCH", deployments+"/d1?fieldValidation=Strict", "application/json-patch+json", `[{"op":"replace","path":"/spec/replicas","value":3,"vaule":4}]`)
	if w.Code != 422 || !strings.HasSuffix(message(w), `": strict decoding error: json patch unknown field "[0].vaule"`) {
		t.Errorf("Strict JSON patch with an unknown key: %d %q", w.Code, message(w))
	}
	w = ts.must(200, "PATCH", deployments+"/d1", "application/json-patch+json", `[{"op":"replace","path":"/spec/replicas","value":3,"vaule":4}]`)
	if got := w.Header().Values("Warning"); len(got) != 1 || got[0] != `299 - "json patch unknown field \"[0].vaule\""` {
		t.Errorf("Warn JSON patch with an unknown key: warnings %q", got)
	}
	// A merge patch's duplicate keys.
	w = ts.do("PATCH", deployments+"/d1?fieldValidation=Strict", "application/merge-patch+json", `{"spec":{"replicas":4,"replicas":5}}`)
	if w.Code != 422 || !strings.HasSuffix(message(w), `": strict decoding error: duplicate field "spec.replicas"`) {
		t.Errorf("Strict merge patch with a duplicate key: %d %q", w.Code, message(w))
	}

	// A custom resource's pruned fields, sorted, nested ones named by
	// their paths.
	cr := `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1","namespace":"default"},"spec":{"size":1,"zz":1,"parts":[{"name":"a","colour":"red"}],"aa":2},"top":true}`
	w = ts.do("POST", widgets+"?fieldValidation=Strict", "application/json", cr)
	want = `Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.aa", unknown field "spec.parts[0].colour", unknown field "spec.zz", unknown field "top"`
	if w.Code != 400 || message(w) != want {
		t.Errorf("Strict custom create: %d %q\nwant %q", w.Code, message(w), want)
	}
	w = ts.must(201, "POST", widgets, "application/json", cr)
	if got := w.Header().Values("Warning"); len(got) != 4 || got[1] != `299 - "unknown field \"spec.parts[0].colour\""` {
		t.Errorf("Warn custom create: warnings %q", got)
	}
	if strings.Contains(w.Body.String(), "colour") || strings.Contains(w.Body.String(), `"top"`) {
		t.Errorf("Warn custom create kept a pruned field: %s", w.Body)
	}

	// An invalid directive.
	for method, kind := range map[string]string{"POST": "CreateOptions", "PUT": "UpdateOptions", "PATCH": "PatchOptions"} {
		path, ct := deployments+"?fieldValidation=Sometimes", "application/json"
		if method != "POST" {
			path = deployments + "/d1?fieldValidation=Sometimes"
		}
		if method == "PATCH" {
			ct = "application/merge-patch+json"
		}
		w = ts.do(method, path, ct, `{}`)
		want := kind + `.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Sometimes": supported values: "", "Ignore", "Strict", "Warn"`
		if w.Code != 422 || message(w) != want {
			t.Errorf("%s with fieldValidation=Sometimes: %d %q; want 422 %q", method, w.Code, message(w), want)
		}
	}
}
