package store

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
)

// fillers is how many containers the long variant of a keyed-list test
// appends after the ones it looks at: enough that the list is indexed
// rather than scanned.
const fillers = 40

// withFillers returns cs followed by n containers no row names.
func withFillers(cs []api.Container, n int) []api.Container {
	out := append([]api.Container(nil), cs...)
	for i := range n {
		out = append(out, api.Container{Name: fmt.Sprintf("fill-%d", i), Image: "pause"})
	}
	return out
}

// keyedPod is a pod whose containers exercise key lookups: a duplicate
// name (a, twice), a typed-string key field (ports' protocol), an
// integer one (containerPort), nested keyed env, and names that JSON
// escapes.
func keyedPod(extra int) *api.Pod {
	p := pod("p", "", nil)
	p.Spec.Containers = withFillers([]api.Container{
		{Name: "a", Image: "first", Env: []api.EnvVar{{Name: "E1", Value: "1"}, {Name: "E2", Value: "2"}, {Name: "E1", Value: "dup"}}},
		{Name: "b", Image: "second", Ports: []api.ContainerPort{{ContainerPort: 80, Protocol: "UDP"}, {ContainerPort: 81, Protocol: "TCP"}}},
		{Name: "a", Image: "third"},
		{Name: `q"uote`, Image: "quoted"},
		{Name: "<html>", Image: "html"},
		{Name: "", Image: "nameless"},
	}, extra)
	return p
}

// TestFieldValueKeyedLists holds path resolution through keyed lists to
// what it was when every path scanned its lists: the first element whose
// key field holds the key's value wins (duplicates), keys that are not
// one string field find nothing, any string field of the element may
// key it, and key JSON is read as JSON (escapes, spacing, a repeated
// field's last value). Each row runs on a short list and on one long
// enough to be indexed.
func TestFieldValueKeyedLists(t *testing.T) {
	cs := Path{"f:spec", "f:containers"}
	at := func(keys ...string) Path { return append(append(Path(nil), cs...), keys...) }
	tests := []struct {
		name   string
		path   Path
		want   string
		wantOK bool
	}{
		{"a key", at(`k:{"name":"b"}`, "f:image"), `"second"`, true},
		{"a duplicate key finds the first", at(`k:{"name":"a"}`, "f:image"), `"first"`, true},
		{"a missing key", at(`k:{"name":"zz"}`, "f:image"), "", false},
		{"an empty key value finds a nameless element", at(`k:{"name":""}`, "f:image"), `"nameless"`, true},
		{"another string field keys too", at(`k:{"image":"third"}`, "f:name"), `"a"`, true},
		{"no such field", at(`k:{"nosuch":"a"}`, "f:image"), "", false},
		{"nested keyed list", at(`k:{"name":"a"}`, "f:env", `k:{"name":"E2"}`, "f:value"), `"2"`, true},
		{"nested duplicate", at(`k:{"name":"a"}`, "f:env", `k:{"name":"E1"}`, "f:value"), `"1"`, true},
		{"a typed string key field", at(`k:{"name":"b"}`, "f:ports", `k:{"protocol":"TCP"}`, "f:containerPort"), "81", true},
		{"an integer key value finds nothing", at(`k:{"name":"b"}`, "f:ports", `k:{"containerPort":80}`), "", false},
		{"a multi-field key finds nothing", at(`k:{"name":"b"}`, "f:ports", `k:{"containerPort":80,"protocol":"UDP"}`), "", false},
		{"a repeated key field: JSON's last value", at(`k:{"name":"zz","name":"b"}`, "f:image"), `"second"`, true},
		{"an escaped quote", at(`k:{"name":"q\"uote"}`, "f:image"), `"quoted"`, true},
		{"an escape of a plain character", at(`k:{"name":"\u003chtml\u003e"}`, "f:image"), `"html"`, true},
		{"html characters as keyedKey writes them", at(`k:{"name":"<html>"}`, "f:image"), `"html"`, true},
		{"spaces in the key JSON", at(`k:{ "name" : "b" }`, "f:image"), `"second"`, true},
		{"malformed key JSON", at(`k:{"name":"b"`, "f:image"), "", false},
		{"a key into a field that is no list", Path{"f:spec", `k:{"name":"b"}`}, "", false},
		{"an index", at("i:1", "f:image"), `"second"`, true},
		{"an index past the end", at("i:100000", "f:image"), "", false},
	}
	for _, extra := range []int{0, fillers} {
		p := keyedPod(extra)
		for _, tc := range tests {
			t.Run(fmt.Sprintf("%s/len=%d", tc.name, len(p.Spec.Containers)), func(t *testing.T) {
				got, ok := FieldValue(p, tc.path)
				if got != tc.want || ok != tc.wantOK {
					t.Errorf("FieldValue %s = %s, %v; want %s, %v", tc.path, got, ok, tc.want, tc.wantOK)
				}
			})
		}
	}
}

// containerSummary prints a pod template's containers as
// name=image[env names] for comparing merges.
func containerSummary(cs []api.Container) string {
	var b strings.Builder
	for i, c := range cs {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s=%s", c.Name, c.Image)
		if len(c.Env) > 0 {
			b.WriteByte('[')
			for j, e := range c.Env {
				if j > 0 {
					b.WriteByte(',')
				}
				b.WriteString(e.Name + ":" + e.Value)
			}
			b.WriteByte(']')
		}
	}
	return b.String()
}

// applyStep is one write of TestApplyKeyedLists: an apply by "applier"
// (forced: conflicts are reported, not refused) or an update by "editor".
type applyStep struct {
	update     bool
	containers []api.Container
	// want is the template's containers after the write (fillers left
	// out), conflicts the paths reported.
	want      string
	conflicts string
}

// TestApplyKeyedLists holds server-side apply's merge through keyed lists
// to what it did when every path scanned its lists from the root: a
// duplicate name in the live list is merged into and removed at its
// first element; an element dropped from the configuration goes with
// its fields unless another manager owns something in it, in which case
// only the applier's fields go (the name included: the element is then
// no longer found by it); nested keyed lists lose the elements no longer
// applied. Each scenario runs with a short list and with fillers that the
// creator owns.
func TestApplyKeyedLists(t *testing.T) {
	env := func(kv ...string) []api.EnvVar {
		var out []api.EnvVar
		for i := 0; i < len(kv); i += 2 {
			out = append(out, api.EnvVar{Name: kv[i], Value: kv[i+1]})
		}
		return out
	}
	tests := []struct {
		name    string
		created []api.Container
		steps   []applyStep
	}{{
		name:    "duplicates in the live list: the first is merged into and removed",
		created: []api.Container{{Name: "a", Image: "1"}, {Name: "b", Image: "2"}, {Name: "a", Image: "3"}},
		steps: []applyStep{
			{containers: []api.Container{{Name: "a", Image: "x"}}, want: "a=x b=2 a=3"},
			{containers: []api.Container{{Name: "b", Image: "2"}}, want: "b=2 a=3"},
		},
	}, {
		name:    "elements added, then dropped, with nested env",
		created: []api.Container{{Name: "base", Image: "1"}},
		steps: []applyStep{
			{containers: []api.Container{{Name: "x", Image: "x1", Env: env("E1", "1", "E2", "2")}, {Name: "y", Image: "y1"}},
				want: "base=1 x=x1[E1:1,E2:2] y=y1"},
			{containers: []api.Container{{Name: "x", Image: "x2", Env: env("E1", "1")}}, want: "base=1 x=x2[E1:1]"},
			{containers: []api.Container{{Name: "y", Image: "y2"}}, want: "base=1 y=y2"},
		},
	}, {
		name:    "another manager's field keeps a dropped element, without its name",
		created: []api.Container{{Name: "base", Image: "1"}},
		steps: []applyStep{
			{containers: []api.Container{{Name: "x", Image: "x1", Env: env("E1", "1")}, {Name: "y", Image: "y1", Env: env("E1", "1")}}, want: "base=1 x=x1[E1:1] y=y1[E1:1]"},
			{update: true, containers: []api.Container{{Name: "base", Image: "1"}, {Name: "x", Image: "edited", Env: env("E1", "1")}, {Name: "y", Image: "y1", Env: env("E1", "1")}},
				want: "base=1 x=edited[E1:1] y=y1[E1:1]"},
			{containers: []api.Container{{Name: "y", Image: "y1"}}, want: "base=1 =edited[E1:1] y=y1"},
		},
	}, {
		name:    "a conflict with the creator is reported and forced",
		created: []api.Container{{Name: "a", Image: "1"}, {Name: "b", Image: "2"}},
		steps: []applyStep{
			{containers: []api.Container{{Name: "b", Image: "2"}, {Name: "a", Image: "9"}}, want: "a=9 b=2",
				conflicts: `.spec.containers[name="a"].image`},
		},
	}}
	for _, extra := range []int{0, fillers} {
		for _, tc := range tests {
			t.Run(fmt.Sprintf("%s/fillers=%d", tc.name, extra), func(t *testing.T) {
				s := New(kernel.New(1))
				p := pod("p", "", nil)
				p.Spec.Containers = withFillers(tc.created, extra)
				live, err := s.Create(Op{Actor: "creator"}, p)
				if err != nil {
					t.Fatal(err)
				}
				for i, st := range tc.steps {
					cfg := pod("p", "", nil)
					cfg.Spec.Containers = st.containers
					var conflicts []string
					if st.update {
						cfg.Spec.Containers = withFillers(st.containers, extra)
						cfg.ObjectMeta = *live.GetObjectMeta().DeepCopy()
						live, err = s.Update(Op{Actor: "editor"}, cfg, "")
					} else {
						var merged api.Object
						var cs []Conflict
						if merged, cs, err = s.PlanApply(live, cfg, "applier"); err != nil {
							t.Fatal(err)
						}
						for _, c := range cs {
							conflicts = append(conflicts, c.Path.String())
						}
						live, err = s.Update(Op{Actor: "applier", FieldManager: "applier", Applied: cfg}, merged, "")
					}
					if err != nil {
						t.Fatal(err)
					}
					got := live.(*api.Pod).Spec.Containers
					var kept []api.Container
					for _, c := range got {
						if !strings.HasPrefix(c.Name, "fill-") {
							kept = append(kept, c)
						}
					}
					if len(got)-len(kept) != extra {
						t.Errorf("step %d: %d fillers left of %d", i, len(got)-len(kept), extra)
					}
					if s := containerSummary(kept); s != st.want {
						t.Errorf("step %d: containers %s, want %s", i, s, st.want)
					}
					if c := strings.Join(conflicts, " "); c != st.conflicts {
						t.Errorf("step %d: conflicts %q, want %q", i, c, st.conflicts)
					}
				}
			})
		}
	}
}

// TestDiffLongKeyedLists holds the diff of keyed lists long enough for
// their keys to be found in maps to the scans' result: elements paired by
// key whatever their order, an element moved, changed, removed and added;
// a duplicate name makes both lists be compared by index. Through memory
// and through reflect.Values alike.
func TestDiffLongKeyedLists(t *testing.T) {
	base := withFillers(nil, fillers)
	moved := slices.Clone(base)
	moved = append([]api.Container{{Name: "fill-39", Image: "new"}}, moved[:39]...)
	moved = slices.Delete(moved, 6, 7) // fill-5
	moved = append(moved, api.Container{Name: "added", Image: "x"})
	dup := slices.Clone(base)
	dup[30].Name, dup[30].Image = "fill-2", "y"
	tests := []struct {
		name string
		new  []api.Container
		want string
	}{
		{"same", slices.Clone(base), ""},
		{"moved, changed, removed, added", moved,
			"spec.containers[fill-5].name spec.containers[fill-5].image spec.containers[fill-39].image spec.containers[added].name spec.containers[added].image"},
		{"a duplicate name: by index", dup, "spec.containers[30].name spec.containers[30].image"},
	}
	for _, tc := range tests {
		for _, reflective := range []bool{false, true} {
			old, new := pod("p", "", nil), pod("p", "", nil)
			old.Spec.Containers, new.Spec.Containers = base, tc.new
			_, changes := diffBoth(old, new, reflective)
			var paths []string
			for _, c := range changes {
				paths = append(paths, c.Path)
			}
			if got := strings.Join(paths, " "); got != tc.want {
				t.Errorf("%s (reflective %v): %s\nwant %s", tc.name, reflective, got, tc.want)
			}
		}
	}
}
