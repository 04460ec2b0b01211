package strategicpatch

import (
	"encoding/json"
	"strings"
	"testing"
)

func tree(t *testing.T, s string) map[string]any {
	t.Helper()
	if s == "" {
		return nil
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("bad JSON %s: %v", s, err)
	}
	return m
}

func mustEncode(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
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
			got, err := ThreeWay(tree(t, tc.original), tree(t, tc.modified), tree(t, tc.current))
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
			`{"metadata":{"finalizers":["c","a"]}}`}, // upstream: the patch's values first (normalizeElementOrder)
		{"replace directive", `{"a":{"b":1,"c":2}}`, `{"a":{"$patch":"replace","d":3}}`, `{"a":{"d":3}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Apply(tree(t, tc.doc), tree(t, tc.patch))
			if err != nil {
				t.Fatal(err)
			}
			if s := mustEncode(t, got); s != tc.want {
				t.Errorf("got %s, want %s", s, tc.want)
			}
		})
	}
}
