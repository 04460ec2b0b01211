package endpoints

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// jsonEqual is how subsetsEqual compared before: the subsets' JSON.
func jsonEqual(a, b []api.EndpointSubset) bool {
	if len(a) == 0 && len(b) == 0 {
		return true
	}
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(ja, jb)
}

// TestSubsetsEqualIsJSON: subsetsEqual answers as comparing the subsets'
// JSON does, for random pairs mostly one address or port apart (nil
// against empty lists, nil against pointers to zero values).
func TestSubsetsEqualIsJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	str := func() *string {
		switch r.IntN(3) {
		case 0:
			return nil
		case 1:
			return new(string)
		}
		s := "n1"
		return &s
	}
	address := func() api.EndpointAddress {
		a := api.EndpointAddress{IP: []string{"10.0.0.1", "10.0.0.2"}[r.IntN(2)], Hostname: []string{"", "h"}[r.IntN(2)], NodeName: str()}
		switch r.IntN(3) {
		case 1:
			a.TargetRef = &api.ObjectReference{}
		case 2:
			a.TargetRef = &api.ObjectReference{Kind: "Pod", Name: []string{"p1", "p2"}[r.IntN(2)]}
		}
		return a
	}
	addresses := func() []api.EndpointAddress {
		switch n := r.IntN(4); n {
		case 0:
			return nil
		case 1:
			return []api.EndpointAddress{}
		default:
			out := make([]api.EndpointAddress, n-1)
			for i := range out {
				out[i] = address()
			}
			return out
		}
	}
	ports := func() []api.EndpointPort {
		switch r.IntN(3) {
		case 0:
			return nil
		case 1:
			return []api.EndpointPort{}
		}
		return []api.EndpointPort{{Name: []string{"", "http"}[r.IntN(2)], Port: int32(80 + r.IntN(2)), Protocol: []api.Protocol{"", "TCP"}[r.IntN(2)], AppProtocol: str()}}
	}
	subsets := func() []api.EndpointSubset {
		switch n := r.IntN(4); n {
		case 0:
			return nil
		case 1:
			return []api.EndpointSubset{}
		default:
			out := make([]api.EndpointSubset, n-1)
			for i := range out {
				out[i] = api.EndpointSubset{Addresses: addresses(), NotReadyAddresses: addresses(), Ports: ports()}
			}
			return out
		}
	}
	equal, differ := 0, 0
	for range 20000 {
		a := subsets()
		b := subsets()
		if len(a) > 0 && r.IntN(4) > 0 {
			// a again, one list of one subset from elsewhere.
			b = append([]api.EndpointSubset(nil), a...)
			i := r.IntN(len(b))
			switch r.IntN(3) {
			case 0:
				b[i].Addresses = addresses()
			case 1:
				b[i].NotReadyAddresses = addresses()
			default:
				b[i].Ports = ports()
			}
		}
		want := jsonEqual(a, b)
		if got := subsetsEqual(a, b); got != want {
			t.Fatalf("subsetsEqual = %v, their JSON compared = %v:\n%+v\n%+v", got, want, a, b)
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
