package kubelet

import (
	"cmp"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/netsim"
	"github.com/clustersim/clustersim/sim/store"
)

// The kubelet has two reflectors without a process, each a list and then
// a watch from the list's resourceVersion: its pod source (the pods bound
// to its node, field selector spec.nodeName) and its node lister (its own
// Node, field selector metadata.name), both indexed at the store. A watch
// that breaks is reopened from the last resourceVersion after a back-off;
// one refused as Expired, or refused for good, starts over with a list.
// Each has its own back-off, as each client-go reflector has.

// The reflectors' ids: the slot their calls and timers carry.
const (
	reflPods uint16 = iota
	reflNode
)

// reflector is one list-and-watch loop's state.
type reflector struct {
	id uint16
	// src is what the reflector reflects.
	src reflSource
	// counted is set for the reflector whose lists, watches and watch
	// breaks are the kubelet's Stats: the pod source's (the node
	// lister's are not counted).
	counted bool
	watch   *reflWatch
	lastRV  uint64
	listTok uint32
	// tok marks the back-off timer; delay, last and used are the
	// back-off's state, relist what the timer does.
	tok    uint32
	delay  time.Duration
	last   kernel.Time
	used   bool
	relist bool
}

// reflSource is what one reflector reflects: the request that lists or
// watches it, and what a list and a watch event do with what they bring.
type reflSource interface {
	// request returns a list or watch request.
	request(verb apiserver.Verb) *apiserver.Request
	// listed takes a list's items.
	listed(items []api.Object)
	// event takes one watch event newer than the last.
	event(e store.Event)
}

// podSource is the kubelet's pod source: the pods bound to its node.
type podSource struct{ k *Kubelet }

func (s podSource) request(verb apiserver.Verb) *apiserver.Request {
	req := &apiserver.Request{Verb: verb, Kind: api.KindPod}
	req.ListOptions.NodeName = s.k.cfg.NodeName
	return req
}

func (s podSource) listed(items []api.Object) { s.k.replace(items) }

func (s podSource) event(e store.Event) {
	k := s.k
	p, ok := e.Object.(*api.Pod)
	if !ok {
		return
	}
	hint, prev := e.Hint()
	if e.Type == store.Deleted {
		if ps, _ := k.lookup(p, hint, prev); ps != nil && ps.uid == p.UID {
			k.drop(ps)
		}
		return
	}
	k.podChanged(p, hint, prev)
}

// nodeSource is the node lister's: the kubelet's own Node, held in
// nodeCache.
type nodeSource struct{ k *Kubelet }

func (s nodeSource) request(verb apiserver.Verb) *apiserver.Request {
	req := &apiserver.Request{Verb: verb, Kind: api.KindNode}
	req.ListOptions.Name = s.k.cfg.NodeName
	return req
}

// listed makes the node lister's Node the one listed, or none.
func (s nodeSource) listed(items []api.Object) {
	k := s.k
	k.nodeCache = nil
	for _, o := range items {
		if n, ok := o.(*api.Node); ok && n.Name == k.cfg.NodeName {
			k.nodeCache = n
		}
	}
}

func (s nodeSource) event(e store.Event) {
	if n, ok := e.Object.(*api.Node); ok {
		s.k.nodeCache = n
		if e.Type == store.Deleted {
			s.k.nodeCache = nil
		}
	}
}

// reflector returns the reflector with id.
func (k *Kubelet) reflector(id uint16) *reflector {
	if id == reflNode {
		return &k.nodeRefl
	}
	return &k.podRefl
}

// list lists what r reflects.
func (k *Kubelet) list(r *reflector) {
	k.endWatch(r)
	r.listTok = k.next()
	k.call(r.src.request(apiserver.List), opList, noContainer, r.id, r.listTok)
}

func (k *Kubelet) listDone(r *reflector, resp *apiserver.Response, err error) {
	r.listTok = 0
	if err != nil {
		k.reflectorBackoff(r, true)
		return
	}
	if r.counted {
		k.stats.Lists++
	}
	r.src.listed(resp.Items)
	r.lastRV = resp.ResourceVersion
	k.startWatch(r)
}

// replace makes the kubelet's pods those of a list: pods it knows that
// are gone are dropped, the others are updated or admitted, the new ones
// in creation order (the kubelet admits pods oldest first).
func (k *Kubelet) replace(items []api.Object) {
	listed := make(map[api.Key]api.UID, len(items))
	pods := make([]*api.Pod, 0, len(items))
	for _, o := range items {
		p := o.(*api.Pod)
		listed[p.Key()] = p.UID
		pods = append(pods, p)
	}
	for _, ps := range k.slots {
		if ps != nil {
			if uid, ok := listed[ps.key]; !ok || uid != ps.uid {
				k.drop(ps)
			}
		}
	}
	slices.SortFunc(pods, func(a, b *api.Pod) int {
		return cmp.Or(a.CreationTimestamp.Compare(b.CreationTimestamp.Time),
			strings.Compare(a.Namespace, b.Namespace), strings.Compare(a.Name, b.Name))
	})
	for _, p := range pods {
		k.podChanged(p, 0, nil)
	}
}

// startWatch watches what r reflects from its last resourceVersion.
func (k *Kubelet) startWatch(r *reflector) {
	k.endWatch(r)
	w := &reflWatch{k: k, r: r, tok: k.next()}
	r.watch = w
	req := r.src.request(apiserver.Watch)
	req.ResourceVersion = r.lastRV
	req.WatchReceiver = w
	k.call(req, opWatch, noContainer, r.id, w.tok)
}

// endWatch stops r's current watch, if any; its stream is stopped and its
// last callbacks are ignored.
func (k *Kubelet) endWatch(r *reflector) {
	if w := r.watch; w != nil {
		r.watch = nil
		w.abandon()
	}
}

// watchDone handles the reply to a watch request. Events that came on the
// stream before the reply were applied already.
func (k *Kubelet) watchDone(w *reflWatch, resp *apiserver.Response, netErr, err error) {
	r := w.r
	if err != nil {
		r.watch = nil
		w.abandon()
		switch {
		case errors.Is(err, apierr.ErrExpired):
			k.list(r)
		case netErr != nil || errors.Is(err, apierr.ErrServiceUnavailable):
			k.reflectorBackoff(r, false)
		default:
			k.reflectorBackoff(r, true)
		}
		return
	}
	if r.counted {
		k.stats.Watches++
	}
	w.replied = true
	switch {
	case w.stream == nil:
		w.stream = resp.Stream
	case resp.Stream != nil && resp.Stream != w.stream:
		resp.Stream.Stop() // a duplicate request's stream spoke first: keep that one
	}
	if w.done {
		// The stream ended before the reply came.
		k.watchEnded(w)
	}
}

// watchEnded reopens a watch whose stream ended: at once when the server
// closed it, after a back-off when it broke.
func (k *Kubelet) watchEnded(w *reflWatch) {
	r := w.r
	if r.watch != w {
		return
	}
	r.watch = nil
	if w.broken {
		if r.counted {
			k.stats.WatchBreaks++
		}
		k.reflectorBackoff(r, false)
		return
	}
	k.startWatch(r)
}

// watchEvent applies one watch event.
func (k *Kubelet) watchEvent(r *reflector, e store.Event) {
	if e.ResourceVersion <= r.lastRV {
		return
	}
	r.lastRV = e.ResourceVersion
	r.src.event(e)
}

// reflWatch is the client end of one watch stream.
type reflWatch struct {
	k       *Kubelet
	r       *reflector
	tok     uint32
	stream  *netsim.Stream
	dead    bool // abandoned by the kubelet
	replied bool // the server accepted the watch
	done    bool // the stream ended
	broken  bool // it ended broken rather than closed by the server
}

var _ netsim.StreamReceiver = (*reflWatch)(nil)

func (w *reflWatch) abandon() {
	w.dead = true
	if w.stream != nil {
		w.stream.Stop()
	}
}

// live reports whether the watch still feeds the kubelet.
func (w *reflWatch) live() bool { return !w.dead && w.k.running && w.r.watch == w }

// Receive applies a stream message. Only the first stream seen is the
// watch's: a duplicated request opens a second one, which is stopped.
func (w *reflWatch) Receive(m *netsim.Message) {
	if w.stream == nil {
		w.stream = m.Stream
	}
	if !w.live() || w.done || m.Stream != w.stream {
		m.Stream.Stop()
		return
	}
	if e, ok := m.Payload.(store.Event); ok {
		w.k.watchEvent(w.r, e)
	}
}

// Closed notes the end of the watch's stream.
func (w *reflWatch) Closed(s *netsim.Stream, err error) {
	if w.done || (w.stream != nil && s != w.stream) {
		return
	}
	if w.stream == nil {
		w.stream = s
	}
	w.done = true
	w.broken = err != nil
	// Before the reply, the end is handled when the reply comes.
	if w.live() && w.replied {
		w.k.watchEnded(w)
	}
}
