package scenarios

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// TestScaleYAML checks that the generated probe loads strictly, has the
// nodes, Deployments, crashes and expectation asked for, and that bad
// sizes are refused.
func TestScaleYAML(t *testing.T) {
	tests := []struct {
		probe                ScaleProbe
		nodes, pods, crashes int
		qps                  float64 // 0: kube-controller-manager's
		burst                int
		sched                Pacing // zero: kube-scheduler's
		services             int
		batch                time.Duration // the endpoints controllers' updatesBatchPeriod
		perController        bool          // spec.cluster.controllerManager: per-controller
		// spread, preferred and required count the Deployments whose
		// pods have a zone spread constraint, a preferred and a required
		// anti-affinity.
		spread, preferred, required int
		percentage                  *int32 // the scheduler's percentageOfNodesToScore
		wantErr                     string
	}{
		{probe: ScaleProbe{Nodes: 30, Services: true}, nodes: 30, pods: 900, crashes: 1, services: 10},
		{probe: ScaleProbe{Nodes: 3}, nodes: 3, pods: 90, crashes: 1},
		{probe: ScaleProbe{Nodes: 301, PodsPerNode: 7, CrashPercent: 2}, nodes: 301, pods: 2107, crashes: 6},
		{probe: ScaleProbe{Nodes: 5000}, nodes: 5000, pods: 150000, crashes: 50},
		{probe: ScaleProbe{Nodes: 2}, wantErr: "at least 3"},
		{probe: ScaleProbe{Nodes: 30, PodsPerNode: 101}, wantErr: "want 1 to 100"},
		{probe: ScaleProbe{Nodes: 30, CrashPercent: 34}, wantErr: "want 1 to 33"},
		{probe: ScaleProbe{Nodes: 5000, QPS: 200, Burst: 300}, nodes: 5000, pods: 150000, crashes: 50, qps: 200, burst: 300},
		{probe: ScaleProbe{Nodes: 30, QPS: 2.5}, nodes: 30, pods: 900, crashes: 1, qps: 2.5, burst: 30},
		{probe: ScaleProbe{Nodes: 30, QPS: -1}, wantErr: "want positive values"},
		{probe: ScaleProbe{Nodes: 30, Unpaced: true, QPS: 50}, wantErr: "--unpaced with --qps"},
		{probe: ScaleProbe{Nodes: 30, Unpaced: true}, nodes: 30, pods: 900, crashes: 1, qps: -1},
		{probe: ScaleProbe{Nodes: 5000, QPS: 200, Burst: 300, SchedulerQPS: 300, SchedulerBurst: 400}, nodes: 5000, pods: 150000, crashes: 50, qps: 200, burst: 300, sched: Pacing{QPS: 300, Burst: 400}},
		{probe: ScaleProbe{Nodes: 30, SchedulerQPS: 100}, wantErr: "want both positive, or neither"},
		{probe: ScaleProbe{Nodes: 30, SchedulerQPS: -5, SchedulerBurst: 10}, wantErr: "want both positive, or neither"},
		{probe: ScaleProbe{Nodes: 30, Unpaced: true, SchedulerQPS: 100, SchedulerBurst: 10}, wantErr: "--unpaced with --scheduler-qps"},
		{probe: ScaleProbe{Nodes: 30, Services: true, UpdatesBatchPeriod: time.Second}, nodes: 30, pods: 900, crashes: 1, services: 10, batch: time.Second},
		{probe: ScaleProbe{Nodes: 30, Services: true, Unpaced: true, UpdatesBatchPeriod: 1500 * time.Millisecond}, nodes: 30, pods: 900, crashes: 1, qps: -1, services: 10, batch: 1500 * time.Millisecond},
		{probe: ScaleProbe{Nodes: 30, UpdatesBatchPeriod: time.Second}, wantErr: "--updates-batch-period needs --services"},
		{probe: ScaleProbe{Nodes: 30, Services: true, UpdatesBatchPeriod: -time.Second}, wantErr: "must not be negative"},
		{probe: ScaleProbe{Nodes: 30, PerController: true}, nodes: 30, pods: 900, crashes: 1, perController: true},
		{probe: ScaleProbe{Nodes: 30, Spread: true, AntiAffinity: AntiAffinityPreferred}, nodes: 30, pods: 900, crashes: 1, spread: 10, preferred: 10},
		{probe: ScaleProbe{Nodes: 30, PodsPerNode: 9, AntiAffinity: AntiAffinityRequired}, nodes: 30, pods: 270, crashes: 1, required: 10},
		{probe: ScaleProbe{Nodes: 30, PodsPerNode: 10, AntiAffinity: AntiAffinityRequired}, wantErr: "30 replicas need 30 nodes, and 29 are left after the crash; want --pods-per-node at most 9"},
		{probe: ScaleProbe{Nodes: 30, AntiAffinity: "soft"}, wantErr: `--anti-affinity "soft": want preferred or required`},
		{probe: ScaleProbe{Nodes: 30, PercentageOfNodesToScore: ptrTo(int32(5))}, nodes: 30, pods: 900, crashes: 1, percentage: ptrTo(int32(5))},
		{probe: ScaleProbe{Nodes: 30, SchedulerQPS: 300, SchedulerBurst: 400, PercentageOfNodesToScore: ptrTo(int32(0))}, nodes: 30, pods: 900, crashes: 1, sched: Pacing{QPS: 300, Burst: 400}, percentage: ptrTo(int32(0))},
		{probe: ScaleProbe{Nodes: 30, Unpaced: true, PercentageOfNodesToScore: ptrTo(int32(100))}, nodes: 30, pods: 900, crashes: 1, qps: -1, percentage: ptrTo(int32(100))},
		{probe: ScaleProbe{Nodes: 30, PercentageOfNodesToScore: ptrTo(int32(101))}, wantErr: "--percentage-of-nodes-to-score 101: not in valid range [0-100]"},
		{probe: ScaleProbe{Nodes: 30, PercentageOfNodesToScore: ptrTo(int32(-1))}, wantErr: "--percentage-of-nodes-to-score -1: not in valid range [0-100]"},
	}
	for _, tt := range tests {
		data, err := ScaleYAML(tt.probe)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%+v: error %v, want %q", tt.probe, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%+v: %v", tt.probe, err)
		}
		s, err := Load("scale.yaml", ".", nil, data)
		if err != nil {
			t.Fatalf("%+v: %v", tt.probe, err)
		}
		nodes := 0
		for _, g := range s.Spec.Cluster.NodeGroups {
			nodes += g.Count
		}
		if nodes != tt.nodes || len(s.Spec.Timeline) != tt.crashes {
			t.Errorf("%+v: %d nodes, %d timeline steps, want %d and %d", tt.probe, nodes, len(s.Spec.Timeline), tt.nodes, tt.crashes)
		}
		if s.Spec.Measure.Heartbeats != HeartbeatsCount {
			t.Errorf("%+v: spec.measure.heartbeats %q, want %q", tt.probe, s.Spec.Measure.Heartbeats, HeartbeatsCount)
		}
		want := Pacing{QPS: tt.qps, Burst: tt.burst}
		switch tt.qps {
		case 0:
			want = Pacing{QPS: ControllerManagerQPS, Burst: ControllerManagerBurst}
		case -1:
			want = Pacing{}
		}
		paced := []string{"replicaset", "deployment", "node-lifecycle"}
		if tt.services > 0 {
			paced = append(paced, "endpoints", "endpointslice")
		}
		for _, name := range paced {
			if got := s.Spec.Controllers[name].Pacing(name); got != want {
				t.Errorf("%+v: the %s controller paced at %v, want %v", tt.probe, name, got, want)
			}
		}
		for _, name := range []string{"endpoints", "endpointslice"} {
			if got := s.Spec.Controllers[name].BatchPeriod(); got != tt.batch {
				t.Errorf("%+v: the %s controller's batch period %v, want %v", tt.probe, name, got, tt.batch)
			}
		}
		if api, events := KubeletPacing(s); (tt.qps == -1) != (api.Unpaced() && events.Unpaced()) {
			t.Errorf("%+v: kubelets paced at %v and %v", tt.probe, api, events)
		}
		wantSched := tt.sched
		if wantSched == (Pacing{}) {
			wantSched = Pacing{QPS: SchedulerQPS, Burst: SchedulerBurst}
		}
		if got := s.Spec.Controllers["scheduler"].Pacing("scheduler"); tt.qps == -1 && !got.Unpaced() || tt.qps != -1 && got != wantSched {
			t.Errorf("%+v: the scheduler paced at %v", tt.probe, got)
		}
		if got := s.Spec.Controllers["scheduler"].PercentageOfNodesToScore; (got == nil) != (tt.percentage == nil) || got != nil && *got != *tt.percentage {
			t.Errorf("%+v: the scheduler's percentageOfNodesToScore %v, want %v", tt.probe, got, tt.percentage)
		}
		if s.OneProcess() == tt.perController {
			t.Errorf("%+v: spec.cluster.controllerManager %q", tt.probe, s.Spec.Cluster.ControllerManager)
		}
		if n := strings.Count(string(data), "kind: Service\n"); n != tt.services {
			t.Errorf("%+v: %d Services, want %d", tt.probe, n, tt.services)
		}
		var spread, preferred, required int
		for _, o := range s.Objects {
			d, ok := o.(*api.Deployment)
			if !ok {
				continue
			}
			ps := &d.Spec.Template.Spec
			if len(ps.TopologySpreadConstraints) == 1 && ps.TopologySpreadConstraints[0].WhenUnsatisfiable == api.DoNotSchedule {
				spread++
			}
			if a := ps.Affinity; a != nil && a.PodAntiAffinity != nil {
				preferred += len(a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution)
				required += len(a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution)
			}
		}
		if spread != tt.spread || preferred != tt.preferred || required != tt.required {
			t.Errorf("%+v: %d spread, %d preferred, %d required, want %d, %d, %d", tt.probe, spread, preferred, required, tt.spread, tt.preferred, tt.required)
		}
		if want := "equals: " + strconv.Itoa(tt.pods); !strings.Contains(string(data), want) {
			t.Errorf("%+v: no %q in\n%s", tt.probe, want, data)
		}
	}
}

// TestScaleLimitNotes: a probe past clustersim run's default caps says
// which --limit runs it, and one within them says nothing.
func TestScaleLimitNotes(t *testing.T) {
	tests := []struct {
		probe ScaleProbe
		want  []string
	}{
		{ScaleProbe{Nodes: 5000}, nil},
		{ScaleProbe{Nodes: 5000, PodsPerNode: 31}, []string{"the probe's 155000 pods are past clustersim run's default cap of 150000, which refuses it: run it with --limit pods=155000"}},
		{ScaleProbe{Nodes: 6000}, []string{"the probe's 6000 nodes are past clustersim run's default cap of 5000, which refuses it: run it with --limit nodes=6000", "--limit pods=180000"}},
		{ScaleProbe{Nodes: 2}, nil}, // refused: ScaleYAML's error says why
		{ScaleProbe{Nodes: 300, Services: true}, []string{"each of the probe's ten Services selects some 900 pods, and with no --updates-batch-period every pod change syncs its Service"}},
		{ScaleProbe{Nodes: 300, Services: true, UpdatesBatchPeriod: time.Second}, nil},
		{ScaleProbe{Nodes: 30, Services: true}, nil}, // 90 pods a Service
	}
	for _, tt := range tests {
		got := append(ScaleLimitNotes(tt.probe), ScaleServiceNotes(tt.probe)...)
		if len(got) != len(tt.want) {
			t.Fatalf("%+v: notes %q, want %d", tt.probe, got, len(tt.want))
		}
		for i, w := range tt.want {
			if !strings.Contains(got[i], w) {
				t.Errorf("%+v: note %q, want it to say %q", tt.probe, got[i], w)
			}
		}
	}
	// What a note names runs: the caps it raises are the ones the
	// loader checks.
	probe := ScaleProbe{Nodes: 5001, PodsPerNode: 1}
	data, err := ScaleYAML(probe)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Load("scale.yaml", ".", nil, data); err == nil || !strings.Contains(err.Error(), "--limit nodes=N") {
		t.Fatalf("past the cap: %v, want the nodes cap's error", err)
	}
	if _, err := LoadWith("scale.yaml", ".", nil, data, Options{Limits: Limits{Nodes: 5001}}); err != nil {
		t.Fatalf("with --limit nodes=5001: %v", err)
	}
}

// TestScalePacingNotes checks the generator's warnings: a note for each
// client whose pacing cannot get the probe's pods through before the
// expectation's time, naming the least rate, and none otherwise.
// TestScaleEvictionNotes checks the generator's note on a crash whose
// pods the node lifecycle controller's eviction pacing keeps past the
// expectation, zone-a's state computed as upstream's ComputeZoneState.
func TestScaleEvictionNotes(t *testing.T) {
	// The probes of docs/PERFORMANCE.md: kube-controller-manager at 200
	// QPS, burst 300. Losing n nodes of 30 pods, the pass that finds them
	// writes 61 n requests: the first taint comes 55 s after the crash
	// (grace period and a pass) and (61 n - 300) / 200 s more.
	q := func(p ScaleProbe) ScaleProbe { p.QPS, p.Burst = 200, 300; return p }
	tests := []struct {
		name  string
		probe ScaleProbe
		want  string // a substring of the one note; "" for none
	}{
		// 50 nodes: taints from 3m26s (20 QPS) to 11m36s, pods gone by 36m36s.
		{"the probe's 1%", ScaleProbe{Nodes: 5000}, ""},
		// 150 nodes at 20 QPS: taints from 8m31s to 33m21s, gone by 58m21s.
		{"5%, Normal, in time", ScaleProbe{Nodes: 3000, CrashPercent: 5}, ""},
		// 540 nodes: 218 s, then 539 taints 10 s apart.
		{"18%, Normal, too slow", q(ScaleProbe{Nodes: 3000, CrashPercent: 18}), "zone-a loses 540 of its 1000 nodes; the node lifecycle controller taints them NoExecute at 0.1 nodes/s (--node-eviction-rate), the last some 1h33m28s after the crash"},
		// 990 nodes: 355 s, then 989 taints 100 s apart.
		{"33% of 3,000: partially disrupted", q(ScaleProbe{Nodes: 3000, CrashPercent: 33}), "zone-a loses 990 of its 1000 nodes, at least 55% of them: upstream's node lifecycle controller takes the zone for partially disrupted (--unhealthy-zone-threshold) and taints its nodes NoExecute at 0.01 nodes/s (--secondary-node-eviction-rate), one every 1m40s: the last some 27h34m0s after the crash"},
		{"33% of 120: a small zone", ScaleProbe{Nodes: 120, CrashPercent: 33}, "in a zone of at most 50 nodes (--large-cluster-size-threshold) it taints none"},
		// 2 of 3: too few to be partially disrupted.
		{"2 lost of a zone of 3", ScaleProbe{Nodes: 9, CrashPercent: 33}, ""},
		{"refused", ScaleProbe{Nodes: 2}, ""},
		// The rates set. At 0.5 a second the 989 taints end 38m53s after
		// the crash and the pods leave 5 min later, past 59m, as the run
		// shows (docs/PERFORMANCE.md: 990 tainted by 58:53); at 1 a
		// second they end by 42m24s.
		{"33% at --secondary-node-eviction-rate 0.5", q(ScaleProbe{Nodes: 3000, CrashPercent: 33, SecondaryNodeEvictionRate: ptrTo(0.5)}), "at 0.5 nodes/s (--secondary-node-eviction-rate), one every 2s: the last some 39m0s after the crash"},
		{"33% at --secondary-node-eviction-rate 1", q(ScaleProbe{Nodes: 3000, CrashPercent: 33, SecondaryNodeEvictionRate: ptrTo(1.0)}), ""},
		{"33% at --secondary-node-eviction-rate 0.3", q(ScaleProbe{Nodes: 3000, CrashPercent: 33, SecondaryNodeEvictionRate: ptrTo(0.3)}), "at 0.3 nodes/s (--secondary-node-eviction-rate), one every 3.333s: the last some 1h1m0s after the crash"},
		{"33% at --secondary-node-eviction-rate 0", q(ScaleProbe{Nodes: 3000, CrashPercent: 33, SecondaryNodeEvictionRate: ptrTo(0.0)}), "at --secondary-node-eviction-rate 0 it taints none"},
		{"18% at --node-eviction-rate 0.2", q(ScaleProbe{Nodes: 3000, CrashPercent: 18, NodeEvictionRate: ptrTo(0.2)}), "at 0.2 nodes/s (--node-eviction-rate), the last some 48m33s after the crash"},
		{"18% at --node-eviction-rate 1", q(ScaleProbe{Nodes: 3000, CrashPercent: 18, NodeEvictionRate: ptrTo(1.0)}), ""},
		{"unpaced", ScaleProbe{Nodes: 3000, CrashPercent: 18, NodeEvictionRate: ptrTo(0.2), Unpaced: true}, "the last some 45m50s after the crash"},
		{"a rate refused", ScaleProbe{Nodes: 3000, CrashPercent: 33, SecondaryNodeEvictionRate: ptrTo(-1.0)}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ScaleEvictionNotes(tt.probe)
			switch {
			case tt.want == "" && len(got) != 0:
				t.Fatalf("notes %q, want none", got)
			case tt.want != "" && (len(got) != 1 || !strings.Contains(got[0], tt.want)):
				t.Fatalf("notes %q, want one saying %q", got, tt.want)
			}
		})
	}
}

func TestScalePacingNotes(t *testing.T) {
	tests := []struct {
		name  string
		probe ScaleProbe
		want  []string // substrings, one a note
	}{
		{"300 nodes at the defaults", ScaleProbe{Nodes: 300}, nil},
		{"3,000 nodes at 20 QPS", ScaleProbe{Nodes: 3000}, []string{"the ReplicaSet controller's client (20 QPS, burst 30) needs at least 1h14m59s to create the 90000 pods, past the expectation at 59m0s, which will fail; it needs --qps 26 at the least"}},
		{"5,000 nodes at 20 QPS", ScaleProbe{Nodes: 5000}, []string{"needs at least 2h4m59s to create the 150000 pods, past the expectation at 59m0s, which will fail; it needs --qps 43 at the least"}},
		{"5,000 nodes at 200 QPS", ScaleProbe{Nodes: 5000, QPS: 200, Burst: 300}, nil},
		{"the scheduler too", ScaleProbe{Nodes: 5000, PodsPerNode: 40, QPS: 200, Burst: 300},
			[]string{"the scheduler's client (50 QPS, burst 100) needs at least 1h6m38s to bind the 200000 pods"}},
		{"both", ScaleProbe{Nodes: 5000, PodsPerNode: 40}, []string{"--qps 57 at the least", "--scheduler-qps 57 at the least"}},
		{"a faster scheduler", ScaleProbe{Nodes: 5000, PodsPerNode: 40, QPS: 200, Burst: 300, SchedulerQPS: 300, SchedulerBurst: 400}, nil},
		{"unpaced", ScaleProbe{Nodes: 5000, Unpaced: true}, nil},
		{"refused (ScaleYAML's error says why)", ScaleProbe{Nodes: 2, PodsPerNode: 100000}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ScalePacingNotes(tt.probe)
			if len(got) != len(tt.want) {
				t.Fatalf("notes %q, want %d", got, len(tt.want))
			}
			for i, w := range tt.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("note %q, want it to say %q", got[i], w)
				}
			}
		})
	}
	// The notes' time is the expectation's (ScaleYAML writes it from
	// scaleHeldAt).
	data, err := ScaleYAML(ScaleProbe{Nodes: 3})
	if err != nil {
		t.Fatal(err)
	}
	if scaleHeldAt != 59*time.Minute || !strings.Contains(string(data), "at: 59m}") {
		t.Errorf("the probe's expectation is not at scaleHeldAt (%v):\n%s", scaleHeldAt, data)
	}
}

func ptrTo[T any](v T) *T { return &v }

// TestScaleEvictionRates checks that the generator's eviction rates reach
// the scenario's spec.cluster, and that a rate out of range is refused.
func TestScaleEvictionRates(t *testing.T) {
	data, err := ScaleYAML(ScaleProbe{Nodes: 30, NodeEvictionRate: ptrTo(0.25), SecondaryNodeEvictionRate: ptrTo(0.0)})
	if err != nil {
		t.Fatal(err)
	}
	sc, err := Load("scale.yaml", ".", nil, data)
	if err != nil {
		t.Fatal(err)
	}
	c := sc.Spec.Cluster
	if c.NodeEvictionRate == nil || *c.NodeEvictionRate != 0.25 || c.SecondaryNodeEvictionRate == nil || *c.SecondaryNodeEvictionRate != 0 {
		t.Errorf("spec.cluster's rates %v, %v; want 0.25 and 0", c.NodeEvictionRate, c.SecondaryNodeEvictionRate)
	}
	if _, err := ScaleYAML(ScaleProbe{Nodes: 30, NodeEvictionRate: ptrTo(2000.0)}); err == nil || !strings.Contains(err.Error(), "--node-eviction-rate 2000") {
		t.Errorf("rate 2000: error %v, want one naming --node-eviction-rate", err)
	}
}
