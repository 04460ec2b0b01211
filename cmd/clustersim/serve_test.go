package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/cluster"
)

// syncBuffer is a bytes.Buffer safe for one writer and concurrent readers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// kubectlBinary finds the real kubectl, or skips (fails under CI=true,
// where .ci/run's machines have it).
func kubectlBinary(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("kubectl"); err == nil {
		return p
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("kubectl is not installed; under CI=true the kubectl test must run (install kubectl 1.32)")
	}
	t.Skip("kubectl not installed: skipping the test that drives the real kubectl against clustersim serve")
	return ""
}

// served is a clustersim serve started by a test.
type served struct {
	t          *testing.T
	kubectl    string
	dir        string
	kubeconfig string
	server     string
	token      string
	stderr     *syncBuffer
	code       chan int
}

// startServe runs clustersim serve with args in the background and waits
// for its kubeconfig.
func startServe(t *testing.T, args ...string) *served {
	t.Helper()
	return startServeFor(t, kubectlBinary(t), args...)
}

// startServeFor is startServe for a test that runs kubectl (its path) or
// not ("": the test speaks HTTP itself).
func startServeFor(t *testing.T, kubectl string, args ...string) *served {
	t.Helper()
	s := &served{t: t, kubectl: kubectl, dir: t.TempDir(), stderr: &syncBuffer{}, code: make(chan int, 1)}
	s.kubeconfig = filepath.Join(s.dir, "kubeconfig")
	go func() {
		s.code <- Main(append([]string{"serve", "--kubeconfig", s.kubeconfig}, args...), io.Discard, s.stderr)
	}()
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, err := os.ReadFile(s.kubeconfig)
		if err == nil && bytes.Contains(b, []byte("token:")) {
			s.server = regexp.MustCompile(`server: (\S+)`).FindStringSubmatch(string(b))[1]
			s.token = regexp.MustCompile(`token: (\S+)`).FindStringSubmatch(string(b))[1]
			break
		}
		select {
		case c := <-s.code:
			t.Fatalf("clustersim serve exited with %d before writing its kubeconfig:\n%s", c, s.stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no kubeconfig after 30s:\n%s", s.stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Cleanup(func() { s.stop() })
	return s
}

// command returns a kubectl command against the server.
func (s *served) command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, s.kubectl, append([]string{"--cache-dir", filepath.Join(s.dir, "cache")}, args...)...)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+s.kubeconfig, "HOME="+s.dir)
	return cmd
}

// run runs kubectl and returns its standard output; a failure fails the
// test.
func (s *served) run(args ...string) string {
	s.t.Helper()
	out, _ := s.runBoth(args...)
	return out
}

// fail runs kubectl, which must fail, and returns its standard error.
func (s *served) fail(args ...string) string {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := s.command(ctx, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if out, err := cmd.Output(); err == nil {
		s.t.Fatalf("kubectl %s succeeded; want a failure:\n%s", strings.Join(args, " "), out)
	}
	return stderr.String()
}

// client is an HTTPS client that trusts any certificate (the tests check
// the server's answers, not its certificate).
func (s *served) client() *http.Client {
	return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
}

func (s *served) post(path, token string, body io.Reader) *http.Response {
	s.t.Helper()
	req, err := http.NewRequest(http.MethodPost, s.server+path, body)
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := s.client().Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	return resp
}

// stop asks the server to stop and returns its exit code (once).
func (s *served) stop() int {
	if s.code == nil {
		return 0
	}
	resp, err := s.client().Do(mustRequest(s.t, http.MethodPost, s.server+"/clustersim/stop", s.token))
	if err == nil {
		resp.Body.Close()
	}
	var c int
	select {
	case c = <-s.code:
	case <-time.After(30 * time.Second):
		s.t.Errorf("clustersim serve did not stop within 30s")
	}
	s.code = nil
	return c
}

func mustRequest(t *testing.T, method, url, token string) *http.Request {
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	return req
}

// columns splits a kubectl table line into its cells: kubectl separates
// columns by at least three spaces (two for the last padding), while a
// header such as "NOMINATED NODE" has one.
func columns(line string) []string {
	return regexp.MustCompile(`\s{2,}`).Split(strings.TrimSpace(line), -1)
}

// table returns a kubectl table's header cells and rows.
func table(t *testing.T, out string) (header []string, rows [][]string) {
	t.Helper()
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) == 0 || lines[0] == "" {
		t.Fatalf("no table in %q", out)
	}
	for _, l := range lines[1:] {
		rows = append(rows, columns(l))
	}
	return columns(lines[0]), rows
}

func wantHeader(t *testing.T, what, out string, want ...string) [][]string {
	t.Helper()
	got, rows := table(t, out)
	if !slices.Equal(got, want) {
		t.Fatalf("%s: header %q, want %q (kubectl against a real cluster)\n%s", what, got, want, out)
	}
	return rows
}

// TestKubectl drives the real kubectl against clustersim serve: reads
// (get, -o wide, describe, get -w, events) print the columns kubectl
// prints against a real cluster, and writes (apply, scale, set image,
// rollout status and undo, delete, cordon) go through and converge.
func TestKubectl(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	recording := filepath.Join(dir, "recorded.yaml")
	s := startServe(t, filepath.Join("..", "..", "testdata", "serve", "three-nodes.yaml"), "--speed", "100", "--record", recording)
	if !strings.HasPrefix(s.server, "https://127.0.0.1:") {
		t.Errorf("serve listens on %s; want 127.0.0.1 by default", s.server)
	}

	rows := wantHeader(t, "get nodes", s.run("get", "nodes"), "NAME", "STATUS", "ROLES", "AGE", "VERSION")
	if len(rows) != 3 || rows[0][0] != "worker-1" || rows[0][1] != "Ready" || rows[0][2] != "<none>" {
		t.Errorf("get nodes rows: %q", rows)
	}
	// A role is a label of an empty value: the patch that adds only it
	// is a change, stored (it was once taken for a no-op).
	if out := s.run("label", "node", "worker-1", "node-role.kubernetes.io/worker="); out != "node/worker-1 labeled\n" {
		t.Errorf("label: %q", out)
	}
	rows = wantHeader(t, "get nodes", s.run("get", "nodes"), "NAME", "STATUS", "ROLES", "AGE", "VERSION")
	if len(rows) != 3 || rows[0][0] != "worker-1" || rows[0][2] != "worker" {
		t.Errorf("get nodes rows after the role label: %q", rows)
	}

	manifest := filepath.Join("..", "..", "testdata", "kubernetes-docs", "nginx-deployment.yaml")
	if out := s.run("apply", "-f", manifest); out != "deployment.apps/nginx-deployment created\n" {
		t.Errorf("apply: %q", out)
	}
	if out := s.run("rollout", "status", "deployment/nginx-deployment", "--timeout=5m"); !strings.HasSuffix(out, "deployment \"nginx-deployment\" successfully rolled out\n") {
		t.Errorf("rollout status: %q", out)
	}
	rows = wantHeader(t, "get deploy", s.run("get", "deploy"), "NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE")
	if len(rows) != 1 || !slices.Equal(rows[0][:4], []string{"nginx-deployment", "3/3", "3", "3"}) {
		t.Errorf("get deploy rows: %q", rows)
	}
	rows = wantHeader(t, "get pods -o wide", s.run("get", "pods", "-o", "wide"), "NAME", "READY", "STATUS", "RESTARTS", "AGE", "IP", "NODE", "NOMINATED NODE", "READINESS GATES")
	if len(rows) != 3 {
		t.Fatalf("get pods -o wide: %d rows, want 3: %q", len(rows), rows)
	}
	for _, r := range rows {
		if r[1] != "1/1" || r[2] != "Running" || !strings.HasPrefix(r[6], "worker-") {
			t.Errorf("get pods -o wide row %q", r)
		}
	}
	first := rows[0][0]
	desc := s.run("describe", "deploy", "nginx-deployment")
	for _, want := range []string{
		"Name:                   nginx-deployment\n",
		"Replicas:               3 desired | 3 updated | 3 total | 3 available | 0 unavailable\n",
		"StrategyType:           RollingUpdate\n",
		"    Image:         nginx:1.14.2\n",
		"NewReplicaSet:   nginx-deployment-",
		"ScalingReplicaSet",
	} {
		if !strings.Contains(desc, want) {
			t.Errorf("describe deploy lacks %q:\n%s", want, desc)
		}
	}

	// get pods -w, for the virtual seconds the writes below take.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	watch := s.command(ctx, "get", "pods", "-w")
	var watched syncBuffer
	watch.Stdout = &watched
	if err := watch.Start(); err != nil {
		t.Fatal(err)
	}

	if out := s.run("scale", "deploy", "nginx-deployment", "--replicas=4"); out != "deployment.apps/nginx-deployment scaled\n" {
		t.Errorf("scale: %q", out)
	}
	if out := s.run("set", "image", "deployment/nginx-deployment", "nginx=nginx:1.16.1"); out != "deployment.apps/nginx-deployment image updated\n" {
		t.Errorf("set image: %q", out)
	}
	if out := s.run("rollout", "status", "deployment/nginx-deployment", "--timeout=5m"); !strings.HasSuffix(out, "deployment \"nginx-deployment\" successfully rolled out\n") {
		t.Errorf("rollout status: %q", out)
	}
	if out := s.run("rollout", "undo", "deployment/nginx-deployment"); out != "deployment.apps/nginx-deployment rolled back\n" {
		t.Errorf("rollout undo: %q", out)
	}
	s.run("rollout", "status", "deployment/nginx-deployment", "--timeout=5m")
	if out := s.run("get", "deploy", "nginx-deployment", "-o", "jsonpath={.spec.template.spec.containers[0].image} {.status.availableReplicas}"); out != "nginx:1.14.2 4" {
		t.Errorf("after rollout undo: image and available replicas %q, want nginx:1.14.2 4", out)
	}
	pod := strings.Fields(s.run("get", "pods", "-o", "name", "--sort-by=.metadata.name"))[0]
	if out := s.run("delete", pod); out != "pod \""+strings.TrimPrefix(pod, "pod/")+"\" deleted\n" {
		t.Errorf("delete pod: %q", out)
	}
	if out := s.run("cordon", "worker-1"); out != "node/worker-1 cordoned\n" {
		t.Errorf("cordon: %q", out)
	}
	rows = wantHeader(t, "get nodes", s.run("get", "nodes"), "NAME", "STATUS", "ROLES", "AGE", "VERSION")
	if rows[0][1] != "Ready,SchedulingDisabled" {
		t.Errorf("worker-1 after cordon: %q", rows[0])
	}
	rows = wantHeader(t, "get events", s.run("get", "events"), "LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE")
	var reasons []string
	for _, r := range rows {
		reasons = append(reasons, r[2])
	}
	for _, want := range []string{"Scheduled", "Pulled", "Started", "ScalingReplicaSet", "Killing"} {
		if !slices.Contains(reasons, want) {
			t.Errorf("get events: no %s event among %q", want, reasons)
		}
	}

	cancel()
	watch.Wait()
	rows = wantHeader(t, "get pods -w", watched.String(), "NAME", "READY", "STATUS", "RESTARTS", "AGE")
	if len(rows) < 10 {
		t.Errorf("get pods -w printed %d rows over the rollouts; want a row per change:\n%s", len(rows), watched.String())
	}
	deleted := strings.TrimPrefix(pod, "pod/")
	seen := false
	for _, r := range rows {
		seen = seen || r[0] == deleted && r[2] == "Terminating"
	}
	if !seen {
		t.Errorf("get pods -w never showed %s Terminating:\n%s", deleted, watched.String())
	}
	_ = first

	// What is not served is refused, never half done: a server-side dry
	// run would be a real write, and protobuf bodies are not read.
	if out := s.fail("apply", "--dry-run=server", "-f", manifest); !strings.Contains(out, "dryRun is not supported by clustersim serve") {
		t.Errorf("apply --dry-run=server: %q", out)
	}
	if out := s.fail("create", "deployment", "other", "--image=nginx:1.14.2"); !strings.Contains(out, `clustersim serve does not read "application/vnd.kubernetes.protobuf"`) {
		t.Errorf("create deployment (a protobuf body): %q", out)
	}

	// Safety: no token, a wrong token, a body over the cap.
	for _, token := range []string{"", "wrong"} {
		resp := s.post("/api/v1/namespaces/default/configmaps", token, strings.NewReader(`{}`))
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(string(b), `"reason":"Unauthorized"`) {
			t.Errorf("token %q: %d %s; want 401 Unauthorized", token, resp.StatusCode, b)
		}
	}
	resp := s.post("/api/v1/namespaces/default/configmaps", s.token, bytes.NewReader(make([]byte, 3<<20+1)))
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(b), "Request entity too large: limit is 3145728") {
		t.Errorf("a body of 3 MiB + 1: %d %s; want 413", resp.StatusCode, b)
	}
	if c := s.stop(); c != 0 {
		t.Fatalf("serve exited with %d:\n%s", c, s.stderr.String())
	}
	checkReplay(t, recording, s.stderr.String())
}

// checkReplay runs a recording twice with clustersim run (byte-identical
// reports) and once more through the runner to compare its final state
// with the one clustersim serve reported when it stopped.
func checkReplay(t *testing.T, recording, serveLog string) {
	t.Helper()
	m := regexp.MustCompile(`(\d+) by kubectl; final state (sha256:[0-9a-f]+)`).FindStringSubmatch(serveLog)
	if m == nil {
		t.Fatalf("serve did not report its final state:\n%s", serveLog)
	}
	var first string
	for i := range 2 {
		var out, errb bytes.Buffer
		if c := Main([]string{"run", recording, "-o", "json"}, &out, &errb); c != 0 {
			data, _ := os.ReadFile(recording)
			t.Fatalf("clustersim run of the recording exited with %d:\n%s\n%s\nthe recording:\n%s", c, errb.String(), out.String(), data)
		}
		if i == 0 {
			first = out.String()
		} else if out.String() != first {
			t.Errorf("two replays of the recording differ")
		}
	}
	s, err := scenarios.LoadFile(recording)
	if err != nil {
		t.Fatal(err)
	}
	var c *cluster.Cluster
	if _, err := runner.Run(s, runner.Options{OnStart: func(cc *cluster.Cluster) { c = cc }}); err != nil {
		t.Fatal(err)
	}
	got, err := c.StateHash()
	if err != nil {
		t.Fatal(err)
	}
	if got != m[2] {
		t.Errorf("the replay ends in state %s; serve ended in %s", got, m[2])
	}
	var writes int
	for _, a := range c.Store.Audit().Records() {
		if a.Actor == "kubectl" {
			writes++
		}
	}
	if strconv.Itoa(writes) != m[1] {
		t.Errorf("the replay made %d writes as kubectl; serve made %s", writes, m[1])
	}
}

// TestServeListen: loopback by default, and a warning for any other
// address (whose kubeconfig still reaches the server on loopback).
func TestServeListen(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		listen, warning string
	}{
		{"", ""},
		{"127.0.0.1:0", ""},
		{"0.0.0.0:0", "warning: --listen 0.0.0.0:0 is not a loopback address"},
	} {
		dir := t.TempDir()
		args := []string{"serve", filepath.Join("..", "..", "testdata", "serve", "three-nodes.yaml"), "--for", "1s", "--speed", "1000", "--kubeconfig", filepath.Join(dir, "kc")}
		if tc.listen != "" {
			args = append(args, "--listen", tc.listen)
		}
		var stderr bytes.Buffer
		if c := Main(args, io.Discard, &stderr); c != 0 {
			t.Fatalf("%v: exit %d\n%s", args, c, stderr.String())
		}
		if got := strings.Contains(stderr.String(), "warning:"); got != (tc.warning != "") || tc.warning != "" && !strings.Contains(stderr.String(), tc.warning) {
			t.Errorf("--listen %q: stderr %q, want warning %q", tc.listen, stderr.String(), tc.warning)
		}
		kc, err := os.ReadFile(filepath.Join(dir, "kc"))
		if err != nil {
			t.Fatal(err)
		}
		if !regexp.MustCompile(`server: https://127\.0\.0\.1:\d+\n`).Match(kc) {
			t.Errorf("--listen %q: kubeconfig server is not https://127.0.0.1:PORT:\n%s", tc.listen, kc)
		}
		if fi, _ := os.Stat(filepath.Join(dir, "kc")); fi.Mode().Perm() != 0o600 {
			t.Errorf("--listen %q: kubeconfig mode %v, want 0600", tc.listen, fi.Mode().Perm())
		}
	}
}

// TestKubectlDrain drives the real kubectl drain against clustersim serve
// on a budget that allows no disruption (minAvailable 3 of 3): kubectl
// finds the eviction subresource in discovery, posts Evictions, gets 429
// with Kubernetes' message, retries after 5 s and gives up at --timeout.
// The recording of the session (cordon, the refused evictions) replays to
// the same state. (Planted: without pods/eviction in discovery kubectl
// deletes the pod instead, and the drain succeeds.)
func TestKubectlDrain(t *testing.T) {
	t.Parallel()
	recording := filepath.Join(t.TempDir(), "recorded.yaml")
	s := startServe(t, filepath.Join("..", "..", "testdata", "serve", "budget.yaml"), "--speed", "5", "--record", recording)
	defer s.stop()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(s.run("get", "pdb", "zk-pdb"), "zk-pdb   3               N/A               0") || strings.Count(s.run("get", "pods"), "Running") < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("the pods and the budget were not ready: %s", s.run("get", "pdb,pods"))
		}
		time.Sleep(200 * time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, err := s.command(ctx, "drain", "worker-1", "--timeout=1s").CombinedOutput()
	if err == nil {
		t.Fatalf("kubectl drain succeeded through a budget that allows no disruption:\n%s", out)
	}
	for _, want := range []string{
		"node/worker-1 cordoned",
		`(will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.`,
		"global timeout reached: 1s",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("kubectl drain printed\n%s\nwant it to contain %q", out, want)
		}
	}
	if c := s.stop(); c != 0 {
		t.Fatalf("serve exited with %d:\n%s", c, s.stderr.String())
	}
	data, err := os.ReadFile(recording)
	if err != nil || !strings.Contains(string(data), "subresource: eviction") {
		t.Errorf("the recording holds no eviction (%v):\n%s", err, data)
	}
	checkReplay(t, recording, s.stderr.String())
}

// TestServeWarnsOfUnsimulatedFields: an object written through serve
// whose fields the simulator accepts and does not simulate is answered
// with a Warning header per field (kubectl prints "Warning: ..."), as
// a scenario's load warns of them; before, kubectl apply of an Ingress
// or a postStart hook said nothing. So is an object of a kind whose
// on-demand controller does not run in this run.
func TestServeWarnsOfUnsimulatedFields(t *testing.T) {
	t.Parallel()
	s := startServe(t, "rolling-update", "--speed", "50", "--timeline=false")
	resp := s.post("/apis/networking.k8s.io/v1/namespaces/default/ingresses", s.token, strings.NewReader(
		`{"apiVersion":"networking.k8s.io/v1","kind":"Ingress","metadata":{"name":"web"},"spec":{"defaultBackend":{"service":{"name":"web","port":{"number":80}}}}}`))
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("create: %d %s", resp.StatusCode, b)
	}
	want := `299 - "kind: accepted but not simulated: no ingress controller runs: the Ingress is stored and listed, and routes nothing"`
	if got := resp.Header.Values("Warning"); len(got) != 1 || got[0] != want {
		t.Errorf("Warning headers %q, want [%s]", got, want)
	}
	plain := s.post("/api/v1/namespaces/default/configmaps", s.token, strings.NewReader(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}`))
	defer plain.Body.Close()
	if got := plain.Header.Values("Warning"); plain.StatusCode != http.StatusCreated || len(got) != 0 {
		t.Errorf("a ConfigMap: %d, Warning headers %q, want 201 and none", plain.StatusCode, got)
	}
	// rolling-update holds no PodDisruptionBudget: the disruption
	// controller does not run, and a budget applied through kubectl says
	// so instead of never getting a status.
	pdb := s.post("/apis/policy/v1/namespaces/default/poddisruptionbudgets", s.token, strings.NewReader(
		`{"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"b"},"spec":{"minAvailable":1,"selector":{"matchLabels":{"app":"nginx"}}}}`))
	defer pdb.Body.Close()
	wantPDB := `299 - "kind: accepted but not simulated: the disruption controller does not run in this run (it starts only for a scenario that holds a PodDisruptionBudget, or lists it in spec.controllers): nothing it does happens to this object"`
	if got := pdb.Header.Values("Warning"); pdb.StatusCode != http.StatusCreated || len(got) != 1 || got[0] != wantPDB {
		t.Errorf("a PodDisruptionBudget: %d, Warning headers %q, want 201 and [%s]", pdb.StatusCode, got, wantPDB)
	}
}

// runBoth runs kubectl, which must succeed, and returns its standard
// output and standard error.
func (s *served) runBoth(args ...string) (stdout, stderr string) {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := s.command(ctx, args...)
	var eb bytes.Buffer
	cmd.Stderr = &eb
	out, err := cmd.Output()
	if err != nil {
		s.t.Fatalf("kubectl %s: %v\nstdout:\n%s\nstderr:\n%s\nserve:\n%s", strings.Join(args, " "), err, out, eb.String(), s.stderr.String())
	}
	return string(out), eb.String()
}

// TestKubectlFieldValidation drives the real kubectl's field validation
// against clustersim serve: kubectl apply (--validate=strict, kubectl's
// default, sends fieldValidation=Strict) is refused for a misspelt field
// with the API server's message; --validate=warn creates the object and
// prints kubectl's "Warning: unknown field ..."; kubectl patch, which
// sends no fieldValidation (the server's default, Warn), drops the
// unknown field, warns, and applies the rest; --validate=false (Ignore)
// says nothing. The recording (the patch with its directive) replays to
// the same state. (Planted: with the patch's directive left out of the
// recording, the replay refuses the patch and ends elsewhere.)
func TestKubectlFieldValidation(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	recording := filepath.Join(dir, "recorded.yaml")
	s := startServe(t, filepath.Join("..", "..", "testdata", "serve", "three-nodes.yaml"), "--speed", "100", "--record", recording)
	manifest := filepath.Join(dir, "web.yaml")
	if err := os.WriteFile(manifest, []byte(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - {name: nginx, image: "nginx:1.27", imagePullPolcy: Always}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	const typo = `unknown field "spec.template.spec.containers[0].imagePullPolcy"`
	errOut := s.fail("apply", "-f", manifest)
	if want := `Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: ` + typo; !strings.Contains(errOut, "Error from server (BadRequest)") || !strings.Contains(errOut, want) {
		t.Errorf("kubectl apply (--validate=strict) printed\n%s\nwant the BadRequest %q", errOut, want)
	}
	// kubectl finds no fieldValidation parameter in the (empty) OpenAPI
	// document and logs that it skips its own warn validation, then
	// sends the directive all the same.
	out, errOut := s.runBoth("apply", "--validate=warn", "-f", manifest)
	if out != "deployment.apps/web created\n" || !strings.HasSuffix(errOut, "\nWarning: "+typo+"\n") || strings.Count(errOut, "Warning:") != 1 {
		t.Errorf("kubectl apply --validate=warn: stdout %q stderr %q; want created and %q", out, errOut, "Warning: "+typo)
	}
	out, errOut = s.runBoth("patch", "deployment", "web", "--type", "merge", "-p", `{"spec":{"replicas":2,"colour":"blue"}}`)
	if out != "deployment.apps/web patched\n" || errOut != "Warning: unknown field \"spec.colour\"\n" {
		t.Errorf("kubectl patch: stdout %q stderr %q; want patched and the warning", out, errOut)
	}
	if got := s.run("get", "deployment", "web", "-o", "jsonpath={.spec.replicas}"); got != "2" {
		t.Errorf("after the patch: replicas %q, want 2", got)
	}
	out, errOut = s.runBoth("patch", "deployment", "web", "--type", "strategic", "-p", `{"spec":{"template":{"spec":{"containers":[{"name":"nginx","imagePullPolcy":"Never"}]}}}}`)
	if errOut != "Warning: "+typo+"\n" {
		t.Errorf("kubectl patch --type strategic: stdout %q stderr %q; want the warning", out, errOut)
	}
	// A directive the strategic merge does not know is the merge's error,
	// which kube-apiserver answers as a 500 without a reason.
	if errOut := s.fail("patch", "deployment", "web", "--type", "strategic", "-p", `{"spec":{"template":{"spec":{"$patch":"frob"}}}}`); !strings.Contains(errOut, "Error from server: unknown patch type: frob in map: map[$patch:frob]") {
		t.Errorf("kubectl patch with an unknown $patch printed %q, want the merge's error", errOut)
	}
	cm := filepath.Join(dir, "cm.yaml")
	if err := os.WriteFile(cm, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {a: b}\ncolour: blue\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut = s.runBoth("create", "--validate=false", "-f", cm)
	if out != "configmap/settings created\n" || errOut != "" {
		t.Errorf("kubectl create --validate=false: stdout %q stderr %q; want created, silently", out, errOut)
	}
	if c := s.stop(); c != 0 {
		t.Fatalf("serve exited with %d:\n%s", c, s.stderr.String())
	}
	data, err := os.ReadFile(recording)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "fieldValidation: Warn") || strings.Contains(string(data), "imagePullPolcy: Always") {
		t.Errorf("the recording does not hold the patches' directive, or holds the create's dropped field:\n%s", data)
	}
	checkReplay(t, recording, s.stderr.String())
}

// TestKubectlDebug: kubectl debug patches the pod's ephemeralcontainers
// subresource, which the simulation has nothing behind (its containers
// run no processes). The refusal is a 400 that says so, as for logs and
// exec. (Before, serve answered a 404 Status without details, which
// kubectl 1.32 dereferences: kubectl debug panicked with a nil pointer.)
func TestKubectlDebug(t *testing.T) {
	t.Parallel()
	s := startServe(t, filepath.Join("..", "..", "testdata", "serve", "three-nodes.yaml"), "--speed", "100")
	if out := s.run("run", "tmp", "--image=nginx:1.14.2"); out != "pod/tmp created\n" {
		t.Errorf("run: %q", out)
	}
	errOut := s.fail("debug", "tmp", "--image=busybox:1.28", "--profile=general")
	const want = "Error from server (BadRequest): clustersim serve does not simulate ephemeral containers (kubectl debug): "
	if strings.Contains(errOut, "panic") || !strings.Contains(errOut, want) {
		t.Errorf("kubectl debug printed\n%s\nwant %q", errOut, want)
	}
}

// TestKubectlGetSubresource: kubectl get --subresource asks for a Table
// of the subresource, which the API server prints with the object's own
// table convertor: the scale subresource as a Scale (NAME, DESIRED,
// AVAILABLE, AGE), the status subresource as the object (a Deployment's
// columns). (Before, serve answered plain JSON, and kubectl printed NAME
// and an AGE of its own clock.)
func TestKubectlGetSubresource(t *testing.T) {
	t.Parallel()
	s := startServe(t, filepath.Join("..", "..", "testdata", "serve", "three-nodes.yaml"), "--speed", "100")
	manifest := filepath.Join("..", "..", "testdata", "kubernetes-docs", "nginx-deployment.yaml")
	s.run("apply", "-f", manifest)
	s.run("rollout", "status", "deployment/nginx-deployment", "--timeout=5m")
	rows := wantHeader(t, "get --subresource=scale", s.run("get", "deployment", "nginx-deployment", "--subresource=scale"), "NAME", "DESIRED", "AVAILABLE", "AGE")
	if len(rows) != 1 || !slices.Equal(rows[0][:3], []string{"nginx-deployment", "3", "3"}) || strings.HasSuffix(rows[0][3], "d") {
		t.Errorf("get --subresource=scale rows: %q", rows)
	}
	rows = wantHeader(t, "get --subresource=status", s.run("get", "deployment", "nginx-deployment", "--subresource=status"), "NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE")
	if len(rows) != 1 || !slices.Equal(rows[0][:4], []string{"nginx-deployment", "3/3", "3", "3"}) {
		t.Errorf("get --subresource=status rows: %q", rows)
	}
}

// TestKubectlStatefulSetWarnings: a StatefulSet applied through kubectl
// to a scenario that holds none is warned of the statefulset controller,
// which does not run; the persistentvolume-binder is named only for a
// StatefulSet with volumeClaimTemplates, the claims it would bind.
// (Before, a StatefulSet without claims was also told that "nothing"
// the binder "does happens to this object", which had nothing to bind.)
func TestKubectlStatefulSetWarnings(t *testing.T) {
	t.Parallel()
	s := startServe(t, filepath.Join("..", "..", "testdata", "serve", "three-nodes.yaml"), "--speed", "100")
	dir := t.TempDir()
	const sts = `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: %s}
spec:
  serviceName: %[1]s
  replicas: 1
  selector: {matchLabels: {app: %[1]s}}
  template:
    metadata: {labels: {app: %[1]s}}
    spec:
      containers:
      - {name: db, image: "nginx:1.14.2"}
`
	const claims = `  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`
	for _, tc := range []struct {
		name, extra string
		want        []string
	}{
		{"plain", "", []string{"statefulset"}},
		{"claims", claims, []string{"persistentvolume-binder", "statefulset"}},
	} {
		file := filepath.Join(dir, tc.name+".yaml")
		if err := os.WriteFile(file, []byte(fmt.Sprintf(sts, tc.name)+tc.extra), 0o644); err != nil {
			t.Fatal(err)
		}
		_, errOut := s.runBoth("apply", "-f", file)
		var got []string
		for _, m := range regexp.MustCompile(`Warning: kind: accepted but not simulated: the (\S+) controller does not run`).FindAllStringSubmatch(errOut, -1) {
			got = append(got, m[1])
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("kubectl apply of a StatefulSet (%s): warned of %q, want %q:\n%s", tc.name, got, tc.want, errOut)
		}
	}
}
