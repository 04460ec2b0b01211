package crt_test

import (
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"

	"github.com/clustersim/clustersim/crt"
	"github.com/clustersim/clustersim/sim/api"
)

func converter(t testing.TB) *crt.Converter {
	t.Helper()
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	return crt.NewConverter(s, api.Builtin())
}

func deployment() *appsv1.Deployment {
	replicas := int32(3)
	labels := map[string]string{"app": "web"}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", Labels: labels},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{
					Name: "web", Image: "nginx:1.14.2",
					Ports: []corev1.ContainerPort{{ContainerPort: 80, Protocol: corev1.ProtocolTCP}},
				}}},
			},
		},
	}
}

// TestConvertRoundTrip: a Deployment converts to the simulator's type and
// back with every field it set.
func TestConvertRoundTrip(t *testing.T) {
	c := converter(t)
	o, err := c.ToSim(deployment())
	if err != nil {
		t.Fatal(err)
	}
	d, ok := o.(*api.Deployment)
	if !ok || d.Spec.Template.Spec.Containers[0].Image != "nginx:1.14.2" || *d.Spec.Replicas != 3 || d.APIVersion != "apps/v1" {
		t.Fatalf("ToSim: %#v", o)
	}
	back := &appsv1.Deployment{}
	if err := c.FromSim(o, back); err != nil {
		t.Fatal(err)
	}
	if back.Spec.Template.Spec.Containers[0].Ports[0].ContainerPort != 80 || back.Kind != "Deployment" || back.Labels["app"] != "web" {
		t.Errorf("FromSim: %#v", back)
	}
}

// TestConvertStrict: a field the simulator's types do not carry is an
// error naming its path; empty values are not.
func TestConvertStrict(t *testing.T) {
	c := converter(t)
	for _, tc := range []struct {
		name string
		obj  runtime.Object
		want string // "" for no error
	}{
		{"a deployment", deployment(), ""},
		{"an empty node", &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}}, ""},
		{"an unsimulated field", &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}, Status: corev1.NodeStatus{DeclaredFeatures: []string{"InPlacePodVerticalScaling"}}},
			"Node /n1 sets status.declaredFeatures[0]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.ToSim(tc.obj)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("ToSim: %v", err)
			case tc.want != "" && (!errors.Is(err, crt.ErrUnsupportedField) || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("ToSim: %v; want ErrUnsupportedField naming %s", err, tc.want)
			}
		})
	}
}

// cpuTime is the process's CPU time (user and system, every thread): on a
// shared machine ns/op is wall time and grows with the load, while
// cpu-ns/op (reported beside it) counts only this process's work, the
// garbage collector's included.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time per operation since start.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime(b)-start)/float64(b.N), "cpu-ns/op")
}

// BenchmarkToSim is the conversion of a Deployment a write sends.
func BenchmarkToSim(b *testing.B) {
	c := converter(b)
	d := deployment()
	defer reportCPU(b, cpuTime(b))
	for b.Loop() {
		if _, err := c.ToSim(d); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFromSim is the conversion of a Deployment a write returns (or
// a cache read of a version not seen before).
func BenchmarkFromSim(b *testing.B) {
	c := converter(b)
	o, err := c.ToSim(deployment())
	if err != nil {
		b.Fatal(err)
	}
	defer reportCPU(b, cpuTime(b))
	for b.Loop() {
		if err := c.FromSim(o, &appsv1.Deployment{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFromCache is a cached read of a version already converted: a
// deep copy.
func BenchmarkFromCache(b *testing.B) {
	c := converter(b)
	o, err := c.ToSim(deployment())
	if err != nil {
		b.Fatal(err)
	}
	o.GetObjectMeta().UID, o.GetObjectMeta().ResourceVersion = "u1", "1" // a stored version
	if err := c.FromCache(o, &appsv1.Deployment{}); err != nil {
		b.Fatal(err)
	}
	defer reportCPU(b, cpuTime(b))
	for b.Loop() {
		if err := c.FromCache(o, &appsv1.Deployment{}); err != nil {
			b.Fatal(err)
		}
	}
}
