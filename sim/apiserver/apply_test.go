package apiserver

import (
	"errors"
	"slices"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/store"
)

// ssaStep is one request of an apply scenario: an apply (Manager set, Op
// empty), an update ("update"), or a status update ("status").
type ssaStep struct {
	op       string // "apply" (default), "update", "status"
	manager  string
	force    bool
	replicas *int32
	image    string
	labels   map[string]string
	// sidecar adds a second container.
	sidecar bool
	// wantErr is the exact error message; "" means success.
	wantErr string
}

// config builds the apply configuration (or updated object) of a step:
// only the fields the step sets.
func (s ssaStep) config(name string) *api.Deployment {
	d := &api.Deployment{
		TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: s.labels},
		Spec: api.DeploymentSpec{
			Replicas: s.replicas,
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": name}},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": name}},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: s.image}}},
			},
		},
	}
	if s.sidecar {
		d.Spec.Template.Spec.Containers = append(d.Spec.Template.Spec.Containers, api.Container{Name: "side", Image: "busybox:1.36"})
	}
	return d
}

func (f *fixture) step(t *testing.T, s ssaStep) error {
	t.Helper()
	switch s.op {
	case "", "apply":
		resp := f.do(&Request{Verb: Apply, Kind: api.KindDeployment, Actor: user, Object: s.config("web"), FieldManager: s.manager, Force: s.force})
		return resp.Err
	case "update", "status":
		live, err := f.srv.Store().Get(api.KindDeployment, api.Key{Namespace: "default", Name: "web"})
		if err != nil {
			t.Fatal(err)
		}
		d := live.DeepCopyObject().(*api.Deployment)
		if s.replicas != nil {
			d.Spec.Replicas = s.replicas
		}
		if s.image != "" {
			d.Spec.Template.Spec.Containers[0].Image = s.image
		}
		sub := ""
		if s.op == "status" {
			sub = "status"
			d.Status.Replicas = *s.replicas
		}
		resp := f.do(&Request{Verb: Update, Kind: api.KindDeployment, Actor: controller, Subresource: sub, Object: d, FieldManager: s.manager})
		return resp.Err
	}
	t.Fatalf("unknown op %q", s.op)
	return nil
}

// owners returns "manager/operation[/subresource]" of every entry that
// owns path p, in entry order.
func owners(st *store.Store, obj api.Object, p store.Path) []string {
	var out []string
	for _, m := range st.ManagedFields(obj) {
		if m.Owns(p) {
			id := m.Manager + "/" + m.Operation
			if m.Subresource != "" {
				id += "/" + m.Subresource
			}
			out = append(out, id)
		}
	}
	return out
}

var (
	replicasPath = store.Path{"f:spec", "f:replicas"}
	imagePath    = store.Path{"f:spec", "f:template", "f:spec", "f:containers", `k:{"name":"nginx"}`, "f:image"}
	sidePath     = store.Path{"f:spec", "f:template", "f:spec", "f:containers", `k:{"name":"side"}`}
)

func TestServerSideApply(t *testing.T) {
	three, five, zero := ptr(int32(3)), ptr(int32(5)), ptr(int32(0))
	const img, img2 = "nginx:1.14.2", "nginx:1.16.1"
	tests := []struct {
		name  string
		steps []ssaStep
		// After the last step:
		replicas     int32
		image        string
		hasSidecar   bool
		labels       map[string]string
		replicaOwner []string
		imageOwner   []string
	}{{
		name:         "create on apply owns only what it applied",
		steps:        []ssaStep{{manager: "kubectl", replicas: three, image: img}},
		replicas:     3,
		image:        img,
		replicaOwner: []string{"kubectl/Apply"},
		imageOwner:   []string{"kubectl/Apply"},
	}, {
		name: "conflict with an update manager names its apiVersion",
		steps: []ssaStep{
			{manager: "kubectl", replicas: five, image: img,
				wantErr: `Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas`},
		},
		replicas:     3,
		image:        img,
		replicaOwner: []string{"kubectl-client-side-apply/Update"},
		imageOwner:   []string{"kubectl-client-side-apply/Update"},
	}, {
		name: "same values are shared, not conflicts",
		steps: []ssaStep{
			{manager: "kubectl", replicas: three, image: img},
		},
		replicas:     3,
		image:        img,
		replicaOwner: []string{"kubectl/Apply", "kubectl-client-side-apply/Update"},
		imageOwner:   []string{"kubectl/Apply", "kubectl-client-side-apply/Update"},
	}, {
		name: "several conflicts are listed by manager",
		steps: []ssaStep{
			{manager: "kubectl", replicas: five, image: img2,
				wantErr: "Apply failed with 2 conflicts: conflicts with \"kubectl-client-side-apply\" using apps/v1:\n- .spec.replicas\n- .spec.template.spec.containers[name=\"nginx\"].image"},
		},
		replicas:     3,
		image:        img,
		replicaOwner: []string{"kubectl-client-side-apply/Update"},
		imageOwner:   []string{"kubectl-client-side-apply/Update"},
	}, {
		name: "forced apply takes ownership",
		steps: []ssaStep{
			{manager: "kubectl", replicas: five, image: img, force: true},
		},
		replicas:     5,
		image:        img,
		replicaOwner: []string{"kubectl/Apply"},
		imageOwner:   []string{"kubectl/Apply", "kubectl-client-side-apply/Update"},
	}, {
		name: "apply, update by another manager, re-apply conflicts",
		steps: []ssaStep{
			{manager: "argocd-controller", replicas: three, image: img, force: true},
			{op: "update", manager: "hpa", replicas: five},
			{manager: "argocd-controller", replicas: three, image: img,
				wantErr: `Apply failed with 1 conflict: conflict with "hpa" using apps/v1: .spec.replicas`},
		},
		replicas:     5,
		image:        img,
		replicaOwner: []string{"hpa/Update"},
		imageOwner:   []string{"argocd-controller/Apply", "kubectl-client-side-apply/Update"},
	}, {
		name: "re-apply without the contested field leaves it to its owner",
		steps: []ssaStep{
			{manager: "argocd-controller", replicas: three, image: img, force: true},
			{op: "update", manager: "hpa", replicas: five},
			{manager: "argocd-controller", image: img},
		},
		replicas:     5,
		image:        img,
		replicaOwner: []string{"hpa/Update"},
		imageOwner:   []string{"argocd-controller/Apply", "kubectl-client-side-apply/Update"},
	}, {
		name: "a field no longer applied and owned by nobody else is removed",
		steps: []ssaStep{
			{manager: "kubectl", image: img, sidecar: true, labels: map[string]string{"a": "1", "b": "2"}},
			{manager: "kubectl", image: img, labels: map[string]string{"a": "1"}},
		},
		replicas:     3,
		image:        img,
		labels:       map[string]string{"a": "1"},
		replicaOwner: []string{"kubectl-client-side-apply/Update"},
		imageOwner:   []string{"kubectl/Apply", "kubectl-client-side-apply/Update"},
	}, {
		name: "an element another manager still owns stays",
		steps: []ssaStep{
			{manager: "kubectl", image: img, sidecar: true},
			{manager: "ci", image: img, sidecar: true},
			{manager: "kubectl", image: img},
		},
		replicas:     3,
		image:        img,
		hasSidecar:   true,
		replicaOwner: []string{"kubectl-client-side-apply/Update"},
		imageOwner:   []string{"ci/Apply", "kubectl/Apply", "kubectl-client-side-apply/Update"},
	}, {
		name: "zero is a value an applier sets",
		steps: []ssaStep{
			{manager: "kubectl", replicas: zero, image: img, force: true},
		},
		replicas:     0,
		image:        img,
		replicaOwner: []string{"kubectl/Apply"},
		imageOwner:   []string{"kubectl/Apply", "kubectl-client-side-apply/Update"},
	}, {
		name: "a status manager conflicts with subresource",
		steps: []ssaStep{
			{op: "status", manager: "deployment-controller", replicas: three},
		},
		replicas:     3,
		image:        img,
		replicaOwner: []string{"kubectl-client-side-apply/Update"},
		imageOwner:   []string{"kubectl-client-side-apply/Update"},
	}, {
		name:     "an apply needs a field manager",
		steps:    []ssaStep{{image: img, wantErr: `PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch`}},
		replicas: 3, image: img,
		replicaOwner: []string{"kubectl-client-side-apply/Update"},
		imageOwner:   []string{"kubectl-client-side-apply/Update"},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			if tc.name != "create on apply owns only what it applied" {
				// The object exists, created by client-side apply's manager.
				f.must(t, &Request{Verb: Create, Kind: api.KindDeployment, Actor: user, Object: deployment("web", 3), FieldManager: "kubectl-client-side-apply"})
			}
			for i, s := range tc.steps {
				err := f.step(t, s)
				switch {
				case s.wantErr == "" && err != nil:
					t.Fatalf("step %d: %v", i, err)
				case s.wantErr != "" && err == nil:
					t.Fatalf("step %d: succeeded, want %q", i, s.wantErr)
				case s.wantErr != "":
					if err.Error() != s.wantErr {
						t.Fatalf("step %d: error\n got %q\nwant %q", i, err.Error(), s.wantErr)
					}
				}
			}
			o, err := f.srv.Store().Get(api.KindDeployment, api.Key{Namespace: "default", Name: "web"})
			if err != nil {
				t.Fatal(err)
			}
			d := o.(*api.Deployment)
			if got := *d.Spec.Replicas; got != tc.replicas {
				t.Errorf("replicas %d, want %d", got, tc.replicas)
			}
			if got := d.Spec.Template.Spec.Containers[0].Image; got != tc.image {
				t.Errorf("image %q, want %q", got, tc.image)
			}
			if got := len(d.Spec.Template.Spec.Containers) == 2; got != tc.hasSidecar {
				t.Errorf("sidecar present %v, want %v", got, tc.hasSidecar)
			}
			if tc.labels != nil && !equalMaps(d.Labels, tc.labels) {
				t.Errorf("labels %v, want %v", d.Labels, tc.labels)
			}
			st := f.srv.Store()
			if got := owners(st, d, replicasPath); !slices.Equal(got, tc.replicaOwner) {
				t.Errorf("owners of .spec.replicas %v, want %v", got, tc.replicaOwner)
			}
			if got := owners(st, d, imagePath); !slices.Equal(sorted(got), sorted(tc.imageOwner)) {
				t.Errorf("owners of the image %v, want %v", got, tc.imageOwner)
			}
			if tc.hasSidecar != (len(owners(st, d, sidePath)) > 0) {
				t.Errorf("sidecar element owners %v", owners(st, d, sidePath))
			}
		})
	}
}

func sorted(s []string) []string { s = slices.Clone(s); slices.Sort(s); return s }

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestApplyConflictMessage checks apimachinery's formats, including a
// status manager and several managers.
func TestApplyConflictMessage(t *testing.T) {
	rp := store.Path{"f:spec", "f:replicas"}
	ip := store.Path{"f:spec", "f:template", "f:spec", "f:containers", `k:{"name":"nginx"}`, "f:image"}
	lp := store.Path{"f:metadata", "f:labels", "f:app"}
	tests := []struct {
		name      string
		conflicts []store.Conflict
		want      string
	}{
		{"apply manager", []store.Conflict{{Manager: "manager-a", Operation: "Apply", Path: lp}},
			`Apply failed with 1 conflict: conflict with "manager-a": .metadata.labels.app`},
		{"update manager", []store.Conflict{{Manager: "kubectl-set", Operation: "Update", APIVersion: "v1", Path: ip}},
			`Apply failed with 1 conflict: conflict with "kubectl-set" using v1: .spec.template.spec.containers[name="nginx"].image`},
		{"subresource", []store.Conflict{{Manager: "kubectl", Operation: "Update", APIVersion: "apps/v1", Subresource: "scale", Path: rp}},
			`Apply failed with 1 conflict: conflict with "kubectl" with subresource "scale" using apps/v1: .spec.replicas`},
		{"several managers", []store.Conflict{
			{Manager: "a", Operation: "Apply", Path: lp},
			{Manager: "hpa", Operation: "Update", APIVersion: "apps/v1", Path: rp},
			{Manager: "hpa", Operation: "Update", APIVersion: "apps/v1", Path: ip},
		}, "Apply failed with 3 conflicts: conflicts with \"a\":\n- .metadata.labels.app\nconflicts with \"hpa\" using apps/v1:\n- .spec.replicas\n- .spec.template.spec.containers[name=\"nginx\"].image"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := NewApplyConflict(tc.conflicts)
			if err.Error() != tc.want {
				t.Errorf("got\n%s\nwant\n%s", err.Error(), tc.want)
			}
			if !errors.Is(err, apierr.ErrConflict) || err.Code != 409 || len(err.Causes) != len(tc.conflicts) {
				t.Errorf("status %d %s with %d causes", err.Code, err.Reason, len(err.Causes))
			}
		})
	}
}

// TestApplyNoOp: re-applying the same configuration writes nothing.
func TestApplyNoOp(t *testing.T) {
	f := newFixture(t)
	s := ssaStep{manager: "kubectl", replicas: ptr(int32(2)), image: "nginx:1.14.2"}
	if err := f.step(t, s); err != nil {
		t.Fatal(err)
	}
	before, _ := f.srv.Store().Get(api.KindDeployment, api.Key{Namespace: "default", Name: "web"})
	if err := f.step(t, s); err != nil {
		t.Fatal(err)
	}
	after, _ := f.srv.Store().Get(api.KindDeployment, api.Key{Namespace: "default", Name: "web"})
	if before != after {
		t.Errorf("a repeated apply wrote: rv %s -> %s", before.GetObjectMeta().ResourceVersion, after.GetObjectMeta().ResourceVersion)
	}
	recs := f.srv.Store().Audit().Records()
	if last := recs[len(recs)-1]; !last.NoOp || last.Verb != "apply" {
		t.Errorf("last audit record %v, want a no-op apply", last)
	}
}

// TestApplyAuthorization: apply is a patch to RBAC, and creating needs
// create.
func TestApplyAuthorization(t *testing.T) {
	f := newFixture(t)
	f.srv.SetRules([]Rule{{Actors: []string{"*"}, Verbs: []string{"patch", "get"}, Resources: []string{"*"}}})
	resp := f.do(&Request{Verb: Apply, Kind: api.KindDeployment, Actor: user, Object: ssaStep{image: "x"}.config("web"), FieldManager: "kubectl"})
	if !errors.Is(resp.Err, apierr.ErrForbidden) {
		t.Fatalf("create on apply without create permission: %v", resp.Err)
	}
	want := `deployments.apps "web" is forbidden: User "alice" cannot create resource "deployments" in API group "apps" in the namespace "default"`
	if resp.Err.Error() != want {
		t.Errorf("got %q\nwant %q", resp.Err.Error(), want)
	}
}
