package kubectl_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/clustersim/clustersim/scenarios/kubectl"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/cluster"
)

const ssaWeb = `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: %s
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: nginx
        image: nginx:1.14.2
`

func webWith(t *testing.T, replicas string) []api.Object {
	return decode(t, strings.Replace(ssaWeb, "%s", replicas, 1))
}

const advice = `Please review the fields above--they currently have other managers. Here
are the ways you can resolve this warning:
* If you intend to manage all of these fields, please re-run the apply
  command with the ` + "`--force-conflicts`" + ` flag.
* If you do not intend to manage all of the fields, please edit your
  manifest to remove references to the fields that should keep their
  current managers.
* You may co-own fields by updating your manifest to match the existing
  value; in this case, you'll become the manager if the other manager(s)
  stop managing the field (remove it from their configuration).
See https://kubernetes.io/docs/reference/using-api/server-side-apply/#conflicts`

func TestServerSideApply(t *testing.T) {
	tests := []struct {
		name string
		// before runs first (e.g. a client-side apply), as the user.
		before    func(ctx context.Context, c client.Client) error
		manager   string
		force     bool
		replicas  string
		wantLines []string
		wantError string // ErrorLine of the failure
		wantRepl  int32
		wantOwner string // manager of .spec.replicas after the command
	}{{
		name:      "create",
		replicas:  "3",
		wantLines: []string{"deployment.apps/web serverside-applied"},
		wantRepl:  3,
		wantOwner: "kubectl",
	}, {
		name: "unchanged is still serverside-applied",
		before: func(ctx context.Context, c client.Client) error {
			_, err := client.Apply(ctx, c, webWithObj(3), "kubectl", false)
			return err
		},
		replicas:  "3",
		wantLines: []string{"deployment.apps/web serverside-applied"},
		wantRepl:  3,
		wantOwner: "kubectl",
	}, {
		name: "conflict with client-side apply",
		before: func(ctx context.Context, c client.Client) error {
			_, err := kubectl.Apply(client.WithFieldManager(ctx, kubectl.CSAFieldManager), c, []api.Object{webWithObj(3)}, kubectl.ApplyOptions{})
			return err
		},
		replicas:  "5",
		wantError: "error: Apply failed with 1 conflict: conflict with \"kubectl-client-side-apply\" using apps/v1: .spec.replicas\n" + advice,
		wantRepl:  3,
		wantOwner: "kubectl-client-side-apply",
	}, {
		name: "force-conflicts takes the field",
		before: func(ctx context.Context, c client.Client) error {
			_, err := kubectl.Apply(client.WithFieldManager(ctx, kubectl.CSAFieldManager), c, []api.Object{webWithObj(3)}, kubectl.ApplyOptions{})
			return err
		},
		replicas:  "5",
		force:     true,
		wantLines: []string{"deployment.apps/web serverside-applied"},
		wantRepl:  5,
		wantOwner: "kubectl",
	}, {
		name: "conflict with kubectl scale's actor",
		before: func(ctx context.Context, c client.Client) error {
			if _, err := client.Apply(ctx, c, webWithObj(3), "platform-ci", false); err != nil {
				return err
			}
			_, err := kubectl.Scale(ctx, c, api.KindDeployment, api.Key{Namespace: "default", Name: "web"}, 8)
			return err
		},
		manager:   "platform-ci",
		replicas:  "3",
		wantError: "error: Apply failed with 1 conflict: conflict with \"alice\" using apps/v1: .spec.replicas\n" + advice,
		wantRepl:  8,
		wantOwner: user,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, cluster.Config{Seed: 1})
			if tc.before != nil {
				if _, err := e.cmd(func(ctx context.Context, c client.Client) ([]string, error) { return nil, tc.before(ctx, c) }); err != nil {
					t.Fatal(err)
				}
			}
			lines, err := e.cmd(func(ctx context.Context, c client.Client) ([]string, error) {
				return kubectl.ServerSideApply(ctx, c, webWith(t, tc.replicas), tc.manager, tc.force)
			})
			if tc.wantError != "" {
				if got := kubectl.ErrorLine(err); got != tc.wantError {
					t.Errorf("error\n got %q\nwant %q", got, tc.wantError)
				}
				if !errors.Is(err, apierr.ErrConflict) {
					t.Errorf("%v does not match ErrConflict", err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			equalLines(t, "ssa", lines, tc.wantLines)
			d := e.deployment("web")
			if *d.Spec.Replicas != tc.wantRepl {
				t.Errorf("replicas %d, want %d", *d.Spec.Replicas, tc.wantRepl)
			}
			var owner []string
			for _, m := range e.c.Store.ManagedFields(d) {
				if m.Owns([]string{"f:spec", "f:replicas"}) {
					owner = append(owner, m.Manager)
				}
			}
			if len(owner) != 1 || owner[0] != tc.wantOwner {
				t.Errorf(".spec.replicas owned by %v, want %s", owner, tc.wantOwner)
			}
		})
	}
}

func webWithObj(replicas int32) api.Object {
	labels := map[string]string{"app": "web"}
	return &api.Deployment{
		TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.DeploymentSpec{
			Replicas: &replicas,
			Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx:1.14.2"}}},
			},
		},
	}
}
