package disruption

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/client"
)

// captureClient keeps the last status written.
type captureClient struct {
	client.Client
	last *api.PodDisruptionBudget
}

func (c *captureClient) UpdateStatus(_ context.Context, o api.Object) (api.Object, error) {
	c.last = o.DeepCopyObject().(*api.PodDisruptionBudget)
	return o, nil
}

// TestTallyMatchesList runs a Reconciler that keeps tallies (as Setup's
// handlers do) beside one that lists the pods at each sync (upstream's
// way), over random histories of pods (labels, controllers, one missing,
// readiness, deletion), budgets (every kind of spec, selectors changed)
// and disrupted pods (approved a while ago, some past the deletion
// timeout): every sync must write the same status, record the same
// events, ask for the same recheck and fail alike.
func TestTallyMatchesList(t *testing.T) {
	for seed := range uint64(25) {
		rng := rand.New(rand.NewPCG(seed, 3))
		clock := &fixedClock{time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
		pods, rss, ds, sss := store{}, store{}, store{}, store{}
		mk := func() (*Reconciler, *captureClient, *events) {
			c, ev := &captureClient{}, &events{}
			return &Reconciler{Client: c, Recorder: ev, Clock: clock, PDBs: store{}, Pods: pods, ReplicaSets: rss, Deployments: ds, StatefulSets: sss}, c, ev
		}
		slow, slowC, slowEv := mk()
		fast, fastC, fastEv := mk()
		fast.tallies = newTallies()

		size := func() *int32 { n := int32(rng.IntN(6)); return &n }
		d0 := &api.Deployment{ObjectMeta: api.ObjectMeta{Name: "d0", Namespace: "ns", UID: "d0"}, Spec: api.DeploymentSpec{Replicas: size()}}
		ds.add(d0)
		rs := func(name string, owner api.Object) *api.ReplicaSet {
			r := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "ns", UID: api.UID(name)}, Spec: api.ReplicaSetSpec{Replicas: size()}}
			if owner != nil {
				r.OwnerReferences = []api.OwnerReference{api.NewControllerRef(owner)}
			}
			return r
		}
		r0, r1, r2 := rs("r0", d0), rs("r1", d0), rs("r2", nil)
		rss.add(r0)
		rss.add(r1)
		rss.add(r2)
		gone := rs("gone", nil) // never stored: its pods' controller is not found
		ss := &api.StatefulSet{ObjectMeta: api.ObjectMeta{Name: "s0", Namespace: "ns", UID: "s0"}, Spec: api.StatefulSetSpec{Replicas: size()}}
		ss.APIVersion, ss.Kind = "apps/v1", "StatefulSet"
		sss.add(ss)
		owners := []api.Object{nil, r0, r1, r2, ss, gone}
		weights := []int{1, 6, 4, 3, 3, 0} // gone only when asked for

		intOr := func() *api.IntOrString {
			if rng.IntN(2) == 0 {
				v := api.FromInt32(int32(rng.IntN(4)))
				return &v
			}
			v := api.FromString(fmt.Sprintf("%d%%", 25*rng.IntN(5)))
			return &v
		}
		selectors := []*api.LabelSelector{
			{MatchLabels: map[string]string{"app": "a"}},
			{MatchExpressions: []api.LabelSelectorRequirement{{Key: "app", Operator: api.LabelSelectorOpIn, Values: []string{"a", "b"}}}},
			{MatchLabels: map[string]string{"tier": "x"}},
			{},
			nil, // selects nothing
			{MatchExpressions: []api.LabelSelectorRequirement{{Key: "app", Operator: "Bad"}}}, // does not parse
		}
		newBudget := func(i int) *api.PodDisruptionBudget {
			b := &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("b%d", i), Namespace: "ns", Generation: 1},
				Spec: api.PodDisruptionBudgetSpec{Selector: selectors[rng.IntN(len(selectors))]}}
			switch rng.IntN(3) {
			case 0:
				b.Spec.MinAvailable = intOr()
			case 1:
				b.Spec.MaxUnavailable = intOr()
			}
			return b
		}
		budgets := make([]*api.PodDisruptionBudget, 4)
		for i := range budgets {
			budgets[i] = newBudget(i)
			fast.budgetChanged(budgets[i])
		}
		missing := false // whether the pods may name the missing ReplicaSet
		for step := range 400 {
			clock.t = clock.t.Add(time.Duration(rng.IntN(40)) * time.Second)
			switch op := rng.IntN(20); {
			case op < 14: // a pod created or changed
				name := fmt.Sprintf("p%02d", rng.IntN(30))
				p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "ns", UID: api.UID(name), Labels: map[string]string{}}}
				if rng.IntN(4) > 0 {
					p.Labels["app"] = []string{"a", "b", "c"}[rng.IntN(3)]
				}
				if rng.IntN(3) == 0 {
					p.Labels["tier"] = "x"
				}
				w := weights
				if missing {
					w = []int{1, 6, 4, 3, 3, 1}
				}
				if o := owners[pick(rng, w)]; o != nil {
					p.OwnerReferences = []api.OwnerReference{api.NewControllerRef(o)}
				}
				if rng.IntN(4) > 0 {
					p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}
				}
				if rng.IntN(8) == 0 {
					ts := api.NewTime(clock.t)
					p.DeletionTimestamp = &ts
				}
				old, _ := pods.Get(p.Key())
				pods.add(p)
				if old != nil {
					fast.podChanged(old.(*api.Pod), p)
				} else {
					fast.podChanged(nil, p)
				}
			case op < 16: // a pod deleted
				name := fmt.Sprintf("p%02d", rng.IntN(30))
				if old, ok := pods.Get(api.Key{Namespace: "ns", Name: name}); ok {
					delete(pods, old.GetObjectMeta().Key())
					fast.podChanged(old.(*api.Pod), nil)
				}
			case op < 18: // evictions approved a while ago
				b := budgets[rng.IntN(len(budgets))].DeepCopy()
				b.Status.DisruptedPods = map[string]api.Time{}
				for range rng.IntN(4) {
					b.Status.DisruptedPods[fmt.Sprintf("p%02d", rng.IntN(30))] = api.NewTime(clock.t.Add(-time.Duration(rng.IntN(240)) * time.Second))
				}
				budgets[slicesIndex(budgets, b.Name)] = b
				fast.budgetChanged(b)
			case op < 19: // a budget's spec replaced
				i := rng.IntN(len(budgets))
				budgets[i] = newBudget(i)
				fast.budgetChanged(budgets[i])
			default:
				missing = !missing
			}
			for _, b := range budgets {
				slowC.last, fastC.last = nil, nil
				*slowEv, *fastEv = nil, nil
				rs, errS := slow.trySync(context.Background(), b)
				rf, errF := fast.trySync(context.Background(), b)
				if fmt.Sprint(errS) != fmt.Sprint(errF) || rs != rf || !reflect.DeepEqual(*slowEv, *fastEv) || !reflect.DeepEqual(slowC.last, fastC.last) {
					t.Fatalf("seed %d step %d budget %s (%+v):\nlisted: err %v recheck %v events %q status %+v\ntallied: err %v recheck %v events %q status %+v",
						seed, step, b.Name, b.Spec, errS, rs, *slowEv, statusOf(slowC.last), errF, rf, *fastEv, statusOf(fastC.last))
				}
			}
		}
	}
}

func pick(rng *rand.Rand, weights []int) int {
	total := 0
	for _, w := range weights {
		total += w
	}
	n := rng.IntN(total)
	for i, w := range weights {
		if n < w {
			return i
		}
		n -= w
	}
	return len(weights) - 1
}

func slicesIndex(bs []*api.PodDisruptionBudget, name string) int {
	for i, b := range bs {
		if b.Name == name {
			return i
		}
	}
	return -1
}

func statusOf(b *api.PodDisruptionBudget) any {
	if b == nil {
		return nil
	}
	return b.Status
}
