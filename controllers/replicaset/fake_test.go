package replicaset

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/informer"
)

// This file holds in-memory stand-ins for the informer caches, the client,
// the recorder and the clock, so that the reconciler can be driven call by
// call, as upstream's unit tests drive syncReplicaSet with fake clients.

// fakeLister is a map-backed informer cache. Like an informer, it tells
// its handlers of every change, after making it.
type fakeLister struct {
	objs     map[api.Key]api.Object
	handlers []informer.Handler
	// byController is the informer.IndexController index.
	byController map[string]map[api.Key]api.Object
}

func newFakeLister(objs ...api.Object) *fakeLister {
	l := &fakeLister{objs: map[api.Key]api.Object{}, byController: map[string]map[api.Key]api.Object{}}
	for _, o := range objs {
		l.add(o)
	}
	return l
}

// add puts o in the cache, replacing the object of its key.
func (l *fakeLister) add(o api.Object) {
	key := o.GetObjectMeta().Key()
	old, ok := l.objs[key]
	l.objs[key] = o
	if ok {
		l.unindex(key, old)
	}
	l.index(key, o)
	for _, h := range l.handlers {
		if ok {
			h.OnUpdate(old, o)
		} else {
			h.OnAdd(o)
		}
	}
}

// remove takes the object of key out of the cache.
func (l *fakeLister) remove(key api.Key) {
	old, ok := l.objs[key]
	if !ok {
		return
	}
	delete(l.objs, key)
	l.unindex(key, old)
	for _, h := range l.handlers {
		h.OnDelete(old)
	}
}

func (l *fakeLister) index(key api.Key, o api.Object) {
	for _, v := range informer.ByController(o, nil) {
		if l.byController[v] == nil {
			l.byController[v] = map[api.Key]api.Object{}
		}
		l.byController[v][key] = o
	}
}

func (l *fakeLister) unindex(key api.Key, o api.Object) {
	for _, v := range informer.ByController(o, nil) {
		delete(l.byController[v], key)
	}
}

func (l *fakeLister) Get(key api.Key) (api.Object, bool) {
	o, ok := l.objs[key]
	return o, ok
}

func (l *fakeLister) List(sel api.Selector, ns string) []api.Object {
	var out []api.Object
	for k, o := range l.objs {
		if (ns == "" || k.Namespace == ns) && sel.Matches(o.GetObjectMeta().Labels) {
			out = append(out, o)
		}
	}
	slices.SortFunc(out, compareObjects)
	return out
}

// compareObjects orders objects by namespace and name, as informers list
// them.
func compareObjects(a, b api.Object) int {
	ka, kb := a.GetObjectMeta().Key(), b.GetObjectMeta().Key()
	return cmp.Or(strings.Compare(ka.Namespace, kb.Namespace), strings.Compare(ka.Name, kb.Name))
}

// ByIndex lists the objects filed under value by the index function
// informer names name, in namespace/name order.
func (l *fakeLister) ByIndex(name, value string) []api.Object {
	if name != informer.IndexController {
		panic("fakeLister: no index " + name)
	}
	var out []api.Object
	for _, o := range l.byController[value] {
		out = append(out, o)
	}
	slices.SortFunc(out, compareObjects)
	return out
}

// action is one call the fake client received.
type action struct {
	verb string // get, create, update-status, patch, delete
	kind api.Kind
	key  api.Key
	body string // patch body
}

// fakeClient answers from a map of objects and records every call. Errors
// can be injected per verb; createLimit makes creates beyond the first n
// fail with Forbidden, like an exhausted quota.
type fakeClient struct {
	objs        map[api.Kind]map[api.Key]api.Object
	actions     []action
	errs        map[string]error // by verb; consumed by failNext
	failNext    map[string]int   // by verb: fail this many more calls
	createLimit int              // <0: unlimited
	creates     int
	names       int
	rv          int
}

func newFakeClient(objs ...api.Object) *fakeClient {
	c := &fakeClient{objs: map[api.Kind]map[api.Key]api.Object{}, errs: map[string]error{}, failNext: map[string]int{}, createLimit: -1}
	for _, o := range objs {
		c.put(o.DeepCopyObject())
	}
	return c
}

func (c *fakeClient) put(o api.Object) {
	k := api.KindOf(o)
	if c.objs[k] == nil {
		c.objs[k] = map[api.Key]api.Object{}
	}
	c.objs[k][o.GetObjectMeta().Key()] = o
}

func (c *fakeClient) fail(verb string, n int, err error) {
	c.failNext[verb] = n
	c.errs[verb] = err
}

func (c *fakeClient) injected(verb string) error {
	if c.failNext[verb] > 0 {
		c.failNext[verb]--
		return c.errs[verb]
	}
	return nil
}

func (c *fakeClient) count(verb string) int {
	n := 0
	for _, a := range c.actions {
		if a.verb == verb {
			n++
		}
	}
	return n
}

func (c *fakeClient) Actor() string { return "fake" }

func (c *fakeClient) Get(_ context.Context, kind api.Kind, key api.Key) (api.Object, error) {
	c.actions = append(c.actions, action{verb: "get", kind: kind, key: key})
	if err := c.injected("get"); err != nil {
		return nil, err
	}
	o, ok := c.objs[kind][key]
	if !ok {
		return nil, apierr.NewNotFound(strings.ToLower(kind.Name)+"s", key.Name)
	}
	return o.DeepCopyObject(), nil
}

func (c *fakeClient) List(context.Context, api.Kind, ...client.ListOption) (*client.List, error) {
	return nil, apierr.NewBadRequest("list not supported by the fake")
}

func (c *fakeClient) Create(_ context.Context, obj api.Object) (api.Object, error) {
	m := obj.GetObjectMeta()
	c.actions = append(c.actions, action{verb: "create", kind: api.KindOf(obj), key: m.Key()})
	if err := c.injected("create"); err != nil {
		return nil, err
	}
	c.creates++
	if c.createLimit >= 0 && c.creates > c.createLimit {
		return nil, apierr.NewForbidden("pods", "", "exceeded quota: pods, requested: pods=1, used: pods=10, limited: pods=10")
	}
	o := obj.DeepCopyObject()
	m = o.GetObjectMeta()
	if m.Name == "" {
		c.names++
		m.Name = m.GenerateName + strconv.Itoa(c.names)
	}
	m.UID = api.UID("uid-" + m.Name)
	c.rv++
	m.ResourceVersion = strconv.Itoa(c.rv)
	c.put(o)
	return o.DeepCopyObject(), nil
}

func (c *fakeClient) Update(_ context.Context, obj api.Object) (api.Object, error) {
	c.actions = append(c.actions, action{verb: "update", kind: api.KindOf(obj), key: obj.GetObjectMeta().Key()})
	if err := c.injected("update"); err != nil {
		return nil, err
	}
	o := obj.DeepCopyObject()
	c.put(o)
	return o.DeepCopyObject(), nil
}

func (c *fakeClient) UpdateStatus(_ context.Context, obj api.Object) (api.Object, error) {
	c.actions = append(c.actions, action{verb: "update-status", kind: api.KindOf(obj), key: obj.GetObjectMeta().Key()})
	if err := c.injected("update-status"); err != nil {
		return nil, err
	}
	o := obj.DeepCopyObject()
	c.rv++
	o.GetObjectMeta().ResourceVersion = strconv.Itoa(c.rv)
	c.put(o)
	return o.DeepCopyObject(), nil
}

func (c *fakeClient) Patch(_ context.Context, kind api.Kind, key api.Key, _ client.PatchType, data []byte) (api.Object, error) {
	c.actions = append(c.actions, action{verb: "patch", kind: kind, key: key, body: string(data)})
	if err := c.injected("patch"); err != nil {
		return nil, err
	}
	o, ok := c.objs[kind][key]
	if !ok {
		return nil, apierr.NewNotFound(strings.ToLower(kind.Name)+"s", key.Name)
	}
	return o.DeepCopyObject(), nil
}

func (c *fakeClient) Delete(_ context.Context, kind api.Kind, key api.Key, _ ...client.DeleteOption) error {
	c.actions = append(c.actions, action{verb: "delete", kind: kind, key: key})
	if err := c.injected("delete"); err != nil {
		return err
	}
	if _, ok := c.objs[kind][key]; !ok {
		return apierr.NewNotFound(strings.ToLower(kind.Name)+"s", key.Name)
	}
	delete(c.objs[kind], key)
	return nil
}

// patchOwners decodes the ownerReferences of a recorded patch body.
func patchOwners(body string) ([]api.OwnerReference, error) {
	var p objectPatch
	if err := json.Unmarshal([]byte(body), &p); err != nil {
		return nil, err
	}
	return p.Metadata.OwnerReferences, nil
}

// fakeRecorder keeps every event as "Type Reason Message".
type fakeRecorder struct {
	events []string
}

func (r *fakeRecorder) Eventf(_ api.Object, eventType, reason, messageFmt string, args ...any) {
	r.events = append(r.events, eventType+" "+reason+" "+fmt.Sprintf(messageFmt, args...))
}

// fakeClock is a settable PassiveClock.
type fakeClock struct {
	now time.Time
}

func (c *fakeClock) Now() time.Time                  { return c.now }
func (c *fakeClock) Since(t time.Time) time.Duration { return c.now.Sub(t) }
func (c *fakeClock) step(d time.Duration)            { c.now = c.now.Add(d) }

// testEpoch is the fake clock's start.
var testEpoch = time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC)

// harness is a reconciler over fakes.
type harness struct {
	r        *reconciler
	client   *fakeClient
	rss      *fakeLister
	pods     *fakeLister
	recorder *fakeRecorder
	clock    *fakeClock
	queued   []api.Key
	after    map[api.Key]time.Duration
}

func newHarness(burst int) *harness {
	h := &harness{
		client:   newFakeClient(),
		rss:      newFakeLister(),
		pods:     newFakeLister(),
		recorder: &fakeRecorder{},
		clock:    &fakeClock{now: testEpoch},
		after:    map[api.Key]time.Duration{},
	}
	h.r = &reconciler{
		client:   h.client,
		recorder: h.recorder,
		clock:    h.clock,
		rss:      h.rss,
		pods:     h.pods,
		exp:      NewExpectations(h.clock),
		agg:      newPodAggregates(),
		burst:    burst,
		slow:     SlowStartInitialBatchSize,
		enqueue:  func(k api.Key) { h.queued = append(h.queued, k) },
		enqueueAfter: func(k api.Key, d time.Duration) {
			h.after[k] = d
		},
	}
	h.pods.handlers = append(h.pods.handlers, h.r.agg.handler())
	return h
}

// addRS puts rs in the cache and in the fake server.
func (h *harness) addRS(rs *api.ReplicaSet) {
	h.rss.add(rs)
	h.client.put(rs.DeepCopy())
}

// addPods puts pods in the cache and in the fake server.
func (h *harness) addPods(pods ...*api.Pod) {
	for _, p := range pods {
		h.pods.add(p)
		h.client.put(p.DeepCopy())
	}
}

func int32p(v int32) *int32 { return &v }

// newReplicaSet is upstream's test ReplicaSet: template labels
// name=foo,type=production, the given selector, in namespace default.
func newReplicaSet(replicas int32, selector map[string]string) *api.ReplicaSet {
	return &api.ReplicaSet{
		TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"},
		ObjectMeta: api.ObjectMeta{
			UID: "rs-uid", Name: "foobar", Namespace: "default", ResourceVersion: "18", Generation: 1,
		},
		Spec: api.ReplicaSetSpec{
			Replicas: int32p(replicas),
			Selector: &api.LabelSelector{MatchLabels: selector},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: map[string]string{"name": "foo", "type": "production"}},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: "c", Image: "foo/bar"}}},
			},
		},
	}
}

// newPod is upstream's test pod: labels = the ReplicaSet's selector, a
// Ready=True condition when running, and a controller reference to rs when
// owned.
func newPod(name string, rs *api.ReplicaSet, phase api.PodPhase, readySince *time.Time, owned bool) *api.Pod {
	p := &api.Pod{
		TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: rs.Namespace, UID: api.UID("uid-" + name), Labels: rs.Spec.Selector.MatchLabels, ResourceVersion: "1"},
		Status:     api.PodStatus{Phase: phase},
	}
	if phase == api.PodRunning {
		c := api.PodCondition{Type: api.PodReady, Status: api.ConditionTrue}
		if readySince != nil {
			c.LastTransitionTime = api.NewTime(*readySince)
		}
		p.Status.Conditions = []api.PodCondition{c}
	}
	if owned {
		p.OwnerReferences = []api.OwnerReference{api.NewControllerRef(rs)}
	}
	return p
}

// newPods returns n owned pods named <prefix><i>.
func newPods(n int, prefix string, rs *api.ReplicaSet, phase api.PodPhase) []*api.Pod {
	var out []*api.Pod
	for i := range n {
		out = append(out, newPod(fmt.Sprintf("%s%d", prefix, i), rs, phase, nil, true))
	}
	return out
}
