package store

import (
	"fmt"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
)

// TestEventHint: every event carries its object's number in the table,
// the same across the object's updates, distinct among the objects
// stored at once, given again (last freed first) after a delete; a
// Modified event carries the object as stored before it, the others
// none; a watch replaying history and one starting with a list carry
// the same numbers.
func TestEventHint(t *testing.T) {
	s := New(kernel.New(1))
	// A write of another kind first, so that the watch below can replay
	// the ConfigMaps' history from the resourceVersion before theirs.
	if _, err := s.Create(Op{Actor: "test"}, &api.Secret{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "first"}}); err != nil {
		t.Fatal(err)
	}
	var got []string
	stored := map[string]api.Object{} // by name: the object as last stored
	record := func(e Event) {
		num, prev := e.Hint()
		name := e.Object.GetObjectMeta().Name
		p := "-"
		if prev != nil {
			p = "prev"
			if prev != stored[name] {
				p = "WRONG PREV"
			}
		}
		got = append(got, fmt.Sprintf("%s %s #%d %s", e.Type, name, num, p))
		stored[name] = e.Object
	}
	if _, err := s.Watch(api.KindConfigMap, 0, ListOptions{}, SinkFunc(record)); err != nil {
		t.Fatal(err)
	}
	cm := func(name, v string) *api.ConfigMap {
		return &api.ConfigMap{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name}, Data: map[string]string{"v": v}}
	}
	create := func(name string) {
		if _, err := s.Create(Op{Actor: "test"}, cm(name, "1")); err != nil {
			t.Fatal(err)
		}
	}
	update := func(name, v string) {
		if _, err := s.Update(Op{Actor: "test"}, cm(name, v), ""); err != nil {
			t.Fatal(err)
		}
	}
	del := func(name string) {
		if _, _, err := s.Delete(Op{Actor: "test"}, api.KindConfigMap, api.Key{Namespace: "default", Name: name}, DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	create("a")
	create("b")
	update("a", "2")
	create("c")
	del("a")
	del("b")
	create("d") // b's number, the last freed
	create("e") // a's
	update("d", "2")
	want := []string{
		"ADDED a #1 -",
		"ADDED b #2 -",
		"MODIFIED a #1 prev",
		"ADDED c #3 -",
		"DELETED a #1 -",
		"DELETED b #2 -",
		"ADDED d #2 -",
		"ADDED e #1 -",
		"MODIFIED d #2 prev",
	}
	check := func(what string, want []string) {
		t.Helper()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s:\n got %q\nwant %q", what, got, want)
		}
	}
	check("live events", want)

	got, stored = nil, map[string]api.Object{}
	if _, err := s.Watch(api.KindConfigMap, 1, ListOptions{}, SinkFunc(record)); err != nil {
		t.Fatal(err)
	}
	check("replayed history", want)

	got = nil
	if _, err := s.Watch(api.KindConfigMap, 0, ListOptions{}, SinkFunc(record)); err != nil {
		t.Fatal(err)
	}
	check("a watch from a list", []string{"ADDED c #3 -", "ADDED d #2 -", "ADDED e #1 -"})
}
