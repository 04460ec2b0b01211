package gitops

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

func jsonTree(t *testing.T, s string) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestCompare(t *testing.T) {
	tests := []struct {
		name          string
		desired, live string
		ignore        []string
		want          []string
	}{
		{"equal", `{"spec":{"replicas":3}}`, `{"spec":{"replicas":3}}`, nil, nil},
		{"server-set and defaulted fields do not count", `{"spec":{"replicas":3}}`,
			`{"metadata":{"uid":"x","resourceVersion":"9"},"spec":{"replicas":3,"revisionHistoryLimit":10},"status":{"replicas":3}}`, nil, nil},
		{"a changed value", `{"spec":{"replicas":3}}`, `{"spec":{"replicas":5}}`, nil, []string{"/spec/replicas"}},
		{"an ignored pointer", `{"spec":{"replicas":3}}`, `{"spec":{"replicas":5}}`, []string{"/spec/replicas"}, nil},
		{"below an ignored pointer", `{"spec":{"template":{"x":1}}}`, `{"spec":{"template":{"x":2}}}`, []string{"/spec/template"}, nil},
		{"a missing field", `{"metadata":{"labels":{"app":"web"}}}`, `{"metadata":{}}`, nil, []string{"/metadata/labels"}},
		{"an empty object asks for nothing", `{"spec":{"strategy":{}}}`, `{"spec":{}}`, nil, nil},
		{"containers by name, order aside", `{"c":[{"name":"a","image":"1"},{"name":"b","image":"2"}]}`,
			`{"c":[{"name":"b","image":"2"},{"name":"a","image":"1","imagePullPolicy":"Always"}]}`, nil, nil},
		{"a container's image", `{"c":[{"name":"a","image":"1"}]}`, `{"c":[{"name":"a","image":"9"}]}`, nil, []string{"/c/0/image"}},
		{"an image ignored by index", `{"c":[{"name":"a","image":"1"}]}`, `{"c":[{"name":"a","image":"9"}]}`, []string{"/c/0/image"}, nil},
		{"an extra live container", `{"c":[{"name":"a"}]}`, `{"c":[{"name":"a"},{"name":"sidecar"}]}`, nil, []string{"/c/1"}},
		{"a missing container", `{"c":[{"name":"a"},{"name":"b"}]}`, `{"c":[{"name":"a"}]}`, nil, []string{"/c/1"}},
		{"scalar lists by position", `{"args":["-a","-b"]}`, `{"args":["-a"]}`, nil, []string{"/args"}},
		{"a key with a slash", `{"metadata":{"annotations":{"a/b":"1"}}}`, `{"metadata":{"annotations":{"a/b":"2"}}}`, nil, []string{"/metadata/annotations/a~1b"}},
		{"type change", `{"x":{"y":1}}`, `{"x":"s"}`, nil, []string{"/x"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := compare(jsonTree(t, tc.desired), jsonTree(t, tc.live), tc.ignore)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestPointers(t *testing.T) {
	doc := jsonTree(t, `{"spec":{"replicas":3,"c":[{"name":"a","image":"1"}]},"metadata":{"annotations":{"a/b":"x"}}}`).(map[string]any)
	tests := []struct {
		p    string
		want any
		ok   bool
	}{
		{"/spec/replicas", json.Number("3"), true},
		{"/spec/c/0/image", "1", true},
		{"/metadata/annotations/a~1b", "x", true},
		{"/spec/c/1", nil, false},
		{"/spec/nope", nil, false},
	}
	for _, tc := range tests {
		got, ok := pointerGet(doc, tc.p)
		if ok != tc.ok || ok && got != tc.want {
			t.Errorf("get %s: %v %v, want %v %v", tc.p, got, ok, tc.want, tc.ok)
		}
	}
	if !pointerSet(doc, "/spec/replicas", json.Number("5")) || !pointerSet(doc, "/spec/c/0/image", "2") || !pointerSet(doc, "/new/field", true) {
		t.Fatal("set failed")
	}
	if pointerSet(doc, "/spec/c/3/image", "x") {
		t.Error("set past a list's end succeeded")
	}
	pointerDelete(doc, "/metadata/annotations/a~1b")
	want := `{"metadata":{"annotations":{}},"new":{"field":true},"spec":{"c":[{"image":"2","name":"a"}],"replicas":5}}`
	if b, _ := json.Marshal(doc); string(b) != want {
		t.Errorf("doc %s\nwant %s", b, want)
	}
}

func TestRepo(t *testing.T) {
	r := NewRepo("https://git.example/app")
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	cm := &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "c"}, Data: map[string]string{"k": "1"}}
	r1 := r.Commit(t0.Add(time.Minute), []api.Object{cm, nil})
	cm.Data["k"] = "2" // the commit holds a copy
	r2 := r.Commit(t0.Add(3*time.Minute), []api.Object{cm})
	r0 := r.Commit(t0, nil) // added last, earliest in time
	if len(r1) != 40 || r1 == r2 || r0 == r1 {
		t.Fatalf("revisions %q %q %q", r0, r1, r2)
	}
	tests := []struct {
		at   time.Duration
		want string
		ok   bool
	}{{-time.Second, "", false}, {0, r0, true}, {time.Minute, r1, true}, {2 * time.Minute, r1, true}, {time.Hour, r2, true}}
	for _, tc := range tests {
		c, ok := r.Head(t0.Add(tc.at))
		if ok != tc.ok || c.Revision != tc.want {
			t.Errorf("head at %v: %q %v, want %q %v", tc.at, c.Short(), ok, tc.want, tc.ok)
		}
	}
	if c, _ := r.Head(t0.Add(time.Minute)); len(c.Objects) != 1 || c.Objects[0].(*api.ConfigMap).Data["k"] != "1" {
		t.Errorf("first commit's objects %v", c.Objects)
	}
	if h := r.History(); len(h) != 3 || h[0].Revision != r0 {
		t.Errorf("history %v", h)
	}
	// The same history gives the same revisions.
	again := NewRepo("x")
	if again.Commit(t0.Add(time.Minute), []api.Object{&api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "c"}, Data: map[string]string{"k": "1"}}}) != r1 {
		t.Error("revisions are not a function of history and content")
	}
}

func TestBackoffs(t *testing.T) {
	s, err := New(nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var heal, retry []time.Duration
	for k := 0; k <= 7; k++ {
		heal = append(heal, s.selfHealDelay(k))
		if k > 0 {
			retry = append(retry, s.retryDelay(k))
		}
	}
	if want := []time.Duration{0, 2 * time.Second, 6 * time.Second, 18 * time.Second, 54 * time.Second, 162 * time.Second, 300 * time.Second, 300 * time.Second}; !slices.Equal(heal, want) {
		t.Errorf("self-heal delays %v, want %v", heal, want)
	}
	if want := []time.Duration{5 * time.Second, 10 * time.Second, 20 * time.Second, 40 * time.Second, 80 * time.Second, 160 * time.Second, 180 * time.Second}; !slices.Equal(retry, want) {
		t.Errorf("retry delays %v, want %v", retry, want)
	}
	o := s.Options()
	if o.Resync != 120*time.Second || o.Jitter != 60*time.Second || o.FieldManager != "argocd-controller" || o.SyncRetryLimit != 5 {
		t.Errorf("defaults %+v", o)
	}
}

func TestNewValidates(t *testing.T) {
	r := NewRepo("x")
	tests := []struct {
		name string
		apps []Application
	}{
		{"no name", []Application{{Repo: r}}},
		{"no repo", []Application{{Name: "a"}}},
		{"duplicate", []Application{{Name: "a", Repo: r}, {Name: "a", Repo: r}}},
		{"bad pointer", []Application{{Name: "a", Repo: r, IgnoreDifferences: []IgnoreDifference{{Kind: "Deployment", JSONPointers: []string{"spec/replicas"}}}}}},
		{"no kind", []Application{{Name: "a", Repo: r, IgnoreDifferences: []IgnoreDifference{{JSONPointers: []string{"/spec"}}}}}},
	}
	for _, tc := range tests {
		if _, err := New(tc.apps, Options{}); !errors.Is(err, ErrInvalidApplication) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	s, _ := New([]Application{{Name: "a", Repo: r}}, Options{})
	if err := s.Sync("b", false); !errors.Is(err, ErrUnknownApplication) {
		t.Errorf("sync of an unknown app: %v", err)
	}
}

func TestParseSyncOptions(t *testing.T) {
	o, err := ParseSyncOptions([]string{"CreateNamespace=true", "RespectIgnoreDifferences=true"})
	if err != nil || !o.RespectIgnoreDifferences {
		t.Errorf("%+v %v", o, err)
	}
	if _, err := ParseSyncOptions([]string{"RespectIgnoreDifferences"}); !errors.Is(err, ErrInvalidApplication) {
		t.Errorf("malformed option: %v", err)
	}
}
