package gap

import (
	"maps"

	"github.com/clustersim/clustersim/sim/api"
)

// serviceState is what a Service's gap is measured from, kept as pods and
// its Endpoints change rather than recomputed from every pod at each
// measure: the pods it selects (non-terminating, in its namespace, its
// selector matching their labels), the IPs of those ready, the addresses
// of its Endpoints object, and how many of each the other lacks. A
// Service is measured after every instant that changed a pod of its
// namespace, and recomputing walked every pod of the cluster each time
// (300 nodes with ten Services ran 491 s instead of 2.5).
type serviceState struct {
	// selector is the Service's spec.selector (nil: no Service, or one
	// without a selector, selecting nothing here); sel matches it.
	selector map[string]string
	sel      api.Selector
	// members are the selected pods: their ready IP, "" when not ready
	// or without an IP.
	members map[api.Key]string
	// want counts the members of each ready IP; have is the Endpoints'
	// addresses.
	want map[string]int
	have map[string]bool
	// missing is how many IPs of want have lacks, stale how many of have
	// want lacks.
	missing, stale int
}

// service returns the state of the Service under key, made on first use.
func (t *Tracker) service(key api.Key) *serviceState {
	ns := t.services[key.Namespace]
	if ns == nil {
		ns = map[string]*serviceState{}
		t.services[key.Namespace] = ns
	}
	s := ns[key.Name]
	if s == nil {
		s = &serviceState{members: map[api.Key]string{}, want: map[string]int{}, have: map[string]bool{}}
		ns[key.Name] = s
	}
	return s
}

// forget drops key's state once it selects nothing and no Endpoints of
// that name is left (whose addresses it would hold).
func (t *Tracker) forget(key api.Key, s *serviceState) {
	if s.selector != nil {
		return
	}
	if _, ok := t.objs[api.KindEndpoints][key]; ok {
		return
	}
	delete(t.services[key.Namespace], key.Name)
	if len(t.services[key.Namespace]) == 0 {
		delete(t.services, key.Namespace)
	}
}

// serviceChanged takes a Service's write (svc nil: deleted): a new
// selector selects its pods again from every pod of the namespace.
func (t *Tracker) serviceChanged(key api.Key, svc *api.Service) {
	var selector map[string]string
	if svc != nil {
		selector = svc.Spec.Selector
	}
	s := t.services[key.Namespace][key.Name]
	if s == nil && selector == nil {
		return
	}
	if s != nil && (selector == nil) == (s.selector == nil) && maps.Equal(selector, s.selector) {
		return
	}
	s = t.service(key)
	for k, ip := range s.members {
		s.leave(k, ip)
	}
	s.selector, s.sel = selector, api.Selector{}
	if selector != nil {
		s.sel = api.SelectorFromSet(selector)
		for k, o := range t.objs[api.KindPod] {
			if k.Namespace == key.Namespace {
				s.podChanged(k, o)
			}
		}
	}
	t.forget(key, s)
}

// endpointsChanged takes an Endpoints write (ep nil: deleted).
func (t *Tracker) endpointsChanged(key api.Key, ep *api.Endpoints) {
	s := t.services[key.Namespace][key.Name]
	if s == nil && ep == nil {
		return
	}
	s = t.service(key)
	clear(s.have)
	if ep != nil {
		for _, ss := range ep.Subsets {
			for _, a := range ss.Addresses {
				s.have[a.IP] = true
			}
		}
	}
	s.missing, s.stale = 0, 0
	for ip := range s.want {
		if !s.have[ip] {
			s.missing++
		}
	}
	for ip := range s.have {
		if s.want[ip] == 0 {
			s.stale++
		}
	}
	t.forget(key, s)
}

// podChanged takes a pod's write (o nil: deleted) for every Service of
// its namespace.
func (t *Tracker) podChanged(key api.Key, o api.Object) {
	for _, s := range t.services[key.Namespace] {
		s.podChanged(key, o)
	}
}

// podChanged moves the pod under key (o nil: deleted) in or out of the
// Service's members and its ready IP in or out of want.
func (s *serviceState) podChanged(key api.Key, o api.Object) {
	old, was := s.members[key]
	p, _ := o.(*api.Pod)
	if p == nil || s.selector == nil || p.DeletionTimestamp != nil || !s.sel.Matches(p.Labels) {
		if was {
			s.leave(key, old)
		}
		return
	}
	ip := ""
	if p.Status.PodIP != "" && api.IsPodReady(p) {
		ip = p.Status.PodIP
	}
	if was {
		if ip == old {
			return
		}
		s.leave(key, old)
	}
	s.members[key] = ip
	if ip != "" {
		if s.want[ip]++; s.want[ip] == 1 {
			if s.have[ip] {
				s.stale--
			} else {
				s.missing++
			}
		}
	}
}

// leave takes the member under key, whose ready IP was ip, out.
func (s *serviceState) leave(key api.Key, ip string) {
	delete(s.members, key)
	if ip == "" {
		return
	}
	if s.want[ip]--; s.want[ip] == 0 {
		delete(s.want, ip)
		if s.have[ip] {
			s.stale++
		} else {
			s.missing--
		}
	}
}
