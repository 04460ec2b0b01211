//go:build replicasetverify

package replicaset

import (
	"fmt"
	"os"
)

// Built with the tag replicasetverify (make verify-replicaset), every sync
// of every run checks the aggregates and the fast path against the full
// path (verify.go) and the process stops at the first difference, with
// exit status 3: a panic would not do, as the controller runtime recovers
// a reconciler's panics into errors (controller-runtime's RecoverPanic)
// and the sync would only be retried.
func init() {
	verifyFastPath = func(msg string) {
		fmt.Fprintln(os.Stderr, "replicaset invariant aggregate-exact:", msg)
		os.Exit(3)
	}
}
