package store

import (
	"maps"
	"reflect"
	"slices"
	"strconv"
	"unsafe"

	"github.com/clustersim/clustersim/sim/api"
)

// podCreate is the audit diff of the create of a Pod (old nil) with the
// leaves a ReplicaSet's pods set rendered by type, not by the walk: a
// large run creates a pod for every replica (150,000 in the 5,000-node
// probe), and the walk of one went through its containers, owner
// references and tolerations by reflection (some 7.6 µs warm in
// BenchmarkAuditDiff, 2.25 s of that run's samples). It appends to d.out
// exactly the changes the walk would (diffWith(d, nil, p)), in the
// walk's order, rendered as the walk renders them, at the walk's paths
// (through the walk's own path tree, so interned alike), and reports
// true.
//
// It visits the fields of each struct in the walk's order. A field it
// knows (createPlan's handlers: the metadata's strings, generation and
// creation time, the spec's scalars and pointers to scalars, the status
// phase, and the lists of containers, owner references and tolerations
// when the walk would address their elements as it does) it renders
// itself; any other field that is set goes to the walk (createdField),
// so that a field it does not know, a field added to the types later
// included, is diffed as before. A struct whose other fields are all
// zero (createPlan.restZero) skips them without looking at each.
//
// It appends nothing and reports false, for the walk to diff the pod,
// unless the differ is the audit log's (audit set, no skip but
// managedFields', not reflective, walkEqual off, no path begun) and the
// pod is not nil. TestPodCreateMatchesWalk compares it with the walk on
// random pods (every field of the types filled at random) and on the
// scale probe's pod; FuzzPodCreate on pods a fuzzer varies.
func (d *differ) podCreate(p *api.Pod) bool {
	if p == nil || !d.audit || d.reflective || d.walkEqual || len(d.path) != 0 ||
		d.skip != "" && d.skip != managedFieldsPath {
		return false
	}
	root := d.root(podInfo)
	d.createdStruct(unsafe.Pointer(p), podPlan, root)
	return true
}

// createPlan is what podCreate knows of a struct type: its info, the
// handler of each field by position (hWalk: the walk's), and the bytes
// of the fields the walk renders, which are skipped at once when zero.
type createPlan struct {
	info    *typeInfo
	handler []createHandler
	rest    []byteSpan
	// sub holds the plan of each hStruct and hInline field (nil for the
	// others), set once every plan is made.
	sub []*createPlan
}

// byteSpan is a range of a struct's bytes.
type byteSpan struct{ off, size uintptr }

// createHandler names how podCreate renders a field.
type createHandler uint8

const (
	hWalk        createHandler = iota // the walk's (createdField)
	hString                           // a string kind
	hInt64                            // an int64
	hBool                             // a bool
	hTime                             // an api.Time
	hPtrInt64                         // a *int64
	hPtrInt32                         // a *int32
	hPtrBool                          // a *bool
	hPtrString                        // a pointer to a string kind
	hPtrRaw                           // a *api.RawValue
	hStringMap                        // a map[string]string, by key
	hQuantities                       // an api.ResourceList, by name
	hStruct                           // a struct below a path of its own, by its plan
	hInline                           // an inlined struct (TypeMeta), by its plan
	hContainers                       // []api.Container, keyed by name
	hOwners                           // []api.OwnerReference, keyed by name
	hTolerations                      // []api.Toleration, by position
)

// The plans of the types podCreate renders. planOf panics when a field
// it names is not one of the type's (by JSON name) or not of the kind
// its handler reads, so any test run fails on a renamed or retyped
// field.
var (
	typeMetaPlan = planOf[api.TypeMeta](map[string]createHandler{"apiVersion": hString, "kind": hString})
	podMetaPlan  = planOf[api.ObjectMeta](map[string]createHandler{
		"name": hString, "generateName": hString, "namespace": hString, "selfLink": hString, "uid": hString,
		"resourceVersion": hString, "generation": hInt64, "creationTimestamp": hTime, "labels": hStringMap,
		"annotations": hStringMap, "ownerReferences": hOwners})
	ownerPlan = planOf[api.OwnerReference](map[string]createHandler{
		"apiVersion": hString, "kind": hString, "name": hString, "uid": hString, "controller": hPtrBool, "blockOwnerDeletion": hPtrBool})
	podSpecPlan = planOf[api.PodSpec](map[string]createHandler{
		"initContainers": hContainers, "containers": hContainers, "restartPolicy": hString,
		"terminationGracePeriodSeconds": hPtrInt64, "activeDeadlineSeconds": hPtrInt64, "dnsPolicy": hString,
		"serviceAccountName": hString, "serviceAccount": hString, "automountServiceAccountToken": hPtrBool,
		"nodeName": hString, "hostNetwork": hBool, "hostPID": hBool, "hostIPC": hBool, "shareProcessNamespace": hPtrBool,
		"hostname": hString, "subdomain": hString, "schedulerName": hString, "tolerations": hTolerations,
		"priorityClassName": hString, "priority": hPtrInt32, "runtimeClassName": hPtrString, "enableServiceLinks": hPtrBool,
		"nodeSelector": hStringMap, "securityContext": hPtrRaw, "overhead": hQuantities,
		"preemptionPolicy": hPtrString, "setHostnameAsFQDN": hPtrBool, "hostUsers": hPtrBool, "hostnameOverride": hPtrString})
	containerPlan = planOf[api.Container](map[string]createHandler{
		"name": hString, "image": hString, "workingDir": hString, "terminationMessagePath": hString,
		"terminationMessagePolicy": hString, "imagePullPolicy": hString, "stdin": hBool, "stdinOnce": hBool, "tty": hBool,
		"resources": hStruct, "securityContext": hPtrRaw})
	resourcesPlan  = planOf[api.ResourceRequirements](map[string]createHandler{"limits": hQuantities, "requests": hQuantities})
	tolerationPlan = planOf[api.Toleration](map[string]createHandler{
		"key": hString, "operator": hString, "value": hString, "effect": hString, "tolerationSeconds": hPtrInt64})
	podStatusPlan = planOf[api.PodStatus](map[string]createHandler{"phase": hString})
	podPlan       = planOf[api.Pod](map[string]createHandler{"": hInline, "metadata": hStruct, "spec": hStruct, "status": hStruct})
	// subPlans are the plans of the struct fields podPlan and the lists
	// render (hStruct, hInline and the lists' elements), by type.
	subPlans = map[reflect.Type]*createPlan{
		reflect.TypeFor[api.TypeMeta]():             typeMetaPlan,
		reflect.TypeFor[api.ObjectMeta]():           podMetaPlan,
		reflect.TypeFor[api.PodSpec]():              podSpecPlan,
		reflect.TypeFor[api.PodStatus]():            podStatusPlan,
		reflect.TypeFor[api.OwnerReference]():       ownerPlan,
		reflect.TypeFor[api.Container]():            containerPlan,
		reflect.TypeFor[api.Toleration]():           tolerationPlan,
		reflect.TypeFor[api.ResourceRequirements](): resourcesPlan,
	}
)

func init() {
	for _, pl := range append(slices.Collect(maps.Values(subPlans)), podPlan) {
		pl.sub = make([]*createPlan, len(pl.handler))
		for i, h := range pl.handler {
			if h == hStruct || h == hInline {
				pl.sub[i] = subPlans[pl.info.fields[i].info.typ]
				if pl.sub[i] == nil {
					panic("store: podCreate has no plan of " + pl.info.fields[i].info.typ.String())
				}
			}
		}
	}
}

// handlerKinds are the field types each handler reads (a string kind,
// whatever its named type, for hString and hPtrString).
var handlerKinds = map[createHandler]func(t reflect.Type) bool{
	hString:      func(t reflect.Type) bool { return t.Kind() == reflect.String },
	hInt64:       func(t reflect.Type) bool { return t.Kind() == reflect.Int64 },
	hBool:        func(t reflect.Type) bool { return t.Kind() == reflect.Bool },
	hTime:        func(t reflect.Type) bool { return t == timeType },
	hPtrInt64:    func(t reflect.Type) bool { return t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Int64 },
	hPtrInt32:    func(t reflect.Type) bool { return t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Int32 },
	hPtrBool:     func(t reflect.Type) bool { return t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Bool },
	hPtrString:   func(t reflect.Type) bool { return t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.String },
	hPtrRaw:      func(t reflect.Type) bool { return t == reflect.TypeFor[*api.RawValue]() },
	hStringMap:   func(t reflect.Type) bool { return t == reflect.TypeFor[map[string]string]() },
	hQuantities:  func(t reflect.Type) bool { return t == reflect.TypeFor[api.ResourceList]() },
	hStruct:      func(t reflect.Type) bool { return t.Kind() == reflect.Struct },
	hInline:      func(t reflect.Type) bool { return t.Kind() == reflect.Struct },
	hContainers:  func(t reflect.Type) bool { return t == reflect.TypeFor[[]api.Container]() },
	hOwners:      func(t reflect.Type) bool { return t == reflect.TypeFor[[]api.OwnerReference]() },
	hTolerations: func(t reflect.Type) bool { return t == reflect.TypeFor[[]api.Toleration]() },
}

// planOf returns T's plan with the handlers by JSON name ("" for the
// inlined struct); it panics on a name T does not have or a field its
// handler cannot read.
func planOf[T any](handlers map[string]createHandler) *createPlan {
	info := infoOf(reflect.TypeFor[T]())
	pl := &createPlan{info: info, handler: make([]createHandler, len(info.fields))}
	found := 0
	for i := range info.fields {
		f := &info.fields[i]
		h, ok := handlers[f.name]
		if !ok {
			pl.rest = append(pl.rest, byteSpan{f.offset, f.info.size})
			continue
		}
		if (h == hInline) != f.inline || !handlerKinds[h](f.info.typ) {
			panic("store: podCreate renders " + info.typ.String() + "." + f.name + " as it is not")
		}
		pl.handler[i] = h
		found++
	}
	if found != len(handlers) {
		panic("store: podCreate names a field " + info.typ.String() + " does not have")
	}
	return pl
}

// restZero reports whether the fields of the struct at p that pl leaves
// to the walk are all zero: none of them is a change then.
func (pl *createPlan) restZero(p unsafe.Pointer) bool {
	for _, s := range pl.rest {
		if !zeroBytes(bytesAt(unsafe.Add(p, s.off), s.size)) {
			return false
		}
	}
	return true
}

// createdStruct appends the changes of a create of the struct at p (of
// pl's type), node its path node and d.path its path: each field in the
// walk's order, by its handler.
func (d *differ) createdStruct(p unsafe.Pointer, pl *createPlan, node *pathNode) {
	rest := pl.restZero(p)
	n := len(pl.info.fields)
	for i, h := range pl.handler {
		f := &pl.info.fields[i]
		fp := unsafe.Add(p, f.offset)
		switch h {
		case hWalk:
			if !rest {
				d.createdField(p, pl.info, i, node)
			}
		case hString:
			created(d, node, i, n, f.name, *(*string)(fp), renderString)
		case hInt64:
			created(d, node, i, n, f.name, *(*int64)(fp), renderInt)
		case hBool:
			created(d, node, i, n, f.name, *(*bool)(fp), renderBool)
		case hTime:
			created(d, node, i, n, f.name, *(*api.Time)(fp), (*differ).renderTime)
		case hPtrInt64:
			if v := *(**int64)(fp); v != nil {
				created(d, node, i, n, f.name, *v, renderInt)
			}
		case hPtrInt32:
			if v := *(**int32)(fp); v != nil {
				created(d, node, i, n, f.name, int64(*v), renderInt)
			}
		case hPtrBool:
			if v := *(**bool)(fp); v != nil {
				created(d, node, i, n, f.name, *v, renderBool)
			}
		case hPtrString:
			if v := *(**string)(fp); v != nil {
				created(d, node, i, n, f.name, *v, renderString)
			}
		case hPtrRaw:
			if v := *(**api.RawValue)(fp); v != nil && *v != nil {
				d.fastLeaf(node, i, n, f.name, Change{New: renderMarshaler(v), NewSet: true})
			}
		case hStringMap:
			if m := *(*map[string]string)(fp); len(m) > 0 {
				createdMap(d, m, f, &d.leafPair().str, node.field(i, n))
			}
		case hQuantities:
			if m := *(*api.ResourceList)(fp); len(m) > 0 {
				createdMap(d, m, f, &d.leafPair().qty, node.field(i, n))
			}
		case hInline:
			d.createdStruct(fp, pl.sub[i], node.field(i, n))
		case hStruct:
			if zeroBytes(bytesAt(fp, f.info.size)) {
				continue
			}
			mark := d.enter(f.name)
			d.createdStruct(fp, pl.sub[i], node.field(i, n))
			d.path = d.path[:mark]
		case hContainers:
			createdList(d, *(*[]api.Container)(fp), containerPlan, true, p, pl.info, i, node)
		case hOwners:
			createdList(d, *(*[]api.OwnerReference)(fp), ownerPlan, true, p, pl.info, i, node)
		case hTolerations:
			createdList(d, *(*[]api.Toleration)(fp), tolerationPlan, false, p, pl.info, i, node)
		}
	}
}

// createdMap appends the entries of map m (not empty), field f, below
// its path node as the walk does (walkLeafMap, its values put in pair,
// the differ's).
func createdMap[K ~string, V any](d *differ, m map[K]V, f *fieldInfo, pair *[2]V, node *pathNode) {
	mark := d.enter(f.name)
	walkLeafMap(d, nil, m, f.info.elem, pair, node)
	d.path = d.path[:mark]
}

// leafPair returns the differ's pair of map values (walkLeafMap's),
// made on first use.
func (d *differ) leafPair() *leafPair {
	if d.leaves == nil {
		d.leaves = new(leafPair)
	}
	return d.leaves
}

// createdList appends the changes of a create of list l, field i of the
// struct at p (of info's type) below node: its elements by plan el, at
// "[key]" when keyed (each element's name field) and "[position]"
// otherwise, as the walk addresses them. A list the walk would address
// otherwise (keys empty or repeated, or more than four) goes to the
// walk. An element with nothing set is rendered whole, as the walk
// renders it.
func createdList[T any](d *differ, l []T, el *createPlan, keyed bool, p unsafe.Pointer, info *typeInfo, i int, node *pathNode) {
	if len(l) == 0 {
		return // absent to the walk (emptyAt)
	}
	var keys [4]string
	if keyed {
		if len(l) > len(keys) {
			d.createdField(p, info, i, node)
			return
		}
		kf := el.info.fields[el.info.keyField]
		for j := range l {
			k := *(*string)(unsafe.Add(unsafe.Pointer(&l[j]), kf.offset))
			if k == "" || slices.Contains(keys[:j], k) {
				d.createdField(p, info, i, node)
				return
			}
			keys[j] = k
		}
	}
	f := &info.fields[i]
	list := node.field(i, len(info.fields))
	mark := d.enter(f.name)
	for j := range l {
		at := len(d.path)
		d.path = append(d.path, '[')
		var child *pathNode
		if keyed {
			d.path = append(d.path, keys[j]...)
			child = list.key(keys[j])
		} else {
			d.path = strconv.AppendInt(d.path, int64(j), 10)
			child = list.at(j)
		}
		d.path = append(d.path, ']')
		before := len(d.out)
		d.createdStruct(unsafe.Pointer(&l[j]), el, child)
		if len(d.out) == before {
			// Nothing set in the element: the walk renders it whole.
			d.emitEntryAt(nil, unsafe.Pointer(&l[j]), el.info, child)
		}
		d.path = d.path[:at]
	}
	d.path = d.path[:mark]
}

// createdField is the walk's step through field i of the struct at p
// (of info's type) for a create: nothing on the old side.
func (d *differ) createdField(p unsafe.Pointer, info *typeInfo, i int, node *pathNode) {
	f := &info.fields[i]
	d.walkField(nil, unsafe.Add(p, f.offset), f, i, len(info.fields), node)
}
