package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// runShards runs the command in 4 processes, shard i of 4 each (the test
// binary standing in for clustersim), writes their outputs to files and
// returns the files.
func runShards(t *testing.T, args ...string) []string {
	t.Helper()
	dir := t.TempDir()
	files := make([]string, 4)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range 4 {
		files[i] = filepath.Join(dir, "shard-"+strconv.Itoa(i)+".json")
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Clipped: the four goroutines appending to args's spare
			// capacity at once gave one shard another's --shard (seen
			// once in CI: "shard-0.json and shard-2.json are both shard
			// 2/4", for the csv sweep, whose args come from an append).
			cmd := exec.Command(os.Args[0], append(slices.Clip(args), "--shard", strconv.Itoa(i)+"/4")...)
			cmd.Env = append(os.Environ(), "CLUSTERSIM_MAIN=1")
			var out, errOut bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errOut
			if errs[i] = cmd.Run(); errs[i] == nil {
				errs[i] = os.WriteFile(files[i], out.Bytes(), 0o644)
			} else {
				t.Logf("shard %d: %s", i, errOut.String())
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("shard %d/4: %v", i, err)
		}
	}
	return files
}

// TestShardMerge: run --seeds, sweep and lesson split over 4 processes with
// --shard I/4, merged, print byte for byte what one process prints (with
// the same exit code), in the output format of their command line; merge
// refuses a missing or repeated shard.
func TestShardMerge(t *testing.T) {
	t.Parallel()
	sweepArgs := []string{"sweep", autoscaleScenario, "--set", "spec.cluster.nodeGroups[0].autoscaling.maxSize=1..3", "--seeds", "3",
		"--find-min", "spec.cluster.nodeGroups[0].autoscaling.maxSize", "--share", "0.4"}
	tests := [][]string{
		{"run", "rolling-update", "--seeds", "6", "--until", "1m"},
		{"run", "rolling-update", "--seeds", "6", "--until", "1m", "-o", "json"},
		sweepArgs,
		append(append([]string(nil), sweepArgs...), "-o", "csv"),
		{"lesson", "3", "--seeds", "3"},
	}
	for _, args := range tests {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			files := runShards(t, args...)
			wantCode, want, _ := runMain(args...)
			code, got, errOut := runMain(append([]string{"merge"}, files...)...)
			if code != wantCode || got != want {
				t.Errorf("merge: exit %d, stdout\n%s\nwant exit %d, stdout\n%s\n(stderr %s)", code, got, wantCode, want, errOut)
			}
			code, _, errOut = runMain("merge", files[0], files[1], files[3])
			if code != exitBadInput || !strings.Contains(errOut, "missing shard(s) 2/4") {
				t.Errorf("merge without shard 2: exit %d, %q", code, errOut)
			}
			code, _, errOut = runMain("merge", files[0], files[1], files[1], files[2], files[3])
			if code != exitBadInput || !strings.Contains(errOut, "are both shard 1/4") {
				t.Errorf("merge with shard 1 twice: exit %d, %q", code, errOut)
			}
		})
	}
}
