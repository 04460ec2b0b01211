package apiserver

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/store"
)

// TestEviction is k/k pkg/registry/core/pod/storage/eviction_test.go's
// TestEviction, row by row, under each unhealthyPodEvictionPolicy (unset,
// IfHealthyBudget, AlwaysAllow) as upstream runs it. The pods are not
// ready (upstream's validNewPod has no Ready condition).
func TestEviction(t *testing.T) {
	budget := func(sel *api.LabelSelector, allowed int32) *api.PodDisruptionBudget {
		return &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: "foo", Namespace: "default"},
			// The store starts generation at 1 (upstream's fake clientset
			// leaves it 0): the status has seen it.
			Spec: api.PodDisruptionBudgetSpec{Selector: sel}, Status: api.PodDisruptionBudgetStatus{DisruptionsAllowed: allowed, ObservedGeneration: 1}}
	}
	matchA := &api.LabelSelector{MatchLabels: map[string]string{"a": "true"}}
	const violates = "Cannot evict pod as it would violate the pod's disruption budget.: TooManyRequests: The disruption budget foo needs 0 healthy pods and has 0 currently"
	ifHealthy, always := api.IfHealthyBudget, api.AlwaysAllow
	unsetOrIfHealthy := []*api.UnhealthyPodEvictionPolicyType{nil, &ifHealthy}
	tests := []struct {
		name          string
		pdb           *api.PodDisruptionBudget
		policies      []*api.UnhealthyPodEvictionPolicyType // nil: every policy
		badNameInURL  bool
		phase         api.PodPhase
		expectError   string
		expectDeleted bool
	}{
		{"matching pdbs with no disruptions allowed, pod running", budget(matchA, 0), unsetOrIfHealthy, false, api.PodRunning, violates, false},
		{"matching pdbs with no disruptions allowed, pod pending", budget(matchA, 0), nil, false, api.PodPending, "", true},
		{"matching pdbs with no disruptions allowed, pod succeeded", budget(matchA, 0), nil, false, api.PodSucceeded, "", true},
		{"matching pdbs with no disruptions allowed, pod failed", budget(matchA, 0), nil, false, api.PodFailed, "", true},
		{"matching pdbs with disruptions allowed", budget(matchA, 1), nil, false, api.PodRunning, "", true},
		{"non-matching pdbs", budget(&api.LabelSelector{MatchLabels: map[string]string{"b": "true"}}, 0), nil, false, api.PodRunning, "", true},
		{"matching pdbs with disruptions allowed but bad name in Url", budget(matchA, 1), nil, true, api.PodRunning, "name in URL does not match name in Eviction object: BadRequest", false},
		{"matching pdbs with no disruptions allowed, pod running, empty selector", budget(&api.LabelSelector{}, 0), unsetOrIfHealthy, false, api.PodRunning, violates, false},
		{"AlwaysAllow evicts a running pod that is not ready whatever the budget", budget(matchA, 0), []*api.UnhealthyPodEvictionPolicyType{&always}, false, api.PodRunning, "", true},
	}
	for _, policy := range []*api.UnhealthyPodEvictionPolicyType{nil, &ifHealthy, &always} {
		for _, tc := range tests {
			if tc.policies != nil && !containsPolicy(tc.policies, policy) {
				continue
			}
			name := "unset"
			if policy != nil {
				name = string(*policy)
			}
			t.Run(fmt.Sprintf("%s with %s policy", tc.name, name), func(t *testing.T) {
				f := newFixture(t)
				pdb := tc.pdb.DeepCopy()
				pdb.Spec.UnhealthyPodEvictionPolicy = policy
				f.bootstrap(t, pdb)
				pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "t1", Namespace: "default", Labels: map[string]string{"a": "true"}},
					Spec: api.PodSpec{NodeName: "foo", Containers: []api.Container{{Name: "c", Image: "busybox"}}}}
				f.must(t, &Request{Verb: Create, Kind: api.KindPod, Actor: user, Object: pod})
				f.setPhase(t, "t1", tc.phase)
				urlName := "t1"
				if tc.badNameInURL {
					urlName += "bad-name"
				}
				grace := int64(0)
				resp := f.do(&Request{Verb: Create, Kind: api.KindPod, Subresource: EvictionSubresource, Namespace: "default", Name: urlName, Actor: user,
					Object: &api.Eviction{ObjectMeta: api.ObjectMeta{Name: "t1", Namespace: "default"}, DeleteOptions: &api.EvictionDeleteOptions{GracePeriodSeconds: &grace}}})
				if got := errString(resp.Err); got != tc.expectError {
					t.Fatalf("error %q, want %q", got, tc.expectError)
				}
				_, err := f.srv.Store().Get(api.KindPod, api.Key{Namespace: "default", Name: "t1"})
				if deleted := errors.Is(err, apierr.ErrNotFound); deleted != tc.expectDeleted {
					t.Errorf("pod deleted = %v, want %v", deleted, tc.expectDeleted)
				}
			})
		}
	}
}

func containsPolicy(ps []*api.UnhealthyPodEvictionPolicyType, p *api.UnhealthyPodEvictionPolicyType) bool {
	for _, q := range ps {
		if q == nil && p == nil || q != nil && p != nil && *q == *p {
			return true
		}
	}
	return false
}

// errString is upstream's errToString: the message, the reason and the
// causes' messages.
func errString(err error) string {
	if err == nil {
		return ""
	}
	var se *apierr.StatusError
	if !errors.As(err, &se) {
		return err.Error()
	}
	s := se.Message + ": " + string(se.Reason)
	for _, c := range se.Causes {
		s += ": " + c.Detail
	}
	return s
}

// bootstrap stores o as is, status included (upstream's fake clientset).
func (f *fixture) bootstrap(t *testing.T, o api.Object) {
	t.Helper()
	if _, err := f.srv.Store().Create(store.Op{Actor: "test"}, o); err != nil {
		t.Fatal(err)
	}
	cur, _ := f.srv.Store().Get(api.KindOf(o), o.GetObjectMeta().Key())
	cp := o.DeepCopyObject()
	cp.GetObjectMeta().ResourceVersion = cur.GetObjectMeta().ResourceVersion
	if _, err := f.srv.Store().Update(store.Op{Actor: "test"}, cp, "status"); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) setPhase(t *testing.T, name string, phase api.PodPhase) {
	t.Helper()
	o, _ := f.srv.Store().Get(api.KindPod, api.Key{Namespace: "default", Name: name})
	cp := o.DeepCopyObject().(*api.Pod)
	cp.Status.Phase = phase
	if _, err := f.srv.Store().Update(store.Op{Actor: "test"}, cp, "status"); err != nil {
		t.Fatal(err)
	}
}

// TestEvictionDecrements: an allowed eviction of a ready pod takes a
// disruption (disruptionsAllowed 1 -> 0, condition InsufficientPods, the
// pod in disruptedPods) as checkAndDecrement does; the next one is refused
// with the budget's numbers; a budget whose status is older than its spec
// refuses with "still being processed"; two budgets are a 500.
func TestEvictionDecrements(t *testing.T) {
	f := newFixture(t)
	pdb := &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: "zk-pdb", Namespace: "default"},
		Spec:   api.PodDisruptionBudgetSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "zk"}}},
		Status: api.PodDisruptionBudgetStatus{DisruptionsAllowed: 1, CurrentHealthy: 3, DesiredHealthy: 2, ExpectedPods: 3, ObservedGeneration: 1}}
	f.bootstrap(t, pdb)
	for _, n := range []string{"zk-0", "zk-1"} {
		f.must(t, &Request{Verb: Create, Kind: api.KindPod, Actor: user, Object: &api.Pod{ObjectMeta: api.ObjectMeta{Name: n, Namespace: "default", Labels: map[string]string{"app": "zk"}},
			Spec: api.PodSpec{NodeName: "n", Containers: []api.Container{{Name: "c", Image: "busybox"}}}}})
		o, _ := f.srv.Store().Get(api.KindPod, api.Key{Namespace: "default", Name: n})
		cp := o.DeepCopyObject().(*api.Pod)
		cp.Status.Phase = api.PodRunning
		cp.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}
		if _, err := f.srv.Store().Update(store.Op{Actor: "test"}, cp, "status"); err != nil {
			t.Fatal(err)
		}
	}
	evict := func(name string) error {
		return f.do(&Request{Verb: Create, Kind: api.KindPod, Subresource: EvictionSubresource, Namespace: "default", Name: name, Actor: user,
			Object: &api.Eviction{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"}}}).Err
	}
	if err := evict("zk-0"); err != nil {
		t.Fatalf("first eviction: %v", err)
	}
	o, _ := f.srv.Store().Get(api.KindPodDisruptionBudget, pdb.Key())
	st := o.(*api.PodDisruptionBudget).Status
	c := api.FindCondition(st.Conditions, api.DisruptionAllowedCondition)
	if _, ok := st.DisruptedPods["zk-0"]; st.DisruptionsAllowed != 0 || !ok || c == nil || c.Reason != api.InsufficientPodsReason {
		t.Errorf("status after the eviction %+v", st)
	}
	if p, err := f.srv.Store().Get(api.KindPod, api.Key{Namespace: "default", Name: "zk-0"}); err == nil && p.GetObjectMeta().DeletionTimestamp == nil {
		t.Error("zk-0 not deleted")
	}
	err := evict("zk-1")
	if got, want := errString(err), "Cannot evict pod as it would violate the pod's disruption budget.: TooManyRequests: The disruption budget zk-pdb needs 2 healthy pods and has 3 currently"; got != want {
		t.Errorf("second eviction: %q, want %q", got, want)
	}
	var se *apierr.StatusError
	if !errors.As(err, &se) || se.Code != 429 {
		t.Errorf("second eviction: %#v, want a 429", err)
	}
	// A spec change the controller has not seen yet.
	o, _ = f.srv.Store().Get(api.KindPodDisruptionBudget, pdb.Key())
	cp := o.DeepCopyObject().(*api.PodDisruptionBudget)
	cp.Spec.MinAvailable = ptr(api.FromInt32(1))
	if _, err := f.srv.Store().Update(store.Op{Actor: "test"}, cp, ""); err != nil {
		t.Fatal(err)
	}
	if got, want := errString(evict("zk-1")), "Cannot evict pod as it would violate the pod's disruption budget.: TooManyRequests: The disruption budget zk-pdb is still being processed by the server."; got != want {
		t.Errorf("stale budget: %q, want %q", got, want)
	}
	f.bootstrap(t, &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: "other", Namespace: "default"}, Spec: api.PodDisruptionBudgetSpec{Selector: &api.LabelSelector{}}})
	if got, want := errString(evict("zk-1")), "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.: InternalError"; got != want {
		t.Errorf("two budgets: %q, want %q", got, want)
	}
}

// TestPDBValidation is ValidatePodDisruptionBudgetSpec's rules with their
// messages.
func TestPDBValidation(t *testing.T) {
	bad := api.UnhealthyPodEvictionPolicyType("Sometimes")
	tests := []struct {
		name string
		spec api.PodDisruptionBudgetSpec
		want string
	}{
		{"both bounds", api.PodDisruptionBudgetSpec{MinAvailable: ptr(api.FromInt32(1)), MaxUnavailable: ptr(api.FromInt32(1))}, "minAvailable and maxUnavailable cannot be both set"},
		{"negative", api.PodDisruptionBudgetSpec{MinAvailable: ptr(api.FromInt32(-1))}, "spec.minAvailable: Invalid value: -1: must be greater than or equal to 0"},
		{"over 100%", api.PodDisruptionBudgetSpec{MaxUnavailable: ptr(api.FromString("120%"))}, `spec.maxUnavailable: Invalid value: "120%": must not be greater than 100%`},
		{"not a percent", api.PodDisruptionBudgetSpec{MinAvailable: ptr(api.FromString("half"))}, `spec.minAvailable: Invalid value: "half": a valid percent string must be`},
		{"unknown policy", api.PodDisruptionBudgetSpec{MinAvailable: ptr(api.FromInt32(1)), UnhealthyPodEvictionPolicy: &bad}, `spec.unhealthyPodEvictionPolicy: Unsupported value: "Sometimes": supported values: "AlwaysAllow", "IfHealthyBudget"`},
		{"valid", api.PodDisruptionBudgetSpec{MinAvailable: ptr(api.FromString("50%"))}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Validate(&api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"}, Spec: tt.spec}, nil)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
				t.Errorf("Validate = %q, want it to contain %q", got, tt.want)
			}
		})
	}
}
