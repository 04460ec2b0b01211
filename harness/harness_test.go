package harness_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/clustersim/clustersim/harness"
	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/kernel"
)

func noop(*controller.Manager) (controller.Reconciler, error) {
	return controller.ReconcilerFunc(func(context.Context, controller.Request) (controller.Result, error) {
		return controller.Result{}, nil
	}), nil
}

// registerRuns counts TestRegister's runs in this process: the names it
// registers take the count, since the registry refuses a name twice and
// -count=N runs the test again.
var registerRuns atomic.Int32

func TestRegister(t *testing.T) {
	setup := func(*controller.Manager, controller.Settings) error { return nil }
	run := registerRuns.Add(1)
	fine, fineSetup := fmt.Sprintf("reg-fine-%d", run), fmt.Sprintf("reg-setup-%d", run)
	for _, tc := range []struct {
		name string
		def  harness.Controller
		want error
	}{
		{"not a DNS label", harness.Controller{Name: "My_Op", For: api.KindDeployment, New: noop}, controller.ErrInvalidDefinition},
		{"no For", harness.Controller{Name: "reg-no-for", New: noop}, controller.ErrInvalidDefinition},
		{"no New", harness.Controller{Name: "reg-no-new", For: api.KindDeployment}, controller.ErrInvalidDefinition},
		{"unknown kind", harness.Controller{Name: "reg-bad-kind", For: api.Kind{Name: "Widget"}, New: noop}, controller.ErrInvalidDefinition},
		{"unknown owned kind", harness.Controller{Name: "reg-bad-owns", For: api.KindDeployment, Owns: []api.Kind{{Name: "Widget"}}, New: noop}, controller.ErrInvalidDefinition},
		{"setup and For", harness.Controller{Name: "reg-both", For: api.KindDeployment, Setup: setup}, controller.ErrInvalidDefinition},
		{"negative workers", harness.Controller{Name: "reg-neg", For: api.KindDeployment, New: noop, Workers: -1}, controller.ErrInvalidDefinition},
		{"a built-in's name", harness.Controller{Name: "deployment", For: api.KindDeployment, New: noop}, controller.ErrRegistered},
		{"fine", harness.Controller{Name: fine, For: api.KindDeployment, New: noop}, nil},
		{"taken", harness.Controller{Name: fine, For: api.KindPod, New: noop}, controller.ErrRegistered},
		{"fine with setup", harness.Controller{Name: fineSetup, Setup: setup}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := harness.Register(tc.def)
			if !errors.Is(err, tc.want) || (err == nil) != (tc.want == nil) {
				t.Errorf("Register: %v, want %v", err, tc.want)
			}
		})
	}
	d, ok := controller.Lookup(fine)
	if !ok || d.Actor != "system:serviceaccount:default:"+fine {
		t.Errorf("Lookup(%s) = %+v, %v; want the default actor", fine, d, ok)
	}
}

// TestSameTraceAsTheCLI: a harness run of a seed is the run clustersim
// run makes (runner.Run with the seed), with or without fault profiles,
// and invariants checked after every event change nothing.
func TestSameTraceAsTheCLI(t *testing.T) {
	s, err := harness.Load("level-triggered")
	if err != nil {
		t.Fatal(err)
	}
	seed := uint64(3)
	always := harness.Invariant{Name: "true", Check: func(harness.State) error { return nil }}
	for _, tc := range []struct {
		profiles []string
		faults   int
	}{{nil, 0}, {[]string{"lossy", "crashes"}, 2 + 3}} {
		profiles := tc.profiles
		cfg := harness.Config{Profiles: profiles, Invariants: []harness.Invariant{always}, MaxFights: -1, MaxHotLoops: -1}
		v, err := harness.Run(s, seed, cfg)
		if err != nil {
			t.Fatal(err)
		}
		opts := runner.Options{Seed: &seed}
		if profiles != nil {
			opts.Faults = &scenarios.Faults{Profiles: profiles}
		}
		res, err := runner.Run(s, opts)
		if err != nil {
			t.Fatal(err)
		}
		if v.TraceHash != res.TraceHash {
			t.Errorf("profiles %v: harness trace %s, runner trace %s", profiles, v.TraceHash, res.TraceHash)
		}
		if len(v.Faults) != tc.faults {
			t.Errorf("profiles %v: %d faults: %v", profiles, len(v.Faults), v.Faults)
		}
		// The schedule written out explicitly replays the same run.
		opts.Faults = &scenarios.Faults{Schedule: v.Faults}
		res, err = runner.Run(s, opts)
		if err != nil {
			t.Fatal(err)
		}
		if v.TraceHash != res.TraceHash {
			t.Errorf("profiles %v: the explicit schedule gives trace %s, the profiles %s", profiles, res.TraceHash, v.TraceHash)
		}
	}
}

// TestSwarmDoesNotDependOnWorkers: verdicts and traces by seed are the
// same with one worker and with four; FailFast keeps the seeds up to the
// first failure.
func TestSwarmDoesNotDependOnWorkers(t *testing.T) {
	s, err := harness.Load("level-triggered")
	if err != nil {
		t.Fatal(err)
	}
	// A verdict that some seeds may meet and some not.
	late := harness.Invariant{Name: "quiet at the end", Check: func(st harness.State) error {
		if len(st.List(api.KindPod, "")) > 6 {
			return errors.New("more than six pods")
		}
		return nil
	}}
	var hashes []string
	for _, workers := range []int{1, 4} {
		vs, err := harness.Swarm(s, harness.Config{Seeds: 6, Parallel: workers, Profiles: []string{"lossy"}, Eventually: []harness.Invariant{late}, MaxFights: -1, MaxHotLoops: -1})
		if err != nil {
			t.Fatal(err)
		}
		var got string
		for i, v := range vs {
			if v.Seed != uint64(i+1) {
				t.Fatalf("verdict %d is seed %d", i, v.Seed)
			}
			got += v.TraceHash[:8]
		}
		hashes = append(hashes, got)
	}
	if hashes[0] != hashes[1] {
		t.Errorf("one worker: %s; four: %s", hashes[0], hashes[1])
	}
	fail := harness.Invariant{Name: "no pod", Check: func(st harness.State) error {
		if len(st.List(api.KindPod, "")) > 0 {
			return errors.New("a pod")
		}
		return nil
	}}
	vs, err := harness.Swarm(s, harness.Config{Seeds: 20, FirstSeed: 5, FailFast: true, Invariants: []harness.Invariant{fail}, MaxFights: -1, MaxHotLoops: -1})
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 1 || vs[0].Seed != 5 || vs[0].Passed() || vs[0].Result == nil {
		t.Errorf("FailFast: %d verdicts, first %+v", len(vs), vs[0])
	}
}

// pollerOnce registers TestRegisteredControllerIsABuiltinsPeer's
// controller once per process, so that -count=N runs the test again (the
// registry refuses a name twice).
var pollerOnce sync.Once

// TestRegisteredControllerIsABuiltinsPeer: a registered controller named
// in spec.controllers runs at controller/<name>, a link rule aimed there
// reaches it, crash and restart steps take its name, and the detectors
// attribute its hot loop without it recording anything.
func TestRegisteredControllerIsABuiltinsPeer(t *testing.T) {
	pollerOnce.Do(func() {
		harness.MustRegister(harness.Controller{
			Name: "poller",
			For:  api.KindConfigMap,
			New: func(m *controller.Manager) (controller.Reconciler, error) {
				return controller.ReconcilerFunc(func(context.Context, controller.Request) (controller.Result, error) {
					return controller.Result{RequeueAfter: 10 * time.Millisecond}, nil
				}), nil
			},
		})
	})
	const file = `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: poller}
spec:
  duration: 40s
  network:
    default: {latency: 1ms}
    links:
    - {from: controller/poller, to: apiserver, both: true, drop: 1}
  controllers:
    poller: {}
  objects:
  - {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}
  timeline:
  - {at: 20s, crashController: poller}
  - {at: 21s, restartController: poller}
  - {at: 21s, heal: never}
`
	s, err := scenarios.Load("poller.yaml", ".", fstest.MapFS{}, []byte(file))
	if err == nil || !strings.Contains(err.Error(), `spec.timeline[2].heal: no partition "never"`) {
		t.Fatalf("load: %v; want the heal step refused (the file is checked like any other)", err)
	}
	s, err = scenarios.Load("poller.yaml", ".", fstest.MapFS{}, []byte(strings.TrimSuffix(file, "  - {at: 21s, heal: never}\n")))
	if err != nil {
		t.Fatal(err)
	}
	v, err := harness.Run(s, 1, harness.Config{})
	if err != nil {
		t.Fatal(err)
	}
	// Every request of the poller is dropped: it never lists, so it never
	// reconciles.
	n := 0
	for _, r := range v.Result.Reconciles {
		if r.Controller == "poller" {
			n++
		}
	}
	if n != 0 || !v.Passed() {
		t.Errorf("behind a link dropping everything: %d reconciles, failures %v", n, v.Failures)
	}
	s.Spec.Network.Links = nil
	v, err = harness.Run(s, 1, harness.Config{})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(v.Failures, "\n")
	if !strings.Contains(got, "hot loops (at most 0)") || !strings.Contains(got, "poller") {
		t.Errorf("failures %q; want the poller's hot loop", got)
	}
	var crashed, restarted bool
	for _, e := range v.Result.Entries {
		crashed = crashed || e.Command == "crash controller poller" && e.Err == ""
		restarted = restarted || e.Command == "restart controller poller" && e.Err == ""
	}
	if !crashed || !restarted || v.Result.ControllerActors["poller"] != "system:serviceaccount:default:poller" {
		t.Errorf("crash %v, restart %v, actors %v", crashed, restarted, v.Result.ControllerActors)
	}
}

// The sink probe's registration (once per process, so that -count=N
// runs the test again) and its counts.
var (
	sinkProbeOnce                    sync.Once
	sinkProbeInline, sinkProbeBeside atomic.Int32
)

// TestSwarmInlinesSinks: a swarm of more than one worker runs a
// simulation on every processor, so the sinks its simulations make
// consume on their own goroutine (kernel.InlineSinks). One worker, or
// one seed, leaves them beside the loop, and the swarm leaves the
// setting as it found it. The probe is made where a simulation makes its
// sinks: as it starts a registered controller.
func TestSwarmInlinesSinks(t *testing.T) {
	sinkInline := func() bool { return kernel.NewSink(1, func(*[]int) {}, func(*[]int) {}).Inline() }
	sinkProbeOnce.Do(func() {
		harness.MustRegister(harness.Controller{
			Name: "sinkprobe",
			For:  api.KindConfigMap,
			New: func(m *controller.Manager) (controller.Reconciler, error) {
				if sinkInline() {
					sinkProbeInline.Add(1)
				} else {
					sinkProbeBeside.Add(1)
				}
				return noop(m)
			},
		})
	})
	inlined, besides := &sinkProbeInline, &sinkProbeBeside
	const file = `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: sinkprobe}
spec:
  duration: 1s
  network:
    default: {latency: 1ms}
  controllers:
    sinkprobe: {}
`
	s, err := scenarios.Load("sinkprobe.yaml", ".", fstest.MapFS{}, []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		seeds, workers int
		want           bool
	}{{4, 2, true}, {4, 1, false}, {1, 4, false}} {
		inlined.Store(0)
		besides.Store(0)
		if _, err := harness.Swarm(s, harness.Config{Seeds: tc.seeds, Parallel: tc.workers, MaxFights: -1, MaxHotLoops: -1}); err != nil {
			t.Fatal(err)
		}
		in, out := inlined.Load(), besides.Load()
		if in+out < int32(tc.seeds) || tc.want && out != 0 || !tc.want && in != 0 {
			t.Errorf("Swarm of %d seeds, %d workers: %d sinks inline, %d beside the loop; want all inline: %t", tc.seeds, tc.workers, in, out, tc.want)
		}
	}
	if sinkInline() {
		t.Error("after the swarm, sinks are still inline")
	}
}
