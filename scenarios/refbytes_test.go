package scenarios

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
)

// TestRefBytesCap: the bytes all the file references of a scenario read
// are capped (ref-bytes), a file counted each time it is referenced and
// each file of a directory; the error names the reference that crossed
// the cap, at its line and column. Reading a file again to point an
// error into it (an unknown PriorityClass) is not counted.
func TestRefBytesCap(t *testing.T) {
	// A ConfigMap of about 100 KB; big.yaml's has a generated name, so that
	// referencing it again declares another object, not the same one
	// twice (which the loader refuses on its own).
	cm := func(meta string) []byte {
		return []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {" + meta + "}\ndata:\n  k: " + strings.Repeat("x", 100_000) + "\n")
	}
	fsys := fstest.MapFS{
		"big.yaml": {Data: cm("generateName: big-")},
		"pod.yaml": {Data: []byte("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  priorityClassName: missing\n  containers: [{name: app, image: nginx:1.14.2}]\n")},
	}
	for i := range 5 {
		fsys[fmt.Sprintf("d/c%d.yaml", i)] = &fstest.MapFile{Data: cm(fmt.Sprintf("name: c%d", i))}
	}
	const head = "apiVersion: clustersim.dev/v1alpha1\nkind: Scenario\nmetadata: {name: refs}\nspec:\n  duration: 1m\n  objects:\n"
	refs := func(n int, name string) string {
		return strings.Repeat("  - file: "+name+"\n", n)
	}
	lim := Limits{RefBytes: 350_000}
	for _, tc := range []struct {
		name, objects string
		lim           Limits
		err           string
	}{
		{name: "under the cap", objects: refs(3, "big.yaml"), lim: lim},
		{name: "one file many times", objects: refs(4, "big.yaml"), lim: lim,
			err: `refs.yaml:10:11: spec.objects[3].file: "big.yaml": 400296 bytes read by the scenario's file references in all exceeds the ref-bytes limit of 350000 (raise it with --limit ref-bytes=N if you mean it)`},
		{name: "a directory", objects: refs(1, "d"), lim: lim,
			err: `refs.yaml:7:11: spec.objects[0].file: "d/c3.yaml": 400256 bytes read by the scenario's file references in all exceeds the ref-bytes limit of 350000 (raise it with --limit ref-bytes=N if you mean it)`},
		{name: "default cap", objects: refs(90, "big.yaml"),
			err: `refs.yaml:90:11: spec.objects[83].file: "big.yaml": 8406216 bytes read by the scenario's file references in all exceeds the ref-bytes limit of 8388608 (raise it with --limit ref-bytes=N if you mean it)`},
		{name: "raised", objects: refs(90, "big.yaml"), lim: Limits{RefBytes: 10 << 20}},
		{name: "an error's position is not counted", objects: refs(3, "big.yaml") + refs(1, "pod.yaml"), lim: Limits{RefBytes: 300_400},
			err: `pod.yaml:5:22: spec.priorityClassName: pods "p" is forbidden: no PriorityClass with name missing was found; define the PriorityClass in spec.objects or name system-cluster-critical or system-node-critical`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadWith("refs.yaml", ".", fsys, []byte(head+tc.objects), Options{Limits: tc.lim})
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.err {
				t.Errorf("error\n%s\nwant\n%s", got, tc.err)
			}
		})
	}
}

// TestRefBytesMemory: a 1 MB file referenced 300 times is refused
// under the default caps without holding 300 copies of its objects.
func TestRefBytesMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 8 MB")
	}
	fsys := fstest.MapFS{"big.yaml": {Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {generateName: big-}\ndata:\n  k: " + strings.Repeat("x", 1_000_000) + "\n")}}
	doc := "apiVersion: clustersim.dev/v1alpha1\nkind: Scenario\nmetadata: {name: refs}\nspec:\n  duration: 1m\n  objects:\n" + strings.Repeat("  - file: big.yaml\n", 300)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := Load("refs.yaml", ".", fsys, []byte(doc))
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "spec.objects[8].file: \"big.yaml\"") || !strings.Contains(err.Error(), "ref-bytes limit") {
		t.Fatalf("error %v, want the ref-bytes cap at spec.objects[8]", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 200<<20 {
		t.Errorf("loading allocated %d MB, want at most 200", alloc>>20)
	}
}
