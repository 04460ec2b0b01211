package autoscaler

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// testTime is upstream's test time (2020-12-18 17:00 UTC).
var testTime = time.Date(2020, time.December, 18, 17, 0, 0, 0, time.UTC)

// podOpt shapes a test pod.
type podOpt func(*api.Pod)

func testPod(name, namespace string, opts ...podOpt) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: namespace}}
	for _, o := range opts {
		o(p)
	}
	return p
}

// owned gives the pod a controller reference (upstream's
// GenerateOwnerReferences).
func owned(kind, apiVersion, name string) podOpt {
	return func(p *api.Pod) {
		yes := true
		p.OwnerReferences = []api.OwnerReference{{APIVersion: apiVersion, Kind: kind, Name: name, Controller: &yes}}
	}
}

func annotated(kv ...string) podOpt {
	return func(p *api.Pod) {
		if p.Annotations == nil {
			p.Annotations = map[string]string{}
		}
		for i := 0; i+1 < len(kv); i += 2 {
			p.Annotations[kv[i]] = kv[i+1]
		}
	}
}

func labelled(k, v string) podOpt {
	return func(p *api.Pod) { p.Labels = map[string]string{k: v} }
}

func created(t time.Time) podOpt {
	return func(p *api.Pod) { p.CreationTimestamp = api.NewTime(t) }
}

func deletedAt(t time.Time) podOpt {
	return func(p *api.Pod) { d := api.NewTime(t); p.DeletionTimestamp = &d }
}

func grace(seconds int64) podOpt {
	return func(p *api.Pod) { p.Spec.TerminationGracePeriodSeconds = &seconds }
}

func phase(restart api.RestartPolicy, ph api.PodPhase) podOpt {
	return func(p *api.Pod) { p.Spec.RestartPolicy, p.Status.Phase = restart, ph }
}

// volume adds a volume with one source, its value as JSON.
func volume(name, source, value string) podOpt {
	return func(p *api.Pod) {
		p.Spec.Volumes = append(p.Spec.Volumes, api.Volume{Name: name, Source: map[string]api.RawValue{source: api.RawValue(value)}})
	}
}

func testBudget(namespace string, selector map[string]string, allowed int32) *api.PodDisruptionBudget {
	b := &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: "foobar", Namespace: namespace}}
	if selector != nil {
		b.Spec.Selector = &api.LabelSelector{MatchLabels: selector}
	}
	b.Status.DisruptionsAllowed = allowed
	return b
}

// fakeOwners is a controllerGetter over a set of "Kind/namespace/name".
type fakeOwners map[string]bool

func (f fakeOwners) controller(kind api.Kind, namespace, name string) (*int32, bool) {
	return nil, f[kind.Name+"/"+namespace+"/"+name]
}

// upstreamListers are the controllers upstream's TestGetPodsToMove lists
// when a case gives listers: the ReplicationController "rc" (default and
// kube-system), DaemonSet "ds", Job "job", StatefulSet "ss", ReplicaSet
// "rs".
var upstreamListers = fakeOwners{"ReplicationController/default/rc": true, "ReplicationController/kube-system/rc": true,
	"DaemonSet/default/ds": true, "Job/default/job": true, "StatefulSet/default/ss": true, "ReplicaSet/default/rs": true}

var allSkipping = deleteOptions{skipNodesWithSystemPods: true, skipNodesWithLocalStorage: true,
	skipNodesWithCustomControllerPods: true, bspDisruptionTimeout: time.Hour}

// TestPodsToMove ports the rows of kubernetes/autoscaler
// cluster-autoscaler/simulator/drain_test.go TestGetPodsToMove
// (release-1.37), the custom-rule rows aside: upstream's default rules
// with every skip flag on, a one-hour blocking-system-pod timeout, and
// listers only where the case gives them.
func TestPodsToMove(t *testing.T) {
	bsp := time.Hour
	rsOwned := owned("ReplicaSet", "extensions/v1beta1", "rs")
	rcOwned := owned("ReplicationController", "core/v1", "rc")
	var (
		unreplicated     = testPod("unreplicatedPod", "ns")
		manifest         = testPod("manifestPod", "kube-system", annotated(mirrorPodAnnotation, "something"))
		system           = testPod("systemPod", "kube-system", rsOwned)
		drainableSystem  = testPod("systemPod", "kube-system", rsOwned, created(testTime.Add(-bsp).Add(-time.Minute)))
		blockingSystem   = testPod("systemPod", "kube-system", rsOwned, created(testTime.Add(-bsp).Add(time.Minute)))
		localStorage     = testPod("localStoragePod", "ns", rsOwned, volume("empty-vol", "emptyDir", `{}`))
		nonLocalStorage  = testPod("nonLocalStoragePod", "ns", rsOwned, volume("my-repo", "gitRepo", `{"repository":"my-repo"}`))
		budgeted         = testPod("pdbPod", "ns", rsOwned, labelled("critical", "true"))
		terminated       = testPod("terminatedPod", "ns", rsOwned, deletedAt(testTime.Add(-PodLongTerminatingExtraThreshold-time.Minute)))
		terminating      = testPod("terminatingPod", "ns", rsOwned, deletedAt(testTime.Add(-PodLongTerminatingExtraThreshold+time.Minute)))
		rcPod            = testPod("bar", "default", rcOwned)
		kubeSystemRCPod  = testPod("bar", "kube-system", rcOwned, labelled("k8s-app", "bar"))
		dsPod            = testPod("bar", "default", owned("DaemonSet", "apps/v1", "ds"))
		customDSPod      = testPod("bar", "default", owned("CustomDaemonSet", "crd/v1", "ds"), annotated(DaemonSetPodAnnotation, "true"))
		jobPod           = testPod("bar", "default", owned("Job", "batch/v1", "job"))
		ssPod            = testPod("bar", "default", owned("StatefulSet", "apps/v1", "ss"))
		rsPod            = testPod("bar", "default", owned("ReplicaSet", "apps/v1", "rs"))
		rsPodDeleted     = testPod("bar", "default", owned("ReplicaSet", "apps/v1", "rs"), deletedAt(testTime.Add(-time.Hour)))
		scratchAllExempt = testPod("bar", "default", rcOwned, annotated(SafeToEvictLocalVolumesAnnotation, "scratch-1,scratch-2,scratch-3"),
			volume("scratch-1", "emptyDir", `{"medium":""}`), volume("scratch-2", "emptyDir", `{"medium":""}`), volume("scratch-3", "emptyDir", `{"medium":""}`))
		terminal          = testPod("bar", "default", phase(api.RestartPolicyOnFailure, api.PodSucceeded))
		longTerminating   = testPod("bar", "default", rcOwned, deletedAt(testTime.Add(-2*PodLongTerminatingExtraThreshold)), grace(0), phase(api.RestartPolicyOnFailure, api.PodUnknown))
		extendedGrace     = testPod("bar", "default", rcOwned, deletedAt(testTime.Add(-3*time.Minute)), grace(6*60), phase(api.RestartPolicyOnFailure, api.PodUnknown))
		failed            = testPod("bar", "default", phase(api.RestartPolicyNever, api.PodFailed))
		evicted           = testPod("bar", "default", phase(api.RestartPolicyAlways, api.PodFailed))
		safe              = testPod("bar", "default", annotated(SafeToEvictAnnotation, "true"))
		kubeSystemSafe    = testPod("bar", "kube-system", annotated(SafeToEvictAnnotation, "true"))
		emptyDirSafe      = testPod("bar", "default", annotated(SafeToEvictAnnotation, "true"), volume("scratch", "emptyDir", `{"medium":""}`))
		onCompletion      = testPod("bar", "default", annotated(SafeToEvictAnnotation, "on-completion"))
		restrictiveBudget = testBudget("ns", map[string]string{"critical": "true"}, 0)
		permissiveBudget  = testBudget("ns", map[string]string{"critical": "true"}, 1)
		emptyBudget       = &api.PodDisruptionBudget{}
		kubeSystemBudget  = testBudget("kube-system", map[string]string{"k8s-app": "bar"}, 1)
		kubeSystemFake    = testBudget("kube-system", map[string]string{"k8s-app": "foo"}, 1)
		defaultNSBudget   = testBudget("default", map[string]string{"k8s-app": "PDB-managed pod"}, 1)
	)
	for _, tc := range []struct {
		desc             string
		pods             []*api.Pod
		budgets          []*api.PodDisruptionBudget
		listers          bool
		wantPods         []*api.Pod
		wantDS           []*api.Pod
		wantOnCompletion []*api.Pod
		wantBlocking     *api.Pod
		wantReason       BlockingReason
	}{
		{desc: "Unreplicated pod", pods: []*api.Pod{unreplicated}, wantBlocking: unreplicated, wantReason: NotReplicated},
		{desc: "Replicated pod", pods: []*api.Pod{rsPod}, wantPods: []*api.Pod{rsPod}},
		{desc: "Manifest pod", pods: []*api.Pod{manifest}},
		{desc: "DaemonSet pod", pods: []*api.Pod{rsPod, manifest, dsPod}, wantPods: []*api.Pod{rsPod}, wantDS: []*api.Pod{dsPod}},
		{desc: "Kube-system", pods: []*api.Pod{system}, wantBlocking: system, wantReason: UnmovableKubeSystemPod},
		{desc: "Kube-system no pdb system pods blocking", pods: []*api.Pod{blockingSystem}, wantBlocking: blockingSystem, wantReason: UnmovableKubeSystemPod},
		{desc: "Kube-system no pdb system pods allowing", pods: []*api.Pod{drainableSystem}, wantPods: []*api.Pod{drainableSystem}},
		{desc: "Kube-system no pdb system pods blocking (two pods)", pods: []*api.Pod{drainableSystem, blockingSystem},
			wantPods: []*api.Pod{drainableSystem}, wantBlocking: blockingSystem, wantReason: UnmovableKubeSystemPod},
		{desc: "Local storage", pods: []*api.Pod{localStorage}, wantBlocking: localStorage, wantReason: LocalStorageRequested},
		{desc: "Non-local storage", pods: []*api.Pod{nonLocalStorage}, wantPods: []*api.Pod{nonLocalStorage}},
		{desc: "Pdb blocking", pods: []*api.Pod{budgeted}, budgets: []*api.PodDisruptionBudget{restrictiveBudget}, wantBlocking: budgeted, wantReason: NotEnoughPdb},
		{desc: "Pdb allowing", pods: []*api.Pod{budgeted}, budgets: []*api.PodDisruptionBudget{permissiveBudget}, wantPods: []*api.Pod{budgeted}},
		{desc: "Pod termination", pods: []*api.Pod{rsPod, terminated, terminating}, wantPods: []*api.Pod{rsPod, terminating}},
		{desc: "RC-managed pod", pods: []*api.Pod{rcPod}, listers: true, wantPods: []*api.Pod{rcPod}},
		{desc: "DS-managed pod", pods: []*api.Pod{dsPod}, listers: true, wantDS: []*api.Pod{dsPod}},
		{desc: "DS-managed pod by a custom Daemonset", pods: []*api.Pod{customDSPod}, listers: true, wantDS: []*api.Pod{customDSPod}},
		{desc: "Job-managed pod", pods: []*api.Pod{jobPod}, listers: true, wantPods: []*api.Pod{jobPod}},
		{desc: "SS-managed pod", pods: []*api.Pod{ssPod}, listers: true, wantPods: []*api.Pod{ssPod}},
		{desc: "RS-managed pod", pods: []*api.Pod{rsPod}, listers: true, wantPods: []*api.Pod{rsPod}},
		{desc: "RS-managed pod that is being deleted", pods: []*api.Pod{rsPodDeleted}, listers: true},
		{desc: "pod with EmptyDir and SafeToEvictLocalVolumesKey annotation with matching values", pods: []*api.Pod{scratchAllExempt}, listers: true, wantPods: []*api.Pod{scratchAllExempt}},
		{desc: "failed pod", pods: []*api.Pod{failed}, wantPods: []*api.Pod{failed}},
		{desc: "long terminating pod with 0 grace period", pods: []*api.Pod{longTerminating}, listers: true},
		{desc: "long terminating pod with extended grace period", pods: []*api.Pod{extendedGrace}, listers: true, wantPods: []*api.Pod{extendedGrace}},
		{desc: "evicted pod", pods: []*api.Pod{evicted}, wantPods: []*api.Pod{evicted}},
		{desc: "pod in terminal state", pods: []*api.Pod{terminal}, wantPods: []*api.Pod{terminal}},
		{desc: "pod with PodSafeToEvict annotation", pods: []*api.Pod{safe}, wantPods: []*api.Pod{safe}},
		{desc: "kube-system pod with PodSafeToEvict annotation", pods: []*api.Pod{kubeSystemSafe}, wantPods: []*api.Pod{kubeSystemSafe}},
		{desc: "pod with EmptyDir and PodSafeToEvict annotation", pods: []*api.Pod{emptyDirSafe}, wantPods: []*api.Pod{emptyDirSafe}},
		{desc: "empty PDB with RC-managed pod", pods: []*api.Pod{rcPod}, budgets: []*api.PodDisruptionBudget{emptyBudget}, listers: true, wantPods: []*api.Pod{rcPod}},
		{desc: "kube-system PDB with matching kube-system pod", pods: []*api.Pod{kubeSystemRCPod}, budgets: []*api.PodDisruptionBudget{kubeSystemBudget}, listers: true, wantPods: []*api.Pod{kubeSystemRCPod}},
		{desc: "kube-system PDB with non-matching kube-system pod", pods: []*api.Pod{kubeSystemRCPod}, budgets: []*api.PodDisruptionBudget{kubeSystemFake}, listers: true,
			wantBlocking: kubeSystemRCPod, wantReason: UnmovableKubeSystemPod},
		{desc: "kube-system PDB with default namespace pod", pods: []*api.Pod{rcPod}, budgets: []*api.PodDisruptionBudget{kubeSystemBudget}, listers: true, wantPods: []*api.Pod{rcPod}},
		{desc: "default namespace PDB with matching labels kube-system pod", pods: []*api.Pod{kubeSystemRCPod}, budgets: []*api.PodDisruptionBudget{defaultNSBudget}, listers: true,
			wantBlocking: kubeSystemRCPod, wantReason: UnmovableKubeSystemPod},
		{desc: "pod with safe-to-evict=on-completion annotation", pods: []*api.Pod{onCompletion}, wantOnCompletion: []*api.Pod{onCompletion}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			dc := &drainContext{budgets: newBudgetTracker(tc.budgets), now: testTime}
			if tc.listers {
				dc.controllers = upstreamListers
			}
			got := podsToMove(tc.pods, defaultRules(allSkipping), dc)
			if !slices.Equal(got.pods, tc.wantPods) || !slices.Equal(got.daemonSetPods, tc.wantDS) || !slices.Equal(got.onCompletionPods, tc.wantOnCompletion) {
				t.Errorf("pods %v, DaemonSet pods %v, on-completion pods %v; want %v, %v, %v",
					names(got.pods), names(got.daemonSetPods), names(got.onCompletionPods), names(tc.wantPods), names(tc.wantDS), names(tc.wantOnCompletion))
			}
			if got.blocking != tc.wantBlocking || got.reason != tc.wantReason || (got.err != nil) != (tc.wantBlocking != nil) {
				t.Errorf("blocked by %v (%v: %v), want %v (%v)", names([]*api.Pod{got.blocking}), got.reason, got.err, names([]*api.Pod{tc.wantBlocking}), tc.wantReason)
			}
		})
	}
}

func names(pods []*api.Pod) []string {
	var out []string
	for _, p := range pods {
		if p != nil {
			out = append(out, p.Namespace+"/"+p.Name)
		}
	}
	return out
}

// TestReplicaCountRule ports kubernetes/autoscaler
// cluster-autoscaler/simulator/drainability/rules/replicacount/rule_test.go
// TestDrainable: a pod whose controller of a known kind is missing blocks
// with ControllerNotFound; a DaemonSet or StatefulSet of another API
// group, or a custom DaemonSet, is not looked up.
func TestReplicaCountRule(t *testing.T) {
	for _, tc := range []struct {
		desc     string
		pod      *api.Pod
		want     BlockingReason
		wantText string
	}{
		{desc: "RC-managed pod", pod: testPod("bar", "default", owned("ReplicationController", "core/v1", "rc"))},
		{desc: "RC-managed pod with missing reference", pod: testPod("bar", "default", owned("ReplicationController", "core/v1", "missing")),
			want: ControllerNotFound, wantText: `replication controller for default/bar is not available, err: replicationcontroller "missing" not found`},
		{desc: "DS-managed pod", pod: testPod("bar", "default", owned("DaemonSet", "apps/v1", "ds"))},
		{desc: "DS-managed pod with missing reference", pod: testPod("bar", "default", owned("DaemonSet", "apps/v1", "missing")),
			want: ControllerNotFound, wantText: `daemonset for default/bar is not present, err: daemonset.apps "missing" not found`},
		{desc: "DS-managed pod by a custom API Group", pod: testPod("bar", "default", owned("DaemonSet", "crd/v1", "ds"))},
		{desc: "DS-managed pod by a custom API Group with missing reference", pod: testPod("bar", "default", owned("DaemonSet", "crd/v1", "missing"))},
		{desc: "DS-managed pod by a custom Daemonset", pod: testPod("bar", "default", owned("CustomDaemonSet", "crd/v1", "ds"), annotated(DaemonSetPodAnnotation, "true"))},
		{desc: "DS-managed pod by a custom Daemonset with missing reference", pod: testPod("bar", "default", owned("CustomDaemonSet", "crd/v1", "missing"), annotated(DaemonSetPodAnnotation, "true"))},
		{desc: "Job-managed pod", pod: testPod("bar", "default", owned("Job", "batch/v1", "job"))},
		{desc: "Job-managed pod with missing reference", pod: testPod("bar", "default", owned("Job", "batch/v1", "missing")),
			want: ControllerNotFound, wantText: `job for default/bar is not available: err: job.batch "missing" not found`},
		{desc: "SS-managed pod", pod: testPod("bar", "default", owned("StatefulSet", "apps/v1", "ss"))},
		{desc: "SS-managed pod with missing reference", pod: testPod("bar", "default", owned("StatefulSet", "apps/v1", "missing")),
			want: ControllerNotFound, wantText: `statefulset for default/bar is not available: err: statefulset.apps "missing" not found`},
		{desc: "SS-managed pod by a custom API Group", pod: testPod("bar", "default", owned("StatefulSet", "kruise/v1", "ss"))},
		{desc: "SS-managed pod by a custom API Group with missing reference", pod: testPod("bar", "default", owned("StatefulSet", "kruise/v1", "missing"))},
		{desc: "RS-managed pod", pod: testPod("bar", "default", owned("ReplicaSet", "apps/v1", "rs"))},
		{desc: "RS-managed pod that is being deleted", pod: testPod("bar", "default", owned("ReplicaSet", "apps/v1", "rs"), deletedAt(testTime.Add(-time.Hour)))},
		{desc: "RS-managed pod with missing reference", pod: testPod("bar", "default", owned("ReplicaSet", "apps/v1", "missing")),
			want: ControllerNotFound, wantText: `replication controller for default/bar is not available, err: replicaset.apps "missing" not found`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			s := replicaCountRule(0)(&drainContext{controllers: upstreamListers, now: testTime}, tc.pod)
			if s.reason != tc.want || (tc.want != NoReason) != (s.outcome == blockDrain) {
				t.Fatalf("%v %v, want %v", s.outcome, s.reason, tc.want)
			}
			if s.err != nil && s.err.Error() != tc.wantText {
				t.Errorf("error %q, want %q", s.err, tc.wantText)
			}
		})
	}
}

// TestLocalStorageRule ports kubernetes/autoscaler
// cluster-autoscaler/simulator/drainability/rules/localstorage/rule_test.go
// TestDrainable (the safe-to-evict-local-volumes rows) and adds the
// volume kinds of utils/drain isLocalVolume: hostPath blocks, an
// emptyDir in memory does not.
func TestLocalStorageRule(t *testing.T) {
	scratch := func(names ...string) []podOpt {
		var opts []podOpt
		for _, n := range names {
			opts = append(opts, volume(n, "emptyDir", `{"medium":""}`))
		}
		return opts
	}
	withAnnotation := func(v string, vols ...string) *api.Pod {
		return testPod("bar", "default", append(scratch(vols...), annotated(SafeToEvictLocalVolumesAnnotation, v))...)
	}
	for _, tc := range []struct {
		desc    string
		pod     *api.Pod
		blocked bool
	}{
		{desc: "pod with EmptyDir", pod: testPod("bar", "default", scratch("scratch")...), blocked: true},
		{desc: "pod with EmptyDir and SafeToEvictLocalVolumesKey annotation", pod: withAnnotation("scratch", "scratch")},
		{desc: "pod with EmptyDir and empty value for SafeToEvictLocalVolumesKey annotation", pod: withAnnotation("", "scratch"), blocked: true},
		{desc: "pod with EmptyDir and non-matching value for SafeToEvictLocalVolumesKey annotation", pod: withAnnotation("scratch-2", "scratch-1"), blocked: true},
		{desc: "pod with EmptyDir and SafeToEvictLocalVolumesKey annotation with matching values", pod: withAnnotation("scratch-1,scratch-2,scratch-3", "scratch-1", "scratch-2", "scratch-3")},
		{desc: "pod with EmptyDir and SafeToEvictLocalVolumesKey annotation with non-matching values", pod: withAnnotation("scratch-4,scratch-5", "scratch-1", "scratch-2", "scratch-3"), blocked: true},
		{desc: "pod with EmptyDir and SafeToEvictLocalVolumesKey annotation with some matching values", pod: withAnnotation("scratch-1,scratch-2", "scratch-1", "scratch-2", "scratch-3"), blocked: true},
		{desc: "pod with EmptyDir and SafeToEvictLocalVolumesKey annotation empty values", pod: withAnnotation(",", "scratch-1", "scratch-2", "scratch-3"), blocked: true},
		{desc: "hostPath", pod: testPod("bar", "default", volume("logs", "hostPath", `{"path":"/var/log"}`)), blocked: true},
		{desc: "emptyDir in memory", pod: testPod("bar", "default", volume("tmp", "emptyDir", `{"medium":"Memory"}`))},
		{desc: "emptyDir defaulted", pod: testPod("bar", "default", volume("tmp", "emptyDir", `{}`)), blocked: true},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			s := localStorageRule(&drainContext{now: testTime}, tc.pod)
			if (s.outcome == blockDrain) != tc.blocked {
				t.Fatalf("outcome %v, want blocked %v", s.outcome, tc.blocked)
			}
			if tc.blocked && (s.reason != LocalStorageRequested || s.err.Error() != "pod with local storage present: bar") {
				t.Errorf("%v: %v", s.reason, s.err)
			}
		})
	}
}

// TestRulePrecedence: the first rule with an opinion decides, in
// upstream's order (rules.go Default): safe-to-evict "true" lets an
// unreplicated kube-system pod with local storage go; "false" blocks a
// replicated pod; a DaemonSet pod is never blocked by its budget; with
// the skip flags off, the same pods move.
func TestRulePrecedence(t *testing.T) {
	rsOwned := owned("ReplicaSet", "apps/v1", "rs")
	for _, tc := range []struct {
		desc string
		opts deleteOptions
		pod  *api.Pod
		want BlockingReason
	}{
		{"safe-to-evict overrides everything after it", allSkipping,
			testPod("p", "kube-system", annotated(SafeToEvictAnnotation, "true"), volume("d", "hostPath", `{}`)), NoReason},
		{"not-safe-to-evict blocks a replicated pod", allSkipping, testPod("p", "default", rsOwned, annotated(SafeToEvictAnnotation, "false")), NotSafeToEvictAnnotation},
		{"not replicated comes before kube-system", allSkipping, testPod("p", "kube-system"), NotReplicated},
		{"kube-system comes before not-safe-to-evict", allSkipping, testPod("p", "kube-system", rsOwned, annotated(SafeToEvictAnnotation, "false")), UnmovableKubeSystemPod},
		{"a DaemonSet pod ignores its budget", allSkipping, testPod("p", "default", owned("DaemonSet", "apps/v1", "ds"), labelled("app", "x")), NoReason},
		{"a Deployment-owned pod is custom", allSkipping, testPod("p", "default", owned("Deployment", "apps/v1", "d")), NotReplicated},
		{"custom controllers allowed", deleteOptions{}, testPod("p", "default", owned("Deployment", "apps/v1", "d")), NoReason},
		{"kube-system allowed", deleteOptions{skipNodesWithCustomControllerPods: true}, testPod("p", "kube-system", rsOwned), NoReason},
		{"local storage allowed", deleteOptions{}, testPod("p", "default", rsOwned, volume("d", "hostPath", `{}`)), NoReason},
		{"a budget without disruptions blocks", allSkipping, testPod("p", "default", rsOwned, labelled("app", "x")), NotEnoughPdb},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			dc := &drainContext{budgets: newBudgetTracker([]*api.PodDisruptionBudget{testBudget("default", map[string]string{"app": "x"}, 0)}), now: testTime}
			s := drainability(defaultRules(tc.opts), dc, tc.pod)
			if s.reason != tc.want {
				t.Errorf("%v (%v), want %v", s.reason, s.err, tc.want)
			}
		})
	}
}

// TestBudgetsSpentAcrossNodes: as the planner spends a removable node's
// disruptions (RemainingPdbTracker.RemovePods), a budget allowing one
// disruption lets the first node holding one of its pods go and blocks
// the second.
func TestBudgetsSpentAcrossNodes(t *testing.T) {
	tracker := newBudgetTracker([]*api.PodDisruptionBudget{testBudget("default", map[string]string{"app": "web"}, 1)})
	dc := &drainContext{budgets: tracker, now: testTime}
	rules := defaultRules(allSkipping)
	first := podsToMove([]*api.Pod{testPod("web-1", "default", owned("ReplicaSet", "apps/v1", "web"), labelled("app", "web"))}, rules, dc)
	if first.blocking != nil {
		t.Fatalf("first node blocked: %v", first.err)
	}
	tracker.remove(first.pods)
	second := podsToMove([]*api.Pod{testPod("web-2", "default", owned("ReplicaSet", "apps/v1", "web"), labelled("app", "web"))}, rules, dc)
	if second.reason != NotEnoughPdb || !strings.Contains(second.err.Error(), "not enough pod disruption budget to move default/web-2") {
		t.Errorf("second node: %v (%v), want NotEnoughPdb", second.reason, second.err)
	}
}
