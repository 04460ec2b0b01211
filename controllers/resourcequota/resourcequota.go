// Package resourcequota is kube-controller-manager's resource quota
// controller (k/k pkg/controller/resourcequota): it keeps every
// ResourceQuota's status current, status.hard copied from spec.hard and
// status.used recalculated from the objects in the quota's namespace. The
// ResourceQuota admission plugin charges new objects against status.used;
// this controller is what gives usage back when objects go away, at once
// when an object is deleted, a pod finishes or outlives its grace period
// terminating, or a Service changes type ("replenishment", upstream's
// QuotaMonitor), and for everything at each full resync (every 5 minutes
// by default). Like upstream's, it is not asked to recount on creates or
// other updates, nor on status writes to the quota: a quota's cost does
// not grow with its namespace's pod churn. Objects held by
// finalizers after their deletion count until they are gone; a pod stuck
// terminating past its grace period counts only in count/pods (upstream's
// QuotaV1Pod).
//
// Imports: api, apierr and the controller runtime only.
package resourcequota

import (
	"context"
	"slices"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
)

// Actor is the identity Kubernetes runs this controller as.
const Actor = "system:serviceaccount:kube-system:resourcequota-controller"

// DefaultResyncPeriod is kube-controller-manager's
// --resource-quota-sync-period.
const DefaultResyncPeriod = 5 * time.Minute

// Counted lists the kinds whose objects quotas count (besides pods, whose
// compute resources count too).
var Counted = []api.Kind{api.KindPod, api.KindService, api.KindConfigMap, api.KindDeployment, api.KindReplicaSet, api.KindResourceQuota}

// Options configure the controller.
type Options struct {
	// Workers is the number of workers (--concurrent-resource-quota-syncs,
	// default 5).
	Workers int
	// ResyncPeriod is how often every quota is recalculated; 0 means
	// DefaultResyncPeriod.
	ResyncPeriod time.Duration
	// Kinds are further kinds to count besides Counted (Secrets,
	// PersistentVolumeClaims, Jobs ...: api.QuotaCountedKind of a quota's
	// resources). Upstream counts every kind a quota names; here each
	// counted kind costs an informer, so the runner passes the kinds the
	// scenario's quotas name.
	Kinds []api.Kind
}

// Reconciler recalculates one quota per request.
type Reconciler struct {
	Client  client.Client
	Quotas  informer.Lister
	Objects map[api.Kind]informer.Lister
	// Kinds are the keys of Objects in the order they are counted.
	Kinds  []api.Kind
	Resync time.Duration
	// Clock tells when a terminating pod's grace period has run out; nil
	// charges every terminating pod.
	Clock client.PassiveClock

	// tallies are the quotas' last recounts, by quota (see tally); made
	// on first use.
	tallies map[api.Key]*tally
}

// Setup registers the controller with a manager.
func Setup(m *controller.Manager, opts Options) error {
	if opts.Workers <= 0 {
		opts.Workers = 5
	}
	if opts.ResyncPeriod <= 0 {
		opts.ResyncPeriod = DefaultResyncPeriod
	}
	quotas, err := m.Informer(api.KindResourceQuota, informer.Options{})
	if err != nil {
		return err
	}
	r := &Reconciler{Client: m.Client(), Quotas: quotas.Lister(), Objects: map[api.Kind]informer.Lister{}, Resync: opts.ResyncPeriod, Clock: m.Clock()}
	c, err := m.NewController("resourcequota", controller.Options{Workers: opts.Workers}, r)
	if err != nil {
		return err
	}
	enqueue := func(obj api.Object) { c.Enqueue(controller.Request{Key: obj.GetObjectMeta().Key()}) }
	// As upstream's quota informer's handlers: a new quota, a quota whose
	// spec.hard changed, and a deleted one are synced; its status writes
	// (this controller's, the admission plugin's) are not, nor are the
	// informer's resyncs (the periodic recount is RequeueAfter's).
	quotas.AddEventHandler(informer.HandlerFuncs{
		AddFunc: enqueue,
		UpdateFunc: func(old, cur api.Object) {
			if !equalLists(old.(*api.ResourceQuota).Spec.Hard, cur.(*api.ResourceQuota).Spec.Hard) {
				enqueue(cur)
			}
		},
		DeleteFunc: enqueue,
	})
	for _, kind := range Counted {
		r.Kinds = append(r.Kinds, kind)
	}
	for _, kind := range opts.Kinds {
		if !slices.Contains(r.Kinds, kind) {
			r.Kinds = append(r.Kinds, kind)
		}
	}
	for _, kind := range r.Kinds {
		inf, err := m.Informer(kind, informer.Options{})
		if err != nil {
			return err
		}
		r.Objects[kind] = inf.Lister()
		// Replenishment, as upstream's quota monitor has it: the admission
		// plugin charges what is created, so only a deleted object, a pod
		// that stops being charged (finished, or past its grace period) and
		// a Service whose type changes give usage back at once; anything
		// else waits for the periodic recount.
		inf.AddEventHandler(informer.HandlerFuncs{
			UpdateFunc: func(old, cur api.Object) {
				if r.replenishes(old, cur) {
					r.replenish(c, kind, cur)
				}
			},
			DeleteFunc: func(obj api.Object) { r.replenish(c, kind, obj) },
		})
	}
	return nil
}

// replenishes reports whether an update of a counted object gives usage
// back (the UpdateFunc of upstream's QuotaMonitor): a pod charged before
// and not now (QuotaV1Pod), a Service whose quota type changed.
func (r *Reconciler) replenishes(old, cur api.Object) bool {
	switch o := old.(type) {
	case *api.Pod:
		var now time.Time
		if r.Clock != nil {
			now = r.Clock.Now()
		}
		return r.charged(o, now) && !r.charged(cur.(*api.Pod), now)
	case *api.Service:
		return quotaServiceType(o) != quotaServiceType(cur.(*api.Service))
	}
	return false
}

// charged is upstream's QuotaV1Pod: a pod is charged unless it finished or
// is stuck terminating past its grace period.
func (r *Reconciler) charged(p *api.Pod, now time.Time) bool {
	if p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed {
		return false
	}
	return r.Clock == nil || !pastGrace(p, now)
}

// quotaServiceType is upstream's GetQuotaServiceType: the Service types a
// quota counts apart.
func quotaServiceType(s *api.Service) api.ServiceType {
	switch s.Spec.Type {
	case api.ServiceTypeNodePort, api.ServiceTypeLoadBalancer:
		return s.Spec.Type
	}
	return ""
}

// replenish syncs the quotas of obj's namespace that track a resource of
// kind (upstream's replenishQuota: by the names in status.hard).
func (r *Reconciler) replenish(c *controller.Controller, kind api.Kind, obj api.Object) {
	for _, o := range r.Quotas.List(api.Everything(), obj.GetObjectMeta().Namespace) {
		q := o.(*api.ResourceQuota)
		for name := range q.Status.Hard {
			if tracks(name, kind) {
				c.Enqueue(controller.Request{Key: q.GetObjectMeta().Key()})
				break
			}
		}
	}
}

// tracks reports whether quota resource name counts objects of kind: the
// kind whose count it is, or a pod's compute resources (cpu, memory,
// requests.*, limits.*, pods ...).
func tracks(name api.ResourceName, kind api.Kind) bool {
	if k, ok := api.QuotaCountedKind(name); ok {
		return k == kind
	}
	return kind == api.KindPod
}

// Reconcile recalculates a quota's status and writes it if it changed; it
// asks to run again after the resync period.
func (r *Reconciler) Reconcile(ctx context.Context, req controller.Request) (controller.Result, error) {
	o, ok := r.Quotas.Get(req.Key)
	if !ok {
		delete(r.tallies, req.Key)
		return controller.Result{}, nil
	}
	q := o.(*api.ResourceQuota)
	hard := q.Spec.Hard
	var now time.Time
	if r.Clock != nil {
		now = r.Clock.Now()
	}
	lists := make([][]api.Object, len(r.Kinds))
	for i, kind := range r.Kinds {
		lists[i] = r.Objects[kind].List(api.Everything(), req.Namespace)
	}
	used := r.tallyOf(req.Key, q).used(q, lists, r.usage, now)
	if equalLists(q.Status.Hard, hard) && equalLists(q.Status.Used, used) {
		return controller.Result{RequeueAfter: r.Resync}, nil
	}
	upd := q.DeepCopyObject().(*api.ResourceQuota)
	upd.Status.Hard = hard.DeepCopy()
	upd.Status.Used = used
	if _, err := r.Client.UpdateStatus(ctx, upd); err != nil {
		return controller.Result{}, err
	}
	return controller.Result{RequeueAfter: r.Resync}, nil
}

// tallyOf returns the tally of quota q (of key), a new one when it has
// none or its tally was made for another incarnation or spec of q.
func (r *Reconciler) tallyOf(key api.Key, q *api.ResourceQuota) *tally {
	names := q.Spec.Hard.SortedNames()
	if t, ok := r.tallies[key]; ok && t.fits(q, names) {
		return t
	}
	if r.tallies == nil {
		r.tallies = map[api.Key]*tally{}
	}
	t := newTally(q, names, len(r.Kinds))
	r.tallies[key] = t
	return t
}

// usage is what obj is charged: QuotaUsage, less a pod's compute
// resources once it is past its grace period (pastGrace).
func (r *Reconciler) usage(obj api.Object, now time.Time) api.ResourceList {
	u := api.QuotaUsage(obj)
	if p, ok := obj.(*api.Pod); ok && r.Clock != nil && pastGrace(p, now) {
		return api.ResourceList{podCount: u[podCount]}
	}
	return u
}

// podCount is count/pods, which tracks every pod in storage.
var podCount = api.ObjectCountResource("pods")

// pastGrace is the second test of upstream's QuotaV1Pod (k/k
// pkg/quota/v1/evaluator/core/pods.go): a pod stuck terminating (its node
// lost, say) longer than its grace period after its deletionTimestamp is
// no longer charged for its compute resources, only in count/pods, so that
// it cannot keep its application from scaling up. (QuotaUsage makes the
// first test, a finished pod.)
func pastGrace(p *api.Pod, now time.Time) bool {
	if p.DeletionTimestamp == nil || p.DeletionGracePeriodSeconds == nil {
		return false
	}
	return now.After(p.DeletionTimestamp.Add(time.Duration(*p.DeletionGracePeriodSeconds) * time.Second))
}

func equalLists(a, b api.ResourceList) bool {
	if len(a) != len(b) {
		return false
	}
	for name, v := range a {
		w, ok := b[name]
		if !ok || v.Cmp(w) != 0 {
			return false
		}
	}
	return true
}
