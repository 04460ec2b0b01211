package store

import (
	"strconv"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// frozenEvent is a stored Event in the smaller form the store keeps it
// in between writes: the fields Events have in practice, times as Unix
// nanoseconds, a uid and resourceVersions as the numbers they spell, the
// name as the involved object's name and the 16 hexadecimal digits the
// simulation's recorders end it in (api.EventName), the strings few
// Events differ in (kinds, namespaces, reasons, types, components,
// hosts) as numbers into the table's words, and strings that repeat
// another field as a flag. Events are most of a large run's objects
// (672,661 at 5,000 nodes, against 150,000 pods) and no controller reads
// them back, so their size and their pointers are heap the collector
// marks on every cycle: an api.Event is a 640-byte allocation holding
// 36 pointers, with strings of its own besides (name, uid,
// resourceVersion: some 100 bytes more); a frozenEvent is a 192-byte
// allocation holding 4, all in its first 64 bytes (the collector scans
// an object only as far as its last pointer). BenchmarkStoredEvents
// measures the difference. Reads (Get, List, a watch's initial list, the
// old object of an update) thaw a fresh api.Event equal to the one
// written; watchers of a write see the written object itself. An Event
// with any other field set (labels, a series, a related object, an
// unusual time), a uid of its own or a resourceVersion the store would
// not have written, or words past the table's bound is kept as it was
// written: freeze refuses it. (The involved object's uid may be
// anything: a kubelet's reference to its Node gives the node's name.)
type frozenEvent struct {
	// The fields with pointers, first.
	managedFields []api.ManagedFieldsEntry
	involvedName  string
	message       string
	// extra holds the fields Events seldom have, nil when all are
	// empty or flagged.
	extra *frozenExtra

	uid, involvedUID frozenUID
	// nameSuffix is the name's last 16 hexadecimal digits, unless
	// frozenNameExtra.
	nameSuffix     uint64
	rv, involvedRV uint64
	// Unix nanoseconds; a zero time has its flag instead.
	created, first, last int64
	// Words of the table (frozenWords).
	involvedKind, involvedNamespace, involvedAPIVersion, fieldPath word
	reason, typ, component, host                                   word
	count                                                          int32
	flags                                                          frozenFlags
}

// frozenExtra is the rest of a frozen Event.
type frozenExtra struct {
	// name is metadata.name when it is not the involved object's name
	// and 16 hexadecimal digits (frozenNameExtra).
	name string
	// namespace is metadata.namespace when it is not the involved
	// object's (frozenNamespaceSame).
	namespace string
	// involvedUID is involvedObject.uid when it is neither empty, the
	// involved object's name, nor in the store's form
	// (frozenInvolvedUIDExtra).
	involvedUID api.UID
	action      string
	// controller and instance are the reporting controller and
	// instance when they are not the source's component and host.
	controller, instance string
	eventTime            int64
}

type frozenFlags uint16

const (
	frozenTypeMeta         frozenFlags = 1 << iota // apiVersion v1, kind Event (else both empty)
	frozenCreatedZero                              // creationTimestamp is the zero time
	frozenFirstZero                                // firstTimestamp is the zero time
	frozenLastZero                                 // lastTimestamp is the zero time
	frozenEventTimeZero                            // eventTime is the zero time
	frozenControllerSame                           // reportingComponent is source.component
	frozenInstanceSame                             // reportingInstance is source.host
	frozenNamespaceSame                            // metadata.namespace is involvedObject.namespace
	frozenNameExtra                                // metadata.name is extra.name
	frozenInvolvedUIDEmpty                         // involvedObject.uid is empty
	frozenInvolvedRVEmpty                          // involvedObject.resourceVersion is empty
	frozenInvolvedUIDName                          // involvedObject.uid is involvedObject.name
	frozenInvolvedUIDExtra                         // involvedObject.uid is extra.involvedUID
)

// frozenUID is a uid in the store's form (a version 4 UUID's 36
// characters, lowercase, api.UID) as the 128 bits it spells.
type frozenUID struct{ hi, lo uint64 }

// freezeUID returns u's bits, or false when u is not in the store's form
// (formatUID would not give it back): each of the thirty-two digits
// through hexDigits, a table, its misses gathered in one check at the
// end (two for each Event the store keeps, its own uid and its
// object's: 0.56 s of the 5,000-node run's samples a digit at a time).
func freezeUID(u api.UID) (frozenUID, bool) {
	if len(u) != 36 || u[8] != '-' || u[13] != '-' || u[18] != '-' || u[23] != '-' {
		return frozenUID{}, false
	}
	var f frozenUID
	var bad uint8
	digits := func(v uint64, from, to int) uint64 {
		for i := from; i < to; i++ {
			d := hexDigits[u[i]]
			bad |= d
			v = v<<4 | uint64(d&0xf)
		}
		return v
	}
	f.hi = digits(digits(digits(0, 0, 8), 9, 13), 14, 18)
	f.lo = digits(digits(0, 19, 23), 24, 36)
	if bad&notHexDigit != 0 {
		return frozenUID{}, false
	}
	return f, true
}

// hexDigits holds the value of each lowercase hexadecimal digit, and
// notHexDigit for every other byte.
var hexDigits = func() (t [256]uint8) {
	for c := range t {
		d, ok := lowerHexDigit(byte(c))
		if !ok {
			t[c] = notHexDigit
			continue
		}
		t[c] = uint8(d)
	}
	return t
}()

// notHexDigit marks a byte hexDigits has no value for.
const notHexDigit = 0x80

// formatUID is the uid whose bits are f: fmt's
// "%08x-%04x-%04x-%04x-%012x" without its cost (every create takes a
// uid, Store.newUID; every thaw of an Event two).
func formatUID(f frozenUID) api.UID {
	var b [36]byte
	hexTo(b[0:8], f.hi>>32)
	b[8] = '-'
	hexTo(b[9:13], (f.hi>>16)&0xffff)
	b[13] = '-'
	hexTo(b[14:18], f.hi&0xffff)
	b[18] = '-'
	hexTo(b[19:23], f.lo>>48)
	b[23] = '-'
	hexTo(b[24:36], f.lo&0xffffffffffff)
	return api.UID(b[:])
}

// freezeDecimal returns the number s spells in decimal, or false when s
// is not a number's canonical decimal (strconv.FormatUint's).
func freezeDecimal(s string) (uint64, bool) {
	if s == "" || s[0] == '0' && s != "0" {
		return 0, false
	}
	v, err := strconv.ParseUint(s, 10, 64)
	return v, err == nil
}

// eventNameSuffix returns the 16 hexadecimal digits name ends in when
// name is api.EventName(object, suffix), or false.
func eventNameSuffix(name, object string) (uint64, bool) {
	if len(name) != len(object)+17 || name[:len(object)] != object || name[len(object)] != '.' {
		return 0, false
	}
	var v uint64
	for _, c := range []byte(name[len(object)+1:]) {
		d, ok := lowerHexDigit(c)
		if !ok {
			return 0, false
		}
		v = v<<4 | d
	}
	return v, true
}

// lowerHexDigit is the value of the lowercase hexadecimal digit c (the
// digits hexTo and api.AppendHex16 write), or false.
func lowerHexDigit(c byte) (uint64, bool) {
	switch {
	case '0' <= c && c <= '9':
		return uint64(c - '0'), true
	case 'a' <= c && c <= 'f':
		return uint64(c-'a') + 10, true
	}
	return 0, false
}

// word is a string's number in a table's frozenWords.
type word uint32

// maxFrozenWords bounds the distinct strings a table's frozen Events
// keep as words: past it, an Event with a string not yet among them is
// kept as written. The bound keeps what a run of unusual Events (a
// reason or a host per Event) can make the table hold, since a word
// stays after the Events that used it are gone.
const maxFrozenWords = 1 << 16

// frozenWords are the strings a table's frozen Events share, each kept
// once and numbered in the order first seen.
type frozenWords struct {
	ids   map[string]word
	words []string
	// recent holds, for each of freeze's word fields, the last few words
	// it numbered there, so that most words are found without hashing
	// them: Events repeat their kind, namespace, type and field path,
	// and take turns among a few reasons (a pod's Scheduled, Pulled,
	// Created, Started) and components (the scheduler's, a kubelet's);
	// a map lookup, hashing the word, was 0.51 s of the 5,000-node
	// run's samples. (The source's host, one a kubelet, is looked up.)
	recent [recentFields][recentWords]recentWord
}

// The word fields freeze remembers recent words of (all eight but the
// host), in the order it numbers them, and how many words recent keeps
// of each.
const (
	recentKind = iota
	recentNamespace
	recentAPIVersion
	recentFieldPath
	recentReason
	recentType
	recentComponent
	recentFields

	recentWords = 4
)

type recentWord struct {
	s  string
	id word
	ok bool
}

// idAt is id for freeze's word field at position field (see recent).
func (w *frozenWords) idAt(field int, s string) (word, bool) {
	r := &w.recent[field]
	for i := range r {
		if r[i].ok && r[i].s == s {
			return r[i].id, true
		}
	}
	id, ok := w.id(s)
	if ok {
		// The newest first: the others move down one, the oldest goes.
		copy(r[1:], r[:recentWords-1])
		r[0] = recentWord{s: s, id: id, ok: true}
	}
	return id, ok
}

// id returns s's number, numbering it if new, or false when the table
// is full.
func (w *frozenWords) id(s string) (word, bool) {
	if id, ok := w.ids[s]; ok {
		return id, true
	}
	if len(w.words) >= maxFrozenWords {
		return 0, false
	}
	if w.ids == nil {
		w.ids = make(map[string]word)
	}
	id := word(len(w.words))
	w.ids[s] = id
	w.words = append(w.words, s)
	return id, true
}

// freeze returns e's frozen form, or false when e has a field the frozen
// form does not keep, or a value it would not give back exactly.
func (w *frozenWords) freeze(e *api.Event) (*frozenEvent, bool) {
	m := &e.ObjectMeta
	if m.GenerateName != "" || m.SelfLink != "" || m.Generation != 0 || m.DeletionTimestamp != nil ||
		m.DeletionGracePeriodSeconds != nil || m.Labels != nil || m.Annotations != nil ||
		m.OwnerReferences != nil || m.Finalizers != nil || e.Series != nil || e.Related != nil {
		return nil, false
	}
	in := &e.InvolvedObject
	f := &frozenEvent{managedFields: m.ManagedFields, involvedName: in.Name, message: e.Message, count: e.Count}
	switch e.TypeMeta {
	case api.TypeMeta{APIVersion: "v1", Kind: api.KindEvent.Name}:
		f.flags |= frozenTypeMeta
	case api.TypeMeta{}:
	default:
		return nil, false
	}
	var ok [11]bool
	f.uid, ok[0] = freezeUID(m.UID)
	f.rv, ok[1] = freezeDecimal(m.ResourceVersion)
	x := frozenExtra{action: e.Action}
	var inUID bool
	switch {
	case in.UID == "":
		f.flags |= frozenInvolvedUIDEmpty
	case string(in.UID) == in.Name:
		// A kubelet's reference to its Node: the uid is the node's name.
		f.flags |= frozenInvolvedUIDName
	default:
		if f.involvedUID, inUID = freezeUID(in.UID); !inUID {
			f.flags |= frozenInvolvedUIDExtra
			x.involvedUID = in.UID
		}
	}
	if in.ResourceVersion == "" {
		f.flags |= frozenInvolvedRVEmpty
		ok[2] = true
	} else {
		f.involvedRV, ok[2] = freezeDecimal(in.ResourceVersion)
	}
	f.involvedKind, ok[3] = w.idAt(recentKind, in.Kind)
	f.involvedNamespace, ok[4] = w.idAt(recentNamespace, in.Namespace)
	f.involvedAPIVersion, ok[5] = w.idAt(recentAPIVersion, in.APIVersion)
	f.fieldPath, ok[6] = w.idAt(recentFieldPath, in.FieldPath)
	f.reason, ok[7] = w.idAt(recentReason, e.Reason)
	f.typ, ok[8] = w.idAt(recentType, e.Type)
	f.component, ok[9] = w.idAt(recentComponent, e.Source.Component)
	f.host, ok[10] = w.id(e.Source.Host)
	var derived bool
	if f.nameSuffix, derived = eventNameSuffix(m.Name, in.Name); !derived {
		f.flags |= frozenNameExtra
		x.name = m.Name
	}
	if ok != [11]bool{true, true, true, true, true, true, true, true, true, true, true} {
		return nil, false
	}
	if m.Namespace == in.Namespace {
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
	var tok [4]bool
	f.created, tok[0] = freezeTime(m.CreationTimestamp.Time, &f.flags, frozenCreatedZero)
	f.first, tok[1] = freezeTime(e.FirstTimestamp.Time, &f.flags, frozenFirstZero)
	f.last, tok[2] = freezeTime(e.LastTimestamp.Time, &f.flags, frozenLastZero)
	x.eventTime, tok[3] = freezeTime(e.EventTime.Time, &f.flags, frozenEventTimeZero)
	if tok != [4]bool{true, true, true, true} {
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

// thaw returns a new api.Event equal to the one frozen with w's words.
func (f *frozenEvent) thaw(w *frozenWords) *api.Event {
	var x frozenExtra
	if f.extra != nil {
		x = *f.extra
	}
	e := &api.Event{
		ObjectMeta: api.ObjectMeta{Name: x.name, Namespace: x.namespace, UID: formatUID(f.uid), ResourceVersion: strconv.FormatUint(f.rv, 10),
			CreationTimestamp: api.Time{Time: thawTime(f.created, f.flags, frozenCreatedZero)}, ManagedFields: f.managedFields},
		InvolvedObject: api.ObjectReference{Kind: w.words[f.involvedKind], Namespace: w.words[f.involvedNamespace], Name: f.involvedName,
			APIVersion: w.words[f.involvedAPIVersion], FieldPath: w.words[f.fieldPath]},
		Reason:              w.words[f.reason],
		Message:             f.message,
		Source:              api.EventSource{Component: w.words[f.component], Host: w.words[f.host]},
		FirstTimestamp:      api.Time{Time: thawTime(f.first, f.flags, frozenFirstZero)},
		LastTimestamp:       api.Time{Time: thawTime(f.last, f.flags, frozenLastZero)},
		Count:               f.count,
		Type:                w.words[f.typ],
		EventTime:           api.MicroTime{Time: thawTime(x.eventTime, f.flags, frozenEventTimeZero)},
		Action:              x.action,
		ReportingController: x.controller,
		ReportingInstance:   x.instance,
	}
	if f.flags&frozenNameExtra == 0 {
		e.Name = api.EventName(f.involvedName, f.nameSuffix)
	}
	switch {
	case f.flags&frozenInvolvedUIDEmpty != 0:
	case f.flags&frozenInvolvedUIDName != 0:
		e.InvolvedObject.UID = api.UID(f.involvedName)
	case f.flags&frozenInvolvedUIDExtra != 0:
		e.InvolvedObject.UID = x.involvedUID
	default:
		e.InvolvedObject.UID = formatUID(f.involvedUID)
	}
	if f.flags&frozenInvolvedRVEmpty == 0 {
		e.InvolvedObject.ResourceVersion = strconv.FormatUint(f.involvedRV, 10)
	}
	if f.flags&frozenTypeMeta != 0 {
		e.TypeMeta = api.TypeMeta{APIVersion: "v1", Kind: api.KindEvent.Name}
	}
	if f.flags&frozenNamespaceSame != 0 {
		e.Namespace = e.InvolvedObject.Namespace
	}
	if f.flags&frozenControllerSame != 0 {
		e.ReportingController = e.Source.Component
	}
	if f.flags&frozenInstanceSame != 0 {
		e.ReportingInstance = e.Source.Host
	}
	return e
}

// storedObject is a table's value: the object as written, or an Event
// frozen (obj nil), the object's slot number (see slotNumbers) and the
// number of the lease it is attached to (see leases; 0 for none), which
// fills what would be padding.
type storedObject struct {
	obj    api.Object
	frozen *frozenEvent
	slot   uint32
	lease  uint32
}

// storeObject returns what t keeps for o under slot, attached to lease:
// Events frozen when they can be.
func (t *table) storeObject(o api.Object, slot, lease uint32) storedObject {
	if e, ok := o.(*api.Event); ok {
		if t.words == nil {
			t.words = new(frozenWords)
		}
		if f, ok := t.words.freeze(e); ok {
			return storedObject{frozen: f, slot: slot, lease: lease}
		}
	}
	return storedObject{obj: o, slot: slot, lease: lease}
}

// get returns the object stored under key (see lookup).
func (t *table) get(key api.Key) (api.Object, bool) {
	o, _, ok := t.lookup(key)
	return o, ok
}

// lookup returns the object stored under key and its slot number: the
// object shared when kept as written, a new thawed Event when frozen.
func (t *table) lookup(key api.Key) (o api.Object, slot uint32, ok bool) {
	v, ok := t.objs[key]
	if !ok {
		return nil, 0, false
	}
	if v.frozen != nil {
		return v.frozen.thaw(t.words), v.slot, true
	}
	return v.obj, v.slot, true
}
