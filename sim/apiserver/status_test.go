package apiserver

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestStatusWriteKeepsSpec: a status write carrying a changed or an
// invalid spec is accepted and leaves the stored spec as it was, as
// upstream's status strategies copy the stored spec over the request in
// PrepareForUpdate before ValidateUpdate (k/k pkg/registry/batch/job,
// apps/statefulset, apps/daemonset, apps/deployment, core/service
// strategy.go). Before, the request's spec was validated against the
// stored one: the Job's changed completions and the StatefulSet's and
// DaemonSet's changed selector were refused as immutable.
func TestStatusWriteKeepsSpec(t *testing.T) {
	i32 := func(v int32) *int32 { return &v }
	labels := map[string]string{"app": "web"}
	tmpl := func(rp api.RestartPolicy) api.PodTemplateSpec {
		return api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
			Spec: api.PodSpec{RestartPolicy: rp, Containers: []api.Container{{Name: "c", Image: "nginx:1.27"}}}}
	}
	meta := api.ObjectMeta{Name: "web", Namespace: "default"}
	tests := []struct {
		kind   api.Kind
		obj    api.Object
		mutate func(o api.Object) // a changed and invalid spec, and a status
		check  func(t *testing.T, o api.Object)
	}{
		{api.KindJob, &api.Job{ObjectMeta: meta, Spec: api.JobSpec{Completions: i32(3), Template: tmpl(api.RestartPolicyNever)}},
			func(o api.Object) {
				j := o.(*api.Job)
				j.Spec.Completions, j.Spec.Parallelism = i32(5), i32(-1)
				j.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"other": "x"}}
				j.Status.Active = 2
			},
			func(t *testing.T, o api.Object) {
				j := o.(*api.Job)
				if *j.Spec.Completions != 3 || j.Spec.Parallelism == nil || *j.Spec.Parallelism != 1 || j.Status.Active != 2 {
					t.Errorf("stored completions %d parallelism %v, status.active %d", *j.Spec.Completions, j.Spec.Parallelism, j.Status.Active)
				}
			}},
		{api.KindStatefulSet, &api.StatefulSet{ObjectMeta: meta, Spec: api.StatefulSetSpec{Replicas: i32(2), ServiceName: "web",
			Selector: &api.LabelSelector{MatchLabels: labels}, Template: tmpl(api.RestartPolicyAlways)}},
			func(o api.Object) {
				s := o.(*api.StatefulSet)
				s.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"other": "x"}}
				s.Spec.Replicas = i32(-1)
				s.Status.Replicas = 2
			},
			func(t *testing.T, o api.Object) {
				s := o.(*api.StatefulSet)
				if *s.Spec.Replicas != 2 || s.Spec.Selector.MatchLabels["app"] != "web" || s.Status.Replicas != 2 {
					t.Errorf("stored replicas %d selector %v, status.replicas %d", *s.Spec.Replicas, s.Spec.Selector.MatchLabels, s.Status.Replicas)
				}
			}},
		{api.KindDaemonSet, &api.DaemonSet{ObjectMeta: meta, Spec: api.DaemonSetSpec{
			Selector: &api.LabelSelector{MatchLabels: labels}, Template: tmpl(api.RestartPolicyAlways)}},
			func(o api.Object) {
				d := o.(*api.DaemonSet)
				d.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"other": "x"}}
				d.Spec.MinReadySeconds = -1
				d.Status.DesiredNumberScheduled = 3
			},
			func(t *testing.T, o api.Object) {
				d := o.(*api.DaemonSet)
				if d.Spec.MinReadySeconds != 0 || d.Spec.Selector.MatchLabels["app"] != "web" || d.Status.DesiredNumberScheduled != 3 {
					t.Errorf("stored minReadySeconds %d selector %v, status.desired %d", d.Spec.MinReadySeconds, d.Spec.Selector.MatchLabels, d.Status.DesiredNumberScheduled)
				}
			}},
		{api.KindDeployment, deployment("web", 2),
			func(o api.Object) {
				d := o.(*api.Deployment)
				d.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"other": "x"}}
				d.Spec.Replicas = i32(-1)
				d.Status.Replicas = 2
			},
			func(t *testing.T, o api.Object) {
				d := o.(*api.Deployment)
				if *d.Spec.Replicas != 2 || d.Spec.Selector.MatchLabels["app"] != "web" || d.Status.Replicas != 2 {
					t.Errorf("stored replicas %d selector %v, status.replicas %d", *d.Spec.Replicas, d.Spec.Selector.MatchLabels, d.Status.Replicas)
				}
			}},
		{api.KindService, &api.Service{ObjectMeta: meta, Spec: api.ServiceSpec{ClusterIP: "10.96.0.10", Ports: []api.ServicePort{{Port: 80}}}},
			func(o api.Object) {
				s := o.(*api.Service)
				s.Spec.ClusterIP, s.Spec.ClusterIPs = "10.96.0.11", []string{"10.96.0.11"}
				s.Spec.Type = "Bogus"
			},
			func(t *testing.T, o api.Object) {
				s := o.(*api.Service)
				if s.Spec.ClusterIP != "10.96.0.10" || s.Spec.Type != api.ServiceTypeClusterIP {
					t.Errorf("stored clusterIP %q type %q", s.Spec.ClusterIP, s.Spec.Type)
				}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.kind.Name, func(t *testing.T) {
			f := newFixture(t)
			created := f.must(t, &Request{Verb: Create, Kind: tc.kind, Actor: user, Object: tc.obj})
			st := created.DeepCopyObject()
			tc.mutate(st)
			resp := f.do(&Request{Verb: Update, Kind: tc.kind, Subresource: "status", Actor: controller, Object: st})
			if resp.Err != nil {
				t.Fatalf("status write refused: %v", resp.Err)
			}
			got := f.must(t, &Request{Verb: Get, Kind: tc.kind, Namespace: "default", Name: "web", Actor: user})
			tc.check(t, got)
		})
	}
}
