package store

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// probePod is scalePod as the API server stores it in the scale probe:
// admission's two tolerations, priority and preemption policy too.
func probePod() *api.Pod {
	p := scalePod()
	secs := int64(300)
	prio := int32(0)
	policy := api.PreemptionPolicy("PreemptLowerPriority")
	p.Spec.Tolerations = []api.Toleration{
		{Key: "node.kubernetes.io/not-ready", Operator: "Exists", Effect: "NoExecute", TolerationSeconds: &secs},
		{Key: "node.kubernetes.io/unreachable", Operator: "Exists", Effect: "NoExecute", TolerationSeconds: &secs},
	}
	p.Spec.Priority, p.Spec.PreemptionPolicy = &prio, &policy
	p.Spec.SecurityContext = ptrTo(api.RawValue(`{}`))
	return p
}

// podCreatePods are the pods TestPodCreateMatchesWalk diffs: the probe's
// and scalePod; the probe's with each field of the types podCreate
// renders (and of those it leaves to the walk) filled at random, one at
// a time; the probe's with its lists' keys empty, repeated or too many;
// and pods with every field filled at random.
func podCreatePods(r *rand.Rand, random int) []*api.Pod {
	g := &randObj{r: r}
	pods := []*api.Pod{probePod(), scalePod(), {}}
	// One field at a time, in every struct podCreate has a plan of.
	for range 4 {
		for _, at := range []func(p *api.Pod) reflect.Value{
			func(p *api.Pod) reflect.Value { return reflect.ValueOf(&p.TypeMeta).Elem() },
			func(p *api.Pod) reflect.Value { return reflect.ValueOf(&p.ObjectMeta).Elem() },
			func(p *api.Pod) reflect.Value { return reflect.ValueOf(&p.ObjectMeta.OwnerReferences[0]).Elem() },
			func(p *api.Pod) reflect.Value { return reflect.ValueOf(&p.Spec).Elem() },
			func(p *api.Pod) reflect.Value { return reflect.ValueOf(&p.Spec.Containers[0]).Elem() },
			func(p *api.Pod) reflect.Value { return reflect.ValueOf(&p.Spec.Tolerations[1]).Elem() },
			func(p *api.Pod) reflect.Value { return reflect.ValueOf(&p.Status).Elem() },
		} {
			for i := range at(probePod()).NumField() {
				p := probePod()
				f := at(p).Field(i)
				if !f.CanSet() {
					continue
				}
				f.SetZero()
				g.fill(f)
				pods = append(pods, p)
				z := probePod()
				at(z).Field(i).SetZero() // and the field zero
				pods = append(pods, z)
			}
		}
	}
	// Lists the walk addresses otherwise, or whose elements are empty.
	for _, change := range []func(p *api.Pod){
		func(p *api.Pod) { p.Spec.Containers = append(p.Spec.Containers, p.Spec.Containers[0]) },
		func(p *api.Pod) { p.Spec.Containers[0].Name = "" },
		func(p *api.Pod) {
			for i := range 5 {
				p.Spec.Containers = append(p.Spec.Containers, api.Container{Name: fmt.Sprint("c", i)})
			}
		},
		func(p *api.Pod) { p.Spec.InitContainers = []api.Container{{Name: "init"}, {Name: "app"}} },
		func(p *api.Pod) { p.OwnerReferences = append(p.OwnerReferences, api.OwnerReference{}) },
		func(p *api.Pod) { p.Spec.Tolerations = append(p.Spec.Tolerations, api.Toleration{}) },
		func(p *api.Pod) { p.Spec.Tolerations[0] = api.Toleration{TolerationSeconds: new(int64)} },
		func(p *api.Pod) { p.Spec.Tolerations = []api.Toleration{} },
		func(p *api.Pod) { p.Spec.Priority, p.Spec.EnableServiceLinks = new(int32), new(bool) },
		func(p *api.Pod) { p.ManagedFields = []api.ManagedFieldsEntry{{Manager: "m"}} },
		func(p *api.Pod) { p.Spec.SecurityContext = ptrTo(api.RawValue(`"quoted"`)) },
		func(p *api.Pod) { p.Spec.SecurityContext = ptrTo(api.RawValue{}) },
		func(p *api.Pod) { p.Spec.SecurityContext = new(api.RawValue) },
		func(p *api.Pod) {
			p.Labels, p.Annotations, p.Spec.NodeSelector = map[string]string{}, map[string]string{"": ""}, nil
		},
		func(p *api.Pod) { p.Spec.Containers[0].Resources.Limits = api.ResourceList{} },
	} {
		p := probePod()
		change(p)
		pods = append(pods, p)
	}
	for range random {
		p := new(api.Pod)
		g.fill(reflect.ValueOf(p).Elem())
		pods = append(pods, p)
	}
	return pods
}

// TestPodCreateMatchesWalk: podCreate appends what the walk appends for
// a pod's create (paths, values, set flags, order), for the pods of
// podCreatePods, through one differ each so that later pods find the
// paths named (the path tree's second branch).
func TestPodCreateMatchesWalk(t *testing.T) {
	walk := &differ{intern: map[string]string{}, skip: managedFieldsPath, audit: true}
	typed := &differ{intern: map[string]string{}, skip: managedFieldsPath, audit: true}
	for n, p := range podCreatePods(rand.New(rand.NewPCG(5, 11)), 3000) {
		walk.out, walk.path = walk.out[:0], walk.path[:0]
		want := diffWith(walk, nil, p)
		typed.out, typed.path = typed.out[:0], typed.path[:0]
		if !typed.podCreate(p) {
			t.Fatalf("pod %d: podCreate declined", n)
		}
		if !slices.Equal(typed.out, want) {
			t.Fatalf("pod %d:\n%s\nthe walk:\n%s", n, fmtChanges(typed.out), fmtChanges(want))
		}
		if len(typed.path) != 0 {
			t.Fatalf("pod %d: podCreate left the path %q", n, typed.path)
		}
	}
}

// TestPodCreateDeclines: podCreate leaves to the walk what the audit
// log's differ is not: a skip other than managedFields', a path begun,
// the reflective walk, and a nil pod.
func TestPodCreateDeclines(t *testing.T) {
	for _, tc := range []struct {
		name string
		d    *differ
		p    *api.Pod
	}{
		{"nil pod", &differ{audit: true}, nil},
		{"not the audit log's", &differ{}, probePod()},
		{"another skip", &differ{audit: true, skip: "spec"}, probePod()},
		{"reflective", &differ{audit: true, reflective: true}, probePod()},
		{"a path begun", &differ{audit: true, path: []byte("x")}, probePod()},
	} {
		if tc.d.podCreate(tc.p) || len(tc.d.out) != 0 {
			t.Errorf("%s: podCreate took it (%d changes)", tc.name, len(tc.d.out))
		}
	}
}

// FuzzPodCreate compares podCreate with the walk on the probe's pod with
// its strings, numbers and lists' lengths from the fuzzer.
func FuzzPodCreate(f *testing.F) {
	f.Add("app", "nginx:1.25", "app-2", "node.kubernetes.io/not-ready", int64(30), int32(0), uint8(1), uint8(2), true)
	f.Add("", "", "", "", int64(0), int32(-1), uint8(0), uint8(0), false)
	f.Add("a", "a", "a", "", int64(-5), int32(7), uint8(6), uint8(1), true)
	f.Fuzz(func(t *testing.T, name, image, owner, key string, grace int64, prio int32, containers, tolerations uint8, links bool) {
		p := probePod()
		base := p.Spec.Containers[0]
		p.Spec.Containers = nil
		for i := range int(containers % 7) {
			c := base
			c.Name, c.Image = name, image
			if i%2 == 1 {
				c.Name += fmt.Sprint(i)
			}
			p.Spec.Containers = append(p.Spec.Containers, c)
		}
		p.OwnerReferences[0].Name = owner
		tol := p.Spec.Tolerations[0]
		p.Spec.Tolerations = nil
		for range int(tolerations % 4) {
			tol.Key = key
			p.Spec.Tolerations = append(p.Spec.Tolerations, tol)
		}
		p.Spec.TerminationGracePeriodSeconds, p.Spec.Priority, p.Spec.EnableServiceLinks = &grace, &prio, &links
		walk := &differ{intern: map[string]string{}, skip: managedFieldsPath, audit: true}
		want := diffWith(walk, nil, p)
		typed := &differ{intern: map[string]string{}, skip: managedFieldsPath, audit: true}
		if !typed.podCreate(p) || !slices.Equal(typed.out, want) {
			t.Fatalf("podCreate:\n%s\nthe walk:\n%s", fmtChanges(typed.out), fmtChanges(want))
		}
	})
}
