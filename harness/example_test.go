package harness_test

import (
	"context"
	"fmt"
	"time"

	"github.com/clustersim/clustersim/harness"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
)

// labeller marks every Deployment with a label: the smallest controller
// that reads from its cache and writes through its client.
type labeller struct {
	client      client.Client
	deployments informer.Lister
}

func (l *labeller) Reconcile(ctx context.Context, req controller.Request) (controller.Result, error) {
	o, ok := l.deployments.Get(req.Key)
	if !ok || o.GetObjectMeta().Labels["example.com/seen"] == "yes" {
		return controller.Result{}, nil
	}
	_, err := l.client.Patch(ctx, api.KindDeployment, req.Key, client.MergePatch, []byte(`{"metadata":{"labels":{"example.com/seen":"yes"}}}`))
	return controller.Result{}, err
}

// Register a controller by name; a scenario then runs it by naming it in
// spec.controllers.
func ExampleRegister() {
	err := harness.Register(harness.Controller{
		Name:    "labeller",
		For:     api.KindDeployment,
		Workers: 2,
		New: func(m *controller.Manager) (controller.Reconciler, error) {
			deps, err := m.Informer(api.KindDeployment, informer.Options{})
			if err != nil {
				return nil, err
			}
			return &labeller{client: m.Client(), deployments: deps.Lister()}, nil
		},
	})
	fmt.Println(err)
	// Output: <nil>
}

// Run a swarm of seeds of a built-in scenario under two composed fault
// profiles aimed at its operator, and judge each run: an invariant after
// every change to the store, and stable reconciliation within a minute
// of the last fault.
func ExampleSwarm() {
	s, err := harness.Load("level-triggered")
	if err != nil {
		fmt.Println(err)
		return
	}
	atMostFive := harness.Invariant{Name: "at most five Deployments", Check: func(st harness.State) error {
		if n := len(st.List(api.KindDeployment, "")); n > 5 {
			return fmt.Errorf("%d Deployments", n)
		}
		return nil
	}}
	verdicts, err := harness.Swarm(s, harness.Config{
		Seeds:      4,
		Profiles:   []string{"lossy", "crashes"},
		Invariants: []harness.Invariant{atMostFive},
		Stable:     time.Minute,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, v := range verdicts {
		fmt.Printf("seed %d: passed %v, %d faults, first %s\n", v.Seed, v.Passed(), len(v.Faults), v.Faults[0])
	}
	// Output:
	// seed 1: passed true, 5 faults, first 3.8s lossy controller/level-app-operator<->apiserver (drop 0.3, duplicate 0.2) for 13.5s
	// seed 2: passed true, 5 faults, first 12.3s crash controller level-app-operator, restart after 1s
	// seed 3: passed true, 5 faults, first 14.7s crash controller level-app-operator, restart after 3.7s
	// seed 4: passed true, 5 faults, first 2.8s lossy controller/level-app-operator<->apiserver (drop 0.3, duplicate 0.2) for 10.3s
}
