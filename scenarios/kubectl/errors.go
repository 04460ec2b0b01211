package kubectl

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/clustersim/clustersim/sim/apierr"
)

// Reason classifies a failure kubectl detects itself, before or instead of
// an API error.
type Reason string

// The client-side failures of the commands.
const (
	// ContainerNotFound: set image names a container the template lacks.
	ContainerNotFound Reason = "ContainerNotFound"
	// AlreadyPaused: rollout pause of a paused Deployment.
	AlreadyPaused Reason = "AlreadyPaused"
	// NotPaused: rollout resume of a Deployment that is not paused.
	NotPaused Reason = "NotPaused"
	// PausedRollback: rollout undo of a paused Deployment.
	PausedRollback Reason = "PausedRollback"
	// PausedRestart: rollout restart of a paused Deployment.
	PausedRestart Reason = "PausedRestart"
	// RevisionNotFound: rollout undo --to-revision of a revision that does
	// not exist.
	RevisionNotFound Reason = "RevisionNotFound"
	// NoHistory: rollout undo of a Deployment with one revision or none.
	NoHistory Reason = "NoHistory"
	// ProgressDeadline: rollout status of a Deployment whose Progressing
	// condition timed out.
	ProgressDeadline Reason = "ProgressDeadline"
	// Unsupported: a command that does not apply to the kind given.
	Unsupported Reason = "Unsupported"
	// BadInput: a configuration or patch that cannot be used.
	BadInput Reason = "BadInput"
)

// Error is a failure kubectl reports itself. Its message is kubectl's text
// as printed after "error: " (ErrorLine adds the prefix). Match it with
// errors.Is against the sentinels below, which compare by Reason only.
type Error struct {
	// Reason classifies the failure.
	Reason Reason
	// Message is kubectl's message.
	Message string
}

// Error returns the message.
func (e *Error) Error() string { return e.Message }

// Is reports whether target is an *Error with the same Reason.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Reason == e.Reason
}

// Sentinels for errors.Is, one per Reason.
var (
	// ErrContainerNotFound matches ContainerNotFound failures.
	ErrContainerNotFound = &Error{Reason: ContainerNotFound, Message: "container not found"}
	// ErrAlreadyPaused matches AlreadyPaused failures.
	ErrAlreadyPaused = &Error{Reason: AlreadyPaused, Message: "already paused"}
	// ErrNotPaused matches NotPaused failures.
	ErrNotPaused = &Error{Reason: NotPaused, Message: "not paused"}
	// ErrPausedRollback matches PausedRollback failures.
	ErrPausedRollback = &Error{Reason: PausedRollback, Message: "paused deployment cannot be rolled back"}
	// ErrPausedRestart matches PausedRestart failures.
	ErrPausedRestart = &Error{Reason: PausedRestart, Message: "paused deployment cannot be restarted"}
	// ErrRevisionNotFound matches RevisionNotFound failures.
	ErrRevisionNotFound = &Error{Reason: RevisionNotFound, Message: "revision not found"}
	// ErrNoHistory matches NoHistory failures.
	ErrNoHistory = &Error{Reason: NoHistory, Message: "no rollout history"}
	// ErrProgressDeadline matches ProgressDeadline failures.
	ErrProgressDeadline = &Error{Reason: ProgressDeadline, Message: "progress deadline exceeded"}
	// ErrUnsupported matches Unsupported failures.
	ErrUnsupported = &Error{Reason: Unsupported, Message: "unsupported"}
	// ErrBadInput matches BadInput failures.
	ErrBadInput = &Error{Reason: BadInput, Message: "bad input"}
)

func newError(r Reason, format string, args ...any) *Error {
	return &Error{Reason: r, Message: fmt.Sprintf(format, args...)}
}

// ErrorLine returns the line kubectl prints for err, as cmdutil.CheckErr
// does: "Error from server (<Reason>): <message>" for an API status error,
// "Unable to connect to the server: <message>" for a request that timed
// out on the way (the simulator's client-side Timeout), and "error:
// <message>" for everything else (once: a message that already starts
// with it keeps it). Joined errors give one line each, newline-separated.
// A nil err gives "".
func ErrorLine(err error) string {
	if err == nil {
		return ""
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var lines []string
		for _, e := range j.Unwrap() {
			if l := ErrorLine(e); l != "" {
				lines = append(lines, l)
			}
		}
		return strings.Join(lines, "\n")
	}
	// kubectl asks for an API status directly, not down a wrap chain: a
	// wrapped status error prints as "error: <wrapper text>".
	if se, ok := err.(*apierr.StatusError); ok {
		if se.Reason == apierr.Timeout {
			return "Unable to connect to the server: " + se.Message
		}
		if se.Reason == apierr.Invalid {
			return invalidLine(se)
		}
		if se.Reason == "" {
			return "Error from server: " + se.Message
		}
		return fmt.Sprintf("Error from server (%s): %s", se.Reason, se.Message)
	}
	msg := err.Error()
	if strings.HasPrefix(msg, "error: ") {
		return msg
	}
	return "error: " + msg
}

// invalidLine is what kubectl prints for an Invalid status (cmdutil's
// checkErr, not the "Error from server" line): "The <Kind> "<name>" is
// invalid: " and the causes as "<field>: <error>", on the same line for
// one, each on a line of its own after "* " for more, repeats left out;
// "The request is invalid" when the error names no object (a patch that
// does not decode), with the server's message when there are no causes.
func invalidLine(se *apierr.StatusError) string {
	s := "The request is invalid"
	switch {
	case se.Kind != "" || se.Name != "":
		s = fmt.Sprintf("The %s %q is invalid", se.Kind, se.Name)
	case len(se.Causes) == 0 && se.Message != "":
		s += ": " + se.Message
	}
	var causes []string
	for _, c := range se.Causes {
		line := c.Error()
		if !slices.Contains(causes, line) {
			causes = append(causes, line)
		}
	}
	switch len(causes) {
	case 0:
		return s
	case 1:
		return s + ": " + causes[0]
	}
	return s + ": \n* " + strings.Join(causes, "\n* ")
}

// withSource prefixes an API error with the file it came from, as kubectl's
// cmdutil.AddSourceToErr: the result is still a status error of the same
// reason and code.
func withSource(verb, source string, err error) error {
	if source == "" || err == nil {
		return err
	}
	var se *apierr.StatusError
	if errors.As(err, &se) && err == error(se) {
		cp := *se
		cp.Message = fmt.Sprintf("error when %s %q: %s", verb, source, se.Message)
		return &cp
	}
	return fmt.Errorf("error when %s %q: %w", verb, source, err)
}
