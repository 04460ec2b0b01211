package kubectl_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/clustersim/clustersim/scenarios/kubectl"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/netsim"
)

// nginx is the Deployment of the Kubernetes docs, with a few knobs.
func nginx(image, extraSpec, extraMeta, extraContainers string) string {
	return fmt.Sprintf(`
apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx-deployment
  labels:
    app: nginx
%s
spec:
  replicas: 3
%s
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: %s
        ports:
        - containerPort: 80
%s
`, extraMeta, extraSpec, image, extraContainers)
}

const sidecar = `      - name: log
        image: busybox:1.36
        args: ["tail", "-f", "/dev/null"]
`

// TestApplyLifecycle applies successive versions of one file and checks
// each printed line, the live object and the requests sent.
func TestApplyLifecycle(t *testing.T) {
	e := newEnv(t, cluster.Config{Seed: 1})
	apply := func(yaml string) ([]string, error) {
		return e.cmd(func(ctx context.Context, c client.Client) ([]string, error) {
			return kubectl.Apply(ctx, c, decode(t, yaml), kubectl.ApplyOptions{})
		})
	}
	steps := []struct {
		name  string
		yaml  string
		want  string
		check func(t *testing.T, d *api.Deployment)
	}{
		{"created", nginx("nginx:1.14.2", "", "", ""), "deployment.apps/nginx-deployment created", func(t *testing.T, d *api.Deployment) {
			want := `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"annotations":{},"labels":{"app":"nginx"},"name":"nginx-deployment","namespace":"default"},"spec":{"replicas":3,"selector":{"matchLabels":{"app":"nginx"}},"template":{"metadata":{"labels":{"app":"nginx"}},"spec":{"containers":[{"image":"nginx:1.14.2","name":"nginx","ports":[{"containerPort":80}]}]}}}}` + "\n"
			if got := d.Annotations[kubectl.LastAppliedAnnotation]; got != want {
				t.Errorf("last-applied\n got %q\nwant %q", got, want)
			}
		}},
		{"unchanged", nginx("nginx:1.14.2", "", "", ""), "deployment.apps/nginx-deployment unchanged", nil},
		{"configured: image, minReadySeconds, annotation", nginx("nginx:1.16.1", "  minReadySeconds: 5", "  annotations:\n    team: web", ""),
			"deployment.apps/nginx-deployment configured", func(t *testing.T, d *api.Deployment) {
				if img := d.Spec.Template.Spec.Containers[0].Image; img != "nginx:1.16.1" {
					t.Errorf("image %s", img)
				}
				if d.Spec.MinReadySeconds != 5 || d.Annotations["team"] != "web" {
					t.Errorf("minReadySeconds %d, team %q", d.Spec.MinReadySeconds, d.Annotations["team"])
				}
				if d.Spec.Template.Spec.Containers[0].ImagePullPolicy != api.PullIfNotPresent {
					t.Errorf("defaulted imagePullPolicy lost: %q", d.Spec.Template.Spec.Containers[0].ImagePullPolicy)
				}
			}},
		{"fields removed from the file are removed", nginx("nginx:1.16.1", "", "", ""), "deployment.apps/nginx-deployment configured", func(t *testing.T, d *api.Deployment) {
			if d.Spec.MinReadySeconds != 0 {
				t.Errorf("minReadySeconds %d survived", d.Spec.MinReadySeconds)
			}
			if _, ok := d.Annotations["team"]; ok {
				t.Errorf("annotation team survived")
			}
			if d.Annotations["deployment.kubernetes.io/revision"] != "7" || d.Labels["injected"] != "yes" {
				t.Errorf("fields nobody applied were touched: %v %v", d.Annotations, d.Labels)
			}
		}},
		{"sidecar added", nginx("nginx:1.16.1", "", "", sidecar), "deployment.apps/nginx-deployment configured", func(t *testing.T, d *api.Deployment) {
			if n := len(d.Spec.Template.Spec.Containers); n != 2 || d.Spec.Template.Spec.Containers[1].Name != "log" {
				t.Errorf("containers %+v", d.Spec.Template.Spec.Containers)
			}
		}},
		{"sidecar removed", nginx("nginx:1.16.1", "", "", ""), "deployment.apps/nginx-deployment configured", func(t *testing.T, d *api.Deployment) {
			cs := d.Spec.Template.Spec.Containers
			if len(cs) != 1 || cs[0].Name != "nginx" || cs[0].ImagePullPolicy != api.PullIfNotPresent {
				t.Errorf("containers %+v", cs)
			}
		}},
		{"strategy switched to Recreate", nginx("nginx:1.16.1", "  strategy:\n    type: Recreate", "", ""), "deployment.apps/nginx-deployment configured", func(t *testing.T, d *api.Deployment) {
			if d.Spec.Strategy.Type != api.RecreateDeploymentStrategyType || d.Spec.Strategy.RollingUpdate != nil {
				t.Errorf("strategy %+v", d.Spec.Strategy)
			}
		}},
		{"drift reverted", nginx("nginx:1.16.1", "  strategy:\n    type: Recreate", "", ""), "deployment.apps/nginx-deployment configured", func(t *testing.T, d *api.Deployment) {
			if *d.Spec.Replicas != 3 {
				t.Errorf("replicas %d", *d.Spec.Replicas)
			}
		}},
	}
	for i, st := range steps {
		switch st.name {
		case "fields removed from the file are removed":
			// A controller annotates, another user labels: neither was
			// ever applied, so apply leaves both alone.
			e.run(func(ctx context.Context, c client.Client) {
				sys := e.c.Client("controller/x", "system:serviceaccount:kube-system:deployment-controller")
				if _, err := sys.Patch(ctx, api.KindDeployment, api.Key{Namespace: "default", Name: "nginx-deployment"}, client.MergePatch,
					[]byte(`{"metadata":{"annotations":{"deployment.kubernetes.io/revision":"7"}}}`)); err != nil {
					t.Error(err)
				}
				if _, err := c.Patch(ctx, api.KindDeployment, api.Key{Namespace: "default", Name: "nginx-deployment"}, client.MergePatch,
					[]byte(`{"metadata":{"labels":{"injected":"yes"}}}`)); err != nil {
					t.Error(err)
				}
			})
		case "drift reverted":
			if _, err := e.cmd(func(ctx context.Context, c client.Client) ([]string, error) {
				return kubectl.Scale(ctx, c, api.KindDeployment, api.Key{Namespace: "default", Name: "nginx-deployment"}, 7)
			}); err != nil {
				t.Fatal(err)
			}
		}
		patches := e.requests(apiserver.Patch)
		lines, err := apply(st.yaml)
		if err != nil {
			t.Fatalf("step %d %s: %v", i, st.name, err)
		}
		equalLines(t, st.name, lines, []string{st.want})
		sent := e.requests(apiserver.Patch) - patches
		if wantPatch := strings.HasSuffix(st.want, "configured"); wantPatch != (sent == 1) || sent > 1 {
			t.Errorf("step %s: %d patch requests", st.name, sent)
		}
		if st.check != nil {
			st.check(t, e.deployment("nginx-deployment"))
		}
	}
}

// TestApplyKinds applies one object of each kind a scenario uses and
// applies them again: every kind prints kubectl's name and reapplying
// changes nothing.
func TestApplyKinds(t *testing.T) {
	yaml := `
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector:
    app: web
  ports:
  - port: 80
    targetPort: 8080
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  mode: fast
---
apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata:
  name: web
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: web
  minReplicas: 1
  maxReplicas: 10
  targetCPUUtilizationPercentage: 50
---
apiVersion: v1
kind: ResourceQuota
metadata:
  name: quota
spec:
  hard:
    pods: "10"
---
apiVersion: v1
kind: Pod
metadata:
  name: solo
spec:
  containers:
  - name: app
    image: busybox:1.36
    resources:
      limits:
        cpu: 500m
`
	e := newEnv(t, cluster.Config{Seed: 2})
	run := func() []string {
		lines, err := e.cmd(func(ctx context.Context, c client.Client) ([]string, error) {
			return kubectl.Apply(ctx, c, decode(t, yaml), kubectl.ApplyOptions{})
		})
		if err != nil {
			t.Fatal(err)
		}
		return lines
	}
	equalLines(t, "first apply", run(), []string{
		"service/web created",
		"configmap/settings created",
		"horizontalpodautoscaler.autoscaling/web created",
		"resourcequota/quota created",
		"pod/solo created",
	})
	equalLines(t, "second apply", run(), []string{
		"service/web unchanged",
		"configmap/settings unchanged",
		"horizontalpodautoscaler.autoscaling/web unchanged",
		"resourcequota/quota unchanged",
		"pod/solo unchanged",
	})
	hpa := e.get(api.KindHorizontalPodAutoscaler, "default", "web").(*api.HorizontalPodAutoscaler)
	if !strings.Contains(hpa.Annotations[kubectl.LastAppliedAnnotation], `"apiVersion":"autoscaling/v1"`) {
		t.Errorf("hpa last-applied is not the applied v1 object: %s", hpa.Annotations[kubectl.LastAppliedAnnotation])
	}
}

// TestApplyServicePortChange changes one of two service ports: kubectl
// merges ports by port number, which the simulator's server cannot, so a
// merge patch carries the whole list.
func TestApplyServicePortChange(t *testing.T) {
	svc := func(target string) string {
		return `
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector:
    app: web
  ports:
  - name: http
    port: 80
    targetPort: 8080
  - name: admin
    port: 81
    targetPort: ` + target + "\n"
	}
	e := newEnv(t, cluster.Config{Seed: 3})
	for _, yaml := range []string{svc("8081"), svc("9091")} {
		if _, err := e.cmd(func(ctx context.Context, c client.Client) ([]string, error) {
			return kubectl.Apply(ctx, c, decode(t, yaml), kubectl.ApplyOptions{})
		}); err != nil {
			t.Fatal(err)
		}
	}
	s := e.get(api.KindService, "default", "web").(*api.Service)
	if len(s.Spec.Ports) != 2 || s.Spec.Ports[0].TargetPort.IntValue() != 8080 || s.Spec.Ports[1].TargetPort.IntValue() != 9091 {
		t.Errorf("ports %+v", s.Spec.Ports)
	}
}

// TestApplyWithoutAnnotation applies over an object created without
// apply: kubectl warns and patches the annotation in.
func TestApplyWithoutAnnotation(t *testing.T) {
	objs := decode(t, nginx("nginx:1.14.2", "", "", ""))
	e := newEnv(t, cluster.Config{Seed: 4}, objs...)
	lines, err := e.cmd(func(ctx context.Context, c client.Client) ([]string, error) {
		return kubectl.Apply(ctx, c, objs, kubectl.ApplyOptions{})
	})
	if err != nil {
		t.Fatal(err)
	}
	equalLines(t, "apply", lines, []string{
		"Warning: resource deployments/nginx-deployment is missing the kubectl.kubernetes.io/last-applied-configuration annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.",
		"deployment.apps/nginx-deployment configured",
	})
	if e.deployment("nginx-deployment").Annotations[kubectl.LastAppliedAnnotation] == "" {
		t.Error("annotation not patched in")
	}
}

// TestApplyFailures: a failed object does not stop the others, failures
// print as kubectl prints them, and a lost request fails with Timeout.
func TestApplyFailures(t *testing.T) {
	yaml := `
apiVersion: v1
kind: ConfigMap
metadata:
  name: lost
  namespace: nope
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: kept
`
	e := newEnv(t, cluster.Config{Seed: 5})
	lines, err := e.cmd(func(ctx context.Context, c client.Client) ([]string, error) {
		return kubectl.Apply(ctx, c, decode(t, yaml), kubectl.ApplyOptions{Source: "web.yaml"})
	})
	equalLines(t, "apply", lines, []string{"configmap/kept created"})
	if !errors.Is(err, apierr.ErrNotFound) {
		t.Fatalf("error %v is not NotFound", err)
	}
	if got, want := kubectl.ErrorLine(err), `Error from server (NotFound): error when creating "web.yaml": namespaces "nope" not found`; got != want {
		t.Errorf("error line\n got %s\nwant %s", got, want)
	}

	lossy := newEnv(t, cluster.Config{Seed: 6, Link: netsim.LinkConfig{Drop: 1}})
	lines, err = lossy.cmd(func(ctx context.Context, c client.Client) ([]string, error) {
		return kubectl.Apply(ctx, c, decode(t, yaml)[1:], kubectl.ApplyOptions{})
	})
	if len(lines) != 0 || !errors.Is(err, apierr.ErrTimeout) {
		t.Fatalf("lossy apply: %q, %v", lines, err)
	}
	if l := kubectl.ErrorLine(err); !strings.HasPrefix(l, "Unable to connect to the server: ") {
		t.Errorf("timeout line %q", l)
	}
}
