package kubectl

import (
	"context"
	"errors"
	"fmt"
	"reflect"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
)

// SSAFieldManager is the field manager of `kubectl apply --server-side`
// when --field-manager is not given.
const SSAFieldManager = "kubectl"

// CSAFieldManager is the field manager Kubernetes records for kubectl's
// client-side apply (its --field-manager default). Run Apply under
// client.WithFieldManager(ctx, CSAFieldManager) to record it.
const CSAFieldManager = "kubectl-client-side-apply"

// ssaConflictAdvice is what kubectl appends to an apply conflict
// (pkg/cmd/apply/apply.go).
const ssaConflictAdvice = `Please review the fields above--they currently have other managers. Here
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

// ServerSideApply applies objs as `kubectl apply --server-side
// --field-manager=<fieldManager> [--force-conflicts]` does, one after
// another, and returns the lines kubectl prints
// ("deployment.apps/web serverside-applied"). fieldManager "" means
// SSAFieldManager; objects that name no namespace go to "default". An
// object that fails does not stop the others; the failures are joined in
// order. A conflict fails with kubectl's text: the server's "Apply failed
// with N conflict(s): ..." followed by kubectl's advice lines, printed
// after "error: " by ErrorLine; it still matches
// errors.Is(err, apierr.ErrConflict). The objects are not modified.
func ServerSideApply(ctx context.Context, c client.Client, objs []api.Object, fieldManager string, force bool) ([]string, error) {
	if fieldManager == "" {
		fieldManager = SSAFieldManager
	}
	var lines []string
	var errs []error
	for _, o := range objs {
		l, err := serverSideApplyOne(ctx, c, o, fieldManager, force)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		lines = append(lines, l)
	}
	return lines, errors.Join(errs...)
}

func serverSideApplyOne(ctx context.Context, c client.Client, o api.Object, fieldManager string, force bool) (string, error) {
	if o == nil || reflect.ValueOf(o).IsNil() {
		return "", newError(BadInput, "apply needs an object")
	}
	kind := api.KindOf(o)
	info, ok := lookup(c, kind)
	if !ok {
		tm := o.GetTypeMeta()
		return "", newError(BadInput, "resource mapping not found for kind %q in version %q", tm.Kind, tm.APIVersion)
	}
	obj := o.DeepCopyObject()
	m := obj.GetObjectMeta()
	switch {
	case !info.Namespaced:
		m.Namespace = ""
	case m.Namespace == "":
		m.Namespace = DefaultNamespace
	}
	setTypeMeta(obj)
	if _, err := client.Apply(ctx, c, obj, fieldManager, force); err != nil {
		if errors.Is(err, apierr.ErrConflict) {
			return "", &conflictError{err: err}
		}
		return "", err
	}
	return line(kind, m.Name, "serverside-applied"), nil
}

// conflictError is an apply conflict with kubectl's advice appended. It
// is not an API status error, so kubectl prints it as "error: ...".
type conflictError struct{ err error }

// Error returns the server's message and kubectl's advice.
func (e *conflictError) Error() string { return fmt.Sprintf("%v\n%s", e.err, ssaConflictAdvice) }

// Unwrap returns the server's Conflict.
func (e *conflictError) Unwrap() error { return e.err }
