package store

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
)

// DefaultEventTTL is how long the API server keeps an Event after its
// last write: kube-apiserver's --event-ttl default (its registry's
// TTLFunc gives every create and update of an Event this time to live,
// k/k pkg/registry/core/event/storage/storage.go).
const DefaultEventTTL = time.Hour

// The API server's etcd lease manager (kubernetes/apiserver
// pkg/storage/etcd3/lease_manager.go) and etcd's lessor, with their
// defaults.
const (
	// LeaseReuseDurationSeconds caps how long a granted lease is handed
	// to further writes (--lease-reuse-duration-seconds, default 60).
	LeaseReuseDurationSeconds = 60
	// LeaseReuseDurationPercent is the share of the TTL a lease is
	// reused for when that is shorter (0.05).
	LeaseReuseDurationPercent = 0.05
	// LeaseMaxObjectCount is how many writes one lease is handed to
	// before the next gets a new one (1000).
	LeaseMaxObjectCount = 1000
	// MinLeaseTTLSeconds is the shortest lease etcd grants: a shorter
	// one is lengthened to it. etcd computes it as 1.5 election ticks
	// of heartbeats rounded up to whole seconds; with its defaults
	// (--heartbeat-interval 100ms, --election-timeout 1000ms: 10
	// ticks) that is ceil(1.5s) = 2s (etcd server/etcdserver/server.go,
	// server/lease/lessor.go Grant).
	MinLeaseTTLSeconds = 2
)

// leaseReuseSeconds is the lease manager's getReuseDurationSecondsLocked
// for ttl seconds: the smaller of LeaseReuseDurationPercent of ttl
// (truncated, with the same float arithmetic) and
// LeaseReuseDurationSeconds.
func leaseReuseSeconds(ttl int64) int64 {
	return min(int64(LeaseReuseDurationPercent*float64(ttl)), LeaseReuseDurationSeconds)
}

// leases are the etcd leases of a kind whose objects have a time to live
// (Events): the API server's lease manager, which hands each write the
// lease it granted last while that one is fresh enough, and the leases
// granted and not yet expired, whose expiry removes the objects still
// attached to them.
//
// A write costs a counter and a comparison, and attaches its object by
// setting the lease's number in the object's table entry: nothing is
// queued per write. A created object's key is listed under its lease;
// when a lease expires, each key listed under it is looked at once: an
// object still attached to it expires, one written since (attached to
// a later lease) is listed under that lease instead, and one gone (or
// detached) is dropped. So a key is listed once however often its
// object is written (an Event's count++ patches), and one kernel event
// is pending at a time: the oldest live lease's expiry.
type leases struct {
	t *table
	// ttl is the registry's TTL in whole seconds (the flag's duration
	// truncated, as kube-apiserver's uint64(EventTTL.Seconds()) does);
	// reuse is leaseReuseSeconds(ttl).
	ttl, reuse int64
	// prevID, prevExpiry and attached are the lease manager's state: the
	// last lease granted, the expiry it reckons for it (grant + ttl +
	// reuse, before etcd's minimum), and the writes it has been given
	// to, failed ones included.
	prevID     uint32
	prevExpiry kernel.Time
	attached   int64
	// nextID numbers the leases from 1 (0 is "no lease"): one per
	// instant of a grant at most, so that even a thousand grants a
	// virtual second (a TTL under 20s, which reuses no lease, at
	// thousands of nodes) leave the numbers 49 virtual days.
	nextID uint32
	// live are the leases granted and not yet expired, in the order
	// granted, which is also the order they expire in (all have the
	// same TTL), their numbers consecutive.
	live []lease
	// pending is whether a kernel event is scheduled for live[0].
	pending bool
	// spare are emptied key lists, for the next leases.
	spare [][]api.Key
	// due is reused by revoke for the keys expiring.
	due []api.Key
	// expired counts the objects removed by expiry.
	expired uint64
}

// lease is one granted etcd lease.
type lease struct {
	id uint32
	// expiry is etcd's: the grant's instant plus the granted TTL
	// (ttl + reuse seconds, at least MinLeaseTTLSeconds).
	expiry kernel.Time
	// keys are the keys listed under the lease (see leases); some may
	// since have been written again, deleted, or listed twice.
	keys []api.Key
}

// newLeases returns the leases of table t whose objects live ttl after
// each write.
func newLeases(t *table, ttl time.Duration) *leases {
	secs := int64(ttl / time.Second)
	return &leases{t: t, ttl: secs, reuse: leaseReuseSeconds(secs)}
}

// get is the lease manager's GetLease at now: the lease a write made now
// attaches its object to. The previous lease is reused while a lease of
// ttl from now would expire before it (valid), no more than reuse
// seconds before it (sufficient), and it has been given to no more than
// LeaseMaxObjectCount writes; otherwise a new lease of ttl + reuse
// seconds is granted. So an object expires more than ttl and at most
// ttl + reuse seconds after its last write.
func (l *leases) get(now kernel.Time) uint32 {
	ttl := time.Duration(l.ttl) * time.Second
	valid := now.Add(ttl) < l.prevExpiry
	sufficient := now.Add(ttl+time.Duration(l.reuse)*time.Second) > l.prevExpiry
	l.attached++
	if valid && sufficient && l.attached <= LeaseMaxObjectCount {
		return l.prevID
	}
	granted := l.ttl + l.reuse
	l.prevID = l.grant(now.Add(time.Duration(max(granted, MinLeaseTTLSeconds)) * time.Second))
	l.prevExpiry = now.Add(time.Duration(granted) * time.Second)
	l.attached = 1
	return l.prevID
}

// grant returns a new live lease expiring at expiry. A lease granted at
// the instant of the last one expires with it, and is kept as the same:
// the lease manager grants one for every write at the instant of its
// last grant (its lease is not "sufficient": not strictly later than
// the expiry it would ask for), which happens only at one virtual
// instant; their objects expire together either way.
func (l *leases) grant(expiry kernel.Time) uint32 {
	if n := len(l.live); n > 0 && l.live[n-1].expiry == expiry {
		return l.live[n-1].id
	}
	l.nextID++
	var keys []api.Key
	if n := len(l.spare); n > 0 {
		keys, l.spare = l.spare[n-1], l.spare[:n-1]
	}
	l.live = append(l.live, lease{id: l.nextID, expiry: expiry, keys: keys})
	l.schedule()
	return l.nextID
}

// schedule arranges for Fire at the oldest live lease's expiry, unless
// that is arranged already.
func (l *leases) schedule() {
	if l.pending || len(l.live) == 0 {
		return
	}
	l.pending = true
	l.t.s.k.Schedule(l.live[0].expiry, l, 0)
}

// list lists key under the live lease id.
func (l *leases) list(id uint32, key api.Key) {
	i := int(id - l.live[0].id)
	if id < l.live[0].id || i >= len(l.live) {
		panic(fmt.Sprintf("store invariant lease-live: lease %d of %s is not live (live: %d to %d)", id, key, l.live[0].id, l.live[len(l.live)-1].id))
	}
	l.live[i].keys = append(l.live[i].keys, key)
}

// Fire expires every lease whose expiry has come, oldest first, and
// schedules the next.
func (l *leases) Fire(k *kernel.Kernel, _ uint64) {
	l.pending = false
	for len(l.live) > 0 && l.live[0].expiry <= k.Now() {
		l.revoke()
	}
	l.schedule()
}

// revoke expires the oldest live lease: its objects leave the store in
// the order of their etcd keys, as etcd's lessor deletes them (Revoke
// sorts the keys).
func (l *leases) revoke() {
	first := l.live[0]
	t := l.t
	due := l.due[:0]
	for _, key := range first.keys {
		switch v, ok := t.objs[key]; {
		case !ok || v.lease == 0:
		case v.lease == first.id:
			due = append(due, key)
		default:
			l.list(v.lease, key)
		}
	}
	slices.SortFunc(due, compareEtcdKeys)
	due = slices.Compact(due)
	for _, key := range due {
		t.expire(key, first.id)
	}
	clear(due)
	l.due = due[:0]
	clear(first.keys)
	l.spare = append(l.spare, first.keys[:0])
	l.live = l.live[:copy(l.live, l.live[1:])]
}

// compareEtcdKeys orders keys as etcd orders theirs,
// /registry/<resource>/<namespace>/<name>: by namespace then name, a
// namespace before one it prefixes only when the next byte of the
// longer sorts after '/'.
func compareEtcdKeys(a, b api.Key) int {
	if a.Namespace == b.Namespace {
		return strings.Compare(a.Name, b.Name)
	}
	n := min(len(a.Namespace), len(b.Namespace))
	if a.Namespace[:n] != b.Namespace[:n] {
		return strings.Compare(a.Namespace, b.Namespace)
	}
	// One namespace prefixes the other: the shorter's key has '/'
	// where the longer's has its next byte.
	if len(a.Namespace) < len(b.Namespace) {
		return int('/') - int(b.Namespace[n])
	}
	return int(a.Namespace[n]) - int('/')
}

// expire removes the object under key if it is still attached to lease
// id: etcd's deletion, not a request. Watchers see it Deleted with its
// last state at a resourceVersion of its own (etcd deletes a lease's
// keys in one transaction, at one revision; the store gives each its
// own, the next of its sequence, so that a watcher taking a repeated
// resourceVersion for a duplicate, as the informers do, misses none).
// The audit log records nothing: no client wrote.
func (t *table) expire(key api.Key, id uint32) {
	v, ok := t.objs[key]
	if !ok || v.lease != id {
		return
	}
	var obj api.Object
	if v.frozen != nil {
		obj = v.frozen.thaw(t.words)
	} else {
		obj = v.obj.DeepCopyObject()
	}
	s := t.s
	rv := s.nextRV()
	obj.GetObjectMeta().ResourceVersion = strconv.FormatUint(rv, 10)
	delete(t.objs, key)
	t.numbers.give(v.slot)
	t.sorted = false
	t.leases.expired++
	s.notify(t, Deleted, nil, obj, rv, v.slot)
}

// leaseFor returns the lease a write of key made now attaches its object
// to (0 when the kind has no time to live), and lists the key under it
// when the object so far had no lease (created, or detached by a
// write without one).
func (t *table) leaseFor(key api.Key) uint32 {
	l := t.leases
	if l == nil {
		return 0
	}
	id := l.get(t.s.k.Now())
	if t.objs[key].lease == 0 {
		l.list(id, key)
	}
	return id
}

// leaseAttempt counts a write that asked for a lease and failed in
// storage (a create of a name that exists: the API server's storage asks
// for the lease before its transaction finds the key taken).
func (t *table) leaseAttempt() {
	if l := t.leases; l != nil {
		l.get(t.s.k.Now())
	}
}

// SetTTL gives every object of kind that is created or updated from now
// a time to live of ttl after that write, as the API server's registry
// does for Events (DefaultEventTTL): the write attaches it to an etcd
// lease (see leases), and the lease's expiry removes it. ttl is
// truncated to whole seconds; 0 (as kube-apiserver's --event-ttl=0)
// means objects never expire. A write that gives no lease (a delete
// that only marks the object, as the API server's storage does) detaches
// the object: it stays until written again. Call it before the kind's
// first write; it panics once leases have been granted under another
// TTL.
func (s *Store) SetTTL(kind api.Kind, ttl time.Duration) {
	if s.ttls == nil {
		s.ttls = make(map[api.Kind]time.Duration)
	}
	s.ttls[kind] = ttl
	if t, ok := s.tables[kind]; ok {
		t.setTTL(ttl)
	}
}

// setTTL sets the table's leases for ttl.
func (t *table) setTTL(ttl time.Duration) {
	if l := t.leases; l != nil && l.nextID != 0 {
		if l.ttl == int64(ttl/time.Second) {
			return
		}
		panic(fmt.Sprintf("store invariant ttl-once: %s's TTL set to %v after leases of %ds were granted", t.info.Kind, ttl, l.ttl))
	}
	t.leases = nil
	if ttl >= time.Second {
		t.leases = newLeases(t, ttl)
	}
}

// Expired returns how many objects of kind their time to live has
// removed (see SetTTL).
func (s *Store) Expired(kind api.Kind) uint64 {
	if t, ok := s.tables[kind]; ok && t.leases != nil {
		return t.leases.expired
	}
	return 0
}
