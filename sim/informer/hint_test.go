package informer

import (
	"fmt"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// hintCase drives a cache and a plain map (the model) through the same
// puts and deletes, each with a watch event's hint (store.Event.Hint)
// that may be right, stale or wrong, and checks after every step that
// the cache answers as the model does: what put and del return, every
// key's object, the size, the list and the index by label.
type hintCase struct {
	c     *cache
	model map[api.Key]api.Object
	keys  []api.Key
}

func newHintCase(keys int) *hintCase {
	h := &hintCase{
		c:     newCache([]indexDef{{name: "app", fn: byAppLabel}}),
		model: map[api.Key]api.Object{},
	}
	for i := range keys {
		h.keys = append(h.keys, api.Key{Namespace: fmt.Sprintf("ns-%d", i%2), Name: fmt.Sprintf("cm-%d", i)})
	}
	return h
}

func byAppLabel(o api.Object, out []string) []string {
	if v, ok := o.GetObjectMeta().Labels["app"]; ok {
		return append(out, v)
	}
	return out
}

func (h *hintCase) obj(k api.Key, app string) api.Object {
	return &api.ConfigMap{ObjectMeta: api.ObjectMeta{Namespace: k.Namespace, Name: k.Name, Labels: map[string]string{"app": app}}}
}

func (h *hintCase) put(t testing.TB, k api.Key, o api.Object, num uint32, prev api.Object) {
	t.Helper()
	old, ok := h.c.put(k, o, num, prev)
	want, wantOK := h.model[k]
	if ok != wantOK || old != want {
		t.Fatalf("put %v (hint %d, %p): replaced %p %v, want %p %v", k, num, prev, old, ok, want, wantOK)
	}
	h.model[k] = o
	h.check(t)
}

func (h *hintCase) del(t testing.TB, k api.Key, num uint32) {
	t.Helper()
	old, ok := h.c.del(k, num)
	want, wantOK := h.model[k]
	if ok != wantOK || old != want {
		t.Fatalf("del %v (hint %d): removed %p %v, want %p %v", k, num, old, ok, want, wantOK)
	}
	delete(h.model, k)
	h.check(t)
}

func (h *hintCase) check(t testing.TB) {
	t.Helper()
	if h.c.size("") != len(h.model) {
		t.Fatalf("cache holds %d objects, want %d", h.c.size(""), len(h.model))
	}
	n := 0
	h.c.each("", func(o api.Object) {
		n++
		if h.model[keyOf(o)] != o {
			t.Fatalf("list has %v at %p, want %p", keyOf(o), o, h.model[keyOf(o)])
		}
	})
	if n != len(h.model) {
		t.Fatalf("list has %d objects, want %d", n, len(h.model))
	}
	for _, k := range h.keys {
		got, ok := h.c.get(k)
		want, wantOK := h.model[k]
		if ok != wantOK || got != want {
			t.Fatalf("get %v: %p %v, want %p %v", k, got, ok, want, wantOK)
		}
	}
	for _, app := range []string{"a", "b"} {
		got, _ := h.c.byIndex(nil, "app", app)
		want := 0
		for _, o := range h.model {
			if o.GetObjectMeta().Labels["app"] == app {
				want++
			}
		}
		if len(got) != want {
			t.Fatalf("index app=%s lists %d objects, want %d", app, len(got), want)
		}
		for _, o := range got {
			if h.model[keyOf(o)] != o {
				t.Fatalf("index app=%s lists %v at %p, want %p", app, keyOf(o), o, h.model[keyOf(o)])
			}
		}
	}
}

// TestCacheHint: a right hint finds the slot; a wrong one (another
// object's number, a stale previous object, a number the cache never
// filed, a reused number, a slot deleted under no number) is never
// taken: the cache is the same as with no hints at all.
func TestCacheHint(t *testing.T) {
	tests := []struct {
		name string
		run  func(t *testing.T, h *hintCase)
	}{
		{"right hint: the update finds its slot", func(t *testing.T, h *hintCase) {
			a := h.keys[0]
			o1 := h.obj(a, "a")
			h.put(t, a, o1, 1, nil)
			h.put(t, a, h.obj(a, "b"), 1, o1)
		}},
		{"another object's number", func(t *testing.T, h *hintCase) {
			a, b := h.keys[0], h.keys[1]
			a1, b1 := h.obj(a, "a"), h.obj(b, "a")
			h.put(t, a, a1, 1, nil)
			h.put(t, b, b1, 2, nil)
			h.put(t, a, h.obj(a, "b"), 2, a1) // number 2 is b's
			h.put(t, b, h.obj(b, "b"), 2, b1) // refiled under 2 by a's update
		}},
		{"a stale previous object", func(t *testing.T, h *hintCase) {
			a := h.keys[0]
			a1, a2 := h.obj(a, "a"), h.obj(a, "b")
			h.put(t, a, a1, 1, nil)
			h.put(t, a, a2, 0, nil) // a relist's put: no hint
			h.put(t, a, h.obj(a, "a"), 1, a1)
		}},
		{"a number beyond any filed", func(t *testing.T, h *hintCase) {
			a := h.keys[0]
			a1 := h.obj(a, "a")
			h.put(t, a, a1, 1, nil)
			h.put(t, a, h.obj(a, "b"), 1000, a1)
		}},
		{"a number reused after a delete", func(t *testing.T, h *hintCase) {
			a, b := h.keys[0], h.keys[1]
			a1, b1 := h.obj(a, "a"), h.obj(b, "a")
			h.put(t, a, a1, 1, nil)
			h.del(t, a, 1)
			h.put(t, b, b1, 1, nil)
			h.put(t, b, h.obj(b, "b"), 1, b1)
			h.put(t, a, h.obj(a, "a"), 1, a1) // a's last event, replayed late
		}},
		{"a slot deleted under no number", func(t *testing.T, h *hintCase) {
			a, b := h.keys[0], h.keys[2] // one namespace
			a1 := h.obj(a, "a")
			h.put(t, a, a1, 1, nil)
			h.del(t, a, 0) // a relist found it gone
			h.put(t, a, h.obj(a, "b"), 1, a1)
			h.put(t, b, h.obj(b, "b"), 1, a1)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, newHintCase(4)) })
	}
}

// FuzzCacheHint checks, beyond "does not panic", that any sequence of
// puts and deletes with any hints (each op byte picks a key, a number, a
// previous object among the key's current one, another key's, a stale
// one and none, and put or delete) leaves the cache answering exactly as
// a plain map: put and del return the model's replaced object, and every
// get, the list, the size and the index agree after every step.
func FuzzCacheHint(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3})
	f.Add([]byte{0x10, 0x51, 0x92, 0x13, 0xd4, 0x55})
	f.Add([]byte{0xff, 0x00, 0x7f, 0x80, 0x3c, 0xc3, 0x5a, 0xa5})
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 512 {
			return
		}
		h := newHintCase(4)
		var stale []api.Object
		for i, op := range ops {
			k := h.keys[op&3]
			num := uint32(op>>2) & 3
			var prev api.Object
			switch op >> 4 & 3 {
			case 1:
				prev = h.model[k]
			case 2:
				prev = h.model[h.keys[(op+1)&3]]
			case 3:
				if len(stale) > 0 {
					prev = stale[int(op)%len(stale)]
				}
			}
			if old := h.model[k]; old != nil {
				stale = append(stale, old)
			}
			if op>>6 == 3 {
				h.del(t, k, num)
				continue
			}
			h.put(t, k, h.obj(k, string(rune('a'+i%2))), num, prev)
		}
	})
}
