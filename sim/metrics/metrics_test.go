package metrics

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/store"
)

func TestLoads(t *testing.T) {
	steps, err := NewSteps(Point{0, 0}, Point{time.Minute, 700}, Point{10 * time.Minute, 100})
	if err != nil {
		t.Fatal(err)
	}
	late, _ := NewSteps(Point{30 * time.Second, 5})
	ramp, err := NewRamp(Point{time.Minute, 0}, Point{2 * time.Minute, 600}, Point{3 * time.Minute, 600})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		load Load
		at   time.Duration
		want float64
	}{
		{"constant", Constant(42), time.Hour, 42},
		{"negative constant is 0", Constant(-3), 0, 0},
		{"steps: first step", steps, 59 * time.Second, 0},
		{"steps: at a step", steps, time.Minute, 700},
		{"steps: between", steps, 9 * time.Minute, 700},
		{"steps: last", steps, time.Hour, 100},
		{"steps: before the first point is 0", late, 29 * time.Second, 0},
		{"ramp: before the first point holds it", ramp, 0, 0},
		{"ramp: midway", ramp, 90 * time.Second, 300},
		{"ramp: a quarter", ramp, 75 * time.Second, 150},
		{"ramp: flat", ramp, 150 * time.Second, 600},
		{"ramp: after the last point holds it", ramp, time.Hour, 600},
		{"empty ramp", Ramp(nil), time.Minute, 0},
		{"empty steps", Steps(nil), time.Minute, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.load.RPS(tc.at); math.Abs(got-tc.want) > 1e-9 {
				t.Errorf("RPS(%v) = %v, want %v", tc.at, got, tc.want)
			}
		})
	}
}

func TestInvalidPoints(t *testing.T) {
	cases := []struct {
		name   string
		points []Point
		msg    string
	}{
		{"not increasing", []Point{{time.Minute, 1}, {time.Minute, 2}}, "point 1: time 1m0s is not after the previous point's 1m0s"},
		{"negative time", []Point{{-time.Second, 1}}, "point 0: time -1s is negative"},
		{"negative rate", []Point{{0, -1}}, "point 0: rate -1 is negative"},
		{"NaN", []Point{{0, math.NaN()}}, "point 0: rate NaN is not a finite number"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, f := range []func(...Point) error{
				func(p ...Point) error { _, err := NewSteps(p...); return err },
				func(p ...Point) error { _, err := NewRamp(p...); return err },
			} {
				err := f(tc.points...)
				if !errors.Is(err, ErrInvalidLoad) || !strings.HasSuffix(err.Error(), tc.msg) {
					t.Errorf("err = %v, want ErrInvalidLoad ending %q", err, tc.msg)
				}
			}
		})
	}
}

func TestParseCSV(t *testing.T) {
	good := "time_seconds,rps\n# warm-up\n0,0\n\n60, 700\n600.5,0\n"
	pts, err := ParseCSV(strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	want := []Point{{0, 0}, {time.Minute, 700}, {600*time.Second + 500*time.Millisecond, 0}}
	// The header, the comment and the blank line hold no point.
	if _, lines, err := ParseCSVLines(strings.NewReader(good)); err != nil || !slices.Equal(lines, []int{3, 5, 6}) {
		t.Errorf("lines = %v, %v; want [3 5 6]", lines, err)
	}
	if len(pts) != len(want) {
		t.Fatalf("points = %v, want %v", pts, want)
	}
	for i := range want {
		if pts[i] != want[i] {
			t.Errorf("point %d = %v, want %v", i, pts[i], want[i])
		}
	}
	bad := []struct {
		name, text string
		line       int
		msg        string
	}{
		{"three fields", "0,1,2\n", 1, "want 2 fields (time_seconds,rps), got 3"},
		{"bad time after a point", "0,1\nten,2\n", 2, "time_seconds is not a number (a field of 3 bytes)"},
		{"bad header then bad line", "time,rps\nx,1\n", 2, "time_seconds is not a number (a field of 1 byte)"},
		{"bad rate", "0,1\n5,lots\n", 2, "rps is not a number (a field of 4 bytes)"},
		{"negative rate", "0,1\n\n5,-2\n", 3, "rps -2 is negative"},
		{"time goes back", "10,1\n5,1\n", 2, "time 5s is not after the previous line's 10s"},
		{"negative time", "-1,1\n", 1, "time_seconds -1 is out of range"},
		{"infinite rate", "0,Inf\n", 1, "rps +Inf is not a finite number"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseCSV(strings.NewReader(tc.text))
			var ce *CSVError
			if !errors.As(err, &ce) || ce.Line != tc.line || !errors.Is(err, ErrInvalidLoad) || !strings.HasSuffix(err.Error(), tc.msg) {
				t.Fatalf("err = %v, want line %d ending %q", err, tc.line, tc.msg)
			}
			if !strings.HasPrefix(err.Error(), "line ") {
				t.Errorf("err = %q, want it to start with the line", err)
			}
		})
	}
}

func pod(name string, labels map[string]string, phase api.PodPhase, ready bool, limit string) *api.Pod {
	p := &api.Pod{
		ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name, Labels: labels},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: "c", Image: "x"}}},
		Status:     api.PodStatus{Phase: phase},
	}
	if limit != "" {
		p.Spec.Containers[0].Resources.Limits = api.ResourceList{api.ResourceCPU: api.MustParseQuantity(limit)}
	}
	st := api.ConditionFalse
	if ready {
		st = api.ConditionTrue
	}
	p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: st}}
	return p
}

func TestModelUsage(t *testing.T) {
	web := map[string]string{"app": "web"}
	m := Model{Load: Constant(700), BaseMilli: 10, PerRequestMilli: 1}
	capped := Model{Load: Constant(700), PerRequestMilli: 1, CapAtLimit: true}
	cases := []struct {
		name   string
		m      Model
		pod    *api.Pod
		ready  int
		want   int64
		sample bool
	}{
		{"one ready pod takes it all", m, pod("a", web, api.PodRunning, true, ""), 1, 710, true},
		{"seven ready pods share", m, pod("a", web, api.PodRunning, true, ""), 7, 110, true},
		{"unready running pod: base only", m, pod("a", web, api.PodRunning, false, ""), 7, 10, true},
		{"pending pod: no sample", m, pod("a", web, api.PodPending, false, ""), 7, 0, false},
		{"capped at the cpu limit", capped, pod("a", web, api.PodRunning, true, "500m"), 1, 500, true},
		{"under the cap", capped, pod("a", web, api.PodRunning, true, "500m"), 2, 350, true},
		{"no limit: no cap", capped, pod("a", web, api.PodRunning, true, ""), 1, 700, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := tc.m.Usage(tc.pod, tc.ready, 0)
			if got != tc.want || ok != tc.sample {
				t.Errorf("Usage = %d, %v; want %d, %v", got, ok, tc.want, tc.sample)
			}
		})
	}
}

// put stores a pod with its status, as the kubelet would have written it.
func put(t *testing.T, st *store.Store, p *api.Pod) {
	t.Helper()
	status := p.Status
	o, err := st.Create(store.Op{Actor: "test"}, p.DeepCopyObject())
	if err != nil {
		t.Fatal(err)
	}
	cp := o.(*api.Pod).DeepCopy()
	cp.Status = status
	if _, err := st.Update(store.Op{Actor: "test"}, cp, "status"); err != nil {
		t.Fatal(err)
	}
}

func TestSourceScrapesAtBoundaries(t *testing.T) {
	k := kernel.New(1)
	st := store.New(k)
	web := map[string]string{"app": "web"}
	load, _ := NewSteps(Point{0, 0}, Point{20 * time.Second, 600})
	src := NewSource(k, st, Options{})
	src.AddModel(Model{Namespace: "default", Selector: api.SelectorFromSet(web), Load: load, BaseMilli: 5, PerRequestMilli: 1})
	for _, p := range []*api.Pod{
		pod("web-1", web, api.PodRunning, true, ""),
		pod("web-2", web, api.PodRunning, true, ""),
		pod("web-3", web, api.PodRunning, false, ""),
		pod("web-4", web, api.PodPending, false, ""),
		pod("other", map[string]string{"app": "db"}, api.PodRunning, true, ""),
	} {
		put(t, st, p)
	}
	ctx := context.Background()
	sel := api.SelectorFromSet(web)
	if got, at, err := src.PodCPU(ctx, "default", sel); err != nil || len(got) != 0 || !at.IsZero() {
		t.Fatalf("before Start: %v %v %v, want nothing", got, at, err)
	}
	k.RunFor(7 * time.Second)
	src.Start()
	check := func(at time.Duration, want map[string]int64, stamp time.Duration) {
		t.Helper()
		k.RunFor(at - k.Now().Duration())
		got, ts, err := src.PodCPU(ctx, "default", sel)
		if err != nil {
			t.Fatal(err)
		}
		if ts != kernel.Time(stamp).Wall() {
			t.Errorf("at %v: timestamp %v, want the %v boundary", at, ts, stamp)
		}
		if len(got) != len(want) {
			t.Errorf("at %v: %v, want %v", at, got, want)
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("at %v: %s = %d, want %d", at, k, got[k], v)
			}
		}
	}
	idle := map[string]int64{"web-1": 5, "web-2": 5, "web-3": 5}
	check(8*time.Second, idle, 0)               // Start sampled the 0s boundary
	check(29*time.Second, idle, 15*time.Second) // the load stepped up at 20s: not seen until 30s
	busy := map[string]int64{"web-1": 305, "web-2": 305, "web-3": 5}
	check(30*time.Second, busy, 30*time.Second)
	check(44*time.Second, busy, 30*time.Second)
	if n := src.Scrapes(); n != 3 {
		t.Errorf("%d scrapes by 44s, want 3 (0s, 15s, 30s)", n)
	}
	src.SetAvailable(false)
	if _, _, err := src.PodCPU(ctx, "default", sel); !errors.Is(err, ErrUnavailable) {
		t.Errorf("unavailable: err = %v", err)
	}
	src.SetAvailable(true)
	src.Stop()
	k.RunFor(time.Minute)
	if n := src.Scrapes(); n != 3 {
		t.Errorf("%d scrapes after Stop, want 3", n)
	}
	if got, _, _ := src.PodCPU(ctx, "default", api.SelectorFromSet(map[string]string{"app": "db"})); len(got) != 0 {
		t.Errorf("a pod outside every model has metrics: %v", got)
	}
}
