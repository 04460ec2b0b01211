// Package cluster wires a simulated control plane together: one kernel, one
// network, a store behind an API server on that network, controller
// managers and user clients each at their own network endpoint. It is the
// one place in sim/ that knows every layer; scenarios and the CLI build on
// it.
//
// Determinism: everything hangs off one kernel seeded with Config.Seed;
// the trace (audit log, request counts, network counts) of a run is a pure
// function of the configuration, the seed and what the caller schedules.
package cluster

import (
	"crypto/sha256"
	"encoding"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"strings"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/netsim"
	"github.com/clustersim/clustersim/sim/store"
)

// APIServerAddr is the API server's network address.
const APIServerAddr netsim.Addr = "apiserver"

// AdminActor is the identity of objects a scenario creates before the run
// starts (bootstrap, not through the network).
const AdminActor = "system:admin"

// Config is a control plane's configuration. The zero value is a perfect,
// instant network and Kubernetes' default timeouts.
type Config struct {
	// Seed is the root seed of every random stream of the run.
	Seed uint64
	// Link is the default behaviour of every network link, both
	// directions; SetLink on Net overrides single links.
	Link netsim.LinkConfig
	// RequestTimeout bounds each client request (default 10s).
	RequestTimeout time.Duration
	// WatchHistory is how many events per kind the store keeps for watches
	// that resume from an older resourceVersion (default
	// store.DefaultHistory).
	WatchHistory int
	// ServiceTime is how long the API server works on each request before
	// replying (default 0).
	ServiceTime time.Duration
	// EventTTL is how long the API server keeps an Event after its last
	// write (kube-apiserver's --event-ttl; default store.DefaultEventTTL,
	// 1h): etcd's lease arithmetic removes it between EventTTL and
	// EventTTL plus a minute later (store.SetTTL). NoEventTTL keeps
	// every Event for the whole run (--event-ttl=0).
	EventTTL time.Duration
	// Namespaces are created at bootstrap; default "default",
	// "kube-system", "kube-public" and "kube-node-lease", as a new cluster
	// has.
	Namespaces []string
}

// NoEventTTL, as Config.EventTTL, keeps Events for the whole run.
const NoEventTTL time.Duration = -1

// Cluster is a running simulated control plane. Its fields are the layers,
// exposed for tests and scenario code to inject faults and read results.
type Cluster struct {
	K     *kernel.Kernel
	Net   *netsim.Network
	Store *store.Store
	API   *apiserver.Server
	// APIEndpoint is the API server's place on the network.
	APIEndpoint *apiserver.Endpoint

	cfg      Config
	trace    hash.Hash // the audit log's lines so far (TraceHash)
	managers []*controller.Manager
	actors   map[netsim.Addr]string // who the clients at an address act as
}

// New builds a control plane and bootstraps its namespaces.
func New(cfg Config) (*Cluster, error) {
	if err := cfg.Link.Validate(); err != nil {
		return nil, fmt.Errorf("cluster: default link: %w", err)
	}
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = client.DefaultRequestTimeout
	}
	if cfg.Namespaces == nil {
		cfg.Namespaces = []string{"default", "kube-system", "kube-public", "kube-node-lease"}
	}
	k := kernel.New(cfg.Seed)
	st := store.New(k)
	trace := sha256.New()
	st.Audit().SetTrace(trace)
	if cfg.WatchHistory > 0 {
		st.SetHistory(cfg.WatchHistory)
	}
	st.SetTTL(api.KindEvent, eventTTL(cfg.EventTTL))
	net := netsim.New(k)
	if err := net.SetDefault(cfg.Link); err != nil {
		return nil, fmt.Errorf("cluster: default link: %w", err)
	}
	srv := apiserver.New(k, st)
	ep := apiserver.Serve(srv, net, APIServerAddr)
	ep.SetServiceTime(cfg.ServiceTime)
	c := &Cluster{K: k, Net: net, Store: st, API: srv, APIEndpoint: ep, cfg: cfg, trace: trace, actors: map[netsim.Addr]string{}}
	for _, ns := range cfg.Namespaces {
		o := &api.Namespace{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Namespace"}, ObjectMeta: api.ObjectMeta{Name: ns}}
		if err := c.Bootstrap(o); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// eventTTL is the Events' time to live Config.EventTTL asks for.
func eventTTL(d time.Duration) time.Duration {
	switch {
	case d == 0:
		return store.DefaultEventTTL
	case d < 0:
		return 0
	}
	return d
}

// Bootstrap creates objects directly through the API server's handler as
// AdminActor, with defaulting, admission and validation but without the
// network: the state a scenario starts from.
func (c *Cluster) Bootstrap(objs ...api.Object) error {
	for _, o := range objs {
		info, ok := c.Store.Kinds().Lookup(api.KindOf(o))
		if !ok {
			return fmt.Errorf("cluster: bootstrap: unknown kind %q", api.KindOf(o))
		}
		if info.Namespaced && o.GetObjectMeta().Namespace == "" {
			o.GetObjectMeta().Namespace = "default"
		}
		resp := c.API.Handle(&apiserver.Request{Verb: apiserver.Create, Kind: info.Kind, Actor: AdminActor, Object: o.DeepCopyObject()})
		if resp.Err != nil {
			return fmt.Errorf("cluster: bootstrap %s %s: %w", info.Kind, o.GetObjectMeta().Key(), resp.Err)
		}
	}
	return nil
}

// Transport returns a network transport from the endpoint at addr (created
// on first use) to the API server.
func (c *Cluster) Transport(addr netsim.Addr) *client.Network {
	t := client.NewNetwork(c.Net, c.Net.Endpoint(addr), c.APIEndpoint.Addr(), c.cfg.RequestTimeout)
	t.SetKinds(c.Store.Kinds())
	return t
}

// Client returns a client acting as actor from the endpoint at addr. Use
// it from a kernel process (see Go).
func (c *Cluster) Client(addr netsim.Addr, actor string) client.Client {
	c.actors[addr] = actor
	return client.New(c.K, c.Transport(addr), actor, client.Options{RequestTimeout: c.cfg.RequestTimeout})
}

// AddManager registers a controller manager at endpoint
// "controller/<name>" acting as actor. It is not started: call Start.
func (c *Cluster) AddManager(name, actor string, setup func(m *controller.Manager) error) *controller.Manager {
	c.actors[netsim.Addr("controller/"+name)] = actor
	m := controller.NewManager(c.K, c.Transport(netsim.Addr("controller/"+name)), name, actor, setup)
	m.SetOptions(c.ManagerOptions())
	c.managers = append(c.managers, m)
	return m
}

// SetActor records that the requests sent from addr act as actor, for
// endpoints the cluster did not create (a kubelet's). Client and
// AddManager record theirs.
func (c *Cluster) SetActor(addr netsim.Addr, actor string) { c.actors[addr] = actor }

// ActorAt is the actor the requests from addr act as (Client, AddManager
// or SetActor recorded it), else the address itself.
func (c *Cluster) ActorAt(addr netsim.Addr) string {
	if a, ok := c.actors[addr]; ok {
		return a
	}
	return string(addr)
}

// ManagerOptions are the options AddManager gives a manager: the
// cluster's request timeout for its client. Callers that set more options
// start from these.
func (c *Cluster) ManagerOptions() controller.ManagerOptions {
	return controller.ManagerOptions{Client: client.Options{RequestTimeout: c.cfg.RequestTimeout}}
}

// Managers returns the registered managers in registration order.
func (c *Cluster) Managers() []*controller.Manager { return c.managers }

// Go runs fn as a kernel process named name, starting now; it is how
// scenario code and tests act as a user (a client call blocks in virtual
// time).
func (c *Cluster) Go(name string, fn func(p *kernel.Process)) *kernel.Process {
	return c.K.Spawn(name, fn)
}

// At runs fn on the event loop at virtual time t (t must not be in the
// past).
func (c *Cluster) At(t time.Duration, fn func()) { c.K.At(kernel.Time(t), fn) }

// RunFor advances the simulation by d of virtual time.
func (c *Cluster) RunFor(d time.Duration) kernel.StopReason { return c.K.RunFor(d) }

// Close ends the simulation: every controller, informer and client process
// still blocked is killed, so its goroutine ends and the cluster can be
// garbage collected. The store stays readable; the cluster must not be run
// again.
func (c *Cluster) Close() { c.K.Close() }

// TraceHash returns the SHA-256, in hex, of the run's canonical trace:
// every accepted write (each audit record's line, heartbeats included
// even when the audit log counts them instead of keeping them), the
// request counts per actor, verb, kind and outcome, and the network's
// totals. Two runs are the same run exactly when their traces are
// byte-identical. The audit lines are hashed as the store accepts them,
// so the hash needs no record to be kept.
func (c *Cluster) TraceHash() string {
	c.Store.Audit().Sync()
	m, ok := c.trace.(encoding.BinaryMarshaler)
	if !ok {
		panic("cluster invariant trace-hash: sha256 state cannot be saved")
	}
	state, err := m.MarshalBinary()
	if err != nil {
		panic("cluster invariant trace-hash: " + err.Error())
	}
	h := sha256.New()
	if err := h.(encoding.BinaryUnmarshaler).UnmarshalBinary(state); err != nil {
		panic("cluster invariant trace-hash: " + err.Error())
	}
	var b strings.Builder
	for _, s := range c.API.Stats() {
		fmt.Fprintf(&b, "requests %s %s %s %s %d\n", s.Actor, s.Verb, s.Kind, s.Outcome, s.Count)
	}
	fmt.Fprintf(&b, "network %+v\n", c.Net.Stats())
	fmt.Fprintf(&b, "end %v events=%d\n", c.K.Now(), c.K.Fired())
	io.WriteString(h, b.String())
	return hex.EncodeToString(h.Sum(nil))
}
