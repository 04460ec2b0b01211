package store

import (
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// frozenEvent is a stored Event in the smaller form the store keeps it
// in between writes: the fields Events have in practice, times as Unix
// nanoseconds, and strings that repeat another field as a flag. Events
// are most of a large run's objects (672,661 at 5,000 nodes, against
// 150,000 pods) and no controller reads them back, so their size is
// the heap the collector marks on every cycle: an api.Event is a
// 640-byte allocation, a frozenEvent a 320-byte one. Reads (Get, List,
// a watch's initial list, the old object of an update) thaw a fresh
// api.Event equal to the one written; watchers of a write see the
// written object itself. An Event with any other field set (labels,
// a series, a related object, an unusual time) is kept as it was
// written: freezeEvent refuses it.
type frozenEvent struct {
	name, rv        string
	uid             api.UID
	managedFields   []api.ManagedFieldsEntry
	involved        api.ObjectReference
	reason, message string
	typ             string
	component, host string
	// Unix nanoseconds; a zero time has its flag instead.
	created, first, last int64
	count                int32
	flags                frozenFlags
	// extra holds the fields Events seldom have, nil when all are
	// empty or flagged.
	extra *frozenExtra
}

// frozenExtra is the rest of a frozen Event.
type frozenExtra struct {
	// namespace is metadata.namespace when it is not the involved
	// object's (frozenNamespaceSame).
	namespace string
	action    string
	// controller and instance are the reporting controller and
	// instance when they are not the source's component and host.
	controller, instance string
	eventTime            int64
}

type frozenFlags uint16

const (
	frozenTypeMeta       frozenFlags = 1 << iota // apiVersion v1, kind Event (else both empty)
	frozenCreatedZero                            // creationTimestamp is the zero time
	frozenFirstZero                              // firstTimestamp is the zero time
	frozenLastZero                               // lastTimestamp is the zero time
	frozenEventTimeZero                          // eventTime is the zero time
	frozenControllerSame                         // reportingComponent is source.component
	frozenInstanceSame                           // reportingInstance is source.host
	frozenNamespaceSame                          // metadata.namespace is involvedObject.namespace
)

// freezeEvent returns e's frozen form, or false when e has a field the
// frozen form does not keep, or a time it would not give back exactly.
func freezeEvent(e *api.Event) (*frozenEvent, bool) {
	m := &e.ObjectMeta
	if m.GenerateName != "" || m.SelfLink != "" || m.Generation != 0 || m.DeletionTimestamp != nil ||
		m.DeletionGracePeriodSeconds != nil || m.Labels != nil || m.Annotations != nil ||
		m.OwnerReferences != nil || m.Finalizers != nil || e.Series != nil || e.Related != nil {
		return nil, false
	}
	f := &frozenEvent{name: m.Name, rv: m.ResourceVersion, uid: m.UID, managedFields: m.ManagedFields,
		involved: e.InvolvedObject, reason: e.Reason, message: e.Message, typ: e.Type,
		component: e.Source.Component, host: e.Source.Host, count: e.Count}
	switch e.TypeMeta {
	case api.TypeMeta{APIVersion: "v1", Kind: api.KindEvent.Name}:
		f.flags |= frozenTypeMeta
	case api.TypeMeta{}:
	default:
		return nil, false
	}
	x := frozenExtra{action: e.Action}
	if m.Namespace == e.InvolvedObject.Namespace {
		f.flags |= frozenNamespaceSame
	} else {
		x.namespace = m.Namespace
	}
	if e.ReportingController == e.Source.Component {
		f.flags |= frozenControllerSame
	} else {
		x.controller = e.ReportingController
	}
	if e.ReportingInstance == e.Source.Host {
		f.flags |= frozenInstanceSame
	} else {
		x.instance = e.ReportingInstance
	}
	var ok [4]bool
	f.created, ok[0] = freezeTime(m.CreationTimestamp.Time, &f.flags, frozenCreatedZero)
	f.first, ok[1] = freezeTime(e.FirstTimestamp.Time, &f.flags, frozenFirstZero)
	f.last, ok[2] = freezeTime(e.LastTimestamp.Time, &f.flags, frozenLastZero)
	x.eventTime, ok[3] = freezeTime(e.EventTime.Time, &f.flags, frozenEventTimeZero)
	if ok != [4]bool{true, true, true, true} {
		return nil, false
	}
	if x != (frozenExtra{}) {
		f.extra = &x
	}
	return f, true
}

// freezeTime returns t as Unix nanoseconds, or sets zero in flags for the
// zero time. It fails for a time thawTime would not give back exactly
// (another location, a monotonic reading, outside 1678 to 2262).
func freezeTime(t time.Time, flags *frozenFlags, zero frozenFlags) (int64, bool) {
	if t == (time.Time{}) {
		*flags |= zero
		return 0, true
	}
	n := t.UnixNano()
	return n, thawTime(n, *flags, zero) == t
}

func thawTime(n int64, flags, zero frozenFlags) time.Time {
	if flags&zero != 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

// thaw returns a new api.Event equal to the one frozen.
func (f *frozenEvent) thaw() *api.Event {
	var x frozenExtra
	if f.extra != nil {
		x = *f.extra
	}
	e := &api.Event{
		ObjectMeta: api.ObjectMeta{Name: f.name, Namespace: x.namespace, UID: f.uid, ResourceVersion: f.rv,
			CreationTimestamp: api.Time{Time: thawTime(f.created, f.flags, frozenCreatedZero)}, ManagedFields: f.managedFields},
		InvolvedObject:      f.involved,
		Reason:              f.reason,
		Message:             f.message,
		Source:              api.EventSource{Component: f.component, Host: f.host},
		FirstTimestamp:      api.Time{Time: thawTime(f.first, f.flags, frozenFirstZero)},
		LastTimestamp:       api.Time{Time: thawTime(f.last, f.flags, frozenLastZero)},
		Count:               f.count,
		Type:                f.typ,
		EventTime:           api.MicroTime{Time: thawTime(x.eventTime, f.flags, frozenEventTimeZero)},
		Action:              x.action,
		ReportingController: x.controller,
		ReportingInstance:   x.instance,
	}
	if f.flags&frozenTypeMeta != 0 {
		e.TypeMeta = api.TypeMeta{APIVersion: "v1", Kind: api.KindEvent.Name}
	}
	if f.flags&frozenNamespaceSame != 0 {
		e.Namespace = f.involved.Namespace
	}
	if f.flags&frozenControllerSame != 0 {
		e.ReportingController = f.component
	}
	if f.flags&frozenInstanceSame != 0 {
		e.ReportingInstance = f.host
	}
	return e
}

// storedObject is a table's value: the object as written, or an Event
// frozen (obj nil), and the object's slot number (see slotNumbers).
type storedObject struct {
	obj    api.Object
	frozen *frozenEvent
	slot   uint32
}

// object returns the stored object: shared when kept as written, a new
// thawed Event when frozen.
func (v storedObject) object() api.Object {
	if v.frozen != nil {
		return v.frozen.thaw()
	}
	return v.obj
}

// storeObject returns what a table keeps for o under slot: Events frozen
// when they can be.
func storeObject(o api.Object, slot uint32) storedObject {
	if e, ok := o.(*api.Event); ok {
		if f, ok := freezeEvent(e); ok {
			return storedObject{frozen: f, slot: slot}
		}
	}
	return storedObject{obj: o, slot: slot}
}

// get returns the object stored under key (see storedObject.object).
func (t *table) get(key api.Key) (api.Object, bool) {
	o, _, ok := t.lookup(key)
	return o, ok
}

// lookup returns the object stored under key and its slot number.
func (t *table) lookup(key api.Key) (o api.Object, slot uint32, ok bool) {
	v, ok := t.objs[key]
	if !ok {
		return nil, 0, false
	}
	return v.object(), v.slot, true
}
