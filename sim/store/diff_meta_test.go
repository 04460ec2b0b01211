package store

import (
	"fmt"
	"reflect"
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
			got := l.auditChanges(old, nw)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("audit changes\n%v\nwant (the full walk's)\n%v", got, want)
			}
		})
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
		if got := sameBits(reflect.ValueOf(pod).Elem(), reflect.ValueOf(tc.b).Elem()); got != tc.want {
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
