package example

import (
	"fmt"
	"time"

	"github.com/clustersim/clustersim/harness"
	"github.com/clustersim/clustersim/sim/api"
)

// appKind is the App's kind in the simulator.
var appKind = api.Kind{Group: "webapp.example.com", Name: "App"}

// NoOrphans holds at the end of testdata/app.yaml: web was deleted, and
// its Deployment and Service went with it.
var NoOrphans = harness.Invariant{
	Name: "web's Deployment and Service are gone with web",
	Check: func(s harness.State) error {
		if _, ok := s.Get(appKind, "default", "web"); ok {
			return fmt.Errorf("app default/web is still there")
		}
		for _, k := range []api.Kind{api.KindDeployment, api.KindService} {
			if _, ok := s.Get(k, "default", "web"); ok {
				return fmt.Errorf("%s default/web outlives its App", k)
			}
		}
		return nil
	},
}

// APIReady holds at the end of testdata/app.yaml: api's Deployment has
// its spec, its Service exists, and its status reports 2 available
// replicas and Available=True at its generation.
var APIReady = harness.Invariant{
	Name: "api is available as declared",
	Check: func(s harness.State) error {
		o, ok := s.Get(appKind, "default", "api")
		if !ok {
			return fmt.Errorf("app default/api is gone")
		}
		app := o.(*api.Unstructured)
		d, ok := s.Get(api.KindDeployment, "default", "api")
		if !ok {
			return fmt.Errorf("deployment default/api is missing")
		}
		dep := d.(*api.Deployment)
		if dep.Spec.Replicas == nil || *dep.Spec.Replicas != 2 || dep.Spec.Template.Spec.Containers[0].Image != "httpd:2.4" {
			return fmt.Errorf("deployment default/api does not follow its App's spec")
		}
		if _, ok := s.Get(api.KindService, "default", "api"); !ok {
			return fmt.Errorf("service default/api is missing")
		}
		avail, _ := app.Get("status.availableReplicas")
		gen, _ := app.Get("status.observedGeneration")
		if avail != int64(2) || gen != app.Generation {
			return fmt.Errorf("app default/api status says %v available at generation %v; want 2 at %d", avail, gen, app.Generation)
		}
		conds, _ := app.Get("status.conditions")
		list, _ := conds.([]any)
		for _, c := range list {
			m, _ := c.(map[string]any)
			if m["type"] == "Available" && m["status"] == "True" {
				return nil
			}
		}
		return fmt.Errorf("app default/api has no Available=True condition: %v", conds)
	},
}

// Config judges a run of testdata/app.yaml (or its planted-bug copy): the
// end state, stable reconciliation within 80s of the last fault or
// action (a watch broken by a fault is only noticed when the informer
// relists), and no fights or hot loops.
func Config(seeds int, profiles ...string) harness.Config {
	return harness.Config{
		Seeds:      seeds,
		Profiles:   profiles,
		Eventually: []harness.Invariant{NoOrphans, APIReady},
		Stable:     80 * time.Second,
	}
}
