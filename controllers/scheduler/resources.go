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
// resources kept sorted by name (rare, so a slice beats a map).
type resources struct {
	milliCPU  int64
	memory    int64
	ephemeral int64
	scalars   []scalar
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
			r.ephemeral = q.Value()
		default:
			if isScalar(name) {
				r.scalars = append(r.scalars, scalar{name: name, value: q.Value()})
			}
		}
	}
	sortScalars(r.scalars)
	return r
}

func sortScalars(s []scalar) {
	slices.SortFunc(s, func(a, b scalar) int { return strings.Compare(string(a.name), string(b.name)) })
}

// scalarValue returns the amount of extended resource name.
func (r *resources) scalarValue(name api.ResourceName) int64 {
	for _, s := range r.scalars {
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
	r.ephemeral += sign * o.ephemeral
	for _, s := range o.scalars {
		i, found := slices.BinarySearchFunc(r.scalars, s.name, func(a scalar, n api.ResourceName) int {
			return strings.Compare(string(a.name), string(n))
		})
		if !found {
			r.scalars = slices.Insert(r.scalars, i, scalar{name: s.name})
		}
		r.scalars[i].value += sign * s.value
	}
}

// setMax raises every amount of r to at least o's.
func (r *resources) setMax(o *resources) {
	r.milliCPU = max(r.milliCPU, o.milliCPU)
	r.memory = max(r.memory, o.memory)
	r.ephemeral = max(r.ephemeral, o.ephemeral)
	for _, s := range o.scalars {
		if s.value > r.scalarValue(s.name) {
			r.add(&resources{scalars: []scalar{{name: s.name, value: s.value - r.scalarValue(s.name)}}}, 1)
		}
	}
}

// isZero reports whether nothing is requested.
func (r *resources) isZero() bool {
	if r.milliCPU != 0 || r.memory != 0 || r.ephemeral != 0 {
		return false
	}
	for _, s := range r.scalars {
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
			cr = cloneResources(&sidecars)
			nz = cloneResources(&sidecarsNZ)
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

func cloneResources(r *resources) resources {
	c := *r
	c.scalars = slices.Clone(r.scalars)
	return c
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
	r.scalars = slices.Clone(r.scalars)
	return r
}
