package api

import (
	"maps"
	"reflect"
	"slices"
	"unsafe"
)

var (
	semQuantityType  = reflect.TypeFor[Quantity]()
	semTimeType      = reflect.TypeFor[Time]()
	semMicroTimeType = reflect.TypeFor[MicroTime]()
)

// SemanticEqual is apimachinery's equality.Semantic.DeepEqual for API
// objects: like reflect.DeepEqual, except that quantities compare by value,
// times by instant, and nil and empty slices and maps are equal. The
// Deployment controller compares templates and statuses with it, the API
// server a Job's immutable fields.
func SemanticEqual(a, b any) bool {
	return equalValue(reflect.ValueOf(a), reflect.ValueOf(b))
}

func equalValue(a, b reflect.Value) bool {
	if !a.IsValid() || !b.IsValid() {
		return a.IsValid() == b.IsValid()
	}
	if a.Type() != b.Type() {
		return false
	}
	if a.CanInterface() && b.CanInterface() {
		switch a.Type() {
		case semQuantityType:
			return a.Interface().(Quantity).Equal(b.Interface().(Quantity))
		case semTimeType:
			return a.Interface().(Time).Time.Equal(b.Interface().(Time).Time)
		case semMicroTimeType:
			return a.Interface().(MicroTime).Time.Equal(b.Interface().(MicroTime).Time)
		}
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return equalValue(a.Elem(), b.Elem())
	case reflect.Struct:
		for i := range a.NumField() {
			if !equalValue(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !equalValue(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		// The result does not depend on the iteration order.
		it := a.MapRange()
		for it.Next() {
			bv := b.MapIndex(it.Key())
			if !bv.IsValid() || !equalValue(it.Value(), bv) {
				return false
			}
		}
		return true
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.Float32, reflect.Float64:
		return a.Float() == b.Float()
	case reflect.Complex64, reflect.Complex128:
		return a.Complex() == b.Complex()
	case reflect.String:
		return a.String() == b.String()
	}
	// Funcs and channels do not occur in API objects; equal only if nil.
	return a.IsNil() && b.IsNil()
}

// SameElements reports whether a and b are the same elements of the
// same array (both empty included): equal without reading them. An
// object the API server stores after a status write, or a shallow copy
// a client sends, shares its predecessor's lists (owner references,
// finalizers, tolerations, ports), and at thousands of nodes reading
// an old object's list is a cache miss; a caller checks this first and
// compares the elements only when it is false, which says nothing.
func SameElements[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// MapsDeepEqual is reflect.DeepEqual of two maps of comparable values
// (labels, annotations, selectors, resource lists: a Quantity's fields
// are comparable, so DeepEqual of two is ==) without reflection: both nil
// or both non-nil, and the same entries. The ReplicaSet controller
// compares a pod's labels on every update as upstream's does
// (reflect.DeepEqual), which was a reflective walk of both maps per pod
// status write.
func MapsDeepEqual[M ~map[K]V, K, V comparable](a, b M) bool {
	if SameMap(a, b) {
		return true
	}
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for k, va := range a {
		if vb, ok := b[k]; !ok || va != vb {
			return false
		}
	}
	return true
}

// EqualEntries is maps.Equal (the same entries; nil and empty alike)
// that answers without reading them when a and b are the very same map,
// as SameElements does for lists: a pod's status write shares the stored
// pod's labels, and reading an old pod's map is a cache miss at
// thousands of nodes.
func EqualEntries[M ~map[K]V, K, V comparable](a, b M) bool {
	return SameMap(a, b) || maps.Equal(a, b)
}

// SameMap reports whether a and b are the very same map (both nil
// included): equal without reading them, as SameElements is for lists.
// A map value is one pointer, compared, never read through.
func SameMap[M ~map[K]V, K comparable, V any](a, b M) bool {
	return *(*unsafe.Pointer)(unsafe.Pointer(&a)) == *(*unsafe.Pointer)(unsafe.Pointer(&b))
}

// SlicesDeepEqual is reflect.DeepEqual of two slices of comparable
// elements (addresses, raw JSON values) without reflection: both nil or
// both non-nil, and the same elements.
func SlicesDeepEqual[S ~[]E, E comparable](a, b S) bool {
	return (a == nil) == (b == nil) && slices.Equal(a, b)
}
