package apiserver

import (
	"cmp"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/store"
)

const (
	user       = "alice"
	controller = "system:serviceaccount:kube-system:deployment-controller"
)

func ptr[T any](v T) *T { return &v }

// fixture is a server over a fresh store with the default namespace.
type fixture struct {
	k   *kernel.Kernel
	srv *Server
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	k := kernel.New(1)
	st := store.New(k)
	f := &fixture{k: k, srv: New(k, st)}
	f.must(t, &Request{Verb: Create, Kind: api.KindNamespace, Actor: controller, Object: &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "default"}}})
	return f
}

func (f *fixture) do(req *Request) *Response { return f.srv.Handle(req) }

func (f *fixture) must(t *testing.T, req *Request) api.Object {
	t.Helper()
	resp := f.do(req)
	if resp.Err != nil {
		t.Fatalf("%s %s %s: %v", req.Verb, req.Kind, req.Name, resp.Err)
	}
	return resp.Object
}

func deployment(name string, replicas int32) *api.Deployment {
	labels := map[string]string{"app": name}
	return &api.Deployment{
		TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
		Spec: api.DeploymentSpec{
			Replicas: ptr(replicas),
			Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx:1.14.2"}}},
			},
		},
	}
}

func TestStoreSemantics(t *testing.T) {
	tests := []struct {
		name string
		run  func(t *testing.T, f *fixture)
	}{
		{"stale resourceVersion conflicts", func(t *testing.T, f *fixture) {
			created := f.must(t, &Request{Verb: Create, Kind: api.KindDeployment, Actor: user, Object: deployment("web", 3)}).(*api.Deployment)
			first := created.DeepCopyObject().(*api.Deployment)
			first.Spec.Replicas = ptr(int32(4))
			f.must(t, &Request{Verb: Update, Kind: api.KindDeployment, Actor: user, Object: first})
			stale := created.DeepCopyObject().(*api.Deployment)
			stale.Spec.Replicas = ptr(int32(5))
			resp := f.do(&Request{Verb: Update, Kind: api.KindDeployment, Actor: user, Object: stale})
			if !errors.Is(resp.Err, apierr.ErrConflict) {
				t.Fatalf("err = %v, want conflict", resp.Err)
			}
			want := `Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again`
			if resp.Err.Error() != want {
				t.Errorf("message = %q\nwant      %q", resp.Err, want)
			}
			// An update without resourceVersion is unconditional.
			blind := created.DeepCopyObject().(*api.Deployment)
			blind.ResourceVersion = ""
			blind.Spec.Replicas = ptr(int32(6))
			got := f.must(t, &Request{Verb: Update, Kind: api.KindDeployment, Actor: user, Object: blind}).(*api.Deployment)
			if *got.Spec.Replicas != 6 {
				t.Errorf("unconditional update lost: replicas %d", *got.Spec.Replicas)
			}
		}},
		{"generation follows spec and deployment annotations only", func(t *testing.T, f *fixture) {
			d := f.must(t, &Request{Verb: Create, Kind: api.KindDeployment, Actor: user, Object: deployment("web", 3)}).(*api.Deployment)
			if d.Generation != 1 {
				t.Fatalf("generation after create = %d, want 1", d.Generation)
			}
			steps := []struct {
				what   string
				mutate func(d *api.Deployment)
				status bool
				want   int64
			}{
				{"spec change", func(d *api.Deployment) { d.Spec.Replicas = ptr(int32(4)) }, false, 2},
				{"label change", func(d *api.Deployment) { d.Labels = map[string]string{"tier": "web"} }, false, 2},
				{"annotation change", func(d *api.Deployment) { d.Annotations = map[string]string{"note": "x"} }, false, 3},
				{"status change", func(d *api.Deployment) { d.Status.Replicas = 4 }, true, 3},
				{"no change", func(d *api.Deployment) {}, false, 3},
			}
			for _, s := range steps {
				cur := f.must(t, &Request{Verb: Get, Kind: api.KindDeployment, Namespace: "default", Name: "web", Actor: user}).DeepCopyObject().(*api.Deployment)
				s.mutate(cur)
				req := &Request{Verb: Update, Kind: api.KindDeployment, Actor: controller, Object: cur}
				if s.status {
					req.Subresource = "status"
				}
				got := f.must(t, req).(*api.Deployment)
				if got.Generation != s.want {
					t.Errorf("%s: generation = %d, want %d", s.what, got.Generation, s.want)
				}
			}
		}},
		{"status subresource separation", func(t *testing.T, f *fixture) {
			d := f.must(t, &Request{Verb: Create, Kind: api.KindDeployment, Actor: user, Object: deployment("web", 3)}).(*api.Deployment)
			main := d.DeepCopyObject().(*api.Deployment)
			main.Status.Replicas = 99
			main.Spec.Replicas = ptr(int32(5))
			got := f.must(t, &Request{Verb: Update, Kind: api.KindDeployment, Actor: user, Object: main}).(*api.Deployment)
			if got.Status.Replicas != 0 || *got.Spec.Replicas != 5 {
				t.Errorf("main update: status.replicas=%d spec.replicas=%d, want 0 and 5", got.Status.Replicas, *got.Spec.Replicas)
			}
			st := got.DeepCopyObject().(*api.Deployment)
			st.Status.Replicas = 5
			st.Spec.Replicas = ptr(int32(1))
			st.Labels = map[string]string{"sneaky": "yes"}
			got = f.must(t, &Request{Verb: Update, Kind: api.KindDeployment, Subresource: "status", Actor: controller, Object: st}).(*api.Deployment)
			if got.Status.Replicas != 5 || *got.Spec.Replicas != 5 || got.Labels["sneaky"] != "" {
				t.Errorf("status update: status.replicas=%d spec.replicas=%d labels=%v", got.Status.Replicas, *got.Spec.Replicas, got.Labels)
			}
		}},
		{"server-side defaults", func(t *testing.T, f *fixture) {
			d := deployment("web", 3)
			d.Spec.Replicas = nil
			got := f.must(t, &Request{Verb: Create, Kind: api.KindDeployment, Actor: user, Object: d}).(*api.Deployment)
			checks := []struct {
				field string
				got   any
				want  any
			}{
				{"spec.replicas", *got.Spec.Replicas, int32(1)},
				{"spec.strategy.type", got.Spec.Strategy.Type, api.RollingUpdateDeploymentStrategyType},
				{"spec.strategy.rollingUpdate.maxSurge", got.Spec.Strategy.RollingUpdate.MaxSurge.String(), "25%"},
				{"spec.strategy.rollingUpdate.maxUnavailable", got.Spec.Strategy.RollingUpdate.MaxUnavailable.String(), "25%"},
				{"spec.revisionHistoryLimit", *got.Spec.RevisionHistoryLimit, int32(10)},
				{"spec.progressDeadlineSeconds", *got.Spec.ProgressDeadlineSeconds, int32(600)},
				{"template restartPolicy", got.Spec.Template.Spec.RestartPolicy, api.RestartPolicyAlways},
				{"template terminationGracePeriodSeconds", *got.Spec.Template.Spec.TerminationGracePeriodSeconds, int64(30)},
				{"template schedulerName", got.Spec.Template.Spec.SchedulerName, "default-scheduler"},
				{"container imagePullPolicy", got.Spec.Template.Spec.Containers[0].ImagePullPolicy, api.PullIfNotPresent},
			}
			for _, c := range checks {
				if c.got != c.want {
					t.Errorf("%s = %v, want %v", c.field, c.got, c.want)
				}
			}
		}},
		{"generateName", func(t *testing.T, f *fixture) {
			seen := map[string]bool{}
			for range 20 {
				p := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}, ObjectMeta: api.ObjectMeta{GenerateName: "web-7d4b9c-", Namespace: "default"},
					Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}}
				got := f.must(t, &Request{Verb: Create, Kind: api.KindPod, Actor: controller, Object: p}).(*api.Pod)
				suffix, ok := strings.CutPrefix(got.Name, "web-7d4b9c-")
				if !ok || len(suffix) != 5 || strings.Trim(suffix, "bcdfghjklmnpqrstvwxz2456789") != "" {
					t.Errorf("generated name %q", got.Name)
				}
				if seen[got.Name] {
					t.Errorf("name %q generated twice", got.Name)
				}
				seen[got.Name] = true
				if got.UID == "" || got.CreationTimestamp.IsZero() || got.ResourceVersion == "" {
					t.Errorf("server fields missing: uid=%q ts=%v rv=%q", got.UID, got.CreationTimestamp, got.ResourceVersion)
				}
				if got.Status.Phase != api.PodPending {
					t.Errorf("phase = %q, want Pending", got.Status.Phase)
				}
			}
			resp := f.do(&Request{Verb: Create, Kind: api.KindPod, Actor: controller, Object: &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default"}, Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "x"}}}}})
			if !errors.Is(resp.Err, apierr.ErrInvalid) || !strings.Contains(resp.Err.Error(), "name or generateName is required") {
				t.Errorf("no name: err = %v", resp.Err)
			}
		}},
		{"already exists and not found", func(t *testing.T, f *fixture) {
			f.must(t, &Request{Verb: Create, Kind: api.KindDeployment, Actor: user, Object: deployment("web", 1)})
			resp := f.do(&Request{Verb: Create, Kind: api.KindDeployment, Actor: user, Object: deployment("web", 1)})
			if !errors.Is(resp.Err, apierr.ErrAlreadyExists) || resp.Err.Error() != `deployments.apps "web" already exists` {
				t.Errorf("err = %v", resp.Err)
			}
			resp = f.do(&Request{Verb: Get, Kind: api.KindDeployment, Namespace: "default", Name: "nope", Actor: user})
			if !errors.Is(resp.Err, apierr.ErrNotFound) || resp.Err.Error() != `deployments.apps "nope" not found` {
				t.Errorf("err = %v", resp.Err)
			}
			d := deployment("elsewhere", 1)
			d.Namespace = "missing"
			resp = f.do(&Request{Verb: Create, Kind: api.KindDeployment, Actor: user, Object: d})
			if !errors.Is(resp.Err, apierr.ErrNotFound) || resp.Err.Error() != `namespaces "missing" not found` {
				t.Errorf("create in missing namespace: err = %v", resp.Err)
			}
		}},
		{"watch from a too old resourceVersion", func(t *testing.T, f *fixture) {
			f.srv.Store().SetHistory(4)
			first := f.must(t, &Request{Verb: Create, Kind: api.KindConfigMap, Actor: user, Object: &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "cm-0", Namespace: "default"}}})
			for i := 1; i < 10; i++ {
				f.must(t, &Request{Verb: Create, Kind: api.KindConfigMap, Actor: user, Object: &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "cm-" + string(rune('0'+i)), Namespace: "default"}}})
			}
			rv := f.srv.Store().Len(api.KindConfigMap)
			_ = rv
			from := mustRV(t, first)
			_, err := f.srv.StartWatch(&Request{Verb: Watch, Kind: api.KindConfigMap, Actor: user, ResourceVersion: from}, store.SinkFunc(func(store.Event) {}))
			if !errors.Is(err, apierr.ErrExpired) || !strings.HasPrefix(err.Error(), "too old resource version: ") {
				t.Fatalf("err = %v, want 410 too old resource version", err)
			}
			// A recent resourceVersion replays what came after it.
			var got []string
			recent := f.srv.Store().ResourceVersion() - 2
			w, err := f.srv.StartWatch(&Request{Verb: Watch, Kind: api.KindConfigMap, Actor: user, ResourceVersion: recent}, store.SinkFunc(func(e store.Event) {
				got = append(got, e.Type.String()+" "+e.Object.GetObjectMeta().Name)
			}))
			if err != nil {
				t.Fatal(err)
			}
			defer w.Stop()
			if strings.Join(got, ",") != "ADDED cm-8,ADDED cm-9" {
				t.Errorf("replayed %v", got)
			}
		}},
		{"finalizers hold a deleted object", func(t *testing.T, f *fixture) {
			cm := &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "held", Namespace: "default", Finalizers: []string{"example.com/hold"}}}
			f.must(t, &Request{Verb: Create, Kind: api.KindConfigMap, Actor: user, Object: cm})
			var events []string
			w, _ := f.srv.StartWatch(&Request{Verb: Watch, Kind: api.KindConfigMap, Actor: user, ResourceVersion: f.srv.Store().ResourceVersion()}, store.SinkFunc(func(e store.Event) {
				events = append(events, e.Type.String())
			}))
			defer w.Stop()
			got := f.must(t, &Request{Verb: Delete, Kind: api.KindConfigMap, Namespace: "default", Name: "held", Actor: user})
			if got.GetObjectMeta().DeletionTimestamp == nil {
				t.Fatalf("delete did not set deletionTimestamp")
			}
			if _, err := f.srv.Store().Get(api.KindConfigMap, api.Key{Namespace: "default", Name: "held"}); err != nil {
				t.Fatalf("object gone while a finalizer holds it: %v", err)
			}
			clear := got.DeepCopyObject()
			clear.GetObjectMeta().Finalizers = nil
			f.must(t, &Request{Verb: Update, Kind: api.KindConfigMap, Actor: controller, Object: clear})
			if _, err := f.srv.Store().Get(api.KindConfigMap, api.Key{Namespace: "default", Name: "held"}); !errors.Is(err, apierr.ErrNotFound) {
				t.Fatalf("object still there after its last finalizer went: %v", err)
			}
			if strings.Join(events, ",") != "MODIFIED,DELETED" {
				t.Errorf("watch saw %v, want MODIFIED,DELETED", events)
			}
		}},
		{"foreground deletion adds its finalizer", func(t *testing.T, f *fixture) {
			f.must(t, &Request{Verb: Create, Kind: api.KindDeployment, Actor: user, Object: deployment("web", 1)})
			got := f.must(t, &Request{Verb: Delete, Kind: api.KindDeployment, Namespace: "default", Name: "web", Actor: user,
				DeleteOptions: store.DeleteOptions{Propagation: store.PropagateForeground}})
			m := got.GetObjectMeta()
			if m.DeletionTimestamp == nil || len(m.Finalizers) != 1 || m.Finalizers[0] != "foregroundDeletion" {
				t.Errorf("foreground delete: deletionTimestamp=%v finalizers=%v", m.DeletionTimestamp, m.Finalizers)
			}
		}},
		{"ownerReferences are stored as given", func(t *testing.T, f *fixture) {
			d := f.must(t, &Request{Verb: Create, Kind: api.KindDeployment, Actor: user, Object: deployment("web", 1)})
			rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "web-abc", Namespace: "default", OwnerReferences: []api.OwnerReference{api.NewControllerRef(d)}},
				Spec: api.ReplicaSetSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
					Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}}, Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}}}}
			got := f.must(t, &Request{Verb: Create, Kind: api.KindReplicaSet, Actor: controller, Object: rs})
			ref := api.GetControllerOf(got.GetObjectMeta())
			if ref == nil || ref.UID != d.GetObjectMeta().UID || ref.Kind != "Deployment" || ref.Name != "web" {
				t.Errorf("controller ref = %+v", ref)
			}
		}},
		{"permission denial", func(t *testing.T, f *fixture) {
			d := f.must(t, &Request{Verb: Create, Kind: api.KindDeployment, Actor: user, Object: deployment("web", 1)}).DeepCopyObject().(*api.Deployment)
			d.Status.Replicas = 7
			resp := f.do(&Request{Verb: Update, Kind: api.KindDeployment, Subresource: "status", Actor: user, Object: d})
			want := `deployments.apps "web" is forbidden: User "alice" cannot update resource "deployments/status" in API group "apps" in the namespace "default"`
			if !errors.Is(resp.Err, apierr.ErrForbidden) || resp.Err.Error() != want {
				t.Errorf("err = %v\nwant  %s", resp.Err, want)
			}
			f.srv.SetRules([]Rule{{Actors: []string{"bob"}, Verbs: []string{"get"}, Resources: []string{"deployments"}}})
			resp = f.do(&Request{Verb: List, Kind: api.KindNode, Actor: "bob"})
			want = `nodes is forbidden: User "bob" cannot list resource "nodes" in API group "" at the cluster scope`
			if resp.Err == nil || resp.Err.Error() != want {
				t.Errorf("err = %v\nwant  %s", resp.Err, want)
			}
		}},
		{"no-op update keeps resourceVersion", func(t *testing.T, f *fixture) {
			d := f.must(t, &Request{Verb: Create, Kind: api.KindDeployment, Actor: user, Object: deployment("web", 1)})
			again := f.must(t, &Request{Verb: Update, Kind: api.KindDeployment, Actor: user, Object: d.DeepCopyObject()})
			if again.GetObjectMeta().ResourceVersion != d.GetObjectMeta().ResourceVersion {
				t.Errorf("no-op update moved resourceVersion %s -> %s", d.GetObjectMeta().ResourceVersion, again.GetObjectMeta().ResourceVersion)
			}
			recs := f.srv.Store().Audit().Records()
			if last := recs[len(recs)-1]; !last.NoOp || last.Verb != "update" {
				t.Errorf("last audit record = %v, want a no-op update", last)
			}
		}},
		{"graceful pod deletion", func(t *testing.T, f *fixture) {
			p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"}, Spec: api.PodSpec{NodeName: "node-1", Containers: []api.Container{{Name: "c", Image: "nginx"}}}}
			f.must(t, &Request{Verb: Create, Kind: api.KindPod, Actor: controller, Object: p})
			got := f.must(t, &Request{Verb: Delete, Kind: api.KindPod, Namespace: "default", Name: "p", Actor: user}).(*api.Pod)
			if got.DeletionTimestamp == nil || *got.DeletionGracePeriodSeconds != 30 {
				t.Fatalf("graceful delete: %v %v", got.DeletionTimestamp, got.DeletionGracePeriodSeconds)
			}
			if want := kernel.Epoch.Add(30 * time.Second); !got.DeletionTimestamp.Time.Equal(want) {
				t.Errorf("deletionTimestamp = %v, want %v", got.DeletionTimestamp.Time, want)
			}
			// A status write during the grace period keeps the pod.
			st := got.DeepCopyObject().(*api.Pod)
			st.Status.Phase = api.PodRunning
			f.must(t, &Request{Verb: Update, Kind: api.KindPod, Subresource: "status", Actor: "system:node:node-1", Object: st})
			if f.srv.Store().Len(api.KindPod) != 1 {
				t.Fatalf("a status write during the grace period removed the pod")
			}
			f.must(t, &Request{Verb: Delete, Kind: api.KindPod, Namespace: "default", Name: "p", Actor: "system:node:node-1", DeleteOptions: store.DeleteOptions{GracePeriodSeconds: ptr(int64(0))}})
			if f.srv.Store().Len(api.KindPod) != 0 {
				t.Errorf("pod still stored after grace 0 delete")
			}
		}},
		{"validation", func(t *testing.T, f *fixture) {
			d := deployment("web", -1)
			d.Spec.Template.Labels = map[string]string{"app": "other"}
			resp := f.do(&Request{Verb: Create, Kind: api.KindDeployment, Actor: user, Object: d})
			want := `Deployment.apps "web" is invalid: [spec.replicas: Invalid value: -1: must be greater than or equal to 0, spec.template.metadata.labels: Invalid value: {"app":"other"}: ` + "`selector` does not match template `labels`]"
			if !errors.Is(resp.Err, apierr.ErrInvalid) || resp.Err.Error() != want {
				t.Errorf("err = %v\nwant  %s", resp.Err, want)
			}
		}},
		{"patch", func(t *testing.T, f *fixture) {
			f.must(t, &Request{Verb: Create, Kind: api.KindDeployment, Actor: user, Object: deployment("web", 1)})
			got := f.must(t, &Request{Verb: Patch, Kind: api.KindDeployment, Namespace: "default", Name: "web", Actor: user, PatchType: StrategicMergePatch,
				Patch: []byte(`{"spec":{"replicas":4,"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:1.16.1"}]}}}}`)}).(*api.Deployment)
			if *got.Spec.Replicas != 4 || got.Spec.Template.Spec.Containers[0].Image != "nginx:1.16.1" || got.Generation != 2 {
				t.Errorf("patched: replicas=%d image=%s generation=%d", *got.Spec.Replicas, got.Spec.Template.Spec.Containers[0].Image, got.Generation)
			}
			if got.Spec.Template.Spec.Containers[0].ImagePullPolicy != api.PullIfNotPresent {
				t.Errorf("strategic merge dropped the container's other fields: %+v", got.Spec.Template.Spec.Containers[0])
			}
		}},
		{"strategic patch adds to metadata.finalizers", func(t *testing.T, f *fixture) {
			d := deployment("web", 1)
			d.Finalizers = []string{"example.com/a"}
			f.must(t, &Request{Verb: Create, Kind: api.KindDeployment, Actor: user, Object: d})
			// kubectl patch --type strategic: ObjectMeta.Finalizers is
			// patchStrategy merge, so the patch's finalizer joins the
			// one held (first: upstream's merge puts what the patch
			// lists before what only the server had); a merge patch
			// replaces the list.
			got := f.must(t, &Request{Verb: Patch, Kind: api.KindDeployment, Namespace: "default", Name: "web", Actor: user, PatchType: StrategicMergePatch,
				Patch: []byte(`{"metadata":{"finalizers":["example.com/b"]}}`)}).(*api.Deployment)
			if !slices.Equal(got.Finalizers, []string{"example.com/b", "example.com/a"}) {
				t.Errorf("strategic: finalizers %v, want [example.com/b example.com/a]", got.Finalizers)
			}
			got = f.must(t, &Request{Verb: Patch, Kind: api.KindDeployment, Namespace: "default", Name: "web", Actor: user, PatchType: MergePatch,
				Patch: []byte(`{"metadata":{"finalizers":["example.com/c"]}}`)}).(*api.Deployment)
			if !slices.Equal(got.Finalizers, []string{"example.com/c"}) {
				t.Errorf("merge: finalizers %v, want [example.com/c]", got.Finalizers)
			}
		}},
		{"unavailable server", func(t *testing.T, f *fixture) {
			f.srv.SetAvailable(false)
			resp := f.do(&Request{Verb: List, Kind: api.KindPod, Actor: user})
			if !errors.Is(resp.Err, apierr.ErrServiceUnavailable) {
				t.Errorf("err = %v", resp.Err)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, newFixture(t)) })
	}
}

func mustRV(t *testing.T, o api.Object) uint64 {
	t.Helper()
	var n uint64
	for _, c := range o.GetObjectMeta().ResourceVersion {
		n = n*10 + uint64(c-'0')
	}
	return n
}

func TestAuditRecordsChangedFields(t *testing.T) {
	f := newFixture(t)
	d := f.must(t, &Request{Verb: Create, Kind: api.KindDeployment, Actor: user, Object: deployment("web", 3)}).DeepCopyObject().(*api.Deployment)
	d.Spec.Replicas = ptr(int32(5))
	d.Spec.Template.Spec.Containers[0].Image = "nginx:1.16.1"
	f.must(t, &Request{Verb: Update, Kind: api.KindDeployment, Actor: "hpa", Object: d})
	recs := f.srv.Store().Audit().Records()
	last := recs[len(recs)-1]
	if last.Actor != "hpa" || last.Verb != "update" || last.Kind != api.KindDeployment || last.Key.Name != "web" {
		t.Fatalf("record = %v", last)
	}
	var got []string
	for c := range last.EachChange() {
		got = append(got, c.Path+"="+c.Old+"->"+c.New)
	}
	want := "spec.replicas=3->5,spec.template.spec.containers[nginx].image=nginx:1.14.2->nginx:1.16.1,metadata.generation=1->2"
	if strings.Join(got, ",") != want {
		t.Errorf("changes = %v\nwant      %s", got, want)
	}
}

// TestStats checks the request counts by actor, verb, kind and outcome:
// each combination counted apart (the same actor and verb on another
// kind or with another outcome is another row), in sorted order.
func TestStats(t *testing.T) {
	f := newFixture(t) // the controller creates the namespace "default"
	cm := func(name string) *api.ConfigMap {
		return &api.ConfigMap{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"}, ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"}}
	}
	f.must(t, &Request{Verb: Create, Kind: api.KindConfigMap, Actor: user, Object: cm("a")})
	f.must(t, &Request{Verb: Create, Kind: api.KindConfigMap, Actor: user, Object: cm("b")})
	f.do(&Request{Verb: Create, Kind: api.KindConfigMap, Actor: user, Object: cm("a")}) // AlreadyExists
	f.must(t, &Request{Verb: Get, Kind: api.KindConfigMap, Actor: user, Namespace: "default", Name: "a"})
	f.do(&Request{Verb: Get, Kind: api.KindConfigMap, Actor: user, Namespace: "default", Name: "zz"}) // NotFound
	f.must(t, &Request{Verb: Get, Kind: api.KindNamespace, Actor: user, Name: "default"})
	f.must(t, &Request{Verb: Get, Kind: api.KindConfigMap, Actor: controller, Namespace: "default", Name: "b"})
	got := f.srv.Stats()
	want := []Stat{
		{Actor: user, Verb: Get, Kind: api.KindConfigMap, Outcome: OK, Count: 1},
		{Actor: user, Verb: Get, Kind: api.KindConfigMap, Outcome: NotFound, Count: 1},
		{Actor: user, Verb: Get, Kind: api.KindNamespace, Outcome: OK, Count: 1},
		{Actor: user, Verb: Create, Kind: api.KindConfigMap, Outcome: OK, Count: 2},
		{Actor: user, Verb: Create, Kind: api.KindConfigMap, Outcome: Exists, Count: 1},
		{Actor: controller, Verb: Get, Kind: api.KindConfigMap, Outcome: OK, Count: 1},
		{Actor: controller, Verb: Create, Kind: api.KindNamespace, Outcome: OK, Count: 1},
	}
	slices.SortFunc(want, func(a, b Stat) int {
		return cmp.Or(cmp.Compare(a.Actor, b.Actor), cmp.Compare(a.Verb, b.Verb), a.Kind.Compare(b.Kind), cmp.Compare(a.Outcome, b.Outcome))
	})
	if !slices.Equal(got, want) {
		t.Fatalf("Stats() =\n%+v\nwant\n%+v", got, want)
	}
}
