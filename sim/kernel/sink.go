package kernel

import (
	"context"
	"fmt"
	"runtime/debug"
	"runtime/pprof"
	"sync"
	"sync/atomic"
)

// inlineSinks makes the sinks created while it is set consume on the
// producer's goroutine (InlineSinks).
var inlineSinks atomic.Int32

// InlineSinks makes the Sinks and Pipes created from now on, while on,
// consume each batch on the producer's goroutine as it is sent, with no
// goroutine beside it; off undoes one on (calls nest). A process that
// already runs a simulation on every processor (cmd/'s worker pool for
// --seeds, a harness swarm) gains nothing from a goroutine beside each
// event loop and pays its switches: `clustersim run --seeds 200` of a
// 20-node scenario took 4.18-4.28 s with them against 4.01-4.02 s before
// sinks existed. What a consumer builds is the same either way.
func InlineSinks(on bool) {
	if on {
		inlineSinks.Add(1)
	} else {
		inlineSinks.Add(-1)
	}
}

// InlineSinksFor is InlineSinks for a pool that runs workers simulations
// at once: on when there is more than one (each already has a processor
// of its own to keep busy), and the function that undoes it; for one
// worker it changes nothing. A pool calls `defer
// kernel.InlineSinksFor(workers)()`.
func InlineSinksFor(workers int) (undo func()) {
	if workers <= 1 {
		return func() {}
	}
	InlineSinks(true)
	return func() { InlineSinks(false) }
}

// Sink hands batches of a simulation's records to a consumer that runs
// on a goroutine of its own, so that on a machine with a second
// processor the work that only records what happened (rendering and
// hashing a trace, compacting a log) overlaps the event loop instead of
// adding to it.
//
// The producer (the event loop) fills the batch Batch returns and hands
// it over with Send; the consumer takes the batches one at a time, in
// the order sent. Sync hands over the batch being filled and waits until
// the consumer has taken every batch sent, so that the producer may then
// read what the consumer built. The consumer's state must be read only
// after Sync, and the consumer must not touch the simulation: then what
// it builds is the same on every machine and at every GOMAXPROCS, as if
// the producer had consumed each batch itself.
//
// No goroutine outlives its work: one starts when a batch is sent to an
// idle consumer and ends when no batch is left, so a sink that is
// dropped holds nothing. At most depth batches wait: Send blocks while
// that many do, which bounds the memory a fast producer can queue.
//
// A panic in the consumer is kept and raised again, with the consumer's
// stack, by the producer's next Send or Sync; the batches after it are
// dropped. A sink made while InlineSinks is on has no goroutine: Send
// consumes, and a consumer's panic is Send's own.
type Sink[B any] struct {
	consume func(*B)
	reset   func(*B)
	depth   int
	inline  bool // InlineSinks was on at NewSink: Send consumes

	cur    *B   // the producer's: filled between Sends
	filled bool // Batch was called since the last Send

	mu      sync.Mutex
	cond    sync.Cond
	queue   []*B // sent, not yet taken
	free    []*B // consumed and reset, for the producer to fill again
	running bool // a goroutine is consuming
	failed  *SinkPanic
}

// SinkPanic is the value Send and Sync panic with after the consumer
// panicked: its value and its stack.
type SinkPanic struct {
	Value any
	Stack []byte
}

// Error formats the panic with the consumer's stack.
func (p *SinkPanic) Error() string {
	return fmt.Sprintf("sink consumer panicked: %v\n%s", p.Value, p.Stack)
}

// NewSink returns a sink whose batches consume takes and reset empties
// (keeping their buffers) before the producer fills them again. depth is
// how many sent batches may wait for the consumer (at least 1).
func NewSink[B any](depth int, consume, reset func(*B)) *Sink[B] {
	s := &Sink[B]{consume: consume, reset: reset, depth: max(depth, 1), inline: inlineSinks.Load() > 0}
	s.cond.L = &s.mu
	s.cur = new(B)
	return s
}

// Inline reports whether s consumes each batch on the producer's
// goroutine as it is sent: it was made while InlineSinks was on.
func (s *Sink[B]) Inline() bool { return s.inline }

// Batch returns the batch the producer is filling. Whatever the producer
// puts in it is the consumer's once sent: the producer must not keep
// pointers into it.
func (s *Sink[B]) Batch() *B {
	s.filled = true
	return s.cur
}

// Send hands the batch being filled to the consumer and starts a new
// one. It waits while depth batches wait already.
func (s *Sink[B]) Send() {
	if !s.filled {
		return
	}
	if s.inline {
		// A panicking consumer's batch is dropped, as the goroutine's is.
		s.filled = false
		defer s.reset(s.cur)
		s.consume(s.cur)
		return
	}
	s.mu.Lock()
	for len(s.queue) >= s.depth && s.failed == nil {
		s.cond.Wait()
	}
	if p := s.failed; p != nil {
		s.mu.Unlock()
		panic(p)
	}
	s.queue = append(s.queue, s.cur)
	if !s.running {
		s.running = true
		go s.drain()
	}
	if n := len(s.free); n > 0 {
		s.cur, s.free[n-1] = s.free[n-1], nil
		s.free = s.free[:n-1]
	} else {
		s.cur = new(B)
	}
	s.filled = false
	s.mu.Unlock()
}

// Sync sends the batch being filled and waits until the consumer has
// taken every batch sent. After it returns, and until the next Send, the
// consumer's state is the producer's to read. A nil sink (one its owner
// never made, nothing having been sent) has nothing to wait for.
func (s *Sink[B]) Sync() {
	if s == nil {
		return
	}
	s.Send()
	s.mu.Lock()
	for s.running {
		s.cond.Wait()
	}
	p := s.failed
	s.mu.Unlock()
	if p != nil {
		panic(p)
	}
}

// drain consumes the queued batches in order and ends when none is left.
func (s *Sink[B]) drain() {
	// The goroutine starts with the labels of the one that sent the
	// batch, the simulation's: its work is not the simulation's (see
	// Kernel.SetProfileWindow).
	pprof.SetGoroutineLabels(context.Background())
	for {
		s.mu.Lock()
		if len(s.queue) == 0 || s.failed != nil {
			s.queue = s.queue[:0]
			s.running = false
			s.cond.Broadcast()
			s.mu.Unlock()
			return
		}
		b := s.queue[0]
		copy(s.queue, s.queue[1:])
		s.queue[len(s.queue)-1] = nil
		s.queue = s.queue[:len(s.queue)-1]
		s.cond.Broadcast()
		s.mu.Unlock()

		if p := s.consumeOne(b); p != nil {
			s.mu.Lock()
			s.failed = p
			s.mu.Unlock()
			continue
		}
		s.reset(b)
		s.mu.Lock()
		s.free = append(s.free, b)
		s.mu.Unlock()
	}
}

// consumeOne runs the consumer on b, catching its panic.
func (s *Sink[B]) consumeOne(b *B) (p *SinkPanic) {
	defer func() {
		if v := recover(); v != nil {
			p = &SinkPanic{Value: v, Stack: debug.Stack()}
		}
	}()
	s.consume(b)
	return nil
}

// Pipe is a Sink whose batches are slices of one item type, sent once
// they hold size items: for a producer that hands over one record at a
// time and a consumer that takes them one at a time.
type Pipe[T any] struct {
	sink *Sink[[]T]
	size int
}

// NewPipe returns a pipe that calls consume with each item put, in
// order, on the sink's goroutine; size is how many items a batch holds
// before it is sent, depth as NewSink's.
func NewPipe[T any](size, depth int, consume func(T)) *Pipe[T] {
	p := &Pipe[T]{size: max(size, 1)}
	p.sink = NewSink(depth, func(b *[]T) {
		for _, v := range *b {
			consume(v)
		}
	}, func(b *[]T) {
		clear(*b)
		*b = (*b)[:0]
	})
	return p
}

// Put hands v to the consumer, in a batch sent once full.
func (p *Pipe[T]) Put(v T) {
	b := p.sink.Batch()
	*b = append(*b, v)
	if len(*b) >= p.size {
		p.sink.Send()
	}
}

// Sync is the sink's Sync: every item put so far has been consumed when
// it returns. A nil pipe has nothing to wait for.
func (p *Pipe[T]) Sync() {
	if p != nil {
		p.sink.Sync()
	}
}
