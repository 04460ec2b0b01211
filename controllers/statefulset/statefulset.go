package statefulset

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/clustersim/clustersim/controllers/deployment"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
)

// Actor is the identity kube-controller-manager runs this controller as.
const Actor = "system:serviceaccount:kube-system:statefulset-controller"

// Component is the source component of the controller's events.
const Component = "statefulset-controller"

// Name is the controller's name in its manager.
const Name = "statefulset-controller"

// DefaultWorkers is --concurrent-statefulset-syncs: 5.
const DefaultWorkers = 5

// Options configure the controller; zero fields take the defaults.
type Options struct {
	// Workers is the number of StatefulSets synced at once (default 5).
	Workers int
}

type lister interface {
	Get(key api.Key) (api.Object, bool)
	ByIndex(name, value string) []api.Object
}

// reconciler syncs one StatefulSet per request (upstream's
// StatefulSetController.sync and defaultStatefulSetControl).
type reconciler struct {
	client   client.Client
	recorder client.EventRecorder
	clock    client.PassiveClock
	sets     lister
	pods     lister
	claims   lister
	// revisions keeps the pod templates of the revisions seen, by set UID
	// and revision name: the ControllerRevisions upstream stores in the
	// apiserver. A restarted controller has lost them and, as upstream
	// does when the current revision is gone, takes the update revision
	// for the current one.
	revisions map[api.UID]map[string]*api.PodTemplateSpec
}

// Setup registers the StatefulSet controller with m: informers on
// StatefulSets, Pods (indexed by controller) and PersistentVolumeClaims;
// a set is synced when it or one of its pods changes.
func Setup(m *controller.Manager, opts Options) error {
	if opts.Workers <= 0 {
		opts.Workers = DefaultWorkers
	}
	setInf, err := m.Informer(api.KindStatefulSet, informer.Options{})
	if err != nil {
		return err
	}
	podInf, err := m.Informer(api.KindPod, informer.Options{})
	if err != nil {
		return err
	}
	claimInf, err := m.Informer(api.KindPersistentVolumeClaim, informer.Options{})
	if err != nil {
		return err
	}
	podInf.AddIndex(informer.IndexController, informer.ByController)
	r := &reconciler{client: m.Client(), recorder: m.Recorder(Component), clock: m.Clock(),
		sets: setInf.Lister(), pods: podInf.Lister(), claims: claimInf.Lister(), revisions: map[api.UID]map[string]*api.PodTemplateSpec{}}
	c, err := m.NewController(Name, controller.Options{Workers: opts.Workers}, r)
	if err != nil {
		return err
	}
	c.Watch(setInf, controller.EnqueueObject())
	c.Watch(podInf, controller.EnqueueOwner(api.KindStatefulSet))
	return nil
}

// Reconcile syncs one StatefulSet.
func (r *reconciler) Reconcile(ctx context.Context, req controller.Request) (controller.Result, error) {
	obj, ok := r.sets.Get(req.Key)
	if !ok {
		return controller.Result{}, nil
	}
	set, ok := obj.(*api.StatefulSet)
	if !ok {
		return controller.Result{}, nil
	}
	if _, ok := r.revisions[set.UID]; !ok {
		r.revisions[set.UID] = map[string]*api.PodTemplateSpec{}
	}
	var pods []*api.Pod
	for _, o := range r.pods.ByIndex(informer.IndexController, string(set.UID)) {
		if p, ok := o.(*api.Pod); ok && isMemberOf(set, p) {
			pods = append(pods, p)
		}
	}
	sortByOrdinal(pods)

	st, err := syncSet(ctx, set, pods, r.revisions[set.UID], &clientControl{r: r}, r.clock.Now())
	if st == nil {
		return controller.Result{}, err
	}
	if inconsistentStatus(set, st) {
		cp := set.DeepCopy()
		cp.Status.ObservedGeneration, cp.Status.Replicas, cp.Status.ReadyReplicas = st.ObservedGeneration, st.Replicas, st.ReadyReplicas
		cp.Status.CurrentReplicas, cp.Status.UpdatedReplicas, cp.Status.AvailableReplicas = st.CurrentReplicas, st.UpdatedReplicas, st.AvailableReplicas
		cp.Status.CurrentRevision, cp.Status.UpdateRevision, cp.Status.CollisionCount = st.CurrentRevision, st.UpdateRevision, st.CollisionCount
		if _, uerr := r.client.UpdateStatus(ctx, cp); uerr != nil && err == nil {
			err = uerr
		}
	}
	if err != nil {
		return controller.Result{}, err
	}
	// Pods that are ready but not yet available: look again after
	// minReadySeconds (upstream's enqueueSSAfter).
	if set.Spec.MinReadySeconds > 0 && st.ReadyReplicas != st.AvailableReplicas {
		return controller.Result{RequeueAfter: time.Duration(set.Spec.MinReadySeconds) * time.Second}, nil
	}
	return controller.Result{}, nil
}

// syncSet is one pass of upstream's UpdateStatefulSet over set and its
// pods (sorted by ordinal): the update revision from the template, the
// current one from the status if its template is still known (revs, by
// revision name), the pods brought towards them by control.update, and
// the status to write, a finished rolling update completed. Revisions no
// pod and no status names are forgotten.
func syncSet(ctx context.Context, set *api.StatefulSet, pods []*api.Pod, revs map[string]*api.PodTemplateSpec, pc podControl, now time.Time) (*api.StatefulSetStatus, error) {
	var collisions int32
	if set.Status.CollisionCount != nil {
		collisions = *set.Status.CollisionCount
	}
	updateRevision := set.Name + "-" + deployment.ComputeHash(&set.Spec.Template, &collisions)
	revs[updateRevision] = set.Spec.Template.DeepCopy()
	currentRevision := set.Status.CurrentRevision
	if revs[currentRevision] == nil {
		currentRevision = updateRevision
	}
	currentSet, updateSet := set.DeepCopy(), set.DeepCopy()
	currentSet.Spec.Template = *revs[currentRevision].DeepCopy()
	ctl := &control{pc: pc, now: now}
	st, err := ctl.update(ctx, set, currentSet, updateSet, currentRevision, updateRevision, collisions, pods)
	if st == nil {
		return nil, err
	}
	completeRollingUpdate(set, st)
	for name := range revs {
		if name != st.CurrentRevision && name != st.UpdateRevision && !slices.ContainsFunc(pods, func(p *api.Pod) bool { return getPodRevision(p) == name }) {
			delete(revs, name)
		}
	}
	return st, err
}

// clientControl is the podControl of the running controller: writes
// through the API client, claims read from the informer's cache, events
// as upstream's recordPodEvent and recordClaimEvent.
type clientControl struct{ r *reconciler }

// recordPodEvent: Normal "Successful<Verb>" "<verb> Pod <pod> in
// StatefulSet <set> successful", or Warning "Failed<Verb>" "<verb> Pod
// <pod> in StatefulSet <set> failed error: <err>".
func (c *clientControl) recordPodEvent(verb string, set *api.StatefulSet, p *api.Pod, err error) {
	title := strings.ToUpper(verb[:1]) + verb[1:]
	if err == nil {
		c.r.recorder.Eventf(set, client.EventTypeNormal, "Successful"+title, "%s Pod %s in StatefulSet %s successful", verb, p.Name, set.Name)
		return
	}
	c.r.recorder.Eventf(set, client.EventTypeWarning, "Failed"+title, "%s Pod %s in StatefulSet %s failed error: %s", verb, p.Name, set.Name, err)
}

// recordClaimEvent: "<verb> Claim <claim> Pod <pod> in StatefulSet <set>
// success", or "<verb> Claim <claim> for Pod <pod> in StatefulSet <set>
// failed error: <err>".
func (c *clientControl) recordClaimEvent(verb string, set *api.StatefulSet, p *api.Pod, claim string, err error) {
	title := strings.ToUpper(verb[:1]) + verb[1:]
	if err == nil {
		c.r.recorder.Eventf(set, client.EventTypeNormal, "Successful"+title, "%s Claim %s Pod %s in StatefulSet %s success", verb, claim, p.Name, set.Name)
		return
	}
	c.r.recorder.Eventf(set, client.EventTypeWarning, "Failed"+title, "%s Claim %s for Pod %s in StatefulSet %s failed error: %s", verb, claim, p.Name, set.Name, err)
}

func (c *clientControl) getClaim(ns, name string) (*api.PersistentVolumeClaim, bool) {
	o, ok := c.r.claims.Get(api.Key{Namespace: ns, Name: name})
	if !ok {
		return nil, false
	}
	claim, ok := o.(*api.PersistentVolumeClaim)
	return claim, ok
}

// createClaims creates the pod's claims that do not exist (upstream's
// createPersistentVolumeClaims).
func (c *clientControl) createClaims(ctx context.Context, set *api.StatefulSet, p *api.Pod) error {
	var errs []error
	for _, claim := range getPersistentVolumeClaims(set, p) {
		existing, ok := c.getClaim(claim.Namespace, claim.Name)
		switch {
		case !ok:
			_, err := c.r.client.Create(ctx, claim)
			if err != nil {
				errs = append(errs, fmt.Errorf("failed to create PVC %s: %s", claim.Name, err))
			}
			if err == nil || !errors.Is(err, apierr.ErrAlreadyExists) {
				c.recordClaimEvent("create", set, p, claim.Name, err)
			}
		case existing.DeletionTimestamp != nil:
			errs = append(errs, fmt.Errorf("pvc %s is being deleted", claim.Name))
		}
	}
	return errors.Join(errs...)
}

func (c *clientControl) createPod(ctx context.Context, set *api.StatefulSet, p *api.Pod) error {
	if err := c.createClaims(ctx, set, p); err != nil {
		c.recordPodEvent("create", set, p, err)
		return err
	}
	_, err := c.r.client.Create(ctx, p)
	if errors.Is(err, apierr.ErrAlreadyExists) {
		return err
	}
	// The claims get the owner references of the retention policy at
	// once, as far as the cache knows them (upstream's CreateStatefulPod).
	if err := c.updateClaimsForRetentionPolicy(ctx, set, p); err != nil {
		c.recordPodEvent("update", set, p, err)
		return err
	}
	c.recordPodEvent("create", set, p, err)
	return err
}

func (c *clientControl) deletePod(ctx context.Context, set *api.StatefulSet, p *api.Pod) error {
	err := c.r.client.Delete(ctx, api.KindPod, p.Key())
	c.recordPodEvent("delete", set, p, err)
	return err
}

func (c *clientControl) createMissingClaims(ctx context.Context, set *api.StatefulSet, p *api.Pod) error {
	return c.createClaims(ctx, set, p)
}

func (c *clientControl) claimsMatchRetentionPolicy(set *api.StatefulSet, p *api.Pod) bool {
	ordinal := getOrdinal(p)
	for i := range set.Spec.VolumeClaimTemplates {
		claim, ok := c.getClaim(set.Namespace, getPersistentVolumeClaimName(set, &set.Spec.VolumeClaimTemplates[i], ordinal))
		if ok && !isClaimOwnerUpToDate(claim, set, p) {
			return false
		}
	}
	return true
}

func (c *clientControl) updateClaimsForRetentionPolicy(ctx context.Context, set *api.StatefulSet, p *api.Pod) error {
	ordinal := getOrdinal(p)
	for i := range set.Spec.VolumeClaimTemplates {
		name := getPersistentVolumeClaimName(set, &set.Spec.VolumeClaimTemplates[i], ordinal)
		claim, ok := c.getClaim(set.Namespace, name)
		if !ok {
			continue
		}
		if isClaimOwnerUpToDate(claim, set, p) {
			continue
		}
		claim = claim.DeepCopy()
		updateClaimOwnerRefForSetAndPod(claim, set, p)
		if _, err := c.r.client.Update(ctx, claim); err != nil {
			return fmt.Errorf("could not update claim %s for delete policy ownerRefs: %w", name, err)
		}
	}
	return nil
}

func (c *clientControl) claimIsStale(set *api.StatefulSet, p *api.Pod) bool {
	if retentionPolicy(set).WhenScaled == api.RetainPersistentVolumeClaimRetentionPolicyType {
		return false
	}
	for _, claim := range getPersistentVolumeClaims(set, p) {
		existing, ok := c.getClaim(claim.Namespace, claim.Name)
		if !ok {
			continue
		}
		// A claim is stale if its pod reference is not to this pod's uid
		// (upstream's PodClaimIsStale).
		if hasStaleOwnerRef(existing, &p.ObjectMeta, podAPIVersion, api.KindPod.Name) {
			return true
		}
	}
	return false
}

// updatePod is upstream's UpdateStatefulPod: restore identity and
// storage, fix the claims' owner references, and write the pod if any of
// it changed.
func (c *clientControl) updatePod(ctx context.Context, set *api.StatefulSet, p *api.Pod) error {
	consistent := true
	if !identityMatches(set, p) {
		updateIdentity(set, p)
		consistent = false
	}
	if !storageMatches(set, p) {
		updateStorage(set, p)
		consistent = false
		if err := c.createClaims(ctx, set, p); err != nil {
			c.recordPodEvent("update", set, p, err)
			return err
		}
	}
	if !c.claimsMatchRetentionPolicy(set, p) {
		if err := c.updateClaimsForRetentionPolicy(ctx, set, p); err != nil {
			c.recordPodEvent("update", set, p, err)
			return err
		}
		consistent = false
	}
	if consistent {
		return nil
	}
	_, err := c.r.client.Update(ctx, p)
	c.recordPodEvent("update", set, p, err)
	return err
}
