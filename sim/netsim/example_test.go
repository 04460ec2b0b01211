package netsim_test

import (
	"fmt"
	"time"

	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/netsim"
)

// A controller writes through a lossy link. When the call times out it
// cannot tell whether the write happened: here, in one run it did.
func ExampleNetwork_Call() {
	k := kernel.New(3)
	n := netsim.New(k)
	if err := n.SetDefault(netsim.LinkConfig{Latency: netsim.Latency{Base: 5 * time.Millisecond}, Drop: 0.5}); err != nil {
		panic(err)
	}
	writes := 0
	n.Endpoint("apiserver").SetServer(netsim.ServerFunc(func(c netsim.Call) {
		writes++
		c.Reply("ok")
	}))
	k.Spawn("controller", func(p *kernel.Process) {
		_, err := n.Call(p, n.Endpoint("controller/deployment"), n.Endpoint("apiserver"), "scale to 3", time.Second)
		fmt.Printf("%v: %v, writes done: %d\n", p.Now(), err, writes)
	})
	k.Run(kernel.Limits{})
	// Output: t=1.000s: netsim: call timed out, writes done: 1
}
