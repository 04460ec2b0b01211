package main

import (
	"bytes"

	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// remoteRef finds anything in a page that could make a browser load
// something: a URL, a src or href that is not a fragment, a link, script,
// import or url().
var remoteRef = regexp.MustCompile(`(?i)https?://|\bsrc\s*=|href\s*=\s*"[^#]|<link|<script|<iframe|<object|<embed|@import|url\(`)

// TestHTMLReports writes the HTML reports of a run and of a lesson, checks
// that they reference nothing outside themselves, then opens them in
// headless Chromium: the rendered page is not blank, draws its charts,
// holds the key elements, and the browser made no network request (every
// request would have gone through a recording proxy). With -update it
// writes the screenshots the README shows (docs/screenshots/). Without
// Chromium the browser part is skipped, except under CI=true (.ci/run
// installs it), where it fails.
func TestHTMLReports(t *testing.T) {
	t.Parallel() // mostly waiting for the browser: overlap it with the rest
	dir := t.TempDir()
	pages := []struct {
		name, shot string
		args       []string
		want       []string
	}{
		{"run-node-failure.html", "run-node-failure.png", []string{"run", "node-failure"},
			[]string{`id="verdict"`, "PASS: 6 of 6 expectations held", `id="pods"`, `id="gaps"`, `id="writes"`, `id="findings"`, `id="timeline"`, "kubelet on worker-1 hangs", "<svg"}},
		{"lesson-1.html", "lesson-1.png", []string{"lesson", "1", "--seeds", "100"},
			[]string{`id="lesson-1"`, "Lesson 1: Commands vs declarations", `class="picture"`, "commands: final spec.replicas", "holds", "<svg"}},
	}
	for i, p := range pages {
		path := filepath.Join(dir, p.name)
		code, _, errOut := runMain(append(p.args, "--html", path)...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", p.args, code, errOut)
		}
		page, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if m := remoteRef.Find(page); m != nil {
			t.Errorf("%s references %q: it must embed everything", p.name, m)
		}
		if !bytes.Contains(page, []byte(`http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;`)) {
			t.Errorf("%s has no Content-Security-Policy forbidding loads", p.name)
		}
		pages[i].name = path
	}

	browser := chromium(t)
	var mu sync.Mutex
	var requests []string
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		if !browserOwn[r.URL.Hostname()] && !browserOwn[r.Host] && !browserOwn[strings.TrimSuffix(r.Host, ":443")] {
			requests = append(requests, r.Method+" "+r.Host+r.URL.Path)
		}
		mu.Unlock()
		http.Error(w, "no network in this test", http.StatusForbidden)
	}))
	defer proxy.Close()

	var wg sync.WaitGroup
	for _, p := range pages {
		wg.Go(func() {
			shot := filepath.Join(dir, p.shot)
			dom := openInChromium(t, browser, proxy.URL, p.name, shot)
			for _, want := range p.want {
				if !strings.Contains(dom, want) {
					t.Errorf("%s: the rendered DOM lacks %q", filepath.Base(p.name), want)
				}
			}
			checkScreenshot(t, shot)
			if *update {
				data, err := os.ReadFile(shot)
				if err == nil {
					err = os.WriteFile(filepath.Join("..", "..", "docs", "screenshots", p.shot), data, 0o644)
				}
				if err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if len(requests) > 0 {
		t.Errorf("the browser made network requests: %q", requests)
	}
}

// browserOwn are the hosts Chromium calls by itself, with a blank page
// too, whatever flags turn off background networking (component updates,
// network time, account checks); they are not the page's requests. A page
// that loads anything (planted once: an img from example.invalid, a
// stylesheet from another host) shows up as a request to its host.
// optimizationguide-pa.googleapis.com is Chromium's optimisation-hints
// fetch, which --disable-features below turns off but which some builds
// still make now and then (it made the test flaky).
var browserOwn = map[string]bool{"update.googleapis.com": true, "clients2.google.com": true, "accounts.google.com": true,
	"optimizationguide-pa.googleapis.com": true}

// chromium finds the browser, or skips (fails under CI=true).
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium not found; .ci/run installs it (apt-get install chromium)")
	}
	t.Skip("chromium not found (apt-get install chromium); the page checks without a browser passed")
	return ""
}

// openInChromium loads a page in headless Chromium with every request
// sent to proxy, writes a screenshot and returns the rendered DOM.
func openInChromium(t *testing.T, browser, proxy, page, shot string) string {
	t.Helper()
	profile := t.TempDir()
	cmd := exec.Command(browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-default-apps",
		"--disable-features=OptimizationGuideModelDownloading,OptimizationHintsFetching,OptimizationTargetPrediction,OptimizationHints",
		"--user-data-dir="+profile, "--proxy-server="+strings.TrimPrefix(proxy, "http://"), "--proxy-bypass-list=<-loopback>",
		"--window-size=1280,2000", "--hide-scrollbars", "--screenshot="+shot, "--dump-dom", "file://"+page)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("chromium %s: %v\n%s", page, err, errOut.String())
		}
	case <-time.After(90 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("chromium %s: no answer in 90 s", page)
	}
	return out.String()
}

// checkScreenshot fails unless the screenshot shows a page: mostly white,
// but with text and the charts' blue lines or bars.
func checkScreenshot(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	b := img.Bounds()
	dark, blue := 0, 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			r, g, bl = r>>8, g>>8, bl>>8
			if r+g+bl < 3*128 {
				dark++
			}
			// The charts' first colour, #0072b2.
			if r < 0x30 && g > 0x50 && g < 0x90 && bl > 0x90 && bl < 0xd0 {
				blue++
			}
		}
	}
	total := b.Dx() * b.Dy()
	if dark < total/200 || blue < 200 {
		t.Errorf("%s looks blank: %d of %d pixels dark, %d chart-blue", filepath.Base(path), dark, total, blue)
	}
}

// TestHTMLErrors: an HTML file that cannot be written is bad input, and
// "-" (standard output, which holds the text report) is refused.
func TestHTMLErrors(t *testing.T) {
	for _, path := range []string{"-", "/dev/null/x.html"} {
		code, _, errOut := runMain("run", "rolling-update", "-q", "--html", path)
		if code != exitBadInput || !strings.Contains(errOut, "--html") {
			t.Errorf("--html %s: exit %d, %q; want %d and a message naming --html", path, code, errOut, exitBadInput)
		}
	}
}
