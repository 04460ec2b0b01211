// Package harness is clustersim's door for outside code: it registers
// your controller by name, runs scenarios that name it from go test (one
// seed, or a swarm of seeds in parallel) under fault profiles, judges each
// run by verdicts (invariants over the store after every change, eventual
// stable reconciliation once the faults stop, detector bounds), and
// shrinks a failing run's fault schedule to a minimal one, written out as a
// scenario file that reproduces it.
//
// A controller is written against sim/controller (Reconciler, Request,
// Result, Manager), sim/client and sim/informer, the way a
// controller-runtime controller is, and registered once:
//
//	func init() {
//		harness.MustRegister(harness.Controller{
//			Name: "configmap-operator",
//			For:  api.KindDeployment,
//			Owns: []api.Kind{api.KindConfigMap},
//			New: func(m *controller.Manager) (controller.Reconciler, error) { ... },
//		})
//	}
//
// A scenario then runs it by naming it in spec.controllers; network rules
// aimed at controller/<name> reach it; crashController and
// restartController steps take its name; spec.faults aims profiles at it;
// the detectors attribute its writes and reconciles. A test runs a swarm:
//
//	func TestOperator(t *testing.T) {
//		harness.Test(t, "testdata/operator.yaml", harness.Config{
//			Seeds:      200,
//			Profiles:   []string{"lossy", "crashes"},
//			Invariants: []harness.Invariant{...},
//			Stable:     30 * time.Second,
//		})
//	}
//
// A failing seed prints its fault schedule, the two commands that replay it
// (go test -run ... -args -clustersim.seed=N, and clustersim run), its
// trace hash, and its schedule shrunk by delta debugging, written out as a
// scenario file that go test -run ... -args -clustersim.scenario=FILE
// replays (Replay). The clustersim run lines need a binary that registers
// the controller: the repository's registers its examples only, so an
// outside module replays with the go test lines.
//
// Determinism contract: a run is a pure function of the scenario, the seed
// and the Config; the swarm's workers share nothing but read-only tables,
// and results are kept by seed, so a seed's verdict and trace hash do not
// depend on the number of workers, GOMAXPROCS or the order runs finish
// in, and equal `clustersim run --seed N`'s.
//
// Layering: harness sits on top of scenarios/runner and report/measure;
// nothing in the module imports it but cmd/ and examples.
package harness
