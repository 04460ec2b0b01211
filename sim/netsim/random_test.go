package netsim

import (
	"fmt"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/kernel"
)

// orderCheck is a StreamReceiver that asserts increasing payloads and at
// most one Closed, with nothing after it.
type orderCheck struct {
	t      *testing.T
	last   int
	closed bool
}

func (o *orderCheck) Receive(m *Message) {
	v := m.Payload.(int)
	if o.closed || v <= o.last {
		o.t.Errorf("stream %d: got %d after %d (closed %v)", m.Stream.ID(), v, o.last, o.closed)
	}
	o.last = v
}

func (o *orderCheck) Closed(s *Stream, err error) {
	if o.closed {
		o.t.Errorf("stream %d closed twice", s.ID())
	}
	o.closed = true
}

// TestRandomOps throws random traffic, faults, partitions, crashes and
// configuration changes at a network and checks its invariants: every copy
// ends once, nothing leaks, streams stay ordered, calls get their own reply
// or ErrTimeout exactly at the deadline, and nothing panics.
func TestRandomOps(t *testing.T) {
	for seed := uint64(1); seed <= 12; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			w := newWorld(seed)
			rng := w.k.Rand("test/ops")
			addrs := []Addr{"apiserver", "kubelet/node-1", "kubelet/node-2", "controller/a", "controller/b"}
			eps := make([]*Endpoint, len(addrs))
			for i, a := range addrs {
				eps[i] = w.ep(a)
				eps[i].SetReceiver(ReceiverFunc(func(*Message) {}))
				eps[i].SetServer(ServerFunc(func(c Call) {
					switch rng.IntN(5) {
					case 0: // never reply
					case 1:
						w.k.At(w.k.Now().Add(time.Duration(rng.IntN(50))*time.Millisecond), func() { c.Reply(c.Req) })
					default:
						c.Reply(c.Req)
					}
				}))
			}
			pick := func() *Endpoint { return eps[rng.IntN(len(eps))] }
			randCfg := func() LinkConfig {
				return LinkConfig{
					Latency: Latency{Base: time.Duration(rng.IntN(5)) * time.Millisecond, Jitter: time.Duration(rng.IntN(20)) * time.Millisecond, Dist: Dist(rng.IntN(3))},
					Drop:    rng.Float64() * 0.3, Duplicate: rng.Float64() * 0.3, Reorder: rng.Float64() * 0.3, ReorderDelay: ms(10),
					Delay: rng.Float64() * 0.1, DelayExtra: ms(40), StreamLoss: rng.Float64() * 0.1,
				}
			}
			must(t, w.n.SetDefault(randCfg()))
			var procs []*kernel.Process
			parts := 0
			for i := range 3000 {
				at := kernel.Time(i) * kernel.Time(time.Millisecond)
				w.k.At(at, func() {
					switch op := rng.IntN(100); {
					case op < 40:
						w.n.Send(pick(), pick(), i)
					case op < 60:
						from, to := pick(), pick()
						timeout := time.Duration(1+rng.IntN(100)) * time.Millisecond
						procs = append(procs, w.k.Spawn("caller", func(p *kernel.Process) {
							start := p.Now()
							resp, err := w.n.Call(p, from, to, i, timeout)
							switch {
							case err == ErrTimeout:
								if p.Now().Sub(start) != timeout {
									t.Errorf("call %d timed out after %v, timeout %v", i, p.Now().Sub(start), timeout)
								}
							case err != nil || resp != i:
								t.Errorf("call %d got (%v, %v)", i, resp, err)
							case p.Now().Sub(start) >= timeout:
								t.Errorf("call %d answered after %v, timeout %v", i, p.Now().Sub(start), timeout)
							}
						}))
					case op < 65:
						w.n.CallAsync(pick(), pick(), i, time.Duration(1+rng.IntN(80))*time.Millisecond, completerFunc(func(tag uint64, resp any, err error) {
							if err == nil && resp != i {
								t.Errorf("async call %d got %v", i, resp)
							}
						}), uint64(i))
					case op < 72:
						if len(procs) > 0 {
							procs[rng.IntN(len(procs))].Kill()
						}
					case op < 80:
						s := w.n.OpenStream(pick(), pick(), &orderCheck{t: t})
						var tick func()
						k := 0
						tick = func() {
							k++
							if rng.IntN(20) == 0 {
								s.LoseNext(rng.IntN(3))
							}
							if rng.IntN(40) == 0 {
								s.Close()
							}
							if rng.IntN(60) == 0 {
								s.Stop()
							}
							if s.Send(k) == nil && k < 50 {
								w.k.At(w.k.Now().Add(time.Duration(rng.IntN(10))*time.Millisecond), tick)
							}
						}
						tick()
					case op < 85:
						parts++
						name := fmt.Sprint("p", parts)
						a, b := []Addr{addrs[rng.IntN(len(addrs))]}, []Addr{addrs[rng.IntN(len(addrs))]}
						if a[0] != b[0] {
							must(t, w.n.Partition(name, a, b, rng.IntN(2) == 0))
							w.k.At(w.k.Now().Add(time.Duration(rng.IntN(200))*time.Millisecond), func() { must(t, w.n.Heal(name)) })
						}
					case op < 90:
						e := pick()
						e.SetDown(!e.Down())
					case op < 95:
						must(t, w.n.SetLink(pick().Addr(), pick().Addr(), randCfg()))
					default:
						must(t, w.n.SetDefault(randCfg()))
					}
				})
			}
			w.k.Run(kernel.Limits{})
			checkQuiet(t, w.n) // every call has a timeout, so none may be left
			if w.k.Live() != 0 {
				t.Errorf("%d callers still blocked", w.k.Live())
			}
			st := w.n.Stats()
			if st.Sent == 0 || st.Timeouts == 0 || st.Breaks == 0 || st.DropPartition == 0 || st.DropUnreachable == 0 {
				t.Errorf("the run did not exercise enough: %+v", st)
			}
		})
	}
}
