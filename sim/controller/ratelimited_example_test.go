package controller_test

import (
	"context"
	"fmt"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/kernel"
)

// A reconciler that must look again soon, without an error, enqueues
// its own request rate-limited and returns success, as upstream's
// Deployment controller does for a rollout past its progress deadline:
// the success forgets the request, so each retry waits the limiter's
// first step (5 ms) again rather than twice the last (Result.Requeue
// would back off: 5, 10, 20 ms ...).
func ExampleController_EnqueueRateLimited() {
	k := kernel.New(1)
	var c *controller.Controller
	syncs := 0
	r := controller.ReconcilerFunc(func(_ context.Context, req controller.Request) (controller.Result, error) {
		syncs++
		fmt.Printf("sync %d at %v\n", syncs, k.Now().Duration())
		if syncs < 4 {
			c.EnqueueRateLimited(req) // not done yet: look again soon
		}
		return controller.Result{}, nil
	})
	c = controller.New(k, "progress", r, controller.Options{})
	c.Start()
	c.Enqueue(controller.Request{Key: api.Key{Namespace: "default", Name: "web"}})
	k.Run(kernel.Limits{Until: kernel.Time(time.Second)})
	// Output:
	// sync 1 at 0s
	// sync 2 at 5ms
	// sync 3 at 10ms
	// sync 4 at 15ms
}
