// Package api holds the Kubernetes object types the simulator stores and
// controllers read: Pods, Nodes, Namespaces, Services, Endpoints, Events,
// ResourceQuotas, ConfigMaps (core/v1), Deployments and ReplicaSets (apps/v1),
// Leases (coordination.k8s.io/v1) and HorizontalPodAutoscalers
// (autoscaling/v1 and autoscaling/v2), together with the scalar types they
// are built from (Quantity, IntOrString, Time, label selectors).
//
// Field names and JSON tags follow k8s.io/api, so real manifests load
// unchanged and re-encode to the same JSON tree (one deliberate exception:
// an unset ServicePort.targetPort is omitted instead of written as 0).
// Sub-objects the simulator never interprets (volume sources, security
// contexts, probe handlers, ...) are kept as RawValue: opaque JSON that
// survives a round trip as the same tree, compacted, keys in their order.
// The package also provides hand-written deep copies, the server-side
// defaults of KUBERNETES.md section 1 and a registry of served kinds.
//
// Imports: the standard library only. It must not import the kernel, the
// store, the network, controllers or any YAML library; the YAML loader lives
// in sim/manifest and drives these types through their json tags and their
// json.Marshaler/json.Unmarshaler methods.
//
// Determinism contract: nothing here reads the wall clock, draws random
// numbers or starts goroutines. Where Go map order could leak into a result
// (selector requirements and strings, Volume source keys in JSON, resource
// names) keys are sorted first; the remaining map loops (deep copies,
// copying limits into requests) give the same result in any order. Time
// values are kept in UTC, so printing them does not depend on the
// machine's time zone. Deep copies share no memory with their source, so
// a copy may be mutated while the original stays shared.
package api
