package naive

import (
	"context"
	"errors"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
)

// edge is the edge-triggered operator (FlawEdgeTriggered): its work is
// the changes its watch handler saw, kept per app until a worker applies
// them. A controller.Request carries only a key, as it should; the
// changes ride beside it in pending.
type edge struct {
	client  client.Client
	pending map[api.Key]*change
}

// change is what events said about one app since its last reconcile.
type change struct {
	// create is the app as an ADDED event carried it: its Deployment is
	// created if there is none.
	create *api.ConfigMap
	// delta is the replicas to add: the sum of B-A over every "replicas
	// A to B" event.
	delta int32
	// image is the image the latest image-changing event carried ("" for
	// none).
	image string
}

// setupEdge registers the edge-triggered operator.
func setupEdge(m *controller.Manager, apps *informer.Informer, opts controller.Options) error {
	e := &edge{client: m.Client(), pending: map[api.Key]*change{}}
	c, err := m.NewController(ControllerName, opts, e)
	if err != nil {
		return err
	}
	apps.AddEventHandler(informer.HandlerFuncs{
		AddFunc: func(obj api.Object) {
			app := obj.(*api.ConfigMap)
			e.note(app.Key(), &change{create: app})
			c.Enqueue(controller.Request{Key: app.Key()})
		},
		UpdateFunc: func(old, obj api.Object) {
			if ch, ok := edgeOf(old.(*api.ConfigMap), obj.(*api.ConfigMap)); ok {
				key := obj.GetObjectMeta().Key()
				e.note(key, ch)
				c.Enqueue(controller.Request{Key: key})
			}
		},
	})
	return nil
}

// edgeOf is the change an update event carries from old to app; false
// when it carries none the operator acts on (a resync replays an object
// unchanged; a bad value is ignored, as the state is never looked at).
func edgeOf(old, app *api.ConfigMap) (*change, bool) {
	if old == app {
		return nil, false
	}
	ch := &change{}
	_, from, errFrom := spec(old)
	image, to, errTo := spec(app)
	if errFrom == nil && errTo == nil {
		ch.delta = to - from
	}
	if errTo == nil && image != old.Data["image"] {
		ch.image = image
	}
	return ch, ch.delta != 0 || ch.image != ""
}

// note adds ch to the app's pending changes.
func (e *edge) note(key api.Key, ch *change) {
	p := e.pending[key]
	if p == nil {
		e.pending[key] = ch
		return
	}
	if ch.create != nil && p.create == nil {
		p.create = ch.create
	}
	p.delta += ch.delta
	if ch.image != "" {
		p.image = ch.image
	}
}

// Reconcile applies the app's pending changes: it creates the Deployment
// an ADDED event asked for, then scales it by the replicas events' sum
// and sets the latest image. What fails goes back to pending and the
// error to the rate limiter; an update that timed out may have happened
// and is applied again: the edge-triggered design cannot tell.
func (e *edge) Reconcile(ctx context.Context, req controller.Request) (controller.Result, error) {
	ch := e.pending[req.Key]
	delete(e.pending, req.Key)
	if ch == nil {
		return controller.Result{}, nil
	}
	if ch.create != nil {
		desired, err := desiredDeployment(ch.create)
		if err != nil {
			return controller.Result{}, controller.TerminalError(err)
		}
		// The mistake's twin: a Deployment that exists is assumed right.
		if _, err := client.CreateAs(ctx, e.client, desired); err != nil && !errors.Is(err, apierr.ErrAlreadyExists) {
			e.note(req.Key, ch)
			return controller.Result{}, err
		}
		ch.create = nil
	}
	if ch.delta == 0 && ch.image == "" {
		return controller.Result{}, nil
	}
	d, err := client.GetAs[*api.Deployment](ctx, e.client, req.Key)
	switch {
	case errors.Is(err, apierr.ErrNotFound):
		return controller.Result{}, nil // nothing to scale
	case err != nil:
		e.note(req.Key, ch)
		return controller.Result{}, err
	}
	upd := d.DeepCopyObject().(*api.Deployment)
	replicas := int32(1)
	if upd.Spec.Replicas != nil {
		replicas = *upd.Spec.Replicas
	}
	replicas = max(replicas+ch.delta, 0)
	upd.Spec.Replicas = &replicas
	if i := containerIndex(upd); ch.image != "" && i >= 0 {
		upd.Spec.Template.Spec.Containers[i].Image = ch.image
	}
	if _, err := client.UpdateAs(ctx, e.client, upd); err != nil {
		e.note(req.Key, ch)
		return controller.Result{}, err
	}
	return controller.Result{}, nil
}
