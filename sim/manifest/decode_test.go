package manifest

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// quantity is a stand-in for api.Quantity: a scalar type that decodes
// itself from JSON, accepting a string or a number, rejecting garbage.
type quantity struct{ s string }

var errQuantity = errors.New("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")

func (q *quantity) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		var n json.Number
		if err := json.Unmarshal(b, &n); err != nil {
			return err
		}
		s = n.String()
	}
	if s == "" || strings.Trim(s, "0123456789.m") != "" && !strings.HasSuffix(s, "Mi") {
		return errQuantity
	}
	q.s = s
	return nil
}

func (q quantity) MarshalJSON() ([]byte, error) { return json.Marshal(q.s) }

// raw keeps its JSON text, like api.RawValue.
type raw struct{ b []byte }

func (r *raw) UnmarshalJSON(b []byte) error { r.b = append([]byte(nil), b...); return nil }

type typeMeta struct {
	APIVersion string `json:"apiVersion,omitempty"`
	Kind       string `json:"kind,omitempty"`
}

type meta struct {
	Name   string            `json:"name,omitempty"`
	Labels map[string]string `json:"labels,omitempty"`
}

type port struct {
	Name          string `json:"name,omitempty"`
	ContainerPort int32  `json:"containerPort"`
}

type container struct {
	Name      string              `json:"name"`
	Image     string              `json:"image,omitempty"`
	Args      []string            `json:"args,omitempty"`
	Ports     []port              `json:"ports,omitempty"`
	Resources map[string]quantity `json:"resources,omitempty"`
	Extra     *raw                `json:"extra,omitempty"`
}

type Inner struct {
	Deep string `json:"deep,omitempty"`
}

type spec struct {
	Replicas   *int32      `json:"replicas,omitempty"`
	Paused     bool        `json:"paused,omitempty"`
	Containers []container `json:"containers,omitempty"`
	Ratio      float64     `json:"ratio,omitempty"`
	F32        float32     `json:"f32,omitempty"`
	I8         int8        `json:"i8,omitempty"`
	I64        int64       `json:"i64,omitempty"`
	U16        uint16      `json:"u16,omitempty"`
	U64        uint64      `json:"u64,omitempty"`
	Any        any         `json:"any,omitempty"`
	Node       *yaml.Node  `json:"node,omitempty"`
	Data       []byte      `json:"data,omitempty"`
	Pair       [2]int      `json:"pair,omitempty"`
	Meta       *meta       `json:"meta,omitempty"`
	List       *[]string   `json:"list,omitempty"`
	Set        *map[string]int
	Hidden     string `json:"-"`
	Matrix     [][]int
	Quantity   quantity  `json:"quantity,omitempty"`
	QPtr       *quantity `json:"qptr,omitempty"`
	Inline     Inner     `json:",inline"`
	*Inner2
	hidden int
}

type Inner2 struct {
	Deep2 string `json:"deep2,omitempty"`
}

type object struct {
	typeMeta `json:",inline"`
	Metadata meta `json:"metadata,omitempty"`
	Spec     spec `json:"spec"`
}

func parseNode(t testing.TB, src string) *yaml.Node {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(src), &n); err != nil {
		t.Fatalf("yaml: %v", err)
	}
	return &n
}

func ptr[T any](v T) *T { return &v }

func TestDecodeNodeValid(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want object
	}{
		{
			name: "block",
			src: `apiVersion: apps/v1
kind: Thing
metadata:
  name: web
  labels:
    app.kubernetes.io/name: web
spec:
  replicas: 3
  paused: true
  containers:
  - name: nginx
    image: nginx:1.14.2
    args: ["-g", "daemon off;"]
    ports:
    - containerPort: 80
    resources:
      cpu: 500m
      pods: 2
`,
			want: object{
				typeMeta: typeMeta{APIVersion: "apps/v1", Kind: "Thing"},
				Metadata: meta{Name: "web", Labels: map[string]string{"app.kubernetes.io/name": "web"}},
				Spec: spec{Replicas: ptr[int32](3), Paused: true, Containers: []container{{
					Name: "nginx", Image: "nginx:1.14.2", Args: []string{"-g", "daemon off;"},
					Ports:     []port{{ContainerPort: 80}},
					Resources: map[string]quantity{"cpu": {"500m"}, "pods": {"2"}},
				}}},
			},
		},
		{
			name: "flow",
			src:  `{apiVersion: "v1", kind: "Thing", metadata: {name: "x",}, spec: {replicas: 0,},}`,
			want: object{typeMeta: typeMeta{"v1", "Thing"}, Metadata: meta{Name: "x"}, Spec: spec{Replicas: ptr[int32](0)}},
		},
		{
			name: "nulls and empties leave zero values",
			src: `metadata:
  name: ~
  labels: {}
spec:
  replicas: null
  containers: []
  meta:
  quantity: null
  any: null
`,
			want: object{},
		},
		{
			name: "empty behind a pointer stays empty",
			src:  "spec: {meta: {}, list: [], Set: {}}",
			want: object{Spec: spec{Meta: &meta{}, List: &[]string{}, Set: &map[string]int{}}},
		},
		{
			name: "numbers",
			src: `spec:
  ratio: 1_000.5
  f32: .5
  i8: -128
  i64: -9223372036854775808
  u16: 0xffff
  u64: 18446744073709551615
`,
			want: object{Spec: spec{Ratio: 1000.5, F32: .5, I8: -128, I64: math.MinInt64, U16: 65535, U64: math.MaxUint64}},
		},
		{
			name: "integer into float, octal and binary",
			src:  "spec: {ratio: 3, i64: 0o17, u16: 0b101}",
			want: object{Spec: spec{Ratio: 3, I64: 15, U16: 5}},
		},
		{
			name: "generic any",
			src:  "spec: {any: {a: [1, 2.5, true, null, x, 18446744073709551615], b: {}}}",
			want: object{Spec: spec{Any: map[string]any{
				"a": []any{int64(1), 2.5, true, nil, "x", uint64(math.MaxUint64)},
				"b": map[string]any{},
			}}},
		},
		{
			name: "yes and timestamps are strings",
			src:  "metadata: {name: yes, labels: {t: 2024-01-02T03:04:05Z}}",
			want: object{Metadata: meta{Name: "yes", Labels: map[string]string{"t": "2024-01-02T03:04:05Z"}}},
		},
		{
			// A literal block keeps its line breaks, which base64 skips.
			name: "bytes, arrays, matrices",
			src:  "spec:\n  data: |\n    aGVs\n    bG8=\n  pair: [1, 2]\n  Matrix: [[1], [], [2, 3]]\n",
			want: object{Spec: spec{Data: []byte("hello"), Pair: [2]int{1, 2}, Matrix: [][]int{{1}, {}, {2, 3}}}},
		},
		{
			name: "inline and embedded pointer",
			src:  "spec: {deep: a, deep2: b}",
			want: object{Spec: spec{Inline: Inner{Deep: "a"}, Inner2: &Inner2{Deep2: "b"}}},
		},
		{
			name: "anchors, aliases and merge keys",
			src: `base: &base
  name: base
  image: img
spec:
  containers:
  - <<: *base
    name: first
  - *base
  - <<: [{image: a, args: [x]}, {image: b, name: c}]
`,
			want: object{Spec: spec{Containers: []container{
				{Name: "first", Image: "img"},
				{Name: "base", Image: "img"},
				{Name: "c", Image: "a", Args: []string{"x"}},
			}}},
		},
		{
			name: "unmarshaler gets JSON with typed scalars",
			src:  "spec: {quantity: 0.5, qptr: \"100Mi\", containers: [{name: a, extra: {x: [1, 0x10, \"2\", ~, true, 1e3, .5]}}]}",
			want: object{Spec: spec{Quantity: quantity{"0.5"}, QPtr: &quantity{"100Mi"}, Containers: []container{
				{Name: "a", Extra: &raw{[]byte(`{"x":[1,16,"2",null,true,1000,0.5]}`)}},
			}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := parseNode(t, tt.src)
			// "base" is not a field of object; decode a copy without it.
			stripKey(n.Content[0], "base")
			var got object
			if err := DecodeNode("t.yaml", n, "", &got); err != nil {
				t.Fatalf("DecodeNode: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// stripKey removes key from mapping m, keeping its value reachable through
// any alias that refers to it.
func stripKey(m *yaml.Node, key string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content = append(m.Content[:i:i], m.Content[i+2:]...)
			return
		}
	}
}

func TestDecodeNodeErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string
	}{
		{"unknown top field", "kind: X\nspc: {}\n", `t.yaml:2:1: unknown field "spc"`},
		{"unknown nested field", "spec:\n  containers:\n  - name: a\n    imagePullPolcy: Always\n",
			`t.yaml:4:5: spec.containers[0]: unknown field "imagePullPolcy"`},
		{"json dash field is unknown", "spec: {Hidden: x}", `t.yaml:1:8: spec: unknown field "Hidden"`},
		{"unexported field is unknown", "spec: {hidden: 1}", `t.yaml:1:8: spec: unknown field "hidden"`},
		{"case matters", "Spec: {}", `t.yaml:1:1: unknown field "Spec"`},
		{"duplicate field", "spec:\n  containers:\n  - name: a\n    image: x\n    image: y\n",
			`t.yaml:5:5: spec.containers[0]: duplicate field "image" (first at line 4)`},
		{"duplicate map key", "metadata:\n  labels: {a: 1, a: 2}\n", `t.yaml:2:18: metadata.labels: duplicate key "a" (first at line 2)`},
		{"string for int", "spec: {replicas: three}", `t.yaml:1:18: spec.replicas: expected an integer, got string "three"`},
		{"quoted int for int", `spec: {replicas: "3"}`, `t.yaml:1:18: spec.replicas: expected an integer, got string "3"`},
		{"float for int", "spec: {replicas: 3.5}", `t.yaml:1:18: spec.replicas: expected an integer, got float 3.5`},
		{"overflow int32", "spec: {replicas: 3000000000}", `t.yaml:1:18: spec.replicas: value 3000000000 overflows int32`},
		{"overflow int8", "spec: {i8: -129}", `t.yaml:1:12: spec.i8: value -129 overflows int8`},
		{"overflow int64", "spec: {i64: 9223372036854775808}", `t.yaml:1:13: spec.i64: value 9223372036854775808 overflows int64`},
		{"overflow beyond 64 bits", "spec: {i64: 99999999999999999999}", `t.yaml:1:13: spec.i64: value 99999999999999999999 overflows int64`},
		{"negative unsigned", "spec: {u16: -1}", `t.yaml:1:13: spec.u16: value -1 overflows uint16`},
		{"overflow uint16", "spec: {u16: 65536}", `t.yaml:1:13: spec.u16: value 65536 overflows uint16`},
		{"overflow float32", "spec: {f32: 1e39}", `t.yaml:1:13: spec.f32: value 1e39 overflows float32`},
		{"overflow float64", "spec: {ratio: 1e400}", `t.yaml:1:15: spec.ratio: value 1e400 overflows float64`},
		{"overflow float64 negative", "spec: {ratio: -1e400}", `t.yaml:1:15: spec.ratio: value -1e400 overflows float64`},
		{"quoted huge number stays a string", `spec: {ratio: "1e400"}`, `t.yaml:1:15: spec.ratio: expected a number, got string "1e400"`},
		{"int for string", "spec:\n  containers:\n  - name: 1.0\n", `t.yaml:3:11: spec.containers[0].name: expected a string, got float 1.0`},
		{"bool for string", "metadata: {name: true}", `t.yaml:1:18: metadata.name: expected a string, got boolean true`},
		{"string for bool", "spec: {paused: yes}", `t.yaml:1:16: spec.paused: expected a boolean, got string "yes"`},
		{"bad explicit bool", "spec: {paused: !!bool yes}", `t.yaml:1:16: spec.paused: invalid boolean "yes"`},
		{"bad explicit int", "spec: {i64: !!int abc}", `t.yaml:1:13: spec.i64: invalid integer "abc"`},
		// An explicit !!float is a float, not a decimal too large for
		// 64 bits that yaml.v3 resolved as one.
		{"explicit float for int", "spec: {replicas: !!float 3}", `t.yaml:1:18: spec.replicas: expected an integer, got float 3`},
		{"explicit float for unsigned", "spec: {u16: !!float 3}", `t.yaml:1:13: spec.u16: expected an integer, got float 3`},
		// A tag on a mapping or a sequence was dropped without a word,
		// where one on a scalar is refused.
		{"custom tag on a mapping", "metadata: !secret {name: x}", `t.yaml:1:11: metadata: unsupported tag !secret`},
		{"custom tag on a sequence", "spec: {containers: !list [{name: a}]}", `t.yaml:1:20: spec.containers: unsupported tag !list`},
		{"custom tag on a generic mapping", "spec: {any: !obj {a: 1}}", `t.yaml:1:13: spec.any: unsupported tag !obj`},
		{"sequence for mapping", "spec: [1]", `t.yaml:1:7: spec: expected a mapping, got a sequence`},
		{"mapping for sequence", "spec: {containers: {name: a}}", `t.yaml:1:20: spec.containers: expected a sequence, got a mapping`},
		{"scalar for struct", "metadata: web", `t.yaml:1:11: metadata: expected a mapping, got string "web"`},
		{"map key path with dots", "metadata:\n  labels:\n    app.kubernetes.io/name: [x]\n",
			`t.yaml:3:29: metadata.labels[app.kubernetes.io/name]: expected a string, got a sequence`},
		{"map key path plain", "metadata: {labels: {app: [x]}}", `t.yaml:1:26: metadata.labels.app: expected a string, got a sequence`},
		{"unmarshaler error", "spec:\n  containers:\n  - name: a\n    resources:\n      cpu: lots\n",
			"t.yaml:5:12: spec.containers[0].resources.cpu: " + errQuantity.Error()},
		{"unmarshaler infinity", "spec: {quantity: .inf}", `t.yaml:1:18: spec.quantity: .inf is not a finite number (JSON, and so the API, has no infinity or NaN)`},
		{"custom tag", "metadata: {name: !secret x}", `t.yaml:1:18: metadata.name: unsupported tag !secret`},
		{"bad base64", "spec: {data: '***'}", `t.yaml:1:14: spec.data: illegal base64 data at input byte 0`},
		// A plain scalar folds its line break into a space, and the API
		// server's base64 (encoding/json's) refuses a space: only line
		// breaks are skipped.
		{"folded base64", "spec: {data: aGVs\n  bG8=}", `t.yaml:1:14: spec.data: illegal base64 data at input byte 4`},
		{"array too long", "spec: {pair: [1, 2, 3]}", `t.yaml:1:14: spec.pair: expected at most 2 elements, got 3`},
		{"non-scalar key", "metadata: {labels: {[a]: b}}", `t.yaml:1:21: metadata.labels: expected a scalar mapping key, got a sequence`},
		{"bad merge", "spec: {<<: 3}", `t.yaml:1:12: spec: merge key needs a mapping or a sequence of mappings, got integer 3`},
		{"self-referencing anchor", "spec: &s {Matrix: [*s]}", `t.yaml:1:20: spec.Matrix[0]: anchor "s" value contains itself`},
		{"self-merging anchor", "spec: &s {<<: *s}", `t.yaml:1:15: spec: anchor "s" value contains itself`},
		{"first error wins", "spec: {replicas: x, paused: y}\nbad: 1\n", `t.yaml:1:18: spec.replicas: expected an integer, got string "x"`},
		{"error inside merged content keeps its position", "x: &x {replicas: no}\nspec: {<<: *x}\n",
			`t.yaml:1:18: spec.replicas: expected an integer, got string "no"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := parseNode(t, tt.src)
			stripKey(n.Content[0], "x")
			var got object
			err := DecodeNode("t.yaml", n, "", &got)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("DecodeNode = %v (%T), want *Error %q", err, err, tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("error\n got %s\nwant %s", err, tt.want)
			}
		})
	}
}

func TestDecodeNodeUnwrap(t *testing.T) {
	n := parseNode(t, "spec: {quantity: abc}")
	var got object
	err := DecodeNode("t.yaml", n, "", &got)
	if !errors.Is(err, errQuantity) {
		t.Fatalf("errors.Is(%v, errQuantity) = false", err)
	}
}

func TestDecodeNodePathPrefix(t *testing.T) {
	n := parseNode(t, "name: [x]")
	var m meta
	err := DecodeNode("s.yaml", n, "items[3].metadata", &m)
	want := `s.yaml:1:7: items[3].metadata.name: expected a string, got a sequence`
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
}

func TestDecodeNodeTarget(t *testing.T) {
	n := parseNode(t, "a: 1")
	for _, out := range []any{nil, object{}, (*object)(nil)} {
		if err := DecodeNode("t.yaml", n, "", out); err == nil {
			t.Errorf("DecodeNode(%T) succeeded, want error", out)
		}
	}
	var ch struct{ C chan int }
	err := DecodeNode("t.yaml", parseNode(t, "C: 1"), "", &ch)
	if err == nil || !strings.Contains(err.Error(), "cannot decode into Go type chan int") {
		t.Errorf("chan target: %v", err)
	}
	var o object
	if err := DecodeNode("t.yaml", nil, "", &o); err != nil {
		t.Errorf("nil node: %v", err)
	}
}

func TestDecodeNodeKeepsRawNode(t *testing.T) {
	n := parseNode(t, "spec: {node: {a: [1, 2]}}")
	var o object
	if err := DecodeNode("t.yaml", n, "", &o); err != nil {
		t.Fatal(err)
	}
	if o.Spec.Node == nil || o.Spec.Node.Kind != yaml.MappingNode || o.Spec.Node.Line != 1 || len(o.Spec.Node.Content) != 2 {
		t.Fatalf("node = %+v", o.Spec.Node)
	}
}

func TestAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 9; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [", i, i)
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*a%d", i-1)
		}
		b.WriteString("]\n")
	}
	for _, target := range []any{new(any), new(map[string]raw), new(map[string][]any)} {
		err := DecodeNode("bomb.yaml", parseNode(t, b.String()), "", target)
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(e.Msg, "excessive aliasing") {
			t.Errorf("%T: got %v, want excessive aliasing", target, err)
		}
	}
	// The same shape, small enough, is fine.
	var v any
	if err := DecodeNode("ok.yaml", parseNode(t, "a: &a [1, 2]\nb: [*a, *a]\n"), "", &v); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"a": []any{int64(1), int64(2)}, "b": []any{[]any{int64(1), int64(2)}, []any{int64(1), int64(2)}}}
	if !reflect.DeepEqual(v, want) {
		t.Errorf("got %v", v)
	}
}

func TestMergeBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("m0: &m0 {k: [x, x, x, x, x, x, x, x, x, x]}\n")
	for i := 1; i < 9; i++ {
		fmt.Fprintf(&b, "m%d: &m%d {", i, i)
		for j := 0; j < 10; j++ {
			fmt.Fprintf(&b, "k%d: {<<: *m%d}, ", j, i-1)
		}
		b.WriteString("}\n")
	}
	var v any
	err := DecodeNode("bomb.yaml", parseNode(t, b.String()), "", &v)
	if err == nil || !strings.Contains(err.Error(), "excessive aliasing") {
		t.Fatalf("got %v, want excessive aliasing", err)
	}
}

func TestPath(t *testing.T) {
	deep := make([]seg, 100)
	for i := range deep {
		deep[i] = seg{index: i, kind: segIndex}
	}
	tests := []struct {
		prefix string
		segs   []seg
		want   string
	}{
		{"", nil, ""},
		{"", []seg{{name: "metadata"}, {name: "labels"}, {name: "app", kind: segKey}}, "metadata.labels.app"},
		{"", []seg{{name: "labels"}, {name: "app.kubernetes.io/name", kind: segKey}}, "labels[app.kubernetes.io/name]"},
		{"", []seg{{name: "data"}, {name: "my key", kind: segKey}}, "data[my key]"},
		{"", []seg{{name: "data"}, {name: "", kind: segKey}}, "data[]"},
		{"", []seg{{name: "a", kind: segKey}}, "a"},
		{"", []seg{{name: "a.b", kind: segKey}}, "[a.b]"},
		{"", []seg{{index: 3, kind: segIndex}, {name: "spec"}}, "[3].spec"},
		{"items[3]", []seg{{name: "spec"}, {name: "containers"}, {index: 0, kind: segIndex}, {name: "image"}}, "items[3].spec.containers[0].image"},
		{"x", deep, "x" + pathOf(0, 32) + "..." + pathOf(68, 100)},
	}
	for _, tt := range tests {
		d := &decoder{prefix: tt.prefix, segs: tt.segs}
		if got := d.path(); got != tt.want {
			t.Errorf("path(%q, %v) = %q, want %q", tt.prefix, tt.segs, got, tt.want)
		}
	}
}

func pathOf(from, to int) string {
	var b strings.Builder
	for i := from; i < to; i++ {
		fmt.Fprintf(&b, "[%d]", i)
	}
	return b.String()
}

func TestErrorFormat(t *testing.T) {
	tests := []struct {
		e    Error
		want string
	}{
		{Error{File: "a.yaml", Line: 3, Column: 7, Field: "spec", Msg: "bad"}, "a.yaml:3:7: spec: bad"},
		{Error{File: "a.yaml", Line: 3, Column: 7, Msg: "bad"}, "a.yaml:3:7: bad"},
		{Error{File: "a.yaml", Line: 3, Msg: "bad"}, "a.yaml:3: bad"},
		{Error{File: "a.yaml", Msg: "bad"}, "a.yaml: bad"},
		{Error{Msg: "bad"}, "bad"},
	}
	for _, tt := range tests {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}

func TestDepthLimit(t *testing.T) {
	var b strings.Builder
	const levels = 5000
	prev := "x"
	for i := 0; i < 5; i++ {
		fmt.Fprintf(&b, "a%d: &a%d %s%s%s\n", i, i, strings.Repeat("[", levels), prev, strings.Repeat("]", levels))
		prev = fmt.Sprintf("*a%d", i)
	}
	var v any
	err := DecodeNode("deep.yaml", parseNode(t, b.String()), "", &v)
	if err == nil || !strings.Contains(err.Error(), "document nests deeper than 20000 levels") {
		t.Fatalf("got %v, want a depth error", err)
	}
}
