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
	"gopkg.in/yaml.v3"

	"github.com/clustersim/clustersim/sim/api"
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
}

// Cluster is the simulated nodes.
type Cluster struct {
	// NodeGroups are sets of identical nodes.
	NodeGroups []NodeGroup `json:"nodeGroups,omitempty"`
	// NodeMonitorGracePeriod is how long a node may go without renewing
	// its lease before it is marked Unknown (the node lifecycle
	// controller's --node-monitor-grace-period; default 40s).
	NodeMonitorGracePeriod *api.Duration `json:"nodeMonitorGracePeriod,omitempty"`
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
}

// Registry is the simulated image registry.
type Registry struct {
	// Images are the repositories that exist. An image reference whose
	// repository or tag is not listed fails to pull (ErrImagePull). When
	// the list is empty, a registry of common images is used (nginx,
	// busybox, httpd, redis, registry.k8s.io/hpa-example and others; see
	// docs/scenario-format.md).
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
}

// ObjectRef names an object for an action or an expectation.
type ObjectRef struct {
	// Kind is the object's kind (Deployment, Pod, ...), case-insensitive,
	// plural or singular as kubectl accepts (deployment, deployments,
	// deploy, pods, po, ...).
	Kind      string `json:"kind"`
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
}
