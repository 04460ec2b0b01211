package store

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
)

func TestCanonicalKeys(t *testing.T) {
	dep := reflect.TypeFor[*api.Deployment]()
	c := `k:{"name":"nginx"}`
	tpl := []string{"f:spec", "f:template", "f:spec", "f:containers", c}
	tests := []struct {
		raw  string
		want Path
		elem Path
		leaf bool
	}{
		{"spec.replicas", Path{"f:spec", "f:replicas"}, nil, true},
		{"metadata.labels[app]", Path{"f:metadata", "f:labels", "f:app"}, nil, true},
		{"metadata.annotations[kubectl.kubernetes.io/last-applied-configuration]",
			Path{"f:metadata", "f:annotations", "f:kubectl.kubernetes.io/last-applied-configuration"}, nil, true},
		{"spec.template.spec.containers[nginx].image", append(slices.Clone(tpl), "f:image"), nil, true},
		{"spec.template.spec.containers[nginx].name", append(slices.Clone(tpl), "f:name"), Path(tpl), true},
		{"spec.template.spec.containers[nginx].resources.limits[cpu]", append(slices.Clone(tpl), "f:resources", "f:limits", "f:cpu"), nil, true},
		// Atomic nodes: a label selector, a list of scalars, a list
		// addressed by index.
		{"spec.selector.matchLabels[app]", Path{"f:spec", "f:selector"}, nil, false},
		{"spec.template.spec.containers[nginx].args[1]", append(slices.Clone(tpl), "f:args"), nil, false},
		{"spec.template.spec.containers[nginx].ports[0].containerPort", append(slices.Clone(tpl), "f:ports"), nil, false},
		{"spec.template.spec.containers[0].image", Path{"f:spec", "f:template", "f:spec", "f:containers"}, nil, false},
		{"status.conditions[Available].status", Path{"f:status", "f:conditions", `k:{"type":"Available"}`, "f:status"}, nil, true},
		{"spec.strategy.rollingUpdate.maxSurge", Path{"f:spec", "f:strategy", "f:rollingUpdate", "f:maxSurge"}, nil, true},
		{"spec.nosuchfield", nil, nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.raw, func(t *testing.T) {
			got, elem, leaf := canonicalKeys(dep, tc.raw)
			if !slices.Equal(got, tc.want) || !slices.Equal(elem, tc.elem) || leaf != tc.leaf {
				t.Errorf("got %q elem %q leaf %v, want %q elem %q leaf %v", got, elem, leaf, tc.want, tc.elem, tc.leaf)
			}
		})
	}
}

func TestStrippedPathsAreNotOwned(t *testing.T) {
	s := New(kernel.New(1))
	fi := s.fieldsFor(&api.Deployment{})
	for _, raw := range []string{"apiVersion", "kind", "metadata.name", "metadata.namespace", "metadata.uid", "metadata.resourceVersion",
		"metadata.generation", "metadata.creationTimestamp", "metadata.deletionTimestamp"} {
		if c := fi.canon(raw); c.n != 0 {
			t.Errorf("%s is owned as %q", raw, fi.paths[c.ids[0]].keys)
		}
	}
	if c := fi.canon("metadata.generateName"); c.n != 1 {
		t.Errorf("metadata.generateName is not owned")
	}
}

func TestPathString(t *testing.T) {
	tests := []struct {
		p    Path
		want string
	}{
		{Path{"f:spec", "f:replicas"}, ".spec.replicas"},
		{Path{"f:spec", "f:containers", `k:{"name":"sample-container"}`, "f:image"}, `.spec.containers[name="sample-container"].image`},
		{Path{"f:metadata", "f:labels", "f:app"}, ".metadata.labels.app"},
		{Path{"f:spec", "f:ports", `k:{"containerPort":80,"protocol":"TCP"}`}, `.spec.ports[containerPort=80,protocol="TCP"]`},
		{Path{"f:spec", "f:args", "i:2"}, ".spec.args[2]"},
		{Path{"f:metadata", "f:finalizers", `v:"orphan"`}, `.metadata.finalizers[="orphan"]`},
	}
	for _, tc := range tests {
		if got := tc.p.String(); got != tc.want {
			t.Errorf("%q: got %s, want %s", tc.p, got, tc.want)
		}
	}
}

func TestRenderFieldsV1(t *testing.T) {
	c := `k:{"name":"nginx"}`
	tests := []struct {
		name  string
		paths []Path
		want  string
	}{
		{"one leaf", []Path{{"f:spec", "f:replicas"}}, `{"f:spec":{"f:replicas":{}}}`},
		{"sorted fields, element node first as '.'", []Path{
			{"f:spec", "f:template", "f:spec", "f:containers", c, "f:name"},
			{"f:spec", "f:replicas"},
			{"f:spec", "f:template", "f:spec", "f:containers", c},
			{"f:spec", "f:template", "f:spec", "f:containers", c, "f:image"},
			{"f:metadata", "f:labels", "f:app"},
		}, `{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:replicas":{},"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"nginx\"}":{".":{},"f:image":{},"f:name":{}}}}}}}`},
		{"fields before keys before indexes", []Path{{"f:x", "i:10"}, {"f:x", "i:9"}, {"f:x", `k:{"name":"a"}`}, {"f:x", "f:a"}},
			`{"f:x":{"f:a":{},"k:{\"name\":\"a\"}":{},"i:9":{},"i:10":{}}}`},
		{"duplicates collapse", []Path{{"f:a"}, {"f:a"}}, `{"f:a":{}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := string(renderPaths(tc.paths))
			if got != tc.want {
				t.Fatalf("got  %s\nwant %s", got, tc.want)
			}
			back, err := ParseFieldsV1(api.RawValue(got))
			if err != nil {
				t.Fatal(err)
			}
			if again := string(renderPaths(back)); again != got {
				t.Errorf("parse and render again: %s", again)
			}
		})
	}
	if _, err := ParseFieldsV1(api.RawValue(`{"f:a":1}`)); err == nil {
		t.Error("a non-object member parsed")
	}
}

// ownership is a test's view of managedFields: manager/operation[/sub]
// -> paths in SMD form.
func ownership(s *Store, o api.Object) map[string][]string {
	out := map[string][]string{}
	for _, m := range s.ManagedFields(o) {
		id := m.Manager + "/" + m.Operation
		if m.Subresource != "" {
			id += "/" + m.Subresource
		}
		for _, p := range m.Fields {
			out[id] = append(out[id], p.String())
		}
	}
	return out
}

func deploymentFor(replicas int32, image string, labels map[string]string) *api.Deployment {
	sel := map[string]string{"app": "web"}
	return &api.Deployment{
		TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default", Labels: labels},
		Spec: api.DeploymentSpec{
			Replicas: &replicas,
			Selector: &api.LabelSelector{MatchLabels: sel},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: sel},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: image}}}},
		},
	}
}

func TestUpdateOwnership(t *testing.T) {
	type write struct {
		manager string
		sub     string
		edit    func(d *api.Deployment)
	}
	tests := []struct {
		name   string
		writes []write
		want   map[string][]string
	}{{
		name: "create owns every field it set",
		want: map[string][]string{"creator/Update": {".metadata.labels.team", ".spec.replicas", ".spec.selector",
			".spec.template.metadata.labels.app", `.spec.template.spec.containers[name="nginx"]`,
			`.spec.template.spec.containers[name="nginx"].image`, `.spec.template.spec.containers[name="nginx"].name`}},
	}, {
		name:   "an update takes the fields it changed from their owners",
		writes: []write{{manager: "hpa", edit: func(d *api.Deployment) { *d.Spec.Replicas = 7 }}},
		want: map[string][]string{
			"creator/Update": {".metadata.labels.team", ".spec.selector", ".spec.template.metadata.labels.app",
				`.spec.template.spec.containers[name="nginx"]`, `.spec.template.spec.containers[name="nginx"].image`, `.spec.template.spec.containers[name="nginx"].name`},
			"hpa/Update": {".spec.replicas"}},
	}, {
		name: "a removed field leaves every set; an emptied set leaves the list",
		writes: []write{
			{manager: "hpa", edit: func(d *api.Deployment) { *d.Spec.Replicas = 7 }},
			{manager: "janitor", edit: func(d *api.Deployment) { d.Spec.Replicas = nil }},
			{manager: "janitor", edit: func(d *api.Deployment) { d.Labels = nil }},
		},
		want: map[string][]string{
			"creator/Update": {".spec.selector", ".spec.template.metadata.labels.app",
				`.spec.template.spec.containers[name="nginx"]`, `.spec.template.spec.containers[name="nginx"].image`, `.spec.template.spec.containers[name="nginx"].name`}},
	}, {
		name: "a status write is its own entry and takes nothing from spec owners",
		writes: []write{{manager: "deployment-controller", sub: "status", edit: func(d *api.Deployment) {
			d.Status.Replicas = 3
			d.Status.Conditions = []api.DeploymentCondition{{Type: "Available", Status: "True"}}
		}}},
		want: map[string][]string{
			"creator/Update": {".metadata.labels.team", ".spec.replicas", ".spec.selector", ".spec.template.metadata.labels.app",
				`.spec.template.spec.containers[name="nginx"]`, `.spec.template.spec.containers[name="nginx"].image`, `.spec.template.spec.containers[name="nginx"].name`},
			"deployment-controller/Update/status": {`.status.conditions[type="Available"]`, `.status.conditions[type="Available"].status`,
				`.status.conditions[type="Available"].type`, ".status.replicas"}},
	}, {
		name: "a new container is owned with its element by whoever added it",
		writes: []write{{manager: "injector", edit: func(d *api.Deployment) {
			d.Spec.Template.Spec.Containers = append(d.Spec.Template.Spec.Containers, api.Container{Name: "proxy", Image: "envoy", Args: []string{"-a", "-b"}})
		}}, {manager: "tuner", edit: func(d *api.Deployment) {
			d.Spec.Template.Spec.Containers[1].Args = []string{"-a"} // a shorter atomic list is a change, not a removal
		}}},
		want: map[string][]string{
			"creator/Update": {".metadata.labels.team", ".spec.replicas", ".spec.selector", ".spec.template.metadata.labels.app",
				`.spec.template.spec.containers[name="nginx"]`, `.spec.template.spec.containers[name="nginx"].image`, `.spec.template.spec.containers[name="nginx"].name`},
			"injector/Update": {`.spec.template.spec.containers[name="proxy"]`, `.spec.template.spec.containers[name="proxy"].image`,
				`.spec.template.spec.containers[name="proxy"].name`},
			"tuner/Update": {`.spec.template.spec.containers[name="proxy"].args`}},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := New(kernel.New(1))
			o, err := s.Create(Op{Actor: "creator"}, deploymentFor(3, "nginx:1", map[string]string{"team": "a"}))
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.writes {
				d := o.DeepCopyObject().(*api.Deployment)
				w.edit(d)
				if o, err = s.Update(Op{Actor: "someone", FieldManager: w.manager}, d, w.sub); err != nil {
					t.Fatal(err)
				}
			}
			got := ownership(s, o)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ownership\n got %v\nwant %v", got, tc.want)
			}
		})
	}
}

func TestManagedFieldsTimesAndOrder(t *testing.T) {
	k := kernel.New(1)
	s := New(k)
	o, err := s.Create(Op{Actor: "zed"}, deploymentFor(1, "a", nil))
	if err != nil {
		t.Fatal(err)
	}
	step := func(d time.Duration, manager string, edit func(*api.Deployment)) {
		t.Helper()
		k.RunFor(d)
		c := o.DeepCopyObject().(*api.Deployment)
		edit(c)
		if o, err = s.Update(Op{Actor: manager}, c, ""); err != nil {
			t.Fatal(err)
		}
	}
	step(1500*time.Millisecond, "alpha", func(d *api.Deployment) { *d.Spec.Replicas = 2 })
	step(time.Second, "zed", func(d *api.Deployment) { d.Spec.Template.Spec.Containers[0].Image = "b" })
	mf := o.GetObjectMeta().ManagedFields
	var got []string
	for _, e := range mf {
		got = append(got, e.Manager+"@"+e.Time.Format("05"))
	}
	// By time (seconds), then manager: alpha wrote at 1s, zed last at 2s.
	if want := []string{"alpha@01", "zed@02"}; !slices.Equal(got, want) {
		t.Errorf("entries %v, want %v", got, want)
	}
	// A no-op update keeps the object, its managedFields included.
	before := o
	if o, err = s.Update(Op{Actor: "alpha"}, o.DeepCopyObject(), ""); err != nil || o != before {
		t.Errorf("a no-op update wrote (err %v)", err)
	}
	for _, e := range mf {
		if e.FieldsType != FieldsTypeV1 || e.APIVersion != "apps/v1" || e.Operation != OperationUpdate {
			t.Errorf("entry %+v", e)
		}
	}
}

// TestManagedFieldsShareSets: objects with the same owners share one
// rendered FieldsV1 value.
func TestManagedFieldsShareSets(t *testing.T) {
	s := New(kernel.New(1))
	var raws []*api.RawValue
	for _, n := range []string{"a", "b"} {
		o, err := s.Create(Op{Actor: "rs"}, pod(n, "", map[string]string{"app": "web"}))
		if err != nil {
			t.Fatal(err)
		}
		raws = append(raws, o.GetObjectMeta().ManagedFields[0].FieldsV1)
	}
	if raws[0] != raws[1] {
		t.Error("two pods with the same fields got two FieldsV1 values")
	}
	if !strings.Contains(string(*raws[0]), `"k:{\"name\":\"c\"}"`) {
		t.Errorf("fieldsV1 %s", *raws[0])
	}
}

// createPod creates a pod named name with labels in s as actor, failing
// t on an error.
func createPod(t *testing.T, s *Store, name, actor string, labels map[string]string) *api.Pod {
	t.Helper()
	o, err := s.Create(Op{Actor: actor}, pod(name, "", labels))
	if err != nil {
		t.Fatal(err)
	}
	return o.(*api.Pod)
}

// sameList reports whether a and b share one managedFields list.
func sameList(a, b *api.Pod) bool { return &a.ManagedFields[0] == &b.ManagedFields[0] }

// TestManagedFieldsListsShared: objects written in the same second by the
// same managers with the same fields share one managedFields list; a
// write by another manager, of other fields or in another second gets a
// list of its own, and a later write to one object leaves the list of
// the others as it was.
func TestManagedFieldsListsShared(t *testing.T) {
	k := kernel.New(1)
	s := New(k)
	create := func(name, actor string, labels map[string]string) *api.Pod {
		t.Helper()
		return createPod(t, s, name, actor, labels)
	}
	same := sameList
	web := map[string]string{"app": "web"}
	a, b := create("a", "rs", web), create("b", "rs", web)
	if !same(a, b) {
		t.Error("pods a and b, written alike in one second, keep two managedFields lists")
	}
	if c := create("c", "other", web); same(a, c) {
		t.Error("a pod written by another manager shares pod a's list")
	}
	if d := create("d", "rs", nil); same(a, d) {
		t.Error("a pod with other fields shares pod a's list")
	}
	k.RunFor(time.Second)
	if e := create("e", "rs", web); same(a, e) {
		t.Error("a pod written a second later shares pod a's list")
	}
	before := slices.Clone(b.ManagedFields)
	upd := a.DeepCopy()
	upd.Status.Phase = api.PodRunning
	o, err := s.Update(Op{Actor: "kubelet"}, upd, "status")
	if err != nil {
		t.Fatal(err)
	}
	if len(o.GetObjectMeta().ManagedFields) != 2 || !slices.Equal(b.ManagedFields, before) {
		t.Errorf("after a status write to a: a has %d entries, b %v (was %v)", len(o.GetObjectMeta().ManagedFields), b.ManagedFields, before)
	}
	// Writers that interleave, more of them than the ring of recent
	// lists holds (the kubelets of a large cluster): each one's objects
	// still share its list.
	k.RunFor(time.Second)
	first := make([]*api.Pod, 2*sharedLists)
	for i := range first {
		first[i] = create(fmt.Sprintf("first-%d", i), fmt.Sprintf("node-%d", i), web)
	}
	for i := range first {
		if again := create(fmt.Sprintf("again-%d", i), fmt.Sprintf("node-%d", i), web); !same(first[i], again) {
			t.Errorf("node-%d's second pod, written alike in the same second after %d other writers, keeps a list of its own", i, len(first)-1)
		}
		if i > 0 && same(first[i], first[i-1]) {
			t.Errorf("node-%d's and node-%d's pods share a list", i, i-1)
		}
	}
}

// TestCreatedFieldsRemembered: a create that changes the fields the last
// create with the same changes did, by the same manager in the same
// second, gets that create's managedFields list (managed remembers it in
// the changes' memo); a create in the next second, or by another manager,
// gets a list of its own with its own time and manager, whichever create
// came between. Planting a memory that ignores the second, or the
// manager, fails it.
func TestCreatedFieldsRemembered(t *testing.T) {
	k := kernel.New(1)
	s := New(k)
	web := map[string]string{"app": "web"}
	create := func(name, actor string) *api.Pod {
		t.Helper()
		return createPod(t, s, name, actor, web)
	}
	start := k.Now().Wall()
	check := func(p *api.Pod, manager string, second int) {
		t.Helper()
		mf := p.ManagedFields
		if len(mf) != 1 || mf[0].Manager != manager || mf[0].Time == nil || !mf[0].Time.Time.Equal(start.Add(time.Duration(second)*time.Second)) {
			t.Errorf("%s: managedFields %+v, want one entry of %s at second %d", p.Name, mf, manager, second)
		}
	}
	same := sameList
	a, b := create("a", "rs"), create("b", "rs")
	check(a, "rs", 0)
	check(b, "rs", 0)
	if !same(a, b) {
		t.Error("a and b, created alike in one second, keep two lists")
	}
	k.RunFor(time.Second)
	c := create("c", "rs")
	check(c, "rs", 1)
	d := create("d", "other")
	check(d, "other", 1)
	e := create("e", "rs")
	check(e, "rs", 1)
	if same(c, d) || same(a, c) {
		t.Error("creates by another manager, or in another second, share a list")
	}
}

// TestCreatedFieldsByManager checks the creates of managers that take
// turns, as 5,000 kubelets' Events do: a manager's create takes the list
// its last create got when that list is exactly this create's (the same
// second and field set), and only then. Without the field set's check
// the x pod created after m0's y pod got y's fields; without the
// second's, m1's create in the next second kept the first second's time.
func TestCreatedFieldsByManager(t *testing.T) {
	k := kernel.New(1)
	s := New(k)
	start := k.Now().Wall()
	create := func(name, actor string, labels map[string]string) *api.Pod {
		t.Helper()
		return createPod(t, s, name, actor, labels)
	}
	x, y := map[string]string{"app": "web"}, map[string]string{"app": "web", "tier": "front"}
	check := func(p, like *api.Pod, manager string, second int) {
		t.Helper()
		mf := p.ManagedFields
		if len(mf) != 1 || mf[0].Manager != manager || mf[0].Time == nil || !mf[0].Time.Time.Equal(start.Add(time.Duration(second)*time.Second)) {
			t.Fatalf("%s: managedFields %+v, want one entry of %s at second %d", p.Name, mf, manager, second)
		}
		if got, want := string(*mf[0].FieldsV1), string(*like.ManagedFields[0].FieldsV1); got != want {
			t.Errorf("%s: fields %s, want %s", p.Name, got, want)
		}
	}
	same := sameList
	// More managers than shareEntries' ring keeps lists of.
	first := make([]*api.Pod, 2*sharedLists)
	for i := range first {
		first[i] = create(fmt.Sprintf("x%d", i), fmt.Sprintf("m%d", i), x)
		check(first[i], first[0], fmt.Sprintf("m%d", i), 0)
	}
	yPod := create("y0", "m0", y)
	check(yPod, yPod, "m0", 0)
	if string(*yPod.ManagedFields[0].FieldsV1) == string(*first[0].ManagedFields[0].FieldsV1) {
		t.Fatal("the y pod's fields are the x pods'")
	}
	for i := 1; i < len(first); i++ {
		create(fmt.Sprintf("y%d", i), fmt.Sprintf("m%d", i), y)
	}
	// m0's last create was a y pod: its x pod gets x's fields.
	again := create("x0-again", "m0", x)
	check(again, first[0], "m0", 0)
	// m1's last create was a y pod too: its x pod's list is a new one,
	// which its next x pod in this second shares.
	m1 := create("x1-again", "m1", x)
	check(m1, first[0], "m1", 0)
	create("x2-again", "m2", x)
	if m1b := create("x1-thrice", "m1", x); !same(m1, m1b) {
		t.Error("m1's two x pods in one second keep two lists")
	}
	create("x2-next", "m2", x)
	k.RunFor(time.Second)
	next := create("x1-next", "m1", x)
	check(next, first[0], "m1", 1)
	if same(next, m1) {
		t.Error("m1's creates in two seconds share a list")
	}
}

// BenchmarkManagedUpdate is a controller rewriting the status fields it
// owns, the common write; it reports the cost per write with field
// ownership.
func BenchmarkManagedUpdate(b *testing.B) {
	k := kernel.New(1)
	s := New(k)
	o, err := s.Create(Op{Actor: "rs"}, pod("p", "n1", map[string]string{"app": "web"}))
	if err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		p := o.DeepCopyObject().(*api.Pod)
		i++
		p.Status.Phase = api.PodRunning
		p.Status.Message = string(rune('a' + i%26))
		if o, err = s.Update(Op{Actor: "kubelet"}, p, "status"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/write")
}

// TestChangedMemo checks when managed may reuse the ids of earlier
// changes: the same path strings (the audit log's interned ones) setting
// values, for the same status handling; never for a removal, other
// strings of the same text, or other status handling. Planting a memo
// that compares the paths' lengths only made it fail.
func TestChangedMemo(t *testing.T) {
	fi := New(kernel.New(1)).fieldsFor(&api.Pod{})
	path := func(s string) string { return string([]byte(s)) } // a string of its own
	image, phase := path("spec.containers[c].image"), path("status.phase")
	set := func(paths ...string) []Change {
		var cs []Change
		for _, p := range paths {
			cs = append(cs, Change{Path: p, New: "x", NewSet: true})
		}
		return cs
	}
	tests := []struct {
		name       string
		changes    []Change
		skipStatus bool
		want       bool
	}{
		{"same strings", set(image, phase), true, true},
		{"other status handling", set(image, phase), false, false},
		{"same text, other strings", set(path(image), path(phase)), true, false},
		{"fewer changes", set(image), true, false},
		{"a removal", []Change{{Path: image, Old: "x", OldSet: true}, {Path: phase, New: "x", NewSet: true}}, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// Whatever slot the changes hash to holds the memo of the
			// first ones.
			if m, _ := fi.memo(tc.changes, tc.skipStatus); m != nil {
				m.skipStatus, m.paths, m.ids = true, []string{image, phase}, []uint32{7}
			}
			got, hit := fi.memo(tc.changes, tc.skipStatus)
			if hit != tc.want || hit && !slices.Equal(got.ids, []uint32{7}) {
				t.Errorf("hit %v, want %v", hit, tc.want)
			}
		})
	}
}

// TestFieldSetHas checks that a field set's membership, bits for the low
// ids and a search above them, is the search's over the ids: random sets
// around the boundary (lowIDs), every id asked.
func TestFieldSetHas(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for trial := range 200 {
		var ids []uint32
		for id := uint32(0); id < 2*lowIDs+70; id++ {
			if rng.IntN(4) == 0 {
				ids = append(ids, id)
			}
		}
		if trial%10 == 0 {
			ids = []uint32{0, 63, 64, lowIDs - 1, lowIDs, lowIDs + 1}
		}
		s := newFieldSet(ids)
		for id := uint32(0); id < 2*lowIDs+80; id++ {
			_, want := slices.BinarySearch(ids, id)
			if got := s.has(id); got != want {
				t.Fatalf("trial %d: has(%d) = %v, want %v (ids %v)", trial, id, got, want, ids)
			}
		}
	}
}

// TestSameOwnersByWords checks sameOwners' word-at-a-time test of the
// changed fields against each entry's set with the per-id test it
// replaces: random entries (the writer's and others', ids below and
// above lowIDs) and random changed ids, the answer (ok, and whether the
// writer's entry was found) the same.
func TestSameOwnersByWords(t *testing.T) {
	s := New(kernel.New(1))
	fi := s.fieldsFor(&api.Pod{})
	for i := 0; len(fi.paths) < lowIDs+40; i++ {
		fi.id([]string{"f:metadata", "f:labels", fmt.Sprintf("f:label-%d", i)}, true)
	}
	rng := rand.New(rand.NewPCG(3, 5))
	randomIDs := func(n int) []uint32 {
		var ids idSet
		for range n {
			id := uint32(rng.IntN(lowIDs + 40))
			if rng.IntN(3) == 0 {
				id = uint32(rng.IntN(8)) // the ids most writes share
			}
			ids.add(id)
		}
		return ids
	}
	// reference is the per-id test: whether sameOwners may take the fast
	// path, and the writer's entry.
	reference := func(sets []*fieldSet, mineAt int, changed idSet) (ok bool, mine int) {
		mine = -1
		for i, set := range sets {
			if i == mineAt {
				for _, id := range changed {
					if !set.has(id) {
						return false, -1
					}
				}
				mine = i
				continue
			}
			for _, id := range changed {
				if set.has(id) {
					return false, -1
				}
			}
		}
		if mine < 0 {
			return len(changed) == 0 && len(sets) == 0, -1
		}
		return true, mine
	}
	agree, fast := 0, 0
	for trial := range 3000 {
		n := rng.IntN(4)
		mineAt := rng.IntN(n + 1) // n: the writer has no entry
		var sets []*fieldSet
		var mf []api.ManagedFieldsEntry
		var changed idSet
		for i := range n {
			ids := randomIDs(1 + rng.IntN(12))
			set := fi.intern(ids)
			sets = append(sets, set)
			manager := fmt.Sprintf("other-%d", i)
			if i == mineAt {
				manager = "writer"
				// Often the writer changes only what it owns.
				if rng.IntN(2) == 0 {
					for _, id := range ids {
						if rng.IntN(2) == 0 {
							changed.add(id)
						}
					}
				}
			}
			mf = append(mf, api.ManagedFieldsEntry{Manager: manager, Operation: OperationUpdate, APIVersion: "v1", FieldsType: "FieldsV1", FieldsV1: &set.raw})
		}
		if rng.IntN(3) == 0 {
			for _, id := range randomIDs(1 + rng.IntN(3)) {
				changed.add(id)
			}
		}
		wantOK, wantMine := reference(sets, mineAt, changed)
		out, gotOK := s.sameOwners(fi, mf, "writer", "v1", "", changed, nil)
		if gotOK != wantOK {
			t.Fatalf("trial %d: sets %v, writer's at %d, changed %v: ok %v, want %v", trial, sets, mineAt, changed, gotOK, wantOK)
		}
		if gotOK && wantMine >= 0 && len(out) != len(mf) {
			t.Fatalf("trial %d: %d entries back, want %d", trial, len(out), len(mf))
		}
		agree++
		if gotOK {
			fast++
		}
	}
	if fast < 300 || agree-fast < 300 {
		t.Errorf("the trials took the fast path %d times of %d: the table tests too little of one side", fast, agree)
	}
}

// TestDecodeFindsCopiedSets checks decode's lookup of a managedFields
// entry whose FieldsV1 is a copy of an interned set's bytes (a stored
// object the API server copied, such as a pod its graceful delete
// marked): over random sets of a pod's paths (labels, keyed containers
// and their fields, conditions), the set found is the one parsing the
// bytes gives, and finding it parses nothing (one allocation: decode's
// list).
func TestDecodeFindsCopiedSets(t *testing.T) {
	s := New(kernel.New(1))
	fi := s.fieldsFor(&api.Pod{})
	var all []uint32
	for i := range 12 {
		all = append(all, fi.id(Path{"f:metadata", "f:labels", fmt.Sprintf("f:label-%d", i)}, true))
	}
	for _, c := range []string{"app", "sidecar", "init"} {
		k := `k:{"name":"` + c + `"}`
		all = append(all,
			fi.id(Path{"f:spec", "f:containers", k}, true),
			fi.id(Path{"f:spec", "f:containers", k, "f:image"}, true),
			fi.id(Path{"f:spec", "f:containers", k, "f:resources", "f:requests", "f:cpu"}, true))
	}
	for _, c := range []string{"Ready", "PodScheduled"} {
		k := `k:{"type":"` + c + `"}`
		all = append(all, fi.id(Path{"f:status", "f:conditions", k, "f:status"}, true), fi.id(Path{"f:status", "f:conditions", k, "f:lastTransitionTime"}, true))
	}
	rng := rand.New(rand.NewPCG(9, 2))
	for trial := range 500 {
		var ids idSet
		for range 1 + rng.IntN(len(all)) {
			ids.add(all[rng.IntN(len(all))])
		}
		set := fi.intern(ids)
		copied := api.RawValue(slices.Clone(set.raw))
		mf := []api.ManagedFieldsEntry{{Manager: "m", Operation: OperationUpdate, APIVersion: "v1", FieldsType: FieldsTypeV1, FieldsV1: &copied}}
		got := fi.decode(mf)
		paths, err := ParseFieldsV1(copied)
		if err != nil {
			t.Fatalf("trial %d: %s does not parse: %v", trial, copied, err)
		}
		var parsed idSet
		for _, p := range paths {
			parsed.add(fi.id(p, false))
		}
		if want := fi.intern(parsed); len(got) != 1 || got[0].set != want || want != set {
			t.Fatalf("trial %d: decode of a copy of %s found %v; parsing it gives %p, the set is %p", trial, set.raw, got, want, set)
		}
		if n := testing.AllocsPerRun(10, func() { fi.decode(mf) }); n > 1 {
			t.Fatalf("trial %d: decode of a copied set allocates %v times: it parsed the bytes", trial, n)
		}
	}
}
