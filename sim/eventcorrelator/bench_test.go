package eventcorrelator_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/clustersim/clustersim/sim/eventcorrelator"
	"github.com/clustersim/clustersim/sim/kernel"
)

// BenchmarkCorrelate is a kubelet's share of a pod's start: three events
// about each of a stream of pods (Pulled, Created, Started), each
// correlated and filed as written.
func BenchmarkCorrelate(b *testing.B) {
	c := eventcorrelator.New()
	rng := rand.New(rand.NewPCG(1, 2))
	names := make([]string, 1024)
	for i := range names {
		names[i] = fmt.Sprintf("app-1-57bc45b4cd-%05d", i)
	}
	reasons := [...][2]string{
		{"Pulled", `Container image "nginx:1.25" already present on machine and can be accessed by the pod`},
		{"Created", "Container created"},
		{"Started", "Container started"},
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		r := reasons[i%3]
		e := eventcorrelator.Event{Component: "kubelet", Host: "zone-a-17", Kind: "Pod", APIVersion: "v1", Namespace: "default",
			Name: names[(i/3)%len(names)], UID: "0f0e0d0c-0b0a-0908-0706-050403020100", FieldPath: "spec.containers{app}",
			Type: "Normal", Reason: r[0], Message: r[1], At: kernel.Time(i)}
		res := c.Correlate(&e, kernel.Time(i), rng)
		if !res.Skip {
			c.Written(&res)
		}
	}
}
