package kubelet

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
)

func at(d time.Duration) kernel.Time { return kernel.Time(d) }

// TestImagePullBackoffSequence: failed pulls of one image back off 10s,
// 20s, 40s, ... capped at 300s, measured from the last failure, and start
// over once quiet for 10 minutes.
func TestImagePullBackoffSequence(t *testing.T) {
	b := NewBackoff(DefaultBackoffInitial, DefaultBackoffMax)
	const key = "uid_nginx:nope"
	want := []time.Duration{10, 20, 40, 80, 160, 300, 300, 300}
	now := time.Duration(0)
	for i, w := range want {
		w *= time.Second
		if i > 0 && b.IsInBackOffSinceUpdate(key, at(now)) {
			t.Fatalf("pull %d at %v: still backing off", i, now)
		}
		b.Next(key, at(now), at(now))
		if got := b.Get(key); got != w {
			t.Fatalf("pull %d: back-off %v, want %v", i, got, w)
		}
		if !b.IsInBackOffSinceUpdate(key, at(now+w-time.Millisecond)) {
			t.Errorf("pull %d: not backing off just before %v", i, w)
		}
		if b.IsInBackOffSinceUpdate(key, at(now+w)) {
			t.Errorf("pull %d: still backing off at %v", i, w)
		}
		now += w
	}
	// Quiet for more than twice the maximum: the next failure starts over.
	now += 601 * time.Second
	if b.IsInBackOffSinceUpdate(key, at(now)) {
		t.Error("expired entry still backs off")
	}
	b.Next(key, at(now), at(now))
	if got := b.Get(key); got != 10*time.Second {
		t.Errorf("after 10 quiet minutes: back-off %v, want 10s", got)
	}
}

// TestCrashLoopBackoffSequence replays the kubelet's doBackOff for a
// container that crashes 5s after each start: the first crash restarts at
// once, then restarts wait 10s, 20s, 40s, ... 300s; after 10 minutes of
// clean running the next crash restarts at once and the back-off starts
// over at 10s.
func TestCrashLoopBackoffSequence(t *testing.T) {
	b := NewBackoff(DefaultBackoffInitial, DefaultBackoffMax)
	const key = "uid/app"
	tests := []struct {
		name   string
		run    time.Duration // how long the container ran before this crash
		waited time.Duration // how long after the crash it restarted
	}{
		{"first crash restarts at once", 5 * time.Second, 0},
		{"second waits 10s", 5 * time.Second, 10 * time.Second},
		{"then 20s", 5 * time.Second, 20 * time.Second},
		{"then 40s", 5 * time.Second, 40 * time.Second},
		{"then 80s", 5 * time.Second, 80 * time.Second},
		{"then 160s", 5 * time.Second, 160 * time.Second},
		{"then capped at 300s", 5 * time.Second, 300 * time.Second},
		{"and stays there", 5 * time.Second, 300 * time.Second},
		{"10 minutes of clean running reset it", 11 * time.Minute, 0},
		{"and it starts over at 10s", 5 * time.Second, 10 * time.Second},
	}
	now := time.Duration(0)
	for _, tc := range tests {
		now += tc.run
		crashed := now
		// The kubelet looks every second (as PLEG would) until it may
		// restart.
		for b.IsInBackOffSince(key, at(crashed), at(now)) {
			now += time.Second
		}
		b.Next(key, at(crashed), at(now))
		if got := now - crashed; got != tc.waited {
			t.Errorf("%s: restarted after %v, want %v", tc.name, got, tc.waited)
		}
	}
}

// TestIPAM checks sequential allocation, reuse of freed addresses last,
// exhaustion and the reserved addresses.
func TestIPAM(t *testing.T) {
	a, err := NewIPAM("10.244.7.0/29")
	if err != nil {
		t.Fatal(err)
	}
	if a.Capacity() != 5 || a.Gateway().String() != "10.244.7.1" {
		t.Fatalf("capacity %d gateway %v", a.Capacity(), a.Gateway())
	}
	alloc := func() string {
		ip, err := a.Allocate()
		if err != nil {
			return err.Error()
		}
		return ip.String()
	}
	steps := []struct {
		release string
		want    string
	}{
		{"", "10.244.7.2"},
		{"", "10.244.7.3"},
		{"", "10.244.7.4"},
		{"10.244.7.3", "10.244.7.5"}, // freed .3 is not reused yet
		{"", "10.244.7.6"},
		{"", "10.244.7.3"}, // wrapped around: now it is
		{"", ErrNoAddresses.Error()},
		{"10.244.7.2", "10.244.7.2"},
		{"10.244.7.99", ErrNoAddresses.Error()}, // outside the CIDR: ignored
	}
	for i, s := range steps {
		if s.release != "" {
			a.Release(netip.MustParseAddr(s.release))
		}
		if got := alloc(); got != s.want {
			t.Fatalf("step %d: got %s, want %s", i, got, s.want)
		}
	}
	if a.InUse() != 5 {
		t.Errorf("in use %d, want 5", a.InUse())
	}
	full, _ := NewIPAM("10.244.0.0/24")
	for i := range full.Capacity() {
		ip, err := full.Allocate()
		if err != nil || ip.As4()[3] == 0 || ip.As4()[3] == 1 || ip.As4()[3] == 255 {
			t.Fatalf("allocation %d: %v %v", i, ip, err)
		}
	}
	if _, err := full.Allocate(); !errors.Is(err, ErrNoAddresses) {
		t.Errorf("full /24: err %v", err)
	}
	for _, bad := range []string{"", "10.244.0.0", "fd00::/64", "10.0.0.0/31", "10.0.0.0/4"} {
		if _, err := NewIPAM(bad); err == nil {
			t.Errorf("NewIPAM(%q) accepted", bad)
		}
	}
}

// TestParseReference checks normalization as the container runtime does
// it, and rejection of invalid references.
func TestParseReference(t *testing.T) {
	const hex64 = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	tests := []struct {
		in   string
		want string
	}{
		{"nginx", "docker.io/library/nginx:latest"},
		{"nginx:1.14.2", "docker.io/library/nginx:1.14.2"},
		{"library/nginx:1.25", "docker.io/library/nginx:1.25"},
		{"bitnami/nginx:1.2", "docker.io/bitnami/nginx:1.2"},
		{"index.docker.io/library/nginx", "docker.io/library/nginx:latest"},
		{"registry.k8s.io/pause:3.9", "registry.k8s.io/pause:3.9"},
		{"registry.k8s.io/e2e-test-images/agnhost:2.39", "registry.k8s.io/e2e-test-images/agnhost:2.39"},
		{"localhost:5000/app", "localhost:5000/app:latest"},
		{"localhost/app:v1", "localhost/app:v1"},
		{"Registry.Example.com/team/app:v1", "Registry.Example.com/team/app:v1"},
		{"nginx@sha256:" + hex64, "docker.io/library/nginx@sha256:" + hex64},
		{"nginx:1.14@sha256:" + hex64, "docker.io/library/nginx:1.14@sha256:" + hex64},
		{"my_app/a.b-c__d:v_1.0", "docker.io/my_app/a.b-c__d:v_1.0"},
	}
	for _, tc := range tests {
		r, err := ParseReference(tc.in)
		if err != nil {
			t.Errorf("ParseReference(%q): %v", tc.in, err)
			continue
		}
		if r.String() != tc.want {
			t.Errorf("ParseReference(%q) = %s, want %s", tc.in, r, tc.want)
		}
	}
	for _, bad := range []string{"", "NGINX", "nginx:", ":tag", "nginx:-x", "nginx@sha256:abc", "a//b", "Team/app", "nginx:a:b", "-nginx"} {
		if _, err := ParseReference(bad); !errors.Is(err, ErrInvalidReference) {
			t.Errorf("ParseReference(%q): err %v, want ErrInvalidReference", bad, err)
		}
	}
}

// TestRegistry checks lookups and the runtime's error messages.
func TestRegistry(t *testing.T) {
	r := NewRegistry()
	if err := r.Add("nginx:1.14.2", Image{Size: 1}); err != nil {
		t.Fatal(err)
	}
	if err := r.Add("registry.k8s.io/pause", Image{PullTime: time.Second}); err != nil {
		t.Fatal(err)
	}
	img, err := r.Resolve("docker.io/library/nginx:1.14.2")
	if err != nil || img.PullTime != DefaultPullTime {
		t.Fatalf("resolve nginx: %+v %v", img, err)
	}
	if got := r.Tags("nginx"); len(got) != 1 || got[0] != "1.14.2" {
		t.Errorf("tags %v", got)
	}
	res, _ := r.resolve("registry.k8s.io/pause:latest")
	if !strings.HasPrefix(res.id, "registry.k8s.io/pause@sha256:") || len(res.id) != len("registry.k8s.io/pause@sha256:")+64 {
		t.Errorf("image id %q", res.id)
	}
	if _, err := r.Resolve("registry.k8s.io/pause@" + res.image.digest); err != nil {
		t.Errorf("by digest: %v", err)
	}
	_, err = r.Resolve("nginx:1.99")
	const tagMsg = `rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:1.99": failed to resolve reference "docker.io/library/nginx:1.99": docker.io/library/nginx:1.99: not found`
	if !errors.Is(err, ErrUnknownTag) || err.Error() != tagMsg {
		t.Errorf("unknown tag: %v", err)
	}
	_, err = r.Resolve("nosuchimage")
	if !errors.Is(err, ErrUnknownRepository) || !strings.Contains(err.Error(), "pull access denied, repository does not exist or may require authorization") {
		t.Errorf("unknown repository: %v", err)
	}
	if _, err := r.Resolve("Bad Name"); !errors.Is(err, ErrInvalidReference) {
		t.Errorf("invalid: %v", err)
	}
	if err := r.Add("nginx@sha256:"+strings.Repeat("a", 64), Image{}); err == nil {
		t.Error("push by digest accepted")
	}
}

// TestResolveShared: containers of one image share one resolution, and a
// change to the registry (a tag pushed again mid-run, a tag pushed after a
// failed pull, unknown repositories assumed) is seen at the next lookup.
func TestResolveShared(t *testing.T) {
	r := NewRegistry()
	if err := r.Add("nginx:1.25", Image{Size: 1}); err != nil {
		t.Fatal(err)
	}
	a, err := r.resolveShared("nginx:1.25")
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := r.resolveShared("nginx:1.25"); b != a {
		t.Error("a second container of nginx:1.25 resolved it again")
	}
	if err := r.Add("nginx:1.25", Image{Size: 2}); err != nil {
		t.Fatal(err)
	}
	if b, _ := r.resolveShared("nginx:1.25"); b == nil || b.image.Size != 2 {
		t.Errorf("after nginx:1.25 was pushed again: %+v", b)
	}
	if _, err := r.resolveShared("nginx:1.26"); !errors.Is(err, ErrUnknownTag) {
		t.Fatalf("nginx:1.26 before its push: %v", err)
	}
	if err := r.Add("nginx:1.26", Image{Size: 3}); err != nil {
		t.Fatal(err)
	}
	if b, err := r.resolveShared("nginx:1.26"); err != nil || b.image.Size != 3 {
		t.Errorf("nginx:1.26 after its push: %+v %v", b, err)
	}
	if _, err := r.resolveShared("redis:7"); !errors.Is(err, ErrUnknownRepository) {
		t.Fatalf("redis:7 unknown: %v", err)
	}
	r.AssumeUnknown(AssumedImage)
	if _, err := r.resolveShared("redis:7"); err != nil {
		t.Errorf("redis:7 once unknown repositories are assumed: %v", err)
	}
	r.SetPullTime(5 * time.Second)
	if b, _ := r.resolveShared("nginx:1.25"); b.image.PullTime != 5*time.Second {
		t.Errorf("after SetPullTime: %v", b.image.PullTime)
	}
}

// TestAssumeUnknown: a registry that assumes unknown repositories pulls
// any of them (with a pull time that depends on the image, the same every
// time), keeps the tag lists of the repositories it knows, so a typo of a
// known image still fails, and lists what it assumed once each, sorted.
func TestAssumeUnknown(t *testing.T) {
	r := DefaultRegistry()
	r.AssumeUnknown(AssumedImage)
	tests := []struct {
		ref     string
		wantErr error
	}{
		{"nginx:1.14.2", nil},
		{"nginx:1.161", ErrUnknownTag},
		{"redis:alpine", nil},
		{"busybox:1.28", nil},
		{"redis:alpine3", ErrUnknownTag},
		{"gcr.io/google-samples/microservices-demo/frontend:v0.10.3", nil},
		{"perl:5.34.0", nil},
		{"perl:5.34.0", nil},
		{"Bad Name", ErrInvalidReference},
		{"busybox:1.38.0@sha256:fd8d9aa63ba2f0982b5304e1ee8d3b90a210bc1ffb5314d980eb6962f1a9715d", nil},
	}
	for _, tc := range tests {
		img, err := r.Resolve(tc.ref)
		if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil) != (err == nil) {
			t.Errorf("%s: error %v, want %v", tc.ref, err, tc.wantErr)
			continue
		}
		if err == nil && !r.Known(tc.ref) && (img.PullTime < time.Second || img.PullTime > 4*time.Second) {
			t.Errorf("%s: pull time %v, want within [1s, 4s]", tc.ref, img.PullTime)
		}
	}
	want := []string{"docker.io/library/busybox:1.38.0@sha256:fd8d9aa63ba2f0982b5304e1ee8d3b90a210bc1ffb5314d980eb6962f1a9715d",
		"docker.io/library/perl:5.34.0", "gcr.io/google-samples/microservices-demo/frontend:v0.10.3"}
	if got := r.Assumed(); !slices.Equal(got, want) {
		t.Errorf("assumed %q, want %q", got, want)
	}
	a, _ := r.Resolve("gcr.io/google-samples/microservices-demo/frontend:v0.10.3")
	b, _ := r.Resolve("gcr.io/google-samples/microservices-demo/cartservice:v0.10.3")
	if a.PullTime == b.PullTime {
		t.Errorf("two assumed images pull in the same %v: the pull time does not depend on the image", a.PullTime)
	}
	if !r.Known("redis:alpine") || r.Known("perl") {
		t.Error("Known counts assumed repositories or misses known ones")
	}
	if img, _ := r.Resolve("busybox:1.38.0@sha256:fd8d9aa63ba2f0982b5304e1ee8d3b90a210bc1ffb5314d980eb6962f1a9715d"); img.PullTime != 800*time.Millisecond {
		t.Errorf("a pinned digest of a known tag pulls in %v, not as its tag (800ms)", img.PullTime)
	}
	if _, err := NewRegistry().Resolve("perl:5.34.0"); !errors.Is(err, ErrUnknownRepository) {
		t.Errorf("a registry that assumes nothing pulled perl: %v", err)
	}
}

// TestUnmodelledFields: probes are run, so they are not named; a
// preStop hook is named only when its duration is not known; a postStart
// hook (never run) is; the pod's deadline and runtime class are named.
func TestUnmodelledFields(t *testing.T) {
	raw := func(js string) *api.RawValue { v := api.RawValue(js); return &v }
	deadline, class := int64(5), "gvisor"
	spec := &api.PodSpec{
		ActiveDeadlineSeconds: &deadline,
		RuntimeClassName:      &class,
		InitContainers:        []api.Container{{Name: "check", StartupProbe: &api.Probe{ProbeHandler: api.ProbeHandler{Exec: raw(`{"command":["true"]}`)}}}},
		Containers: []api.Container{
			{Name: "plain"},
			{Name: "web", ReadinessProbe: &api.Probe{ProbeHandler: api.ProbeHandler{HTTPGet: raw(`{"port":80}`)}}, LivenessProbe: &api.Probe{ProbeHandler: api.ProbeHandler{TCPSocket: raw(`{"port":80}`)}},
				Lifecycle: raw(`{"preStop":{"httpGet":{"path":"/quit","port":80}}}`)},
			{Name: "grpc", ReadinessProbe: &api.Probe{ProbeHandler: api.ProbeHandler{GRPC: raw(`{"port":9555}`)}}, Lifecycle: raw(`{"preStop":{"sleep":{"seconds":5}}}`)},
			{Name: "sh", Lifecycle: raw(`{"preStop":{"exec":{"command":["/bin/sh","-c","nginx -s quit; sleep 3"]}}}`)},
			{Name: "warm", Lifecycle: raw(`{"postStart":{"exec":{"command":["sh","-c","sleep 30"]}}}`)},
		},
	}
	var got []string
	for _, u := range UnmodelledFields(spec) {
		got = append(got, u.Field)
	}
	want := []string{"activeDeadlineSeconds", "runtimeClassName", "containers[1].lifecycle.preStop", "containers[3].lifecycle.preStop", "containers[4].lifecycle.postStart"}
	if !slices.Equal(got, want) {
		t.Errorf("unmodelled %q, want %q", got, want)
	}
}

// TestStopPlan: when a container asked to stop exits, and how, after
// killContainer (k/k pkg/kubelet/kuberuntime/kuberuntime_container.go):
// preStop hook first (bounded by the grace period), then what is left of
// the grace period in whole seconds, at least 2s, before SIGKILL.
func TestStopPlan(t *testing.T) {
	life := func(js string) *api.RawValue { v := api.RawValue(js); return &v }
	prompt := &Image{StopTime: 300 * time.Millisecond}
	ignores := &Image{IgnoresSigterm: true}
	sleep10 := life(`{"preStop":{"sleep":{"seconds":10}}}`)
	execSleep := life(`{"preStop":{"exec":{"command":["/bin/sh","-c","sleep 5.5"]}}}`)
	httpHook := life(`{"preStop":{"httpGet":{"path":"/quit","port":80}}}`)
	for _, tc := range []struct {
		name      string
		image     *Image
		lifecycle *api.RawValue
		grace     time.Duration
		at        time.Duration
		code      int32
	}{
		{"prompt image exits after its stop time", prompt, nil, 30 * time.Second, 300 * time.Millisecond, 0},
		{"no stop time: the default", &Image{}, nil, 30 * time.Second, DefaultStopTime, 0},
		{"ignores SIGTERM: killed at the end of the grace period", ignores, nil, 30 * time.Second, 30 * time.Second, 137},
		{"stop time longer than the grace period: killed", &Image{StopTime: 40 * time.Second}, nil, 30 * time.Second, 30 * time.Second, 137},
		{"grace 0 still gets the 2s minimum", ignores, nil, 0, 2 * time.Second, 137},
		{"preStop sleep, then prompt exit", prompt, sleep10, 30 * time.Second, 10*time.Second + 300*time.Millisecond, 0},
		{"preStop sleep, then ignored SIGTERM: killed at the grace period", ignores, sleep10, 30 * time.Second, 30 * time.Second, 137},
		{"preStop longer than grace: cut at grace, then 2s", ignores, sleep10, 4 * time.Second, 6 * time.Second, 137},
		{"exec sleep 5.5 counts 5 whole seconds off the grace period", ignores, execSleep, 30 * time.Second, 5500*time.Millisecond + 25*time.Second, 137},
		{"an httpGet hook returns at once", prompt, httpHook, 30 * time.Second, 300 * time.Millisecond, 0},
		{"grace 0 skips the hook", prompt, sleep10, 0, 300 * time.Millisecond, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &cstate{spec: &api.Container{Name: "app", Lifecycle: tc.lifecycle}, res: &resolved{image: tc.image}}
			at, code := c.stopPlan(kernel.Time(time.Minute), tc.grace)
			if got := at.Sub(kernel.Time(time.Minute)); got != tc.at || code != tc.code {
				t.Errorf("stops after %v with %d, want %v with %d", got, code, tc.at, tc.code)
			}
		})
	}
}

// TestRecorderWords checks that the recorder's field paths and "already
// present" messages read as built fresh, are built once (one string
// for every pod), and that the tables stop growing at maxWords.
func TestRecorderWords(t *testing.T) {
	var r recorder
	r.init(nil)
	if a := r.fieldPath(false, "app"); a != "spec.containers{app}" {
		t.Errorf("field path %q, want spec.containers{app}", a)
	}
	if a := r.fieldPath(true, "a-rather-long-init-container-name"); a != "spec.initContainers{a-rather-long-init-container-name}" {
		t.Errorf("field path %q, want spec.initContainers{a-rather-long-init-container-name}", a)
	}
	if m, want := r.presentMessage(`nginx:1.25`), `Container image "nginx:1.25" already present on machine and can be accessed by the pod`; m != want {
		t.Errorf("message %q, want %q", m, want)
	}
	// Built once: asked again, neither allocates.
	if n := testing.AllocsPerRun(10, func() {
		r.fieldPath(false, "app")
		r.fieldPath(true, "a-rather-long-init-container-name")
		r.presentMessage(`nginx:1.25`)
	}); n != 0 {
		t.Errorf("%v allocations to ask for a field path and a message again, want 0", n)
	}
	for i := range 2 * maxWords {
		name := strconv.Itoa(i)
		if got := r.fieldPath(false, name); got != "spec.containers{"+name+"}" {
			t.Fatalf("field path %q", got)
		}
		r.presentMessage(name)
	}
	if len(r.paths) > maxWords || len(r.present) > maxWords {
		t.Errorf("%d field paths and %d messages kept, at most %d each", len(r.paths), len(r.present), maxWords)
	}
}

// TestTerminationStatesNotChangedInPlace: the pod statuses the kubelet
// writes share a container's termination states (containerStatus), so a
// later exit must replace them, never write into the one a stored status
// holds.
func TestTerminationStatesNotChangedInPlace(t *testing.T) {
	c := &cstate{spec: &api.Container{Name: "app"}, id: "containerd://1"}
	c.terminated(1, kernel.Time(time.Minute))
	first := c.term
	written := *first
	c.id = "containerd://2"
	c.terminated(0, kernel.Time(2*time.Minute))
	if *first != written {
		t.Errorf("the first exit, as a written status holds it, became %+v (was %+v)", *first, written)
	}
	if c.prevTerm != first || c.term == first {
		t.Errorf("prevTerm %p, term %p: want the first exit kept as prevTerm and a new term", c.prevTerm, c.term)
	}
}

// TestContainerID holds containerID to the form it replaced, fmt's
// "containerd://%016x%016x%016x%016x" of four draws in order, on two
// sources of one seed.
func TestContainerID(t *testing.T) {
	a, b := rand.New(rand.NewPCG(7, 9)), rand.New(rand.NewPCG(7, 9))
	for range 50 {
		want := fmt.Sprintf("containerd://%016x%016x%016x%016x", b.Uint64(), b.Uint64(), b.Uint64(), b.Uint64())
		if got := containerID(a); got != want {
			t.Fatalf("containerID = %q, want %q", got, want)
		}
	}
}

// TestIsInBackOffSinceUpdate is client-go's flowcontrol
// TestIsInBackOffSinceUpdate (the Backoff the kubelet's crash loops and
// image pulls use), row by row: initial 1s, maximum 10s; at each tick the
// entry is in back-off or not, with the delay shown, and a tick out of
// back-off moves it on (Next). Past twice the maximum quiet (tick 56) it
// starts over. Planted: doubling without the cap fails it (the rows of
// value 10 read 16s).
func TestIsInBackOffSinceUpdate(t *testing.T) {
	const id = "_idIsInBackOffSinceUpdate"
	step := time.Second
	b := NewBackoff(step, 10*step)
	rows := []struct {
		tick      time.Duration
		inBackOff bool
		value     time.Duration
	}{
		{0, false, 0}, {1, false, 1}, {2, true, 2}, {3, false, 2}, {4, true, 4}, {5, true, 4}, {6, true, 4}, {7, false, 4},
		{8, true, 8}, {9, true, 8}, {10, true, 8}, {11, true, 8}, {12, true, 8}, {13, true, 8}, {14, true, 8}, {15, false, 8},
		{16, true, 10}, {17, true, 10}, {18, true, 10}, {19, true, 10}, {20, true, 10}, {21, true, 10}, {22, true, 10},
		{23, true, 10}, {24, true, 10}, {25, false, 10}, {26, true, 10}, {27, true, 10}, {28, true, 10}, {29, true, 10},
		{30, true, 10}, {31, true, 10}, {32, true, 10}, {33, true, 10}, {34, true, 10}, {35, false, 10},
		{56, false, 0}, {57, false, 1},
	}
	for _, r := range rows {
		now := at(r.tick * step)
		if got := b.IsInBackOffSinceUpdate(id, now); got != r.inBackOff {
			t.Errorf("tick %d: in back-off %v, want %v", r.tick, got, r.inBackOff)
		}
		if r.inBackOff && b.Get(id) != r.value*step {
			t.Errorf("tick %d: back-off %v, want %v", r.tick, b.Get(id), r.value*step)
		}
		if !r.inBackOff {
			b.Next(id, now, now)
		}
	}
}

// TestBackoffHighWaterMarkAndGC are client-go's flowcontrol
// TestBackoffHightWaterMark and TestBackoffGC (initial 1s, maximum 5s):
// an entry at the maximum stays there when moved on within twice the
// maximum, and GC keeps it until it has been quiet for more than twice
// the maximum.
func TestBackoffHighWaterMarkAndGC(t *testing.T) {
	step, maxDuration := time.Second, 5*time.Second
	for _, name := range []string{"high water mark", "GC"} {
		t.Run(name, func(t *testing.T) {
			const id = "_id"
			b := NewBackoff(step, maxDuration)
			now := time.Duration(0)
			for i := 0; i <= int(maxDuration/step); i++ {
				now += step
				b.Next(id, at(now), at(now))
			}
			lastUpdate := now
			now += maxDuration + step
			if name == "high water mark" {
				b.Next(id, at(now), at(now))
				if got := b.Get(id); got != maxDuration {
					t.Fatalf("back-off %v, want it to stay at %v", got, maxDuration)
				}
				return
			}
			b.GC(at(now))
			if b.Len() != 1 {
				t.Fatalf("GC dropped the entry %v after its last update, within twice the maximum", now-lastUpdate)
			}
			now += maxDuration + step
			b.GC(at(now))
			if b.Len() != 0 {
				t.Fatalf("GC kept the entry %v after its last update", now-lastUpdate)
			}
		})
	}
}

// TestLookupByHint: a watch event finds its pod's state by the store's
// number (the hint) only when the state holds the event's prev itself;
// otherwise, and for a list's pods, by name. A state whose pod is another
// one under a reused number is never taken for the event's pod: without
// the check of prev, the event about q found p's state.
func TestLookupByHint(t *testing.T) {
	pod := func(name string) *api.Pod {
		return &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name, UID: api.UID(name + "-uid")}}
	}
	p, q := pod("p"), pod("q")
	k := &Kubelet{byKey: map[api.Key]*podState{}}
	ps := &podState{slot: 0, key: p.Key(), uid: p.UID, pod: p}
	k.slots, k.hints = []*podState{ps}, []uint32{5}
	k.byKey[ps.key] = ps
	copyOfP := *p
	pNext := pod("p")
	tests := []struct {
		name       string
		obj        *api.Pod
		hint       uint32
		prev       api.Object
		want       *podState
		wantHinted bool
	}{
		{"the state holds prev", pNext, 5, p, ps, true},
		{"an equal copy of prev: by name", pNext, 5, &copyOfP, ps, false},
		{"another pod under the number", q, 5, pod("q"), nil, false},
		{"another pod under the number, prev p's", q, 5, &copyOfP, nil, false},
		{"no hint (a list)", pNext, 0, nil, ps, false},
		{"an Added event (no prev)", pNext, 5, nil, ps, false},
		{"a number the kubelet has not seen", pNext, 9, p, ps, false},
	}
	for _, tc := range tests {
		got, hinted := k.lookup(tc.obj, tc.hint, tc.prev)
		if got != tc.want || hinted != tc.wantHinted {
			t.Errorf("%s: state %p (by hint %v), want %p (%v)", tc.name, got, hinted, tc.want, tc.wantHinted)
		}
	}
}
