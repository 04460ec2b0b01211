package crt

import (
	"fmt"
	"slices"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/record"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/clustersim/clustersim/harness"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/controller"
)

// Operator is a controller-runtime operator made available to scenarios
// by name: its scheme and the setup a kubebuilder main.go would run
// against a manager (building the reconcilers with mgr.GetClient() and
// mgr.GetScheme() and calling NewControllerManagedBy(mgr)...Complete).
type Operator struct {
	// Name is the controller's name in spec.controllers, network rules
	// (controller/<Name>), crash and restart steps and the detectors.
	Name string
	// Scheme holds the Go types of every kind the operator reads or
	// writes: k8s.io/api's (clientgoscheme.AddToScheme) and its custom
	// resources'.
	Scheme *runtime.Scheme
	// Setup registers the operator's controllers with mgr. It runs at
	// every start of the simulated manager (each run, and each restart
	// after a crash), on fresh caches and queues, so reconcilers must be
	// built inside it and keep no state elsewhere.
	Setup func(mgr *Manager) error
	// Logger, when set, returns the logger a run's reconciles log to
	// (called at every start); the default discards. Its sink must not
	// read the wall clock, to keep runs deterministic.
	Logger func() logr.Logger
}

// Register makes op available to scenarios and the harness by op.Name.
// Call it from an init function or TestMain.
func Register(op Operator) error {
	if op.Scheme == nil || op.Setup == nil {
		return fmt.Errorf("crt: operator %q: Scheme and Setup are required", op.Name)
	}
	return harness.Register(harness.Controller{
		Name: op.Name,
		Setup: func(m *controller.Manager, s controller.Settings) error {
			return op.Setup(newManager(m, op, s))
		},
	})
}

// MustRegister is Register that panics on error, for init functions.
func MustRegister(op Operator) {
	if err := Register(op); err != nil {
		panic(err)
	}
}

// Manager is what an operator's setup sees of one start of its simulated
// manager: controller-runtime's manager.Manager getters that reconcilers
// are built from. It is not a manager.Manager (whose Start runs
// goroutines and wall-clock timers); NewControllerManagedBy takes it.
type Manager struct {
	sim      *controller.Manager
	op       Operator
	settings controller.Settings
	conv     *Converter
	mapper   meta.RESTMapper
	client   *Client
	logger   logr.Logger
}

func newManager(m *controller.Manager, op Operator, s controller.Settings) *Manager {
	conv := NewConverter(op.Scheme, m.Kinds())
	mapper := restMapper(m.Kinds())
	mgr := &Manager{sim: m, op: op, settings: s, conv: conv, mapper: mapper, logger: logr.Discard()}
	if op.Logger != nil {
		mgr.logger = op.Logger()
	}
	mgr.client = newClient(m, conv, mapper)
	return mgr
}

// GetClient returns the client over the simulator: cached reads, writes
// through the simulated network.
func (m *Manager) GetClient() client.Client { return m.client }

// GetScheme returns the operator's scheme.
func (m *Manager) GetScheme() *runtime.Scheme { return m.op.Scheme }

// GetRESTMapper returns a mapper of the simulated API's kinds.
func (m *Manager) GetRESTMapper() meta.RESTMapper { return m.mapper }

// GetLogger returns the operator's logger.
func (m *Manager) GetLogger() logr.Logger { return m.logger }

// GetEventRecorderFor returns an event recorder whose events carry name
// as their source, sent through the simulated network like the
// manager's own.
func (m *Manager) GetEventRecorderFor(name string) record.EventRecorder {
	return recorder{sim: m.sim, conv: m.conv, component: name}
}

// restMapper maps every kind kinds serves, at each of its versions.
func restMapper(kinds *api.Registry) meta.RESTMapper {
	var gvs []schema.GroupVersion
	type entry struct {
		gvk   schema.GroupVersionKind
		scope meta.RESTScope
	}
	var entries []entry
	for _, k := range kinds.Kinds() {
		info, _ := kinds.Lookup(k)
		scope := meta.RESTScopeRoot
		if info.Namespaced {
			scope = meta.RESTScopeNamespace
		}
		for _, av := range kinds.APIVersions(k) {
			gv, err := schema.ParseGroupVersion(av)
			if err != nil {
				continue // the registry only holds valid apiVersions
			}
			if !slices.Contains(gvs, gv) {
				gvs = append(gvs, gv)
			}
			entries = append(entries, entry{gv.WithKind(k.Name), scope})
		}
	}
	rm := meta.NewDefaultRESTMapper(gvs)
	for _, e := range entries {
		rm.Add(e.gvk, e.scope)
	}
	return rm
}

// recorder is record.EventRecorder over the simulated manager's recorder.
type recorder struct {
	sim       *controller.Manager
	conv      *Converter
	component string
}

// Event records an event about object.
func (r recorder) Event(object runtime.Object, eventtype, reason, message string) {
	r.Eventf(object, eventtype, reason, "%s", message)
}

// Eventf records an event about object with a formatted message.
func (r recorder) Eventf(object runtime.Object, eventtype, reason, messageFmt string, args ...any) {
	o, ok := object.(client.Object)
	if !ok {
		return // events are about objects with metadata; record.EventRecorder drops others too
	}
	gvk, err := r.conv.GVK(object)
	if err != nil {
		return // not a kind of the scheme: record.EventRecorder drops it too
	}
	ref := &api.Unstructured{
		TypeMeta:   api.TypeMeta{APIVersion: gvk.GroupVersion().String(), Kind: gvk.Kind},
		ObjectMeta: api.ObjectMeta{Namespace: o.GetNamespace(), Name: o.GetName(), UID: api.UID(o.GetUID()), ResourceVersion: o.GetResourceVersion()},
	}
	r.sim.Recorder(r.component).Eventf(ref, eventtype, reason, messageFmt, args...)
}

// AnnotatedEventf records an event; the simulator's events carry no
// annotations, so they are dropped.
func (r recorder) AnnotatedEventf(object runtime.Object, _ map[string]string, eventtype, reason, messageFmt string, args ...any) {
	r.Eventf(object, eventtype, reason, messageFmt, args...)
}
