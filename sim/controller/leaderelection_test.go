package controller_test

import (
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/controller"
)

// TestLeaderElection: two managers share one lease (a leader and a
// standby). The first to start creates the lease and leads; the standby
// keeps reading it and takes over only once it has seen the lease
// unchanged for leaseDuration (15s) after the leader crashed, counting a
// transition; a leader that restarts waits likewise for its own old
// lease. Planted: a candidate that ignores another holder's unexpired
// lease made the standby lead at once and failed the test.
func TestLeaderElection(t *testing.T) {
	h := newHarness(t, 1)
	h.create(&api.Namespace{ObjectMeta: api.ObjectMeta{Name: controller.LeaseNamespace}})
	acquired := map[string][]time.Duration{}
	lost := map[string][]time.Duration{}
	newMgr := func(name string) *controller.Manager {
		m := controller.NewManager(h.k, h.tr, name, system, func(*controller.Manager) error { return nil })
		m.SetOptions(controller.ManagerOptions{LeaderElection: &controller.LeaderElection{
			Name: "kcm", Identity: name,
			OnAcquired: func(m *controller.Manager, id string) {
				acquired[name] = append(acquired[name], h.k.Now().Duration())
			},
			OnLost: func(m *controller.Manager, id string) { lost[name] = append(lost[name], h.k.Now().Duration()) },
		}})
		return m
	}
	a, b := newMgr("a"), newMgr("b")
	h.at(0, func() { _ = a.Start() })
	h.at(time.Second, func() { _ = b.Start() })
	h.at(30*time.Second, func() { a.Crash() })
	h.at(31*time.Second, func() { _ = a.Start() })
	h.runUntil(2 * time.Minute)
	if got := acquired["a"]; len(got) != 1 || got[0] != 0 {
		t.Errorf("a acquired at %v, want once at 0s (it created the lease)", got)
	}
	if got := acquired["b"]; len(got) != 1 || got[0] < 44*time.Second || got[0] > 50*time.Second {
		t.Errorf("b acquired at %v, want once 15s after it last saw a's renewal (30s) and its next retry", got)
	}
	if len(lost) != 0 {
		t.Errorf("lost %v, want none (nothing failed to renew)", lost)
	}
	o, err := h.st.Get(api.KindLease, api.Key{Namespace: controller.LeaseNamespace, Name: "kcm"})
	if err != nil {
		t.Fatal(err)
	}
	l := o.(*api.Lease)
	if *l.Spec.HolderIdentity != "b_1" || *l.Spec.LeaseTransitions != 1 || *l.Spec.LeaseDurationSeconds != 15 {
		t.Errorf("lease %s transitions %d duration %d, want b_1, 1, 15", *l.Spec.HolderIdentity, *l.Spec.LeaseTransitions, *l.Spec.LeaseDurationSeconds)
	}
	if age := h.k.Now().Wall().Sub(l.Spec.RenewTime.Time); age > 2*controller.DefaultRetryPeriod+time.Second {
		t.Errorf("the leader's last renewal is %v old, want it renewed every retryPeriod", age)
	}
}
