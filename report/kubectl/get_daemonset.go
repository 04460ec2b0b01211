package kubectl

import (
	"strconv"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// kubectl's DaemonSet columns (k/k pkg/printers/internalversion
// printers.go, daemonSetColumnDefinitions).
func init() {
	tables[api.KindDaemonSet] = table{cols("Name", "Desired", "Current", "Ready", "Up-to-date", "Available", "Node Selector", "Age", "+Containers", "+Images", "+Selector"), daemonSetRow}
}

func daemonSetRow(o api.Object, now time.Time) []string {
	ds := o.(*api.DaemonSet)
	st := ds.Status
	names, images := containerCells(ds.Spec.Template.Spec.Containers)
	return []string{ds.Name, strconv.Itoa(int(st.DesiredNumberScheduled)), strconv.Itoa(int(st.CurrentNumberScheduled)),
		strconv.Itoa(int(st.NumberReady)), strconv.Itoa(int(st.UpdatedNumberScheduled)), strconv.Itoa(int(st.NumberAvailable)),
		formatLabels(ds.Spec.Template.Spec.NodeSelector), since(ds.CreationTimestamp, now), names, images, formatLabelSelector(ds.Spec.Selector)}
}
