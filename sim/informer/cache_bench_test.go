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
		c.put(keys[i], &api.Node{ObjectMeta: api.ObjectMeta{Name: keys[i].Name}}, 0, nil)
	}
	updated := make([]api.Object, 100)
	for i := range updated {
		updated[i] = &api.Node{ObjectMeta: api.ObjectMeta{Name: keys[i*50].Name, ResourceVersion: "2"}}
	}
	b.ReportAllocs()
	for b.Loop() {
		for i, o := range updated {
			c.put(keys[i*50], o, 0, nil)
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

// BenchmarkPutUpdate replaces objects of a cache of 90,000 pods (the
// 3,000-node probe's) in a random order, as their status updates arrive:
// with the watch events' hints (store.Event.Hint), and without (a lookup
// by name, as a relist does).
func BenchmarkPutUpdate(b *testing.B) {
	const pods = 90_000
	for _, hinted := range []bool{true, false} {
		b.Run(fmt.Sprintf("hint=%v", hinted), func(b *testing.B) {
			c := newCache(nil)
			keys := make([]api.Key, pods)
			cur := make([]api.Object, pods)
			for i := range keys {
				keys[i] = api.Key{Namespace: "default", Name: fmt.Sprintf("web-%08x", i*2654435761)}
				cur[i] = &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: keys[i].Name}}
				c.put(keys[i], cur[i], uint32(i+1), nil)
			}
			next := make([]api.Object, pods)
			for i := range next {
				next[i] = &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: keys[i].Name, ResourceVersion: "2"}}
			}
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				i := (n * 7919) % pods
				n++
				var num uint32
				var prev api.Object
				if hinted {
					num, prev = uint32(i+1), cur[i]
				}
				c.put(keys[i], next[i], num, prev)
				cur[i], next[i] = next[i], cur[i]
			}
		})
	}
}
