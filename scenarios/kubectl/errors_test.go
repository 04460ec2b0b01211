package kubectl_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/clustersim/clustersim/scenarios/kubectl"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/cluster"
)

// TestErrorLine checks the line kubectl's CheckErr prints for each kind
// of failure.
func TestErrorLine(t *testing.T) {
	notFound := apierr.NewNotFound("deployments.apps", "web")
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"nil", nil, ""},
		{"api status", notFound, `Error from server (NotFound): deployments.apps "web" not found`},
		{"conflict", apierr.NewConflict("deployments.apps", "web", apierr.OptimisticLockErrorMsg),
			`Error from server (Conflict): Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again`},
		{"timeout", apierr.NewTimeout("get", "deployments.apps", "web", fmtDuration("10s")),
			`Unable to connect to the server: get deployments.apps "web": request timed out after 10s`},
		{"reasonless status", &apierr.StatusError{Code: 500, Message: "boom"}, "Error from server: boom"},
		{"kubectl's own", &kubectl.Error{Reason: kubectl.ContainerNotFound, Message: `unable to find container named "foo"`},
			`error: unable to find container named "foo"`},
		{"wrapped status prints the wrapper", fmt.Errorf("failed to patch: %w", notFound),
			`error: failed to patch: deployments.apps "web" not found`},
		{"already prefixed", errors.New("error: once"), "error: once"},
		{"invalid, one cause", apierr.NewInvalid("Deployment.apps", "web", apierr.FieldError{Field: "spec.replicas", Type: "Invalid value", Value: int64(-1), Detail: "must be greater than or equal to 0"}),
			`The Deployment "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0`},
		{"invalid, two causes", apierr.NewInvalid("Pod", "p", apierr.FieldError{Field: "spec.containers", Type: "Required value"},
			apierr.FieldError{Field: "metadata.name", Type: "Invalid value", Value: "P", Detail: "bad"}, apierr.FieldError{Field: "spec.containers", Type: "Required value"}),
			"The Pod \"p\" is invalid: \n* spec.containers: Required value\n* metadata.name: Invalid value: \"P\": bad"},
		{"invalid from a file", kubectl.WithSource("creating", "web.yaml", apierr.NewInvalid("Widget.example.com", "gear", apierr.FieldError{Field: "spec.replicas", Type: "Invalid value", Value: int64(11), Detail: "too many"})),
			`The Widget "gear" is invalid: spec.replicas: Invalid value: 11: too many`},
		{"invalid request", apierr.NewInvalid("", "", apierr.FieldError{Field: "patch", Type: "Invalid value", Value: "map[spec:map[replicas:three]]", Detail: "no"}),
			`The request is invalid: patch: Invalid value: "map[spec:map[replicas:three]]": no`},
		{"invalid without causes", &apierr.StatusError{Code: 422, Reason: apierr.Invalid, Message: "the body is not valid"},
			`The request is invalid: the body is not valid`},
		{"joined", errors.Join(notFound, errors.New("second")),
			"Error from server (NotFound): deployments.apps \"web\" not found\nerror: second"},
	} {
		if got := kubectl.ErrorLine(tc.err); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

type fmtDuration string

func (d fmtDuration) String() string { return string(d) }

func TestErrorIs(t *testing.T) {
	err := fmt.Errorf("wrapped: %w", &kubectl.Error{Reason: kubectl.NotPaused, Message: "x"})
	if !errors.Is(err, kubectl.ErrNotPaused) || errors.Is(err, kubectl.ErrAlreadyPaused) {
		t.Errorf("errors.Is does not match by reason: %v", err)
	}
}

func TestNames(t *testing.T) {
	for kind, want := range map[api.Kind]string{
		api.KindDeployment:              "deployment.apps",
		api.KindReplicaSet:              "replicaset.apps",
		api.KindHorizontalPodAutoscaler: "horizontalpodautoscaler.autoscaling",
		api.KindPod:                     "pod",
		api.KindService:                 "service",
		api.KindConfigMap:               "configmap",
		api.KindResourceQuota:           "resourcequota",
		api.KindNode:                    "node",
		api.KindLease:                   "lease.coordination.k8s.io",
	} {
		if got := kubectl.KindString(kind); got != want {
			t.Errorf("KindString(%s) = %q, want %q", kind, got, want)
		}
	}
	if got := kubectl.ObjectName(api.KindDeployment, "web"); got != "deployment.apps/web" {
		t.Errorf("ObjectName = %q", got)
	}
}

// TestDefaultNamespace: a namespaced object named without a namespace is
// looked for in "default", as kubectl does.
func TestDefaultNamespace(t *testing.T) {
	e := newEnv(t, cluster.Config{Seed: 30}, webDeployment("nginx:1.14.2"))
	lines, err := e.cmd(func(ctx context.Context, c client.Client) ([]string, error) {
		return kubectl.Scale(ctx, c, api.KindDeployment, api.Key{Name: "web"}, 1)
	})
	if err != nil {
		t.Fatal(err)
	}
	equalLines(t, "scale", lines, []string{"deployment.apps/web scaled"})
	lines, err = e.cmd(func(ctx context.Context, c client.Client) ([]string, error) {
		return kubectl.Delete(ctx, c, api.KindDeployment, api.Key{Name: "web"}, kubectl.DeleteOptions{})
	})
	if err != nil {
		t.Fatal(err)
	}
	equalLines(t, "delete", lines, []string{`deployment.apps "web" deleted from default namespace`})
}

// TestBadInput: missing objects fail as data, they do not panic.
func TestBadInput(t *testing.T) {
	if _, _, err := kubectl.RolloutStatus(nil); !errors.Is(err, kubectl.ErrBadInput) {
		t.Errorf("rollout status of nil: %v", err)
	}
	e := newEnv(t, cluster.Config{Seed: 31})
	lines, err := e.cmd(func(ctx context.Context, c client.Client) ([]string, error) {
		return kubectl.Apply(ctx, c, []api.Object{nil, (*api.Pod)(nil)}, kubectl.ApplyOptions{})
	})
	if len(lines) != 0 || !errors.Is(err, kubectl.ErrBadInput) {
		t.Errorf("apply of nils: %q %v", lines, err)
	}
}
