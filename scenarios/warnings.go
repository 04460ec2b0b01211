package scenarios

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/clustersim/clustersim/controllers/scheduler"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kubelet"
	"github.com/clustersim/clustersim/sim/manifest"
)

// Warning is a field the scenario sets that the simulator accepts but does
// not model: never silently ignored, always named.
type Warning struct {
	// File is the file that holds the object: the scenario's, or the
	// manifest file it references.
	File string
	// Line and Column are where in File the field (or, when the field is
	// not written, the nearest enclosing one) is; 0 when not known.
	Line, Column int
	// Object is the object holding the field, as kind/namespace/name.
	Object string
	// Field is the field's path in the object.
	Field string
	// Msg says what is not simulated, or why Image would not pull.
	Msg string
	// Image, when set, makes this a warning about an image that would
	// fail to pull rather than about an unsimulated field.
	Image string
	// Refused makes this a warning about a value the API server will
	// refuse at run time (Msg says what happens then), not about an
	// unsimulated field.
	Refused bool
}

// String formats the warning for stderr.
func (w Warning) String() string {
	at := w.File
	if w.Line > 0 {
		at = fmt.Sprintf("%s:%d:%d", w.File, w.Line, w.Column)
	}
	if w.Image != "" {
		return fmt.Sprintf("warning: %s: %s: %s: image %q would fail to pull: %s", at, w.Object, w.Field, w.Image, w.Msg)
	}
	if w.Refused {
		return fmt.Sprintf("warning: %s: %s: %s: %s", at, w.Object, w.Field, w.Msg)
	}
	return fmt.Sprintf("warning: %s: %s: %s", at, w.Object, w.unsimulated())
}

// origins is where the loader read each object (by identity): its file,
// and where a field path of it is written there.
type origins map[api.Object]origin

type origin struct {
	file string
	at   func(path string) (line, col int)
}

func (o *origins) add(obj api.Object, file string, at func(path string) (line, col int)) {
	if *o == nil {
		*o = origins{}
	}
	(*o)[obj] = origin{file: file, at: at}
}

// place gives each of ws, warnings about objs, the file and position of
// the object it names, where the loader recorded one (an object of a
// referenced manifest file is in that file, not in the scenario's).
func (o origins) place(ws []Warning, objs []api.Object) []Warning {
	if len(o) == 0 || len(ws) == 0 {
		return ws
	}
	byName := make(map[string]api.Object, len(objs))
	for _, obj := range objs {
		if n := objectName(obj); byName[n] == nil {
			byName[n] = obj
		}
	}
	for i := range ws {
		if or, ok := o[byName[ws[i].Object]]; ok {
			ws[i].File = or.file
			ws[i].Line, ws[i].Column = or.at(ws[i].Field)
		}
	}
	return ws
}

// unsimulated is an unsimulated field's warning without its file and
// object: "<field>: accepted but not simulated: <why>".
func (w Warning) unsimulated() string {
	return w.Field + ": accepted but not simulated: " + w.Msg
}

// Warnings lists the unmodelled fields of the scenario's objects: those
// of spec.objects, then of the timeline's apply steps, then of the GitOps
// repository's commits and the IaC tool's declaration, in order.
func (s *Scenario) Warnings() []Warning {
	if s.warned != nil {
		return s.warned.fields
	}
	return s.fieldWarnings()
}

// fieldWarnings computes Warnings.
func (s *Scenario) fieldWarnings() []Warning {
	out := s.origins.place(objectWarnings(s.File, s.Objects), s.Objects)
	all := slices.Clone(s.Objects)
	for i := range s.Spec.Timeline {
		st := &s.Spec.Timeline[i]
		if st.Apply != nil {
			out = append(out, s.origins.place(objectWarnings(s.File, st.Apply.Parsed), st.Apply.Parsed)...)
			all = append(all, st.Apply.Parsed...)
		}
		if st.ServerSideApply != nil {
			out = append(out, s.origins.place(objectWarnings(s.File, st.ServerSideApply.Parsed), st.ServerSideApply.Parsed)...)
			all = append(all, st.ServerSideApply.Parsed...)
		}
	}
	for _, batch := range s.declared() {
		out = append(out, s.origins.place(objectWarnings(s.File, batch), batch)...)
		all = append(all, batch...)
	}
	out = append(out, s.origins.place(templateClassWarnings(s.File, all), all)...)
	return append(out, s.origins.place(configRefWarnings(s.File, all), all)...)
}

// declared lists the objects the scenario's GitOps repository and IaC
// tool declare, one batch per commit, then the tool's declaration: they
// are applied during the run as an apply step's are.
func (s *Scenario) declared() [][]api.Object {
	var out [][]api.Object
	if g := s.Spec.GitOps; g != nil {
		for i := range g.Applications {
			for j := range g.Applications[i].Commits {
				out = append(out, g.Applications[i].Commits[j].Parsed)
			}
		}
	}
	if s.Spec.IaC != nil {
		out = append(out, s.Spec.IaC.Parsed)
	}
	return out
}

// templateClassWarnings names the workloads among objs whose pod template
// names a priorityClassName that is neither a system class nor a
// PriorityClass of objs: Kubernetes accepts the workload, and the
// Priority admission plugin refuses each pod its controller creates
// (FailedCreate). Bare pods are the loader's error instead.
func templateClassWarnings(file string, objs []api.Object) []Warning {
	classes := priorityClasses(objs)
	var out []Warning
	for _, o := range objs {
		if _, ok := o.(*api.Pod); ok {
			continue
		}
		spec, prefix := podSpecOf(o)
		if spec == nil || spec.PriorityClassName == "" || classes[spec.PriorityClassName] {
			continue
		}
		out = append(out, Warning{File: file, Object: objectName(o), Field: prefix + "priorityClassName", Refused: true,
			Msg: fmt.Sprintf("no PriorityClass with name %v was found: the Priority admission plugin will refuse every pod of the template (the controller reports FailedCreate)", spec.PriorityClassName)})
	}
	return out
}

// ManifestWarnings lists what `clustersim validate` says of a manifest
// file's objects: their unmodelled fields, then the images that would
// fail to pull in a scenario that lists no registry.
func ManifestWarnings(file string, objs []api.Object) []Warning {
	return append(objectWarnings(file, objs), ManifestImageWarnings(file, objs)...)
}

// DecodeManifestsWarnings is DecodeManifests and then ManifestWarnings of
// its objects, each warning placed at its field's line and column.
func DecodeManifestsWarnings(file string, data []byte, defs Definitions) ([]api.Object, []Warning, error) {
	located, err := decodeManifestsLocated(file, data, defs, manifest.DecodeLocated)
	if err != nil {
		return nil, nil, err
	}
	var at origins
	objs := make([]api.Object, len(located))
	for i, o := range located {
		objs[i] = o.Object
		at.add(o.Object, file, o.Position)
	}
	return objs, at.place(ManifestWarnings(file, objs), objs), nil
}

// FieldWarnings lists what of o the simulator accepts and does not
// simulate, as "<field>: accepted but not simulated: <why>" (clustersim
// serve sends each as a Warning header of the write that stored o).
func FieldWarnings(o api.Object) []string {
	var out []string
	for _, w := range objectWarnings("", []api.Object{o}) {
		out = append(out, w.unsimulated())
	}
	return out
}

// IdleControllerWarnings names, for an object written during a run of s
// (through clustersim serve), each controller that would act on it and
// does not run: the on-demand controllers (OnDemandControllers) start
// only for a scenario holding an object of their kind, or listing them in
// spec.controllers. The EndpointSlice controller is left out: the
// Endpoints controller acts on every Service; so is the
// persistentvolume-binder for a StatefulSet without volumeClaimTemplates,
// which gives it no claim to bind.
func IdleControllerWarnings(s *Scenario, o api.Object) []string {
	k := api.KindOf(o)
	var out []string
	for _, name := range slices.Sorted(maps.Keys(OnDemandControllers)) {
		if name == "endpointslice" || !slices.Contains(OnDemandControllers[name], k) || Runs(s, name) {
			continue
		}
		if sts, ok := o.(*api.StatefulSet); ok && name == "persistentvolume-binder" && len(sts.Spec.VolumeClaimTemplates) == 0 {
			continue // no claims: nothing for the binder to bind
		}
		out = append(out, Warning{Field: "kind", Msg: fmt.Sprintf("the %s controller does not run in this run (it starts only for a scenario that holds a %s, or lists it in spec.controllers): nothing it does happens to this object",
			name, k.Name)}.unsimulated())
	}
	return out
}

// unsimulatedKinds says, for each kind that is stored and listed but not
// simulated (api.Unsimulated), why nothing acts on its objects.
var unsimulatedKinds = map[api.Kind]string{
	api.KindIngress:            "no ingress controller runs: the Ingress is stored and listed, and routes nothing",
	api.KindNetworkPolicy:      "the simulated network carries no pod traffic: the NetworkPolicy is stored and listed, and enforces nothing",
	api.KindRole:               rbacWhy,
	api.KindRoleBinding:        rbacWhy,
	api.KindClusterRole:        rbacWhy,
	api.KindClusterRoleBinding: rbacWhy,
}

const rbacWhy = "authorization is the simulator's own rule table: the RBAC object is stored and listed, and grants nothing"

// jobUnmodelled lists the Job fields the Job controller accepts and does
// not act on (controllers/job's doc), as field and why.
func jobUnmodelled(s *api.JobSpec) [][2]string {
	var out [][2]string
	if s.Suspend != nil && *s.Suspend {
		out = append(out, [2]string{"suspend", "suspending a Job is not simulated: its pods run"})
	}
	if s.SuccessPolicy != nil {
		out = append(out, [2]string{"successPolicy", "success policies are not simulated: the Job succeeds at its completions"})
	}
	if s.BackoffLimitPerIndex != nil {
		out = append(out, [2]string{"backoffLimitPerIndex", "per-index back-off limits are not simulated: backoffLimit counts every failure"})
	}
	if s.MaxFailedIndexes != nil {
		out = append(out, [2]string{"maxFailedIndexes", "per-index back-off limits are not simulated"})
	}
	if s.ManagedBy != nil && *s.ManagedBy != "kubernetes.io/job-controller" {
		out = append(out, [2]string{"managedBy", "the built-in Job controller syncs the Job anyway"})
	}
	if p := s.PodFailurePolicy; p != nil {
		for i, r := range p.Rules {
			if r.Action == "FailIndex" {
				out = append(out, [2]string{fmt.Sprintf("podFailurePolicy.rules[%d].action", i), "FailIndex is not simulated: the rule counts the failure"})
			}
		}
	}
	return out
}

// objectWarnings lists the unmodelled fields of objs, in order: the
// scheduler's, then the kubelet's (probes).
func objectWarnings(file string, objs []api.Object) []Warning {
	var out []Warning
	for _, o := range objs {
		if why, ok := unsimulatedKinds[api.KindOf(o)]; ok {
			out = append(out, Warning{File: file, Object: objectName(o), Field: "kind", Msg: why})
		}
		if lr, ok := o.(*api.LimitRange); ok {
			for i, it := range lr.Spec.Limits {
				if it.Type == api.LimitTypePersistentVolumeClaim {
					out = append(out, Warning{File: file, Object: objectName(o), Field: fmt.Sprintf("spec.limits[%d]", i),
						Msg: "LimitRanger checks pods only: limits of PersistentVolumeClaims are not enforced"})
				}
			}
		}
		if j, ok := o.(*api.Job); ok {
			for _, u := range jobUnmodelled(&j.Spec) {
				out = append(out, Warning{File: file, Object: objectName(o), Field: "spec." + u[0], Msg: u[1]})
			}
		}
		out = append(out, storageWarnings(file, o)...)
		out = append(out, trafficWarnings(file, o)...)
		out = append(out, definitionWarnings(file, o)...)
		spec, prefix := podSpecOf(o)
		if spec == nil {
			continue
		}
		name := objectName(o)
		for i, v := range spec.Volumes {
			if _, ok := v.Source["ephemeral"]; ok {
				out = append(out, Warning{File: file, Object: name, Field: fmt.Sprintf("%svolumes[%d].ephemeral", prefix, i),
					Msg: "generic ephemeral volumes are not simulated: no claim is created for the volume"})
			}
		}
		if r := spec.Resources; r != nil && len(r.Requests)+len(r.Limits) > 0 {
			out = append(out, Warning{File: file, Object: name, Field: prefix + "resources",
				Msg: "pod-level resources are not simulated by the scheduler and the kubelet: the pod is placed and admitted by its containers' requests (the resource quota and the autoscaler count the pod-level ones)"})
		}
		for _, u := range scheduler.UnmodelledFields(spec) {
			out = append(out, Warning{File: file, Object: name, Field: prefix + u.Field, Msg: u.Why})
		}
		for _, u := range kubelet.UnmodelledFields(spec) {
			out = append(out, Warning{File: file, Object: name, Field: prefix + u.Field, Msg: u.Why})
		}
	}
	return out
}

// storageWarnings lists the storage fields an object sets that the
// persistent volume controller accepts and does not act on
// (controllers/volume's doc).
func storageWarnings(file string, o api.Object) []Warning {
	var out []Warning
	claim := func(field string, c *api.PersistentVolumeClaimSpec) {
		if c.DataSource != nil || c.DataSourceRef != nil {
			out = append(out, Warning{File: file, Object: objectName(o), Field: field + ".dataSource",
				Msg: "data sources (snapshots, clones, populators) are not simulated: the volume is provisioned empty"})
		}
		if c.VolumeAttributesClassName != nil {
			out = append(out, Warning{File: file, Object: objectName(o), Field: field + ".volumeAttributesClassName",
				Msg: "volume attributes classes are not simulated"})
		}
	}
	switch o := o.(type) {
	case *api.PersistentVolumeClaim:
		claim("spec", &o.Spec)
	case *api.StatefulSet:
		for i := range o.Spec.VolumeClaimTemplates {
			claim(fmt.Sprintf("spec.volumeClaimTemplates[%d].spec", i), &o.Spec.VolumeClaimTemplates[i].Spec)
		}
	case *api.StorageClass:
		if o.AllowVolumeExpansion != nil && *o.AllowVolumeExpansion {
			out = append(out, Warning{File: file, Object: objectName(o), Field: "allowVolumeExpansion",
				Msg: "volume expansion is not simulated: a claim's larger request leaves its volume as it is"})
		}
	}
	return out
}

// traffic names what of a Service or HorizontalPodAutoscaler
// depends on what the simulator has none of: client traffic (a load
// balancer, session affinity, a traffic policy routing to local
// endpoints), a custom or external metrics API (the HPA reports
// FailedGet...Metric, as in a cluster without a metrics adapter) and
// per-container resource metrics.
func traffic(o api.Object) [][2]string {
	var out [][2]string
	switch o := o.(type) {
	case *api.Service:
		const noTraffic = "no client traffic is simulated"
		if o.Spec.Type == api.ServiceTypeLoadBalancer {
			out = append(out, [2]string{"spec.type", "no load balancer is provisioned (no cloud controller runs): EXTERNAL-IP stays <pending>"})
		}
		if o.Spec.SessionAffinity == api.ServiceAffinityClientIP {
			out = append(out, [2]string{"spec.sessionAffinity", noTraffic})
		}
		if o.Spec.ExternalTrafficPolicy == api.ServiceTrafficPolicyLocal {
			out = append(out, [2]string{"spec.externalTrafficPolicy", noTraffic})
		}
		if p := o.Spec.InternalTrafficPolicy; p != nil && *p == api.ServiceTrafficPolicyLocal {
			out = append(out, [2]string{"spec.internalTrafficPolicy", noTraffic})
		}
		if len(o.Spec.ExternalIPs) > 0 {
			out = append(out, [2]string{"spec.externalIPs", noTraffic + ": the addresses are stored and shown, and route nothing"})
		}
		if o.Spec.TrafficDistribution != nil {
			out = append(out, [2]string{"spec.trafficDistribution", "the EndpointSlice controller writes no topology hints, and " + noTraffic})
		}
		// What a load balancer, or the IP and port allocators, would act on:
		// none runs (a LoadBalancer type is warned of above).
		const noAllocator = "no cluster IP, node port or health check port is allocated: the value is stored as written"
		for _, f := range []struct {
			field string
			set   bool
		}{
			{"spec.loadBalancerIP", o.Spec.LoadBalancerIP != ""},
			{"spec.loadBalancerSourceRanges", len(o.Spec.LoadBalancerSourceRanges) > 0},
			{"spec.loadBalancerClass", o.Spec.LoadBalancerClass != nil},
			{"spec.allocateLoadBalancerNodePorts", o.Spec.AllocateLoadBalancerNodePorts != nil},
		} {
			if f.set {
				out = append(out, [2]string{f.field, "no load balancer is provisioned (no cloud controller runs)"})
			}
		}
		if o.Spec.HealthCheckNodePort != 0 {
			out = append(out, [2]string{"spec.healthCheckNodePort", noAllocator})
		}
		if len(o.Spec.IPFamilies) > 0 || o.Spec.IPFamilyPolicy != nil {
			out = append(out, [2]string{"spec.ipFamilies", "no cluster IP is allocated: the families only choose the EndpointSlices' address type"})
		}
	case *api.HorizontalPodAutoscaler:
		for i, m := range o.Spec.Metrics {
			switch m.Type {
			case api.PodsMetricSourceType, api.ObjectMetricSourceType:
				out = append(out, [2]string{fmt.Sprintf("spec.metrics[%d]", i), "no custom metrics API is simulated: the autoscaler reports it cannot get the metric (FailedGet" + string(m.Type) + "Metric)"})
			case api.ExternalMetricSourceType:
				out = append(out, [2]string{fmt.Sprintf("spec.metrics[%d]", i), "no external metrics API is simulated: the autoscaler reports it cannot get the metric (FailedGetExternalMetric)"})
			case api.ContainerResourceMetricSourceType:
				out = append(out, [2]string{fmt.Sprintf("spec.metrics[%d]", i), "per-container resource metrics are not simulated: the autoscaler reports it cannot get the metric (FailedGetContainerResourceMetric)"})
			}
		}
	}
	return out
}

// trafficWarnings are traffic's findings about o as warnings.
func trafficWarnings(file string, o api.Object) []Warning {
	var out []Warning
	for _, u := range traffic(o) {
		out = append(out, Warning{File: file, Object: objectName(o), Field: u[0], Msg: u[1]})
	}
	return out
}

// podSpecOf returns the pod spec an object carries and its path.
func podSpecOf(o api.Object) (*api.PodSpec, string) {
	switch o := o.(type) {
	case *api.Pod:
		return &o.Spec, "spec."
	case *api.Deployment:
		return &o.Spec.Template.Spec, "spec.template.spec."
	case *api.ReplicaSet:
		return &o.Spec.Template.Spec, "spec.template.spec."
	case *api.Job:
		return &o.Spec.Template.Spec, "spec.template.spec."
	case *api.CronJob:
		return &o.Spec.JobTemplate.Spec.Template.Spec, "spec.jobTemplate.spec.template.spec."
	case *api.DaemonSet:
		return &o.Spec.Template.Spec, "spec.template.spec."
	case *api.StatefulSet:
		return &o.Spec.Template.Spec, "spec.template.spec."
	}
	return nil, ""
}

// objectName is kind/namespace/name (kind/name for cluster objects).
func objectName(o api.Object) string {
	m := o.GetObjectMeta()
	if m.Namespace != "" {
		return api.KindOf(o).String() + "/" + m.Namespace + "/" + m.Name
	}
	return api.KindOf(o).String() + "/" + m.Name
}

// ImageWarnings lists the container images of the scenario's objects, of
// its timeline's applies and of its setImage steps that would fail to
// pull from the scenario's registry (spec.registry): a tag a known
// repository does not have, a repository a listed registry lacks, a
// reference that does not parse.
func (s *Scenario) ImageWarnings() []Warning {
	if s.warned != nil {
		return s.warned.images
	}
	return s.imageWarnings()
}

// warned holds a loaded scenario's warnings, placed while the loader's
// origins were at hand: the YAML trees of the files it read are not kept
// for the run.
type warned struct {
	fields, images []Warning
}

// settleWarnings computes the scenario's warnings once, at the end of
// its load, and lets the objects' origins go.
func (s *Scenario) settleWarnings() {
	s.warned = &warned{fields: s.fieldWarnings(), images: s.imageWarnings()}
	s.origins = nil
}

// imageWarnings computes ImageWarnings.
func (s *Scenario) imageWarnings() []Warning {
	reg, err := s.ImageRegistry()
	if err != nil {
		return nil // the loader has already refused such a registry
	}
	strict := len(s.Spec.Registry.Images) > 0
	out := s.origins.place(imageWarnings(s.File, reg, strict, s.Objects), s.Objects)
	for i := range s.Spec.Timeline {
		st := &s.Spec.Timeline[i]
		if st.Apply != nil {
			out = append(out, s.origins.place(imageWarnings(s.File, reg, strict, st.Apply.Parsed), st.Apply.Parsed)...)
		}
		if st.ServerSideApply != nil {
			out = append(out, s.origins.place(imageWarnings(s.File, reg, strict, st.ServerSideApply.Parsed), st.ServerSideApply.Parsed)...)
		}
		if si := st.SetImage; si != nil {
			if msg := pullProblem(reg, strict, si.Image); msg != "" {
				field := fmt.Sprintf("spec.timeline[%d].setImage.image", i)
				line, col := manifest.Position(s.root, field)
				out = append(out, Warning{File: s.File, Line: line, Column: col, Object: "Deployment/" + si.Deployment,
					Field: field, Image: si.Image, Msg: msg})
			}
		}
	}
	for _, batch := range s.declared() {
		out = append(out, s.origins.place(imageWarnings(s.File, reg, strict, batch), batch)...)
	}
	return out
}

// ManifestImageWarnings lists the container images of objs (a manifest
// file's objects) that would fail to pull in a scenario that lists no
// registry: tags the built-in registry's repositories do not have,
// references that do not parse.
func ManifestImageWarnings(file string, objs []api.Object) []Warning {
	reg := kubelet.DefaultRegistry()
	reg.AssumeUnknown(kubelet.AssumedImage)
	return imageWarnings(file, reg, false, objs)
}

// imageWarnings lists the container images of objs that would fail to
// pull from reg; strict says the registry is the scenario's own list
// (else unknown repositories are assumed to exist).
func imageWarnings(file string, reg *kubelet.Registry, strict bool, objs []api.Object) []Warning {
	var out []Warning
	for _, o := range objs {
		spec, prefix := podSpecOf(o)
		if spec == nil {
			continue
		}
		for _, list := range []struct {
			field string
			cs    []api.Container
		}{{"initContainers", spec.InitContainers}, {"containers", spec.Containers}} {
			for i, c := range list.cs {
				if msg := pullProblem(reg, strict, c.Image); msg != "" {
					out = append(out, Warning{File: file, Object: objectName(o),
						Field: fmt.Sprintf("%s%s[%d].image", prefix, list.field, i), Image: c.Image, Msg: msg})
				}
			}
		}
	}
	return out
}

// pullProblem says why image would not pull from reg, or "".
func pullProblem(reg *kubelet.Registry, strict bool, image string) string {
	_, err := reg.Resolve(image)
	switch {
	case err == nil:
		return ""
	case errors.Is(err, kubelet.ErrInvalidReference):
		return "invalid reference format"
	case errors.Is(err, kubelet.ErrUnknownRepository):
		if strict {
			return "its repository is not in spec.registry.images"
		}
		return "its repository does not exist"
	}
	ref, _ := kubelet.ParseReference(image)
	tags := reg.Tags(ref.Repository())
	if ref.Digest != "" {
		return fmt.Sprintf("%s has no image with digest %s", ref.Repository(), ref.Digest)
	}
	where := ""
	if strict {
		where = " in spec.registry.images"
	}
	return fmt.Sprintf("%s has no tag %q%s (%s)", ref.Repository(), ref.Tag, where, nearestTags(tags, ref.Tag))
}

// nearestTags names the tags sharing the longest prefix with tag (at
// most five), and how many there are.
func nearestTags(tags []string, tag string) string {
	best, near := 0, []string(nil)
	for _, t := range tags {
		n := 0
		for n < len(t) && n < len(tag) && t[n] == tag[n] {
			n++
		}
		switch {
		case n > best:
			best, near = n, []string{t}
		case n == best:
			near = append(near, t)
		}
	}
	if len(near) > 5 {
		near = near[:5]
	}
	if len(tags) == len(near) {
		return "tags: " + strings.Join(near, ", ")
	}
	return fmt.Sprintf("nearest of its %d tags: %s", len(tags), strings.Join(near, ", "))
}
