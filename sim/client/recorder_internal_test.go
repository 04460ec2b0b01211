package client

import (
	"fmt"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/store"
)

// slow is a transport whose every request takes 1ms of virtual time.
type slow struct{ Transport }

func (s slow) Do(p *kernel.Process, req *apiserver.Request) *apiserver.Response {
	p.Sleep(time.Millisecond)
	return s.Transport.Do(p, req)
}

// TestRecorderQueueStaysBounded feeds events twice as fast as they can be
// sent, for long enough that the queue never empties: the queue's backing
// array must stay bounded (consumed entries are compacted away) and the
// excess must be dropped, not buffered. Each event is about an object of
// its own, so that the correlator neither combines nor refuses any.
func TestRecorderQueueStaysBounded(t *testing.T) {
	k := kernel.New(1)
	st := store.New(k)
	srv := apiserver.New(k, st)
	srv.Handle(&apiserver.Request{Verb: apiserver.Create, Kind: api.KindNamespace, Actor: "system:test",
		Object: &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "default"}}})
	c := New(k, slow{NewDirect(srv)}, "system:test", Options{})
	r := NewRecorder(k, c, "test", RecorderOptions{QueueLength: 50})
	r.Start()
	maxCap := 0
	for i := range 4000 {
		k.At(kernel.Time(time.Duration(i)*500*time.Microsecond), func() {
			obj := &api.ConfigMap{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: fmt.Sprintf("cm-%d", i)}}
			r.Eventf(obj, EventTypeNormal, "Tick", "tick %d", i)
			maxCap = max(maxCap, cap(r.queue))
		})
	}
	k.Run(kernel.Limits{})
	if maxCap > 512 {
		t.Errorf("queue capacity reached %d with a 50-event bound", maxCap)
	}
	s := r.Stats()
	if s.Created+s.Dropped != 4000 || s.Dropped < 1800 {
		t.Errorf("stats %+v: want every event created or dropped, about half dropped", s)
	}
}
