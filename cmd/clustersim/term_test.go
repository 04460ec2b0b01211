package main

import (
	"os"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestMain runs the tests with no $COLUMNS (a developer's shell may export
// one, and the golden files hold unfitted output); with
// CLUSTERSIM_AS_MAIN=1 the test binary is clustersim itself, for tests
// that run the command in a pseudo-terminal.
func TestMain(m *testing.M) {
	if os.Getenv("CLUSTERSIM_AS_MAIN") == "1" {
		os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Unsetenv("COLUMNS")
	os.Exit(m.Run())
}

// TestColumns: with $COLUMNS set, the text report fits; without it (a
// pipe), it keeps its long lines; -o wide never fits.
func TestColumns(t *testing.T) {
	tests := []struct {
		columns string
		args    []string
		fits    int // 0: some line must be wider than 100
	}{
		{"100", []string{"run", "rolling-update"}, 100},
		{"80", []string{"run", "rolling-update"}, 80},
		{"100", []string{"run", "self-healing"}, 100},
		{"", []string{"run", "rolling-update"}, 0},
		{"100", []string{"run", "rolling-update", "-o", "wide"}, 0},
		{"100", []string{"run", "rolling-update", "--seeds", "2", "--jobs", "1"}, 100},
	}
	for _, tc := range tests {
		t.Run(tc.columns+" "+strings.Join(tc.args, " "), func(t *testing.T) {
			t.Setenv("COLUMNS", tc.columns)
			code, out, errOut := runMain(tc.args...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			widest := 0
			for l := range strings.SplitSeq(out, "\n") {
				widest = max(widest, utf8.RuneCountInString(l))
				if tc.fits > 0 && utf8.RuneCountInString(l) > tc.fits {
					t.Errorf("line of %d columns: %q", utf8.RuneCountInString(l), l)
				}
			}
			if tc.fits == 0 && widest <= 100 {
				t.Errorf("widest line %d columns: want the report unfitted", widest)
			}
		})
	}
}
