package scenarios

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/clustersim/clustersim/sim/api"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestBrokenScenarios loads every file of testdata/broken-scenarios and
// compares the errors, one per file, with the golden list.
func TestBrokenScenarios(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "testdata", "broken-scenarios", "*.yaml"))
	if err != nil || len(paths) < 10 {
		t.Fatalf("found %d broken scenarios: %v", len(paths), err)
	}
	var got strings.Builder
	for _, p := range paths {
		_, err := LoadFileWith(p, Options{Root: filepath.Join("..", "testdata")}) // they name ../kubernetes-docs
		if err == nil {
			t.Errorf("%s: loaded without error", p)
			continue
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: error %T is not a *scenarios.Error: %v", p, err, err)
			continue
		}
		if e.Line == 0 {
			t.Errorf("%s: error has no line: %v", p, err)
		}
		got.WriteString(strings.TrimPrefix(err.Error(), filepath.Join("..", "testdata")+string(filepath.Separator)) + "\n")
	}
	golden := filepath.Join("testdata", "broken-scenarios.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if got.String() != string(want) {
		t.Errorf("errors differ from %s:\n%s", golden, got.String())
	}
}

func TestBuiltinsLoad(t *testing.T) {
	names := BuiltinNames()
	if len(names) == 0 {
		t.Fatal("no built-in scenarios")
	}
	for _, name := range names {
		s, err := Builtin(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if s.Metadata.Name != name {
			t.Errorf("builtin file %s.yaml is named %q inside", name, s.Metadata.Name)
		}
		if s.Metadata.Summary == "" {
			t.Errorf("%s: no summary for clustersim list", name)
		}
	}
	if !IsBuiltin(Default) {
		t.Errorf("the default scenario %q is not built in", Default)
	}
}

// TestEmbeddedManifestsAreTheExamples keeps the embedded copies of the
// Kubernetes documentation's manifests, and of the microservices demo's
// release manifests, identical to testdata's.
func TestEmbeddedManifestsAreTheExamples(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("builtin", "manifests", "*.yaml"))
	for _, p := range paths {
		a, _ := os.ReadFile(p)
		b, err := os.ReadFile(filepath.Join("..", "testdata", "kubernetes-docs", filepath.Base(p)))
		if err != nil {
			t.Errorf("%s has no counterpart in testdata/kubernetes-docs", p)
			continue
		}
		if string(a) != string(b) {
			t.Errorf("%s differs from testdata/kubernetes-docs", p)
		}
	}
	a, _ := os.ReadFile(filepath.Join("builtin", "manifests", "microservices-demo", "kubernetes-manifests.yaml"))
	b, _ := os.ReadFile(filepath.Join("..", "testdata", "microservices-demo", "kubernetes-manifests.yaml"))
	if len(a) == 0 || string(a) != string(b) {
		t.Errorf("the embedded microservices demo differs from testdata/microservices-demo/kubernetes-manifests.yaml")
	}
}

func TestResolveKind(t *testing.T) {
	for in, want := range map[string]string{"deploy": "Deployment", "Pods": "Pod", "rs": "ReplicaSet", "hpa": "HorizontalPodAutoscaler", "quota": "ResourceQuota"} {
		if k, ok := ResolveKind(in); !ok || k.Name != want {
			t.Errorf("ResolveKind(%q) = %q, %v", in, k, ok)
		}
	}
	if _, ok := ResolveKind("widget"); ok {
		t.Errorf("widget resolved")
	}
}

// TestDirectoryReference: file: naming a directory loads its manifest
// files (.json, .yaml, .yml) in name order, not its other files or its
// subdirectories (kubectl apply -f DIR without -R), each multi-document
// file as tools print them; a directory without a manifest file is an
// error naming it.
func TestDirectoryReference(t *testing.T) {
	fsys := fstest.MapFS{
		"app/b-deploy.yaml": {Data: []byte("---\n# Source: chart/templates/deploy.yaml\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: web, image: nginx:1.16.0}]}\n---\n")},
		"app/a-config.yml":  {Data: []byte("apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: one}}\n---\n--- # empty\n")},
		"app/c-svc.json":    {Data: []byte(`{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web"}, "spec": {"selector": {"app": "web"}, "ports": [{"port": 80}]}}`)},
		"app/NOTES.txt":     {Data: []byte("not a manifest")},
		"app/sub/x.yaml":    {Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: nested}\n")},
		"empty/README":      {Data: []byte("nothing")},
	}
	const doc = "apiVersion: clustersim.dev/v1alpha1\nkind: Scenario\nmetadata: {name: dir}\nspec:\n  duration: 1m\n  objects:\n  - file: %s\n"
	s, err := Load("dir.yaml", ".", fsys, []byte(strings.Replace(doc, "%s", "app", 1)))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range s.Objects {
		got = append(got, api.KindOf(o).String()+"/"+o.GetObjectMeta().Name)
	}
	want := []string{"ConfigMap/one", "Deployment/web", "Service/web"}
	if !slices.Equal(got, want) {
		t.Errorf("objects %v, want %v", got, want)
	}
	_, err = Load("dir.yaml", ".", fsys, []byte(strings.Replace(doc, "%s", "empty", 1)))
	const msg = `dir.yaml:7:11: spec.objects[0].file: "empty" is a directory without a manifest file (.json, .yaml, .yml)`
	if err == nil || err.Error() != msg {
		t.Errorf("empty directory: %v, want %s", err, msg)
	}
}

// TestLinksNameExtraUsers: a link rule may name the endpoint of a user
// the run acts as besides the timeline's (Options.Users: clustersim
// serve's kubectl, as docs/kubectl.md suggests); without that user it is
// a typo the loader refuses. Before Options.Users, serve refused the
// docs' own example.
func TestLinksNameExtraUsers(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.yaml")
	doc := `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: s}
spec:
  duration: 1m
  network:
    links:
    - {from: user/kubectl, to: apiserver, both: true, latency: 1ms}
  cluster:
    nodeGroups: [{name: w, count: 1, capacity: {cpu: "4", memory: 16Gi}}]
`
	if err := os.WriteFile(p, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadFileWith(p, Options{Users: []string{"kubectl"}}); err != nil {
		t.Errorf("with user kubectl: %v", err)
	}
	// The same through LoadWith (clustersim serve - reads the file from
	// standard input).
	if _, err := LoadWith("-", ".", fstest.MapFS{}, []byte(doc), Options{Users: []string{"kubectl"}}); err != nil {
		t.Errorf("LoadWith with user kubectl: %v", err)
	}
	// And through a Source, as a sweep loads each grid point (it dropped
	// the users, and refused the file).
	src, err := OpenSource(p, Options{Users: []string{"kubectl"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := src.With(); err != nil {
		t.Errorf("Source.With with user kubectl: %v", err)
	}
	_, err = LoadFileWith(p, Options{})
	if err == nil || !strings.Contains(err.Error(), `spec.network.links[0].from: "user/kubectl" matches no endpoint of this run`) {
		t.Errorf("without: err = %v, want the no-endpoint error", err)
	}
}

// TestScaleScenariosLoad keeps testdata/scale's scenarios, whose costs
// docs/PERFORMANCE.md gives, valid.
func TestScaleScenariosLoad(t *testing.T) {
	files, err := filepath.Glob("../testdata/scale/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scale scenarios: %v", err)
	}
	for _, f := range files {
		if _, err := LoadFile(f); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestQuotaKindsOfEveryDeclaration: the kinds a ResourceQuota counts by
// name are watched wherever the quota is declared, a GitOps commit and
// spec.iac included (the quota is created there as well).
func TestQuotaKindsOfEveryDeclaration(t *testing.T) {
	quota := func(name api.ResourceName) api.Object {
		return &api.ResourceQuota{Spec: api.ResourceQuotaSpec{Hard: api.ResourceList{name: api.MustParseQuantity("1")}}}
	}
	s := &Scenario{Objects: []api.Object{quota("count/jobs.batch")}}
	s.Spec.GitOps = &GitOps{Applications: []Application{{Commits: []GitCommit{{Parsed: []api.Object{quota("secrets")}}}}}}
	s.Spec.IaC = &IaC{Parsed: []api.Object{quota("count/statefulsets.apps")}}
	got := QuotaKinds(s)
	want := []api.Kind{api.KindSecret, api.KindJob, api.KindStatefulSet}
	slices.SortFunc(want, api.Kind.Compare)
	if !slices.Equal(got, want) {
		t.Errorf("QuotaKinds = %v, want %v", got, want)
	}
}
