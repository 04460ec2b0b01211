package crt

import (
	"encoding/json"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"

	"github.com/clustersim/clustersim/sim/api"
)

func internalConverter(t *testing.T) *Converter {
	t.Helper()
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	return NewConverter(s, api.Builtin())
}

// TestToSimFastPath: the fast path (a decode refusing unknown keys) gives
// the object the strict slow path gives, for objects whose keys the
// simulator knows.
func TestToSimFastPath(t *testing.T) {
	c := internalConverter(t)
	replicas := int32(2)
	grace := int64(30)
	for _, tc := range []struct {
		name string
		obj  runtime.Object
	}{
		{"deployment", &appsv1.Deployment{
			ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", Labels: map[string]string{"app": "web"}, Finalizers: []string{"f"}},
			Spec: appsv1.DeploymentSpec{Replicas: &replicas, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
				Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{TerminationGracePeriodSeconds: &grace,
					Volumes:    []corev1.Volume{{Name: "tmp", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}},
					Containers: []corev1.Container{{Name: "web", Image: "nginx", Resources: corev1.ResourceRequirements{}}}}}},
		}},
		{"service", &corev1.Service{
			ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
			Spec:       corev1.ServiceSpec{Selector: map[string]string{"app": "web"}, Ports: []corev1.ServicePort{{Port: 80, TargetPort: intstr.FromString("http")}}},
		}},
		{"configmap", &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c", Namespace: "default"}, Data: map[string]string{"k": "v"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fast, err := c.ToSim(tc.obj)
			if err != nil {
				t.Fatal(err)
			}
			gvk, err := c.GVK(tc.obj)
			if err != nil {
				t.Fatal(err)
			}
			src, err := json.Marshal(tc.obj)
			if err != nil {
				t.Fatal(err)
			}
			out, err := c.kinds.New(gvk.GroupVersion().String(), gvk.Kind)
			if err != nil {
				t.Fatal(err)
			}
			slow, err := c.toSimSlow(gvk, src, out)
			if err != nil {
				t.Fatal(err)
			}
			a, _ := json.Marshal(fast)
			b, _ := json.Marshal(slow)
			if string(a) != string(b) {
				t.Errorf("fast path:\n%s\nslow path:\n%s", a, b)
			}
		})
	}
}

// TestFromCacheVersions: a stored version (uid and resourceVersion)
// converts once, whichever copy of it comes (a write's reply, then the
// informer's); a new version or a new uid converts again.
func TestFromCacheVersions(t *testing.T) {
	c := internalConverter(t)
	cm := func(uid, rv, v string) api.Object {
		return &api.ConfigMap{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
			ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "c", UID: api.UID(uid), ResourceVersion: rv}, Data: map[string]string{"k": v}}
	}
	for i, step := range []struct {
		o      api.Object
		misses int
		want   string
	}{
		{cm("u1", "5", "a"), 1, "a"},
		{cm("u1", "5", "a"), 1, "a"}, // another copy of the same version
		{cm("u1", "6", "b"), 2, "b"},
		{cm("u2", "6", "c"), 3, "c"}, // recreated under a new uid
		{cm("u2", "", "d"), 3, "d"},  // not a stored version: converted, not kept
		{cm("u2", "6", "c"), 3, "c"},
	} {
		got := &corev1.ConfigMap{}
		if err := c.FromCache(step.o, got); err != nil {
			t.Fatal(err)
		}
		if c.misses != step.misses || got.Data["k"] != step.want {
			t.Errorf("step %d: %d conversions, data %q; want %d, %q", i, c.misses, got.Data["k"], step.misses, step.want)
		}
		got.Data["k"] = "changed" // the caller's copy is its own
	}
}
