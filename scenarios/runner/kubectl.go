package runner

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/imperative"
	"github.com/clustersim/clustersim/scenarios/kubectl"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/manifest"
	"github.com/clustersim/clustersim/sim/store"
)

// kubectl returns a user step as the kubectl command line it stands for
// and the action that performs it.
func (r *run) kubectl(st *scenarios.Step) (string, action) {
	switch {
	case st.Apply != nil:
		src := st.Apply.File
		cmd := "kubectl apply -f " + src
		if src == "" {
			cmd = "kubectl apply -f - <<EOF ... EOF"
		}
		objs := st.Apply.Parsed
		return cmd, func(ctx context.Context, c client.Client) ([]string, error) {
			copies := make([]api.Object, len(objs))
			for i, o := range objs {
				copies[i] = o.DeepCopyObject()
			}
			ctx = client.WithFieldManager(ctx, kubectl.CSAFieldManager)
			return kubectl.Apply(ctx, c, copies, kubectl.ApplyOptions{Source: src})
		}
	case st.ServerSideApply != nil:
		ssa := st.ServerSideApply
		cmd := "kubectl apply --server-side -f " + ssa.File
		if ssa.File == "" {
			cmd = "kubectl apply --server-side -f - <<EOF ... EOF"
		}
		manager := ssa.FieldManager
		if manager == "" {
			manager = kubectl.SSAFieldManager
		} else {
			cmd += " --field-manager=" + manager
		}
		if ssa.Force {
			cmd += " --force-conflicts"
		}
		return cmd, func(ctx context.Context, c client.Client) ([]string, error) {
			copies := make([]api.Object, len(ssa.Parsed))
			for i, o := range ssa.Parsed {
				copies[i] = o.DeepCopyObject()
			}
			return kubectl.ServerSideApply(ctx, c, copies, manager, ssa.Force)
		}
	case st.Delete != nil:
		kind, key := r.objectKey(st.Delete.ObjectRef)
		cmd := fmt.Sprintf("kubectl delete %s %s%s", typed(kind), key.Name, nsFlag(key.Namespace))
		if st.Delete.Cascade != "" {
			cmd += " --cascade=" + st.Delete.Cascade
		}
		return cmd, func(ctx context.Context, c client.Client) ([]string, error) {
			return kubectl.Delete(ctx, c, kind, key, kubectl.DeleteOptions{Cascade: st.Delete.Cascade})
		}
	case st.Scale != nil:
		kind, key := r.objectKey(st.Scale.ObjectRef)
		return fmt.Sprintf("kubectl scale %s/%s%s --replicas=%d", typed(kind), key.Name, nsFlag(key.Namespace), st.Scale.Replicas),
			func(ctx context.Context, c client.Client) ([]string, error) {
				return kubectl.Scale(ctx, c, kind, key, st.Scale.Replicas)
			}
	case st.SetImage != nil:
		si := st.SetImage
		ns, name := scenarios.SplitRef(si.Deployment)
		return fmt.Sprintf("kubectl set image deployment/%s%s %s=%s", name, nsFlag(ns), si.Container, si.Image),
			func(ctx context.Context, c client.Client) ([]string, error) {
				return kubectl.SetImage(ctx, c, api.Key{Namespace: ns, Name: name}, si.Container, si.Image)
			}
	case st.DeletePod != nil:
		return r.deletePods(st.DeletePod)
	case st.Edit != nil:
		kind, key := r.objectKey(st.Edit.ObjectRef)
		return fmt.Sprintf("kubectl edit %s/%s%s   # %s", typed(kind), key.Name, nsFlag(key.Namespace), st.Edit.PatchJSON),
			func(ctx context.Context, c client.Client) ([]string, error) {
				return kubectl.Edit(ctx, c, kind, key, st.Edit.PatchJSON)
			}
	case st.Cordon != "":
		return "kubectl cordon " + st.Cordon, func(ctx context.Context, c client.Client) ([]string, error) {
			return kubectl.Cordon(ctx, c, st.Cordon)
		}
	case st.Uncordon != "":
		return "kubectl uncordon " + st.Uncordon, func(ctx context.Context, c client.Client) ([]string, error) {
			return kubectl.Uncordon(ctx, c, st.Uncordon)
		}
	case st.Drain != "":
		cmd := "kubectl drain " + st.Drain + " --ignore-daemonsets --delete-emptydir-data --force"
		opts := kubectl.DrainOptions{Clock: client.NewClock(r.c.K)}
		if st.DrainTimeout != nil {
			opts.Timeout = st.DrainTimeout.Duration
			cmd += " --timeout=" + opts.Timeout.String()
		}
		return cmd, func(ctx context.Context, c client.Client) ([]string, error) {
			o := opts
			o.Out = r.progress(st)
			return kubectl.Drain(ctx, c, st.Drain, o)
		}
	case st.RolloutUndo != nil:
		ns, name := scenarios.SplitRef(st.RolloutUndo.Deployment)
		cmd := "kubectl rollout undo deployment/" + name + nsFlag(ns)
		if st.RolloutUndo.ToRevision != 0 {
			cmd += fmt.Sprintf(" --to-revision=%d", st.RolloutUndo.ToRevision)
		}
		return cmd, func(ctx context.Context, c client.Client) ([]string, error) {
			return kubectl.RolloutUndo(ctx, c, api.Key{Namespace: ns, Name: name}, st.RolloutUndo.ToRevision)
		}
	case st.RolloutRestart != "":
		ns, name := scenarios.SplitRef(st.RolloutRestart)
		return "kubectl rollout restart deployment/" + name + nsFlag(ns), func(ctx context.Context, c client.Client) ([]string, error) {
			return kubectl.RolloutRestart(ctx, c, api.Key{Namespace: ns, Name: name}, r.now())
		}
	case st.RolloutPause != "":
		ns, name := scenarios.SplitRef(st.RolloutPause)
		return "kubectl rollout pause deployment/" + name + nsFlag(ns), func(ctx context.Context, c client.Client) ([]string, error) {
			return kubectl.RolloutPause(ctx, c, api.Key{Namespace: ns, Name: name})
		}
	case st.RolloutResume != "":
		ns, name := scenarios.SplitRef(st.RolloutResume)
		return "kubectl rollout resume deployment/" + name + nsFlag(ns), func(ctx context.Context, c client.Client) ([]string, error) {
			return kubectl.RolloutResume(ctx, c, api.Key{Namespace: ns, Name: name})
		}
	}
	return "unknown step", func(context.Context, client.Client) ([]string, error) {
		return nil, fmt.Errorf("runner: step has no action")
	}
}

// deletePods deletes one pod by name, or count pods matching a selector
// (those that exist when the step runs, in name order).
func (r *run) deletePods(d *scenarios.DeletePod) (string, action) {
	ns := d.Namespace
	if ns == "" {
		ns = scenarios.DefaultNamespace
	}
	if d.Name != "" {
		return "kubectl delete pod " + d.Name + nsFlag(ns), func(ctx context.Context, c client.Client) ([]string, error) {
			return kubectl.Delete(ctx, c, api.KindPod, api.Key{Namespace: ns, Name: d.Name}, kubectl.DeleteOptions{})
		}
	}
	count := d.Count
	if count == 0 {
		count = 1
	}
	sel, _ := api.ParseSelector(d.Selector)
	cmd := fmt.Sprintf("kubectl delete pod%s $(kubectl get pods%s -l %s -o name | head -%d)", nsFlag(ns), nsFlag(ns), d.Selector, count)
	return cmd, func(ctx context.Context, c client.Client) ([]string, error) {
		pods, _, _ := r.c.Store.List(api.KindPod, store.ListOptions{Namespace: ns, Labels: &sel})
		var lines []string
		for _, p := range pods {
			if count == 0 {
				break
			}
			if p.GetObjectMeta().DeletionTimestamp != nil {
				continue
			}
			count--
			out, err := kubectl.Delete(ctx, c, api.KindPod, p.GetObjectMeta().Key(), kubectl.DeleteOptions{})
			lines = append(lines, out...)
			if err != nil {
				return lines, err
			}
		}
		if len(lines) == 0 {
			return nil, fmt.Errorf("no pods matching %s", strings.TrimSpace(d.Selector))
		}
		return lines, nil
	}
}

// nsFlag is the -n flag a kubectl command line needs to act on an object
// of namespace ns: none for the default namespace (kubectl's own default)
// or a cluster-scoped object.
func nsFlag(ns string) string {
	if ns == "" || ns == scenarios.DefaultNamespace {
		return ""
	}
	return " -n " + ns
}

// typed is a kind as a user types it on a kubectl command line.
func typed(kind api.Kind) string { return strings.ToLower(kind.Name) }

// command is an imperative command with retries on timeout, run by
// user from at: its output lists every attempt and how it ended (a
// timed-out write marked ambiguous), then the command's result; once the
// run is over, final adds what the audit log shows the user's writes did.
func (r *run) command(cmd *scenarios.Command, user string, at window) (string, action, func() []string) {
	opts := imperative.Options{}
	if cmd.Retries != nil {
		opts.Retries = *cmd.Retries
		if opts.Retries == 0 {
			opts.Retries = -1 // imperative: negative means never retry
		}
	}
	retries := "3"
	if cmd.Retries != nil {
		retries = fmt.Sprint(*cmd.Retries)
	}
	acked := new(int) // the writes answered ok
	report := func(res imperative.Result, err error) ([]string, error) {
		ok, ambiguous := 0, 0
		for _, a := range res.Log {
			if a.Outcome == imperative.OutcomeOK {
				ok++
				*acked++
			}
			if a.Ambiguous {
				ambiguous++
			}
		}
		line := fmt.Sprintf("%s %s: %d attempt(s), %d timeout(s), %d ok, %d ambiguous", res.Command, res.Target, res.Attempts, res.Timeouts, ok, ambiguous)
		return append([]string{line}, attemptLines(res)...), err
	}
	newCmds := func(c client.Client) *imperative.Commands {
		return imperative.New(c, client.NewClock(r.c.K), opts)
	}
	switch {
	case cmd.CreatePod != nil:
		kind, key := r.objectKey(*cmd.CreatePod)
		return fmt.Sprintf("create one more pod from %s/%s   # a command, retried up to %s times on timeout", typed(kind), key.Name, retries),
			func(ctx context.Context, c client.Client) ([]string, error) {
				return report(newCmds(c).CreateReplicaFrom(ctx, kind, key))
			}, r.storeShows(user, at, "pod(s) created", acked, createdPods(key.Namespace, key.Name+"-"))
	case cmd.DeletePod != "":
		sel := map[string]string{}
		for _, kv := range strings.Split(cmd.DeletePod, ",") {
			k, v, _ := strings.Cut(strings.TrimSpace(kv), "=")
			sel[k] = v
		}
		return fmt.Sprintf("delete one pod matching %s   # a command, retried up to %s times on timeout", cmd.DeletePod, retries),
			func(ctx context.Context, c client.Client) ([]string, error) {
				return report(newCmds(c).DeleteReplica(ctx, scenarios.DefaultNamespace, sel))
			}, r.storeShows(user, at, "pod deletion(s)", acked, deletedPods(scenarios.DefaultNamespace))
	default:
		kind, key := r.objectKey(*cmd.ScaleUp)
		return fmt.Sprintf("scale %s/%s up by one   # a command, retried up to %s times on timeout", typed(kind), key.Name, retries),
			func(ctx context.Context, c client.Client) ([]string, error) {
				return report(newCmds(c).ScaleUp(ctx, kind, key))
			}, r.storeShows(user, at, "change(s) of spec.replicas", acked, fieldChanges(kind, key, "spec.replicas"))
	}
}

// appStatus renders a GitOps application's status, as `argocd app get`
// shows its essentials.
func (r *run) appStatus(name string) []string {
	if r.syncer == nil {
		return []string{"no GitOps syncer in this scenario"}
	}
	for _, st := range r.syncer.Status() {
		if st.Name != name {
			continue
		}
		rev := st.Revision
		if len(rev) > 7 {
			rev = rev[:7]
		}
		lines := []string{
			"Name:               " + st.Name,
			fmt.Sprintf("Sync Status:        %s to %s", st.Sync, rev),
			fmt.Sprintf("Self-heal attempts: %d", st.SelfHealAttempts),
			"",
			"KIND/NAME                                  STATUS",
		}
		for _, res := range st.Resources {
			lines = append(lines, fmt.Sprintf("%-42s %s", res.Kind+"/"+res.Name, res.Status))
		}
		lines = append(lines, "", "ID  STARTED  REVISION  INITIATOR  PHASE")
		for _, h := range st.History {
			hr := h.Revision
			if len(hr) > 7 {
				hr = hr[:7]
			}
			lines = append(lines, fmt.Sprintf("%-3d %-8s %-9s %-10s %s", h.ID, clock(h.StartedAt.Sub(kernel.Epoch)), hr, h.Initiator, h.Phase))
		}
		return lines
	}
	return []string{"no application " + name}
}

// iacState renders the IaC tool's runs so far.
func (r *run) iacState() []string {
	if r.iac == nil {
		return []string{"no IaC tool in this scenario"}
	}
	var lines []string
	for _, run := range r.iac.Runs() {
		lines = append(lines, fmt.Sprintf("run %d at %s: %s", run.ID, clock(run.At.Sub(kernel.Epoch)), run.Summary()))
	}
	if len(lines) == 0 {
		lines = []string{"no runs yet"}
	}
	st := r.iac.State()
	lines = append(lines, fmt.Sprintf("state serial %d, %d resource(s)", st.Serial, len(st.Resources)))
	return lines
}

// clock renders a virtual duration as m:ss.
func clock(d time.Duration) string {
	s := int64(d / time.Second)
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// fieldWrites lists the accepted writes so far that changed one field.
func (r *run) fieldWrites(kind api.Kind, key api.Key, path string) []string {
	var lines []string
	// The path as written or any other spelling of it (an escaped dot
	// for a bracketed key).
	want := manifest.SplitPath(path)
	r.c.Store.Audit().Each(func(rec *store.AuditRecord) bool {
		if rec.Kind != kind || rec.Key != key {
			return true
		}
		for c := range rec.EachChange() {
			if c.Path != path && (!strings.HasPrefix(c.Path, want[0]) || !slices.Equal(manifest.SplitPath(c.Path), want)) {
				continue
			}
			old, now := c.Old, c.New
			if !c.OldSet {
				old = "<none>"
			}
			if !c.NewSet {
				now = "<none>"
			}
			lines = append(lines, fmt.Sprintf("%-7s %-62s %s -> %s", clock(rec.Time.Duration()), rec.Actor, old, now))
		}
		return true
	})
	if len(lines) == 0 {
		return []string{"no writes to " + path}
	}
	return lines
}
