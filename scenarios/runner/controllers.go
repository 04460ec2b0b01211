package runner

import (
	"fmt"

	"github.com/clustersim/clustersim/controllers/deployment"
	"github.com/clustersim/clustersim/controllers/garbagecollector"
	"github.com/clustersim/clustersim/controllers/replicaset"
	"github.com/clustersim/clustersim/controllers/resourcequota"
	"github.com/clustersim/clustersim/controllers/scheduler"
	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/sim/controller"
)

// controllerSpec is how the runner starts one named controller.
type controllerSpec struct {
	actor string
	setup func(m *controller.Manager, s scenarios.ControllerSettings) error
}

// controllerSpecs maps scenarios.Controllers' names to the controllers.
var controllerSpecs = map[string]controllerSpec{
	"resourcequota": {resourcequota.Actor, func(m *controller.Manager, s scenarios.ControllerSettings) error {
		return resourcequota.Setup(m, resourcequota.Options{Workers: s.Workers})
	}},
	"replicaset": {replicaset.Actor, func(m *controller.Manager, s scenarios.ControllerSettings) error {
		return replicaset.Setup(m, replicaset.Options{Workers: s.Workers})
	}},
	"deployment": {deployment.Actor, func(m *controller.Manager, s scenarios.ControllerSettings) error {
		return deployment.Setup(m, deployment.Options{Workers: s.Workers})
	}},
	"garbage-collector": {garbagecollector.Actor, func(m *controller.Manager, s scenarios.ControllerSettings) error {
		return garbagecollector.Setup(m, garbagecollector.Options{Workers: s.Workers})
	}},
	"scheduler": {scheduler.Actor, func(m *controller.Manager, s scenarios.ControllerSettings) error {
		return scheduler.Setup(m, scheduler.Options{Workers: s.Workers})
	}},
}

// startControllers starts every enabled controller, each as its own
// manager at endpoint "controller/<name>", in scenarios.Controllers order.
func (r *run) startControllers() error {
	for _, name := range scenarios.Controllers {
		settings, listed := r.s.Spec.Controllers[name]
		if listed && settings.Enabled != nil && !*settings.Enabled {
			continue
		}
		spec, ok := controllerSpecs[name]
		if !ok {
			return fmt.Errorf("runner: controller %q is not wired", name)
		}
		m := r.c.AddManager(name, spec.actor, func(m *controller.Manager) error { return spec.setup(m, settings) })
		if settings.Resync != nil {
			opts := r.c.ManagerOptions()
			opts.Resync = settings.Resync.Duration
			m.SetOptions(opts)
		}
		if err := m.Start(); err != nil {
			return fmt.Errorf("runner: start %s: %w", name, err)
		}
		r.managers[name] = m
	}
	return nil
}
