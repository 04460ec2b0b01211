package store

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// scanKeyedJSON is how keyed elements were found before the resolver, the
// model FuzzResolverFind holds it to: the key parsed with encoding/json,
// the list scanned.
func scanKeyedJSON(list reflect.Value, k string) int {
	var m map[string]any
	if json.Unmarshal([]byte(k[2:]), &m) != nil || len(m) != 1 {
		return -1
	}
	var field, value string
	for f, v := range m {
		s, ok := v.(string)
		if !ok {
			return -1
		}
		field, value = f, s
	}
	for i := range list.Len() {
		e := list.Index(i)
		for e.Kind() == reflect.Pointer && !e.IsNil() {
			e = e.Elem()
		}
		if e.Kind() != reflect.Struct {
			continue
		}
		idx, ok := fieldByJSON(e.Type(), field)
		if !ok {
			continue
		}
		if f := e.FieldByIndex(idx); f.Kind() == reflect.String && f.String() == value {
			return i
		}
	}
	return -1
}

// fuzzKeys are the keys FuzzResolverFind picks from, beside its own:
// duplicates, the empty key, an escaped one, another field, a repeated
// field, a key that is no string.
var fuzzKeys = []string{`k:{"name":"a"}`, `k:{"name":"b"}`, `k:{"name":""}`, `k:{"name":"q\"x"}`, `k:{"name":"\u0061"}`,
	`k:{"image":"i1"}`, `k:{"name":"b","name":"a"}`, `k:{"containerPort":1}`, `k:{ "name":"c"}`}

// fuzzNames are the names and images of FuzzResolverFind's containers.
var fuzzNames = []string{"a", "b", "c", "", `q"x`, "i1", "a", "b"}

// modelOp applies one operation to the model, the containers as the
// code before the resolver changed them: an element appended when its
// key is missing (with serial as its workingDir), removed by copying the
// list, a name zeroed where it is found.
func modelOp(cs []api.Container, op byte, k, serial string) []api.Container {
	i := scanKeyedJSON(reflect.ValueOf(cs), k)
	switch {
	case op%4 == 1 && i < 0:
		field, value, ok := parseKeyed(k)
		if idx, has := fieldByJSON(reflect.TypeFor[api.Container](), field); ok && has {
			c := api.Container{WorkingDir: serial}
			reflect.ValueOf(&c).Elem().FieldByIndex(idx).SetString(value)
			cs = append(cs, c)
		}
	case op%4 == 2 && i >= 0:
		if cs = slices.Concat(cs[:i], cs[i+1:]); len(cs) == 0 {
			cs = nil
		}
	case op%4 == 3 && i >= 0:
		cs[i].Name = ""
	}
	return cs
}

// resolverOp applies one operation through r to spec: the same ones as
// modelOp, by setAt, removeAt of the element and removeAt of its name.
func resolverOp(r *resolver, spec reflect.Value, op byte, k, serial string) {
	p := Path{"f:containers", k}
	switch op % 4 {
	case 1:
		n := spec.FieldByName("Containers").Len()
		_ = r.setAt(spec, p, reflect.Value{}) // a bad key appends nothing, as in the model
		if cs := spec.FieldByName("Containers"); cs.Len() > n {
			cs.Index(n).FieldByName("WorkingDir").SetString(serial)
		}
	case 2:
		r.removeAt(spec, p)
	case 3:
		r.removeAt(spec, append(p, "f:name"))
	}
}

// FuzzResolverFind holds the resolver (an index per long list, removals
// marked and cut out at flush) to the scan it replaced, over a sequence
// of lookups, appends, removals and zeroed names on a list of up to 255
// containers with duplicate, empty and escaped names: every lookup finds
// the same element (by its workingDir, a serial number), a lookup by
// index the same one, and the list after flush is the model's.
func FuzzResolverFind(f *testing.F) {
	f.Add([]byte("abcabcabcabcabcabcabcabc"), []byte{0, 1, 2, 3, 8, 9, 10, 11}, `k:{"name":"zz"}`)
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7}, []byte{0, 2, 0, 3, 0, 1, 0}, `k:{"name":"a"}`)
	f.Add(make([]byte, 40), []byte{2, 0, 3, 1, 0, 2, 0, 17, 16, 19, 18, 16}, `k:{"imagePullPolicy":""}`)
	f.Fuzz(func(t *testing.T, names, ops []byte, key string) {
		if len(ops) > 64 || len(names) > 255 || len(key) < 2 || key[:2] != "k:" {
			return
		}
		if field, _, _ := parseKeyed(key); field == "workingDir" {
			return // the serial number the elements are told apart by
		}
		var model []api.Container
		for i, b := range names {
			model = append(model, api.Container{Name: fuzzNames[b%8], Image: fuzzNames[b/8%8], WorkingDir: fmt.Sprint(i)})
		}
		spec := reflect.ValueOf(&api.PodSpec{Containers: slices.Clone(model)}).Elem()
		var r resolver
		keys := append(slices.Clone(fuzzKeys), key)
		for j, op := range ops {
			k := keys[int(op/4)%len(keys)]
			if op%4 == 0 {
				checkFind(t, &r, spec, model, k)
				continue
			}
			serial := fmt.Sprintf("new-%d", j)
			model = modelOp(model, op, k, serial)
			resolverOp(&r, spec, op, k, serial)
			for i := range 3 {
				checkNth(t, &r, spec, model, i)
			}
		}
		r.flush()
		if got := spec.Interface().(api.PodSpec).Containers; !reflect.DeepEqual(got, model) {
			t.Fatalf("after flush\n got %v\nwant %v", got, model)
		}
	})
}

// checkFind compares r's lookup of k in spec's containers with the scan's
// in the model's: the same element, by serial number.
func checkFind(t *testing.T, r *resolver, spec reflect.Value, model []api.Container, k string) {
	t.Helper()
	want := ""
	if i := scanKeyedJSON(reflect.ValueOf(model), k); i >= 0 {
		want = model[i].WorkingDir
	}
	got := ""
	if v, ok := r.lookupAny(spec, Path{"f:containers", k, "f:workingDir"}); ok {
		got = v.String()
	}
	if got != want {
		t.Fatalf("find %s: element %q, want %q", k, got, want)
	}
}

// checkNth compares r's lookup of spec's container i (by index) with the
// model's.
func checkNth(t *testing.T, r *resolver, spec reflect.Value, model []api.Container, i int) {
	t.Helper()
	want := ""
	if i < len(model) {
		want = model[i].WorkingDir
	}
	got := ""
	if v, ok := r.lookupAny(spec, Path{"f:containers", fmt.Sprintf("i:%d", i), "f:workingDir"}); ok {
		got = v.String()
	}
	if got != want {
		t.Fatalf("element %d: %q, want %q", i, got, want)
	}
}

// TestParsePlainKeyed: the keys read without encoding/json are read as it
// reads them, and the others are left to it.
func TestParsePlainKeyed(t *testing.T) {
	tests := []struct {
		k            string
		field, value string
		ok           bool
	}{
		{`k:{"name":"nginx"}`, "name", "nginx", true},
		{`k:{"":""}`, "", "", true},
		{`k:{"name":"a":"b"}`, "", "", false}, // not JSON
		{`k:{"name":"a","name":"b"}`, "", "", false},
		{`k:{"name":"a\"b"}`, "", "", false},
		{`k:{"name":"<a>"}`, "", "", false},
		{`k:{ "name":"a"}`, "", "", false},
		{`k:{"containerPort":80}`, "", "", false},
		{`k:{"name":"é"}`, "", "", false},
	}
	for _, tc := range tests {
		field, value, ok := parsePlainKeyed(tc.k)
		if field != tc.field || value != tc.value || ok != tc.ok {
			t.Errorf("parsePlainKeyed(%s) = %q, %q, %v; want %q, %q, %v", tc.k, field, value, ok, tc.field, tc.value, tc.ok)
		}
	}
}

// FuzzParseKeyed: parseKeyed, with its reading of plain keys, agrees
// with encoding/json on any text.
func FuzzParseKeyed(f *testing.F) {
	for _, k := range fuzzKeys {
		f.Add(k)
	}
	f.Add(`k:{"name":"a":"b"}`)
	f.Fuzz(func(t *testing.T, k string) {
		if len(k) < 2 {
			return
		}
		field, value, ok := parseKeyed(k)
		var m map[string]any
		var wantField, wantValue string
		wantOK := false
		if json.Unmarshal([]byte(k[2:]), &m) == nil && len(m) == 1 {
			for f, v := range m {
				if wantValue, wantOK = v.(string); wantOK {
					wantField = f
				}
			}
		}
		if ok != wantOK || ok && (field != wantField || value != wantValue) {
			t.Fatalf("parseKeyed(%q) = %q, %q, %v; json reads %q, %q, %v", k, field, value, ok, wantField, wantValue, wantOK)
		}
	})
}
