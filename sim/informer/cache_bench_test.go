package informer

import (
	"fmt"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// BenchmarkListAfterUpdates lists a cache of 5,000 nodes after 100 of
// them were replaced (status updates: no name comes or goes), as the
// node lifecycle controller does every 5 s at 5,000 nodes.
func BenchmarkListAfterUpdates(b *testing.B) {
	const nodes = 5000
	c := newCache(nil)
	keys := make([]api.Key, nodes)
	for i := range keys {
		keys[i] = api.Key{Name: fmt.Sprintf("node-%05d", i)}
		c.put(keys[i], &api.Node{ObjectMeta: api.ObjectMeta{Name: keys[i].Name}})
	}
	updated := make([]api.Object, 100)
	for i := range updated {
		updated[i] = &api.Node{ObjectMeta: api.ObjectMeta{Name: keys[i*50].Name, ResourceVersion: "2"}}
	}
	b.ReportAllocs()
	for b.Loop() {
		for i, o := range updated {
			c.put(keys[i*50], o)
		}
		n, at50 := 0, api.Object(nil)
		c.each("", func(o api.Object) {
			if n == 50 {
				at50 = o
			}
			n++
		})
		if n != nodes || at50 != updated[1] {
			b.Fatal("wrong list")
		}
	}
}
