package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"gopkg.in/yaml.v3"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the current Encode output")

// repoExamples are the documentation manifests kept in the repository;
// sharedExamples is the original shared copy, checked too when present.
const (
	repoExamples   = "../../testdata/kubernetes-docs"
	sharedExamples = "../../../shared/examples/kubernetes-docs"
	validDir       = "testdata/valid"
	goldenDir      = "testdata/golden"
)

// example is one real manifest file the loader must accept unchanged.
type example struct {
	name   string // file name, unique across golden examples
	path   string
	golden bool // compare Encode output with testdata/golden/<name>
}

func examples(t testing.TB) []example {
	t.Helper()
	var out []example
	seen := map[string]string{}
	add := func(dir string, golden, optional bool) {
		paths, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if len(paths) == 0 {
			if optional {
				return
			}
			t.Fatalf("no manifests in %s", dir)
		}
		for _, p := range paths {
			name := filepath.Base(p)
			if golden {
				if prev, ok := seen[name]; ok {
					t.Fatalf("golden name %s used by %s and %s", name, prev, p)
				}
				seen[name] = p
			}
			out = append(out, example{name: name, path: p, golden: golden})
		}
	}
	add(repoExamples, true, false)
	add(validDir, true, false)
	if _, err := os.Stat(sharedExamples); err == nil {
		add(sharedExamples, false, true)
	}
	return out
}

func TestExamples(t *testing.T) {
	for _, ex := range examples(t) {
		t.Run(ex.path, func(t *testing.T) {
			data, err := os.ReadFile(ex.path)
			if err != nil {
				t.Fatal(err)
			}
			objs, err := Decode(ex.name, data)
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if len(objs) == 0 {
				t.Fatal("Decode returned no objects")
			}
			enc, err := Encode(objs...)
			if err != nil {
				t.Fatalf("Encode: %v", err)
			}
			again, err := Decode("encoded-"+ex.name, enc)
			if err != nil {
				t.Fatalf("Decode(Encode(x)): %v\n%s", err, enc)
			}
			if !reflect.DeepEqual(objs, again) {
				t.Errorf("Decode(Encode(x)) differs from x: %s\n%s", firstDiff(objs, again), enc)
			}
			compareTrees(t, genericDocs(t, ex.name, data), genericDocs(t, "encoded", enc))
			if ex.golden {
				checkGolden(t, filepath.Join(goldenDir, ex.name), enc)
			}
		})
	}
}

func TestDecodeFile(t *testing.T) {
	path := filepath.Join(repoExamples, "php-apache.yaml")
	objs, err := DecodeFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) != 2 || api.KindOf(objs[0]) != api.KindDeployment || api.KindOf(objs[1]) != api.KindService {
		t.Fatalf("got %d objects: %v", len(objs), kinds(objs))
	}
	if got := objs[0].GetObjectMeta().Name; got != "php-apache" {
		t.Errorf("name = %q", got)
	}

	missing := filepath.Join(t.TempDir(), "missing.yaml")
	_, err = DecodeFile(missing)
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("DecodeFile(missing) = %v, want a not-exist error naming the path", err)
	}

	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("apiVersion: v1\nkind: Pod\nspec: {nope: 1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = DecodeFile(bad)
	if want := bad + `:3:8: spec: unknown field "nope"`; err == nil || err.Error() != want {
		t.Errorf("DecodeFile(bad) = %v, want %s", err, want)
	}
}

func kinds(objs []api.Object) []string {
	var out []string
	for _, o := range objs {
		tm := o.GetTypeMeta()
		out = append(out, tm.APIVersion+"/"+tm.Kind)
	}
	return out
}

// TestDecodeStream checks document splitting, List flattening and the
// object types chosen by apiVersion and kind.
func TestDecodeStream(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"empty", "", nil},
		{"only comments", "# nothing\n", nil},
		{"only separators", "---\n---\n...\n", nil},
		{"two documents", "apiVersion: v1\nkind: Namespace\n---\napiVersion: apps/v1\nkind: Deployment\n", []string{"v1/Namespace", "apps/v1/Deployment"}},
		{"flow", `{"apiVersion": "v1", "kind": "ConfigMap", "data": {"a": "b"}}`, []string{"v1/ConfigMap"}},
		{"list", "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Pod}\n- {apiVersion: v1, kind: Service}\n", []string{"v1/Pod", "v1/Service"}},
		{"empty list", "apiVersion: v1\nkind: List\nitems: []\n", nil},
		{"list in list", "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: List, items: [{apiVersion: v1, kind: Node}]}\n", []string{"v1/Node"}},
		{"list items by alias", "apiVersion: v1\nkind: List\nitems:\n- &p {apiVersion: v1, kind: Pod, metadata: {name: a}}\n- *p\n", []string{"v1/Pod", "v1/Pod"}},
		{"crlf line ends", "apiVersion: v1\r\nkind: Namespace\r\n---\r\napiVersion: v1\r\nkind: Node\r\n", []string{"v1/Namespace", "v1/Node"}},
		{"byte order mark", "\ufeffapiVersion: v1\nkind: Namespace\n", []string{"v1/Namespace"}},
		{"apiVersion and kind through a merge key", "<<: {apiVersion: v1, kind: Service}\nmetadata: {name: s}\n", []string{"v1/Service"}},
		{"typed list", "apiVersion: apps/v1\nkind: DeploymentList\nmetadata: {resourceVersion: \"7\"}\nitems:\n- {apiVersion: apps/v1, kind: Deployment}\n", []string{"apps/v1/Deployment"}},
		{"helm template output", "---\n# Source: chart/templates/sa.yaml\napiVersion: v1\nkind: ServiceAccount\n---\n# Source: chart/templates/empty.yaml\n# nothing rendered\n--- # Source: chart/templates/svc.yaml\napiVersion: v1\nkind: Service\n---   \n...\n---\n", []string{"v1/ServiceAccount", "v1/Service"}},
		{"kustomize build output", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a-7h2b9\n---\napiVersion: apps/v1\nkind: Deployment\n", []string{"v1/ConfigMap", "apps/v1/Deployment"}},
		{"hpa versions", "apiVersion: autoscaling/v1\nkind: HorizontalPodAutoscaler\n---\napiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\n", []string{"autoscaling/v1/HorizontalPodAutoscaler", "autoscaling/v2/HorizontalPodAutoscaler"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, err := Decode("s.yaml", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			if got := kinds(objs); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("kinds = %v, want %v", got, tt.want)
			}
			for _, o := range objs {
				want, err := api.New(o.GetTypeMeta().APIVersion, o.GetTypeMeta().Kind)
				if err != nil {
					t.Fatal(err)
				}
				if reflect.TypeOf(o) != reflect.TypeOf(want) {
					t.Errorf("type %T, want %T", o, want)
				}
			}
		})
	}
}

// brokenCases are manifests that must be rejected, each with its exact
// message. They also seed FuzzDecode.
var brokenCases = []struct {
	name string
	src  string
	want string
}{
	{
		name: "unknown top-level field",
		src:  "apiVersion: v1\nkind: Pod\nmetdata:\n  name: x\n",
		want: `bad.yaml:3:1: unknown field "metdata"`,
	},
	{
		name: "unknown field in metadata",
		src:  "apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n  lables: {app: x}\n",
		want: `bad.yaml:5:3: metadata: unknown field "lables"`,
	},
	{
		name: "unknown field in a container",
		src: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
      - name: web
        image: nginx
        imagePullPolcy: Always
`,
		want: `bad.yaml:11:9: spec.template.spec.containers[0]: unknown field "imagePullPolcy"`,
	},
	{
		name: "unknown field deep in a probe",
		src: `apiVersion: v1
kind: Pod
spec:
  containers:
  - name: web
    livenessProbe:
      periodSecond: 3
`,
		want: `bad.yaml:7:7: spec.containers[0].livenessProbe: unknown field "periodSecond"`,
	},
	{
		name: "unknown field in a flow-style List item",
		src:  "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Pod}\n- {apiVersion: v1, kind: Service, spec: {prots: []}}\n",
		want: `bad.yaml:5:42: items[1].spec: unknown field "prots"`,
	},
	{
		name: "string for an integer",
		src:  "apiVersion: apps/v1\nkind: Deployment\nspec:\n  replicas: three\n",
		want: `bad.yaml:4:13: spec.replicas: expected an integer, got string "three"`,
	},
	{
		name: "quoted integer",
		src:  "apiVersion: apps/v1\nkind: Deployment\nspec:\n  replicas: \"3\"\n",
		want: `bad.yaml:4:13: spec.replicas: expected an integer, got string "3"`,
	},
	{
		name: "number for a string",
		src:  "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: web\n    env:\n    - name: PORT\n      value: 8080\n",
		want: `bad.yaml:8:14: spec.containers[0].env[0].value: expected a string, got integer 8080`,
	},
	{
		name: "sequence for a mapping",
		src:  "apiVersion: v1\nkind: Pod\nmetadata:\n  labels:\n  - app\n",
		want: `bad.yaml:5:3: metadata.labels: expected a mapping, got a sequence`,
	},
	{
		name: "mapping for a sequence",
		src:  "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n    name: web\n",
		want: `bad.yaml:5:5: spec.containers: expected a sequence, got a mapping`,
	},
	{
		name: "string for a boolean",
		src:  "apiVersion: apps/v1\nkind: Deployment\nspec:\n  paused: yes\n",
		want: `bad.yaml:4:11: spec.paused: expected a boolean, got string "yes"`,
	},
	{
		name: "overflow int32",
		src:  "apiVersion: apps/v1\nkind: Deployment\nspec:\n  replicas: 3000000000\n",
		want: `bad.yaml:4:13: spec.replicas: value 3000000000 overflows int32`,
	},
	{
		name: "overflow int64",
		src:  "apiVersion: v1\nkind: Pod\nmetadata:\n  generation: 99999999999999999999\n",
		want: `bad.yaml:4:15: metadata.generation: value 99999999999999999999 overflows int64`,
	},
	{
		name: "bad quantity",
		src:  "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: web\n    resources:\n      limits:\n        cpu: lots\n",
		want: `bad.yaml:8:14: spec.containers[0].resources.limits.cpu: ` + api.ErrQuantityFormat.Error(),
	},
	{
		name: "bad int-or-string",
		src:  "apiVersion: apps/v1\nkind: Deployment\nspec:\n  strategy:\n    rollingUpdate:\n      maxSurge: true\n",
		want: `bad.yaml:6:17: spec.strategy.rollingUpdate.maxSurge: json: cannot unmarshal bool into Go value of type int32`,
	},
	{
		name: "bad int-or-string in a service",
		src:  "apiVersion: v1\nkind: Service\nspec:\n  ports:\n  - port: 80\n    targetPort: [80]\n",
		want: `bad.yaml:6:17: spec.ports[0].targetPort: json: cannot unmarshal array into Go value of type int32`,
	},
	{
		name: "missing apiVersion",
		src:  "# a pod\nkind: Pod\nmetadata:\n  name: x\n",
		want: `bad.yaml:2:1: apiVersion: missing required field "apiVersion"`,
	},
	{
		name: "missing kind",
		src:  "apiVersion: v1\nmetadata:\n  name: x\n",
		want: `bad.yaml:1:1: kind: missing required field "kind"`,
	},
	{
		name: "empty kind",
		src:  "apiVersion: v1\nkind: \"\"\n",
		want: `bad.yaml:1:1: kind: missing required field "kind"`,
	},
	{
		name: "kind not a string",
		src:  "apiVersion: v1\nkind: [Pod]\n",
		want: `bad.yaml:2:7: kind: expected a string, got a sequence`,
	},
	{
		name: "missing kind in the second document",
		src:  "apiVersion: v1\nkind: Namespace\n---\napiVersion: v1\nmetadata: {}\n",
		want: `bad.yaml:4:1: kind: missing required field "kind"`,
	},
	{
		name: "missing kind in a List item",
		src:  "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  metadata: {}\n",
		want: `bad.yaml:4:3: items[0].kind: missing required field "kind"`,
	},
	{
		name: "unknown kind",
		src:  "apiVersion: apps/v1\nkind: Deploymnet\n",
		want: `bad.yaml:2:7: kind: no kind "Deploymnet" is registered for version "apps/v1"`,
	},
	{
		name: "kind under the wrong version",
		src:  "apiVersion: v1\nkind: Deployment\n",
		want: `bad.yaml:2:7: kind: no kind "Deployment" is registered for version "v1"`,
	},
	{
		name: "yaml syntax error",
		src:  "apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n   labels: {}\n",
		want: `bad.yaml:5: mapping values are not allowed in this context`,
	},
	{
		name: "unclosed flow mapping",
		src:  "{apiVersion: v1, kind: Pod\n",
		want: `bad.yaml:2: did not find expected ',' or '}'`,
	},
	{
		name: "unterminated quote",
		src:  "apiVersion: v1\nkind: \"Pod\n",
		want: `bad.yaml:2: found unexpected end of stream`,
	},
	{
		name: "bad indentation of a sequence",
		src:  "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n    - name: a\n   - name: b\n",
		want: `bad.yaml:4: did not find expected key`,
	},
	{
		name: "unknown anchor",
		src:  "apiVersion: v1\nkind: Pod\nmetadata:\n  labels: *labels\n",
		want: `bad.yaml:4:11: unknown anchor 'labels' referenced`,
	},
	{
		name: "duplicate key",
		src:  "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: web\n    image: nginx\n    image: httpd\n",
		want: `bad.yaml:7:5: spec.containers[0]: duplicate field "image" (first at line 6)`,
	},
	{
		name: "duplicate label",
		src:  "apiVersion: v1\nkind: Pod\nmetadata:\n  labels:\n    app: a\n    app: b\n",
		want: `bad.yaml:6:5: metadata.labels: duplicate key "app" (first at line 5)`,
	},
	{
		name: "duplicate key in an opaque sub-object",
		src:  "apiVersion: v1\nkind: Pod\nspec:\n  securityContext:\n    runAsUser: 1\n    runAsUser: 2\n",
		want: `bad.yaml:6:5: spec.securityContext: duplicate key "runAsUser" (first at line 5)`,
	},
	{
		name: "tab indentation",
		src:  "apiVersion: v1\nkind: Pod\nmetadata:\n\tname: x\n",
		want: `bad.yaml:4:1: found character that cannot start any token`,
	},
	{
		name: "tab indenting a plain scalar's next line",
		src:  "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n  a: one\n\ttwo\n",
		want: `bad.yaml:6:1: found a tab character that violates indentation`,
	},
	{
		name: "NUL byte",
		src:  "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ba\x00d\n",
		want: `bad.yaml:4:11: control character U+0000 is not allowed in YAML (only tab and line breaks are)`,
	},
	{
		name: "control character after CR line endings and multi-byte characters",
		src:  "apiVersion: v1\rkind: ConfigMap\r\nmetadata: {name: x}\rdata: {é: \"ü\x01\"}\n",
		want: `bad.yaml:4:13: control character U+0001 is not allowed in YAML (only tab and line breaks are)`,
	},
	{
		name: "C1 control character",
		src:  "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: \u0080}\n",
		want: `bad.yaml:3:18: control character U+0080 is not allowed in YAML (only tab and line breaks are)`,
	},
	{
		name: "invalid UTF-8",
		src:  "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ba\xffd\n",
		want: `bad.yaml:4:11: invalid UTF-8 (byte 0xFF): YAML text is UTF-8, or UTF-16 with a byte order mark`,
	},
	{
		name: "truncated UTF-8 after a UTF-8 byte order mark",
		src:  "\ufeffapiVersion: v1\nkind: ConfigMap\n# caf\xc3",
		want: `bad.yaml:3:6: invalid UTF-8 (byte 0xC3): YAML text is UTF-8, or UTF-16 with a byte order mark`,
	},
	{
		name: "control character in UTF-16",
		src:  "\xff\xfea\x00:\x00 \x00b\x00\n\x00c\x00:\x00\x07\x00",
		want: `bad.yaml:2:3: control character U+0007 is not allowed in YAML (only tab and line breaks are)`,
	},
	{
		name: "flow nesting too deep",
		src:  "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n  a: " + strings.Repeat("[", 10001) + "\n",
		want: `bad.yaml:5:6: exceeded max depth of 10000`,
	},
	{
		name: "document is a sequence",
		src:  "- apiVersion: v1\n  kind: Pod\n",
		want: `bad.yaml:1:1: expected a mapping, got a sequence`,
	},
	{
		name: "document is a scalar",
		src:  "apiVersion: v1\nkind: Namespace\n---\nhello\n",
		want: `bad.yaml:4:1: expected a mapping, got string "hello"`,
	},
	{
		name: "items not a sequence",
		src:  "apiVersion: v1\nkind: List\nitems: {}\n",
		want: `bad.yaml:3:8: items: expected a sequence, got a mapping`,
	},
	{
		name: "unknown field of a List",
		src:  "apiVersion: v1\nkind: List\nitem: []\n",
		want: `bad.yaml:3:1: unknown field "item"`,
	},
	{
		name: "bad time",
		src:  "apiVersion: v1\nkind: Pod\nmetadata:\n  creationTimestamp: yesterday\n",
		want: `bad.yaml:4:22: metadata.creationTimestamp: parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"`,
	},
	{
		name: "first error in document order",
		src:  "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: a\n    ports: 80\n---\napiVersion: v1\nkind: Nope\n",
		want: `bad.yaml:6:12: spec.containers[0].ports: expected a sequence, got integer 80`,
	},
	{
		// A typed float of an API object goes to the server as JSON,
		// which has no NaN or infinity (a CustomResourceDefinition's
		// schema keeps minimum, maximum and multipleOf as float64).
		name: "NaN minimum in a CRD schema",
		src:  crdWith("{type: number, minimum: .nan}"),
		want: `bad.yaml:8:121: spec.versions[0].schema.openAPIV3Schema.properties.n.minimum: .nan is not a finite number (JSON, and so the API, has no infinity or NaN)`,
	},
	{
		name: "infinite maximum in a CRD schema",
		src:  crdWith("{type: number, maximum: .inf}"),
		want: `bad.yaml:8:121: spec.versions[0].schema.openAPIV3Schema.properties.n.maximum: .inf is not a finite number (JSON, and so the API, has no infinity or NaN)`,
	},
	{
		name: "negative infinite multipleOf in a CRD schema",
		src:  crdWith("{type: number, multipleOf: -.inf}"),
		want: `bad.yaml:8:124: spec.versions[0].schema.openAPIV3Schema.properties.n.multipleOf: -.inf is not a finite number (JSON, and so the API, has no infinity or NaN)`,
	},
	{
		name: "NaN default in a CRD schema",
		src:  crdWith("{type: number, default: .NaN}"),
		want: `bad.yaml:8:121: spec.versions[0].schema.openAPIV3Schema.properties.n.default: .NaN is not a finite number (JSON, and so the API, has no infinity or NaN)`,
	},
	{
		name: "infinite enum value in a CRD schema",
		src:  crdWith("{type: number, enum: [1, .inf]}"),
		want: `bad.yaml:8:122: spec.versions[0].schema.openAPIV3Schema.properties.n.enum[1]: .inf is not a finite number (JSON, and so the API, has no infinity or NaN)`,
	},
	{
		name: "NaN example in a CRD schema",
		src:  crdWith("{type: number, example: .nan}"),
		want: `bad.yaml:8:121: spec.versions[0].schema.openAPIV3Schema.properties.n.example: .nan is not a finite number (JSON, and so the API, has no infinity or NaN)`,
	},
	{
		// yaml.v3 reads a little past the end of a document (for comments),
		// so this order holds once the syntax error is past the next
		// document's first line.
		name: "error before a syntax error in a later document",
		src:  "apiVersion: v1\nkind: Nope\n---\napiVersion: v1\nkind: Pod\nmetadata:\n\tname: x\n",
		want: `bad.yaml:2:7: kind: no kind "Nope" is registered for version "v1"`,
	},
}

func TestDecodeBroken(t *testing.T) {
	for _, tt := range brokenCases {
		t.Run(tt.name, func(t *testing.T) {
			objs, err := Decode("bad.yaml", []byte(tt.src))
			if err == nil {
				t.Fatalf("Decode succeeded with %d objects, want %s", len(objs), tt.want)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is %T, want *Error", err, err)
			}
			if e.File != "bad.yaml" {
				t.Errorf("File = %q", e.File)
			}
			if err.Error() != tt.want {
				t.Errorf("error\n got %s\nwant %s", err, tt.want)
			}
			if objs != nil {
				t.Errorf("objects returned with an error: %v", kinds(objs))
			}
		})
	}
}

func TestDecodeErrorUnwrap(t *testing.T) {
	_, err := Decode("bad.yaml", []byte("apiVersion: apps/v1\nkind: Deploymnet\n"))
	var uk *api.UnknownKindError
	if !errors.As(err, &uk) {
		t.Errorf("errors.As(%v, *api.UnknownKindError) = false", err)
	}
	_, err = Decode("bad.yaml", []byte("apiVersion: v1\nkind: ResourceQuota\nspec: {hard: {cpu: x}}\n"))
	if !errors.Is(err, api.ErrQuantityFormat) {
		t.Errorf("errors.Is(%v, api.ErrQuantityFormat) = false", err)
	}
}

func TestEncode(t *testing.T) {
	objs, err := Decode("in.yaml", []byte(`apiVersion: v1
kind: ConfigMap
metadata:
  name: c
  labels: {z: "1", a: "true", on: "off"}
data:
  n: "42"
  b: "yes"
  t: "true"
  e: ""
  f: "1.5"
  x: "0x10"
  nul: "null"
  multi: "line one\nline two\n"
`))
	if err != nil {
		t.Fatal(err)
	}
	ns, err := api.New("v1", "Namespace")
	if err != nil {
		t.Fatal(err)
	}
	ns.GetObjectMeta().Name = "dev"
	got, err := Encode(append(objs, ns)...)
	if err != nil {
		t.Fatal(err)
	}
	// creationTimestamp: null, spec: {} and status: {} are what the API
	// types marshal for zero values, as upstream's do; kubectl prints
	// them the same way.
	want := `apiVersion: v1
data:
  b: "yes"
  e: ""
  f: "1.5"
  multi: |
    line one
    line two
  "n": "42"
  nul: "null"
  t: "true"
  x: "0x10"
kind: ConfigMap
metadata:
  creationTimestamp: null
  labels:
    a: "true"
    "on": "off"
    z: "1"
  name: c
---
apiVersion: v1
kind: Namespace
metadata:
  creationTimestamp: null
  name: dev
spec: {}
status: {}
`
	if string(got) != want {
		t.Errorf("Encode =\n%s\nwant\n%s", got, want)
	}
	again, err := Decode("out.yaml", got)
	if err != nil {
		t.Fatal(err)
	}
	if d := firstDiff(append(objs, ns), again); d != "" {
		t.Errorf("Decode(Encode(x)) differs: %s", d)
	}

	if _, err := Encode(nil); err == nil {
		t.Error("Encode(nil) succeeded")
	}
	var nilPod *api.Pod
	if _, err := Encode(nilPod); err == nil {
		t.Error("Encode((*api.Pod)(nil)) succeeded")
	}
	if out, err := Encode(); err != nil || len(out) != 0 {
		t.Errorf("Encode() = %q, %v", out, err)
	}
}

// genericDocs decodes every document of data into generic trees, with
// `kind: List` documents replaced by their items.
func genericDocs(t testing.TB, file string, data []byte) []any {
	t.Helper()
	var out []any
	err := documents(file, data, func(root *yaml.Node) error {
		var v any
		if err := DecodeNode(file, root, "", &v); err != nil {
			return err
		}
		out = append(out, flattenList(v)...)
		return nil
	})
	if err != nil {
		t.Fatalf("generic decode of %s: %v", file, err)
	}
	return out
}

func flattenList(v any) []any {
	m, ok := v.(map[string]any)
	if !ok || m["apiVersion"] != "v1" || m["kind"] != "List" {
		return []any{v}
	}
	items, _ := m["items"].([]any)
	var out []any
	for _, it := range items {
		out = append(out, flattenList(it)...)
	}
	return out
}

// normalize drops nulls and empty maps and lists (recursively) and turns
// every scalar into its string form, so that the tree of a manifest and the
// tree of its re-encoding compare equal exactly when no field was lost or
// invented: `pods: 2` equals `pods: "2"`, `status: {}` equals no status.
func normalize(v any) any {
	switch v := v.(type) {
	case nil:
		return nil
	case map[string]any:
		out := map[string]any{}
		for k, e := range v {
			if n := normalize(e); n != nil {
				out[k] = n
			}
		}
		if len(out) == 0 {
			return nil
		}
		return out
	case []any:
		if len(v) == 0 {
			return nil
		}
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = normalize(e)
		}
		return out
	default:
		return fmt.Sprint(v)
	}
}

// compareTrees checks that every input document survives in its encoding:
// no field lost (every input field is in the encoding with the same value)
// and none invented (every encoded field is in the input), except that the
// encoding may add zero values (0, false, "", {}) for fields the API types
// always marshal, as upstream's do (status.replicas, desiredReplicas).
func compareTrees(t testing.TB, orig, enc []any) {
	t.Helper()
	if len(orig) != len(enc) {
		t.Fatalf("%d documents in the input, %d in the encoding", len(orig), len(enc))
	}
	for i := range orig {
		a, b := normalize(orig[i]), normalize(enc[i])
		if diffs := treeDiff(a, b, fmt.Sprintf("document %d", i)); len(diffs) > 0 {
			ja, _ := json.MarshalIndent(a, "", "  ")
			jb, _ := json.MarshalIndent(b, "", "  ")
			t.Errorf("fields lost or invented:\n%s\ninput:\n%s\nencoded:\n%s", strings.Join(diffs, "\n"), ja, jb)
		}
	}
}

// treeDiff compares normalized trees and describes each difference.
func treeDiff(orig, enc any, path string) []string {
	switch o := orig.(type) {
	case map[string]any:
		e, ok := enc.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: mapping became %v", path, enc)}
		}
		var out []string
		for _, k := range sortedKeys(o) {
			if _, ok := e[k]; !ok {
				out = append(out, fmt.Sprintf("%s.%s: lost (was %v)", path, k, o[k]))
				continue
			}
			out = append(out, treeDiff(o[k], e[k], path+"."+k)...)
		}
		for _, k := range sortedKeys(e) {
			if _, ok := o[k]; !ok && !zeroish(e[k]) {
				out = append(out, fmt.Sprintf("%s.%s: invented (%v)", path, k, e[k]))
			}
		}
		return out
	case []any:
		e, ok := enc.([]any)
		if !ok || len(e) != len(o) {
			return []string{fmt.Sprintf("%s: sequence of %d became %v", path, len(o), enc)}
		}
		var out []string
		for i := range o {
			out = append(out, treeDiff(o[i], e[i], fmt.Sprintf("%s[%d]", path, i))...)
		}
		return out
	}
	if !sameScalar(orig, enc) {
		return []string{fmt.Sprintf("%s: %v became %v", path, orig, enc)}
	}
	return nil
}

// sameScalar compares normalized scalars: equal strings, equal numbers
// however written (`memory: 1e3` is the quantity "1e3"), or the same
// instant however written (API times marshal in UTC, like metav1.Time).
func sameScalar(a, b any) bool {
	if reflect.DeepEqual(a, b) {
		return true
	}
	sa, ok1 := a.(string)
	sb, ok2 := b.(string)
	if !ok1 || !ok2 {
		return false
	}
	if fa, err := strconv.ParseFloat(sa, 64); err == nil {
		if fb, err := strconv.ParseFloat(sb, 64); err == nil && fa == fb {
			return true
		}
	}
	// A quantity is encoded in upstream's canonical form unless its text
	// already is one upstream keeps ("0.5" becomes "500m", "1.5Gi"
	// "1536Mi"), so the same amount counts as the same scalar.
	if qa, err := api.ParseQuantity(sa); err == nil {
		qb, err := api.ParseQuantity(sb)
		return err == nil && qa.Equal(qb) && qb.String() == sb
	}
	ta, err1 := time.Parse(time.RFC3339Nano, sa)
	tb, err2 := time.Parse(time.RFC3339Nano, sb)
	return err1 == nil && err2 == nil && ta.Equal(tb)
}

// zeroish reports whether a normalized value carries no information.
func zeroish(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case string:
		return v == "" || v == "0" || v == "false"
	case map[string]any:
		for _, e := range v {
			if !zeroish(e) {
				return false
			}
		}
		return true
	}
	return false
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func checkGolden(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./sim/manifest -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("Encode output differs from %s (run go test ./sim/manifest -update and read the diff)\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

// crdWith is a CustomResourceDefinition whose schema's property n, on
// line 8 from column 96, is schema.
func crdWith(schema string) string {
	return "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}\n" +
		"spec:\n  group: example.com\n  scope: Namespaced\n  names: {plural: widgets, kind: Widget}\n" +
		"  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {properties: {n: " + schema + "}}}}]\n"
}

// TestWholeFloatsInIntegerFields: an API object's integer field takes a
// float whose value is whole (replicas: 3.0), as upstream's does: kubectl
// and the API server's YAML decoding (sigs.k8s.io/yaml) read the YAML into
// float64 and marshal it to JSON, where 3.0 is 3. A fraction, infinity or
// NaN is refused, and a whole float beyond the field's range overflows.
func TestWholeFloatsInIntegerFields(t *testing.T) {
	deployment := func(replicas string) string {
		return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: " + replicas + "\n"
	}
	tests := []struct {
		replicas string
		want     int32
		err      string
	}{
		{"3.0", 3, ""},
		{"1e3", 1000, ""},
		{"!!float 3", 3, ""},
		{"-0.0", 0, ""},
		{"2_000.0", 2000, ""},
		{"3", 3, ""},
		{"3.5", 0, `bad.yaml:6:13: spec.replicas: expected an integer, got float 3.5`},
		{"3e9", 0, `bad.yaml:6:13: spec.replicas: value 3e9 overflows int32`},
		{"1e30", 0, `bad.yaml:6:13: spec.replicas: value 1e30 overflows int32`},
		{".inf", 0, `bad.yaml:6:13: spec.replicas: expected an integer, got float .inf`},
		{".nan", 0, `bad.yaml:6:13: spec.replicas: expected an integer, got float .nan`},
	}
	for _, tt := range tests {
		t.Run(tt.replicas, func(t *testing.T) {
			objs, err := Decode("bad.yaml", []byte(deployment(tt.replicas)))
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("error %v, want %s", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			d, ok := objs[0].(*api.Deployment)
			if !ok || d.Spec.Replicas == nil || *d.Spec.Replicas != tt.want {
				t.Fatalf("decoded %#v, want replicas %d", objs[0], tt.want)
			}
		})
	}
}
