package gap

import (
	"fmt"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/store"
)

// BenchmarkFlushAfterBurst measures the gap of one node changed at a time
// after an instant that changed 5,000 (a cluster's start): the set of
// objects changed at an instant must not make every later instant pay
// for the largest one (flush's dirtyKeep).
func BenchmarkFlushAfterBurst(b *testing.B) {
	k := kernel.New(1)
	st := store.New(k)
	if _, err := Watch(st, k); err != nil {
		b.Fatal(err)
	}
	op := store.Op{Actor: "test"}
	for i := range 5000 {
		n := node(api.ConditionTrue, "")
		n.Name = fmt.Sprintf("node-%d", i)
		if _, err := st.Create(op, n); err != nil {
			b.Fatal(err)
		}
	}
	status := []api.ConditionStatus{api.ConditionFalse, api.ConditionTrue}
	for i := 0; b.Loop(); i++ {
		k.At(k.Now().Add(time.Millisecond), func() {
			o, err := st.Get(api.KindNode, api.Key{Name: "node-0"})
			if err != nil {
				b.Fatal(err)
			}
			n := o.(*api.Node).DeepCopy()
			n.Status.Conditions[0].Status = status[i%2]
			if _, err := st.Update(op, n, "status"); err != nil {
				b.Fatal(err)
			}
		})
		k.RunFor(time.Millisecond)
	}
}
