package garbagecollector

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

func ptr[T any](v T) *T { return &v }

// ref is an owner reference to a ReplicaSet named name with uid.
func ref(name string, uid api.UID, block bool) api.OwnerReference {
	return api.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: name, UID: uid, Controller: ptr(true), BlockOwnerDeletion: ptr(block)}
}

func rsObj(name string, uid api.UID, owners ...api.OwnerReference) *api.ReplicaSet {
	return &api.ReplicaSet{
		TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"},
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: uid, ResourceVersion: "1", OwnerReferences: owners},
	}
}

func podObj(name string, uid api.UID, owners ...api.OwnerReference) *api.Pod {
	return &api.Pod{
		TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", UID: uid, ResourceVersion: "1", OwnerReferences: owners},
	}
}

// deleting returns a copy of o being deleted with finalizers fs.
func deleting[T api.Object](o T, fs ...string) T {
	c := o.DeepCopyObject().(T)
	m := c.GetObjectMeta()
	ts := api.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	m.DeletionTimestamp = &ts
	m.Finalizers = fs
	return c
}

// recordingGraph is a graph whose queues are recorded as "delete:<uid>"
// and "orphan:<uid>".
func recordingGraph() (*graph, *[]string) {
	var q []string
	g := newGraph()
	g.enqueueDelete = func(n *node) { q = append(q, "delete:"+string(n.id.UID)) }
	g.enqueueOrphan = func(n *node) { q = append(q, "orphan:"+string(n.id.UID)) }
	return g, &q
}

// describe renders the graph as sorted "uid[flags]->dep,dep" lines.
func describe(g *graph) []string {
	var out []string
	for uid, n := range g.nodes {
		s := string(uid)
		if n.virtual {
			s += "[virtual]"
		}
		if n.deletingDependents {
			s += "[deletingDependents]"
		} else if n.beingDeleted {
			s += "[beingDeleted]"
		}
		var deps []string
		for _, d := range n.sortedDependents() {
			deps = append(deps, string(d.id.UID))
		}
		slices.Sort(deps)
		if len(deps) > 0 {
			s += fmt.Sprint("->", deps)
		}
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

func TestGraphEvents(t *testing.T) {
	rs := rsObj("rs", "rs-uid")
	pod := podObj("pod", "pod-uid", ref("rs", "rs-uid", true))
	type ev struct {
		deleted  bool
		old, obj api.Object
	}
	add := func(o api.Object) ev { return ev{obj: o} }
	upd := func(old, o api.Object) ev { return ev{old: old, obj: o} }
	del := func(o api.Object) ev { return ev{deleted: true, obj: o} }
	tests := []struct {
		name      string
		events    []ev
		wantGraph []string
		wantQueue []string
	}{
		{
			name:      "owner first, then dependent",
			events:    []ev{add(rs), add(pod)},
			wantGraph: []string{"pod-uid", "rs-uid->[pod-uid]"},
		},
		{
			name:      "dependent first: a virtual owner, verified by attemptToDelete",
			events:    []ev{add(pod)},
			wantGraph: []string{"pod-uid", "rs-uid[virtual]->[pod-uid]"},
			wantQueue: []string{"delete:rs-uid"},
		},
		{
			name:      "the virtual owner is observed",
			events:    []ev{add(pod), add(rs)},
			wantGraph: []string{"pod-uid", "rs-uid->[pod-uid]"},
			wantQueue: []string{"delete:rs-uid"},
		},
		{
			name:      "owner deleted: its dependents are checked",
			events:    []ev{add(rs), add(pod), del(rs)},
			wantGraph: []string{"pod-uid"},
			wantQueue: []string{"delete:pod-uid"},
		},
		{
			name:      "foreground deletion starts",
			events:    []ev{add(rs), add(pod), upd(rs, deleting(rs, api.FinalizerDeleteDependents))},
			wantGraph: []string{"pod-uid", "rs-uid[deletingDependents]->[pod-uid]"},
			wantQueue: []string{"delete:pod-uid", "delete:rs-uid"},
		},
		{
			name:      "foreground deletion seen at the first list",
			events:    []ev{add(pod), add(deleting(rs, api.FinalizerDeleteDependents))},
			wantGraph: []string{"pod-uid", "rs-uid[deletingDependents]->[pod-uid]"},
			wantQueue: []string{"delete:rs-uid", "delete:pod-uid", "delete:rs-uid"},
		},
		{
			name:      "a resync does not restart it",
			events:    []ev{add(rs), upd(rs, deleting(rs, api.FinalizerDeleteDependents)), upd(deleting(rs, api.FinalizerDeleteDependents), deleting(rs, api.FinalizerDeleteDependents))},
			wantGraph: []string{"rs-uid[deletingDependents]"},
			wantQueue: []string{"delete:rs-uid"},
		},
		{
			name:      "a blocking dependent gone unblocks its owner",
			events:    []ev{add(rs), add(pod), upd(rs, deleting(rs, api.FinalizerDeleteDependents)), del(pod)},
			wantGraph: []string{"rs-uid[deletingDependents]"},
			wantQueue: []string{"delete:pod-uid", "delete:rs-uid", "delete:rs-uid"},
		},
		{
			name: "a blocking reference dropped unblocks its owner",
			events: []ev{add(rs), add(pod), upd(rs, deleting(rs, api.FinalizerDeleteDependents)),
				upd(pod, podObj("pod", "pod-uid"))},
			wantGraph: []string{"pod-uid", "rs-uid[deletingDependents]"},
			wantQueue: []string{"delete:pod-uid", "delete:rs-uid", "delete:rs-uid"},
		},
		{
			name: "blockOwnerDeletion cleared unblocks its owner",
			events: []ev{add(rs), add(pod), upd(rs, deleting(rs, api.FinalizerDeleteDependents)),
				upd(pod, podObj("pod", "pod-uid", ref("rs", "rs-uid", false)))},
			wantGraph: []string{"pod-uid", "rs-uid[deletingDependents]->[pod-uid]"},
			wantQueue: []string{"delete:pod-uid", "delete:rs-uid", "delete:rs-uid"},
		},
		{
			name:      "orphan deletion starts",
			events:    []ev{add(rs), add(pod), upd(rs, deleting(rs, api.FinalizerOrphanDependents))},
			wantGraph: []string{"pod-uid", "rs-uid[beingDeleted]->[pod-uid]"},
			wantQueue: []string{"orphan:rs-uid"},
		},
		{
			name:      "a reference with other coordinates makes the dependent suspect",
			events:    []ev{add(rs), add(podObj("pod", "pod-uid", ref("other-name", "rs-uid", true)))},
			wantGraph: []string{"pod-uid", "rs-uid->[pod-uid]"},
			wantQueue: []string{"delete:pod-uid"},
		},
		{
			name:      "observing a virtual owner under other coordinates rechecks its dependents",
			events:    []ev{add(podObj("pod", "pod-uid", ref("other-name", "rs-uid", true))), add(rs)},
			wantGraph: []string{"pod-uid", "rs-uid->[pod-uid]"},
			wantQueue: []string{"delete:rs-uid", "delete:pod-uid"},
		},
		{
			name:      "a new owner reference is added",
			events:    []ev{add(rs), add(rsObj("rs2", "rs2-uid")), add(pod), upd(pod, podObj("pod", "pod-uid", ref("rs", "rs-uid", true), ref("rs2", "rs2-uid", false)))},
			wantGraph: []string{"pod-uid", "rs-uid->[pod-uid]", "rs2-uid->[pod-uid]"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, q := recordingGraph()
			for _, e := range tc.events {
				switch {
				case e.deleted:
					g.onDelete(e.obj)
				case e.old == nil:
					g.onAdd(e.obj)
				default:
					g.onUpdate(e.old, e.obj)
				}
			}
			if got := describe(g); !slices.Equal(got, tc.wantGraph) {
				t.Errorf("graph %v, want %v", got, tc.wantGraph)
			}
			if !slices.Equal(*q, tc.wantQueue) {
				t.Errorf("queued %v, want %v", *q, tc.wantQueue)
			}
		})
	}
}

func TestVirtualDelete(t *testing.T) {
	rsID := objectRef{coordinates: coordinates{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs", UID: "rs-uid"}, Namespace: "default"}
	t.Run("a virtual owner confirmed absent goes, its dependents are checked", func(t *testing.T) {
		g, q := recordingGraph()
		g.onAdd(podObj("pod", "pod-uid", ref("rs", "rs-uid", true)))
		g.virtualDelete(rsID)
		if got, want := describe(g), []string{"pod-uid"}; !slices.Equal(got, want) {
			t.Errorf("graph %v, want %v", got, want)
		}
		if want := []string{"delete:rs-uid", "delete:pod-uid"}; !slices.Equal(*q, want) {
			t.Errorf("queued %v, want %v", *q, want)
		}
		if !g.absent.has(rsID) {
			t.Error("the absent owner is not remembered")
		}
	})
	t.Run("dependents naming the uid otherwise keep the virtual node alive", func(t *testing.T) {
		g, q := recordingGraph()
		g.onAdd(podObj("pod-a", "a", ref("rs", "rs-uid", true)))
		g.onAdd(podObj("pod-b", "b", ref("rs-alt", "rs-uid", true)))
		*q = nil
		g.virtualDelete(rsID)
		n := g.node("rs-uid")
		if n == nil || n.id.Name != "rs-alt" {
			t.Fatalf("node %+v, want the alternate identity rs-alt", n)
		}
		if want := []string{"delete:rs-uid"}; !slices.Equal(*q, want) {
			t.Errorf("queued %v, want %v", *q, want)
		}
	})
	t.Run("an observed node with other coordinates stays", func(t *testing.T) {
		g, q := recordingGraph()
		g.onAdd(rsObj("rs-real", "rs-uid"))
		g.onAdd(podObj("pod", "pod-uid", ref("rs", "rs-uid", true)))
		*q = nil
		g.virtualDelete(rsID)
		if g.node("rs-uid") == nil {
			t.Fatal("the observed node was removed")
		}
		if want := []string{"delete:pod-uid"}; !slices.Equal(*q, want) {
			t.Errorf("queued %v, want %v (the dependent naming the absent coordinates)", *q, want)
		}
	})
}

func TestReferencesDiffs(t *testing.T) {
	a, b, c := ref("a", "a", true), ref("b", "b", true), ref("c", "c", true)
	bUnblocked := ref("b", "b", false)
	// Slices shared by old and cur, as a status write's objects share
	// their references.
	sharedOne, sharedTwice, sharedPair := []api.OwnerReference{a}, []api.OwnerReference{b, bUnblocked}, []api.OwnerReference{a, c}
	tests := []struct {
		name                   string
		old, cur               []api.OwnerReference
		wantAdded, wantRemoved []api.OwnerReference
		wantChanged            [][2]api.OwnerReference
	}{
		{name: "same", old: []api.OwnerReference{a, b}, cur: []api.OwnerReference{b, a}},
		{name: "same order", old: []api.OwnerReference{a, b}, cur: []api.OwnerReference{a, b}},
		{name: "none", old: nil, cur: nil},
		{name: "one shared", old: sharedOne, cur: sharedOne},
		{name: "one shared, cur a prefix", old: sharedTwice[:1], cur: sharedTwice[:1]},
		{name: "shared, one uid twice", old: sharedTwice, cur: sharedTwice, wantChanged: [][2]api.OwnerReference{{bUnblocked, b}}},
		{name: "one in the same array, cur longer", old: sharedPair[:1], cur: sharedPair, wantAdded: []api.OwnerReference{c}},
		// Two references to one uid: the diff compares with the last
		// (upstream's map), so the first looks changed even in the
		// same order.
		{name: "same order, one uid twice", old: []api.OwnerReference{b, bUnblocked}, cur: []api.OwnerReference{b, bUnblocked},
			wantChanged: [][2]api.OwnerReference{{bUnblocked, b}}},
		{name: "changed in place", old: []api.OwnerReference{a, b}, cur: []api.OwnerReference{a, bUnblocked}, wantChanged: [][2]api.OwnerReference{{b, bUnblocked}}},
		{name: "added", old: []api.OwnerReference{a}, cur: []api.OwnerReference{a, c}, wantAdded: []api.OwnerReference{c}},
		{name: "removed", old: []api.OwnerReference{a, b, c}, cur: []api.OwnerReference{b}, wantRemoved: []api.OwnerReference{a, c}},
		{name: "changed", old: []api.OwnerReference{a, b}, cur: []api.OwnerReference{a, bUnblocked}, wantChanged: [][2]api.OwnerReference{{b, bUnblocked}}},
		{name: "all at once", old: []api.OwnerReference{a, b}, cur: []api.OwnerReference{bUnblocked, c},
			wantAdded: []api.OwnerReference{c}, wantRemoved: []api.OwnerReference{a}, wantChanged: [][2]api.OwnerReference{{b, bUnblocked}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			added, removed, changed := referencesDiffs(tc.old, tc.cur)
			if !reflect.DeepEqual(added, tc.wantAdded) || !reflect.DeepEqual(removed, tc.wantRemoved) || !reflect.DeepEqual(changed, tc.wantChanged) {
				t.Errorf("diffs %v %v %v, want %v %v %v", added, removed, changed, tc.wantAdded, tc.wantRemoved, tc.wantChanged)
			}
		})
	}
}

func TestRefCacheEvictsOldest(t *testing.T) {
	c := newRefCache(2)
	r := func(i int) objectRef { return objectRef{coordinates: coordinates{UID: api.UID(fmt.Sprint(i))}} }
	c.add(r(1))
	c.add(r(2))
	c.add(r(1)) // already there: no reordering, no growth
	c.add(r(3))
	if c.has(r(1)) || !c.has(r(2)) || !c.has(r(3)) {
		t.Errorf("cache holds 1:%v 2:%v 3:%v, want 2 and 3", c.has(r(1)), c.has(r(2)), c.has(r(3)))
	}
}

// TestGraphLookup: the graph finds a node by its uid string's address
// first (recent), and must give what its map gives: not a node removed
// since, not another uid's, and the node that came back under the same
// uid after a removal. Each step's uids are copies of the text, so
// that each is another string.
func TestGraphLookup(t *testing.T) {
	g, _ := recordingGraph()
	uid := func(s string) api.UID { return api.UID(strings.Clone(s)) }
	first := uid("pod-uid")
	again := uid("pod-uid")
	other := uid("other-uid")
	want := func(step string, u api.UID, present bool) {
		t.Helper()
		n, ok := g.lookup(u)
		if ok != present || (ok && n != g.nodes[u]) || (ok && n.removed) {
			t.Errorf("%s: lookup(%s) = %p, %t; the map holds %p", step, u, n, ok, g.nodes[u])
		}
	}
	g.onAdd(podObj("p", first))
	g.onAdd(podObj("q", other))
	want("added", first, true)
	want("added, looked up again", first, true)
	want("the other", other, true)
	g.onDelete(podObj("p", first))
	want("deleted", first, false)
	want("deleted, by another string", again, false)
	g.onAdd(podObj("p", again))
	want("back under the same uid, by the first string", first, true)
	want("back, by its own string", again, true)
	want("the other, after", other, true)
}

// TestGraphKeepsObjectsReferences: a node holds its object's owner
// references themselves, so that an update sharing them (a status
// write, a renewal) is found unchanged without reading them, and one
// with other references still moves the node between owners.
func TestGraphKeepsObjectsReferences(t *testing.T) {
	g, _ := recordingGraph()
	rs1, rs2 := ref("rs-1", "rs-1-uid", true), ref("rs-2", "rs-2-uid", true)
	g.onAdd(rsObj("rs-1", "rs-1-uid"))
	g.onAdd(rsObj("rs-2", "rs-2-uid"))
	pod := podObj("p", "p-uid", rs1)
	g.onAdd(pod)
	n := g.nodes["p-uid"]
	if &n.owners[0] != &pod.OwnerReferences[0] {
		t.Fatal("the node holds a copy of the pod's references")
	}
	status := *pod // a status write: the same references
	status.ResourceVersion = "2"
	g.onUpdate(pod, &status)
	if !sameReferences(n.owners, status.OwnerReferences) || g.nodes["rs-1-uid"].dependents["p-uid"] != n {
		t.Fatal("a write sharing the references changed the pod's owners")
	}
	moved := status
	moved.ResourceVersion = "3"
	moved.OwnerReferences = []api.OwnerReference{rs2}
	g.onUpdate(&status, &moved)
	if g.nodes["rs-1-uid"].dependents["p-uid"] != nil || g.nodes["rs-2-uid"].dependents["p-uid"] != n {
		t.Fatalf("the pod's new owner reference did not move it: %v", describe(g))
	}
}

// TestGraphUpdateUnchanged: an update that keeps an object's owner
// references and deletes nothing leaves the graph as it is, without a
// lookup (observe's fast path); after virtualDelete removed the
// object's observed node (attemptToDelete found it gone while the
// informer still had it), the same update makes the node again, as
// the whole way did before the fast path. Planted: the fast path
// without its check of gone leaves the graph without the pod and fails
// the last row.
func TestGraphUpdateUnchanged(t *testing.T) {
	rs1 := ref("rs-1", "rs-1-uid", true)
	podID := objectRef{coordinates: coordinates{APIVersion: "v1", Kind: "Pod", Name: "p", UID: "p-uid"}, Namespace: "default"}
	write := func(o *api.Pod, rv string) *api.Pod { c := *o; c.ResourceVersion = rv; return &c } // shares the references
	for _, tc := range []struct {
		name  string
		steps func(g *graph, pod *api.Pod)
		want  []string
	}{
		{"a status write", func(g *graph, pod *api.Pod) {
			g.onUpdate(pod, write(pod, "2"))
		}, []string{"p-uid", "rs-1-uid->[p-uid]"}},
		{"a resync: the same object twice", func(g *graph, pod *api.Pod) {
			g.onUpdate(pod, pod)
		}, []string{"p-uid", "rs-1-uid->[p-uid]"}},
		{"deletion begins: the whole way", func(g *graph, pod *api.Pod) {
			g.onUpdate(pod, deleting(pod))
		}, []string{"p-uid[beingDeleted]", "rs-1-uid->[p-uid]"}},
		{"after virtualDelete, an update makes the node again", func(g *graph, pod *api.Pod) {
			g.virtualDelete(podID)
			g.onUpdate(pod, write(pod, "2"))
		}, []string{"p-uid", "rs-1-uid->[p-uid]"}},
		{"its delete event forgets it", func(g *graph, pod *api.Pod) {
			g.virtualDelete(podID)
			g.onDelete(pod)
			if len(g.gone) != 0 {
				t.Errorf("gone %v after the pod's delete event", g.gone)
			}
		}, []string{"rs-1-uid"}},
		{"and its next update is a plain one again", func(g *graph, pod *api.Pod) {
			g.virtualDelete(podID)
			next := write(pod, "2")
			g.onUpdate(pod, next)
			g.onUpdate(next, write(next, "3"))
			if len(g.gone) != 0 {
				t.Errorf("gone %v after the node was made again", g.gone)
			}
		}, []string{"p-uid", "rs-1-uid->[p-uid]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, _ := recordingGraph()
			g.onAdd(rsObj("rs-1", "rs-1-uid"))
			pod := podObj("p", "p-uid", rs1)
			g.onAdd(pod)
			tc.steps(g, pod)
			if got := describe(g); !slices.Equal(got, tc.want) {
				t.Errorf("graph %v, want %v", got, tc.want)
			}
		})
	}
}
