package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/controllers/daemonset"
	"github.com/clustersim/clustersim/controllers/deployment"
	"github.com/clustersim/clustersim/controllers/hpa"
	"github.com/clustersim/clustersim/controllers/nodelifecycle"
	"github.com/clustersim/clustersim/controllers/replicaset"
	"github.com/clustersim/clustersim/controllers/scheduler"
	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
	"github.com/clustersim/clustersim/sim/kubelet"
	"github.com/clustersim/clustersim/sim/store"
	"github.com/clustersim/clustersim/sim/workqueue"
)

// releaseDefaults is every default docs/kubernetes-release.md vouches
// for, by the name its Defaults table uses, as the code has it now: the
// Go constants, and the API defaulting functions applied to empty
// objects.
func releaseDefaults() map[string]any {
	var d api.Deployment
	api.SetDefaultsDeployment(&d)
	var pod api.PodSpec
	api.SetDefaultsPodSpec(&pod)
	var probe api.Probe
	api.SetDefaultsProbe(&probe)
	h := api.HorizontalPodAutoscaler{Spec: api.HorizontalPodAutoscalerSpec{Behavior: &api.HorizontalPodAutoscalerBehavior{}}}
	api.SetDefaultsHPA(&h)
	ru := d.Spec.Strategy.RollingUpdate
	return map[string]any{
		"deployment.spec.replicas":                    *d.Spec.Replicas,
		"deployment.spec.strategy.type":               d.Spec.Strategy.Type,
		"deployment.maxSurge":                         ru.MaxSurge.String(),
		"deployment.maxUnavailable":                   ru.MaxUnavailable.String(),
		"deployment.spec.revisionHistoryLimit":        *d.Spec.RevisionHistoryLimit,
		"deployment.spec.progressDeadlineSeconds":     *d.Spec.ProgressDeadlineSeconds,
		"pod.spec.terminationGracePeriodSeconds":      *pod.TerminationGracePeriodSeconds,
		"pod.spec.restartPolicy":                      pod.RestartPolicy,
		"pod.spec.dnsPolicy":                          pod.DNSPolicy,
		"pod.spec.schedulerName":                      pod.SchedulerName,
		"probe.timeoutSeconds":                        probe.TimeoutSeconds,
		"probe.periodSeconds":                         probe.PeriodSeconds,
		"probe.successThreshold":                      probe.SuccessThreshold,
		"probe.failureThreshold":                      probe.FailureThreshold,
		"api.DefaultClientIPServiceAffinitySeconds":   api.DefaultClientIPServiceAffinitySeconds,
		"apiserver.DefaultTolerationSecondsValue":     apiserver.DefaultTolerationSecondsValue,
		"store.DefaultEventTTL":                       store.DefaultEventTTL,
		"store.LeaseReuseDurationSeconds":             store.LeaseReuseDurationSeconds,
		"store.LeaseReuseDurationPercent":             store.LeaseReuseDurationPercent,
		"store.LeaseMaxObjectCount":                   store.LeaseMaxObjectCount,
		"store.MinLeaseTTLSeconds":                    store.MinLeaseTTLSeconds,
		"hpa.spec.minReplicas":                        *h.Spec.MinReplicas,
		"api.DefaultCPUUtilization":                   api.DefaultCPUUtilization,
		"hpa.behavior.scaleUp":                        scalingRules(h.Spec.Behavior.ScaleUp),
		"hpa.behavior.scaleDown":                      scalingRules(h.Spec.Behavior.ScaleDown),
		"deployment.DefaultMaxRetries":                deployment.DefaultMaxRetries,
		"replicaset.BurstReplicas":                    replicaset.BurstReplicas,
		"daemonset.BurstReplicas":                     daemonset.BurstReplicas,
		"replicaset.SlowStartInitialBatchSize":        replicaset.SlowStartInitialBatchSize,
		"replicaset.ExpectationsTimeout":              replicaset.ExpectationsTimeout,
		"workqueue.DefaultBaseDelay":                  workqueue.DefaultBaseDelay,
		"workqueue.DefaultMaxDelay":                   workqueue.DefaultMaxDelay,
		"workqueue.DefaultQPS":                        workqueue.DefaultQPS,
		"workqueue.DefaultBurst":                      workqueue.DefaultBurst,
		"informer.MinWatchTimeout":                    informer.MinWatchTimeout,
		"informer.InitialBackoff":                     informer.InitialBackoff,
		"informer.MaxBackoff":                         informer.MaxBackoff,
		"informer.BackoffReset":                       informer.BackoffReset,
		"controller.DefaultLeaseDuration":             controller.DefaultLeaseDuration,
		"controller.DefaultRenewDeadline":             controller.DefaultRenewDeadline,
		"controller.DefaultRetryPeriod":               controller.DefaultRetryPeriod,
		"nodelifecycle.DefaultMonitorPeriod":          nodelifecycle.DefaultMonitorPeriod,
		"nodelifecycle.DefaultGracePeriod":            nodelifecycle.DefaultGracePeriod,
		"nodelifecycle.DefaultStartupGracePeriod":     nodelifecycle.DefaultStartupGracePeriod,
		"nodelifecycle.DefaultEvictionRate":           nodelifecycle.DefaultEvictionRate,
		"nodelifecycle.DefaultSecondaryEvictionRate":  nodelifecycle.DefaultSecondaryEvictionRate,
		"nodelifecycle.DefaultLargeClusterThreshold":  nodelifecycle.DefaultLargeClusterThreshold,
		"nodelifecycle.DefaultUnhealthyZoneThreshold": nodelifecycle.DefaultUnhealthyZoneThreshold,
		"hpa.DefaultSyncPeriod":                       hpa.DefaultSyncPeriod,
		"hpa.DefaultTolerance":                        hpa.DefaultTolerance,
		"hpa.DefaultDownscaleStabilization":           hpa.DefaultDownscaleStabilization,
		"hpa.DefaultCPUInitializationPeriod":          hpa.DefaultCPUInitializationPeriod,
		"hpa.DefaultInitialReadinessDelay":            hpa.DefaultInitialReadinessDelay,
		"hpa.DefaultWorkers":                          hpa.DefaultWorkers,
		"kubelet.DefaultLeaseDuration":                kubelet.DefaultLeaseDuration,
		"kubelet.DefaultLeaseRenewInterval":           kubelet.DefaultLeaseRenewInterval,
		"kubelet.DefaultStatusUpdateFrequency":        kubelet.DefaultStatusUpdateFrequency,
		"kubelet.DefaultStatusReportFrequency":        kubelet.DefaultStatusReportFrequency,
		"kubelet.NodeStatusUpdateRetry":               kubelet.NodeStatusUpdateRetry,
		"kubelet.DefaultBackoffInitial":               kubelet.DefaultBackoffInitial,
		"kubelet.DefaultBackoffMax":                   kubelet.DefaultBackoffMax,
		"scheduler.DefaultInitialBackoff":             scheduler.DefaultInitialBackoff,
		"scheduler.DefaultMaxBackoff":                 scheduler.DefaultMaxBackoff,
		"scheduler.DefaultMaxInUnschedulable":         scheduler.DefaultMaxInUnschedulable,
		"scenarios.ControllerManagerQPS":              scenarios.ControllerManagerQPS,
		"scenarios.ControllerManagerBurst":            scenarios.ControllerManagerBurst,
		"scenarios.SchedulerQPS":                      scenarios.SchedulerQPS,
		"scenarios.SchedulerBurst":                    scenarios.SchedulerBurst,
	}
}

// scalingRules renders HPA scaling rules as the table writes them:
// "window 0s, Max: Pods 4/15s, Percent 100/15s".
func scalingRules(r *api.HPAScalingRules) string {
	if r == nil {
		return "nil"
	}
	window := "unset"
	if w := r.StabilizationWindowSeconds; w != nil {
		window = fmt.Sprintf("%ds", *w)
	}
	sel := "unset"
	if r.SelectPolicy != nil {
		sel = string(*r.SelectPolicy)
	}
	var ps []string
	for _, p := range r.Policies {
		ps = append(ps, fmt.Sprintf("%s %d/%ds", p.Type, p.Value, p.PeriodSeconds))
	}
	return fmt.Sprintf("window %s, %s: %s", window, sel, strings.Join(ps, ", "))
}

// renderDefault writes a value as the Defaults table does: durations in
// seconds ("300s", "0.8s"), everything else with %v.
func renderDefault(v any) string {
	if d, ok := v.(time.Duration); ok {
		return fmt.Sprintf("%gs", d.Seconds())
	}
	return fmt.Sprint(v)
}

// releaseTable returns the rows of the named table of
// docs/kubernetes-release.md, each split into its cells.
func releaseTable(t *testing.T, doc, section string, columns int) [][]string {
	t.Helper()
	_, body, ok := strings.Cut(doc, "\n## "+section+"\n")
	if !ok {
		t.Fatalf("docs/kubernetes-release.md has no %s section", section)
	}
	body, _, _ = strings.Cut(body, "\n## ")
	var rows [][]string
	for line := range strings.SplitSeq(body, "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| ---") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) != columns {
			t.Errorf("%s row has %d cells, want %d: %s", section, len(cells), columns, line)
			continue
		}
		rows = append(rows, cells)
	}
	return rows[1:] // the header
}

// assignment is a "`name = value`" item of a Defaults row's last cell.
var assignment = regexp.MustCompile("`([A-Za-z.]+) = ([^`]+)`")

// TestReleaseTable reads docs/kubernetes-release.md: it must name the
// pinned release; every row of its Messages table must give a text that
// the clustersim file the row names holds word for word; and every
// "`name = value`" of its Defaults table must be what the code uses (the
// constant or defaulting function the name stands for in
// releaseDefaults), every name in releaseDefaults appearing in the
// table. So the table cannot drift from the code: a message or default
// changed in the code and not in the table, or the other way round,
// fails here.
func TestReleaseTable(t *testing.T) {
	root := filepath.Join("..", "..")
	raw, err := os.ReadFile(filepath.Join(root, "docs", "kubernetes-release.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	if !strings.Contains(doc, "**"+api.KubernetesRelease+"**") {
		t.Errorf("docs/kubernetes-release.md does not name the release %s", api.KubernetesRelease)
	}

	messages := releaseTable(t, doc, "Messages", 5)
	for _, cells := range messages {
		text, file := strings.Trim(cells[1], "`"), cells[4]
		src, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			t.Errorf("message %q: %v", text, err)
			continue
		}
		if !strings.Contains(string(src), text) {
			t.Errorf("message %q: %s does not hold that text", text, file)
		}
	}
	if len(messages) < 40 {
		t.Errorf("%d message rows read, want at least 40", len(messages))
	}

	want := releaseDefaults()
	seen := map[string]bool{}
	for _, cells := range releaseTable(t, doc, "Defaults", 5) {
		for _, m := range assignment.FindAllStringSubmatch(cells[4], -1) {
			name, value := m[1], m[2]
			v, ok := want[name]
			if !ok {
				t.Errorf("default %q (row %q): not a name the test knows", name, cells[0])
				continue
			}
			seen[name] = true
			if got := renderDefault(v); got != value {
				t.Errorf("default %s: the table says %s, the code has %s", name, value, got)
			}
		}
	}
	var missing []string
	for name := range want {
		if !seen[name] {
			missing = append(missing, name)
		}
	}
	slices.Sort(missing)
	if len(missing) > 0 {
		t.Errorf("defaults the table does not list: %v", missing)
	}
}
