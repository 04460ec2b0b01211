// Package servetest points real Kubernetes clients (client-go's typed,
// dynamic and discovery clients and informers, and a controller-runtime
// manager with its own cache and client) at `clustersim serve`, and checks
// that they get what a kube-apiserver v1.37 would answer them.
package servetest

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// binary is the clustersim binary TestMain built.
var binary string

// buildErr is why it could not be built: every test then fails with it
// (a missing binary is a failure, never a skip).
var buildErr error

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "clustersim-servetest-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary, buildErr = build(dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// build compiles cmd/clustersim from the repository root (crt/'s parent,
// the module its go.mod replaces github.com/clustersim/clustersim with)
// into dir.
func build(dir string) (string, error) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		return "", err
	}
	if b, err := os.ReadFile(filepath.Join(root, "go.mod")); err != nil || !bytes.HasPrefix(b, []byte("module github.com/clustersim/clustersim\n")) {
		return "", fmt.Errorf("%s is not clustersim's repository root (go.mod: %v)", root, err)
	}
	out := filepath.Join(dir, "clustersim")
	cmd := exec.Command("go", "build", "-o", out, "./cmd/clustersim")
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/clustersim: %v\n%s", err, b)
	}
	return out, nil
}

// server is one `clustersim serve` started by a test.
type server struct {
	cfg    *rest.Config // as the kubeconfig says
	json   *rest.Config // cfg, sending JSON bodies
	cs     *kubernetes.Clientset
	stderr *bytes.Buffer
	mu     *sync.Mutex
}

type lockedBuffer struct {
	mu *sync.Mutex
	b  *bytes.Buffer
}

func (l lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// serve starts `clustersim serve` on scenario with args, waits for its
// kubeconfig and reads it with clientcmd; the server is stopped when the
// test ends.
func serve(t *testing.T, scenario string, args ...string) *server {
	t.Helper()
	if buildErr != nil {
		t.Fatalf("no clustersim binary: %v", buildErr)
	}
	dir := t.TempDir()
	kubeconfig := filepath.Join(dir, "kubeconfig")
	s := &server{stderr: &bytes.Buffer{}, mu: &sync.Mutex{}}
	cmd := exec.Command(binary, append([]string{"serve", scenario, "--listen", "127.0.0.1:0", "--kubeconfig", kubeconfig}, args...)...)
	cmd.Stdout = lockedBuffer{s.mu, s.stderr}
	cmd.Stderr = lockedBuffer{s.mu, s.stderr}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting clustersim serve: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			t.Logf("clustersim serve's output:\n%s", s.output())
		}
	})
	deadline := time.Now().Add(90 * time.Second)
	for {
		b, err := os.ReadFile(kubeconfig)
		if err == nil && bytes.Contains(b, []byte("token:")) {
			break
		}
		select {
		case err := <-exited:
			t.Fatalf("clustersim serve exited (%v) before writing its kubeconfig:\n%s", err, s.output())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("no kubeconfig after 90s:\n%s", s.output())
		}
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		t.Fatalf("clientcmd could not read the kubeconfig: %v", err)
	}
	// A server that cannot keep up answers slowly; no request here
	// should take long.
	cfg.Timeout = 60 * time.Second
	// client-go's default client-side limit (5 requests a second, bursts
	// of 10) would make the checks slow, not different.
	cfg.QPS, cfg.Burst = 500, 1000
	s.cfg = cfg
	// client-go's typed clientset and controller-runtime's client send
	// protobuf bodies for the built-in kinds unless told otherwise;
	// clustersim serve reads JSON only (docs/kubectl.md,
	// checkProtobufRefused).
	s.json = rest.CopyConfig(cfg)
	s.json.ContentType = "application/json"
	if s.cs, err = kubernetes.NewForConfig(s.json); err != nil {
		t.Fatal(err)
	}
	return s
}

func (s *server) output() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stderr.String()
}

// post sends a POST to one of serve's own endpoints (/clustersim/...).
func (s *server) post(t *testing.T, path string) {
	t.Helper()
	tc, err := rest.TLSConfigFor(s.cfg)
	if err != nil {
		t.Fatal(err)
	}
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: tc.Clone()}, Timeout: 10 * time.Second}
	req, _ := http.NewRequest(http.MethodPost, strings.TrimSuffix(s.cfg.Host, "/")+path, nil)
	req.Header.Set("Authorization", "Bearer "+s.cfg.BearerToken)
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("POST %s: %s", path, resp.Status)
	}
}

// ctx is a context that ends with the test, or after d.
func ctx(t *testing.T, d time.Duration) context.Context {
	c, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return c
}
