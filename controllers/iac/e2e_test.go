package iac_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/clustersim/clustersim/controllers/iac"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/manifest"
	"github.com/clustersim/clustersim/sim/netsim"
)

var depKey = api.Key{Namespace: "default", Name: "nginx-deployment"}

const git, edited = "nginx:1.14.2", "nginx:1.99"

func nginx(t testing.TB, replicas int32) *api.Deployment {
	t.Helper()
	objs, err := manifest.DecodeFile("../../testdata/kubernetes-docs/nginx-deployment.yaml")
	if err != nil {
		t.Fatal(err)
	}
	d := objs[0].(*api.Deployment)
	if replicas != 0 {
		d.Spec.Replicas = &replicas
	}
	return d
}

func settings() *api.ConfigMap {
	return &api.ConfigMap{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"}, ObjectMeta: api.ObjectMeta{Name: "settings"}, Data: map[string]string{"k": "v"}}
}

type env struct {
	t    *testing.T
	c    *cluster.Cluster
	tool *iac.Tool
}

// newEnv runs tool every 10 minutes from the start.
func newEnv(t *testing.T, refresh bool, decl ...api.Object) *env {
	t.Helper()
	c, err := cluster.New(cluster.Config{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	tool := iac.New(decl, iac.Options{Refresh: refresh, Schedule: iac.Schedule{Every: 10 * time.Minute}})
	m := c.AddManager("terraform", iac.Actor, tool.Setup)
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	return &env{t: t, c: c, tool: tool}
}

func (e *env) until(d time.Duration) { e.c.RunFor(d - time.Duration(e.c.K.Now())) }

// as runs fn as the user at d.
func (e *env) as(d time.Duration, fn func(ctx context.Context, c client.Client)) {
	cl := e.c.Client(netsim.Addr("user/alice"), "alice")
	e.c.At(d, func() { e.c.Go("alice", func(*kernel.Process) { fn(context.Background(), cl) }) })
}

func (e *env) editImage(d time.Duration) {
	e.as(d, func(ctx context.Context, c client.Client) {
		dep, err := client.GetAs[*api.Deployment](ctx, c, depKey)
		if err != nil {
			e.t.Errorf("get: %v", err)
			return
		}
		dep.Spec.Template.Spec.Containers[0].Image = edited
		if _, err := c.Update(ctx, dep); err != nil {
			e.t.Errorf("update: %v", err)
		}
	})
}

func (e *env) deployment() *api.Deployment {
	o, err := e.c.Store.Get(api.KindDeployment, depKey)
	if err != nil {
		return nil
	}
	return o.(*api.Deployment)
}

func (e *env) image() string {
	if d := e.deployment(); d != nil {
		return d.Spec.Template.Spec.Containers[0].Image
	}
	return ""
}

func plans(rs []iac.RunRecord) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Plan.String())
	}
	return out
}

// TestDriftAndRefresh: a manual image edit persists until the next
// scheduled run; a refreshing run reverts it, a refresh-less run does not
// see it, and even a later declaration change patches only the field that
// changed.
func TestDriftAndRefresh(t *testing.T) {
	t.Run("refresh", func(t *testing.T) {
		e := newEnv(t, true, nginx(t, 0))
		e.editImage(2 * time.Minute)
		e.until(9*time.Minute + 59*time.Second)
		if got := e.image(); got != edited {
			t.Fatalf("image %q between runs, want the edit %q", got, edited)
		}
		e.until(10*time.Minute + time.Second)
		if got := e.image(); got != git {
			t.Fatalf("image %q after the run at 10m, want %q", got, git)
		}
		runs := e.tool.Runs()
		if want := []string{"Plan: 1 to add, 0 to change, 0 to destroy.", "Plan: 0 to add, 1 to change, 0 to destroy."}; !slices.Equal(plans(runs), want) {
			t.Fatalf("plans %q, want %q", plans(runs), want)
		}
		if ch := runs[1].Plan.Changes[0]; ch.Action != iac.Update || ch.Address != "deployment.default.nginx-deployment" ||
			!slices.Equal(ch.Fields, []string{"/spec/template/spec/containers"}) || runs[1].Summary() != "Apply complete! Resources: 0 added, 1 changed, 0 destroyed." {
			t.Errorf("second run %+v", runs[1])
		}
		if !runs[1].At.Equal(kernel.Time(10 * time.Minute).Wall()) {
			t.Errorf("second run at %v", runs[1].At)
		}
	})
	t.Run("no refresh", func(t *testing.T) {
		e := newEnv(t, false, nginx(t, 0))
		e.editImage(2 * time.Minute)
		e.c.At(12*time.Minute, func() { e.tool.Declare([]api.Object{nginx(t, 4)}) })
		e.until(25 * time.Minute)
		if got := e.image(); got != edited {
			t.Fatalf("image %q at 25m, want the edit %q to persist", got, edited)
		}
		if got := *e.deployment().Spec.Replicas; got != 4 {
			t.Errorf("replicas %d, want the declared 4", got)
		}
		want := []string{"Plan: 1 to add, 0 to change, 0 to destroy.", "No changes. Your infrastructure matches the configuration.",
			"Plan: 0 to add, 1 to change, 0 to destroy."}
		runs := e.tool.Runs()
		if !slices.Equal(plans(runs), want) {
			t.Fatalf("plans %q, want %q", plans(runs), want)
		}
		if f := runs[2].Plan.Changes[0].Fields; !slices.Equal(f, []string{"/spec/replicas"}) {
			t.Errorf("the declaration change patched %v", f)
		}
		st := e.tool.State()
		if len(st.Resources) != 1 || st.Serial != 2 || st.Resources[0].ResourceVersion != e.deployment().ResourceVersion {
			t.Errorf("state %+v", st)
		}
	})
}

// TestDeletedBySomeoneElse: refresh notices and recreates; a refresh-less
// plan does not.
func TestDeletedBySomeoneElse(t *testing.T) {
	for _, refresh := range []bool{true, false} {
		e := newEnv(t, refresh, nginx(t, 0), settings())
		e.as(time.Minute, func(ctx context.Context, c client.Client) {
			if err := c.Delete(ctx, api.KindConfigMap, api.Key{Namespace: "default", Name: "settings"}); err != nil {
				t.Error(err)
			}
		})
		e.until(10*time.Minute + time.Second)
		_, err := e.c.Store.Get(api.KindConfigMap, api.Key{Namespace: "default", Name: "settings"})
		if refresh != (err == nil) {
			t.Errorf("refresh=%v: configmap after the second run: %v", refresh, err)
		}
	}
}

// TestDestroy: an object dropped from the declaration is deleted.
func TestDestroy(t *testing.T) {
	e := newEnv(t, false, nginx(t, 0), settings())
	e.c.At(5*time.Minute, func() { e.tool.Declare([]api.Object{nginx(t, 0)}) })
	e.until(10*time.Minute + time.Second)
	if _, err := e.c.Store.Get(api.KindConfigMap, api.Key{Namespace: "default", Name: "settings"}); !errors.Is(err, apierr.ErrNotFound) {
		t.Errorf("configmap: %v", err)
	}
	runs := e.tool.Runs()
	if got := runs[1].Plan.String(); got != "Plan: 0 to add, 0 to change, 1 to destroy." || runs[1].Destroyed != 1 {
		t.Errorf("second run %+v", runs[1])
	}
	// Owners: the tool wrote as its field manager.
	mf := e.c.Store.ManagedFields(e.deployment())
	if len(mf) != 1 || mf[0].Manager != iac.DefaultFieldManager {
		t.Errorf("managedFields %+v", mf)
	}
}

// lostReply is a client whose creates happen but whose replies are lost.
type lostReply struct{ client.Client }

func (l lostReply) Create(ctx context.Context, obj api.Object) (api.Object, error) {
	if _, err := l.Client.Create(ctx, obj); err != nil {
		return nil, err
	}
	return nil, apierr.NewTimeout("create", "configmaps", obj.GetObjectMeta().Name, time.Second)
}

// TestLostCreate: a create whose reply is lost is not in the state; the
// next run's create fails with AlreadyExists, as Terraform's would.
func TestLostCreate(t *testing.T) {
	c, err := cluster.New(cluster.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	tool := iac.New([]api.Object{settings()}, iac.Options{})
	cl := lostReply{c.Client("ci", iac.Actor)}
	var first, second iac.RunRecord
	c.Go("ci", func(*kernel.Process) {
		first, _ = tool.Run(context.Background(), cl)
		second, _ = tool.Run(context.Background(), cl)
	})
	c.RunFor(time.Minute)
	if len(first.Errors) != 1 || !errorsContain(second.Errors, `configmaps "settings" already exists`) || len(tool.State().Resources) != 0 {
		t.Errorf("first %+v\nsecond %+v", first, second)
	}
}

func errorsContain(errs []string, s string) bool {
	return slices.ContainsFunc(errs, func(e string) bool { return len(e) >= len(s) && e[len(e)-len(s):] == s })
}

func TestBadDeclaration(t *testing.T) {
	tests := []struct {
		name string
		decl []api.Object
	}{
		{"no name", []api.Object{&api.ConfigMap{}}},
		{"twice", []api.Object{settings(), settings()}},
	}
	for _, tc := range tests {
		tool := iac.New(tc.decl, iac.Options{})
		rec, err := tool.Run(context.Background(), nil)
		if !errors.Is(err, iac.ErrBadDeclaration) || len(rec.Errors) != 1 || len(tool.Runs()) != 1 {
			t.Errorf("%s: %v %+v", tc.name, err, rec)
		}
	}
}

// TestRefreshWithoutDrift: refreshing runs over a cluster nobody else
// touched plan no change and write nothing, whatever the server filled in
// (defaults, status) and however the declaration spells its fields.
func TestRefreshWithoutDrift(t *testing.T) {
	e := newEnv(t, true, nginx(t, 0), settings())
	e.until(30*time.Minute + time.Second)
	runs := e.tool.Runs()
	if len(runs) != 4 {
		t.Fatalf("%d runs by 30m, want 4", len(runs))
	}
	for _, r := range runs[1:] {
		if got := r.Plan.String(); got != "No changes. Your infrastructure matches the configuration." || r.Changed != 0 {
			t.Errorf("run %d without drift: %q, %d changed: %+v", r.ID, got, r.Changed, r.Plan.Changes)
		}
	}
}
