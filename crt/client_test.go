package crt_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	appsv1ac "k8s.io/client-go/applyconfigurations/apps/v1"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	metav1ac "k8s.io/client-go/applyconfigurations/meta/v1"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/clustersim/clustersim/crt"
	"github.com/clustersim/clustersim/harness"
)

// script is what the crt-client operator does at its first reconcile of
// the ConfigMap "trigger": a test sets it, runs testdata/client.yaml and
// reads what it recorded.
var script func(ctx context.Context, c client.Client) []string

// scriptReconciler runs script once.
type scriptReconciler struct {
	c        client.Client
	done     bool
	problems *[]string
}

func (r *scriptReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	if req.Name != "trigger" || r.done {
		return reconcile.Result{}, nil
	}
	r.done = true
	*r.problems = append(script(ctx, r.c), "ran")
	return reconcile.Result{}, nil
}

var problems []string

// builtinScheme holds k8s.io/api's types: the test operators' scheme.
func builtinScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		panic(err)
	}
	return s
}

func init() {
	crt.MustRegister(crt.Operator{Name: "crt-client", Scheme: builtinScheme(), Setup: func(mgr *crt.Manager) error {
		err := mgr.GetFieldIndexer().IndexField(context.Background(), &corev1.ConfigMap{}, "data.owner", func(o client.Object) []string {
			if v, ok := o.(*corev1.ConfigMap).Data["owner"]; ok {
				return []string{v}
			}
			return nil
		})
		if err != nil {
			return err
		}
		err = mgr.GetFieldIndexer().IndexField(context.Background(), &corev1.ConfigMap{}, "color", func(o client.Object) []string {
			if v, ok := o.GetLabels()["color"]; ok {
				return []string{v}
			}
			return nil
		})
		if err != nil {
			return err
		}
		return crt.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(&scriptReconciler{c: mgr.GetClient(), problems: &problems})
	}})
}

// runScript runs f as the crt-client operator's first reconcile and
// fails t with what f reported.
func runScript(t *testing.T, f func(ctx context.Context, c client.Client) []string) {
	t.Helper()
	script, problems = f, nil
	runOnce(t, "testdata/client.yaml")
	if len(problems) == 0 || problems[len(problems)-1] != "ran" {
		t.Fatal("the script did not run")
	}
	for _, p := range problems[:len(problems)-1] {
		t.Error(p)
	}
}

// runOnce runs the scenario at path once, seed 1, without faults or
// detector bounds, and fails t if the run fails.
func runOnce(t *testing.T, path string) {
	t.Helper()
	s, err := harness.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	v, err := harness.Run(s, 1, harness.Config{Profiles: []string{}, MaxFights: -1, MaxHotLoops: -1})
	if err != nil {
		t.Fatal(err)
	}
	if !v.Passed() {
		t.Errorf("run failed: %v", v.Failures)
	}
}

func names(l *corev1.ConfigMapList) string {
	var out []string
	for _, cm := range l.Items {
		out = append(out, cm.Name)
	}
	return strings.Join(out, ",")
}

// TestListFieldIndex: List serves label selectors and, through
// IndexField, client.MatchingFields, as controller-runtime's cache does
// (a field without an index and non-exact matches are refused with its
// messages).
func TestListFieldIndex(t *testing.T) {
	runScript(t, func(ctx context.Context, c client.Client) []string {
		var out []string
		for _, tc := range []struct {
			opts []client.ListOption
			want string // names, or the error
		}{
			{nil, "blue,green,red,trigger"},
			{[]client.ListOption{client.InNamespace("default")}, "blue,green,red,trigger"},
			{[]client.ListOption{client.InNamespace("kube-system")}, ""},
			{[]client.ListOption{client.MatchingLabels{"color": "red"}}, "red"},
			{[]client.ListOption{client.MatchingFields{"data.owner": "alice"}}, "green,red"},
			{[]client.ListOption{client.MatchingFields{"data.owner": "alice"}, client.InNamespace("default")}, "green,red"},
			{[]client.ListOption{client.MatchingFields{"data.owner": "alice"}, client.InNamespace("other")}, ""},
			{[]client.ListOption{client.MatchingFields{"data.owner": "alice"}, client.MatchingLabels{"color": "green"}}, "green"},
			{[]client.ListOption{client.MatchingFields{"data.owner": "carol"}}, ""},
			{[]client.ListOption{client.MatchingFields{"data.owner": "alice", "color": "green"}}, "green"},
			{[]client.ListOption{client.MatchingFields{"data.owner": "alice", "color": "blue"}}, ""},
			{[]client.ListOption{client.MatchingFields{"data.owner": "bob", "color": "blue"}, client.InNamespace("default")}, "blue"},
			{[]client.ListOption{client.MatchingFields{"data.color": "red"}}, "Index with name field:data.color does not exist"},
			{[]client.ListOption{client.MatchingFieldsSelector{Selector: mustParseFields("data.owner!=alice")}}, "non-exact field matches are not supported by the cache"},
		} {
			var l corev1.ConfigMapList
			got := ""
			if err := c.List(ctx, &l, tc.opts...); err != nil {
				got = err.Error()
			} else {
				got = names(&l)
			}
			if got != tc.want {
				out = append(out, fmt.Sprintf("List(%v): %q; want %q", tc.opts, got, tc.want))
			}
		}
		return out
	})
}

// TestListUnstructured: List serves an UnstructuredList and a
// PartialObjectMetadataList of a kind the scheme also has a Go type for,
// as controller-runtime's cache does (their items are Unstructured and
// PartialObjectMetadata, not the scheme's type).
func TestListUnstructured(t *testing.T) {
	runScript(t, func(ctx context.Context, c client.Client) []string {
		var out []string
		gvk := corev1.SchemeGroupVersion.WithKind("ConfigMapList")
		ul := &unstructured.UnstructuredList{}
		ul.SetGroupVersionKind(gvk)
		pl := &metav1.PartialObjectMetadataList{}
		pl.SetGroupVersionKind(gvk)
		for _, tc := range []struct {
			list client.ObjectList
			opts []client.ListOption
			want string
		}{
			{ul, nil, "blue,green,red,trigger"},
			{ul, []client.ListOption{client.MatchingLabels{"color": "red"}}, "red"},
			{pl, nil, "blue,green,red,trigger"},
			{pl, []client.ListOption{client.MatchingFields{"data.owner": "alice"}}, "green,red"},
		} {
			got := ""
			if err := c.List(ctx, tc.list, tc.opts...); err != nil {
				got = err.Error()
			} else {
				var ns []string
				items, _ := meta.ExtractList(tc.list)
				for _, it := range items {
					o := it.(client.Object)
					if o.GetObjectKind().GroupVersionKind().Kind != "ConfigMap" {
						ns = append(ns, "wrong kind "+o.GetObjectKind().GroupVersionKind().String())
					}
					ns = append(ns, o.GetName())
				}
				got = strings.Join(ns, ",")
			}
			if got != tc.want {
				out = append(out, fmt.Sprintf("List(%T, %v): %q; want %q", tc.list, tc.opts, got, tc.want))
			}
		}
		return out
	})
}

// TestApply: client.Apply of an apply configuration and Patch with
// client.Apply go through the simulated API server's server-side apply:
// created on first apply, a conflicting field of another manager refused
// with 409 unless forced, the stored object filled in.
func TestApply(t *testing.T) {
	runScript(t, func(ctx context.Context, c client.Client) []string {
		var out []string
		bad := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
		labels := map[string]string{"app": "applied"}
		dep := appsv1ac.Deployment("applied", "default").WithSpec(appsv1ac.DeploymentSpec().
			WithReplicas(2).
			WithSelector(metav1ac.LabelSelector().WithMatchLabels(labels)).
			WithTemplate(corev1ac.PodTemplateSpec().WithLabels(labels).
				WithSpec(corev1ac.PodSpec().WithContainers(corev1ac.Container().WithName("web").WithImage("nginx:1.14.2")))))
		if err := c.Apply(ctx, dep, client.FieldOwner("crt-test")); err != nil {
			return []string{fmt.Sprintf("Apply (create): %v", err)}
		}
		if dep.UID == nil || *dep.UID == "" || dep.ResourceVersion == nil || *dep.Spec.Replicas != 2 {
			bad("Apply did not fill in the stored object: %+v", dep.ObjectMetaApplyConfiguration)
		}
		other := appsv1ac.Deployment("applied", "default").WithSpec(appsv1ac.DeploymentSpec().WithReplicas(3))
		if err := c.Apply(ctx, other, client.FieldOwner("other")); !apierrors.IsConflict(err) {
			bad("Apply of a field another manager owns: %v; want a conflict", err)
		} else if !strings.Contains(err.Error(), `conflict with "crt-test"`) || !strings.Contains(err.Error(), ".spec.replicas") {
			bad("conflict message %q", err)
		}
		if err := c.Apply(ctx, other, client.FieldOwner("other"), client.ForceOwnership); err != nil || *other.Spec.Replicas != 3 {
			bad("forced Apply: %v", err)
		}
		if err := c.Apply(ctx, appsv1ac.Deployment("applied", "default")); !apierrors.IsInvalid(err) {
			bad("Apply without a field manager: %v; want Invalid", err)
		}
		typed := &appsv1.Deployment{
			TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
			ObjectMeta: metav1.ObjectMeta{Name: "applied", Namespace: "default"},
			Spec: appsv1.DeploymentSpec{Replicas: ptr(int32(4)), Selector: &metav1.LabelSelector{MatchLabels: labels},
				Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels},
					Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx:1.16.1"}}}}},
		}
		if err := c.Patch(ctx, typed, client.Apply, client.FieldOwner("crt-test"), client.ForceOwnership); err != nil {
			bad("Patch with client.Apply: %v", err)
		} else if *typed.Spec.Replicas != 4 || typed.UID == "" || typed.Spec.Template.Spec.Containers[0].Image != "nginx:1.16.1" {
			bad("Patch with client.Apply did not fill in the stored object: %+v", typed.Spec)
		}
		return out
	})
}

// TestSubresources: the scale subresource of a Deployment (read live as
// an autoscaling/v1 Scale, written with its resourceVersion as a
// precondition) and the status subresource (an update of the main
// resource leaves the status, a status update leaves the spec).
func TestSubresources(t *testing.T) {
	runScript(t, func(ctx context.Context, c client.Client) []string {
		var out []string
		bad := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
		labels := map[string]string{"app": "scaled"}
		dep := &appsv1.Deployment{
			ObjectMeta: metav1.ObjectMeta{Name: "scaled", Namespace: "default"},
			Spec: appsv1.DeploymentSpec{Replicas: ptr(int32(1)), Selector: &metav1.LabelSelector{MatchLabels: labels},
				Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels},
					Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx:1.14.2"}}}}},
		}
		if err := c.Create(ctx, dep); err != nil {
			return []string{fmt.Sprintf("Create: %v", err)}
		}
		scale := &autoscalingv1.Scale{}
		if err := c.SubResource("scale").Get(ctx, dep, scale); err != nil {
			return []string{fmt.Sprintf("scale Get: %v", err)}
		}
		if scale.Spec.Replicas != 1 || scale.Status.Selector != "app=scaled" || scale.Name != "scaled" || scale.ResourceVersion != dep.ResourceVersion || scale.Kind != "Scale" {
			bad("scale of the new Deployment: %+v", scale)
		}
		stale := scale.DeepCopy()
		// The Deployment controller writes the status meanwhile: retry on
		// conflicts, as retry.RetryOnConflict does.
		var err error
		for range 5 {
			scale.Spec.Replicas = 3
			if err = c.SubResource("scale").Update(ctx, dep, client.WithSubResourceBody(scale)); !apierrors.IsConflict(err) {
				break
			}
			if err = c.SubResource("scale").Get(ctx, dep, scale); err != nil {
				break
			}
		}
		if err != nil {
			bad("scale Update: %v", err)
		} else if scale.Spec.Replicas != 3 || scale.ResourceVersion == stale.ResourceVersion {
			bad("scale after Update: %+v", scale)
		}
		stale.Spec.Replicas = 5
		if err := c.SubResource("scale").Update(ctx, dep, client.WithSubResourceBody(stale)); !apierrors.IsConflict(err) {
			bad("scale Update at a stale resourceVersion: %v; want a conflict", err)
		}
		if err := c.SubResource("scale").Get(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "red", Namespace: "default"}}, &autoscalingv1.Scale{}); err == nil || !strings.Contains(err.Error(), "the scale subresource of ConfigMap") {
			bad("scale of a ConfigMap: %v", err)
		}

		live := &appsv1.Deployment{}
		if err := c.SubResource("status").Get(ctx, dep, live); err != nil || *live.Spec.Replicas != 3 {
			return append(out, fmt.Sprintf("status Get: %v (replicas %d)", err, *live.Spec.Replicas))
		}
		for range 5 {
			live.Status.ObservedGeneration = 99
			live.Spec.Replicas = ptr(int32(2))
			if err = c.Update(ctx, live); !apierrors.IsConflict(err) {
				break
			}
			if err = c.SubResource("status").Get(ctx, dep, live); err != nil {
				break
			}
		}
		// Judge the stored object, read afresh: decoding a reply into the
		// caller's object leaves a field the reply omits (an empty
		// status's observedGeneration, when the Deployment controller has
		// not written the status yet) as the caller set it, as client-go's
		// decoding does.
		stored := &appsv1.Deployment{}
		if err != nil {
			bad("Update: %v", err)
		} else if err := c.SubResource("status").Get(ctx, dep, stored); err != nil {
			bad("status Get after Update: %v", err)
		} else if stored.Status.ObservedGeneration == 99 || *stored.Spec.Replicas != 2 {
			bad("Update wrote status %d or lost spec %d", stored.Status.ObservedGeneration, *stored.Spec.Replicas)
		}
		live = stored
		for range 5 {
			live.Status.ObservedGeneration = 99
			live.Spec.Replicas = ptr(int32(7))
			if err = c.Status().Update(ctx, live); !apierrors.IsConflict(err) {
				break
			}
			if err = c.SubResource("status").Get(ctx, dep, live); err != nil {
				break
			}
		}
		if err != nil {
			bad("status Update: %v", err)
		} else if live.Status.ObservedGeneration != 99 || *live.Spec.Replicas != 2 {
			bad("status Update lost status %d or wrote spec %d", live.Status.ObservedGeneration, *live.Spec.Replicas)
		}
		return out
	})
}

func ptr[T any](v T) *T { return &v }

func mustParseFields(s string) fields.Selector {
	sel, err := fields.ParseSelector(s)
	if err != nil {
		panic(err)
	}
	return sel
}

// TestCheckDeterminism: a script whose writes depend on something kept
// across runs (a counter, like a global random source or the wall clock)
// is reported at its first diverging write, naming the object and the
// field; a deterministic script gives its hash.
func TestCheckDeterminism(t *testing.T) {
	script = func(ctx context.Context, c client.Client) []string { return nil }
	hash, err := crt.CheckDeterminism("testdata/client.yaml", 1, harness.Config{Profiles: []string{}, MaxFights: -1, MaxHotLoops: -1})
	if err != nil || len(hash) != 64 {
		t.Errorf("a deterministic script: %q, %v", hash, err)
	}
	n := 0
	script = func(ctx context.Context, c client.Client) []string {
		n++
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "out", Namespace: "default"}, Data: map[string]string{"n": fmt.Sprint(n)}}
		if err := c.Create(ctx, cm); err != nil {
			return []string{err.Error()}
		}
		return nil
	}
	_, err = crt.CheckDeterminism("testdata/client.yaml", 1, harness.Config{Profiles: []string{}, MaxFights: -1, MaxHotLoops: -1})
	if err == nil || !strings.Contains(err.Error(), "first differ at write") || !strings.Contains(err.Error(), "ConfigMap default/out") {
		t.Fatalf("a script writing a counter: %v", err)
	}
	t.Log(err)
	// docs/testing-your-controller.md quotes this message as it is.
	doc, derr := os.ReadFile("../docs/testing-your-controller.md")
	if derr != nil {
		t.Fatal(derr)
	}
	if !strings.Contains(string(doc), err.Error()) {
		t.Errorf("docs/testing-your-controller.md does not quote the message as printed; it should show:\n%v", err)
	}
}
