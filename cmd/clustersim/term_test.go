package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/creack/pty"
)

// TestMain runs the tests with no $COLUMNS (a developer's shell may export
// one, and the golden files hold unfitted output); with
// CLUSTERSIM_AS_MAIN=1 the test binary is clustersim itself, for tests
// that run the command in a pseudo-terminal.
// TestMain lets the tests run the test binary as clustersim itself
// (CLUSTERSIM_AS_MAIN for the terminal tests, CLUSTERSIM_MAIN for the
// hostile corpus), and keeps the caller's $COLUMNS out of the rest.
func TestMain(m *testing.M) {
	if os.Getenv("CLUSTERSIM_AS_MAIN") == "1" || os.Getenv("CLUSTERSIM_MAIN") == "1" {
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

// TestLessonProgress drives clustersim lesson 8 through a pseudo-terminal:
// stderr being a terminal, it shows a progress bar counting the runs, with
// the rate and the time left (TestLesson checks that a pipe gets none).
func TestLessonProgress(t *testing.T) {
	t.Parallel()
	args := []string{"lesson", "8", "--seeds", "1", "--jobs", "1"}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "CLUSTERSIM_AS_MAIN=1")
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 100, Rows: 40})
	if err != nil {
		t.Fatal(err)
	}
	var screen bytes.Buffer
	_, _ = io.Copy(&screen, tty) // ends with EIO when the command exits
	tty.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("clustersim %s: %v\n%s", strings.Join(args, " "), err, screen.String())
	}
	out := screen.String()
	for _, want := range []string{"lesson 8", "0/2", "1/2", "Lesson 8: The defaults trap"} {
		if !strings.Contains(out, want) {
			t.Errorf("terminal shows no %q:\n%s", want, out)
		}
	}
	if !regexp.MustCompile(`\(1/2, [0-9]+ runs/(s|min|hr)\) \[[0-9hms]+:[0-9hms]+\]`).MatchString(out) {
		t.Errorf("the bar shows no rate and time elapsed:time left:\n%s", out)
	}
}

// TestNotesAboveTheBar: while a progress bar is drawn, a note of the
// process's (the heap governor's, through noteWriter) is written on a
// line of its own: the bar's line erased first, the bar drawn again
// after it; with no bar drawn the note goes straight through.
func TestNotesAboveTheBar(t *testing.T) {
	var out bytes.Buffer
	p := newBar(&out, 3, "seeds")
	shownProgress.Store(p)
	t.Cleanup(func() { shownProgress.CompareAndSwap(p, nil) })
	p.add()
	const note = "clustersim: the simulation's live heap is near the limit\n"
	drawn := out.Len()
	if _, err := (noteWriter{&out}).Write([]byte(note)); err != nil {
		t.Fatal(err)
	}
	got := out.String()[drawn:]
	before, after, ok := strings.Cut(got, note)
	if !ok {
		t.Fatalf("the note is not written whole: %q", got)
	}
	if !strings.HasSuffix(before, "\x1b[2K\r") { // erase the line, back to its start
		t.Errorf("the bar's line is not erased before the note: %q", before)
	}
	if !strings.Contains(after, "seeds") || !strings.Contains(after, "1/3") {
		t.Errorf("the bar is not drawn again after the note: %q", after)
	}
	p.done()
	if shownProgress.Load() != nil {
		t.Fatal("a finished bar is still the one shown")
	}
	out.Reset()
	if _, err := (noteWriter{&out}).Write([]byte(note)); err != nil || out.String() != note {
		t.Errorf("with no bar, the note is written as %q (%v), want %q", out.String(), err, note)
	}
}
