package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/clustersim/clustersim/report/measure"
	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/serve"
	simapi "github.com/clustersim/clustersim/sim/api"
)

// serveUser is the user real clients act as: endpoint user/kubectl, so a
// scenario's network rules and faults naming it apply to them.
const serveUser = "kubectl"

// serveTick is how often the pacing loop wakes up to advance virtual
// time when no request is waiting.
const serveTick = 5 * time.Millisecond

// serveMaxLag is how far virtual time may fall behind its pace before the
// loop stops trying to catch up (a simulation slower than --speed).
const serveMaxLag = 5 * time.Second

func init() {
	usageLines["clustersim serve"] = "clustersim serve [SCENARIO] [flags]"
}

// loop is the simulation's side of serve.Loop: HTTP goroutines post
// functions, the pacing loop runs them between steps.
type loop struct {
	jobs chan func()
	done chan struct{}
	once sync.Once
}

func (l *loop) Post(fn func()) bool {
	select {
	case <-l.done:
		return false
	default:
	}
	select {
	case l.jobs <- fn:
		return true
	case <-l.done:
		return false
	}
}

func (l *loop) Done() <-chan struct{} { return l.done }

func (l *loop) close() { l.once.Do(func() { close(l.done) }) }

// pace is the pacing state: virtual time advances speed times as fast as
// the wall clock from (wall0, virt0), unless paused.
type pace struct {
	mu     sync.Mutex
	speed  float64
	paused bool
	wall0  time.Time
	virt0  time.Duration
	stop   bool
}

// target is the virtual time the simulation should have reached now. It
// saturates, rather than overflows, past 2^62 ns (146 years): a long
// stall at a high speed asks for more than a Duration holds, and the
// loop's lag cap turns any target that far ahead into "as fast as it can".
func (p *pace) target(now time.Time) time.Duration {
	if p.paused {
		return p.virt0
	}
	const far = 1 << 62
	ahead := float64(now.Sub(p.wall0)) * p.speed
	if !(ahead < far) || p.virt0 >= far {
		return math.MaxInt64
	}
	return p.virt0 + time.Duration(ahead)
}

// rebase restarts the pace from virtual time v now.
func (p *pace) rebase(now time.Time, v time.Duration) { p.wall0, p.virt0 = now, v }

func serveCommand(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("clustersim serve", stderr)
	listen := fs.String("listen", "127.0.0.1:0", "address to serve the Kubernetes API on (host:port; port 0 picks a free one); anything but a loopback address is reachable by others and gets a warning")
	kubeconfig := fs.String("kubeconfig", "clustersim.kubeconfig", "write a kubeconfig for the server (its address and a fresh bearer token) to this file, mode 0600")
	speed := fs.Float64("speed", 1, fmt.Sprintf("virtual seconds per wall-clock second, at most %g (0 starts paused; POST /clustersim/pause and /clustersim/resume, /clustersim/speed?x=N change it)", maxSpeed))
	seed := fs.Uint64("seed", 0, "root seed of the run (default: the scenario's spec.seed)")
	forDur := fs.Duration("for", 0, "stop at this virtual time (default: run until interrupted, past the scenario's spec.duration)")
	timeline := fs.Bool("timeline", true, "perform the scenario's timeline (false: only its cluster, objects, controllers and faults; you act with kubectl)")
	record := fs.String("record", "", "when the server stops, write the scenario plus every write made through the API, at its virtual time, as a scenario file that clustersim run replays")
	lopts := loadFlags(fs)
	if c, done := parse(fs, args); done {
		return c
	}
	if fs.NArg() > 1 {
		return usageError(fs, "one scenario at a time; got %d arguments", fs.NArg())
	}
	if !validSpeed(*speed) {
		return usageError(fs, "--speed %v: want 0 (paused) to %g; a simulation slower than its pace falls behind and runs as fast as it can", *speed, maxSpeed)
	}
	if *forDur < 0 {
		return usageError(fs, "--for %v: must not be negative", *forDur)
	}
	if *record != "" {
		if err := checkOutputFile(*record); err != nil {
			return usageError(fs, "--record %s: %v", *record, err)
		}
	}
	name := scenarios.Default
	if fs.NArg() == 1 {
		name = fs.Arg(0)
	}
	// kubectl's endpoint exists in this run: links may name it.
	lopts.Users = append(lopts.Users, serveUser)
	s, err := loadScenario(name, *lopts)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitBadInput
	}
	printWarnings(stderr, s)
	host, _, err := net.SplitHostPort(*listen)
	if err != nil {
		return usageError(fs, "--listen %q: %v", *listen, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		fmt.Fprintf(stderr, "warning: --listen %s is not a loopback address: anyone who can reach it and has the token can change the simulation\n", *listen)
	}
	opts := runner.Options{Detect: measure.Detect, MaxEvents: lopts.Limits.WithDefaults().Events, Users: []string{serveUser}, NoTimeline: !*timeline,
		ProfileWindow: profileWindowSet}
	if fs.Changed("seed") {
		opts.Seed = seed
	}
	sess, err := runner.Start(s, opts)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitBadInput
	}
	defer sess.Close()
	gw := serve.NewGateway(sess.Cluster(), serveUser)
	rec := newRecorder(s, runner.RootSeed(s, opts), sess.Cluster().Store.Kinds(), *timeline)
	if *record != "" {
		gw.OnWrite = rec.write
	}
	token, err := newToken()
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitInternal
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		fmt.Fprintf(stderr, "clustersim serve: %v\n", err)
		return exitBadInput
	}
	cert, caPEM, err := selfSigned(host)
	if err != nil {
		ln.Close()
		fmt.Fprintln(stderr, err)
		return exitInternal
	}
	addr := "https://" + ln.Addr().String()
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		// Listening on every address: the kubeconfig reaches it on
		// loopback (the certificate names 127.0.0.1).
		addr = "https://127.0.0.1:" + strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	}
	if err := writeKubeconfig(*kubeconfig, addr, token, caPEM); err != nil {
		ln.Close()
		fmt.Fprintf(stderr, "clustersim serve: %v\n", err)
		return exitBadInput
	}
	lp := &loop{jobs: make(chan func(), 256), done: make(chan struct{})}
	p := &pace{speed: *speed, paused: *speed == 0}
	warnings := func(o simapi.Object) []string {
		return append(scenarios.FieldWarnings(o), scenarios.IdleControllerWarnings(s, o)...)
	}
	api := serve.NewHandler(lp, gw, serve.Options{Token: token, Warnings: warnings})
	mux := http.NewServeMux()
	mux.Handle("/", api)
	mux.Handle("/clustersim/", control(token, p, lp, sess))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, MaxHeaderBytes: 1 << 20,
		TLSConfig: &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}}
	go srv.ServeTLS(ln, "", "")
	defer srv.Close()
	fmt.Fprintf(stderr, "clustersim serve: %s at %s, %gx virtual time; kubeconfig in %s:\n  export KUBECONFIG=%s\n", s.Metadata.Name, addr, *speed, *kubeconfig, *kubeconfig)

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	code := runServeLoop(lp, p, sess, gw, *forDur, sig, stderr)
	lp.close()
	res := sess.Finish()
	state, err := sess.Cluster().StateHash()
	if err != nil {
		fmt.Fprintf(stderr, "clustersim serve: %v\n", err)
		return exitInternal
	}
	fmt.Fprintf(stderr, "clustersim serve: stopped at virtual time %s (%v); %d writes accepted, %d by %s; final state %s\n", clock(res.Duration), res.Duration, res.Writes, rec.count(res), serveUser, state)
	if *record != "" {
		if err := rec.save(*record, res); err != nil {
			fmt.Fprintf(stderr, "clustersim serve: --record: %v\n", err)
			return exitInternal
		}
		fmt.Fprintf(stderr, "clustersim serve: recorded to %s (clustersim run %s replays it)\n", *record, *record)
	}
	return code
}

// runServeLoop advances the simulation at its pace and runs posted
// requests between steps until --for, a stop request or a signal.
func runServeLoop(lp *loop, p *pace, sess *runner.Session, gw *serve.Gateway, forDur time.Duration, sig <-chan os.Signal, stderr io.Writer) int {
	p.mu.Lock()
	p.rebase(time.Now(), sess.Now())
	p.mu.Unlock()
	tick := time.NewTicker(serveTick)
	defer tick.Stop()
	for {
		select {
		case fn := <-lp.jobs:
			fn()
			// Run what else is waiting, then fire the events they
			// scheduled (a request is sent a nanosecond after the
			// current instant; on a link without latency it is answered
			// then).
			for more := true; more; {
				select {
				case fn := <-lp.jobs:
					fn()
				default:
					more = false
				}
			}
			if err := sess.Advance(gw.At().Duration()); err != nil {
				fmt.Fprintf(stderr, "clustersim serve: %v\n", err)
				return exitFailed
			}
		case <-tick.C:
		case <-sig:
			return exitOK
		}
		p.mu.Lock()
		now := time.Now()
		target, stop := p.target(now), p.stop
		if !p.paused && target-sess.Now() > serveMaxLag {
			// The simulation cannot keep this pace: fall behind
			// gracefully instead of catching up in one long step.
			target = sess.Now() + serveMaxLag
			p.rebase(now, target)
		}
		p.mu.Unlock()
		if stop {
			return exitOK
		}
		if forDur > 0 && target > forDur {
			target = forDur
		}
		if target > sess.Now() {
			if err := sess.Advance(target); err != nil {
				fmt.Fprintf(stderr, "clustersim serve: %v\n", err)
				return exitFailed
			}
		}
		gw.Tick()
		if sess.Stopped() {
			fmt.Fprintf(stderr, "clustersim serve: the simulation stopped at %s (virtual time can no longer advance)\n", clock(sess.Now()))
			return exitFailed
		}
		if forDur > 0 && sess.Now() >= forDur {
			return exitOK
		}
	}
}

// control serves /clustersim/: pause, resume, speed, stop and the current
// virtual time, behind the same token as the API.
func control(token string, p *pace, lp *loop, sess *runner.Session) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+token {
			http.Error(w, "Unauthorized", http.StatusUnauthorized)
			return
		}
		if r.URL.Path == "/clustersim/time" {
			ch := make(chan time.Duration, 1)
			if lp.Post(func() { ch <- sess.Now() }) {
				select {
				case v := <-ch:
					fmt.Fprintf(w, "%s\n", v)
				case <-lp.Done():
				}
			}
			return
		}
		if r.Method != http.MethodPost {
			http.Error(w, "POST", http.StatusMethodNotAllowed)
			return
		}
		now := time.Now()
		p.mu.Lock()
		defer p.mu.Unlock()
		cur := p.target(now)
		switch r.URL.Path {
		case "/clustersim/pause":
			p.rebase(now, cur)
			p.paused = true
		case "/clustersim/resume":
			p.rebase(now, cur)
			p.paused = false
		case "/clustersim/speed":
			x, err := strconv.ParseFloat(r.URL.Query().Get("x"), 64)
			if err != nil || x == 0 || !validSpeed(x) {
				http.Error(w, fmt.Sprintf("want ?x=N, 0 < N <= %g", maxSpeed), http.StatusBadRequest)
				return
			}
			p.rebase(now, cur)
			p.speed = x
		case "/clustersim/stop":
			p.stop = true
		default:
			http.NotFound(w, r)
			return
		}
		fmt.Fprintln(w, "ok")
	})
}

func newToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("clustersim serve: a random token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// selfSigned makes a fresh key and a self-signed certificate for host
// (and 127.0.0.1, ::1, localhost), valid for a day. kubectl sends a
// kubeconfig's token only over TLS (client-go's clientcmd reads a user's
// credentials only for a TLS transport), so serve speaks HTTPS; the
// kubeconfig carries the certificate as its certificate authority.
func selfSigned(host string) (tls.Certificate, []byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, fmt.Errorf("clustersim serve: a key: %w", err)
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 64))
	if err != nil {
		return tls.Certificate{}, nil, fmt.Errorf("clustersim serve: a serial number: %w", err)
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serial, Subject: pkix.Name{CommonName: "clustersim serve"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true,
		DNSNames:    []string{"localhost"},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	if ip := net.ParseIP(host); ip != nil && !ip.IsLoopback() && !ip.IsUnspecified() {
		tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
	} else if ip == nil && host != "" && host != "localhost" {
		tmpl.DNSNames = append(tmpl.DNSNames, host)
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, nil, fmt.Errorf("clustersim serve: a certificate: %w", err)
	}
	caPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, caPEM, nil
}

// writeKubeconfig writes a kubeconfig whose current context reaches the
// server at addr with the bearer token, in namespace default, trusting
// the server's certificate caPEM.
func writeKubeconfig(path, addr, token string, caPEM []byte) error {
	if path == "" {
		return errors.New("--kubeconfig: a file name is required")
	}
	doc := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: clustersim
  cluster:
    server: %s
    certificate-authority-data: %s
contexts:
- name: clustersim
  context:
    cluster: clustersim
    user: clustersim
    namespace: default
current-context: clustersim
users:
- name: clustersim
  user:
    token: %s
`, addr, base64.StdEncoding.EncodeToString(caPEM), token)
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		return err
	}
	// WriteFile keeps an existing file's mode: the token is private.
	return os.Chmod(path, 0o600)
}
