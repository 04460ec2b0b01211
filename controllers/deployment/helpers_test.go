package deployment

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/informer"
)

// testTime is the fake clock's default time.
var testTime = time.Date(2017, 2, 15, 18, 49, 0, 0, time.UTC)

// fakeClock is a PassiveClock standing still at t.
type fakeClock struct{ t time.Time }

func (c *fakeClock) Now() time.Time                  { return c.t }
func (c *fakeClock) Since(t time.Time) time.Duration { return c.t.Sub(t) }

// event is one recorded event.
type event struct {
	object, typ, reason, message string
}

// fakeRecorder keeps every event.
type fakeRecorder struct{ events []event }

func (r *fakeRecorder) Eventf(obj api.Object, typ, reason, format string, args ...any) {
	r.events = append(r.events, event{object: obj.GetObjectMeta().Name, typ: typ, reason: reason, message: fmt.Sprintf(format, args...)})
}

func (r *fakeRecorder) reasons() []string {
	var out []string
	for _, e := range r.events {
		out = append(out, e.reason)
	}
	return out
}

// action is one call the fake client received.
type action struct {
	verb string // get, list, create, update, update-status, delete, patch
	kind api.Kind
	key  api.Key
	obj  api.Object // a copy of what was sent (nil for get, list, delete)
}

func (a action) String() string { return a.verb + " " + a.kind.Name + " " + a.key.String() }

// fakeClient is an in-memory Client that records every call. fail, if
// set, may refuse a call with an error (the call is recorded anyway).
type fakeClient struct {
	objs    map[api.Kind]map[api.Key]api.Object
	actions []action
	fail    func(a action) error
	uid     int
	rv      int
}

var _ client.Client = (*fakeClient)(nil)

func newFakeClient(objs ...api.Object) *fakeClient {
	c := &fakeClient{objs: map[api.Kind]map[api.Key]api.Object{}}
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

func (c *fakeClient) record(a action) error {
	if a.obj != nil {
		a.obj = a.obj.DeepCopyObject()
	}
	c.actions = append(c.actions, a)
	if c.fail != nil {
		return c.fail(a)
	}
	return nil
}

func (c *fakeClient) Actor() string { return Actor }

func (c *fakeClient) Get(_ context.Context, kind api.Kind, key api.Key) (api.Object, error) {
	if err := c.record(action{verb: "get", kind: kind, key: key}); err != nil {
		return nil, err
	}
	o, ok := c.objs[kind][key]
	if !ok {
		return nil, apierr.NewNotFound(kind.Name, key.Name)
	}
	return o.DeepCopyObject(), nil
}

func (c *fakeClient) List(_ context.Context, kind api.Kind, _ ...client.ListOption) (*client.List, error) {
	if err := c.record(action{verb: "list", kind: kind}); err != nil {
		return nil, err
	}
	l := &client.List{}
	for _, o := range c.objs[kind] {
		l.Items = append(l.Items, o.DeepCopyObject())
	}
	slices.SortFunc(l.Items, func(a, b api.Object) int {
		return compareKeys(a.GetObjectMeta().Key(), b.GetObjectMeta().Key())
	})
	return l, nil
}

func compareKeys(a, b api.Key) int {
	if a.Namespace != b.Namespace {
		if a.Namespace < b.Namespace {
			return -1
		}
		return 1
	}
	switch {
	case a.Name < b.Name:
		return -1
	case a.Name > b.Name:
		return 1
	}
	return 0
}

func (c *fakeClient) nextRV() string {
	c.rv++
	return strconv.Itoa(1000 + c.rv)
}

func (c *fakeClient) Create(_ context.Context, obj api.Object) (api.Object, error) {
	m := obj.GetObjectMeta()
	kind := api.KindOf(obj)
	if err := c.record(action{verb: "create", kind: kind, key: m.Key(), obj: obj}); err != nil {
		return nil, err
	}
	if _, ok := c.objs[kind][m.Key()]; ok {
		return nil, apierr.NewAlreadyExists(kind.Name, m.Name)
	}
	o := obj.DeepCopyObject()
	om := o.GetObjectMeta()
	c.uid++
	om.UID = api.UID(fmt.Sprintf("uid-%d", c.uid))
	om.ResourceVersion = c.nextRV()
	om.Generation = 1
	om.CreationTimestamp = api.NewTime(testTime)
	c.put(o)
	return o.DeepCopyObject(), nil
}

func (c *fakeClient) update(verb string, obj api.Object) (api.Object, error) {
	m := obj.GetObjectMeta()
	kind := api.KindOf(obj)
	if err := c.record(action{verb: verb, kind: kind, key: m.Key(), obj: obj}); err != nil {
		return nil, err
	}
	o := obj.DeepCopyObject()
	o.GetObjectMeta().ResourceVersion = c.nextRV()
	c.put(o)
	return o.DeepCopyObject(), nil
}

func (c *fakeClient) Update(_ context.Context, obj api.Object) (api.Object, error) {
	return c.update("update", obj)
}

func (c *fakeClient) UpdateStatus(_ context.Context, obj api.Object) (api.Object, error) {
	return c.update("update-status", obj)
}

func (c *fakeClient) Patch(_ context.Context, kind api.Kind, key api.Key, _ client.PatchType, _ []byte) (api.Object, error) {
	if err := c.record(action{verb: "patch", kind: kind, key: key}); err != nil {
		return nil, err
	}
	return nil, apierr.NewBadRequest("the fake client does not patch")
}

func (c *fakeClient) Delete(_ context.Context, kind api.Kind, key api.Key, _ ...client.DeleteOption) error {
	if err := c.record(action{verb: "delete", kind: kind, key: key}); err != nil {
		return err
	}
	if _, ok := c.objs[kind][key]; !ok {
		return apierr.NewNotFound(kind.Name, key.Name)
	}
	delete(c.objs[kind], key)
	return nil
}

// writes returns the recorded actions other than get and list.
func (c *fakeClient) writes() []action {
	var out []action
	for _, a := range c.actions {
		if a.verb != "get" && a.verb != "list" {
			out = append(out, a)
		}
	}
	return out
}

// verbs returns "verb kind name" for each write.
func (c *fakeClient) verbs() []string {
	var out []string
	for _, a := range c.writes() {
		out = append(out, a.verb+" "+a.kind.Name+" "+a.key.Name)
	}
	return out
}

// fakeCache is a cache over a slice of objects.
type fakeCache struct{ objs []api.Object }

func newFakeCache[T api.Object](objs ...T) *fakeCache {
	c := &fakeCache{}
	for _, o := range objs {
		c.objs = append(c.objs, o)
	}
	return c
}

func (c *fakeCache) Get(key api.Key) (api.Object, bool) {
	for _, o := range c.objs {
		if o.GetObjectMeta().Key() == key {
			return o, true
		}
	}
	return nil, false
}

func (c *fakeCache) List(sel api.Selector, namespace string) []api.Object {
	var out []api.Object
	for _, o := range c.objs {
		m := o.GetObjectMeta()
		if namespace != "" && m.Namespace != namespace {
			continue
		}
		if !sel.Empty() && !sel.Matches(m.Labels) {
			continue
		}
		out = append(out, o)
	}
	slices.SortFunc(out, func(a, b api.Object) int {
		return compareKeys(a.GetObjectMeta().Key(), b.GetObjectMeta().Key())
	})
	return out
}

// ByIndex filters the objects by the index function informer names name.
func (c *fakeCache) ByIndex(name, value string) []api.Object {
	if name != informer.IndexController {
		panic("fakeCache: no index " + name)
	}
	var out []api.Object
	for _, o := range c.List(api.Everything(), "") {
		if slices.Contains(informer.ByController(o, nil), value) {
			out = append(out, o)
		}
	}
	return out
}

// fixture is a reconciler over fakes.
type fixture struct {
	t        *testing.T
	client   *fakeClient
	recorder *fakeRecorder
	clock    *fakeClock
	ds       *fakeCache
	rss      *fakeCache
	pods     *fakeCache
	r        *reconciler
	enqueued []api.Key
	// rateLimited are the keys enqueued rate-limited (enqueueRateLimited).
	rateLimited []api.Key
}

// newFixture builds a reconciler whose caches and client both hold objs.
func newFixture(t *testing.T, objs ...api.Object) *fixture {
	f := &fixture{t: t, client: newFakeClient(objs...), recorder: &fakeRecorder{}, clock: &fakeClock{t: testTime},
		ds: &fakeCache{}, rss: &fakeCache{}, pods: &fakeCache{}}
	for _, o := range objs {
		switch o.(type) {
		case *api.Deployment:
			f.ds.objs = append(f.ds.objs, o)
		case *api.ReplicaSet:
			f.rss.objs = append(f.rss.objs, o)
		case *api.Pod:
			f.pods.objs = append(f.pods.objs, o)
		}
	}
	f.r = newReconciler(f.client, f.recorder, f.clock, f.ds, f.rss, f.pods, Options{})
	f.r.enqueue = func(k api.Key) { f.enqueued = append(f.enqueued, k) }
	f.r.enqueueRateLimited = func(k api.Key) { f.rateLimited = append(f.rateLimited, k) }
	return f
}

// pass returns a new sync pass of the fixture's reconciler.
func (f *fixture) pass() *pass { return &pass{reconciler: f.r, ctx: context.Background()} }

// lastStatus returns the last Deployment status the client was sent.
func (f *fixture) lastStatus() *api.Deployment {
	var last *api.Deployment
	for _, a := range f.client.writes() {
		if a.verb == "update-status" && a.kind == api.KindDeployment {
			last = a.obj.(*api.Deployment)
		}
	}
	return last
}

func int32p(v int32) *int32 { return &v }

func intstrp(v api.IntOrString) *api.IntOrString { return &v }

// newDeployment is upstream's test helper: a RollingUpdate Deployment with
// maxSurge and maxUnavailable 0 unless given, template labels = selector.
func newDeployment(name string, replicas int32, revisionHistoryLimit *int32, maxSurge, maxUnavailable *api.IntOrString, selector map[string]string) *api.Deployment {
	zero := api.FromInt32(0)
	d := &api.Deployment{
		TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: api.ObjectMeta{
			UID:         api.UID("uid-" + name),
			Name:        name,
			Namespace:   "default",
			Annotations: map[string]string{},
			Generation:  1,
		},
		Spec: api.DeploymentSpec{
			Strategy: api.DeploymentStrategy{
				Type: api.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &api.RollingUpdateDeployment{
					MaxUnavailable: intstrp(zero),
					MaxSurge:       intstrp(zero),
				},
			},
			Replicas: int32p(replicas),
			Selector: &api.LabelSelector{MatchLabels: selector},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: selector},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: "foo", Image: "foo/bar"}}},
			},
			RevisionHistoryLimit: revisionHistoryLimit,
		},
	}
	if maxSurge != nil {
		d.Spec.Strategy.RollingUpdate.MaxSurge = maxSurge
	}
	if maxUnavailable != nil {
		d.Spec.Strategy.RollingUpdate.MaxUnavailable = maxUnavailable
	}
	return d
}

// newReplicaSet is a ReplicaSet of d with d's template, controlled by d.
func newReplicaSet(d *api.Deployment, name string, replicas int32) *api.ReplicaSet {
	return &api.ReplicaSet{
		TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"},
		ObjectMeta: api.ObjectMeta{
			Name:            name,
			UID:             api.UID("uid-" + name),
			Namespace:       "default",
			Labels:          d.Spec.Selector.MatchLabels,
			OwnerReferences: []api.OwnerReference{api.NewControllerRef(d)},
			ResourceVersion: "1",
		},
		Spec: api.ReplicaSetSpec{
			Selector: d.Spec.Selector.DeepCopy(),
			Replicas: int32p(replicas),
			Template: *d.Spec.Template.DeepCopy(),
		},
	}
}

// rs is upstream's minimal ReplicaSet.
func rs(name string, replicas int32, selector map[string]string, timestamp time.Time) *api.ReplicaSet {
	return &api.ReplicaSet{
		ObjectMeta: api.ObjectMeta{
			Name:              name,
			UID:               api.UID("uid-" + name),
			Namespace:         "default",
			CreationTimestamp: api.NewTime(timestamp),
		},
		Spec: api.ReplicaSetSpec{
			Replicas: int32p(replicas),
			Selector: &api.LabelSelector{MatchLabels: selector},
		},
	}
}

func newRSWithStatus(name string, specReplicas, statusReplicas int32, selector map[string]string) *api.ReplicaSet {
	r := rs(name, specReplicas, selector, time.Time{})
	r.Status = api.ReplicaSetStatus{Replicas: statusReplicas}
	return r
}

// podOf is a pod of rs, named <rs>-pod, controlled by rs.
func podOf(r *api.ReplicaSet) *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{
			Name:            r.Name + "-pod",
			Namespace:       r.Namespace,
			Labels:          r.Spec.Selector.MatchLabels,
			OwnerReferences: []api.OwnerReference{api.NewControllerRef(r)},
		},
		Spec: r.Spec.Template.Spec,
	}
}

// setRollbackTo requests a rollback of d to revision, as the
// extensions/v1beta1 API's spec.rollbackTo did.
func setRollbackTo(d *api.Deployment, revision int64) {
	if d.Annotations == nil {
		d.Annotations = map[string]string{}
	}
	d.Annotations[DeprecatedRollbackToAnnotation] = strconv.FormatInt(revision, 10)
}
