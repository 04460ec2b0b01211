package kernel

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"testing/synctest"
)

// intBatch is a test batch: numbers in the order the producer put them.
type intBatch struct{ xs []int }

func resetInts(b *intBatch) { b.xs = b.xs[:0] }

func TestSinkOrder(t *testing.T) {
	for _, tc := range []struct {
		name         string
		items, batch int
		depth        int
		syncEvery    int // 0: once at the end
	}{
		{"nothing sent", 0, 4, 1, 0},
		{"one partial batch", 3, 4, 1, 0},
		{"whole batches", 64, 4, 1, 0},
		{"deep queue", 1000, 7, 8, 0},
		{"syncs between", 1000, 16, 2, 37},
		{"sync every item", 50, 16, 2, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []int
			s := NewSink(tc.depth, func(b *intBatch) { got = append(got, b.xs...) }, resetInts)
			for i := range tc.items {
				b := s.Batch()
				b.xs = append(b.xs, i)
				if len(b.xs) == tc.batch {
					s.Send()
				}
				if tc.syncEvery > 0 && (i+1)%tc.syncEvery == 0 {
					s.Sync()
					if len(got) != i+1 {
						t.Fatalf("after item %d and Sync the consumer has %d items", i, len(got))
					}
				}
			}
			s.Sync()
			want := make([]int, tc.items)
			for i := range want {
				want[i] = i
			}
			if !slices.Equal(got, want) {
				t.Fatalf("consumed %v, want 0..%d in order", got, tc.items-1)
			}
			s.Sync() // again, nothing new: returns at once
		})
	}
}

// TestSinkBounded: while the consumer is stuck, the producer gets depth
// batches queued beside the one being consumed and then waits in Send;
// the consumer's goroutine ends once the queue is empty.
func TestSinkBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const depth = 3
		release := make(chan struct{})
		var got []int
		s := NewSink(depth, func(b *intBatch) {
			if b.xs[0] == 0 {
				<-release
			}
			got = append(got, b.xs...)
		}, resetInts)
		sent := 0
		done := make(chan struct{})
		go func() {
			defer close(done)
			for i := range depth + 3 {
				s.Batch().xs = append(s.Batch().xs, i)
				s.Send()
				sent++
			}
			s.Sync()
		}()
		synctest.Wait()
		// One batch taken by the consumer, depth waiting: the next Send waits.
		if sent != depth+1 {
			t.Fatalf("with the consumer stuck, %d Sends returned; want %d", sent, depth+1)
		}
		close(release)
		<-done
		if !slices.Equal(got, []int{0, 1, 2, 3, 4, 5}) {
			t.Fatalf("consumed %v", got)
		}
		s.mu.Lock()
		running := s.running
		s.mu.Unlock()
		if running {
			t.Fatal("the consumer's goroutine runs on with nothing queued")
		}
		// synctest.Test fails if a goroutine of the bubble is left blocked.
	})
}

func TestSinkPanic(t *testing.T) {
	boom := errors.New("boom")
	var got []int
	s := NewSink(2, func(b *intBatch) {
		for _, x := range b.xs {
			if x == 5 {
				panic(boom)
			}
			got = append(got, x)
		}
	}, resetInts)
	func() {
		defer func() {
			v := recover()
			p, ok := v.(*SinkPanic)
			if !ok || p.Value != boom || len(p.Stack) == 0 {
				t.Fatalf("Send or Sync panicked with %#v; want a *SinkPanic carrying the consumer's value and stack", v)
			}
		}()
		// The panic comes back from the Send after it or from Sync.
		for i := range 10 {
			s.Batch().xs = append(s.Batch().xs, i)
			s.Send()
		}
		s.Sync()
		t.Fatal("Sync returned after the consumer panicked")
	}()
	func() {
		defer func() {
			if _, ok := recover().(*SinkPanic); !ok {
				t.Fatal("a second Sync after the panic did not panic again")
			}
		}()
		s.Sync()
	}()
	if !slices.Equal(got, []int{0, 1, 2, 3, 4}) {
		t.Fatalf("consumed %v before the panic; want 0..4 and nothing after", got)
	}
}

// TestPipe: a pipe's consumer gets every item put, in order, batch
// boundaries or not, once Sync returns.
func TestPipe(t *testing.T) {
	for _, tc := range []struct{ items, size int }{{0, 3}, {1, 3}, {3, 3}, {10, 3}, {1000, 64}, {5, 0}} {
		t.Run(fmt.Sprintf("%d items, batches of %d", tc.items, tc.size), func(t *testing.T) {
			var got []int
			p := NewPipe(tc.size, 2, func(v int) { got = append(got, v) })
			var want []int
			for i := range tc.items {
				p.Put(i)
				want = append(want, i)
			}
			p.Sync()
			if !slices.Equal(got, want) {
				t.Fatalf("consumed %v, want %v", got, want)
			}
		})
	}
}

// TestPipeSendsFullBatches: a batch goes to the consumer as soon as it
// holds size items, before any Sync; a partial one waits for Sync.
func TestPipeSendsFullBatches(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var got []int
		p := NewPipe(3, 2, func(v int) { got = append(got, v) })
		for i := range 4 {
			p.Put(i)
		}
		synctest.Wait()
		if !slices.Equal(got, []int{0, 1, 2}) {
			t.Fatalf("before Sync the consumer has %v, want the full batch 0..2", got)
		}
		p.Sync()
		if !slices.Equal(got, []int{0, 1, 2, 3}) {
			t.Fatalf("after Sync the consumer has %v", got)
		}
	})
}

// TestInlineSinks: while InlineSinks is on, a new sink consumes each
// batch on the producer's goroutine as it is sent: in order, and a
// consumer's panic is the producer's own, at that Send.
func TestInlineSinks(t *testing.T) {
	InlineSinks(true)
	defer InlineSinks(false)
	var got []int
	p := NewPipe(2, 1, func(v int) { got = append(got, v) })
	for i := range 5 {
		p.Put(i)
		if want := i + 1 - (i+1)%2; len(got) != want {
			t.Fatalf("after %d items put, the consumer has %v; want the %d of whole batches, at once", i+1, got, want)
		}
	}
	p.Sync()
	if !slices.Equal(got, []int{0, 1, 2, 3, 4}) {
		t.Fatalf("consumed %v", got)
	}
	calls := 0
	s := NewSink(1, func(*intBatch) { calls++; panic("boom") }, resetInts)
	if !s.Inline() {
		t.Fatal("a sink made while InlineSinks is on does not report itself inline")
	}
	s.Batch().xs = append(s.Batch().xs, 1)
	func() {
		defer func() {
			if v := recover(); v != "boom" {
				t.Fatalf("Send panicked with %#v; want the consumer's own \"boom\", at once", v)
			}
		}()
		s.Send()
	}()
	// The batch the consumer panicked on is dropped, as a goroutine's
	// would be: nothing is left to send.
	s.Sync()
	if calls != 1 || len(s.cur.xs) != 0 {
		t.Fatalf("after the panic, Sync consumed again (%d calls) or the batch kept %v", calls, s.cur.xs)
	}
	InlineSinks(false)
	if NewSink(1, func(*intBatch) {}, resetInts).Inline() {
		t.Fatal("a sink made after InlineSinks was turned off reports itself inline")
	}
	InlineSinks(true) // for the deferred off
}

// TestSyncNil: a sink or pipe its owner never made (nothing was ever
// sent) has nothing to wait for; its owner syncs without a check.
func TestSyncNil(t *testing.T) {
	var s *Sink[intBatch]
	s.Sync()
	var p *Pipe[int]
	p.Sync()
}

// TestInlineSinksFor: a pool of more than one worker makes its sinks
// inline until it undoes it; a pool of one leaves them beside the loop.
func TestInlineSinksFor(t *testing.T) {
	inline := func() bool { return NewSink(1, func(*intBatch) {}, resetInts).Inline() }
	for _, tc := range []struct {
		workers int
		want    bool
	}{{0, false}, {1, false}, {2, true}, {16, true}} {
		undo := InlineSinksFor(tc.workers)
		got := inline()
		undo()
		if got != tc.want {
			t.Errorf("InlineSinksFor(%d): sinks inline %v; want %v", tc.workers, got, tc.want)
		}
		if inline() {
			t.Errorf("InlineSinksFor(%d): sinks still inline after undo", tc.workers)
		}
	}
}
