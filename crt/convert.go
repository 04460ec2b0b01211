package crt

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/clustersim/clustersim/sim/api"
)

// Converter turns the user's objects (k8s.io/api types, or the Go types
// of custom resources registered in a runtime.Scheme) into the
// simulator's objects and back, through JSON.
//
// To the simulator the conversion is strict: a field the user set (any
// value but null, "", 0, false, {} or []) that the simulator's types do
// not carry is an error naming its path, never a silent drop. From the
// simulator it is lenient: the user's types are a superset.
type Converter struct {
	scheme *runtime.Scheme
	kinds  *api.Registry
	// cached holds, per object and user type, the last version converted
	// (a cache read's, an event's or a write reply's): a uid and a
	// resourceVersion name one stored version of an object.
	cached map[cacheKey]cacheEntry
	// misses counts FromCache's conversions, for tests.
	misses int
}

type cacheKey struct {
	kind api.Kind
	key  api.Key
	typ  reflect.Type
}

type cacheEntry struct {
	uid api.UID
	rv  string
	obj runtime.Object
}

// NewConverter returns a converter between scheme's types and the kinds
// kinds serves.
func NewConverter(scheme *runtime.Scheme, kinds *api.Registry) *Converter {
	return &Converter{scheme: scheme, kinds: kinds, cached: map[cacheKey]cacheEntry{}}
}

// GVK returns obj's group, version and kind: its TypeMeta's when set,
// else the scheme's.
func (c *Converter) GVK(obj runtime.Object) (schema.GroupVersionKind, error) {
	if gvk := obj.GetObjectKind().GroupVersionKind(); gvk.Kind != "" && gvk.Version != "" {
		return gvk, nil
	}
	gvks, _, err := c.scheme.ObjectKinds(obj)
	if err != nil {
		return schema.GroupVersionKind{}, err
	}
	return gvks[0], nil
}

// Kind returns the simulator's kind of obj.
func (c *Converter) Kind(obj runtime.Object) (api.Kind, error) {
	gvk, err := c.GVK(obj)
	if err != nil {
		return api.Kind{}, err
	}
	return api.Kind{Group: gvk.Group, Name: gvk.Kind}, nil
}

// ToSim converts obj to the simulator's object of its kind, strictly.
//
// The fast path decodes obj's JSON into the simulator's type refusing
// unknown keys: when every key is known, nothing is lost (the simulator's
// own decoders of quantities, times, volumes and opaque values keep what
// they read). An unknown key, which may hold an empty value the check
// must let through, takes the slow path: both encodings compared as trees.
func (c *Converter) ToSim(obj runtime.Object) (api.Object, error) {
	gvk, err := c.GVK(obj)
	if err != nil {
		return nil, err
	}
	src, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("crt: encode %s: %w", gvk.Kind, err)
	}
	return c.toSimJSON(gvk, src)
}

// toSimJSON converts src, the JSON of an object of kind gvk (its
// apiVersion and kind may be absent), as ToSim does.
func (c *Converter) toSimJSON(gvk schema.GroupVersionKind, src []byte) (api.Object, error) {
	av := gvk.GroupVersion().String()
	out, err := c.kinds.New(av, gvk.Kind)
	if err != nil {
		return nil, fmt.Errorf("crt: %s is not a kind the simulated API serves: %w", gvk, err)
	}
	if _, custom := out.(*api.Unstructured); custom {
		// A custom resource keeps every field.
		if err := json.Unmarshal(src, out); err != nil {
			return nil, fmt.Errorf("crt: convert %s: %w", gvk.Kind, err)
		}
		tm := out.GetTypeMeta()
		tm.APIVersion, tm.Kind = av, gvk.Kind
		return out, nil
	}
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.DisallowUnknownFields()
	if dec.Decode(out) == nil {
		tm := out.GetTypeMeta()
		tm.APIVersion, tm.Kind = av, gvk.Kind
		return out, nil
	}
	if out, err = c.kinds.New(av, gvk.Kind); err != nil {
		return nil, err
	}
	return c.toSimSlow(gvk, src, out)
}

// toSimSlow decodes src into out (a new object of gvk's built-in kind)
// and fails naming the paths the simulator's re-encoding lost.
func (c *Converter) toSimSlow(gvk schema.GroupVersionKind, src []byte, out api.Object) (api.Object, error) {
	var tree map[string]any
	if err := json.Unmarshal(src, &tree); err != nil {
		return nil, fmt.Errorf("crt: encode %s: %w", gvk.Kind, err)
	}
	tree["apiVersion"], tree["kind"] = gvk.GroupVersion().String(), gvk.Kind
	src, err := json.Marshal(tree)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(src, out); err != nil {
		return nil, fmt.Errorf("crt: convert %s: %w", gvk.Kind, err)
	}
	back, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	var kept map[string]any
	if err := json.Unmarshal(back, &kept); err != nil {
		return nil, err
	}
	if lost := dropped("", tree, kept); len(lost) > 0 {
		m := out.GetObjectMeta()
		return nil, fmt.Errorf("%w: %s %s/%s sets %s", ErrUnsupportedField, gvk.Kind, m.Namespace, m.Name, strings.Join(lost, ", "))
	}
	return out, nil
}

// FromSim converts the simulator's object o into obj (a pointer to the
// user's type), setting obj's apiVersion and kind.
func (c *Converter) FromSim(o api.Object, obj runtime.Object) error {
	b, err := json.Marshal(o)
	if err != nil {
		return fmt.Errorf("crt: encode %s: %w", api.KindOf(o), err)
	}
	if err := json.Unmarshal(b, obj); err != nil {
		return fmt.Errorf("crt: decode %s into %T: %w", api.KindOf(o), obj, err)
	}
	tm := o.GetTypeMeta()
	if tm.APIVersion != "" && tm.Kind != "" {
		obj.GetObjectKind().SetGroupVersionKind(schema.FromAPIVersionAndKind(tm.APIVersion, tm.Kind))
	} else if gvk, err := c.GVK(obj); err == nil {
		obj.GetObjectKind().SetGroupVersionKind(gvk)
	}
	return nil
}

// FromCache is FromSim for a stored version of an object (an informer
// cache's, which the simulator never changes, or a write's reply): the
// conversion of the last version seen of each object is kept and
// deep-copied into obj (replacing all of it, as controller-runtime's
// cache reader does), so that reads and events of an unchanged object
// cost a copy, not a JSON round trip, and a read of the version a write
// returned costs no conversion either.
func (c *Converter) FromCache(o api.Object, obj runtime.Object) error {
	m := o.GetObjectMeta()
	if m.ResourceVersion == "" {
		return c.FromSim(o, obj) // not a stored version
	}
	k := cacheKey{kind: api.KindOf(o), key: api.Key{Namespace: m.Namespace, Name: m.Name}, typ: reflect.TypeOf(obj)}
	if e, ok := c.cached[k]; ok && e.rv == m.ResourceVersion && e.uid == m.UID {
		reflect.ValueOf(obj).Elem().Set(reflect.ValueOf(e.obj.DeepCopyObject()).Elem())
		return nil
	}
	c.misses++
	// Convert into a new object, never into obj: decoding into the
	// caller's object would keep the fields the stored version omits
	// (an empty status's observedGeneration set by the caller), and the
	// cache would then serve them as that version to every later read.
	fresh := reflect.New(reflect.TypeOf(obj).Elem()).Interface().(runtime.Object)
	if err := c.FromSim(o, fresh); err != nil {
		return err
	}
	c.cached[k] = cacheEntry{uid: m.UID, rv: m.ResourceVersion, obj: fresh}
	reflect.ValueOf(obj).Elem().Set(reflect.ValueOf(fresh.DeepCopyObject()).Elem())
	return nil
}

// New returns a new object of the user's type for the simulator's kind
// of o (as the scheme knows it).
func (c *Converter) New(gvk schema.GroupVersionKind) (client.Object, error) {
	ro, err := c.scheme.New(gvk)
	if err != nil {
		return nil, err
	}
	co, ok := ro.(client.Object)
	if !ok {
		return nil, fmt.Errorf("crt: %T is not a client.Object", ro)
	}
	return co, nil
}

// dropped lists the paths under prefix where want (the user's object)
// holds a value that got (the simulator's re-encoding) lacks or holds
// differently; empty values (null, "", 0, false, {}, []) are not
// compared. Paths are sorted.
func dropped(prefix string, want, got any) []string {
	if empty(want) {
		return nil
	}
	switch w := want.(type) {
	case map[string]any:
		g, _ := got.(map[string]any)
		var out []string
		for _, k := range slices.Sorted(maps.Keys(w)) {
			out = append(out, dropped(join(prefix, k), w[k], g[k])...)
		}
		return out
	case []any:
		g, _ := got.([]any)
		var out []string
		for i, v := range w {
			var gv any
			if i < len(g) {
				gv = g[i]
			}
			out = append(out, dropped(prefix+"["+strconv.Itoa(i)+"]", v, gv)...)
		}
		return out
	}
	if !sameLeaf(want, got) {
		return []string{prefix}
	}
	return nil
}

func join(prefix, k string) string {
	if prefix == "" {
		return k
	}
	return prefix + "." + k
}

// empty reports JSON's zero values.
func empty(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case string:
		return v == ""
	case float64:
		return v == 0
	case bool:
		return !v
	case map[string]any:
		for _, e := range v {
			if !empty(e) {
				return false
			}
		}
		return true
	case []any:
		return len(v) == 0
	}
	return false
}

// sameLeaf compares two decoded JSON leaves by their encoding.
func sameLeaf(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}
