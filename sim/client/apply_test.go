package client_test

import (
	"context"
	"errors"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/kernel"
)

// managers returns "manager/operation" of each managedFields entry.
func managers(o api.Object) []string {
	var out []string
	for _, e := range o.GetObjectMeta().ManagedFields {
		out = append(out, e.Manager+"/"+e.Operation)
	}
	return out
}

func TestApplyAndFieldManager(t *testing.T) {
	tests := []struct {
		name string
		// run acts through c and returns the final object.
		run     func(ctx context.Context, c client.Client) (api.Object, error)
		want    []string
		wantErr error
	}{{
		name: "update without a field manager records the actor",
		run: func(ctx context.Context, c client.Client) (api.Object, error) {
			return c.Create(ctx, configMap("default", "cfg", nil, map[string]string{"k": "v"}))
		},
		want: []string{user + "/Update"},
	}, {
		name: "WithFieldManager names the manager of creates and patches",
		run: func(ctx context.Context, c client.Client) (api.Object, error) {
			ctx = client.WithFieldManager(ctx, "kubectl-client-side-apply")
			if _, err := c.Create(ctx, configMap("default", "cfg", nil, map[string]string{"k": "v"})); err != nil {
				return nil, err
			}
			return c.Patch(client.WithFieldManager(ctx, "kubectl-patch"), api.KindConfigMap, api.Key{Namespace: "default", Name: "cfg"},
				client.MergePatch, []byte(`{"data":{"x":"y"}}`))
		},
		want: []string{"kubectl-client-side-apply/Update", "kubectl-patch/Update"},
	}, {
		name: "apply creates and records an Apply entry",
		run: func(ctx context.Context, c client.Client) (api.Object, error) {
			return client.Apply(ctx, c, configMap("default", "cfg", nil, map[string]string{"k": "v"}), "kubectl", false)
		},
		want: []string{"kubectl/Apply"},
	}, {
		name: "apply conflicts with an update manager",
		run: func(ctx context.Context, c client.Client) (api.Object, error) {
			if _, err := c.Create(ctx, configMap("default", "cfg", nil, map[string]string{"k": "v"})); err != nil {
				return nil, err
			}
			return client.Apply(ctx, c, configMap("default", "cfg", nil, map[string]string{"k": "w"}), "kubectl", false)
		},
		wantErr: apierr.ErrConflict,
	}, {
		name: "an apply without a name is refused before sending",
		run: func(ctx context.Context, c client.Client) (api.Object, error) {
			return client.Apply(ctx, c, configMap("default", "", nil, nil), "kubectl", false)
		},
		wantErr: apierr.ErrBadRequest,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			c := client.New(h.k, client.NewDirect(h.srv), user, client.Options{})
			var got api.Object
			var err error
			h.inProcess(t, func(*kernel.Process) { got, err = tc.run(context.Background(), c) })
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("error %v, want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if g := managers(got); !equalStrings(g, tc.want) {
				t.Errorf("managers %v, want %v", g, tc.want)
			}
		})
	}
}

// notApplier is a Client without Apply.
type notApplier struct{ client.Client }

func TestApplyUnsupported(t *testing.T) {
	_, err := client.Apply(context.Background(), notApplier{}, configMap("default", "cfg", nil, nil), "m", false)
	if !errors.Is(err, client.ErrApplyUnsupported) {
		t.Fatalf("got %v, want ErrApplyUnsupported", err)
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
