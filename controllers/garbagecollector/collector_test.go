package garbagecollector

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/store"
)

// fakeClient serves Get, Update, Patch and Delete from a map and records
// each write as a line: "delete Pod default/pod uid=... rv=... policy=...",
// "update ReplicaSet default/rs finalizers=[...]", "patch Pod default/pod
// <body>". conflicts makes that many updates fail with Conflict first.
type fakeClient struct {
	objs      map[api.Kind]map[api.Key]api.Object
	writes    []string
	gets      int
	conflicts int
	deleteErr []error // returned by the next deletes, in order
}

func newFakeClient(objs ...api.Object) *fakeClient {
	c := &fakeClient{objs: map[api.Kind]map[api.Key]api.Object{}}
	for _, o := range objs {
		k := api.KindOf(o)
		if c.objs[k] == nil {
			c.objs[k] = map[api.Key]api.Object{}
		}
		c.objs[k][o.GetObjectMeta().Key()] = o.DeepCopyObject()
	}
	return c
}

func notFound(kind api.Kind, key api.Key) error {
	return apierr.NewNotFound(strings.ToLower(kind.Name)+"s", key.Name)
}

func (c *fakeClient) Actor() string { return Actor }

func (c *fakeClient) Get(_ context.Context, kind api.Kind, key api.Key) (api.Object, error) {
	c.gets++
	o, ok := c.objs[kind][key]
	if !ok {
		return nil, notFound(kind, key)
	}
	return o.DeepCopyObject(), nil
}

func (c *fakeClient) List(context.Context, api.Kind, ...client.ListOption) (*client.List, error) {
	return nil, apierr.NewBadRequest("not supported")
}

func (c *fakeClient) Create(context.Context, api.Object) (api.Object, error) {
	return nil, apierr.NewBadRequest("not supported")
}

func (c *fakeClient) UpdateStatus(context.Context, api.Object) (api.Object, error) {
	return nil, apierr.NewBadRequest("not supported")
}

func (c *fakeClient) Update(_ context.Context, obj api.Object) (api.Object, error) {
	m := obj.GetObjectMeta()
	kind := api.KindOf(obj)
	c.writes = append(c.writes, fmt.Sprintf("update %s %s finalizers=%v", kind, m.Key(), m.Finalizers))
	if c.conflicts > 0 {
		c.conflicts--
		return nil, apierr.NewConflict("replicasets.apps", m.Name, apierr.OptimisticLockErrorMsg)
	}
	c.objs[kind][m.Key()] = obj.DeepCopyObject()
	return obj, nil
}

func (c *fakeClient) Patch(_ context.Context, kind api.Kind, key api.Key, pt client.PatchType, data []byte) (api.Object, error) {
	c.writes = append(c.writes, fmt.Sprintf("patch %s %s %s %s", kind, key, pt, data))
	o, ok := c.objs[kind][key]
	if !ok {
		return nil, notFound(kind, key)
	}
	return o, nil
}

func (c *fakeClient) Delete(_ context.Context, kind api.Kind, key api.Key, opts ...client.DeleteOption) error {
	var o store.DeleteOptions
	for _, f := range opts {
		f(&o)
	}
	c.writes = append(c.writes, fmt.Sprintf("delete %s %s uid=%s rv=%s policy=%s", kind, key, o.PreconditionUID, o.PreconditionResourceVersion, o.Propagation))
	if len(c.deleteErr) > 0 {
		err := c.deleteErr[0]
		c.deleteErr = c.deleteErr[1:]
		if err != nil {
			return err
		}
	}
	if _, ok := c.objs[kind][key]; !ok {
		return notFound(kind, key)
	}
	delete(c.objs[kind], key)
	return nil
}

// sleepClock records sleeps.
type sleepClock struct{ slept []time.Duration }

func (c *sleepClock) Now() time.Time                { return time.Time{} }
func (c *sleepClock) Since(time.Time) time.Duration { return 0 }
func (c *sleepClock) Sleep(d time.Duration)         { c.slept = append(c.slept, d) }
func (c *sleepClock) total() (d time.Duration)      { return sumDurations(c.slept) }
func sumDurations(ds []time.Duration) (d time.Duration) {
	for _, x := range ds {
		d += x
	}
	return d
}

// newCollector returns a collector over fc whose graph has seen objs, with
// the queues recorded.
func newCollector(fc *fakeClient, objs ...api.Object) (*collector, *[]string, *sleepClock) {
	g, q := recordingGraph()
	for _, o := range objs {
		g.onAdd(o)
	}
	*q = nil
	clock := &sleepClock{}
	return &collector{client: fc, clock: clock, graph: g}, q, clock
}

// TestAttemptToDeleteItem ports the decisions of upstream's
// attemptToDeleteItem (garbagecollector_test.go TestAttemptToDeleteItem
// and the classification it relies on): the graph holds objs, the server
// holds live.
func TestAttemptToDeleteItem(t *testing.T) {
	rs := rsObj("rs", "rs-uid")
	rs2 := rsObj("rs2", "rs2-uid")
	pod := podObj("pod", "pod-uid", ref("rs", "rs-uid", true))
	podTwoOwners := podObj("pod", "pod-uid", ref("rs", "rs-uid", true), ref("rs2", "rs2-uid", false))
	recreated := rsObj("rs", "rs-new-uid")
	waitingRS := deleting(rs, api.FinalizerDeleteDependents)
	orphaningPod := deleting(pod, api.FinalizerOrphanDependents)
	orphaningPod.DeletionTimestamp = nil // asks for orphaning, not yet deleted
	// An intermediate owner: a ReplicaSet owned by a Deployment.
	dep := &api.Deployment{TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: api.ObjectMeta{Name: "d", Namespace: "default", UID: "d-uid", ResourceVersion: "1"}}
	dRef := api.OwnerReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "d", UID: "d-uid", Controller: ptr(true), BlockOwnerDeletion: ptr(true)}
	midRS := rsObj("rs", "rs-uid", dRef)
	tests := []struct {
		name       string
		graph      []api.Object
		live       []api.Object
		item       api.UID
		wantErr    error
		wantWrites []string
		wantQueue  []string
	}{
		{name: "no owner: nothing", graph: []api.Object{rs}, live: []api.Object{rs}, item: "rs-uid"},
		{name: "owner present: nothing", graph: []api.Object{rs, pod}, live: []api.Object{rs, pod}, item: "pod-uid"},
		{name: "owner absent: delete in the background", graph: []api.Object{pod}, live: []api.Object{pod}, item: "pod-uid",
			wantWrites: []string{"delete Pod default/pod uid=pod-uid rv=1 policy=Background"}},
		{name: "owner re-created under its name: absent", graph: []api.Object{recreated, pod}, live: []api.Object{recreated, pod}, item: "pod-uid",
			wantWrites: []string{"delete Pod default/pod uid=pod-uid rv=1 policy=Background"}},
		{name: "one owner present, one absent: patch the dangling reference out", graph: []api.Object{rs2, podTwoOwners}, live: []api.Object{rs2, podTwoOwners}, item: "pod-uid",
			wantWrites: []string{`patch Pod default/pod application/merge-patch+json {"metadata":{"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"rs2","uid":"rs2-uid","controller":true,"blockOwnerDeletion":false}],"uid":"pod-uid","resourceVersion":"1"}}`}},
		{name: "owner waiting for dependents, no dependents of our own: delete in the background", graph: []api.Object{waitingRS, pod}, live: []api.Object{waitingRS, pod}, item: "pod-uid",
			wantWrites: []string{"delete Pod default/pod uid=pod-uid rv=1 policy=Background"}},
		{name: "owner waiting, we have dependents: delete in the foreground", graph: []api.Object{deleting(dep, api.FinalizerDeleteDependents), midRS, pod}, live: []api.Object{deleting(dep, api.FinalizerDeleteDependents), midRS, pod}, item: "rs-uid",
			wantWrites: []string{"delete ReplicaSet default/rs uid=rs-uid rv=1 policy=Foreground"}},
		{name: "owner waiting and one present: drop the waiting reference", graph: []api.Object{deleting(rs, api.FinalizerDeleteDependents), rs2, podTwoOwners}, live: []api.Object{waitingRS, rs2, podTwoOwners}, item: "pod-uid",
			wantWrites: []string{`patch Pod default/pod application/merge-patch+json {"metadata":{"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"rs2","uid":"rs2-uid","controller":true,"blockOwnerDeletion":false}],"uid":"pod-uid","resourceVersion":"1"}}`}},
		{name: "owner absent, own orphan finalizer honoured", graph: []api.Object{orphaningPod}, live: []api.Object{orphaningPod}, item: "pod-uid",
			wantWrites: []string{"delete Pod default/pod uid=pod-uid rv=1 policy=Orphan"}},
		{name: "item gone: removed from the graph", graph: []api.Object{rs, pod}, live: []api.Object{rs}, item: "pod-uid", wantErr: errVirtualDelete},
		{name: "item re-created: removed from the graph", graph: []api.Object{rs, pod}, live: []api.Object{rs, podObj("pod", "other-uid")}, item: "pod-uid", wantErr: errVirtualDelete},
		{name: "being deleted without foreground: wait", graph: []api.Object{deleting(pod, "example.com/hold")}, live: []api.Object{deleting(pod, "example.com/hold")}, item: "pod-uid"},
		{name: "foreground, no blocking dependent left: remove the finalizer", graph: []api.Object{waitingRS}, live: []api.Object{waitingRS}, item: "rs-uid",
			wantWrites: []string{"update ReplicaSet default/rs finalizers=[]"}},
		{name: "foreground, blocking dependents: send them to be deleted", graph: []api.Object{waitingRS, pod}, live: []api.Object{waitingRS, pod}, item: "rs-uid",
			wantQueue: []string{"delete:pod-uid"}},
		{name: "foreground, a non-blocking dependent does not hold it", graph: []api.Object{waitingRS, podObj("pod", "pod-uid", ref("rs", "rs-uid", false))}, live: []api.Object{waitingRS}, item: "rs-uid",
			wantWrites: []string{"update ReplicaSet default/rs finalizers=[]"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fc := newFakeClient(tc.live...)
			gc, q, _ := newCollector(fc, tc.graph...)
			n := gc.graph.node(tc.item)
			if n == nil {
				t.Fatalf("no node %s", tc.item)
			}
			err := gc.attemptToDeleteItem(context.Background(), n)
			if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil && err != nil) {
				t.Fatalf("error %v, want %v", err, tc.wantErr)
			}
			if !slices.Equal(fc.writes, tc.wantWrites) {
				t.Errorf("writes\n%q\nwant\n%q", fc.writes, tc.wantWrites)
			}
			if tc.wantErr == nil && !slices.Equal(*q, tc.wantQueue) {
				t.Errorf("queued %v, want %v", *q, tc.wantQueue)
			}
			if errors.Is(tc.wantErr, errVirtualDelete) && gc.graph.node(tc.item) != nil {
				t.Error("the gone item is still in the graph")
			}
		})
	}
}

// TestAbsentOwnerCache: an owner found absent once is not read again.
func TestAbsentOwnerCache(t *testing.T) {
	pod1 := podObj("pod1", "pod1-uid", ref("rs", "rs-uid", true))
	pod2 := podObj("pod2", "pod2-uid", ref("rs", "rs-uid", true))
	fc := newFakeClient(pod1, pod2)
	gc, _, _ := newCollector(fc, pod1, pod2)
	for _, uid := range []api.UID{"pod1-uid", "pod2-uid"} {
		if err := gc.attemptToDeleteItem(context.Background(), gc.graph.node(uid)); err != nil {
			t.Fatal(err)
		}
	}
	// pod1: get pod1, get rs (absent); pod2: get pod2 only.
	if fc.gets != 3 {
		t.Errorf("%d reads, want 3", fc.gets)
	}
}

func TestRemoveFinalizerRetries(t *testing.T) {
	for _, tc := range []struct {
		conflicts  int
		wantErr    bool
		wantWrites int
		wantSleep  time.Duration
	}{
		{conflicts: 0, wantWrites: 1},
		{conflicts: 2, wantWrites: 3, wantSleep: 60 * time.Millisecond},
		{conflicts: 4, wantErr: true, wantWrites: 4, wantSleep: 310 * time.Millisecond},
	} {
		t.Run(strconv.Itoa(tc.conflicts), func(t *testing.T) {
			waiting := deleting(rsObj("rs", "rs-uid"), api.FinalizerDeleteDependents, "example.com/other")
			fc := newFakeClient(waiting)
			fc.conflicts = tc.conflicts
			gc, _, clock := newCollector(fc, waiting)
			err := gc.removeFinalizer(context.Background(), gc.graph.node("rs-uid"), api.FinalizerDeleteDependents)
			if (err != nil) != tc.wantErr || (err != nil && !errors.Is(err, apierr.ErrConflict)) {
				t.Fatalf("error %v, want conflict error %v", err, tc.wantErr)
			}
			if len(fc.writes) != tc.wantWrites || clock.total() != tc.wantSleep {
				t.Errorf("%d writes, slept %v; want %d, %v", len(fc.writes), clock.total(), tc.wantWrites, tc.wantSleep)
			}
			if !tc.wantErr {
				left := fc.objs[api.KindReplicaSet][api.Key{Namespace: "default", Name: "rs"}].GetObjectMeta().Finalizers
				if !slices.Equal(left, []string{"example.com/other"}) {
					t.Errorf("finalizers %v, want only the other one", left)
				}
			}
		})
	}
}

// TestDeleteObjectConflict ports upstream's retry: a conflict on the
// resourceVersion precondition is retried without it when the owner
// references did not change, and dropped when the object is gone.
func TestDeleteObjectConflict(t *testing.T) {
	pod := podObj("pod", "pod-uid", ref("rs", "rs-uid", true))
	conflict := apierr.NewConflict("pods", "pod", "Precondition failed")
	id := identityOf(pod)
	for _, tc := range []struct {
		name       string
		live       []api.Object
		owners     []api.OwnerReference
		wantWrites int
		wantErr    bool
	}{
		{name: "owners unchanged: retry without resourceVersion", live: []api.Object{pod}, owners: pod.OwnerReferences, wantWrites: 2},
		{name: "owners changed: give up, the queue retries", live: []api.Object{pod}, owners: nil, wantWrites: 1, wantErr: true},
		{name: "gone: success", live: nil, owners: pod.OwnerReferences, wantWrites: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fc := newFakeClient(tc.live...)
			fc.deleteErr = []error{conflict}
			gc, _, _ := newCollector(fc)
			err := gc.deleteObject(context.Background(), id, "1", tc.owners, client.Background)
			if (err != nil) != tc.wantErr || len(fc.writes) != tc.wantWrites {
				t.Errorf("error %v after %d writes %q; want error=%v after %d", err, len(fc.writes), fc.writes, tc.wantErr, tc.wantWrites)
			}
			if tc.wantWrites == 2 && !strings.HasSuffix(fc.writes[1], "rv= policy=Background") {
				t.Errorf("retry %q still carries the resourceVersion", fc.writes[1])
			}
		})
	}
}

func TestOrphanDependents(t *testing.T) {
	rs := deleting(rsObj("rs", "rs-uid"), api.FinalizerOrphanDependents)
	pod1 := podObj("pod1", "pod1-uid", ref("rs", "rs-uid", true))
	pod2 := podObj("pod2", "pod2-uid", ref("rs", "rs-uid", true), ref("rs2", "rs2-uid", false))
	fc := newFakeClient(rs, pod1, pod2)
	gc, _, _ := newCollector(fc, rs, pod1, pod2)
	if _, err := gc.reconcileOrphan(context.Background(), requestFor(gc.graph.node("rs-uid"))); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`patch Pod default/pod1 application/merge-patch+json {"metadata":{"ownerReferences":[],"uid":"pod1-uid","resourceVersion":"1"}}`,
		`patch Pod default/pod2 application/merge-patch+json {"metadata":{"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"rs2","uid":"rs2-uid","controller":true,"blockOwnerDeletion":false}],"uid":"pod2-uid","resourceVersion":"1"}}`,
		"update ReplicaSet default/rs finalizers=[]",
	}
	if !slices.Equal(fc.writes, want) {
		t.Errorf("writes\n%q\nwant\n%q", fc.writes, want)
	}
}

// TestReconcileDeleteRequeuesVirtual: a virtual node whose object exists
// is polled until an informer observes it; one confirmed absent is
// dropped.
func TestReconcileDeleteRequeuesVirtual(t *testing.T) {
	pod := podObj("pod", "pod-uid", ref("rs", "rs-uid", true))
	rs := rsObj("rs", "rs-uid")
	ctx := context.Background()
	fc := newFakeClient(pod, rs)
	gc, _, _ := newCollector(fc, pod)
	req := requestFor(gc.graph.node("rs-uid"))
	res, err := gc.reconcileDelete(ctx, req)
	if err != nil || res != (controller.Result{Requeue: true}) {
		t.Errorf("virtual, live: result %+v, error %v; want a requeue", res, err)
	}
	delete(fc.objs[api.KindReplicaSet], rs.GetObjectMeta().Key())
	res, err = gc.reconcileDelete(ctx, req)
	if err != nil || !res.IsZero() || gc.graph.node("rs-uid") != nil {
		t.Errorf("virtual, gone: result %+v, error %v, node %v; want it dropped", res, err, gc.graph.node("rs-uid"))
	}
	if res, err := gc.reconcileDelete(ctx, req); err != nil || !res.IsZero() {
		t.Errorf("unknown uid: result %+v, error %v; want nothing", res, err)
	}
}
