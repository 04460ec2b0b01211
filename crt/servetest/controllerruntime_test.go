package servetest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	metav1ac "k8s.io/client-go/applyconfigurations/meta/v1"
	"k8s.io/client-go/util/retry"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/predicate"

	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

const (
	reconcileLabel = "servetest/reconcile"
	derivedSuffix  = "-derived"
)

// copier is a reconciler in controller-runtime's usual shape: for each
// labelled ConfigMap it server-side applies a derived ConfigMap (its data,
// owned by the source), creates a Secret it owns if missing, and records
// on the source, by an update in a RetryOnConflict loop, how many pods its
// cache indexes on worker-1.
type copier struct {
	c client.Client

	mu         sync.Mutex
	reconciles int
}

func (r *copier) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	r.mu.Lock()
	r.reconciles++
	r.mu.Unlock()
	var src corev1.ConfigMap
	if err := r.c.Get(ctx, req.NamespacedName, &src); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	owner := metav1ac.OwnerReference().WithAPIVersion("v1").WithKind("ConfigMap").WithName(src.Name).WithUID(src.UID).WithController(true).WithBlockOwnerDeletion(true)
	derived := corev1ac.ConfigMap(src.Name+derivedSuffix, src.Namespace).WithData(src.Data).WithOwnerReferences(owner)
	if err := r.c.Apply(ctx, derived, client.FieldOwner("copier"), client.ForceOwnership); err != nil {
		return ctrl.Result{}, fmt.Errorf("apply: %w", err)
	}
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: src.Name + "-secret", Namespace: src.Namespace}}
	if _, err := controllerutil.CreateOrUpdate(ctx, r.c, secret, func() error {
		secret.StringData = nil
		secret.Data = map[string][]byte{"from": []byte(src.Name)}
		return controllerutil.SetControllerReference(&src, secret, r.c.Scheme())
	}); err != nil {
		return ctrl.Result{}, fmt.Errorf("secret: %w", err)
	}
	var pods corev1.PodList
	if err := r.c.List(ctx, &pods, client.MatchingFields{"spec.nodeName": "worker-1"}); err != nil {
		return ctrl.Result{}, fmt.Errorf("pods: %w", err)
	}
	err := retry.RetryOnConflict(retry.DefaultBackoff, func() error {
		var cur corev1.ConfigMap
		if err := r.c.Get(ctx, req.NamespacedName, &cur); err != nil {
			return err
		}
		want := fmt.Sprint(len(pods.Items))
		if cur.Annotations["servetest/worker-1-pods"] == want {
			return nil
		}
		if cur.Annotations == nil {
			cur.Annotations = map[string]string{}
		}
		cur.Annotations["servetest/worker-1-pods"] = want
		return r.c.Update(ctx, &cur)
	})
	return ctrl.Result{}, client.IgnoreNotFound(err)
}

// TestControllerRuntime runs a controller-runtime manager (its own cache
// and client, not clustersim's crt adapter) against serve, with the
// reconciler above; it watches the Secrets it owns as metadata only.
func TestControllerRuntime(t *testing.T) {
	s := serve(t, "node-failure", "--timeline=false", "--speed", "60")
	ctrl.SetLogger(testLogger(t))
	mgr, err := ctrl.NewManager(s.json, ctrl.Options{
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		// Leader election takes a coordination.k8s.io Lease.
		LeaderElection:          true,
		LeaderElectionID:        "servetest-copier",
		LeaderElectionNamespace: "default",
		// The reconciler's CreateOrUpdate reads its Secret from the API
		// server, not from a typed Secret informer: the reconcile that a
		// Secret's deletion brings comes from the metadata informer of
		// Owns(OnlyMetadata), and a typed informer behind it could still
		// hold the Secret, so that CreateOrUpdate found it unchanged and
		// did nothing, never to be asked again (make adapter failed so
		// once, in a fresh clone's CI: "the owned Secret recreated: not
		// within 60 s"). Two informers of one kind are not ordered.
		Client: client.Options{Cache: &client.CacheOptions{DisableFor: []client.Object{&corev1.Secret{}}}},
	})
	if err != nil {
		t.Fatalf("NewManager: %v", err)
	}
	c0 := ctx(t, 150*time.Second)
	if err := mgr.GetFieldIndexer().IndexField(c0, &corev1.Pod{}, "spec.nodeName", func(o client.Object) []string {
		return []string{o.(*corev1.Pod).Spec.NodeName}
	}); err != nil {
		t.Fatal(err)
	}
	r := &copier{c: mgr.GetClient()}
	labelled := predicate.NewPredicateFuncs(func(o client.Object) bool { return o.GetLabels()[reconcileLabel] == "yes" })
	if err := ctrl.NewControllerManagedBy(mgr).Named("copier").
		For(&corev1.ConfigMap{}, builder.WithPredicates(labelled)).
		Owns(&corev1.Secret{}, builder.OnlyMetadata).
		Complete(r); err != nil {
		t.Fatal(err)
	}
	runCtx, stop := context.WithCancel(c0)
	done := make(chan error, 1)
	go func() { done <- mgr.Start(runCtx) }()
	defer func() {
		stop()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("manager: %v", err)
			}
		case <-time.After(60 * time.Second):
			t.Errorf("the manager did not stop within 60 s")
		}
	}()
	syncCtx, cancel := context.WithTimeout(c0, 60*time.Second)
	defer cancel()
	if !mgr.GetCache().WaitForCacheSync(syncCtx) {
		t.Fatal("the manager's cache did not sync in 60 s")
	}
	select {
	case <-mgr.Elected():
	case <-syncCtx.Done():
		t.Fatal("the manager was not elected leader in 60 s")
	}
	lease, err := s.cs.CoordinationV1().Leases("default").Get(c0, "servetest-copier", metav1.GetOptions{})
	if err != nil || lease.Spec.HolderIdentity == nil || *lease.Spec.HolderIdentity == "" {
		t.Errorf("the leader's Lease: %v %+v", err, lease)
	}

	cms := s.cs.CoreV1().ConfigMaps("default")
	src := configMap("source", map[string]string{"k": "1"})
	src.Labels = map[string]string{reconcileLabel: "yes"}
	if _, err := cms.Create(c0, src, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the derived ConfigMap with k=1, owned by source", func() error {
		d, err := cms.Get(c0, "source"+derivedSuffix, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if d.Data["k"] != "1" || len(d.OwnerReferences) != 1 || d.OwnerReferences[0].Name != "source" {
			return fmt.Errorf("data %v owners %v", d.Data, d.OwnerReferences)
		}
		if len(d.ManagedFields) == 0 || d.ManagedFields[0].Manager != "copier" || d.ManagedFields[0].Operation != metav1.ManagedFieldsOperationApply {
			return fmt.Errorf("managedFields %+v", d.ManagedFields)
		}
		return nil
	})
	pods, err := s.cs.CoreV1().Pods("").List(c0, metav1.ListOptions{FieldSelector: "spec.nodeName=worker-1"})
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, "the source annotated with worker-1's pod count from the cache's index", func() error {
		cm, err := cms.Get(c0, "source", metav1.GetOptions{})
		if err != nil {
			return err
		}
		if got, want := cm.Annotations["servetest/worker-1-pods"], fmt.Sprint(len(pods.Items)); got != want {
			return fmt.Errorf("annotation %q, want %q", got, want)
		}
		return nil
	})

	// A change of the source reaches the derived ConfigMap.
	if err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cm, err := cms.Get(c0, "source", metav1.GetOptions{})
		if err != nil {
			return err
		}
		cm.Data["k"] = "2"
		_, err = cms.Update(c0, cm, metav1.UpdateOptions{})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the derived ConfigMap with k=2", func() error {
		d, err := cms.Get(c0, "source"+derivedSuffix, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if d.Data["k"] != "2" {
			return fmt.Errorf("data %v", d.Data)
		}
		return nil
	})

	// Owns: deleting the owned Secret brings a reconcile that
	// recreates it.
	secrets := s.cs.CoreV1().Secrets("default")
	old, err := secrets.Get(c0, "source-secret", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := secrets.Delete(c0, "source-secret", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the owned Secret recreated", func() error {
		sec, err := secrets.Get(c0, "source-secret", metav1.GetOptions{})
		if err != nil {
			return err
		}
		if sec.UID == old.UID {
			return errors.New("still the old Secret")
		}
		return nil
	})

	// The manager's client reads its cache: a Get of an object the
	// cache holds, a NotFound for one it does not.
	var got corev1.ConfigMap
	if err := mgr.GetClient().Get(c0, types.NamespacedName{Namespace: "default", Name: "source"}, &got); err != nil {
		t.Errorf("manager client Get: %v", err)
	}
	if err := mgr.GetClient().Get(c0, types.NamespacedName{Namespace: "default", Name: "missing"}, &got); !apierrors.IsNotFound(err) {
		t.Errorf("manager client Get of a missing ConfigMap: %v, want NotFound", err)
	}

	// An event recorded through the manager's (core/v1) recorder.
	mgr.GetEventRecorderFor("copier").Event(&got, corev1.EventTypeNormal, "Copied", "copied by the test")
	eventually(t, "the recorded Event", func() error {
		evs, err := s.cs.CoreV1().Events("default").List(c0, metav1.ListOptions{FieldSelector: "involvedObject.name=source,reason=Copied"})
		if err != nil {
			return err
		}
		if len(evs.Items) != 1 || evs.Items[0].Source.Component != "copier" || evs.Items[0].InvolvedObject.Kind != "ConfigMap" {
			return fmt.Errorf("%d events %+v", len(evs.Items), evs.Items)
		}
		return nil
	})

	// events.k8s.io/v1, which controller-runtime's GetEventRecorder
	// writes, is not served (docs/kubectl.md): a 404.
	if _, err := s.cs.EventsV1().Events("default").List(c0, metav1.ListOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("events.k8s.io/v1 events: %v, want the documented NotFound", err)
	}

	// Deleting the source: the garbage collector deletes what it owns.
	if err := cms.Delete(c0, "source", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the derived ConfigMap garbage-collected", func() error {
		_, err := cms.Get(c0, "source"+derivedSuffix, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return nil
		}
		return fmt.Errorf("still there (%v)", err)
	})
	r.mu.Lock()
	t.Logf("%d reconciles", r.reconciles)
	r.mu.Unlock()
}

// eventually polls check until it returns nil, for up to 60 s.
func eventually(t *testing.T, what string, check func() error) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		err := check()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 60 s: %v", what, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// testLogger is a logr.Logger whose lines are kept and shown when t
// fails (a manager's goroutines may log after the test returns, where
// t.Log would panic).
func testLogger(t *testing.T) logr.Logger {
	var mu sync.Mutex
	var lines []string
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		if t.Failed() {
			t.Logf("controller-runtime's log:\n%s", strings.Join(lines, "\n"))
		}
		lines = nil
	})
	return funcr.New(func(prefix, args string) {
		mu.Lock()
		defer mu.Unlock()
		if lines != nil || len(lines) == 0 {
			lines = append(lines, prefix+" "+args)
		}
	}, funcr.Options{Verbosity: 1})
}
