package endpointslice

import (
	"math/rand/v2"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestEndpointsEqualIsSame: endpointsEqual answers as same (their JSON
// compared) for random pairs of endpoints, most of them one field apart:
// nil against empty lists and maps, nil against pointers to zero values,
// hints raw and absent.
func TestEndpointsEqualIsSame(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	str := func() *string {
		switch r.IntN(4) {
		case 0:
			return nil
		case 1:
			return new(string)
		default:
			s := []string{"a", "b"}[r.IntN(2)]
			return &s
		}
	}
	boolp := func() *bool {
		if r.IntN(3) == 0 {
			return nil
		}
		b := r.IntN(2) == 0
		return &b
	}
	endpoint := func() api.Endpoint {
		var e api.Endpoint
		switch r.IntN(4) {
		case 0:
		case 1:
			e.Addresses = []string{}
		default:
			e.Addresses = []string{[]string{"10.0.0.1", "10.0.0.2"}[r.IntN(2)]}
			if r.IntN(3) == 0 {
				e.Addresses = append(e.Addresses, "10.0.0.3")
			}
		}
		e.Conditions = api.EndpointConditions{Ready: boolp(), Serving: boolp(), Terminating: boolp()}
		e.Hostname, e.NodeName, e.Zone = str(), str(), str()
		switch r.IntN(4) {
		case 0:
		case 1:
			e.TargetRef = &api.ObjectReference{}
		default:
			e.TargetRef = &api.ObjectReference{Kind: "Pod", Namespace: "default", Name: []string{"p1", "p2"}[r.IntN(2)]}
		}
		switch r.IntN(4) {
		case 0:
		case 1:
			e.DeprecatedTopology = map[string]string{}
		default:
			e.DeprecatedTopology = map[string]string{"zone": []string{"a", "b"}[r.IntN(2)]}
		}
		switch r.IntN(4) {
		case 0, 1:
		case 2:
			h := api.RawValue(`{"forZones":[{"name":"a"}]}`)
			e.Hints = &h
		default:
			h := api.RawValue(`{"forZones":[{"name":"b"}]}`)
			e.Hints = &h
		}
		return e
	}
	equal, differ := 0, 0
	for range 20000 {
		a := endpoint()
		b := a
		if r.IntN(4) > 0 {
			// One field from another endpoint: often equal again.
			c := endpoint()
			switch r.IntN(9) {
			case 0:
				b.Addresses = c.Addresses
			case 1:
				b.Conditions = c.Conditions
			case 2:
				b.Hostname = c.Hostname
			case 3:
				b.NodeName = c.NodeName
			case 4:
				b.Zone = c.Zone
			case 5:
				b.TargetRef = c.TargetRef
			case 6:
				b.DeprecatedTopology = c.DeprecatedTopology
			case 7:
				b.Hints = c.Hints
			default:
				b = c
			}
		}
		want := same(&a, &b)
		if got := endpointsEqual(&a, &b); got != want {
			t.Fatalf("endpointsEqual = %v, same = %v:\n%+v\n%+v", got, want, a, b)
		}
		if want {
			equal++
		} else {
			differ++
		}
	}
	if equal < 1000 || differ < 1000 {
		t.Fatalf("%d equal and %d different pairs: the generator tests too little", equal, differ)
	}
}
