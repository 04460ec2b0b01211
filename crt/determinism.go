package crt

import (
	"fmt"

	"github.com/clustersim/clustersim/harness"
)

// CheckDeterminism runs seed of the scenario at path twice under cfg and
// returns its trace hash when both runs give the same one. When they
// differ, the error names the first accepted write the two runs disagree
// on (virtual time, actor, verb, object, the fields it changed and their
// values): there the operator's code first did something the seed does
// not decide (a wall-clock read, a global random draw, map order, a
// goroutine, state kept across runs). When every write agrees, it names
// the first reconcile that differs. Call it inside a testing/synctest
// bubble when the operator reads the wall clock.
func CheckDeterminism(path string, seed uint64, cfg harness.Config) (string, error) {
	s, err := harness.Load(path)
	if err != nil {
		return "", err
	}
	a, err := harness.Run(s, seed, cfg)
	if err != nil {
		return "", err
	}
	b, err := harness.Run(s, seed, cfg)
	if err != nil {
		return "", err
	}
	if a.TraceHash == b.TraceHash {
		return a.TraceHash, nil
	}
	wa, wb := a.Result.Audit, b.Result.Audit
	for i := range max(len(wa), len(wb)) {
		x, y := "(no more writes)", "(no more writes)"
		if i < len(wa) {
			x = wa[i].String()
		}
		if i < len(wb) {
			y = wb[i].String()
		}
		if x != y {
			return "", fmt.Errorf("crt: seed %d is not deterministic: traces %.16s and %.16s; the runs first differ at write #%d:\n  first run:  %s\n  second run: %s", seed, a.TraceHash, b.TraceHash, i+1, x, y)
		}
	}
	ra, rb := a.Result.Reconciles, b.Result.Reconciles
	for i := range max(len(ra), len(rb)) {
		x, y := "(no more reconciles)", "(no more reconciles)"
		if i < len(ra) {
			x = fmt.Sprintf("%+v", ra[i])
		}
		if i < len(rb) {
			y = fmt.Sprintf("%+v", rb[i])
		}
		if x != y {
			return "", fmt.Errorf("crt: seed %d is not deterministic: traces %.16s and %.16s; the writes agree, the runs first differ at reconcile #%d:\n  first run:  %s\n  second run: %s", seed, a.TraceHash, b.TraceHash, i+1, x, y)
		}
	}
	return "", fmt.Errorf("crt: seed %d is not deterministic: traces %.16s and %.16s (the writes and reconciles agree; the difference is in the timeline, requests or network)", seed, a.TraceHash, b.TraceHash)
}
