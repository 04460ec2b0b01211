package crt

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/controller"
)

type reconcileFunc func(context.Context, reconcile.Request) (reconcile.Result, error)

func (f reconcileFunc) Reconcile(ctx context.Context, r reconcile.Request) (reconcile.Result, error) {
	return f(ctx, r)
}

// TestReconcileMapping: controller-runtime's Result and errors map onto
// the simulated controller's, and each reconcile's logger carries a
// reconcile ID counted per controller.
func TestReconcileMapping(t *testing.T) {
	boom := errors.New("boom")
	for _, tc := range []struct {
		name     string
		res      reconcile.Result
		err      error
		want     controller.Result
		terminal bool
	}{
		{"done", reconcile.Result{}, nil, controller.Result{}, false},
		{"requeue after", reconcile.Result{RequeueAfter: 3 * time.Second}, nil, controller.Result{RequeueAfter: 3 * time.Second}, false},
		{"requeue", reconcile.Result{Requeue: true}, nil, controller.Result{Requeue: true}, false}, //nolint:staticcheck // the deprecated field is still honoured
		{"error", reconcile.Result{RequeueAfter: time.Second}, boom, controller.Result{}, false},
		{"terminal", reconcile.Result{}, reconcile.TerminalError(boom), controller.Result{}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ids []string
			r := &reconciler{name: "app", log: logr.Discard(), r: reconcileFunc(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
				if req.Namespace != "default" || req.Name != "web" {
					t.Errorf("request %v", req)
				}
				ids = append(ids, "x")
				return tc.res, tc.err
			})}
			req := controller.Request{Key: api.Key{Namespace: "default", Name: "web"}}
			got, err := r.Reconcile(context.Background(), req)
			if got != tc.want {
				t.Errorf("result %+v, want %+v", got, tc.want)
			}
			if (tc.err == nil) != (err == nil) || !errors.Is(err, tc.err) && tc.err != nil && !tc.terminal {
				t.Errorf("error %v, want %v", err, tc.err)
			}
			if errors.Is(err, controller.ErrTerminal) != tc.terminal {
				t.Errorf("terminal = %v, want %v (error %v)", errors.Is(err, controller.ErrTerminal), tc.terminal, err)
			}
			if r.n != 1 || len(ids) != 1 {
				t.Errorf("%d reconciles counted, %d calls", r.n, len(ids))
			}
		})
	}
}

// TestBatchSortsRequests: the requests a handler adds for one event are
// enqueued sorted and deduplicated, whatever order a map gave them in.
func TestBatchSortsRequests(t *testing.T) {
	q := &batch{}
	for _, n := range []string{"c", "a", "b", "a"} {
		q.Add(reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "default", Name: n}})
	}
	q.AddAfter(reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "default", Name: "z"}}, time.Second)
	q.sort()
	var got []string
	for _, r := range q.now {
		got = append(got, r.Name)
	}
	if want := []string{"a", "b", "c"}; len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("enqueued %v, want %v", got, want)
	}
	if len(q.later) != 1 || q.later[0].req.Name != "z" || q.later[0].d != time.Second {
		t.Errorf("delayed %+v", q.later)
	}
}
