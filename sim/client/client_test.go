package client_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/store"
)

func TestDirectCopiesRequestObjects(t *testing.T) {
	h := newHarness(t)
	tr := client.NewDirect(h.srv)
	cm := configMap("default", "cfg", nil, map[string]string{"k": "v"})
	req := &apiserver.Request{Verb: apiserver.Create, Kind: api.KindConfigMap, Actor: system, Object: cm}
	if resp := tr.Do(nil, req); resp.Err != nil {
		t.Fatal(resp.Err)
	}
	// The caller reuses its object, and a duplicated request arrives.
	cm.Data["k"] = "changed"
	if resp := tr.Do(nil, req); !errors.Is(resp.Err, apierr.ErrAlreadyExists) {
		t.Fatalf("duplicate create: %v, want AlreadyExists", resp.Err)
	}
	o, err := h.st.Get(api.KindConfigMap, api.Key{Namespace: "default", Name: "cfg"})
	if err != nil {
		t.Fatal(err)
	}
	if got := o.(*api.ConfigMap).Data["k"]; got != "v" {
		t.Errorf("stored data %q, want v: the store aliases the caller's object", got)
	}
	if cm.UID != "" {
		t.Errorf("the server wrote into the caller's object: uid %q", cm.UID)
	}
}

// recordingHandler records a watch's callbacks.
type recordingHandler struct {
	events []string
	closed []error
}

func (r *recordingHandler) Event(e store.Event) {
	r.events = append(r.events, e.Type.String()+" "+e.Object.GetObjectMeta().Name)
}

func (r *recordingHandler) Closed(err error) { r.closed = append(r.closed, err) }

func TestDirectWatch(t *testing.T) {
	tests := []struct {
		name       string
		history    int
		fromRV     func(rvAfterSetup uint64) uint64
		wantEvents []string
		wantErr    *apierr.StatusError
	}{
		{"from now", 16, func(rv uint64) uint64 { return rv }, []string{"ADDED c", "MODIFIED a"}, nil},
		{"replays history", 16, func(rv uint64) uint64 { return rv - 1 }, []string{"ADDED b", "ADDED c", "MODIFIED a"}, nil},
		{"from zero lists first", 16, func(uint64) uint64 { return 0 }, []string{"ADDED a", "ADDED b", "ADDED c", "MODIFIED a"}, nil},
		{"expired", 1, func(rv uint64) uint64 { return rv - 2 }, nil, apierr.ErrExpired},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			h.st.SetHistory(tc.history)
			tr := client.NewDirect(h.srv)
			create := func(name string) {
				h.mustHandle(t, &apiserver.Request{Verb: apiserver.Create, Kind: api.KindConfigMap, Actor: system,
					Object: configMap("default", name, nil, nil)})
			}
			create("a")
			create("b")
			rec := &recordingHandler{}
			s, err := tr.Watch(nil, &apiserver.Request{Verb: apiserver.Watch, Kind: api.KindConfigMap, Actor: system,
				ResourceVersion: tc.fromRV(h.st.ResourceVersion())}, rec)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("Watch err = %v, want %s", err, tc.wantErr.Reason)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			create("c")
			a, err := h.st.Get(api.KindConfigMap, api.Key{Namespace: "default", Name: "a"})
			if err != nil {
				t.Fatal(err)
			}
			upd := a.DeepCopyObject().(*api.ConfigMap)
			upd.Data = map[string]string{"x": "y"}
			h.mustHandle(t, &apiserver.Request{Verb: apiserver.Update, Kind: api.KindConfigMap, Actor: system, Object: upd})
			s.Stop()
			s.Stop()
			create("d") // after Stop: not delivered
			if strings.Join(rec.events, ",") != strings.Join(tc.wantEvents, ",") {
				t.Errorf("events %v, want %v", rec.events, tc.wantEvents)
			}
			if len(rec.closed) != 1 || rec.closed[0] != nil {
				t.Errorf("Closed calls %v, want exactly one Closed(nil)", rec.closed)
			}
		})
	}
}

func TestClientOutsideProcessPanics(t *testing.T) {
	h := newHarness(t)
	c := client.New(h.k, client.NewDirect(h.srv), system, client.Options{})
	defer func() {
		v := recover()
		msg, _ := v.(string)
		if !strings.Contains(msg, "client invariant in-process") {
			t.Fatalf("recovered %v, want the in-process invariant", v)
		}
	}()
	c.Get(context.Background(), api.KindConfigMap, api.Key{Namespace: "default", Name: "x"})
}

// timedTransport is a TimeoutTransport that records the timeouts it is
// given and answers through Direct.
type timedTransport struct {
	client.Transport
	timeouts []time.Duration
	plain    int
}

func (t *timedTransport) Do(p *kernel.Process, req *apiserver.Request) *apiserver.Response {
	t.plain++
	return t.Transport.Do(p, req)
}

func (t *timedTransport) DoTimeout(p *kernel.Process, req *apiserver.Request, d time.Duration) *apiserver.Response {
	t.timeouts = append(t.timeouts, d)
	return t.Transport.Do(p, req)
}

func TestRequestTimeoutReachesTransport(t *testing.T) {
	tests := []struct {
		name string
		opt  time.Duration
		want time.Duration
	}{
		{"default", 0, 10 * time.Second},
		{"custom", 3 * time.Second, 3 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			tr := &timedTransport{Transport: client.NewDirect(h.srv)}
			c := client.New(h.k, tr, system, client.Options{RequestTimeout: tc.opt})
			h.inProcess(t, func(*kernel.Process) {
				c.Get(context.Background(), api.KindConfigMap, api.Key{Namespace: "default", Name: "x"})
			})
			if len(tr.timeouts) != 1 || tr.timeouts[0] != tc.want || tr.plain != 0 {
				t.Errorf("timeouts %v (plain Do %d), want [%v] only", tr.timeouts, tr.plain, tc.want)
			}
		})
	}
}

func TestClock(t *testing.T) {
	k := kernel.New(1)
	c := client.NewClock(k)
	if got := c.Now(); !got.Equal(kernel.Epoch) {
		t.Fatalf("Now at start = %v, want the epoch %v", got, kernel.Epoch)
	}
	start := c.Now()
	var slept time.Duration
	k.Spawn("sleeper", func(p *kernel.Process) {
		c.Sleep(1500 * time.Millisecond)
		slept = c.Since(start)
	})
	k.Run(kernel.Limits{})
	if slept != 1500*time.Millisecond {
		t.Errorf("Since after Sleep(1.5s) = %v", slept)
	}
	if got, want := c.Now(), kernel.Epoch.Add(1500*time.Millisecond); !got.Equal(want) {
		t.Errorf("Now = %v, want %v", got, want)
	}
	defer func() {
		if v := recover(); v == nil || !strings.Contains(v.(string), "client invariant in-process") {
			t.Errorf("Sleep outside a process: recovered %v, want the in-process invariant", v)
		}
	}()
	c.Sleep(time.Second)
}

// TestWriteDoesNotAliasCaller checks that after a write the caller may
// change every part of its object in place without touching what the
// server stored: for pods' and nodes' status writes the body shares the
// metadata and spec with the caller's object (the server stores only the
// status), for the apps kinds, whose status writes keep the request's
// metadata, and for updates of leases only the managedFields are shared
// (the server replaces them). Planting Deployment among statusBody's
// shallow kinds made it fail.
func TestWriteDoesNotAliasCaller(t *testing.T) {
	holder := "n1"
	lease := &api.Lease{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "n1"}, Spec: api.LeaseSpec{HolderIdentity: &holder}}
	nodeObj := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n1"}}
	replicas := int32(2)
	deploy := &api.Deployment{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "d"},
		Spec: api.DeploymentSpec{Replicas: &replicas, Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "web", Image: "nginx:1.25"}}}}}}
	tests := []struct {
		name string
		obj  api.Object
		// status changes the caller's object (its status, but for a
		// lease); scribble changes the caller's object in place
		// everywhere.
		status, scribble func(o api.Object)
	}{
		{"pod", pod("default", "p", "n1"),
			func(o api.Object) {
				o.(*api.Pod).Status.Conditions = []api.PodCondition{{Type: "Ready", Status: "True"}}
			},
			func(o api.Object) {
				p := o.(*api.Pod)
				p.Labels["app"] = "scribbled"
				p.Annotations["a"] = "scribbled"
				p.Spec.Containers[0].Image = "scribbled"
				p.Status.Conditions[0].Status = "scribbled"
			}},
		{"node", nodeObj,
			func(o api.Object) {
				o.(*api.Node).Status.Capacity = api.ResourceList{"cpu": api.MustParseQuantity("8")}
			},
			func(o api.Object) {
				n := o.(*api.Node)
				n.Labels["app"] = "scribbled"
				n.Annotations["a"] = "scribbled"
				n.Status.Capacity["cpu"] = api.MustParseQuantity("1")
			}},
		{"deployment", deploy,
			func(o api.Object) { o.(*api.Deployment).Status.Replicas = 2 },
			func(o api.Object) {
				d := o.(*api.Deployment)
				d.Labels["app"] = "scribbled"
				d.Annotations["a"] = "scribbled"
				d.Spec.Template.Spec.Containers[0].Image = "scribbled"
			}},
		{"lease", lease,
			func(o api.Object) {
				renew := api.NewMicroTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
				o.(*api.Lease).Spec.RenewTime = &renew
			},
			func(o api.Object) {
				l := o.(*api.Lease)
				l.Labels["app"] = "scribbled"
				*l.Spec.HolderIdentity = "scribbled"
				l.Spec.RenewTime.Time = time.Time{}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			// Over the network: the direct transport copies every body
			// again (a wire's decoding).
			tr := h.network()
			h.inProcess(t, func(p *kernel.Process) {
				c := client.New(h.k, tr, system, client.Options{})
				ctx := context.Background()
				created, err := c.Create(ctx, tc.obj)
				if err != nil {
					t.Fatal(err)
				}
				m := created.GetObjectMeta()
				m.Labels = map[string]string{"app": "web"}
				m.Annotations = map[string]string{"a": "b"}
				if created, err = c.Update(ctx, created); err != nil {
					t.Fatal(err)
				}
				tc.status(created)
				write := c.UpdateStatus
				if _, lease := created.(*api.Lease); lease {
					write = c.Update
				}
				if _, err := write(ctx, created); err != nil {
					t.Fatal(err)
				}
				kind, key := api.KindOf(created), created.GetObjectMeta().Key()
				before, err := h.st.Get(kind, key)
				if err != nil {
					t.Fatal(err)
				}
				want := store.Diff(nil, before)
				tc.scribble(created)
				mf := created.GetObjectMeta().ManagedFields
				if len(mf) == 0 {
					t.Fatal("the caller's object has no managedFields to scribble")
				}
				for i := range mf {
					e := &mf[i]
					e.Manager = "scribbled"
					*e.Time = api.Time{}
					*e.FieldsV1 = append((*e.FieldsV1)[:0], "{}"...)
				}
				after, _ := h.st.Get(kind, key)
				if d := store.Diff(before, after); after != before || len(d) != 0 {
					t.Fatalf("the stored object changed with the caller's: %v", d)
				}
				if got := store.Diff(nil, after); !slices.Equal(got, want) {
					t.Errorf("the stored object changed with the caller's:\n%v\nwant\n%v", got, want)
				}
			})
		})
	}
}

// otherClient is a Client not of this package: CreateGiven cannot give
// it an object and falls back to its Create.
type otherClient struct{ client.Client }

func TestCreateGiven(t *testing.T) {
	tests := []struct {
		name string
		// wrap makes the client another package's.
		wrap bool
		// exists creates a pod of the same name first.
		exists bool
		// wantGiven: the stored pod is the object given, not a copy.
		wantGiven bool
		wantErr   error
	}{
		{name: "this package's client sends the object itself", wantGiven: true},
		{name: "another client gets a Create", wrap: true},
		{name: "a refused create returns its error and no name", exists: true, wantErr: apierr.ErrAlreadyExists},
		{name: "a refused create through another client", wrap: true, exists: true, wantErr: apierr.ErrAlreadyExists},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			tr := h.network()
			h.inProcess(t, func(p *kernel.Process) {
				var c client.Client = client.New(h.k, tr, system, client.Options{})
				if tc.wrap {
					c = otherClient{c}
				}
				ctx := context.Background()
				given := pod("default", "", "")
				given.GenerateName = "web-"
				if tc.exists {
					given.GenerateName = ""
					given.Name = "web-1"
					if _, err := c.Create(ctx, pod("default", "web-1", "")); err != nil {
						t.Fatal(err)
					}
				}
				name, err := client.CreateGiven(ctx, c, given)
				if tc.wantErr != nil {
					if !errors.Is(err, tc.wantErr) || name != "" {
						t.Fatalf("CreateGiven = %q, %v; want \"\", %v", name, err, tc.wantErr)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if !strings.HasPrefix(name, "web-") || len(name) != len("web-")+5 {
					t.Fatalf("name %q, want web- and five generated characters", name)
				}
				stored, err := h.st.Get(api.KindPod, api.Key{Namespace: "default", Name: name})
				if err != nil {
					t.Fatalf("the returned name is not stored: %v", err)
				}
				if got := stored == api.Object(given); got != tc.wantGiven {
					t.Errorf("stored object is the given one: %v, want %v", got, tc.wantGiven)
				}
			})
		})
	}
}
