package naive

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
)

// Actor is the identity the operator runs as.
const Actor = "system:serviceaccount:apps:app-operator"

// ControllerName is the name of the operator's controller, in reconcile
// observations and metrics.
const ControllerName = "app-operator"

// AppLabel marks the ConfigMaps that declare an app, with value AppKind.
const (
	AppLabel = "app.clustersim.dev/kind"
	AppKind  = "App"
)

// ContainerName is the name of the one container of an app's pods.
const ContainerName = "app"

// PollInterval is how soon FlawRequeueWithoutBackoff and
// FlawRetryWithoutBackoff look again (10 ms).
const PollInterval = 10 * time.Millisecond

// DefaultResync is the resync period the level-triggered configuration
// of the runner uses (30 s).
const DefaultResync = 30 * time.Second

// ErrInvalidOptions matches every error Setup returns for options it
// cannot run with.
var ErrInvalidOptions = errors.New("invalid options")

// Flaw is the mistake the operator makes; the zero value, FlawNone, makes
// none.
type Flaw int

// The designs.
const (
	// FlawNone compares only the fields the operator owns, waits for
	// watch events and returns errors for the rate limiter's back-off.
	FlawNone Flaw = iota
	// FlawCompareWithDefaults compares the whole desired object with the
	// server-defaulted live one.
	FlawCompareWithDefaults
	// FlawRequeueWithoutBackoff polls an unfinished rollout every
	// PollInterval.
	FlawRequeueWithoutBackoff
	// FlawRetryWithoutBackoff retries a failed request every PollInterval
	// instead of returning the error.
	FlawRetryWithoutBackoff
	// FlawEdgeTriggered acts on the changes watch events carry instead of
	// comparing states.
	FlawEdgeTriggered
	// FlawNilDeployment reads the live Deployment's replicas before
	// checking that it exists: the first reconcile of a new app panics
	// with a nil pointer dereference.
	FlawNilDeployment
	// FlawBusyWait waits for the Deployment's rollout by spinning on the
	// informer cache instead of asking to be reconciled again: nothing
	// else runs while it spins, so the cache never changes and the
	// reconcile never returns.
	FlawBusyWait
)

// String names the flaw as the package documentation does.
func (f Flaw) String() string {
	switch f {
	case FlawNone:
		return "none"
	case FlawCompareWithDefaults:
		return "compare with defaults"
	case FlawRequeueWithoutBackoff:
		return "requeue without back-off"
	case FlawRetryWithoutBackoff:
		return "retry without back-off"
	case FlawEdgeTriggered:
		return "edge-triggered"
	case FlawNilDeployment:
		return "nil deployment"
	case FlawBusyWait:
		return "busy wait"
	}
	return "flaw(" + strconv.Itoa(int(f)) + ")"
}

// Options configure the operator.
type Options struct {
	// Flaw is the mistake to make (default FlawNone: none).
	Flaw Flaw
	// Workers is the number of concurrent reconciles (default 1).
	Workers int
	// Resync, when positive, makes FlawNone re-read the app and its
	// Deployment from the API server at every reconcile (the watch-fed
	// cache stays stale after a lost event until the informer relists)
	// and reconcile every app again Resync after its last reconcile. 0
	// (the default) reads the cache and waits for events. Only FlawNone
	// takes a resync.
	Resync time.Duration
}

func (o Options) validate() error {
	if o.Flaw < FlawNone || o.Flaw > FlawBusyWait {
		return fmt.Errorf("naive: unknown flaw %d: %w", int(o.Flaw), ErrInvalidOptions)
	}
	if o.Resync < 0 {
		return fmt.Errorf("naive: negative resync %v: %w", o.Resync, ErrInvalidOptions)
	}
	if o.Resync > 0 && o.Flaw != FlawNone {
		return fmt.Errorf("naive: resync with flaw %q: %w", o.Flaw, ErrInvalidOptions)
	}
	if o.Workers < 0 {
		return fmt.Errorf("naive: negative workers %d: %w", o.Workers, ErrInvalidOptions)
	}
	return nil
}

// Reconciler keeps one app's Deployment (every design but
// FlawEdgeTriggered).
type Reconciler struct {
	// Client talks to the API server as Actor.
	Client client.Client
	// Apps and Deployments are the informers' caches.
	Apps        informer.Lister
	Deployments informer.Lister
	// Flaw is the design.
	Flaw Flaw
	// Resync, when positive, makes every reconcile read through Client
	// instead of the caches and look again after Resync.
	Resync time.Duration
}

// Setup registers the operator with a manager: it watches app ConfigMaps
// and (except the edge-triggered design, which reads the Deployment when
// it acts) the Deployments they own. A bad option fails with an error
// matching ErrInvalidOptions.
func Setup(m *controller.Manager, opts Options) error {
	if err := opts.validate(); err != nil {
		return err
	}
	apps, err := m.Informer(api.KindConfigMap, informer.Options{LabelSelector: AppLabel + "=" + AppKind})
	if err != nil {
		return err
	}
	copts := controller.Options{Workers: max(opts.Workers, 1)}
	if opts.Flaw == FlawEdgeTriggered {
		return setupEdge(m, apps, copts)
	}
	deps, err := m.Informer(api.KindDeployment, informer.Options{})
	if err != nil {
		return err
	}
	r := &Reconciler{Client: m.Client(), Apps: apps.Lister(), Deployments: deps.Lister(), Flaw: opts.Flaw, Resync: opts.Resync}
	c, err := m.NewController(ControllerName, copts, r)
	if err != nil {
		return err
	}
	c.Watch(apps, controller.EnqueueObject())
	c.Watch(deps, controller.EnqueueOwner(api.KindConfigMap))
	return nil
}

// Reconcile creates or corrects the app's Deployment.
func (r *Reconciler) Reconcile(ctx context.Context, req controller.Request) (controller.Result, error) {
	app, err := r.app(ctx, req.Key)
	if err != nil {
		return r.failed(err)
	}
	if app == nil {
		return controller.Result{}, nil // the garbage collector removes the Deployment
	}
	desired, err := desiredDeployment(app)
	if err != nil {
		// A bad app waits for its next edit; retrying cannot fix it.
		return controller.Result{}, controller.TerminalError(err)
	}
	live, err := r.deployment(ctx, req.Key)
	if err != nil {
		return r.failed(err)
	}
	if r.Flaw == FlawNilDeployment && *live.Spec.Replicas == *desired.Spec.Replicas {
		// The mistake: live is nil for a new app.
		return r.settled(), nil
	}
	if live == nil {
		_, err := client.CreateAs(ctx, r.Client, desired)
		if err != nil && !errors.Is(err, apierr.ErrAlreadyExists) {
			return r.failed(err)
		}
		return r.settled(), nil
	}
	if !api.IsControlledBy(live, app) {
		return controller.Result{}, controller.TerminalError(fmt.Errorf("deployment %s exists and is not this app's", req.Key))
	}
	if r.Flaw == FlawCompareWithDefaults {
		// The mistake: the live object carries the server's defaults and
		// other controllers' annotations, so it never DeepEquals ours.
		if reflect.DeepEqual(live.Spec, desired.Spec) && reflect.DeepEqual(live.Annotations, desired.Annotations) {
			return controller.Result{}, nil
		}
		upd := live.DeepCopyObject().(*api.Deployment)
		upd.Spec = desired.Spec
		upd.Annotations = desired.Annotations
		_, err := client.UpdateAs(ctx, r.Client, upd)
		return controller.Result{}, err
	}
	// Compare only what the operator owns: the server's defaults and the
	// other controllers' annotations are none of its business.
	if upd, differs := correct(live, desired); differs {
		if _, err := client.UpdateAs(ctx, r.Client, upd); err != nil {
			return r.failed(err)
		}
	}
	for r.Flaw == FlawBusyWait && live.Status.AvailableReplicas < *desired.Spec.Replicas {
		// The mistake: wait for the rollout here. The cache is filled by
		// other processes, which cannot run until this one yields.
		if live, err = r.deployment(ctx, req.Key); err != nil || live == nil {
			return r.failed(err)
		}
	}
	if r.Flaw == FlawRequeueWithoutBackoff && (live.Status.ObservedGeneration < live.Generation || live.Status.AvailableReplicas < *desired.Spec.Replicas) {
		// The mistake: poll the rollout at a fixed short interval, which
		// also resets the back-off, instead of waiting for the watch.
		return controller.Result{RequeueAfter: PollInterval}, nil
	}
	return r.settled(), nil
}

// failed is what a reconcile returns after err: the error itself, for
// the rate limiter's back-off, except with FlawRetryWithoutBackoff.
func (r *Reconciler) failed(err error) (controller.Result, error) {
	if r.Flaw == FlawRetryWithoutBackoff {
		// The mistake: swallow the error and come back in 10 ms. The work
		// queue never learns that anything failed, so it never backs off.
		return controller.Result{RequeueAfter: PollInterval}, nil
	}
	return controller.Result{}, err
}

// settled is what a successful reconcile returns: nothing, or with a
// resync the next look.
func (r *Reconciler) settled() controller.Result {
	if r.Resync > 0 {
		return controller.Result{RequeueAfter: r.Resync}
	}
	return controller.Result{}
}

// app reads the app from the cache, or with a resync from the API server;
// nil when it does not exist.
func (r *Reconciler) app(ctx context.Context, key api.Key) (*api.ConfigMap, error) {
	if r.Resync > 0 {
		cm, err := client.GetAs[*api.ConfigMap](ctx, r.Client, key)
		switch {
		case errors.Is(err, apierr.ErrNotFound):
			return nil, nil
		case err != nil:
			return nil, err
		}
		if cm.Labels[AppLabel] != AppKind {
			return nil, nil // no longer an app
		}
		return cm, nil
	}
	obj, ok := r.Apps.Get(key)
	if !ok {
		return nil, nil
	}
	return obj.(*api.ConfigMap), nil
}

// deployment reads the app's Deployment like app reads the app.
func (r *Reconciler) deployment(ctx context.Context, key api.Key) (*api.Deployment, error) {
	if r.Resync > 0 {
		d, err := client.GetAs[*api.Deployment](ctx, r.Client, key)
		if errors.Is(err, apierr.ErrNotFound) {
			return nil, nil
		}
		return d, err
	}
	obj, ok := r.Deployments.Get(key)
	if !ok {
		return nil, nil
	}
	return obj.(*api.Deployment), nil
}

// correct returns a copy of live with the fields the operator owns set as
// desired declares them (spec.replicas and the app container's image),
// and whether any differed.
func correct(live, desired *api.Deployment) (*api.Deployment, bool) {
	want := *desired.Spec.Replicas
	image := desired.Spec.Template.Spec.Containers[0].Image
	i := containerIndex(live)
	if live.Spec.Replicas != nil && *live.Spec.Replicas == want && i >= 0 && live.Spec.Template.Spec.Containers[i].Image == image {
		return live, false
	}
	upd := live.DeepCopyObject().(*api.Deployment)
	upd.Spec.Replicas = &want
	if i >= 0 {
		upd.Spec.Template.Spec.Containers[i].Image = image
	} else {
		upd.Spec.Template.Spec.Containers = desired.Spec.Template.Spec.Containers
	}
	return upd, true
}

// containerIndex is the index of the app's container in d's pod
// template, or -1.
func containerIndex(d *api.Deployment) int {
	for i := range d.Spec.Template.Spec.Containers {
		if d.Spec.Template.Spec.Containers[i].Name == ContainerName {
			return i
		}
	}
	return -1
}

// spec reads an app's image and replica count (default 1).
func spec(app *api.ConfigMap) (image string, replicas int32, err error) {
	image = app.Data["image"]
	if image == "" {
		return "", 0, fmt.Errorf("app %s: data.image is required", app.Name)
	}
	replicas = 1
	if s, ok := app.Data["replicas"]; ok {
		n, err := strconv.ParseInt(s, 10, 32)
		if err != nil || n < 0 {
			return "", 0, fmt.Errorf("app %s: data.replicas %q is not a non-negative integer", app.Name, s)
		}
		replicas = int32(n)
	}
	return image, replicas, nil
}

// desiredDeployment builds the app's Deployment from nothing but the app.
func desiredDeployment(app *api.ConfigMap) (*api.Deployment, error) {
	image, replicas, err := spec(app)
	if err != nil {
		return nil, err
	}
	labels := map[string]string{"app": app.Name}
	return &api.Deployment{
		TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: api.ObjectMeta{
			Name:            app.Name,
			Namespace:       app.Namespace,
			Labels:          labels,
			OwnerReferences: []api.OwnerReference{api.NewControllerRef(app)},
		},
		Spec: api.DeploymentSpec{
			Replicas: &replicas,
			Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: ContainerName, Image: image}}},
			},
		},
	}, nil
}
