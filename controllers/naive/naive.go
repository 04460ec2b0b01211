// Package naive is a small application operator written the way many
// first operators are, with one of two classic mistakes, so that
// clustersim's detectors have something real to find. It is not a
// Kubernetes controller; it is a specimen.
//
// The operator reads "apps" from ConfigMaps labelled
// app.clustersim.dev/kind=App (data: image, replicas) and keeps a
// Deployment of the same name running that image at that scale. Its two
// flaws, chosen by Options.Flaw:
//
//   - FlawCompareWithDefaults builds the desired Deployment from scratch
//     and compares it with the live one with reflect.DeepEqual. The API
//     server fills in defaults (strategy, revisionHistoryLimit,
//     progressDeadlineSeconds, the pod template's restartPolicy,
//     dnsPolicy, imagePullPolicy, ...) and the Deployment controller
//     annotates its revision, so the live object never equals the desired
//     one: every reconcile writes, the write removes the revision
//     annotation, the Deployment controller puts it back, and the two
//     fight for as long as the run lasts. The fix is to compare only the
//     fields the operator owns (or to use server-side apply).
//   - FlawRequeueWithoutBackoff compares correctly but, until the
//     Deployment reports every replica available, asks to be reconciled
//     again after PollInterval (10 ms) instead of waiting for the
//     Deployment's next watch event or backing off: when the rollout
//     cannot finish (a bad image, a quota), it reconciles a hundred times
//     a second and changes nothing.
//
// Imports: api, apierr and the controller runtime only.
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

// AppLabel marks the ConfigMaps that declare an app, with value AppKind.
const (
	AppLabel = "app.clustersim.dev/kind"
	AppKind  = "App"
)

// PollInterval is how soon FlawRequeueWithoutBackoff looks again.
const PollInterval = 10 * time.Millisecond

// Flaw is the mistake the operator makes.
type Flaw int

// The flaws.
const (
	// FlawCompareWithDefaults compares the whole desired object with the
	// server-defaulted live one.
	FlawCompareWithDefaults Flaw = iota + 1
	// FlawRequeueWithoutBackoff polls an unfinished rollout every
	// PollInterval.
	FlawRequeueWithoutBackoff
)

// Options configure the operator.
type Options struct {
	// Flaw is the mistake to make (required).
	Flaw Flaw
	// Workers is the number of concurrent reconciles (default 1).
	Workers int
}

// Reconciler keeps one app's Deployment.
type Reconciler struct {
	Client      client.Client
	Apps        informer.Lister
	Deployments informer.Lister
	Flaw        Flaw
}

// Setup registers the operator with a manager: it watches app ConfigMaps
// and the Deployments they own.
func Setup(m *controller.Manager, opts Options) error {
	if opts.Flaw != FlawCompareWithDefaults && opts.Flaw != FlawRequeueWithoutBackoff {
		return fmt.Errorf("naive: unknown flaw %d", opts.Flaw)
	}
	apps, err := m.Informer(api.KindConfigMap, informer.Options{LabelSelector: AppLabel + "=" + AppKind})
	if err != nil {
		return err
	}
	deps, err := m.Informer(api.KindDeployment, informer.Options{})
	if err != nil {
		return err
	}
	r := &Reconciler{Client: m.Client(), Apps: apps.Lister(), Deployments: deps.Lister(), Flaw: opts.Flaw}
	c, err := m.NewController("app-operator", controller.Options{Workers: max(opts.Workers, 1)}, r)
	if err != nil {
		return err
	}
	c.Watch(apps, controller.EnqueueObject())
	c.Watch(deps, controller.EnqueueOwner(api.KindConfigMap))
	return nil
}

// Reconcile creates or corrects the app's Deployment.
func (r *Reconciler) Reconcile(ctx context.Context, req controller.Request) (controller.Result, error) {
	obj, ok := r.Apps.Get(req.Key)
	if !ok {
		return controller.Result{}, nil // the garbage collector removes the Deployment
	}
	app := obj.(*api.ConfigMap)
	desired, err := desiredDeployment(app)
	if err != nil {
		// A bad app waits for its next edit; retrying cannot fix it.
		return controller.Result{}, controller.TerminalError(err)
	}
	liveObj, ok := r.Deployments.Get(req.Key)
	if !ok {
		_, err := client.CreateAs(ctx, r.Client, desired)
		if err != nil && !errors.Is(err, apierr.ErrAlreadyExists) {
			return controller.Result{}, err
		}
		return controller.Result{}, nil
	}
	live := liveObj.(*api.Deployment)
	if !api.IsControlledBy(live, app) {
		return controller.Result{}, controller.TerminalError(fmt.Errorf("deployment %s exists and is not this app's", req.Key))
	}
	switch r.Flaw {
	case FlawCompareWithDefaults:
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
	default:
		want := *desired.Spec.Replicas
		image := desired.Spec.Template.Spec.Containers[0].Image
		if live.Spec.Replicas == nil || *live.Spec.Replicas != want || len(live.Spec.Template.Spec.Containers) != 1 || live.Spec.Template.Spec.Containers[0].Image != image {
			upd := live.DeepCopyObject().(*api.Deployment)
			upd.Spec.Replicas = &want
			upd.Spec.Template.Spec.Containers = desired.Spec.Template.Spec.Containers
			if _, err := client.UpdateAs(ctx, r.Client, upd); err != nil {
				return controller.Result{}, err
			}
		}
		// The mistake: poll the rollout at a fixed short interval, which
		// also resets the back-off, instead of waiting for the watch.
		if live.Status.ObservedGeneration < live.Generation || live.Status.AvailableReplicas < want {
			return controller.Result{RequeueAfter: PollInterval}, nil
		}
		return controller.Result{}, nil
	}
}

// desiredDeployment builds the app's Deployment from nothing but the app.
func desiredDeployment(app *api.ConfigMap) (*api.Deployment, error) {
	image := app.Data["image"]
	if image == "" {
		return nil, fmt.Errorf("app %s: data.image is required", app.Name)
	}
	replicas := int32(1)
	if s, ok := app.Data["replicas"]; ok {
		n, err := strconv.ParseInt(s, 10, 32)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("app %s: data.replicas %q is not a non-negative integer", app.Name, s)
		}
		replicas = int32(n)
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
				Spec:       api.PodSpec{Containers: []api.Container{{Name: "app", Image: image}}},
			},
		},
	}, nil
}
