package runner_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/clustersim/clustersim/controllers/garbagecollector"
	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/informer"
	"github.com/clustersim/clustersim/sim/kernel"
)

var widgetKind = api.Kind{Group: "example.com", Name: "Widget"}

// TestCustomResourceEndToEnd: a scenario's CustomResourceDefinition makes
// the API serve Widgets. The scenario's Widget is stored with generation
// 1; an informer of the kind sees it and its updates; a spec change bumps
// generation and a status write does not; a ConfigMap owned by the Widget
// is collected by the garbage collector once the Widget is deleted.
func TestCustomResourceEndToEnd(t *testing.T) {
	s, err := scenarios.LoadFile("../../testdata/custom-resources/scenario.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var (
		events                   []string
		gens                     []int64
		cmGone, cmSeen, widgetOK bool
		errs                     []error
	)
	opts := runner.Options{OnStart: func(c *cluster.Cluster) {
		cl := c.Client("controller/widget-operator", "system:serviceaccount:default:widget-operator")
		inf, err := informer.New(c.K, c.Transport("user/test-informer"), informer.Config{Actor: "test-user"}, widgetKind, informer.Options{})
		if err != nil {
			errs = append(errs, err)
			return
		}
		inf.AddEventHandler(informer.HandlerFuncs{
			AddFunc:    func(o api.Object) { events = append(events, "add "+o.GetObjectMeta().Name) },
			UpdateFunc: func(_, o api.Object) { events = append(events, "update "+o.GetObjectMeta().Name) },
			DeleteFunc: func(o api.Object) { events = append(events, "delete "+o.GetObjectMeta().Name) },
		})
		inf.Start()
		c.Go("test", func(p *kernel.Process) {
			ctx := context.Background()
			key := api.Key{Namespace: "default", Name: "gear"}
			o, err := cl.Get(ctx, widgetKind, key)
			if err != nil {
				errs = append(errs, err)
				return
			}
			w := o.(*api.Unstructured)
			gens = append(gens, w.Generation)
			w.Set("spec.replicas", 5)
			if o, err = cl.Update(ctx, w); err != nil {
				errs = append(errs, err)
				return
			}
			w = o.(*api.Unstructured)
			gens = append(gens, w.Generation)
			w.Set("status.ready", 5)
			if o, err = cl.UpdateStatus(ctx, w); err != nil {
				errs = append(errs, err)
				return
			}
			w = o.(*api.Unstructured)
			gens = append(gens, w.Generation)
			ready, _ := w.Get("status.ready")
			widgetOK = ready == int64(5)
			cm := &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "gear-config", Namespace: "default", OwnerReferences: []api.OwnerReference{api.NewControllerRef(w)}}}
			if _, err := cl.Create(ctx, cm); err != nil {
				errs = append(errs, err)
				return
			}
			p.Sleep(5 * time.Second)
			_, err = cl.Get(ctx, api.KindConfigMap, api.Key{Namespace: "default", Name: "gear-config"})
			cmSeen = err == nil
			if err := cl.Delete(ctx, widgetKind, key); err != nil {
				errs = append(errs, err)
				return
			}
			p.Sleep(20 * time.Second)
			_, err = c.Store.Get(api.KindConfigMap, api.Key{Namespace: "default", Name: "gear-config"})
			cmGone = err != nil
		})
	}}
	if _, err := runner.Run(s, opts); err != nil {
		t.Fatal(err)
	}
	for _, err := range errs {
		t.Error(err)
	}
	if want := []int64{1, 2, 2}; len(gens) != 3 || gens[0] != want[0] || gens[1] != want[1] || gens[2] != want[2] {
		t.Errorf("generations (stored, spec update, status write) = %v, want %v", gens, want)
	}
	if !widgetOK {
		t.Error("status subresource did not store status.ready")
	}
	if len(events) < 4 || events[0] != "add gear" || events[len(events)-1] != "delete gear" {
		t.Errorf("informer events = %v, want add, updates, delete", events)
	}
	if !cmSeen || !cmGone {
		t.Errorf("owned ConfigMap: created %v, collected after its owner's deletion %v", cmSeen, cmGone)
	}
}

// TestCustomResourceDefinedLate: a CustomResourceDefinition applied at a
// timeline step makes its kind served (the Widget applied after it is
// stored), watched (the garbage collector lists and watches Widgets from
// then on) and collected through owners: the ConfigMap a Widget owns goes
// within two seconds of the Widget's deletion at 5m, when re-checks of an
// unwatched owner would be minutes apart.
func TestCustomResourceDefinedLate(t *testing.T) {
	s, err := scenarios.LoadFile("../../testdata/custom-resources/defined-late.yaml")
	if err != nil {
		t.Fatal(err)
	}
	key := api.Key{Namespace: "default", Name: "gear"}
	cmKey := api.Key{Namespace: "default", Name: "gear-config"}
	const deleted = 5 * time.Minute
	var (
		errs    []error
		removed time.Duration
	)
	opts := runner.Options{OnStart: func(c *cluster.Cluster) {
		cl := c.Client("user/test", "test-user")
		c.At(12*time.Second, func() {
			c.Go("test", func(p *kernel.Process) {
				ctx := context.Background()
				w, err := cl.Get(ctx, widgetKind, key)
				if err != nil {
					errs = append(errs, err)
					return
				}
				cm := &api.ConfigMap{ObjectMeta: api.ObjectMeta{Namespace: cmKey.Namespace, Name: cmKey.Name, OwnerReferences: []api.OwnerReference{api.NewControllerRef(w)}}}
				if _, err := cl.Create(ctx, cm); err != nil {
					errs = append(errs, err)
					return
				}
				p.Sleep(deleted - 12*time.Second)
				if err := cl.Delete(ctx, widgetKind, key); err != nil {
					errs = append(errs, err)
				}
			})
		})
		c.At(deleted+30*time.Second, func() {
			for _, r := range c.Store.Audit().Records() {
				if r.Kind == api.KindConfigMap && r.Key == cmKey && r.Removed {
					removed = time.Duration(r.Time)
				}
			}
		})
	}}
	res, err := runner.Run(s, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range errs {
		t.Error(err)
	}
	if removed < deleted || removed > deleted+2*time.Second {
		t.Errorf("the Widget's ConfigMap was removed at %v; want within 2s of the Widget's deletion at %v", removed, deleted)
	}
	lists := 0
	for _, r := range res.Requests {
		if r.Actor == garbagecollector.Actor && r.Kind == widgetKind.Name && r.Verb == "list" {
			lists++
		}
	}
	if lists == 0 {
		t.Error("the garbage collector never listed Widgets")
	}
}

// TestCustomResourceDefaults: a custom resource is stored with its
// schema's defaults, at load (a required property with a default may be
// left out, as the API server defaults before it validates), on create
// and on every later write (an update that drops a defaulted property
// gets it back), as apiextensions-apiserver defaults every request.
func TestCustomResourceDefaults(t *testing.T) {
	path := "../../testdata/custom-resources/defaults.yaml"
	s, err := scenarios.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	gadget := api.Kind{Group: "example.com", Name: "Gadget"}
	key := api.Key{Namespace: "default", Name: "g"}
	var got []string
	read := func(c *cluster.Cluster) {
		o, err := c.Store.Get(gadget, key)
		if err != nil {
			got = append(got, err.Error())
			return
		}
		spec, _ := o.(*api.Unstructured).Get("spec")
		got = append(got, fmt.Sprint(spec))
	}
	opts := runner.Options{OnStart: func(c *cluster.Cluster) {
		read(c)
		cl := c.Client("user/test", "test-user")
		c.At(time.Second, func() {
			c.Go("test", func(p *kernel.Process) {
				o, err := cl.Get(context.Background(), gadget, key)
				if err != nil {
					got = append(got, err.Error())
					return
				}
				u := o.(*api.Unstructured)
				u.Fields["spec"] = map[string]any{"replicas": int64(3), "tier": "pro"}
				if _, err := cl.Update(context.Background(), u); err != nil {
					got = append(got, err.Error())
				}
				read(c)
			})
		})
	}}
	if _, err := runner.Run(s, opts); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"map[note:none replicas:1 strategy:map[maxSurge:1 type:Rolling] tier:free]",
		"map[note:none replicas:3 strategy:map[maxSurge:1 type:Rolling] tier:pro]",
	}
	if !slices.Equal(got, want) {
		t.Errorf("spec %q, want %q", got, want)
	}
}
