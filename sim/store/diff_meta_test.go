package store

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// TestMetaUnchangedFields fails when ObjectMeta or OwnerReference gain
// (or lose) a field: metaUnchanged must then compare it too, or the audit
// log would miss its changes.
func TestMetaUnchangedFields(t *testing.T) {
	for _, tc := range []struct {
		typ  reflect.Type
		want int
	}{
		{reflect.TypeFor[api.ObjectMeta](), 15},
		{reflect.TypeFor[api.OwnerReference](), 6},
	} {
		if n := tc.typ.NumField(); n != tc.want {
			t.Errorf("%v has %d fields, metaUnchanged compares %d: compare the new ones, then update this test", tc.typ, n, tc.want)
		}
	}
}

// TestAuditDiffSkipsUnchangedMeta checks that the audit diff, which skips
// metadata when only its bookkeeping changed, lists the same changes as
// the full walk for a change of each metadata field (and of none).
func TestAuditDiffSkipsUnchangedMeta(t *testing.T) {
	base := func() *api.Lease {
		yes := true
		return &api.Lease{
			TypeMeta: api.TypeMeta{APIVersion: "coordination.k8s.io/v1", Kind: "Lease"},
			ObjectMeta: api.ObjectMeta{Name: "node-1", Namespace: "kube-node-lease", UID: "u1", ResourceVersion: "7", Generation: 1,
				CreationTimestamp: api.Time{Time: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)},
				Labels:            map[string]string{"a": "b"}, Annotations: map[string]string{"c": "d"},
				OwnerReferences: []api.OwnerReference{{APIVersion: "v1", Kind: "Node", Name: "node-1", UID: "n1", Controller: &yes}},
				Finalizers:      []string{"f"},
				ManagedFields:   []api.ManagedFieldsEntry{{Manager: "kubelet"}}},
			Spec: api.LeaseSpec{RenewTime: &api.MicroTime{Time: time.Date(2026, 1, 1, 0, 0, 10, 0, time.UTC)}},
		}
	}
	no := false
	grace := int64(30)
	holder := "node-1"
	dur := int32(40)
	for _, tc := range []struct {
		name   string
		change func(l *api.Lease)
	}{
		{"nothing", func(*api.Lease) {}},
		{"bookkeeping", func(l *api.Lease) { l.ResourceVersion = "8"; l.ManagedFields = nil }},
		{"renewal", func(l *api.Lease) { l.Spec.RenewTime = &api.MicroTime{Time: l.Spec.RenewTime.Add(10 * time.Second)} }},
		{"generation", func(l *api.Lease) { l.Generation = 2 }},
		{"name", func(l *api.Lease) { l.Name = "x" }},
		{"generateName", func(l *api.Lease) { l.GenerateName = "x-" }},
		{"namespace", func(l *api.Lease) { l.Namespace = "x" }},
		{"selfLink", func(l *api.Lease) { l.SelfLink = "/x" }},
		{"uid", func(l *api.Lease) { l.UID = "u2" }},
		{"creationTimestamp", func(l *api.Lease) { l.CreationTimestamp = api.Time{Time: l.CreationTimestamp.Add(time.Second)} }},
		{"deletionTimestamp", func(l *api.Lease) { l.DeletionTimestamp = &api.Time{Time: l.CreationTimestamp.Time} }},
		{"deletionGracePeriodSeconds", func(l *api.Lease) { l.DeletionGracePeriodSeconds = &grace }},
		{"label changed", func(l *api.Lease) { l.Labels["a"] = "z" }},
		{"label added", func(l *api.Lease) { l.Labels["e"] = "f" }},
		{"labels empty", func(l *api.Lease) { l.Labels = map[string]string{} }},
		{"annotation", func(l *api.Lease) { l.Annotations["c"] = "z" }},
		{"owner controller", func(l *api.Lease) { l.OwnerReferences[0].Controller = &no }},
		{"owner block", func(l *api.Lease) { l.OwnerReferences[0].BlockOwnerDeletion = &no }},
		{"owner uid", func(l *api.Lease) { l.OwnerReferences[0].UID = "n2" }},
		{"owner added", func(l *api.Lease) {
			l.OwnerReferences = append(l.OwnerReferences, api.OwnerReference{APIVersion: "v1", Kind: "Pod", Name: "p", UID: "p1"})
		}},
		{"finalizer", func(l *api.Lease) { l.Finalizers = append(l.Finalizers, "g") }},
		{"renewal and label", func(l *api.Lease) {
			l.Spec.RenewTime = &api.MicroTime{Time: l.Spec.RenewTime.Add(time.Second)}
			l.Labels["a"] = "z"
		}},
		{"same renewal, new pointer", func(l *api.Lease) { l.Spec.RenewTime = &api.MicroTime{Time: l.Spec.RenewTime.Time} }},
		{"renewal gone", func(l *api.Lease) { l.Spec.RenewTime = nil }},
		{"holder", func(l *api.Lease) { l.Spec.HolderIdentity = &holder }},
		{"holder changed", func(l *api.Lease) { other := "node-2"; l.Spec.HolderIdentity = &other }},
		{"duration", func(l *api.Lease) { l.Spec.LeaseDurationSeconds = &dur }},
		{"acquired", func(l *api.Lease) { l.Spec.AcquireTime = &api.MicroTime{Time: l.Spec.RenewTime.Time} }},
		{"transitions", func(l *api.Lease) { l.Spec.LeaseTransitions = &dur }},
		{"strategy", func(l *api.Lease) { l.Spec.Strategy = &holder }},
		{"preferred holder", func(l *api.Lease) { l.Spec.PreferredHolder = &holder }},
		{"apiVersion", func(l *api.Lease) { l.APIVersion = "coordination.k8s.io/v1beta1" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old := base()
			// The new object is a copy, as a client's update is.
			nw := base()
			tc.change(nw)
			var want []Change
			for _, c := range Diff(old, nw) {
				if !skipInAudit(c.Path) {
					want = append(want, c)
				}
			}
			var l AuditLog
			got := l.renderedAuditChanges(old, nw)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("audit changes\n%v\nwant (the full walk's)\n%v", got, want)
			}
		})
	}
}

// TestLeaseRenewalFields fails when Lease or LeaseSpec gain (or lose) a
// field: leaseRenewal must then compare it too, or the audit log would
// miss its changes.
func TestLeaseRenewalFields(t *testing.T) {
	for _, tc := range []struct {
		typ  reflect.Type
		want int
	}{
		{reflect.TypeFor[api.Lease](), 3},
		{reflect.TypeFor[api.LeaseSpec](), 7},
	} {
		if n := tc.typ.NumField(); n != tc.want {
			t.Errorf("%v has %d fields, leaseRenewal compares %d: compare the new ones, then update this test", tc.typ, n, tc.want)
		}
	}
}

// TestSameBits checks the shortcut for structs that are the same bytes: a
// shallow copy (a status write's spec and metadata) is, a deep copy or a
// changed field is not, and a status write lists the same changes either
// way.
func TestSameBits(t *testing.T) {
	pod := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default", Labels: map[string]string{"app": "web"}},
		Spec:       api.PodSpec{NodeName: "n1", Containers: []api.Container{{Name: "c", Image: "nginx"}}},
		Status:     api.PodStatus{Phase: api.PodPending},
	}
	shallow := *pod
	deep := pod.DeepCopy()
	changed := pod.DeepCopy()
	changed.Spec.NodeName = "n2"
	for _, tc := range []struct {
		name string
		b    *api.Pod
		want bool
	}{
		{"itself", pod, true},
		{"shallow copy", &shallow, true},
		{"deep copy", deep, false},
		{"changed", changed, false},
	} {
		if got := sameBits(reflect.ValueOf(pod).Elem(), reflect.ValueOf(tc.b).Elem(), reflect.TypeFor[api.Pod]().Size()); got != tc.want {
			t.Errorf("%s: sameBits = %v, want %v", tc.name, got, tc.want)
		}
	}
	// A status write: the stored pod copied shallowly, a new status.
	upd := *pod
	upd.Status = api.PodStatus{Phase: api.PodRunning, HostIP: "10.0.0.1"}
	var l AuditLog
	got := l.auditChanges(pod, &upd)
	want := l.auditChanges(pod.DeepCopy(), upd.DeepCopy())
	if fmt.Sprint(got) != fmt.Sprint(want) || len(got) != 2 {
		t.Errorf("status write changes %v, want the deep copies' %v (two)", got, want)
	}
}

// TestEqualTypesShortcut checks that skipping list elements equal under
// == (equalTypes) lists the same changes as walking them, for pod and
// node conditions copied deeply (as a client's write is) and changed in
// each field.
func TestEqualTypesShortcut(t *testing.T) {
	at := func(s int) api.Time { return api.NewTime(benchEpoch.Add(time.Duration(s) * time.Second)) }
	pending, running := kubeletStatuses()
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n1"}, Status: api.NodeStatus{
		Conditions: []api.NodeCondition{
			{Type: "Ready", Status: "True", LastHeartbeatTime: at(1), LastTransitionTime: at(0), Reason: "KubeletReady", Message: "kubelet is posting ready status"},
			{Type: "MemoryPressure", Status: "False", LastHeartbeatTime: at(1), LastTransitionTime: at(0), Reason: "KubeletHasSufficientMemory"},
		},
		Addresses: []api.NodeAddress{{Type: "InternalIP", Address: "10.0.0.1"}},
	}}
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"}, Status: pending}
	for _, tc := range []struct {
		name   string
		old    api.Object
		change func(o api.Object)
	}{
		{"pod unchanged", pod, func(api.Object) {}},
		{"pod running", pod, func(o api.Object) { o.(*api.Pod).Status = *running.DeepCopy() }},
		{"pod condition reason", pod, func(o api.Object) { o.(*api.Pod).Status.Conditions[2].Reason = "x" }},
		{"pod condition probe time", pod, func(o api.Object) { o.(*api.Pod).Status.Conditions[0].LastProbeTime = at(9) }},
		{"pod condition generation", pod, func(o api.Object) { o.(*api.Pod).Status.Conditions[1].ObservedGeneration = 2 }},
		{"pod condition location", pod, func(o api.Object) {
			c := &o.(*api.Pod).Status.Conditions[1]
			c.LastTransitionTime = api.Time{Time: c.LastTransitionTime.In(time.FixedZone("x", 3600))}
		}},
		{"pod ip", pod, func(o api.Object) { o.(*api.Pod).Status.PodIPs[0].IP = "10.244.0.3" }},
		{"node heartbeat", node, func(o api.Object) {
			for i := range o.(*api.Node).Status.Conditions {
				o.(*api.Node).Status.Conditions[i].LastHeartbeatTime = at(11)
			}
		}},
		{"node not ready", node, func(o api.Object) { o.(*api.Node).Status.Conditions[0].Status = "Unknown" }},
		{"node address", node, func(o api.Object) { o.(*api.Node).Status.Addresses[0].Address = "10.0.0.2" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nw := tc.old.DeepCopyObject()
			tc.change(nw)
			got := diffWith(&differ{}, tc.old, nw)
			want := diffWith(&differ{walkEqual: true}, tc.old, nw)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("changes with the shortcut\n%v\nwant (the walk's)\n%v", got, want)
			}
		})
	}
}

// TestMetaUnchangedShortcuts: metaUnchanged takes lists and maps that
// are the very same as equal without reading them, and must still tell
// apart the ones that only start alike or differ.
func TestMetaUnchangedShortcuts(t *testing.T) {
	refs := []api.OwnerReference{{APIVersion: "v1", Kind: "Node", Name: "n-1", UID: "u-1"}, {APIVersion: "v1", Kind: "Node", Name: "n-2", UID: "u-2"}}
	labels := map[string]string{"app": "a"}
	fins := []string{"f-1", "f-2"}
	base := api.ObjectMeta{Name: "x", OwnerReferences: refs, Labels: labels, Annotations: labels, Finalizers: fins}
	for _, tc := range []struct {
		name string
		edit func(m *api.ObjectMeta)
		want bool
	}{
		{"shared lists and maps", func(*api.ObjectMeta) {}, true},
		{"equal copies", func(m *api.ObjectMeta) {
			m.OwnerReferences = slices.Clone(refs)
			m.Labels, m.Annotations = maps.Clone(labels), maps.Clone(labels)
			m.Finalizers = slices.Clone(fins)
		}, true},
		{"references: a prefix of the same array", func(m *api.ObjectMeta) { m.OwnerReferences = refs[:1] }, false},
		{"references: the same array from its second", func(m *api.ObjectMeta) { m.OwnerReferences = refs[1:] }, false},
		{"references: one changed in a copy", func(m *api.ObjectMeta) {
			m.OwnerReferences = slices.Clone(refs)
			m.OwnerReferences[1].UID = "u-3"
		}, false},
		{"finalizers: a prefix", func(m *api.ObjectMeta) { m.Finalizers = fins[:1] }, false},
		{"labels: another value", func(m *api.ObjectMeta) { m.Labels = map[string]string{"app": "b"} }, false},
		{"annotations: none", func(m *api.ObjectMeta) { m.Annotations = nil }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := base, base
			tc.edit(&b)
			if got := metaUnchanged(&a, &b); got != tc.want {
				t.Errorf("metaUnchanged = %t, want %t", got, tc.want)
			}
		})
	}
}
