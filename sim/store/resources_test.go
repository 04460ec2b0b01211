package store

import (
	"reflect"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
)

func resources(t *testing.T, kv ...string) api.ResourceList {
	t.Helper()
	rl := api.ResourceList{}
	for i := 0; i < len(kv); i += 2 {
		q, err := api.ParseQuantity(kv[i+1])
		if err != nil {
			t.Fatal(err)
		}
		rl[api.ResourceName(kv[i])] = q
	}
	return rl
}

// TestPodResourcesShared checks that stored pods asking for the same
// resources, written the same way, share one map, that pods asking
// otherwise (other values, the same value written otherwise, another
// resource) keep their own, and that the lists read back as written.
func TestPodResourcesShared(t *testing.T) {
	s := New(kernel.New(1))
	mk := func(name string, req api.ResourceList) *api.Pod {
		p := pod(name, "", nil)
		p.Spec.Containers[0].Resources.Requests = req
		o, err := s.Create(Op{Actor: "test"}, p)
		if err != nil {
			t.Fatal(err)
		}
		return o.(*api.Pod)
	}
	id := func(p *api.Pod) uintptr {
		return reflect.ValueOf(p.Spec.Containers[0].Resources.Requests).Pointer()
	}
	a := mk("a", resources(t, "cpu", "100m", "memory", "256Mi"))
	b := mk("b", resources(t, "memory", "256Mi", "cpu", "100m"))
	if id(a) != id(b) {
		t.Errorf("pods a and b ask for the same resources but keep two maps")
	}
	for _, tc := range []struct {
		name string
		req  api.ResourceList
	}{
		{"other-value", resources(t, "cpu", "200m", "memory", "256Mi")},
		// "+100m" keeps its text, as upstream; "0.1" would not (it reads
		// back as "100m", the same quantity as pod a's).
		{"other-text", resources(t, "cpu", "+100m", "memory", "256Mi")},
		{"more", resources(t, "cpu", "100m", "memory", "256Mi", "ephemeral-storage", "1Gi")},
		{"fewer", resources(t, "cpu", "100m")},
	} {
		p := mk(tc.name, tc.req)
		if id(p) == id(a) {
			t.Errorf("%s shares pod a's map: %v", tc.name, p.Spec.Containers[0].Resources.Requests)
		}
		if got := p.Spec.Containers[0].Resources.Requests; !reflect.DeepEqual(got, tc.req) {
			t.Errorf("%s: requests %v, want %v", tc.name, got, tc.req)
		}
	}
	// A reader's copy is its own: changing it changes no stored pod.
	cp := b.DeepCopy()
	cp.Spec.Containers[0].Resources.Requests["cpu"] = api.MustParseQuantity("1")
	if q := a.Spec.Containers[0].Resources.Requests["cpu"]; q.String() != "100m" {
		t.Errorf("pod a's cpu request is %s after a copy of b was changed", q.String())
	}
}
