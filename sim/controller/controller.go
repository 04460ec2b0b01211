package controller

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/informer"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/workqueue"
)

// Options configure a Controller.
type Options struct {
	// Workers is the number of worker processes, the most requests
	// reconciled at once (controller-runtime's MaxConcurrentReconciles);
	// 0 means 1.
	Workers int
	// RateLimiter decides retry delays; nil means the limiter Limits
	// describe.
	RateLimiter workqueue.RateLimiter[Request]
	// Limits are the controller's retry limits when RateLimiter is nil;
	// nil means workqueue.DefaultLimits (5ms·2^n per item, capped at
	// 1000s, and 10 qps with a burst of 100 overall), client-go's
	// default. A manager's ManagerOptions.QueueLimits override them.
	Limits *workqueue.Limits
	// Observer, if set, is told of every reconcile; nil means the
	// manager's observer, if any.
	Observer Observer
	// Priority, if set, makes the work queue hand out the ready request
	// of the highest priority first, requests of equal priority in the
	// order they were queued (workqueue.NewPriority); it is asked once
	// each time a request is queued. nil means a FIFO queue.
	Priority func(Request) int64
}

// limits returns the controller's own retry limits: Limits, or
// workqueue.DefaultLimits when it sets none.
func (o Options) limits() workqueue.Limits {
	if o.Limits != nil {
		return *o.Limits
	}
	return workqueue.DefaultLimits
}

// Observation is one finished reconcile, for measurement.
type Observation struct {
	// Controller is the controller's name.
	Controller string
	// Request is what was reconciled.
	Request Request
	// Result is what the reconciler returned.
	Result Result
	// Err is the reconciler's error; a recovered panic is an error too.
	Err error
	// Start and End are the virtual times the reconcile began and ended.
	Start, End time.Time
}

// Observer receives every reconcile of a controller, on the worker that
// ran it. It must not block.
type Observer func(o Observation)

// Metrics count a controller's work (controller-runtime's controller
// metrics).
type Metrics struct {
	// Reconciles counts finished reconciles, whatever their outcome.
	Reconciles uint64
	// Errors counts reconciles that returned an error (terminal ones and
	// recovered panics included).
	Errors uint64
	// TerminalErrors counts reconciles that returned a TerminalError,
	// which are not retried.
	TerminalErrors uint64
	// Requeues counts reconciles that asked to run again: Requeue or
	// RequeueAfter without an error.
	Requeues uint64
	// Panics counts reconciles that panicked (recovered into errors).
	Panics uint64
	// Queue is the work queue's counters.
	Queue workqueue.Metrics
}

// MapFunc maps an object an informer saw to the requests it should cause
// (controller-runtime's handler.MapFunc).
type MapFunc func(obj api.Object) []Request

// EnqueueObject maps an object to a request for itself
// (handler.EnqueueRequestForObject).
func EnqueueObject() MapFunc {
	return func(obj api.Object) []Request {
		return []Request{{Key: obj.GetObjectMeta().Key()}}
	}
}

// EnqueueOwner maps an object to a request for its controller owner, if
// that owner is of kind (handler.EnqueueRequestForOwner with
// OnlyControllerOwner): a Pod maps to its ReplicaSet. Owners live in the
// object's namespace.
func EnqueueOwner(kind api.Kind) MapFunc {
	return func(obj api.Object) []Request {
		m := obj.GetObjectMeta()
		for i := range m.OwnerReferences {
			r := &m.OwnerReferences[i]
			if r.Controller != nil && *r.Controller && r.Kind == kind.Name {
				return []Request{{Key: api.Key{Namespace: m.Namespace, Name: r.Name}}}
			}
		}
		return nil
	}
}

// Controller is a named control loop: a work queue of Requests, filled by
// informer handlers (Watch) or directly (Enqueue), drained by worker
// processes that call the Reconciler. A request is never reconciled by two
// workers at once. Workers start reconciling once every informer they
// depend on has synced.
type Controller struct {
	k    *kernel.Kernel
	name string
	// prefix names the worker processes: "<prefix>/worker-<i>".
	prefix  string
	r       Reconciler
	opts    Options
	ctx     context.Context
	q       *workqueue.Queue[Request]
	sources []*informer.Informer
	// synced, if set, is an extra wait before the first reconcile (the
	// manager's whole cache).
	synced  func(p *kernel.Process) bool
	workers []*kernel.Process
	started bool
	stopped bool
	metrics Metrics
}

// New returns a stopped controller named name running r. Controllers in a
// manager are made with Manager.NewController instead; New is for tests
// and benchmarks that drive a kernel themselves.
func New(k *kernel.Kernel, name string, r Reconciler, opts Options) *Controller {
	if opts.Workers <= 0 {
		opts.Workers = 1
	}
	if opts.RateLimiter == nil {
		opts.RateLimiter = workqueue.NewControllerRateLimiter[Request](k, opts.limits())
	}
	return &Controller{
		k:      k,
		name:   name,
		prefix: name,
		r:      r,
		opts:   opts,
		ctx:    context.Background(),
		q:      workqueue.NewPriority(k, opts.RateLimiter, opts.Priority),
	}
}

// Name returns the controller's name.
func (c *Controller) Name() string { return c.name }

// Metrics returns the controller's counters.
func (c *Controller) Metrics() Metrics {
	m := c.metrics
	m.Queue = c.q.Metrics()
	return m
}

// Watch makes every change inf reports enqueue the requests mapFn gives:
// for an add or delete, those of the object; for an update, those of the
// old and of the new object (a changed owner notifies both). Workers wait
// for inf to sync before their first reconcile.
func (c *Controller) Watch(inf *informer.Informer, mapFn MapFunc) {
	c.sources = append(c.sources, inf)
	inf.AddEventHandler(informer.HandlerFuncs{
		AddFunc: func(obj api.Object) { c.enqueueAll(mapFn(obj)) },
		UpdateFunc: func(old, obj api.Object) {
			if old != obj {
				c.enqueueAll(mapFn(old))
			}
			c.enqueueAll(mapFn(obj))
		},
		DeleteFunc: func(obj api.Object) { c.enqueueAll(mapFn(obj)) },
	})
}

func (c *Controller) enqueueAll(reqs []Request) {
	for _, r := range reqs {
		c.q.Add(r)
	}
}

// Enqueue adds req to the queue (a no-op if it is already waiting).
func (c *Controller) Enqueue(req Request) { c.q.Add(req) }

// EnqueueAfter adds req once d of virtual time has passed.
func (c *Controller) EnqueueAfter(req Request, d time.Duration) { c.q.AddAfter(req, d) }

// EnqueueRateLimited adds req after the queue's rate limiter's delay for
// it (client-go's AddRateLimited), as a reconciler that asks for its own
// retry from inside a sync does. A sync that then succeeds is forgotten
// by the limiter as usual, so the delay does not grow from one such sync
// to the next (upstream's Deployment controller, whose
// requeueStuckDeployment enqueues rate-limited and whose handleErr then
// forgets the key; Result.Requeue would back off instead).
func (c *Controller) EnqueueRateLimited(req Request) { c.q.AddRateLimited(req) }

// EnqueueBatched adds req batch later, so that what asks for req again
// meanwhile is the same sync (kube-controller-manager's
// --endpoint-updates-batch-period and the like); at once for a batch of
// 0, as Enqueue, which counts no retry as a delayed add does.
func (c *Controller) EnqueueBatched(req Request, batch time.Duration) {
	if batch > 0 {
		c.q.AddAfter(req, batch)
		return
	}
	c.q.Add(req)
}

// Start spawns the worker processes, named "<name>/worker-<i>" (in a
// manager, "<manager>/<name>/worker-<i>"). Starting a
// started or stopped controller does nothing.
func (c *Controller) Start() {
	if c.started || c.stopped {
		return
	}
	c.started = true
	for i := range c.opts.Workers {
		c.workers = append(c.workers, c.k.Spawn(c.prefix+"/worker-"+strconv.Itoa(i), c.work))
	}
}

// Stop crashes the controller: the queue is shut down and every worker is
// killed where it stands, in the middle of a reconcile or not.
func (c *Controller) Stop() {
	if c.stopped {
		return
	}
	c.stopped = true
	c.q.ShutDown()
	for _, w := range c.workers {
		w.Kill()
	}
}

// work is a worker process: wait for the caches, then reconcile requests
// until the queue shuts down.
func (c *Controller) work(p *kernel.Process) {
	for _, inf := range c.sources {
		if !inf.WaitForSync(p) {
			return
		}
	}
	if c.synced != nil && !c.synced(p) {
		return
	}
	for {
		req, shutdown := c.q.Get(p)
		if shutdown {
			return
		}
		c.handle(req)
	}
}

// handle reconciles one request and files it back into the queue as
// controller-runtime's reconcileHandler does.
func (c *Controller) handle(req Request) {
	start := c.k.Now()
	res, err := c.reconcile(req)
	end := c.k.Now()
	c.metrics.Reconciles++
	switch {
	case err != nil:
		c.metrics.Errors++
		if errors.Is(err, ErrTerminal) {
			c.metrics.TerminalErrors++
			c.q.Forget(req)
		} else {
			c.q.AddRateLimited(req)
		}
	case res.RequeueAfter > 0:
		c.metrics.Requeues++
		c.q.Forget(req)
		c.q.AddAfter(req, res.RequeueAfter)
	case res.Requeue:
		c.metrics.Requeues++
		c.q.AddRateLimited(req)
	default:
		c.q.Forget(req)
	}
	if c.opts.Observer != nil {
		c.opts.Observer(Observation{
			Controller: c.name, Request: req, Result: res, Err: err,
			Start: start.Wall(), End: end.Wall(),
		})
	}
	c.q.Done(req)
}

// reconcile calls the reconciler, turning a panic into an error
// (controller-runtime's RecoverPanic). The kernel's kill sentinel is not a
// panic of the reconciler: it is re-raised so the worker dies.
func (c *Controller) reconcile(req Request) (res Result, err error) {
	defer func() {
		if v := recover(); v != nil {
			if kernel.IsKill(v) {
				panic(v)
			}
			c.metrics.Panics++
			res, err = Result{}, &PanicError{Controller: c.name, Request: req, Value: v, Frames: panicFrames(3)}
		}
	}()
	return c.r.Reconcile(c.ctx, req)
}
