package apiserver

import (
	"reflect"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

func tol(key string, op api.TolerationOperator, effect api.TaintEffect, seconds *int64) api.Toleration {
	return api.Toleration{Key: key, Operator: op, Effect: effect, TolerationSeconds: seconds}
}

// TestDefaultTolerationSeconds ports the cases of upstream's
// plugin/pkg/admission/defaulttolerationseconds/admission_test.go.
func TestDefaultTolerationSeconds(t *testing.T) {
	notReady := tol(api.TaintNodeNotReady, api.TolerationOpExists, api.TaintEffectNoExecute, ptr(int64(300)))
	unreachable := tol(api.TaintNodeUnreachable, api.TolerationOpExists, api.TaintEffectNoExecute, ptr(int64(300)))
	cases := []struct {
		name string
		in   []api.Toleration
		want []api.Toleration
	}{
		{"no tolerations: both added", nil, []api.Toleration{notReady, unreachable}},
		{"unrelated tolerations kept, both added",
			[]api.Toleration{tol("foo", api.TolerationOpEqual, api.TaintEffectNoSchedule, nil)},
			[]api.Toleration{tol("foo", api.TolerationOpEqual, api.TaintEffectNoSchedule, nil), notReady, unreachable}},
		{"not-ready tolerated for 700s: only unreachable added",
			[]api.Toleration{tol(api.TaintNodeNotReady, api.TolerationOpExists, api.TaintEffectNoExecute, ptr(int64(700)))},
			[]api.Toleration{tol(api.TaintNodeNotReady, api.TolerationOpExists, api.TaintEffectNoExecute, ptr(int64(700))), unreachable}},
		{"unreachable tolerated for 700s: only not-ready added",
			[]api.Toleration{tol(api.TaintNodeUnreachable, api.TolerationOpExists, api.TaintEffectNoExecute, ptr(int64(700)))},
			[]api.Toleration{tol(api.TaintNodeUnreachable, api.TolerationOpExists, api.TaintEffectNoExecute, ptr(int64(700))), notReady}},
		{"both tolerated forever: nothing added",
			[]api.Toleration{tol(api.TaintNodeNotReady, api.TolerationOpExists, api.TaintEffectNoExecute, nil), tol(api.TaintNodeUnreachable, api.TolerationOpExists, api.TaintEffectNoExecute, nil)},
			[]api.Toleration{tol(api.TaintNodeNotReady, api.TolerationOpExists, api.TaintEffectNoExecute, nil), tol(api.TaintNodeUnreachable, api.TolerationOpExists, api.TaintEffectNoExecute, nil)}},
		{"empty key tolerates every NoExecute taint",
			[]api.Toleration{tol("", api.TolerationOpExists, api.TaintEffectNoExecute, nil)},
			[]api.Toleration{tol("", api.TolerationOpExists, api.TaintEffectNoExecute, nil)}},
		{"empty effect counts for NoExecute",
			[]api.Toleration{tol(api.TaintNodeNotReady, api.TolerationOpExists, "", nil)},
			[]api.Toleration{tol(api.TaintNodeNotReady, api.TolerationOpExists, "", nil), unreachable}},
		{"NoSchedule toleration does not count",
			[]api.Toleration{tol(api.TaintNodeNotReady, api.TolerationOpExists, api.TaintEffectNoSchedule, nil)},
			[]api.Toleration{tol(api.TaintNodeNotReady, api.TolerationOpExists, api.TaintEffectNoSchedule, nil), notReady, unreachable}},
		{"empty key and empty effect tolerates everything",
			[]api.Toleration{tol("", api.TolerationOpExists, "", nil)},
			[]api.Toleration{tol("", api.TolerationOpExists, "", nil)}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pod := &api.Pod{Spec: api.PodSpec{Tolerations: tc.in}}
			if err := NewDefaultTolerationSeconds().Admit(&Attributes{Verb: Create, Kind: api.KindPod, Object: pod}); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(pod.Spec.Tolerations, tc.want) {
				t.Errorf("tolerations = %+v\nwant %+v", pod.Spec.Tolerations, tc.want)
			}
		})
	}
}

func TestDefaultTolerationSecondsSkips(t *testing.T) {
	cases := []struct {
		name string
		a    Attributes
	}{
		{"update", Attributes{Verb: Update, Kind: api.KindPod, Object: &api.Pod{}}},
		{"status subresource", Attributes{Verb: Create, Kind: api.KindPod, Subresource: "status", Object: &api.Pod{}}},
		{"not a pod", Attributes{Verb: Create, Kind: api.KindDeployment, Object: &api.Deployment{}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := NewDefaultTolerationSeconds().Admit(&tc.a); err != nil {
				t.Fatal(err)
			}
			if p, ok := tc.a.Object.(*api.Pod); ok && len(p.Spec.Tolerations) != 0 {
				t.Errorf("tolerations added: %+v", p.Spec.Tolerations)
			}
		})
	}
}

// TestDefaultTolerationSecondsServer checks the plugin is registered by
// New and that SetDefaultTolerationSeconds changes the seconds.
func TestDefaultTolerationSecondsServer(t *testing.T) {
	f := newFixture(t)
	create := func(name string) *api.Pod {
		t.Helper()
		return f.must(t, &Request{Verb: Create, Kind: api.KindPod, Actor: user, Object: &api.Pod{
			ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
			Spec:       api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx:1.14.2"}}},
		}}).(*api.Pod)
	}
	p := create("a")
	if len(p.Spec.Tolerations) != 2 || *p.Spec.Tolerations[0].TolerationSeconds != 300 || p.Spec.Tolerations[1].Key != api.TaintNodeUnreachable {
		t.Fatalf("tolerations = %+v, want the two 300s defaults", p.Spec.Tolerations)
	}
	f.srv.SetDefaultTolerationSeconds(60, 0)
	p = create("b")
	if len(p.Spec.Tolerations) != 2 || *p.Spec.Tolerations[0].TolerationSeconds != 60 || *p.Spec.Tolerations[1].TolerationSeconds != 0 {
		t.Fatalf("tolerations = %+v, want 60s and 0s", p.Spec.Tolerations)
	}
	n := 0
	for _, m := range f.srv.mutating {
		if m.Name() == "DefaultTolerationSeconds" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d DefaultTolerationSeconds plugins registered, want 1", n)
	}
}
