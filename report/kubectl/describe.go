package kubectl

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"net"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/clustersim/clustersim/controllers/deployment"
	kubectlcmd "github.com/clustersim/clustersim/scenarios/kubectl"
	"github.com/clustersim/clustersim/sim/api"
)

// Related is what `kubectl describe` shows besides the object itself, as
// kubectl would have fetched it at the same instant.
type Related struct {
	// Objects are the objects describe lists: a Deployment's ReplicaSets,
	// a ReplicaSet's pods, a node's pods and its Lease (namespace
	// kube-node-lease), a Service's Endpoints. Objects that do not belong
	// to the described object (another owner, another node) are ignored.
	Objects []api.Object
	// Events are the events about the object, in any order.
	Events []*api.Event
}

// Describe prints obj as `kubectl describe` does at now, for Deployments,
// ReplicaSets, Pods, Nodes, Services, Endpoints, ResourceQuotas,
// PodDisruptionBudgets, Jobs, CronJobs and PersistentVolumeClaims; other
// kinds fail with ErrUnsupportedKind.
func Describe(w io.Writer, obj api.Object, related Related, now time.Time) error {
	if obj == nil || reflect.ValueOf(obj).IsNil() {
		return fmt.Errorf("%w: describe of nothing", ErrUnsupportedKind)
	}
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 8, 2, ' ', 0)
	p := &prefixWriter{w: tw, now: now}
	switch o := obj.(type) {
	case *api.Deployment:
		p.deployment(o, related)
	case *api.ReplicaSet:
		p.replicaSet(o, related)
	case *api.Pod:
		p.pod(o, related.Events)
	case *api.Node:
		p.node(o, related)
	case *api.ResourceQuota:
		p.quota(o)
	case *api.Service:
		p.service(o, related)
	case *api.Endpoints:
		p.endpoints(o, related.Events)
	case *api.PodDisruptionBudget:
		p.podDisruptionBudget(o, related.Events)
	case *api.Job:
		p.job(o, related.Events)
	case *api.CronJob:
		p.cronJob(o, related.Events)
	case *api.PersistentVolumeClaim:
		p.claim(o, related)
	default:
		return fmt.Errorf("%w: describe %s", ErrUnsupportedKind, api.KindOf(obj))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// Indent levels of describe (LEVEL_0 ... LEVEL_3): two spaces each.
const (
	level0 = iota
	level1
	level2
	level3
)

// prefixWriter is describe's PrefixWriter, usually over one tab writer.
type prefixWriter struct {
	w   io.Writer
	now time.Time
}

func (p *prefixWriter) write(level int, format string, args ...any) {
	fmt.Fprintf(p.w, strings.Repeat("  ", level)+format, args...)
}

func (p *prefixWriter) writeLine(s string) { fmt.Fprintln(p.w, s) }

// flush flushes a tab writer underneath (describe's PrefixWriter.Flush).
func (p *prefixWriter) flush() {
	if tw, ok := p.w.(*tabwriter.Writer); ok {
		_ = tw.Flush() // the buffer underneath never fails
	}
}

// ---- shared sections ----

// skipAnnotations are annotations describe never prints.
var skipAnnotations = []string{kubectlcmd.LastAppliedAnnotation}

// maxAnnotationLen is where describe folds and shortens annotations.
const maxAnnotationLen = 140

func (p *prefixWriter) labels(title string, labels map[string]string) {
	p.labelsIndent("", title, "\t", labels)
}

// labelsIndent is printLabelsMultilineWithIndent.
func (p *prefixWriter) labelsIndent(initial, title, inner string, labels map[string]string) {
	p.write(level0, "%s%s:%s", initial, title, inner)
	if len(labels) == 0 {
		p.writeLine("<none>")
		return
	}
	for i, k := range sortedKeys(labels) {
		if i != 0 {
			p.write(level0, "%s", initial)
			p.write(level0, "%s", inner)
		}
		p.write(level0, "%s=%s\n", k, labels[k])
	}
}

// annotations is printAnnotationsMultiline: long or multi-line values go
// on their own lines, cut at 140 characters.
func (p *prefixWriter) annotations(title string, annotations map[string]string) {
	p.write(level0, "%s:\t", title)
	var keys []string
	for _, k := range sortedKeys(annotations) {
		if !slices.Contains(skipAnnotations, k) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		p.writeLine("<none>")
		return
	}
	const indent = "\t"
	for i, k := range keys {
		if i != 0 {
			p.write(level0, indent)
		}
		value := strings.TrimSuffix(annotations[k], "\n")
		if len(value)+len(k)+2 > maxAnnotationLen || strings.Contains(value, "\n") {
			p.write(level0, "%s:\n", k)
			for _, s := range strings.Split(value, "\n") {
				p.write(level0, "%s  %s\n", indent, shorten(s, maxAnnotationLen-2))
			}
		} else {
			p.write(level0, "%s: %s\n", k, value)
		}
	}
}

func shorten(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// taints is printNodeTaintsMultiline: sorted by effect, then key.
func (p *prefixWriter) taints(title string, taints []api.Taint) {
	p.write(level0, "%s:\t", title)
	if len(taints) == 0 {
		p.writeLine("<none>")
		return
	}
	ts := slices.Clone(taints)
	slices.SortStableFunc(ts, func(a, b api.Taint) int {
		return strings.Compare(string(a.Effect)+","+a.Key, string(b.Effect)+","+b.Key)
	})
	for i, t := range ts {
		if i != 0 {
			p.write(level0, "\t")
		}
		if t.Value != "" {
			p.write(level0, "%s=%s:%s\n", t.Key, t.Value, t.Effect)
		} else {
			p.write(level0, "%s:%s\n", t.Key, t.Effect)
		}
	}
}

// tolerations is printTolerationsMultilineWithIndent: sorted by key.
func (p *prefixWriter) tolerations(initial, title string, tolerations []api.Toleration) {
	p.write(level0, "%s%s:\t", initial, title)
	if len(tolerations) == 0 {
		p.writeLine("<none>")
		return
	}
	ts := slices.Clone(tolerations)
	slices.SortStableFunc(ts, func(a, b api.Toleration) int { return strings.Compare(a.Key, b.Key) })
	for i, t := range ts {
		if i != 0 {
			p.write(level0, "%s", initial)
			p.write(level0, "\t")
		}
		p.write(level0, "%s", t.Key)
		if t.Value != "" {
			p.write(level0, "=%s", t.Value)
		}
		if t.Effect != "" {
			p.write(level0, ":%s", t.Effect)
		}
		if t.Operator == api.TolerationOpExists && t.Value == "" {
			if t.Key != "" || t.Effect != "" {
				p.write(level0, " op=Exists")
			} else {
				p.write(level0, "op=Exists")
			}
		}
		if t.TolerationSeconds != nil {
			p.write(level0, " for %ds", *t.TolerationSeconds)
		}
		p.write(level0, "\n")
	}
}

// events is DescribeEvents: the tab writer is flushed first, so the
// table aligns on its own; events sort by lastTimestamp; an event about a
// container shows its fieldPath before the message ("spec.containers{app}:
// Container started"), as kubectl's describe.go does since the kubelet's
// messages stopped naming the container (kubectl
// pkg/describe/describe.go at v0.37.0-beta.0).
func (p *prefixWriter) events(events []*api.Event) {
	var list []*api.Event
	for _, e := range events {
		if e != nil {
			list = append(list, e)
		}
	}
	if len(list) == 0 {
		p.write(level0, "Events:\t<none>\n")
		return
	}
	p.flush()
	slices.SortStableFunc(list, func(a, b *api.Event) int { return a.LastTimestamp.Time.Compare(b.LastTimestamp.Time) })
	p.write(level0, "Events:\n  Type\tReason\tAge\tFrom\tMessage\n")
	p.write(level1, "----\t------\t----\t----\t-------\n")
	for _, e := range list {
		msg := strings.TrimSpace(e.Message)
		if e.InvolvedObject.FieldPath != "" {
			msg = fmt.Sprintf("%s: %s", e.InvolvedObject.FieldPath, msg)
		}
		p.write(level1, "%v\t%v\t%s\t%v\t%v\n", e.Type, e.Reason, eventInterval(e, p.now), cmpOr(e.Source.Component, e.ReportingController), msg)
	}
}

func controlledBy(m *api.ObjectMeta) string {
	if r := api.GetControllerOfNoCopy(m); r != nil {
		return r.Kind + "/" + r.Name
	}
	return ""
}

// ---- pod templates and containers ----

// podTemplate is DescribePodTemplate.
func (p *prefixWriter) podTemplate(t *api.PodTemplateSpec) {
	p.write(level0, "Pod Template:\n")
	p.labels("  Labels", t.Labels)
	if len(t.Annotations) > 0 {
		p.annotations("  Annotations", t.Annotations)
	}
	if t.Spec.ServiceAccountName != "" {
		p.write(level1, "Service Account:\t%s\n", t.Spec.ServiceAccountName)
	}
	if len(t.Spec.InitContainers) > 0 {
		p.containers("Init Containers", t.Spec.InitContainers, nil, nil, "  ")
	}
	p.containers("Containers", t.Spec.Containers, nil, nil, "  ")
	p.volumes(t.Spec.Volumes, "  ")
	if t.Spec.PriorityClassName != "" {
		p.write(level1, "Priority Class Name:\t%s\n", t.Spec.PriorityClassName)
	}
	p.labels("  Node-Selectors", t.Spec.NodeSelector)
	p.tolerations("  ", "Tolerations", t.Spec.Tolerations)
}

// containers is describeContainers; pod is nil for a template.
func (p *prefixWriter) containers(label string, cs []api.Container, statuses []api.ContainerStatus, pod *api.Pod, space string) {
	byName := map[string]api.ContainerStatus{}
	for _, s := range statuses {
		byName[s.Name] = s
	}
	none := ""
	if len(cs) == 0 {
		none = " <none>"
	}
	p.write(level0, "%s%s:%s\n", space, label, none)
	for _, c := range cs {
		status, ok := byName[c.Name]
		nameIndent := ""
		if space != "" {
			nameIndent = " "
		}
		p.write(level1, "%s%v:\n", nameIndent, c.Name)
		if ok {
			p.write(level2, "Container ID:\t%s\n", status.ContainerID)
		}
		p.write(level2, "Image:\t%s\n", c.Image)
		if ok {
			p.write(level2, "Image ID:\t%s\n", status.ImageID)
		}
		ports, hostPorts := make([]string, 0, len(c.Ports)), make([]string, 0, len(c.Ports))
		for _, port := range c.Ports {
			ports = append(ports, fmt.Sprintf("%d/%s", port.ContainerPort, port.Protocol))
			hostPorts = append(hostPorts, fmt.Sprintf("%d/%s", port.HostPort, port.Protocol))
		}
		if s := strings.Join(ports, ", "); strings.Contains(s, ",") {
			p.write(level2, "Ports:\t%s\n", s)
		} else {
			p.write(level2, "Port:\t%s\n", orNone(s))
		}
		if s := strings.Join(hostPorts, ", "); strings.Contains(s, ",") {
			p.write(level2, "Host Ports:\t%s\n", s)
		} else {
			p.write(level2, "Host Port:\t%s\n", orNone(s))
		}
		if len(c.Command) > 0 {
			p.write(level2, "Command:\n")
			for _, s := range c.Command {
				for _, l := range strings.Split(s, "\n") {
					p.write(level3, "%s\n", l)
				}
			}
		}
		if len(c.Args) > 0 {
			p.write(level2, "Args:\n")
			for _, s := range c.Args {
				for _, l := range strings.Split(s, "\n") {
					p.write(level3, "%s\n", l)
				}
			}
		}
		if ok {
			p.containerState("State", status.State)
			if status.LastTerminationState.Terminated != nil {
				p.containerState("Last State", status.LastTerminationState)
			}
			p.write(level2, "Ready:\t%v\n", printBool(status.Ready))
			p.write(level2, "Restart Count:\t%d\n", status.RestartCount)
		}
		p.resources(&c.Resources, level2)
		p.probe("Liveness", c.LivenessProbe)
		p.probe("Readiness", c.ReadinessProbe)
		p.probe("Startup", c.StartupProbe)
		if len(c.EnvFrom) > 0 {
			p.envFrom(c.EnvFrom)
		}
		p.env(c, pod)
		p.mounts(c.VolumeMounts)
	}
}

func printBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

func (p *prefixWriter) containerState(name string, s api.ContainerState) {
	switch {
	case s.Running != nil:
		p.write(level2, "%s:\tRunning\n", name)
		p.write(level3, "Started:\t%v\n", rfc1123Z(s.Running.StartedAt))
	case s.Waiting != nil:
		p.write(level2, "%s:\tWaiting\n", name)
		if s.Waiting.Reason != "" {
			p.write(level3, "Reason:\t%s\n", s.Waiting.Reason)
		}
	case s.Terminated != nil:
		t := s.Terminated
		p.write(level2, "%s:\tTerminated\n", name)
		if t.Reason != "" {
			p.write(level3, "Reason:\t%s\n", t.Reason)
		}
		if t.Message != "" {
			p.write(level3, "Message:\t%s\n", t.Message)
		}
		p.write(level3, "Exit Code:\t%d\n", t.ExitCode)
		if t.Signal > 0 {
			p.write(level3, "Signal:\t%d\n", t.Signal)
		}
		p.write(level3, "Started:\t%s\n", rfc1123Z(t.StartedAt))
		p.write(level3, "Finished:\t%s\n", rfc1123Z(t.FinishedAt))
	default:
		p.write(level2, "%s:\tWaiting\n", name)
	}
}

// resources is describeResources.
func (p *prefixWriter) resources(r *api.ResourceRequirements, level int) {
	if r == nil {
		return
	}
	if len(r.Limits) > 0 {
		p.write(level, "Limits:\n")
	}
	for _, n := range r.Limits.SortedNames() {
		q := r.Limits[n]
		p.write(level+1, "%s:\t%s\n", n, q.String())
	}
	if len(r.Requests) > 0 {
		p.write(level, "Requests:\n")
	}
	for _, n := range r.Requests.SortedNames() {
		q := r.Requests[n]
		p.write(level+1, "%s:\t%s\n", n, q.String())
	}
}

// probeAction reads the opaque probe handlers.
type probeAction struct {
	Command []string        `json:"command"`
	Path    string          `json:"path"`
	Port    api.IntOrString `json:"port"`
	Host    string          `json:"host"`
	Scheme  string          `json:"scheme"`
	Service *string         `json:"service"`
}

// describeProbe is kubectl's DescribeProbe.
func describeProbe(pr *api.Probe) string {
	attrs := fmt.Sprintf("delay=%ds timeout=%ds period=%ds #success=%d #failure=%d",
		pr.InitialDelaySeconds, pr.TimeoutSeconds, pr.PeriodSeconds, pr.SuccessThreshold, pr.FailureThreshold)
	var a probeAction
	switch {
	case pr.Exec != nil:
		_ = pr.Exec.Decode(&a) // an undecodable handler prints empty
		return fmt.Sprintf("exec %v %s", a.Command, attrs)
	case pr.HTTPGet != nil:
		_ = pr.HTTPGet.Decode(&a)
		if a.Scheme == "" {
			a.Scheme = "HTTP" // the server's default
		}
		u := &url.URL{Scheme: strings.ToLower(a.Scheme), Path: a.Path}
		if port := a.Port.String(); port != "" && !(a.Port.Type == api.IntOrStringInt && a.Port.IntVal == 0 && a.Port.StrVal == "") {
			u.Host = net.JoinHostPort(a.Host, port)
		} else {
			u.Host = a.Host
		}
		return fmt.Sprintf("http-get %s %s", u.String(), attrs)
	case pr.TCPSocket != nil:
		_ = pr.TCPSocket.Decode(&a)
		return fmt.Sprintf("tcp-socket %s:%s %s", a.Host, a.Port.String(), attrs)
	case pr.GRPC != nil:
		_ = pr.GRPC.Decode(&a)
		service := ""
		if a.Service != nil {
			service = *a.Service
		}
		return fmt.Sprintf("grpc <pod>:%d %s %s", a.Port.IntValue(), service, attrs)
	}
	return fmt.Sprintf("unknown %s", attrs)
}

func (p *prefixWriter) probe(name string, pr *api.Probe) {
	if pr != nil {
		p.write(level2, "%s:\t%s\n", name, describeProbe(pr))
	}
}

// envSource reads an opaque envFrom entry.
type envSource struct {
	Prefix       string `json:"prefix"`
	ConfigMapRef *struct {
		Name     string `json:"name"`
		Optional *bool  `json:"optional"`
	} `json:"configMapRef"`
	SecretRef *struct {
		Name     string `json:"name"`
		Optional *bool  `json:"optional"`
	} `json:"secretRef"`
}

func (p *prefixWriter) envFrom(sources []api.RawValue) {
	p.write(level2, "Environment Variables from:\n")
	for _, raw := range sources {
		var e envSource
		_ = raw.Decode(&e) // an undecodable source prints empty
		from, name, optional := "", "", false
		switch {
		case e.ConfigMapRef != nil:
			from, name, optional = "ConfigMap", e.ConfigMapRef.Name, e.ConfigMapRef.Optional != nil && *e.ConfigMapRef.Optional
		case e.SecretRef != nil:
			from, name, optional = "Secret", e.SecretRef.Name, e.SecretRef.Optional != nil && *e.SecretRef.Optional
		}
		if e.Prefix == "" {
			p.write(level3, "%s\t%s\tOptional: %t\n", name, from, optional)
		} else {
			p.write(level3, "%s\t%s with prefix '%s'\tOptional: %t\n", name, from, e.Prefix, optional)
		}
	}
}

// valueFrom reads an opaque env valueFrom.
type valueFrom struct {
	FieldRef *struct {
		APIVersion string `json:"apiVersion"`
		FieldPath  string `json:"fieldPath"`
	} `json:"fieldRef"`
	ResourceFieldRef *struct {
		ContainerName string        `json:"containerName"`
		Resource      string        `json:"resource"`
		Divisor       *api.Quantity `json:"divisor"`
	} `json:"resourceFieldRef"`
	SecretKeyRef *struct {
		Name     string `json:"name"`
		Key      string `json:"key"`
		Optional *bool  `json:"optional"`
	} `json:"secretKeyRef"`
	ConfigMapKeyRef *struct {
		Name     string `json:"name"`
		Key      string `json:"key"`
		Optional *bool  `json:"optional"`
	} `json:"configMapKeyRef"`
}

// env is describeContainerEnvVars; pod resolves field references (nil for
// a template).
func (p *prefixWriter) env(c api.Container, pod *api.Pod) {
	none := ""
	if len(c.Env) == 0 {
		none = "\t<none>"
	}
	p.write(level2, "Environment:%s\n", none)
	for _, e := range c.Env {
		if e.ValueFrom == nil {
			for i, s := range strings.Split(e.Value, "\n") {
				if i == 0 {
					p.write(level3, "%s:\t%s\n", e.Name, s)
				} else {
					p.write(level3, "\t%s\n", s)
				}
			}
			continue
		}
		var vf valueFrom
		_ = e.ValueFrom.Decode(&vf) // an undecodable source prints nothing
		switch {
		case vf.FieldRef != nil:
			value := ""
			if pod != nil {
				value = fieldValue(pod, vf.FieldRef.FieldPath)
			}
			p.write(level3, "%s:\t%s (%s:%s)\n", e.Name, value, vf.FieldRef.APIVersion, vf.FieldRef.FieldPath)
		case vf.ResourceFieldRef != nil:
			value := resourceValue(&c, vf.ResourceFieldRef.Resource, vf.ResourceFieldRef.Divisor)
			r := vf.ResourceFieldRef.Resource
			if value == "0" && (r == "limits.cpu" || r == "limits.memory") {
				value = "node allocatable"
			}
			p.write(level3, "%s:\t%s (%s)\n", e.Name, value, r)
		case vf.SecretKeyRef != nil:
			p.write(level3, "%s:\t<set to the key '%s' in secret '%s'>\tOptional: %t\n", e.Name, vf.SecretKeyRef.Key, vf.SecretKeyRef.Name,
				vf.SecretKeyRef.Optional != nil && *vf.SecretKeyRef.Optional)
		case vf.ConfigMapKeyRef != nil:
			p.write(level3, "%s:\t<set to the key '%s' of config map '%s'>\tOptional: %t\n", e.Name, vf.ConfigMapKeyRef.Key, vf.ConfigMapKeyRef.Name,
				vf.ConfigMapKeyRef.Optional != nil && *vf.ConfigMapKeyRef.Optional)
		}
	}
}

// fieldValue resolves the downward API field paths of a pod.
func fieldValue(pod *api.Pod, path string) string {
	switch path {
	case "metadata.name":
		return pod.Name
	case "metadata.namespace":
		return pod.Namespace
	case "metadata.uid":
		return string(pod.UID)
	case "spec.nodeName":
		return pod.Spec.NodeName
	case "spec.serviceAccountName":
		return pod.Spec.ServiceAccountName
	case "status.hostIP":
		return pod.Status.HostIP
	case "status.podIP":
		return pod.Status.PodIP
	}
	for _, f := range []struct {
		prefix string
		m      map[string]string
	}{{"metadata.labels['", pod.Labels}, {"metadata.annotations['", pod.Annotations}} {
		if k, ok := strings.CutPrefix(path, f.prefix); ok {
			return f.m[strings.TrimSuffix(k, "']")]
		}
	}
	return ""
}

// resourceValue is resourcehelper.ExtractContainerResourceValue: the
// container's request or limit in units of divisor, rounded up.
func resourceValue(c *api.Container, resource string, divisor *api.Quantity) string {
	div := api.MustParseQuantity("1")
	if divisor != nil && !divisor.IsZero() {
		div = *divisor
	}
	var q api.Quantity
	switch resource {
	case "limits.cpu":
		q = c.Resources.Limits.Cpu()
	case "limits.memory":
		q = c.Resources.Limits.Memory()
	case "limits.ephemeral-storage":
		q = c.Resources.Limits.StorageEphemeral()
	case "requests.cpu":
		q = c.Resources.Requests.Cpu()
	case "requests.memory":
		q = c.Resources.Requests.Memory()
	case "requests.ephemeral-storage":
		q = c.Resources.Requests.StorageEphemeral()
	default:
		return ""
	}
	if strings.HasSuffix(resource, ".cpu") {
		return strconv.FormatInt(int64(math.Ceil(float64(q.MilliValue())/float64(div.MilliValue()))), 10)
	}
	return strconv.FormatInt(int64(math.Ceil(float64(q.Value())/float64(div.Value()))), 10)
}

// mounts is describeContainerVolumes' mounts, sorted by path.
func (p *prefixWriter) mounts(ms []api.VolumeMount) {
	none := ""
	if len(ms) == 0 {
		none = "\t<none>"
	}
	p.write(level2, "Mounts:%s\n", none)
	sorted := slices.Clone(ms)
	slices.SortStableFunc(sorted, func(a, b api.VolumeMount) int { return strings.Compare(a.MountPath, b.MountPath) })
	for _, m := range sorted {
		flags := []string{"rw"}
		if m.ReadOnly {
			flags = []string{"ro"}
		}
		if m.SubPath != "" {
			flags = append(flags, fmt.Sprintf("path=%q", m.SubPath))
		}
		p.write(level3, "%s from %s (%s)\n", m.MountPath, m.Name, strings.Join(flags, ","))
	}
}

// volumeSource reads the opaque volume sources describe knows.
type volumeSource struct {
	Path       string        `json:"path"`
	Type       *string       `json:"type"`
	Medium     string        `json:"medium"`
	SizeLimit  *api.Quantity `json:"sizeLimit"`
	SecretName string        `json:"secretName"`
	Name       string        `json:"name"`
	Optional   *bool         `json:"optional"`
	ClaimName  string        `json:"claimName"`
	ReadOnly   bool          `json:"readOnly"`
	Items      []struct {
		Path     string `json:"path"`
		FieldRef *struct {
			FieldPath string `json:"fieldPath"`
		} `json:"fieldRef"`
		ResourceFieldRef *struct {
			Resource string `json:"resource"`
		} `json:"resourceFieldRef"`
	} `json:"items"`
	Sources []struct {
		Secret *struct {
			Name     string `json:"name"`
			Optional *bool  `json:"optional"`
		} `json:"secret"`
		ConfigMap *struct {
			Name     string `json:"name"`
			Optional *bool  `json:"optional"`
		} `json:"configMap"`
		DownwardAPI         *api.RawValue `json:"downwardAPI"`
		ServiceAccountToken *struct {
			ExpirationSeconds *int64 `json:"expirationSeconds"`
		} `json:"serviceAccountToken"`
	} `json:"sources"`
}

func isTrue(b *bool) bool { return b != nil && *b }

// volumes is describeVolumes.
func (p *prefixWriter) volumes(vs []api.Volume, space string) {
	if len(vs) == 0 {
		p.write(level0, "%sVolumes:\t<none>\n", space)
		return
	}
	p.write(level0, "%sVolumes:\n", space)
	for _, v := range vs {
		nameIndent := ""
		if space != "" {
			nameIndent = " "
		}
		p.write(level1, "%s%v:\n", nameIndent, v.Name)
		var kind string
		for _, k := range []string{"hostPath", "emptyDir", "secret", "configMap", "persistentVolumeClaim", "downwardAPI", "projected"} {
			if _, ok := v.Source[k]; ok {
				kind = k
				break
			}
		}
		var s volumeSource
		if kind != "" {
			_ = v.Source[kind].Decode(&s) // an undecodable source prints empty
		}
		switch kind {
		case "hostPath":
			t := "<none>"
			if s.Type != nil {
				t = *s.Type
			}
			p.write(level2, "Type:\tHostPath (bare host directory volume)\n    Path:\t%v\n    HostPathType:\t%v\n", s.Path, t)
		case "emptyDir":
			limit := "<unset>"
			if s.SizeLimit != nil && s.SizeLimit.MilliValue() > 0 {
				limit = s.SizeLimit.String()
			}
			p.write(level2, "Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:\t%v\n    SizeLimit:\t%v\n", s.Medium, limit)
		case "secret":
			p.write(level2, "Type:\tSecret (a volume populated by a Secret)\n    SecretName:\t%v\n    Optional:\t%v\n", s.SecretName, isTrue(s.Optional))
		case "configMap":
			p.write(level2, "Type:\tConfigMap (a volume populated by a ConfigMap)\n    Name:\t%v\n    Optional:\t%v\n", s.Name, isTrue(s.Optional))
		case "persistentVolumeClaim":
			p.write(level2, "Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n    ClaimName:\t%v\n    ReadOnly:\t%v\n", s.ClaimName, s.ReadOnly)
		case "downwardAPI":
			p.write(level2, "Type:\tDownwardAPI (a volume populated by information about the pod)\n    Items:\n")
			for _, it := range s.Items {
				switch {
				case it.FieldRef != nil:
					p.write(level3, "%v -> %v\n", it.FieldRef.FieldPath, it.Path)
				case it.ResourceFieldRef != nil:
					p.write(level3, "%v -> %v\n", it.ResourceFieldRef.Resource, it.Path)
				}
			}
		case "projected":
			p.write(level2, "Type:\tProjected (a volume that contains injected data from multiple sources)\n")
			for _, src := range s.Sources {
				switch {
				case src.Secret != nil:
					p.write(level2, "SecretName:\t%v\n    Optional:\t%v\n", src.Secret.Name, isTrue(src.Secret.Optional))
				case src.DownwardAPI != nil:
					p.write(level2, "DownwardAPI:\ttrue\n")
				case src.ConfigMap != nil:
					p.write(level2, "ConfigMapName:\t%v\n    Optional:\t%v\n", src.ConfigMap.Name, isTrue(src.ConfigMap.Optional))
				case src.ServiceAccountToken != nil:
					var secs int64
					if src.ServiceAccountToken.ExpirationSeconds != nil {
						secs = *src.ServiceAccountToken.ExpirationSeconds
					}
					p.write(level2, "TokenExpirationSeconds:\t%d\n", secs)
				}
			}
		default:
			p.write(level1, "<unknown>\n")
		}
	}
}

// ---- pods ----

// qosClass is qos.GetPodQOS: the status's class, or the class computed
// from the pod's cpu and memory requests and limits.
func qosClass(pod *api.Pod) api.PodQOSClass {
	if pod.Status.QOSClass != "" {
		return pod.Status.QOSClass
	}
	return api.ComputePodQOS(pod)
}

func (p *prefixWriter) pod(pod *api.Pod, events []*api.Event) {
	p.write(level0, "Name:\t%s\n", pod.Name)
	p.write(level0, "Namespace:\t%s\n", pod.Namespace)
	if pod.Spec.Priority != nil {
		p.write(level0, "Priority:\t%d\n", *pod.Spec.Priority)
	}
	if pod.Spec.PriorityClassName != "" {
		p.write(level0, "Priority Class Name:\t%s\n", pod.Spec.PriorityClassName)
	}
	if pod.Spec.RuntimeClassName != nil && *pod.Spec.RuntimeClassName != "" {
		p.write(level0, "Runtime Class Name:\t%s\n", *pod.Spec.RuntimeClassName)
	}
	if pod.Spec.ServiceAccountName != "" {
		p.write(level0, "Service Account:\t%s\n", pod.Spec.ServiceAccountName)
	}
	if pod.Spec.NodeName == "" {
		p.write(level0, "Node:\t<none>\n")
	} else {
		p.write(level0, "Node:\t%s\n", pod.Spec.NodeName+"/"+pod.Status.HostIP)
	}
	if pod.Status.StartTime != nil {
		p.write(level0, "Start Time:\t%s\n", rfc1123Z(*pod.Status.StartTime))
	}
	p.labels("Labels", pod.Labels)
	p.annotations("Annotations", pod.Annotations)
	if pod.DeletionTimestamp != nil && pod.Status.Phase != api.PodFailed && pod.Status.Phase != api.PodSucceeded {
		p.write(level0, "Status:\tTerminating (lasts %s)\n", since(*pod.DeletionTimestamp, p.now))
		grace := api.DefaultTerminationGracePeriodSeconds
		if pod.DeletionGracePeriodSeconds != nil {
			grace = *pod.DeletionGracePeriodSeconds
		}
		p.write(level0, "Termination Grace Period:\t%ds\n", grace)
	} else {
		p.write(level0, "Status:\t%s\n", pod.Status.Phase)
	}
	if pod.Status.Reason != "" {
		p.write(level0, "Reason:\t%s\n", pod.Status.Reason)
	}
	if pod.Status.Message != "" {
		p.write(level0, "Message:\t%s\n", pod.Status.Message)
	}
	p.write(level0, "IP:\t%s\n", pod.Status.PodIP)
	if len(pod.Status.PodIPs) == 0 {
		p.write(level0, "IPs:\t<none>\n")
	} else {
		p.write(level0, "IPs:\n")
		for _, ip := range pod.Status.PodIPs {
			p.write(level1, "IP:\t%s\n", ip.IP)
		}
	}
	if c := controlledBy(&pod.ObjectMeta); c != "" {
		p.write(level0, "Controlled By:\t%s\n", c)
	}
	if pod.Status.NominatedNodeName != "" {
		p.write(level0, "NominatedNodeName:\t%s\n", pod.Status.NominatedNodeName)
	}
	if pod.Spec.Resources != nil {
		p.write(level0, "Resources:\n")
		p.resources(pod.Spec.Resources, level1)
	}
	if len(pod.Spec.InitContainers) > 0 {
		p.containers("Init Containers", pod.Spec.InitContainers, pod.Status.InitContainerStatuses, pod, "")
	}
	p.containers("Containers", pod.Spec.Containers, pod.Status.ContainerStatuses, pod, "")
	if len(pod.Spec.ReadinessGates) > 0 {
		p.write(level0, "Readiness Gates:\n  Type\tStatus\n")
		for _, g := range pod.Spec.ReadinessGates {
			status := "<none>"
			for _, c := range pod.Status.Conditions {
				if c.Type == g.ConditionType {
					status = string(c.Status)
					break
				}
			}
			p.write(level1, "%v \t%v \n", g.ConditionType, status)
		}
	}
	if len(pod.Status.Conditions) > 0 {
		p.write(level0, "Conditions:\n  Type\tStatus\n")
		for _, c := range pod.Status.Conditions {
			p.write(level1, "%v \t%v \n", c.Type, c.Status)
		}
	}
	p.volumes(pod.Spec.Volumes, "")
	p.write(level0, "QoS Class:\t%s\n", qosClass(pod))
	p.labels("Node-Selectors", pod.Spec.NodeSelector)
	p.tolerations("", "Tolerations", pod.Spec.Tolerations)
	p.events(events)
}

// ---- workloads ----

// ownedPods returns the pods of related controlled by uid, in name order.
func ownedPods(related []api.Object, uid api.UID) []*api.Pod {
	var out []*api.Pod
	for _, o := range related {
		if pod, ok := o.(*api.Pod); ok && pod != nil {
			if r := api.GetControllerOfNoCopy(&pod.ObjectMeta); r != nil && r.UID == uid {
				out = append(out, pod)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b *api.Pod) int { return strings.Compare(a.Name, b.Name) })
	return out
}

func (p *prefixWriter) replicaSet(rs *api.ReplicaSet, related Related) {
	var running, waiting, succeeded, failed int
	for _, pod := range ownedPods(related.Objects, rs.UID) {
		switch pod.Status.Phase {
		case api.PodRunning:
			running++
		case api.PodPending:
			waiting++
		case api.PodSucceeded:
			succeeded++
		case api.PodFailed:
			failed++
		}
	}
	p.write(level0, "Name:\t%s\n", rs.Name)
	p.write(level0, "Namespace:\t%s\n", rs.Namespace)
	p.write(level0, "Selector:\t%s\n", formatLabelSelector(rs.Spec.Selector))
	p.labels("Labels", rs.Labels)
	p.annotations("Annotations", rs.Annotations)
	if c := controlledBy(&rs.ObjectMeta); c != "" {
		p.write(level0, "Controlled By:\t%s\n", c)
	}
	p.write(level0, "Replicas:\t%d current / %d desired\n", rs.Status.Replicas, deref(rs.Spec.Replicas))
	p.write(level0, "Pods Status:\t")
	p.write(level0, "%d Running / %d Waiting / %d Succeeded / %d Failed\n", running, waiting, succeeded, failed)
	p.podTemplate(&rs.Spec.Template)
	if len(rs.Status.Conditions) > 0 {
		p.write(level0, "Conditions:\n  Type\tStatus\tReason\n")
		p.write(level1, "----\t------\t------\n")
		for _, c := range rs.Status.Conditions {
			p.write(level1, "%v \t%v\t%v\n", c.Type, c.Status, c.Reason)
		}
	}
	p.events(related.Events)
}

// replicaSetsByLabels is printReplicaSetsByLabels.
func replicaSetsByLabels(rss []*api.ReplicaSet) string {
	parts := make([]string, 0, len(rss))
	for _, rs := range rss {
		parts = append(parts, fmt.Sprintf("%s (%d/%d replicas created)", rs.Name, rs.Status.Replicas, deref(rs.Spec.Replicas)))
	}
	if len(parts) == 0 {
		return "<none>"
	}
	return strings.Join(parts, ", ")
}

func intOrStringString(v *api.IntOrString) string {
	if v == nil {
		return "<nil>"
	}
	return v.String()
}

func (p *prefixWriter) deployment(d *api.Deployment, related Related) {
	var rss []*api.ReplicaSet
	for _, o := range related.Objects {
		if rs, ok := o.(*api.ReplicaSet); ok && rs != nil && api.IsControlledBy(rs, d) {
			rss = append(rss, rs)
		}
	}
	_, oldRSs := deployment.FindOldReplicaSets(d, rss)
	var newRSs []*api.ReplicaSet
	if n := deployment.FindNewReplicaSet(d, rss); n != nil {
		newRSs = append(newRSs, n)
	}
	selector := "<invalid>"
	if sel, err := api.LabelSelectorAsSelector(d.Spec.Selector); err == nil {
		selector = sel.String()
	}
	p.write(level0, "Name:\t%s\n", d.Name)
	p.write(level0, "Namespace:\t%s\n", d.Namespace)
	p.write(level0, "CreationTimestamp:\t%s\n", rfc1123Z(d.CreationTimestamp))
	p.labels("Labels", d.Labels)
	p.annotations("Annotations", d.Annotations)
	p.write(level0, "Selector:\t%s\n", selector)
	p.write(level0, "Replicas:\t%d desired | %d updated | %d total | %d available | %d unavailable\n",
		deref(d.Spec.Replicas), d.Status.UpdatedReplicas, d.Status.Replicas, d.Status.AvailableReplicas, d.Status.UnavailableReplicas)
	p.write(level0, "StrategyType:\t%s\n", d.Spec.Strategy.Type)
	p.write(level0, "MinReadySeconds:\t%d\n", d.Spec.MinReadySeconds)
	if ru := d.Spec.Strategy.RollingUpdate; ru != nil {
		p.write(level0, "RollingUpdateStrategy:\t%s max unavailable, %s max surge\n", intOrStringString(ru.MaxUnavailable), intOrStringString(ru.MaxSurge))
	}
	p.podTemplate(&d.Spec.Template)
	if len(d.Status.Conditions) > 0 {
		p.write(level0, "Conditions:\n  Type\tStatus\tReason\n")
		p.write(level1, "----\t------\t------\n")
		for _, c := range d.Status.Conditions {
			p.write(level1, "%v \t%v\t%v\n", c.Type, c.Status, c.Reason)
		}
	}
	if len(oldRSs) > 0 || len(newRSs) > 0 {
		p.write(level0, "OldReplicaSets:\t%s\n", replicaSetsByLabels(oldRSs))
		p.write(level0, "NewReplicaSet:\t%s\n", replicaSetsByLabels(newRSs))
	}
	p.events(related.Events)
}

// ---- nodes ----

// NodeLeaseNamespace is where kubelets keep their node leases.
const NodeLeaseNamespace = "kube-node-lease"

func (p *prefixWriter) node(n *api.Node, related Related) {
	var pods []*api.Pod
	var lease *api.Lease
	for _, o := range related.Objects {
		switch t := o.(type) {
		case *api.Pod:
			if t != nil && t.Spec.NodeName == n.Name && t.Status.Phase != api.PodSucceeded && t.Status.Phase != api.PodFailed {
				pods = append(pods, t)
			}
		case *api.Lease:
			if t != nil && t.Name == n.Name && t.Namespace == NodeLeaseNamespace {
				lease = t
			}
		}
	}
	slices.SortStableFunc(pods, func(a, b *api.Pod) int {
		return strings.Compare(a.Namespace+"/"+a.Name, b.Namespace+"/"+b.Name)
	})
	p.write(level0, "Name:\t%s\n", n.Name)
	if roles := nodeRoles(n); len(roles) > 0 {
		p.write(level0, "Roles:\t%s\n", strings.Join(roles, ","))
	} else {
		p.write(level0, "Roles:\t%s\n", "<none>")
	}
	p.labels("Labels", n.Labels)
	p.annotations("Annotations", n.Annotations)
	p.write(level0, "CreationTimestamp:\t%s\n", rfc1123Z(n.CreationTimestamp))
	p.taints("Taints", n.Spec.Taints)
	p.write(level0, "Unschedulable:\t%v\n", n.Spec.Unschedulable)
	if lease == nil {
		p.write(level0, "Lease:\tFailed to get lease: leases.coordination.k8s.io %q not found\n", n.Name)
	} else {
		p.write(level0, "Lease:\n")
		holder, acquire, renew := "<unset>", "<unset>", "<unset>"
		if lease.Spec.HolderIdentity != nil {
			holder = *lease.Spec.HolderIdentity
		}
		if lease.Spec.AcquireTime != nil {
			acquire = lease.Spec.AcquireTime.Time.Format(time.RFC1123Z)
		}
		if lease.Spec.RenewTime != nil {
			renew = lease.Spec.RenewTime.Time.Format(time.RFC1123Z)
		}
		p.write(level1, "HolderIdentity:\t%s\n", holder)
		p.write(level1, "AcquireTime:\t%s\n", acquire)
		p.write(level1, "RenewTime:\t%s\n", renew)
	}
	if len(n.Status.Conditions) > 0 {
		p.write(level0, "Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n")
		p.write(level1, "----\t------\t-----------------\t------------------\t------\t-------\n")
		for _, c := range n.Status.Conditions {
			p.write(level1, "%v \t%v \t%s \t%s \t%v \t%v\n", c.Type, c.Status, rfc1123Z(c.LastHeartbeatTime), rfc1123Z(c.LastTransitionTime), c.Reason, c.Message)
		}
	}
	p.write(level0, "Addresses:\n")
	for _, a := range n.Status.Addresses {
		p.write(level1, "%s:\t%s\n", a.Type, a.Address)
	}
	resourceList := func(rl api.ResourceList) {
		for _, r := range rl.SortedNames() {
			q := rl[r]
			p.write(level0, "  %s:\t%s\n", r, q.String())
		}
	}
	if len(n.Status.Capacity) > 0 {
		p.write(level0, "Capacity:\n")
		resourceList(n.Status.Capacity)
	}
	if len(n.Status.Allocatable) > 0 {
		p.write(level0, "Allocatable:\n")
		resourceList(n.Status.Allocatable)
	}
	info := infoOf(n)
	p.write(level0, "System Info:\n")
	p.write(level0, "  Machine ID:\t%s\n", info.MachineID)
	p.write(level0, "  System UUID:\t%s\n", info.SystemUUID)
	p.write(level0, "  Boot ID:\t%s\n", info.BootID)
	p.write(level0, "  Kernel Version:\t%s\n", info.KernelVersion)
	p.write(level0, "  OS Image:\t%s\n", info.OSImage)
	p.write(level0, "  Operating System:\t%s\n", info.OperatingSystem)
	p.write(level0, "  Architecture:\t%s\n", info.Architecture)
	p.write(level0, "  Container Runtime Version:\t%s\n", info.ContainerRuntimeVersion)
	p.write(level0, "  Kubelet Version:\t%s\n", info.KubeletVersion)
	p.write(level0, "  Kube-Proxy Version:\t%s\n", info.KubeProxyVersion)
	if n.Spec.PodCIDR != "" {
		p.write(level0, "PodCIDR:\t%s\n", n.Spec.PodCIDR)
	}
	if len(n.Spec.PodCIDRs) > 0 {
		p.write(level0, "PodCIDRs:\t%s\n", strings.Join(n.Spec.PodCIDRs, ","))
	}
	if n.Spec.ProviderID != "" {
		p.write(level0, "ProviderID:\t%s\n", n.Spec.ProviderID)
	}
	p.nodeResources(n, pods)
	p.events(related.Events)
}

// percent is describe's int64(fraction*100), 0 when the total is 0.
func percent(part, total int64) int64 {
	if total == 0 {
		return 0
	}
	return int64(float64(part) / float64(total) * 100)
}

// nodeResources is describeNodeResource: the node's non-terminated pods
// and what they request of its allocatable resources.
func (p *prefixWriter) nodeResources(n *api.Node, pods []*api.Pod) {
	p.write(level0, "Non-terminated Pods:\t(%d in total)\n", len(pods))
	p.write(level1, "Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n")
	p.write(level1, "---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n")
	alloc := n.Status.Capacity
	if len(n.Status.Allocatable) > 0 {
		alloc = n.Status.Allocatable
	}
	allocCPU, allocMem, allocEph := alloc.Cpu(), alloc.Memory(), alloc.StorageEphemeral()
	reqs, lims := api.ResourceList{}, api.ResourceList{}
	add := func(dst, src api.ResourceList) {
		for _, r := range src.SortedNames() {
			sum := dst[r]
			sum.Add(src[r])
			dst[r] = sum
		}
	}
	for _, pod := range pods {
		req, lim := api.PodRequestsAndLimits(&pod.Spec)
		add(reqs, req)
		add(lims, lim)
		cpuReq, cpuLim, memReq, memLim := req.Cpu(), lim.Cpu(), req.Memory(), lim.Memory()
		p.write(level1, "%s\t%s\t\t%s (%d%%)\t%s (%d%%)\t%s (%d%%)\t%s (%d%%)\t%s\n", pod.Namespace, pod.Name,
			cpuReq.String(), percent(cpuReq.MilliValue(), allocCPU.MilliValue()),
			cpuLim.String(), percent(cpuLim.MilliValue(), allocCPU.MilliValue()),
			memReq.String(), percent(memReq.Value(), allocMem.Value()),
			memLim.String(), percent(memLim.Value(), allocMem.Value()),
			since(pod.CreationTimestamp, p.now))
	}
	p.write(level0, "Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n")
	p.write(level1, "Resource\tRequests\tLimits\n")
	p.write(level1, "--------\t--------\t------\n")
	cpuReq, cpuLim := reqs.Cpu(), lims.Cpu()
	memReq, memLim := reqs.Memory(), lims.Memory()
	ephReq, ephLim := reqs.StorageEphemeral(), lims.StorageEphemeral()
	p.write(level1, "%s\t%s (%d%%)\t%s (%d%%)\n", api.ResourceCPU, cpuReq.String(), percent(cpuReq.MilliValue(), allocCPU.MilliValue()),
		cpuLim.String(), percent(cpuLim.MilliValue(), allocCPU.MilliValue()))
	p.write(level1, "%s\t%s (%d%%)\t%s (%d%%)\n", api.ResourceMemory, memReq.String(), percent(memReq.Value(), allocMem.Value()),
		memLim.String(), percent(memLim.Value(), allocMem.Value()))
	p.write(level1, "%s\t%s (%d%%)\t%s (%d%%)\n", api.ResourceEphemeralStorage, ephReq.String(), percent(ephReq.Value(), allocEph.Value()),
		ephLim.String(), percent(ephLim.Value(), allocEph.Value()))
	var ext []string
	for _, r := range alloc.SortedNames() {
		if isExtendedResource(r) {
			ext = append(ext, string(r))
		}
	}
	for _, r := range ext {
		er, el := reqs[api.ResourceName(r)], lims[api.ResourceName(r)]
		p.write(level1, "%s\t%s\t%s\n", r, er.String(), el.String())
	}
}

// isExtendedResource reports a resource that is neither a standard
// container resource nor pods nor a huge page size (those print their own
// rows upstream; the simulator has none).
func isExtendedResource(r api.ResourceName) bool {
	switch r {
	case api.ResourceCPU, api.ResourceMemory, api.ResourceEphemeralStorage, api.ResourceStorage, api.ResourcePods:
		return false
	}
	return !strings.HasPrefix(string(r), "hugepages-")
}

// ---- quotas, services, endpoints ----

func (p *prefixWriter) quota(q *api.ResourceQuota) {
	p.write(level0, "Name:\t%s\n", q.Name)
	p.write(level0, "Namespace:\t%s\n", q.Namespace)
	if len(q.Spec.Scopes) > 0 {
		scopes := make([]string, len(q.Spec.Scopes))
		for i, s := range q.Spec.Scopes {
			scopes[i] = string(s)
		}
		slices.Sort(scopes)
		p.write(level0, "Scopes:\t%s\n", strings.Join(scopes, ", "))
		for _, s := range scopes {
			if help := scopeHelp[s]; help != "" {
				p.write(level0, " * %s\n", help)
			}
		}
	}
	p.write(level0, "Resource\tUsed\tHard\n")
	p.write(level0, "--------\t----\t----\n")
	for _, r := range q.Status.Hard.SortedNames() {
		hard := q.Status.Hard[r]
		used := q.Status.Used[r]
		if hard.Format() != used.Format() {
			used = api.NewQuantity(used.Value(), hard.Format())
		}
		p.write(level0, "%v\t%v\t%v\n", r, used.String(), hard.String())
	}
}

// podDisruptionBudget is kubectl's describePodDisruptionBudgetV1
// (kubectl pkg/describe/describe.go).
func (p *prefixWriter) podDisruptionBudget(pdb *api.PodDisruptionBudget, events []*api.Event) {
	p.write(level0, "Name:\t%s\n", pdb.Name)
	p.write(level0, "Namespace:\t%s\n", pdb.Namespace)
	if pdb.Spec.MinAvailable != nil {
		p.write(level0, "Min available:\t%s\n", pdb.Spec.MinAvailable.String())
	} else if pdb.Spec.MaxUnavailable != nil {
		p.write(level0, "Max unavailable:\t%s\n", pdb.Spec.MaxUnavailable.String())
	}
	if pdb.Spec.Selector != nil {
		p.write(level0, "Selector:\t%s\n", formatLabelSelector(pdb.Spec.Selector))
	} else {
		p.write(level0, "Selector:\t<unset>\n")
	}
	p.write(level0, "Status:\n")
	p.write(level2, "Allowed disruptions:\t%d\n", pdb.Status.DisruptionsAllowed)
	p.write(level2, "Current:\t%d\n", pdb.Status.CurrentHealthy)
	p.write(level2, "Desired:\t%d\n", pdb.Status.DesiredHealthy)
	p.write(level2, "Total:\t%d\n", pdb.Status.ExpectedPods)
	p.events(events)
}

// scopeHelp is helpTextForResourceQuotaScope.
var scopeHelp = map[string]string{
	"Terminating":    "Matches all pods that have an active deadline. These pods have a limited lifespan on a node before being actively terminated by the system.",
	"NotTerminating": "Matches all pods that do not have an active deadline. These pods usually include long running pods whose container command is not expected to terminate.",
	"BestEffort":     "Matches all pods that do not have resource requirements set. These pods have a best effort quality of service.",
	"NotBestEffort":  "Matches all pods that have at least one resource requirement set. These pods have a burstable or guaranteed quality of service.",
}

func (p *prefixWriter) service(s *api.Service, related Related) {
	var eps *api.Endpoints
	for _, o := range related.Objects {
		if e, ok := o.(*api.Endpoints); ok && e != nil && e.Name == s.Name && e.Namespace == s.Namespace {
			eps = e
		}
	}
	p.write(level0, "Name:\t%s\n", s.Name)
	p.write(level0, "Namespace:\t%s\n", s.Namespace)
	p.labels("Labels", s.Labels)
	p.annotations("Annotations", s.Annotations)
	p.write(level0, "Selector:\t%s\n", formatLabels(s.Spec.Selector))
	p.write(level0, "Type:\t%s\n", s.Spec.Type)
	if s.Spec.IPFamilyPolicy != nil {
		p.write(level0, "IP Family Policy:\t%s\n", *s.Spec.IPFamilyPolicy)
	}
	if len(s.Spec.IPFamilies) > 0 {
		fams := make([]string, len(s.Spec.IPFamilies))
		for i, f := range s.Spec.IPFamilies {
			fams[i] = string(f)
		}
		p.write(level0, "IP Families:\t%s\n", strings.Join(fams, ","))
	} else {
		p.write(level0, "IP Families:\t%s\n", "<none>")
	}
	p.write(level0, "IP:\t%s\n", s.Spec.ClusterIP)
	if len(s.Spec.ClusterIPs) > 0 {
		p.write(level0, "IPs:\t%s\n", strings.Join(s.Spec.ClusterIPs, ","))
	} else {
		p.write(level0, "IPs:\t%s\n", "<none>")
	}
	if len(s.Spec.ExternalIPs) > 0 {
		p.write(level0, "External IPs:\t%v\n", strings.Join(s.Spec.ExternalIPs, ","))
	}
	if s.Spec.LoadBalancerIP != "" {
		p.write(level0, "Desired LoadBalancer IP:\t%s\n", s.Spec.LoadBalancerIP)
	}
	if s.Spec.ExternalName != "" {
		p.write(level0, "External Name:\t%s\n", s.Spec.ExternalName)
	}
	if ingress := ingressOf(s); len(ingress) > 0 {
		parts := make([]string, len(ingress))
		for i, in := range ingress {
			if in.IP != "" {
				parts[i] = in.IP
				if in.IPMode != nil {
					parts[i] += fmt.Sprintf(" (%s)", *in.IPMode)
				}
			} else {
				parts[i] = in.Hostname
			}
		}
		p.write(level0, "LoadBalancer Ingress:\t%s\n", strings.Join(parts, ", "))
	}
	for _, sp := range s.Spec.Ports {
		name := sp.Name
		if name == "" {
			name = "<unset>"
		}
		p.write(level0, "Port:\t%s\t%d/%s\n", name, sp.Port, sp.Protocol)
		if sp.TargetPort.Type == api.IntOrStringInt {
			p.write(level0, "TargetPort:\t%d/%s\n", sp.TargetPort.IntVal, sp.Protocol)
		} else {
			p.write(level0, "TargetPort:\t%s/%s\n", sp.TargetPort.StrVal, sp.Protocol)
		}
		if sp.NodePort != 0 {
			p.write(level0, "NodePort:\t%s\t%d/%s\n", name, sp.NodePort, sp.Protocol)
		}
		endpoints := "<none>"
		if eps != nil {
			endpoints = readyEndpoints(eps, sp.Name)
		}
		p.write(level0, "Endpoints:\t%s\n", endpoints)
	}
	p.write(level0, "Session Affinity:\t%s\n", s.Spec.SessionAffinity)
	if s.Spec.ExternalTrafficPolicy != "" {
		p.write(level0, "External Traffic Policy:\t%s\n", s.Spec.ExternalTrafficPolicy)
	}
	if s.Spec.InternalTrafficPolicy != nil {
		p.write(level0, "Internal Traffic Policy:\t%s\n", *s.Spec.InternalTrafficPolicy)
	}
	if s.Spec.HealthCheckNodePort != 0 {
		p.write(level0, "HealthCheck NodePort:\t%d\n", s.Spec.HealthCheckNodePort)
	}
	if len(s.Spec.LoadBalancerSourceRanges) > 0 {
		p.write(level0, "LoadBalancer Source Ranges:\t%v\n", strings.Join(s.Spec.LoadBalancerSourceRanges, ","))
	}
	p.events(related.Events)
}

// readyEndpoints is the Endpoints line of describe service: kubectl reads
// it from EndpointSlices (formatEndpointSlices: ready addresses of the
// port, three at most); the simulator serves Endpoints, which carry the
// same addresses.
func readyEndpoints(e *api.Endpoints, portName string) string {
	const maxShown = 3
	var list []string
	more := false
	count := 0
	for _, ss := range e.Subsets {
		if len(ss.Ports) == 0 {
			for _, a := range ss.Addresses {
				if len(list) == maxShown {
					more = true
				}
				if !more {
					list = append(list, a.IP)
				}
				count++
			}
			continue
		}
		for _, port := range ss.Ports {
			if port.Name != portName {
				continue
			}
			for _, a := range ss.Addresses {
				if len(list) == maxShown {
					more = true
				}
				if !more {
					list = append(list, net.JoinHostPort(a.IP, strconv.Itoa(int(port.Port))))
				}
				count++
			}
		}
	}
	ret := strings.Join(list, ",")
	if more {
		return fmt.Sprintf("%s + %d more...", ret, count-maxShown)
	}
	return ret
}

func (p *prefixWriter) endpoints(e *api.Endpoints, events []*api.Event) {
	p.write(level0, "Name:\t%s\n", e.Name)
	p.write(level0, "Namespace:\t%s\n", e.Namespace)
	p.labels("Labels", e.Labels)
	p.annotations("Annotations", e.Annotations)
	p.write(level0, "Subsets:\n")
	ips := func(as []api.EndpointAddress) string {
		out := make([]string, len(as))
		for i, a := range as {
			out[i] = a.IP
		}
		if len(out) == 0 {
			return "<none>"
		}
		return strings.Join(out, ",")
	}
	for _, ss := range e.Subsets {
		p.write(level1, "Addresses:\t%s\n", ips(ss.Addresses))
		p.write(level1, "NotReadyAddresses:\t%s\n", ips(ss.NotReadyAddresses))
		if len(ss.Ports) > 0 {
			p.write(level1, "Ports:\n")
			p.write(level2, "Name\tPort\tProtocol\n")
			p.write(level2, "----\t----\t--------\n")
			for _, port := range ss.Ports {
				name := port.Name
				if name == "" {
					name = "<unset>"
				}
				p.write(level2, "%s\t%d\t%s\n", name, port.Port, port.Protocol)
			}
		}
		p.write(level0, "\n")
	}
	p.events(events)
}
