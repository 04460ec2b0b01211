package client

import (
	"fmt"
	"time"

	"github.com/clustersim/clustersim/sim/kernel"
)

// PassiveClock reads the time (k8s.io/utils/clock's PassiveClock): the
// smallest clock a controller may ask for.
type PassiveClock interface {
	// Now returns the current virtual time as a wall-clock instant
	// (kernel.Epoch plus the virtual time elapsed).
	Now() time.Time
	// Since returns Now() - t.
	Since(t time.Time) time.Duration
}

// Clock is a PassiveClock that can also block the calling process
// (k8s.io/utils/clock's Clock, reduced to Sleep). Controllers take time
// from a Clock and never call time.Now or time.Sleep.
type Clock interface {
	PassiveClock
	// Sleep blocks the calling process for d of virtual time. It must be
	// called from a process (a worker or runnable), never from an event
	// handler.
	Sleep(d time.Duration)
}

// kernelClock is the Clock of a kernel.
type kernelClock struct {
	k *kernel.Kernel
}

// NewClock returns the Clock of kernel k.
func NewClock(k *kernel.Kernel) Clock { return kernelClock{k: k} }

// Now returns the kernel's time as a wall-clock instant.
func (c kernelClock) Now() time.Time { return c.k.Now().Wall() }

// Since returns the virtual time elapsed since t.
func (c kernelClock) Since(t time.Time) time.Duration { return c.k.Now().Wall().Sub(t) }

// Sleep blocks the running process for d of virtual time.
func (c kernelClock) Sleep(d time.Duration) {
	p := c.k.Current()
	if p == nil {
		panic(fmt.Sprintf("client invariant in-process: Clock.Sleep(%v) called outside a kernel process", d))
	}
	p.Sleep(d)
}
