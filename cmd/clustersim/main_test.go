package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// golden compares got with testdata/golden/<name> at the module root, or
// rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("..", "..", "testdata", "golden", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/clustersim -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file; run with -update and read the diff\ngot:\n%s", name, got)
	}
}

func runMain(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = Main(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestDemoGolden(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		golden string
	}{
		{"table", []string{"demo", "--seed", "1"}, "demo-seed1.txt"},
		{"json", []string{"demo", "--seed", "1", "-o", "json"}, "demo-seed1.json"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runMain(tc.args...)
			if code != exitOK {
				t.Fatalf("exit %d, stderr %s", code, errOut)
			}
			golden(t, tc.golden, []byte(out))
			// The same seed again gives the same bytes.
			if _, again, _ := runMain(tc.args...); again != out {
				t.Errorf("second run differs")
			}
		})
	}
}

func TestValidateBrokenManifests(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "..", "testdata", "broken-manifests", "*.yaml"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no broken manifests found: %v", err)
	}
	var all strings.Builder
	for _, p := range paths {
		code, out, errOut := runMain("validate", p)
		if code != exitBadInput {
			t.Errorf("%s: exit %d, want %d", p, code, exitBadInput)
		}
		if out != "" {
			t.Errorf("%s: printed %q on stdout", p, out)
		}
		if !strings.HasPrefix(errOut, p+":") {
			t.Errorf("%s: error does not start with the file name: %q", p, errOut)
		}
		all.WriteString(strings.ReplaceAll(errOut, filepath.Join("..", "..")+string(filepath.Separator), ""))
	}
	golden(t, "validate-broken-manifests.txt", []byte(all.String()))
}

func TestValidateExamples(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "kubernetes-docs", "*.yaml"))
	if len(paths) < 7 {
		t.Fatalf("found %d example manifests, want the 7 from the Kubernetes docs", len(paths))
	}
	code, out, errOut := runMain(append([]string{"validate"}, paths...)...)
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	if got := strings.Count(out, "valid\n"); got != len(paths) {
		t.Errorf("%d files reported valid, want %d:\n%s", got, len(paths), out)
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want int
	}{
		{[]string{"frobnicate"}, exitBadInput},
		{[]string{"run", "--seed", "x"}, exitBadInput},
		{[]string{"run", "-o", "yaml"}, exitBadInput},
		{[]string{"run", "a", "b"}, exitBadInput},
		{[]string{"run", "no-such-scenario"}, exitBadInput},
		{[]string{"run", "--until", "-1s"}, exitBadInput},
		{[]string{"demo", "extra"}, exitBadInput},
		{[]string{"demo", "--duration", "1m"}, exitBadInput},
		{[]string{"explain"}, exitBadInput},
		{[]string{"explain", "no-such-scenario"}, exitBadInput},
		{[]string{"validate"}, exitBadInput},
		{[]string{"validate", "no/such/file.yaml"}, exitBadInput},
		{[]string{"help"}, exitOK},
	}
	for _, tc := range tests {
		if code, _, _ := runMain(tc.args...); code != tc.want {
			t.Errorf("%v: exit %d, want %d", tc.args, code, tc.want)
		}
	}
}
