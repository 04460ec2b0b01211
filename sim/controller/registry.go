package controller

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/informer"
	"github.com/clustersim/clustersim/sim/workqueue"
)

// Definition describes a controller by name so that a scenario can run it:
// spec.controllers names it, it runs in a manager of its own at network
// endpoint "controller/<Name>", and timeline steps crash and restart it
// by that name. It is controller-runtime's builder
// (ctrl.NewControllerManagedBy(mgr).For(...).Owns(...).Watches(...))
// written as data.
//
// A definition either lists what its controller watches (For, Owns,
// Watches) and how to build its Reconciler (New), or gives a Setup
// function that registers everything with the manager itself, as the
// built-in controllers' Setup functions do.
type Definition struct {
	// Name identifies the controller in spec.controllers, in network rules
	// (controller/<Name>), in crashController and restartController steps
	// and in reports: a DNS label (lowercase letters, digits, '-').
	Name string
	// Actor is the identity its requests carry and its writes are audited
	// under; default "system:serviceaccount:default:<Name>".
	Actor string
	// For is the kind the controller reconciles: each of its objects is a
	// Request for itself (controller-runtime's For).
	For api.Kind
	// ForOptions select which objects of For are watched (a namespace, a
	// label selector); the zero value watches them all.
	ForOptions informer.Options
	// Owns are kinds the controller creates and owns: a change to one
	// enqueues its controller owner of kind For (Owns).
	Owns []api.Kind
	// Watches are further kinds whose changes map to requests (Watches
	// with handler.EnqueueRequestsFromMapFunc).
	Watches []Watch
	// New builds the Reconciler at every start of the manager, from its
	// Client, Clock and informers (Manager.Informer returns the shared
	// informers For, Owns and Watches made; read through their Listers).
	New func(m *Manager) (Reconciler, error)
	// Setup, instead of For, Owns, Watches and New, registers the
	// controller's informers and controllers with the manager directly.
	Setup func(m *Manager, s Settings) error
	// Workers is the default number of concurrent reconciles (1 when 0);
	// spec.controllers.<name>.workers overrides it.
	Workers int
	// Resync is the default resync period of the manager's informers (0:
	// none); spec.controllers.<name>.resync overrides it.
	Resync time.Duration
	// RateLimiter, when set, makes the controller's retry delays (nil:
	// workqueue.DefaultControllerRateLimiter, as the built-ins use). It is
	// called at every start, so each incarnation has fresh back-off state.
	RateLimiter func(m *Manager) workqueue.RateLimiter[Request]
}

// Watch is one kind a Definition watches besides For and Owns.
type Watch struct {
	// Kind is the kind watched; Options select its objects.
	Kind    api.Kind
	Options informer.Options
	// Map gives the requests a change to an object causes; nil means
	// EnqueueObject.
	Map MapFunc
}

// Settings are a scenario's settings for one run of a registered
// controller (spec.controllers.<name>), with the Definition's defaults
// filled in.
type Settings struct {
	// Workers is the number of concurrent reconciles (at least 1).
	Workers int
	// Resync is the informers' resync period (0: none).
	Resync time.Duration
}

// Registry errors.
var (
	// ErrInvalidDefinition matches every error Register returns for a
	// definition that cannot run.
	ErrInvalidDefinition = errors.New("invalid controller definition")
	// ErrRegistered: a second definition with a name already taken.
	ErrRegistered = errors.New("controller name already registered")
)

var (
	registryMu sync.RWMutex
	registry   = map[string]Definition{}
	// reserved are names the runner wires itself (the built-ins).
	reserved = map[string]bool{}
	dnsLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)
)

// Register makes a controller available to scenarios by d.Name. It is
// meant for init functions and TestMain, like database/sql.Register; the
// registry is process-wide and read-only to runs, so registering never
// changes a run that does not name the controller. A bad definition fails
// with ErrInvalidDefinition, a taken name (a built-in's included) with
// ErrRegistered.
func Register(d Definition) error {
	if !dnsLabel.MatchString(d.Name) || len(d.Name) > 63 {
		return fmt.Errorf("controller %q: name must be a DNS label: %w", d.Name, ErrInvalidDefinition)
	}
	if d.Setup == nil {
		if d.For.IsZero() || d.New == nil {
			return fmt.Errorf("controller %s: a definition needs For and New, or Setup: %w", d.Name, ErrInvalidDefinition)
		}
		if !servable(d.For) {
			return fmt.Errorf("controller %s: For: unknown kind %q: %w", d.Name, d.For, ErrInvalidDefinition)
		}
		for _, k := range d.Owns {
			if !servable(k) {
				return fmt.Errorf("controller %s: Owns: unknown kind %q: %w", d.Name, k, ErrInvalidDefinition)
			}
		}
		for _, w := range d.Watches {
			if !servable(w.Kind) {
				return fmt.Errorf("controller %s: Watches: unknown kind %q: %w", d.Name, w.Kind, ErrInvalidDefinition)
			}
		}
	} else if !d.For.IsZero() || d.New != nil || len(d.Owns) > 0 || len(d.Watches) > 0 {
		return fmt.Errorf("controller %s: Setup excludes For, Owns, Watches and New: %w", d.Name, ErrInvalidDefinition)
	}
	if d.Workers < 0 || d.Resync < 0 {
		return fmt.Errorf("controller %s: negative workers or resync: %w", d.Name, ErrInvalidDefinition)
	}
	if d.Actor == "" {
		d.Actor = "system:serviceaccount:default:" + d.Name
	}
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, ok := registry[d.Name]; ok || reserved[d.Name] {
		return fmt.Errorf("controller %s: %w", d.Name, ErrRegistered)
	}
	registry[d.Name] = d
	return nil
}

// MustRegister is Register that panics on error, for init functions.
func MustRegister(d Definition) {
	if err := Register(d); err != nil {
		panic(err)
	}
}

// Reserve marks names as taken by controllers wired outside the registry
// (the runner's built-ins), so that Register refuses them.
func Reserve(names ...string) {
	registryMu.Lock()
	defer registryMu.Unlock()
	for _, n := range names {
		reserved[n] = true
	}
}

// Lookup returns the registered definition named name, with its defaults
// filled in.
func Lookup(name string) (Definition, bool) {
	registryMu.RLock()
	defer registryMu.RUnlock()
	d, ok := registry[name]
	return d, ok
}

// Registered returns the registered names, sorted: the order in which a
// scenario starts them.
func Registered() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// SetupFunc returns the manager setup function that runs d with s: d.Setup,
// or the informers of For, Owns and Watches, a controller named d.Name
// running New's Reconciler, and the handlers that enqueue its requests.
func (d Definition) SetupFunc(s Settings) func(m *Manager) error {
	if s.Workers <= 0 {
		s.Workers = max(d.Workers, 1)
	}
	if d.Setup != nil {
		return func(m *Manager) error { return d.Setup(m, s) }
	}
	return func(m *Manager) error {
		forInf, err := m.Informer(d.For, d.ForOptions)
		if err != nil {
			return err
		}
		type source struct {
			inf *informer.Informer
			fn  MapFunc
		}
		sources := []source{{forInf, EnqueueObject()}}
		for _, k := range d.Owns {
			inf, err := m.Informer(k, informer.Options{})
			if err != nil {
				return err
			}
			sources = append(sources, source{inf, EnqueueOwner(d.For)})
		}
		for _, w := range d.Watches {
			inf, err := m.Informer(w.Kind, w.Options)
			if err != nil {
				return err
			}
			fn := w.Map
			if fn == nil {
				fn = EnqueueObject()
			}
			sources = append(sources, source{inf, fn})
		}
		r, err := d.New(m)
		if err != nil {
			return fmt.Errorf("controller %s: %w", d.Name, err)
		}
		opts := Options{Workers: s.Workers}
		if d.RateLimiter != nil {
			opts.RateLimiter = d.RateLimiter(m)
		}
		c, err := m.NewController(d.Name, opts, r)
		if err != nil {
			return err
		}
		for _, src := range sources {
			c.Watch(src.inf, src.fn)
		}
		return nil
	}
}

// servable reports whether a cluster can serve kind k: a built-in kind,
// or one of a custom group (with a dot, not Kubernetes' own), which a
// scenario's CustomResourceDefinition defines at run time; an informer of
// a kind no definition serves fails when the controller starts.
func servable(k api.Kind) bool {
	if _, ok := api.Lookup(k); ok {
		return true
	}
	g := k.Group
	return k.Name != "" && strings.Contains(g, ".") && g != "k8s.io" && !strings.HasSuffix(g, ".k8s.io") && !strings.HasSuffix(g, ".kubernetes.io")
}
