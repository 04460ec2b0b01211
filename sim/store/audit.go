package store

import (
	"io"
	"iter"
	"strconv"
	"strings"

	"github.com/clustersim/clustersim/sim/addrmemo"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
)

// AuditRecord is one accepted write: when, who, what, and which fields it
// changed. Rejected writes (conflicts, forbidden, invalid) are not
// recorded here; the API server counts them separately.
type AuditRecord struct {
	Time            kernel.Time
	Actor           string
	Verb            string // create, update, patch, delete, or the caller's verb
	Subresource     string // "" or "status"
	Kind            api.Kind
	Key             api.Key
	ResourceVersion uint64 // the object's resourceVersion after the write
	// kept are the leaf fields the write changed (for a create: every
	// field set; resourceVersion and managedFields are never listed),
	// compact: paths and values are indexes into vals (the log's table,
	// or one of the record's own from WithChanges), so that the blocks
	// holding them have no pointers for the garbage collector to follow
	// (a large run keeps tens of millions). Read them with EachChange,
	// Changes or NumChanges.
	kept []keptChange
	vals *valueTable
	// NoOp is true for an update that changed nothing: the store kept the
	// object and its resourceVersion, and sent no watch event.
	NoOp bool
	// Removed is true when the object left the store with this write.
	Removed bool
	// Brief is true for an Event write the log kept without its Changes
	// (AuditLog.BriefEvents): it changed something (it is no no-op), but
	// what is not kept.
	Brief bool
}

// WithChanges returns r carrying a copy of cs as its changes: for
// records built outside a store, such as tests'.
func (r AuditRecord) WithChanges(cs ...Change) AuditRecord {
	r.kept, r.vals = nil, nil
	if len(cs) > 0 {
		r.vals = &valueTable{}
		r.kept = make([]keptChange, len(cs))
		for i, c := range cs {
			r.kept[i] = r.vals.compact(c)
		}
	}
	return r
}

// NumChanges returns how many fields the write changed.
func (r *AuditRecord) NumChanges() int { return len(r.kept) }

// EachChange yields the changes in order, without allocating.
func (r *AuditRecord) EachChange() iter.Seq[Change] {
	l := r.changeList(nil)
	return func(yield func(Change) bool) {
		for i := range l.len() {
			if !yield(l.at(i)) {
				return
			}
		}
	}
}

// Path returns the path of the i-th change (0 <= i < NumChanges).
// Reading a path costs less than reading the change: the few hundred
// paths of a run stay in the cache, where a change's values are spread
// over a table of millions. A reader looking for a field reads paths
// and then only the change it wants (Change).
func (r *AuditRecord) Path(i int) string { return r.changeList(nil).path(i) }

// Change returns the i-th change (0 <= i < NumChanges).
func (r *AuditRecord) Change(i int) Change { return r.changeList(nil).at(i) }

// Field returns the i-th change's path and whether its old and new
// values are set (0 <= i < NumChanges): the change without its values,
// which a reader that needs only some of them reads with Change.
func (r *AuditRecord) Field(i int) (path string, oldSet, newSet bool) {
	return r.changeList(nil).field(i)
}

// Changes returns the changes in a new slice (nil when there are none),
// the caller's to keep; EachChange reads them without allocating.
func (r *AuditRecord) Changes() []Change {
	n := r.NumChanges()
	if n == 0 {
		return nil
	}
	out := make([]Change, 0, n)
	for c := range r.EachChange() {
		out = append(out, c)
	}
	return out
}

// keptChange is a Change as the log keeps it, in 12 bytes: its path and
// values are indexes into the log's valueTable, the path's in the low 30
// bits of pathSet and the flags keptOldSet and keptNewSet in the top two.
// Tens of millions are kept in a large run (every field of every pod
// created), so the four bytes a separate flags field took matter.
type keptChange struct {
	pathSet, old, new uint32
}

const (
	keptOldSet = 1 << 30
	keptNewSet = 1 << 31
	keptPath   = keptOldSet - 1
)

// path returns the index of the change's path.
func (k keptChange) path() uint32 { return k.pathSet & keptPath }

// changeList is a write's changes as the log's hot path reads them: the
// store's scratch (cs) or a record's kept changes, by index. Loops over
// it take no closure: a range over an iter.Seq in appendTo and heartbeat
// moved their variables to the heap, an allocation per write (194 MB of
// the 9.3 GB the 5,000-node probe had allocated when profiled).
type changeList struct {
	cs   []Change
	kept []keptChange
	vals *valueTable
}

// changeList returns cs when the record has no changes of its own, else
// the record's.
func (r *AuditRecord) changeList(cs []Change) changeList {
	if r.vals != nil {
		return changeList{kept: r.kept, vals: r.vals}
	}
	return changeList{cs: cs}
}

func (l changeList) len() int {
	if l.vals != nil {
		return len(l.kept)
	}
	return len(l.cs)
}

func (l changeList) at(i int) Change {
	if l.vals != nil {
		return l.vals.change(l.kept[i])
	}
	return l.cs[i]
}

func (l changeList) field(i int) (path string, oldSet, newSet bool) {
	if l.vals != nil {
		k := l.kept[i]
		return l.vals.str(k.path()), k.pathSet&keptOldSet != 0, k.pathSet&keptNewSet != 0
	}
	c := &l.cs[i]
	return c.Path, c.OldSet, c.NewSet
}

func (l changeList) path(i int) string {
	p, _, _ := l.field(i)
	return p
}

// valueTable interns the paths and values of kept changes: each
// distinct string once, numbered in the order first seen (the empty
// string first). A cluster's writes repeat a few hundred paths and a few
// values ("True", "ClusterFirst", an image) millions of times; the rest
// (names, uids, times) once or a few times each.
type valueTable struct {
	// vals numbers every path and value, "" first.
	vals numbering[string]
	// paths are the ids of the paths alone: far fewer than the values
	// (a kind's fields, and list keys such as container names), so that
	// their lookups stay in the cache while vals grows to millions.
	paths map[string]uint32
	// recentPaths finds a path's id by the path string's address
	// (addrmemo), without hashing it or probing paths: the audit log's
	// differ gives every change of one field the same interned path
	// string. Lookups in paths took 0.28 s of the 3,000-node probe's CPU
	// samples; with the memo pathID takes 0.09 s. (The values gain
	// nothing from one: the strings that repeat are few, and the memo's
	// own cost ate what it saved.)
	recentPaths addrmemo.Memo[uint32]
}

// recentPathSlots are the slots of valueTable.recentPaths: four for each
// of the few hundred paths of a run.
const recentPathSlots = 1024

// pathID is id for a change's path.
func (t *valueTable) pathID(p string) uint32 {
	if i, ok := t.recentPaths.Get(p); ok {
		return i
	}
	i, ok := t.paths[p]
	if !ok {
		i = t.id(p)
		if t.paths == nil {
			t.paths = map[string]uint32{}
		}
		t.paths[p] = i
	}
	t.recentPaths.Grow(recentPathSlots)
	t.recentPaths.Put(p, i)
	return i
}

// id returns s's index, adding s when it is new. The empty string is
// index 0 without a lookup: it is the old value of every change of a
// create, and the table's map, millions of entries in a large run, costs
// a cache miss a lookup.
func (t *valueTable) id(s string) uint32 {
	if len(t.vals.list) == 0 {
		t.vals.id("")
	}
	if s == "" {
		return 0
	}
	return t.vals.id(s)
}

// str returns the string of index i.
func (t *valueTable) str(i uint32) string { return t.vals.list[i] }

// compact returns c as the table keeps it.
func (t *valueTable) compact(c Change) keptChange {
	path := t.pathID(c.Path)
	if path > keptPath {
		panic("store invariant audit-values: a path first seen after 2^30-1 distinct paths and values")
	}
	k := keptChange{pathSet: path, old: t.id(c.Old), new: t.id(c.New)}
	if c.OldSet {
		k.pathSet |= keptOldSet
	}
	if c.NewSet {
		k.pathSet |= keptNewSet
	}
	return k
}

// change returns k as a Change.
func (t *valueTable) change(k keptChange) Change {
	return Change{Path: t.str(k.path()), Old: t.str(k.old), New: t.str(k.new), OldSet: k.pathSet&keptOldSet != 0, NewSet: k.pathSet&keptNewSet != 0}
}

// String renders the record on one line, for traces and debugging.
func (r AuditRecord) String() string { return string(r.AppendTo(nil)) }

// AppendTo appends the record's String form to b and returns the result,
// so that a caller rendering many records reuses one buffer.
func (r *AuditRecord) AppendTo(b []byte) []byte { return r.appendTo(b, r.changeList(nil)) }

// appendTo is AppendTo with the record's changes given apart (the log's
// trace line of a record not kept yet).
func (r *AuditRecord) appendTo(b []byte, changes changeList) []byte {
	b = r.Time.AppendTo(b)
	b = append(b, ' ')
	b = append(b, r.Actor...)
	b = append(b, ' ')
	b = append(b, r.Verb...)
	b = append(b, ' ')
	b = append(b, r.Kind.Name...)
	if r.Subresource != "" {
		b = append(b, '/')
		b = append(b, r.Subresource...)
	}
	b = append(b, ' ')
	if r.Key.Namespace != "" {
		b = append(b, r.Key.Namespace...)
		b = append(b, '/')
	}
	b = append(b, r.Key.Name...)
	b = append(b, " rv="...)
	b = strconv.AppendUint(b, r.ResourceVersion, 10)
	switch {
	case r.NoOp:
		b = append(b, " no-op"...)
	case r.Removed:
		b = append(b, " removed"...)
	}
	for i := range changes.len() {
		c := changes.at(i)
		b = append(b, ' ')
		b = append(b, c.Path...)
		b = append(b, ':')
		if c.OldSet {
			b = appendQuote(b, c.Old)
		} else {
			b = append(b, '-')
		}
		b = append(b, "->"...)
		if c.NewSet {
			b = appendQuote(b, c.New)
		} else {
			b = append(b, '-')
		}
	}
	return b
}

// appendQuote is strconv.AppendQuote, with a fast path for the values
// that need no escape (printable ASCII without quotes or backslashes:
// nearly every value a trace renders), which AppendQuote would copy
// between quotes unchanged.
func appendQuote(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return strconv.AppendQuote(b, s)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// Heartbeat reports whether the record is a heartbeat: a Lease update
// that only renewed it (spec.renewTime, and the generation that follows a
// spec change), or a Node status update that only moved its conditions'
// lastHeartbeatTime. Every node writes one of each every few seconds
// (the kubelet's lease every 10 s, its status when something changed or
// every 5 minutes), and neither gives a controller anything to do.
func (r *AuditRecord) Heartbeat() bool { return r.heartbeat(r.changeList(nil)) }

// heartbeat is Heartbeat with the record's changes given apart.
func (r *AuditRecord) heartbeat(changes changeList) bool {
	n := changes.len()
	if r.NoOp || r.Removed || n == 0 || r.Verb == "create" {
		return false
	}
	switch r.Kind {
	case api.KindLease:
		if r.Subresource != "" {
			return false
		}
		for i := range n {
			if p := changes.path(i); p != "spec.renewTime" && p != "metadata.generation" {
				return false
			}
		}
		return true
	case api.KindNode:
		if r.Subresource != "status" {
			return false
		}
		for i := range n {
			if p := changes.path(i); !strings.HasPrefix(p, "status.conditions[") || !strings.HasSuffix(p, "].lastHeartbeatTime") {
				return false
			}
		}
		return true
	}
	return false
}

// Heartbeats counts the heartbeat writes (AuditRecord.Heartbeat) the log
// counted instead of keeping.
type Heartbeats struct {
	// LeaseRenewals are Lease updates that only renewed the lease.
	LeaseRenewals int
	// NodeStatus are Node status updates that only moved heartbeat times.
	NodeStatus int
}

// Total is the number of heartbeats counted.
func (h Heartbeats) Total() int { return h.LeaseRenewals + h.NodeStatus }

// auditChunk is how many records one block of the log holds. The log
// grows block by block, so appending never copies the records already
// there (a long run keeps millions).
const auditChunk = 4096

// AuditLog is the append-only list of accepted writes, in the order the
// store accepted them. By default it keeps every write in full; with
// CountHeartbeats it counts heartbeats (AuditRecord.Heartbeat) instead of
// keeping them, so that a steady cluster's log does not grow with virtual
// time. Whatever it keeps, every record goes to the trace writer
// (SetTrace) first, so a run's trace does not depend on the policy.
//
// The log keeps each record as an auditEntry, without pointers, and its
// key beside it; readers get AuditRecords built from them. A record
// holds nine pointers (its strings, its changes, its table): at 5,000
// nodes the records were 233 MB of a 2.7 GB live heap that the garbage
// collector walked again and again.
type AuditLog struct {
	// flat is the log's first records gathered in one slice (Flatten),
	// entries and keys the blocks of those kept after, each auditChunk
	// long but the last.
	flat    []AuditRecord
	entries [][]auditEntry
	keys    [][]api.Key
	n       int
	paths   map[string]string // interned change paths: a few hundred repeat

	// words are the records' actors, verbs and subresources, kinds their
	// kinds: a cluster has a few thousand actors (one per kubelet) and a
	// few dozen of the rest.
	words numbering[string]
	kinds numbering[api.Kind]

	countHeartbeats bool
	heartbeats      Heartbeats
	briefEvents     bool
	trace           io.Writer
	line            []byte // reused by add to render the trace line
	scratch         differ // reused by auditChanges: its buffers
	// render is the consumer's memory of rendered renew times, for the
	// lease renewals whose times scratch left to it (consume).
	render differ
	// fastPaths counts the writes a typed fast path diffed (auditChanges)
	// rather than the walk, whose output is the same: the tests' one way
	// to see that a fast path is wired in.
	fastPaths uint64
	// deferred counts the lease renewals whose times add handed to the
	// consumer unrendered (pendingRecord.renew): the tests' way to see
	// that the deferral is wired in, whose output is the same.
	deferred uint64
	// changes are the blocks kept records' changes are copied to,
	// compact: one allocation for many records instead of one each, and
	// no pointers in them; the last is being filled.
	changes [][]keptChange
	// vals interns the kept changes' paths and values. It is an object
	// of its own, not part of the log: the records point to it, and a
	// pointer into the log would keep the whole store alive (every
	// object, and through it the cluster) for as long as any record
	// is read, such as while a report is computed after the run.
	vals *valueTable

	// sink takes the records the store gives add, in batches, to a
	// goroutine of their own (kernel.Sink) that renders and hashes
	// their trace lines and keeps them (consume): about 7% of a
	// 3,000-node run's event loop, which the second processor does
	// beside it. Every field above but paths, scratch, fastPaths and
	// deferred (the store's diff and its counts, on the event loop) is
	// the consumer's between syncs: each method that reads or sets them
	// calls sync first.
	sink *kernel.Sink[auditBatch]
	// latest is the record add was given last (Latest), the event
	// loop's: no sync reads it. add makes sink with the first record,
	// so a log with a sink has a latest.
	latest AuditRecord
}

// auditBatch is records on their way to the log's consumer, each with
// its changes copied out of the store's scratch: the changes of recs[i]
// run from recs[i].from to the next record's from (the last record's to
// the end of changes).
type auditBatch struct {
	recs    []pendingRecord
	changes []Change
}

type pendingRecord struct {
	rec  AuditRecord
	from int
	// renew is a lease renewal's change whose times auditChanges left
	// for the consumer to render (differ.deferRenew): the change of
	// spec.renewTime at renew.at-1 among the record's, with empty Old
	// and New (renew.at 0: none).
	renew deferredRenewal
}

// How many records a batch holds before it is sent, and how many sent
// batches may wait for the consumer: enough to ride out the consumer's
// pauses (a block of changes filled, a table grown), few enough that
// what waits stays within a few megabytes.
const (
	auditBatchRecords = 1024
	auditBatchDepth   = 8
)

func resetAuditBatch(b *auditBatch) {
	clear(b.recs)
	clear(b.changes)
	b.recs, b.changes = b.recs[:0], b.changes[:0]
}

// consumeBatch adds a batch's records to the log, in order.
func (l *AuditLog) consumeBatch(b *auditBatch) {
	for i := range b.recs {
		to := len(b.changes)
		if i+1 < len(b.recs) {
			to = b.recs[i+1].from
		}
		p := &b.recs[i]
		l.consume(p.rec, b.changes[p.from:to], &p.renew)
	}
}

// sync waits until the consumer has added every record given to add so
// far; the log's fields are then the caller's until the next add.
func (l *AuditLog) sync() { l.sink.Sync() }

// Latest returns the record of the write the store accepted last,
// kept or counted, and false before the first. Unlike Len and At it does
// not wait for the log's consumer: a watcher that names the write behind
// each store event (harness's invariants) asks it on every event. Its
// changes are not given (NumChanges is 0).
func (l *AuditLog) Latest() (AuditRecord, bool) {
	r := l.latest
	r.kept, r.vals = nil, nil
	return r, l.sink != nil
}

// Sync waits until every accepted write so far is in the log and its
// line has been written to the trace writer (SetTrace): a reader of the
// trace writer calls it first. The log's own methods sync themselves.
func (l *AuditLog) Sync() { l.sync() }

// auditEntry is a kept record without its key: its strings are numbers
// in the log's tables, its changes a span of one of the log's blocks.
type auditEntry struct {
	time                   kernel.Time
	rv                     uint64
	actor, verb, sub, kind uint32
	block, off, n          uint32 // changes: l.changes[block][off:off+n]
	flags                  uint8
}

const (
	entryNoOp = 1 << iota
	entryRemoved
	entryBrief
)

// changeBlock is how many changes one block of kept changes holds.
const changeBlock = 4096

// keep copies a write's changes into the log's blocks of kept changes
// and returns where they are.
func (l *AuditLog) keep(cs changeList) (block, off uint32) {
	n := cs.len()
	if len(l.changes) == 0 || cap(l.changes[len(l.changes)-1])-len(l.changes[len(l.changes)-1]) < n {
		l.changes = append(l.changes, make([]keptChange, 0, max(changeBlock, n)))
	}
	if l.vals == nil {
		l.vals = &valueTable{}
	}
	b := &l.changes[len(l.changes)-1]
	off = uint32(len(*b))
	for i := range n {
		*b = append(*b, l.vals.compact(cs.at(i)))
	}
	return uint32(len(l.changes) - 1), off
}

// numbering numbers values in the order first seen: the log's actors,
// verbs and subresources (words), its kinds, and its changes' paths and
// values (valueTable).
type numbering[K comparable] struct {
	ids  map[K]uint32
	list []K
}

// id returns k's number, numbering it when new.
func (n *numbering[K]) id(k K) uint32 {
	if id, ok := n.ids[k]; ok {
		return id
	}
	if n.ids == nil {
		n.ids = map[K]uint32{}
	}
	if len(n.list) == 1<<32-1 {
		panic("store invariant audit-values: more than 2^32-1 distinct values numbered")
	}
	id := uint32(len(n.list))
	n.ids[k] = id
	n.list = append(n.list, k)
	return id
}

// record builds the record that e and key keep.
func (l *AuditLog) record(e *auditEntry, key api.Key) AuditRecord {
	r := AuditRecord{Time: e.time, Actor: l.words.list[e.actor], Verb: l.words.list[e.verb], Subresource: l.words.list[e.sub],
		Kind: l.kinds.list[e.kind], Key: key, ResourceVersion: e.rv,
		NoOp: e.flags&entryNoOp != 0, Removed: e.flags&entryRemoved != 0, Brief: e.flags&entryBrief != 0}
	if e.n > 0 {
		end := e.off + e.n
		r.kept, r.vals = l.changes[e.block][e.off:end:end], l.vals
	}
	return r
}

// CountHeartbeats sets whether heartbeat writes are counted (true) or
// kept in full (false, the default) from now on.
func (l *AuditLog) CountHeartbeats(count bool) {
	l.sync()
	l.countHeartbeats = count
}

// BriefEvents sets whether Event writes are kept without their field
// changes (true; AuditRecord.Brief) or in full (false, the default) from
// now on. Their trace lines are whole either way.
func (l *AuditLog) BriefEvents(brief bool) {
	l.sync()
	l.briefEvents = brief
}

// Heartbeats returns the heartbeats counted instead of kept.
func (l *AuditLog) Heartbeats() Heartbeats {
	l.sync()
	return l.heartbeats
}

// Total returns the number of accepted writes: the records kept and the
// heartbeats counted.
func (l *AuditLog) Total() int {
	l.sync()
	return l.n + l.heartbeats.Total()
}

// SetTrace makes the log write every record it is given from now on, kept
// or counted, to w as one line (AuditRecord.String and a newline). Writes
// to w must not fail (a hash, a buffer); nil stops it.
func (l *AuditLog) SetTrace(w io.Writer) {
	l.sync()
	l.trace = w
}

// Flatten gathers the log into one slice and returns it, shared with the
// log, which goes on reading and appending as before: the caller must
// not change it. Each block is let go once read, so a run's end holds
// its records once, not twice (Records would copy them beside the log).
func (l *AuditLog) Flatten() []AuditRecord {
	l.sync()
	if len(l.entries) == 0 {
		return l.flat[:len(l.flat):len(l.flat)]
	}
	out := make([]AuditRecord, 0, l.n)
	out = append(out, l.flat...)
	l.flat = nil
	for i := range l.entries {
		out = l.appendBlock(out, i)
		l.entries[i], l.keys[i] = nil, nil
	}
	l.flat, l.entries, l.keys = out, nil, nil
	return out[:len(out):len(out)]
}

// appendBlock appends the records of the log's i-th block to out.
func (l *AuditLog) appendBlock(out []AuditRecord, i int) []AuditRecord {
	for j := range l.entries[i] {
		out = append(out, l.record(&l.entries[i][j], l.keys[i][j]))
	}
	return out
}

// Records returns a copy of the log as one slice.
func (l *AuditLog) Records() []AuditRecord {
	l.sync()
	out := make([]AuditRecord, 0, l.n)
	out = append(out, l.flat...)
	for i := range l.entries {
		out = l.appendBlock(out, i)
	}
	return out
}

// Each calls fn with every record in order, without copying the log, and
// stops early when fn returns false. The record fn is given is valid
// until fn returns.
func (l *AuditLog) Each(fn func(r *AuditRecord) bool) {
	l.sync()
	for i := range l.flat {
		if !fn(&l.flat[i]) {
			return
		}
	}
	for i, es := range l.entries {
		for j := range es {
			r := l.record(&es[j], l.keys[i][j])
			if !fn(&r) {
				return
			}
		}
	}
}

// At returns the i-th record (0 is the oldest); it must not be changed.
func (l *AuditLog) At(i int) *AuditRecord {
	l.sync()
	if i < len(l.flat) {
		return &l.flat[i]
	}
	i -= len(l.flat)
	r := l.record(&l.entries[i/auditChunk][i%auditChunk], l.keys[i/auditChunk][i%auditChunk])
	return &r
}

// Len returns the number of records kept (At's range); Total counts the
// heartbeats counted too.
func (l *AuditLog) Len() int {
	l.sync()
	return l.n
}

// add takes a record and the changes of its write (the store's scratch,
// which add copies; nil for a record that has its own, from
// WithChanges) and hands them to the log's consumer.
func (l *AuditLog) add(r AuditRecord, changes []Change) {
	l.latest = r
	if l.sink == nil {
		l.sink = kernel.NewSink(auditBatchDepth, l.consumeBatch, resetAuditBatch)
	}
	b := l.sink.Batch()
	from := len(b.changes)
	b.changes = append(b.changes, changes...)
	pr := pendingRecord{rec: r, from: from}
	if d := &l.scratch; d.renew.at != 0 {
		// The renewal auditChanges diffed last (the store adds a
		// write's record right after diffing it, appending to its
		// changes at most): its times go with the change it left
		// unrendered, which these changes hold where it left it.
		if i := d.renew.at - 1; i < len(changes) && unrenderedRenewal(changes[i]) {
			pr.renew = d.renew
			l.deferred++
		}
		d.renew = deferredRenewal{}
	}
	b.recs = append(b.recs, pr)
	if len(b.recs) == auditBatchRecords {
		l.sink.Send()
	}
}

// consume writes a record's trace line and keeps or counts it: the
// consumer's work, in the order add was given the records.
//
// A lease renewal whose times the store left unrendered (renew) has
// them rendered here when the record is traced or kept, not when it is
// only counted: most of a large cluster's writes are such renewals, and
// rendering them here (a cluster's log traces every record, for the
// run's hash) keeps that work off the event loop.
func (l *AuditLog) consume(r AuditRecord, changes []Change, renew *deferredRenewal) {
	each := r.changeList(changes)
	if renew.at != 0 && (l.trace != nil || !l.countHeartbeats || !r.heartbeat(each)) {
		renew.render(&l.render, &changes[renew.at-1])
	}
	if l.trace != nil {
		l.line = append(r.appendTo(l.line[:0], each), '\n')
		if _, err := l.trace.Write(l.line); err != nil {
			panic("store invariant audit-trace: " + err.Error())
		}
	}
	if l.countHeartbeats && r.heartbeat(each) {
		if r.Kind == api.KindLease {
			l.heartbeats.LeaseRenewals++
		} else {
			l.heartbeats.NodeStatus++
		}
		return
	}
	e := auditEntry{time: r.Time, rv: r.ResourceVersion, actor: l.words.id(r.Actor), verb: l.words.id(r.Verb), sub: l.words.id(r.Subresource),
		kind: l.kinds.id(r.Kind)}
	switch {
	case l.briefEvents && r.Kind == api.KindEvent && !r.NoOp:
		e.flags |= entryBrief
	case each.len() > 0:
		// The changes are the batch's copy of auditChanges' scratch, or
		// a table of the record's own: the log keeps a compact copy in
		// its blocks.
		e.block, e.off = l.keep(each)
		e.n = uint32(each.len())
	}
	if r.Brief {
		e.flags |= entryBrief
	}
	if r.NoOp {
		e.flags |= entryNoOp
	}
	if r.Removed {
		e.flags |= entryRemoved
	}
	if len(l.entries) == 0 || len(l.entries[len(l.entries)-1]) == auditChunk {
		l.entries = append(l.entries, make([]auditEntry, 0, auditChunk))
		l.keys = append(l.keys, make([]api.Key, 0, auditChunk))
	}
	last := len(l.entries) - 1
	l.entries[last] = append(l.entries[last], e)
	l.keys[last] = append(l.keys[last], r.Key)
	l.n++
}

// unrenderedRenewal reports whether c is the change of spec.renewTime
// leaseRenewal left for the consumer to render: both sides set, both
// values empty, which no rendered time is ("null" at least).
func unrenderedRenewal(c Change) bool {
	return c.Path == "spec.renewTime" && c.OldSet && c.NewSet && c.Old == "" && c.New == ""
}

// skipInAudit reports whether a changed path is bookkeeping rather than
// content.
func skipInAudit(path string) bool {
	return path == "metadata.resourceVersion" || strings.HasPrefix(path, "metadata.managedFields")
}

// auditChanges diffs old against new for the audit log, with the log's
// interned paths. The changes are the log's scratch: valid until the
// next diff; add copies them into the batch for the consumer.
func (l *AuditLog) auditChanges(old, new api.Object) []Change {
	var oldV any
	if old != nil {
		oldV = old
	}
	if l.paths == nil {
		l.paths = map[string]string{}
	}
	// managedFields are bookkeeping the audit leaves out (skipInAudit):
	// walking them, entry by entry and their field sets rendered, was
	// the most of a lease renewal's diff.
	d := &l.scratch
	d.intern, d.skip, d.audit = l.paths, managedFieldsPath, true
	d.deferRenew, d.renew = true, deferredRenewal{}
	d.out, d.path = d.out[:0], d.path[:0]
	var all []Change
	if a, b, ok := both[api.Lease](old, new); ok && d.leaseRenewal(a, b) {
		all = d.out
		l.fastPaths++
	} else if e, ok := new.(*api.Event); ok && old == nil && d.eventCreate(e) {
		// An Event's create, the most frequent: its fields without
		// the walk (eventCreate declines the Events it does not render).
		all = d.out
		l.fastPaths++
	} else if p, ok := new.(*api.Pod); ok && old == nil && d.podCreate(p) {
		// A pod's create, one a replica: its fields by type, the others
		// through the walk (podCreate).
		all = d.out
		l.fastPaths++
	} else if a, b, ok := both[api.Pod](old, new); ok && d.podStatusUpdate(a, b) {
		// A pod's status write, the most frequent update: its status
		// without the walk (podStatusUpdate declines what it does not
		// render).
		all = d.out
		l.fastPaths++
	} else {
		d.out = d.out[:0]
		all = diffWith(d, oldV, new)
	}
	out := all[:0]
	for _, c := range all {
		if !skipInAudit(c.Path) {
			out = append(out, c)
		}
	}
	clear(all[len(out):])
	d.out = all
	return out
}
