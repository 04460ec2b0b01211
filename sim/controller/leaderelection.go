package controller

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/kernel"
)

// Leader election defaults of every Kubernetes component
// (k8s.io/component-base/config/v1alpha1 defaults.go,
// RecommendedDefaultLeaderElectionConfiguration): the flags
// --leader-elect-lease-duration, --leader-elect-renew-deadline and
// --leader-elect-retry-period of kube-controller-manager and
// kube-scheduler.
const (
	// DefaultLeaseDuration is how long a candidate waits, from when it
	// last saw the lease change, before it takes the lease over: 15s.
	DefaultLeaseDuration = 15 * time.Second
	// DefaultRenewDeadline is how long the leader keeps retrying to renew
	// before it gives up leading: 10s.
	DefaultRenewDeadline = 10 * time.Second
	// DefaultRetryPeriod is how often the leader renews, and a candidate
	// tries to acquire: 2s.
	DefaultRetryPeriod = 2 * time.Second
	// LeaseNamespace holds the components' leases.
	LeaseNamespace = "kube-system"
)

// LeaderElection makes a manager hold a coordination.k8s.io Lease
// before its controllers run, as client-go's leaderelection package with
// a Lease lock does: a manager that starts only tries to acquire the
// lease (every RetryPeriod, jittered by up to 1.2 times it); once it
// holds it, its informers and controllers start and it renews every
// RetryPeriod; if no renewal succeeds within RenewDeadline it stops
// leading: the manager crashes (kube-controller-manager exits on a lost
// lease, klog "leaderelection lost") and OnLost is told.
type LeaderElection struct {
	// Name is the Lease's name in LeaseNamespace.
	Name string
	// Identity names the holder; the incarnation number is appended
	// ("<Identity>_<n>"), as a restarted process takes a new one.
	Identity string
	// Transport, if set, carries the elector's requests instead of the
	// manager's (upstream's leader election has a client of its own).
	Transport client.Transport
	// Actor, if set, is the user the elector's requests act as instead
	// of the manager's (kube-controller-manager renews as its own user,
	// not as a controller's service account).
	Actor string
	// LeaseDuration, RenewDeadline and RetryPeriod default to 15s, 10s
	// and 2s.
	LeaseDuration, RenewDeadline, RetryPeriod time.Duration
	// OnAcquired, if set, is told when the manager starts leading.
	OnAcquired func(m *Manager, identity string)
	// OnLost, if set, is told after the manager lost its lease and
	// crashed; restarting it (as the kubelet restarts a static pod's
	// container) is the caller's call.
	OnLost func(m *Manager, identity string)
}

func (le *LeaderElection) defaults() LeaderElection {
	c := *le
	if c.LeaseDuration <= 0 {
		c.LeaseDuration = DefaultLeaseDuration
	}
	if c.RenewDeadline <= 0 {
		c.RenewDeadline = DefaultRenewDeadline
	}
	if c.RetryPeriod <= 0 {
		c.RetryPeriod = DefaultRetryPeriod
	}
	return c
}

// elector is one incarnation's leader election (client-go
// LeaderElector): what it last saw of the lease and when.
type elector struct {
	m        *Manager
	c        client.Client
	cfg      LeaderElection
	identity string
	key      api.Key
	// observed is the lease as last read or written, observedAt when it
	// last changed as seen from here.
	observed   *api.Lease
	observedAt kernel.Time
	leading    bool
}

// runElection is the elector's process: acquire, start the workload,
// renew until a renewal round fails, then crash the manager.
func (m *Manager) runElection(ctx context.Context, r *run) {
	cfg := m.opts.LeaderElection.defaults()
	// The elector's requests time out after RetryPeriod, not the
	// client's 10s (upstream gives them RenewDeadline): the simulated
	// network loses whole requests where a real connection retransmits
	// within the round, so a single lost message would otherwise lose
	// the lease. A renewal round still polls until RenewDeadline.
	t := cfg.Transport
	if t == nil {
		t = m.t
	}
	actor := cfg.Actor
	if actor == "" {
		actor = m.actor
	}
	cl := client.New(m.k, t, actor, client.Options{RequestTimeout: cfg.RetryPeriod})
	e := &elector{m: m, c: cl, cfg: cfg, identity: fmt.Sprintf("%s_%d", cfg.Identity, m.starts),
		key: api.Key{Namespace: LeaseNamespace, Name: cfg.Name}}
	rng := m.Rand("leader-election")
	for !e.tryAcquireOrRenew(ctx, 0) {
		if ctx.Err() != nil {
			return
		}
		// wait.JitterUntil(RetryPeriod, JitterFactor 1.2).
		m.clock.Sleep(cfg.RetryPeriod + time.Duration(rng.Float64()*1.2*float64(cfg.RetryPeriod)))
		if ctx.Err() != nil {
			return
		}
	}
	if m.run != r {
		return
	}
	m.startWorkload(r)
	if cfg.OnAcquired != nil {
		cfg.OnAcquired(m, e.identity)
	}
	for {
		// wait.Until(RetryPeriod): one renewal round, polled every
		// RetryPeriod until RenewDeadline.
		m.clock.Sleep(cfg.RetryPeriod)
		if ctx.Err() != nil {
			return
		}
		start := m.k.Now()
		renewed := false
		for {
			if e.tryAcquireOrRenew(ctx, start.Add(cfg.RenewDeadline)) {
				renewed = true
				break
			}
			if ctx.Err() != nil {
				return
			}
			if m.k.Now().Sub(start)+cfg.RetryPeriod >= cfg.RenewDeadline {
				break
			}
			m.clock.Sleep(cfg.RetryPeriod)
		}
		if !renewed {
			break
		}
	}
	// Lost: the process exits. The crash kills this process too, so it
	// happens as the next event, not inside it.
	m.k.At(m.k.Now(), func() {
		if m.run != r {
			return
		}
		m.Crash()
		if cfg.OnLost != nil {
			cfg.OnLost(m, e.identity)
		}
	})
}

// tryAcquireOrRenew is client-go's: the leader first updates its own
// lease without reading it (while its lease is valid); otherwise it
// reads the lease, creates it if missing, leaves it alone while another
// holder's lease has not expired (LeaseDuration from when this elector
// saw it change), and takes or renews it with an update conditioned on
// the resourceVersion it read. A renewal round's requests end at its
// deadline (client-go bounds them with a context of RenewDeadline): an
// update that timed out at the deadline is not followed by a read.
func (e *elector) tryAcquireOrRenew(ctx context.Context, deadline kernel.Time) bool {
	now := e.m.k.Now()
	c := e.c
	rec := func(old *api.Lease) *api.Lease {
		l := &api.Lease{TypeMeta: api.TypeMeta{APIVersion: "coordination.k8s.io/v1", Kind: "Lease"},
			ObjectMeta: api.ObjectMeta{Namespace: e.key.Namespace, Name: e.key.Name}}
		if old != nil {
			l.ObjectMeta = *old.ObjectMeta.DeepCopy()
		}
		id := e.identity
		secs := int32(e.cfg.LeaseDuration / time.Second)
		renew := api.NewMicroTime(now.Wall())
		acquire := renew
		transitions := int32(0)
		if old != nil {
			if old.Spec.LeaseTransitions != nil {
				transitions = *old.Spec.LeaseTransitions
			}
			if old.Spec.HolderIdentity != nil && *old.Spec.HolderIdentity == id {
				if old.Spec.AcquireTime != nil {
					acquire = *old.Spec.AcquireTime
				}
			} else {
				transitions++
			}
		}
		l.Spec = api.LeaseSpec{HolderIdentity: &id, LeaseDurationSeconds: &secs, AcquireTime: &acquire, RenewTime: &renew, LeaseTransitions: &transitions}
		return l
	}
	if e.leading && e.observed != nil && now.Before(e.observedAt.Add(e.cfg.LeaseDuration)) {
		if o, err := c.Update(ctx, rec(e.observed)); err == nil {
			e.observed, e.observedAt = o.(*api.Lease), now
			return true
		}
		if deadline > 0 && !e.m.k.Now().Before(deadline) {
			return false
		}
		now = e.m.k.Now()
	}
	o, err := c.Get(ctx, api.KindLease, e.key)
	switch {
	case errors.Is(err, apierr.ErrNotFound):
		created, err := c.Create(ctx, rec(nil))
		if err != nil {
			return false
		}
		e.observed, e.observedAt, e.leading = created.(*api.Lease), now, true
		return true
	case err != nil:
		return false
	}
	old := o.(*api.Lease)
	if e.observed == nil || !sameRecord(e.observed, old) {
		e.observed, e.observedAt = old, now
	}
	held := old.Spec.HolderIdentity != nil && *old.Spec.HolderIdentity != ""
	if held && *old.Spec.HolderIdentity != e.identity && now.Before(e.observedAt.Add(e.cfg.LeaseDuration)) {
		e.leading = false
		return false
	}
	updated, err := c.Update(ctx, rec(old))
	if err != nil {
		return false
	}
	e.observed, e.observedAt, e.leading = updated.(*api.Lease), now, true
	return true
}

// sameRecord reports whether two reads of the lease show the same
// leader election record (holder, times, transitions).
func sameRecord(a, b *api.Lease) bool {
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	tm := func(p *api.MicroTime) time.Time {
		if p == nil {
			return time.Time{}
		}
		return p.Time
	}
	i32 := func(p *int32) int32 {
		if p == nil {
			return 0
		}
		return *p
	}
	return str(a.Spec.HolderIdentity) == str(b.Spec.HolderIdentity) && tm(a.Spec.RenewTime).Equal(tm(b.Spec.RenewTime)) &&
		tm(a.Spec.AcquireTime).Equal(tm(b.Spec.AcquireTime)) && i32(a.Spec.LeaseTransitions) == i32(b.Spec.LeaseTransitions) &&
		i32(a.Spec.LeaseDurationSeconds) == i32(b.Spec.LeaseDurationSeconds)
}
