package runner

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/kubectl"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/store"
)

// observe takes the snapshot of an observation step, reading the store as
// a kubectl with a perfect connection would at that instant.
func (r *run) observe(st *scenarios.Step) Entry {
	e := Entry{At: st.At.Duration, Observation: true}
	snap := &Snapshot{Now: r.now()}
	switch {
	case st.Get != nil:
		g := st.Get
		kind, _ := scenarios.ResolveKindIn(r.c.Store.Kinds(), g.Kind)
		info, _ := r.c.Store.Kinds().Lookup(kind)
		opts := store.ListOptions{}
		cmd := []string{"kubectl", "get", info.Resource}
		if info.Namespaced && !g.AllNamespaces {
			opts.Namespace = g.Namespace
			if opts.Namespace == "" {
				opts.Namespace = scenarios.DefaultNamespace
			}
			if g.Namespace != "" {
				cmd = append(cmd, "-n", g.Namespace)
			}
		}
		if g.AllNamespaces {
			cmd = append(cmd, "-A")
		}
		if g.Selector != "" {
			sel, _ := api.ParseSelector(g.Selector)
			opts.Labels = &sel
			cmd = append(cmd, "-l", g.Selector)
		}
		if g.Wide {
			cmd = append(cmd, "-o", "wide")
		}
		objs, _, _ := r.c.Store.List(kind, opts)
		snap.What, snap.Kind, snap.Objects, snap.Wide, snap.Namespace = "get", kind, objs, g.Wide, opts.Namespace
		snap.AllNamespaces = info.Namespaced && g.AllNamespaces
		if info.Custom {
			snap.Custom = &info
		}
		if kind == api.KindEvent {
			snap.Events = eventsOf(objs)
		}
		e.Command = strings.Join(cmd, " ")
	case st.Describe != nil:
		kind, key := r.objectKey(*st.Describe)
		// kubectl's singular resource name is the kind in lower case
		// (priorityclass, ingress, endpoints), not the plural trimmed.
		e.Command = fmt.Sprintf("kubectl describe %s %s%s", strings.ToLower(kind.Name), key.Name, nsFlag(key.Namespace))
		o, err := r.c.Store.Get(kind, key)
		if err != nil {
			e.Err = kubectl.ErrorLine(err)
			return e
		}
		snap.What, snap.Kind, snap.Objects = "describe", kind, []api.Object{o}
		snap.Related = r.related(kind, o)
		snap.Events = r.eventsFor(kind, o)
	case st.Events != nil:
		ev := st.Events
		e.Command = "kubectl events"
		var objs []api.Object
		if ev.For != nil {
			kind, key := r.objectKey(*ev.For)
			e.Command += fmt.Sprintf(" --for %s/%s%s", strings.ToLower(kind.Name), key.Name, nsFlag(key.Namespace))
			if o, err := r.c.Store.Get(kind, key); err == nil {
				snap.Events = r.eventsFor(kind, o)
			}
			snap.Namespace = key.Namespace
		} else {
			ns := ev.Namespace
			if ns == "" {
				ns = scenarios.DefaultNamespace
			} else {
				e.Command += " -n " + ns
			}
			objs, _, _ = r.c.Store.List(api.KindEvent, store.ListOptions{Namespace: ns})
			snap.Events = eventsOf(objs)
			snap.Namespace = ns
		}
		snap.What, snap.Kind = "events", api.KindEvent
	}
	e.Snapshot = snap
	return e
}

// related returns what describe shows besides the object itself.
func (r *run) related(kind api.Kind, o api.Object) []api.Object {
	m := o.GetObjectMeta()
	var out []api.Object
	switch kind {
	case api.KindDeployment:
		rss, _, _ := r.c.Store.List(api.KindReplicaSet, store.ListOptions{Namespace: m.Namespace})
		for _, rs := range rss {
			if api.IsControlledBy(rs, o) {
				out = append(out, rs)
			}
		}
	case api.KindReplicaSet:
		pods, _, _ := r.c.Store.List(api.KindPod, store.ListOptions{Namespace: m.Namespace})
		for _, p := range pods {
			if api.IsControlledBy(p, o) {
				out = append(out, p)
			}
		}
	case api.KindNode:
		out, _, _ = r.c.Store.List(api.KindPod, store.ListOptions{NodeName: m.Name})
		if l, err := r.c.Store.Get(api.KindLease, api.Key{Namespace: "kube-node-lease", Name: m.Name}); err == nil {
			out = append(out, l)
		}
	case api.KindService:
		if ep, err := r.c.Store.Get(api.KindEndpoints, m.Key()); err == nil {
			out = append(out, ep)
		}
	case api.KindPersistentVolumeClaim:
		out, _, _ = r.c.Store.List(api.KindPod, store.ListOptions{Namespace: m.Namespace})
	}
	return out
}

// eventsFor returns the events about an object, oldest first.
func (r *run) eventsFor(kind api.Kind, o api.Object) []*api.Event {
	m := o.GetObjectMeta()
	objs, _, _ := r.c.Store.List(api.KindEvent, store.ListOptions{Namespace: eventNamespace(kind, m)})
	var out []*api.Event
	for _, eo := range eventsOf(objs) {
		io := eo.InvolvedObject
		if io.Kind == kind.Name && io.Name == m.Name && (io.UID == "" || io.UID == m.UID) {
			out = append(out, eo)
		}
	}
	return out
}

// eventNamespace is where events about an object are kept: its
// namespace, or "default" for cluster-scoped objects, as kubectl looks.
func eventNamespace(kind api.Kind, m *api.ObjectMeta) string {
	if m.Namespace != "" {
		return m.Namespace
	}
	return scenarios.DefaultNamespace
}

// eventsOf orders events by last occurrence, then name.
func eventsOf(objs []api.Object) []*api.Event {
	out := make([]*api.Event, 0, len(objs))
	for _, o := range objs {
		out = append(out, o.(*api.Event))
	}
	slices.SortStableFunc(out, func(a, b *api.Event) int {
		ta, tb := eventTime(a), eventTime(b)
		if !ta.Equal(tb) {
			if ta.Before(tb) {
				return -1
			}
			return 1
		}
		// Same second: the order they were created in.
		return cmp.Compare(rvOf(a), rvOf(b))
	})
	return out
}

func rvOf(o api.Object) uint64 {
	n, _ := strconv.ParseUint(o.GetObjectMeta().ResourceVersion, 10, 64)
	return n
}

// eventTime is when an event last happened.
func eventTime(e *api.Event) time.Time {
	switch {
	case !e.LastTimestamp.IsZero():
		return e.LastTimestamp.Time
	case !e.EventTime.IsZero():
		return e.EventTime.Time
	}
	return e.FirstTimestamp.Time
}
