package kubectl_test

import (
	"context"
	"errors"
	"maps"
	"testing"
	"time"

	"github.com/clustersim/clustersim/controllers/deployment"
	"github.com/clustersim/clustersim/scenarios/kubectl"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/controller"
)

// TestRolloutStatus covers every branch of kubectl's DeploymentStatusViewer.
func TestRolloutStatus(t *testing.T) {
	dep := func(gen, observed int64, replicas, updated, total, available int32, progressing string) *api.Deployment {
		d := &api.Deployment{
			ObjectMeta: api.ObjectMeta{Name: "web", Generation: gen},
			Spec:       api.DeploymentSpec{Replicas: ptr(replicas)},
			Status: api.DeploymentStatus{ObservedGeneration: observed, UpdatedReplicas: updated,
				Replicas: total, AvailableReplicas: available},
		}
		if progressing != "" {
			d.Status.Conditions = []api.DeploymentCondition{{Type: api.DeploymentProgressing, Status: api.ConditionTrue, Reason: progressing}}
		}
		return d
	}
	for _, tc := range []struct {
		name string
		d    *api.Deployment
		msg  string
		done bool
		line string
	}{
		{"spec update not observed", dep(2, 1, 3, 3, 3, 3, ""), "Waiting for deployment spec update to be observed...", false, ""},
		{"new replicas updating", dep(2, 2, 3, 1, 4, 3, "ReplicaSetUpdated"), `Waiting for deployment "web" rollout to finish: 1 out of 3 new replicas have been updated...`, false, ""},
		{"old replicas terminating", dep(2, 2, 3, 3, 4, 3, "ReplicaSetUpdated"), `Waiting for deployment "web" rollout to finish: 1 old replicas are pending termination...`, false, ""},
		{"updated replicas becoming available", dep(2, 2, 3, 3, 3, 2, "ReplicaSetUpdated"), `Waiting for deployment "web" rollout to finish: 2 of 3 updated replicas are available...`, false, ""},
		{"done", dep(2, 2, 3, 3, 3, 3, "NewReplicaSetAvailable"), `deployment "web" successfully rolled out`, true, ""},
		{"deadline exceeded", dep(2, 2, 3, 1, 4, 3, "ProgressDeadlineExceeded"), "", false, `error: deployment "web" exceeded its progress deadline`},
		{"deadline of an older generation", dep(3, 2, 3, 1, 4, 3, "ProgressDeadlineExceeded"), "Waiting for deployment spec update to be observed...", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg, done, err := kubectl.RolloutStatus(tc.d)
			if msg != tc.msg || done != tc.done {
				t.Errorf("got %q %v, want %q %v", msg, done, tc.msg, tc.done)
			}
			if got := kubectl.ErrorLine(err); got != tc.line {
				t.Errorf("error line %q, want %q", got, tc.line)
			}
			if tc.line != "" && !errors.Is(err, kubectl.ErrProgressDeadline) {
				t.Errorf("error %v is not ErrProgressDeadline", err)
			}
		})
	}
}

// rolloutEnv is a cluster with Deployment "web" at revision 2 and its two
// ReplicaSets, as the Deployment controller leaves them, and Deployment
// "solo" with one revision.
func rolloutEnv(t *testing.T) *env {
	web := webDeployment("nginx:1.16.1")
	web.Annotations = map[string]string{
		deployment.RevisionAnnotation:    "2",
		kubectl.LastAppliedAnnotation:    "{}",
		"team":                           "new",
		"extra":                          "x",
		deployment.MaxReplicasAnnotation: "4",
	}
	solo := webDeployment("nginx:1.16.1")
	solo.Name = "solo"
	e := newEnv(t, cluster.Config{Seed: 20}, web, solo)
	rs := func(owner *api.Deployment, name, hash, image, revision string, annotations map[string]string) *api.ReplicaSet {
		labels := map[string]string{"app": "web", deployment.DefaultDeploymentUniqueLabelKey: hash}
		r := &api.ReplicaSet{
			ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: labels,
				Annotations:     map[string]string{deployment.RevisionAnnotation: revision},
				OwnerReferences: []api.OwnerReference{api.NewControllerRef(owner)}},
			Spec: api.ReplicaSetSpec{
				Replicas: ptr(int32(0)),
				Selector: &api.LabelSelector{MatchLabels: labels},
				Template: *owner.Spec.Template.DeepCopy(),
			},
		}
		maps.Copy(r.Annotations, annotations)
		r.Spec.Template.Labels = maps.Clone(labels)
		r.Spec.Template.Spec.Containers[0].Image = image
		return r
	}
	liveWeb := e.deployment("web")
	liveSolo := e.deployment("solo")
	if err := e.c.Bootstrap(
		rs(liveWeb, "web-111", "111", "nginx:1.14.2", "1", map[string]string{"team": "old", kubectl.ChangeCauseAnnotation: "first"}),
		rs(liveWeb, "web-222", "222", "nginx:1.16.1", "2", nil),
		rs(liveSolo, "solo-333", "333", "nginx:1.16.1", "1", nil),
	); err != nil {
		t.Fatal(err)
	}
	return e
}

func TestRolloutCommands(t *testing.T) {
	e := rolloutEnv(t)
	undo := func(name string, rev int64) func(ctx context.Context, c client.Client) ([]string, error) {
		return func(ctx context.Context, c client.Client) ([]string, error) {
			return kubectl.RolloutUndo(ctx, c, api.Key{Namespace: "default", Name: name}, rev)
		}
	}
	pause := func(ctx context.Context, c client.Client) ([]string, error) {
		return kubectl.RolloutPause(ctx, c, webKey)
	}
	resume := func(ctx context.Context, c client.Client) ([]string, error) {
		return kubectl.RolloutResume(ctx, c, webKey)
	}
	restartAt := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	restart := func(ctx context.Context, c client.Client) ([]string, error) {
		return kubectl.RolloutRestart(ctx, c, webKey, restartAt)
	}
	history := func(ctx context.Context, c client.Client) ([]string, error) {
		h, err := kubectl.RolloutHistory(ctx, c, webKey)
		if err != nil {
			return nil, err
		}
		return h.Lines(), nil
	}
	runSteps(t, e, []step{
		{"history", history, result{lines: []string{
			"deployment.apps/web ",
			"REVISION  CHANGE-CAUSE",
			"1         first",
			"2         <none>",
			"",
		}}},
		{"undo to a missing revision", undo("web", 9), result{is: kubectl.ErrRevisionNotFound, line: "error: unable to find specified revision 9 in history"}},
		{"undo to a negative revision", undo("web", -1), result{is: kubectl.ErrRevisionNotFound, line: "error: unable to find specified revision -1 in history"}},
		{"undo to the current revision", undo("web", 2), result{lines: []string{"deployment.apps/web skipped rollback (current template already matches revision 2)"}}},
		{"undo without history", undo("solo", 0), result{is: kubectl.ErrNoHistory, line: `error: no rollout history found for deployment "solo"`}},
		{"undo of a missing deployment", undo("nope", 0), result{is: apierr.ErrNotFound, line: `Error from server (NotFound): deployments.apps "nope" not found`}},
		{"pause", pause, result{lines: []string{"deployment.apps/web paused"}}},
		{"pause again", pause, result{is: kubectl.ErrAlreadyPaused, line: `error: deployments.apps "web" is already paused`}},
		{"undo while paused", undo("web", 0), result{is: kubectl.ErrPausedRollback, line: "error: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again"}},
		{"restart while paused", restart, result{is: kubectl.ErrPausedRestart, line: `error: deployments.apps "web" can't restart paused deployment (run rollout resume first)`}},
		{"resume", resume, result{lines: []string{"deployment.apps/web resumed"}}},
		{"resume again", resume, result{is: kubectl.ErrNotPaused, line: `error: deployments.apps "web" is not paused`}},
		{"undo", undo("web", 0), result{lines: []string{"deployment.apps/web rolled back"}}},
		{"restart", restart, result{lines: []string{"deployment.apps/web restarted"}}},
	})
	d := e.deployment("web")
	if img := d.Spec.Template.Spec.Containers[0].Image; img != "nginx:1.14.2" {
		t.Errorf("template image %s after undo", img)
	}
	if _, ok := d.Spec.Template.Labels[deployment.DefaultDeploymentUniqueLabelKey]; ok {
		t.Errorf("pod-template-hash label copied into the deployment: %v", d.Spec.Template.Labels)
	}
	wantAnn := map[string]string{
		deployment.RevisionAnnotation:    "2",
		kubectl.LastAppliedAnnotation:    "{}",
		deployment.MaxReplicasAnnotation: "4",
		"team":                           "old",
		kubectl.ChangeCauseAnnotation:    "first",
	}
	if !maps.Equal(d.Annotations, wantAnn) {
		t.Errorf("annotations after undo\n got %v\nwant %v", d.Annotations, wantAnn)
	}
	if got := d.Spec.Template.Annotations[kubectl.RestartedAtAnnotation]; got != "2024-05-01T10:00:00Z" {
		t.Errorf("restartedAt %q", got)
	}
	if d.Spec.Paused {
		t.Error("still paused")
	}
}

func TestHistoryRevision(t *testing.T) {
	h := &kubectl.History{Name: "web"}
	equalLines(t, "empty history", h.Lines(), []string{"deployment.apps/web ", "No rollout history found."})
	h.Revisions = []kubectl.Revision{{Number: 3}, {Number: 12, ChangeCause: "kubectl set image deployment/web web=nginx:1.16.1"}}
	equalLines(t, "history", h.Lines(), []string{
		"deployment.apps/web ",
		"REVISION  CHANGE-CAUSE",
		"3         <none>",
		"12        kubectl set image deployment/web web=nginx:1.16.1",
		"",
	})
	if r, err := h.Revision(12); err != nil || r.Number != 12 {
		t.Errorf("revision 12: %+v %v", r, err)
	}
	if _, err := h.Revision(4); !errors.Is(err, kubectl.ErrRevisionNotFound) || err.Error() != "unable to find the specified revision" {
		t.Errorf("revision 4: %v", err)
	}
}

// TestRolloutWithController drives a real rollout: the Deployment
// controller creates ReplicaSets for apply and set image, and rollout undo
// brings the first template back as revision 3.
func TestRolloutWithController(t *testing.T) {
	e := newEnv(t, cluster.Config{Seed: 21})
	m := e.c.AddManager("kube-controller-manager", deployment.Actor, func(m *controller.Manager) error {
		return deployment.Setup(m, deployment.Options{})
	})
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	settle := func() { e.c.RunFor(30 * time.Second) }
	runSteps(t, e, []step{{"apply", func(ctx context.Context, c client.Client) ([]string, error) {
		return kubectl.Apply(ctx, c, decode(t, nginx("nginx:1.14.2", "", "", "")), kubectl.ApplyOptions{})
	}, result{lines: []string{"deployment.apps/nginx-deployment created"}}}})
	settle()
	key := api.Key{Namespace: "default", Name: "nginx-deployment"}
	runSteps(t, e, []step{{"set image", func(ctx context.Context, c client.Client) ([]string, error) {
		return kubectl.SetImage(ctx, c, key, "nginx", "nginx:1.16.1")
	}, result{lines: []string{"deployment.apps/nginx-deployment image updated"}}}})
	settle()
	history := func(ctx context.Context, c client.Client) ([]string, error) {
		h, err := kubectl.RolloutHistory(ctx, c, key)
		if err != nil {
			return nil, err
		}
		return h.Lines(), nil
	}
	runSteps(t, e, []step{
		{"history", history, result{lines: []string{"deployment.apps/nginx-deployment ", "REVISION  CHANGE-CAUSE", "1         <none>", "2         <none>", ""}}},
		{"undo", func(ctx context.Context, c client.Client) ([]string, error) {
			return kubectl.RolloutUndo(ctx, c, key, 0)
		}, result{lines: []string{"deployment.apps/nginx-deployment rolled back"}}},
	})
	settle()
	runSteps(t, e, []step{
		{"history after undo", history, result{lines: []string{"deployment.apps/nginx-deployment ", "REVISION  CHANGE-CAUSE", "2         <none>", "3         <none>", ""}}},
	})
	if img := e.deployment("nginx-deployment").Spec.Template.Spec.Containers[0].Image; img != "nginx:1.14.2" {
		t.Errorf("image after undo %s", img)
	}
}

// TestRolloutStatusOf covers kubectl's DaemonSetStatusViewer and
// StatefulSetStatusViewer (polymorphichelpers/rollout_status.go) branch
// by branch, and a kind without a viewer. Planted: the StatefulSet's
// partition check comparing the partition, not the updated pods,
// failed the partitioned-done row.
func TestRolloutStatusOf(t *testing.T) {
	ds := func(strategy api.DaemonSetUpdateStrategyType, gen, observed int64, desired, updated, available int32) *api.DaemonSet {
		return &api.DaemonSet{ObjectMeta: api.ObjectMeta{Name: "agent", Generation: gen},
			Spec:   api.DaemonSetSpec{UpdateStrategy: api.DaemonSetUpdateStrategy{Type: strategy}},
			Status: api.DaemonSetStatus{ObservedGeneration: observed, DesiredNumberScheduled: desired, UpdatedNumberScheduled: updated, NumberAvailable: available}}
	}
	sts := func(strategy string, partition *int32, gen, observed int64, replicas, ready, updated, current int32, cur, upd string) *api.StatefulSet {
		s := &api.StatefulSet{ObjectMeta: api.ObjectMeta{Name: "db", Generation: gen},
			Spec: api.StatefulSetSpec{Replicas: ptr(replicas), UpdateStrategy: api.StatefulSetUpdateStrategy{Type: strategy}},
			Status: api.StatefulSetStatus{ObservedGeneration: observed, ReadyReplicas: ready, UpdatedReplicas: updated, CurrentReplicas: current,
				CurrentRevision: cur, UpdateRevision: upd}}
		if partition != nil {
			s.Spec.UpdateStrategy.RollingUpdate = &api.RollingUpdateStatefulSetStrategy{Partition: partition}
		}
		return s
	}
	const rolling = api.RollingUpdateDaemonSetStrategyType
	for _, tc := range []struct {
		name string
		o    api.Object
		msg  string
		done bool
		line string
	}{
		{"daemon set not observed", ds(rolling, 2, 1, 3, 3, 3), "Waiting for daemon set spec update to be observed...", false, ""},
		{"daemon set updating", ds(rolling, 2, 2, 3, 1, 3), `Waiting for daemon set "agent" rollout to finish: 1 out of 3 new pods have been updated...`, false, ""},
		{"daemon set available", ds(rolling, 2, 2, 3, 3, 2), `Waiting for daemon set "agent" rollout to finish: 2 of 3 updated pods are available...`, false, ""},
		{"daemon set done", ds(rolling, 2, 2, 3, 3, 3), `daemon set "agent" successfully rolled out`, true, ""},
		{"daemon set on delete", ds(api.OnDeleteDaemonSetStrategyType, 2, 2, 3, 3, 3), "", true, "error: rollout status is only available for RollingUpdate strategy type"},
		{"statefulset not observed", sts("RollingUpdate", nil, 1, 0, 3, 0, 0, 0, "", ""), "Waiting for statefulset spec update to be observed...", false, ""},
		{"statefulset pods not ready", sts("RollingUpdate", nil, 2, 2, 3, 1, 0, 0, "", ""), "Waiting for 2 pods to be ready...", false, ""},
		{"statefulset partitioned", sts("RollingUpdate", ptr(int32(1)), 2, 2, 3, 3, 1, 2, "db-1", "db-2"), "Waiting for partitioned roll out to finish: 1 out of 2 new pods have been updated...", false, ""},
		{"statefulset partitioned done", sts("RollingUpdate", ptr(int32(0)), 2, 2, 3, 3, 3, 0, "db-1", "db-2"), "partitioned roll out complete: 3 new pods have been updated...", true, ""},
		{"statefulset updating", sts("RollingUpdate", nil, 2, 2, 3, 3, 1, 2, "db-1", "db-2"), "waiting for statefulset rolling update to complete 1 pods at revision db-2...", false, ""},
		{"statefulset done", sts("RollingUpdate", nil, 2, 2, 3, 3, 3, 3, "db-2", "db-2"), "statefulset rolling update complete 3 pods at revision db-2...", true, ""},
		{"statefulset on delete", sts("OnDelete", nil, 2, 2, 3, 3, 3, 3, "db-2", "db-2"), "", true, "error: rollout status is only available for RollingUpdate strategy type"},
		{"a pod", &api.Pod{}, "", false, "error: no status viewer has been implemented for *api.Pod"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg, done, err := kubectl.RolloutStatusOf(tc.o)
			if msg != tc.msg || done != tc.done {
				t.Errorf("got %q %v, want %q %v", msg, done, tc.msg, tc.done)
			}
			if got := kubectl.ErrorLine(err); got != tc.line {
				t.Errorf("error line %q, want %q", got, tc.line)
			}
		})
	}
}
