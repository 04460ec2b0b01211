package client

import (
	"context"
	"errors"
	"fmt"

	"github.com/clustersim/clustersim/sim/api"
)

// ErrWrongType is returned by the typed helpers when the server answers
// with an object of another Go type than the one asked for.
var ErrWrongType = errors.New("unexpected object type")

// KindFor returns the kind of the Go type T, e.g. api.KindDeployment for
// *api.Deployment.
func KindFor[T api.Object]() api.Kind {
	var zero T
	return api.KindOf(zero)
}

// as converts an object returned by a call to T.
func as[T api.Object](o api.Object, err error) (T, error) {
	var zero T
	if err != nil {
		return zero, err
	}
	t, ok := o.(T)
	if !ok {
		return zero, fmt.Errorf("%w: got %T, want %T", ErrWrongType, o, zero)
	}
	return t, nil
}

// GetAs gets the object with key, of the kind of T:
//
//	d, err := client.GetAs[*api.Deployment](ctx, c, key)
func GetAs[T api.Object](ctx context.Context, c Reader, key api.Key) (T, error) {
	return as[T](c.Get(ctx, KindFor[T](), key))
}

// ListAs lists the objects of the kind of T that match opts.
func ListAs[T api.Object](ctx context.Context, c Reader, opts ...ListOption) ([]T, error) {
	l, err := c.List(ctx, KindFor[T](), opts...)
	if err != nil {
		return nil, err
	}
	out := make([]T, 0, len(l.Items))
	for _, o := range l.Items {
		t, err := as[T](o, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// CreateAs creates obj and returns the stored object as T.
func CreateAs[T api.Object](ctx context.Context, c Writer, obj T) (T, error) {
	return as[T](c.Create(ctx, obj))
}

// UpdateAs updates obj and returns the stored object as T.
func UpdateAs[T api.Object](ctx context.Context, c Writer, obj T) (T, error) {
	return as[T](c.Update(ctx, obj))
}

// UpdateStatusAs updates obj's status and returns the stored object as T.
func UpdateStatusAs[T api.Object](ctx context.Context, c Writer, obj T) (T, error) {
	return as[T](c.UpdateStatus(ctx, obj))
}

// PatchAs patches the object with key, of the kind of T, and returns the
// result as T.
func PatchAs[T api.Object](ctx context.Context, c Writer, key api.Key, pt PatchType, data []byte) (T, error) {
	return as[T](c.Patch(ctx, KindFor[T](), key, pt, data))
}
