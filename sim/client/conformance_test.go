package client_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/netsim"
)

// newTransport builds the transport under test for a server.
type newTransport func(k *kernel.Kernel, srv *apiserver.Server) client.Transport

// TestConformanceDirect runs the conformance suite over the Direct
// transport. A network transport adds its own Test function calling
// runConformance (with a fault-free network, so that every scenario's
// outcome is determined).
func TestConformanceDirect(t *testing.T) {
	runConformance(t, func(_ *kernel.Kernel, srv *apiserver.Server) client.Transport { return client.NewDirect(srv) })
}

// TestConformanceNetwork runs the suite over the network transport on a
// fault-free network (the default link: latency only), so that every
// scenario's outcome is determined.
func TestConformanceNetwork(t *testing.T) {
	runConformance(t, func(k *kernel.Kernel, srv *apiserver.Server) client.Transport {
		net := netsim.New(k)
		ep := apiserver.Serve(srv, net, "apiserver")
		return client.NewNetwork(net, net.Endpoint("client"), ep.Addr(), 0)
	})
}

// clients are the two identities a scenario acts as.
type clients struct {
	sys, user client.Client
}

// scenario is one conformance case: it runs inside a kernel process and
// returns an error describing the first broken expectation.
type scenario struct {
	name string
	run  func(ctx context.Context, c clients) error
}

// runConformance checks that a Client over transports made by nt behaves
// as the API server and controller-runtime's client do: create, get, list,
// update, conflict, status, patch, delete, not-found, forbidden,
// already-exists, and isolation of the caller's objects.
func runConformance(t *testing.T, nt newTransport) {
	for _, sc := range conformance {
		t.Run(sc.name, func(t *testing.T) {
			h := newHarness(t)
			tr := nt(h.k, h.srv)
			c := clients{
				sys:  client.New(h.k, tr, system, client.Options{}),
				user: client.New(h.k, tr, user, client.Options{}),
			}
			var err error
			h.inProcess(t, func(*kernel.Process) { err = sc.run(context.Background(), c) })
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

// wantReason checks err's status reason and, when msg is not empty, its
// exact message.
func wantReason(op string, err error, sentinel *apierr.StatusError, msg string) error {
	if !errors.Is(err, sentinel) {
		return fmt.Errorf("%s: err = %v, want reason %s", op, err, sentinel.Reason)
	}
	var se *apierr.StatusError
	if !errors.As(err, &se) {
		return fmt.Errorf("%s: err %T is not a *apierr.StatusError", op, err)
	}
	if msg != "" && se.Message != msg {
		return fmt.Errorf("%s: message %q, want %q", op, se.Message, msg)
	}
	return nil
}

func names(objs []api.Object) []string {
	var out []string
	for _, o := range objs {
		out = append(out, o.GetObjectMeta().Key().String())
	}
	return out
}

var conformance = []scenario{
	{"create then get", func(ctx context.Context, c clients) error {
		in := configMap("default", "cfg", map[string]string{"app": "web"}, map[string]string{"k": "v"})
		out, err := c.sys.Create(ctx, in)
		if err != nil {
			return err
		}
		m := out.GetObjectMeta()
		if m.UID == "" || m.ResourceVersion == "" || m.CreationTimestamp.IsZero() {
			return fmt.Errorf("created object lacks uid/resourceVersion/creationTimestamp: %+v", m)
		}
		if in.UID != "" || in.ResourceVersion != "" {
			return fmt.Errorf("Create wrote into the caller's object: %+v", in.ObjectMeta)
		}
		got, err := client.GetAs[*api.ConfigMap](ctx, c.sys, api.Key{Namespace: "default", Name: "cfg"})
		if err != nil {
			return err
		}
		if got.Data["k"] != "v" || got.Labels["app"] != "web" || got.UID != m.UID {
			return fmt.Errorf("got %+v, want the created object", got)
		}
		return nil
	}},
	{"caller objects never alias the store", func(ctx context.Context, c clients) error {
		in := configMap("default", "cfg", nil, map[string]string{"k": "v"})
		out, err := c.sys.Create(ctx, in)
		if err != nil {
			return err
		}
		in.Data["k"] = "mutated input"
		out.(*api.ConfigMap).Data["k"] = "mutated output"
		got, err := client.GetAs[*api.ConfigMap](ctx, c.sys, api.Key{Namespace: "default", Name: "cfg"})
		if err != nil {
			return err
		}
		if got.Data["k"] != "v" {
			return fmt.Errorf("stored data %q changed through a caller's object", got.Data["k"])
		}
		got.Data["k"] = "mutated get"
		again, err := client.GetAs[*api.ConfigMap](ctx, c.sys, api.Key{Namespace: "default", Name: "cfg"})
		if err != nil {
			return err
		}
		if again.Data["k"] != "v" {
			return fmt.Errorf("stored data %q changed through a Get result", again.Data["k"])
		}
		return nil
	}},
	{"list filters and sorts", func(ctx context.Context, c clients) error {
		for _, cm := range []*api.ConfigMap{
			configMap("other", "b", map[string]string{"app": "web"}, nil),
			configMap("default", "c", map[string]string{"app": "db"}, nil),
			configMap("default", "a", map[string]string{"app": "web"}, nil),
		} {
			if _, err := c.sys.Create(ctx, cm); err != nil {
				return err
			}
		}
		webSel, err := api.ParseSelector("app=web")
		if err != nil {
			return err
		}
		tests := []struct {
			name string
			opts []client.ListOption
			want []string
		}{
			{"all", nil, []string{"default/a", "default/c", "other/b"}},
			{"namespace", []client.ListOption{client.InNamespace("default")}, []string{"default/a", "default/c"}},
			{"labels", []client.ListOption{client.MatchingLabels(map[string]string{"app": "web"})}, []string{"default/a", "other/b"}},
			{"selector in namespace", []client.ListOption{client.MatchingSelector(webSel), client.InNamespace("other")}, []string{"other/b"}},
			{"no match", []client.ListOption{client.MatchingLabels(map[string]string{"app": "none"})}, nil},
		}
		for _, tc := range tests {
			l, err := c.sys.List(ctx, api.KindConfigMap, tc.opts...)
			if err != nil {
				return fmt.Errorf("%s: %w", tc.name, err)
			}
			if got := names(l.Items); !slices.Equal(got, tc.want) {
				return fmt.Errorf("%s: listed %v, want %v", tc.name, got, tc.want)
			}
			if l.ResourceVersion == 0 {
				return fmt.Errorf("%s: list has no resourceVersion", tc.name)
			}
		}
		typed, err := client.ListAs[*api.ConfigMap](ctx, c.sys, client.InNamespace("default"))
		if err != nil || len(typed) != 2 || typed[0].Name != "a" {
			return fmt.Errorf("ListAs = %v, %v; want default/a and default/c", typed, err)
		}
		return nil
	}},
	{"list pods by node", func(ctx context.Context, c clients) error {
		for _, p := range []*api.Pod{pod("default", "p1", "node-1"), pod("default", "p2", "node-2"), pod("other", "p3", "node-1")} {
			if _, err := c.sys.Create(ctx, p); err != nil {
				return err
			}
		}
		l, err := c.sys.List(ctx, api.KindPod, client.MatchingNodeName("node-1"))
		if err != nil {
			return err
		}
		if got, want := names(l.Items), []string{"default/p1", "other/p3"}; !slices.Equal(got, want) {
			return fmt.Errorf("pods on node-1: %v, want %v", got, want)
		}
		return nil
	}},
	{"update and conflict", func(ctx context.Context, c clients) error {
		created, err := client.CreateAs(ctx, c.sys, configMap("default", "cfg", nil, map[string]string{"k": "v1"}))
		if err != nil {
			return err
		}
		created.Data["k"] = "v2"
		updated, err := client.UpdateAs(ctx, c.sys, created)
		if err != nil {
			return err
		}
		if updated.ResourceVersion == created.ResourceVersion || updated.Data["k"] != "v2" {
			return fmt.Errorf("update: got rv %s data %v, want a new rv and v2", updated.ResourceVersion, updated.Data)
		}
		created.Data["k"] = "stale"
		_, err = c.sys.Update(ctx, created)
		return wantReason("stale update", err, apierr.ErrConflict,
			`Operation cannot be fulfilled on configmaps "cfg": the object has been modified; please apply your changes to the latest version and try again`)
	}},
	{"status subresource", func(ctx context.Context, c clients) error {
		p, err := client.CreateAs(ctx, c.sys, pod("default", "web", ""))
		if err != nil {
			return err
		}
		p.Status.Phase = api.PodRunning
		p.Spec.NodeName = "ignored-by-status"
		s, err := client.UpdateStatusAs(ctx, c.sys, p)
		if err != nil {
			return err
		}
		if s.Status.Phase != api.PodRunning || s.Spec.NodeName != "" {
			return fmt.Errorf("status update: phase %q node %q, want Running and the old spec", s.Status.Phase, s.Spec.NodeName)
		}
		s.Status.Phase = api.PodFailed
		s.Labels = map[string]string{"tier": "front"}
		u, err := client.UpdateAs(ctx, c.sys, s)
		if err != nil {
			return err
		}
		if u.Status.Phase != api.PodRunning || u.Labels["tier"] != "front" {
			return fmt.Errorf("main update: phase %q labels %v, want the old status and the new labels", u.Status.Phase, u.Labels)
		}
		return nil
	}},
	{"status patch", func(ctx context.Context, c clients) error {
		if _, err := c.sys.Create(ctx, pod("default", "web", "")); err != nil {
			return err
		}
		ps, ok := c.sys.(interface {
			PatchStatus(context.Context, api.Kind, api.Key, client.PatchType, []byte) (api.Object, error)
		})
		if !ok {
			return fmt.Errorf("%T has no PatchStatus", c.sys)
		}
		o, err := ps.PatchStatus(ctx, api.KindPod, api.Key{Namespace: "default", Name: "web"}, client.MergePatch,
			[]byte(`{"metadata":{"labels":{"tier":"front"}},"status":{"phase":"Running"}}`))
		if err != nil {
			return err
		}
		if p := o.(*api.Pod); p.Status.Phase != api.PodRunning || p.Labels["tier"] != "" {
			return fmt.Errorf("status patch: phase %q labels %v, want Running and no label (a status patch leaves the main resource)", p.Status.Phase, p.Labels)
		}
		return nil
	}},
	{"patch", func(ctx context.Context, c clients) error {
		if _, err := c.sys.Create(ctx, pod("default", "web", "")); err != nil {
			return err
		}
		key := api.Key{Namespace: "default", Name: "web"}
		data := []byte(`{"metadata":{"labels":{"tier":"front"}}}`)
		p, err := client.PatchAs[*api.Pod](ctx, c.sys, key, client.MergePatch, data)
		if err != nil {
			return err
		}
		data[0] = 'X' // the caller reuses its buffer; the request must not see it
		if p.Labels["tier"] != "front" {
			return fmt.Errorf("merge patch: labels %v", p.Labels)
		}
		sp := []byte(`{"spec":{"containers":[{"name":"sidecar","image":"envoy:1.30"}]}}`)
		p, err = client.PatchAs[*api.Pod](ctx, c.sys, key, client.StrategicMergePatch, sp)
		if err != nil {
			return err
		}
		var got []string
		for _, ctr := range p.Spec.Containers {
			got = append(got, ctr.Name)
		}
		if !slices.Contains(got, "web") || !slices.Contains(got, "sidecar") {
			return fmt.Errorf("strategic merge patch: containers %v, want web and sidecar merged", got)
		}
		_, err = c.sys.Patch(ctx, api.KindPod, key, client.PatchType(99), data)
		return wantReason("bad patch type", err, apierr.ErrBadRequest, "")
	}},
	{"delete", func(ctx context.Context, c clients) error {
		created, err := c.sys.Create(ctx, configMap("default", "cfg", nil, nil))
		if err != nil {
			return err
		}
		key := api.Key{Namespace: "default", Name: "cfg"}
		err = c.sys.Delete(ctx, api.KindConfigMap, key, client.Preconditions("not-the-uid", ""))
		if err := wantReason("delete with a wrong uid", err, apierr.ErrConflict, ""); err != nil {
			return err
		}
		if err := c.sys.Delete(ctx, api.KindConfigMap, key, client.Preconditions(created.GetObjectMeta().UID, ""),
			client.PropagationPolicy(client.Background)); err != nil {
			return err
		}
		_, err = c.sys.Get(ctx, api.KindConfigMap, key)
		if err := wantReason("get after delete", err, apierr.ErrNotFound, `configmaps "cfg" not found`); err != nil {
			return err
		}
		err = c.sys.Delete(ctx, api.KindConfigMap, key)
		return wantReason("second delete", err, apierr.ErrNotFound, `configmaps "cfg" not found`)
	}},
	{"pod graceful delete", func(ctx context.Context, c clients) error {
		if _, err := c.sys.Create(ctx, pod("default", "web", "node-1")); err != nil {
			return err
		}
		key := api.Key{Namespace: "default", Name: "web"}
		if err := c.sys.Delete(ctx, api.KindPod, key); err != nil {
			return err
		}
		p, err := client.GetAs[*api.Pod](ctx, c.sys, key)
		if err != nil {
			return fmt.Errorf("a bound pod should linger for its grace period: %w", err)
		}
		if p.DeletionTimestamp == nil {
			return fmt.Errorf("graceful delete left no deletionTimestamp")
		}
		if err := c.sys.Delete(ctx, api.KindPod, key, client.GracePeriodSeconds(0)); err != nil {
			return err
		}
		_, err = c.sys.Get(ctx, api.KindPod, key)
		return wantReason("get after delete with grace 0", err, apierr.ErrNotFound, "")
	}},
	{"not found", func(ctx context.Context, c clients) error {
		_, err := c.sys.Get(ctx, api.KindConfigMap, api.Key{Namespace: "default", Name: "nope"})
		if err := wantReason("get", err, apierr.ErrNotFound, `configmaps "nope" not found`); err != nil {
			return err
		}
		_, err = c.sys.Update(ctx, configMap("default", "nope", nil, nil))
		if err := wantReason("update", err, apierr.ErrNotFound, ""); err != nil {
			return err
		}
		_, err = c.sys.Patch(ctx, api.KindConfigMap, api.Key{Namespace: "default", Name: "nope"}, client.MergePatch, []byte(`{}`))
		return wantReason("patch", err, apierr.ErrNotFound, "")
	}},
	{"forbidden", func(ctx context.Context, c clients) error {
		p, err := client.CreateAs(ctx, c.user, pod("default", "web", ""))
		if err != nil {
			return fmt.Errorf("a user may create pods: %w", err)
		}
		p.Status.Phase = api.PodRunning
		_, err = c.user.UpdateStatus(ctx, p)
		return wantReason("user status write", err, apierr.ErrForbidden,
			`pods "web" is forbidden: User "alice" cannot update resource "pods/status" in API group "" in the namespace "default"`)
	}},
	{"already exists", func(ctx context.Context, c clients) error {
		if _, err := c.sys.Create(ctx, configMap("default", "cfg", nil, nil)); err != nil {
			return err
		}
		_, err := c.sys.Create(ctx, configMap("default", "cfg", nil, nil))
		return wantReason("second create", err, apierr.ErrAlreadyExists, `configmaps "cfg" already exists`)
	}},
	{"bad input is an error, not a panic", func(ctx context.Context, c clients) error {
		if _, err := c.sys.Create(ctx, nil); !errors.Is(err, apierr.ErrBadRequest) {
			return fmt.Errorf("Create(nil) = %v, want BadRequest", err)
		}
		_, err := client.GetAs[*api.Pod](ctx, c.sys, api.Key{Namespace: "default", Name: "missing"})
		if !errors.Is(err, apierr.ErrNotFound) {
			return fmt.Errorf("GetAs missing = %v, want NotFound", err)
		}
		_, err = c.sys.Create(ctx, configMap("no-such-namespace", "cfg", nil, nil))
		if !errors.Is(err, apierr.ErrNotFound) || !strings.Contains(err.Error(), "namespaces") {
			return fmt.Errorf("create in a missing namespace = %v, want namespace NotFound", err)
		}
		return nil
	}},
	{"actor reaches the server", func(ctx context.Context, c clients) error {
		if got := c.user.Actor(); got != user {
			return fmt.Errorf("Actor() = %q, want %q", got, user)
		}
		_, err := c.user.Create(ctx, configMap("default", "by-user", nil, nil))
		return err
	}},
}
