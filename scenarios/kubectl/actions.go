package kubectl

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/strategicpatch"
)

// Scale sets the replicas of a Deployment or ReplicaSet as `kubectl scale
// --replicas` does: it reads the object, then sends the merge patch
// {"spec":{"replicas":n}} (kubectl patches the scale subresource; the
// simulator has none, and the patch means the same), and prints
// "deployment.apps/web scaled".
func Scale(ctx context.Context, c client.Client, kind api.Kind, key api.Key, replicas int32) ([]string, error) {
	if kind != api.KindDeployment && kind != api.KindReplicaSet {
		return nil, newError(Unsupported, "cannot scale %s: no scale subresource", KindString(kind))
	}
	if replicas < 0 {
		return nil, newError(BadInput, "The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0")
	}
	key = scoped(kind, key)
	if _, err := c.Get(ctx, kind, key); err != nil {
		return nil, err
	}
	body := fmt.Sprintf(`{"spec":{"replicas":%d}}`, replicas)
	if _, err := c.Patch(ctx, kind, key, client.MergePatch, []byte(body)); err != nil {
		return nil, err
	}
	return []string{line(kind, key.Name, "scaled")}, nil
}

// SetImage sets the image of a container of a Deployment's pod template
// as `kubectl set image deployment/<name> <container>=<image>` does
// (container "*" means every container): it reads the Deployment, builds
// the two-way strategic merge patch and sends it, printing
// "deployment.apps/web image updated"; an image that is already set
// changes nothing and prints nothing. A container the template lacks fails
// with `error: unable to find container named "<name>"` (ErrContainerNotFound).
func SetImage(ctx context.Context, c client.Client, key api.Key, container, image string) ([]string, error) {
	key = scoped(api.KindDeployment, key)
	d, err := client.GetAs[*api.Deployment](ctx, c, key)
	if err != nil {
		return nil, err
	}
	edited := d.DeepCopy()
	spec := &edited.Spec.Template.Spec
	initFound := setImage(spec.InitContainers, container, image)
	found := setImage(spec.Containers, container, image)
	if !found && !initFound {
		return nil, newError(ContainerNotFound, "unable to find container named %q", container)
	}
	return patchEdited(ctx, c, api.KindDeployment, d, edited, "image updated")
}

func setImage(cs []api.Container, name, image string) bool {
	found := false
	for i := range cs {
		if cs[i].Name == name || name == "*" {
			cs[i].Image = image
			found = true
		}
	}
	return found
}

// patchEdited sends the two-way strategic merge patch from live to edited
// (kubectl's set and rollout commands) and prints operation; an empty
// patch sends nothing and prints nothing.
func patchEdited(ctx context.Context, c client.Client, kind api.Kind, live, edited api.Object, operation string) ([]string, error) {
	a, err := toTree(live)
	if err != nil {
		return nil, err
	}
	b, err := toTree(edited)
	if err != nil {
		return nil, err
	}
	patch, err := strategicpatch.TwoWay(a, b)
	if err != nil {
		return nil, newError(BadInput, "%v", err)
	}
	if len(patch) == 0 {
		return nil, nil
	}
	m := live.GetObjectMeta()
	pt, body, err := lowerPatch(a, patch, m.ResourceVersion)
	if err != nil {
		return nil, err
	}
	if _, err := c.Patch(ctx, kind, m.Key(), pt, body); err != nil {
		return nil, err
	}
	return []string{line(kind, m.Name, operation)}, nil
}

// DeleteOptions are kubectl delete's flags. The zero value is kubectl's
// default: background cascading and the object's own grace period.
type DeleteOptions struct {
	// Cascade is "background" (default), "foreground" or "orphan".
	Cascade string
	// GracePeriodSeconds overrides the pod's termination grace period;
	// nil keeps the object's own. 0 without Force becomes 1, as in
	// kubectl.
	GracePeriodSeconds *int64
	// Force deletes at once (with GracePeriodSeconds nil or 0, grace 0)
	// and prints kubectl's warning.
	Force bool
}

// Delete deletes an object as `kubectl delete <kind> <name>` does: it
// reads the object, deletes it and prints `pod "web-1" deleted from
// default namespace` (cluster-scoped objects: `node "n1" deleted`; with
// grace 0, "force deleted"). Unlike kubectl it does not then wait for the
// object to disappear: the scenario observes that.
func Delete(ctx context.Context, c client.Client, kind api.Kind, key api.Key, opts DeleteOptions) ([]string, error) {
	info, ok := lookup(c, kind)
	if !ok {
		return nil, newError(BadInput, "the server doesn't have a resource type %q", strings.ToLower(kind.Name))
	}
	var dopts []client.DeleteOption
	switch strings.ToLower(opts.Cascade) {
	case "", "background", "true":
		dopts = append(dopts, client.PropagationPolicy(client.Background))
	case "foreground":
		dopts = append(dopts, client.PropagationPolicy(client.Foreground))
	case "orphan", "false":
		dopts = append(dopts, client.PropagationPolicy(client.Orphan))
	default:
		return nil, newError(BadInput, "invalid cascade value (%s). Must be \"background\", \"foreground\", or \"orphan\"", opts.Cascade)
	}
	grace := int64(-1)
	if opts.GracePeriodSeconds != nil {
		grace = *opts.GracePeriodSeconds
	}
	if grace == 0 && !opts.Force {
		grace = 1
	}
	if opts.Force && grace < 0 {
		grace = 0
	}
	var lines []string
	if opts.Force && grace == 0 {
		lines = append(lines, "Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.")
	}
	if grace >= 0 {
		dopts = append(dopts, client.GracePeriodSeconds(grace))
	}
	key = scoped(kind, key)
	if _, err := c.Get(ctx, kind, key); err != nil {
		return lines, err
	}
	if err := c.Delete(ctx, kind, key, dopts...); err != nil {
		return lines, err
	}
	op := "deleted"
	if grace == 0 {
		op = "force deleted"
	}
	if info.Namespaced {
		op = fmt.Sprintf("%s from %s namespace", op, key.Namespace)
	}
	return append(lines, fmt.Sprintf("%s %q %s", KindString(kind), key.Name, op)), nil
}

// Cordon marks a node unschedulable as `kubectl cordon` does and prints
// "node/<name> cordoned", or "node/<name> already cordoned" without a
// write.
func Cordon(ctx context.Context, c client.Client, node string) ([]string, error) {
	return cordon(ctx, c, node, true)
}

// Uncordon marks a node schedulable as `kubectl uncordon` does and prints
// "node/<name> uncordoned", or "node/<name> already uncordoned".
func Uncordon(ctx context.Context, c client.Client, node string) ([]string, error) {
	return cordon(ctx, c, node, false)
}

func cordon(ctx context.Context, c client.Client, node string, desired bool) ([]string, error) {
	verb, done, already := "uncordon", "uncordoned", "already uncordoned"
	if desired {
		verb, done, already = "cordon", "cordoned", "already cordoned"
	}
	n, err := client.GetAs[*api.Node](ctx, c, api.Key{Name: node})
	if err != nil {
		return nil, err
	}
	if n.Spec.Unschedulable == desired {
		return []string{line(api.KindNode, node, already)}, nil
	}
	body := `{"spec":{"unschedulable":true}}`
	if !desired {
		body = `{"spec":{"unschedulable":null}}`
	}
	if _, err := c.Patch(ctx, api.KindNode, api.Key{Name: node}, client.StrategicMergePatch, []byte(body)); err != nil {
		return nil, fmt.Errorf("unable to %s node %q: %w", verb, node, err)
	}
	return []string{line(api.KindNode, node, done)}, nil
}

// DrainOptions configure Drain.
type DrainOptions struct {
	// Clock paces the retries (kubectl's 5 s after a refused eviction)
	// and the polls for deleted pods (every second); nil evicts each pod
	// once and does not wait (for callers outside a kernel process).
	Clock client.Clock
	// Timeout is kubectl drain's --timeout: how long to keep trying
	// before giving up; 0 means forever, kubectl's default.
	Timeout time.Duration
	// Out, when set, receives every line as it is printed, so that a
	// drain still retrying when a run ends can show what it printed.
	Out *[]string
}

// DrainRetry is how long kubectl drain waits after an eviction refused
// with 429 TooManyRequests (kubectl pkg/drain/drain.go evictPods).
const DrainRetry = 5 * time.Second

// drainPoll is waitForDelete's interval (kubectl pkg/drain).
const drainPoll = time.Second

// Drain empties a node as `kubectl drain --ignore-daemonsets --force
// --delete-emptydir-data` does (kubectl pkg/drain/drain.go and
// pkg/cmd/drain/drain.go): it cordons the node, lists its pods, leaves
// DaemonSet-managed pods (with kubectl's warning) and mirror pods alone,
// warns about pods without a controller or with local storage, and evicts
// the rest through the Eviction API, all at once as kubectl's one
// goroutine per pod does: "evicting pod <ns>/<name>" before each attempt;
// an eviction a disruption budget refuses (429) prints "error when
// evicting pods/"<name>" -n "<ns>" (will retry after 5s): <message>" and
// is tried again 5 s later; an evicted pod is polled every second until
// it is gone, then "pod/<name> evicted"; at last "node/<name> drained".
// A pod already gone counts as done without a line. With a Timeout, the
// pods still pending then fail the drain with kubectl's "global timeout
// reached".
func Drain(ctx context.Context, c client.Client, node string, opts DrainOptions) ([]string, error) {
	var own []string
	out := opts.Out
	if out == nil {
		out = &own
	}
	emit := func(l ...string) { *out = append(*out, l...) }
	lines, err := cordon(ctx, c, node, true)
	emit(lines...)
	if err != nil {
		return *out, err
	}
	pods, err := client.ListAs[*api.Pod](ctx, c, client.MatchingNodeName(node))
	if err != nil {
		return *out, err
	}
	slices.SortFunc(pods, func(a, b *api.Pod) int {
		return strings.Compare(a.Namespace+"/"+a.Name, b.Namespace+"/"+b.Name)
	})
	warnings := map[string][]string{}
	var evict []*api.Pod
	for _, p := range pods {
		if _, mirror := p.Annotations[mirrorPodAnnotation]; mirror {
			continue
		}
		ref := api.GetControllerOfNoCopy(&p.ObjectMeta)
		if ref != nil && ref.Kind == "DaemonSet" {
			warnings[daemonSetWarning] = append(warnings[daemonSetWarning], p.Namespace+"/"+p.Name)
			continue
		}
		if p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed {
			switch {
			case ref == nil:
				warnings[unmanagedWarning] = append(warnings[unmanagedWarning], p.Namespace+"/"+p.Name)
			case hasLocalStorage(p):
				warnings[localStorageWarning] = append(warnings[localStorageWarning], p.Namespace+"/"+p.Name)
			}
		}
		evict = append(evict, p)
	}
	if len(warnings) > 0 {
		msgs := make([]string, 0, len(warnings))
		for _, k := range []string{daemonSetWarning, localStorageWarning, unmanagedWarning} {
			if ps := warnings[k]; len(ps) > 0 {
				msgs = append(msgs, k+": "+strings.Join(ps, ", "))
			}
		}
		emit("Warning: " + strings.Join(msgs, "; "))
	}
	if err := evictPods(ctx, c, evict, opts, emit); err != nil {
		return *out, err
	}
	emit(line(api.KindNode, node, "drained"))
	return *out, nil
}

// drainState is one pod of a drain: waiting to be evicted (again) or,
// once evicted, waiting to be gone.
type drainState struct {
	pod     *api.Pod
	evicted bool
	done    bool
	next    time.Time
}

// evictPods is kubectl's evictPods and waitForDelete, the per-pod
// goroutines played in one process: each pod acts at its own next time,
// pods due at one instant in namespace/name order.
func evictPods(ctx context.Context, c client.Client, pods []*api.Pod, opts DrainOptions, emit func(...string)) error {
	states := make([]*drainState, len(pods))
	for i, p := range pods {
		states[i] = &drainState{pod: p}
	}
	var deadline time.Time
	if opts.Clock != nil && opts.Timeout > 0 {
		deadline = opts.Clock.Now().Add(opts.Timeout)
	}
	var errs []error
	for {
		var now time.Time
		if opts.Clock != nil {
			now = opts.Clock.Now()
		}
		for _, st := range states {
			if !st.done && !deadline.IsZero() && !now.Before(deadline) {
				st.done = true
				errs = append(errs, fmt.Errorf("error when evicting pods/%q -n %q: global timeout reached: %v", st.pod.Name, st.pod.Namespace, opts.Timeout))
			}
		}
		// The evictions due now, then (immediately, as kubectl's
		// PollImmediate) the polls of the evicted pods.
		for _, st := range states {
			if st.done || st.evicted || st.next.After(now) {
				continue
			}
			p := st.pod
			emit(fmt.Sprintf("evicting pod %s/%s", p.Namespace, p.Name))
			err := client.Evict(ctx, c, &api.Eviction{ObjectMeta: api.ObjectMeta{Name: p.Name, Namespace: p.Namespace}})
			switch {
			case err == nil:
				st.evicted = true
			case errors.Is(err, apierr.ErrNotFound):
				st.done = true
			case errors.Is(err, apierr.ErrTooManyRequests) && opts.Clock != nil:
				emit(fmt.Sprintf("error when evicting pods/%q -n %q (will retry after 5s): %v", p.Name, p.Namespace, err))
				st.next = opts.Clock.Now().Add(DrainRetry)
			default:
				st.done = true
				errs = append(errs, fmt.Errorf("error when evicting pods/%q -n %q: %w", p.Name, p.Namespace, err))
			}
		}
		pending := 0
		for _, st := range states {
			if st.done {
				continue
			}
			if !st.evicted || st.next.After(now) {
				pending++
				continue
			}
			p := st.pod
			if opts.Clock == nil {
				st.done = true
				emit(line(api.KindPod, p.Name, "evicted"))
				continue
			}
			cur, err := c.Get(ctx, api.KindPod, p.Key())
			if errors.Is(err, apierr.ErrNotFound) || err == nil && cur.GetObjectMeta().UID != p.UID {
				st.done = true
				emit(line(api.KindPod, p.Name, "evicted"))
				continue
			}
			st.next = opts.Clock.Now().Add(drainPoll)
			pending++
		}
		if pending == 0 {
			break
		}
		wake := time.Time{}
		for _, st := range states {
			if !st.done && (wake.IsZero() || st.next.Before(wake)) {
				wake = st.next
			}
		}
		if !deadline.IsZero() && deadline.Before(wake) {
			wake = deadline
		}
		if d := wake.Sub(opts.Clock.Now()); d > 0 {
			opts.Clock.Sleep(d)
		}
	}
	return errors.Join(errs...)
}

// Drain's pod filters (kubectl's pkg/drain).
const (
	mirrorPodAnnotation = "kubernetes.io/config.mirror"
	daemonSetWarning    = "ignoring DaemonSet-managed Pods"
	localStorageWarning = "deleting Pods with local storage"
	unmanagedWarning    = "deleting Pods that declare no controller"
)

func hasLocalStorage(p *api.Pod) bool {
	for _, v := range p.Spec.Volumes {
		if _, ok := v.Source["emptyDir"]; ok {
			return true
		}
	}
	return false
}

// Edit makes a manual edit as `kubectl edit` does, the edit given as a
// JSON merge patch: it reads the object, and when the patch changes
// nothing prints "Edit cancelled, no changes made."; otherwise it sends
// the patch and prints "deployment.apps/web edited".
func Edit(ctx context.Context, c client.Client, kind api.Kind, key api.Key, mergePatch []byte) ([]string, error) {
	patch, err := decodeObject(mergePatch)
	if err != nil {
		return nil, newError(BadInput, "invalid edit: %v", err)
	}
	key = scoped(kind, key)
	live, err := c.Get(ctx, kind, key)
	if err != nil {
		return nil, err
	}
	current, err := toTree(live)
	if err != nil {
		return nil, err
	}
	// kubectl edit sends a strategic merge patch for built-in kinds, so a
	// container list merges by name rather than being replaced.
	if mergesTo(current, patch, current) {
		return []string{"Edit cancelled, no changes made."}, nil
	}
	if _, err := c.Patch(ctx, kind, key, client.StrategicMergePatch, mergePatch); err != nil {
		return nil, err
	}
	return []string{line(kind, key.Name, "edited")}, nil
}
