package store

import (
	"math/rand/v2"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

var benchEpoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// scalePod is a pod as the ReplicaSet controller creates it in the scale
// probe (clustersim generate scale), defaulted as the API server does.
func scalePod() *api.Pod {
	yes := true
	p := &api.Pod{
		TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{
			Name: "app-2-56d54f4c4f-mfv6n", GenerateName: "app-2-56d54f4c4f-", Namespace: "default",
			UID: "45518abb-c6b0-43be-b8ab-c01b47b4eb22", Generation: 1, CreationTimestamp: api.NewTime(benchEpoch),
			Labels: map[string]string{"app": "app-2", "pod-template-hash": "56d54f4c4f", "tier": "scale"},
			OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "app-2-56d54f4c4f",
				UID: "0ba3b5ba-11e4-4750-88e5-ecb9c177e564", Controller: &yes, BlockOwnerDeletion: &yes}},
		},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx:1.25", Resources: api.ResourceRequirements{
			Requests: api.ResourceList{"cpu": api.MustParseQuantity("100m"), "memory": api.MustParseQuantity("256Mi")}}}}},
		Status: api.PodStatus{Phase: api.PodPending},
	}
	api.SetDefaults(p)
	return p
}

// kubeletStatuses are the pod's status as the kubelet writes it after
// the pod's sandbox started, and when its container runs.
func kubeletStatuses() (pending, running api.PodStatus) {
	at := func(s int) api.Time { return api.NewTime(benchEpoch.Add(time.Duration(s) * time.Second)) }
	no := false
	pending = api.PodStatus{
		Phase: api.PodPending,
		Conditions: []api.PodCondition{
			{Type: "PodReadyToStartContainers", Status: "True", LastTransitionTime: at(16)},
			{Type: "Initialized", Status: "True", LastTransitionTime: at(15)},
			{Type: "Ready", Status: "False", LastTransitionTime: at(15), Reason: "ContainersNotReady", Message: "containers with unready status: [app]"},
			{Type: "ContainersReady", Status: "False", LastTransitionTime: at(15), Reason: "ContainersNotReady", Message: "containers with unready status: [app]"},
			{Type: "PodScheduled", Status: "True", LastTransitionTime: at(0)},
		},
		HostIP: "10.240.244.0", HostIPs: []api.HostIP{{IP: "10.240.244.0"}},
		PodIP: "10.244.0.2", PodIPs: []api.PodIP{{IP: "10.244.0.2"}},
		StartTime: ptrTo(at(15)),
		ContainerStatuses: []api.ContainerStatus{{Name: "app", Image: "nginx:1.25", Started: &no,
			State: api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "ContainerCreating"}}}},
		QOSClass: "Burstable",
	}
	running = *pending.DeepCopy()
	running.Phase = api.PodRunning
	for i := range running.Conditions {
		c := &running.Conditions[i]
		if c.Type == "Ready" || c.Type == "ContainersReady" {
			c.Status, c.LastTransitionTime, c.Reason, c.Message = "True", at(20), "", ""
		}
	}
	yes := true
	cs := &running.ContainerStatuses[0]
	cs.State = api.ContainerState{Running: &api.ContainerStateRunning{StartedAt: at(20)}}
	cs.Ready, cs.Started = true, &yes
	cs.Image = "docker.io/library/nginx:1.25"
	cs.ImageID = "docker.io/library/nginx@sha256:b07c1fa29c8dc936d6db6891b04d7647d88ecb270969a682be1b6e033134f8b3"
	cs.ContainerID = "containerd://675adaf06636f70e983f36e1195d651d61ac8449d21f85fba1782cbd3ef5fef6"
	return pending, running
}

func ptrTo[T any](v T) *T { return &v }

// auditPairs are the writes the scale probe makes most, as (old, new)
// pairs the audit log diffs: old nil for a create.
func auditPairs() []struct {
	name     string
	old, new api.Object
} {
	p := scalePod()
	ev := &api.Event{
		TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Event"},
		ObjectMeta: api.ObjectMeta{Name: "zone-c-70.5997da235ef23e2f", Namespace: "default",
			UID: "bbf7a5bd-1c01-4d37-8c1a-f438089cbd6a", CreationTimestamp: api.NewTime(benchEpoch)},
		InvolvedObject: api.ObjectReference{Kind: "Node", Name: "zone-c-70", UID: "zone-c-70", APIVersion: "v1"},
		Reason:         "Starting", Message: "Starting kubelet.",
		Source:         api.EventSource{Component: "kubelet", Host: "zone-c-70"},
		FirstTimestamp: api.NewTime(benchEpoch), LastTimestamp: api.NewTime(benchEpoch), Count: 1, Type: "Normal",
		ReportingController: "kubelet", ReportingInstance: "zone-c-70",
	}
	holder := "zone-a-1"
	dur := int32(40)
	lease := &api.Lease{
		TypeMeta:   api.TypeMeta{APIVersion: "coordination.k8s.io/v1", Kind: "Lease"},
		ObjectMeta: api.ObjectMeta{Name: "zone-a-1", Namespace: "kube-node-lease", UID: "u", ResourceVersion: "7", CreationTimestamp: api.NewTime(benchEpoch)},
		Spec:       api.LeaseSpec{HolderIdentity: &holder, LeaseDurationSeconds: &dur, RenewTime: ptrTo(api.NewMicroTime(benchEpoch))},
	}
	renewed := lease.DeepCopy()
	renewed.Spec.RenewTime = ptrTo(api.NewMicroTime(benchEpoch.Add(10*time.Second + 7825*time.Microsecond)))

	// A binding shares what it leaves as it was with the stored pod
	// (apiserver's bind): a new spec with the node's name, and the
	// PodScheduled condition.
	bound := new(api.Pod)
	*bound = *p
	bound.Spec.NodeName = "zone-a-41"
	bound.Status.Conditions = []api.PodCondition{{Type: "PodScheduled", Status: "True", LastTransitionTime: api.NewTime(benchEpoch)}}

	pending, running := kubeletStatuses()
	started := p.DeepCopy()
	started.Spec.NodeName = "zone-a-41"
	started.Status = pending
	// A status write shares the stored pod's metadata and spec
	// (withStatusOf).
	run := new(api.Pod)
	*run = *started
	run.Status = running
	return []struct {
		name     string
		old, new api.Object
	}{
		{"create-pod", nil, p},
		{"create-event", nil, ev},
		{"pod-binding", p, bound},
		{"pod-status", started, run},
		{"lease-renewal", lease, renewed},
	}
}

// BenchmarkAuditDiff is the audit log's diff of the writes the scale
// probe makes most: creates of pods and events, bindings, the kubelet's
// pod status and lease renewals.
func BenchmarkAuditDiff(b *testing.B) {
	for _, tc := range auditPairs() {
		b.Run(tc.name, func(b *testing.B) {
			var l AuditLog
			b.ReportAllocs()
			defer reportCPU(b, cpuTime(b))
			for b.Loop() {
				if len(l.auditChanges(tc.old, tc.new)) == 0 {
					b.Fatal("no changes")
				}
			}
		})
	}
}

// cpuTime is the process's CPU time (user and system, every thread): on a
// shared machine ns/op is wall time and grows with the load, while
// cpu-ns/op (reported beside it) counts only this process's work, the
// garbage collector's included.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time per operation since start.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime(b)-start)/float64(b.N), "cpu-ns/op")
}

// BenchmarkRenewTimes renders lease renew times as the audit diff of a
// 5,000-node cluster's renewals does (renderRenewTime): ten minutes of
// renewals in time order, each lease's every 10 s with a jitter, each
// renewal's old time (the lease's previous one) and new time. An op is
// one renewal.
func BenchmarkRenewTimes(b *testing.B) {
	const leases, rounds = 5000, 60
	rng := rand.New(rand.NewPCG(3, 4))
	type renewal struct{ old, new api.MicroTime }
	next := make([]time.Time, leases)
	for i := range next {
		next[i] = benchEpoch.Add(time.Duration(rng.Int64N(int64(10 * time.Second))))
	}
	var seq []renewal
	for range rounds {
		for i := range next {
			at := next[i].Add(10*time.Second + time.Duration(rng.Int64N(int64(400*time.Millisecond))))
			seq = append(seq, renewal{api.NewMicroTime(next[i]), api.NewMicroTime(at)})
			next[i] = at
		}
	}
	slices.SortFunc(seq, func(a, b renewal) int { return a.new.Compare(b.new.Time) })
	var d differ
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		r := &seq[i%len(seq)]
		if d.renderRenewTime(r.old) == d.renderRenewTime(r.new) {
			b.Fatal("the same rendering")
		}
		i++
	}
}
