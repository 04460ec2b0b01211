package kubectl

import (
	"strings"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/client"
)

// KindString returns the kind as kubectl's name printer writes it: the
// kind in lower case, then ".<group>" for a kind outside the core group:
// "deployment.apps", "horizontalpodautoscaler.autoscaling", "pod".
func KindString(kind api.Kind) string {
	k := strings.ToLower(kind.Name)
	if kind.Group != "" {
		return k + "." + kind.Group
	}
	return k
}

// lookup returns how kind is served: a built-in kind, else one the
// server's discovery knows (a custom kind, defined by a
// CustomResourceDefinition created at any time before the call), as
// kubectl's REST mapper resolves kinds through discovery.
func lookup(c client.Client, kind api.Kind) (api.ResourceInfo, bool) {
	if info, ok := api.Lookup(kind); ok {
		return info, true
	}
	if d, ok := c.(client.Discovery); ok && d.Kinds() != nil {
		return d.Kinds().Lookup(kind)
	}
	return api.ResourceInfo{}, false
}

// ObjectName returns "<kind>.<group>/<name>", the subject of kubectl's
// one-line outputs ("deployment.apps/web configured").
func ObjectName(kind api.Kind, name string) string {
	return KindString(kind) + "/" + name
}

// resourceString returns "<resource>.<group>" ("deployments.apps"), the
// form kubectl's error messages name a resource by.
func resourceString(kind api.Kind) string {
	if info, ok := api.Lookup(kind); ok {
		return info.GroupResource()
	}
	return strings.ToLower(kind.Name)
}

// resourcePath returns "<resource>/<name>" ("deployments/web"), the form
// of cli-runtime's Info.ObjectName in kubectl's warnings.
func resourcePath(kind api.Kind, name string) string {
	if info, ok := api.Lookup(kind); ok {
		return info.Resource + "/" + name
	}
	return strings.ToLower(kind.Name) + "/" + name
}

// line returns "<kind>.<group>/<name> <operation>".
func line(kind api.Kind, name, operation string) string {
	return ObjectName(kind, name) + " " + operation
}

// scoped returns key as kubectl addresses an object of kind: in
// DefaultNamespace when a namespaced object names none, without a
// namespace when the kind is cluster-scoped.
func scoped(kind api.Kind, key api.Key) api.Key {
	if info, ok := api.Lookup(kind); ok {
		switch {
		case !info.Namespaced:
			key.Namespace = ""
		case key.Namespace == "":
			key.Namespace = DefaultNamespace
		}
	}
	return key
}
