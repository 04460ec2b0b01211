package measure

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/store"
)

// TestGrowthMatchesEveryCreatorKept checks growth, which keeps the
// creators of only the objects whose generation changed after their
// create, against growthEveryCreator, the same rules with every
// creator kept, on random logs: objects created, bumped by their
// creator, by users, by controllers filling or changing their spec,
// removed and created again by another actor, no-op writes between.
func TestGrowthMatchesEveryCreatorKept(t *testing.T) {
	actors := []string{user, "bob", hpaActor, argo, "system:serviceaccount:kube-system:deployment-controller"}
	kinds := []api.Kind{api.KindDeployment, api.KindReplicaSet, api.KindPod}
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 11))
		type object struct {
			kind api.Kind
			key  api.Key
			gen  int // 0 while absent
		}
		objs := make([]object, 1+rng.IntN(6))
		for i := range objs {
			objs[i] = object{kind: kinds[rng.IntN(len(kinds))], key: api.Key{Namespace: "default", Name: fmt.Sprintf("o%d", rng.IntN(4))}}
		}
		var audit []store.AuditRecord
		for s := range 60 {
			o := &objs[rng.IntN(len(objs))]
			r := store.AuditRecord{Time: kernel.Time(s), Actor: actors[rng.IntN(len(actors))], Verb: "update", Kind: o.kind, Key: o.key}
			var cs []store.Change
			switch op := rng.IntN(10); {
			case o.gen == 0:
				o.gen = 1
				r.Verb = "create"
				cs = append(cs, store.Change{Path: "metadata.generation", New: "1", NewSet: true}, store.Change{Path: "spec.replicas", New: "1", NewSet: true})
			case op < 2:
				o.gen = 0
				r.Verb, r.Removed = "delete", true
			case op < 3:
				r.NoOp = true
			default:
				old := fmt.Sprint(o.gen)
				o.gen++
				cs = append(cs, store.Change{Path: "metadata.generation", Old: old, New: fmt.Sprint(o.gen), OldSet: true, NewSet: true})
				if op < 6 {
					// A fill (unset before) or a change of the spec.
					cs = append(cs, store.Change{Path: "spec.nodeName", New: "n", NewSet: true})
				} else {
					cs = append(cs, store.Change{Path: "spec.replicas", Old: "1", New: "2", OldSet: true, NewSet: true})
				}
			}
			audit = append(audit, r.WithChanges(cs...))
		}
		got, want := growth(audit), growthEveryCreator(audit)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("seed %d: growth = %+v, want %+v", seed, got, want)
		}
	}
}

// growthEveryCreator is growth as it was before it kept only the
// creators it needs: one pass, a creator kept for every create.
func growthEveryCreator(audit []store.AuditRecord) []Growth {
	type obj struct {
		kind api.Kind
		key  api.Key
	}
	creator := map[obj]string{}
	acc := map[obj]*Growth{}
	var order []obj
	for i := range audit {
		r := &audit[i]
		ob := obj{r.Kind, r.Key}
		if r.Removed {
			delete(creator, ob)
			continue
		}
		if r.NoOp {
			continue
		}
		for c := range r.EachChange() {
			if c.Path != "metadata.generation" {
				continue
			}
			if !c.OldSet {
				creator[ob] = r.Actor
				break
			}
			g, ok := acc[ob]
			if !ok {
				g = &Growth{Kind: r.Kind, Key: r.Key}
				acc[ob] = g
				order = append(order, ob)
			}
			g.Generations++
			if isUser(r.Actor) || creator[ob] == r.Actor || fillsOnly(r) {
				g.SpecIntentWrites++
			} else if !slices.Contains(g.Actors, r.Actor) {
				g.Actors = append(g.Actors, r.Actor)
			}
			break
		}
	}
	return grown(order, acc)
}
