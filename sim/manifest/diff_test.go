package manifest

import (
	"fmt"
	"reflect"
)

// firstDiff returns the path and values of the first difference between a
// and b found by a reflect walk, or "" if they are deeply equal. It makes a
// failed round trip readable: "[0].Spec.Replicas: 3 != <nil>".
func firstDiff(a, b any) string {
	return diffValues(reflect.ValueOf(a), reflect.ValueOf(b), "")
}

func diffValues(a, b reflect.Value, path string) string {
	if !a.IsValid() || !b.IsValid() {
		if a.IsValid() != b.IsValid() {
			return fmt.Sprintf("%s: valid %v != %v", path, a.IsValid(), b.IsValid())
		}
		return ""
	}
	if a.Type() != b.Type() {
		return fmt.Sprintf("%s: type %s != %s", path, a.Type(), b.Type())
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return fmt.Sprintf("%s: %s != %s", path, show(a), show(b))
			}
			return ""
		}
		return diffValues(a.Elem(), b.Elem(), path)
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if d := diffValues(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice, reflect.Array:
		if a.Kind() == reflect.Slice && a.IsNil() != b.IsNil() {
			return fmt.Sprintf("%s: nil %v != nil %v (%s vs %s)", path, a.IsNil(), b.IsNil(), show(a), show(b))
		}
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: len %d != %d (%s vs %s)", path, a.Len(), b.Len(), show(a), show(b))
		}
		for i := 0; i < a.Len(); i++ {
			if d := diffValues(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Map:
		if a.IsNil() != b.IsNil() {
			return fmt.Sprintf("%s: nil %v != nil %v", path, a.IsNil(), b.IsNil())
		}
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: len %d != %d", path, a.Len(), b.Len())
		}
		for _, k := range a.MapKeys() {
			bv := b.MapIndex(k)
			if !bv.IsValid() {
				return fmt.Sprintf("%s[%v]: missing on the right", path, k)
			}
			if d := diffValues(a.MapIndex(k), bv, fmt.Sprintf("%s[%v]", path, k)); d != "" {
				return d
			}
		}
		return ""
	}
	if a.CanInterface() && b.CanInterface() {
		if !reflect.DeepEqual(a.Interface(), b.Interface()) {
			return fmt.Sprintf("%s: %s != %s", path, show(a), show(b))
		}
		return ""
	}
	if fmt.Sprint(a) != fmt.Sprint(b) {
		return fmt.Sprintf("%s: %v != %v", path, a, b)
	}
	return ""
}

func show(v reflect.Value) string {
	if v.CanInterface() {
		return fmt.Sprintf("%#v", v.Interface())
	}
	return fmt.Sprint(v)
}
