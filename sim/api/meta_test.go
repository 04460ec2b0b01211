package api

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"
)

func TestTimeJSON(t *testing.T) {
	cet := time.FixedZone("CET", 3600)
	tests := []struct {
		t    Time
		want string
	}{
		{Time{}, `null`},
		{NewTime(time.Date(2026, 1, 2, 3, 4, 5, 999999999, time.UTC)), `"2026-01-02T03:04:05Z"`},
		{Time{time.Date(2026, 1, 2, 4, 4, 5, 0, cet)}, `"2026-01-02T03:04:05Z"`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.t)
		if err != nil || string(b) != tt.want {
			t.Errorf("Marshal(%v) = %s, %v; want %s", tt.t, b, err, tt.want)
		}
	}
	var got Time
	if err := json.Unmarshal([]byte(`"2026-01-02T04:04:05+01:00"`), &got); err != nil {
		t.Fatal(err)
	}
	if want := NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)); got != want {
		t.Errorf("Unmarshal = %#v, want UTC %#v", got, want)
	}
	if err := json.Unmarshal([]byte(`null`), &got); err != nil || !got.IsZero() {
		t.Errorf("null: %v %v", got, err)
	}
	if err := json.Unmarshal([]byte(`"yesterday"`), &got); err == nil {
		t.Error("bad time accepted")
	}
	var m ObjectMeta
	b, _ := json.Marshal(m)
	if string(b) != `{"creationTimestamp":null}` {
		t.Errorf("empty ObjectMeta = %s; kubectl prints creationTimestamp: null", b)
	}
}

func TestTimeMethods(t *testing.T) {
	a, b := NewTime(fillTime), NewTime(fillTime.Add(time.Second))
	var nilT *Time
	tests := []struct {
		name string
		got  bool
		want bool
	}{
		{"a<b", a.Before(&b), true},
		{"b<a", b.Before(&a), false},
		{"nil<a", nilT.Before(&a), false},
		{"a==a", a.Equal(&a), true},
		{"a==b", a.Equal(&b), false},
		{"nil==nil", nilT.Equal(nil), true},
		{"a==nil", a.Equal(nil), false},
		{"nil zero", nilT.IsZero(), true},
		{"zero", (&Time{}).IsZero(), true},
		{"a zero", a.IsZero(), false},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s = %v", tt.name, tt.got)
		}
	}
	frac := NewTime(fillTime.Add(1500 * time.Millisecond))
	if c := frac.Rfc3339Copy(); !c.Time.Equal(fillTime.Add(time.Second)) {
		t.Errorf("Rfc3339Copy = %v", c)
	}
}

func TestMicroTimeJSON(t *testing.T) {
	mt := NewMicroTime(time.Date(2026, 1, 2, 3, 4, 5, 123456789, time.UTC))
	b, err := json.Marshal(mt)
	if err != nil || string(b) != `"2026-01-02T03:04:05.123456Z"` {
		t.Errorf("Marshal = %s %v", b, err)
	}
	tests := []struct{ in, want string }{
		{`"2026-01-02T03:04:05.123456Z"`, `"2026-01-02T03:04:05.123456Z"`},
		{`"2026-01-02T03:04:05Z"`, `"2026-01-02T03:04:05.000000Z"`},
		{`"2026-01-02T03:04:05.123456789Z"`, `"2026-01-02T03:04:05.123456Z"`},
		{`null`, `null`},
	}
	for _, tt := range tests {
		var got MicroTime
		if err := json.Unmarshal([]byte(tt.in), &got); err != nil {
			t.Fatalf("%s: %v", tt.in, err)
		}
		if b, _ := json.Marshal(got); string(b) != tt.want {
			t.Errorf("%s round-trips to %s, want %s", tt.in, b, tt.want)
		}
	}
	var nilM *MicroTime
	if !nilM.IsZero() || !nilM.Equal(nil) || nilM.Before(&mt) || !mt.Equal(&mt) {
		t.Error("MicroTime nil handling")
	}
}

func TestDurationJSON(t *testing.T) {
	b, err := json.Marshal(Duration{90 * time.Second})
	if err != nil || string(b) != `"1m30s"` {
		t.Errorf("Marshal = %s %v", b, err)
	}
	var d Duration
	if err := json.Unmarshal([]byte(`"30s"`), &d); err != nil || d.Duration != 30*time.Second {
		t.Errorf("Unmarshal = %v %v", d, err)
	}
	if err := json.Unmarshal([]byte(`"soon"`), &d); err == nil {
		t.Error("bad duration accepted")
	}
}

func TestKey(t *testing.T) {
	if (Key{Namespace: "default", Name: "web"}).String() != "default/web" || (Key{Name: "node-1"}).String() != "node-1" {
		t.Error("Key.String")
	}
	p := &Pod{ObjectMeta: ObjectMeta{Namespace: "ns", Name: "p"}}
	if p.Key() != (Key{"ns", "p"}) {
		t.Errorf("Key() = %v", p.Key())
	}
}

func TestControllerRefs(t *testing.T) {
	rs := &ReplicaSet{ObjectMeta: ObjectMeta{Name: "web-1", Namespace: "default", UID: "rs-uid"}}
	ref := NewControllerRef(rs)
	if ref.APIVersion != "apps/v1" || ref.Kind != "ReplicaSet" || ref.Name != "web-1" || ref.UID != "rs-uid" ||
		ref.Controller == nil || !*ref.Controller || ref.BlockOwnerDeletion == nil || !*ref.BlockOwnerDeletion {
		t.Fatalf("NewControllerRef = %+v", ref)
	}
	hpa := &HorizontalPodAutoscalerV1{ObjectMeta: ObjectMeta{Name: "h"}}
	if r := NewControllerRef(hpa); r.APIVersion != "autoscaling/v1" || r.Kind != "HorizontalPodAutoscaler" {
		t.Errorf("v1 HPA ref = %+v", r)
	}
	typed := &Deployment{TypeMeta: TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"}, ObjectMeta: ObjectMeta{Name: "d"}}
	if r := NewControllerRef(typed); r.APIVersion != "apps/v1" || r.Kind != "Deployment" {
		t.Errorf("typed ref = %+v", r)
	}

	no := false
	pod := &Pod{ObjectMeta: ObjectMeta{OwnerReferences: []OwnerReference{
		{Kind: "Thing", Name: "x", UID: "other", Controller: &no},
		ref,
	}}}
	got := GetControllerOf(&pod.ObjectMeta)
	if got == nil || got.UID != "rs-uid" {
		t.Fatalf("GetControllerOf = %+v", got)
	}
	*got.Controller = false // a copy: the pod is unchanged
	if !*pod.OwnerReferences[1].Controller {
		t.Error("GetControllerOf returned shared memory")
	}
	if !IsControlledBy(pod, rs) || IsControlledBy(pod, &ReplicaSet{ObjectMeta: ObjectMeta{UID: "other"}}) {
		t.Error("IsControlledBy")
	}
	if GetControllerOf(&ObjectMeta{}) != nil || IsControlledBy(&Pod{}, rs) {
		t.Error("no controller")
	}
}

func TestRawValue(t *testing.T) {
	var r RawValue
	if err := json.Unmarshal([]byte(`{ "b": 1,  "a": [ true ] }`), &r); err != nil {
		t.Fatal(err)
	}
	if r.String() != `{"b":1,"a":[true]}` {
		t.Errorf("compacted = %s (key order must be kept)", r)
	}
	var m map[string]any
	if err := r.Decode(&m); err != nil || m["b"] != 1.0 {
		t.Errorf("Decode = %v %v", m, err)
	}
	if err := r.UnmarshalJSON([]byte(`{bad`)); !errors.Is(err, ErrRawValue) {
		t.Errorf("bad JSON error = %v", err)
	}
	if b, _ := RawValue(nil).MarshalJSON(); string(b) != "null" {
		t.Errorf("empty = %s", b)
	}
	nr, err := NewRawValue(map[string]int{"x": 1})
	if err != nil || nr.String() != `{"x":1}` {
		t.Errorf("NewRawValue = %s %v", nr, err)
	}
	c := nr.DeepCopy()
	c[2] = 'y'
	if nr.String() != `{"x":1}` {
		t.Error("DeepCopy shares memory")
	}
	if RawValue(nil).DeepCopy() != nil {
		t.Error("nil DeepCopy")
	}
}

func TestVolumeJSON(t *testing.T) {
	in := `{"name":"cfg","configMap":{"name":"app","defaultMode":420},"emptyDir":{}}`
	var v Volume
	if err := json.Unmarshal([]byte(in), &v); err != nil {
		t.Fatal(err)
	}
	if v.Name != "cfg" || len(v.Source) != 2 || v.Source["configMap"].String() != `{"name":"app","defaultMode":420}` {
		t.Fatalf("decoded %+v", v)
	}
	b, err := json.Marshal(v)
	if err != nil || string(b) != `{"name":"cfg","configMap":{"name":"app","defaultMode":420},"emptyDir":{}}` {
		t.Errorf("encoded %s %v", b, err)
	}
	if err := json.Unmarshal([]byte(`{"name":3}`), &v); err == nil {
		t.Error("numeric name accepted")
	}
	if err := json.Unmarshal([]byte(`[]`), &v); err == nil {
		t.Error("array accepted")
	}
}

func TestToleratesTaint(t *testing.T) {
	taint := &Taint{Key: TaintNodeUnreachable, Effect: TaintEffectNoExecute}
	tests := []struct {
		tol  Toleration
		want bool
	}{
		{Toleration{Key: TaintNodeUnreachable, Operator: TolerationOpExists, Effect: TaintEffectNoExecute}, true},
		{Toleration{Operator: TolerationOpExists}, true},
		{Toleration{Key: TaintNodeUnreachable, Operator: TolerationOpExists, Effect: TaintEffectNoSchedule}, false},
		{Toleration{Key: TaintNodeNotReady, Operator: TolerationOpExists}, false},
		{Toleration{Key: TaintNodeUnreachable}, true}, // Equal with empty value
		{Toleration{Key: TaintNodeUnreachable, Value: "x"}, false},
		{Toleration{Key: TaintNodeUnreachable, Operator: "Lt"}, false},
	}
	for _, tt := range tests {
		if got := tt.tol.ToleratesTaint(taint); got != tt.want {
			t.Errorf("%+v tolerates = %v, want %v", tt.tol, got, tt.want)
		}
	}
}

// TestOwnerReferenceEqual checks Equal and SameControllerRef against
// reflect.DeepEqual, which they replace on the hot paths: every pair of
// references built from a few values of each field, pointers to equal
// values at different addresses included. A field added to
// OwnerReference fails the count until Equal compares it.
func TestOwnerReferenceEqual(t *testing.T) {
	if n := reflect.TypeFor[OwnerReference]().NumField(); n != 6 {
		t.Fatalf("OwnerReference has %d fields; Equal compares 6: compare the new one and update this count", n)
	}
	bools := func() []*bool { f, t1, t2 := false, true, true; return []*bool{nil, &f, &t1, &t2} }
	var refs []OwnerReference
	for _, api := range []string{"apps/v1", "v1"} {
		for _, kind := range []string{"ReplicaSet", "Job"} {
			for _, name := range []string{"a", "b"} {
				for _, uid := range []UID{"u1", "u2"} {
					for _, c := range bools() {
						for _, b := range bools() {
							refs = append(refs, OwnerReference{APIVersion: api, Kind: kind, Name: name, UID: uid, Controller: c, BlockOwnerDeletion: b})
						}
					}
				}
			}
		}
	}
	for i := range refs {
		for j := range refs {
			a, b := refs[i], refs[j]
			if got, want := a.Equal(b), reflect.DeepEqual(a, b); got != want {
				t.Fatalf("%+v.Equal(%+v) = %v, reflect.DeepEqual says %v", a, b, got, want)
			}
			if got, want := SameControllerRef(&a, &b), reflect.DeepEqual(&a, &b); got != want {
				t.Fatalf("SameControllerRef(%+v, %+v) = %v, reflect.DeepEqual says %v", a, b, got, want)
			}
		}
		if SameControllerRef(&refs[i], nil) || SameControllerRef(nil, &refs[i]) {
			t.Fatalf("SameControllerRef of %+v and nil is true", refs[i])
		}
	}
	if !SameControllerRef(nil, nil) {
		t.Fatal("SameControllerRef(nil, nil) is false")
	}
}
