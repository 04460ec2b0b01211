package runner

import (
	"context"
	"fmt"
	"strings"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/kubectl"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/client"
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
			return kubectl.Apply(ctx, c, copies, kubectl.ApplyOptions{Source: src})
		}
	case st.Delete != nil:
		kind, key := r.objectKey(st.Delete.ObjectRef)
		cmd := fmt.Sprintf("kubectl delete %s %s", typed(kind), key.Name)
		if st.Delete.Cascade != "" {
			cmd += " --cascade=" + st.Delete.Cascade
		}
		return cmd, func(ctx context.Context, c client.Client) ([]string, error) {
			return kubectl.Delete(ctx, c, kind, key, kubectl.DeleteOptions{Cascade: st.Delete.Cascade})
		}
	case st.Scale != nil:
		kind, key := r.objectKey(st.Scale.ObjectRef)
		return fmt.Sprintf("kubectl scale %s/%s --replicas=%d", typed(kind), key.Name, st.Scale.Replicas),
			func(ctx context.Context, c client.Client) ([]string, error) {
				return kubectl.Scale(ctx, c, kind, key, st.Scale.Replicas)
			}
	case st.SetImage != nil:
		si := st.SetImage
		ns, name := scenarios.SplitRef(si.Deployment)
		return fmt.Sprintf("kubectl set image deployment/%s %s=%s", name, si.Container, si.Image),
			func(ctx context.Context, c client.Client) ([]string, error) {
				return kubectl.SetImage(ctx, c, api.Key{Namespace: ns, Name: name}, si.Container, si.Image)
			}
	case st.DeletePod != nil:
		return r.deletePods(st.DeletePod)
	case st.Edit != nil:
		kind, key := r.objectKey(st.Edit.ObjectRef)
		return fmt.Sprintf("kubectl edit %s/%s   # %s", typed(kind), key.Name, st.Edit.PatchJSON),
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
		return "kubectl drain " + st.Drain + " --ignore-daemonsets --delete-emptydir-data --force", func(ctx context.Context, c client.Client) ([]string, error) {
			return kubectl.Drain(ctx, c, st.Drain)
		}
	case st.RolloutUndo != nil:
		ns, name := scenarios.SplitRef(st.RolloutUndo.Deployment)
		cmd := "kubectl rollout undo deployment/" + name
		if st.RolloutUndo.ToRevision != 0 {
			cmd += fmt.Sprintf(" --to-revision=%d", st.RolloutUndo.ToRevision)
		}
		return cmd, func(ctx context.Context, c client.Client) ([]string, error) {
			return kubectl.RolloutUndo(ctx, c, api.Key{Namespace: ns, Name: name}, st.RolloutUndo.ToRevision)
		}
	case st.RolloutRestart != "":
		ns, name := scenarios.SplitRef(st.RolloutRestart)
		return "kubectl rollout restart deployment/" + name, func(ctx context.Context, c client.Client) ([]string, error) {
			return kubectl.RolloutRestart(ctx, c, api.Key{Namespace: ns, Name: name}, r.now())
		}
	case st.RolloutPause != "":
		ns, name := scenarios.SplitRef(st.RolloutPause)
		return "kubectl rollout pause deployment/" + name, func(ctx context.Context, c client.Client) ([]string, error) {
			return kubectl.RolloutPause(ctx, c, api.Key{Namespace: ns, Name: name})
		}
	case st.RolloutResume != "":
		ns, name := scenarios.SplitRef(st.RolloutResume)
		return "kubectl rollout resume deployment/" + name, func(ctx context.Context, c client.Client) ([]string, error) {
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
		return "kubectl delete pod " + d.Name, func(ctx context.Context, c client.Client) ([]string, error) {
			return kubectl.Delete(ctx, c, api.KindPod, api.Key{Namespace: ns, Name: d.Name}, kubectl.DeleteOptions{})
		}
	}
	count := d.Count
	if count == 0 {
		count = 1
	}
	sel, _ := api.ParseSelector(d.Selector)
	cmd := fmt.Sprintf("kubectl delete pod $(kubectl get pods -l %s -o name | head -%d)", d.Selector, count)
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

// typed is a kind as a user types it on a kubectl command line.
func typed(kind api.Kind) string { return strings.ToLower(string(kind)) }
