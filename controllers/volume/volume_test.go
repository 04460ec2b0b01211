package volume

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

func pv(name, size, class string, modes ...string) *api.PersistentVolume {
	return &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: name}, Spec: api.PersistentVolumeSpec{
		Capacity: api.ResourceList{api.ResourceStorage: api.MustParseQuantity(size)}, AccessModes: modes, StorageClassName: class},
		Status: api.PersistentVolumeStatus{Phase: api.VolumeAvailable}}
}

func pvc(size, class string, modes ...string) *api.PersistentVolumeClaim {
	return &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Namespace: "myns", Name: "claim01", UID: "claim01-uid"},
		Spec: api.PersistentVolumeClaimSpec{AccessModes: modes, StorageClassName: &class,
			Resources: api.VolumeResourceRequirements{Requests: api.ResourceList{api.ResourceStorage: api.MustParseQuantity(size)}}}}
}

// TestMatchVolume ports rows of upstream's table of the same name (k/k
// pkg/controller/volume/persistentvolume/index_test.go) over a volume set
// of its shape: the claim gets the smallest volume that fits, of its class,
// with its access modes and labels.
func TestMatchVolume(t *testing.T) {
	rwo, rox, rwx := api.ReadWriteOnce, api.ReadOnlyMany, api.ReadWriteMany
	labelled := pv("gce-pd-10-labelled", "10G", "", rwo, rox)
	labelled.Labels = map[string]string{"should-exist": "true"}
	bound := pv("gce-pd-1-bound", "1G", "", rwo, rox)
	bound.Spec.ClaimRef = &api.ObjectReference{Namespace: "other", Name: "someone", UID: "x"}
	vols := []*api.PersistentVolume{
		pv("gce-pd-1", "1G", "", rwo, rox), bound, pv("gce-pd-5", "5G", "", rwo, rox), labelled, pv("gce-pd-20", "20G", "", rwo, rox),
		pv("nfs-5", "5G", "", rwo, rox, rwx), pv("nfs-10", "10G", "", rwo, rox, rwx),
		pv("gce-pd-silver-10", "10G", "silver", rwo), pv("gce-pd-gold-10", "10G", "gold", rwo),
		pv("gce-pd-10000", "10000G", "", rwo, rox),
	}
	withSelector := func(c *api.PersistentVolumeClaim, k, v string) *api.PersistentVolumeClaim {
		c.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{k: v}}
		return c
	}
	for _, tc := range []struct {
		name  string
		claim *api.PersistentVolumeClaim
		want  string
	}{
		{"successful-match-gce-10", pvc("8G", "", rox, rwo), "gce-pd-10-labelled"},
		{"successful-match-nfs-5", pvc("5G", "", rox, rwo, rwx), "nfs-5"},
		{"successful-skip-1g-bound-volume", pvc("1G", "", rox, rwo), "gce-pd-1"},
		{"successful-no-match", pvc("20000G", "", rwo), ""},
		{"successful-no-match-due-to-label", withSelector(pvc("999G", "", rwo), "should-not-exist", "true"), ""},
		{"successful-match-due-to-label", withSelector(pvc("1G", "", rwo), "should-exist", "true"), "gce-pd-10-labelled"},
		{"successful-match-with-class", pvc("1G", "silver", rwo), "gce-pd-silver-10"},
		{"successful-match-with-class-no-match", pvc("1G", "bronze", rwo), ""},
		{"successful-match-very-large", pvc("10000G", "", rwo), "gce-pd-10000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ""
			if v := findMatchingVolume(tc.claim, false, nil, vols); v != nil {
				got = v.Name
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestMatchVolumeDelayed: with WaitForFirstConsumer, a zonal volume binds
// only for a selected node in its zone; a pre-bound volume always.
func TestMatchVolumeDelayed(t *testing.T) {
	zonal := pv("local-a", "10G", "local", api.ReadWriteOnce)
	zonal.Spec.NodeAffinity = &api.VolumeNodeAffinity{Required: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
		MatchExpressions: []api.NodeSelectorRequirement{{Key: api.LabelTopologyZone, Operator: api.NodeSelectorOpIn, Values: []string{"zone-a"}}}}}}}
	nodeA := &api.Node{ObjectMeta: api.ObjectMeta{Name: "a", Labels: map[string]string{api.LabelTopologyZone: "zone-a"}}}
	nodeB := &api.Node{ObjectMeta: api.ObjectMeta{Name: "b", Labels: map[string]string{api.LabelTopologyZone: "zone-b"}}}
	c := pvc("1G", "local", api.ReadWriteOnce)
	if v := findMatchingVolume(c, true, nil, []*api.PersistentVolume{zonal}); v != nil {
		t.Error("matched without a selected node")
	}
	if v := findMatchingVolume(c, true, nodeB, []*api.PersistentVolume{zonal}); v != nil {
		t.Error("matched a node in another zone")
	}
	if v := findMatchingVolume(c, true, nodeA, []*api.PersistentVolume{zonal}); v == nil {
		t.Error("did not match the node in the volume's zone")
	}
	pre := pv("pre", "1G", "other")
	pre.Spec.ClaimRef = &api.ObjectReference{Namespace: "myns", Name: "claim01"}
	if v := findMatchingVolume(c, true, nil, []*api.PersistentVolume{zonal, pre}); v != pre {
		t.Error("pre-bound volume not chosen")
	}
}
