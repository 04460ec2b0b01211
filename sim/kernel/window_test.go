package kernel

import (
	"bytes"
	"runtime/pprof"
	"strings"
	"testing"
	"time"
)

// labelsHere returns the profiler labels of the goroutine that calls it,
// as the goroutine profile prints them ("" for none): the block of that
// profile whose stack holds labelsHere and the caller named by marker.
func labelsHere(t *testing.T, marker string) string {
	t.Helper()
	var buf bytes.Buffer
	if err := pprof.Lookup("goroutine").WriteTo(&buf, 1); err != nil {
		t.Fatal(err)
	}
	for _, block := range strings.Split(buf.String(), "\n\n") {
		if !strings.Contains(block, "kernel.labelsHere") || !strings.Contains(block, marker) {
			continue
		}
		for _, line := range strings.Split(block, "\n") {
			if l, ok := strings.CutPrefix(line, "# labels: "); ok {
				return l
			}
		}
		return ""
	}
	t.Fatalf("no goroutine calling labelsHere from %s in the goroutine profile:\n%s", marker, buf.String())
	return ""
}

func onLoop(t *testing.T) string    { return labelsHere(t, "kernel.onLoop") }
func inProcess(t *testing.T) string { return labelsHere(t, "kernel.inProcess") }
func inSink(t *testing.T) string    { return labelsHere(t, "kernel.inSink") }

// TestProfileWindowLabels runs events, a process and a sink's consumer
// under 5-minute profile windows: the event loop's work and the
// process's carry the window of the virtual time they run at, the sink's
// consumer and the goroutine that called Run after it returns carry none,
// and with no window nothing is labelled.
func TestProfileWindowLabels(t *testing.T) {
	const five = `{"virtual":"00:05:00"}`
	tests := []struct {
		name    string
		window  time.Duration
		loop    string // an event at 7m
		start   string // the process at 0
		woken   string // the process after sleeping to 12m
		late    string // an event at 1h3m
		edge    string // an event at 10m, where a window starts
		sink    string
		afterRn string
	}{
		{"5-minute windows", 5 * time.Minute, five, `{"virtual":"00:00:00"}`, `{"virtual":"00:10:00"}`, `{"virtual":"01:00:00"}`, `{"virtual":"00:10:00"}`, "", ""},
		{"off", 0, "", "", "", "", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := New(1)
			k.SetProfileWindow(tt.window)
			if got := k.ProfileWindow(); got != tt.window {
				t.Fatalf("ProfileWindow() = %v after SetProfileWindow(%v)", got, tt.window)
			}
			var loop, start, woken, late, edge, sink string
			type batch struct{ n int }
			s := NewSink(1, func(*batch) { sink = inSink(t) }, func(b *batch) { b.n = 0 })
			k.Schedule(Time(7*time.Minute), Func(func() {
				loop = onLoop(t)
				s.Batch().n++
				s.Send()
				s.Sync()
			}), 0)
			k.Spawn("p", func(p *Process) {
				start = inProcess(t)
				p.Sleep(12 * time.Minute)
				woken = inProcess(t)
			})
			k.Schedule(Time(63*time.Minute), Func(func() { late = onLoop(t) }), 0)
			k.Schedule(Time(10*time.Minute), Func(func() { edge = onLoop(t) }), 0)
			if r := k.Run(Limits{}); r != Quiescent {
				t.Fatalf("Run = %v", r)
			}
			for _, c := range []struct{ what, got, want string }{
				{"event at 7m", loop, tt.loop},
				{"process at 0", start, tt.start},
				{"process at 12m", woken, tt.woken},
				{"event at 1h3m", late, tt.late},
				{"event at 10m", edge, tt.edge},
				{"sink consumer", sink, tt.sink},
				{"after Run", onLoop(t), tt.afterRn},
			} {
				if c.got != c.want {
					t.Errorf("%s: labels %q, want %q", c.what, c.got, c.want)
				}
			}
		})
	}
}

func TestWindowLabel(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{0, "00:00:00"},
		{5 * time.Minute, "00:05:00"},
		{90 * time.Second, "00:01:30"},
		{25*time.Hour + 5*time.Minute, "25:05:00"},
	} {
		if got := windowLabel(c.d); got != c.want {
			t.Errorf("windowLabel(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}
