package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets the test binary stand in for clustersim: with
// CLUSTERSIM_MAIN=1 in its environment it runs Main on its arguments, so
// that the hostile-input corpus runs each case in a process of its own
// and measures its CPU time and peak memory.
// Budgets every case of testdata/hostile must stay within, refused or run.
const (
	hostileCPU    = time.Second
	hostileMaxRSS = 100 << 20
)

// hostileCase is one file of testdata/hostile (or a directory holding
// scenario.yaml), read from its header comments:
//
//	# args: validate {file}          (one line per command to try; {file} is the case's path)
//	# exit: 2
//	# want: {file}:9:14: spec...     (a substring stderr must hold)
//	# repeat: N "text"               (the line #REPEAT is replaced by N copies of text)
//
// Cases with a repeat are written to a temporary directory first, so that
// large inputs need not be committed.
type hostileCase struct {
	name, path string
	args       [][]string
	exit       int
	want       []string
}

func readHostileCase(t *testing.T, name, path string) hostileCase {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := hostileCase{name: name, path: path, exit: -1}
	var repeat string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		key, val, ok := strings.Cut(strings.TrimPrefix(line, "# "), ": ")
		if !ok || !strings.HasPrefix(line, "# ") {
			continue
		}
		switch key {
		case "args":
			c.args = append(c.args, strings.Fields(val))
		case "exit":
			c.exit, _ = strconv.Atoi(val)
		case "want":
			c.want = append(c.want, val)
		case "repeat":
			repeat = val
		}
	}
	if len(c.args) == 0 || c.exit < 0 || len(c.want) == 0 {
		t.Fatalf("%s: the header needs # args:, # exit: and # want: lines", path)
	}
	if repeat != "" {
		nStr, text, _ := strings.Cut(repeat, " ")
		n, err := strconv.Atoi(nStr)
		unq, qerr := strconv.Unquote(text)
		if err != nil || qerr != nil {
			t.Fatalf("%s: bad # repeat: %q", path, repeat)
		}
		// Written piece by piece: the child's peak memory as the kernel
		// reports it includes this process's at the fork, so this
		// process must not hold the big input.
		before, after, ok := strings.Cut(string(data), "#REPEAT\n")
		if !ok {
			t.Fatalf("%s: # repeat: without a #REPEAT line", path)
		}
		c.path = filepath.Join(t.TempDir(), filepath.Base(path))
		f, err := os.Create(c.path)
		if err != nil {
			t.Fatal(err)
		}
		w := bufio.NewWriter(f)
		w.WriteString(before)
		for range n {
			w.WriteString(unq)
		}
		w.WriteString(after)
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// TestHostileInputs runs every case of testdata/hostile in its own
// process and checks its exit code and message, and that it stayed within
// hostileCPU of CPU time and hostileMaxRSS of memory.
func TestHostileInputs(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "hostile")
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) < 10 {
		t.Fatalf("found %d hostile cases: %v", len(entries), err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		if e.IsDir() {
			path = filepath.Join(path, "scenario.yaml")
		} else if !strings.HasSuffix(e.Name(), ".yaml") {
			continue
		}
		c := readHostileCase(t, e.Name(), path)
		for _, args := range c.args {
			t.Run(c.name+"/"+args[0], func(t *testing.T) {
				file := c.path
				if args[0] == "run-manifest" {
					// The same manifest, loaded by a scenario that runs it.
					file, args = runManifest(t, c.path)
				}
				for i := range args {
					args[i] = strings.ReplaceAll(args[i], "{file}", file)
				}
				cmd := exec.Command(self, args...)
				cmd.Env = append(os.Environ(), "CLUSTERSIM_MAIN=1")
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				cmd.Stdout = &stderr
				err := cmd.Run()
				code := 0
				if err != nil {
					ee, ok := err.(*exec.ExitError)
					if !ok {
						t.Fatal(err)
					}
					code = ee.ExitCode()
				}
				if code != c.exit {
					t.Errorf("exit %d, want %d; output:\n%s", code, c.exit, stderr.String())
				}
				for _, w := range c.want {
					w = strings.ReplaceAll(w, "{file}", file)
					if !strings.Contains(stderr.String(), w) {
						t.Errorf("output does not hold %q:\n%s", w, stderr.String())
					}
				}
				for _, secret := range []string{"root:x:0:0", "/bin/bash", "/usr/sbin/nologin"} {
					if strings.Contains(stderr.String(), secret) {
						t.Errorf("output quotes a file outside the scenario's folder (%q):\n%s", secret, stderr.String())
					}
				}
				st := cmd.ProcessState
				cpu := st.UserTime() + st.SystemTime()
				if cpu > hostileCPU {
					t.Errorf("took %v of CPU time, more than %v", cpu, hostileCPU)
				}
				if ru, ok := st.SysUsage().(*syscall.Rusage); ok && ru.Maxrss*1024 > hostileMaxRSS {
					t.Errorf("peaked at %d MB, more than %d MB", ru.Maxrss>>10, hostileMaxRSS>>20)
				}
				if testing.Verbose() {
					if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
						fmt.Printf("%s %v: %v CPU, %d MB\n", c.name, args[0], cpu, ru.Maxrss>>10)
					}
				}
			})
		}
	}
}

// runManifest copies the manifest at path next to a scenario that names it
// in spec.objects, and returns the copy's path as the scenario names it in
// errors, and the arguments that run the scenario.
func runManifest(t *testing.T, path string) (string, []string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	base := filepath.Base(path)
	if err := os.WriteFile(filepath.Join(dir, base), data, 0o644); err != nil {
		t.Fatal(err)
	}
	scenario := filepath.Join(dir, "scenario.yaml")
	src := `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata:
  name: run-manifest
spec:
  duration: 1m
  cluster:
    nodeGroups:
    - {name: worker, count: 1, capacity: {cpu: "2", memory: 4Gi}}
  objects:
  - file: ` + base + "\n"
	if err := os.WriteFile(scenario, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, base), []string{"run", scenario}
}
