package replicaset

import (
	"fmt"
	"os"
	"sync"
	"testing"
)

// Every sync in this package's tests, the end-to-end ones included, checks
// the aggregates and the syncs that read them against the full path
// (verify.go); a test that syncs through the harness's reconcile fails at
// once, any other difference fails the run.
var verifyFailures struct {
	sync.Mutex
	msgs []string
}

func TestMain(m *testing.M) {
	verifyFastPath = func(msg string) {
		verifyFailures.Lock()
		defer verifyFailures.Unlock()
		verifyFailures.msgs = append(verifyFailures.msgs, msg)
	}
	code := m.Run()
	if msgs := takeVerifyFailures(); len(msgs) > 0 {
		for _, msg := range msgs {
			fmt.Fprintln(os.Stderr, "aggregate check:", msg)
		}
		code = 1
	}
	os.Exit(code)
}

// takeVerifyFailures returns and clears the differences reported so far.
func takeVerifyFailures() []string {
	verifyFailures.Lock()
	defer verifyFailures.Unlock()
	msgs := verifyFailures.msgs
	verifyFailures.msgs = nil
	return msgs
}
