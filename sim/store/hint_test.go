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

// TestUpdateHint: an update finds its object by Op.Hint only when the
// record at that number holds the update's key: a right hint, none, one
// out of range, another object's number, a number freed and given to
// another object, and a number not given yet all write the same object
// and the same result, and GetHinted answers each with the object's own
// number. Leaving out the key check makes the wrong hints write (and
// fail on) the wrong object.
func TestUpdateHint(t *testing.T) {
	key := func(name string) api.Key { return api.Key{Namespace: "default", Name: name} }
	cm := func(name, v string) *api.ConfigMap {
		return &api.ConfigMap{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name}, Data: map[string]string{"v": v}}
	}
	for _, tt := range []struct {
		name string
		// hint is given the store's numbers of "a" (1 when created
		// first), "b" and "gone" (freed, then given to "c").
		hint func(a, b, gone uint32) uint32
	}{
		{"right", func(a, _, _ uint32) uint32 { return a }},
		{"none", func(_, _, _ uint32) uint32 { return 0 }},
		{"another object's", func(_, b, _ uint32) uint32 { return b }},
		{"freed and given again", func(_, _, gone uint32) uint32 { return gone }},
		{"not given yet", func(_, _, _ uint32) uint32 { return 7 }},
		{"out of range", func(_, _, _ uint32) uint32 { return 1 << 30 }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := New(kernel.New(1))
			num := map[string]uint32{}
			for _, name := range []string{"a", "b", "gone"} {
				if _, err := s.Create(Op{Actor: "test"}, cm(name, "1")); err != nil {
					t.Fatal(err)
				}
				_, n, err := s.GetHinted(api.KindConfigMap, key(name), 0)
				if err != nil {
					t.Fatal(err)
				}
				num[name] = n
			}
			if _, _, err := s.Delete(Op{Actor: "test"}, api.KindConfigMap, key("gone"), DeleteOptions{}); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Create(Op{Actor: "test"}, cm("c", "1")); err != nil {
				t.Fatal(err)
			}
			hint := tt.hint(num["a"], num["b"], num["gone"])
			if o, n, err := s.GetHinted(api.KindConfigMap, key("a"), hint); err != nil || o.GetObjectMeta().Name != "a" || n != num["a"] {
				t.Fatalf("GetHinted(a, %d) = %v #%d, %v; want a #%d", hint, o, n, err, num["a"])
			}
			// A conditional update: its resourceVersion is a's, so the
			// wrong object would refuse it.
			cur, _ := s.Get(api.KindConfigMap, key("a"))
			up := cm("a", "2")
			up.ResourceVersion = cur.GetObjectMeta().ResourceVersion
			if _, err := s.Update(Op{Actor: "test", Hint: hint}, up, ""); err != nil {
				t.Fatalf("update of a with hint %d: %v", hint, err)
			}
			for name, want := range map[string]string{"a": "2", "b": "1", "c": "1"} {
				o, err := s.Get(api.KindConfigMap, key(name))
				if err != nil {
					t.Fatal(err)
				}
				if got := o.(*api.ConfigMap).Data["v"]; got != want {
					t.Errorf("after the update of a with hint %d: %s has v=%s, want %s", hint, name, got, want)
				}
			}
		})
	}
}
