package measure

import (
	"fmt"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/store"
)

// BenchmarkSegments builds the field histories of an audit log shaped like
// the 300-node scale probe's: each pod created with 40 fields, then three
// status writes of 8 fields, and four Events about it kept brief, as the
// probe keeps them (measure.events: brief; the probe writes 4.5 Events a
// pod). Only the 8 status fields change more than once: those are the
// runs kept.
func BenchmarkSegments(b *testing.B) {
	audit := probeAudit()
	o := Options{}
	b.ReportAllocs()
	for b.Loop() {
		var runs [maxParts]int
		eachSegment(audit, o, func(part int, _ segment) { runs[part]++ })
		if n := sumInts(runs[:]); n != probePods*8 {
			b.Fatal("wrong number of runs")
		}
	}
}

// BenchmarkFlapsAndFights reads the flaps and fights of the same log,
// nothing ignored (the defaults ignore status): its 72,000 status runs
// change from a to b and stay, so none is a flap.
//
// parts=1 reads the log in one part; parts=2 in two side by side (the
// 300-node log is below minPartRecords, which the benchmark lowers to
// show what a large run's two parts gain on two processors).
func BenchmarkFlapsAndFights(b *testing.B) {
	audit := probeAudit()
	o := Options{Ignore: []string{}}.withDefaults()
	for _, parts := range []int{1, 2} {
		b.Run(fmt.Sprintf("parts=%d", parts), func(b *testing.B) {
			minRecords, workers := minPartRecords, segmentWorkers
			minPartRecords, segmentWorkers = 1, func() int { return min(parts, kernel.Workers()) }
			defer func() { minPartRecords, segmentWorkers = minRecords, workers }()
			b.ReportAllocs()
			for b.Loop() {
				if flaps, _ := flapsAndFights(audit, o); len(flaps) != 0 {
					b.Fatal("flaps in a log without any")
				}
			}
		})
	}
}

const probePods = 9000

// probeAudit is the log BenchmarkSegments describes.
func probeAudit() []store.AuditRecord {
	const pods = probePods
	var audit []store.AuditRecord
	create := make([]store.Change, 40)
	for i := range create {
		create[i] = store.Change{Path: fmt.Sprintf("spec.field%d", i), New: "v", NewSet: true}
	}
	// A pod's create sets its generation, as the store's does.
	create[0] = store.Change{Path: "metadata.generation", New: "1", NewSet: true}
	status := make([]store.Change, 8)
	for i := range status {
		status[i] = store.Change{Path: fmt.Sprintf("status.field%d", i), Old: "a", New: "b", OldSet: true, NewSet: true}
	}
	for p := range pods {
		key := api.Key{Namespace: "default", Name: fmt.Sprintf("pod-%d", p)}
		audit = append(audit, store.AuditRecord{Time: kernel.Time(p), Actor: "rs", Verb: "create", Kind: api.KindPod, Key: key}.WithChanges(create...))
	}
	for p := range pods {
		for e := range 4 {
			key := api.Key{Namespace: "default", Name: fmt.Sprintf("pod-%d.%x", p, e)}
			audit = append(audit, store.AuditRecord{Time: kernel.Time(p), Actor: "kubelet", Verb: "create", Kind: api.KindEvent, Key: key, Brief: true})
		}
	}
	for w := range 3 {
		for p := range pods {
			key := api.Key{Namespace: "default", Name: fmt.Sprintf("pod-%d", p)}
			audit = append(audit, store.AuditRecord{Time: kernel.Time(pods*(w+1) + p), Actor: "kubelet", Verb: "update", Subresource: "status", Kind: api.KindPod, Key: key}.WithChanges(status...))
		}
	}
	return audit
}

// BenchmarkGrowth looks for generation changes in the same log: every
// pod's create sets one, none changes it after, so it times the scan
// every record's changes go through and what growth keeps of creates.
func BenchmarkGrowth(b *testing.B) {
	audit := probeAudit()
	b.ReportAllocs()
	for b.Loop() {
		if g := growth(audit); len(g) != 0 {
			b.Fatal("growth in a log without generations")
		}
	}
}

func sumInts(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}
