package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// get sends a GET of path with the token and returns the response.
func (s *served) get(path string) *http.Response {
	s.t.Helper()
	resp, err := s.client().Do(mustRequest(s.t, http.MethodGet, s.server+path, s.token))
	if err != nil {
		s.t.Fatal(err)
	}
	return resp
}

type watchLine struct {
	Type   string `json:"type"`
	Object struct {
		Kind     string `json:"kind"`
		Code     int    `json:"code"`
		Metadata struct {
			Name            string            `json:"name"`
			ResourceVersion string            `json:"resourceVersion"`
			Annotations     map[string]string `json:"annotations"`
		} `json:"metadata"`
	} `json:"object"`
}

// TestServeWatchList holds serve to the API server's watch list
// (sendInitialEvents=true, which client-go's informers send by default
// since v0.35, their WatchListClient feature): the state as ADDED events,
// then a BOOKMARK annotated k8s.io/initial-events-end at a
// resourceVersion at least the list's; without it an informer never
// syncs. The options are validated as the API server does (422).
func TestServeWatchList(t *testing.T) {
	s := startServeFor(t, "", "node-failure", "--timeline=false", "--speed", "60")
	resp := s.get("/api/v1/pods")
	var list struct {
		Metadata struct {
			ResourceVersion string `json:"resourceVersion"`
		} `json:"metadata"`
		Items []json.RawMessage `json:"items"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	listRV, _ := strconv.ParseUint(list.Metadata.ResourceVersion, 10, 64)
	if len(list.Items) == 0 {
		t.Fatal("no pods to list")
	}

	resp = s.get("/api/v1/pods?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true")
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("watch list: %s %s", resp.Status, b)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	added := 0
	for sc.Scan() {
		var l watchLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		if l.Type == "ADDED" {
			added++
			continue
		}
		if l.Type != "BOOKMARK" || l.Object.Metadata.Annotations["k8s.io/initial-events-end"] != "true" {
			t.Fatalf("after %d ADDED events: %s %+v, want the BOOKMARK that ends the initial events", added, l.Type, l.Object)
		}
		if rv, _ := strconv.ParseUint(l.Object.Metadata.ResourceVersion, 10, 64); rv < listRV || l.Object.Kind != "Pod" {
			t.Errorf("the initial-events-end bookmark: kind %q resourceVersion %d, want Pod at %d or later", l.Object.Kind, rv, listRV)
		}
		break
	}
	if added < len(list.Items) {
		t.Errorf("%d ADDED events before the bookmark; the list held %d pods", added, len(list.Items))
	}

	for _, tc := range []struct{ query, want string }{
		{"sendInitialEvents=true&allowWatchBookmarks=true", "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"},
		{"resourceVersionMatch=NotOlderThan", "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"},
		{"sendInitialEvents=true&resourceVersionMatch=Exact", "FieldValueNotSupported"},
	} {
		resp := s.get("/api/v1/pods?watch=true&" + tc.query)
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 422 || !strings.Contains(string(b), tc.want) || !strings.Contains(string(b), `"kind":"ListOptions"`) {
			t.Errorf("watch with %s: %s %s, want 422 %q", tc.query, resp.Status, b, tc.want)
		}
	}
}

// put sends a PUT of body (JSON) to path with the token.
func (s *served) put(path, body string) (int, string) {
	s.t.Helper()
	req, err := http.NewRequest(http.MethodPut, s.server+path, strings.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+s.token)
	resp, err := s.client().Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestServeScaleConflict: an update of the scale subresource carries the
// Scale's resourceVersion, which the API server makes a precondition
// (client-go's UpdateScale in a RetryOnConflict loop relies on the 409).
func TestServeScaleConflict(t *testing.T) {
	s := startServeFor(t, "", "node-failure", "--timeline=false", "--speed", "0")
	const path = "/apis/apps/v1/namespaces/default/deployments/nginx-deployment/scale"
	resp := s.get(path)
	var sc struct {
		Metadata struct {
			ResourceVersion string `json:"resourceVersion"`
		} `json:"metadata"`
	}
	err := json.NewDecoder(resp.Body).Decode(&sc)
	resp.Body.Close()
	if err != nil || sc.Metadata.ResourceVersion == "" {
		t.Fatalf("GET scale: %v %+v", err, sc)
	}
	scale := func(rv string, n int) string {
		return `{"kind":"Scale","apiVersion":"autoscaling/v1","metadata":{"name":"nginx-deployment","namespace":"default","resourceVersion":"` + rv + `"},"spec":{"replicas":` + strconv.Itoa(n) + `}}`
	}
	if code, body := s.put(path, scale(sc.Metadata.ResourceVersion, 4)); code != 200 || !strings.Contains(body, `"replicas":4`) {
		t.Fatalf("PUT scale at the current resourceVersion: %d %s", code, body)
	}
	code, body := s.put(path, scale(sc.Metadata.ResourceVersion, 5))
	if code != 409 || !strings.Contains(body, `"reason":"Conflict"`) || !strings.Contains(body, `Operation cannot be fulfilled on deployments.apps \"nginx-deployment\": the object has been modified`) {
		t.Errorf("PUT scale at a stale resourceVersion: %d %s, want the 409 Conflict", code, body)
	}
	if code, body := s.put(path, `{"kind":"Scale","apiVersion":"autoscaling/v1","metadata":{"name":"nginx-deployment"},"spec":{"replicas":2}}`); code != 200 || !strings.Contains(body, `"replicas":2`) {
		t.Errorf("PUT scale without a resourceVersion (unconditional): %d %s", code, body)
	}
}

// getAccept sends a GET of path asking for accept.
func (s *served) getAccept(path, accept string) *http.Response {
	s.t.Helper()
	req := mustRequest(s.t, http.MethodGet, s.server+path, s.token)
	req.Header.Set("Accept", accept)
	resp, err := s.client().Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	return resp
}

// TestServePartialObjectMetadata: client-go's metadata client (and
// controller-runtime's metadata-only watches, the Owns(..., OnlyMetadata)
// of many operators) asks for PartialObjectMetadata; the API server
// answers each object's metadata alone, with that kind, in gets, lists
// and watches, bookmarks included, and the client cannot decode anything
// else.
func TestServePartialObjectMetadata(t *testing.T) {
	s := startServeFor(t, "", "node-failure", "--timeline=false", "--speed", "60")
	const obj = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json"
	const list = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json"
	type partial struct {
		Kind       string           `json:"kind"`
		APIVersion string           `json:"apiVersion"`
		Metadata   map[string]any   `json:"metadata"`
		Spec       *json.RawMessage `json:"spec"`
		Items      []struct {
			Kind     string           `json:"kind"`
			Metadata map[string]any   `json:"metadata"`
			Spec     *json.RawMessage `json:"spec"`
		} `json:"items"`
	}
	decode := func(resp *http.Response) partial {
		t.Helper()
		defer resp.Body.Close()
		var p partial
		if err := json.NewDecoder(resp.Body).Decode(&p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	l := decode(s.getAccept("/api/v1/namespaces/default/pods", list))
	if l.Kind != "PartialObjectMetadataList" || l.APIVersion != "meta.k8s.io/v1" || l.Metadata["resourceVersion"] == nil || len(l.Items) == 0 {
		t.Fatalf("list: kind %q apiVersion %q metadata %v, %d items", l.Kind, l.APIVersion, l.Metadata, len(l.Items))
	}
	for _, it := range l.Items {
		if it.Kind != "PartialObjectMetadata" || it.Metadata["name"] == nil || it.Spec != nil {
			t.Errorf("list item: kind %q metadata %v spec %v", it.Kind, it.Metadata, it.Spec != nil)
		}
	}
	name := l.Items[0].Metadata["name"].(string)
	o := decode(s.getAccept("/api/v1/namespaces/default/pods/"+name, obj))
	if o.Kind != "PartialObjectMetadata" || o.Metadata["name"] != name || o.Metadata["uid"] == nil || o.Spec != nil {
		t.Errorf("get: kind %q metadata %v spec %v", o.Kind, o.Metadata, o.Spec != nil)
	}
	// A plain JSON client still gets the Pod.
	if p := decode(s.getAccept("/api/v1/namespaces/default/pods/"+name, "application/json")); p.Kind != "Pod" || p.Spec == nil {
		t.Errorf("get as JSON: kind %q", p.Kind)
	}

	resp := s.getAccept("/api/v1/namespaces/default/pods?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true", obj)
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	added := 0
	for sc.Scan() {
		var l struct {
			Type   string  `json:"type"`
			Object partial `json:"object"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		if l.Object.Kind != "PartialObjectMetadata" || l.Object.APIVersion != "meta.k8s.io/v1" || l.Object.Spec != nil {
			t.Fatalf("watch %s event: kind %q apiVersion %q", l.Type, l.Object.Kind, l.Object.APIVersion)
		}
		if l.Type == "BOOKMARK" {
			break
		}
		added++
	}
	if added != len(l.Items) {
		t.Errorf("%d ADDED before the bookmark; the list held %d", added, len(l.Items))
	}
}

// TestServeEvictionCreated: an eviction is a create of the pod's
// eviction subresource, answered as the API server's createHandler
// answers one whose result is a Status: 201 Created, the Status carrying
// code 201.
func TestServeEvictionCreated(t *testing.T) {
	s := startServeFor(t, "", "node-failure", "--timeline=false", "--speed", "60")
	resp := s.get("/api/v1/namespaces/default/pods")
	var list struct {
		Items []struct {
			Metadata struct {
				Name string `json:"name"`
			} `json:"metadata"`
		} `json:"items"`
	}
	err := json.NewDecoder(resp.Body).Decode(&list)
	resp.Body.Close()
	if err != nil || len(list.Items) == 0 {
		t.Fatalf("pods: %v", err)
	}
	pod := list.Items[0].Metadata.Name
	resp = s.post("/api/v1/namespaces/default/pods/"+pod+"/eviction", s.token,
		strings.NewReader(`{"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":"`+pod+`","namespace":"default"}}`))
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 201 || !strings.Contains(string(b), `"status":"Success"`) || !strings.Contains(string(b), `"code":201`) {
		t.Errorf("eviction: %s %s, want 201 and a Success Status with code 201", resp.Status, b)
	}
}

// TestServeFieldManagerFromUserAgent: a write that names no fieldManager
// is owned, in managedFields, by its User-Agent's first segment, as the
// API server's managerOrUserAgent makes it (a client-go program's
// binary name), not by serve's user.
func TestServeFieldManagerFromUserAgent(t *testing.T) {
	s := startServeFor(t, "", "node-failure", "--timeline=false", "--speed", "60")
	req, err := http.NewRequest(http.MethodPost, s.server+"/api/v1/namespaces/default/configmaps",
		strings.NewReader(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"ua"},"data":{"a":"1"}}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+s.token)
	req.Header.Set("User-Agent", "my-operator/v0.0.0 (linux/amd64) kubernetes/$Format")
	resp, err := s.client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 201 || !strings.Contains(string(b), `"manager":"my-operator"`) {
		t.Errorf("create: %s %s, want managedFields' manager my-operator", resp.Status, b)
	}
}

// TestKubectlListOptions drives the real kubectl against serve's list
// options: a resourceVersionMatch without resourceVersion is the API
// server's 422 of ListOptions (kubectl: `The ListOptions "" is
// invalid: ...`); a
// resourceVersion that is not a number on a list without a limit is the
// API server's 500 without a reason ("Error from server: ..."); with a
// limit it is etcd's 400 "invalid resource version"; --chunk-size (a
// limit) still gets the whole list, in one page, without a continue; a
// watch with timeoutSeconds ends, and kubectl with it.
func TestKubectlListOptions(t *testing.T) {
	t.Parallel()
	s := startServe(t, filepath.Join("..", "..", "testdata", "serve", "three-nodes.yaml"), "--speed", "100")
	for _, tc := range []struct{ path, want string }{
		{"/api/v1/nodes?resourceVersionMatch=NotOlderThan",
			`The ListOptions "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided`},
		{"/api/v1/nodes?resourceVersion=abc",
			`Error from server: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax`},
		{"/api/v1/nodes?resourceVersion=abc&limit=500",
			`Error from server (BadRequest): invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax`},
		{"/api/v1/nodes?limit=500&continue=abc",
			`Error from server (BadRequest): invalid continue token: continue key is not valid: invalid character 'i' looking for beginning of value`},
	} {
		if got := s.fail("get", "--raw", tc.path); !strings.Contains(got, tc.want) {
			t.Errorf("kubectl get --raw %s: %q; want %q", tc.path, got, tc.want)
		}
	}
	out := s.run("get", "nodes", "--chunk-size=1", "-o", "name")
	if n := strings.Count(out, "node/"); n != 3 {
		t.Errorf("kubectl get nodes --chunk-size=1: %q; want the 3 nodes", out)
	}
	// A watch with timeoutSeconds ends (2 virtual seconds, 20 ms at
	// --speed 100) after the nodes' ADDED events; kubectl exits 0.
	out = s.run("get", "--raw", "/api/v1/nodes?watch=1&timeoutSeconds=2")
	if n := strings.Count(out, `"type":"ADDED"`); n != 3 || strings.Contains(out, `"ERROR"`) {
		t.Errorf("kubectl get --raw of a watch with timeoutSeconds=2: %q; want the 3 nodes ADDED, then its end", out)
	}
}
