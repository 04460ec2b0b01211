// Package scenarios holds clustersim's scenario format: the Go types of a
// scenario file (kind: Scenario), its strict loader and validator, and the
// built-in scenarios embedded in the binary. Running a scenario is package
// scenarios/runner's job.
//
// A scenario declares a cluster (node groups), the image registry, the
// network, the controllers to run, the objects that exist at the start, a
// timeline of actions and observations at virtual times, and expectations
// that make it a test. docs/scenario-format.md documents every field.
//
// Loading is strict: an unknown field, a wrong type, a bad duration or
// quantity, an unknown kind, or a reference to a node, controller or
// object that does not exist is an *Error naming file:line:column and the
// field path, and nothing runs.
package scenarios

import (
	"slices"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/clustersim/clustersim/controllers/endpointslice"
	"github.com/clustersim/clustersim/controllers/job"
	"github.com/clustersim/clustersim/controllers/nodelifecycle"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/workqueue"
)

// APIVersion is the scenario format's version.
const APIVersion = "clustersim.dev/v1alpha1"

// Scenario is one scenario file.
type Scenario struct {
	APIVersion string   `json:"apiVersion"`
	Kind       string   `json:"kind"`
	Metadata   Metadata `json:"metadata"`
	Spec       Spec     `json:"spec"`

	// File is where the scenario was loaded from ("builtin:<name>" for a
	// built-in one); Dir is the directory relative file references are
	// resolved against.
	File string `json:"-"`
	Dir  string `json:"-"`
	// Objects are the initial objects, decoded from spec.objects.
	Objects []api.Object `json:"-"`
	root    *yaml.Node
	// refs are the files the scenario references, as read at load, by
	// name as written (WithSchedule inlines its manifests).
	refs map[string][]byte
	// origins is where each object was written, for its warnings, until
	// they are settled (warned) at the end of the load.
	origins origins
	warned  *warned
}

// Metadata names and describes a scenario.
type Metadata struct {
	// Name identifies the scenario (a DNS label); built-in scenarios are
	// run by name.
	Name string `json:"name"`
	// Summary is the one line `clustersim list` prints.
	Summary string `json:"summary,omitempty"`
	// Description is a longer text: what the scenario shows and what to
	// look at.
	Description string `json:"description,omitempty"`
}

// Spec is the body of a scenario.
type Spec struct {
	// Seed is the default root seed (1 when absent); --seed overrides it.
	Seed *uint64 `json:"seed,omitempty"`
	// Duration is how much virtual time the run lasts; required.
	Duration api.Duration `json:"duration"`
	// Cluster is the set of nodes.
	Cluster Cluster `json:"cluster,omitempty"`
	// Registry is the simulated image registry: the images and tags that
	// exist, and how long each takes to pull.
	Registry Registry `json:"registry,omitempty"`
	// Network is the simulated network's behaviour.
	Network Network `json:"network,omitempty"`
	// Controllers chooses the controllers to run and their settings, by
	// name; absent means every standard controller with default settings.
	Controllers map[string]ControllerSettings `json:"controllers,omitempty"`
	// Objects are created before the run starts: each entry is either an
	// inline manifest (any kind clustersim serves, or a v1 List) or
	// {file: path} naming a manifest file relative to the scenario file.
	Objects []*yaml.Node `json:"objects,omitempty"`
	// Timeline is what happens, at virtual times from the start.
	Timeline []Step `json:"timeline,omitempty"`
	// Expect are the run's pass/fail checks.
	Expect []Expectation `json:"expect,omitempty"`
	// Load drives simulated traffic into Deployments; the metrics source
	// the HorizontalPodAutoscaler reads turns it into per-pod CPU usage.
	Load []LoadModel `json:"load,omitempty"`
	// GitOps runs a GitOps syncer (in the manner of Argo CD) over a
	// simulated Git repository whose commits the scenario schedules.
	GitOps *GitOps `json:"gitops,omitempty"`
	// IaC runs a point-in-time infrastructure-as-code tool (in the manner
	// of a state-file tool) at scheduled times.
	IaC *IaC `json:"iac,omitempty"`
	// Faults are injected into one controller: drawn from named profiles
	// by the seed, or scheduled explicitly.
	Faults *Faults `json:"faults,omitempty"`
	// Measure tunes how the gap between declared and actual state is
	// judged: the incident threshold and the settle window.
	Measure Measure `json:"measure,omitempty"`
}

// Measure tunes the gap measurements (package sim/gap defines the gap of
// each kind).
type Measure struct {
	// GapSLO is the service level: a gap open longer than this is an
	// incident (default 5m).
	GapSLO *api.Duration `json:"gapSLO,omitempty"`
	// Settle is how long every gap must stay closed for the cluster to
	// count as converged (default 1m: longer than the 50s a dead
	// kubelet takes to be noticed).
	Settle *api.Duration `json:"settle,omitempty"`
	// Ignore are kinds whose gaps are measured and shown but count
	// neither as incidents nor against convergence (for example Node,
	// when a failed node is left failed on purpose).
	Ignore []string `json:"ignore,omitempty"`
	// Heartbeats is what the audit log keeps of heartbeat writes (lease
	// renewals, node status writes that only move heartbeat times):
	// HeartbeatsKeep (the default) keeps each in full, HeartbeatsCount
	// counts them, so the log of a steady cluster stops growing.
	Heartbeats string `json:"heartbeats,omitempty"`
	// Events is what the audit log keeps of Event writes: EventsKeep (the
	// default) keeps each with every field it changed, EventsBrief keeps
	// each as a record without its field changes (who wrote which Event
	// when, and how), so the detectors still count it but a large
	// cluster's thousands of Events do not hold their fields twice.
	Events string `json:"events,omitempty"`
}

// The values of Measure.Events.
const (
	EventsKeep  = "keep"
	EventsBrief = "brief"
)

// The values of Measure.Heartbeats.
const (
	HeartbeatsKeep  = "keep"
	HeartbeatsCount = "count"
)

// LoadModel is the traffic one Deployment receives. Each ready pod of it
// uses baseCPU plus rps × cpuPerRequest / (ready pods), so adding pods
// lowers each one's usage.
type LoadModel struct {
	// Deployment is the target, "[namespace/]name".
	Deployment string `json:"deployment"`
	// CPUPerRequest is the CPU one request per second costs (e.g. 1m).
	CPUPerRequest api.Quantity `json:"cpuPerRequest"`
	// BaseCPU is each pod's usage with no traffic (default 0).
	BaseCPU *api.Quantity `json:"baseCPU,omitempty"`
	// RPS is the requests per second over time: exactly one of constant,
	// steps (the rate jumps at each point), ramp (linear between points)
	// or csv (a file of "seconds,rps" lines, relative to the scenario).
	RPS RPS `json:"rps"`
}

// RPS is a load curve.
type RPS struct {
	Constant *float64    `json:"constant,omitempty"`
	Steps    []LoadPoint `json:"steps,omitempty"`
	Ramp     []LoadPoint `json:"ramp,omitempty"`
	CSV      string      `json:"csv,omitempty"`
	// Points holds the CSV's points, filled in by the loader.
	Points []LoadPoint `json:"-"`
}

// LoadPoint is a rate from a time on.
type LoadPoint struct {
	At  api.Duration `json:"at"`
	RPS float64      `json:"rps"`
}

// GitOps configures the GitOps syncer and its repository.
type GitOps struct {
	// Resync is the polling interval (default 120s); Jitter adds up to
	// this much at random (default 60s).
	Resync *api.Duration `json:"resync,omitempty"`
	Jitter *api.Duration `json:"jitter,omitempty"`
	// Applications are the synced applications.
	Applications []Application `json:"applications"`
}

// Application is one synced application: a history of commits and how
// they are synced.
type Application struct {
	Name string `json:"name"`
	// Namespace is the destination namespace (default "default").
	Namespace string `json:"namespace,omitempty"`
	// Automated syncs on its own (absent: manual sync only).
	Automated *Automated `json:"automated,omitempty"`
	// IgnoreDifferences are fields the diff ignores, by JSON pointer.
	IgnoreDifferences []IgnoreDifference `json:"ignoreDifferences,omitempty"`
	// SyncOptions, as Argo CD spells them: RespectIgnoreDifferences=true.
	SyncOptions []string `json:"syncOptions,omitempty"`
	// Commits are the repository's history: at a time, the manifests.
	Commits []GitCommit `json:"commits"`
}

// Automated is Argo CD's automated sync policy.
type Automated struct {
	Prune    bool `json:"prune,omitempty"`
	SelfHeal bool `json:"selfHeal,omitempty"`
}

// IgnoreDifference ignores fields of matching objects.
type IgnoreDifference struct {
	Group        string   `json:"group,omitempty"`
	Kind         string   `json:"kind"`
	Name         string   `json:"name,omitempty"`
	Namespace    string   `json:"namespace,omitempty"`
	JSONPointers []string `json:"jsonPointers"`
}

// GitCommit is one commit: the manifests the repository holds from At on.
type GitCommit struct {
	At      api.Duration `json:"at"`
	File    string       `json:"file,omitempty"`
	Objects []*yaml.Node `json:"objects,omitempty"`
	// Parsed holds the decoded objects.
	Parsed []api.Object `json:"-"`
}

// IaC configures the point-in-time tool.
type IaC struct {
	// Runs lists the times the tool runs (plan and apply); Every runs it
	// periodically instead.
	Runs  []api.Duration `json:"runs,omitempty"`
	Every *api.Duration  `json:"every,omitempty"`
	// Refresh makes each run compare with the live objects first; without
	// it a run compares the declaration with its own state file only.
	Refresh bool `json:"refresh,omitempty"`
	// Objects (inline manifests or {file: path}) are the declaration.
	Objects []*yaml.Node `json:"objects"`
	// Parsed holds the decoded declaration.
	Parsed []api.Object `json:"-"`
}

// Cluster is the simulated nodes.
type Cluster struct {
	// NodeGroups are sets of identical nodes.
	NodeGroups []NodeGroup `json:"nodeGroups,omitempty"`
	// NodeMonitorGracePeriod is how long a node may go without renewing
	// its lease before it is marked Unknown (the node lifecycle
	// controller's --node-monitor-grace-period; default 50s).
	NodeMonitorGracePeriod *api.Duration `json:"nodeMonitorGracePeriod,omitempty"`
	// NodeEvictionRate is how many nodes a second the node lifecycle
	// controller taints NoExecute in a zone that is Normal, or fully
	// disrupted while another zone is not (--node-eviction-rate; default
	// 0.1; 0: none).
	NodeEvictionRate *float64 `json:"nodeEvictionRate,omitempty"`
	// SecondaryNodeEvictionRate is the rate in a partially disrupted zone
	// of more than LargeClusterSizeThreshold nodes
	// (--secondary-node-eviction-rate; default 0.01; 0: none).
	SecondaryNodeEvictionRate *float64 `json:"secondaryNodeEvictionRate,omitempty"`
	// LargeClusterSizeThreshold is the zone size above which a partially
	// disrupted zone is still tainted, at the secondary rate
	// (--large-cluster-size-threshold; default 50).
	LargeClusterSizeThreshold *int `json:"largeClusterSizeThreshold,omitempty"`
	// UnhealthyZoneThreshold is the share of a zone's nodes (more than 2
	// of them) not Ready that makes it partially disrupted
	// (--unhealthy-zone-threshold; default 0.55).
	UnhealthyZoneThreshold *float64 `json:"unhealthyZoneThreshold,omitempty"`
	// DefaultTolerationSeconds is how long pods tolerate an unreachable or
	// not-ready node before eviction (the DefaultTolerationSeconds
	// admission plugin; default 300).
	DefaultTolerationSeconds *int64 `json:"defaultTolerationSeconds,omitempty"`
	// EventTTL is how long the API server keeps an Event after its last
	// write (kube-apiserver's --event-ttl; default 1h, whole seconds):
	// etcd's lease arithmetic removes it up to a minute later. 0 keeps
	// Events for the whole run.
	EventTTL *api.Duration `json:"eventTTL,omitempty"`
	// ControllerManager is how kube-controller-manager's controllers
	// run: ControllerManagerPerController (the default), each a process
	// of its own with informers of its own, or
	// ControllerManagerOneProcess, one process whose controllers share
	// its informers, its leader election and its fate, as upstream's do.
	ControllerManager string `json:"controllerManager,omitempty"`
	// Autoscaler tunes the cluster autoscaler, which runs when a node
	// group has autoscaling (controllers/autoscaler; defaults are
	// cluster-autoscaler's).
	Autoscaler *AutoscalerSettings `json:"autoscaler,omitempty"`
	// Kubelet paces every kubelet's clients (the kubelet's
	// configuration; defaults are its own).
	Kubelet *KubeletSettings `json:"kubelet,omitempty"`
}

// KubeletSettings are the kubelet configuration's client pacing fields;
// absent fields take the kubelet's defaults (kubelet.DefaultKubeAPI and
// kubelet.DefaultEvents: 50 QPS, burst 100 each).
type KubeletSettings struct {
	// KubeAPIQPS and KubeAPIBurst pace its API client: registration, the
	// pod list and watch, pod status writes and pod deletes (node status
	// and Lease writes go through its heartbeat client, unpaced).
	KubeAPIQPS   *float64 `json:"kubeAPIQPS,omitempty"`
	KubeAPIBurst int      `json:"kubeAPIBurst,omitempty"`
	// EventRecordQPS and EventBurst pace its event client.
	EventRecordQPS *float64 `json:"eventRecordQPS,omitempty"`
	EventBurst     int      `json:"eventBurst,omitempty"`
	// Unpaced leaves both clients unpaced.
	Unpaced bool `json:"unpaced,omitempty"`
}

// AutoscalerSettings are cluster-autoscaler's flags the simulator
// models; absent fields take its defaults.
type AutoscalerSettings struct {
	// ScanInterval is --scan-interval (10s).
	ScanInterval *api.Duration `json:"scanInterval,omitempty"`
	// ScaleDownUnneededTime is --scale-down-unneeded-time (10m).
	ScaleDownUnneededTime *api.Duration `json:"scaleDownUnneededTime,omitempty"`
	// ScaleDownDelayAfterAdd is --scale-down-delay-after-add (10m).
	ScaleDownDelayAfterAdd *api.Duration `json:"scaleDownDelayAfterAdd,omitempty"`
	// ScaleDownUtilizationThreshold is
	// --scale-down-utilization-threshold (0.5).
	ScaleDownUtilizationThreshold *float64 `json:"scaleDownUtilizationThreshold,omitempty"`
	// ScaleDownEnabled is --scale-down-enabled (true).
	ScaleDownEnabled *bool `json:"scaleDownEnabled,omitempty"`
	// SkipNodesWithSystemPods is --skip-nodes-with-system-pods (true).
	SkipNodesWithSystemPods *bool `json:"skipNodesWithSystemPods,omitempty"`
	// SkipNodesWithLocalStorage is --skip-nodes-with-local-storage
	// (true).
	SkipNodesWithLocalStorage *bool `json:"skipNodesWithLocalStorage,omitempty"`
	// SkipNodesWithCustomControllerPods is
	// --skip-nodes-with-custom-controller-pods (true).
	SkipNodesWithCustomControllerPods *bool `json:"skipNodesWithCustomControllerPods,omitempty"`
	// MaxPodEvictionTime is --max-pod-eviction-time (2m).
	MaxPodEvictionTime *api.Duration `json:"maxPodEvictionTime,omitempty"`
	// MaxGracefulTerminationSec is --max-graceful-termination-sec (600).
	MaxGracefulTerminationSec *int `json:"maxGracefulTerminationSec,omitempty"`
	// MaxNodeProvisionTime is --max-node-provision-time (15m): a
	// scale-up whose machines have not registered by then fails and
	// backs its group off, and machines unregistered that long are
	// deleted.
	MaxNodeProvisionTime *api.Duration `json:"maxNodeProvisionTime,omitempty"`
	// ScaleDownUnreadyEnabled is --scale-down-unready-enabled (true).
	ScaleDownUnreadyEnabled *bool `json:"scaleDownUnreadyEnabled,omitempty"`
	// ScaleDownUnreadyTime is --scale-down-unready-time (20m): how long
	// an unready node must be unneeded before it is removed.
	ScaleDownUnreadyTime *api.Duration `json:"scaleDownUnreadyTime,omitempty"`
	// MaxTotalUnreadyPercentage is --max-total-unready-percentage (45)
	// and OkTotalUnreadyCount --ok-total-unready-count (3): with more
	// unready nodes than both allow the autoscaler halts.
	MaxTotalUnreadyPercentage *float64 `json:"maxTotalUnreadyPercentage,omitempty"`
	OkTotalUnreadyCount       *int     `json:"okTotalUnreadyCount,omitempty"`
	// InitialNodeGroupBackoffDuration (5m), MaxNodeGroupBackoffDuration
	// (30m) and NodeGroupBackoffResetTimeout (3h) are
	// --initial-node-group-backoff-duration,
	// --max-node-group-backoff-duration and
	// --node-group-backoff-reset-timeout: the back-off of a group whose
	// scale-up failed.
	InitialNodeGroupBackoffDuration *api.Duration `json:"initialNodeGroupBackoffDuration,omitempty"`
	MaxNodeGroupBackoffDuration     *api.Duration `json:"maxNodeGroupBackoffDuration,omitempty"`
	NodeGroupBackoffResetTimeout    *api.Duration `json:"nodeGroupBackoffResetTimeout,omitempty"`
	// KubeClientQPS and KubeClientBurst are --kube-client-qps and
	// --kube-client-burst: the pacing of the autoscaler's API client
	// (client-go's rest.DefaultQPS 5 and rest.DefaultBurst 10, which
	// cluster-autoscaler's flags default to). Unpaced leaves its client
	// unpaced.
	KubeClientQPS   *float64 `json:"kubeClientQPS,omitempty"`
	KubeClientBurst int      `json:"kubeClientBurst,omitempty"`
	Unpaced         bool     `json:"unpaced,omitempty"`
}

// GroupAutoscaling lets the cluster autoscaler resize a node group.
type GroupAutoscaling struct {
	// MinSize and MaxSize bound the group's size.
	MinSize int `json:"minSize"`
	MaxSize int `json:"maxSize"`
	// ProvisioningDelay is how long a machine takes from the request to
	// its kubelet starting (default 2m).
	ProvisioningDelay *api.Duration `json:"provisioningDelay,omitempty"`
}

// NodeGroup is Count nodes named <name>-1 ... <name>-<count>.
type NodeGroup struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
	// Capacity is each node's cpu, memory and pods (default 110 pods).
	Capacity api.ResourceList `json:"capacity"`
	// Labels are added to each node (for example
	// topology.kubernetes.io/zone).
	Labels map[string]string `json:"labels,omitempty"`
	// Taints are set on each node.
	Taints []api.Taint `json:"taints,omitempty"`
	// Unschedulable cordons the nodes from the start.
	Unschedulable bool `json:"unschedulable,omitempty"`
	// KubeReserved and SystemReserved are subtracted from the capacity to
	// give the nodes' allocatable (the kubelet's kubeReserved and
	// systemReserved; default none).
	KubeReserved   api.ResourceList `json:"kubeReserved,omitempty"`
	SystemReserved api.ResourceList `json:"systemReserved,omitempty"`
	// Autoscaling, when set, lets the cluster autoscaler resize the
	// group between its minSize and maxSize.
	Autoscaling *GroupAutoscaling `json:"autoscaling,omitempty"`
	// EvictionHard are the kubelet's hard eviction thresholds that
	// reserve resources: memory.available and nodefs.available, each a
	// quantity or a percentage of the capacity (default none; the
	// kubelet's own default is memory.available: 100Mi).
	EvictionHard map[string]string `json:"evictionHard,omitempty"`
}

// Registry is the simulated image registry.
type Registry struct {
	// Images are the repositories that exist. An image reference whose
	// repository or tag is not listed fails to pull (ErrImagePull). When
	// the list is empty, a registry of common images is used (nginx,
	// busybox, httpd, redis, registry.k8s.io/hpa-example and others, with
	// their real tags; see docs/scenario-format.md) and every other
	// repository is assumed to exist (ImageRegistry).
	Images []Image `json:"images,omitempty"`
	// PullTime is the default time a pull takes (default 2s).
	PullTime *api.Duration `json:"pullTime,omitempty"`
}

// Image is one repository of the registry.
type Image struct {
	// Name is the repository, e.g. nginx or registry.k8s.io/hpa-example.
	Name string `json:"name"`
	// Tags that exist; empty means only "latest".
	Tags []string `json:"tags,omitempty"`
	// PullTime overrides the registry's default.
	PullTime *api.Duration `json:"pullTime,omitempty"`
	// ExitAfter makes containers of this image exit (crash) after running
	// this long, with ExitCode (default 1): a crash-looping image.
	ExitAfter *api.Duration `json:"exitAfter,omitempty"`
	ExitCode  *int32        `json:"exitCode,omitempty"`
	// StopTime is how long its containers take to exit after SIGTERM
	// (default 100ms).
	StopTime *api.Duration `json:"stopTime,omitempty"`
	// IgnoresSigterm makes its containers ignore SIGTERM: they run until
	// the grace period ends and are killed (exit code 137).
	IgnoresSigterm bool `json:"ignoresSigterm,omitempty"`
	// ReadyAfter is how long after a container starts its application
	// answers probes (before, they fail: connection refused).
	ReadyAfter *api.Duration `json:"readyAfter,omitempty"`
	// UnhealthyAfter is how long after a container starts its
	// application hangs: from then its httpGet, exec and grpc probes
	// fail after their timeoutSeconds.
	UnhealthyAfter *api.Duration `json:"unhealthyAfter,omitempty"`
}

// Network is the simulated network.
type Network struct {
	// Default applies to every link that no rule names.
	Default Link `json:"default,omitempty"`
	// Links override single links, matched by endpoint name patterns.
	Links []LinkRule `json:"links,omitempty"`
	// RequestTimeout bounds each client request (default 10s).
	RequestTimeout *api.Duration `json:"requestTimeout,omitempty"`
}

// Link is the behaviour of one direction of a link.
type Link struct {
	// Latency is the base one-way delay; Jitter adds a random part drawn
	// by Distribution (uniform, exponential or constant; default uniform).
	Latency      api.Duration `json:"latency,omitempty"`
	Jitter       api.Duration `json:"jitter,omitempty"`
	Distribution string       `json:"distribution,omitempty"`
	// Drop, Duplicate, Reorder: probabilities in [0, 1] for requests,
	// replies and datagrams.
	Drop         float64      `json:"drop,omitempty"`
	Duplicate    float64      `json:"duplicate,omitempty"`
	Reorder      float64      `json:"reorder,omitempty"`
	ReorderDelay api.Duration `json:"reorderDelay,omitempty"`
	// Delay is the probability of an extra DelayExtra.
	Delay      float64      `json:"delay,omitempty"`
	DelayExtra api.Duration `json:"delayExtra,omitempty"`
	// StreamBreak is the probability that a watch event breaks its
	// stream; StreamLoss that it is silently lost.
	StreamBreak float64 `json:"streamBreak,omitempty"`
	StreamLoss  float64 `json:"streamLoss,omitempty"`
	// StreamLag delays every watch event on the link by this much more
	// than its latency: the watcher's cache lags the store (calls are not
	// delayed).
	StreamLag api.Duration `json:"streamLag,omitempty"`
}

// LinkRule sets the links from endpoints matching From to endpoints
// matching To. Endpoint names: "apiserver", "controller/<manager>",
// "kubelet/<node>", "user/<name>"; a pattern may end in "*".
type LinkRule struct {
	From string `json:"from"`
	To   string `json:"to"`
	// Both applies the rule in both directions.
	Both bool `json:"both,omitempty"`
	Link `json:",inline"`
}

// ControllerSettings tune one controller.
type ControllerSettings struct {
	// Enabled turns the controller off with false (default true).
	Enabled *bool `json:"enabled,omitempty"`
	// Workers is the number of concurrent reconciles (the controller's own
	// default when absent).
	Workers int `json:"workers,omitempty"`
	// Resync is the informers' resync period (default none).
	Resync *api.Duration `json:"resync,omitempty"`
	// QPS and Burst pace the controller's API client with a token bucket
	// (client.Options): Burst requests at once, then QPS a second. Absent,
	// each takes the controller's DefaultPacing (kube-controller-manager's
	// 20 and 30, kube-scheduler's 50 and 100, none for the opt-in
	// operators); a QPS without a default burst takes a burst of the QPS
	// rounded up. QPS must be positive: Unpaced, not qps 0, leaves the
	// client unpaced.
	QPS   *float64 `json:"qps,omitempty"`
	Burst int      `json:"burst,omitempty"`
	// Unpaced leaves the controller's client without a token bucket (as
	// a client-go rest.Config with a negative QPS has none).
	Unpaced bool `json:"unpaced,omitempty"`
	// UpdatesBatchPeriod delays the sync a pod's change asks of its
	// Services by this much, so that the changes of their other pods
	// within it are one sync: kube-controller-manager's
	// --endpoint-updates-batch-period (endpoints) and
	// --endpointslice-updates-batch-period (endpointslice), default 0;
	// only those two controllers take it.
	UpdatesBatchPeriod *api.Duration `json:"updatesBatchPeriod,omitempty"`
	// Standbys is how many standby replicas run beside a controller that
	// elects a leader (the scheduler, kube-controller-manager's
	// controllers), each at endpoint controller/<name>/standby-<i>,
	// waiting for the lease; default 0, at most MaxStandbys.
	Standbys int `json:"standbys,omitempty"`
	// Workqueue sets the retry limits of the controller's work queue in
	// place of its own (QueueLimits); absent, the controller's.
	Workqueue *QueueSettings `json:"workqueue,omitempty"`
	// SlowStartInitialBatch is the size of a sync's first batch of pod
	// creates, each next batch twice the last until one fails (upstream's
	// SlowStartInitialBatchSize, 1); BurstReplicas caps a sync's creates
	// or deletes (500 for ReplicaSets, 250 for DaemonSets). Only the
	// SlowStartControllers take them.
	SlowStartInitialBatch int `json:"slowStartInitialBatch,omitempty"`
	BurstReplicas         int `json:"burstReplicas,omitempty"`
	// PercentageOfNodesToScore is KubeSchedulerConfiguration's
	// percentageOfNodesToScore, the scheduler's only: once a cluster has
	// 100 nodes, a scheduling cycle stops searching when it has found
	// this share of them feasible (at least 100), and scores those. 0 or
	// absent is upstream's adaptive default, 50% less 1% for every 125
	// nodes, at least 5%: 144 nodes a pod at 300 nodes, 780 at 3,000.
	// From 0 to 100, as upstream validates it.
	PercentageOfNodesToScore *int32 `json:"percentageOfNodesToScore,omitempty"`
}

// SlowStartControllers are the controllers that take slowStartInitialBatch
// and burstReplicas.
var SlowStartControllers = []string{"replicaset", "daemonset"}

// MaxBurstReplicas bounds slowStartInitialBatch and burstReplicas (the
// pods one sync may create).
const MaxBurstReplicas = 100_000

// QueueSettings are what spec.controllers.<name>.workqueue sets of a
// controller's retry limits (workqueue.Limits): each field set replaces
// the controller's own, each absent keeps it.
type QueueSettings struct {
	// BaseDelay is an item's first retry delay, doubling with each
	// failure; MaxDelay caps it.
	BaseDelay *api.Duration `json:"baseDelay,omitempty"`
	MaxDelay  *api.Duration `json:"maxDelay,omitempty"`
	// QPS and Burst are the overall bucket every retry takes a token
	// from.
	QPS   *float64 `json:"qps,omitempty"`
	Burst int      `json:"burst,omitempty"`
}

// limits returns what q sets as workqueue.Limits, zero where absent.
func (q *QueueSettings) limits() workqueue.Limits {
	var l workqueue.Limits
	if q.BaseDelay != nil {
		l.BaseDelay = q.BaseDelay.Duration
	}
	if q.MaxDelay != nil {
		l.MaxDelay = q.MaxDelay.Duration
	}
	if q.QPS != nil {
		l.QPS = *q.QPS
	}
	l.Burst = q.Burst
	return l
}

// QueueOverrides returns what cs's workqueue sets, for
// controller.ManagerOptions.QueueLimits: zero fields keep each
// controller's own limits.
func (cs ControllerSettings) QueueOverrides() workqueue.Limits {
	if cs.Workqueue == nil {
		return workqueue.Limits{}
	}
	return cs.Workqueue.limits()
}

// QueueLimits returns controller name's own retry limits, upstream's,
// and false for a controller whose retries no work queue limits: the
// scheduler (its scheduling queue backs pods off by its own
// podInitialBackoffSeconds and podMaxBackoffSeconds) and the HPA
// controller (every HPA retried at its sync period, upstream's
// FixedItemIntervalRateLimiter).
func QueueLimits(name string) (workqueue.Limits, bool) {
	switch name {
	case "scheduler", "horizontal-pod-autoscaler":
		return workqueue.Limits{}, false
	case "job":
		return job.RetryLimits, true
	case "endpointslice":
		return endpointslice.RetryLimits, true
	}
	return workqueue.DefaultLimits, true
}

// tuned names the first setting cs has besides enabled ("" for none), in
// the order of the fields.
func (cs ControllerSettings) tuned() string {
	switch {
	case cs.Workers != 0:
		return "workers"
	case cs.Resync != nil:
		return "resync"
	case cs.QPS != nil:
		return "qps"
	case cs.Burst != 0:
		return "burst"
	case cs.Unpaced:
		return "unpaced"
	case cs.UpdatesBatchPeriod != nil:
		return "updatesBatchPeriod"
	case cs.Standbys != 0:
		return "standbys"
	case cs.Workqueue != nil:
		return "workqueue"
	case cs.SlowStartInitialBatch != 0:
		return "slowStartInitialBatch"
	case cs.BurstReplicas != 0:
		return "burstReplicas"
	case cs.PercentageOfNodesToScore != nil:
		return "percentageOfNodesToScore"
	}
	return ""
}

// BatchingControllers are the controllers that take updatesBatchPeriod.
var BatchingControllers = []string{"endpoints", "endpointslice"}

// BatchPeriod is UpdatesBatchPeriod's duration, 0 when absent.
func (cs ControllerSettings) BatchPeriod() time.Duration {
	if cs.UpdatesBatchPeriod == nil {
		return 0
	}
	return cs.UpdatesBatchPeriod.Duration
}

// spec.cluster.controllerManager's values.
const (
	// ControllerManagerPerController runs each of
	// kube-controller-manager's controllers as a process of its own, at
	// endpoint controller/<name>, with its own informers, lease
	// (kube-controller-manager-<name>) and crashes: a fault can reach
	// one controller alone.
	ControllerManagerPerController = "per-controller"
	// ControllerManagerOneProcess runs them as upstream does: one
	// process, kube-controller-manager, whose controllers share one
	// informer factory (one list and watch a kind, from endpoint
	// controller/kube-controller-manager, as
	// system:kube-controller-manager), one lease (kube-controller-manager)
	// and every crash. Each controller keeps its own client (its service
	// account, its rate limits, its endpoint for its requests).
	ControllerManagerOneProcess = "one-process"
)

// ControllerManagerProcess names kube-controller-manager's one process
// (its endpoint is controller/kube-controller-manager) and its lease.
const ControllerManagerProcess = "kube-controller-manager"

// OneProcess reports whether s runs kube-controller-manager as one
// process (spec.cluster.controllerManager: one-process).
func (s *Scenario) OneProcess() bool {
	return s.Spec.Cluster.ControllerManager == ControllerManagerOneProcess
}

// InControllerManager reports whether the named controller is one of
// kube-controller-manager's: a built-in controller that is neither the
// scheduler (kube-scheduler's) nor an opt-in operator.
func InControllerManager(name string) bool {
	return name != "scheduler" && slices.Contains(Controllers, name) && !slices.Contains(OptInControllers, name)
}

// MaxStandbys caps spec.controllers.<name>.standbys: a control plane of
// five nodes runs four standbys of each component.
const MaxStandbys = 4

// ObjectRef names an object for an action or an expectation.
type ObjectRef struct {
	// Kind is the object's kind (Deployment, Pod, ...), case-insensitive,
	// plural or singular as kubectl accepts (deployment, deployments,
	// deploy, pods, po, ...).
	Kind      string `json:"kind"`
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
}

// EvictionOptions are the node lifecycle controller's eviction options
// that c sets (nodeEvictionRate, secondaryNodeEvictionRate,
// largeClusterSizeThreshold, unhealthyZoneThreshold), the others left at
// their defaults. c's values are upstream's flags' (0: no taints, or
// every zone large); the options take 0 for the default and a negative
// value for those.
func (c *Cluster) EvictionOptions() nodelifecycle.Options {
	var o nodelifecycle.Options
	orNone := func(v *float64, d *float64) {
		if v != nil {
			*d = *v
			if *v == 0 {
				*d = -1
			}
		}
	}
	orNone(c.NodeEvictionRate, &o.EvictionRate)
	orNone(c.SecondaryNodeEvictionRate, &o.SecondaryEvictionRate)
	if t := c.LargeClusterSizeThreshold; t != nil {
		o.LargeClusterThreshold = *t
		if *t == 0 {
			o.LargeClusterThreshold = -1
		}
	}
	if u := c.UnhealthyZoneThreshold; u != nil {
		o.UnhealthyZoneThreshold = *u
	}
	return o
}
