package servetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/metadata/metadatainformer"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// TestClientGo runs client-go's clients against one server: node-failure
// without its timeline (three nodes, the nginx Deployment's three pods,
// and nothing failing), at 60x so that a watch's bookmarks (one a virtual
// minute) come every wall-clock second. The checks write ConfigMaps of
// their own, which no controller touches, so what they assert does not
// depend on the pace.
func TestClientGo(t *testing.T) {
	s := serve(t, "node-failure", "--timeline=false", "--speed", "60")
	t.Run("discovery", func(t *testing.T) { checkDiscovery(t, s) })
	t.Run("crud", func(t *testing.T) { checkCRUD(t, s) })
	t.Run("invalid", func(t *testing.T) { checkInvalid(t, s) })
	t.Run("retry-on-conflict", func(t *testing.T) { checkRetryOnConflict(t, s) })
	t.Run("selectors", func(t *testing.T) { checkSelectors(t, s) })
	t.Run("watch", func(t *testing.T) { checkWatch(t, s) })
	t.Run("bookmarks", func(t *testing.T) { checkBookmarks(t, s) })
	t.Run("apply", func(t *testing.T) { checkApply(t, s) })
	t.Run("dynamic", func(t *testing.T) { checkDynamic(t, s) })
	t.Run("scale", func(t *testing.T) { checkScale(t, s) })
	t.Run("informers", func(t *testing.T) { checkInformers(t, s) })
	t.Run("protobuf", func(t *testing.T) { checkProtobufRefused(t, s) })
	t.Run("semantics", func(t *testing.T) { checkSemantics(t, s) })
	t.Run("expired", func(t *testing.T) { checkExpired(t, s) })
	t.Run("metadata", func(t *testing.T) { checkMetadata(t, s) })
	t.Run("crd", func(t *testing.T) { checkCRD(t, s) })
	t.Run("foreground", func(t *testing.T) { checkForeground(t, s) }) // last: it deletes the Deployment
}

func configMap(name string, data map[string]string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"}, Data: data}
}

func rvOf(t *testing.T, rv string) uint64 {
	t.Helper()
	n, err := strconv.ParseUint(rv, 10, 64)
	if err != nil {
		t.Fatalf("resourceVersion %q is not the number a kube-apiserver (etcd) gives: %v", rv, err)
	}
	return n
}

func checkDiscovery(t *testing.T, s *server) {
	dc, err := discovery.NewDiscoveryClientForConfig(s.cfg)
	if err != nil {
		t.Fatal(err)
	}
	v, err := dc.ServerVersion()
	if err != nil {
		t.Fatalf("ServerVersion: %v", err)
	}
	if v.Major != "1" || v.Minor != "37" {
		t.Errorf("ServerVersion = %s.%s (%s), want 1.37", v.Major, v.Minor, v.GitVersion)
	}
	groups, resources, err := dc.ServerGroupsAndResources()
	if err != nil {
		t.Fatalf("ServerGroupsAndResources: %v", err)
	}
	names := map[string]bool{}
	for _, g := range groups {
		names[g.Name] = true
	}
	for _, g := range []string{"", "apps", "batch", "policy"} {
		if !names[g] {
			t.Errorf("discovery lacks the group %q", g)
		}
	}
	found := false
	for _, rl := range resources {
		if rl.GroupVersion != "apps/v1" {
			continue
		}
		for _, r := range rl.APIResources {
			if r.Name == "deployments" {
				found = true
				if !r.Namespaced || r.Kind != "Deployment" {
					t.Errorf("apps/v1 deployments: namespaced %v kind %q", r.Namespaced, r.Kind)
				}
			}
		}
	}
	if !found {
		t.Errorf("apps/v1 does not list deployments")
	}

	cached := memory.NewMemCacheClient(dc)
	mapper := restmapper.NewShortcutExpander(restmapper.NewDeferredDiscoveryRESTMapper(cached), cached, nil)
	m, err := mapper.RESTMapping(schema.GroupKind{Group: "apps", Kind: "Deployment"}, "v1")
	if err != nil {
		t.Fatalf("RESTMapping(apps Deployment): %v", err)
	}
	if m.Resource != (schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}) || m.Scope.Name() != "namespace" {
		t.Errorf("RESTMapping(apps Deployment) = %v scope %s", m.Resource, m.Scope.Name())
	}
	m, err = mapper.RESTMapping(schema.GroupKind{Kind: "Node"})
	if err != nil {
		t.Fatalf("RESTMapping(Node): %v", err)
	}
	if m.Resource.Resource != "nodes" || m.Scope.Name() != "root" {
		t.Errorf("RESTMapping(Node) = %v scope %s", m.Resource, m.Scope.Name())
	}
	gvk, err := mapper.KindFor(schema.GroupVersionResource{Resource: "deploy"})
	if err != nil {
		t.Fatalf("KindFor(deploy): %v", err)
	}
	if gvk != (schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}) {
		t.Errorf("KindFor(deploy) = %v", gvk)
	}
	if _, err := mapper.RESTMapping(schema.GroupKind{Group: "example.com", Kind: "Nothing"}); !isNoMatch(err) {
		t.Errorf("RESTMapping of an unknown kind: %v, want a NoKindMatchError", err)
	}
}

func checkCRUD(t *testing.T, s *server) {
	c := ctx(t, 120*time.Second)
	cms := s.cs.CoreV1().ConfigMaps("default")
	created, err := cms.Create(c, configMap("crud", map[string]string{"a": "1"}), metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	if created.UID == "" || created.ResourceVersion == "" || created.CreationTimestamp.IsZero() {
		t.Errorf("created ConfigMap lacks uid, resourceVersion or creationTimestamp: %+v", created.ObjectMeta)
	}
	rvOf(t, created.ResourceVersion)
	if _, err := cms.Create(c, configMap("crud", nil), metav1.CreateOptions{}); !apierrors.IsAlreadyExists(err) {
		t.Errorf("second create: %v, want AlreadyExists", err)
	}
	got, err := cms.Get(c, "crud", metav1.GetOptions{})
	if err != nil || got.Data["a"] != "1" || got.ResourceVersion != created.ResourceVersion {
		t.Errorf("get: %v %+v", err, got)
	}
	if _, err := cms.Get(c, "missing", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("get of a missing ConfigMap: %v, want NotFound", err)
	}
	upd := got.DeepCopy()
	upd.Data["a"] = "2"
	updated, err := cms.Update(c, upd, metav1.UpdateOptions{})
	if err != nil {
		t.Fatalf("update: %v", err)
	}
	// Without a fieldManager, the writer is named by its User-Agent.
	wantManager, _, _ := strings.Cut(rest.DefaultKubernetesUserAgent(), "/")
	if len(updated.ManagedFields) != 1 || updated.ManagedFields[0].Manager != wantManager || updated.ManagedFields[0].Operation != metav1.ManagedFieldsOperationUpdate {
		t.Errorf("managedFields after create and update: %+v, want one Update entry of %q", updated.ManagedFields, wantManager)
	}
	if rvOf(t, updated.ResourceVersion) <= rvOf(t, got.ResourceVersion) {
		t.Errorf("update's resourceVersion %s is not after %s", updated.ResourceVersion, got.ResourceVersion)
	}
	stale := got.DeepCopy()
	stale.Data["a"] = "3"
	if _, err := cms.Update(c, stale, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
		t.Errorf("update with a stale resourceVersion: %v, want Conflict", err)
	}
	patched, err := cms.Patch(c, "crud", types.MergePatchType, []byte(`{"data":{"b":"x"}}`), metav1.PatchOptions{})
	if err != nil || patched.Data["a"] != "2" || patched.Data["b"] != "x" {
		t.Errorf("merge patch: %v %v", err, patched.Data)
	}
	patched, err = cms.Patch(c, "crud", types.StrategicMergePatchType, []byte(`{"data":{"b":null}}`), metav1.PatchOptions{})
	if err != nil || len(patched.Data) != 1 {
		t.Errorf("strategic merge patch: %v %v", err, patched.Data)
	}
	patched, err = cms.Patch(c, "crud", types.JSONPatchType, []byte(`[{"op":"replace","path":"/data/a","value":"4"}]`), metav1.PatchOptions{})
	if err != nil || patched.Data["a"] != "4" {
		t.Errorf("JSON patch: %v %v", err, patched.Data)
	}
	if _, err := cms.Patch(c, "missing", types.MergePatchType, []byte(`{"data":{"b":"x"}}`), metav1.PatchOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("patch of a missing ConfigMap: %v, want NotFound", err)
	}
	wrongUID := types.UID("not-" + string(created.UID))
	if err := cms.Delete(c, "crud", metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &wrongUID}}); !apierrors.IsConflict(err) {
		t.Errorf("delete with a wrong uid precondition: %v, want Conflict", err)
	}
	if err := cms.Delete(c, "crud", metav1.DeleteOptions{}); err != nil {
		t.Errorf("delete: %v", err)
	}
	if _, err := cms.Get(c, "crud", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("get after delete: %v, want NotFound", err)
	}
	if err := cms.Delete(c, "crud", metav1.DeleteOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("second delete: %v, want NotFound", err)
	}
}

func checkInvalid(t *testing.T, s *server) {
	c := ctx(t, 120*time.Second)
	_, err := s.cs.CoreV1().ConfigMaps("default").Create(c, configMap("Not_A_Name", nil), metav1.CreateOptions{})
	if !apierrors.IsInvalid(err) {
		t.Fatalf("create with an invalid name: %v, want Invalid", err)
	}
	var se apierrors.APIStatus
	if !errors.As(err, &se) {
		t.Fatalf("%T is not an APIStatus", err)
	}
	st := se.Status()
	if st.Code != 422 || st.Details == nil || st.Details.Name != "Not_A_Name" || st.Details.Kind != "ConfigMap" || len(st.Details.Causes) == 0 || st.Details.Causes[0].Field != "metadata.name" {
		t.Errorf("the 422's status: %+v details %+v", st, st.Details)
	}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "empty", Namespace: "default"}}
	if _, err := s.cs.CoreV1().Pods("default").Create(c, pod, metav1.CreateOptions{}); !apierrors.IsInvalid(err) {
		t.Errorf("create of a pod without containers: %v, want Invalid", err)
	}
	elsewhere := configMap("x", nil)
	elsewhere.Namespace = "no-such-namespace"
	if _, err := s.cs.CoreV1().ConfigMaps("no-such-namespace").Create(c, elsewhere, metav1.CreateOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("create in a missing namespace: %v, want NotFound", err)
	}
}

func checkRetryOnConflict(t *testing.T, s *server) {
	c := ctx(t, 120*time.Second)
	cms := s.cs.CoreV1().ConfigMaps("default")
	if _, err := cms.Create(c, configMap("counter", map[string]string{"n": "0"}), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	// Four writers increment a counter with RetryOnConflict: each
	// conflict is retried on a fresh read, and no increment is lost.
	const writers, each = 4, 5
	var conflicts atomic.Int64
	errs := make(chan error, writers)
	for w := 0; w < writers; w++ {
		go func() {
			for i := 0; i < each; i++ {
				// Requests that arrive between two of the server's
				// steps are sent together, so the writers meet in
				// lockstep more than on a real server: a jittered
				// back-off with more steps than DefaultRetry's 5.
				backoff := wait.Backoff{Steps: 50, Duration: 5 * time.Millisecond, Factor: 1.2, Jitter: 1, Cap: 100 * time.Millisecond}
				err := retry.RetryOnConflict(backoff, func() error {
					cm, err := cms.Get(c, "counter", metav1.GetOptions{})
					if err != nil {
						return err
					}
					n, _ := strconv.Atoi(cm.Data["n"])
					cm.Data["n"] = strconv.Itoa(n + 1)
					_, err = cms.Update(c, cm, metav1.UpdateOptions{})
					if apierrors.IsConflict(err) {
						conflicts.Add(1)
					}
					return err
				})
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for w := 0; w < writers; w++ {
		if err := <-errs; err != nil {
			t.Errorf("RetryOnConflict: %v", err)
		}
	}
	cm, err := cms.Get(c, "counter", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if cm.Data["n"] != strconv.Itoa(writers*each) {
		t.Errorf("counter = %s after %d increments (%d conflicts retried)", cm.Data["n"], writers*each, conflicts.Load())
	}
	t.Logf("%d conflicts retried", conflicts.Load())
}

func checkSelectors(t *testing.T, s *server) {
	c := ctx(t, 120*time.Second)
	cms := s.cs.CoreV1().ConfigMaps("default")
	for i, color := range []string{"red", "red", "blue"} {
		cm := configMap(fmt.Sprintf("sel-%d", i), nil)
		cm.Labels = map[string]string{"color": color, "suite": "selectors"}
		if _, err := cms.Create(c, cm, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	names := func(opts metav1.ListOptions) []string {
		t.Helper()
		l, err := cms.List(c, opts)
		if err != nil {
			t.Fatalf("list %+v: %v", opts, err)
		}
		rvOf(t, l.ResourceVersion)
		var out []string
		for _, cm := range l.Items {
			out = append(out, cm.Name)
		}
		return out
	}
	if got := fmt.Sprint(names(metav1.ListOptions{LabelSelector: "suite=selectors,color=red"})); got != "[sel-0 sel-1]" {
		t.Errorf("label selector color=red: %s", got)
	}
	if got := fmt.Sprint(names(metav1.ListOptions{LabelSelector: "suite=selectors,color notin (red)"})); got != "[sel-2]" {
		t.Errorf("label selector color notin (red): %s", got)
	}
	sel := labels.SelectorFromSet(labels.Set{"suite": "selectors"}).String()
	if got := fmt.Sprint(names(metav1.ListOptions{LabelSelector: sel, FieldSelector: "metadata.name!=sel-1"})); got != "[sel-0 sel-2]" {
		t.Errorf("field selector metadata.name!=sel-1: %s", got)
	}
	if got := fmt.Sprint(names(metav1.ListOptions{FieldSelector: fields.OneTermEqualSelector("metadata.name", "sel-2").String()})); got != "[sel-2]" {
		t.Errorf("field selector metadata.name=sel-2: %s", got)
	}
	// The pods on worker-1, by the field selector the kubelet uses.
	pods, err := s.cs.CoreV1().Pods("").List(c, metav1.ListOptions{FieldSelector: "spec.nodeName=worker-1"})
	if err != nil {
		t.Fatal(err)
	}
	all, err := s.cs.CoreV1().Pods("").List(c, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, p := range all.Items {
		if p.Spec.NodeName == "worker-1" {
			want++
		}
	}
	if len(pods.Items) != want {
		t.Errorf("spec.nodeName=worker-1 lists %d pods; %d of all pods are on worker-1", len(pods.Items), want)
	}
	for _, p := range pods.Items {
		if p.Spec.NodeName != "worker-1" {
			t.Errorf("spec.nodeName=worker-1 lists %s on %q", p.Name, p.Spec.NodeName)
		}
	}
	_, err = cms.List(c, metav1.ListOptions{FieldSelector: "data.a=1"})
	if !apierrors.IsBadRequest(err) {
		t.Errorf("an unsupported field selector: %v, want BadRequest", err)
	}
	_, err = cms.List(c, metav1.ListOptions{LabelSelector: "a in (b"})
	if !apierrors.IsBadRequest(err) {
		t.Errorf("a malformed label selector: %v, want BadRequest", err)
	}
}

// next reads the next event of w within d.
func next(t *testing.T, w watch.Interface, d time.Duration) watch.Event {
	t.Helper()
	select {
	case e, ok := <-w.ResultChan():
		if !ok {
			t.Fatalf("the watch ended")
		}
		return e
	case <-time.After(d):
		t.Fatalf("no watch event in %s", d)
	}
	return watch.Event{}
}

func checkWatch(t *testing.T, s *server) {
	c := ctx(t, 120*time.Second)
	cms := s.cs.CoreV1().ConfigMaps("default")
	list, err := cms.List(c, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := cms.Watch(c, metav1.ListOptions{ResourceVersion: list.ResourceVersion, FieldSelector: "metadata.name=watched"})
	if err != nil {
		t.Fatalf("watch: %v", err)
	}
	defer w.Stop()
	cm, err := cms.Create(c, configMap("watched", map[string]string{"v": "1"}), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cm.Data["v"] = "2"
	cm, err = cms.Update(c, cm, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := cms.Delete(c, "watched", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	var rvs []string
	for _, want := range []watch.EventType{watch.Added, watch.Modified, watch.Deleted} {
		e := next(t, w, 30*time.Second)
		got, ok := e.Object.(*corev1.ConfigMap)
		if e.Type != want || !ok || got.Name != "watched" {
			t.Fatalf("watch event %s %T, want %s of the ConfigMap watched", e.Type, e.Object, want)
		}
		rvs = append(rvs, got.ResourceVersion)
	}
	if rvs[1] != cm.ResourceVersion {
		t.Errorf("MODIFIED's resourceVersion %s, the update answered %s", rvs[1], cm.ResourceVersion)
	}

	// Resumption: a watch from the ADDED event's resourceVersion gets
	// the events after it, and none before.
	w2, err := cms.Watch(c, metav1.ListOptions{ResourceVersion: rvs[0], FieldSelector: "metadata.name=watched"})
	if err != nil {
		t.Fatalf("watch from %s: %v", rvs[0], err)
	}
	defer w2.Stop()
	for i, want := range []watch.EventType{watch.Modified, watch.Deleted} {
		e := next(t, w2, 30*time.Second)
		got, ok := e.Object.(*corev1.ConfigMap)
		if e.Type != want || !ok || got.ResourceVersion != rvs[i+1] {
			t.Fatalf("resumed watch: %s %T, want %s at %s", e.Type, e.Object, want, rvs[i+1])
		}
	}

	// A watch of a single object by name (the path client-go's
	// watch of metadata.name uses is the same; a get-and-watch is
	// what kubectl get -w does).
	w3, err := s.cs.CoreV1().Namespaces().Watch(c, metav1.ListOptions{FieldSelector: "metadata.name=default"})
	if err != nil {
		t.Fatalf("watch of namespace default: %v", err)
	}
	defer w3.Stop()
	if e := next(t, w3, 30*time.Second); e.Type != watch.Added {
		t.Errorf("a watch without a resourceVersion starts with the current state as ADDED; got %s", e.Type)
	}

	// A resourceVersion that is not a number: the watch cache's
	// versioner refuses it with an error that is not an API status,
	// which kube-apiserver answers as a 500 without a reason.
	_, err = cms.Watch(c, metav1.ListOptions{ResourceVersion: "abc"})
	var se apierrors.APIStatus
	if !errors.As(err, &se) || se.Status().Code != 500 || se.Status().Reason != "" || !strings.Contains(se.Status().Message, `resourceVersion: Invalid value: "abc"`) {
		t.Errorf("watch from resourceVersion abc: %v, want the reasonless 500 naming the resourceVersion", err)
	}
}

func checkBookmarks(t *testing.T, s *server) {
	c := ctx(t, 120*time.Second)
	cms := s.cs.CoreV1().ConfigMaps("default")
	list, err := cms.List(c, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := cms.Watch(c, metav1.ListOptions{ResourceVersion: list.ResourceVersion, AllowWatchBookmarks: true, FieldSelector: "metadata.name=none"})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	e := next(t, w, 30*time.Second)
	if e.Type != watch.Bookmark {
		t.Fatalf("event %s, want BOOKMARK", e.Type)
	}
	cm, ok := e.Object.(*corev1.ConfigMap)
	if !ok {
		t.Fatalf("bookmark object %T, want a *ConfigMap", e.Object)
	}
	if rvOf(t, cm.ResourceVersion) < rvOf(t, list.ResourceVersion) {
		t.Errorf("bookmark resourceVersion %s is before the list's %s", cm.ResourceVersion, list.ResourceVersion)
	}
}

func checkApply(t *testing.T, s *server) {
	c := ctx(t, 120*time.Second)
	cms := s.cs.CoreV1().ConfigMaps("default")
	ac := corev1ac.ConfigMap("applied", "default").WithLabels(map[string]string{"owner": "a"}).WithData(map[string]string{"k": "a"})
	got, err := cms.Apply(c, ac, metav1.ApplyOptions{FieldManager: "manager-a"})
	if err != nil {
		t.Fatalf("apply (create): %v", err)
	}
	if got.Data["k"] != "a" || len(got.ManagedFields) == 0 || got.ManagedFields[0].Manager != "manager-a" || got.ManagedFields[0].Operation != metav1.ManagedFieldsOperationApply {
		t.Errorf("applied object: data %v managedFields %+v", got.Data, got.ManagedFields)
	}
	// Another manager setting the same field conflicts.
	other := corev1ac.ConfigMap("applied", "default").WithData(map[string]string{"k": "b"})
	_, err = cms.Apply(c, other, metav1.ApplyOptions{FieldManager: "manager-b"})
	if !apierrors.IsConflict(err) {
		t.Fatalf("a conflicting apply: %v, want Conflict", err)
	}
	var se apierrors.APIStatus
	if errors.As(err, &se) {
		if d := se.Status().Details; d == nil || len(d.Causes) == 0 || d.Causes[0].Type != metav1.CauseTypeFieldManagerConflict || d.Causes[0].Field != ".data.k" {
			t.Errorf("the conflict's details: %+v", d)
		}
	}
	got, err = cms.Apply(c, other, metav1.ApplyOptions{FieldManager: "manager-b", Force: true})
	if err != nil || got.Data["k"] != "b" {
		t.Fatalf("a forced apply: %v %v", err, got)
	}
	// manager-a re-applies without the field it lost: its label stays
	// (still its own), and nothing conflicts.
	got, err = cms.Apply(c, corev1ac.ConfigMap("applied", "default").WithLabels(map[string]string{"owner": "a"}), metav1.ApplyOptions{FieldManager: "manager-a"})
	if err != nil || got.Labels["owner"] != "a" || got.Data["k"] != "b" {
		t.Errorf("re-apply by manager-a: %v labels %v data %v", err, got.Labels, got.Data)
	}
	// An apply without a field manager is refused client-side by
	// client-go; the server's refusal of one is checked by kubectl's
	// test. Status apply of a kind without status is a 404.
	if _, err := cms.Apply(c, corev1ac.ConfigMap("applied", "default"), metav1.ApplyOptions{}); err == nil {
		t.Errorf("apply without a fieldManager succeeded")
	}
}

func checkDynamic(t *testing.T, s *server) {
	c := ctx(t, 120*time.Second)
	dc, err := dynamic.NewForConfig(s.cfg)
	if err != nil {
		t.Fatal(err)
	}
	deploys := dc.Resource(schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}).Namespace("default")
	list, err := deploys.List(c, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("dynamic list: %v", err)
	}
	if list.GetKind() != "DeploymentList" || list.GetAPIVersion() != "apps/v1" || len(list.Items) != 1 {
		t.Fatalf("dynamic list: kind %q apiVersion %q, %d items", list.GetKind(), list.GetAPIVersion(), len(list.Items))
	}
	rvOf(t, list.GetResourceVersion())
	d := list.Items[0]
	if d.GetKind() != "Deployment" || d.GetAPIVersion() != "apps/v1" {
		t.Errorf("a listed item's kind %q apiVersion %q (the real server sets both on each item of a dynamic list)", d.GetKind(), d.GetAPIVersion())
	}
	replicas, found, err := unstructured.NestedInt64(d.Object, "spec", "replicas")
	if err != nil || !found || replicas != 3 {
		t.Errorf("spec.replicas %d %v %v", replicas, found, err)
	}
	cmRes := dc.Resource(schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}).Namespace("default")
	u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "dynamic"}, "data": map[string]any{"x": "1"}}}
	created, err := cmRes.Create(c, u, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("dynamic create: %v", err)
	}
	if created.GetNamespace() != "default" || created.GetUID() == "" {
		t.Errorf("dynamic create: %v", created.Object["metadata"])
	}
	p, err := cmRes.Patch(c, "dynamic", types.MergePatchType, []byte(`{"data":{"y":"2"}}`), metav1.PatchOptions{})
	if err != nil {
		t.Fatalf("dynamic patch: %v", err)
	}
	if data, _, _ := unstructured.NestedStringMap(p.Object, "data"); len(data) != 2 {
		t.Errorf("dynamic patch: data %v", data)
	}
	if _, err := dc.Resource(schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}).List(c, metav1.ListOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("list of an unserved resource: %v, want NotFound", err)
	}
	// An apply through the dynamic client (unstructured, the path
	// controller-runtime's client.Apply takes).
	applied := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "dynamic-applied", "namespace": "default"}, "data": map[string]any{"x": "1"}}}
	got, err := cmRes.Apply(c, "dynamic-applied", applied, metav1.ApplyOptions{FieldManager: "dyn"})
	if err != nil || got.GetResourceVersion() == "" {
		t.Errorf("dynamic apply: %v", err)
	}
}

func checkScale(t *testing.T, s *server) {
	c := ctx(t, 120*time.Second)
	deploys := s.cs.AppsV1().Deployments("default")
	l, err := deploys.List(c, metav1.ListOptions{})
	if err != nil || len(l.Items) != 1 {
		t.Fatalf("deployments: %v", err)
	}
	name := l.Items[0].Name
	sc, err := deploys.GetScale(c, name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("GetScale: %v", err)
	}
	if sc.Spec.Replicas != 3 || sc.Name != name {
		t.Errorf("scale: %+v", sc)
	}
	sc.Spec.Replicas = 4
	sc2, err := deploys.UpdateScale(c, name, sc, metav1.UpdateOptions{})
	if err != nil || sc2.Spec.Replicas != 4 {
		t.Fatalf("UpdateScale: %v %+v", err, sc2)
	}
	sc.Spec.Replicas = 5 // sc's resourceVersion is now stale
	if _, err := deploys.UpdateScale(c, name, sc, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
		t.Errorf("UpdateScale with a stale resourceVersion: %v, want Conflict", err)
	}
	d, err := deploys.Get(c, name, metav1.GetOptions{})
	if err != nil || *d.Spec.Replicas != 4 {
		t.Errorf("after UpdateScale: %v", err)
	}
	// A status write is a 403 for serve's user (docs/kubectl.md): it
	// has the rights of RBAC's edit role, which reads status only.
	d.Status.ObservedGeneration = d.Generation
	if _, err := deploys.UpdateStatus(c, d, metav1.UpdateOptions{}); !apierrors.IsForbidden(err) {
		t.Errorf("UpdateStatus: %v, want the documented Forbidden", err)
	}
}

func ptrTo[T any](v T) *T { return &v }

func checkInformers(t *testing.T, s *server) {
	c := ctx(t, 150*time.Second)
	factory := informers.NewSharedInformerFactoryWithOptions(s.cs, 0, informers.WithNamespace("default"))
	cmInformer := factory.Core().V1().ConfigMaps()
	podLister := factory.Core().V1().Pods().Lister()
	type ev struct{ typ, name, v string }
	events := make(chan ev, 100)
	_, err := cmInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(o any) {
			cm := o.(*corev1.ConfigMap)
			events <- ev{"add", cm.Name, cm.Data["v"]}
		},
		UpdateFunc: func(_, o any) {
			cm := o.(*corev1.ConfigMap)
			events <- ev{"update", cm.Name, cm.Data["v"]}
		},
		DeleteFunc: func(o any) {
			if d, ok := o.(cache.DeletedFinalStateUnknown); ok {
				o = d.Obj
			}
			cm := o.(*corev1.ConfigMap)
			events <- ev{"delete", cm.Name, cm.Data["v"]}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	cms := s.cs.CoreV1().ConfigMaps("default")
	if _, err := cms.Create(c, configMap("before-informer", map[string]string{"v": "0"}), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	factory.Start(stop)
	defer func() {
		close(stop)
		factory.Shutdown()
	}()
	syncCtx, cancel := context.WithTimeout(c, 60*time.Second)
	defer cancel()
	for typ, ok := range factory.WaitForCacheSync(syncCtx.Done()) {
		if !ok {
			t.Fatalf("the informer of %v did not sync in 60 s", typ)
		}
	}
	// The lister holds what existed before the informer started.
	got, err := cmInformer.Lister().ConfigMaps("default").Get("before-informer")
	if err != nil || got.Data["v"] != "0" {
		t.Fatalf("lister Get(before-informer): %v", err)
	}
	pods, err := podLister.List(labels.Everything())
	if err != nil || len(pods) < 3 {
		t.Errorf("the pod lister holds %d pods (%v), want the nginx Deployment's 3 or more", len(pods), err)
	}
	seen := map[string]bool{}
	wait := func(want ev) {
		t.Helper()
		timeout := time.After(60 * time.Second)
		for {
			select {
			case e := <-events:
				seen[e.typ+"/"+e.name] = true
				if e == want {
					return
				}
			case <-timeout:
				t.Fatalf("no %+v event from the informer in 60 s (seen %v)", want, seen)
			}
		}
	}
	wait(ev{"add", "before-informer", "0"})
	cm, err := cms.Create(c, configMap("after-informer", map[string]string{"v": "1"}), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wait(ev{"add", "after-informer", "1"})
	cm.Data["v"] = "2"
	if _, err := cms.Update(c, cm, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	wait(ev{"update", "after-informer", "2"})
	if err := cms.Delete(c, "after-informer", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	wait(ev{"delete", "after-informer", "2"})
	if _, err := cmInformer.Lister().ConfigMaps("default").Get("after-informer"); !apierrors.IsNotFound(err) {
		t.Errorf("lister Get after the delete event: %v, want NotFound", err)
	}
}

// isNoMatch reports whether err is a RESTMapper's no-match error.
func isNoMatch(err error) bool { return meta.IsNoMatchError(err) }

// checkProtobufRefused: client-go's typed clientset, left to its
// defaults, sends protobuf bodies, which serve does not read: a documented
// 415 that names the fix, and no write (a delete's preconditions are not
// dropped).
func checkProtobufRefused(t *testing.T, s *server) {
	c := ctx(t, 120*time.Second)
	def, err := kubernetes.NewForConfig(s.cfg)
	if err != nil {
		t.Fatal(err)
	}
	cms := def.CoreV1().ConfigMaps("default")
	_, err = cms.Create(c, configMap("protobuf", nil), metav1.CreateOptions{})
	if !apierrors.IsUnsupportedMediaType(err) || !strings.Contains(err.Error(), `ContentType: "application/json"`) {
		t.Errorf("create through the default clientset: %v, want the 415 that names rest.Config.ContentType", err)
	}
	// Reads are answered in JSON, which it accepts.
	if _, err := cms.List(c, metav1.ListOptions{}); err != nil {
		t.Errorf("list through the default clientset: %v", err)
	}
	if _, err := s.cs.CoreV1().ConfigMaps("default").Create(c, configMap("keep", nil), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	wrong := types.UID("wrong")
	err = cms.Delete(c, "keep", metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &wrong}})
	if !apierrors.IsUnsupportedMediaType(err) {
		t.Errorf("delete with protobuf DeleteOptions: %v, want 415", err)
	}
	if _, err := cms.Get(c, "keep", metav1.GetOptions{}); err != nil {
		t.Errorf("the ConfigMap whose delete was refused: %v", err)
	}
	// controller-runtime's client does the same.
	crc, err := client.New(s.cfg, client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := crc.Create(c, configMap("protobuf", nil)); !apierrors.IsUnsupportedMediaType(err) {
		t.Errorf("create through controller-runtime's default client: %v, want 415", err)
	}
}

// checkSemantics: generateName, unconditional updates, a merge patch's
// resourceVersion as a precondition, generation, a watch's label
// selector (an object leaving it is DELETED), paging, collection deletes.
func checkSemantics(t *testing.T, s *server) {
	c := ctx(t, 120*time.Second)
	cms := s.cs.CoreV1().ConfigMaps("default")
	gen := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{GenerateName: "gen-", Namespace: "default"}}
	made, err := cms.Create(c, gen, metav1.CreateOptions{})
	if err != nil || !strings.HasPrefix(made.Name, "gen-") || len(made.Name) != len("gen-")+5 {
		t.Errorf("generateName: %v %q", err, made.Name)
	}
	// An update without a resourceVersion is unconditional.
	made.ResourceVersion = ""
	made.Data = map[string]string{"u": "1"}
	if _, err := cms.Update(c, made, metav1.UpdateOptions{}); err != nil {
		t.Errorf("unconditional update: %v", err)
	}
	// A merge patch that carries a stale resourceVersion conflicts.
	if _, err := cms.Patch(c, made.Name, types.MergePatchType, []byte(`{"metadata":{"resourceVersion":"1"},"data":{"u":"2"}}`), metav1.PatchOptions{}); !apierrors.IsConflict(err) {
		t.Errorf("merge patch with a stale resourceVersion: %v, want Conflict", err)
	}
	// generation: a spec change increments it, a label change does not.
	deploys := s.cs.AppsV1().Deployments("default")
	d, err := deploys.Get(c, "nginx-deployment", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	g := d.Generation
	d2, err := deploys.Patch(c, d.Name, types.MergePatchType, []byte(`{"metadata":{"labels":{"touched":"yes"}}}`), metav1.PatchOptions{})
	if err != nil || d2.Generation != g {
		t.Errorf("a label patch: %v, generation %d -> %d, want unchanged", err, g, d2.Generation)
	}
	d3, err := deploys.Patch(c, d.Name, types.StrategicMergePatchType, []byte(`{"spec":{"minReadySeconds":1}}`), metav1.PatchOptions{})
	if err != nil || d3.Generation != g+1 {
		t.Errorf("a spec patch: %v, generation %d -> %d, want +1", err, g, d3.Generation)
	}

	// A watch with a label selector: an object whose label stops
	// matching is DELETED for it, one that starts matching ADDED.
	list, err := cms.List(c, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := cms.Watch(c, metav1.ListOptions{ResourceVersion: list.ResourceVersion, LabelSelector: "phase=on"})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	lab := configMap("labelled", nil)
	lab.Labels = map[string]string{"phase": "off"}
	if lab, err = cms.Create(c, lab, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, phase := range []string{"on", "off"} {
		if _, err := cms.Patch(c, "labelled", types.MergePatchType, []byte(`{"metadata":{"labels":{"phase":"`+phase+`"}}}`), metav1.PatchOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []watch.EventType{watch.Added, watch.Deleted} {
		if e := next(t, w, 30*time.Second); e.Type != want {
			t.Errorf("label-selected watch: %s, want %s", e.Type, want)
		}
	}

	// Paging: a server may answer a limited list whole (docs/kubectl.md:
	// clustersim serve does), and then sets no continue token; client-go's
	// pager copes with both.
	l, err := cms.List(c, metav1.ListOptions{Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !(len(l.Items) == 1 && l.Continue != "") && !(len(l.Items) > 1 && l.Continue == "") {
		t.Errorf("list with limit 1: %d items, continue %q", len(l.Items), l.Continue)
	}

	// A no-op update, and a no-op apply, leave the resourceVersion as
	// it is.
	cur, err := cms.Get(c, "labelled", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	same, err := cms.Update(c, cur, metav1.UpdateOptions{})
	if err != nil || same.ResourceVersion != cur.ResourceVersion {
		t.Errorf("a no-op update: %v, resourceVersion %s -> %s", err, cur.ResourceVersion, same.ResourceVersion)
	}
	ac := corev1ac.ConfigMap("noop-apply", "default").WithData(map[string]string{"a": "1"})
	first, err := cms.Apply(c, ac, metav1.ApplyOptions{FieldManager: "noop"})
	if err != nil {
		t.Fatal(err)
	}
	again, err := cms.Apply(c, ac, metav1.ApplyOptions{FieldManager: "noop"})
	if err != nil || again.ResourceVersion != first.ResourceVersion {
		t.Errorf("a no-op apply: %v, resourceVersion %s -> %s", err, first.ResourceVersion, again.ResourceVersion)
	}

	// Finalizers: a delete marks the object (deletionTimestamp) and
	// keeps it until the last finalizer is removed.
	fin := configMap("finalized", nil)
	fin.Finalizers = []string{"example.com/hold"}
	if _, err := cms.Create(c, fin, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := cms.Delete(c, "finalized", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	held, err := cms.Get(c, "finalized", metav1.GetOptions{})
	if err != nil || held.DeletionTimestamp == nil {
		t.Fatalf("a deleted object with a finalizer: %v, deletionTimestamp %v", err, held)
	}
	if _, err := cms.Patch(c, "finalized", types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{}); err != nil {
		t.Fatalf("removing the finalizer: %v", err)
	}
	if _, err := cms.Get(c, "finalized", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("after its last finalizer went: %v, want NotFound", err)
	}

	// An eviction through the typed client (JSON): the pod is deleted
	// (its graceful deletion starts).
	pl, err := s.cs.CoreV1().Pods("default").List(c, metav1.ListOptions{})
	if err != nil || len(pl.Items) == 0 {
		t.Fatalf("pods: %v", err)
	}
	victim := pl.Items[len(pl.Items)-1].Name
	ev := &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: victim, Namespace: "default"}}
	if err := s.cs.PolicyV1().Evictions("default").Evict(c, ev); err != nil {
		t.Errorf("Evict: %v", err)
	} else if p, err := s.cs.CoreV1().Pods("default").Get(c, victim, metav1.GetOptions{}); err == nil && p.DeletionTimestamp == nil {
		t.Errorf("the evicted pod %s has no deletionTimestamp", victim)
	}

	// A collection delete is documented as not served: a clear 405.
	err = cms.DeleteCollection(c, metav1.DeleteOptions{}, metav1.ListOptions{LabelSelector: "phase=off"})
	if !apierrors.IsMethodNotSupported(err) {
		t.Errorf("DeleteCollection: %v, want the documented 405", err)
	}
}

// checkExpired: a watch from a resourceVersion older than the server
// keeps is an ERROR event holding a 410 Expired, which client-go's
// reflector takes as "list again".
func checkExpired(t *testing.T, s *server) {
	c := ctx(t, 120*time.Second)
	w, err := s.cs.CoreV1().Pods("").Watch(c, metav1.ListOptions{ResourceVersion: "1"})
	if err != nil {
		if apierrors.IsResourceExpired(err) || apierrors.IsGone(err) {
			return // the API server may refuse before streaming, too
		}
		t.Fatalf("watch from resourceVersion 1: %v", err)
	}
	defer w.Stop()
	e := next(t, w, 30*time.Second)
	if e.Type != watch.Error {
		t.Fatalf("watch from resourceVersion 1: %s, want ERROR", e.Type)
	}
	err = apierrors.FromObject(e.Object)
	if !apierrors.IsResourceExpired(err) {
		t.Errorf("the ERROR event: %v (%s), want 410 Expired", err, apierrors.ReasonForError(err))
	}
}

// checkMetadata: client-go's metadata client (controller-runtime's
// OnlyMetadata watches, metadata informers) asks for
// PartialObjectMetadata and PartialObjectMetadataList.
func checkMetadata(t *testing.T, s *server) {
	c := ctx(t, 120*time.Second)
	mc, err := metadata.NewForConfig(s.cfg)
	if err != nil {
		t.Fatal(err)
	}
	pods := mc.Resource(schema.GroupVersionResource{Version: "v1", Resource: "pods"})
	l, err := pods.Namespace("default").List(c, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("metadata list: %v", err)
	}
	if len(l.Items) < 3 || l.Items[0].Name == "" || l.Items[0].UID == "" {
		t.Errorf("metadata list: %d items, first %+v", len(l.Items), l.Items)
	}
	rvOf(t, l.ResourceVersion)
	p, err := pods.Namespace("default").Get(c, l.Items[0].Name, metav1.GetOptions{})
	if err != nil || p.Name != l.Items[0].Name {
		t.Errorf("metadata get: %v", err)
	}
	cms := mc.Resource(schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}).Namespace("default")
	w, err := cms.Watch(c, metav1.ListOptions{ResourceVersion: l.ResourceVersion, FieldSelector: "metadata.name=meta-watched"})
	if err != nil {
		t.Fatalf("metadata watch: %v", err)
	}
	defer w.Stop()
	if _, err := s.cs.CoreV1().ConfigMaps("default").Create(c, configMap("meta-watched", nil), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	e := next(t, w, 30*time.Second)
	pm, ok := e.Object.(*metav1.PartialObjectMetadata)
	if e.Type != watch.Added || !ok || pm.Name != "meta-watched" {
		t.Errorf("metadata watch: %s %T %v", e.Type, e.Object, e.Object)
	}

	// A metadata informer (a watch list with bookmarks) syncs and
	// follows.
	factory := metadatainformer.NewFilteredSharedInformerFactory(mc, 0, "default", nil)
	inf := factory.ForResource(schema.GroupVersionResource{Version: "v1", Resource: "configmaps"})
	added := make(chan string, 100)
	if _, err := inf.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: func(o any) {
		added <- o.(*metav1.PartialObjectMetadata).Name
	}}); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	factory.Start(stop)
	defer func() {
		close(stop)
		factory.Shutdown()
	}()
	syncCtx, cancel := context.WithTimeout(c, 60*time.Second)
	defer cancel()
	if !cache.WaitForCacheSync(syncCtx.Done(), inf.Informer().HasSynced) {
		t.Fatal("the metadata informer did not sync in 60 s")
	}
	if _, err := inf.Lister().ByNamespace("default").Get("meta-watched"); err != nil {
		t.Errorf("metadata lister: %v", err)
	}
	if _, err := s.cs.CoreV1().ConfigMaps("default").Create(c, configMap("meta-informed", nil), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	timeout := time.After(60 * time.Second)
	for {
		select {
		case name := <-added:
			if name == "meta-informed" {
				return
			}
			continue
		case <-timeout:
			t.Fatal("the metadata informer got no ADDED for meta-informed in 60 s")
		}
	}
}

// checkCRD: a CustomResourceDefinition created through the dynamic
// client becomes Established, appears in discovery and the RESTMapper,
// and its custom resources are created, listed, watched and patched.
func checkCRD(t *testing.T, s *server) {
	c := ctx(t, 120*time.Second)
	dc, err := dynamic.NewForConfig(s.cfg)
	if err != nil {
		t.Fatal(err)
	}
	crds := dc.Resource(schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"})
	crd := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": "widgets.example.com"},
		"spec": map[string]any{
			"group": "example.com", "scope": "Namespaced",
			"names": map[string]any{"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList", "shortNames": []any{"wd"}},
			"versions": []any{map[string]any{"name": "v1", "served": true, "storage": true,
				"subresources": map[string]any{"status": map[string]any{}},
				"schema": map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "properties": map[string]any{
					"spec":   map[string]any{"type": "object", "properties": map[string]any{"size": map[string]any{"type": "integer"}}},
					"status": map[string]any{"type": "object", "properties": map[string]any{"ready": map[string]any{"type": "boolean"}}},
				}}}}},
		}}}
	if _, err := crds.Create(c, crd, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create CRD: %v", err)
	}
	eventually(t, "the CRD Established", func() error {
		got, err := crds.Get(c, "widgets.example.com", metav1.GetOptions{})
		if err != nil {
			return err
		}
		conds, _, _ := unstructured.NestedSlice(got.Object, "status", "conditions")
		for _, cd := range conds {
			m := cd.(map[string]any)
			if m["type"] == "Established" && m["status"] == "True" {
				return nil
			}
		}
		return fmt.Errorf("conditions %v", conds)
	})
	disc, err := discovery.NewDiscoveryClientForConfig(s.cfg)
	if err != nil {
		t.Fatal(err)
	}
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(disc))
	m, err := mapper.RESTMapping(schema.GroupKind{Group: "example.com", Kind: "Widget"}, "v1")
	if err != nil {
		t.Fatalf("RESTMapping(Widget): %v", err)
	}
	if m.Resource.Resource != "widgets" || m.Scope.Name() != "namespace" {
		t.Errorf("RESTMapping(Widget) = %v %s", m.Resource, m.Scope.Name())
	}
	widgets := dc.Resource(m.Resource).Namespace("default")
	list, err := widgets.List(c, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("list widgets: %v", err)
	}
	w, err := widgets.Watch(c, metav1.ListOptions{ResourceVersion: list.GetResourceVersion()})
	if err != nil {
		t.Fatalf("watch widgets: %v", err)
	}
	defer w.Stop()
	wd := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w1"}, "spec": map[string]any{"size": int64(3)}}}
	created, err := widgets.Create(c, wd, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create widget: %v", err)
	}
	if created.GetGeneration() != 1 || created.GetNamespace() != "default" {
		t.Errorf("created widget: generation %d namespace %q", created.GetGeneration(), created.GetNamespace())
	}
	e := next(t, w, 30*time.Second)
	if u, ok := e.Object.(*unstructured.Unstructured); e.Type != watch.Added || !ok || u.GetName() != "w1" {
		t.Errorf("widget watch: %s %T", e.Type, e.Object)
	}
	p, err := widgets.Patch(c, "w1", types.MergePatchType, []byte(`{"spec":{"size":4}}`), metav1.PatchOptions{})
	if err != nil || p.GetGeneration() != 2 {
		t.Errorf("merge patch of a widget: %v", err)
	}
	if _, err := widgets.Patch(c, "w1", types.StrategicMergePatchType, []byte(`{"spec":{"size":5}}`), metav1.PatchOptions{}); !apierrors.IsUnsupportedMediaType(err) {
		t.Errorf("a strategic merge patch of a custom resource: %v, want 415 as the API server answers", err)
	}
	applied := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w2", "namespace": "default"}, "spec": map[string]any{"size": int64(1)}}}
	if _, err := widgets.Apply(c, "w2", applied, metav1.ApplyOptions{FieldManager: "servetest"}); err != nil {
		t.Errorf("apply of a widget: %v", err)
	}
	bad := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w3"}, "spec": map[string]any{"size": "big"}}}
	if _, err := widgets.Create(c, bad, metav1.CreateOptions{}); !apierrors.IsInvalid(err) {
		t.Errorf("a widget whose spec.size is a string: %v, want Invalid (the schema says integer)", err)
	}
}

// checkForeground: a delete with propagationPolicy Foreground (in the
// DeleteOptions body) keeps the Deployment, marked with the
// foregroundDeletion finalizer, until the garbage collector has deleted
// its ReplicaSets; then the Deployment goes.
func checkForeground(t *testing.T, s *server) {
	c := ctx(t, 120*time.Second)
	deploys := s.cs.AppsV1().Deployments("default")
	fg := metav1.DeletePropagationForeground
	if err := deploys.Delete(c, "nginx-deployment", metav1.DeleteOptions{PropagationPolicy: &fg}); err != nil {
		t.Fatalf("foreground delete: %v", err)
	}
	d, err := deploys.Get(c, "nginx-deployment", metav1.GetOptions{})
	if err == nil && (d.DeletionTimestamp == nil || !slices.Contains(d.Finalizers, metav1.FinalizerDeleteDependents)) {
		t.Errorf("the Deployment being deleted in the foreground: deletionTimestamp %v finalizers %v", d.DeletionTimestamp, d.Finalizers)
	}
	eventually(t, "the Deployment and its ReplicaSets gone", func() error {
		rs, err := s.cs.AppsV1().ReplicaSets("default").List(c, metav1.ListOptions{})
		if err != nil {
			return err
		}
		if _, err := deploys.Get(c, "nginx-deployment", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			return fmt.Errorf("the Deployment: %v; %d ReplicaSets", err, len(rs.Items))
		}
		if len(rs.Items) != 0 {
			return fmt.Errorf("%d ReplicaSets left", len(rs.Items))
		}
		return nil
	})
}
