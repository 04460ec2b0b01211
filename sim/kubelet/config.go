package kubelet

import (
	"errors"
	"fmt"
	"net/netip"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// Kubelet defaults (kubernetes/kubelet config v1beta1 and the kubelet's
// own constants), and the simulator's container timings.
const (
	// DefaultLeaseDuration is nodeLeaseDurationSeconds: 40s.
	DefaultLeaseDuration = 40 * time.Second
	// DefaultLeaseRenewInterval is how often the node Lease is renewed:
	// 10s, a quarter of the lease duration, jittered by up to 4%.
	DefaultLeaseRenewInterval = 10 * time.Second
	// DefaultStatusUpdateFrequency is nodeStatusUpdateFrequency, 10s: how
	// soon a failed node status post is retried.
	DefaultStatusUpdateFrequency = 10 * time.Second
	// DefaultStatusReportFrequency is nodeStatusReportFrequency, 5m: the
	// node status is posted when it changes and at least this often.
	DefaultStatusReportFrequency = 5 * time.Minute
	// DefaultSandboxStart is how long creating a pod sandbox (network
	// namespace, pod IP) takes: 1s.
	DefaultSandboxStart = time.Second
	// DefaultContainerStart is how long creating and starting a container
	// takes once its image is there: 500ms.
	DefaultContainerStart = 500 * time.Millisecond
	// DefaultPresentPull is how long a pull of an image the node already
	// has takes (imagePullPolicy Always): a manifest check, 200ms.
	DefaultPresentPull = 200 * time.Millisecond
	// DefaultFailedPull is how long a pull takes to fail: 500ms.
	DefaultFailedPull = 500 * time.Millisecond
	// DefaultSyncBackoff is how soon the kubelet looks again at a pod
	// that could not make progress (the pod worker's backOffPeriod): 10s.
	DefaultSyncBackoff = 10 * time.Second
	// DefaultStatusRetry is how soon a failed pod status write is retried
	// (the status manager's sync period): 10s.
	DefaultStatusRetry = 10 * time.Second
	// DefaultRequestTimeout bounds every request to the API server: 10s.
	DefaultRequestTimeout = 10 * time.Second
	// LeaseNamespace holds the node Leases.
	LeaseNamespace = "kube-node-lease"
)

// Timings are the kubelet's periods and the simulated container runtime's
// latencies. Zero fields take the defaults above.
type Timings struct {
	// LeaseDuration is the Lease's leaseDurationSeconds (default 40s).
	LeaseDuration time.Duration
	// LeaseRenewInterval is the renewal period (default 10s).
	LeaseRenewInterval time.Duration
	// StatusUpdateFrequency is the retry period of node status posts
	// (default 10s).
	StatusUpdateFrequency time.Duration
	// StatusReportFrequency is the longest gap between node status posts
	// (default 5m).
	StatusReportFrequency time.Duration
	// SandboxStart is the pod sandbox creation time (default 1s).
	SandboxStart time.Duration
	// ContainerStart is a container's create-and-start time (default
	// 500ms).
	ContainerStart time.Duration
	// PresentPull is the pull time of an image already on the node
	// (default 200ms).
	PresentPull time.Duration
	// FailedPull is the time a failing pull takes (default 500ms).
	FailedPull time.Duration
	// SyncBackoff is how soon a stuck pod is looked at again (default 10s).
	SyncBackoff time.Duration
	// StatusRetry is how soon a failed pod status write is retried
	// (default 10s).
	StatusRetry time.Duration
	// ImageBackoffInitial and ImageBackoffMax bound the image pull
	// back-off (10s doubling to 300s).
	ImageBackoffInitial, ImageBackoffMax time.Duration
	// CrashBackoffInitial and CrashBackoffMax bound the crash-loop
	// back-off (10s doubling to 300s).
	CrashBackoffInitial, CrashBackoffMax time.Duration
	// RequestTimeout bounds each API request (default 10s).
	RequestTimeout time.Duration
}

func (t *Timings) defaults() {
	set := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	set(&t.LeaseDuration, DefaultLeaseDuration)
	set(&t.LeaseRenewInterval, DefaultLeaseRenewInterval)
	set(&t.StatusUpdateFrequency, DefaultStatusUpdateFrequency)
	set(&t.StatusReportFrequency, DefaultStatusReportFrequency)
	set(&t.SandboxStart, DefaultSandboxStart)
	set(&t.ContainerStart, DefaultContainerStart)
	set(&t.PresentPull, DefaultPresentPull)
	set(&t.FailedPull, DefaultFailedPull)
	set(&t.SyncBackoff, DefaultSyncBackoff)
	set(&t.StatusRetry, DefaultStatusRetry)
	set(&t.ImageBackoffInitial, DefaultBackoffInitial)
	set(&t.ImageBackoffMax, DefaultBackoffMax)
	set(&t.CrashBackoffInitial, DefaultBackoffInitial)
	set(&t.CrashBackoffMax, DefaultBackoffMax)
	set(&t.RequestTimeout, DefaultRequestTimeout)
}

// Config describes one node and its kubelet.
type Config struct {
	// NodeName is the Node's name; the kubelet acts as
	// "system:node:<NodeName>" from endpoint "kubelet/<NodeName>".
	NodeName string
	// Capacity is the node's capacity: cpu, memory, pods (110 if absent)
	// and any extended resources.
	Capacity api.ResourceList
	// Allocatable is what pods may request of the node (see
	// NodeAllocatable); nil means Capacity. Keys missing from it are
	// taken from Capacity.
	Allocatable api.ResourceList
	// Labels are added to the Node's well-known labels
	// (kubernetes.io/hostname, kubernetes.io/os, kubernetes.io/arch), e.g.
	// topology.kubernetes.io/zone.
	Labels map[string]string
	// Taints are registered with the Node.
	Taints []api.Taint
	// PodCIDR is the node's pod IP range, e.g. "10.244.3.0/24".
	PodCIDR string
	// InternalIP is the node's address and the pods' hostIP; empty means
	// 10.240.x.y, with x.y the 16 bits of PodCIDR just above its prefix
	// (10.244.3.0/24 gives 10.240.244.3).
	InternalIP string
	// Registry is where images are pulled from; nil means
	// DefaultRegistry().
	Registry *Registry
	// Images are on the node from the start (pre-pulled), as references.
	Images []string
	// Timings override the kubelet's periods and runtime latencies.
	Timings Timings
	// NoEvents turns off core/v1 Events, for very large runs.
	NoEvents bool
	// KubeAPI paces the kubelet's API client (kubeAPIQPS, kubeAPIBurst):
	// its registration, pod list and watch, pod status writes and pod
	// deletes. Events paces its event client (eventRecordQPS,
	// eventBurst). Node status and Lease writes go through the heartbeat
	// client, which upstream leaves unpaced (heartbeatClientConfig.QPS =
	// -1, cmd/kubelet/app/server.go). A zero Pacing is unpaced; the
	// kubelet's own defaults are DefaultKubeAPI and DefaultEvents.
	KubeAPI, Events Pacing
	// Paced, when set, is told of every request a paced client lets
	// through (events: the event client's), with how long it waited for
	// its token (0: at once).
	Paced func(events bool, wait time.Duration)
}

// Pacing is a client's token bucket: Burst requests at once, then QPS a
// second; QPS 0 is unpaced.
type Pacing struct {
	QPS   float64
	Burst int
}

// The kubelet's client pacing defaults: kubeAPIQPS 50 and kubeAPIBurst
// 100, eventRecordQPS 50 and eventBurst 100
// (pkg/kubelet/apis/config/v1beta1/defaults.go).
var (
	DefaultKubeAPI = Pacing{QPS: 50, Burst: 100}
	DefaultEvents  = Pacing{QPS: 50, Burst: 100}
)

// defaultMaxPods is the kubelet's maxPods default.
const defaultMaxPods = 110

func (c *Config) validate() error {
	if c.NodeName == "" {
		return errors.New("kubelet: node name is required")
	}
	if c.Registry == nil {
		c.Registry = DefaultRegistry()
	}
	c.Timings.defaults()
	if c.Capacity == nil {
		c.Capacity = api.ResourceList{}
	} else {
		c.Capacity = c.Capacity.DeepCopy()
	}
	if _, ok := c.Capacity[api.ResourcePods]; !ok {
		c.Capacity[api.ResourcePods] = api.NewQuantity(defaultMaxPods, api.DecimalSI)
	}
	alloc := c.Capacity.DeepCopy()
	for name, q := range c.Allocatable {
		alloc[name] = q
	}
	c.Allocatable = alloc
	if c.InternalIP == "" {
		p, err := netip.ParsePrefix(c.PodCIDR)
		if err != nil || !p.Addr().Is4() {
			return fmt.Errorf("kubelet %s: pod CIDR %q: a valid IPv4 CIDR is required", c.NodeName, c.PodCIDR)
		}
		a := p.Masked().Addr().As4()
		v := (uint32(a[0])<<24 | uint32(a[1])<<16 | uint32(a[2])<<8 | uint32(a[3])) >> (32 - p.Bits())
		c.InternalIP = netip.AddrFrom4([4]byte{10, 240, byte(v >> 8), byte(v)}).String()
	} else if ip, err := netip.ParseAddr(c.InternalIP); err != nil || !ip.Is4() {
		return fmt.Errorf("kubelet %s: internal IP %q is not an IPv4 address", c.NodeName, c.InternalIP)
	}
	return nil
}

// Actor is the identity a node's kubelet acts as: "system:node:<node>".
func Actor(node string) string { return "system:node:" + node }
