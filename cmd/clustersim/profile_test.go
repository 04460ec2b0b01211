package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProfilesFromEnvironment runs a command under each whole-command
// profile the environment can ask for and checks that the file holds
// what its reader expects (a gzipped pprof profile, an execution trace's
// header), and that a path that cannot be created is reported while the
// command still runs.
func TestProfilesFromEnvironment(t *testing.T) {
	tests := []struct {
		env   string
		magic []byte
	}{
		{cpuProfileEnv, []byte{0x1f, 0x8b}},
		{execTraceEnv, []byte("go 1.")},
	}
	for _, tc := range tests {
		t.Run(tc.env, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "out")
			t.Setenv(tc.env, path)
			stop := startProfiles()
			code, _, errOut := runMain("demo", "--seed", "1")
			stop()
			if code != exitOK {
				t.Fatalf("exit %d, stderr %s", code, errOut)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(got, tc.magic) {
				t.Errorf("%s wrote %d bytes starting %q, want a file starting %q", tc.env, len(got), got[:min(len(got), 8)], tc.magic)
			}
		})
		t.Run(tc.env+"/bad-path", func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "missing", "out")
			t.Setenv(tc.env, path)
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			saved := os.Stderr
			os.Stderr = w
			stop := startProfiles()
			os.Stderr = saved
			w.Close()
			var msg bytes.Buffer
			msg.ReadFrom(r)
			code, _, errOut := runMain("demo", "--seed", "1")
			stop()
			if code != exitOK {
				t.Fatalf("exit %d, stderr %s", code, errOut)
			}
			if !strings.Contains(msg.String(), tc.env) || !strings.Contains(msg.String(), "missing") {
				t.Errorf("stderr %q does not name %s and the path", msg.String(), tc.env)
			}
		})
	}
}
