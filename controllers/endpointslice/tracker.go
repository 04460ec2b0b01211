package endpointslice

import (
	"github.com/clustersim/clustersim/sim/api"
)

// tracker is upstream's EndpointSliceTracker (k8s.io/endpointslice/util):
// the generation of each slice the controller last wrote, by Service, so
// that the slice events of its own writes are told from others' (a
// generation past the one written: someone else changed the slice) and a
// sync whose cache has not caught up with its own writes waits for it
// (stale). It lives as long as one incarnation of the controller.
type tracker struct {
	byService map[api.Key]map[api.UID]int64
}

// deletionExpected marks a slice the controller is deleting.
const deletionExpected = -1

// serviceOf returns the key of the Service slice s belongs to, from its
// kubernetes.io/service-name label, and false for a slice without one.
func serviceOf(s *api.EndpointSlice) (api.Key, bool) {
	name := s.Labels[api.LabelServiceName]
	return api.Key{Namespace: s.Namespace, Name: name}, name != ""
}

func (t *tracker) gens(s *api.EndpointSlice, create bool) map[api.UID]int64 {
	key, ok := serviceOf(s)
	if !ok {
		return nil
	}
	g := t.byService[key]
	if g == nil && create {
		if t.byService == nil {
			t.byService = map[api.Key]map[api.UID]int64{}
		}
		g = map[api.UID]int64{}
		t.byService[key] = g
	}
	return g
}

// has reports whether s is tracked.
func (t *tracker) has(s *api.EndpointSlice) bool {
	_, ok := t.gens(s, false)[s.UID]
	return ok
}

// shouldSync reports whether s is news to the controller: untracked, or
// of a generation past the one it wrote.
func (t *tracker) shouldSync(s *api.EndpointSlice) bool {
	g, ok := t.gens(s, false)[s.UID]
	return !ok || s.Generation > g
}

// update records s as the controller wrote it.
func (t *tracker) update(s *api.EndpointSlice) {
	if g := t.gens(s, true); g != nil {
		g[s.UID] = s.Generation
	}
}

// expectDeletion records that the controller is deleting s.
func (t *tracker) expectDeletion(s *api.EndpointSlice) {
	if g := t.gens(s, true); g != nil {
		g[s.UID] = deletionExpected
	}
}

// handleDeletion forgets s and reports whether its deletion was the
// controller's own (or s untracked).
func (t *tracker) handleDeletion(s *api.EndpointSlice) bool {
	g := t.gens(s, false)
	if g == nil {
		return true
	}
	gen, ok := g[s.UID]
	delete(g, s.UID)
	return !ok || gen == deletionExpected
}

// deleteService forgets the slices of the Service under key.
func (t *tracker) deleteService(key api.Key) { delete(t.byService, key) }

// stale reports whether the cached slices of the Service under key (those
// not being deleted) are behind the controller's own writes: one older
// than the generation it wrote, one it is deleting still there, or one
// it wrote missing (upstream's StaleSlices).
func (t *tracker) stale(key api.Key, slices []*api.EndpointSlice) bool {
	g := t.byService[key]
	if g == nil {
		return false
	}
	present := 0
	for _, s := range slices {
		gen, ok := g[s.UID]
		if !ok {
			continue
		}
		if gen == deletionExpected || gen > s.Generation {
			return true
		}
		present++
	}
	written := 0
	for _, gen := range g {
		if gen != deletionExpected {
			written++
		}
	}
	return present < written
}
