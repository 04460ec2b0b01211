package scenarios

import (
	"strconv"
	"strings"
	"testing"
	"time"
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
		wantErr              string
	}{
		{probe: ScaleProbe{Nodes: 30, Services: true}, nodes: 30, pods: 900, crashes: 1, services: 10},
		{probe: ScaleProbe{Nodes: 3}, nodes: 3, pods: 90, crashes: 1},
		{probe: ScaleProbe{Nodes: 301, PodsPerNode: 7, CrashPercent: 2}, nodes: 301, pods: 2107, crashes: 6},
		{probe: ScaleProbe{Nodes: 5000}, nodes: 5000, pods: 150000, crashes: 50},
		{probe: ScaleProbe{Nodes: 2}, wantErr: "at least 3"},
		{probe: ScaleProbe{Nodes: 30, PodsPerNode: 101}, wantErr: "want 1 to 100"},
		{probe: ScaleProbe{Nodes: 30, CrashPercent: 34}, wantErr: "want 0 to 33"},
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
		if n := strings.Count(string(data), "kind: Service\n"); n != tt.services {
			t.Errorf("%+v: %d Services, want %d", tt.probe, n, tt.services)
		}
		if want := "equals: " + strconv.Itoa(tt.pods); !strings.Contains(string(data), want) {
			t.Errorf("%+v: no %q in\n%s", tt.probe, want, data)
		}
	}
}
