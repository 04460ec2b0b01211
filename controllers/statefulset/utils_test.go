package statefulset

import (
	"fmt"
	"slices"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestGetParentNameAndOrdinal is upstream's test of the same name
// (stateful_set_utils_test.go).
func TestGetParentNameAndOrdinal(t *testing.T) {
	set := newStatefulSet(3)
	p := newStatefulSetPod(set, 1)
	if parent, ordinal := getParentNameAndOrdinal(p); parent != set.Name || ordinal != 1 {
		t.Errorf("got %s %d, want %s 1", parent, ordinal, set.Name)
	}
	p.Name = "1-bar"
	if parent, ordinal := getParentNameAndOrdinal(p); parent != "" || ordinal != -1 {
		t.Errorf("non-member: got %q %d, want \"\" -1", parent, ordinal)
	}
}

// TestIsMemberOf is upstream's test of the same name.
func TestIsMemberOf(t *testing.T) {
	set, set2 := newStatefulSet(3), newStatefulSet(3)
	set2.Name = "foo2"
	p := newStatefulSetPod(set, 1)
	if !isMemberOf(set, p) || isMemberOf(set2, p) {
		t.Error("isMemberOf wrong")
	}
}

// TestIdentityMatches and TestUpdateIdentity are upstream's tests of the
// same names.
func TestIdentityMatches(t *testing.T) {
	set := newStatefulSet(3)
	for _, tc := range []struct {
		name   string
		break_ func(p *api.Pod)
	}{
		{"wrong name", func(p *api.Pod) { p.Name = "foo" }},
		{"wrong namespace", func(p *api.Pod) { p.Namespace = "" }},
		{"no pod-name label", func(p *api.Pod) { delete(p.Labels, api.StatefulSetPodNameLabel) }},
	} {
		p := newStatefulSetPod(set, 1)
		if !identityMatches(set, p) {
			t.Fatal("new pod has a bad identity")
		}
		tc.break_(p)
		if identityMatches(set, p) {
			t.Errorf("%s: identity matches", tc.name)
		}
		if tc.name != "wrong name" {
			updateIdentity(set, p)
			if !identityMatches(set, p) {
				t.Errorf("%s: updateIdentity did not restore it", tc.name)
			}
		}
	}
}

// TestStorageMatches and TestUpdateStorage are upstream's tests of the
// same names.
func TestStorageMatches(t *testing.T) {
	set := newStatefulSet(3)
	for _, tc := range []struct {
		name   string
		break_ func(p *api.Pod)
	}{
		{"no volumes", func(p *api.Pod) { p.Spec.Volumes = nil }},
		{"not a claim", func(p *api.Pod) {
			for i := range p.Spec.Volumes {
				p.Spec.Volumes[i].Source = map[string]api.RawValue{"emptyDir": api.RawValue(`{}`)}
			}
		}},
		{"other claim name", func(p *api.Pod) {
			for i := range p.Spec.Volumes {
				p.Spec.Volumes[i] = claimVolume(p.Spec.Volumes[i].Name, "foo")
			}
		}},
	} {
		p := newStatefulSetPod(set, 1)
		if !storageMatches(set, p) {
			t.Fatal("new pod has invalid storage")
		}
		tc.break_(p)
		if storageMatches(set, p) {
			t.Errorf("%s: storage matches", tc.name)
		}
		updateStorage(set, p)
		if !storageMatches(set, p) {
			t.Errorf("%s: updateStorage did not restore it", tc.name)
		}
	}
	p := newStatefulSetPod(set, 1)
	p.Name = "bar"
	if storageMatches(set, p) {
		t.Error("pod with an invalid ordinal has valid storage")
	}
}

// TestGetStatefulSetMaxUnavailable is upstream's table of the same name,
// row by row.
func TestGetStatefulSetMaxUnavailable(t *testing.T) {
	i := func(v int32) *api.IntOrString { x := api.FromInt32(v); return &x }
	s := func(v string) *api.IntOrString { x := api.FromString(v); return &x }
	for _, tc := range []struct {
		maxUnavailable *api.IntOrString
		replicas, want int
	}{
		{nil, 10, 1},
		{i(3), 10, 3},
		{i(3), 0, 3},
		{i(0), 0, 1},
		{s("10%"), 25, 2},
		{s("100%"), 5, 5},
		{s("50%"), 5, 2},
		{s("10%"), 5, 1},
		{s("1%"), 0, 1},
		{s("0%"), 0, 1},
	} {
		got, err := getStatefulSetMaxUnavailable(tc.maxUnavailable, tc.replicas)
		if err != nil || got != tc.want {
			t.Errorf("maxUnavailable %v of %d: got %d %v, want %d", tc.maxUnavailable, tc.replicas, got, err, tc.want)
		}
	}
}

// TestIsClaimOwnerUpToDate is upstream's table of the same name: for each
// policy and ordinal, the claim is up to date exactly when it has the pod
// and set references the policy wants, with or without other owners.
func TestIsClaimOwnerUpToDate(t *testing.T) {
	const retain, del = api.RetainPersistentVolumeClaimRetentionPolicyType, api.DeletePersistentVolumeClaimRetentionPolicyType
	for _, tc := range []struct {
		name                     string
		scaleDown, setDelete     string
		needsPodRef, needsSetRef bool
		replicas                 int32
		ordinal                  int
	}{
		{"retain", retain, retain, false, false, 0, 0},
		{"on SS delete", retain, del, false, true, 0, 0},
		{"on scaledown only, condemned", del, retain, true, false, 2, 2},
		{"on scaledown only, remains", del, retain, false, false, 2, 1},
		{"on both, condemned", del, del, true, false, 2, 2},
		{"on both, remains", del, del, false, true, 2, 1},
	} {
		for _, others := range []bool{false, true} {
			for _, podRef := range []bool{false, true} {
				for _, setRef := range []bool{false, true} {
					claim := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: "target-claim"}}
					p := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}, ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("pod-%d", tc.ordinal), UID: "pod-123"}}
					replicas := tc.replicas
					set := &api.StatefulSet{TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "StatefulSet"}, ObjectMeta: api.ObjectMeta{Name: "stateful-set", UID: "ss-456"},
						Spec: api.StatefulSetSpec{Replicas: &replicas, PersistentVolumeClaimRetentionPolicy: &api.StatefulSetPersistentVolumeClaimRetentionPolicy{WhenScaled: tc.scaleDown, WhenDeleted: tc.setDelete}}}
					if podRef {
						claim.OwnerReferences = append(claim.OwnerReferences, api.NewControllerRef(p))
					}
					if setRef {
						claim.OwnerReferences = append(claim.OwnerReferences, api.NewControllerRef(set))
					}
					if others {
						claim.OwnerReferences = append(claim.OwnerReferences, api.OwnerReference{Name: "rand1", APIVersion: "v1", Kind: "Pod", UID: "rand1-uid"},
							api.OwnerReference{Name: "rand2", APIVersion: "v1", Kind: "Pod", UID: "rand2-uid"})
					}
					want := podRef == tc.needsPodRef && setRef == tc.needsSetRef
					if got := isClaimOwnerUpToDate(claim, set, p); got != want {
						t.Errorf("%s with pod=%v set=%v others=%v: got %v, want %v", tc.name, podRef, setRef, others, got, want)
					}
				}
			}
		}
	}
}

// The tests below port upstream's tests of the claims' owner references
// (stateful_set_utils_test.go as stored without a commit by the index,
// apps/v1 with the hasUnexpectedController rules; stateful_set_utils.go
// read in the same stored version), and TestIsRunningAndReady,
// TestNewPodControllerRef and TestGetPersistentVolumeClaims.

func yes() *bool { b := true; return &b }
func no() *bool  { b := false; return &b }

func ref(apiVersion, kind, name string, uid api.UID, ctrl *bool) api.OwnerReference {
	return api.OwnerReference{APIVersion: apiVersion, Kind: kind, Name: name, UID: uid, Controller: ctrl}
}

func claimWith(refs ...api.OwnerReference) *api.PersistentVolumeClaim {
	return &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: "target-claim", OwnerReferences: refs}}
}

func bareSet(name string, uid api.UID, replicas int32, scaled, deleted string) *api.StatefulSet {
	s := &api.StatefulSet{ObjectMeta: api.ObjectMeta{Name: name, UID: uid}, Spec: api.StatefulSetSpec{Replicas: &replicas}}
	if scaled != "" {
		s.Spec.PersistentVolumeClaimRetentionPolicy = &api.StatefulSetPersistentVolumeClaimRetentionPolicy{WhenScaled: scaled, WhenDeleted: deleted}
	}
	return s
}

func barePod(name string, uid api.UID) *api.Pod {
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, UID: uid}}
}

func TestMatchesRef(t *testing.T) {
	for _, tc := range []struct {
		name        string
		ref         api.OwnerReference
		objName     string
		shouldMatch bool
	}{
		{"full match", api.OwnerReference{APIVersion: "v1", Kind: "Pod", Name: "fred", UID: "abc"}, "fred", true},
		{"match without UID", api.OwnerReference{APIVersion: "v1", Kind: "Pod", Name: "fred", UID: "abc"}, "fred", true},
		{"mismatch name", api.OwnerReference{APIVersion: "v1", Kind: "Pod", Name: "fred", UID: "abc"}, "joan", false},
		{"wrong schema", api.OwnerReference{APIVersion: "beta2", Kind: "Pod", Name: "fred", UID: "abc"}, "fred", false},
	} {
		uid := api.UID("abc")
		if tc.name == "match without UID" {
			uid = "not-matching"
		}
		if got := matchesPod(&tc.ref, barePod(tc.objName, uid)); got != tc.shouldMatch {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.shouldMatch)
		}
	}
}

func TestClaimOwnerUpToDateEdgeCases(t *testing.T) {
	const del, retain = api.DeletePersistentVolumeClaimRetentionPolicyType, api.RetainPersistentVolumeClaimRetentionPolicyType
	podRef := func(name string, uid api.UID, ctrl *bool) api.OwnerReference {
		return api.OwnerReference{Name: name, APIVersion: "v1", Kind: "Pod", UID: uid, Controller: ctrl}
	}
	setRef := func(apiVersion, name string, uid api.UID, ctrl *bool) api.OwnerReference {
		return api.OwnerReference{Name: name, APIVersion: apiVersion, Kind: "StatefulSet", UID: uid, Controller: ctrl}
	}
	for _, tc := range []struct {
		name            string
		refs            []api.OwnerReference
		scaled, deleted string
		shouldMatch     bool
	}{
		{"normal controller, pod", []api.OwnerReference{podRef("pod-1", "pod-123", yes())}, del, del, true},
		{"non-controller causes policy mismatch, pod", []api.OwnerReference{podRef("pod-1", "pod-123", nil)}, del, del, false},
		{"stale controller does not affect policy, pod", []api.OwnerReference{podRef("pod-1", "pod-stale", yes())}, del, del, true},
		{"unexpected controller causes policy mismatch, pod", []api.OwnerReference{podRef("pod-1", "pod-123", yes()), podRef("Random", "random", yes())}, del, del, false},
		{"normal controller, set", []api.OwnerReference{setRef("apps/v1", "stateful-set", "ss-456", yes())}, retain, del, true},
		{"non-controller causes policy mismatch, set", []api.OwnerReference{setRef("appsv1", "stateful-set", "ss-456", nil)}, retain, del, false},
		{"stale controller ignored, set", []api.OwnerReference{setRef("apps/v1", "stateful-set", "set-stale", yes())}, retain, del, true},
		{"unexpected controller causes policy mismatch, set", []api.OwnerReference{setRef("apps/v1", "stateful-set", "ss-456", yes()), setRef("apps/v1", "Random", "random", yes())}, retain, del, false},
	} {
		set := bareSet("stateful-set", "ss-456", 1, tc.scaled, tc.deleted)
		if got := isClaimOwnerUpToDate(claimWith(tc.refs...), set, barePod("pod-1", "pod-123")); got != tc.shouldMatch {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.shouldMatch)
		}
	}
}

func TestUpdateClaimOwnerRefForSetAndPod(t *testing.T) {
	const del, retain = api.DeletePersistentVolumeClaimRetentionPolicyType, api.RetainPersistentVolumeClaimRetentionPolicyType
	for _, tc := range []struct {
		name                     string
		scaled, deleted          string
		condemned                bool
		needsPodRef, needsSetRef bool
		unexpectedController     bool
	}{
		{"retain", retain, retain, false, false, false, false},
		{"delete with set", retain, del, false, false, true, false},
		{"delete with scaledown, not condemned", del, retain, false, false, false, false},
		{"delete on scaledown, condemned", del, retain, true, true, false, false},
		{"delete on both, not condemned", del, del, false, false, true, false},
		{"delete on both, condemned", del, del, true, true, false, false},
		{"unexpected controller", del, del, true, false, false, true},
	} {
		for variations := 0; variations < 8; variations++ {
			hasPodRef, hasSetRef, extraOwner := variations&1 != 0, variations&2 != 0, variations&3 != 0
			set := bareSet("ss", "ss-123", 5, tc.scaled, tc.deleted)
			p := barePod("pod-1", "pod-456")
			if tc.condemned {
				p.Name = "pod-8"
			}
			claim := claimWith()
			if hasPodRef {
				claim.OwnerReferences = append(claim.OwnerReferences, api.OwnerReference{APIVersion: "v1", Kind: "Pod", Name: p.Name, UID: p.UID, Controller: yes()})
			}
			if hasSetRef {
				claim.OwnerReferences = append(claim.OwnerReferences, api.OwnerReference{APIVersion: "apps/v1", Kind: "StatefulSet", Name: set.Name, UID: set.UID, Controller: yes()})
			}
			if extraOwner {
				claim.OwnerReferences = append(claim.OwnerReferences, api.OwnerReference{APIVersion: "custom/v1", Kind: "random", Name: "random", UID: "abc"})
			}
			if tc.unexpectedController {
				claim.OwnerReferences = append(claim.OwnerReferences, api.OwnerReference{APIVersion: "custom/v1", Kind: "Unknown", Name: "unknown", UID: "xyz", Controller: yes()})
			}
			updateClaimOwnerRefForSetAndPod(claim, set, p)
			isController := func(uid api.UID) bool {
				for _, r := range claim.OwnerReferences {
					if r.UID == uid {
						return r.Controller != nil && *r.Controller
					}
				}
				return false
			}
			if isController(p.UID) != tc.needsPodRef || isController(set.UID) != tc.needsSetRef {
				t.Errorf("%s (pod ref %v, set ref %v): refs %+v", tc.name, hasPodRef, hasSetRef, claim.OwnerReferences)
			}
		}
	}
}

func TestUpdateClaimControllerRef(t *testing.T) {
	sts := func(uid api.UID, ctrl *bool) api.OwnerReference {
		return api.OwnerReference{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "sts", UID: uid, Controller: ctrl}
	}
	key := func(refs []api.OwnerReference) string {
		var keys []string
		for _, r := range refs {
			keys = append(keys, r.APIVersion+"-"+r.Kind+"-"+r.Name)
		}
		slices.Sort(keys)
		return fmt.Sprint(keys)
	}
	for _, tc := range []struct {
		name               string
		original, expected []api.OwnerReference
	}{
		{"set correctly", []api.OwnerReference{sts("123", yes()), {APIVersion: "someone", Kind: "Else", Name: "foo"}},
			[]api.OwnerReference{sts("123", yes()), {APIVersion: "someone", Kind: "Else", Name: "foo"}}},
		{"missing controller", []api.OwnerReference{sts("123", nil)}, []api.OwnerReference{sts("123", yes())}},
		{"matching name but missing", []api.OwnerReference{{APIVersion: "someone", Kind: "else", Name: "sts", UID: "456"}},
			[]api.OwnerReference{{APIVersion: "someone", Kind: "else", Name: "sts", UID: "456"}, sts("123", yes())}},
		{"not present", nil, []api.OwnerReference{sts("123", yes())}},
		{"controller, but no UID", []api.OwnerReference{sts("", yes())}, nil},
		{"neither controller nor UID", []api.OwnerReference{sts("", nil)}, nil},
	} {
		set := bareSet("sts", "123", 1, api.DeletePersistentVolumeClaimRetentionPolicyType, api.DeletePersistentVolumeClaimRetentionPolicyType)
		claim := claimWith(tc.original...)
		updateClaimOwnerRefForSetAndPod(claim, set, barePod("pod-0", "456"))
		if key(claim.OwnerReferences) != key(tc.expected) {
			t.Errorf("%s: refs %+v, want %+v", tc.name, claim.OwnerReferences, tc.expected)
		}
		for _, r := range claim.OwnerReferences {
			if r.UID == set.UID && (r.Controller == nil || !*r.Controller) {
				t.Errorf("%s: the set's reference is no controller", tc.name)
			}
		}
	}
}

func TestHasOwnerRef(t *testing.T) {
	target := claimWith(api.OwnerReference{UID: "123", Controller: yes()}, api.OwnerReference{UID: "456", Controller: no()}, api.OwnerReference{UID: "789"})
	for uid, want := range map[api.UID]bool{"123": true, "456": true, "789": true, "012": false} {
		if got := hasOwnerRef(target, &api.ObjectMeta{UID: uid}); got != want {
			t.Errorf("uid %s: got %v, want %v", uid, got, want)
		}
	}
}

func TestHasUnexpectedController(t *testing.T) {
	for _, tc := range []struct {
		name string
		refs []api.OwnerReference
		want bool
	}{
		{"custom controller", []api.OwnerReference{ref("chipmunks/v1", "CustomController", "simon", "other-uid", yes())}, true},
		{"custom non-controller", []api.OwnerReference{ref("chipmunks/v1", "CustomController", "simon", "other-uid", no())}, false},
		{"custom unspecified controller", []api.OwnerReference{ref("chipmunks/v1", "CustomController", "simon", "other-uid", nil)}, false},
		{"other pod controller", []api.OwnerReference{ref("v1", "Pod", "simon", "other-uid", yes())}, true},
		{"other set controller", []api.OwnerReference{ref("apps/v1", "Set", "simon", "other-uid", yes())}, true},
		{"own set controller", []api.OwnerReference{ref("apps/v1", "StatefulSet", "set", "set-uid", yes())}, false},
		{"own set controller, stale uid", []api.OwnerReference{ref("apps/v1", "StatefulSet", "set", "stale-uid", yes())}, true},
		{"own pod controller", []api.OwnerReference{ref("v1", "Pod", "pod", "pod-uid", yes())}, false},
		{"own pod controller, stale uid", []api.OwnerReference{ref("v1", "Pod", "pod", "stale-uid", yes())}, true},
		{"own controller and another", []api.OwnerReference{ref("v1", "Pod", "pod", "pod-uid", yes()), ref("chipmunks/v1", "CustomController", "simon", "other-uid", yes())}, true},
		{"own controller and a non-controller", []api.OwnerReference{ref("v1", "Pod", "pod", "pod-uid", yes()), ref("chipmunks/v1", "CustomController", "simon", "other-uid", no())}, false},
	} {
		claim, p := claimWith(tc.refs...), barePod("pod", "pod-uid")
		if hasUnexpectedController(claim, bareSet("set", "set-uid", 1, "", ""), p) {
			t.Errorf("%s: an unexpected controller without a retention policy (Retain)", tc.name)
		}
		for _, pol := range [][2]string{{"Delete", "Retain"}, {"Retain", "Delete"}, {"Delete", "Delete"}} {
			if got := hasUnexpectedController(claim, bareSet("set", "set-uid", 1, pol[0], pol[1]), p); got != tc.want {
				t.Errorf("%s (whenScaled %s, whenDeleted %s): got %v, want %v", tc.name, pol[0], pol[1], got, tc.want)
			}
		}
	}
}

func TestNonController(t *testing.T) {
	for _, tc := range []struct {
		name string
		refs []api.OwnerReference
		want bool
	}{
		{"set and pod controller", []api.OwnerReference{ref("v1", "Pod", "pod", "pod", yes()), ref("apps/v1", "Set", "set", "set", yes())}, false},
		{"set controller, pod noncontroller", []api.OwnerReference{ref("v1", "Pod", "pod", "pod", nil), ref("apps/v1", "Set", "set", "set", yes())}, true},
		{"set noncontroller, pod controller", []api.OwnerReference{ref("v1", "Pod", "pod", "pod", yes()), ref("apps/v1", "Set", "set", "set", nil)}, true},
		{"set controller", []api.OwnerReference{ref("apps/v1", "Set", "set", "set", yes())}, false},
		{"pod controller", []api.OwnerReference{ref("v1", "Pod", "pod", "pod", yes())}, false},
		{"nothing", nil, false},
		{"set noncontroller", []api.OwnerReference{ref("apps/v1", "Set", "set", "set", nil)}, true},
		{"set noncontroller with ptr", []api.OwnerReference{ref("apps/v1", "Set", "set", "set", no())}, true},
		{"pod noncontroller", []api.OwnerReference{ref("v1", "pod", "pod", "pod", nil)}, true},
		{"other noncontroller", []api.OwnerReference{ref("v1", "pod", "pod", "not-matching", nil)}, false},
	} {
		if got := hasNonControllerOwner(claimWith(tc.refs...), bareSet("set", "set", 1, "", ""), barePod("pod", "pod")); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestHasStaleOwnerRef(t *testing.T) {
	target := claimWith(api.OwnerReference{Name: "bob", UID: "123", APIVersion: "v1", Kind: "Pod"}, api.OwnerReference{Name: "shirley", UID: "456", APIVersion: "v1", Kind: "Pod"})
	for _, tc := range []struct {
		name  string
		uid   api.UID
		stale bool
	}{{"bob", "123", false}, {"shirley", "789", true}, {"yvonne", "345", false}} {
		if got := hasStaleOwnerRef(target, &api.ObjectMeta{Name: tc.name, UID: tc.uid}, "v1", "Pod"); got != tc.stale {
			t.Errorf("%s: stale %v, want %v", tc.name, got, tc.stale)
		}
	}
}

func TestIsRunningAndReady(t *testing.T) {
	p := newStatefulSetPod(newStatefulSet(3), 1)
	if isRunningAndReady(p) {
		t.Error("isRunningAndReady does not respect Pod phase")
	}
	p.Status.Phase = api.PodRunning
	if isRunningAndReady(p) {
		t.Error("isRunningAndReady does not respect Pod condition")
	}
	p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}
	if !isRunningAndReady(p) {
		t.Error("Pod should be running and ready")
	}
}

func TestNewPodControllerRef(t *testing.T) {
	set := newStatefulSet(1)
	ref := api.GetControllerOfNoCopy(&newStatefulSetPod(set, 0).ObjectMeta)
	if ref == nil || ref.APIVersion != "apps/v1" || ref.Kind != "StatefulSet" || ref.Name != set.Name || ref.UID != set.UID || ref.Controller == nil || !*ref.Controller {
		t.Errorf("controller reference %+v", ref)
	}
}

func TestGetPersistentVolumeClaims(t *testing.T) {
	set := newStatefulSet(1)
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "foo-0", Namespace: "default"}}
	for _, tc := range []struct {
		name                     string
		selector, template, want map[string]string
	}{
		{"nil inherits statefulset labels", nil, nil, nil},
		{"selector labels", map[string]string{"test": "test"}, nil, map[string]string{"test": "test"}},
		{"non-overlapping labels merge", map[string]string{"name": "foo"}, map[string]string{"test": "test"}, map[string]string{"test": "test", "name": "foo"}},
		{"overlapping labels prefer the selector's", map[string]string{"test": "foo"}, map[string]string{"test": "test"}, map[string]string{"test": "foo"}},
	} {
		set.Spec.Selector.MatchLabels = tc.selector
		set.Spec.VolumeClaimTemplates[0].Labels = tc.template
		claims := getPersistentVolumeClaims(set, p)
		if len(claims) != 1 || claims[0].Name != "datadir-foo-0" || claims[0].Namespace != "default" || fmt.Sprint(claims[0].Labels) != fmt.Sprint(tc.want) {
			t.Errorf("%s: claims %+v, want datadir-foo-0 in default labelled %v", tc.name, claims, tc.want)
		}
	}
}

// TestGetPersistentVolumeClaimRetentionPolicy is upstream's test of the
// same name: the set's policy as given.
func TestGetPersistentVolumeClaimRetentionPolicy(t *testing.T) {
	const retain, del = api.RetainPersistentVolumeClaimRetentionPolicyType, api.DeletePersistentVolumeClaimRetentionPolicyType
	for _, tc := range []struct {
		name   string
		policy api.StatefulSetPersistentVolumeClaimRetentionPolicy
	}{
		{"retain policy", api.StatefulSetPersistentVolumeClaimRetentionPolicy{WhenScaled: retain, WhenDeleted: retain}},
		{"scaledown policy", api.StatefulSetPersistentVolumeClaimRetentionPolicy{WhenScaled: del, WhenDeleted: retain}},
	} {
		set := &api.StatefulSet{}
		policy := tc.policy
		set.Spec.PersistentVolumeClaimRetentionPolicy = &policy
		if got := retentionPolicy(set); got != tc.policy {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.policy)
		}
	}
}
