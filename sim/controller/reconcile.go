package controller

import (
	"context"
	"errors"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// Request names the object to reconcile (controller-runtime's
// reconcile.Request, a NamespacedName). It never carries the event that
// caused it: a reconciler reads the current state and acts on it.
type Request struct {
	api.Key
}

// Result tells the controller whether to look at the request again.
type Result struct {
	// Requeue asks for another reconcile after the rate limiter's delay
	// (and counts as a failure for its back-off).
	Requeue bool
	// RequeueAfter, when positive, asks for another reconcile after this
	// much virtual time; it wins over Requeue and resets the back-off.
	RequeueAfter time.Duration
}

// IsZero reports whether r asks for nothing.
func (r Result) IsZero() bool { return !r.Requeue && r.RequeueAfter == 0 }

// Reconciler drives the object a Request names towards its desired state
// (controller-runtime's reconcile.Reconciler). A non-nil error means
// "retry with back-off", unless it is a TerminalError.
type Reconciler interface {
	// Reconcile looks at the current state of req's object and acts on
	// it. It runs in a worker process and may block in client calls.
	Reconcile(ctx context.Context, req Request) (Result, error)
}

// ReconcilerFunc adapts a function to Reconciler.
type ReconcilerFunc func(ctx context.Context, req Request) (Result, error)

// Reconcile calls f.
func (f ReconcilerFunc) Reconcile(ctx context.Context, req Request) (Result, error) {
	return f(ctx, req)
}

// ErrTerminal matches every error made by TerminalError:
// errors.Is(err, ErrTerminal).
var ErrTerminal = errors.New("terminal error")

// terminalError marks an error that retrying cannot fix.
type terminalError struct {
	err error
}

// TerminalError wraps err so that the controller does not retry the
// request (controller-runtime's reconcile.TerminalError). The result
// matches both ErrTerminal and err with errors.Is.
func TerminalError(err error) error { return &terminalError{err: err} }

// Error returns "terminal error: <err>".
func (e *terminalError) Error() string {
	if e.err == nil {
		return ErrTerminal.Error()
	}
	return ErrTerminal.Error() + ": " + e.err.Error()
}

// Unwrap returns the wrapped error.
func (e *terminalError) Unwrap() error { return e.err }

// Is matches ErrTerminal.
func (e *terminalError) Is(target error) bool { return target == ErrTerminal }
