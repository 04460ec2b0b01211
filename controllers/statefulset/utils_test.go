package statefulset

import (
	"fmt"
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
