package client

import (
	"context"
	"errors"
	"fmt"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/apiserver"
)

// Applier sends server-side apply requests. The Client of this package
// implements it; Apply finds it by type assertion, so that the Writer
// interface every controller and fake uses stays as it is.
type Applier interface {
	// Apply sends obj as an apply configuration owned by fieldManager; the
	// server merges it into the live object (creating it if absent) and
	// fails with a 409 Conflict when another manager owns one of its
	// fields with a different value, unless force.
	Apply(ctx context.Context, obj api.Object, fieldManager string, force bool) (api.Object, error)
}

// ErrApplyUnsupported is returned by Apply for a client that cannot send
// server-side apply requests.
var ErrApplyUnsupported = errors.New("client does not support server-side apply")

// Apply server-side applies obj through c as fieldManager (see Applier).
// The result is a deep copy of the stored object. A client that is not an
// Applier fails with ErrApplyUnsupported.
func Apply(ctx context.Context, c Client, obj api.Object, fieldManager string, force bool) (api.Object, error) {
	a, ok := c.(Applier)
	if !ok {
		return nil, fmt.Errorf("%w (%T)", ErrApplyUnsupported, c)
	}
	return a.Apply(ctx, obj, fieldManager, force)
}

var _ Applier = (*client)(nil)

// Apply sends a copy of obj as a server-side apply.
func (c *client) Apply(_ context.Context, obj api.Object, fieldManager string, force bool) (api.Object, error) {
	req, err := body(apiserver.Apply, obj, "")
	if err != nil {
		return nil, err
	}
	if req.Name == "" {
		return nil, apierr.NewBadRequest("name is required for apply")
	}
	req.FieldManager = fieldManager
	req.Force = force
	return single(c.do(req))
}

// fieldManagerKey is the context key of WithFieldManager.
type fieldManagerKey struct{}

// WithFieldManager returns a context under which the client's creates,
// updates and patches record name as their field manager in
// metadata.managedFields (kubectl's --field-manager; kubectl's
// client-side apply uses "kubectl-client-side-apply"). Without it the
// server records the actor.
func WithFieldManager(ctx context.Context, name string) context.Context {
	return context.WithValue(ctx, fieldManagerKey{}, name)
}

// FieldManagerFrom returns the field manager WithFieldManager put in ctx,
// or "".
func FieldManagerFrom(ctx context.Context) string {
	if ctx == nil {
		return ""
	}
	s, _ := ctx.Value(fieldManagerKey{}).(string)
	return s
}
