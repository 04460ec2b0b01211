package apiserver

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestUpdateResponseHint: an update's response carries the store's
// number for the object (Response.Hint), the number the next update may
// send (Request.Hint); sent back, wrong, or absent, the hint changes
// nothing an update does: each writes the same object, and a refused
// update answers no hint.
func TestUpdateResponseHint(t *testing.T) {
	f := newFixture(t)
	cm := func(name, v string) *api.ConfigMap {
		return &api.ConfigMap{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name}, Data: map[string]string{"v": v}}
	}
	for _, name := range []string{"a", "b"} {
		f.must(t, &Request{Verb: Create, Kind: api.KindConfigMap, Actor: user, Object: cm(name, "0")})
	}
	update := func(name, v string, hint uint32) *Response {
		return f.do(&Request{Verb: Update, Kind: api.KindConfigMap, Namespace: "default", Name: name, Actor: user, Object: cm(name, v), Hint: hint})
	}
	first := update("a", "1", 0)
	if first.Err != nil || first.Hint == 0 {
		t.Fatalf("update of a without a hint: hint %d, %v; want a number", first.Hint, first.Err)
	}
	other := update("b", "1", 0)
	if other.Hint == 0 || other.Hint == first.Hint {
		t.Fatalf("b's hint %d, a's %d: want two numbers", other.Hint, first.Hint)
	}
	for i, hint := range []uint32{first.Hint, other.Hint, 0, 99} {
		resp := update("a", string(rune('2'+i)), hint)
		if resp.Err != nil || resp.Hint != first.Hint || resp.Object.(*api.ConfigMap).Data["v"] != string(rune('2'+i)) {
			t.Errorf("update of a with hint %d: hint %d, %v, %v; want hint %d and v=%c", hint, resp.Hint, resp.Object, resp.Err, first.Hint, '2'+i)
		}
	}
	if b := f.must(t, &Request{Verb: Get, Kind: api.KindConfigMap, Namespace: "default", Name: "b"}); b.(*api.ConfigMap).Data["v"] != "1" {
		t.Errorf("b after a's updates with b's hint: %v, want v=1", b)
	}
	stale := cm("a", "x")
	stale.ResourceVersion = "1"
	if resp := f.do(&Request{Verb: Update, Kind: api.KindConfigMap, Namespace: "default", Name: "a", Actor: user, Object: stale, Hint: first.Hint}); resp.Err == nil || resp.Hint != 0 {
		t.Errorf("a conflicting update: hint %d, %v; want a conflict and no hint", resp.Hint, resp.Err)
	}
}
