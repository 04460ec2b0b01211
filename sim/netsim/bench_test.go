package netsim

import (
	"fmt"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/kernel"
)

// sink is a Receiver and StreamReceiver that only counts.
type sink struct{ n int }

func (s *sink) Receive(*Message)            { s.n++ }
func (s *sink) Closed(*Stream, error)       {}
func (s *sink) Trace(Record)                { s.n++ }
func (s *sink) Serve(c Call)                { c.Reply(c.Req) }
func (s *sink) Complete(uint64, any, error) { s.n++ }

var benchConfigs = []struct {
	name string
	cfg  LinkConfig
}{
	{"perfect", LinkConfig{}},
	{"faults", LinkConfig{Latency: Latency{Base: time.Millisecond, Jitter: time.Millisecond},
		Drop: 0.01, Duplicate: 0.01, Reorder: 0.01, ReorderDelay: 10 * time.Millisecond, Delay: 0.01, DelayExtra: 50 * time.Millisecond}},
}

// BenchmarkSend measures one datagram sent and delivered, kernel included.
func BenchmarkSend(b *testing.B) {
	for _, bc := range benchConfigs {
		for _, traced := range []bool{false, true} {
			name := bc.name
			if traced {
				name += "/traced"
			}
			b.Run(name, func(b *testing.B) {
				k := kernel.New(1)
				n := New(k)
				if err := n.SetDefault(bc.cfg); err != nil {
					b.Fatal(err)
				}
				from, to := n.Endpoint("a"), n.Endpoint("b")
				s := &sink{}
				to.SetReceiver(s)
				if traced {
					n.SetTracer(s)
				}
				payload := &struct{ x int }{}
				b.ReportAllocs()
				for b.Loop() {
					n.Send(from, to, payload)
					k.Run(kernel.Limits{})
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
			})
		}
	}
}

// BenchmarkCall measures one request/response round trip made by a process
// in a loop against a server that replies at once: two messages, three
// kernel events and a park/resume of the caller.
func BenchmarkCall(b *testing.B) {
	for _, bc := range benchConfigs {
		b.Run(bc.name, func(b *testing.B) {
			k := kernel.New(1)
			n := New(k)
			if err := n.SetDefault(bc.cfg); err != nil {
				b.Fatal(err)
			}
			from, to := n.Endpoint("controller"), n.Endpoint("apiserver")
			to.SetServer(&sink{})
			req := &struct{ x int }{}
			b.ReportAllocs()
			k.Spawn("caller", func(p *kernel.Process) {
				for b.Loop() {
					n.Call(p, from, to, req, 30*time.Second)
				}
			})
			k.Run(kernel.Limits{})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "requests/s")
		})
	}
}

// BenchmarkCallAsync measures one round trip started with CallAsync from the
// event loop, as a callback-driven actor (a kubelet) would make it.
func BenchmarkCallAsync(b *testing.B) {
	k := kernel.New(1)
	n := New(k)
	from, to := n.Endpoint("kubelet/node-1"), n.Endpoint("apiserver")
	s := &sink{}
	to.SetServer(s)
	req := &struct{ x int }{}
	b.ReportAllocs()
	for b.Loop() {
		n.CallAsync(from, to, req, 30*time.Second, s, 0)
		k.Run(kernel.Limits{})
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "requests/s")
}

// BenchmarkStream measures one stream message sent and delivered.
func BenchmarkStream(b *testing.B) {
	k := kernel.New(1)
	n := New(k)
	if err := n.SetDefault(LinkConfig{Latency: Latency{Base: time.Millisecond, Jitter: time.Millisecond}}); err != nil {
		b.Fatal(err)
	}
	st := n.OpenStream(n.Endpoint("apiserver"), n.Endpoint("informer"), &sink{})
	payload := &struct{ x int }{}
	b.ReportAllocs()
	for b.Loop() {
		st.Send(payload)
		k.Run(kernel.Limits{})
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}

// counting is a Server that replies at once and counts requests.
type counting struct{ n int }

func (c *counting) Serve(call Call) {
	c.n++
	call.Reply(call.Req)
}

// BenchmarkCallers measures round trips with many controller-like processes
// calling at once over a 1-2 ms link, so the kernel queue, the deadline heap
// and the coroutine switches all work at a realistic size. One op is one
// batch of 3,000 kernel events (about 1,000 round trips); requests/s and
// ns/request are the figures that matter.
func BenchmarkCallers(b *testing.B) {
	for _, procs := range []int{100, 1000} {
		b.Run(fmt.Sprintf("procs=%d", procs), func(b *testing.B) {
			k := kernel.New(1)
			n := New(k)
			if err := n.SetDefault(LinkConfig{Latency: Latency{Base: time.Millisecond, Jitter: time.Millisecond}}); err != nil {
				b.Fatal(err)
			}
			srv := &counting{}
			api := n.Endpoint("apiserver")
			api.SetServer(srv)
			for i := range procs {
				from := n.Endpoint(Addr(fmt.Sprintf("controller/%d", i)))
				req := any(i) // box once: an int above 255 allocates
				k.Spawn("caller", func(p *kernel.Process) {
					for {
						n.Call(p, from, api, req, 30*time.Second)
					}
				})
			}
			k.Run(kernel.Limits{MaxEvents: 10 * uint64(procs)}) // warm up
			start := srv.n
			b.ReportAllocs()
			for b.Loop() {
				k.Run(kernel.Limits{MaxEvents: 3000})
			}
			reqs := float64(srv.n - start)
			b.ReportMetric(reqs/b.Elapsed().Seconds(), "requests/s")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/reqs, "ns/request")
		})
	}
}
