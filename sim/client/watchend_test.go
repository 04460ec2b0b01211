package client_test

import (
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/netsim"
)

// TestNetworkWatchEndFreesServer checks that a watch over the network
// that ends leaves no watch registered at the server, without a write
// of its kind: the API server drops the store watch when the stream
// closes, however it closes. It dropped it at the next event it had to
// send, so that in a settled cluster (no pod written for hours) every
// pod watch an informer timed out stayed registered with its stream.
func TestNetworkWatchEndFreesServer(t *testing.T) {
	for _, tc := range []struct {
		name string
		// end ends the watch s over net, a second after it opened; the
		// kernel then runs until it is quiescent.
		end func(h *harness, net *netsim.Network, s client.WatchStream)
	}{
		{"client stops", func(_ *harness, _ *netsim.Network, s client.WatchStream) { s.Stop() }},
		{"stream breaks", func(h *harness, net *netsim.Network, _ client.WatchStream) {
			// The next event sent breaks the stream; no write follows
			// the break's delivery.
			if err := net.SetDefault(netsim.LinkConfig{Latency: netsim.Latency{Base: time.Millisecond}, StreamBreak: 1}); err != nil {
				t.Fatal(err)
			}
			h.mustHandle(t, &apiserver.Request{Verb: apiserver.Create, Kind: api.KindConfigMap, Actor: system, Object: configMap("default", "b", nil, nil)})
		}},
		{"client goes down", func(h *harness, net *netsim.Network, _ client.WatchStream) {
			net.Endpoint("client").SetDown(true)
			h.mustHandle(t, &apiserver.Request{Verb: apiserver.Create, Kind: api.KindConfigMap, Actor: system, Object: configMap("default", "b", nil, nil)})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			net := netsim.New(h.k)
			if err := net.SetDefault(netsim.LinkConfig{Latency: netsim.Latency{Base: time.Millisecond}}); err != nil {
				t.Fatal(err)
			}
			ep := apiserver.Serve(h.srv, net, "apiserver")
			tr := client.NewNetwork(net, net.Endpoint("client"), ep.Addr(), 0)
			h.mustHandle(t, &apiserver.Request{Verb: apiserver.Create, Kind: api.KindConfigMap, Actor: system, Object: configMap("default", "a", nil, nil)})
			rec := &recordingHandler{}
			var s client.WatchStream
			h.inProcess(t, func(p *kernel.Process) {
				var err error
				if s, err = tr.Watch(p, &apiserver.Request{Verb: apiserver.Watch, Kind: api.KindConfigMap, Actor: system, Namespace: "default"}, rec); err != nil {
					t.Fatal(err)
				}
			})
			if got := h.st.RegisteredWatchers(api.KindConfigMap); got != 1 {
				t.Fatalf("%d watches registered once the watch is open, want 1", got)
			}
			h.k.At(h.k.Now()+kernel.Time(time.Second), func() { tc.end(h, net, s) })
			h.k.Run(kernel.Limits{})
			if got := h.st.RegisteredWatchers(api.KindConfigMap); got != 0 {
				t.Errorf("%d watches registered after the watch ended (events seen %v, closes %v), want 0", got, rec.events, rec.closed)
			}
		})
	}
}
