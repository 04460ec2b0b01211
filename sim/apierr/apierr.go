// Package apierr holds the API server's status errors: Kubernetes' reasons,
// HTTP codes and exact messages (apimachinery pkg/api/errors). Failures in
// the simulated world are data: every one is a *StatusError matched with
// errors.Is against the sentinels below, whatever its message.
//
// apierr imports the standard library only. It has no state.
package apierr

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Reason is the machine-readable reason of a status error, as in
// metav1.StatusReason.
type Reason string

// The reasons clustersim's API server returns.
const (
	NotFound           Reason = "NotFound"
	AlreadyExists      Reason = "AlreadyExists"
	Conflict           Reason = "Conflict"
	Invalid            Reason = "Invalid"
	Forbidden          Reason = "Forbidden"
	Expired            Reason = "Expired"
	BadRequest         Reason = "BadRequest"
	MethodNotAllowed   Reason = "MethodNotAllowed"
	ServiceUnavailable Reason = "ServiceUnavailable"
	// TooManyRequests (429) is what the eviction subresource answers
	// when a disruption budget forbids the eviction: retry later.
	TooManyRequests Reason = "TooManyRequests"
	// InternalError (500) is a failure of the server itself.
	InternalError Reason = "InternalError"
	// RequestEntityTooLarge (413) is a request bigger than the server
	// takes: a body past its size limit, a JSON patch of too many
	// operations.
	RequestEntityTooLarge Reason = "RequestEntityTooLarge"
	// Timeout is a client-side failure: the request or its reply was lost
	// or late, so the caller cannot know whether the server acted.
	Timeout Reason = "Timeout"
)

// StatusError is a failed API request: an HTTP code, a reason and the
// message Kubernetes would print.
type StatusError struct {
	Code    int
	Reason  Reason
	Message string
	// Causes are the field errors of an Invalid error, in order, or the
	// causes of another error (a 429's DisruptionBudget cause: Type
	// "DisruptionBudget", Detail the message, no Field).
	Causes []FieldError
	// RetryAfterSeconds is a 429's suggested wait (details.retryAfterSeconds).
	RetryAfterSeconds int
	// Kind, Group and Name are the object an Invalid error is about
	// (metav1.StatusDetails' kind, group and name), as NewInvalid was
	// given them; kubectl prints `The <Kind> "<Name>" is invalid` from
	// them, and `The request is invalid` when both are empty.
	Kind, Group, Name string
}

// Error returns the message, as kubectl prints it after "Error from server".
func (e *StatusError) Error() string { return e.Message }

// Is reports whether target is a StatusError with the same reason; the
// sentinels below carry only a reason, so errors.Is(err, ErrConflict)
// matches every conflict.
func (e *StatusError) Is(target error) bool {
	t, ok := target.(*StatusError)
	return ok && t.Reason == e.Reason
}

// Sentinels for errors.Is, one per reason.
var (
	ErrNotFound           = &StatusError{Code: 404, Reason: NotFound, Message: "not found"}
	ErrAlreadyExists      = &StatusError{Code: 409, Reason: AlreadyExists, Message: "already exists"}
	ErrConflict           = &StatusError{Code: 409, Reason: Conflict, Message: "conflict"}
	ErrInvalid            = &StatusError{Code: 422, Reason: Invalid, Message: "invalid"}
	ErrForbidden          = &StatusError{Code: 403, Reason: Forbidden, Message: "forbidden"}
	ErrExpired            = &StatusError{Code: 410, Reason: Expired, Message: "expired"}
	ErrBadRequest         = &StatusError{Code: 400, Reason: BadRequest, Message: "bad request"}
	ErrMethodNotAllowed   = &StatusError{Code: 405, Reason: MethodNotAllowed, Message: "method not allowed"}
	ErrServiceUnavailable = &StatusError{Code: 503, Reason: ServiceUnavailable, Message: "service unavailable"}
	ErrTimeout            = &StatusError{Code: 504, Reason: Timeout, Message: "timeout"}
	ErrTooManyRequests    = &StatusError{Code: 429, Reason: TooManyRequests, Message: "too many requests"}
)

// ReasonOf returns the reason of err if it is (or wraps) a StatusError, and
// "" otherwise.
func ReasonOf(err error) Reason {
	var se *StatusError
	if errors.As(err, &se) {
		return se.Reason
	}
	return ""
}

// NewNotFound: `deployments.apps "web" not found`.
func NewNotFound(groupResource, name string) *StatusError {
	return &StatusError{Code: 404, Reason: NotFound, Message: fmt.Sprintf("%s %q not found", groupResource, name)}
}

// NewAlreadyExists: `deployments.apps "web" already exists`.
func NewAlreadyExists(groupResource, name string) *StatusError {
	return &StatusError{Code: 409, Reason: AlreadyExists, Message: fmt.Sprintf("%s %q already exists", groupResource, name)}
}

// OptimisticLockErrorMsg is the apiserver's text for a stale
// resourceVersion.
const OptimisticLockErrorMsg = "the object has been modified; please apply your changes to the latest version and try again"

// NewConflict: `Operation cannot be fulfilled on deployments.apps "web":
// <msg>`.
func NewConflict(groupResource, name, msg string) *StatusError {
	return &StatusError{Code: 409, Reason: Conflict,
		Message: fmt.Sprintf("Operation cannot be fulfilled on %s %q: %s", groupResource, name, msg)}
}

// NewForbidden: `pods "web-1" is forbidden: <msg>`. An empty name gives
// `pods is forbidden: <msg>`.
func NewForbidden(groupResource, name, msg string) *StatusError {
	if name == "" {
		return &StatusError{Code: 403, Reason: Forbidden, Message: fmt.Sprintf("%s is forbidden: %s", groupResource, msg)}
	}
	return &StatusError{Code: 403, Reason: Forbidden, Message: fmt.Sprintf("%s %q is forbidden: %s", groupResource, name, msg)}
}

// FieldError is one validation failure, formatted like apimachinery's
// field.Error: `spec.replicas: Invalid value: -1: must be greater than or
// equal to 0`.
type FieldError struct {
	Field  string
	Type   string // "Invalid value", "Required value", "Unsupported value", "Forbidden", "Duplicate value"
	Value  any    // the bad value, rendered as field.Error.ErrorBody renders BadValue
	Detail string
}

// OmitValue is field.OmitValue(): a value-bearing error (Invalid,
// Unsupported, Duplicate, ...) that prints no value,
// `spec.podFailurePolicy.rules[0]: Invalid value: specifying both ...`.
var OmitValue any = omitValue{}

type omitValue struct{}

// Error formats the field error as apimachinery v0.37's
// field.Error.Error does (Field, ": ", ErrorBody()):
//
//   - "Required value", "Forbidden", "Too long", "Too short" and
//     "Internal error" never print the value;
//   - "Invalid value", "Unsupported value", "Not found", "Duplicate
//     value", "Too many" and "Too few" print it unless it is OmitValue: a
//     nil value prints as null;
//   - other types (the causes of non-Invalid errors: "Unknown field",
//     "FieldManagerConflict", ...) print a value only when one is given.
//
// A value prints as ErrorBody prints BadValue: int64, int32, float64,
// float32 and bool with %v, a string (of type string itself, not a named
// string type) with %q, anything else as its JSON encoding (a named
// string type as a JSON string, an int or a uint as its digits, a map with
// sorted keys, a struct with its Go field names when it has no json tags,
// a nil slice as null), falling back to String() and then %#v when it does
// not marshal. A Literal prints as it is.
func (f FieldError) Error() string {
	var b strings.Builder
	b.WriteString(f.Field)
	b.WriteString(": ")
	b.WriteString(f.Type)
	switch f.Type {
	case "Required value", "Forbidden", "Too long", "Too short", "Internal error":
	case "Invalid value", "Unsupported value", "Not found", "Duplicate value", "Too many", "Too few":
		if f.Value != OmitValue {
			b.WriteString(": ")
			b.WriteString(RenderValue(f.Value))
		}
	default:
		if f.Value != nil && f.Value != OmitValue {
			b.WriteString(": ")
			b.WriteString(RenderValue(f.Value))
		}
	}
	if f.Detail != "" {
		b.WriteString(": ")
		b.WriteString(f.Detail)
	}
	return b.String()
}

// RenderValue renders a bad value as field.Error.ErrorBody does (see
// FieldError.Error); a Literal is its own text.
func RenderValue(v any) string {
	switch t := v.(type) {
	case Literal:
		return string(t)
	case int64, int32, float64, float32, bool:
		return fmt.Sprintf("%v", t)
	case string:
		return fmt.Sprintf("%q", t)
	}
	if jb, err := json.Marshal(v); err == nil {
		return string(jb)
	}
	if s, ok := v.(fmt.Stringer); ok {
		return s.String()
	}
	return fmt.Sprintf("%#v", v)
}

// Literal is a FieldError value printed as it is, unquoted: for the few
// bad values whose upstream rendering is a fixed text that no Go value
// here would marshal to (an internal type that panics on marshalling, a
// value upstream formats itself).
type Literal string

// NewInvalid: `Deployment.apps "web" is invalid: <field error>` (several
// field errors are listed in brackets, comma-separated, as apimachinery
// does).
func NewInvalid(kindGroup, name string, errs ...FieldError) *StatusError {
	var msg string
	switch len(errs) {
	case 0:
		msg = fmt.Sprintf("%s %q is invalid", kindGroup, name)
	case 1:
		msg = fmt.Sprintf("%s %q is invalid: %s", kindGroup, name, errs[0].Error())
	default:
		parts := make([]string, len(errs))
		for i, e := range errs {
			parts[i] = e.Error()
		}
		msg = fmt.Sprintf("%s %q is invalid: [%s]", kindGroup, name, strings.Join(parts, ", "))
	}
	kind, group, _ := strings.Cut(kindGroup, ".")
	return &StatusError{Code: 422, Reason: Invalid, Message: msg, Causes: errs, Kind: kind, Group: group, Name: name}
}

// NewTooOldResourceVersion: 410 Expired, `too old resource version: 5
// (120)`, the watch cache's answer to a watch from a resourceVersion it no
// longer holds. The client must relist.
func NewTooOldResourceVersion(requested, oldest uint64) *StatusError {
	return &StatusError{Code: 410, Reason: Expired,
		Message: fmt.Sprintf("too old resource version: %d (%d)", requested, oldest)}
}

// NewTooManyRequests is apimachinery's NewTooManyRequests: a 429 with
// the message as given and a suggested retry after retryAfterSeconds.
func NewTooManyRequests(msg string, retryAfterSeconds int) *StatusError {
	return &StatusError{Code: 429, Reason: TooManyRequests, Message: msg, RetryAfterSeconds: retryAfterSeconds}
}

// NewBadRequest is a 400 with the given message.
func NewBadRequest(msg string) *StatusError {
	return &StatusError{Code: 400, Reason: BadRequest, Message: msg}
}

// NewRequestEntityTooLarge is apimachinery's NewRequestEntityTooLargeError:
// a 413, `Request entity too large: <message>`.
func NewRequestEntityTooLarge(msg string) *StatusError {
	return &StatusError{Code: 413, Reason: RequestEntityTooLarge, Message: "Request entity too large: " + msg}
}

// NewRequestRejected is what apimachinery's NewGenericServerResponse
// makes of a 422 naming no resource and no object, as kube-apiserver
// answers a JSON patch whose operations do not apply
// (handlers/patch.go): `the server rejected our request due to an error
// in our request`, reason Invalid, no causes. The operation's own error
// stays on the server; kubectl prints `The request is invalid: ` and
// the message.
func NewRequestRejected() *StatusError {
	return &StatusError{Code: 422, Reason: Invalid, Message: "the server rejected our request due to an error in our request"}
}

// NewServiceUnavailable is a 503 with the given message.
func NewServiceUnavailable(msg string) *StatusError {
	return &StatusError{Code: 503, Reason: ServiceUnavailable, Message: msg}
}

// NewTimeout is the client-side failure of a request whose reply did not
// arrive in time: `<verb> <resource> "<name>": request timed out after
// 10s`. The caller cannot tell whether the server acted.
func NewTimeout(verb, groupResource, name string, after fmt.Stringer) *StatusError {
	target := groupResource
	if name != "" {
		target = fmt.Sprintf("%s %q", groupResource, name)
	}
	return &StatusError{Code: 504, Reason: Timeout,
		Message: fmt.Sprintf("%s %s: request timed out after %v", verb, target, after)}
}
