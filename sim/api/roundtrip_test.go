package api

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// normalize drops what a re-encode may legitimately add or drop: nulls and
// empty objects count as absent (kubectl's "creationTimestamp: null",
// "resources: {}", "status: {}"), and so does a status whose leaves are all
// zero, because upstream's status types always write some counters
// (ReplicaSet "replicas: 0", HPA "desiredReplicas: 0") even for a manifest
// that has no status. It returns nil for an absent value.
func normalize(v any, key string) any {
	switch t := v.(type) {
	case nil:
		return nil
	case map[string]any:
		out := map[string]any{}
		for k, e := range t {
			if n := normalize(e, k); n != nil {
				out[k] = n
			}
		}
		if len(out) == 0 || (key == "status" && allZero(out)) {
			return nil
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = normalize(e, "")
		}
		return out
	}
	return v
}

func allZero(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		for _, e := range t {
			if !allZero(e) {
				return false
			}
		}
		return true
	case []any:
		return len(t) == 0
	case float64:
		return t == 0
	case bool:
		return !t
	case string:
		return t == ""
	}
	return v == nil
}

// diffTrees compares a normalized manifest with its normalized re-encoding.
// A key may disappear only when the manifest gave it an explicit false, 0
// or "": omitempty drops those, as upstream does. Nothing may appear, and
// every other value must be equal.
func diffTrees(path string, want, got any) []string {
	wm, wok := want.(map[string]any)
	gm, gok := got.(map[string]any)
	if wok && gok {
		keys := map[string]bool{}
		for k := range wm {
			keys[k] = true
		}
		for k := range gm {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		var diffs []string
		for _, k := range sorted {
			p := path + "." + k
			w, inW := wm[k]
			g, inG := gm[k]
			switch {
			case !inG && allZero(w):
			case !inG:
				diffs = append(diffs, p+": lost")
			case !inW:
				diffs = append(diffs, p+": invented")
			default:
				diffs = append(diffs, diffTrees(p, w, g)...)
			}
		}
		return diffs
	}
	wl, wok := want.([]any)
	gl, gok := got.([]any)
	if wok && gok && len(wl) == len(gl) {
		var diffs []string
		for i := range wl {
			diffs = append(diffs, diffTrees(path+"["+strconv.Itoa(i)+"]", wl[i], gl[i])...)
		}
		return diffs
	}
	if !reflect.DeepEqual(want, got) {
		wb, _ := json.Marshal(want)
		gb, _ := json.Marshal(got)
		return []string{path + ": got " + string(gb) + ", want " + string(wb)}
	}
	return nil
}

func TestManifestRoundTrip(t *testing.T) {
	files, err := filepath.Glob("testdata/*.json")
	if err != nil || len(files) < 20 {
		t.Fatalf("testdata: %d files, err %v", len(files), err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			in, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var tm TypeMeta
			if err := json.Unmarshal(in, &tm); err != nil {
				t.Fatal(err)
			}
			obj, err := New(tm.APIVersion, tm.Kind)
			if err != nil {
				t.Fatal(err)
			}
			dec := json.NewDecoder(bytes.NewReader(in))
			dec.DisallowUnknownFields()
			if err := dec.Decode(obj); err != nil {
				t.Fatalf("strict decode: %v", err)
			}
			out, err := json.Marshal(obj)
			if err != nil {
				t.Fatal(err)
			}
			var want, got any
			if err := json.Unmarshal(in, &want); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatal(err)
			}
			w, g := normalize(want, ""), normalize(got, "")
			if diffs := diffTrees("", w, g); len(diffs) > 0 {
				t.Fatalf("round trip changed the manifest:\n%s", strings.Join(diffs, "\n"))
			}
			// A second pass must be byte-stable.
			again := obj.DeepCopyObject()
			out2, _ := json.Marshal(again)
			if !bytes.Equal(out, out2) {
				t.Fatalf("deep copy encodes differently:\n%s\n%s", out, out2)
			}
		})
	}
}

// TestExplicitZeroKept checks that pointer and IntOrString fields keep an
// explicit zero, which the round-trip comparison alone would not notice.
func TestExplicitZeroKept(t *testing.T) {
	zero := int32(0)
	mu := FromInt32(0)
	d := &Deployment{Spec: DeploymentSpec{Replicas: &zero, RevisionHistoryLimit: &zero,
		Strategy: DeploymentStrategy{RollingUpdate: &RollingUpdateDeployment{MaxUnavailable: &mu}}}}
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"replicas":0`, `"revisionHistoryLimit":0`, `"maxUnavailable":0`} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("%s lacks %s", b, want)
		}
	}
}

// TestRoundTripInventsZeroStatus pins the one known difference from a
// manifest: upstream's status types always write some counters.
func TestRoundTripInventsZeroStatus(t *testing.T) {
	tests := []struct {
		obj  Object
		want string
	}{
		{&ReplicaSet{}, `"status":{"replicas":0}`},
		{&HorizontalPodAutoscaler{}, `"status":{"desiredReplicas":0,"currentMetrics":null}`},
		{&HorizontalPodAutoscalerV1{}, `"status":{"currentReplicas":0,"desiredReplicas":0}`},
		{&Deployment{}, `"status":{}`},
		{&Service{}, `"status":{}`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.obj)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(b, []byte(tt.want)) {
			t.Errorf("%T encodes as %s; want it to contain %s", tt.obj, b, tt.want)
		}
	}
}
