package store

import (
	"slices"
	"strconv"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// BenchmarkAuditKeep measures what the log does with a pod create's
// changes after the diff: keeping them (every field of the pod, its name
// and uid one of 16,384, the rest repeated), as the 150,000 creates of
// the 5,000-node probe are kept. The changes are diffed before the timer
// starts.
func BenchmarkAuditKeep(b *testing.B) {
	const n = 1 << 14
	pods := make([]*api.Pod, n)
	changes := make([][]Change, n)
	var diff AuditLog
	for i := range pods {
		p := scalePod()
		p.Name = "app-2-56d54f4c4f-" + strconv.Itoa(i)
		p.UID = api.UID("45518abb-c6b0-43be-b8ab-" + strconv.Itoa(100000000000+i))
		pods[i] = p
		changes[i] = slices.Clone(diff.auditChanges(nil, p))
	}
	var l AuditLog
	b.ReportAllocs()
	defer reportCPU(b, cpuTime(b))
	i := 0
	for b.Loop() {
		p := pods[i%n]
		l.add(AuditRecord{Actor: "system:serviceaccount:kube-system:replicaset-controller", Verb: "create", Kind: api.KindPod, Key: p.Key()}, changes[i%n])
		i++
	}
	b.StopTimer()
	if l.Len() != b.N {
		b.Fatalf("%d records kept of %d", l.Len(), b.N)
	}
}
