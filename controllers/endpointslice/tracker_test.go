package endpointslice_test

import (
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/store"
)

// TestSliceEditedOrDeletedByOthers: a managed slice someone else changes
// or deletes brings its Service's sync back a second later, as
// upstream's tracker has it (a generation past the one the controller
// wrote; a deletion it did not make): the edit is undone, the slice
// remade. With the tracker's handlers planted away, the edit stays.
func TestSliceEditedOrDeletedByOthers(t *testing.T) {
	c := webCluster(t)
	c.RunFor(30 * time.Second)
	op := store.Op{Actor: "someone"}
	edit := slicesOf(t, c)[0].DeepCopyObject().(*api.EndpointSlice)
	edit.Endpoints = edit.Endpoints[:1]
	c.At(30*time.Second, func() {
		if _, err := c.Store.Update(op, edit, ""); err != nil {
			t.Error(err)
		}
	})
	c.RunFor(500 * time.Millisecond)
	if n := len(slicesOf(t, c)[0].Endpoints); n != 1 {
		t.Fatalf("half a second after the edit: %d endpoints, want the edit's 1 (the sync comes a second later)", n)
	}
	c.RunFor(2 * time.Second)
	if n := len(slicesOf(t, c)[0].Endpoints); n != 3 {
		t.Fatalf("after the edit: %d endpoints, want the controller's 3 back", n)
	}
	gone := slicesOf(t, c)[0]
	c.At(c.K.Now().Duration(), func() {
		if _, _, err := c.Store.Delete(op, api.KindEndpointSlice, gone.Key(), store.DeleteOptions{}); err != nil {
			t.Error(err)
		}
	})
	c.RunFor(3 * time.Second)
	ss := slicesOf(t, c)
	if len(ss) != 1 || ss[0].Name == gone.Name || len(ss[0].Endpoints) != 3 {
		t.Fatalf("after the delete: %d slices (%v), want one new slice of 3 endpoints", len(ss), ss)
	}
}
