package apiserver

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestPriorityAdmission follows upstream's TestPodAdmission and
// TestPriorityClassAdmission (k/k
// plugin/pkg/admission/priority/admission_test.go): a pod's class is
// resolved into spec.priority and spec.preemptionPolicy, the global
// default applies to pods naming none, a missing class or a conflicting
// value is refused with upstream's message, and only one class may be the
// global default.
func TestPriorityAdmission(t *testing.T) {
	never := api.PreemptNever
	class := func(name string, value int32, def bool, policy *api.PreemptionPolicy) *api.PriorityClass {
		return &api.PriorityClass{TypeMeta: api.TypeMeta{APIVersion: "scheduling.k8s.io/v1", Kind: "PriorityClass"},
			ObjectMeta: api.ObjectMeta{Name: name}, Value: value, GlobalDefault: def, PreemptionPolicy: policy}
	}
	pod := func(className string, priority *int32, policy *api.PreemptionPolicy) *api.Pod {
		return &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"},
			Spec: api.PodSpec{PriorityClassName: className, Priority: priority, PreemptionPolicy: policy,
				Containers: []api.Container{{Name: "c", Image: "nginx"}}}}
	}
	tests := []struct {
		name         string
		classes      []*api.PriorityClass
		pod          *api.Pod
		wantPriority int32
		wantPolicy   api.PreemptionPolicy
		wantClass    string
		wantErr      string
	}{
		{"pod with priority class", []*api.PriorityClass{class("high", 1000, false, nil)}, pod("high", nil, nil), 1000, api.PreemptLowerPriority, "high", ""},
		{"pod without priority class and no global default", []*api.PriorityClass{class("high", 1000, false, nil)}, pod("", nil, nil), 0, api.PreemptLowerPriority, "", ""},
		{"pod without priority class takes the global default", []*api.PriorityClass{class("high", 1000, false, nil), class("default", 50, true, nil)}, pod("", nil, nil), 50, api.PreemptLowerPriority, "default", ""},
		{"pod with a priority class that does not exist", nil, pod("foo", nil, nil), 0, "", "", `pods "p" is forbidden: no PriorityClass with name foo was found`},
		{"pod with system-cluster-critical", nil, pod(api.SystemClusterCritical, nil, nil), 2000000000, api.PreemptLowerPriority, api.SystemClusterCritical, ""},
		{"pod with system-node-critical", nil, pod(api.SystemNodeCritical, nil, nil), 2000001000, api.PreemptLowerPriority, api.SystemNodeCritical, ""},
		{"pod with the computed priority set", []*api.PriorityClass{class("high", 1000, false, nil)}, pod("high", ptr(int32(1000)), nil), 1000, api.PreemptLowerPriority, "high", ""},
		{"pod with a different priority set", []*api.PriorityClass{class("high", 1000, false, nil)}, pod("high", ptr(int32(5)), nil), 0, "", "",
			`pods "p" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name`},
		{"non-preempting class", []*api.PriorityClass{class("batch", 10, false, &never)}, pod("batch", nil, nil), 10, api.PreemptNever, "batch", ""},
		{"pod with a preemption policy that differs from its class", []*api.PriorityClass{class("batch", 10, false, &never)}, pod("batch", nil, ptr(api.PreemptLowerPriority)), 0, "", "",
			`pods "p" is forbidden: the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided in pod spec; priority admission controller computed Never from the given PriorityClass name`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			for _, pc := range tc.classes {
				f.must(t, &Request{Verb: Create, Kind: api.KindPriorityClass, Actor: controller, Object: pc})
			}
			resp := f.do(&Request{Verb: Create, Kind: api.KindPod, Namespace: "default", Actor: controller, Object: tc.pod})
			if tc.wantErr != "" {
				if resp.Err == nil || resp.Err.Error() != tc.wantErr {
					t.Fatalf("err = %v, want %s", resp.Err, tc.wantErr)
				}
				return
			}
			if resp.Err != nil {
				t.Fatal(resp.Err)
			}
			got := resp.Object.(*api.Pod)
			if got.Spec.Priority == nil || *got.Spec.Priority != tc.wantPriority {
				t.Errorf("priority = %v, want %d", got.Spec.Priority, tc.wantPriority)
			}
			if got.Spec.PreemptionPolicy == nil || *got.Spec.PreemptionPolicy != tc.wantPolicy {
				t.Errorf("preemptionPolicy = %v, want %s", got.Spec.PreemptionPolicy, tc.wantPolicy)
			}
			if got.Spec.PriorityClassName != tc.wantClass {
				t.Errorf("priorityClassName = %q, want %q", got.Spec.PriorityClassName, tc.wantClass)
			}
		})
	}
}

// TestPriorityClassValidation: a second global default is refused by
// admission, system names and values above one billion by validation,
// and value is immutable (k/k pkg/apis/scheduling/validation).
func TestPriorityClassValidation(t *testing.T) {
	f := newFixture(t)
	mk := func(name string, value int32, def bool) *api.PriorityClass {
		return &api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: name}, Value: value, GlobalDefault: def}
	}
	f.must(t, &Request{Verb: Create, Kind: api.KindPriorityClass, Actor: controller, Object: mk("a", 10, true)})
	for _, tc := range []struct {
		verb Verb
		pc   *api.PriorityClass
		want string
	}{
		{Create, mk("b", 20, true), `priorityclasses.scheduling.k8s.io "b" is forbidden: PriorityClass a is already marked as default. Only one default can exist`},
		{Create, mk("big", 1000000001, false), `PriorityClass.scheduling.k8s.io "big" is invalid: value: Forbidden: maximum allowed value of a user defined priority is 1000000000`},
		{Create, mk("system-foo", 10, false), `PriorityClass.scheduling.k8s.io "system-foo" is invalid: metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-foo is not a known system priority class`},
		{Update, mk("a", 11, true), `PriorityClass.scheduling.k8s.io "a" is invalid: value: Forbidden: may not be changed in an update.`},
	} {
		resp := f.do(&Request{Verb: tc.verb, Kind: api.KindPriorityClass, Name: tc.pc.Name, Actor: controller, Object: tc.pc})
		if resp.Err == nil || resp.Err.Error() != tc.want {
			t.Errorf("%s %s: err = %v, want %s", tc.verb, tc.pc.Name, resp.Err, tc.want)
		}
	}
}
