package scheduler

import (
	"slices"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
)

// Defaults the scorers use for a container that does not request CPU or
// memory (k/k pkg/scheduler/util: DefaultMilliCPURequest,
// DefaultMemoryRequest). KUBERNETES.md says "200MB"; upstream's constant is
// 200 * 1024 * 1024 bytes, which is what is used here.
const (
	// DefaultMilliCPURequest is 100m, the CPU a request-less container
	// counts for when nodes are scored.
	DefaultMilliCPURequest int64 = 100
	// DefaultMemoryRequest is 200Mi, the memory a request-less container
	// counts for when nodes are scored.
	DefaultMemoryRequest int64 = 200 * 1024 * 1024
)

// scalar is one extended resource amount (nvidia.com/gpu, hugepages-2Mi).
type scalar struct {
	name  api.ResourceName
	value int64
}

// resources is an amount of the resources the scheduler accounts for:
// milli-CPU, bytes of memory and ephemeral storage, and extended
// resources kept sorted by name (rare, so a slice beats a map). Ephemeral
// storage and extended resources are behind ext, nil while they are
// zero: nearly every pod and node has neither, and a node's resources
// are three of the fields its filters and scores read (nodeInfo), 24
// bytes each so that those fields fit two cache lines.
type resources struct {
	milliCPU int64
	memory   int64
	ext      *extResources
}

// extResources are the rare part of resources. A resources value owns
// its ext: clone and add copy it, never share it with another value
// that may change.
type extResources struct {
	ephemeral int64
	scalars   []scalar
}

// ephemeral returns the bytes of ephemeral storage.
func (r *resources) ephemeral() int64 {
	if r.ext == nil {
		return 0
	}
	return r.ext.ephemeral
}

// scalars returns the extended resources, sorted by name; nil for none.
func (r *resources) scalars() []scalar {
	if r.ext == nil {
		return nil
	}
	return r.ext.scalars
}

// extended returns r's ext, made when r has none.
func (r *resources) extended() *extResources {
	if r.ext == nil {
		r.ext = &extResources{}
	}
	return r.ext
}

// isScalar reports whether a resource is accounted as an extended
// resource: anything but cpu, memory, ephemeral-storage, pods and storage.
func isScalar(name api.ResourceName) bool {
	switch name {
	case api.ResourceCPU, api.ResourceMemory, api.ResourceEphemeralStorage, api.ResourcePods, api.ResourceStorage:
		return false
	}
	return true
}

// fromList converts a ResourceList. Map order does not matter: scalars are
// sorted.
func fromList(rl api.ResourceList) resources {
	var r resources
	for name, q := range rl {
		switch name {
		case api.ResourceCPU:
			r.milliCPU = q.MilliValue()
		case api.ResourceMemory:
			r.memory = q.Value()
		case api.ResourceEphemeralStorage:
			r.extended().ephemeral = q.Value()
		default:
			if isScalar(name) {
				x := r.extended()
				x.scalars = append(x.scalars, scalar{name: name, value: q.Value()})
			}
		}
	}
	if r.ext != nil {
		sortScalars(r.ext.scalars)
	}
	return r
}

func sortScalars(s []scalar) {
	slices.SortFunc(s, func(a, b scalar) int { return strings.Compare(string(a.name), string(b.name)) })
}

// scalarValue returns the amount of extended resource name.
func (r *resources) scalarValue(name api.ResourceName) int64 {
	for _, s := range r.scalars() {
		if s.name == name {
			return s.value
		}
	}
	return 0
}

// add adds o to r (sign +1) or subtracts it (sign -1).
func (r *resources) add(o *resources, sign int64) {
	r.milliCPU += sign * o.milliCPU
	r.memory += sign * o.memory
	if o.ext == nil {
		return
	}
	x := r.extended()
	x.ephemeral += sign * o.ext.ephemeral
	for _, s := range o.ext.scalars {
		i, found := slices.BinarySearchFunc(x.scalars, s.name, func(a scalar, n api.ResourceName) int {
			return strings.Compare(string(a.name), string(n))
		})
		if !found {
			x.scalars = slices.Insert(x.scalars, i, scalar{name: s.name})
		}
		x.scalars[i].value += sign * s.value
	}
}

// setMax raises every amount of r to at least o's.
func (r *resources) setMax(o *resources) {
	r.milliCPU = max(r.milliCPU, o.milliCPU)
	r.memory = max(r.memory, o.memory)
	if m := max(r.ephemeral(), o.ephemeral()); m != r.ephemeral() {
		r.extended().ephemeral = m
	}
	for _, s := range o.scalars() {
		if s.value > r.scalarValue(s.name) {
			r.add(&resources{ext: &extResources{scalars: []scalar{{name: s.name, value: s.value - r.scalarValue(s.name)}}}}, 1)
		}
	}
}

// isZero reports whether nothing is requested.
func (r *resources) isZero() bool {
	if r.milliCPU != 0 || r.memory != 0 || r.ephemeral() != 0 {
		return false
	}
	for _, s := range r.scalars() {
		if s.value != 0 {
			return false
		}
	}
	return true
}

// podRequests returns what pod asks of a node (k8s.io/component-helpers
// resource.PodRequests, as the NodeResourcesFit plugin uses it): the sum
// over its containers, raised to what any init container needs while it
// runs (init containers run one at a time, after the restartable "sidecar"
// init containers before them, which keep running), plus the pod's
// overhead. nonZero is the same sum with every container that does not
// request CPU or memory counted as DefaultMilliCPURequest and
// DefaultMemoryRequest, for scoring.
func podRequests(pod *api.Pod) (req resources, nonZero resources) {
	spec := &pod.Spec
	for i := range spec.Containers {
		c := &spec.Containers[i].Resources
		cr := fromList(c.Requests)
		req.add(&cr, 1)
		nz := nonZeroOf(c.Requests)
		nonZero.add(&nz, 1)
	}
	var sidecars, sidecarsNZ, initMax, initMaxNZ resources
	for i := range spec.InitContainers {
		c := &spec.InitContainers[i]
		cr := fromList(c.Resources.Requests)
		nz := nonZeroOf(c.Resources.Requests)
		if c.RestartPolicy != nil && *c.RestartPolicy == api.ContainerRestartPolicyAlways {
			// A sidecar keeps running beside everything started after it.
			req.add(&cr, 1)
			nonZero.add(&nz, 1)
			sidecars.add(&cr, 1)
			sidecarsNZ.add(&nz, 1)
			cr = sidecars.clone()
			nz = sidecarsNZ.clone()
		} else {
			cr.add(&sidecars, 1)
			nz.add(&sidecarsNZ, 1)
		}
		initMax.setMax(&cr)
		initMaxNZ.setMax(&nz)
	}
	req.setMax(&initMax)
	nonZero.setMax(&initMaxNZ)
	if spec.Overhead != nil {
		oh := fromList(spec.Overhead)
		req.add(&oh, 1)
		nonZero.add(&oh, 1)
	}
	return req, nonZero
}

// nonZeroOf is one container's requests for scoring: CPU and memory that
// are not requested at all count as the defaults; a request explicitly set
// to zero stays zero (schedutil.GetNonzeroRequestForResource).
func nonZeroOf(rl api.ResourceList) resources {
	r := resources{milliCPU: DefaultMilliCPURequest, memory: DefaultMemoryRequest}
	if q, ok := rl[api.ResourceCPU]; ok {
		r.milliCPU = q.MilliValue()
	}
	if q, ok := rl[api.ResourceMemory]; ok {
		r.memory = q.Value()
	}
	return r
}

// hostPort is a host port a container asks for.
type hostPort struct {
	ip       string
	protocol api.Protocol
	port     int32
}

// podHostPorts lists the host ports pod asks for: its sidecars' (init
// containers with restartPolicy Always, which run as long as the pod)
// and its containers' (schedutil.GetHostPorts); other init containers'
// ports are not held.
func podHostPorts(pod *api.Pod) []hostPort {
	var out []hostPort
	for i := range pod.Spec.InitContainers {
		if c := &pod.Spec.InitContainers[i]; c.RestartPolicy != nil && *c.RestartPolicy == api.ContainerRestartPolicyAlways {
			out = appendHostPorts(out, c.Ports)
		}
	}
	for i := range pod.Spec.Containers {
		out = appendHostPorts(out, pod.Spec.Containers[i].Ports)
	}
	return out
}

// appendHostPorts appends the ports that ask for a host port, with
// upstream's defaults: TCP, and every address (0.0.0.0).
func appendHostPorts(out []hostPort, ports []api.ContainerPort) []hostPort {
	for _, p := range ports {
		if p.HostPort <= 0 {
			continue
		}
		proto := p.Protocol
		if proto == "" {
			proto = api.ProtocolTCP
		}
		ip := p.HostIP
		if ip == "" {
			ip = "0.0.0.0"
		}
		out = append(out, hostPort{ip: ip, protocol: proto, port: p.HostPort})
	}
	return out
}

// conflicts reports whether two host ports cannot both be bound: same
// protocol and port, and the same address or either one the wildcard
// (NodePorts' HostPortInfo.CheckConflict).
func (a hostPort) conflicts(b hostPort) bool {
	if a.port != b.port || a.protocol != b.protocol {
		return false
	}
	return a.ip == b.ip || a.ip == "0.0.0.0" || b.ip == "0.0.0.0"
}

// clone returns a copy of r sharing no memory with it.
func (r resources) clone() resources {
	if r.ext != nil {
		r.ext = &extResources{ephemeral: r.ext.ephemeral, scalars: slices.Clone(r.ext.scalars)}
	}
	return r
}
