package controller_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
	"github.com/clustersim/clustersim/sim/store"
)

// infoName is the ConfigMap the example controller keeps in every
// namespace.
const infoName = "ns-info"

// nsInfo is a level-triggered example controller, written as controllers
// in clustersim are: it imports api, apierr, client, controller and
// informer only. It keeps, in every namespace, a ConfigMap "ns-info" whose
// data["labels"] lists the namespace's labels. Informer events only say
// which namespace to look at; Reconcile reads the current state through
// the client and makes the ConfigMap match, whatever happened before.
type nsInfo struct {
	c client.Client
}

// setupNSInfo registers the controller with a manager.
func setupNSInfo(m *controller.Manager) error {
	namespaces, err := m.Informer(api.KindNamespace, informer.Options{})
	if err != nil {
		return err
	}
	configMaps, err := m.Informer(api.KindConfigMap, informer.Options{})
	if err != nil {
		return err
	}
	c, err := m.NewController("ns-info", controller.Options{Workers: 2}, &nsInfo{c: m.Client()})
	if err != nil {
		return err
	}
	c.Watch(namespaces, controller.EnqueueObject())
	c.Watch(configMaps, func(o api.Object) []controller.Request {
		if meta := o.GetObjectMeta(); meta.Name == infoName {
			return []controller.Request{{Key: api.Key{Name: meta.Namespace}}}
		}
		return nil
	})
	return nil
}

// labelsOf renders labels as sorted "k=v" pairs.
func labelsOf(ns *api.Namespace) string {
	var pairs []string
	for _, k := range slices.Sorted(maps.Keys(ns.Labels)) {
		pairs = append(pairs, k+"="+ns.Labels[k])
	}
	return strings.Join(pairs, ",")
}

func (r *nsInfo) Reconcile(ctx context.Context, req controller.Request) (controller.Result, error) {
	ns, err := client.GetAs[*api.Namespace](ctx, r.c, req.Key)
	if errors.Is(err, apierr.ErrNotFound) {
		return controller.Result{}, nil
	}
	if err != nil {
		return controller.Result{}, err
	}
	if ns.DeletionTimestamp != nil {
		return controller.Result{}, nil
	}
	want := map[string]string{"labels": labelsOf(ns)}
	key := api.Key{Namespace: ns.Name, Name: infoName}
	cm, err := client.GetAs[*api.ConfigMap](ctx, r.c, key)
	switch {
	case errors.Is(err, apierr.ErrNotFound):
		_, err = r.c.Create(ctx, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Namespace: ns.Name, Name: infoName}, Data: want})
		return controller.Result{}, err
	case err != nil:
		return controller.Result{}, err
	case maps.Equal(cm.Data, want):
		return controller.Result{}, nil
	}
	cm.Data = want
	_, err = r.c.Update(ctx, cm)
	return controller.Result{}, err // a conflict is retried with back-off
}

// converged reports whether every namespace has a correct ns-info, and
// describes the first one that does not.
func converged(h *harness) (bool, string) {
	nss, _, _ := h.st.List(api.KindNamespace, store.ListOptions{})
	for _, o := range nss {
		ns := o.(*api.Namespace)
		cm, err := h.st.Get(api.KindConfigMap, api.Key{Namespace: ns.Name, Name: infoName})
		if err != nil {
			return false, ns.Name + ": no ns-info"
		}
		if got, want := cm.(*api.ConfigMap).Data["labels"], labelsOf(ns); got != want {
			return false, ns.Name + ": labels " + got + ", want " + want
		}
	}
	return true, ""
}

// TestLevelTriggeredExample runs the example controller while the network
// drops every MODIFIED watch event after 5s: a namespace's labels change
// and a user edits a ConfigMap, and the controller hears of neither. A
// level-triggered controller still reaches the right end state at its next
// resync; without resync it cannot, which shows the faults bite.
func TestLevelTriggeredExample(t *testing.T) {
	tests := []struct {
		name   string
		resync time.Duration
		want   bool
	}{
		{"resync repairs missed events", time.Minute, true},
		{"without resync missed events stay missed", 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, 1)
			h.tr.latency = 2 * time.Millisecond
			h.tr.drop = func(e store.Event) bool { return h.k.Now().Duration() > 5*time.Second && e.Type == store.Modified }
			m := controller.NewManager(h.k, h.tr, "ns-info-manager", system, setupNSInfo)
			m.SetOptions(controller.ManagerOptions{Resync: tc.resync})
			if err := m.Start(); err != nil {
				t.Fatal(err)
			}
			for _, n := range []string{"a", "b", "c"} {
				h.at(time.Second, func() {
					h.create(&api.Namespace{ObjectMeta: api.ObjectMeta{Name: n, Labels: map[string]string{"team": n}}})
				})
			}
			h.at(10*time.Second, func() {
				h.update(system, api.KindNamespace, api.Key{Name: "b"}, func(o api.Object) {
					o.GetObjectMeta().Labels["tier"] = "gold"
				})
			})
			h.at(20*time.Second, func() {
				h.update("alice", api.KindConfigMap, api.Key{Namespace: "c", Name: infoName}, func(o api.Object) {
					o.(*api.ConfigMap).Data["labels"] = "hand-edited"
				})
			})
			h.runUntil(5 * time.Second)
			if ok, why := converged(h); !ok {
				t.Fatalf("not converged before the faults: %s", why)
			}
			h.runUntil(30 * time.Second)
			if ok, _ := converged(h); ok {
				t.Fatal("converged at 30s although the changes' events were dropped: the test shows nothing")
			}
			h.runUntil(2 * time.Minute)
			if ok, why := converged(h); ok != tc.want {
				t.Errorf("converged at 2m = %v (%s), want %v", ok, why, tc.want)
			}
		})
	}
}

// TestExampleDeterministic runs the faulty example twice with an observer
// and compares every reconcile: time, request and outcome.
func TestExampleDeterministic(t *testing.T) {
	run := func() []string {
		h := newHarness(t, 42)
		h.tr.latency = 3 * time.Millisecond
		h.tr.drop = func(e store.Event) bool {
			return e.Type == store.Modified && h.k.Now().Duration()%(7*time.Second) < time.Second
		}
		var log []string
		m := controller.NewManager(h.k, h.tr, "ns-info-manager", system, setupNSInfo)
		m.SetOptions(controller.ManagerOptions{Resync: 20 * time.Second, Observer: func(o controller.Observation) {
			log = append(log, fmt.Sprintf("%s %s %s %v %v", o.Start.Format(time.StampMicro), o.Controller, o.Request, o.Result, o.Err))
		}})
		if err := m.Start(); err != nil {
			t.Fatal(err)
		}
		for i := range 20 {
			h.at(time.Duration(i)*1700*time.Millisecond, func() {
				n := fmt.Sprintf("ns-%d", i%7)
				if _, err := h.st.Get(api.KindNamespace, api.Key{Name: n}); err != nil {
					h.create(&api.Namespace{ObjectMeta: api.ObjectMeta{Name: n, Labels: map[string]string{"i": fmt.Sprint(i)}}})
					return
				}
				h.update(system, api.KindNamespace, api.Key{Name: n}, func(o api.Object) {
					o.GetObjectMeta().Labels["i"] = fmt.Sprint(i)
				})
			})
		}
		h.at(30*time.Second, func() { m.Crash() })
		h.at(31*time.Second, func() {
			if err := m.Start(); err != nil {
				t.Error(err)
			}
		})
		h.runUntil(2 * time.Minute)
		if ok, why := converged(h); !ok {
			t.Errorf("not converged: %s", why)
		}
		return log
	}
	a, b := run(), run()
	if len(a) < 20 || !slices.Equal(a, b) {
		t.Errorf("runs differ or are too short (%d, %d reconciles):\n%s\n---\n%s", len(a), len(b), strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
}
