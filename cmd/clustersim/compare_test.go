package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestCompare: the operator that compares with == against defaults writes
// far more than the fixed one on the same seeds (a significant
// difference, the candidate improved; --fail-on writes with the two
// swapped exits 1), and a scenario compared with itself differs in
// nothing. Five seeds of five seconds keep it cheap.
func TestCompare(t *testing.T) {
	verdicts := func(args ...string) (int, map[string]string, string) {
		t.Helper()
		code, out, errOut := runMain(append([]string{"compare", "--seeds", "5", "--until", "5s", "-o", "json"}, args...)...)
		var c struct {
			Metrics []struct{ Metric, Verdict string }
		}
		if err := json.Unmarshal([]byte(out), &c); err != nil {
			t.Fatalf("compare %v: exit %d, %v\n%s", args, code, err, errOut)
		}
		v := map[string]string{}
		for _, m := range c.Metrics {
			v[m.Metric] = m.Verdict
		}
		return code, v, errOut
	}
	code, v, _ := verdicts("defaults-trap", "defaults-trap-fixed", "--fail-on", "writes")
	if code != 0 || v["writes"] != "improved" || v["no-op writes"] != "improved" {
		t.Errorf("trap -> fixed: exit %d, verdicts %v; want exit 0, writes and no-op writes improved", code, v)
	}
	code, v, errOut := verdicts("defaults-trap-fixed", "defaults-trap", "--fail-on", "writes")
	if code != 1 || v["writes"] != "regressed" || !strings.Contains(errOut, "FAIL defaults-trap regressed against defaults-trap-fixed: writes") {
		t.Errorf("fixed -> trap: exit %d, verdicts %v, stderr %q; want exit 1 and writes regressed", code, v, errOut)
	}
	code, v, _ = verdicts("defaults-trap-fixed", "defaults-trap-fixed", "--fail-on", "any")
	if code != 0 || len(v) == 0 {
		t.Fatalf("itself: exit %d, %v", code, v)
	}
	for m, verdict := range v {
		if verdict != "no significant difference" {
			t.Errorf("compared with itself, %s: %s", m, verdict)
		}
	}
	for _, args := range [][]string{{"compare", "a"}, {"compare", "a", "b", "--alpha", "1.5"}, {"compare", "a", "b", "--fail-on", "speed"}, {"compare", "nope", "defaults-trap"}} {
		if code, _, _ := runMain(args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}
