package store

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/kernel"
)

// modelObj is what the reference model knows of one Deployment.
type modelObj struct {
	replicas, statusReplicas int32
	finalizers               []string
	deleting                 bool
	generation               int64
	rv                       uint64
}

// modelEvent is a watch event the model expects.
type modelEvent struct {
	typ  EventType
	name string
	rv   uint64
}

// model is a deliberately simple reference implementation of the store's
// contract for one kind: optimistic concurrency on resourceVersion,
// generation bumped by spec changes only, status writes that touch status
// only, no-op writes that change nothing, deletion held by finalizers,
// and a watch history replayed from any resourceVersion.
type model struct {
	rv     uint64
	objs   map[string]*modelObj
	events []modelEvent
}

func (m *model) emit(typ EventType, name string) uint64 {
	m.rv++
	m.events = append(m.events, modelEvent{typ, name, m.rv})
	return m.rv
}

// TestStoreAgainstModel drives the store and the model with the same
// random operations (create, update with the current, a stale or no
// resourceVersion, status update, finalizer removal, delete, get, list,
// watch from a past resourceVersion) and compares every answer, error
// class and stored field, for several seeds.
func TestStoreAgainstModel(t *testing.T) {
	names := []string{"a", "b", "c"}
	for seed := uint64(1); seed <= 30; seed++ {
		t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 99))
			s := New(kernel.New(seed))
			m := &model{objs: map[string]*modelObj{}}
			key := func(n string) api.Key { return api.Key{Namespace: "default", Name: n} }
			// rvFor picks the resourceVersion a write carries: the current
			// one, a stale one, or none (an unconditional write).
			rvFor := func(o *modelObj) (string, bool) {
				switch rng.IntN(4) {
				case 0:
					return "", true
				case 1:
					if o.rv > 1 {
						return strconv.FormatUint(o.rv-1, 10), false
					}
				}
				return strconv.FormatUint(o.rv, 10), true
			}
			for step := range 200 {
				name := names[rng.IntN(len(names))]
				o := m.objs[name]
				where := fmt.Sprintf("step %d", step)
				switch op := rng.IntN(8); op {
				case 0: // create
					fin := rng.IntN(2) == 0
					d := deployment(name, int32(rng.IntN(3)), fin)
					d.Status.Replicas = 7 // cleared by create
					_, err := s.Create(Op{Actor: "t"}, d)
					if o != nil {
						wantErr(t, where+" create existing", err, apierr.ErrAlreadyExists)
						continue
					}
					mustNot(t, where+" create", err)
					n := &modelObj{replicas: *d.Spec.Replicas, generation: 1, finalizers: d.Finalizers}
					n.rv = m.emit(Added, name)
					m.objs[name] = n
				case 1, 2: // update spec
					if o == nil {
						_, err := s.Update(Op{Actor: "t"}, deployment(name, 1, false), "")
						wantErr(t, where+" update missing", err, apierr.ErrNotFound)
						continue
					}
					rv, fresh := rvFor(o)
					r := int32(rng.IntN(3))
					d := deployment(name, r, false)
					d.Finalizers = o.finalizers
					d.ResourceVersion = rv
					d.Status.Replicas = 9 // a main-resource update keeps the stored status
					cur, _ := s.Get(api.KindDeployment, key(name))
					d.DeletionTimestamp = cur.GetObjectMeta().DeletionTimestamp
					d.DeletionGracePeriodSeconds = cur.GetObjectMeta().DeletionGracePeriodSeconds
					_, err := s.Update(Op{Actor: "t"}, d, "")
					if !fresh {
						wantErr(t, where+" stale update", err, apierr.ErrConflict)
						continue
					}
					mustNot(t, where+" update", err)
					if r != o.replicas {
						o.replicas = r
						o.generation++
						o.rv = m.emit(Modified, name)
					}
				case 3: // update status
					if o == nil {
						continue
					}
					rv, fresh := rvFor(o)
					cur, _ := s.Get(api.KindDeployment, key(name))
					d := cur.DeepCopyObject().(*api.Deployment)
					d.ResourceVersion = rv
					sr := int32(rng.IntN(3))
					d.Status.Replicas = sr
					spec := int32(50) // a status update keeps the stored spec
					d.Spec.Replicas = &spec
					_, err := s.Update(Op{Actor: "t"}, d, "status")
					if !fresh {
						wantErr(t, where+" stale status update", err, apierr.ErrConflict)
						continue
					}
					mustNot(t, where+" status update", err)
					if sr != o.statusReplicas {
						o.statusReplicas = sr
						o.rv = m.emit(Modified, name)
					}
				case 4: // remove the finalizers
					if o == nil || len(o.finalizers) == 0 {
						continue
					}
					cur, _ := s.Get(api.KindDeployment, key(name))
					d := cur.DeepCopyObject().(*api.Deployment)
					d.Finalizers = nil
					_, err := s.Update(Op{Actor: "t"}, d, "")
					mustNot(t, where+" finalizer removal", err)
					o.finalizers = nil
					if o.deleting {
						m.emit(Deleted, name)
						delete(m.objs, name)
					} else {
						o.rv = m.emit(Modified, name)
					}
				case 5: // delete
					_, removed, err := s.Delete(Op{Actor: "t"}, api.KindDeployment, key(name), DeleteOptions{})
					if o == nil {
						wantErr(t, where+" delete missing", err, apierr.ErrNotFound)
						continue
					}
					mustNot(t, where+" delete", err)
					wantRemoved := len(o.finalizers) == 0
					if removed != wantRemoved {
						t.Fatalf("%s: delete removed=%v, the model says %v", where, removed, wantRemoved)
					}
					switch {
					case wantRemoved:
						m.emit(Deleted, name)
						delete(m.objs, name)
					case !o.deleting:
						// The first deletionTimestamp bumps the
						// generation (markAsDeleting).
						o.deleting = true
						o.generation++
						o.rv = m.emit(Modified, name)
					}
				case 6: // watch from a past resourceVersion
					from := uint64(rng.IntN(int(m.rv) + 1))
					var got []modelEvent
					w, err := s.Watch(api.KindDeployment, from, ListOptions{}, SinkFunc(func(e Event) {
						got = append(got, modelEvent{e.Type, e.Object.GetObjectMeta().Name, e.ResourceVersion})
					}))
					mustNot(t, where+" watch", err)
					w.Stop()
					var want []modelEvent
					if from == 0 {
						for _, n := range slices.Sorted(mapKeys(m.objs)) {
							want = append(want, modelEvent{Added, n, m.objs[n].rv})
						}
					} else {
						for _, e := range m.events {
							if e.rv > from {
								want = append(want, e)
							}
						}
					}
					if !slices.Equal(got, want) {
						t.Fatalf("%s: watch from %d delivered %v, the model says %v", where, from, got, want)
					}
				case 7: // list
					objs, rv, err := s.List(api.KindDeployment, ListOptions{})
					mustNot(t, where+" list", err)
					if rv != m.rv {
						t.Fatalf("%s: list at resourceVersion %d, the model is at %d", where, rv, m.rv)
					}
					if len(objs) != len(m.objs) {
						t.Fatalf("%s: list holds %d objects, the model %d", where, len(objs), len(m.objs))
					}
				}
				// After every operation every object agrees with the model.
				if s.ResourceVersion() != m.rv {
					t.Fatalf("%s: store at resourceVersion %d, the model at %d", where, s.ResourceVersion(), m.rv)
				}
				for _, n := range names {
					compare(t, where, s, n, m.objs[n])
				}
			}
		})
	}
}

func deployment(name string, replicas int32, finalizer bool) *api.Deployment {
	d := &api.Deployment{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name}}
	d.Spec.Replicas = &replicas
	if finalizer {
		d.Finalizers = []string{"example.com/hold"}
	}
	return d
}

func compare(t *testing.T, where string, s *Store, name string, want *modelObj) {
	t.Helper()
	got, err := s.Get(api.KindDeployment, api.Key{Namespace: "default", Name: name})
	if want == nil {
		if !errors.Is(err, apierr.ErrNotFound) {
			t.Fatalf("%s: %s exists in the store (%v), not in the model", where, name, err)
		}
		return
	}
	if err != nil {
		t.Fatalf("%s: %s: %v (the model has it)", where, name, err)
	}
	d := got.(*api.Deployment)
	rv, _ := strconv.ParseUint(d.ResourceVersion, 10, 64)
	switch {
	case *d.Spec.Replicas != want.replicas:
		t.Fatalf("%s: %s spec.replicas %d, the model %d", where, name, *d.Spec.Replicas, want.replicas)
	case d.Status.Replicas != want.statusReplicas:
		t.Fatalf("%s: %s status.replicas %d, the model %d", where, name, d.Status.Replicas, want.statusReplicas)
	case d.Generation != want.generation:
		t.Fatalf("%s: %s generation %d, the model %d", where, name, d.Generation, want.generation)
	case rv != want.rv:
		t.Fatalf("%s: %s resourceVersion %d, the model %d", where, name, rv, want.rv)
	case (d.DeletionTimestamp != nil) != want.deleting:
		t.Fatalf("%s: %s deleting=%v, the model %v", where, name, d.DeletionTimestamp != nil, want.deleting)
	case !slices.Equal(d.Finalizers, want.finalizers):
		t.Fatalf("%s: %s finalizers %v, the model %v", where, name, d.Finalizers, want.finalizers)
	}
}

func mapKeys(m map[string]*modelObj) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func mustNot(t *testing.T, where string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", where, err)
	}
}

func wantErr(t *testing.T, where string, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("%s: error %v, want %v", where, err, want)
	}
}
