package kubelet

import (
	"strconv"
	"strings"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
)

// MinimumGracePeriod is the shortest time between SIGTERM and SIGKILL the
// kubelet ever gives a container, even after a preStop hook used up the
// grace period: 2s (k/k pkg/kubelet/kuberuntime/kuberuntime_manager.go
// minimumGracePeriodInSeconds, applied in kuberuntime_container.go
// killContainer).
const MinimumGracePeriod = 2 * time.Second

// DefaultStopTime is how long a container of an image that reacts to
// SIGTERM and says nothing more takes to exit: 100ms.
const DefaultStopTime = 100 * time.Millisecond

// preStop is a container's preStop hook as the simulation runs it.
type preStop struct {
	// set: the container has a preStop hook.
	set bool
	// d is how long the hook runs: a sleep action's seconds, an exec of
	// "sleep N" (directly or through "sh -c"), else 0 (an httpGet or
	// another command is taken to return at once).
	d time.Duration
	// modelled: the hook's duration is known (sleep); false for hooks
	// taken to return at once.
	modelled bool
}

// preStopOf reads the preStop hook of c's lifecycle.
func preStopOf(c *api.Container) preStop {
	h, ok := c.Hooks()
	if !ok || h.PreStop == nil {
		return preStop{}
	}
	p := h.PreStop
	switch {
	case p.Sleep != nil:
		return preStop{set: true, d: api.SecondsDuration(max(0, p.Sleep.Seconds)), modelled: true}
	case p.Exec != nil:
		if d, ok := sleepCommand(p.Exec.Command); ok {
			return preStop{set: true, d: d, modelled: true}
		}
	}
	return preStop{set: true}
}

// sleepCommand recognises ["sleep", "N"] and ["sh"|"/bin/sh"|"bash"|...,
// "-c", "sleep N"] and returns N seconds (N may have a fraction).
func sleepCommand(cmd []string) (time.Duration, bool) {
	if len(cmd) == 3 && (cmd[1] == "-c" || cmd[1] == "-ec") && strings.HasSuffix(cmd[0], "sh") {
		cmd = strings.Fields(cmd[2])
	}
	if len(cmd) != 2 || (cmd[0] != "sleep" && cmd[0] != "/bin/sleep" && cmd[0] != "/usr/bin/sleep") {
		return 0, false
	}
	s, err := strconv.ParseFloat(strings.TrimSuffix(cmd[1], "s"), 64)
	if err != nil || s < 0 || s > 1e6 {
		return 0, false
	}
	return time.Duration(s * float64(time.Second)), true
}

// stopPlan is when a container asked to stop at start with grace period
// grace exits, and with what code, as killContainer does it: the preStop
// hook runs first (for at most the grace period, and not at all when the
// grace period is 0), what is left of the grace period after it (counted
// in whole seconds, as upstream) but at least MinimumGracePeriod is the
// time between SIGTERM and SIGKILL. A container whose image reacts to
// SIGTERM exits with 0 after its stop time if that comes first; one that
// ignores it is killed with 137 when the time is up.
func (c *cstate) stopPlan(start kernel.Time, grace time.Duration) (at kernel.Time, code int32) {
	grace = max(0, grace)
	sigterm := start
	if h := preStopOf(c.spec); h.set && grace > 0 {
		ran := min(h.d, grace)
		sigterm = start.Add(ran)
		grace -= ran.Truncate(time.Second)
	}
	grace = max(grace, MinimumGracePeriod)
	kill := sigterm.Add(grace)
	if c.res != nil && !c.res.image.IgnoresSigterm {
		stop := c.res.image.StopTime
		if stop <= 0 {
			stop = DefaultStopTime
		}
		if exit := sigterm.Add(stop); exit < kill {
			return exit, 0
		}
	}
	return kill, 137
}
