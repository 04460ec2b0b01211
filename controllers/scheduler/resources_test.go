package scheduler

import (
	"reflect"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestResourcesExt holds the contract of resources' rare part (ext):
// nil while a value has only cpu and memory, so the node's three
// resources stay 24 bytes each with nothing behind them; and owned by
// its value, so that a copy made by clone changes without changing the
// original (preemption's trials and nominated pods' room change clones
// of a node's requests). Planted, each fails: clone sharing ext; add
// making ext for an addend without one; setMax dropping ephemeral.
func TestResourcesExt(t *testing.T) {
	gpu := api.ResourceName("example.com/gpu")
	withExt := func() resources {
		return fromList(api.ResourceList{
			api.ResourceCPU: api.MustParseQuantity("2"), api.ResourceMemory: api.MustParseQuantity("1Gi"),
			api.ResourceEphemeralStorage: api.MustParseQuantity("10Gi"), gpu: api.MustParseQuantity("2"),
		})
	}
	for _, tc := range []struct {
		name string
		do   func(t *testing.T)
	}{
		{"cpu and memory only have no ext", func(t *testing.T) {
			r := fromList(api.ResourceList{api.ResourceCPU: api.MustParseQuantity("500m"), api.ResourceMemory: api.MustParseQuantity("256Mi"), api.ResourcePods: api.MustParseQuantity("110")})
			r.add(&resources{milliCPU: 100, memory: 1}, 1)
			r.setMax(&resources{milliCPU: 10_000})
			if r.ext != nil {
				t.Errorf("ext = %+v, want nil", *r.ext)
			}
			if r.milliCPU != 10_000 || r.memory != 256<<20+1 {
				t.Errorf("cpu %d memory %d", r.milliCPU, r.memory)
			}
		}},
		{"clone shares nothing", func(t *testing.T) {
			r := withExt()
			c := r.clone()
			c.add(&resources{ext: &extResources{ephemeral: 5, scalars: []scalar{{name: gpu, value: 1}}}}, 1)
			if r.ephemeral() != 10<<30 || r.scalarValue(gpu) != 2 {
				t.Errorf("the original changed with its clone: ephemeral %d, gpu %d", r.ephemeral(), r.scalarValue(gpu))
			}
			if c.ephemeral() != 10<<30+5 || c.scalarValue(gpu) != 3 {
				t.Errorf("clone: ephemeral %d, gpu %d", c.ephemeral(), c.scalarValue(gpu))
			}
			if d := r.clone(); !reflect.DeepEqual(d, r) || d.ext == r.ext {
				t.Errorf("clone = %+v (ext %p), want a copy of %+v (ext %p) with its own ext", d, d.ext, r, r.ext)
			}
		}},
		{"add and subtract the rare part", func(t *testing.T) {
			var n resources
			r := withExt()
			n.add(&r, 1)
			n.add(&r, 1)
			n.add(&r, -1)
			if !reflect.DeepEqual(n.ephemeral(), r.ephemeral()) || n.scalarValue(gpu) != 2 || n.milliCPU != 2000 {
				t.Errorf("after +r +r -r: %+v, ext %+v", n, *n.ext)
			}
			if n.isZero() {
				t.Error("isZero with resources left")
			}
			n.add(&r, -1)
			if !n.isZero() {
				t.Errorf("isZero false after subtracting everything: %+v, ext %+v", n, *n.ext)
			}
		}},
		{"setMax takes each resource's larger", func(t *testing.T) {
			r := resources{milliCPU: 100}
			o := withExt()
			r.setMax(&o)
			if r.milliCPU != 2000 || r.ephemeral() != 10<<30 || r.scalarValue(gpu) != 2 {
				t.Errorf("setMax: cpu %d ephemeral %d gpu %d", r.milliCPU, r.ephemeral(), r.scalarValue(gpu))
			}
			small := resources{ext: &extResources{ephemeral: 1, scalars: []scalar{{name: gpu, value: 1}}}}
			r.setMax(&small)
			if r.ephemeral() != 10<<30 || r.scalarValue(gpu) != 2 {
				t.Errorf("setMax with smaller amounts lowered them: ephemeral %d gpu %d", r.ephemeral(), r.scalarValue(gpu))
			}
		}},
	} {
		t.Run(tc.name, tc.do)
	}
}
