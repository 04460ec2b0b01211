package scheduler

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/informer"
)

func testClaim(name, class, volume string) *api.PersistentVolumeClaim {
	c := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name, UID: api.UID(name + "-uid")},
		Spec: api.PersistentVolumeClaimSpec{StorageClassName: &class, VolumeName: volume, AccessModes: []string{api.ReadWriteOnce},
			Resources: api.VolumeResourceRequirements{Requests: api.ResourceList{api.ResourceStorage: api.MustParseQuantity("1Gi")}}}}
	if volume != "" {
		c.Status.Phase = api.ClaimBound
	}
	return c
}

func testVolume(name, class, zone string) *api.PersistentVolume {
	v := &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: name}, Spec: api.PersistentVolumeSpec{StorageClassName: class,
		Capacity: api.ResourceList{api.ResourceStorage: api.MustParseQuantity("1Gi")}, AccessModes: []string{api.ReadWriteOnce}},
		Status: api.PersistentVolumeStatus{Phase: api.VolumeAvailable}}
	if zone != "" {
		v.Spec.NodeAffinity = &api.VolumeNodeAffinity{Required: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
			MatchExpressions: []api.NodeSelectorRequirement{{Key: api.LabelTopologyZone, Operator: api.NodeSelectorOpIn, Values: []string{zone}}}}}}}
	}
	return v
}

func testClass(name, mode, provisioner string) *api.StorageClass {
	return &api.StorageClass{ObjectMeta: api.ObjectMeta{Name: name}, Provisioner: provisioner, VolumeBindingMode: &mode}
}

func claimPod(claims ...string) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "pod-a"}}
	for _, c := range claims {
		raw, _ := api.NewRawValue(map[string]string{"claimName": c})
		p.Spec.Volumes = append(p.Spec.Volumes, api.Volume{Name: c, Source: map[string]api.RawValue{"persistentVolumeClaim": raw}})
	}
	return p
}

// TestVolumeBinding ports the rows of upstream's table of the same name
// (k/k pkg/scheduler/framework/plugins/volumebinding/volume_binding_test.go)
// that map, on three nodes in zones a, b and c: the message a pod gets
// when it fits nowhere, "" when it fits somewhere.
func TestVolumeBinding(t *testing.T) {
	wait := testClass("wait-sc", api.VolumeBindingWaitForFirstConsumer, "kubernetes.io/no-provisioner")
	waitProvisioned := testClass("wait-provisioned-sc", api.VolumeBindingWaitForFirstConsumer, "ebs.csi.aws.com")
	immediate := testClass("immediate-sc", api.VolumeBindingImmediate, "ebs.csi.aws.com")
	classes := informer.Static{wait, waitProvisioned, immediate}
	nodes := []*api.Node{}
	for _, z := range []string{"zone-a", "zone-b", "zone-c"} {
		nodes = append(nodes, &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-" + z, Labels: map[string]string{api.LabelTopologyZone: z}}})
	}
	boundA := testVolume("pv-a", "wait-sc", "zone-a")
	boundA.Spec.ClaimRef = &api.ObjectReference{Namespace: "default", Name: "pvc-a"}
	boundA.Status.Phase = api.VolumeBound
	tests := []struct {
		name    string
		pod     *api.Pod
		claims  informer.Static
		volumes informer.Static
		want    string
	}{
		{"pod has not pvcs", claimPod(), nil, nil, ""},
		{"all bound", claimPod("pvc-a"), informer.Static{testClaim("pvc-a", "wait-sc", "pv-a")}, informer.Static{testVolume("pv-a", "wait-sc", "")}, ""},
		{"all bound with local volumes", claimPod("pvc-a"), informer.Static{testClaim("pvc-a", "wait-sc", "pv-a")}, informer.Static{boundA}, ""},
		{"PVC does not exist", claimPod("pvc-a"), nil, nil, `0/3 nodes are available: persistentvolumeclaim "pvc-a" not found.`},
		{"Part of PVCs do not exist", claimPod("pvc-a", "pvc-b"), informer.Static{testClaim("pvc-a", "wait-sc", "pv-a")}, informer.Static{boundA},
			`0/3 nodes are available: persistentvolumeclaim "pvc-b" not found.`},
		{"immediate claims not bound", claimPod("pvc-a"), informer.Static{testClaim("pvc-a", "immediate-sc", "")}, nil,
			"0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims."},
		{"unbound claims no matches", claimPod("pvc-a"), informer.Static{testClaim("pvc-a", "wait-sc", "")}, nil,
			"0/3 nodes are available: 3 node(s) didn't find available persistent volumes to bind."},
		{"bound and unbound unsatisfied", claimPod("pvc-a", "pvc-b"),
			informer.Static{testClaim("pvc-a", "wait-sc", "pv-a"), testClaim("pvc-b", "wait-sc", "")}, informer.Static{boundA},
			"0/3 nodes are available: 2 node(s) had volume node affinity conflict, 3 node(s) didn't find available persistent volumes to bind."},
		{"pv not found", claimPod("pvc-a"), informer.Static{testClaim("pvc-a", "wait-sc", "pv-a")}, nil,
			"0/3 nodes are available: 3 node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)."},
		{"unbound claim provisioned where the node is", claimPod("pvc-a"), informer.Static{testClaim("pvc-a", "wait-provisioned-sc", "")}, nil, ""},
		{"unbound claim with an available zonal volume", claimPod("pvc-a"), informer.Static{testClaim("pvc-a", "wait-sc", "")},
			informer.Static{testVolume("pv-b", "wait-sc", "zone-b")}, ""},
		{"zone lost: volume in zone-a, only b and c schedulable", claimPod("pvc-a"), informer.Static{testClaim("pvc-a", "wait-sc", "pv-a")}, informer.Static{boundA},
			"0/3 nodes are available: 2 node(s) had volume node affinity conflict."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := &volumeBinder{claims: tc.claims, volumes: tc.volumes, classes: classes}
			st, err := b.preFilter(tc.pod, len(nodes))
			got := ""
			switch {
			case err != nil:
				got = err.Error()
			case st != nil:
				candidates := nodes
				if tc.name == "zone lost: volume in zone-a, only b and c schedulable" {
					candidates = nodes[1:]
				}
				reasons := map[string]int{}
				fits := false
				for _, n := range candidates {
					rs := st.filter(b, n, nil)
					fits = fits || len(rs) == 0
					for _, r := range rs {
						reasons[r]++
					}
				}
				if !fits {
					got = (&FitError{NumAllNodes: len(nodes), Reasons: reasons}).Error()
				}
			}
			if got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}
