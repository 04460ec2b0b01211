package scenarios

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/netsim"
)

// Step is one entry of the timeline: at a virtual time, exactly one action
// or observation. Object names without a namespace are in "default"; a
// string naming a namespaced object may be "namespace/name".
type Step struct {
	// At is the virtual time from the start of the run.
	At api.Duration `json:"at"`
	// As is the user the action runs as (default "admin"), for actions
	// that go through the API as a user.
	As string `json:"as,omitempty"`

	// Apply applies manifests as `kubectl apply` does (created,
	// configured or unchanged).
	Apply *Apply `json:"apply,omitempty"`
	// Delete deletes an object (`kubectl delete`).
	Delete *Delete `json:"delete,omitempty"`
	// Scale sets a Deployment's or ReplicaSet's replicas.
	Scale *Scale `json:"scale,omitempty"`
	// SetImage changes a container's image (`kubectl set image`).
	SetImage *SetImage `json:"setImage,omitempty"`
	// DeletePod deletes pods by name or by label selector.
	DeletePod *DeletePod `json:"deletePod,omitempty"`
	// Edit changes an object by a JSON merge patch, like a manual
	// `kubectl edit`.
	Edit *Edit `json:"edit,omitempty"`
	// Cordon, Uncordon and Drain act on a node by name.
	Cordon   string `json:"cordon,omitempty"`
	Uncordon string `json:"uncordon,omitempty"`
	Drain    string `json:"drain,omitempty"`
	// DrainTimeout is a drain's --timeout: how long kubectl keeps retrying
	// evictions a disruption budget refuses. Unset, it retries until the
	// run ends (kubectl's default is no timeout).
	DrainTimeout *api.Duration `json:"drainTimeout,omitempty"`
	// CrashNode stops a node's kubelet (it stops renewing its lease and
	// serving its pods, and its network endpoint goes down); RecoverNode
	// brings it back.
	CrashNode   string `json:"crashNode,omitempty"`
	RecoverNode string `json:"recoverNode,omitempty"`
	// CrashNodes crashes, as CrashNode does, every node whose labels the
	// selector matches at that time ("topology.kubernetes.io/zone=a": a
	// zone lost).
	CrashNodes string `json:"crashNodes,omitempty"`
	// AddNodes adds nodes to a node group.
	AddNodes *AddNodes `json:"addNodes,omitempty"`
	// Partition cuts the network between two sets of endpoints; Heal
	// ends a partition by name.
	Partition *Partition `json:"partition,omitempty"`
	Heal      string     `json:"heal,omitempty"`
	// Network changes some fields of the links between two sets of
	// endpoints, until a later time or the end of the run.
	Network *NetworkChange `json:"network,omitempty"`
	// CrashController kills a controller (its memory is lost);
	// RestartController starts it again (it relists everything).
	CrashController   string `json:"crashController,omitempty"`
	RestartController string `json:"restartController,omitempty"`
	// APIServerDown and APIServerUp make the API server answer 503 to
	// everything, and answer again.
	APIServerDown bool `json:"apiServerDown,omitempty"`
	APIServerUp   bool `json:"apiServerUp,omitempty"`
	// RolloutUndo, RolloutRestart, RolloutPause and RolloutResume are the
	// `kubectl rollout` commands on a Deployment.
	RolloutUndo    *RolloutUndo `json:"rolloutUndo,omitempty"`
	RolloutRestart string       `json:"rolloutRestart,omitempty"`
	RolloutPause   string       `json:"rolloutPause,omitempty"`
	RolloutResume  string       `json:"rolloutResume,omitempty"`

	// ServerSideApply applies manifests with `kubectl apply --server-side`
	// as a field manager (default "kubectl"), optionally forcing conflicts.
	ServerSideApply *ServerSideApply `json:"serverSideApply,omitempty"`
	// Command sends an imperative command with retries on timeout: the
	// counterpart of a declaration.
	Command *Command `json:"command,omitempty"`
	// StopKubelet makes a node's kubelet hang (no lease renewals, no
	// status, no pod work) while the machine stays on the network.
	StopKubelet string `json:"stopKubelet,omitempty"`
	// Request sends one API write as it is (clustersim serve --record
	// writes kubectl's writes as request steps).
	Request *Request `json:"request,omitempty"`
	// Increment adds to a counter in a ConfigMap by read-modify-write,
	// some number of times in a row: with the resourceVersion read
	// (conflicts re-read and retried) or unconditionally (lost updates).
	Increment *Increment `json:"increment,omitempty"`

	// Get prints objects like `kubectl get`.
	Get *Get `json:"get,omitempty"`
	// Describe prints an object like `kubectl describe`.
	Describe *ObjectRef `json:"describe,omitempty"`
	// RolloutStatus runs `kubectl rollout status`: it watches a
	// Deployment (or a DaemonSet or StatefulSet), prints a line at each
	// change, and exits when the rollout completes, fails (progress
	// deadline exceeded) or its timeout passes.
	RolloutStatus *RolloutStatus `json:"rolloutStatus,omitempty"`
	// RolloutHistory prints `kubectl rollout history` of a Deployment.
	RolloutHistory *RolloutHistory `json:"rolloutHistory,omitempty"`
	// Events prints events like `kubectl get events`.
	Events *Events `json:"events,omitempty"`
	// Writes prints, from the audit log, every accepted write so far that
	// changed one field of one object: when, who, old and new value.
	Writes *Writes `json:"writes,omitempty"`
	// AppStatus prints a GitOps application's sync status and history.
	AppStatus string `json:"appStatus,omitempty"`
	// IaCState prints the IaC tool's runs and state so far.
	IaCState bool `json:"iacState,omitempty"`
}

// Writes names a field of an object, by the audit log's path form
// (spec.replicas, spec.template.spec.containers[nginx].image).
type Writes struct {
	ObjectRef `json:",inline"`
	Path      string `json:"path"`
}

// ServerSideApply names manifests (a file or inline objects) to apply
// server-side.
type ServerSideApply struct {
	File         string       `json:"file,omitempty"`
	Objects      []*yaml.Node `json:"objects,omitempty"`
	FieldManager string       `json:"fieldManager,omitempty"`
	Force        bool         `json:"force,omitempty"`
	// Parsed holds the decoded objects.
	Parsed []api.Object `json:"-"`
}

// Command is one imperative command, retried on timeout (Retries, default
// 3): each attempt runs the whole command again, its reads included. Its
// output lists every attempt and how it ended (a timed-out write marked
// ambiguous) and, once the run is over, what the audit log shows the
// user's writes did. Exactly one of the commands is set.
type Command struct {
	// CreatePod reads a Deployment's or ReplicaSet's template and creates
	// a pod from it ("create one more replica"), named by generateName.
	CreatePod *ObjectRef `json:"createPod,omitempty"`
	// DeletePod deletes one pod matching a selector ("delete one
	// replica").
	DeletePod string `json:"deletePod,omitempty"`
	// ScaleUp reads a Deployment's replicas and writes one more.
	ScaleUp *ObjectRef `json:"scaleUp,omitempty"`
	// Retries is how many times a timed-out command is sent again.
	Retries *int `json:"retries,omitempty"`
}

// Increment reads a ConfigMap, adds By (default 1) to the integer under
// data[Key] (0 when absent) and writes it back, Times times in a row
// (default 1). The write carries the resourceVersion read, so that a
// write by someone else in between fails it with a 409 Conflict and it
// reads again; Unconditional clears the resourceVersion, which the API
// server accepts as an unconditional update: the last write wins and an
// increment made in between is lost. A timed-out increment is retried
// like a command (Retries, default 3).
type Increment struct {
	// ConfigMap is "[namespace/]name".
	ConfigMap     string `json:"configMap"`
	Key           string `json:"key"`
	By            *int64 `json:"by,omitempty"`
	Times         int    `json:"times,omitempty"`
	Unconditional bool   `json:"unconditional,omitempty"`
	Retries       *int   `json:"retries,omitempty"`
}

// Apply names manifests to apply: a file relative to the scenario, or
// inline objects.
type Apply struct {
	File    string       `json:"file,omitempty"`
	Objects []*yaml.Node `json:"objects,omitempty"`
	// Parsed holds the decoded objects.
	Parsed []api.Object `json:"-"`
}

// Delete names an object to delete and the cascading policy (background,
// foreground or orphan; default background).
type Delete struct {
	ObjectRef `json:",inline"`
	Cascade   string `json:"cascade,omitempty"`
}

// Scale sets replicas.
type Scale struct {
	ObjectRef `json:",inline"`
	Replicas  int32 `json:"replicas"`
}

// SetImage changes one container's image of a Deployment.
type SetImage struct {
	Deployment string `json:"deployment"`
	Container  string `json:"container"`
	Image      string `json:"image"`
}

// DeletePod deletes pods: one by Name, or Count (default 1) of those
// matching Selector, chosen by name order.
type DeletePod struct {
	Name      string `json:"name,omitempty"`
	Namespace string `json:"namespace,omitempty"`
	Selector  string `json:"selector,omitempty"`
	Count     int    `json:"count,omitempty"`
}

// Edit applies Patch (a mapping, as a JSON merge patch) to an object.
type Edit struct {
	ObjectRef `json:",inline"`
	Patch     *yaml.Node `json:"patch"`
	// PatchJSON is Patch as JSON, filled in by the loader.
	PatchJSON []byte `json:"-"`
}

// AddNodes adds Count nodes to the node group Group.
type AddNodes struct {
	Group string `json:"group"`
	Count int    `json:"count"`
}

// Partition blocks traffic between endpoints matching A and endpoints
// matching B (both ways unless OneWay: then only A to B).
type Partition struct {
	Name   string   `json:"name"`
	A      []string `json:"a"`
	B      []string `json:"b"`
	OneWay bool     `json:"oneWay,omitempty"`
}

// NetworkChange changes the links from endpoints matching From to
// endpoints matching To (both ways with Both), patterns as in
// spec.network.links: the fields Link gives replace the links' values,
// the others keep theirs. At Until the links return to what they were
// (absent: the change lasts to the end of the run). Changes in force
// together apply in the order they started.
type NetworkChange struct {
	From string `json:"from"`
	To   string `json:"to"`
	Both bool   `json:"both,omitempty"`
	// Link holds the fields to change, named as in spec.network.default.
	Link  *yaml.Node    `json:"link"`
	Until *api.Duration `json:"until,omitempty"`
	// Parsed is Link decoded and Fields the names it gives, filled in by
	// the loader.
	Parsed Link     `json:"-"`
	Fields []string `json:"-"`
}

// Apply returns cfg with the fields the change gives replaced.
func (c *NetworkChange) Apply(cfg netsim.LinkConfig) netsim.LinkConfig {
	k := c.Parsed
	for _, f := range c.Fields {
		switch f {
		case "latency":
			cfg.Latency.Base = k.Latency.Duration
		case "jitter":
			cfg.Latency.Jitter = k.Jitter.Duration
		case "distribution":
			if d, err := LinkConfig(Link{Distribution: k.Distribution}); err == nil {
				cfg.Latency.Dist = d.Latency.Dist
			}
		case "drop":
			cfg.Drop = k.Drop
		case "duplicate":
			cfg.Duplicate = k.Duplicate
		case "reorder":
			cfg.Reorder = k.Reorder
		case "reorderDelay":
			cfg.ReorderDelay = k.ReorderDelay.Duration
		case "delay":
			cfg.Delay = k.Delay
		case "delayExtra":
			cfg.DelayExtra = k.DelayExtra.Duration
		case "streamBreak":
			cfg.StreamBreak = k.StreamBreak
		case "streamLoss":
			cfg.StreamLoss = k.StreamLoss
		case "streamLag":
			cfg.StreamLag = k.StreamLag.Duration
		}
	}
	return cfg
}

// String is the change as the timeline prints it:
// "controller/deployment -> apiserver: drop 1 until 5m0s".
func (c *NetworkChange) String() string {
	arrow := "->"
	if c.Both {
		arrow = "<->"
	}
	v := reflect.ValueOf(c.Parsed)
	var parts []string
	for _, f := range c.Fields {
		for i := range v.NumField() {
			if jsonName(v.Type().Field(i)) == f {
				parts = append(parts, fmt.Sprintf("%s %v", f, v.Field(i).Interface()))
			}
		}
	}
	s := fmt.Sprintf("%s %s %s: %s", c.From, arrow, c.To, strings.Join(parts, ", "))
	if c.Until != nil {
		s += " until " + c.Until.Duration.String()
	}
	return s
}

// RolloutUndo rolls a Deployment back to ToRevision (0: the previous).
type RolloutUndo struct {
	Deployment string `json:"deployment"`
	ToRevision int64  `json:"toRevision,omitempty"`
}

// RolloutStatus is `kubectl rollout status TYPE/NAME [--watch=false]
// [--timeout=d]`. Written as a string, it names a Deployment
// ("[namespace/]name") and takes kubectl's defaults: watch, no timeout.
// As a mapping, exactly one of Deployment, DaemonSet and StatefulSet
// names the object.
type RolloutStatus struct {
	Deployment  string `json:"deployment,omitempty"`
	DaemonSet   string `json:"daemonSet,omitempty"`
	StatefulSet string `json:"statefulSet,omitempty"`
	// Watch false prints the status once and exits (--watch=false);
	// absent or true watches until the rollout is done (kubectl's
	// default).
	Watch *bool `json:"watch,omitempty"`
	// Timeout is --timeout: how long the watch may last before kubectl
	// gives up with "timed out waiting for the condition". Absent, it
	// waits until done or the run ends (kubectl's default, 0: never).
	Timeout *api.Duration `json:"timeout,omitempty"`
}

// UnmarshalJSON reads a Deployment reference string or the mapping.
func (r *RolloutStatus) UnmarshalJSON(b []byte) error {
	type plain RolloutStatus
	return refOrMapping(b, &r.Deployment, (*plain)(r))
}

// nameOrMapping marks a type written as a name or as a mapping of its
// fields (the format's documentation test walks its fields).
func (*RolloutStatus) nameOrMapping() {}

// Ref returns the kind and "[namespace/]name" the step watches.
func (r *RolloutStatus) Ref() (api.Kind, string) {
	switch {
	case r.DaemonSet != "":
		return api.KindDaemonSet, r.DaemonSet
	case r.StatefulSet != "":
		return api.KindStatefulSet, r.StatefulSet
	}
	return api.KindDeployment, r.Deployment
}

// Watching reports whether the step watches (kubectl's --watch, default
// true).
func (r *RolloutStatus) Watching() bool { return r.Watch == nil || *r.Watch }

// RolloutHistory is `kubectl rollout history deployment/NAME
// [--revision=n]`. Written as a string, it names the Deployment
// ("[namespace/]name").
type RolloutHistory struct {
	Deployment string `json:"deployment"`
	// Revision, when set, prints that revision's pod template instead of
	// the table of revisions.
	Revision int64 `json:"revision,omitempty"`
}

// UnmarshalJSON reads a Deployment reference string or the mapping.
func (r *RolloutHistory) UnmarshalJSON(b []byte) error {
	type plain RolloutHistory
	return refOrMapping(b, &r.Deployment, (*plain)(r))
}

func (*RolloutHistory) nameOrMapping() {}

// refOrMapping decodes b, a JSON string into *ref or a JSON object into
// v strictly (an unknown key is an error).
func refOrMapping(b []byte, ref *string, v any) error {
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, ref)
	}
	if len(b) == 0 || b[0] != '{' {
		return fmt.Errorf("want a name (\"[namespace/]name\") or a mapping")
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	err := d.Decode(v)
	if err != nil && strings.HasPrefix(err.Error(), "json: unknown field ") {
		var known []string
		t := reflect.TypeOf(v).Elem()
		for i := range t.NumField() {
			known = append(known, jsonName(t.Field(i)))
		}
		return fmt.Errorf("%s (known: %s)", strings.TrimPrefix(err.Error(), "json: "), strings.Join(known, ", "))
	}
	return err
}

// Get lists objects of a kind.
type Get struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	// AllNamespaces lists every namespace (-A).
	AllNamespaces bool   `json:"allNamespaces,omitempty"`
	Selector      string `json:"selector,omitempty"`
	// Wide adds kubectl's -o wide columns.
	Wide bool `json:"wide,omitempty"`
}

// Events lists events of a namespace, or of one object.
type Events struct {
	Namespace string     `json:"namespace,omitempty"`
	For       *ObjectRef `json:"for,omitempty"`
}

// Expectation is one check of the run. Exactly one of its checks is set.
type Expectation struct {
	// Name describes the check in reports (a default is derived).
	Name string `json:"name,omitempty"`

	// RolloutComplete: the Deployment completes its rollout (as `kubectl
	// rollout status` reports success) by Within.
	RolloutComplete *RolloutComplete `json:"rolloutComplete,omitempty"`
	// RolloutStatus: a rolloutStatus step of the timeline ended the way
	// Outcome says (succeeded, progressDeadlineExceeded, timedOut, ...).
	RolloutStatus *RolloutStatusCheck `json:"rolloutStatus,omitempty"`
	// Condition: the object's condition reaches status (and reason) by
	// Within, or holds at At.
	Condition *ConditionCheck `json:"condition,omitempty"`
	// Field: a field of the object equals a value at At (or by Within).
	Field *FieldCheck `json:"field,omitempty"`
	// Pods: the number of pods matching a selector (and phase) equals a
	// value at At (or by Within).
	Pods *PodsCheck `json:"pods,omitempty"`
	// Converged: every judged gap between declared and actual state is
	// closed, and stays closed for spec.measure.settle, at some time from
	// After to Within.
	Converged *ConvergedCheck `json:"converged,omitempty"`
	// Incidents: at most Max gaps stay open longer than
	// spec.measure.gapSLO during the run.
	Incidents *IncidentsCheck `json:"incidents,omitempty"`
	// Findings: what the detectors (report/measure) find over the whole
	// run stays within bounds: fights, flapping fields, hot loops, no-op
	// writes.
	Findings *FindingsCheck `json:"findings,omitempty"`
}

// FindingsCheck bounds the detectors' findings over a run; each given
// range must hold, absent ones are not checked.
type FindingsCheck struct {
	// Fights counts fields two or more actors kept setting to different
	// values; Flaps fields whose value reversed; HotLoops stretches of a
	// controller reconciling fast without changing anything; NoOpWrites
	// accepted writes that changed nothing.
	Fights     *Range `json:"fights,omitempty"`
	Flaps      *Range `json:"flaps,omitempty"`
	HotLoops   *Range `json:"hotLoops,omitempty"`
	NoOpWrites *Range `json:"noOpWrites,omitempty"`
}

// Range bounds a count: at least Min and at most Max, each optional.
type Range struct {
	Min *int `json:"min,omitempty"`
	Max *int `json:"max,omitempty"`
}

// ConvergedCheck checks convergence (package sim/gap): from After
// (default 0), every judged gap must be closed and stay closed for the
// settle window (or until the next timeline action) by Within.
type ConvergedCheck struct {
	After  *api.Duration `json:"after,omitempty"`
	Within api.Duration  `json:"within"`
}

// IncidentsCheck bounds the number of incidents: gaps open longer than
// spec.measure.gapSLO, over the whole run.
type IncidentsCheck struct {
	// Min (default 0) and Max bound the count, both included.
	Min int `json:"min,omitempty"`
	Max int `json:"max"`
}

// RolloutComplete checks a Deployment's rollout: it must be complete (as
// `kubectl rollout status` reports success) at some time from After
// (default 0) to Within. Set After to the time of the change whose
// rollout is checked, so that an earlier rollout does not count.
type RolloutComplete struct {
	Deployment string        `json:"deployment"`
	After      *api.Duration `json:"after,omitempty"`
	Within     api.Duration  `json:"within"`
	// IgnoreObservedGeneration makes it the check a naive script does:
	// the replica counts alone, without `generation <=
	// observedGeneration`, so that the status of the previous rollout
	// passes it until the Deployment controller has seen the change.
	IgnoreObservedGeneration bool `json:"ignoreObservedGeneration,omitempty"`
}

// How a rolloutStatus step ended, as expectations name it.
const (
	// StatusSucceeded: the rollout completed ("successfully rolled
	// out"); kubectl exits 0.
	StatusSucceeded = "succeeded"
	// StatusInProgress: --watch=false looked once at a rollout not yet
	// done; kubectl exits 0.
	StatusInProgress = "inProgress"
	// StatusProgressDeadlineExceeded: the Deployment's Progressing
	// condition turned ProgressDeadlineExceeded; kubectl exits 1.
	StatusProgressDeadlineExceeded = "progressDeadlineExceeded"
	// StatusTimedOut: --timeout passed first; kubectl exits 1.
	StatusTimedOut = "timedOut"
	// StatusFailed: another error (the object missing or deleted, a
	// strategy without rollout status); kubectl exits 1.
	StatusFailed = "failed"
	// StatusRunning: still watching when the run ended.
	StatusRunning = "running"
)

// StatusOutcomes are the outcomes a rolloutStatus step can end with.
var StatusOutcomes = []string{StatusSucceeded, StatusInProgress, StatusProgressDeadlineExceeded, StatusTimedOut, StatusFailed, StatusRunning}

// RolloutStatusCheck checks how a rolloutStatus step ended. It names the
// step by the object it watches (one of Deployment, DaemonSet,
// StatefulSet, "[namespace/]name") and, when the timeline has more than
// one such step, by its time Step.
type RolloutStatusCheck struct {
	Deployment  string `json:"deployment,omitempty"`
	DaemonSet   string `json:"daemonSet,omitempty"`
	StatefulSet string `json:"statefulSet,omitempty"`
	// Step is the step's at.
	Step *api.Duration `json:"step,omitempty"`
	// Outcome is how the command ended: succeeded (exit 0, rolled out),
	// inProgress (exit 0, --watch=false on a rollout not done),
	// progressDeadlineExceeded, timedOut (--timeout passed), failed
	// (another error), or running (still watching when the run ended).
	Outcome string `json:"outcome"`
	// Within, when set, bounds how long after the step the command may
	// end.
	Within *api.Duration `json:"within,omitempty"`
}

// Ref returns the kind and "[namespace/]name" the check names.
func (c *RolloutStatusCheck) Ref() (api.Kind, string) {
	r := RolloutStatus{Deployment: c.Deployment, DaemonSet: c.DaemonSet, StatefulSet: c.StatefulSet}
	return r.Ref()
}

// Timing says when a check is evaluated: exactly At, or at any time up to
// Within (the first time it holds counts). One of the two is required.
type Timing struct {
	At     *api.Duration `json:"at,omitempty"`
	Within *api.Duration `json:"within,omitempty"`
}

// ConditionCheck checks a status condition (Deployments, ReplicaSets,
// Pods, Nodes).
type ConditionCheck struct {
	ObjectRef `json:",inline"`
	Type      string `json:"type"`
	Status    string `json:"status"`
	Reason    string `json:"reason,omitempty"`
	Timing    `json:",inline"`
}

// FieldCheck checks one field, by a path such as spec.replicas,
// status.availableReplicas or status.conditions[Progressing].reason (list
// elements by their type or name).
type FieldCheck struct {
	ObjectRef `json:",inline"`
	Path      string `json:"path"`
	Equals    string `json:"equals"`
	Timing    `json:",inline"`
}

// PodsCheck counts pods; pods being deleted (Terminating) do not count.
type PodsCheck struct {
	Namespace string `json:"namespace,omitempty"`
	Selector  string `json:"selector,omitempty"`
	// Phase counts only pods in that phase (Pending, Running, ...);
	// Ready counts only ready pods.
	Phase string `json:"phase,omitempty"`
	Ready bool   `json:"ready,omitempty"`
	// Node counts only pods bound to that node.
	Node   string `json:"node,omitempty"`
	Equals int    `json:"equals"`
	Timing `json:",inline"`
}
