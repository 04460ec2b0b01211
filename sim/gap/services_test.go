package gap

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/store"
)

// bruteService is a Service's state computed from every pod and its
// Endpoints, as the tracker once did at each measure.
func bruteService(t *Tracker, key api.Key, svc *api.Service) (want, selected, have, missing, stale int) {
	ips := map[string]bool{}
	sel := api.SelectorFromSet(svc.Spec.Selector)
	for k, o := range t.objs[api.KindPod] {
		p := o.(*api.Pod)
		if k.Namespace != key.Namespace || p.DeletionTimestamp != nil || !sel.Matches(p.Labels) {
			continue
		}
		selected++
		if p.Status.PodIP != "" && api.IsPodReady(p) {
			ips[p.Status.PodIP] = true
		}
	}
	haves := map[string]bool{}
	if eo, ok := t.objs[api.KindEndpoints][key]; ok {
		for _, ss := range eo.(*api.Endpoints).Subsets {
			for _, a := range ss.Addresses {
				haves[a.IP] = true
			}
		}
	}
	for ip := range ips {
		if !haves[ip] {
			missing++
		}
	}
	for ip := range haves {
		if !ips[ip] {
			stale++
		}
	}
	return len(ips), selected, len(haves), missing, stale
}

// TestServiceStateMatchesBruteForce drives a tracker with random writes
// of pods (labels, readiness, IPs shared or not, terminating, moving in
// and out of selectors), Services (selectors changed, removed, deleted)
// and Endpoints, in both orders of arrival, and checks after every write
// that each Service's kept state is what walking every pod gives.
func TestServiceStateMatchesBruteForce(t *testing.T) {
	for seed := range uint64(40) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 7))
			tr := newTracker(kernel.New(1))
			namespaces := []string{"default", "other"}
			apps := []string{"a", "b", "c"}
			ip := func() string { return fmt.Sprintf("10.0.0.%d", r.IntN(6)) } // shared IPs on purpose
			for step := range 400 {
				ns := namespaces[r.IntN(len(namespaces))]
				var o api.Object
				switch r.IntN(3) {
				case 0:
					p := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: ns, Name: fmt.Sprintf("p%d", r.IntN(12)),
						Labels: map[string]string{"app": apps[r.IntN(len(apps))]}}}
					if r.IntN(4) == 0 {
						p.Labels["tier"] = "x"
					}
					if r.IntN(2) == 0 {
						p.Status.PodIP = ip()
					}
					if r.IntN(3) > 0 {
						p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}
					}
					if r.IntN(8) == 0 {
						now := api.NewTime(kernel.Epoch)
						p.DeletionTimestamp = &now
					}
					o = p
				case 1:
					svc := &api.Service{ObjectMeta: api.ObjectMeta{Namespace: ns, Name: fmt.Sprintf("s%d", r.IntN(3))}}
					switch r.IntN(4) {
					case 0: // no selector
					case 1:
						svc.Spec.Selector = map[string]string{}
					default:
						svc.Spec.Selector = map[string]string{"app": apps[r.IntN(len(apps))]}
						if r.IntN(3) == 0 {
							svc.Spec.Selector["tier"] = "x"
						}
					}
					o = svc
				default:
					ep := &api.Endpoints{ObjectMeta: api.ObjectMeta{Namespace: ns, Name: fmt.Sprintf("s%d", r.IntN(3))}}
					var ss api.EndpointSubset
					for range r.IntN(4) {
						ss.Addresses = append(ss.Addresses, api.EndpointAddress{IP: ip()})
					}
					ss.NotReadyAddresses = []api.EndpointAddress{{IP: ip()}} // never counted
					ep.Subsets = []api.EndpointSubset{ss}
					o = ep
				}
				typ := store.Modified
				if r.IntN(5) == 0 {
					typ = store.Deleted
				}
				// The consumer's own step: Deliver hands changes to a
				// goroutine in batches, and this test reads the state
				// after each one.
				tr.deliver(store.Event{Type: typ, Object: o}, tr.k.Now().Duration())
				for key, so := range tr.objs[api.KindService] {
					svc := so.(*api.Service)
					if svc.Spec.Selector == nil {
						continue
					}
					st := tr.services[key.Namespace][key.Name]
					if st == nil {
						t.Fatalf("step %d: no state for Service %s", step, key)
					}
					w, sel, h, m, s := bruteService(tr, key, svc)
					if got := [5]int{len(st.want), len(st.members), len(st.have), st.missing, st.stale}; got != [5]int{w, sel, h, m, s} {
						t.Fatalf("step %d: Service %s: want, selected, have, missing, stale = %v, walking every pod gives %v", step, key, got, [5]int{w, sel, h, m, s})
					}
				}
				for ns, states := range tr.services {
					if len(states) == 0 {
						t.Fatalf("step %d: an empty set of states kept for namespace %q", step, ns)
					}
					for name := range states {
						key := api.Key{Namespace: ns, Name: name}
						_, svc := tr.objs[api.KindService][key]
						_, ep := tr.objs[api.KindEndpoints][key]
						if !svc && !ep {
							t.Fatalf("step %d: state kept for %s with neither a Service nor Endpoints", step, key)
						}
					}
				}
			}
		})
	}
}

// TestDeliverThroughTheSink: Deliver hands changes to a goroutine
// beside the event loop in batches; Finish must see every one of them,
// whatever the batches' boundaries, with the instant each happened.
func TestDeliverThroughTheSink(t *testing.T) {
	for _, n := range []int{1, changeBatchSize - 1, changeBatchSize, 3*changeBatchSize + 5} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			k := kernel.New(1)
			tr := newTracker(k)
			for i := range n {
				k.After(time.Duration(i)*time.Millisecond, kernel.Func(func() {
					rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: fmt.Sprintf("rs-%d", i), Generation: 1},
						Spec: api.ReplicaSetSpec{Replicas: ptr(int32(1))}}
					tr.Deliver(store.Event{Type: store.Added, Object: rs})
				}), 0)
			}
			k.Run(kernel.Limits{})
			tl := tr.Finish()
			if len(tl.Series) != n {
				t.Fatalf("%d series after %d ReplicaSets, want one each", len(tl.Series), n)
			}
			for _, s := range tl.Series {
				var i int
				fmt.Sscanf(s.Object.Key.Name, "rs-%d", &i)
				if len(s.Points) == 0 || s.Points[0].At != time.Duration(i)*time.Millisecond {
					t.Fatalf("%s: first point %v, want at %v", s.Object.Key.Name, s.Points, time.Duration(i)*time.Millisecond)
				}
			}
		})
	}
}
