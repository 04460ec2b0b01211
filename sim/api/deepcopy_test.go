package api

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

var (
	timeType      = reflect.TypeFor[Time]()
	microTimeType = reflect.TypeFor[MicroTime]()
	quantityType  = reflect.TypeFor[Quantity]()
	intOrStrType  = reflect.TypeFor[IntOrString]()
	rawType       = reflect.TypeFor[RawValue]()
)

var fillTime = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// fill sets every leaf reachable from v to a non-zero value: strings,
// numbers and bools directly, one element in every slice and map, a new
// value behind every pointer. Types with unexported fields get a valid
// value of their own that survives JSON.
// schemaType nests itself; fill stops at schemaDepth 1.
var (
	schemaType  = reflect.TypeFor[JSONSchemaProps]()
	schemaDepth int
)

func fill(v reflect.Value) {
	switch v.Type() {
	case timeType:
		v.Set(reflect.ValueOf(NewTime(fillTime)))
		return
	case microTimeType:
		v.Set(reflect.ValueOf(NewMicroTime(fillTime.Add(123456 * time.Microsecond))))
		return
	case quantityType:
		v.Set(reflect.ValueOf(MustParseQuantity("1500m")))
		return
	case intOrStrType:
		v.Set(reflect.ValueOf(FromString("25%")))
		return
	case rawType:
		v.Set(reflect.ValueOf(RawValue(`{"k":"v"}`)))
		return
	}
	if v.Type() == schemaType {
		// A schema nests schemas: fill one level, or fill never ends.
		if schemaDepth > 0 {
			return
		}
		schemaDepth++
		defer func() { schemaDepth-- }()
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i))
			}
		}
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(p.Elem())
		v.Set(p)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fill(s.Index(0))
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k := reflect.New(v.Type().Key()).Elem()
		fill(k)
		e := reflect.New(v.Type().Elem()).Elem()
		fill(e)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.String:
		v.SetString("s")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(7)
	case reflect.Uint8:
		v.SetUint(7)
	case reflect.Float64:
		v.SetFloat(7)
	default:
		panic("fill: unhandled kind " + v.Kind().String() + " of " + v.Type().String())
	}
}

// mutate changes every leaf reachable from v in place: through pointers,
// inside slices, inside map values. If a deep copy shares any memory with
// its original, mutating the copy shows up in the original.
func mutate(v reflect.Value) {
	switch v.Type() {
	case timeType:
		v.Set(reflect.ValueOf(NewTime(fillTime.Add(time.Hour))))
		return
	case microTimeType:
		v.Set(reflect.ValueOf(NewMicroTime(fillTime.Add(time.Hour))))
		return
	case quantityType:
		v.Set(reflect.ValueOf(MustParseQuantity("3")))
		return
	case intOrStrType:
		v.Set(reflect.ValueOf(FromInt32(3)))
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				mutate(v.Field(i))
			}
		}
	case reflect.Pointer:
		if !v.IsNil() {
			mutate(v.Elem())
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			mutate(v.Index(i))
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			mutate(e)
			v.SetMapIndex(k, e)
		}
	case reflect.String:
		v.SetString(v.String() + "x")
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(v.Int() + 1)
	case reflect.Uint8:
		v.SetUint(v.Uint() + 1)
	case reflect.Float64:
		v.SetFloat(v.Float() + 1)
	default:
		panic("mutate: unhandled kind " + v.Kind().String())
	}
}

// servedTypes returns a new zero object of every served apiVersion/kind.
func servedTypes(t *testing.T) map[string]Object {
	t.Helper()
	out := map[string]Object{}
	for _, k := range Kinds() {
		for _, v := range APIVersions(k) {
			o, err := New(v, k.Name)
			if err != nil {
				t.Fatalf("New(%q, %q): %v", v, k, err)
			}
			out[v+"/"+k.Name] = o
		}
	}
	if len(out) != 33 {
		t.Fatalf("served types = %d, want 33", len(out))
	}
	return out
}

func filled(o Object) Object {
	fresh := reflect.New(reflect.TypeOf(o).Elem())
	fill(fresh.Elem())
	return fresh.Interface().(Object)
}

func TestDeepCopyIndependent(t *testing.T) {
	for name, zero := range servedTypes(t) {
		t.Run(name, func(t *testing.T) {
			orig := filled(zero)
			cp := orig.DeepCopyObject()
			if reflect.TypeOf(cp) != reflect.TypeOf(orig) {
				t.Fatalf("DeepCopyObject type = %T, want %T", cp, orig)
			}
			if !reflect.DeepEqual(orig, cp) {
				t.Fatalf("copy differs from original")
			}
			mutate(reflect.ValueOf(cp).Elem())
			if reflect.DeepEqual(orig, cp) {
				t.Fatalf("mutate changed nothing; the test is not exercising the copy")
			}
			if want := filled(zero); !reflect.DeepEqual(orig, want) {
				t.Fatalf("mutating the copy changed the original: a field is shared or not copied")
			}
		})
	}
}

func TestDeepCopyNil(t *testing.T) {
	var p *Pod
	if p.DeepCopy() != nil {
		t.Fatal("nil DeepCopy is not nil")
	}
	if p.DeepCopyObject() != nil {
		t.Fatal("nil DeepCopyObject is not a nil interface")
	}
	var rl ResourceList
	if rl.DeepCopy() != nil {
		t.Fatal("nil ResourceList DeepCopy is not nil")
	}
}

func TestJSONRoundTripFilled(t *testing.T) {
	for name, zero := range servedTypes(t) {
		t.Run(name, func(t *testing.T) {
			orig := filled(zero)
			b, err := json.Marshal(orig)
			if err != nil {
				t.Fatal(err)
			}
			back := reflect.New(reflect.TypeOf(orig).Elem()).Interface()
			dec := json.NewDecoder(strings.NewReader(string(b)))
			dec.DisallowUnknownFields()
			if err := dec.Decode(back); err != nil {
				t.Fatalf("decode: %v\n%s", err, b)
			}
			if !reflect.DeepEqual(orig, back) {
				b2, _ := json.Marshal(back)
				t.Fatalf("round trip differs:\n got %s\nwant %s", b2, b)
			}
		})
	}
}

// TestJSONTags checks every field of every reachable struct has an upstream
// style json tag: a lowerCamel name, or ",inline" for embedded TypeMeta and
// ProbeHandler, "metadata" for embedded ObjectMeta.
func TestJSONTags(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(rt reflect.Type) {
		for rt.Kind() == reflect.Pointer || rt.Kind() == reflect.Slice || rt.Kind() == reflect.Map {
			rt = rt.Elem()
		}
		if rt.Kind() != reflect.Struct || seen[rt] || rt.PkgPath() != timeType.PkgPath() {
			return
		}
		seen[rt] = true
		switch rt {
		case timeType, microTimeType, quantityType, intOrStrType:
			return
		}
		for i := 0; i < rt.NumField(); i++ {
			f := rt.Field(i)
			tag, ok := f.Tag.Lookup("json")
			name, _, _ := strings.Cut(tag, ",")
			switch {
			case !ok:
				t.Errorf("%s.%s has no json tag", rt.Name(), f.Name)
			case f.Anonymous && f.Name == "ObjectMeta":
				if name != "metadata" {
					t.Errorf("%s.ObjectMeta tag %q, want metadata", rt.Name(), tag)
				}
			case f.Anonymous:
				if tag != ",inline" {
					t.Errorf("%s.%s embedded tag %q, want ,inline", rt.Name(), f.Name, tag)
				}
			case name == "-":
				if rt.Name() != "Volume" && rt.Name() != "PersistentVolumeSpec" { // both keep their sources by custom JSON
					t.Errorf("%s.%s is not encoded", rt.Name(), f.Name)
				}
			case name == "" || strings.ToLower(name[:1]) != name[:1]:
				t.Errorf("%s.%s json name %q is not lowerCamel", rt.Name(), f.Name, name)
			}
			walk(f.Type)
		}
	}
	for _, o := range servedTypes(t) {
		walk(reflect.TypeOf(o))
	}
	if len(seen) < 60 {
		t.Fatalf("walked %d struct types; expected the whole API", len(seen))
	}
}

// typicalPod is a pod as a ReplicaSet creates it, after scheduling and
// kubelet status updates.
func typicalPod() *Pod {
	yes := true
	grace := int64(30)
	p := &Pod{
		TypeMeta: TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: ObjectMeta{
			Name: "web-7d4b9c-x2k9p", GenerateName: "web-7d4b9c-", Namespace: "default",
			UID: "uid-42", ResourceVersion: "1234", Generation: 1,
			CreationTimestamp: NewTime(fillTime),
			Labels:            map[string]string{"app": "web", "pod-template-hash": "7d4b9c"},
			Annotations:       map[string]string{"kubectl.kubernetes.io/restartedAt": "2026-01-01T00:00:00Z"},
			OwnerReferences: []OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-7d4b9c",
				UID: "uid-7", Controller: &yes, BlockOwnerDeletion: &yes}},
		},
		Spec: PodSpec{
			Volumes: []Volume{{Name: "cache", Source: map[string]RawValue{"emptyDir": RawValue(`{}`)}}},
			Containers: []Container{{
				Name: "web", Image: "nginx:1.14.2",
				Ports: []ContainerPort{{ContainerPort: 80, Protocol: ProtocolTCP}},
				Env:   []EnvVar{{Name: "MODE", Value: "prod"}},
				Resources: ResourceRequirements{
					Requests: ResourceList{ResourceCPU: MustParseQuantity("200m"), ResourceMemory: MustParseQuantity("128Mi")},
					Limits:   ResourceList{ResourceCPU: MustParseQuantity("500m"), ResourceMemory: MustParseQuantity("256Mi")},
				},
				VolumeMounts:   []VolumeMount{{Name: "cache", MountPath: "/cache"}},
				ReadinessProbe: &Probe{ProbeHandler: ProbeHandler{HTTPGet: &RawValue{}}, PeriodSeconds: 10},
			}},
			TerminationGracePeriodSeconds: &grace,
			NodeName:                      "node-3",
			Tolerations: []Toleration{
				{Key: TaintNodeNotReady, Operator: TolerationOpExists, Effect: TaintEffectNoExecute, TolerationSeconds: &grace},
				{Key: TaintNodeUnreachable, Operator: TolerationOpExists, Effect: TaintEffectNoExecute, TolerationSeconds: &grace},
			},
		},
		Status: PodStatus{
			Phase: PodRunning,
			Conditions: []PodCondition{
				{Type: PodScheduled, Status: ConditionTrue, LastTransitionTime: NewTime(fillTime)},
				{Type: PodReady, Status: ConditionTrue, LastTransitionTime: NewTime(fillTime)},
			},
			PodIP: "10.0.3.7", PodIPs: []PodIP{{IP: "10.0.3.7"}}, StartTime: &Time{fillTime},
			ContainerStatuses: []ContainerStatus{{Name: "web", Ready: true, Image: "nginx:1.14.2", Started: &yes,
				State: ContainerState{Running: &ContainerStateRunning{StartedAt: NewTime(fillTime)}}}},
			QOSClass: PodQOSBurstable,
		},
	}
	return p
}

func BenchmarkDeepCopyPod(b *testing.B) {
	p := typicalPod()
	b.ReportAllocs()
	for b.Loop() {
		_ = p.DeepCopy()
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "copies/s")
}

// TestEndpointSliceCopyOwnsEachValue checks what TestDeepCopyIndependent's
// one-endpoint fill cannot: EndpointSlice.DeepCopyInto allocates the
// endpoints' pointed-to values together, and each pointer of the copy must
// still have a value of its own, an address list appended to must not
// write into the next endpoint's, and endpoints with nil pointers must not
// shift the others' values.
func TestEndpointSliceCopyOwnsEachValue(t *testing.T) {
	str := func(s string) *string { return &s }
	yes, no := true, false
	in := &EndpointSlice{Endpoints: []Endpoint{
		{Addresses: []string{"10.0.0.1"}, Conditions: EndpointConditions{Ready: &yes, Serving: &yes, Terminating: &no}, NodeName: str("n1"), Zone: str("z1"), TargetRef: &ObjectReference{Name: "p1"}},
		{Addresses: []string{"10.0.0.2", "10.0.0.3"}, Hostname: str("h2"), Conditions: EndpointConditions{Ready: &no}},
		{Addresses: []string{"10.0.0.4"}, Conditions: EndpointConditions{Serving: &yes, Terminating: &yes}, Zone: str("z3"), TargetRef: &ObjectReference{Name: "p3"}},
	}}
	want := reflectCopy(in)
	cp := in.DeepCopy()
	if !reflect.DeepEqual(cp, want) {
		t.Fatalf("copy = %+v, want %+v", cp.Endpoints, want.Endpoints)
	}
	cp.Endpoints[0].Addresses = append(cp.Endpoints[0].Addresses, "10.9.9.9")
	*cp.Endpoints[0].Zone = "changed"
	*cp.Endpoints[0].Conditions.Terminating = true
	cp.Endpoints[0].TargetRef.Name = "changed"
	if !reflect.DeepEqual(cp.Endpoints[1:], want.Endpoints[1:]) {
		t.Fatalf("changing the copy's first endpoint changed the others: %+v", cp.Endpoints[1:])
	}
	if !reflect.DeepEqual(in, want) {
		t.Fatalf("changing the copy changed the original: %+v", in.Endpoints)
	}
}

// reflectCopy is the reflective deep copy the typed one replaced.
func reflectCopy(in *EndpointSlice) *EndpointSlice {
	return deepCopyReflect(in).(*EndpointSlice)
}

// TestEndpointsCopyOwnsEachValue is TestEndpointSliceCopyOwnsEachValue for
// an Endpoints subset's address lists, whose node names and target
// references the copy also allocates together.
func TestEndpointsCopyOwnsEachValue(t *testing.T) {
	str := func(s string) *string { return &s }
	in := &Endpoints{Subsets: []EndpointSubset{{
		Addresses: []EndpointAddress{
			{IP: "10.0.0.1", NodeName: str("n1"), TargetRef: &ObjectReference{Name: "p1"}},
			{IP: "10.0.0.2"},
			{IP: "10.0.0.3", NodeName: str("n3")},
			{IP: "10.0.0.4", TargetRef: &ObjectReference{Name: "p4"}},
		},
		NotReadyAddresses: []EndpointAddress{{IP: "10.0.0.5", NodeName: str("n5"), TargetRef: &ObjectReference{Name: "p5"}}},
	}}}
	want := deepCopyReflect(in).(*Endpoints)
	cp := in.DeepCopy()
	if !reflect.DeepEqual(cp, want) {
		t.Fatalf("copy = %+v, want %+v", cp.Subsets, want.Subsets)
	}
	*cp.Subsets[0].Addresses[0].NodeName = "changed"
	cp.Subsets[0].Addresses[0].TargetRef.Name = "changed"
	if !reflect.DeepEqual(cp.Subsets[0].Addresses[1:], want.Subsets[0].Addresses[1:]) || !reflect.DeepEqual(cp.Subsets[0].NotReadyAddresses, want.Subsets[0].NotReadyAddresses) {
		t.Fatalf("changing the copy's first address changed the others: %+v", cp.Subsets[0])
	}
	if !reflect.DeepEqual(in, want) {
		t.Fatalf("changing the copy changed the original: %+v", in.Subsets)
	}
}
