package runner

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/kubectl"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/kernel"
)

// scheduleTimeline puts every step on the kernel's clock. Steps at one
// time run in file order.
func (r *run) scheduleTimeline(until time.Duration) {
	for i := range r.s.Spec.Timeline {
		st := &r.s.Spec.Timeline[i]
		if st.At.Duration > until {
			continue
		}
		r.c.At(st.At.Duration, func() { r.step(i, st) })
	}
}

// step performs one timeline step at its time.
func (r *run) step(i int, st *scenarios.Step) {
	switch {
	case st.Get != nil, st.Describe != nil, st.Events != nil:
		r.record(r.observe(st))
	case st.RolloutStatus != nil:
		r.rolloutStatus(i, st)
	case st.RolloutHistory != nil:
		r.rolloutHistory(i, st)
	case st.Writes != nil:
		kind, key := r.objectKey(st.Writes.ObjectRef)
		r.record(Entry{At: st.At.Duration, Observation: true, Command: fmt.Sprintf("audit log: writes to %s of %s/%s", st.Writes.Path, typed(kind), key.Name), Lines: r.fieldWrites(kind, key, st.Writes.Path)})
	case st.AppStatus != "":
		r.record(Entry{At: st.At.Duration, Observation: true, Command: "argocd app get " + st.AppStatus, Lines: r.appStatus(st.AppStatus)})
	case st.IaCState:
		r.record(Entry{At: st.At.Duration, Observation: true, Command: "terraform show   # runs and state so far", Lines: r.iacState()})
	case st.StopKubelet != "":
		r.record(Entry{At: st.At.Duration, Command: "kubelet on " + st.StopKubelet + " hangs", Lines: r.nodes.stop(st.StopKubelet)})
	case st.CrashNodes != "":
		r.record(Entry{At: st.At.Duration, Command: "crash nodes " + st.CrashNodes, Lines: r.nodes.crashMatching(st.CrashNodes)})
	case st.CrashNode != "":
		r.record(Entry{At: st.At.Duration, Command: "crash node " + st.CrashNode, Lines: r.nodes.crash(st.CrashNode)})
	case st.RecoverNode != "":
		r.record(Entry{At: st.At.Duration, Command: "recover node " + st.RecoverNode, Lines: r.nodes.recover(st.RecoverNode)})
	case st.AddNodes != nil:
		lines, err := r.nodes.add(st.AddNodes.Group, st.AddNodes.Count)
		e := Entry{At: st.At.Duration, Command: fmt.Sprintf("add %d node(s) to group %s", st.AddNodes.Count, st.AddNodes.Group), Lines: lines}
		if err != nil {
			e.Err = "error: " + err.Error()
		} else if err := r.applyLinkRules(); err != nil {
			e.Err = "error: " + err.Error()
		} else if err := r.extendPartitions(); err != nil {
			e.Err = "error: " + err.Error()
		} else if err := r.applyLinks(); err != nil {
			e.Err = "error: " + err.Error()
		}
		r.record(e)
	case st.Partition != nil:
		p := st.Partition
		a, b := r.addrs(p.A), r.addrs(p.B)
		e := Entry{At: st.At.Duration, Command: fmt.Sprintf("partition %s: %v %s %v", p.Name, a, arrow(p.OneWay), b)}
		if err := r.c.Net.Partition(p.Name, a, b, p.OneWay); err != nil {
			e.Err = "error: " + err.Error()
		} else {
			if r.partitions == nil {
				r.partitions = map[string]*partitionInPlace{}
			}
			r.partitions[p.Name] = &partitionInPlace{spec: p, size: len(a) + len(b)}
		}
		r.record(e)
	case st.Network != nil:
		r.startNetChange(st)
	case st.Heal != "":
		e := Entry{At: st.At.Duration, Command: "heal partition " + st.Heal}
		if err := r.c.Net.Heal(st.Heal); err != nil {
			e.Err = "error: " + err.Error()
		}
		delete(r.partitions, st.Heal)
		r.record(e)
	case st.CrashController != "":
		e := Entry{At: st.At.Duration, Command: "crash controller " + st.CrashController + r.wholeProcess(st.CrashController)}
		if m := r.managers[st.CrashController]; m != nil && m.Running() {
			m.Crash()
		} else {
			e.Err = fmt.Sprintf("error: controller %s is not running", st.CrashController)
		}
		r.record(e)
	case st.RestartController != "":
		e := Entry{At: st.At.Duration, Command: "restart controller " + st.RestartController + r.wholeProcess(st.RestartController)}
		if m := r.managers[st.RestartController]; m == nil {
			e.Err = fmt.Sprintf("error: no controller %s", st.RestartController)
		} else if err := m.Restart(); err != nil {
			e.Err = "error: " + err.Error()
		}
		r.record(e)
	case st.APIServerDown:
		r.c.API.SetAvailable(false)
		r.record(Entry{At: st.At.Duration, Command: "API server down (every request gets 503)"})
	case st.APIServerUp:
		r.c.API.SetAvailable(true)
		r.record(Entry{At: st.At.Duration, Command: "API server up"})
	case st.Increment != nil:
		cmd, fn, final := r.increment(st.Increment, userName(st.As), r.writerWindow(i))
		r.userRunWith(i, st, cmd, fn, final)
	case st.Command != nil:
		cmd, fn, final := r.command(st.Command, userName(st.As), r.writerWindow(i))
		r.userRunWith(i, st, cmd, fn, final)
	case st.Request != nil:
		r.request(i, st)
	default:
		r.userAction(i, st)
	}
}

// window is a span of virtual time, [from, until); until 0: to the
// end of the run.
type window struct{ from, until time.Duration }

// writerWindow is when the writes of step i, a command or an increment,
// can land: from its start to the start of the next command or
// increment by the same user (whose writes the audit log cannot tell
// apart from this one's), or the end of the run.
func (r *run) writerWindow(i int) window {
	tl := r.s.Spec.Timeline
	w := window{from: tl[i].At.Duration}
	for j := range tl {
		st := &tl[j]
		if j == i || st.At.Duration <= w.from || userName(st.As) != userName(tl[i].As) || (st.Command == nil && st.Increment == nil) {
			continue
		}
		if w.until == 0 || st.At.Duration < w.until {
			w.until = st.At.Duration
		}
	}
	return w
}

func arrow(oneWay bool) string {
	if oneWay {
		return "-/->"
	}
	return "<-/->"
}

// userAction runs a kubectl command as the step's user.
func (r *run) userAction(i int, st *scenarios.Step) {
	cmd, fn := r.kubectl(st)
	r.userRun(i, st, cmd, fn)
}

// userRun runs fn, the step's command line cmd, as the step's user, in a
// process of its own: its requests cross the network and may time out,
// and its output is recorded when it finishes.
func (r *run) userRun(i int, st *scenarios.Step, cmd string, fn action) {
	r.userRunWith(i, st, cmd, fn, nil)
}

// userRunWith is userRun with final, when not nil, adding lines to the
// output once the run is over (what the store shows the command did).
func (r *run) userRunWith(i int, st *scenarios.Step, cmd string, fn action, final func() []string) {
	cl := r.user(st.As)
	at := st.At.Duration
	u := &unfinished{step: i, at: at, cmd: cmd}
	r.unfinished = append(r.unfinished, u)
	r.c.Go(fmt.Sprintf("user/%s/step-%d", userName(st.As), i), func(p *kernel.Process) {
		lines, err := fn(context.Background(), cl)
		u.finished = true
		e := Entry{At: at, Command: cmd, Lines: lines, final: final}
		if err != nil {
			e.Err = kubectl.ErrorLine(err)
		}
		r.record(e)
	})
}

// unfinished is a user command started in a process of its own.
type unfinished struct {
	step     int
	at       time.Duration
	cmd      string
	finished bool
}

// progress returns where a long-running command (a drain retrying its
// evictions) prints as it goes, so that the run's end can show it.
func (r *run) progress(st *scenarios.Step) *[]string {
	if r.outputs == nil {
		r.outputs = map[*scenarios.Step]*[]string{}
	}
	out := new([]string)
	r.outputs[st] = out
	return out
}

// recordUnfinished records the commands still running when the run ends
// that print as they go, with what they printed so far.
func (r *run) recordUnfinished() {
	for _, u := range r.unfinished {
		if u.finished {
			continue
		}
		out := r.outputs[&r.s.Spec.Timeline[u.step]]
		if out == nil {
			continue
		}
		r.record(Entry{At: u.at, Command: u.cmd, Lines: slices.Clone(*out),
			Err: fmt.Sprintf("(still running when the run ended at %s)", clock(r.c.K.Now().Duration()))})
	}
}

func userName(as string) string {
	if as == "" {
		return "admin"
	}
	return as
}

// action is a kubectl command bound to its arguments.
type action func(ctx context.Context, c client.Client) ([]string, error)

// extendPartitions applies the partitions in place to the endpoints that
// joined since they were made (the kubelets of added nodes), as a network
// cut does: each whose sides now match more endpoints is made again with
// them.
func (r *run) extendPartitions() error {
	for _, name := range slices.Sorted(maps.Keys(r.partitions)) {
		p := r.partitions[name]
		a, b := r.addrs(p.spec.A), r.addrs(p.spec.B)
		if p.size == len(a)+len(b) {
			continue
		}
		p.size = len(a) + len(b)
		if err := r.c.Net.Heal(name); err != nil {
			return err
		}
		if err := r.c.Net.Partition(name, a, b, p.spec.OneWay); err != nil {
			return err
		}
	}
	return nil
}

// partitionInPlace is a partition step in force and how many endpoints
// its sides held when last made.
type partitionInPlace struct {
	spec *scenarios.Partition
	size int
}
