package main

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestVersion: clustersim version and --version print the same line.
func TestVersion(t *testing.T) {
	code, out, _ := runMain("version")
	if code != exitOK || !strings.HasPrefix(out, "clustersim ") || !strings.Contains(out, " go1.") || !strings.HasSuffix(out, ", simulating Kubernetes "+api.KubernetesRelease+"\n") {
		t.Errorf("version: exit %d, %q", code, out)
	}
	if _, again, _ := runMain("--version"); again != out {
		t.Errorf("--version printed %q, version %q", again, out)
	}
}

// TestCompletion: each shell's script calls back into clustersim, and
// __complete offers the commands, flags, formats, scenarios and lessons
// that fit what is typed.
func TestCompletion(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish"} {
		code, out, errOut := runMain("completion", sh)
		if code != exitOK || !strings.Contains(out, "clustersim __complete") {
			t.Errorf("completion %s: exit %d, %q %s", sh, code, out, errOut)
		}
	}
	if code, _, _ := runMain("completion", "tcsh"); code != exitBadInput {
		t.Errorf("completion tcsh: exit %d, want %d", code, exitBadInput)
	}
	tests := []struct {
		words []string
		want  string
	}{
		{[]string{"ru"}, "run\n"},
		{[]string{"c"}, "compare\ncompletion\n"},
		{[]string{"sw"}, "sweep\n"},
		{[]string{"sweep", "-o", ""}, "table\ncsv\njson\nmarkdown\n"},
		{[]string{"generate", ""}, "scale\n"},
		{[]string{"run", "--se"}, "--seed\n--seeds\n"},
		{[]string{"run", "-o", "w"}, "wide\n"},
		{[]string{"lesson", "-o", ""}, "table\nwide\nmarkdown\n"},
		{[]string{"run", "node-f"}, "node-failure\n"},
		{[]string{"lesson", "defaults-trap"}, "defaults-trap\ndefaults-trap-fixed\n"},
		{[]string{"explain", "1"}, "1\n10\n11\n12\n13\n14\n15\n16\n"},
		{[]string{"run", "--seeds", ""}, ""},      // a number: nothing to offer
		{[]string{"lesson", "--all", "8"}, "8\n"}, // --all takes no value
		{[]string{"validate", "my"}, ""},          // files: the shell's job
		{[]string{"completion", "f"}, "fish\n"},
	}
	for _, tc := range tests {
		code, out, _ := runMain(append([]string{"__complete"}, tc.words...)...)
		if code != exitOK || out != tc.want {
			t.Errorf("__complete %q: exit %d, %q; want %q", tc.words, code, out, tc.want)
		}
	}
}

// TestStdin (its file references reach the repository through --root, as
// they are confined to the scenario's directory, here the working one):
// "-" reads a scenario (clustersim run -, sweep -, validate -) or
// manifests (validate -) from standard input.
func TestStdin(t *testing.T) {
	scenario := `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: from-stdin, summary: read from standard input}
spec:
  duration: 2m
  cluster:
    nodeGroups:
    - {name: worker, count: 2, capacity: {cpu: "4", memory: 16Gi}}
  objects:
  - file: ../../testdata/kubernetes-docs/nginx-deployment.yaml
  expect:
  - pods: {selector: app.kubernetes.io/name=nginx, phase: Running, equals: 3, within: 1m}
`
	tests := []struct {
		args  []string
		input string
		code  int
		want  string
	}{
		{[]string{"run", "-", "--root", "../.."}, scenario, exitOK, "scenario from-stdin, seed"},
		{[]string{"run", "-", "--root", "../..", "--seeds", "2", "--jobs", "2"}, scenario, exitOK, "scenario from-stdin, 2 seeds"},
		{[]string{"sweep", "-", "--root", "../..", "--set", "spec.duration=2m,3m", "--seeds", "1"}, scenario, exitOK, "Sweep of <stdin>: 2 grid point(s)"},
		{[]string{"run", "-", "--root", "testdata"}, scenario, exitBadInput, "<stdin>: the current directory is not inside --root testdata"},
		{[]string{"sweep", "-", "--root", "testdata", "--set", "spec.duration=2m"}, scenario, exitBadInput, "<stdin>: the current directory is not inside --root testdata"},
		{[]string{"validate", "-", "--root", "../.."}, scenario, exitOK, "<stdin>: scenario from-stdin valid (1 objects, 0 steps, 1 expectations)"},
		{[]string{"validate", "-"}, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: b}\n", exitOK, "<stdin>: 1 object(s) valid"},
		{[]string{"validate", "-"}, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\nspec: {}\n", exitBadInput, "<stdin>:4:1"},
	}
	for _, tc := range tests {
		stdin.Lock()
		stdin.r, stdin.read = strings.NewReader(tc.input), false
		stdin.Unlock()
		code, out, errOut := runMain(tc.args...)
		if code != tc.code || !strings.Contains(out+errOut, tc.want) {
			t.Errorf("%q: exit %d, want %d and %q in\n%s%s", tc.args, code, tc.code, tc.want, out, errOut)
		}
	}
}

// zeros is a reader of n zero bytes that counts what was read of it.
type zeros struct{ n, read int64 }

func (z *zeros) Read(p []byte) (int, error) {
	if z.read >= z.n {
		return 0, io.EOF
	}
	k := min(int64(len(p)), z.n-z.read)
	clear(p[:k])
	z.read += k
	return int(k), nil
}

// TestStdinCap: standard input over the file-bytes cap is refused (exit
// 2, the cap named) after reading no more than the cap and a buffer's
// worth, so an endless pipe cannot take unbounded memory.
func TestStdinCap(t *testing.T) {
	const limit = 1 << 10
	z := &zeros{n: 64 << 20}
	stdin.Lock()
	stdin.r, stdin.read = z, false
	stdin.Unlock()
	code, out, errOut := runMain("validate", "-", "--limit", fmt.Sprintf("file-bytes=%d", limit))
	if code != exitBadInput || !strings.Contains(errOut, "<stdin>: its size exceeds the file-bytes limit of 1024") {
		t.Errorf("exit %d, want %d and the cap named in\n%s%s", code, exitBadInput, out, errOut)
	}
	if z.read > 1<<20 {
		t.Errorf("read %d bytes of standard input under a cap of %d", z.read, limit)
	}
}

// TestQuiet: --quiet prints the verdict alone, for one seed or many, and
// refuses -o.
func TestQuiet(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"run", "-q", "rolling-update"}, exitOK, "PASS rolling-update seed 1: 6 of 6 expectations held\n"},
		{[]string{"run", "--quiet", "rolling-update", "--seeds", "2"}, exitOK, "PASS rolling-update: every expectation held on 2 seeds\n"},
		{[]string{"run", "-q", "-o", "json", "rolling-update"}, exitBadInput, ""},
	}
	for _, tc := range tests {
		code, out, errOut := runMain(tc.args...)
		if code != tc.code || out != tc.want {
			t.Errorf("%q: exit %d, %q (%s); want %d, %q", tc.args, code, out, errOut, tc.code, tc.want)
		}
	}
}
