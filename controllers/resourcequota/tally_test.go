package resourcequota

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// recount is the recount before the tally: every object's usage read
// afresh and added in list order. The tally must give the same lists,
// formats included.
func recount(r *Reconciler, q *api.ResourceQuota, lists [][]api.Object, now time.Time) api.ResourceList {
	hard := q.Spec.Hard
	used := api.ResourceList{}
	for _, name := range hard.SortedNames() {
		used[name] = api.MustParseQuantity("0")
	}
	for _, objs := range lists {
		for _, obj := range objs {
			if !api.QuotaScopesMatch(q, obj) {
				continue
			}
			u := r.usage(obj, now)
			for _, name := range hard.SortedNames() {
				if v, ok := u[name]; ok {
					sum := used[name]
					sum.Add(v)
					used[name] = sum
				}
			}
		}
	}
	return used
}

// history is a namespace's pods and ConfigMaps changing at random, as
// the informers show them: a changed object is a new object.
type history struct {
	rng  *rand.Rand
	now  time.Time
	pods map[string]*api.Pod
	cms  map[string]*api.ConfigMap
	next int
}

// step changes one object (or the time) at random.
func (h *history) step() {
	names := slices.Sorted(maps.Keys(h.pods))
	switch n := h.rng.IntN(10); {
	case n < 3 || len(names) == 0:
		h.next++
		h.pods[fmt.Sprintf("p-%03d", h.rng.IntN(400))] = h.pod()
	case n < 6:
		h.pods[names[h.rng.IntN(len(names))]] = h.pod()
	case n < 7:
		delete(h.pods, names[h.rng.IntN(len(names))])
	case n < 8:
		name := fmt.Sprintf("cm-%d", h.rng.IntN(5))
		if _, ok := h.cms[name]; ok && h.rng.IntN(2) == 0 {
			delete(h.cms, name)
		} else {
			h.cms[name] = &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "ns"}}
		}
	default:
		h.now = h.now.Add(time.Duration(h.rng.IntN(40)) * time.Second)
	}
}

// pod makes a pod of random requests, limits, phase and deletion.
func (h *history) pod() *api.Pod {
	q := api.MustParseQuantity
	res := api.ResourceRequirements{Requests: api.ResourceList{}, Limits: api.ResourceList{}}
	if h.rng.IntN(4) > 0 {
		res.Requests["cpu"] = q([]string{"100m", "1", "250m", "0"}[h.rng.IntN(4)])
		res.Requests["memory"] = q([]string{"256Mi", "1G", "64Mi"}[h.rng.IntN(3)])
	}
	if h.rng.IntN(3) == 0 {
		res.Limits["cpu"] = q("2")
	}
	p := &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Resources: res}}}}
	p.Namespace = "ns"
	if h.rng.IntN(8) == 0 {
		p.Status.Phase = api.PodSucceeded
	}
	if h.rng.IntN(6) == 0 {
		ts := api.NewTime(h.now.Add(-time.Duration(h.rng.IntN(60)) * time.Second))
		grace := int64(30)
		p.DeletionTimestamp, p.DeletionGracePeriodSeconds = &ts, &grace
	}
	return p
}

// lists returns the objects as the informers list them: by kind, then name.
func (h *history) lists() [][]api.Object {
	var pods, cms []api.Object
	for _, name := range slices.Sorted(maps.Keys(h.pods)) {
		h.pods[name].Name = name
		pods = append(pods, h.pods[name])
	}
	for _, name := range slices.Sorted(maps.Keys(h.cms)) {
		cms = append(cms, h.cms[name])
	}
	return [][]api.Object{pods, cms}
}

// quota makes a quota of some of the resources pods and ConfigMaps are
// charged, with the NotBestEffort scope at times.
func quota(rng *rand.Rand, generation int64) *api.ResourceQuota {
	all := []string{"pods", "count/pods", "requests.cpu", "requests.memory", "limits.cpu", "cpu", "configmaps", "count/configmaps"}
	q := &api.ResourceQuota{Spec: api.ResourceQuotaSpec{Hard: api.ResourceList{}}}
	q.Name, q.Namespace, q.UID, q.Generation = "q", "ns", "uid-1", generation
	for _, name := range all {
		if rng.IntN(3) > 0 {
			q.Spec.Hard[api.ResourceName(name)] = api.MustParseQuantity("1000")
		}
	}
	if rng.IntN(4) == 0 {
		q.Spec.Scopes = []api.ResourceQuotaScope{api.ResourceQuotaScopeNotBestEffort}
	}
	return q
}

// TestTallyIsRecount compares the tally's recounts with recount's over
// 300 random histories of a quota's namespace (pods added, replaced,
// deleted, finished and terminating past or within their grace period;
// ConfigMaps; the clock moving; the quota's spec changing), and checks
// that an object the tally holds is not charged again.
func TestTallyIsRecount(t *testing.T) {
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 7))
		h := &history{rng: rng, now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), pods: map[string]*api.Pod{}, cms: map[string]*api.ConfigMap{}}
		r := &Reconciler{Kinds: []api.Kind{api.KindPod, api.KindConfigMap}}
		q := quota(rng, 1)
		key := api.Key{Namespace: "ns", Name: "q"}
		for step := range 60 {
			h.step()
			if rng.IntN(30) == 0 {
				q = quota(rng, q.Generation+1)
			}
			r.Clock = fixedClock{h.now}
			lists := h.lists()
			var charged []api.Object
			usage := func(obj api.Object, now time.Time) api.ResourceList {
				charged = append(charged, obj)
				return r.usage(obj, now)
			}
			before := r.tallies[key]
			var kept []api.Object
			if before != nil && before.fits(q, q.Spec.Hard.SortedNames()) {
				for _, cs := range before.kinds {
					for _, c := range cs {
						if !c.timed {
							kept = append(kept, c.obj)
						}
					}
				}
			}
			got := r.tallyOf(key, q).used(q, lists, usage, h.now)
			want := recount(r, q, lists, h.now)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d step %d: tally %v, recount %v", seed, step, describe(got), describe(want))
			}
			for _, obj := range charged {
				if slices.Contains(kept, obj) {
					t.Fatalf("seed %d step %d: %s charged again, unchanged since the last recount", seed, step, obj.GetObjectMeta().Name)
				}
			}
		}
	}
}

// describe prints a ResourceList with each quantity's text and format.
func describe(l api.ResourceList) string {
	var b strings.Builder
	for _, name := range l.SortedNames() {
		fmt.Fprintf(&b, "%s=%s(%s) ", name, l[name].String(), l[name].Format())
	}
	return b.String()
}
