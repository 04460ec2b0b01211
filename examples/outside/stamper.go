// Package stamper is a controller in a module of its own, outside
// clustersim's package tree: it imports clustersim's public packages the
// way any operator's repository would (go.mod requires
// github.com/clustersim/clustersim, replaced here by the checkout two
// directories up), registers itself by name, and runs in a scenario file
// that names it. clustersim's CI (make test) builds and tests it.
//
// The controller stamps each ConfigMap labelled stamp=yes with an
// annotation counting its data keys.
package stamper

import (
	"context"
	"fmt"
	"strconv"

	"github.com/clustersim/clustersim/harness"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
)

// Name is the controller's name in spec.controllers.
const Name = "stamper"

// Annotation is the stamp: the number of data keys.
const Annotation = "stamper.example.com/keys"

func init() {
	harness.MustRegister(harness.Controller{
		Name:       Name,
		For:        api.KindConfigMap,
		ForOptions: informer.Options{LabelSelector: "stamp=yes"},
		New: func(m *controller.Manager) (controller.Reconciler, error) {
			cms, err := m.Informer(api.KindConfigMap, informer.Options{LabelSelector: "stamp=yes"})
			if err != nil {
				return nil, err
			}
			return &Reconciler{Client: m.Client(), ConfigMaps: cms.Lister()}, nil
		},
	})
}

// Reconciler stamps one ConfigMap.
type Reconciler struct {
	Client     client.Client
	ConfigMaps informer.Lister
}

// Reconcile writes the stamp when it is missing or wrong.
func (r *Reconciler) Reconcile(ctx context.Context, req controller.Request) (controller.Result, error) {
	o, ok := r.ConfigMaps.Get(req.Key)
	if !ok {
		return controller.Result{}, nil
	}
	cm := o.(*api.ConfigMap)
	want := strconv.Itoa(len(cm.Data))
	if cm.Annotations[Annotation] == want {
		return controller.Result{}, nil
	}
	patch := fmt.Sprintf(`{"metadata":{"annotations":{%q:%q}}}`, Annotation, want)
	_, err := r.Client.Patch(ctx, api.KindConfigMap, req.Key, client.MergePatch, []byte(patch))
	return controller.Result{}, err
}
