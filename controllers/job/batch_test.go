package job_test

import (
	"testing"
	"time"

	"github.com/clustersim/clustersim/controllers/job"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/manifest"
	"github.com/clustersim/clustersim/sim/store"
)

const batchedJob = `apiVersion: batch/v1
kind: Job
metadata: {name: pi}
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: pi, image: perl}]
`

// TestJobSyncBatched: a change of a Job's pod syncs the Job a second
// later (upstream's syncJobBatchPeriod), not at once: the pod marked
// Succeeded at 10s completes the Job at 11s. (Synced at once, as it was,
// the Job completed at 10s.)
func TestJobSyncBatched(t *testing.T) {
	c, err := cluster.New(cluster.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	objs, err := manifest.Decode("job.yaml", []byte(batchedJob))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Bootstrap(objs...); err != nil {
		t.Fatal(err)
	}
	if err := c.AddManager("job", job.Actor, func(m *controller.Manager) error { return job.Setup(m, job.Options{}) }).Start(); err != nil {
		t.Fatal(err)
	}
	c.At(10*time.Second, func() {
		pods, _, err := c.Store.List(api.KindPod, store.ListOptions{Namespace: "default"})
		if err != nil || len(pods) != 1 {
			t.Fatalf("pods %d, %v: want the Job's one", len(pods), err)
		}
		p := pods[0].DeepCopyObject().(*api.Pod)
		p.Status.Phase = api.PodSucceeded
		if _, err := c.Store.Update(store.Op{Actor: "kubelet"}, p, "status"); err != nil {
			t.Fatal(err)
		}
	})
	c.RunFor(20 * time.Second)
	o, err := c.Store.Get(api.KindJob, api.Key{Namespace: "default", Name: "pi"})
	if err != nil {
		t.Fatal(err)
	}
	j := o.(*api.Job)
	if j.Status.CompletionTime == nil || j.Status.CompletionTime.Sub(j.CreationTimestamp.Time) != 11*time.Second {
		t.Fatalf("completionTime %v (created %v): want 11s after the start", j.Status.CompletionTime, j.CreationTimestamp)
	}
}
