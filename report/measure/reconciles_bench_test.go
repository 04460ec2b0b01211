package measure

import (
	"fmt"
	"testing"
	"time"

	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/api"
)

// BenchmarkReconcileLog reads a reconcile log shaped like the 5,000-node
// scale probe's, scaled down to 30,000 pods: four controllers each
// reconcile every pod four times over a virtual hour, one reconcile in
// fifty failing and retried, plus a fifth controller that goes round
// one key 110 times in 10 s (the probe's one hot loop). It times the
// two passes over the log that the report makes besides the audit's:
// the cost table (retries) and the hot-loop detector.
func BenchmarkReconcileLog(b *testing.B) {
	const pods = 30000
	keys := make([]api.Key, pods)
	for i := range keys {
		keys[i] = api.Key{Namespace: fmt.Sprintf("ns-%d", i%10), Name: fmt.Sprintf("pod-%d", i)}
	}
	ctls := []string{"replicaset", "deployment", "scheduler", "garbagecollector"}
	var log []runner.Reconcile
	for round := range 4 {
		for i, k := range keys {
			at := time.Duration(round*pods+i) * time.Hour / (4 * pods)
			for _, c := range ctls {
				rc := runner.Reconcile{Controller: c, Key: k, Start: at, End: at}
				if i%50 == 0 {
					rc.Err = "conflict"
				}
				log = append(log, rc)
			}
		}
	}
	for i := range 110 {
		at := 25*time.Minute + time.Duration(i)*10*time.Second/110
		log = append(log, runner.Reconcile{Controller: "loop", Key: keys[0], Start: at, End: at})
	}
	res := &runner.Result{Reconciles: log}
	o := Options{}.withDefaults()
	b.ReportAllocs()
	for b.Loop() {
		c := cost(res)
		if len(c.Controllers) != len(ctls)+1 || c.Controllers[0].Retries == 0 {
			b.Fatalf("cost = %+v", c.Controllers)
		}
		if loops := hotLoops(res, o); len(loops) != 1 || loops[0].Controller != "loop" {
			b.Fatalf("hot loops = %+v", loops)
		}
	}
}
