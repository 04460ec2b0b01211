package kubectl

import (
	"errors"
	"fmt"
	"io"
	"net"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// ErrUnsupportedKind is returned for a kind a printer has no columns or
// description for.
var ErrUnsupportedKind = errors.New("kind not supported by this printer")

// GetOptions are the flags of `kubectl get` the printer honours. The zero
// value is `kubectl get <kind>` in the "default" namespace.
type GetOptions struct {
	// Wide adds the -o wide columns.
	Wide bool
	// AllNamespaces (-A) adds the NAMESPACE column.
	AllNamespaces bool
	// Namespace is the namespace listed, for "No resources found in
	// <namespace> namespace."; "" means "default".
	Namespace string
	// NoHeaders (--no-headers) leaves out the header row.
	NoHeaders bool
	// SortBy is --sort-by: "" keeps the API server's order (namespace,
	// then name); ".metadata.creationTimestamp" and ".lastTimestamp"
	// (events) sort by time, ".metadata.name" by name.
	SortBy string
	// Custom is how a custom kind is served (its printer columns); Get
	// needs it for a kind a CustomResourceDefinition defines.
	Custom *api.ResourceInfo
}

// column is one column of a kubectl table: its header and whether it is
// an -o wide column (priority 1).
type column struct {
	name string
	wide bool
}

// table is the column definitions and row function of one kind, after
// pkg/printers/internalversion/printers.go.
type table struct {
	columns []column
	row     func(o api.Object, now time.Time) []string
}

func cols(names ...string) []column {
	out := make([]column, len(names))
	for i, n := range names {
		if w, ok := strings.CutPrefix(n, "+"); ok {
			out[i] = column{name: w, wide: true}
		} else {
			out[i] = column{name: n}
		}
	}
	return out
}

// tables are kubectl's default columns per kind; "+" marks -o wide ones.
var tables = map[api.Kind]table{
	api.KindPod:                     {cols("Name", "Ready", "Status", "Restarts", "Age", "+IP", "+Node", "+Nominated Node", "+Readiness Gates"), podRow},
	api.KindDeployment:              {cols("Name", "Ready", "Up-to-date", "Available", "Age", "+Containers", "+Images", "+Selector"), deploymentRow},
	api.KindReplicaSet:              {cols("Name", "Desired", "Current", "Ready", "Age", "+Containers", "+Images", "+Selector"), replicaSetRow},
	api.KindNode:                    {cols("Name", "Status", "Roles", "Age", "Version", "+Internal-IP", "+External-IP", "+OS-Image", "+Kernel-Version", "+Container-Runtime"), nodeRow},
	api.KindService:                 {cols("Name", "Type", "Cluster-IP", "External-IP", "Port(s)", "Age", "+Selector"), serviceRow},
	api.KindEndpoints:               {cols("Name", "Endpoints", "Age"), endpointsRow},
	api.KindHorizontalPodAutoscaler: {cols("Name", "Reference", "Targets", "MinPods", "MaxPods", "Replicas", "Age"), hpaRow},
	api.KindEvent:                   {cols("Last Seen", "Type", "Reason", "Object", "+Subobject", "+Source", "Message", "+First Seen", "+Count", "+Name"), eventRow},
	api.KindResourceQuota:           {cols("Name", "Age", "Request", "Limit"), quotaRow},
	api.KindConfigMap:               {cols("Name", "Data", "Age"), configMapRow},
	api.KindNamespace:               {cols("Name", "Status", "Age"), namespaceRow},
	api.KindLease:                   {cols("Name", "Holder", "Age"), leaseRow},
	// k/k pkg/printers/internalversion/printers.go
	// podDisruptionBudgetColumnDefinitions.
	api.KindPodDisruptionBudget: {cols("Name", "Min Available", "Max Unavailable", "Allowed Disruptions", "Age"), pdbRow},
}

// newTableWriter is cli-runtime's GetNewTabWriter.
func newTableWriter(w io.Writer) *tabwriter.Writer {
	return tabwriter.NewWriter(w, 6, 4, 3, ' ', 0)
}

// Get prints objs of kind as `kubectl get <kind>` prints them at now:
// upper-case headers, tab-aligned columns three spaces apart, one row per
// object in the API server's order (or opts.SortBy). An empty list prints
// kubectl's "No resources found in <namespace> namespace." (or "No
// resources found" for cluster-scoped kinds and -A). Objects of another
// kind in objs are skipped.
func Get(w io.Writer, kind api.Kind, objs []api.Object, now time.Time, opts GetOptions) error {
	tbl, ok := tables[kind]
	if !ok && opts.Custom != nil && opts.Custom.Kind == kind {
		tbl, ok = customTable(*opts.Custom), true
	}
	if !ok {
		return fmt.Errorf("%w: get %s", ErrUnsupportedKind, kind)
	}
	list := make([]api.Object, 0, len(objs))
	for _, o := range objs {
		if o != nil && !reflect.ValueOf(o).IsNil() && api.KindOf(o) == kind {
			list = append(list, o)
		}
	}
	if len(list) == 0 {
		info, _ := api.Lookup(kind)
		if opts.Custom != nil {
			info = *opts.Custom
		}
		ns := opts.Namespace
		if ns == "" {
			ns = "default"
		}
		if info.Namespaced && !opts.AllNamespaces {
			_, err := fmt.Fprintf(w, "No resources found in %s namespace.\n", ns)
			return err
		}
		_, err := io.WriteString(w, "No resources found\n")
		return err
	}
	sortObjects(list, opts.SortBy)
	tw := newTableWriter(w)
	var cells []string
	if !opts.NoHeaders {
		if opts.AllNamespaces {
			cells = append(cells, "NAMESPACE")
		}
		for _, c := range tbl.columns {
			if !c.wide || opts.Wide {
				cells = append(cells, strings.ToUpper(c.name))
			}
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	for _, o := range list {
		row := tbl.row(o, now)
		cells = cells[:0]
		if opts.AllNamespaces {
			cells = append(cells, cell(o.GetObjectMeta().Namespace))
		}
		for i, c := range tbl.columns {
			if !c.wide || opts.Wide {
				cells = append(cells, cell(row[i]))
			}
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	return tw.Flush()
}

// cell is a table cell as kubectl's table printer writes it: cut at the
// first line break (a tab writer would treat it as the end of the row),
// with "..." to show the cut.
func cell(s string) string {
	if i := strings.IndexAny(s, "\f\n\r"); i >= 0 {
		return s[:i] + "..."
	}
	return s
}

// sortObjects orders objects as listed by the API server (namespace, then
// name) or by a --sort-by field, stably.
func sortObjects(list []api.Object, sortBy string) {
	key := func(o api.Object) string {
		m := o.GetObjectMeta()
		return m.Namespace + "/" + m.Name
	}
	sort.SliceStable(list, func(i, j int) bool { return key(list[i]) < key(list[j]) })
	var at func(o api.Object) time.Time
	switch sortBy {
	case ".metadata.creationTimestamp":
		at = func(o api.Object) time.Time { return o.GetObjectMeta().CreationTimestamp.Time }
	case ".lastTimestamp":
		at = func(o api.Object) time.Time {
			if e, ok := o.(*api.Event); ok {
				return eventTime(e)
			}
			return time.Time{}
		}
	case ".metadata.name":
		sort.SliceStable(list, func(i, j int) bool { return list[i].GetObjectMeta().Name < list[j].GetObjectMeta().Name })
		return
	default:
		return
	}
	sort.SliceStable(list, func(i, j int) bool { return at(list[i]).Before(at(list[j])) })
}

// ---- pods ----

// nodeUnreachablePodReason is the pod status reason node lifecycle sets
// on pods of an unreachable node (k/k pkg/util/node).
const nodeUnreachablePodReason = "NodeLost"

func isRestartableInit(c *api.Container) bool {
	return c != nil && c.RestartPolicy != nil && *c.RestartPolicy == api.ContainerRestartPolicyAlways
}

// PodStatus returns the READY, STATUS and RESTARTS cells of a pod as
// kubectl's printPod computes them at now: "2/3", "CrashLoopBackOff",
// "4 (38s ago)".
func PodStatus(pod *api.Pod, now time.Time) (ready, status, restarts string) {
	if pod == nil {
		return "", "", ""
	}
	restartCount := 0
	restartableInitRestarts := 0
	total := len(pod.Spec.Containers)
	readyCount := 0
	var lastRestart, lastRestartableInitRestart time.Time

	reason := string(pod.Status.Phase)
	if pod.Status.Reason != "" {
		reason = pod.Status.Reason
	}
	for _, c := range pod.Status.Conditions {
		if c.Type == api.PodScheduled && c.Reason == "SchedulingGated" {
			reason = "SchedulingGated"
		}
	}
	initContainers := map[string]*api.Container{}
	for i := range pod.Spec.InitContainers {
		c := &pod.Spec.InitContainers[i]
		initContainers[c.Name] = c
		if isRestartableInit(c) {
			total++
		}
	}
	later := func(cur *time.Time, t api.Time) {
		if cur.Before(t.Time) {
			*cur = t.Time
		}
	}
	initializing := false
	for i, cs := range pod.Status.InitContainerStatuses {
		restartCount += int(cs.RestartCount)
		if t := cs.LastTerminationState.Terminated; t != nil {
			later(&lastRestart, t.FinishedAt)
		}
		restartable := isRestartableInit(initContainers[cs.Name])
		if restartable {
			restartableInitRestarts += int(cs.RestartCount)
			if t := cs.LastTerminationState.Terminated; t != nil {
				later(&lastRestartableInitRestart, t.FinishedAt)
			}
		}
		switch {
		case cs.State.Terminated != nil && cs.State.Terminated.ExitCode == 0:
			continue
		case restartable && cs.Started != nil && *cs.Started:
			if cs.Ready {
				readyCount++
			}
			continue
		case cs.State.Terminated != nil:
			t := cs.State.Terminated
			switch {
			case t.Reason != "":
				reason = "Init:" + t.Reason
			case t.Signal != 0:
				reason = fmt.Sprintf("Init:Signal:%d", t.Signal)
			default:
				reason = fmt.Sprintf("Init:ExitCode:%d", t.ExitCode)
			}
			initializing = true
		case cs.State.Waiting != nil && cs.State.Waiting.Reason != "" && cs.State.Waiting.Reason != "PodInitializing":
			reason = "Init:" + cs.State.Waiting.Reason
			initializing = true
		default:
			reason = fmt.Sprintf("Init:%d/%d", i, len(pod.Spec.InitContainers))
			initializing = true
		}
		break
	}
	if !initializing || podInitialized(pod) {
		restartCount = restartableInitRestarts
		lastRestart = lastRestartableInitRestart
		hasRunning := false
		for i := len(pod.Status.ContainerStatuses) - 1; i >= 0; i-- {
			cs := pod.Status.ContainerStatuses[i]
			restartCount += int(cs.RestartCount)
			if t := cs.LastTerminationState.Terminated; t != nil {
				later(&lastRestart, t.FinishedAt)
			}
			switch {
			case cs.State.Waiting != nil && cs.State.Waiting.Reason != "":
				reason = cs.State.Waiting.Reason
			case cs.State.Terminated != nil && cs.State.Terminated.Reason != "":
				reason = cs.State.Terminated.Reason
			case cs.State.Terminated != nil:
				if cs.State.Terminated.Signal != 0 {
					reason = fmt.Sprintf("Signal:%d", cs.State.Terminated.Signal)
				} else {
					reason = fmt.Sprintf("ExitCode:%d", cs.State.Terminated.ExitCode)
				}
			case cs.Ready && cs.State.Running != nil:
				hasRunning = true
				readyCount++
			}
		}
		if reason == "Completed" && hasRunning {
			if api.IsPodReady(pod) {
				reason = "Running"
			} else {
				reason = "NotReady"
			}
		}
	}
	terminal := pod.Status.Phase == api.PodSucceeded || pod.Status.Phase == api.PodFailed
	if pod.DeletionTimestamp != nil && pod.Status.Reason == nodeUnreachablePodReason {
		reason = "Unknown"
	} else if pod.DeletionTimestamp != nil && !terminal {
		reason = "Terminating"
	}
	restarts = strconv.Itoa(restartCount)
	if restartCount != 0 && !lastRestart.IsZero() {
		restarts = fmt.Sprintf("%d (%s ago)", restartCount, HumanDuration(now.Sub(lastRestart)))
	}
	return fmt.Sprintf("%d/%d", readyCount, total), reason, restarts
}

func podInitialized(p *api.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == api.PodInitialized {
			return c.Status == api.ConditionTrue
		}
	}
	return false
}

func podRow(o api.Object, now time.Time) []string {
	pod := o.(*api.Pod)
	ready, status, restarts := PodStatus(pod, now)
	ip := "<none>"
	if len(pod.Status.PodIPs) > 0 && pod.Status.PodIPs[0].IP != "" {
		ip = pod.Status.PodIPs[0].IP
	}
	node := orNone(pod.Spec.NodeName)
	nominated := orNone(pod.Status.NominatedNodeName)
	gates := "<none>"
	if len(pod.Spec.ReadinessGates) > 0 {
		trueConds := 0
		for _, g := range pod.Spec.ReadinessGates {
			for _, c := range pod.Status.Conditions {
				if c.Type == g.ConditionType {
					if c.Status == api.ConditionTrue {
						trueConds++
					}
					break
				}
			}
		}
		gates = fmt.Sprintf("%d/%d", trueConds, len(pod.Spec.ReadinessGates))
	}
	return []string{pod.Name, ready, status, restarts, since(pod.CreationTimestamp, now), ip, node, nominated, gates}
}

func orNone(s string) string {
	if s == "" {
		return "<none>"
	}
	return s
}

// ---- workloads ----

func deref(p *int32) int32 {
	if p == nil {
		return 0
	}
	return *p
}

// containerCells are the CONTAINERS and IMAGES cells of -o wide.
func containerCells(cs []api.Container) (names, images string) {
	n := make([]string, len(cs))
	im := make([]string, len(cs))
	for i, c := range cs {
		n[i], im[i] = c.Name, c.Image
	}
	return strings.Join(n, ","), strings.Join(im, ",")
}

// formatLabelSelector is metav1.FormatLabelSelector.
func formatLabelSelector(ls *api.LabelSelector) string {
	sel, err := api.LabelSelectorAsSelector(ls)
	if err != nil {
		return "<error>"
	}
	if s := sel.String(); s != "" {
		return s
	}
	return "<none>"
}

// formatLabels is labels.FormatLabels: sorted "k=v" pairs or "<none>".
func formatLabels(m map[string]string) string {
	if len(m) == 0 {
		return "<none>"
	}
	keys := sortedKeys(m)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + m[k]
	}
	return strings.Join(parts, ",")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func deploymentRow(o api.Object, now time.Time) []string {
	d := o.(*api.Deployment)
	selector := "<invalid>"
	if sel, err := api.LabelSelectorAsSelector(d.Spec.Selector); err == nil {
		selector = sel.String()
	}
	names, images := containerCells(d.Spec.Template.Spec.Containers)
	return []string{d.Name, fmt.Sprintf("%d/%d", d.Status.ReadyReplicas, deref(d.Spec.Replicas)),
		strconv.Itoa(int(d.Status.UpdatedReplicas)), strconv.Itoa(int(d.Status.AvailableReplicas)),
		since(d.CreationTimestamp, now), names, images, selector}
}

func replicaSetRow(o api.Object, now time.Time) []string {
	rs := o.(*api.ReplicaSet)
	names, images := containerCells(rs.Spec.Template.Spec.Containers)
	return []string{rs.Name, strconv.Itoa(int(deref(rs.Spec.Replicas))), strconv.Itoa(int(rs.Status.Replicas)),
		strconv.Itoa(int(rs.Status.ReadyReplicas)), since(rs.CreationTimestamp, now), names, images, formatLabelSelector(rs.Spec.Selector)}
}

// ---- nodes ----

// nodeInfo is the part of the opaque node status nodeInfo kubectl prints.
type nodeInfo struct {
	MachineID               string `json:"machineID"`
	SystemUUID              string `json:"systemUUID"`
	BootID                  string `json:"bootID"`
	KernelVersion           string `json:"kernelVersion"`
	OSImage                 string `json:"osImage"`
	ContainerRuntimeVersion string `json:"containerRuntimeVersion"`
	KubeletVersion          string `json:"kubeletVersion"`
	KubeProxyVersion        string `json:"kubeProxyVersion"`
	OperatingSystem         string `json:"operatingSystem"`
	Architecture            string `json:"architecture"`
}

func infoOf(n *api.Node) nodeInfo {
	var info nodeInfo
	_ = n.Status.NodeInfo.Decode(&info) // an undecodable nodeInfo prints as empty
	return info
}

// Node role labels (kubectl's findNodeRoles).
const (
	labelNodeRolePrefix = "node-role.kubernetes.io/"
	nodeLabelRole       = "kubernetes.io/role"
)

// nodeRoles returns a node's roles, sorted.
func nodeRoles(n *api.Node) []string {
	var roles []string
	for k, v := range n.Labels {
		switch {
		case strings.HasPrefix(k, labelNodeRolePrefix):
			if role := strings.TrimPrefix(k, labelNodeRolePrefix); role != "" {
				roles = append(roles, role)
			}
		case k == nodeLabelRole && v != "":
			roles = append(roles, v)
		}
	}
	sort.Strings(roles)
	return slices.Compact(roles)
}

// NodeStatus returns the STATUS cell of a node: its Ready condition as
// "Ready", "NotReady" or "Unknown" (no Ready condition), with
// ",SchedulingDisabled" when cordoned.
func NodeStatus(n *api.Node) string {
	if n == nil {
		return ""
	}
	var status []string
	for _, c := range n.Status.Conditions {
		if c.Type == api.NodeReady {
			if c.Status == api.ConditionTrue {
				status = append(status, string(c.Type))
			} else {
				status = append(status, "Not"+string(c.Type))
			}
			break
		}
	}
	if len(status) == 0 {
		status = append(status, "Unknown")
	}
	if n.Spec.Unschedulable {
		status = append(status, "SchedulingDisabled")
	}
	return strings.Join(status, ",")
}

func nodeAddress(n *api.Node, t api.NodeAddressType) string {
	for _, a := range n.Status.Addresses {
		if a.Type == t {
			return a.Address
		}
	}
	return "<none>"
}

func orUnknown(s string) string {
	if s == "" {
		return "<unknown>"
	}
	return s
}

func nodeRow(o api.Object, now time.Time) []string {
	n := o.(*api.Node)
	roles := strings.Join(nodeRoles(n), ",")
	if roles == "" {
		roles = "<none>"
	}
	info := infoOf(n)
	return []string{n.Name, NodeStatus(n), roles, since(n.CreationTimestamp, now), info.KubeletVersion,
		nodeAddress(n, api.NodeInternalIP), nodeAddress(n, api.NodeExternalIP),
		orUnknown(info.OSImage), orUnknown(info.KernelVersion), orUnknown(info.ContainerRuntimeVersion)}
}

// ---- services and endpoints ----

// loadBalancerIngress is one ingress point of the opaque service status.
type loadBalancerIngress struct {
	IP       string  `json:"ip"`
	Hostname string  `json:"hostname"`
	IPMode   *string `json:"ipMode"`
}

func ingressOf(s *api.Service) []loadBalancerIngress {
	var lb struct {
		Ingress []loadBalancerIngress `json:"ingress"`
	}
	_ = s.Status.LoadBalancer.Decode(&lb) // an undecodable status has no ingress
	return lb.Ingress
}

// externalIP is kubectl's getServiceExternalIP (wide): the load balancer
// addresses are sorted, where kubectl prints them in set order.
func externalIP(s *api.Service) string {
	switch s.Spec.Type {
	case api.ServiceTypeClusterIP, "", api.ServiceTypeNodePort:
		if len(s.Spec.ExternalIPs) > 0 {
			return strings.Join(s.Spec.ExternalIPs, ",")
		}
		return "<none>"
	case api.ServiceTypeLoadBalancer:
		var lb []string
		for _, in := range ingressOf(s) {
			switch {
			case in.IP != "":
				lb = append(lb, in.IP)
			case in.Hostname != "":
				lb = append(lb, in.Hostname)
			}
		}
		sort.Strings(lb)
		lb = slices.Compact(lb)
		results := append(lb, s.Spec.ExternalIPs...)
		if len(results) > 0 {
			return strings.Join(results, ",")
		}
		return "<pending>"
	case api.ServiceTypeExternalName:
		return s.Spec.ExternalName
	}
	return "<unknown>"
}

func portString(ports []api.ServicePort) string {
	pieces := make([]string, len(ports))
	for i, p := range ports {
		if p.NodePort > 0 {
			pieces[i] = fmt.Sprintf("%d:%d/%s", p.Port, p.NodePort, p.Protocol)
		} else {
			pieces[i] = fmt.Sprintf("%d/%s", p.Port, p.Protocol)
		}
	}
	return strings.Join(pieces, ",")
}

func serviceRow(o api.Object, now time.Time) []string {
	s := o.(*api.Service)
	clusterIP := "<none>"
	if len(s.Spec.ClusterIPs) > 0 {
		clusterIP = s.Spec.ClusterIPs[0]
	}
	ports := portString(s.Spec.Ports)
	if ports == "" {
		ports = "<none>"
	}
	return []string{s.Name, string(s.Spec.Type), clusterIP, externalIP(s), ports, since(s.CreationTimestamp, now), formatLabels(s.Spec.Selector)}
}

// formatEndpoints is kubectl's formatEndpoints: up to three "ip:port"
// (ports named in portNames, all when nil), then "+ N more...".
func formatEndpoints(e *api.Endpoints, portNames []string) string {
	if len(e.Subsets) == 0 {
		return "<none>"
	}
	const maxShown = 3
	var list []string
	more := false
	count := 0
	for _, ss := range e.Subsets {
		if len(ss.Ports) == 0 {
			count += len(ss.Addresses)
			for _, a := range ss.Addresses {
				if len(list) == maxShown {
					more = true
					break
				}
				list = append(list, a.IP)
			}
			continue
		}
		for _, p := range ss.Ports {
			if portNames != nil && !slices.Contains(portNames, p.Name) {
				continue
			}
			count += len(ss.Addresses)
			for _, a := range ss.Addresses {
				if len(list) == maxShown {
					more = true
					break
				}
				list = append(list, net.JoinHostPort(a.IP, strconv.Itoa(int(p.Port))))
			}
		}
	}
	ret := strings.Join(list, ",")
	if more {
		return fmt.Sprintf("%s + %d more...", ret, count-maxShown)
	}
	return ret
}

func endpointsRow(o api.Object, now time.Time) []string {
	e := o.(*api.Endpoints)
	return []string{e.Name, formatEndpoints(e, nil), since(e.CreationTimestamp, now)}
}

// ---- autoscalers ----

// opaqueTarget and opaqueCurrent read the metric kinds the API types keep
// opaque (Pods, Object, External, ContainerResource).
type opaqueTarget struct {
	Name   api.ResourceName `json:"name"`
	Target struct {
		Value              *api.Quantity `json:"value"`
		AverageValue       *api.Quantity `json:"averageValue"`
		AverageUtilization *int32        `json:"averageUtilization"`
	} `json:"target"`
}

type opaqueCurrent struct {
	Current struct {
		Value              *api.Quantity `json:"value"`
		AverageValue       *api.Quantity `json:"averageValue"`
		AverageUtilization *int32        `json:"averageUtilization"`
	} `json:"current"`
}

func qty(q *api.Quantity) string {
	if q == nil {
		return "<unknown>"
	}
	return q.String()
}

// formatHPAMetrics is kubectl's TARGETS cell: up to two metrics as
// "current/target", then "+ N more...".
func formatHPAMetrics(specs []api.MetricSpec, statuses []api.MetricStatus) string {
	if len(specs) == 0 {
		return "<none>"
	}
	decode := func(r *api.RawValue, v any) bool { return r != nil && r.Decode(v) == nil }
	var list []string
	for i, spec := range specs {
		var st *api.MetricStatus
		if i < len(statuses) {
			st = &statuses[i]
		}
		current := "<unknown>"
		switch spec.Type {
		case api.ExternalMetricSourceType, api.ObjectMetricSourceType:
			raw, rawSt := spec.External, (*api.RawValue)(nil)
			if spec.Type == api.ObjectMetricSourceType {
				raw = spec.Object
			}
			if st != nil {
				rawSt = st.External
				if spec.Type == api.ObjectMetricSourceType {
					rawSt = st.Object
				}
			}
			var t opaqueTarget
			var c opaqueCurrent
			decode(raw, &t)
			hasCurrent := decode(rawSt, &c)
			if t.Target.AverageValue != nil {
				if hasCurrent && c.Current.AverageValue != nil {
					current = c.Current.AverageValue.String()
				}
				list = append(list, fmt.Sprintf("%s/%s (avg)", current, t.Target.AverageValue.String()))
			} else {
				if hasCurrent {
					current = qty(c.Current.Value)
				}
				list = append(list, fmt.Sprintf("%s/%s", current, qty(t.Target.Value)))
			}
		case api.PodsMetricSourceType:
			var t opaqueTarget
			var c opaqueCurrent
			decode(spec.Pods, &t)
			if st != nil && decode(st.Pods, &c) {
				current = qty(c.Current.AverageValue)
			}
			list = append(list, fmt.Sprintf("%s/%s", current, qty(t.Target.AverageValue)))
		case api.ResourceMetricSourceType:
			if spec.Resource == nil {
				list = append(list, "<unknown type>")
				continue
			}
			r := spec.Resource
			if r.Target.AverageValue != nil {
				if st != nil && st.Resource != nil {
					current = qty(st.Resource.Current.AverageValue)
				}
				list = append(list, fmt.Sprintf("%s: %s/%s", r.Name, current, r.Target.AverageValue.String()))
			} else {
				if st != nil && st.Resource != nil && st.Resource.Current.AverageUtilization != nil {
					current = fmt.Sprintf("%d%%", *st.Resource.Current.AverageUtilization)
				}
				target := "<auto>"
				if r.Target.AverageUtilization != nil {
					target = fmt.Sprintf("%d%%", *r.Target.AverageUtilization)
				}
				list = append(list, fmt.Sprintf("%s: %s/%s", r.Name, current, target))
			}
		case api.ContainerResourceMetricSourceType:
			var t opaqueTarget
			var c opaqueCurrent
			decode(spec.ContainerResource, &t)
			hasCurrent := st != nil && decode(st.ContainerResource, &c)
			if t.Target.AverageValue != nil {
				if hasCurrent {
					current = qty(c.Current.AverageValue)
				}
				list = append(list, fmt.Sprintf("%s: %s/%s", t.Name, current, t.Target.AverageValue.String()))
			} else {
				if hasCurrent && c.Current.AverageUtilization != nil {
					current = fmt.Sprintf("%d%%", *c.Current.AverageUtilization)
				}
				target := "<auto>"
				if t.Target.AverageUtilization != nil {
					target = fmt.Sprintf("%d%%", *t.Target.AverageUtilization)
				}
				list = append(list, fmt.Sprintf("%s: %s/%s", t.Name, current, target))
			}
		default:
			list = append(list, "<unknown type>")
		}
	}
	const maxShown = 2
	if len(list) > maxShown {
		return fmt.Sprintf("%s + %d more...", strings.Join(list[:maxShown], ", "), len(list)-maxShown)
	}
	return strings.Join(list, ", ")
}

func hpaOf(o api.Object) *api.HorizontalPodAutoscaler {
	if v1, ok := o.(*api.HorizontalPodAutoscalerV1); ok {
		return v1.ToV2()
	}
	return o.(*api.HorizontalPodAutoscaler)
}

func hpaRow(o api.Object, now time.Time) []string {
	h := hpaOf(o)
	minPods := "<unset>"
	if h.Spec.MinReplicas != nil {
		minPods = strconv.Itoa(int(*h.Spec.MinReplicas))
	}
	return []string{h.Name, h.Spec.ScaleTargetRef.Kind + "/" + h.Spec.ScaleTargetRef.Name,
		formatHPAMetrics(h.Spec.Metrics, h.Status.CurrentMetrics), minPods,
		strconv.Itoa(int(h.Spec.MaxReplicas)), strconv.Itoa(int(h.Status.CurrentReplicas)), since(h.CreationTimestamp, now)}
}

// ---- events ----

// eventTime is the time events sort by (kubectl events' eventTime): the
// series' last observation, else lastTimestamp, else eventTime.
func eventTime(e *api.Event) time.Time {
	if e.Series != nil {
		return e.Series.LastObservedTime.Time
	}
	if !e.LastTimestamp.IsZero() {
		return e.LastTimestamp.Time
	}
	return e.EventTime.Time
}

// eventSource is formatEventSource: component (or reporting controller),
// then ", host" (or reporting instance) when there is one.
func eventSource(e *api.Event) string {
	component := cmpOr(e.Source.Component, e.ReportingController)
	host := cmpOr(e.Source.Host, e.ReportingInstance)
	if host == "" {
		return component
	}
	return component + ", " + host
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func eventRow(o api.Object, now time.Time) []string {
	e := o.(*api.Event)
	first := since(e.FirstTimestamp, now)
	if e.FirstTimestamp.IsZero() {
		first = sinceMicro(e.EventTime, now)
	}
	last := since(e.LastTimestamp, now)
	if e.LastTimestamp.IsZero() {
		last = first
	}
	count := e.Count
	if e.Series != nil {
		last = sinceMicro(e.Series.LastObservedTime, now)
		count = e.Series.Count
	} else if count == 0 {
		count = 1
	}
	target := strings.ToLower(e.InvolvedObject.Kind)
	if e.InvolvedObject.Name != "" {
		target += "/" + e.InvolvedObject.Name
	}
	return []string{last, e.Type, e.Reason, target, e.InvolvedObject.FieldPath, eventSource(e),
		strings.TrimSpace(e.Message), first, strconv.Itoa(int(count)), e.Name}
}

// ---- quotas and the rest ----

func quotaRow(o api.Object, now time.Time) []string {
	q := o.(*api.ResourceQuota)
	var requests, limits []string
	for _, r := range q.Status.Hard.SortedNames() {
		used := q.Status.Used[r]
		hard := q.Status.Hard[r]
		s := fmt.Sprintf("%s: %s/%s", r, used.String(), hard.String())
		if strings.HasPrefix(string(r), "limits.") {
			limits = append(limits, s)
		} else {
			requests = append(requests, s)
		}
	}
	return []string{q.Name, since(q.CreationTimestamp, now), strings.Join(requests, ", "), strings.Join(limits, ", ")}
}

// pdbRow is printPodDisruptionBudget: "N/A" for the bound not set.
func pdbRow(o api.Object, now time.Time) []string {
	p := o.(*api.PodDisruptionBudget)
	minAvailable, maxUnavailable := "N/A", "N/A"
	if p.Spec.MinAvailable != nil {
		minAvailable = p.Spec.MinAvailable.String()
	}
	if p.Spec.MaxUnavailable != nil {
		maxUnavailable = p.Spec.MaxUnavailable.String()
	}
	return []string{p.Name, minAvailable, maxUnavailable, strconv.Itoa(int(p.Status.DisruptionsAllowed)), since(p.CreationTimestamp, now)}
}

func configMapRow(o api.Object, now time.Time) []string {
	cm := o.(*api.ConfigMap)
	return []string{cm.Name, strconv.Itoa(len(cm.Data) + len(cm.BinaryData)), since(cm.CreationTimestamp, now)}
}

func namespaceRow(o api.Object, now time.Time) []string {
	ns := o.(*api.Namespace)
	return []string{ns.Name, string(ns.Status.Phase), since(ns.CreationTimestamp, now)}
}

func leaseRow(o api.Object, now time.Time) []string {
	l := o.(*api.Lease)
	holder := ""
	if l.Spec.HolderIdentity != nil {
		holder = *l.Spec.HolderIdentity
	}
	return []string{l.Name, holder, since(l.CreationTimestamp, now)}
}
