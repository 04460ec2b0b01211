package apiserver

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

func quotaPod(name, generateName string, cpu string) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, GenerateName: generateName, Namespace: "default"},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}}
	if cpu != "" {
		p.Spec.Containers[0].Resources.Requests = api.ResourceList{api.ResourceCPU: api.MustParseQuantity(cpu)}
	}
	return p
}

// withInit adds an init container to p (a sidecar when sidecar is set)
// requesting cpu, or nothing when cpu is "".
func withInit(p *api.Pod, name, cpu string, sidecar bool) *api.Pod {
	c := api.Container{Name: name, Image: "busybox"}
	if cpu != "" {
		c.Resources.Requests = api.ResourceList{api.ResourceCPU: api.MustParseQuantity(cpu)}
	}
	if sidecar {
		always := api.ContainerRestartPolicyAlways
		c.RestartPolicy = &always
	}
	p.Spec.InitContainers = append(p.Spec.InitContainers, c)
	return p
}

// quota creates a ResourceQuota and fills its status as the quota
// controller would.
func (f *fixture) quota(t *testing.T, name string, hard api.ResourceList) {
	t.Helper()
	f.scopedQuota(t, name, api.ResourceQuotaSpec{Hard: hard})
}

// scopedQuota is quota with a whole spec (scopes, scope selector).
func (f *fixture) scopedQuota(t *testing.T, name string, spec api.ResourceQuotaSpec) {
	t.Helper()
	hard := spec.Hard
	q := f.must(t, &Request{Verb: Create, Kind: api.KindResourceQuota, Actor: user, Object: &api.ResourceQuota{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"}, Spec: spec}}).DeepCopyObject().(*api.ResourceQuota)
	q.Status.Hard = hard.DeepCopy()
	q.Status.Used = api.ResourceList{}
	for r := range hard {
		q.Status.Used[r] = api.MustParseQuantity("0")
	}
	f.must(t, &Request{Verb: Update, Kind: api.KindResourceQuota, Subresource: "status", Actor: controller, Object: q})
}

func TestResourceQuotaAdmission(t *testing.T) {
	tests := []struct {
		name  string
		hard  api.ResourceList
		pods  []*api.Pod
		want  []string // "" for admitted, else the exact error
		usedA string   // status.used after, rendered
	}{
		{
			name: "pod count",
			hard: api.ResourceList{api.ResourcePods: api.MustParseQuantity("2")},
			pods: []*api.Pod{quotaPod("a", "", ""), quotaPod("b", "", ""), quotaPod("c", "", "")},
			want: []string{"", "", `pods "c" is forbidden: exceeded quota: pod-demo, requested: pods=1, used: pods=2, limited: pods=2`},
		},
		{
			name: "generated names appear in the message",
			hard: api.ResourceList{api.ResourcePods: api.MustParseQuantity("1")},
			pods: []*api.Pod{quotaPod("", "web-", ""), quotaPod("", "web-", "")},
			want: []string{"", `pods "web-*" is forbidden: exceeded quota: pod-demo, requested: pods=1, used: pods=1, limited: pods=1`},
		},
		{
			name: "cpu requests",
			hard: api.ResourceList{api.ResourceRequestsCPU: api.MustParseQuantity("1"), api.ResourcePods: api.MustParseQuantity("10")},
			pods: []*api.Pod{quotaPod("a", "", "600m"), quotaPod("b", "", "500m"), quotaPod("c", "", "400m"), quotaPod("d", "", "")},
			want: []string{"", `pods "b" is forbidden: exceeded quota: pod-demo, requested: requests.cpu=500m, used: requests.cpu=600m, limited: requests.cpu=1`, "",
				`pods "d" is forbidden: failed quota: pod-demo: must specify requests.cpu for: c`},
		},
		{
			// Upstream's Constraints checks init containers too and names
			// the containers sorted.
			name: "an init container without requests",
			hard: api.ResourceList{api.ResourceRequestsCPU: api.MustParseQuantity("10")},
			pods: []*api.Pod{withInit(quotaPod("a", "", ""), "migrate", "", false)},
			want: []string{`pods "a" is forbidden: failed quota: pod-demo: must specify requests.cpu for: c,migrate`},
		},
		{
			// The sidecar runs beside the container: 600m + 500m.
			name: "a sidecar's requests are charged",
			hard: api.ResourceList{api.ResourceRequestsCPU: api.MustParseQuantity("1")},
			pods: []*api.Pod{withInit(quotaPod("a", "", "600m"), "log", "500m", true)},
			want: []string{`pods "a" is forbidden: exceeded quota: pod-demo, requested: requests.cpu=1100m, used: requests.cpu=0, limited: requests.cpu=1`},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.quota(t, "pod-demo", tc.hard)
			for i, p := range tc.pods {
				resp := f.do(&Request{Verb: Create, Kind: api.KindPod, Actor: controller, Object: p})
				want := tc.want[i]
				if want == "" {
					if resp.Err != nil {
						t.Errorf("pod %d: %v", i, resp.Err)
					}
					continue
				}
				if !errors.Is(resp.Err, apierr.ErrForbidden) {
					t.Fatalf("pod %d: err = %v, want forbidden", i, resp.Err)
				}
				got := resp.Err.Error()
				if prefix, suffix, wild := strings.Cut(want, "*"); wild {
					if !strings.HasPrefix(got, prefix) || !strings.HasSuffix(got, suffix) || len(got) != len(want)-1+5 {
						t.Errorf("pod %d: err = %q\nwant %q with a 5-character generated suffix", i, got, want)
					}
					continue
				}
				if got != want {
					t.Errorf("pod %d: err = %q\nwant %q", i, got, want)
				}
			}
		})
	}
}

func TestQuotaWithoutStatusAdmitsEverything(t *testing.T) {
	f := newFixture(t)
	f.must(t, &Request{Verb: Create, Kind: api.KindResourceQuota, Actor: user, Object: &api.ResourceQuota{
		ObjectMeta: api.ObjectMeta{Name: "q", Namespace: "default"}, Spec: api.ResourceQuotaSpec{Hard: api.ResourceList{api.ResourcePods: api.MustParseQuantity("0")}}}})
	if resp := f.do(&Request{Verb: Create, Kind: api.KindPod, Actor: controller, Object: quotaPod("a", "", "")}); resp.Err != nil {
		t.Errorf("a quota the controller has not filled in rejected a pod: %v", resp.Err)
	}
}

// TestScopedQuotaAdmission: a quota with scopes or a scope selector
// constrains only the pods in its scopes (k/k pods.go
// podMatchesScopeFunc); before, scopes were stored and ignored, so a
// BestEffort quota of 1 pod refused every second pod of the namespace.
func TestScopedQuotaAdmission(t *testing.T) {
	pods1 := api.ResourceList{api.ResourcePods: api.MustParseQuantity("1")}
	deadline := func(p *api.Pod) *api.Pod { s := int64(60); p.Spec.ActiveDeadlineSeconds = &s; return p }
	class := func(p *api.Pod, c string) *api.Pod { p.Spec.PriorityClassName = c; return p }
	sel := func(op api.ScopeSelectorOperator, values ...string) *api.ScopeSelector {
		return &api.ScopeSelector{MatchExpressions: []api.ScopedResourceSelectorRequirement{{ScopeName: api.ResourceQuotaScopePriorityClass, Operator: op, Values: values}}}
	}
	full := `pods "%s" is forbidden: exceeded quota: scoped, requested: pods=1, used: pods=1, limited: pods=1`
	tests := []struct {
		name string
		spec api.ResourceQuotaSpec
		pods []*api.Pod
		want []string // "" admitted, else the error with %s for the pod's name
	}{
		{"BestEffort counts pods without requests only", api.ResourceQuotaSpec{Hard: pods1, Scopes: []api.ResourceQuotaScope{api.ResourceQuotaScopeBestEffort}},
			[]*api.Pod{quotaPod("a", "", ""), quotaPod("b", "", "100m"), quotaPod("c", "", "")}, []string{"", "", full}},
		{"NotBestEffort", api.ResourceQuotaSpec{Hard: pods1, Scopes: []api.ResourceQuotaScope{api.ResourceQuotaScopeNotBestEffort}},
			[]*api.Pod{quotaPod("a", "", "100m"), quotaPod("b", "", ""), quotaPod("c", "", "100m")}, []string{"", "", full}},
		{"Terminating counts pods with a deadline", api.ResourceQuotaSpec{Hard: pods1, Scopes: []api.ResourceQuotaScope{api.ResourceQuotaScopeTerminating}},
			[]*api.Pod{deadline(quotaPod("a", "", "")), quotaPod("b", "", ""), deadline(quotaPod("c", "", ""))}, []string{"", "", full}},
		{"PriorityClass In", api.ResourceQuotaSpec{Hard: pods1, ScopeSelector: sel(api.ScopeSelectorOpIn, "high")},
			[]*api.Pod{class(quotaPod("a", "", ""), "high"), quotaPod("b", "", ""), class(quotaPod("c", "", ""), "low"), class(quotaPod("d", "", ""), "high")},
			[]string{"", "", "", full}},
		{"PriorityClass NotIn counts pods without a class", api.ResourceQuotaSpec{Hard: pods1, ScopeSelector: sel(api.ScopeSelectorOpNotIn, "high")},
			[]*api.Pod{quotaPod("a", "", ""), class(quotaPod("b", "", ""), "high"), class(quotaPod("c", "", ""), "low")}, []string{"", "", full}},
		{"PriorityClass Exists", api.ResourceQuotaSpec{Hard: pods1, ScopeSelector: sel(api.ScopeSelectorOpExists)},
			[]*api.Pod{quotaPod("a", "", ""), class(quotaPod("b", "", ""), "low"), class(quotaPod("c", "", ""), "high")}, []string{"", "", full}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			for _, c := range []string{"high", "low"} {
				f.must(t, &Request{Verb: Create, Kind: api.KindPriorityClass, Actor: user, Object: &api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: c}, Value: 10}})
			}
			f.scopedQuota(t, "scoped", tc.spec)
			for i, p := range tc.pods {
				resp := f.do(&Request{Verb: Create, Kind: api.KindPod, Actor: controller, Object: p})
				got := ""
				if resp.Err != nil {
					got = resp.Err.Error()
				}
				want := tc.want[i]
				if want != "" {
					want = fmt.Sprintf(want, p.Name)
				}
				if got != want {
					t.Errorf("pod %s: err = %q\nwant %q", p.Name, got, want)
				}
			}
		})
	}
}
