package kubelet

import (
	"cmp"
	"errors"
	"slices"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/netsim"
	"github.com/clustersim/clustersim/sim/store"
)

// The kubelet's pod source is a reflector without a process: a list of
// the pods bound to its node (field selector spec.nodeName), then a watch
// from the list's resourceVersion, both indexed by node at the store. A
// watch that breaks is reopened from the last resourceVersion after a
// back-off; one refused as Expired, or refused for good, starts over with
// a list.

// podRequest returns a list or watch request for the node's pods.
func (k *Kubelet) podRequest(verb apiserver.Verb) *apiserver.Request {
	req := &apiserver.Request{Verb: verb, Kind: api.KindPod}
	req.ListOptions.NodeName = k.cfg.NodeName
	return req
}

// list lists the node's pods.
func (k *Kubelet) list() {
	k.endWatch()
	k.listTok = k.next()
	k.call(k.podRequest(apiserver.List), opList, noContainer, 0, k.listTok)
}

func (k *Kubelet) listDone(r *apiserver.Response, err error) {
	k.listTok = 0
	if err != nil {
		k.reflectorBackoff(true)
		return
	}
	k.stats.Lists++
	k.replace(r.Items)
	k.lastRV = r.ResourceVersion
	k.startWatch()
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
		k.podChanged(p)
	}
}

// startWatch watches the node's pods from the last resourceVersion.
func (k *Kubelet) startWatch() {
	k.endWatch()
	w := &podWatch{k: k, tok: k.next()}
	k.watch = w
	req := k.podRequest(apiserver.Watch)
	req.ResourceVersion = k.lastRV
	req.WatchReceiver = w
	k.call(req, opWatch, noContainer, 0, w.tok)
}

// endWatch stops the current watch, if any; its stream is stopped and its
// last callbacks are ignored.
func (k *Kubelet) endWatch() {
	if w := k.watch; w != nil {
		k.watch = nil
		w.abandon()
	}
}

// watchDone handles the reply to a watch request. Events that came on the
// stream before the reply were applied already.
func (k *Kubelet) watchDone(w *podWatch, r *apiserver.Response, netErr, err error) {
	if err != nil {
		k.watch = nil
		w.abandon()
		switch {
		case errors.Is(err, apierr.ErrExpired):
			k.list()
		case netErr != nil || errors.Is(err, apierr.ErrServiceUnavailable):
			k.reflectorBackoff(false)
		default:
			k.reflectorBackoff(true)
		}
		return
	}
	k.stats.Watches++
	w.replied = true
	switch {
	case w.stream == nil:
		w.stream = r.Stream
	case r.Stream != nil && r.Stream != w.stream:
		r.Stream.Stop() // a duplicate request's stream spoke first: keep that one
	}
	if w.done {
		// The stream ended before the reply came.
		k.watchEnded(w)
	}
}

// watchEnded reopens a watch whose stream ended: at once when the server
// closed it, after a back-off when it broke.
func (k *Kubelet) watchEnded(w *podWatch) {
	if k.watch != w {
		return
	}
	k.watch = nil
	if w.broken {
		k.stats.WatchBreaks++
		k.reflectorBackoff(false)
		return
	}
	k.startWatch()
}

// watchEvent applies one watch event.
func (k *Kubelet) watchEvent(e store.Event) {
	if e.ResourceVersion <= k.lastRV {
		return
	}
	k.lastRV = e.ResourceVersion
	p, ok := e.Object.(*api.Pod)
	if !ok {
		return
	}
	if e.Type == store.Deleted {
		if ps := k.byKey[p.Key()]; ps != nil && ps.uid == p.UID {
			k.drop(ps)
		}
		return
	}
	k.podChanged(p)
}

// podWatch is the client end of one pod watch stream.
type podWatch struct {
	k       *Kubelet
	tok     uint32
	stream  *netsim.Stream
	dead    bool // abandoned by the kubelet
	replied bool // the server accepted the watch
	done    bool // the stream ended
	broken  bool // it ended broken rather than closed by the server
}

var _ netsim.StreamReceiver = (*podWatch)(nil)

func (w *podWatch) abandon() {
	w.dead = true
	if w.stream != nil {
		w.stream.Stop()
	}
}

// live reports whether the watch still feeds the kubelet.
func (w *podWatch) live() bool { return !w.dead && w.k.running && w.k.watch == w }

// Receive applies a stream message. Only the first stream seen is the
// watch's: a duplicated request opens a second one, which is stopped.
func (w *podWatch) Receive(m *netsim.Message) {
	if w.stream == nil {
		w.stream = m.Stream
	}
	if !w.live() || w.done || m.Stream != w.stream {
		m.Stream.Stop()
		return
	}
	if e, ok := m.Payload.(store.Event); ok {
		w.k.watchEvent(e)
	}
}

// Closed notes the end of the watch's stream.
func (w *podWatch) Closed(s *netsim.Stream, err error) {
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
