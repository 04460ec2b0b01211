package cluster

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/clustersim/clustersim/controllers/rootcacert"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/netsim"
	"github.com/clustersim/clustersim/sim/store"
)

var storeAll = store.ListOptions{}

// DemoConfig shapes the built-in runtime demo: a level-triggered controller
// and a handful of users over a network that drops, duplicates, reorders
// and delays messages, with the controller crashing in the middle.
type DemoConfig struct {
	// Seed is the run's root seed.
	Seed uint64
	// Duration is how long the run lasts in virtual time (default 10m).
	Duration time.Duration
	// Users is the number of user processes (default 5).
	Users int
	// Link is the network's behaviour; the zero value means DemoLink.
	Link netsim.LinkConfig
}

// DemoLink is the demo's default network: 1-5 ms latency; 5% of requests
// and replies dropped, 3% duplicated, 5% reordered by 20 ms; 1% of watch
// messages break their stream (the informer watches again). Watch events
// are not silently lost here (streamLoss): an informer repairs such a loss
// only when it hears of the object again (a later event, a watch restart
// that replays it, a relist), which is a lesson of its own.
var DemoLink = netsim.LinkConfig{
	Latency:      netsim.Latency{Base: time.Millisecond, Jitter: 4 * time.Millisecond},
	Drop:         0.05,
	Duplicate:    0.03,
	Reorder:      0.05,
	ReorderDelay: 20 * time.Millisecond,
	StreamBreak:  0.01,
}

// DemoResult is what the demo measured.
type DemoResult struct {
	Seed uint64 `json:"seed"`
	// Namespaces is the number of namespaces at the end; Published how
	// many of them hold a correct kube-root-ca.crt.
	Namespaces int `json:"namespaces"`
	Published  int `json:"published"`
	// CounterWant is the number of increments users saw succeed;
	// CounterGot the counter's final value. With optimistic concurrency
	// and retries CounterGot >= CounterWant: an increment whose reply was
	// lost may have been applied although its caller saw a timeout.
	CounterWant int `json:"counterWant"`
	CounterGot  int `json:"counterGot"`
	// Timeouts, Conflicts: client calls that timed out or conflicted.
	Timeouts  int `json:"timeouts"`
	Conflicts int `json:"conflicts"`
	// Stats is the API server's request counts by actor, verb, kind and outcome.
	Stats []Stat `json:"stats"`
	// Network is the network's totals.
	Network netsim.Stats `json:"network"`
	// Writes is the number of accepted writes (audit records).
	Writes int `json:"writes"`
	// Reconciles is the controller's reconcile count, summed over its
	// incarnations.
	Reconciles uint64 `json:"reconciles"`
	// Events is the number of kernel events fired.
	Events uint64 `json:"events"`
	// TraceHash identifies the run: equal hashes, equal runs.
	TraceHash string `json:"traceHash"`
	// End is the virtual time the run ended.
	End kernel.Time `json:"end"`
}

// Stat is one row of request counts.
type Stat struct {
	Actor   string `json:"actor"`
	Verb    string `json:"verb"`
	Kind    string `json:"kind"`
	Outcome string `json:"outcome"`
	Count   uint64 `json:"count"`
}

// RootCA is the bundle the demo publishes.
const demoRootCA = "-----BEGIN CERTIFICATE-----\nclustersim demo CA\n-----END CERTIFICATE-----\n"

// RunDemo runs the built-in runtime demo and returns its measurements.
func RunDemo(cfg DemoConfig) (*DemoResult, error) {
	if cfg.Duration <= 0 {
		cfg.Duration = 10 * time.Minute
	}
	if cfg.Users <= 0 {
		cfg.Users = 5
	}
	if cfg.Link == (netsim.LinkConfig{}) {
		cfg.Link = DemoLink
	}
	c, err := New(Config{Seed: cfg.Seed, Link: cfg.Link, RequestTimeout: 2 * time.Second})
	if err != nil {
		return nil, err
	}
	defer c.Close()
	if err := c.Bootstrap(&api.ConfigMap{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: api.ObjectMeta{Name: "counter", Namespace: "default"}, Data: map[string]string{"value": "0"}}); err != nil {
		return nil, err
	}
	var reconciles uint64
	pub := c.AddManager("kube-controller-manager", rootcacert.Actor, func(m *controller.Manager) error {
		return rootcacert.Setup(m, demoRootCA, controller.Options{Workers: 2, Observer: func(controller.Observation) { reconciles++ }})
	})
	opts := c.ManagerOptions()
	opts.Resync = 30 * time.Second
	pub.SetOptions(opts)
	if err := pub.Start(); err != nil {
		return nil, err
	}
	// The controller crashes mid-run and comes back 30 s later, with an
	// empty cache and queue.
	c.At(cfg.Duration*2/5, pub.Crash)
	c.At(cfg.Duration*2/5+30*time.Second, func() {
		if err := pub.Restart(); err != nil {
			panic("cluster invariant demo-restart: " + err.Error())
		}
	})

	// Users stop two minutes before the end, so that the last change has
	// time to converge through retries and re-watches.
	quiet := kernel.Time(cfg.Duration - 2*time.Minute)
	res := &DemoResult{Seed: cfg.Seed}
	for i := range cfg.Users {
		name := fmt.Sprintf("user-%d", i)
		cl := c.Client(netsim.Addr("user/"+name), name)
		rng := c.K.Rand("demo/" + name)
		c.Go(name, func(p *kernel.Process) {
			ctx := context.Background()
			for step := 0; ; step++ {
				p.Sleep(time.Duration(1+rng.IntN(20)) * time.Second)
				if p.Now() >= quiet {
					return
				}
				switch rng.IntN(4) {
				case 0: // a new namespace: the publisher must fill it
					ns := &api.Namespace{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Namespace"}, ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("team-%d-%d", i, step)}}
					_, err := cl.Create(ctx, ns)
					res.count(err)
				case 1: // vandalism: delete or edit a published ConfigMap
					target := fmt.Sprintf("team-%d-%d", rng.IntN(cfg.Users), rng.IntN(step+1))
					key := api.Key{Namespace: target, Name: rootcacert.ConfigMapName}
					if rng.IntN(2) == 0 {
						res.count(cl.Delete(ctx, api.KindConfigMap, key))
					} else {
						o, err := cl.Get(ctx, api.KindConfigMap, key)
						res.count(err)
						if err == nil {
							cm := o.(*api.ConfigMap)
							cm.Data = map[string]string{rootcacert.DataKey: "tampered"}
							_, err = cl.Update(ctx, cm)
							res.count(err)
						}
					}
				default: // a read-modify-write increment, retried on conflict and timeout
					if res.increment(ctx, cl) {
						res.CounterWant++
					}
				}
			}
		})
	}
	c.RunFor(cfg.Duration)

	nss, _, _ := c.Store.List(api.KindNamespace, storeAll)
	res.Namespaces = len(nss)
	for _, ns := range nss {
		o, err := c.Store.Get(api.KindConfigMap, api.Key{Namespace: ns.GetObjectMeta().Name, Name: rootcacert.ConfigMapName})
		if err == nil && o.(*api.ConfigMap).Data[rootcacert.DataKey] == demoRootCA {
			res.Published++
		}
	}
	if o, err := c.Store.Get(api.KindConfigMap, api.Key{Namespace: "default", Name: "counter"}); err == nil {
		res.CounterGot, _ = strconv.Atoi(o.(*api.ConfigMap).Data["value"])
	}
	for _, s := range c.API.Stats() {
		res.Stats = append(res.Stats, Stat{Actor: s.Actor, Verb: s.Verb.String(), Kind: s.Kind.Name, Outcome: string(s.Outcome), Count: s.Count})
	}
	res.Network = c.Net.Stats()
	res.Writes = c.Store.Audit().Len()
	res.Reconciles = reconciles
	res.Events = c.K.Fired()
	res.TraceHash = c.TraceHash()
	res.End = c.K.Now()
	return res, nil
}

func (r *DemoResult) count(err error) {
	switch {
	case errors.Is(err, apierr.ErrTimeout):
		r.Timeouts++
	case errors.Is(err, apierr.ErrConflict):
		r.Conflicts++
	}
}

// increment adds one to the counter ConfigMap with optimistic concurrency:
// get, add, update with the resourceVersion read, and on a conflict or a
// timeout start over (client-go's RetryOnConflict, extended to timeouts).
// It reports whether an update was seen to succeed. A timed-out update may
// still have been applied: then the counter moves without the caller
// knowing, which the demo's figures show.
func (r *DemoResult) increment(ctx context.Context, cl client.Client) bool {
	key := api.Key{Namespace: "default", Name: "counter"}
	for range 5 {
		o, err := cl.Get(ctx, api.KindConfigMap, key)
		r.count(err)
		if err != nil {
			continue
		}
		cm := o.(*api.ConfigMap)
		n, _ := strconv.Atoi(cm.Data["value"])
		cm.Data["value"] = strconv.Itoa(n + 1)
		_, err = cl.Update(ctx, cm)
		r.count(err)
		if err == nil {
			return true
		}
	}
	return false
}

// SortStats orders stats by count, largest first, then by name: the order
// a summary table shows them in.
func SortStats(s []Stat) {
	slices.SortStableFunc(s, func(a, b Stat) int {
		if a.Count != b.Count {
			if a.Count > b.Count {
				return -1
			}
			return 1
		}
		return 0
	})
}
