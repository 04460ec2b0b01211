package apiserver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/store"
)

// QuotaActor is the identity under which the ResourceQuota admission plugin
// records the usage it charges in a quota's status.
const QuotaActor = "system:apiserver"

// ResourceQuota is the ResourceQuota admission plugin
// (k8s.io/apiserver/pkg/admission/plugin/resourcequota): a create of an
// object counted by a quota in its namespace is charged against the
// quota's status.used and rejected with 403 when it would exceed
// status.hard, with Kubernetes' "exceeded quota" message. A quota whose
// status the quota controller has not filled in yet rejects with "status
// unknown". Usage goes back down only when the quota controller
// (controllers/resourcequota) recalculates it, as in Kubernetes.
type ResourceQuota struct{}

// Name returns "ResourceQuota".
func (ResourceQuota) Name() string { return "ResourceQuota" }

// Admit charges creates against the namespace's quotas.
func (ResourceQuota) Admit(a *Attributes) error {
	if a.Verb != Create || a.Object == nil || a.Kind == api.KindResourceQuota {
		return nil
	}
	ns := a.Object.GetObjectMeta().Namespace
	if ns == "" {
		return nil
	}
	quotas, _, err := a.Store.List(api.KindResourceQuota, store.ListOptions{Namespace: ns})
	if err != nil || len(quotas) == 0 {
		return nil
	}
	usage := api.QuotaUsage(a.Object)
	info, _ := a.Store.Kinds().Lookup(a.Kind)
	name := a.Object.GetObjectMeta().Name
	type charge struct {
		quota *api.ResourceQuota
		used  api.ResourceList
	}
	var charges []charge
	for _, o := range quotas {
		q := o.(*api.ResourceQuota)
		if !api.QuotaScopesMatch(q, a.Object) {
			continue // a scoped quota constrains only what its scopes select
		}
		// As upstream, a quota constrains only what its status lists: the
		// quota controller fills status.hard from spec.hard; until then the
		// quota admits everything.
		hard := q.Status.Hard
		var tracked []api.ResourceName
		for _, r := range sortedNames(hard) {
			if _, counted := usage[r]; counted || missingRequest(a.Object, r) {
				tracked = append(tracked, r)
			}
		}
		if len(tracked) == 0 {
			continue
		}
		if msg := constraints(a.Object, tracked); msg != "" {
			return apierr.NewForbidden(info.GroupResource(), name, fmt.Sprintf("failed quota: %s: %s", q.Name, msg))
		}
		for _, r := range tracked {
			if _, ok := q.Status.Used[r]; !ok {
				return apierr.NewForbidden(info.GroupResource(), name,
					fmt.Sprintf("status unknown for quota: %s, resources: %s", q.Name, joinNames(tracked)))
			}
		}
		newUsed := q.Status.Used.DeepCopy()
		var exceeded []api.ResourceName
		for _, r := range tracked {
			req, ok := usage[r]
			if !ok || req.IsZero() {
				continue
			}
			sum := newUsed[r]
			sum.Add(req)
			newUsed[r] = sum
			if sum.Cmp(hard[r]) > 0 {
				exceeded = append(exceeded, r)
			}
		}
		if len(exceeded) > 0 {
			return apierr.NewForbidden(info.GroupResource(), name, fmt.Sprintf("exceeded quota: %s, requested: %s, used: %s, limited: %s",
				q.Name, prettyPrint(usage, exceeded), prettyPrint(q.Status.Used, exceeded), prettyPrint(hard, exceeded)))
		}
		charges = append(charges, charge{quota: q, used: newUsed})
	}
	// Every quota admits the object: record the new usage, as the plugin
	// does, so that the next create sees it before the quota controller
	// recalculates.
	for _, c := range charges {
		upd := c.quota.DeepCopyObject().(*api.ResourceQuota)
		upd.Status.Used = c.used
		if _, err := a.Store.Update(store.Op{Actor: QuotaActor, Verb: "update"}, upd, "status"); err != nil {
			return apierr.NewConflict("resourcequotas", c.quota.Name, err.Error())
		}
	}
	return nil
}

// missingRequest reports whether quota resource r tracks a compute
// resource a pod's container does not state.
func missingRequest(o api.Object, r api.ResourceName) bool {
	return constraints(o, []api.ResourceName{r}) != ""
}

// constraints is the pod evaluator's Constraints: a quota on requests or
// limits of cpu or memory requires every container, init containers
// included, to state them. It
// returns "" when satisfied, else upstream's "must specify" text.
func constraints(o api.Object, tracked []api.ResourceName) string {
	pod, ok := o.(*api.Pod)
	if !ok {
		return ""
	}
	var missing []string
	for _, r := range tracked {
		var list func(c *api.Container) api.ResourceList
		var res api.ResourceName
		switch r {
		case api.ResourceRequestsCPU, api.ResourceCPU:
			list, res = func(c *api.Container) api.ResourceList { return c.Resources.Requests }, api.ResourceCPU
		case api.ResourceRequestsMemory, api.ResourceMemory:
			list, res = func(c *api.Container) api.ResourceList { return c.Resources.Requests }, api.ResourceMemory
		case api.ResourceLimitsCPU:
			list, res = func(c *api.Container) api.ResourceList { return c.Resources.Limits }, api.ResourceCPU
		case api.ResourceLimitsMemory:
			list, res = func(c *api.Container) api.ResourceList { return c.Resources.Limits }, api.ResourceMemory
		default:
			continue
		}
		// Upstream checks init containers too, and lists the names as a
		// sorted set.
		var names []string
		for _, cs := range [][]api.Container{pod.Spec.Containers, pod.Spec.InitContainers} {
			for i := range cs {
				if _, ok := list(&cs[i])[res]; !ok {
					names = append(names, cs[i].Name)
				}
			}
		}
		slices.Sort(names)
		names = slices.Compact(names)
		if len(names) > 0 {
			missing = append(missing, fmt.Sprintf("%s for: %s", r, strings.Join(names, ",")))
		}
	}
	if len(missing) == 0 {
		return ""
	}
	slices.Sort(missing)
	return "must specify " + strings.Join(missing, "; ")
}

func sortedNames(l api.ResourceList) []api.ResourceName {
	out := make([]api.ResourceName, 0, len(l))
	for r := range l {
		out = append(out, r)
	}
	slices.Sort(out)
	return out
}

func joinNames(rs []api.ResourceName) string {
	s := make([]string, len(rs))
	for i, r := range rs {
		s[i] = string(r)
	}
	slices.Sort(s)
	return strings.Join(s, ",")
}

// prettyPrint is upstream's: "pods=1,requests.cpu=500m", resources sorted,
// restricted to names.
func prettyPrint(l api.ResourceList, names []api.ResourceName) string {
	sorted := slices.Clone(names)
	slices.Sort(sorted)
	parts := make([]string, 0, len(sorted))
	for _, r := range sorted {
		q := l[r]
		parts = append(parts, string(r)+"="+q.String())
	}
	return strings.Join(parts, ",")
}
