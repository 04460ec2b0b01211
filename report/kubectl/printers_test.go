package kubectl_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/clustersim/clustersim/report/kubectl"
	"github.com/clustersim/clustersim/sim/api"
)

// TestHumanDuration ports apimachinery's duration tests: every boundary
// of HumanDuration.
func TestHumanDuration(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{-2 * time.Second, "<invalid>"},
		{-time.Second - time.Millisecond, "0s"},
		{-time.Millisecond, "0s"},
		{0, "0s"},
		{time.Second, "1s"},
		{45 * time.Second, "45s"},
		{119 * time.Second, "119s"},
		{2 * time.Minute, "2m"},
		{5*time.Minute + 10*time.Second, "5m10s"},
		{9*time.Minute + 59*time.Second, "9m59s"},
		{10 * time.Minute, "10m"},
		{12*time.Minute + 30*time.Second, "12m"},
		{179 * time.Minute, "179m"},
		{3 * time.Hour, "3h"},
		{3*time.Hour + 20*time.Minute, "3h20m"},
		{7*time.Hour + 59*time.Minute, "7h59m"},
		{8 * time.Hour, "8h"},
		{47*time.Hour + 59*time.Minute, "47h"},
		{48 * time.Hour, "2d"},
		{53 * time.Hour, "2d5h"},
		{8*24*time.Hour - time.Hour, "7d23h"},
		{8 * 24 * time.Hour, "8d"},
		{30 * 24 * time.Hour, "30d"},
		{2*365*24*time.Hour - time.Hour, "729d"},
		{2 * 365 * 24 * time.Hour, "2y"},
		{(2*365 + 100) * 24 * time.Hour, "2y100d"},
		{8*365*24*time.Hour - time.Hour, "7y364d"},
		{8 * 365 * 24 * time.Hour, "8y"},
		{10 * 365 * 24 * time.Hour, "10y"},
	} {
		if got := kubectl.HumanDuration(tc.d); got != tc.want {
			t.Errorf("HumanDuration(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

// TestPodStatus checks the READY, STATUS and RESTARTS cells of printPod
// for each branch, independently of the golden table.
func TestPodStatus(t *testing.T) {
	want := map[string][3]string{
		"web-running":          {"1/1", "Running", "0"},
		"web-notready":         {"0/1", "Running", "0"},
		"web-creating":         {"0/1", "ContainerCreating", "0"},
		"web-errimagepull":     {"0/1", "ErrImagePull", "0"},
		"web-imagepullbackoff": {"0/1", "ImagePullBackOff", "0"},
		"web-crashloop":        {"0/1", "CrashLoopBackOff", "4 (38s ago)"},
		"job-completed":        {"0/1", "Completed", "0"},
		"job-error":            {"0/1", "Error", "0"},
		"job-oomkilled":        {"0/1", "OOMKilled", "0"},
		"job-exitcode":         {"0/1", "ExitCode:137", "0"},
		"job-signal":           {"0/1", "Signal:9", "0"},
		"two-of-three":         {"2/3", "Running", "0"},
		"web-terminating":      {"1/1", "Terminating", "0"},
		"web-lost":             {"1/1", "Unknown", "0"},
		"web-pending":          {"0/1", "Pending", "0"},
		"web-gated":            {"0/1", "SchedulingGated", "0"},
		"init-waiting":         {"0/1", "Init:1/2", "0"},
		"init-pull":            {"0/1", "Init:ImagePullBackOff", "0"},
		"init-failed":          {"0/1", "Init:Error", "2"},
		"init-exitcode":        {"0/1", "Init:ExitCode:3", "0"},
		"with-sidecar":         {"2/2", "Running", "3 (2m5s ago)"},
		"job-notready":         {"1/2", "NotReady", "0"},
		"web-evicted":          {"0/1", "Evicted", "0"},
		"web-gates":            {"1/1", "Running", "0"},
	}
	pods := statusPods()
	if len(pods) != len(want) {
		t.Fatalf("%d fixtures, %d expectations", len(pods), len(want))
	}
	for _, p := range pods {
		ready, status, restarts := kubectl.PodStatus(p, now)
		if got := [3]string{ready, status, restarts}; got != want[p.Name] {
			t.Errorf("%s: got %q, want %q", p.Name, got, want[p.Name])
		}
	}
}

func TestNodeStatus(t *testing.T) {
	want := []string{"Ready", "Ready,SchedulingDisabled", "NotReady", "NotReady", "Unknown"}
	for i, n := range nodes() {
		if got := kubectl.NodeStatus(n); got != want[i] {
			t.Errorf("%s: %q, want %q", n.Name, got, want[i])
		}
	}
}

// TestUnsupportedKinds: printers refuse kinds they have no layout for
// instead of printing something wrong.
func TestUnsupportedKinds(t *testing.T) {
	var buf bytes.Buffer
	cm := &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "x"}}
	if err := kubectl.Describe(&buf, cm, kubectl.Related{}, now); !errors.Is(err, kubectl.ErrUnsupportedKind) {
		t.Errorf("describe configmap: %v", err)
	}
	if err := kubectl.Describe(&buf, nil, kubectl.Related{}, now); !errors.Is(err, kubectl.ErrUnsupportedKind) {
		t.Errorf("describe nil: %v", err)
	}
	if err := kubectl.Get(&buf, api.Kind{Group: "example.com", Name: "Widget"}, nil, now, kubectl.GetOptions{}); !errors.Is(err, kubectl.ErrUnsupportedKind) {
		t.Errorf("get widget: %v", err)
	}
	if err := kubectl.Describe(&buf, (*api.Pod)(nil), kubectl.Related{}, now); !errors.Is(err, kubectl.ErrUnsupportedKind) {
		t.Errorf("describe typed nil: %v", err)
	}
	if err := kubectl.RolloutStatus(&buf, nil, now); !errors.Is(err, kubectl.ErrUnsupportedKind) {
		t.Errorf("rollout status nil: %v", err)
	}
	if buf.Len() != 0 {
		t.Errorf("refused printers wrote %q", buf.String())
	}
	// Typed nils among related objects and listed objects are skipped.
	n := nodes()[0]
	if err := kubectl.Describe(&buf, n, kubectl.Related{Objects: []api.Object{(*api.Pod)(nil), (*api.Lease)(nil)}, Events: []*api.Event{nil}}, now); err != nil {
		t.Error(err)
	}
	if err := kubectl.Get(&buf, api.KindPod, []api.Object{(*api.Pod)(nil)}, now, kubectl.GetOptions{}); err != nil {
		t.Error(err)
	}
}

// TestGetSkipsOtherKinds: a list with objects of another kind prints only
// the kind asked for.
func TestGetSkipsOtherKinds(t *testing.T) {
	var buf bytes.Buffer
	d, rss := webDeployment()
	if err := kubectl.Get(&buf, api.KindReplicaSet, []api.Object{d, rss[0], nil}, now, kubectl.GetOptions{NoHeaders: true}); err != nil {
		t.Fatal(err)
	}
	if got, want := buf.String(), "nginx-deployment-2035384211   3     3     3     12m\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestPrintersDoNotMutate renders everything over deep copies and checks
// the originals are unchanged: snapshots are shared with the store.
func TestPrintersDoNotMutate(t *testing.T) {
	p, events := richPod()
	before := p.DeepCopyObject()
	d, rss := webDeployment()
	beforeD := d.DeepCopyObject()
	var buf bytes.Buffer
	if err := kubectl.Describe(&buf, p, kubectl.Related{Events: events}, now); err != nil {
		t.Fatal(err)
	}
	if err := kubectl.Describe(&buf, d, kubectl.Related{Objects: objects(rss)}, now); err != nil {
		t.Fatal(err)
	}
	if err := kubectl.Get(&buf, api.KindPod, []api.Object{p}, now, kubectl.GetOptions{Wide: true}); err != nil {
		t.Fatal(err)
	}
	if !equalJSON(t, before, p) || !equalJSON(t, beforeD, d) {
		t.Error("a printer modified its input")
	}
}

func equalJSON(t *testing.T, a, b any) bool {
	t.Helper()
	ja, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	jb, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Equal(ja, jb)
}
