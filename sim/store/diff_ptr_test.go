package store

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// randObj builds random values of the API types for the comparison of
// the two walks: small pools of strings (so that list elements share
// keys, or lack them, and values are often equal), nil and empty values,
// times, quantities and JSON content.
type randObj struct {
	r     *rand.Rand
	depth int
}

var (
	intOrStringType = reflect.TypeFor[api.IntOrString]()
	rawValueType    = reflect.TypeFor[api.RawValue]()
	fieldsType      = reflect.TypeFor[api.Fields]()
)

func (g *randObj) pick(n int) int { return g.r.IntN(n) }

// json returns a random JSON value as an unstructured object holds it.
func (g *randObj) json(depth int) any {
	switch n := g.pick(7); {
	case n == 0 || depth > 2:
		return []string{"a", "b", "Ready", ""}[g.pick(4)]
	case n == 1:
		return float64(g.pick(3))
	case n == 2:
		return g.pick(2) == 0
	case n == 3:
		return nil
	case n == 4:
		l := make([]any, g.pick(3))
		for i := range l {
			l[i] = g.json(depth + 1)
		}
		return l
	default:
		m := map[string]any{}
		for range g.pick(4) {
			m[[]string{"name", "type", "spec", "x"}[g.pick(4)]] = g.json(depth + 1)
		}
		return m
	}
}

func (g *randObj) fill(v reflect.Value) {
	at := func(s int) time.Time { return benchEpoch.Add(time.Duration(s) * time.Second) }
	switch v.Type() {
	case timeType:
		if g.pick(4) > 0 {
			v.Set(reflect.ValueOf(api.NewTime(at(g.pick(3)))))
		}
		return
	case microTimeType:
		if g.pick(4) > 0 {
			v.Set(reflect.ValueOf(api.NewMicroTime(at(g.pick(3)).Add(time.Duration(g.pick(3)) * time.Microsecond))))
		}
		return
	case quantityType:
		v.Set(reflect.ValueOf(api.MustParseQuantity([]string{"0", "100m", "1", "1Gi"}[g.pick(4)])))
		return
	case intOrStringType:
		if g.pick(2) == 0 {
			v.Set(reflect.ValueOf(api.FromInt32(int32(g.pick(3)))))
		} else {
			v.Set(reflect.ValueOf(api.FromString([]string{"25%", "1", ""}[g.pick(3)])))
		}
		return
	case rawValueType:
		v.Set(reflect.ValueOf(api.RawValue([]string{`{"k":"v"}`, `{"k":"w"}`, `[]`}[g.pick(3)])))
		return
	case fieldsType:
		m := api.Fields{}
		for range g.pick(4) {
			m[[]string{"spec", "status", "data", "metadata"}[g.pick(4)]] = g.json(0)
		}
		v.Set(reflect.ValueOf(m))
		return
	}
	if g.depth > 4 {
		return
	}
	g.depth++
	defer func() { g.depth-- }()
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() && g.pick(3) > 0 {
				g.fill(v.Field(i))
			}
		}
	case reflect.Pointer:
		if g.pick(3) > 0 {
			p := reflect.New(v.Type().Elem())
			g.fill(p.Elem())
			v.Set(p)
		}
	case reflect.Slice:
		if g.pick(5) == 0 {
			v.Set(reflect.MakeSlice(v.Type(), 0, 0)) // empty, not nil
			return
		}
		s := reflect.MakeSlice(v.Type(), g.pick(4), 4)
		for i := range s.Len() {
			g.fill(s.Index(i))
		}
		v.Set(s)
	case reflect.Array:
		for i := range v.Len() {
			g.fill(v.Index(i))
		}
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for range g.pick(4) {
			k := reflect.New(v.Type().Key()).Elem()
			k.SetString([]string{"a", "b", "cpu", "memory"}[g.pick(4)])
			e := reflect.New(v.Type().Elem()).Elem()
			g.fill(e)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Interface:
		if j := g.json(0); j != nil {
			v.Set(reflect.ValueOf(j))
		}
	case reflect.String:
		v.SetString([]string{"", "x", "y", "Ready", "nginx"}[g.pick(5)])
	case reflect.Bool:
		v.SetBool(g.pick(2) == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt([]int64{0, 1, -1, 300, 1 << 20, 1 << 40}[g.pick(6)]) // truncated to the size
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(g.pick(3)))
	case reflect.Float32, reflect.Float64:
		v.SetFloat([]float64{0, 0.5, 1}[g.pick(3)])
	}
}

// mutate changes some of v in place: fields refilled, list elements
// refilled, dropped, swapped or added, map entries refilled or dropped.
func (g *randObj) mutate(v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		if v.Type() == timeType || v.Type() == microTimeType || v.Type() == quantityType || v.Type() == intOrStringType {
			g.fill(v)
			return
		}
		for i := range v.NumField() {
			if !v.Type().Field(i).IsExported() {
				continue
			}
			switch g.pick(10) {
			case 0:
				v.Field(i).SetZero()
				g.fill(v.Field(i))
			case 1, 2:
				g.mutate(v.Field(i))
			}
		}
	case reflect.Pointer:
		if v.IsNil() || g.pick(6) == 0 {
			v.SetZero()
			g.fill(v)
			return
		}
		g.mutate(v.Elem())
	case reflect.Slice:
		if v.Len() == 0 || g.pick(4) == 0 {
			v.SetZero()
			g.fill(v)
			return
		}
		switch g.pick(4) {
		case 0:
			v.Set(v.Slice(1, v.Len()))
		case 1:
			i, j := g.pick(v.Len()), g.pick(v.Len())
			a, b := v.Index(i).Interface(), v.Index(j).Interface()
			v.Index(i).Set(reflect.ValueOf(b))
			v.Index(j).Set(reflect.ValueOf(a))
		case 2:
			e := reflect.New(v.Type().Elem()).Elem()
			g.fill(e)
			v.Set(reflect.Append(v, e))
		default:
			g.mutate(v.Index(g.pick(v.Len())))
		}
	case reflect.Map:
		if v.Type() == fieldsType || v.Len() == 0 || g.pick(3) == 0 {
			v.SetZero()
			g.fill(v)
			return
		}
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return compareStrings(a.String(), b.String()) })
		k := keys[g.pick(len(keys))]
		if g.pick(2) == 0 {
			v.SetMapIndex(k, reflect.Value{})
		} else {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			g.mutate(e)
			v.SetMapIndex(k, e)
		}
	default:
		g.fill(v)
	}
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// diffBoth returns the audit diff and the plain diff of old and new,
// walked through memory (walkPtr) or through reflect.Values (walkInfo).
func diffBoth(old, new api.Object, reflective bool) (audit, plain []Change) {
	var oldV any
	if old != nil {
		oldV = old
	}
	a := differ{intern: map[string]string{}, skip: "metadata.managedFields", audit: true, reflective: reflective}
	p := differ{reflective: reflective}
	return slices.Clone(diffWith(&a, oldV, new)), slices.Clone(diffWith(&p, oldV, new))
}

// TestWalkPtrMatchesReflect checks that the walk through memory finds
// exactly the changes of the walk through reflect.Values, for random
// objects of every built-in kind: creates, unrelated pairs, mutated deep
// copies, and status writes that share the old object's other parts
// (withStatusOf) so that the shortcuts for shared data apply.
// A planted bug (Int32 fields compared by their low 16 bits in
// leafEqualAt) made it fail.
func TestWalkPtrMatchesReflect(t *testing.T) {
	g := &randObj{r: rand.New(rand.NewPCG(11, 23))}
	kinds := api.Builtin().Kinds()
	newObj := func(k api.Kind) api.Object {
		info, _ := api.Builtin().Lookup(k)
		o, err := api.New(info.APIVersion(), k.Name)
		if err != nil {
			t.Fatal(err)
		}
		g.fill(reflect.ValueOf(o).Elem())
		return o
	}
	n, changes := 0, 0
	check := func(name string, old, new api.Object) {
		t.Helper()
		n++
		wa, wp := diffBoth(old, new, true)
		ga, gp := diffBoth(old, new, false)
		changes += len(wp)
		if !slices.Equal(ga, wa) {
			t.Fatalf("%s: audit diff through memory\n%v\nthrough reflect\n%v", name, ga, wa)
		}
		if !slices.Equal(gp, wp) {
			t.Fatalf("%s: diff through memory\n%v\nthrough reflect\n%v", name, gp, wp)
		}
	}
	for round := range 15 {
		for _, k := range kinds {
			name := fmt.Sprintf("%s round %d", k.Name, round)
			a, b := newObj(k), newObj(k)
			check(name+" create", nil, a)
			check(name+" unrelated", a, b)
			c := a.DeepCopyObject()
			g.mutate(reflect.ValueOf(c).Elem())
			check(name+" mutated", a, c)
			check(name+" same", a, a)
			check(name+" copy", a, a.DeepCopyObject())
			if f := reflect.ValueOf(a).Elem().FieldByName("Status"); f.IsValid() {
				s := reflect.New(f.Type()).Elem()
				s.Set(f)
				g.mutate(s)
				check(name+" status", a, withStatus(a, s))
			}
		}
		u := &api.Unstructured{}
		g.fill(reflect.ValueOf(u).Elem())
		w := u.DeepCopyObject().(*api.Unstructured)
		g.mutate(reflect.ValueOf(w).Elem())
		check("unstructured", nil, u)
		check("unstructured mutated", u, w)
	}
	if changes < 5*n {
		t.Errorf("%d changes in %d diffs: the random objects differ too little", changes, n)
	}
}

// withStatus is a shallow copy of o (sharing all but its status) with
// status s, as withStatusOf makes for a status write.
func withStatus(o api.Object, s reflect.Value) api.Object {
	ov := reflect.ValueOf(o).Elem()
	nv := reflect.New(ov.Type())
	nv.Elem().Set(ov)
	nv.Elem().FieldByName("Status").Set(s)
	return nv.Interface().(api.Object)
}

// TestWithStatusOf checks the typed status writes of pods and nodes
// against the reflective one, on random objects: the old object's all
// but status, the update's status, in the update's own struct, the old
// object untouched (a planted typed copy that kept the old status made
// it fail).
func TestWithStatusOf(t *testing.T) {
	g := &randObj{r: rand.New(rand.NewPCG(5, 8))}
	for round := range 20 {
		for _, newObj := range []func() api.Object{func() api.Object { return &api.Pod{} }, func() api.Object { return &api.Node{} }} {
			old, upd := newObj(), newObj()
			g.fill(reflect.ValueOf(old).Elem())
			g.fill(reflect.ValueOf(upd).Elem())
			oldCopy := old.DeepCopyObject()
			want := withStatusOfReflect(old, upd.DeepCopyObject())
			got := withStatusOf(old, upd)
			if d := Diff(want, got); len(d) != 0 || got == old {
				t.Fatalf("round %d %T: typed status write differs from the reflective one: %v", round, old, d)
			}
			if got != upd {
				t.Fatalf("round %d %T: the typed status write allocated a new object instead of keeping the update's", round, old)
			}
			if d := Diff(oldCopy, old); len(d) != 0 {
				t.Fatalf("round %d %T: the status write changed the stored object: %v", round, old, d)
			}
			if d := Diff(old, got); len(d) > 0 && !strings.HasPrefix(d[0].Path, "status") {
				t.Fatalf("round %d %T: not only status changed: %v", round, old, d)
			}
		}
	}
}

// TestDifferRenderedSeconds holds the differ's rendered seconds to
// renderTime: times within one second, times a multiple of
// renderedSeconds apart (one slot, another second), the zero time,
// another location, before 1970 and far ahead, in an order that revisits
// slots; and one audit differ reused across pod status writes whose
// condition times share slots finds what a fresh differ finds. A planted
// cache that kept a slot's first second made it fail.
func TestDifferRenderedSeconds(t *testing.T) {
	t0 := time.Date(2026, 12, 4, 6, 0, 0, 0, time.UTC)
	east := time.FixedZone("UTC+5", 5*3600)
	times := []time.Time{
		{},
		t0,
		t0.Add(500 * time.Millisecond),
		t0.Add(renderedSeconds * time.Second),
		t0,
		t0.Add(renderedSeconds*time.Second + 999*time.Millisecond),
		t0.In(east),
		time.Date(1969, 12, 31, 23, 59, 59, 0, time.UTC),
		time.Date(1969, 12, 31, 23, 59, 43, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC),
		{},
		t0.Add(-renderedSeconds * time.Second),
	}
	var d differ
	for i, tm := range times {
		if got, want := d.renderTime(api.NewTime(tm)), renderTime(api.NewTime(tm)); got != want {
			t.Errorf("time %d (%v): rendered %q, want %q", i, tm, got, want)
		}
	}
	// renderedSeconds consecutive seconds, rendered once, are all kept:
	// rendering them again allocates nothing.
	var recent []api.Time
	for i := range renderedSeconds {
		recent = append(recent, api.NewTime(t0.Add(time.Duration(i)*time.Second)))
		d.renderTime(recent[i])
	}
	if n := testing.AllocsPerRun(5, func() {
		for _, tm := range recent {
			d.renderTime(tm)
		}
	}); n != 0 {
		t.Errorf("%d consecutive seconds rendered again: %v allocations, want 0", renderedSeconds, n)
	}

	pod := func(ready time.Time) *api.Pod {
		return &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"},
			Status: api.PodStatus{Phase: api.PodRunning, Conditions: []api.PodCondition{
				{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(ready)}}}}
	}
	reused := differ{intern: map[string]string{}, skip: "metadata.managedFields", audit: true}
	for i := range 40 {
		old := pod(t0.Add(time.Duration(i) * renderedSeconds * time.Second))
		new := pod(t0.Add(time.Duration(i+1) * time.Second))
		reused.out, reused.path = reused.out[:0], reused.path[:0]
		got := slices.Clone(diffWith(&reused, old, new))
		fresh := differ{intern: map[string]string{}, skip: "metadata.managedFields", audit: true}
		want := diffWith(&fresh, old, new)
		if !slices.Equal(got, want) {
			t.Fatalf("write %d: reused differ found\n%v\na fresh one\n%v", i, got, want)
		}
	}
}

// TestDifferRenderedRenewTimes holds the differ's rendered renew times
// to renderMicroTime: one microsecond apart, renderedRenewals
// microseconds apart (one slot, another time), the zero time, another
// location, revisited slots; and leaseRenewal's change of a renewal to
// the old and new times rendered afresh. A planted cache that kept a
// slot's first time made it fail.
func TestDifferRenderedRenewTimes(t *testing.T) {
	t0 := time.Date(2026, 12, 4, 6, 0, 0, 123456000, time.UTC)
	times := []time.Time{
		t0,
		t0.Add(time.Microsecond),
		t0.Add(renderedRenewals * time.Microsecond),
		t0,
		t0.Add(renderedRenewals*time.Microsecond + 999*time.Nanosecond),
		{},
		t0.In(time.FixedZone("UTC-3", -3*3600)),
		t0.Add(-renderedRenewals * time.Microsecond),
		// Before 1970 a microsecond is floored: -1.5 us renders as -2,
		// -1 us as -1.
		time.Unix(-1, 999_998_500).UTC(),
		time.Unix(-1, 999_999_000).UTC(),
		time.Unix(-1, 999_998_500).UTC(),
	}
	var d differ
	// The renewals of a thousand leases within ten seconds, rendered
	// once, are mostly kept: spread evenly over renderedRenewals slots,
	// about 115 of them share a slot with another (109 here), so
	// rendering them again allocates for those alone; a mapping that
	// crowds them into few slots allocates for nearly all.
	var renewals []api.MicroTime
	for i := range 1000 {
		renewals = append(renewals, api.NewMicroTime(t0.Add(time.Duration(i)*10*time.Millisecond+time.Duration(i*i%997)*time.Microsecond)))
		d.renderRenewTime(renewals[i])
	}
	if n := testing.AllocsPerRun(3, func() {
		for _, rt := range renewals {
			d.renderRenewTime(rt)
		}
	}); n > 200 {
		t.Errorf("1000 renew times rendered again: %v allocations, want at most 200", n)
	}
	for i, tm := range times {
		if got, want := d.renderRenewTime(api.NewMicroTime(tm)), renderMicroTime(api.NewMicroTime(tm)); got != want {
			t.Errorf("time %d (%v): rendered %q, want %q", i, tm, got, want)
		}
	}
	lease := func(at time.Time) *api.Lease {
		rt := api.NewMicroTime(at)
		return &api.Lease{ObjectMeta: api.ObjectMeta{Name: "node-0", Namespace: "kube-node-lease"}, Spec: api.LeaseSpec{RenewTime: &rt}}
	}
	for i := range 20 {
		old := lease(t0.Add(time.Duration(i) * renderedRenewals * time.Microsecond))
		new := lease(t0.Add(time.Duration(i+1) * renderedRenewals * time.Microsecond))
		d.out = d.out[:0]
		if !d.leaseRenewal(old, new) {
			t.Fatalf("renewal %d: not a renewal", i)
		}
		want := []Change{{Path: "spec.renewTime", Old: renderMicroTime(*old.Spec.RenewTime), New: renderMicroTime(*new.Spec.RenewTime), OldSet: true, NewSet: true}}
		if !slices.Equal(d.out, want) {
			t.Fatalf("renewal %d: %v, want %v", i, d.out, want)
		}
	}
}

// TestRenderMicro holds the differ's renew time rendering (a second's
// text kept, the microseconds after it) to renderMicroTime: the edges of
// a second and of the years it formats itself (0 and 9999; before and
// after them renderMicroTime's), before 1970, another location, seconds
// sixteen apart (one slot, another second) taken in turns, the zero
// time after a time of its second, and a hundred thousand times at
// random. Planted (the slot's second not compared, one microsecond
// digit short, the zero time checked only when its second is not
// kept), it fails.
func TestRenderMicro(t *testing.T) {
	t0 := time.Date(2026, 12, 4, 6, 0, 0, 123456789, time.UTC)
	times := []time.Time{
		t0,
		t0.Add(16 * time.Second),
		t0,
		t0.Add(-16 * time.Second),
		t0.Add(10 * time.Second),
		time.Date(2026, 12, 4, 6, 0, 0, 999_999_999, time.UTC),
		time.Date(2026, 12, 4, 6, 0, 1, 0, time.UTC),
		time.Date(2026, 12, 31, 23, 59, 59, 999_999_000, time.UTC),
		time.Date(2028, 2, 29, 12, 0, 0, 1000, time.UTC),
		time.Date(0, 1, 1, 0, 0, 0, 5000, time.UTC),
		time.Date(-1, 12, 31, 23, 59, 59, 5000, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999_999_000, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Unix(-1, 999_998_500).UTC(),
		time.Unix(-17, 1000).UTC(),
		t0.In(time.FixedZone("UTC+5:30", 5*3600+1800)),
		// The zero time ("null") after another time of its second.
		time.Date(1, 1, 1, 0, 0, 0, 5000, time.UTC),
		{},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100_000 {
		times = append(times, time.Unix(rng.Int64N(4_000_000_000)-1_000_000_000, rng.Int64N(1_000_000_000)))
	}
	var d differ
	for i, tm := range times {
		mt := api.NewMicroTime(tm)
		if got, want := d.renderMicro(mt), renderMicroTime(mt); got != want {
			t.Fatalf("time %d (%v): rendered %q, want %q", i, tm, got, want)
		}
	}
}

// TestZeroBytes: zeroBytes is true of n zero bytes for every n up to
// zeroes' length, false when any of them is set, and false past zeroes'
// length (the walk looks into such a value itself).
func TestZeroBytes(t *testing.T) {
	buf := make([]byte, len(zeroes)+1)
	for _, n := range []int{0, 1, 2, 3, 4, 5, 8, 9, 24, 1023, 1024} {
		clear(buf)
		buf[n] = 1 // just past the n bytes: not read
		if !zeroBytes(buf[:n]) {
			t.Errorf("%d zero bytes: not zero", n)
		}
		for _, at := range []int{0, n / 2, n - 1} {
			if n == 0 {
				break
			}
			clear(buf)
			buf[at] = 1
			if zeroBytes(buf[:n]) {
				t.Errorf("%d bytes, byte %d set: zero", n, at)
			}
		}
	}
	clear(buf)
	if zeroBytes(buf) {
		t.Errorf("%d zero bytes, past zeroes: zero", len(buf))
	}
}
