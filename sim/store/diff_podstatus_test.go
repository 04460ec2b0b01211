package store

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/addrmemo"
	"github.com/clustersim/clustersim/sim/api"
)

// statusWrite returns a bound pod with status from and the pod a status
// write of to makes of it: the stored pod's metadata and spec, the very
// same memory (withStatusOf), and to as its status.
func statusWrite(from, to api.PodStatus) (a, b *api.Pod) {
	a = scalePod()
	a.Spec.NodeName = "zone-a-41"
	a.ResourceVersion = "41"
	a.Status = from
	b = new(*a)
	b.ResourceVersion = "42"
	b.Status = to
	return a, b
}

// walkPodChanges is what the walk appends for the update of a to b with
// a fresh differ as the audit log's (interned in intern, or not when it
// is nil).
func walkPodChanges(a, b *api.Pod, intern map[string]string) []Change {
	return slices.Clone(diffWith(auditDiffer(intern), a, b))
}

// checkPodStatus is checkFastPath for podStatusUpdate and the update
// of a to b, and checks that the audit log took its fast path exactly
// when podStatusUpdate took the update.
func checkPodStatus(t *testing.T, a, b *api.Pod) (accepted bool) {
	t.Helper()
	accepted = checkFastPath(t, "podStatusUpdate", a, b, func(d *differ) bool { return d.podStatusUpdate(a, b) })
	var l AuditLog
	l.auditChanges(a, b)
	if took := l.fastPaths == 1; took != accepted {
		t.Fatalf("auditChanges took the fast path: %t; podStatusUpdate took the update: %t", took, accepted)
	}
	return accepted
}

// podStatusRows are status writes podStatusUpdate must take, built from
// the kubelet's statuses (kubeletStatuses): each edits a copy of the
// pending status (old) and the running one (new).
func podStatusRows() []struct {
	name string
	edit func(old, new *api.PodStatus)
} {
	at := func(s int) api.Time { return api.NewTime(benchEpoch.Add(time.Duration(s) * time.Second)) }
	east := time.FixedZone("east", 5*3600+30*60)
	yes, no := true, false
	term := func(code int32, reason string) *api.ContainerStateTerminated {
		return &api.ContainerStateTerminated{ExitCode: code, Reason: reason, StartedAt: at(20), FinishedAt: at(30),
			ContainerID: "containerd://675adaf0"}
	}
	type row = struct {
		name string
		edit func(old, new *api.PodStatus)
	}
	rows := []row{
		{"pending->running", func(*api.PodStatus, *api.PodStatus) {}},
		{"running->pending", func(o, n *api.PodStatus) { *o, *n = *n, *o }},
		{"unchanged", func(o, n *api.PodStatus) { *n = *o }},
		{"equal copies", func(o, n *api.PodStatus) { *n = *o.DeepCopy() }},
		{"scheduled->pending (first kubelet write)", func(o, n *api.PodStatus) {
			*n = *o
			*o = api.PodStatus{Phase: api.PodPending, QOSClass: "Burstable",
				Conditions: []api.PodCondition{{Type: "PodScheduled", Status: "True", LastTransitionTime: at(0)}}}
		}},
		{"pending->empty", func(o, n *api.PodStatus) { *n = api.PodStatus{} }},
		{"empty->running", func(o, n *api.PodStatus) { *o = api.PodStatus{} }},
		{"empty lists", func(o, n *api.PodStatus) {
			o.Conditions, o.ContainerStatuses, o.HostIPs, o.PodIPs = []api.PodCondition{}, []api.ContainerStatus{}, []api.HostIP{}, nil
			n.Conditions, n.ContainerStatuses, n.HostIPs, n.PodIPs = nil, nil, nil, []api.PodIP{}
		}},
		{"conditions reordered", func(o, n *api.PodStatus) {
			n.Conditions = slices.Clone(n.Conditions)
			slices.Reverse(n.Conditions)
		}},
		{"condition added in the middle", func(o, n *api.PodStatus) {
			n.Conditions = slices.Insert(slices.Clone(n.Conditions), 2, api.PodCondition{Type: "DisruptionTarget", Status: "True",
				Reason: "TerminationByKubelet", LastTransitionTime: at(40)})
		}},
		{"condition removed", func(o, n *api.PodStatus) { n.Conditions = slices.Delete(slices.Clone(n.Conditions), 1, 2) }},
		{"container waiting->terminated", func(o, n *api.PodStatus) {
			n.ContainerStatuses = slices.Clone(n.ContainerStatuses)
			n.ContainerStatuses[0].State = api.ContainerState{Terminated: term(1, "Error")}
		}},
		{"container running->terminated 0", func(o, n *api.PodStatus) {
			*o = *n.DeepCopy()
			n.ContainerStatuses = slices.Clone(n.ContainerStatuses)
			n.ContainerStatuses[0].State = api.ContainerState{Terminated: term(0, "Completed")}
			n.ContainerStatuses[0].Ready = false
		}},
		{"restart: lastState, count, waiting", func(o, n *api.PodStatus) {
			*o = *n.DeepCopy()
			o.ContainerStatuses[0].State = api.ContainerState{Terminated: term(137, "OOMKilled")}
			n.ContainerStatuses = slices.Clone(n.ContainerStatuses)
			cs := &n.ContainerStatuses[0]
			cs.LastTerminationState = o.ContainerStatuses[0].State
			cs.State = api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "CrashLoopBackOff", Message: "back-off 10s"}}
			cs.RestartCount, cs.Ready, cs.Started = 3, false, &no
		}},
		{"terminated signal and message", func(o, n *api.PodStatus) {
			o.ContainerStatuses[0].State = api.ContainerState{Terminated: term(0, "")}
			n.ContainerStatuses = slices.Clone(n.ContainerStatuses)
			tt := term(-1, "Error")
			tt.Signal, tt.Message = 9, "killed\n"
			n.ContainerStatuses[0].State = api.ContainerState{Terminated: tt}
		}},
		{"started nil->false", func(o, n *api.PodStatus) {
			o.ContainerStatuses[0].Started = nil
			n.ContainerStatuses = slices.Clone(n.ContainerStatuses)
			n.ContainerStatuses[0].Started = &no
		}},
		{"started true->nil", func(o, n *api.PodStatus) {
			o.ContainerStatuses[0].Started = &yes
			n.ContainerStatuses = slices.Clone(n.ContainerStatuses)
			n.ContainerStatuses[0].Started = nil
		}},
		{"started equal, other pointers", func(o, n *api.PodStatus) {
			o.ContainerStatuses[0].Started = new(true)
			n.ContainerStatuses[0].Started = new(true)
		}},
		{"container added", func(o, n *api.PodStatus) {
			n.ContainerStatuses = append(slices.Clone(n.ContainerStatuses), api.ContainerStatus{Name: "sidecar", Image: "busybox",
				Started: &no, State: api.ContainerState{Waiting: &api.ContainerStateWaiting{}}})
		}},
		{"container removed", func(o, n *api.PodStatus) {
			o.ContainerStatuses = append(slices.Clone(o.ContainerStatuses), api.ContainerStatus{Name: "sidecar", Image: "busybox",
				RestartCount: 2, Ready: true, Started: &yes, State: api.ContainerState{Running: &api.ContainerStateRunning{StartedAt: at(3)}},
				LastTerminationState: api.ContainerState{Terminated: term(0, "Completed")}})
		}},
		{"init containers", func(o, n *api.PodStatus) {
			o.InitContainerStatuses = []api.ContainerStatus{{Name: "init", State: api.ContainerState{Running: &api.ContainerStateRunning{StartedAt: at(5)}}}}
			n.InitContainerStatuses = []api.ContainerStatus{{Name: "init", State: api.ContainerState{Terminated: term(0, "Completed")}}}
		}},
		{"IPs appearing", func(o, n *api.PodStatus) {
			o.HostIP, o.HostIPs, o.PodIP, o.PodIPs = "", nil, "", nil
		}},
		{"IPs disappearing", func(o, n *api.PodStatus) {
			n.HostIP, n.HostIPs, n.PodIP, n.PodIPs = "", nil, "", nil
		}},
		{"IPs: a second, changed, empty", func(o, n *api.PodStatus) {
			n.HostIPs = []api.HostIP{{IP: "10.0.0.9"}, {IP: "fd00::1"}}
			n.PodIPs = []api.PodIP{{IP: ""}, {IP: ""}, {IP: "fd00::2"}}
			o.PodIPs = []api.PodIP{{IP: "10.244.0.2"}, {IP: ""}}
		}},
		{"startTime appears, zero appears", func(o, n *api.PodStatus) {
			o.StartTime = nil
			n.ContainerStatuses[0].State.Running.StartedAt = api.Time{}
		}},
		{"startTime zero instant elsewhere", func(o, n *api.PodStatus) {
			o.StartTime, n.StartTime = nil, &api.Time{Time: time.Time{}.In(east)}
		}},
		{"startTime leaves", func(o, n *api.PodStatus) { n.StartTime = nil }},
		{"startTime same second", func(o, n *api.PodStatus) {
			n.StartTime = &api.Time{Time: o.StartTime.Add(999 * time.Millisecond)}
		}},
		{"startTime same instant elsewhere", func(o, n *api.PodStatus) { n.StartTime = &api.Time{Time: o.StartTime.In(east)} }},
		{"sub-second times", func(o, n *api.PodStatus) {
			n.Conditions = slices.Clone(n.Conditions)
			n.Conditions[2].LastTransitionTime = api.Time{Time: n.Conditions[2].LastTransitionTime.Add(time.Nanosecond)}
			n.Conditions[3].LastProbeTime = api.Time{Time: time.Date(2026, 1, 1, 0, 0, 20, 500_000_000, east)}
		}},
		{"times zero and far", func(o, n *api.PodStatus) {
			n.Conditions = slices.Clone(n.Conditions)
			n.Conditions[0].LastTransitionTime = api.Time{}
			n.Conditions[1].LastTransitionTime = api.Time{Time: time.Date(1, 1, 1, 0, 0, 1, 0, time.UTC)}
			n.Conditions[4].LastTransitionTime = api.Time{Time: time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)}
		}},
		{"scalars", func(o, n *api.PodStatus) {
			n.ObservedGeneration, n.Message, n.Reason, n.NominatedNodeName, n.QOSClass, n.Resize = -7, "m", "Evicted", "node-1", "", "Proposed"
			o.ObservedGeneration = 3
		}},
		{"odd strings", func(o, n *api.PodStatus) {
			n.Message, n.Reason = `say "hi" \ there`, "a\nb\x00"
			n.Conditions = slices.Clone(n.Conditions)
			n.Conditions[2].Message = "ü☃ \xff"
			n.ContainerStatuses = slices.Clone(n.ContainerStatuses)
			n.ContainerStatuses[0].Image = "[x].y"
		}},
		{"odd keys", func(o, n *api.PodStatus) {
			o.Conditions = []api.PodCondition{{Type: "a]b", Status: "True"}, {Type: "x.y"}, {Type: "ü", Status: "False"}}
			n.Conditions = []api.PodCondition{{Type: "ü", Status: "True"}, {Type: "a]b", Status: "True", Reason: "r"}, {Type: "[0]", Status: "x"}}
			o.ContainerStatuses = []api.ContainerStatus{{Name: "c]", Ready: true}, {Name: "\xff"}}
			n.ContainerStatuses = []api.ContainerStatus{{Name: "\xff", RestartCount: 1}, {Name: "c]"}}
		}},
		{"unrendered fields the very same", func(o, n *api.PodStatus) {
			res := &api.ResourceRequirements{}
			sig := "SIGTERM"
			alloc := api.ResourceList{"cpu": api.MustParseQuantity("1")}
			for _, s := range []*api.PodStatus{o, n} {
				s.ContainerStatuses = slices.Clone(s.ContainerStatuses)
				cs := &s.ContainerStatuses[0]
				cs.Resources, cs.StopSignal, cs.AllocatedResources = res, &sig, alloc
			}
			n.ContainerStatuses[0].Ready = false
			n.EphemeralContainerStatuses = []api.ContainerStatus{{Name: "debug"}}
			o.EphemeralContainerStatuses = n.EphemeralContainerStatuses
		}},
		{"unrendered fields empty", func(o, n *api.PodStatus) {
			n.ContainerStatuses = slices.Clone(n.ContainerStatuses)
			n.ContainerStatuses[0].AllocatedResources = api.ResourceList{}
			n.ContainerStatuses[0].VolumeMounts = []api.RawValue{}
			n.EphemeralContainerStatuses, o.ResourceClaimStatuses = []api.ContainerStatus{}, []api.RawValue{}
		}},
	}
	pending, running := kubeletStatuses()
	for i := range pending.Conditions {
		rows = append(rows, row{"condition flips: " + string(running.Conditions[i].Type), func(o, n *api.PodStatus) {
			*o = *n.DeepCopy()
			n.Conditions = slices.Clone(n.Conditions)
			c := &n.Conditions[i]
			if c.Status == "True" {
				c.Status, c.Reason, c.Message = "False", "Flipped", "flipped"
			} else {
				c.Status, c.Reason, c.Message = "True", "", ""
			}
			c.LastTransitionTime = at(60 + i)
		}})
	}
	return rows
}

// podStatusDeclines are status writes podStatusUpdate must leave to the
// walk: each edits the bench's pending->running pair (a, the stored
// pod; b, the write) to set something it does not render.
func podStatusDeclines() []struct {
	name string
	edit func(a, b *api.Pod)
} {
	sig := "SIGTERM"
	return []struct {
		name string
		edit func(a, b *api.Pod)
	}{
		{"kind", func(_, b *api.Pod) { b.Kind = "Pod2" }},
		{"generation", func(_, b *api.Pod) { b.Generation++ }},
		{"label", func(_, b *api.Pod) { b.Labels = map[string]string{"app": "x"} }},
		{"deletionTimestamp", func(_, b *api.Pod) { b.DeletionTimestamp = &api.Time{Time: benchEpoch} }},
		{"spec nodeName and another field", func(_, b *api.Pod) { b.Spec.NodeName, b.Spec.Hostname = "other", "h" }},
		{"spec another field", func(_, b *api.Pod) { b.Spec.Subdomain = "s" }},
		{"spec equal, other memory", func(a, b *api.Pod) { b.Spec = *a.Spec.DeepCopy() }},
		{"condition type empty", func(_, b *api.Pod) {
			b.Status.Conditions = append(slices.Clone(b.Status.Conditions), api.PodCondition{Status: "True"})
		}},
		{"condition type twice", func(a, _ *api.Pod) {
			a.Status.Conditions = append(slices.Clone(a.Status.Conditions), api.PodCondition{Type: "Ready"}, api.PodCondition{Type: "Ready"})
		}},
		{"container name empty", func(_, b *api.Pod) {
			b.Status.ContainerStatuses = append(slices.Clone(b.Status.ContainerStatuses), api.ContainerStatus{})
		}},
		{"container name twice", func(_, b *api.Pod) {
			b.Status.ContainerStatuses = append(slices.Clone(b.Status.ContainerStatuses), api.ContainerStatus{Name: "x"}, api.ContainerStatus{Name: "x"})
		}},
		{"ephemeralContainerStatuses", func(_, b *api.Pod) {
			b.Status.EphemeralContainerStatuses = []api.ContainerStatus{{Name: "debug"}}
		}},
		{"resourceClaimStatuses", func(_, b *api.Pod) { b.Status.ResourceClaimStatuses = []api.RawValue{api.RawValue("{}")} }},
		{"allocatedResources", func(_, b *api.Pod) {
			b.Status.ContainerStatuses[0].AllocatedResources = api.ResourceList{"cpu": api.MustParseQuantity("1")}
		}},
		{"allocatedResources equal, other maps", func(a, b *api.Pod) {
			a.Status.ContainerStatuses[0].AllocatedResources = api.ResourceList{"cpu": api.MustParseQuantity("1")}
			b.Status.ContainerStatuses[0].AllocatedResources = api.ResourceList{"cpu": api.MustParseQuantity("1")}
		}},
		{"resources", func(_, b *api.Pod) { b.Status.ContainerStatuses[0].Resources = &api.ResourceRequirements{} }},
		{"volumeMounts", func(_, b *api.Pod) { b.Status.ContainerStatuses[0].VolumeMounts = []api.RawValue{api.RawValue("{}")} }},
		{"user", func(_, b *api.Pod) { b.Status.ContainerStatuses[0].User = new(api.RawValue("{}")) }},
		{"allocatedResourcesStatus", func(_, b *api.Pod) {
			b.Status.ContainerStatuses[0].AllocatedResourcesStatus = []api.RawValue{api.RawValue("{}")}
		}},
		{"stopSignal", func(a, _ *api.Pod) { a.Status.ContainerStatuses[0].StopSignal = &sig }},
		{"added container with stopSignal", func(_, b *api.Pod) {
			b.Status.InitContainerStatuses = []api.ContainerStatus{{Name: "init", StopSignal: &sig}}
		}},
	}
}

// TestPodStatusUpdateMatchesWalk checks that podStatusUpdate appends
// exactly the changes the walk appends for a pod's status write, or
// declines and appends nothing: for the kubelet's writes (pending to
// running, each condition flipping, containers waiting, running,
// terminated and restarting, IPs appearing, times of sub-seconds, other
// locations and zero, odd strings and keys), each thing it declines, the
// differs it declines, and thousands of random status pairs.
func TestPodStatusUpdateMatchesWalk(t *testing.T) {
	for _, tc := range podStatusRows() {
		t.Run(tc.name, func(t *testing.T) {
			pending, running := kubeletStatuses()
			tc.edit(&pending, &running)
			a, b := statusWrite(pending, running)
			if !checkPodStatus(t, a, b) {
				t.Fatalf("podStatusUpdate declined the write")
			}
		})
	}
	t.Run("auditPairs pod-status", func(t *testing.T) {
		for _, p := range auditPairs() {
			if p.name == "pod-status" {
				a, b := p.old.(*api.Pod), p.new.(*api.Pod)
				if !checkPodStatus(t, a, b) {
					t.Fatalf("podStatusUpdate declined the write")
				}
				if len(walkPodChanges(a, b, nil)) < 10 {
					t.Fatalf("the bench's write has few changes: the test proves little")
				}
			}
		}
	})
	t.Run("auditPairs pod-binding", func(t *testing.T) {
		for _, p := range auditPairs() {
			if p.name == "pod-binding" {
				a, b := p.old.(*api.Pod), p.new.(*api.Pod)
				if !checkPodStatus(t, a, b) {
					t.Fatalf("podStatusUpdate declined the binding")
				}
				if got := walkPodChanges(a, b, nil); len(got) == 0 || got[0].Path != "spec.nodeName" {
					t.Fatalf("the bench's binding changes %s: no nodeName first", fmtChanges(got))
				}
			}
		}
	})
	for _, tc := range []struct {
		name     string
		from, to string
	}{{"bound", "", "zone-a-41"}, {"moved", "zone-a-41", "zone-b-7"}, {"unbound", "zone-a-41", ""}} {
		t.Run("spec nodeName "+tc.name+" with a status write", func(t *testing.T) {
			a, b := statusWrite(kubeletStatuses())
			b.Spec = a.Spec // the same bytes but nodeName's
			a.Spec.NodeName, b.Spec.NodeName = tc.from, tc.to
			if !checkPodStatus(t, a, b) {
				t.Fatalf("podStatusUpdate declined the write")
			}
		})
	}
	t.Run("the same pod", func(t *testing.T) {
		a, _ := statusWrite(kubeletStatuses())
		if !checkPodStatus(t, a, a) {
			t.Fatalf("podStatusUpdate declined the write")
		}
	})
	for _, tc := range podStatusDeclines() {
		t.Run("declines "+tc.name, func(t *testing.T) {
			a, b := statusWrite(kubeletStatuses())
			b.Status.ContainerStatuses = slices.Clone(b.Status.ContainerStatuses)
			tc.edit(a, b)
			if checkPodStatus(t, a, b) {
				t.Fatalf("podStatusUpdate took the write")
			}
		})
	}
	t.Run("declines other differs", func(t *testing.T) {
		a, b := statusWrite(kubeletStatuses())
		for _, d := range []*differ{
			{intern: map[string]string{}, skip: managedFieldsPath},                                // not the audit's
			{intern: map[string]string{}, skip: "status.phase", audit: true},                      // another skip
			{intern: map[string]string{}, skip: managedFieldsPath, audit: true, reflective: true}, // through reflect
			{intern: map[string]string{}, skip: managedFieldsPath, audit: true, walkEqual: true},
			{intern: map[string]string{}, skip: managedFieldsPath, audit: true, path: []byte("x")},
		} {
			if d.podStatusUpdate(a, b) || len(d.out) != 0 {
				t.Fatalf("podStatusUpdate took the write with differ %+v:%s", d, fmtChanges(d.out))
			}
		}
		d := auditDiffer(nil)
		if d.podStatusUpdate(nil, b) || d.podStatusUpdate(a, nil) || len(d.out) != 0 {
			t.Fatalf("podStatusUpdate took a nil pod")
		}
		// Without a skip, the audit's differ still skips managedFields
		// (metaUnchanged): taken, and the walk's.
		d = &differ{audit: true}
		if !d.podStatusUpdate(a, b) || !slices.Equal(d.out, diffWith(&differ{audit: true}, a, b)) {
			t.Fatalf("podStatusUpdate without a skip%s\nwant the walk's", fmtChanges(d.out))
		}
	})
	t.Run("managedFields changed (skipped)", func(t *testing.T) {
		a, b := statusWrite(kubeletStatuses())
		b.ManagedFields = []api.ManagedFieldsEntry{{Manager: "kubelet", Operation: "Update", Subresource: "status"}}
		if !checkPodStatus(t, a, b) {
			t.Fatalf("podStatusUpdate declined the write")
		}
	})
	t.Run("random", func(t *testing.T) {
		testRandomPodStatuses(t, rand.New(rand.NewPCG(20260104, 5)), 5000, nil)
	})
}

// podGen makes random pod statuses from r: keys, strings and times from
// small pools (odd ones among them), so that pairs share much.
type podGen struct {
	r         *rand.Rand
	strs      []string
	times     []api.Time
	condTypes []string // the keys of conditions
	names     []string // the names of container statuses
}

func newPodGen(r *rand.Rand, extra []string, extraTimes []api.Time) *podGen {
	g := &podGen{r: r,
		condTypes: []string{"PodScheduled", "PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady", "a]b", "x.y"},
		names:     []string{"app", "sidecar", "init", "c]", "\xff"},
		strs: []string{"", "", "True", "False", "Unknown", "Running", "10.0.0.1", "fd00::1", "app", `q"`, `b\`,
			"a\nb", "ü☃", "\xff", "[0]", " ", "containerd://x"}}
	g.strs = append(g.strs, extra...)
	for _, k := range extra {
		if k != "" && !slices.Contains(g.condTypes, k) {
			g.condTypes = append(g.condTypes, k)
		}
		if k != "" && !slices.Contains(g.names, k) {
			g.names = append(g.names, k)
		}
	}
	zones := []*time.Location{time.UTC, time.FixedZone("a", 3600), time.FixedZone("b", -9*3600-1800)}
	g.times = []api.Time{{}, {Time: time.Time{}.In(zones[1])}, {Time: time.Time{}.UTC()}}
	for i := range 12 {
		at := benchEpoch.Add(time.Duration(i/2) * time.Second)
		if i%3 == 1 {
			at = at.Add(time.Duration(r.Int64N(1e9)))
		}
		g.times = append(g.times, api.Time{Time: at.In(zones[i%len(zones)])})
	}
	g.times = append(g.times, api.Time{Time: time.Unix(r.Int64N(1<<40)-1<<39, r.Int64N(1e9))})
	g.times = append(g.times, extraTimes...)
	return g
}

func (g *podGen) str() string       { return g.strs[g.r.IntN(len(g.strs))] }
func (g *podGen) time() api.Time    { return g.times[g.r.IntN(len(g.times))] }
func (g *podGen) int() int64        { return []int64{0, 0, 1, 2, 137, -1, 1 << 40}[g.r.IntN(7)] }
func (g *podGen) chance(n int) bool { return g.r.IntN(n) == 0 }

// keys returns up to 4 distinct keys from pool in random order, or
// (rarely, when odd) with one empty or twice.
func (g *podGen) keys(pool []string, odd bool) []string {
	ks := slices.Clone(pool)
	g.r.Shuffle(len(ks), func(i, j int) { ks[i], ks[j] = ks[j], ks[i] })
	ks = ks[:g.r.IntN(min(5, len(ks)+1))]
	if odd && len(ks) > 0 && g.chance(20) {
		if g.chance(2) {
			ks[0] = ""
		} else {
			ks = append(ks, ks[0])
		}
	}
	return ks
}

func (g *podGen) condition(typ string) api.PodCondition {
	c := api.PodCondition{Type: api.PodConditionType(typ)}
	if g.chance(4) {
		c.ObservedGeneration = g.int()
	}
	c.Status = api.ConditionStatus(g.str())
	c.LastProbeTime, c.LastTransitionTime = g.time(), g.time()
	c.Reason, c.Message = g.str(), g.str()
	return c
}

func (g *podGen) state() api.ContainerState {
	var s api.ContainerState
	if g.chance(2) {
		s.Waiting = &api.ContainerStateWaiting{Reason: g.str(), Message: g.str()}
	}
	if g.chance(2) {
		s.Running = &api.ContainerStateRunning{StartedAt: g.time()}
	}
	if g.chance(3) {
		s.Terminated = &api.ContainerStateTerminated{ExitCode: int32(g.int()), Signal: int32(g.int()), Reason: g.str(),
			Message: g.str(), StartedAt: g.time(), FinishedAt: g.time(), ContainerID: g.str()}
	}
	return s
}

func (g *podGen) container(name string) api.ContainerStatus {
	c := api.ContainerStatus{Name: name, State: g.state(), Ready: g.chance(2), RestartCount: int32(g.int()),
		Image: g.str(), ImageID: g.str(), ContainerID: g.str()}
	if g.chance(3) {
		c.LastTerminationState = g.state()
	}
	switch g.r.IntN(3) {
	case 0:
		c.Started = new(false)
	case 1:
		c.Started = new(true)
	}
	return c
}

func (g *podGen) conditions(odd bool) []api.PodCondition {
	var l []api.PodCondition
	for _, k := range g.keys(g.condTypes, odd) {
		l = append(l, g.condition(k))
	}
	return l
}

func (g *podGen) containers(odd bool) []api.ContainerStatus {
	var l []api.ContainerStatus
	for _, k := range g.keys(g.names, odd) {
		l = append(l, g.container(k))
	}
	return l
}

func ipList[T any](g *podGen, mk func(string) T) []T {
	var l []T
	for range g.r.IntN(4) {
		l = append(l, mk(g.str()))
	}
	return l
}

// status returns a random status.
func (g *podGen) status(odd bool) api.PodStatus {
	s := api.PodStatus{ObservedGeneration: g.int(), Phase: api.PodPhase(g.str()), Conditions: g.conditions(odd),
		Message: g.str(), Reason: g.str(), NominatedNodeName: g.str(), HostIP: g.str(),
		HostIPs: ipList(g, func(s string) api.HostIP { return api.HostIP{IP: s} }), PodIP: g.str(),
		PodIPs: ipList(g, func(s string) api.PodIP { return api.PodIP{IP: s} }), InitContainerStatuses: g.containers(odd),
		ContainerStatuses: g.containers(odd), QOSClass: api.PodQOSClass(g.str()), Resize: g.str()}
	if g.chance(2) {
		s.StartTime = new(g.time())
	}
	return s
}

// next returns a status write's status after old: old's, sharing its
// lists and pointers, with some fields changed, some lists edited in
// copies (elements changed, added, removed, reordered) or made anew.
func (g *podGen) next(old api.PodStatus, odd bool) api.PodStatus {
	s := old
	if g.chance(8) {
		return g.status(odd)
	}
	if g.chance(3) {
		s.Phase = api.PodPhase(g.str())
	}
	if g.chance(6) {
		s.ObservedGeneration, s.Message, s.Reason, s.NominatedNodeName, s.Resize = g.int(), g.str(), g.str(), g.str(), g.str()
	}
	if g.chance(4) {
		s.HostIP, s.PodIP, s.QOSClass = g.str(), g.str(), api.PodQOSClass(g.str())
	}
	if g.chance(4) {
		s.HostIPs = ipList(g, func(s string) api.HostIP { return api.HostIP{IP: s} })
	}
	if g.chance(4) {
		s.PodIPs = ipList(g, func(s string) api.PodIP { return api.PodIP{IP: s} })
	}
	switch g.r.IntN(5) {
	case 0:
		s.StartTime = nil
	case 1:
		s.StartTime = new(g.time())
	case 2:
		if s.StartTime != nil {
			s.StartTime = new(*s.StartTime)
		}
	}
	s.Conditions = editList(g, s.Conditions, odd, g.conditions, func(c *api.PodCondition) {
		switch g.r.IntN(4) {
		case 0:
			c.Status = api.ConditionStatus(g.str())
		case 1:
			c.LastTransitionTime, c.LastProbeTime = g.time(), g.time()
		case 2:
			c.Reason, c.Message = g.str(), g.str()
		default:
			*c = g.condition(string(c.Type))
		}
	}, func() api.PodCondition { return g.condition(g.condTypes[g.r.IntN(len(g.condTypes))]) })
	editCS := func(c *api.ContainerStatus) {
		switch g.r.IntN(6) {
		case 0:
			c.State = g.state()
		case 1:
			c.LastTerminationState, c.RestartCount = c.State, c.RestartCount+1
			c.State = g.state()
		case 2:
			c.Ready = !c.Ready
		case 3:
			c.Started = []*bool{nil, new(false), new(true), c.Started}[g.r.IntN(4)]
		case 4:
			c.Image, c.ImageID, c.ContainerID = g.str(), g.str(), g.str()
		default:
			*c = g.container(c.Name)
		}
	}
	newCS := func() api.ContainerStatus { return g.container(g.names[g.r.IntN(len(g.names))]) }
	s.ContainerStatuses = editList(g, s.ContainerStatuses, odd, g.containers, editCS, newCS)
	s.InitContainerStatuses = editList(g, s.InitContainerStatuses, odd, g.containers, editCS, newCS)
	return s
}

// editList returns l, or an edited copy of it, or a new list.
func editList[T any](g *podGen, l []T, odd bool, fresh func(bool) []T, edit func(*T), add func() T) []T {
	switch g.r.IntN(8) {
	case 0, 1, 2:
		return l
	case 3:
		return fresh(odd)
	case 4:
		l = slices.Clone(l)
		g.r.Shuffle(len(l), func(i, j int) { l[i], l[j] = l[j], l[i] })
		return l
	case 5:
		l = slices.Clone(l)
		if len(l) > 0 && g.chance(2) {
			i := g.r.IntN(len(l))
			return slices.Delete(l, i, i+1)
		}
		return slices.Insert(l, g.r.IntN(len(l)+1), add()) // its key may be there already: declined
	}
	l = slices.Clone(l)
	for i := range l {
		if g.chance(2) {
			edit(&l[i])
		}
	}
	return l
}

// keyedOK reports whether the walk addresses a list's elements by key:
// each has a non-empty key of its own.
func keyedOK[T any](l []T, key func(*T) string) bool {
	seen := map[string]bool{}
	for i := range l {
		k := key(&l[i])
		if k == "" || seen[k] {
			return false
		}
		seen[k] = true
	}
	return true
}

// podDeclined reports whether podStatusUpdate must decline the status
// write of b over a for its lists: a list not keyed on one side that the
// walk looks into.
func podDeclined(a, b *api.PodStatus) bool {
	bad := func(x, y bool, same bool) bool { return !same && !(x && y) }
	return bad(keyedOK(a.Conditions, conditionKey), keyedOK(b.Conditions, conditionKey), api.SameElements(a.Conditions, b.Conditions)) ||
		bad(keyedOK(a.ContainerStatuses, containerKey), keyedOK(b.ContainerStatuses, containerKey), api.SameElements(a.ContainerStatuses, b.ContainerStatuses)) ||
		bad(keyedOK(a.InitContainerStatuses, containerKey), keyedOK(b.InitContainerStatuses, containerKey),
			api.SameElements(a.InitContainerStatuses, b.InitContainerStatuses))
}

// testRandomPodStatuses compares podStatusUpdate with the walk for n
// random status writes from rng (each over the last, or a new pod),
// with one differ of each kept across them (as the audit log keeps its
// own: rendered seconds, path tree and interned paths reused), one
// differ taking both the fast path and the walk, and the audit log's;
// now and then with fresh differs (checkPodStatus). Each write that sets
// something podStatusUpdate does not render (podStatusDeclines, a list
// not keyed) must be declined, every other taken.
func testRandomPodStatuses(t *testing.T, rng *rand.Rand, n int, extra []string, extraTimes ...api.Time) {
	g := newPodGen(rng, extra, extraTimes)
	declines := podStatusDeclines()
	fastIntern, walkIntern, mixedIntern := map[string]string{}, map[string]string{}, map[string]string{}
	fast, walk, mixed := auditDiffer(fastIntern), auditDiffer(walkIntern), auditDiffer(mixedIntern)
	var l AuditLog
	emitted := map[string]bool{}
	taken, changes := 0, 0
	status := g.status(true)
	for i := range n {
		if g.chance(10) {
			status = g.status(true)
		}
		next := g.next(status, true)
		a, b := statusWrite(status, next)
		status = next
		if g.chance(8) {
			b.Spec.NodeName = g.str() // a binding's change, or none
		}
		declined := podDeclined(&a.Status, &b.Status)
		if g.chance(10) {
			// The edits set the first container status of each side:
			// copies, so that no other write sees them.
			for _, s := range []*api.PodStatus{&a.Status, &b.Status} {
				s.ContainerStatuses = slices.Clone(s.ContainerStatuses)
				if len(s.ContainerStatuses) == 0 {
					s.ContainerStatuses = []api.ContainerStatus{{Name: "app"}}
				}
			}
			declines[g.r.IntN(len(declines))].edit(a, b)
			declined = true
		}
		fast.out, walk.out = fast.out[:0], walk.out[:0]
		ok := fast.podStatusUpdate(a, b)
		want := diffWith(walk, a, b)
		if ok {
			taken++
			changes += len(want)
		}
		switch {
		case ok == declined:
			t.Fatalf("write %d: podStatusUpdate took it: %t, a declined field set: %t\n%+v\n%+v", i, ok, declined, a.Status, b.Status)
		case !ok && len(fast.out) != 0:
			t.Fatalf("write %d: podStatusUpdate declined but appended%s", i, fmtChanges(fast.out))
		case ok && !slices.Equal(fast.out, want):
			t.Fatalf("write %d: podStatusUpdate%s\nwant (the walk's)%s\n%+v\n%+v", i, fmtChanges(fast.out), fmtChanges(want), a.Status, b.Status)
		}
		for _, c := range fast.out {
			if !addrmemo.Same(c.Path, fastIntern[c.Path]) {
				t.Fatalf("write %d: path %q is not the interned string", i, c.Path)
			}
			emitted[c.Path] = true
		}
		// One differ, the fast path then the walk (or the walk then the
		// fast path): each through the path tree the other grew.
		for k := range 2 {
			mixed.out = mixed.out[:0]
			if (i+k)%2 == 0 {
				if !mixed.podStatusUpdate(a, b) {
					continue
				}
			} else {
				diffWith(mixed, a, b)
			}
			if !slices.Equal(mixed.out, want) {
				t.Fatalf("write %d: the mixed differ (fast path %t)%s\nwant%s", i, (i+k)%2 == 0, fmtChanges(mixed.out), fmtChanges(want))
			}
		}
		if got, audit := l.auditChanges(a, b), auditOnly(want); !slices.Equal(got, audit) {
			t.Fatalf("write %d: auditChanges%s\nwant%s", i, fmtChanges(got), fmtChanges(audit))
		}
		if i%50 == 0 {
			if got := checkPodStatus(t, a, b); got == declined {
				t.Fatalf("write %d: podStatusUpdate with fresh differs took it: %t, declined: %t", i, got, declined)
			}
		}
	}
	t.Logf("%d writes: %d taken, with %d changes at %d paths", n, taken, changes, len(emitted))
	if n >= 1000 && (taken < n/2 || changes < 5*taken) {
		t.Fatalf("%d of %d writes taken, with %d changes: the test proves little", taken, n, changes)
	}
	// The fast path interns the paths of the changes it appends, no
	// other; the mixed differ, which walked every write, the walk's.
	if len(fastIntern) != len(emitted) || len(mixedIntern) != len(walkIntern) {
		t.Fatalf("podStatusUpdate interned %d paths for changes at %d, the walk %d, the mixed differ %d",
			len(fastIntern), len(emitted), len(walkIntern), len(mixedIntern))
	}
}

// TestPodStatusUpdateFields fails when Pod, PodStatus, PodCondition,
// HostIP, PodIP, ContainerStatus, ContainerState or the container state
// types gain, lose, reorder or rename a field (or its JSON name):
// podStatusUpdate must then render the new field (or decline writes
// that set it), and its field positions and names follow the types, or
// the audit log would miss or misname a change of every status write.
func TestPodStatusUpdateFields(t *testing.T) {
	for _, tc := range []struct {
		typ  reflect.Type
		want []string
	}{
		{reflect.TypeFor[api.Pod](), []string{"TypeMeta ,inline", "ObjectMeta metadata,omitempty", "Spec spec,omitempty", "Status status,omitempty"}},
		{reflect.TypeFor[api.PodStatus](), []string{"ObservedGeneration observedGeneration,omitempty", "Phase phase,omitempty",
			"Conditions conditions,omitempty", "Message message,omitempty", "Reason reason,omitempty",
			"NominatedNodeName nominatedNodeName,omitempty", "HostIP hostIP,omitempty", "HostIPs hostIPs,omitempty",
			"PodIP podIP,omitempty", "PodIPs podIPs,omitempty", "StartTime startTime,omitempty",
			"InitContainerStatuses initContainerStatuses,omitempty", "ContainerStatuses containerStatuses,omitempty",
			"QOSClass qosClass,omitempty", "EphemeralContainerStatuses ephemeralContainerStatuses,omitempty",
			"Resize resize,omitempty", "ResourceClaimStatuses resourceClaimStatuses,omitempty"}},
		{reflect.TypeFor[api.PodCondition](), []string{"Type type", "ObservedGeneration observedGeneration,omitempty",
			"Status status", "LastProbeTime lastProbeTime,omitempty", "LastTransitionTime lastTransitionTime,omitempty",
			"Reason reason,omitempty", "Message message,omitempty"}},
		{reflect.TypeFor[api.HostIP](), []string{"IP ip"}},
		{reflect.TypeFor[api.PodIP](), []string{"IP ip"}},
		{reflect.TypeFor[api.ContainerStatus](), []string{"Name name", "State state,omitempty", "LastTerminationState lastState,omitempty",
			"Ready ready", "RestartCount restartCount", "Image image", "ImageID imageID", "ContainerID containerID,omitempty",
			"Started started,omitempty", "AllocatedResources allocatedResources,omitempty", "Resources resources,omitempty",
			"VolumeMounts volumeMounts,omitempty", "User user,omitempty", "AllocatedResourcesStatus allocatedResourcesStatus,omitempty",
			"StopSignal stopSignal,omitempty"}},
		{reflect.TypeFor[api.ContainerState](), []string{"Waiting waiting,omitempty", "Running running,omitempty", "Terminated terminated,omitempty"}},
		{reflect.TypeFor[api.ContainerStateWaiting](), []string{"Reason reason,omitempty", "Message message,omitempty"}},
		{reflect.TypeFor[api.ContainerStateRunning](), []string{"StartedAt startedAt,omitempty"}},
		{reflect.TypeFor[api.ContainerStateTerminated](), []string{"ExitCode exitCode", "Signal signal,omitempty",
			"Reason reason,omitempty", "Message message,omitempty", "StartedAt startedAt,omitempty",
			"FinishedAt finishedAt,omitempty", "ContainerID containerID,omitempty"}},
	} {
		checkFieldTags(t, "podStatusUpdate", tc.typ, tc.want)
	}
	// The positions podStatusUpdate gives the walk's path nodes are the
	// walk's (structFields), and the field counts.
	for _, tc := range []struct {
		typ    reflect.Type
		fields int
		pos    map[int]string
	}{
		{reflect.TypeFor[api.Pod](), podFieldsN, map[int]string{podSpecPos: "spec", podStatusPos: "status"}},
		{reflect.TypeFor[api.PodStatus](), psFieldsN, map[int]string{psObservedGeneration: "observedGeneration", psPhase: "phase",
			psConditions: "conditions", psMessage: "message", psReason: "reason", psNominatedNodeName: "nominatedNodeName",
			psHostIP: "hostIP", psHostIPs: "hostIPs", psPodIP: "podIP", psPodIPs: "podIPs", psStartTime: "startTime",
			psInitContainers: "initContainerStatuses", psContainers: "containerStatuses", psQOSClass: "qosClass", psResize: "resize"}},
		{reflect.TypeFor[api.PodCondition](), pcFieldsN, map[int]string{pcType: "type", pcObservedGeneration: "observedGeneration",
			pcStatus: "status", pcLastProbeTime: "lastProbeTime", pcLastTransitionTime: "lastTransitionTime", pcReason: "reason",
			pcMessage: "message"}},
		{reflect.TypeFor[api.HostIP](), ipFieldsN, map[int]string{ipPos: "ip"}},
		{reflect.TypeFor[api.PodIP](), ipFieldsN, map[int]string{ipPos: "ip"}},
		{reflect.TypeFor[api.ContainerStatus](), csFieldsN, map[int]string{csName: "name", csState: "state", csLastState: "lastState",
			csReady: "ready", csRestartCount: "restartCount", csImage: "image", csImageID: "imageID", csContainerID: "containerID",
			csStarted: "started"}},
		{reflect.TypeFor[api.ContainerState](), stFieldsN, map[int]string{stWaiting: "waiting", stRunning: "running", stTerminated: "terminated"}},
		{reflect.TypeFor[api.ContainerStateWaiting](), waitFieldsN, map[int]string{waitReason: "reason", waitMessage: "message"}},
		{reflect.TypeFor[api.ContainerStateRunning](), runFieldsN, map[int]string{runStartedAt: "startedAt"}},
		{reflect.TypeFor[api.ContainerStateTerminated](), termFieldsN, map[int]string{termExitCode: "exitCode", termSignal: "signal",
			termReason: "reason", termMessage: "message", termStartedAt: "startedAt", termFinishedAt: "finishedAt",
			termContainerID: "containerID"}},
	} {
		checkFieldPositions(t, "podStatusUpdate", tc.typ, tc.fields, tc.pos)
	}
	if podInfo != infoOf(reflect.TypeFor[*api.Pod]()).elem {
		t.Errorf("podInfo is not the info the walk of a *Pod roots its path tree at")
	}
}

// FuzzPodStatusUpdate checks, beyond not panicking, that for random
// status writes made from the fuzzer's seeds (a status over another,
// lists edited, added to, reordered and made anew, the fields
// podStatusUpdate declines set now and then) with the fuzzer's strings
// among the pools' (in keys, values and IPs) and its times among the
// pools' (any instant and offset), podStatusUpdate appends exactly the
// changes the walk appends with a differ set up as the audit log's
// (kept across writes, fresh, and one taking both paths), with paths
// interned (the interned strings) and not; that it declines, appending
// nothing, exactly the writes with something it does not render; and
// that the audit log's changes are the walk's less those it drops.
func FuzzPodStatusUpdate(f *testing.F) {
	f.Add(uint64(1), uint64(2), "Ready", "app", "10.0.0.1", int64(0), int32(0))
	f.Add(uint64(3), uint64(4), "", "", "", int64(-62135596800000), int32(3600))
	f.Add(uint64(5), uint64(6), "a]b", "\xff", "x\ny", int64(253402300799999), int32(-34200))
	f.Fuzz(func(t *testing.T, s1, s2 uint64, key, name, value string, ms int64, offset int32) {
		zone := time.FixedZone("z", int(offset%(100*3600)))
		times := []api.Time{{Time: time.UnixMilli(ms).In(zone)}, {Time: time.UnixMilli(ms).UTC()}}
		testRandomPodStatuses(t, rand.New(rand.NewPCG(s1, s2)), 40, []string{key, name, value}, times...)
	})
}

// BenchmarkPodStatusUpdate is the audit diff of the bench's kubelet
// status write (auditPairs' pod-status) through podStatusUpdate (fast)
// and through the walk (walk), with one differ as the audit log's.
func BenchmarkPodStatusUpdate(b *testing.B) {
	var a, n *api.Pod
	for _, p := range auditPairs() {
		if p.name == "pod-status" {
			a, n = p.old.(*api.Pod), p.new.(*api.Pod)
		}
	}
	for _, tc := range []struct {
		name string
		diff func(d *differ) bool
	}{
		{"fast", func(d *differ) bool { return d.podStatusUpdate(a, n) && len(d.out) > 0 }},
		{"walk", func(d *differ) bool { return len(diffWith(d, a, n)) > 0 }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			d := auditDiffer(map[string]string{})
			b.ReportAllocs()
			for b.Loop() {
				d.out = d.out[:0]
				if !tc.diff(d) {
					b.Fatal("no changes")
				}
			}
		})
	}
}
