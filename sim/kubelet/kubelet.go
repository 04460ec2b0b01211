package kubelet

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/flowcontrol"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/netsim"
)

// kind tags what a timer or a call completion is about. Timers and calls
// carry (kind, container index, pod slot, token) packed in one uint64, so
// that the kubelet schedules and calls without allocating closures; a
// token that no longer matches the current one marks a stale event.
type kind uint8

const (
	// Calls.
	opRegister kind = iota + 1
	opNodeStatus
	opNodeGet
	opLeaseCreate
	opLeaseGet
	opLeaseUpdate
	opList
	opWatch
	opEvent
	opPodStatus
	opPodDelete
	// Kubelet timers.
	tRegister
	tNodeStatus
	tLease
	tReflector
	tEvent
	tPull
	// tPaced sends the head of a paced queue (its slot: pacedAPI or
	// pacedEvents) once its token is there.
	tPaced
	// Pod timers.
	tSandbox
	tFlush
	tStatusRetry
	tDeleteRetry
	// Container timers.
	tSync
	tCreated
	tExit
	tStop
	// Probe timers, in probeType order: a probe's tick, then the result
	// of one that waited for its timeout.
	tProbeStartup
	tProbeReadiness
	tProbeLiveness
	tProbeDoneStartup
	tProbeDoneReadiness
	tProbeDoneLiveness
)

// noContainer is the container index of pod-level timers and calls.
const noContainer = 0xff

func pack(k kind, cidx uint8, slot uint16, token uint32) uint64 {
	return uint64(k)<<56 | uint64(cidx)<<48 | uint64(slot)<<32 | uint64(token)
}

func unpack(v uint64) (k kind, cidx uint8, slot uint16, token uint32) {
	return kind(v >> 56), uint8(v >> 48), uint16(v >> 32), uint32(v)
}

// Stats count what a kubelet did.
type Stats struct {
	// Registrations counts successful Node creates (or AlreadyExists).
	Registrations uint64
	// NodeStatusPosts counts node status writes that succeeded.
	NodeStatusPosts uint64
	// Renewals counts successful Lease creates and renewals.
	Renewals uint64
	// RenewFailures counts Lease writes that failed or timed out.
	RenewFailures uint64
	// Lists and Watches count pod lists and watches the server accepted.
	Lists, Watches uint64
	// WatchBreaks counts pod watches that ended other than by the kubelet
	// (the node lister's lists, watches and breaks are not counted).
	WatchBreaks uint64
	// PodStatusWrites counts pod status writes that succeeded;
	// PodStatusFailures those that failed or timed out.
	PodStatusWrites, PodStatusFailures uint64
	// Pulls counts image pulls finished; PullFailures those that failed.
	Pulls, PullFailures uint64
	// Starts counts containers started; Restarts those started again.
	Starts, Restarts uint64
	// Deletes counts pods the kubelet deleted after termination.
	Deletes uint64
	// Rejected counts pods refused at admission.
	Rejected uint64
	// Events counts Events written or aggregated; EventsDropped those
	// given up on; EventsFiltered those the spam filter refused.
	Events, EventsDropped, EventsFiltered uint64
}

// Kubelet is one node's agent: it registers the Node, renews its Lease,
// posts node status, watches the pods bound to its node and runs them
// through a simulated container runtime. It is a set of event callbacks on
// the kernel, not a process: an idle kubelet costs two timers. Everything
// it knows of the cluster came over the network; every request may time
// out without saying whether it took effect, and is retried.
type Kubelet struct {
	// What a timer's firing (timers.Fire, its tokens) and a lease
	// renewal read comes first, in the struct's first two cache lines,
	// which the kernel prefetches while the event before the timer's
	// fires (docs/PERFORMANCE.md, the forty-seventh pass;
	// TestKubeletHotFieldsFirst).
	running   bool
	leaseBusy bool // a lease call in flight
	nodeBusy  bool // a node status post in flight
	pulling   bool
	seq       uint32
	regTok    uint32
	nodeTok   uint32 // the report timer
	leaseTok  uint32 // the renewal timer
	leaseOp   uint32 // the lease call in flight
	pullTok   uint32
	pacedTok  uint32 // the paced clients' timers of this incarnation
	k         *kernel.Kernel
	net       *netsim.Network
	self      *netsim.Endpoint
	server    *netsim.Endpoint
	t         *Timings
	rng       *rand.Rand
	lease     *api.Lease // the lease last seen
	cfg       Config     // NodeName first
	actor     string

	// pacedAPI and pacedEv are the API and event clients' calls waiting
	// for a token.
	pacedAPI, pacedEv pacedQueue

	// node registration and status
	nodeUID    api.UID
	registered bool
	regStep    time.Duration
	nodeOp     uint32 // the post in flight
	// lastNodePost is when the node status was last written, and
	// postedSinceStart whether it was since the last Start.
	lastNodePost     kernel.Time
	postedSinceStart bool
	// nodeTry counts the tries of the status update in progress
	// (tryNodeStatus).
	nodeTry int
	// quietNode is the Node on which the condition setters last found
	// nothing to write (updateNodeStatus).
	quietNode *api.Node
	// condScratch is the status check's buffer for the conditions it
	// computes (setConditionsIn); a write clones what it sends.
	condScratch []api.NodeCondition
	nodeInfo    api.RawValue
	daemonEPs   api.RawValue

	// podRefl lists and watches the node's pods; nodeRefl the Node, for
	// the node lister (nodeCache: the Node it holds, nil if none).
	podRefl, nodeRefl reflector
	nodeCache         *api.Node

	// pods
	slots []*podState
	// hints are, by slot, the store's number for the pod of the state in
	// it (store.Event.Hint; 0 when unknown): a watch event finds its
	// pod's state among these few numbers, where a lookup by name hashed
	// the name in a map of its own for each of thousands of kubelets.
	hints []uint32
	free  []uint16
	byKey map[api.Key]*podState

	ipam         *IPAM
	images       map[string]bool
	pulls        []pullRequest
	pullHead     int
	imageBackoff *Backoff
	crashBackoff *Backoff
	// prevPullErr is the last failed pull's error per image back-off key
	// ("ErrImagePull: <error>"), shown while the pull backs off.
	prevPullErr map[string]string

	ev    recorder
	stats Stats

	// hostIPs is status.hostIPs of the node's pods, one slice they all
	// share (buildStatus).
	hostIPs []api.HostIP
}

// timers is the Kubelet seen as the kernel.Handler of its timers.
type timers Kubelet

// completer is the Kubelet seen as the netsim.Completer of its calls.
type completer Kubelet

var (
	_ kernel.Handler   = (*timers)(nil)
	_ netsim.Completer = (*completer)(nil)
)

// New returns a stopped kubelet for cfg on net, talking to the API server
// at endpoint server from its own endpoint "kubelet/<node>". Start it.
func New(net *netsim.Network, server *netsim.Endpoint, cfg Config) (*Kubelet, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	ipam, err := NewIPAM(cfg.PodCIDR)
	if err != nil {
		return nil, fmt.Errorf("kubelet %s: %w", cfg.NodeName, err)
	}
	k := &Kubelet{
		k:            net.Kernel(),
		net:          net,
		self:         net.Endpoint(netsim.Addr("kubelet/" + cfg.NodeName)),
		server:       server,
		cfg:          cfg,
		actor:        Actor(cfg.NodeName),
		byKey:        map[api.Key]*podState{},
		ipam:         ipam,
		images:       map[string]bool{},
		imageBackoff: NewBackoff(cfg.Timings.ImageBackoffInitial, cfg.Timings.ImageBackoffMax),
		crashBackoff: NewBackoff(cfg.Timings.CrashBackoffInitial, cfg.Timings.CrashBackoffMax),
		prevPullErr:  map[string]string{},
	}
	k.t = &k.cfg.Timings
	k.podRefl = reflector{id: reflPods, src: podSource{k}, counted: true}
	k.nodeRefl = reflector{id: reflNode, src: nodeSource{k}}
	k.rng = k.k.Rand("kubelet/" + cfg.NodeName)
	k.ev.init(k)
	for _, ref := range cfg.Images {
		res, err := cfg.Registry.resolve(ref)
		if err != nil {
			return nil, fmt.Errorf("kubelet %s: pre-pulled image: %w", cfg.NodeName, err)
		}
		k.images[res.name] = true
	}
	k.nodeInfo = api.RawValue(`{"architecture":"amd64","bootID":"","containerRuntimeVersion":"containerd://1.7.27",` +
		`"kernelVersion":"6.8.0","kubeProxyVersion":"","kubeletVersion":"` + api.KubernetesRelease + `","machineID":"",` +
		`"operatingSystem":"linux","osImage":"clustersim","systemUUID":""}`)
	k.daemonEPs = api.RawValue(`{"kubeletEndpoint":{"Port":10250}}`)
	return k, nil
}

// Name returns the node's name.
func (k *Kubelet) Name() string { return k.cfg.NodeName }

// Endpoint returns the kubelet's network endpoint, for faults
// (SetDown, partitions).
func (k *Kubelet) Endpoint() *netsim.Endpoint { return k.self }

// Running reports whether the kubelet is started and not stopped.
func (k *Kubelet) Running() bool { return k.running }

// Stats returns the kubelet's counters.
func (k *Kubelet) Stats() Stats { return k.stats }

// IPs returns how many pod IPs are handed out.
func (k *Kubelet) IPs() int { return k.ipam.InUse() }

// next returns a fresh token.
func (k *Kubelet) next() uint32 {
	k.seq++
	if k.seq == 0 {
		k.seq++
	}
	return k.seq
}

func (k *Kubelet) now() kernel.Time { return k.k.Now() }

// at schedules a timer d from now.
func (k *Kubelet) at(d time.Duration, kd kind, cidx uint8, slot uint16, token uint32) {
	k.k.After(d, (*timers)(k), pack(kd, cidx, slot, token))
}

// call sends req asynchronously as the kubelet's actor: at once, or,
// through a paced client whose bucket has no token, once the token is
// there.
func (k *Kubelet) call(req *apiserver.Request, kd kind, cidx uint8, slot uint16, token uint32) {
	req.Actor = k.actor
	arg := pack(kd, cidx, slot, token)
	if q := k.pacedFor(kd); q != nil && q.bucket != nil {
		wait := q.bucket.Reserve(k.now())
		if k.cfg.Paced != nil {
			k.cfg.Paced(q.id == pacedEvents, wait)
		}
		if wait > 0 {
			q.calls = append(q.calls, pacedCall{req: req, arg: arg})
			k.at(wait, tPaced, noContainer, q.id, k.pacedTok)
			return
		}
	}
	k.net.CallAsync(k.self, k.server, req, k.t.RequestTimeout, (*completer)(k), arg)
}

// The paced queues' ids.
const (
	pacedAPI uint16 = iota
	pacedEvents
)

// pacedQueue holds the calls of one paced client that wait for their
// tokens, in reservation order, which is also the order of their send
// times.
type pacedQueue struct {
	id     uint16
	bucket *flowcontrol.TokenBucket
	calls  []pacedCall
	head   int
}

// pacedCall is a call waiting for its token.
type pacedCall struct {
	req *apiserver.Request
	arg uint64
}

// pacedFor is the paced client a call of kind kd goes through: the event
// client's, the API client's, or none (the heartbeat client's: node
// status, node reads and Lease writes).
func (k *Kubelet) pacedFor(kd kind) *pacedQueue {
	switch kd {
	case opEvent:
		return &k.pacedEv
	case opRegister, opList, opWatch, opPodStatus, opPodDelete:
		return &k.pacedAPI
	}
	return nil
}

// sendPaced sends the head of queue id, whose token is there.
func (k *Kubelet) sendPaced(id uint16) {
	q := &k.pacedAPI
	if id == pacedEvents {
		q = &k.pacedEv
	}
	if q.head >= len(q.calls) {
		return
	}
	c := q.calls[q.head]
	q.calls[q.head] = pacedCall{}
	q.head++
	if q.head == len(q.calls) {
		q.calls, q.head = q.calls[:0], 0
	}
	k.net.CallAsync(k.self, k.server, c.req, k.t.RequestTimeout, (*completer)(k), c.arg)
}

// resetPacing gives a (re)started kubelet full buckets and empty queues:
// a new process has new clients.
func (k *Kubelet) resetPacing() {
	now := k.now()
	for _, q := range []struct {
		q *pacedQueue
		p Pacing
	}{{&k.pacedAPI, k.cfg.KubeAPI}, {&k.pacedEv, k.cfg.Events}} {
		clear(q.q.calls)
		q.q.calls, q.q.head, q.q.bucket = q.q.calls[:0], 0, nil
		if q.p.QPS > 0 {
			q.q.bucket = flowcontrol.NewTokenBucket(q.p.QPS, q.p.Burst, now)
		}
	}
	k.pacedAPI.id, k.pacedEv.id = pacedAPI, pacedEvents
}

// Start starts the kubelet, or restarts it after Stop or Crash: it
// registers the Node (once), posts node status, renews the Lease, and
// lists and watches its pods, resuming the pods it was running. Starting a
// running kubelet does nothing.
func (k *Kubelet) Start() {
	if k.running {
		return
	}
	k.running = true
	k.postedSinceStart, k.nodeCache, k.quietNode = false, nil, nil
	k.lease = nil
	k.leaseBusy, k.nodeBusy = false, false
	// Timers armed before a Stop are stale from here on.
	k.nodeTok, k.podRefl.tok, k.nodeRefl.tok, k.pullTok = k.next(), k.next(), k.next(), k.next()
	k.pacedTok = k.next()
	k.resetPacing()
	k.ev.restart()
	k.ev.emit(&k.ev.node, k.nodeRef(), "", api.EventTypeNormal, "Starting", "Starting kubelet.")
	for _, ps := range k.slots {
		if ps != nil {
			k.resume(ps)
		}
	}
	if k.registered {
		// Upstream registers again (AlreadyExists) with a Node built by
		// initialNode, whose setters record every condition's event.
		_, events := k.nodeObject(k.now())
		k.recordNodeEvents(events)
		k.checkNodeStatus()
	} else {
		k.regStep = 100 * time.Millisecond
		k.register()
	}
	k.renewLease()
	for _, r := range []*reflector{&k.podRefl, &k.nodeRefl} {
		r.delay, r.used = 0, false
		k.list(r)
	}
}

// Recover is Start after a Stop or Crash: the kubelet comes back.
func (k *Kubelet) Recover() { k.Start() }

// Stop makes the kubelet hang or crash while its node keeps running: no
// more Lease renewals, node or pod status, and no pod work; replies and
// watch events that arrive are ignored. Containers keep their state and
// resume at the next Start. The endpoint is left up: take it down with
// Endpoint().SetDown for a node that drops off the network.
func (k *Kubelet) Stop() {
	if !k.running {
		return
	}
	k.running = false
	k.endWatch(&k.podRefl)
	k.endWatch(&k.nodeRefl)
	clear(k.pulls)
	k.pulls, k.pullHead, k.pulling, k.pullTok = k.pulls[:0], 0, false, 0
	k.ev.stop()
}

// Crash is a node crash: Stop, and the container runtime's state is lost
// (images stay on disk). At the next Start the pods bound to the node are
// started again from scratch, with new sandboxes and IPs, and their
// containers' restart counts continue from what the API server shows.
func (k *Kubelet) Crash() {
	k.Stop()
	for _, ps := range k.slots {
		if ps != nil {
			k.drop(ps)
		}
	}
}

// Fire dispatches a timer.
func (t *timers) Fire(_ *kernel.Kernel, arg uint64) {
	k := (*Kubelet)(t)
	if !k.running {
		return
	}
	kd, cidx, slot, token := unpack(arg)
	switch kd {
	case tRegister:
		if token == k.regTok {
			k.register()
		}
	case tNodeStatus:
		if token == k.nodeTok {
			k.checkNodeStatus()
		}
	case tLease:
		if token == k.leaseTok {
			k.renewLease()
		}
	case tReflector:
		if r := k.reflector(slot); token == r.tok {
			if r.relist {
				k.list(r)
			} else {
				k.startWatch(r)
			}
		}
	case tEvent:
		k.ev.fire(token)
	case tPaced:
		if token == k.pacedTok {
			k.sendPaced(slot)
		}
	case tPull:
		if token == k.pullTok && k.pulling {
			k.pullDone()
		}
	default:
		ps := k.slot(slot)
		if ps == nil {
			return
		}
		if cidx == noContainer {
			k.podTimer(ps, kd, token)
		} else if int(cidx) < len(ps.cs) && ps.cs[cidx].tok == token {
			k.containerTimer(ps, int(cidx), kd)
		}
	}
}

// Complete dispatches a call's outcome.
func (c *completer) Complete(tag uint64, resp any, err error) {
	k := (*Kubelet)(c)
	if !k.running {
		return
	}
	kd, _, slot, token := unpack(tag)
	r, _ := resp.(*apiserver.Response)
	if err == nil && r == nil {
		err = fmt.Errorf("unexpected reply %T", resp)
	}
	var apiErr error
	if err != nil {
		apiErr = err
	} else {
		apiErr = r.Err
	}
	switch kd {
	case opRegister:
		if token == k.regTok {
			k.registerDone(r, apiErr)
		}
	case opNodeStatus:
		if token == k.nodeOp {
			k.nodeStatusDone(r, apiErr)
		}
	case opNodeGet:
		if token == k.nodeOp {
			k.nodeGetDone(r, apiErr)
		}
	case opLeaseCreate, opLeaseGet, opLeaseUpdate:
		if token == k.leaseOp {
			k.leaseDone(kd, r, apiErr)
		}
	case opList:
		if rf := k.reflector(slot); token == rf.listTok {
			k.listDone(rf, r, apiErr)
		}
	case opWatch:
		if w := k.reflector(slot).watch; w != nil && token == w.tok {
			k.watchDone(w, r, err, apiErr)
		}
	case opEvent:
		k.ev.done(token, apiErr)
	case opPodStatus:
		if ps := k.slot(slot); ps != nil && ps.stTok == token && ps.inflight {
			if apiErr == nil && r.Object != nil {
				ps.ackedRV = resourceVersion(r.Object)
			}
			k.statusDone(ps, apiErr)
		}
	case opPodDelete:
		if ps := k.slot(slot); ps != nil && ps.delTok == token {
			k.deleteDone(ps, apiErr)
		}
	}
}

// reflectorBackoff waits before r lists (relist) or watches again, with
// client-go's reflector back-off: 800ms doubling to 30s, jittered by up to
// 100%, reset after 2 minutes without trouble.
func (k *Kubelet) reflectorBackoff(r *reflector, relist bool) {
	now := k.now()
	if !r.used || now.Sub(r.last) > 2*time.Minute {
		r.delay = 800 * time.Millisecond
	}
	r.used = true
	r.last = now
	d := r.delay
	r.delay = min(2*r.delay, 30*time.Second)
	d += time.Duration(k.rng.Float64() * float64(d))
	r.relist = relist
	r.tok = k.next()
	k.at(d, tReflector, noContainer, r.id, r.tok)
}

// wallTime returns the API timestamp of a virtual instant, to the second.
func wallTime(t kernel.Time) api.Time { return api.NewTime(t.WallSecond()) }

// resourceVersion parses an object's resourceVersion (0 if it has none).
func resourceVersion(o api.Object) uint64 {
	n, _ := strconv.ParseUint(o.GetObjectMeta().ResourceVersion, 10, 64)
	return n
}
