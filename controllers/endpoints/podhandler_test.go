package endpoints

import (
	"slices"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/informer"
)

// fakeServices lists its services of a namespace, in the order given.
type fakeServices []*api.Service

func (f fakeServices) List(sel api.Selector, namespace string) []api.Object {
	var out []api.Object
	for _, s := range f {
		if s.Namespace == namespace && sel.Matches(s.Labels) {
			out = append(out, s)
		}
	}
	return out
}

// TestPodHandler checks which services each pod event enqueues, for
// the endpoints and EndpointSlice controllers alike: those selecting the
// pod in its namespace, in name order, before and after a label change;
// none for a resync or an update that changes no endpoint.
func TestPodHandler(t *testing.T) {
	svc := func(ns, name string, sel map[string]string) *api.Service {
		return &api.Service{ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name}, Spec: api.ServiceSpec{Selector: sel}}
	}
	services := fakeServices{
		svc("default", "a-web", map[string]string{"app": "web"}),
		svc("default", "b-all", map[string]string{}), // an empty selector selects every pod
		svc("default", "c-api", map[string]string{"app": "api"}),
		svc("default", "d-manual", nil), // no selector: its endpoints are someone else's
		svc("other", "web", map[string]string{"app": "web"}),
	}
	pod := func(app string) *api.Pod {
		return &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "p", UID: "u", Labels: map[string]string{"app": app}},
			Status: api.PodStatus{PodIP: "10.0.0.1", Conditions: []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}}}
	}
	key := func(name string) api.Key { return api.Key{Namespace: "default", Name: name} }
	web := pod("web")
	tests := []struct {
		name  string
		event func(h informer.Handler)
		want  []api.Key
	}{
		{"add", func(h informer.Handler) {
			h.OnAdd(pod("web"))
		}, []api.Key{key("a-web"), key("b-all")}},
		{"delete", func(h informer.Handler) {
			h.OnDelete(pod("api"))
		}, []api.Key{key("b-all"), key("c-api")}},
		{"resync", func(h informer.Handler) {
			h.OnUpdate(web, web)
		}, nil},
		{"labels changed: before, then after", func(h informer.Handler) {
			h.OnUpdate(pod("web"), pod("api"))
		}, []api.Key{key("a-web"), key("b-all"), key("b-all"), key("c-api")}},
		{"readiness changed", func(h informer.Handler) {
			p := pod("web")
			p.Status.Conditions[0].Status = api.ConditionFalse
			h.OnUpdate(pod("web"), p)
		}, []api.Key{key("a-web"), key("b-all")}},
		{"an annotation changed", func(h informer.Handler) {
			p := pod("web")
			p.Annotations = map[string]string{"note": "x"}
			h.OnUpdate(pod("web"), p)
		}, nil},
		{"not a pod", func(h informer.Handler) {
			h.OnAdd(services[0])
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []api.Key
			h := PodHandler(services, func(k api.Key) { got = append(got, k) })
			tt.event(h)
			if !slices.Equal(got, tt.want) {
				t.Errorf("enqueued %v, want %v", got, tt.want)
			}
		})
	}
}
