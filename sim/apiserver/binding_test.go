package apiserver

import (
	"maps"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/store"
)

// TestBinding serves pods/binding as k/k's BindingREST does
// (pkg/registry/core/pod/storage/storage.go; storage_test.go's
// TestEtcdCreateBinding* rows): one write sets spec.nodeName and
// PodScheduled=True, past the pod strategy (generation and managedFields
// stay); a bound, terminating or gated pod, or a uid that is not the
// pod's, is a conflict.
func TestBinding(t *testing.T) {
	const scheduler = "system:kube-scheduler"
	tests := []struct {
		name     string
		pod      func(p *api.Pod) // changes the pod before it is created
		status   []api.PodCondition
		deleting bool // the pod is terminating (a finalizer holds it)
		binding  api.Binding
		urlName  string // "" is the binding's name
		wantErr  string
		wantNode string
		wantAnno map[string]string
	}{
		{
			name:     "binds an unbound pod",
			binding:  api.Binding{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"}, Target: api.ObjectReference{Kind: "Node", Name: "node-1"}},
			wantNode: "node-1",
		},
		{
			name:     "target kind may be empty",
			binding:  api.Binding{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"}, Target: api.ObjectReference{Name: "node-1"}},
			wantNode: "node-1",
		},
		{
			name:     "replaces an Unschedulable condition",
			status:   []api.PodCondition{{Type: api.PodScheduled, Status: api.ConditionFalse, Reason: api.PodReasonUnschedulable, Message: "0/1 nodes are available"}},
			binding:  api.Binding{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"}, Target: api.ObjectReference{Kind: "Node", Name: "node-1"}},
			wantNode: "node-1",
		},
		{
			name:     "adds the binding's annotations to the pod's",
			pod:      func(p *api.Pod) { p.Annotations = map[string]string{"a": "1", "b": "1"} },
			status:   []api.PodCondition{{Type: api.PodScheduled, Status: api.ConditionFalse, Reason: api.PodReasonUnschedulable, Message: "0/1 nodes are available"}},
			binding:  api.Binding{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default", Annotations: map[string]string{"b": "2", "c": "2"}}, Target: api.ObjectReference{Kind: "Node", Name: "node-1"}},
			wantNode: "node-1",
			wantAnno: map[string]string{"a": "1", "b": "2", "c": "2"},
		},
		{
			name:    "already bound",
			pod:     func(p *api.Pod) { p.Spec.NodeName = "node-0" },
			binding: api.Binding{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"}, Target: api.ObjectReference{Kind: "Node", Name: "node-1"}},
			wantErr: `Operation cannot be fulfilled on pods/binding "p": pod p is already assigned to node "node-0": Conflict`,
		},
		{
			name:     "terminating",
			pod:      func(p *api.Pod) { p.Finalizers = []string{"example.com/hold"} },
			deleting: true,
			binding:  api.Binding{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"}, Target: api.ObjectReference{Kind: "Node", Name: "node-1"}},
			wantErr:  `Operation cannot be fulfilled on pods/binding "p": pod p is being deleted, cannot be assigned to a host: Conflict`,
		},
		{
			name:    "scheduling gates",
			pod:     func(p *api.Pod) { p.Spec.SchedulingGates = []api.PodSchedulingGate{{Name: "example.com/gate"}} },
			binding: api.Binding{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"}, Target: api.ObjectReference{Kind: "Node", Name: "node-1"}},
			wantErr: `Operation cannot be fulfilled on pods/binding "p": pod p has non-empty .spec.schedulingGates: Conflict`,
		},
		{
			name:    "uid precondition",
			binding: api.Binding{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default", UID: "other"}, Target: api.ObjectReference{Kind: "Node", Name: "node-1"}},
			wantErr: `Operation cannot be fulfilled on pods "p": Precondition failed: UID in precondition: other, UID in object meta: ` + "%UID%" + `: Conflict`,
		},
		{
			name:    "no such pod",
			binding: api.Binding{ObjectMeta: api.ObjectMeta{Name: "q", Namespace: "default"}, Target: api.ObjectReference{Kind: "Node", Name: "node-1"}},
			wantErr: `pods "q" not found: NotFound`,
		},
		{
			name:    "name in URL differs",
			binding: api.Binding{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"}, Target: api.ObjectReference{Kind: "Node", Name: "node-1"}},
			urlName: "other",
			wantErr: "name in URL does not match name in Binding object: BadRequest",
		},
		{
			name:    "no target name",
			binding: api.Binding{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"}, Target: api.ObjectReference{Kind: "Node"}},
			wantErr: "target.name: Required value: InternalError",
		},
		{
			name:    "target not a node",
			binding: api.Binding{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"}, Target: api.ObjectReference{Kind: "Pod", Name: "x"}},
			wantErr: `target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>": InternalError`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "busybox"}}}}
			if tc.pod != nil {
				tc.pod(pod)
			}
			f.bootstrap(t, pod)
			if tc.status != nil {
				cur, _ := f.srv.Store().Get(api.KindPod, pod.Key())
				cp := cur.DeepCopyObject().(*api.Pod)
				cp.Status.Conditions = tc.status
				if _, err := f.srv.Store().Update(store.Op{Actor: "test"}, cp, "status"); err != nil {
					t.Fatal(err)
				}
			}
			if tc.deleting {
				if _, _, err := f.srv.Store().Delete(store.Op{Actor: user}, api.KindPod, pod.Key(), store.DeleteOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			f.k.RunFor(90 * time.Second)
			before, _ := f.srv.Store().Get(api.KindPod, pod.Key())
			var snapshot api.Object
			if before != nil {
				snapshot = before.DeepCopyObject()
			}
			b := tc.binding
			url := tc.urlName
			if url == "" {
				url = b.Name
			}
			resp := f.do(&Request{Verb: Create, Kind: api.KindPod, Subresource: BindingSubresource, Namespace: "default", Name: url, Actor: scheduler, Object: &b})
			want := tc.wantErr
			if before != nil {
				want = strings.ReplaceAll(want, "%UID%", string(before.GetObjectMeta().UID))
			}
			if got := errString(resp.Err); got != want {
				t.Fatalf("error %q, want %q", got, want)
			}
			if tc.wantErr != "" {
				return
			}
			got, _ := f.srv.Store().Get(api.KindPod, pod.Key())
			p := got.(*api.Pod)
			if p.Spec.NodeName != tc.wantNode {
				t.Errorf("spec.nodeName = %q, want %q", p.Spec.NodeName, tc.wantNode)
			}
			want1 := api.PodCondition{Type: api.PodScheduled, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(f.k.Now().Wall()).Rfc3339Copy()}
			if n := len(p.Status.Conditions); n != 1 || !podConditionEqual(p.Status.Conditions[0], want1) {
				t.Errorf("conditions = %+v, want only %+v", p.Status.Conditions, want1)
			}
			if !maps.Equal(p.Annotations, tc.wantAnno) {
				t.Errorf("annotations %v, want %v", p.Annotations, tc.wantAnno)
			}
			// The pod replaced is what watchers and caches still hold:
			// the bound pod shares its unchanged parts and must not have
			// written through them.
			if !reflect.DeepEqual(before, snapshot) {
				t.Errorf("the binding changed the pod it replaced:\n%+v\nwas\n%+v", before, snapshot)
			}
			bm := before.GetObjectMeta()
			if p.Generation != bm.Generation || len(p.ManagedFields) != len(bm.ManagedFields) {
				t.Errorf("generation %d, %d managedFields entries; want %d and %d as before the binding", p.Generation, len(p.ManagedFields), bm.Generation, len(bm.ManagedFields))
			}
			recs := f.srv.Store().Audit().Records()
			last := recs[len(recs)-1]
			if last.Actor != scheduler || last.Verb != "create" || last.Subresource != BindingSubresource || last.Key != pod.Key() {
				t.Errorf("audit record %v, want a create of pods/binding by %s", last, scheduler)
			}
		})
	}
}

func podConditionEqual(a, b api.PodCondition) bool {
	return a.Type == b.Type && a.Status == b.Status && a.Reason == b.Reason && a.Message == b.Message &&
		a.LastTransitionTime.Equal(&b.LastTransitionTime) && a.LastProbeTime.Equal(&b.LastProbeTime)
}
