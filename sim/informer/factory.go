package informer

import (
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/kernel"
)

// factoryKey identifies a shared informer.
type factoryKey struct {
	kind api.Kind
	opts string
}

// Factory hands out one shared informer per (kind, options), so that the
// controllers of one manager share caches and watches (client-go's
// SharedInformerFactory). Start starts them all; Stop crashes them all.
type Factory struct {
	k       *kernel.Kernel
	t       client.Transport
	cfg     Config
	byKey   map[factoryKey]*Informer
	order   []*Informer
	started bool
	stopped bool
}

// NewFactory returns an empty factory whose informers list and watch
// through t with cfg (actor, name prefix, resync period).
func NewFactory(k *kernel.Kernel, t client.Transport, cfg Config) *Factory {
	return &Factory{k: k, t: t, cfg: cfg, byKey: make(map[factoryKey]*Informer)}
}

// Informer returns the factory's informer for kind and opts, creating it
// on first request (see New for the errors). An informer created after
// Start is started at once; after Stop, the informer is created stopped.
func (f *Factory) Informer(kind api.Kind, opts Options) (*Informer, error) {
	key := factoryKey{kind: kind, opts: opts.String()}
	if inf, ok := f.byKey[key]; ok {
		return inf, nil
	}
	inf, err := New(f.k, f.t, f.cfg, kind, opts)
	if err != nil {
		return nil, err
	}
	f.byKey[key] = inf
	f.order = append(f.order, inf)
	switch {
	case f.stopped:
		inf.Stop()
	case f.started:
		inf.Start()
	}
	return inf, nil
}

// Informers returns the factory's informers in the order they were
// created.
func (f *Factory) Informers() []*Informer { return append([]*Informer(nil), f.order...) }

// Start starts every informer, in the order they were created.
func (f *Factory) Start() {
	if f.started || f.stopped {
		return
	}
	f.started = true
	for _, inf := range f.order {
		inf.Start()
	}
}

// Stop crashes every informer: reflectors killed, watches stopped, caches
// dropped.
func (f *Factory) Stop() {
	if f.stopped {
		return
	}
	f.stopped = true
	for _, inf := range f.order {
		inf.Stop()
	}
}

// HasSynced reports whether every informer has synced.
func (f *Factory) HasSynced() bool {
	for _, inf := range f.order {
		if !inf.HasSynced() {
			return false
		}
	}
	return true
}

// WaitForSync blocks p until every informer has synced and reports true,
// or reports false once the factory is stopped.
func (f *Factory) WaitForSync(p *kernel.Process) bool {
	for i := 0; i < len(f.order); i++ {
		if !f.order[i].WaitForSync(p) {
			return false
		}
	}
	return !f.stopped
}
