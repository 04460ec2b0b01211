package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestFuzzTargetScript runs docs/fuzz-target.sh, which make fuzz runs
// each target through, with a stand-in for go that prints what go test
// prints in each case: a target that passes; Go 1.26's coordinator race
// (golang/go#75804: the target's FAIL and a bare "context deadline
// exceeded", nothing written), which alone passes, named; a crash that
// wrote its input; the race's message beside a written input; a failing
// assertion beside the message; another target's race. Planted, each
// fails: the signature's check left out (every failure passes); the
// "Failing input written" check left out; the target's name not checked.
func TestFuzzTargetScript(t *testing.T) {
	script := docsScript(t, "fuzz-target.sh")
	race := "fuzz: elapsed: 8s, execs: 155025 (23077/sec), new interesting: 19 (total: 527)\n--- FAIL: FuzzX (8.16s)\n    context deadline exceeded\nFAIL\nexit status 1\nFAIL\tpkg\t8.180s\n"
	for _, tc := range []struct {
		name     string
		out      string
		status   int
		wantExit int
		wantSays string
	}{
		{"a pass", "fuzz: elapsed: 8s, execs: 155025\nPASS\nok\tpkg\t8.1s\n", 0, 0, "ok\tpkg"},
		{"the coordinator's race", race, 1, 0, "golang/go#75804"},
		{"a crash", "--- FAIL: FuzzX (0.16s)\n    --- FAIL: FuzzX (0.00s)\n        x_test.go:12: boom\n\n    Failing input written to testdata/fuzz/FuzzX/abc\nFAIL\n", 1, 1, "Failing input written"},
		{"the message beside a written input", "--- FAIL: FuzzX (8.16s)\n    context deadline exceeded\n    Failing input written to testdata/fuzz/FuzzX/abc\nFAIL\n", 1, 1, "Failing input written"},
		{"the message beside a failed assertion", "--- FAIL: FuzzX (8.16s)\n    x_test.go:40: context deadline exceeded from the target's own call\n    context deadline exceeded\nFAIL\n", 1, 1, "x_test.go:40"},
		{"another target's race", strings.ReplaceAll(race, "FuzzX", "FuzzY"), 1, 1, "FuzzY"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			outFile := filepath.Join(dir, "out")
			if err := os.WriteFile(outFile, []byte(tc.out), 0o644); err != nil {
				t.Fatal(err)
			}
			fakeGo := filepath.Join(dir, "go")
			body := "#!/bin/sh\n[ \"$1\" = test ] && [ \"$3\" = '-fuzz=^FuzzX$' ] && [ \"$4\" = -fuzztime=8s ] && [ \"$5\" = ./pkg/ ] || exit 9\ncat " + outFile + "\nexit " + strconv.Itoa(tc.status) + "\n"
			if err := os.WriteFile(fakeGo, []byte(body), 0o755); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("bash", script, "FuzzX", "./pkg/", "8s")
			cmd.Env = append(os.Environ(), "GO="+fakeGo)
			out, _ := cmd.CombinedOutput()
			if got := cmd.ProcessState.ExitCode(); got != tc.wantExit {
				t.Errorf("exit %d, want %d; output:\n%s", got, tc.wantExit, out)
			}
			if !strings.Contains(string(out), tc.wantSays) {
				t.Errorf("output does not say %q:\n%s", tc.wantSays, out)
			}
		})
	}
}
