package kubectl

import (
	"strconv"
	"strings"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// kubectl's StatefulSet, PersistentVolumeClaim, PersistentVolume and
// StorageClass columns (k/k pkg/printers/internalversion/printers.go:
// statefulSetColumnDefinitions, persistentVolumeClaimColumnDefinitions,
// persistentVolumeColumnDefinitions, storageClassColumnDefinitions).
func init() {
	tables[api.KindStatefulSet] = table{cols("Name", "Ready", "Age", "+Containers", "+Images"), statefulSetRow}
	tables[api.KindPersistentVolumeClaim] = table{cols("Name", "Status", "Volume", "Capacity", "Access Modes", "StorageClass", "VolumeAttributesClass", "Age", "+VolumeMode"), claimRow}
	tables[api.KindPersistentVolume] = table{cols("Name", "Capacity", "Access Modes", "Reclaim Policy", "Status", "Claim", "StorageClass", "VolumeAttributesClass", "Reason", "Age", "+VolumeMode"), volumeRow}
	tables[api.KindStorageClass] = table{cols("Name", "Provisioner", "ReclaimPolicy", "VolumeBindingMode", "AllowVolumeExpansion", "Age"), storageClassRow}
}

func statefulSetRow(o api.Object, now time.Time) []string {
	s := o.(*api.StatefulSet)
	want := int32(1)
	if s.Spec.Replicas != nil {
		want = *s.Spec.Replicas
	}
	names, images := containerCells(s.Spec.Template.Spec.Containers)
	return []string{s.Name, strconv.Itoa(int(s.Status.ReadyReplicas)) + "/" + strconv.Itoa(int(want)), since(s.CreationTimestamp, now), names, images}
}

// accessModes is helper.GetAccessModesAsString: the short forms, in
// RWO, ROX, RWX, RWOP order, each once.
func accessModes(modes []string) string {
	var out []string
	for _, m := range []struct{ long, short string }{{api.ReadWriteOnce, "RWO"}, {api.ReadOnlyMany, "ROX"}, {api.ReadWriteMany, "RWX"}, {api.ReadWriteOncePod, "RWOP"}} {
		for _, x := range modes {
			if x == m.long {
				out = append(out, m.short)
				break
			}
		}
	}
	return strings.Join(out, ",")
}

func strOr(p *string, def string) string {
	if p == nil {
		return def
	}
	return *p
}

func claimRow(o api.Object, now time.Time) []string {
	c := o.(*api.PersistentVolumeClaim)
	phase := c.Status.Phase
	if c.DeletionTimestamp != nil {
		phase = "Terminating"
	}
	capacity, modes := "", ""
	if c.Spec.VolumeName != "" {
		modes = accessModes(c.Status.AccessModes)
		if q, ok := c.Status.Capacity[api.ResourceStorage]; ok {
			capacity = q.String()
		}
	}
	return []string{c.Name, phase, c.Spec.VolumeName, capacity, modes, c.StorageClassName(), strOr(c.Spec.VolumeAttributesClassName, "<unset>"),
		since(c.CreationTimestamp, now), strOr(c.Spec.VolumeMode, "<unset>")}
}

func volumeRow(o api.Object, now time.Time) []string {
	v := o.(*api.PersistentVolume)
	claim := ""
	if r := v.Spec.ClaimRef; r != nil {
		claim = r.Namespace + "/" + r.Name
	}
	capacity := ""
	if q, ok := v.Spec.Capacity[api.ResourceStorage]; ok {
		capacity = q.String()
	}
	phase := v.Status.Phase
	if v.DeletionTimestamp != nil {
		phase = "Terminating"
	}
	return []string{v.Name, capacity, accessModes(v.Spec.AccessModes), v.Spec.PersistentVolumeReclaimPolicy, phase, claim,
		v.Spec.StorageClassName, strOr(v.Spec.VolumeAttributesClassName, "<unset>"), v.Status.Reason, since(v.CreationTimestamp, now), strOr(v.Spec.VolumeMode, "<unset>")}
}

func storageClassRow(o api.Object, now time.Time) []string {
	c := o.(*api.StorageClass)
	name := c.Name
	if c.IsDefaultClass() {
		name += " (default)"
	}
	expand := "false"
	if c.AllowVolumeExpansion != nil && *c.AllowVolumeExpansion {
		expand = "true"
	}
	return []string{name, c.Provisioner, strOr(c.ReclaimPolicy, "Delete"), strOr(c.VolumeBindingMode, "Immediate"), expand, since(c.CreationTimestamp, now)}
}
