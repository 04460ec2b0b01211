package nodelifecycle

import (
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apiserver"
)

// TestNodeWritesNotRetried: upstream's node queue (nodeUpdateQueue) has no
// rate limiter, and doNodeProcessingPassWorker logs a failed NoSchedule
// tainting or label reconcile ("requeue it", the requeue a TODO) and
// drops the node until its next update. With writes to nodes forbidden,
// a node whose beta labels lag its stable ones is tried once in a
// virtual minute, not retried with a backoff (which tried it 14 times).
func TestNodeWritesNotRetried(t *testing.T) {
	c, _ := startMonitor(t)
	c.API.SetRules([]apiserver.Rule{
		{Actors: []string{Actor}, Verbs: []string{"get", "list", "watch"}, Resources: []string{"*", "*/*"}},
		{Actors: []string{"system:admin"}, Verbs: []string{"*"}, Resources: []string{"*", "*/*"}},
	})
	n := &api.Node{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Node"}, ObjectMeta: api.ObjectMeta{Name: "node0", Labels: map[string]string{LabelOSStable: "linux"}}}
	if err := c.Bootstrap(n); err != nil {
		t.Fatal(err)
	}
	c.RunFor(time.Minute)
	var writes uint64
	for _, s := range c.API.Stats() {
		if s.Actor == Actor && s.Kind == api.KindNode && (s.Verb == apiserver.Update || s.Verb == apiserver.Patch) {
			writes += s.Count
		}
	}
	if writes != 1 {
		t.Errorf("the node controller wrote the node %d times in a minute with its writes forbidden; want 1 (no retry)", writes)
	}
	if got := storedNode(t, c, "node0").Labels[labelOSBeta]; got != "" {
		t.Errorf("beta OS label %q set through a forbidden write", got)
	}
}
