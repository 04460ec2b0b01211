package scenarios

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/clustersim/clustersim/controllers/nodelifecycle"
	"github.com/clustersim/clustersim/sim/apiserver"
)

// ScaleProbe describes the capacity-planning probe that ScaleYAML generates.
type ScaleProbe struct {
	// Nodes is the cluster's size, split over three zones (zone-a, zone-b,
	// zone-c; the first zones take the remainder). At least 3.
	Nodes int
	// PodsPerNode is how many pods the ten Deployments run per node in
	// total (default 30): each Deployment has Nodes*PodsPerNode/10 replicas.
	PodsPerNode int
	// CrashPercent is the share of nodes that crash at CrashAt, 1 to
	// MaxCrashPercent (0: the default, 1; at least one node).
	CrashPercent int
	// Unpaced leaves the controllers', the scheduler's and the kubelets'
	// clients unpaced (unpaced: true in spec.controllers and
	// spec.cluster.kubelet); by default the
	// kube-controller-manager's controllers get its client defaults, 20
	// QPS and burst 30, and the scheduler kube-scheduler's, 50 and 100
	// (see spec.controllers' qps and burst).
	Unpaced bool
	// QPS and Burst pace each of those controllers' clients (default
	// ControllerManagerQPS and ControllerManagerBurst). Large clusters
	// raise them, as their operators raise --kube-api-qps: at 20 QPS the
	// ReplicaSet controller creates fewer pods in an hour than 3,000
	// nodes run.
	QPS   float64
	Burst int
	// SchedulerQPS and SchedulerBurst pace the scheduler's clients (its
	// API client and its event client, each a bucket of its own); zero
	// leaves kube-scheduler's defaults, 50 and 100 (--kube-api-qps,
	// --kube-api-burst). At 50 QPS the scheduler binds fewer pods in an
	// hour than 5,000 nodes run after their start-up.
	SchedulerQPS   float64
	SchedulerBurst int
	// PercentageOfNodesToScore, when set, is the scheduler's
	// percentageOfNodesToScore (spec.controllers.scheduler's, as
	// KubeSchedulerConfiguration's: 0 to 100, 0 the adaptive default);
	// nil leaves it out, upstream's adaptive default.
	PercentageOfNodesToScore *int32
	// Services puts each Deployment behind a Service selecting its pods
	// (app-1 ... app-10, port 80), so that the endpoints and EndpointSlice
	// controllers and the Services' gaps follow every pod.
	Services bool
	// UpdatesBatchPeriod is the endpoints and EndpointSlice controllers'
	// updatesBatchPeriod (kube-controller-manager's
	// --endpoint-updates-batch-period and
	// --endpointslice-updates-batch-period); 0, the default, leaves it
	// out. It needs Services.
	UpdatesBatchPeriod time.Duration
	// NodeEvictionRate and SecondaryNodeEvictionRate, when set, are the
	// node lifecycle controller's tainting rates (spec.cluster's, as
	// kube-controller-manager's --node-eviction-rate and
	// --secondary-node-eviction-rate: 0 to MaxNodeEvictionRate nodes a
	// second, 0 none); nil leaves the defaults, 0.1 and 0.01.
	NodeEvictionRate, SecondaryNodeEvictionRate *float64
	// PerController runs kube-controller-manager's controllers each as a
	// process of its own (spec.cluster.controllerManager:
	// per-controller, the scenario format's default). By default the
	// probe runs them as upstream does, as one process sharing its
	// informers (one-process), which is what a capacity planner's
	// cluster does and what sets the API server's watch fan-out.
	PerController bool
	// Spread gives each Deployment's pods a zone topology spread
	// constraint (maxSkew 1, whenUnsatisfiable DoNotSchedule, the
	// Deployment's own pods): PodTopologySpread's work at the probe's
	// size.
	Spread bool
	// AntiAffinity gives each Deployment's pods a pod anti-affinity to
	// the Deployment's own pods by hostname: AntiAffinityPreferred
	// (weight 100: spread over the nodes where they fit) or
	// AntiAffinityRequired (at most one a node, so each Deployment's
	// replicas must fit on the nodes left after the crash); "" for none.
	AntiAffinity string
}

// The probe's pod anti-affinities (ScaleProbe.AntiAffinity).
const (
	AntiAffinityPreferred = "preferred"
	AntiAffinityRequired  = "required"
)

// The kube-controller-manager's client defaults (--kube-api-qps,
// --kube-api-burst; k8s.io/controller-manager config/v1alpha1/defaults.go).
const (
	ControllerManagerQPS   = 20
	ControllerManagerBurst = 30
)

// ScaleDeployments is the number of Deployments of the scale scenario.
const ScaleDeployments = 10

// MaxCrashPercent is the most of the probe's nodes that may crash: the
// crashed nodes are all in zone-a, a third of them.
const MaxCrashPercent = 33

// normalized returns s with its defaults filled in (PodsPerNode 30,
// CrashPercent 1, kube-controller-manager's QPS and burst; the
// scheduler's stay 0, kube-scheduler's own), or the first of its values
// that ScaleYAML refuses.
func (s ScaleProbe) normalized() (ScaleProbe, error) {
	if s.Nodes < 3 {
		return s, fmt.Errorf("--nodes %d: at least 3 (one per zone)", s.Nodes)
	}
	if s.PodsPerNode == 0 {
		s.PodsPerNode = 30
	}
	if s.PodsPerNode < 0 || s.PodsPerNode > 100 {
		return s, fmt.Errorf("--pods-per-node %d: want 1 to 100", s.PodsPerNode)
	}
	if s.CrashPercent == 0 {
		s.CrashPercent = 1
	}
	if s.CrashPercent < 0 || s.CrashPercent > MaxCrashPercent {
		return s, fmt.Errorf("--crash-percent %d: want 1 to %d (0: the default, 1; the crashed nodes are in zone-a)", s.CrashPercent, MaxCrashPercent)
	}
	for _, r := range []struct {
		flag string
		v    *float64
	}{{"--node-eviction-rate", s.NodeEvictionRate}, {"--secondary-node-eviction-rate", s.SecondaryNodeEvictionRate}} {
		if r.v != nil && !evictionRateOK(*r.v) {
			return s, fmt.Errorf("%s %v: %s", r.flag, *r.v, evictionRateWant)
		}
	}
	if s.QPS == 0 {
		s.QPS = ControllerManagerQPS
	}
	if s.Burst == 0 {
		s.Burst = ControllerManagerBurst
	}
	if s.QPS < 0 || math.IsNaN(s.QPS) || math.IsInf(s.QPS, 0) || s.Burst < 0 {
		return s, fmt.Errorf("--qps %v --burst %d: want positive values", s.QPS, s.Burst)
	}
	if s.Unpaced && (s.QPS != ControllerManagerQPS || s.Burst != ControllerManagerBurst) {
		return s, fmt.Errorf("--unpaced with --qps or --burst: an unpaced client has no rate")
	}
	if s.SchedulerQPS < 0 || math.IsNaN(s.SchedulerQPS) || math.IsInf(s.SchedulerQPS, 0) || s.SchedulerBurst < 0 || (s.SchedulerQPS == 0) != (s.SchedulerBurst == 0) {
		return s, fmt.Errorf("--scheduler-qps %v --scheduler-burst %d: want both positive, or neither", s.SchedulerQPS, s.SchedulerBurst)
	}
	if s.Unpaced && s.SchedulerQPS != 0 {
		return s, fmt.Errorf("--unpaced with --scheduler-qps: an unpaced client has no rate")
	}
	if p := s.PercentageOfNodesToScore; p != nil && !percentageOK(*p) {
		return s, fmt.Errorf("--percentage-of-nodes-to-score %d: %s", *p, percentageWant)
	}
	if s.UpdatesBatchPeriod < 0 {
		return s, fmt.Errorf("--updates-batch-period %v: must not be negative", s.UpdatesBatchPeriod)
	}
	if s.UpdatesBatchPeriod > 0 && !s.Services {
		return s, fmt.Errorf("--updates-batch-period needs --services: without Services the endpoints controllers have no pod changes to batch")
	}
	switch s.AntiAffinity {
	case "", AntiAffinityPreferred:
	case AntiAffinityRequired:
		// Replicas are split as ScaleYAML splits them: the first
		// Deployments take the remainder.
		pods := s.Nodes * s.PodsPerNode
		most := (pods + ScaleDeployments - 1) / ScaleDeployments
		left := s.Nodes - max(1, s.Nodes*s.CrashPercent/100)
		if most > left {
			return s, fmt.Errorf("--anti-affinity required puts at most one pod of a Deployment on a node: %d replicas need %d nodes, and %d are left after the crash; want --pods-per-node at most %d", most, most, left, left*ScaleDeployments/s.Nodes)
		}
	default:
		return s, fmt.Errorf("--anti-affinity %q: want %s or %s", s.AntiAffinity, AntiAffinityPreferred, AntiAffinityRequired)
	}
	return s, nil
}

// ScaleYAML returns the scale probe as a scenario document: Nodes nodes of
// 8 CPU and 32 Gi in three zones, ten Deployments totalling PodsPerNode
// pods per node (100m CPU and 256 Mi each), a network of 1-5 ms one-way
// delay without loss, the kube-controller-manager's controllers paced at
// its client defaults (unless Unpaced), one virtual hour, and
// CrashPercent of the nodes
// (the first of zone-a) crashing at 20 minutes. Heartbeats are counted,
// not kept in the audit log (spec.measure.heartbeats: count); with Services
// each Deployment has a Service. The one expectation is
// that every pod runs again, replaced elsewhere, by the end of the hour.
// Load it with Load; `clustersim generate scale` prints it.
func ScaleYAML(s ScaleProbe) ([]byte, error) {
	s, err := s.normalized()
	if err != nil {
		return nil, err
	}
	pods := s.Nodes * s.PodsPerNode
	crash := max(1, s.Nodes*s.CrashPercent/100)
	name, behind := strconv.Itoa(s.Nodes), ""
	if s.Services {
		name, behind = name+"-services", ", each behind a Service,"
	}
	if s.Spread {
		name, behind = name+"-spread", behind+" spread over the zones"
	}
	if s.AntiAffinity != "" {
		name, behind = name+"-anti-affinity-"+s.AntiAffinity, behind+" with "+s.AntiAffinity+" anti-affinity by node"
	}
	var b strings.Builder
	fmt.Fprintf(&b, `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata:
  name: scale-%s
  summary: %d nodes in three zones run %d pods of ten Deployments%s for an hour; %d node(s) crash at 20 minutes
spec:
  seed: 1
  duration: 1h
  measure:
    ignore: [Node]
    heartbeats: count
    events: brief
  cluster:
`, name, s.Nodes, pods, behind, crash)
	mode := ControllerManagerOneProcess
	if s.PerController {
		mode = ControllerManagerPerController
	}
	b.WriteString("    controllerManager: " + mode + "\n")
	if r := s.NodeEvictionRate; r != nil {
		b.WriteString("    nodeEvictionRate: " + strconv.FormatFloat(*r, 'g', -1, 64) + "\n")
	}
	if r := s.SecondaryNodeEvictionRate; r != nil {
		b.WriteString("    secondaryNodeEvictionRate: " + strconv.FormatFloat(*r, 'g', -1, 64) + "\n")
	}
	if s.Unpaced {
		b.WriteString("    kubelet: {unpaced: true}\n")
	}
	b.WriteString("    nodeGroups:\n")
	for i, zone := range []string{"zone-a", "zone-b", "zone-c"} {
		n := s.Nodes / 3
		if i < s.Nodes%3 {
			n++
		}
		fmt.Fprintf(&b, `    - name: %s
      count: %d
      capacity: {cpu: "8", memory: 32Gi, pods: "110"}
      labels: {topology.kubernetes.io/zone: %s}
`, zone, n, zone)
	}
	b.WriteString("  controllers:\n")
	controllers := []string{"deployment", "endpoints", "garbage-collector", "horizontal-pod-autoscaler", "node-lifecycle", "replicaset", "resourcequota"}
	if s.Services {
		// The EndpointSlice controller runs when the scenario holds a
		// Service: it is paced as the others.
		controllers = slices.Insert(controllers, 2, "endpointslice")
	}
	for _, c := range controllers {
		batch := ""
		if s.UpdatesBatchPeriod > 0 && slices.Contains(BatchingControllers, c) {
			batch = ", updatesBatchPeriod: " + s.UpdatesBatchPeriod.String()
		}
		if s.Unpaced {
			fmt.Fprintf(&b, "    %s: {unpaced: true%s}\n", c, batch)
		} else {
			fmt.Fprintf(&b, "    %s: {qps: %s, burst: %d%s}\n", c, strconv.FormatFloat(s.QPS, 'g', -1, 64), s.Burst, batch)
		}
	}
	var sched []string
	if s.Unpaced {
		sched = append(sched, "unpaced: true")
	} else if s.SchedulerQPS != 0 {
		sched = append(sched, "qps: "+strconv.FormatFloat(s.SchedulerQPS, 'g', -1, 64), fmt.Sprintf("burst: %d", s.SchedulerBurst))
	}
	if p := s.PercentageOfNodesToScore; p != nil {
		sched = append(sched, fmt.Sprintf("percentageOfNodesToScore: %d", *p))
	}
	if len(sched) > 0 {
		fmt.Fprintf(&b, "    scheduler: {%s}\n", strings.Join(sched, ", "))
	}
	b.WriteString(`  network:
    default: {latency: 1ms, jitter: 4ms}
  objects:
`)
	per := pods / ScaleDeployments
	for d := 1; d <= ScaleDeployments; d++ {
		replicas := per
		if d <= pods%ScaleDeployments {
			replicas++
		}
		fmt.Fprintf(&b, `  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: app-%d, labels: {app: app-%d}}
    spec:
      replicas: %d
      selector: {matchLabels: {app: app-%d}}
      template:
        metadata: {labels: {app: app-%d, tier: scale}}
        spec:
`, d, d, replicas, d, d)
		writePlacement(&b, s, d)
		b.WriteString(`          containers:
          - name: app
            image: nginx:1.25
            resources: {requests: {cpu: 100m, memory: 256Mi}}
`)
		if s.Services {
			fmt.Fprintf(&b, `  - apiVersion: v1
    kind: Service
    metadata: {name: app-%d}
    spec:
      selector: {app: app-%d}
      ports: [{port: 80}]
`, d, d)
		}
	}
	b.WriteString("  timeline:\n")
	for i := 1; i <= crash; i++ {
		fmt.Fprintf(&b, "  - at: %dm\n    crashNode: zone-a-%d\n", int(scaleCrashAt/time.Minute), i)
	}
	fmt.Fprintf(&b, `  expect:
  - pods: {selector: tier=scale, phase: Running, ready: true, equals: %d, at: %dm}
`, pods, int(scaleHeldAt/time.Minute))
	return []byte(b.String()), nil
}

// writePlacement writes Deployment d's pod template's placement rules
// (ScaleProbe.Spread, AntiAffinity).
func writePlacement(b *strings.Builder, s ScaleProbe, d int) {
	if s.Spread {
		fmt.Fprintf(b, `          topologySpreadConstraints:
          - maxSkew: 1
            topologyKey: topology.kubernetes.io/zone
            whenUnsatisfiable: DoNotSchedule
            labelSelector: {matchLabels: {app: app-%d}}
`, d)
	}
	switch s.AntiAffinity {
	case AntiAffinityPreferred:
		fmt.Fprintf(b, `          affinity:
            podAntiAffinity:
              preferredDuringSchedulingIgnoredDuringExecution:
              - weight: 100
                podAffinityTerm:
                  topologyKey: kubernetes.io/hostname
                  labelSelector: {matchLabels: {app: app-%d}}
`, d)
	case AntiAffinityRequired:
		fmt.Fprintf(b, `          affinity:
            podAntiAffinity:
              requiredDuringSchedulingIgnoredDuringExecution:
              - topologyKey: kubernetes.io/hostname
                labelSelector: {matchLabels: {app: app-%d}}
`, d)
	}
}

// scaleHeldAt is when the probe's expectation checks that every pod
// runs, in whole minutes (ScaleYAML writes it so).
const scaleHeldAt = 59 * time.Minute

// ScalePacingNotes returns what the probe's pacing forbids, for its
// generator to say before anyone runs it: the ReplicaSet controller
// makes a request a pod it creates and the scheduler one a pod it binds,
// so a client of QPS q and burst b needs at least (pods-b)/q to get
// through the probe's pods. When that is past the expectation's 59m,
// the expectation fails however fast the rest of the cluster is (at 20
// QPS the 3,000-node probe creates 58,675 of its 90,000 pods within the
// hour). The notes name the flag to raise and the least rate that
// leaves the time (needed, not enough: the pods wait on more than their
// own requests); none for an unpaced probe, or one whose pacing leaves
// the time, or one ScaleYAML refuses. s is as ScaleYAML takes it.
func ScalePacingNotes(s ScaleProbe) []string {
	s, err := s.normalized()
	if err != nil || s.Unpaced {
		return nil // ScaleYAML refuses it, or nothing is paced
	}
	pods := s.Nodes * s.PodsPerNode
	var notes []string
	note := func(who, flag string, qps float64, burst int, verb string) {
		need := time.Duration(float64(pods-burst) / qps * float64(time.Second))
		if pods <= burst || need <= scaleHeldAt {
			return
		}
		least := math.Ceil(float64(pods-burst) / scaleHeldAt.Seconds())
		notes = append(notes, fmt.Sprintf("%s (%s QPS, burst %d) needs at least %v to %s the %d pods, past the expectation at %v, which will fail; it needs %s %s at the least",
			who, strconv.FormatFloat(qps, 'g', -1, 64), burst, need.Round(time.Second), verb, pods, scaleHeldAt, flag, strconv.FormatFloat(least, 'g', -1, 64)))
	}
	note("the ReplicaSet controller's client", "--qps", s.QPS, s.Burst, "create")
	qps, burst := s.SchedulerQPS, s.SchedulerBurst
	if qps == 0 {
		qps, burst = SchedulerQPS, SchedulerBurst
	}
	note("the scheduler's client", "--scheduler-qps", qps, burst, "bind")
	return notes
}

// ScaleNotes returns every note the generator prints about probe s
// before anyone runs it: its caps (ScaleLimitNotes), its Services
// (ScaleServiceNotes), its pacing (ScalePacingNotes) and its evictions
// (ScaleEvictionNotes), in that order.
func ScaleNotes(s ScaleProbe) []string {
	return slices.Concat(ScaleLimitNotes(s), ScaleServiceNotes(s), ScalePacingNotes(s), ScaleEvictionNotes(s))
}

// ScaleEvictionNotes returns the note on a crash whose pods cannot be
// evicted by the probe's expectation: the node lifecycle controller
// taints the lost nodes NoExecute at their zone's rate (upstream's
// ComputeZoneState and setLimiterInZone, at kube-controller-manager's
// defaults), and their pods leave only when their toleration of the
// taint (300 s) runs out. Losing more than 2 and at least 55% of zone-a
// (--crash-percent 19 and up) makes it partially disrupted: tainted at
// 0.01 nodes/s when it has more than 50 nodes, not at all when fewer.
// The note says when the last lost node would be tainted, at the
// earliest (the grace period, the pass that marks the lost nodes' pods
// not ready at the node controller's QPS, and the taints at the zone's
// rate; the round trips not counted), and what changes the rate; none
// when its pods would be gone within the hour's expectation, or for a
// probe ScaleYAML refuses. s is as ScaleYAML takes it.
func ScaleEvictionNotes(s ScaleProbe) []string {
	s, err := s.normalized()
	if err != nil {
		return nil
	}
	zoneA := s.Nodes/3 + min(1, s.Nodes%3)
	lost := max(1, s.Nodes*s.CrashPercent/100)
	// The controller's own rules (nodelifecycle.ZoneStateOf, ZoneRate)
	// over the probe's rates, with the other settings at their defaults.
	opts := (&Cluster{NodeEvictionRate: s.NodeEvictionRate, SecondaryNodeEvictionRate: s.SecondaryNodeEvictionRate}).EvictionOptions()
	state := nodelifecycle.ZoneStateOf(lost, zoneA-lost, nodelifecycle.DefaultUnhealthyZoneThreshold)
	rate := opts.ZoneRate(state, zoneA)
	// The first taint comes at the earliest a pass after the one that
	// found the nodes lost (the grace period after the crash), and that
	// one writes, through the node controller's token bucket, a status
	// and an Event for each of their pods and a status for each node: at
	// 3,000 nodes, losing 990 is some 60,000 requests, 5 minutes at 200
	// QPS.
	start := nodelifecycle.DefaultGracePeriod + nodelifecycle.DefaultMonitorPeriod
	if !s.Unpaced {
		requests := lost * (2*s.PodsPerNode + 1)
		start += time.Duration(float64(max(0, requests-s.Burst)) / s.QPS * float64(time.Second))
	}
	if state != nodelifecycle.ZonePartialDisruption {
		// Normal, or fully disrupted while the other zones are not: at
		// --node-eviction-rate.
		if rate <= 0 {
			return []string{fmt.Sprintf("zone-a loses %d of its %d nodes, and at --node-eviction-rate 0 the node lifecycle controller taints none: their pods never leave, and the expectation at %v will fail", lost, zoneA, scaleHeldAt)}
		}
		gone := scaleCrashAt + start + time.Duration(float64(lost-1)/rate*float64(time.Second)) + scaleToleration
		if gone <= scaleHeldAt {
			return nil
		}
		return []string{fmt.Sprintf("zone-a loses %d of its %d nodes; the node lifecycle controller taints them NoExecute at %v nodes/s (--node-eviction-rate), the last some %v after the crash at the earliest, "+
			"and their pods leave %v after their node's taint: past the expectation at %v, which will fail; --node-eviction-rate changes the rate",
			lost, zoneA, rate, (gone - scaleToleration - scaleCrashAt).Round(time.Second), scaleToleration, scaleHeldAt)}
	}
	why := fmt.Sprintf("zone-a loses %d of its %d nodes, at least %v%% of them: upstream's node lifecycle controller takes the zone for partially disrupted (--unhealthy-zone-threshold)", lost, zoneA, nodelifecycle.DefaultUnhealthyZoneThreshold*100)
	if !opts.LargeZone(zoneA) {
		return []string{why + fmt.Sprintf(", and in a zone of at most %d nodes (--large-cluster-size-threshold) it taints none: their pods never leave, and the expectation at %v will fail; "+
			"spec.cluster.largeClusterSizeThreshold or unhealthyZoneThreshold in the scenario changes it", nodelifecycle.DefaultLargeClusterThreshold, scaleHeldAt)}
	}
	if rate <= 0 {
		return []string{why + fmt.Sprintf(", and at --secondary-node-eviction-rate 0 it taints none: their pods never leave, and the expectation at %v will fail", scaleHeldAt)}
	}
	last := start + time.Duration(float64(lost-1)/rate*float64(time.Second))
	if scaleCrashAt+last+scaleToleration <= scaleHeldAt {
		return nil
	}
	return []string{why + fmt.Sprintf(" and taints its nodes NoExecute at %v nodes/s (--secondary-node-eviction-rate), one every %v: the last some %v after the crash at the earliest, its pods %v later, "+
		"past the expectation at %v, which will fail; --secondary-node-eviction-rate changes the rate", rate, time.Duration(float64(time.Second)/rate).Round(time.Millisecond), last.Round(time.Minute), scaleToleration, scaleHeldAt)}
}

// scaleCrashAt is when the probe's nodes crash (ScaleYAML's timeline);
// scaleToleration is how long their pods tolerate the NoExecute taint
// (the DefaultTolerationSeconds admission plugin's default: the probe
// sets no other).
const (
	scaleCrashAt    = 20 * time.Minute
	scaleToleration = time.Duration(apiserver.DefaultTolerationSecondsValue) * time.Second
)

// ScaleLimitNotes returns what the probe asks of `clustersim run` past
// its default caps (DefaultLimits: nodes and pods), each naming the
// --limit that lets it run; none for a probe within them or one
// ScaleYAML refuses. s is as ScaleYAML takes it.
func ScaleLimitNotes(s ScaleProbe) []string {
	var notes []string
	for _, c := range scaleOverCaps(s) {
		notes = append(notes, fmt.Sprintf("the probe's %d %s are past clustersim run's default cap of %d, which refuses it: run it with --limit %s=%d", c.n, c.name, c.limit, c.name, c.n))
	}
	return notes
}

// ScaleLimitArgs returns the `--limit NAME=N` arguments `clustersim run`
// needs for the probe (ScaleLimitNotes' flags), none within the caps.
func ScaleLimitArgs(s ScaleProbe) []string {
	var args []string
	for _, c := range scaleOverCaps(s) {
		args = append(args, "--limit", fmt.Sprintf("%s=%d", c.name, c.n))
	}
	return args
}

// capOver is a cap of DefaultLimits a probe asks more of: its --limit
// name, what the probe asks, and the cap.
type capOver struct {
	name     string
	n, limit int
}

// scaleOverCaps returns the caps the probe is past (nodes, then pods);
// none for one ScaleYAML refuses.
func scaleOverCaps(s ScaleProbe) []capOver {
	s, err := s.normalized()
	if err != nil {
		return nil
	}
	var over []capOver
	for _, c := range []capOver{
		{"nodes", s.Nodes, DefaultLimits.Nodes},
		{"pods", s.Nodes * s.PodsPerNode, DefaultLimits.Pods},
	} {
		if c.n > c.limit {
			over = append(over, c)
		}
	}
	return over
}

// serviceNoteFrom is the number of pods a Service selects from which
// ScaleServiceNotes warns of the cost of syncing it on every pod change.
const serviceNoteFrom = 500

// ScaleServiceNotes returns the note on a probe's Services: each of the
// ten selects a tenth of the pods, and without a batch period every pod
// change syncs its Service over all of them (as upstream's endpoint
// controllers do), so the run's cost grows with the square of a
// Service's pods; none below serviceNoteFrom pods a Service, with a batch
// period, or for a probe ScaleYAML refuses. s is as ScaleYAML takes it.
func ScaleServiceNotes(s ScaleProbe) []string {
	s, err := s.normalized()
	if err != nil {
		return nil
	}
	perService := s.Nodes * s.PodsPerNode / 10
	if !s.Services || s.UpdatesBatchPeriod > 0 || perService < serviceNoteFrom {
		return nil
	}
	return []string{fmt.Sprintf("each of the probe's ten Services selects some %d pods, and with no --updates-batch-period every pod change syncs its Service over all of them, "+
		"as upstream's endpoint controllers do: the run's cost grows with the square of that (at 300 nodes, 900 pods a Service, the probe takes some ten times as long as without Services; docs/PERFORMANCE.md); "+
		"--updates-batch-period 1s batches a second's changes into one sync, as large clusters set it", perService)}
}
