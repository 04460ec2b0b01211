package kubectl_test

import (
	"context"
	"errors"
	"testing"

	"github.com/clustersim/clustersim/scenarios/kubectl"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/cluster"
)

var webKey = api.Key{Namespace: "default", Name: "web"}

func webDeployment(image string) *api.Deployment {
	labels := map[string]string{"app": "web"}
	return &api.Deployment{
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default", Labels: labels},
		Spec: api.DeploymentSpec{
			Replicas: ptr(int32(3)),
			Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec: api.PodSpec{Containers: []api.Container{
					{Name: "web", Image: image},
					{Name: "log", Image: "busybox:1.36"},
				}},
			},
		},
	}
}

// result is a command's expected outcome: its lines, or an error matching
// is and printing as line.
type result struct {
	lines []string
	is    error
	line  string
}

func (r result) check(t *testing.T, name string, lines []string, err error) {
	t.Helper()
	equalLines(t, name, lines, r.lines)
	if r.is == nil {
		if err != nil {
			t.Errorf("%s: unexpected error %v", name, err)
		}
		return
	}
	if !errors.Is(err, r.is) {
		t.Errorf("%s: error %v does not match %v", name, err, r.is)
	}
	if got := kubectl.ErrorLine(err); got != r.line {
		t.Errorf("%s: error line\n got %s\nwant %s", name, got, r.line)
	}
}

type step struct {
	name string
	run  func(ctx context.Context, c client.Client) ([]string, error)
	want result
}

func runSteps(t *testing.T, e *env, steps []step) {
	t.Helper()
	for _, st := range steps {
		lines, err := e.cmd(st.run)
		st.want.check(t, st.name, lines, err)
	}
}

func TestScaleSetImageEdit(t *testing.T) {
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "busybox"}}}}
	e := newEnv(t, cluster.Config{Seed: 10}, webDeployment("nginx:1.14.2"), pod)
	runSteps(t, e, []step{
		{"scale", func(ctx context.Context, c client.Client) ([]string, error) {
			return kubectl.Scale(ctx, c, api.KindDeployment, webKey, 5)
		}, result{lines: []string{"deployment.apps/web scaled"}}},
		{"scale missing", func(ctx context.Context, c client.Client) ([]string, error) {
			return kubectl.Scale(ctx, c, api.KindDeployment, api.Key{Namespace: "default", Name: "nope"}, 5)
		}, result{is: apierr.ErrNotFound, line: `Error from server (NotFound): deployments.apps "nope" not found`}},
		{"scale a pod", func(ctx context.Context, c client.Client) ([]string, error) {
			return kubectl.Scale(ctx, c, api.KindPod, api.Key{Namespace: "default", Name: "p"}, 2)
		}, result{is: kubectl.ErrUnsupported, line: "error: cannot scale pod: no scale subresource"}},
		{"set image", func(ctx context.Context, c client.Client) ([]string, error) {
			return kubectl.SetImage(ctx, c, webKey, "web", "nginx:1.16.1")
		}, result{lines: []string{"deployment.apps/web image updated"}}},
		{"set same image", func(ctx context.Context, c client.Client) ([]string, error) {
			return kubectl.SetImage(ctx, c, webKey, "web", "nginx:1.16.1")
		}, result{}},
		{"set image of a missing container", func(ctx context.Context, c client.Client) ([]string, error) {
			return kubectl.SetImage(ctx, c, webKey, "foo", "nginx:1.16.1")
		}, result{is: kubectl.ErrContainerNotFound, line: `error: unable to find container named "foo"`}},
		{"edit without change", func(ctx context.Context, c client.Client) ([]string, error) {
			return kubectl.Edit(ctx, c, api.KindDeployment, webKey, []byte(`{"spec":{"replicas":5}}`))
		}, result{lines: []string{"Edit cancelled, no changes made."}}},
		{"edit", func(ctx context.Context, c client.Client) ([]string, error) {
			return kubectl.Edit(ctx, c, api.KindDeployment, webKey, []byte(`{"metadata":{"labels":{"tier":"front"}},"spec":{"replicas":2}}`))
		}, result{lines: []string{"deployment.apps/web edited"}}},
		{"edit with a bad patch", func(ctx context.Context, c client.Client) ([]string, error) {
			return kubectl.Edit(ctx, c, api.KindDeployment, webKey, []byte(`[1]`))
		}, result{is: kubectl.ErrBadInput, line: "error: invalid edit: not a JSON object"}},
	})
	d := e.deployment("web")
	if *d.Spec.Replicas != 2 || d.Labels["tier"] != "front" {
		t.Errorf("replicas %d, labels %v", *d.Spec.Replicas, d.Labels)
	}
	cs := d.Spec.Template.Spec.Containers
	if cs[0].Image != "nginx:1.16.1" || cs[1].Image != "busybox:1.36" {
		t.Errorf("containers %+v", cs)
	}
	if n := e.requests(apiserver.Patch); n != 3 {
		t.Errorf("%d patches, want 3 (scale, set image, edit)", n)
	}
}

func TestDelete(t *testing.T) {
	pod := func(name string) *api.Pod {
		return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
			Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "busybox"}}}}
	}
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n1"}}
	e := newEnv(t, cluster.Config{Seed: 11}, pod("a"), pod("b"), node, webDeployment("nginx"))
	runSteps(t, e, []step{
		{"pod", func(ctx context.Context, c client.Client) ([]string, error) {
			return kubectl.Delete(ctx, c, api.KindPod, api.Key{Namespace: "default", Name: "a"}, kubectl.DeleteOptions{})
		}, result{lines: []string{`pod "a" deleted from default namespace`}}},
		{"force", func(ctx context.Context, c client.Client) ([]string, error) {
			return kubectl.Delete(ctx, c, api.KindPod, api.Key{Namespace: "default", Name: "b"}, kubectl.DeleteOptions{Force: true, GracePeriodSeconds: ptr(int64(0))})
		}, result{lines: []string{
			"Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.",
			`pod "b" force deleted from default namespace`}}},
		{"deployment, orphan", func(ctx context.Context, c client.Client) ([]string, error) {
			return kubectl.Delete(ctx, c, api.KindDeployment, webKey, kubectl.DeleteOptions{Cascade: "orphan"})
		}, result{lines: []string{`deployment.apps "web" deleted from default namespace`}}},
		{"node", func(ctx context.Context, c client.Client) ([]string, error) {
			return kubectl.Delete(ctx, c, api.KindNode, api.Key{Name: "n1"}, kubectl.DeleteOptions{})
		}, result{lines: []string{`node "n1" deleted`}}},
		{"missing", func(ctx context.Context, c client.Client) ([]string, error) {
			return kubectl.Delete(ctx, c, api.KindPod, api.Key{Namespace: "default", Name: "a"}, kubectl.DeleteOptions{Force: true})
		}, result{lines: []string{"Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely."},
			is: apierr.ErrNotFound, line: `Error from server (NotFound): pods "a" not found`}},
		{"bad cascade", func(ctx context.Context, c client.Client) ([]string, error) {
			return kubectl.Delete(ctx, c, api.KindPod, api.Key{Namespace: "default", Name: "a"}, kubectl.DeleteOptions{Cascade: "sideways"})
		}, result{is: kubectl.ErrBadInput, line: `error: invalid cascade value (sideways). Must be "background", "foreground", or "orphan"`}},
	})
	if _, err := e.c.Store.Get(api.KindNode, api.Key{Name: "n1"}); !errors.Is(err, apierr.ErrNotFound) {
		t.Errorf("node still there: %v", err)
	}
}

func TestCordonDrain(t *testing.T) {
	yes := true
	pod := func(ns, name, node string, owner *api.OwnerReference, annotations map[string]string) *api.Pod {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns, Annotations: annotations},
			Spec: api.PodSpec{NodeName: node, Containers: []api.Container{{Name: "c", Image: "busybox"}}}}
		if owner != nil {
			p.OwnerReferences = []api.OwnerReference{*owner}
		}
		return p
	}
	rs := &api.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-5d4c", UID: "rs-uid", Controller: &yes}
	ds := &api.OwnerReference{APIVersion: "apps/v1", Kind: "DaemonSet", Name: "proxy", UID: "ds-uid", Controller: &yes}
	e := newEnv(t, cluster.Config{Seed: 12},
		&api.Node{ObjectMeta: api.ObjectMeta{Name: "n1"}},
		&api.Node{ObjectMeta: api.ObjectMeta{Name: "n2"}},
		pod("default", "web-5d4c-b2x7q", "n1", rs, nil),
		pod("default", "web-5d4c-zz9k4", "n1", rs, nil),
		pod("default", "bare", "n1", nil, nil),
		pod("kube-system", "proxy-abcde", "n1", ds, nil),
		pod("kube-system", "static-n1", "n1", nil, map[string]string{"kubernetes.io/config.mirror": "x"}),
		pod("default", "web-5d4c-other", "n2", rs, nil),
	)
	runSteps(t, e, []step{
		{"cordon", func(ctx context.Context, c client.Client) ([]string, error) { return kubectl.Cordon(ctx, c, "n2") },
			result{lines: []string{"node/n2 cordoned"}}},
		{"cordon again", func(ctx context.Context, c client.Client) ([]string, error) { return kubectl.Cordon(ctx, c, "n2") },
			result{lines: []string{"node/n2 already cordoned"}}},
		{"uncordon", func(ctx context.Context, c client.Client) ([]string, error) { return kubectl.Uncordon(ctx, c, "n2") },
			result{lines: []string{"node/n2 uncordoned"}}},
		{"uncordon again", func(ctx context.Context, c client.Client) ([]string, error) { return kubectl.Uncordon(ctx, c, "n2") },
			result{lines: []string{"node/n2 already uncordoned"}}},
		{"cordon missing", func(ctx context.Context, c client.Client) ([]string, error) { return kubectl.Cordon(ctx, c, "n9") },
			result{is: apierr.ErrNotFound, line: `Error from server (NotFound): nodes "n9" not found`}},
		{"drain", func(ctx context.Context, c client.Client) ([]string, error) {
			return kubectl.Drain(ctx, c, "n1", kubectl.DrainOptions{})
		},
			result{lines: []string{
				"node/n1 cordoned",
				"Warning: ignoring DaemonSet-managed Pods: kube-system/proxy-abcde; deleting Pods that declare no controller: default/bare",
				"evicting pod default/bare",
				"evicting pod default/web-5d4c-b2x7q",
				"evicting pod default/web-5d4c-zz9k4",
				"pod/bare evicted",
				"pod/web-5d4c-b2x7q evicted",
				"pod/web-5d4c-zz9k4 evicted",
				"node/n1 drained",
			}}},
	})
	if !e.get(api.KindNode, "", "n1").(*api.Node).Spec.Unschedulable {
		t.Error("n1 not cordoned")
	}
	if e.get(api.KindNode, "", "n2").(*api.Node).Spec.Unschedulable {
		t.Error("n2 still cordoned")
	}
	for _, name := range []string{"bare", "web-5d4c-b2x7q"} {
		if o, err := e.c.Store.Get(api.KindPod, api.Key{Namespace: "default", Name: name}); err == nil && o.GetObjectMeta().DeletionTimestamp == nil {
			t.Errorf("pod %s neither deleted nor terminating", name)
		}
	}
	for _, k := range []api.Key{{Namespace: "kube-system", Name: "proxy-abcde"}, {Namespace: "kube-system", Name: "static-n1"}, {Namespace: "default", Name: "web-5d4c-other"}} {
		if o, err := e.c.Store.Get(api.KindPod, k); err != nil || o.GetObjectMeta().DeletionTimestamp != nil {
			t.Errorf("pod %s was evicted: %v", k, err)
		}
	}
}
