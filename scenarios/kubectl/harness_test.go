package kubectl_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/manifest"
)

// user is the identity kubectl runs as in these tests.
const user = "alice"

// env is a simulated cluster with a user at endpoint "user/alice".
type env struct {
	t *testing.T
	c *cluster.Cluster
}

func newEnv(t *testing.T, cfg cluster.Config, objs ...api.Object) *env {
	t.Helper()
	c, err := cluster.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Bootstrap(objs...); err != nil {
		t.Fatal(err)
	}
	return &env{t: t, c: c}
}

// run runs fn as the user in a kernel process and advances virtual time
// until it finished (at most a minute).
func (e *env) run(fn func(ctx context.Context, c client.Client)) {
	e.t.Helper()
	cl := e.c.Client("user/"+user, user)
	done := false
	e.c.Go("kubectl", func(*kernel.Process) {
		fn(context.Background(), cl)
		done = true
	})
	for range 60 {
		if done {
			return
		}
		e.c.RunFor(time.Second)
	}
	e.t.Fatal("kubectl did not finish within a minute")
}

// cmd runs one command and returns its lines and error.
func (e *env) cmd(fn func(ctx context.Context, c client.Client) ([]string, error)) (lines []string, err error) {
	e.t.Helper()
	e.run(func(ctx context.Context, c client.Client) { lines, err = fn(ctx, c) })
	return lines, err
}

// get reads an object from the store, failing the test when it is absent.
func (e *env) get(kind api.Kind, ns, name string) api.Object {
	e.t.Helper()
	o, err := e.c.Store.Get(kind, api.Key{Namespace: ns, Name: name})
	if err != nil {
		e.t.Fatalf("get %s %s/%s: %v", kind, ns, name, err)
	}
	return o
}

func (e *env) deployment(name string) *api.Deployment {
	e.t.Helper()
	return e.get(api.KindDeployment, "default", name).(*api.Deployment)
}

// writes counts the user's requests of a verb (all outcomes).
func (e *env) requests(verb apiserver.Verb) uint64 {
	var n uint64
	for _, s := range e.c.API.Stats() {
		if s.Actor == user && s.Verb == verb {
			n += s.Count
		}
	}
	return n
}

// decode reads manifests; a test's YAML is known to be valid.
func decode(t *testing.T, yaml string) []api.Object {
	t.Helper()
	objs, err := manifest.Decode("web.yaml", []byte(strings.TrimLeft(yaml, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	return objs
}

func equalLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s lines\n got %q\nwant %q", what, got, want)
	}
}

func ptr[T any](v T) *T { return &v }
