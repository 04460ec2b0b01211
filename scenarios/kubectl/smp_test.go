package kubectl

import (
	"reflect"
	"testing"

	"github.com/clustersim/clustersim/sim/client"
)

func tree(t *testing.T, s string) map[string]any {
	t.Helper()
	if s == "" {
		return nil
	}
	m, err := decodeObject([]byte(s))
	if err != nil {
		t.Fatalf("bad JSON %s: %v", s, err)
	}
	return m
}

func mustEncode(t *testing.T, v any) string {
	t.Helper()
	b, err := encode(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestThreeWayPatch checks kubectl's three-way patch: what the file says
// overwrites the live object, what the file dropped since the last apply
// is deleted, what nobody applied is left alone, and keyed lists merge by
// key with kubectl's directives.
func TestThreeWayPatch(t *testing.T) {
	for _, tc := range []struct {
		name                        string
		original, modified, current string
		want                        string
	}{
		{
			name:     "unchanged file, controller fields left alone",
			original: `{"spec":{"replicas":3}}`,
			modified: `{"spec":{"replicas":3}}`,
			current:  `{"spec":{"replicas":3,"progressDeadlineSeconds":600},"status":{"replicas":3}}`,
			want:     `{}`,
		},
		{
			name:     "changed field overwrites live",
			original: `{"spec":{"replicas":3}}`,
			modified: `{"spec":{"replicas":5}}`,
			current:  `{"spec":{"replicas":3}}`,
			want:     `{"spec":{"replicas":5}}`,
		},
		{
			name:     "drift is reverted",
			original: `{"spec":{"replicas":3}}`,
			modified: `{"spec":{"replicas":3}}`,
			current:  `{"spec":{"replicas":7}}`,
			want:     `{"spec":{"replicas":3}}`,
		},
		{
			name:     "field removed from the file is deleted",
			original: `{"metadata":{"annotations":{"team":"a"}},"spec":{"minReadySeconds":5,"replicas":3}}`,
			modified: `{"metadata":{"annotations":{}},"spec":{"replicas":3}}`,
			current:  `{"metadata":{"annotations":{"team":"a","deployment.kubernetes.io/revision":"1"}},"spec":{"minReadySeconds":5,"replicas":3}}`,
			want:     `{"metadata":{"annotations":{"team":null}},"spec":{"minReadySeconds":null}}`,
		},
		{
			name:     "field never applied is left alone",
			original: `{"metadata":{"labels":{"app":"web"}}}`,
			modified: `{"metadata":{"labels":{"app":"web"}}}`,
			current:  `{"metadata":{"labels":{"app":"web","injected":"yes"}}}`,
			want:     `{}`,
		},
		{
			name:     "no last applied: nothing is deleted",
			original: ``,
			modified: `{"spec":{"replicas":3}}`,
			current:  `{"spec":{"replicas":3,"paused":true}}`,
			want:     `{}`,
		},
		{
			name:     "containers merge by name",
			original: `{"spec":{"containers":[{"image":"v1","name":"web"}]}}`,
			modified: `{"spec":{"containers":[{"image":"v2","name":"web"}]}}`,
			current:  `{"spec":{"containers":[{"image":"v1","imagePullPolicy":"IfNotPresent","name":"web"}]}}`,
			want:     `{"spec":{"$setElementOrder/containers":[{"name":"web"}],"containers":[{"image":"v2","name":"web"}]}}`,
		},
		{
			name:     "container added to the file",
			original: `{"spec":{"containers":[{"image":"v1","name":"web"}]}}`,
			modified: `{"spec":{"containers":[{"image":"v1","name":"web"},{"image":"s1","name":"side"}]}}`,
			current:  `{"spec":{"containers":[{"image":"v1","imagePullPolicy":"IfNotPresent","name":"web"}]}}`,
			want:     `{"spec":{"$setElementOrder/containers":[{"name":"web"},{"name":"side"}],"containers":[{"image":"s1","name":"side"}]}}`,
		},
		{
			name:     "container removed from the file",
			original: `{"spec":{"containers":[{"image":"v1","name":"web"},{"image":"s1","name":"side"}]}}`,
			modified: `{"spec":{"containers":[{"image":"v1","name":"web"}]}}`,
			current:  `{"spec":{"containers":[{"image":"v1","name":"web"},{"image":"s1","name":"side"}]}}`,
			want:     `{"spec":{"$setElementOrder/containers":[{"name":"web"}],"containers":[{"$patch":"delete","name":"side"}]}}`,
		},
		{
			name:     "env entry removed inside a container",
			original: `{"spec":{"containers":[{"env":[{"name":"A","value":"1"},{"name":"B","value":"2"}],"name":"web"}]}}`,
			modified: `{"spec":{"containers":[{"env":[{"name":"A","value":"1"}],"name":"web"}]}}`,
			current:  `{"spec":{"containers":[{"env":[{"name":"A","value":"1"},{"name":"B","value":"2"}],"name":"web"}]}}`,
			want:     `{"spec":{"$setElementOrder/containers":[{"name":"web"}],"containers":[{"$setElementOrder/env":[{"name":"A"}],"env":[{"$patch":"delete","name":"B"}],"name":"web"}]}}`,
		},
		{
			name:     "atomic list replaced whole",
			original: `{"spec":{"containers":[{"args":["a","b"],"name":"web"}]}}`,
			modified: `{"spec":{"containers":[{"args":["a"],"name":"web"}]}}`,
			current:  `{"spec":{"containers":[{"args":["a","b"],"name":"web"}]}}`,
			want:     `{"spec":{"$setElementOrder/containers":[{"name":"web"}],"containers":[{"args":["a"],"name":"web"}]}}`,
		},
		{
			name:     "finalizer removed: parallel deletion list",
			original: `{"metadata":{"finalizers":["a","b"]}}`,
			modified: `{"metadata":{"finalizers":["a"]}}`,
			current:  `{"metadata":{"finalizers":["a","b"]}}`,
			want:     `{"metadata":{"$deleteFromPrimitiveList/finalizers":["b"],"$setElementOrder/finalizers":["a"]}}`,
		},
		{
			name:     "strategy switched: retainKeys",
			original: ``,
			modified: `{"spec":{"strategy":{"type":"Recreate"}}}`,
			current:  `{"spec":{"strategy":{"rollingUpdate":{"maxSurge":"25%","maxUnavailable":"25%"},"type":"RollingUpdate"}}}`,
			want:     `{"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}}`,
		},
		{
			name:     "service ports merge by port",
			original: `{"spec":{"ports":[{"port":80,"targetPort":8080}]}}`,
			modified: `{"spec":{"ports":[{"port":80,"targetPort":9090}]}}`,
			current:  `{"spec":{"ports":[{"port":80,"protocol":"TCP","targetPort":8080}]}}`,
			want:     `{"spec":{"$setElementOrder/ports":[{"port":80}],"ports":[{"port":80,"targetPort":9090}]}}`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := threeWayPatch(tree(t, tc.original), tree(t, tc.modified), tree(t, tc.current))
			if err != nil {
				t.Fatal(err)
			}
			if s := mustEncode(t, got); s != tc.want {
				t.Errorf("patch\n got %s\nwant %s", s, tc.want)
			}
		})
	}
}

// TestApplyPatch checks the local strategic merge patch, directives
// included, against the documents kubectl's server would produce.
func TestApplyPatch(t *testing.T) {
	for _, tc := range []struct {
		name, doc, patch, want string
	}{
		{"merge maps, null deletes", `{"a":{"b":1,"c":2},"d":1}`, `{"a":{"b":3,"c":null}}`, `{"a":{"b":3},"d":1}`},
		{"keyed list merges and appends", `{"containers":[{"image":"v1","name":"web","x":1}]}`,
			`{"containers":[{"image":"v2","name":"web"},{"image":"s","name":"side"}]}`,
			`{"containers":[{"image":"v2","name":"web","x":1},{"image":"s","name":"side"}]}`},
		{"delete directive", `{"containers":[{"name":"web"},{"name":"side"}]}`,
			`{"$setElementOrder/containers":[{"name":"web"}],"containers":[{"$patch":"delete","name":"side"}]}`,
			`{"containers":[{"name":"web"}]}`},
		{"set element order", `{"containers":[{"name":"a"},{"name":"b"}]}`,
			`{"$setElementOrder/containers":[{"name":"b"},{"name":"a"}]}`,
			`{"containers":[{"name":"b"},{"name":"a"}]}`},
		{"new element placed by order, server-only kept", `{"containers":[{"name":"a"},{"name":"x"}]}`,
			`{"$setElementOrder/containers":[{"name":"n"},{"name":"a"}],"containers":[{"name":"n"}]}`,
			`{"containers":[{"name":"n"},{"name":"a"},{"name":"x"}]}`},
		{"retain keys", `{"strategy":{"rollingUpdate":{"maxSurge":1},"type":"RollingUpdate"}}`,
			`{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}`,
			`{"strategy":{"type":"Recreate"}}`},
		{"primitive list", `{"metadata":{"finalizers":["a","b"]}}`,
			`{"metadata":{"$deleteFromPrimitiveList/finalizers":["b"],"finalizers":["c"]}}`,
			`{"metadata":{"finalizers":["a","c"]}}`},
		{"replace directive", `{"a":{"b":1,"c":2}}`, `{"a":{"$patch":"replace","d":3}}`, `{"a":{"d":3}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := applyPatch(tree(t, tc.doc), tree(t, tc.patch), nil)
			if err != nil {
				t.Fatal(err)
			}
			if s := mustEncode(t, got); s != tc.want {
				t.Errorf("got %s, want %s", s, tc.want)
			}
		})
	}
}

// TestLowerPatch checks which request Apply sends: the strategic merge
// patch itself when the simulator's server merges it as kubectl means,
// else the equivalent merge patch guarded by resourceVersion.
func TestLowerPatch(t *testing.T) {
	for _, tc := range []struct {
		name, current, patch string
		wantType             client.PatchType
		wantBody             string
	}{
		{"plain field", `{"spec":{"replicas":3}}`, `{"spec":{"replicas":5}}`,
			client.StrategicMergePatch, `{"spec":{"replicas":5}}`},
		{"container image: order directive dropped", `{"spec":{"containers":[{"image":"v1","name":"web"}]}}`,
			`{"spec":{"$setElementOrder/containers":[{"name":"web"}],"containers":[{"image":"v2","name":"web"}]}}`,
			client.StrategicMergePatch, `{"spec":{"containers":[{"image":"v2","name":"web"}]}}`},
		{"container removed: merge patch", `{"metadata":{"name":"d"},"spec":{"containers":[{"name":"web"},{"name":"side"}]}}`,
			`{"spec":{"$setElementOrder/containers":[{"name":"web"}],"containers":[{"$patch":"delete","name":"side"}]}}`,
			client.MergePatch, `{"metadata":{"resourceVersion":"42"},"spec":{"containers":[{"name":"web"}]}}`},
		{"new container first: order matters", `{"spec":{"containers":[{"name":"web"}]}}`,
			`{"spec":{"$setElementOrder/containers":[{"name":"init"},{"name":"web"}],"containers":[{"name":"init"}]}}`,
			client.MergePatch, `{"metadata":{"resourceVersion":"42"},"spec":{"containers":[{"name":"init"},{"name":"web"}]}}`},
		{"service port: the server merges Service ports by port", `{"spec":{"ports":[{"port":80,"targetPort":8080},{"port":81,"targetPort":8081}]}}`,
			`{"spec":{"$setElementOrder/ports":[{"port":80},{"port":81}],"ports":[{"port":81,"targetPort":9091}]}}`,
			client.StrategicMergePatch, `{"spec":{"ports":[{"port":81,"targetPort":9091}]}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pt, body, err := lowerPatch(tree(t, tc.current), tree(t, tc.patch), "42")
			if err != nil {
				t.Fatal(err)
			}
			if pt != tc.wantType || string(body) != tc.wantBody {
				t.Errorf("got %v %s, want %v %s", pt, body, tc.wantType, tc.wantBody)
			}
		})
	}
}

// TestMergePatchRoundTrip: the merge patch diff applied to a gives b.
func TestMergePatchRoundTrip(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{`{"a":1,"b":{"c":[1,2],"d":"x"}}`, `{"a":2,"b":{"c":[1]},"e":true}`},
		{`{"a":{"b":{"c":1}}}`, `{"a":{}}`},
		{`{}`, `{"x":{"y":null}}`},
	} {
		a, b := tree(t, tc.a), tree(t, tc.b)
		got := applyMergePatch(a, mergePatchDiff(a, b))
		// A null inside an added object is dropped by RFC 7386.
		want := prune(b, false)
		if !reflect.DeepEqual(prune(got, false), want) {
			t.Errorf("%s -> %s: got %s", tc.a, tc.b, mustEncode(t, got))
		}
	}
}
