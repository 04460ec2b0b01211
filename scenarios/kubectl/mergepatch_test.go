package kubectl

import (
	"reflect"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
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
		// The server puts a new element first, as upstream's merge does:
		// the patch without its order gives kubectl's result.
		{"new container first: the server's order too", `{"spec":{"containers":[{"name":"web"}]}}`,
			`{"spec":{"$setElementOrder/containers":[{"name":"init"},{"name":"web"}],"containers":[{"name":"init"}]}}`,
			client.StrategicMergePatch, `{"spec":{"containers":[{"name":"init"}]}}`},
		{"new container last: order matters", `{"spec":{"containers":[{"name":"web"}]}}`,
			`{"spec":{"$setElementOrder/containers":[{"name":"web"},{"name":"side"}],"containers":[{"name":"side"}]}}`,
			client.MergePatch, `{"metadata":{"resourceVersion":"42"},"spec":{"containers":[{"name":"web"},{"name":"side"}]}}`},
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

// TestMergePatchRoundTrip: the merge patch diff, applied to a as the
// server applies it (api.MergePatch), gives b.
func TestMergePatchRoundTrip(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{`{"a":1,"b":{"c":[1,2],"d":"x"}}`, `{"a":2,"b":{"c":[1]},"e":true}`},
		{`{"a":{"b":{"c":1}}}`, `{"a":{}}`},
		{`{}`, `{"x":{"y":null}}`},
	} {
		a, b := tree(t, tc.a), tree(t, tc.b)
		got := api.MergePatch(a, mergePatchDiff(a, b)).(map[string]any)
		// A null inside an added object is dropped by RFC 7386.
		want := prune(b, false)
		if !reflect.DeepEqual(prune(got, false), want) {
			t.Errorf("%s -> %s: got %s", tc.a, tc.b, mustEncode(t, got))
		}
	}
}
