package store

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
)

// BenchmarkStoredEvents measures what the store's Events cost the
// collector once written: 100,000 Events of the kind a kubelet writes
// (five about each of 20,000 pods, each pod's uid shared by its five, as
// the kubelet's references share it) are created in a store, and the
// benchmark reports the heap that stays live per Event (live-B/event,
// after a full collection) and the time a full collection of that heap
// takes per Event (gc-ns/event: the marking every cycle of a large run
// repeats). Events are most of a large run's objects (store.frozenEvent).
// The live heap includes the Event table's watch history (DefaultHistory
// written Events), its keys and the audit log's brief records of the
// creates, as a run's does.
func BenchmarkStoredEvents(b *testing.B) {
	const pods, perPod = 20000, 5
	reasons := [perPod]string{"Scheduled", "Pulling", "Pulled", "Created", "Started"}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s := New(kernel.New(1))
	s.Audit().BriefEvents(true) // as the scale probe's spec.measure.events: brief has it
	uids := make([]api.UID, pods)
	for i := range uids {
		uids[i] = s.newUID()
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range pods * perPod {
		p, r := i/perPod, i%perPod
		name := fmt.Sprintf("app-%d-%05d", p%10, p)
		host := fmt.Sprintf("node-%d", p%3000)
		e := &api.Event{
			TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: api.KindEvent.Name},
			ObjectMeta: api.ObjectMeta{Name: api.EventName(name, uint64(i)*0x9e3779b97f4a7c15), Namespace: "default"},
			InvolvedObject: api.ObjectReference{Kind: "Pod", Namespace: "default", Name: name, UID: uids[p], APIVersion: "v1",
				ResourceVersion: fmt.Sprint(1000 + p), FieldPath: "spec.containers{app}"},
			Reason: reasons[r], Message: fmt.Sprintf("%s container app of pod %s", reasons[r], name),
			Source:         api.EventSource{Component: "kubelet", Host: host},
			FirstTimestamp: api.NewTime(at), LastTimestamp: api.NewTime(at), Count: 1, Type: "Normal",
			ReportingController: "kubelet", ReportingInstance: host,
		}
		if _, err := s.Create(Op{Actor: "kubelet"}, e); err != nil {
			b.Fatal(err)
		}
	}
	s.Audit().Len() // the audit log's consumer has taken every record
	runtime.GC()
	runtime.ReadMemStats(&after)
	for b.Loop() {
		runtime.GC()
	}
	runtime.KeepAlive(s)
	runtime.KeepAlive(uids)
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(pods*perPod), "live-B/event")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(pods*perPod), "gc-ns/event")
}
