package harness

import (
	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/sim/controller"
)

// Controller describes a controller by name: what it reconciles (For),
// creates (Owns) and otherwise watches (Watches), how to build its
// Reconciler (New), its workers, resync period and rate limiter. See
// controller.Definition.
type Controller = controller.Definition

// Watch is one further kind a Controller watches, with the mapping from
// its objects to requests.
type Watch = controller.Watch

// Register makes c available to scenarios by c.Name (spec.controllers,
// controller/<name> network rules, crashController and
// restartController steps, spec.faults.target). Call it from an init
// function or TestMain; a name may be registered once per process, and
// the built-in controllers' names are taken.
func Register(c Controller) error { return controller.Register(c) }

// MustRegister is Register that panics on error, for init functions.
func MustRegister(c Controller) { controller.MustRegister(c) }

// Fault is one injected fault; Profile draws a schedule of them from a
// seed. See scenarios.Fault and scenarios.Profile.
type (
	Fault        = scenarios.Fault
	Profile      = scenarios.Profile
	ProfileInput = scenarios.ProfileInput
)

// RegisterProfile adds a fault profile that Config.Profiles, scenario
// files (spec.faults.profiles) and clustersim run --faults can name.
func RegisterProfile(name string, p Profile) error { return scenarios.RegisterProfile(name, p) }

// Profiles lists the fault profiles by name: perfect, lossy (drop and
// duplicate), slow-apiserver, partition (of the controller),
// broken-watches (410 relists), lagging-cache (stale reads), crashes (at
// random points) and crash-after-writes (right after the seed-th write:
// seeds 1..N try every k up to N), and any registered ones.
func Profiles() []string { return scenarios.ProfileNames() }
