// Package workqueue is client-go's util/workqueue on virtual time: a
// de-duplicating FIFO of keys for controllers whose workers are kernel
// processes, with a delaying queue (AddAfter) and per-item rate limiting
// (AddRateLimited, Forget, NumRequeues).
//
// It reproduces client-go's semantics (k8s.io/client-go/util/workqueue,
// queue.go, delaying_queue.go, rate_limiting_queue.go and
// default_rate_limiters.go):
//
//   - an item is never queued twice: Add of an item that is already waiting
//     to be processed does nothing;
//   - an item handed out by Get is never handed to a second worker before
//     Done; an Add while it is being processed marks it dirty and Done puts
//     it back at the tail of the queue;
//   - otherwise items come out in the order they were added, and Get blocks
//     the calling process while the queue is empty; a queue made with
//     NewPriority hands out the highest priority first instead, items of
//     equal priority in the order they were added (kube-scheduler's active
//     queue, not a client-go queue);
//   - after ShutDown, Add and AddAfter are ignored and delayed items are
//     dropped, but items already queued are still handed out; Get reports
//     shutdown only once the queue is empty;
//   - AddAfter keeps one pending entry per item, at the earliest ready time
//     asked for.
//
// The rate limiters (ItemExponentialFailureRateLimiter, BucketRateLimiter,
// ItemFastSlowRateLimiter, MaxOfRateLimiter, WithMaxWaitRateLimiter and
// DefaultControllerRateLimiter) compute the same delays as client-go's; the
// token bucket reproduces golang.org/x/time/rate's Reserve().Delay() on the
// virtual clock.
//
// The package imports the kernel and the standard library only. It must not
// import the API types, the store, the network or any controller: it knows
// keys, not objects.
//
// Determinism contract: the queue never reads the wall clock, starts no
// goroutine and draws no random number. Waiting workers are woken in the
// order they began to wait (kernel.WaitList); delayed items become ready in
// (ready time, order of the AddAfter call that set that time), driven by a
// single re-armed kernel event. Go maps hold only membership and per-item
// counters and are never iterated, so no outcome depends on map order. A
// Queue is not safe for concurrent use; like everything on a kernel it is
// touched by one process or event at a time.
//
// Crash safety: a worker killed while blocked in Get is never handed an
// item, because Get never hands items over; a woken worker takes the head
// of the queue itself when it runs. If a worker that was woken for an item
// is killed before it runs, its unwinding passes the wake-up on to the next
// waiting worker, so the item is neither lost nor left waiting for the next
// Add.
package workqueue
