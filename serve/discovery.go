package serve

import (
	"slices"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
)

// KubernetesVersion is the version /version reports: the release whose
// behaviour the simulator follows (api.KubernetesRelease).
const KubernetesVersion = api.KubernetesRelease

// versionInfo is /version (k8s.io/apimachinery/pkg/version.Info).
func versionInfo() map[string]any {
	return map[string]any{
		"major": api.KubernetesMajor, "minor": api.KubernetesMinor, "gitVersion": KubernetesVersion + "+clustersim",
		"gitCommit": "", "gitTreeState": "clean", "buildDate": "2026-01-01T00:00:00Z",
		"goVersion": "go1.26", "compiler": "gc", "platform": "linux/amd64",
	}
}

// inAll are the built-in resources in kubectl's "all" category, as the
// real API server's discovery lists them (each storage's Categories():
// pods, services, deployments, replicasets, statefulsets, daemonsets,
// jobs, cronjobs, horizontalpodautoscalers; replicationcontrollers are
// not served).
var inAll = map[string]bool{"pods": true, "services": true, "deployments": true, "replicasets": true, "statefulsets": true,
	"daemonsets": true, "jobs": true, "cronjobs": true, "horizontalpodautoscalers": true}

// scalable are the resources with a scale subresource.
var scalable = map[api.Kind]bool{api.KindDeployment: true, api.KindReplicaSet: true, api.KindStatefulSet: true}

var allVerbs = []string{"create", "delete", "get", "list", "patch", "update", "watch"}

// groupVersion is one served group/version and its resources.
type groupVersion struct {
	group, version string
	infos          []api.ResourceInfo
}

func (g groupVersion) String() string {
	if g.group == "" {
		return g.version
	}
	return g.group + "/" + g.version
}

// servedVersions groups the registry's kinds by the group/versions they
// are served at, core first, then groups by name.
func servedVersions(reg *api.Registry) []groupVersion {
	var out []groupVersion
	for _, k := range reg.Kinds() {
		info, _ := reg.Lookup(k)
		for _, av := range reg.APIVersions(k) {
			group, version := "", av
			if g, v, ok := strings.Cut(av, "/"); ok {
				group, version = g, v
			}
			i := slices.IndexFunc(out, func(g groupVersion) bool { return g.group == group && g.version == version })
			if i < 0 {
				out = append(out, groupVersion{group: group, version: version})
				i = len(out) - 1
			}
			out[i].infos = append(out[i].infos, info)
		}
	}
	slices.SortStableFunc(out, func(a, b groupVersion) int {
		if c := strings.Compare(a.group, b.group); c != 0 {
			return c
		}
		return strings.Compare(b.version, a.version) // v2 before v1: the preferred version first
	})
	return out
}

// apiVersions is /api (metav1.APIVersions).
func apiVersions(host string) map[string]any {
	return map[string]any{
		"kind": "APIVersions", "versions": []string{"v1"},
		"serverAddressByClientCIDRs": []map[string]string{{"clientCIDR": "0.0.0.0/0", "serverAddress": host}},
	}
}

// apiGroupList is /apis (metav1.APIGroupList): every named group with its
// versions, the storage version preferred.
func apiGroupList(reg *api.Registry) map[string]any {
	groups := []map[string]any{}
	var names []string
	versions := map[string][]map[string]string{}
	preferred := map[string]string{}
	for _, gv := range servedVersions(reg) {
		if gv.group == "" {
			continue
		}
		if _, ok := versions[gv.group]; !ok {
			names = append(names, gv.group)
		}
		versions[gv.group] = append(versions[gv.group], map[string]string{"groupVersion": gv.String(), "version": gv.version})
		for _, info := range gv.infos {
			if info.Version == gv.version {
				preferred[gv.group] = gv.version
			}
		}
	}
	for _, g := range names {
		pv := preferred[g]
		if pv == "" {
			pv = versions[g][0]["version"]
		}
		groups = append(groups, map[string]any{"name": g, "versions": versions[g],
			"preferredVersion": map[string]string{"groupVersion": g + "/" + pv, "version": pv}})
	}
	return map[string]any{"kind": "APIGroupList", "apiVersion": "v1", "groups": groups}
}

// apiResourceList is /api/v1 or /apis/<group>/<version>
// (metav1.APIResourceList); ok is false for a version not served.
func apiResourceList(reg *api.Registry, group, version string) (map[string]any, bool) {
	for _, gv := range servedVersions(reg) {
		if gv.group != group || gv.version != version {
			continue
		}
		resources := []map[string]any{}
		for _, info := range gv.infos {
			r := map[string]any{"name": info.Resource, "singularName": info.Singular, "namespaced": info.Namespaced,
				"kind": info.Kind.Name, "verbs": allVerbs}
			if len(info.ShortNames) > 0 {
				r["shortNames"] = info.ShortNames
			}
			if inAll[info.Resource] && !info.Custom {
				r["categories"] = []string{"all"}
			}
			resources = append(resources, r)
			if info.HasStatus {
				resources = append(resources, map[string]any{"name": info.Resource + "/status", "singularName": "", "namespaced": info.Namespaced,
					"kind": info.Kind.Name, "verbs": []string{"get", "patch", "update"}})
			}
			if info.Kind == api.KindPod {
				resources = append(resources, map[string]any{"name": "pods/binding", "singularName": "", "namespaced": true,
					"kind": "Binding", "verbs": []string{"create"}},
					map[string]any{"name": "pods/eviction", "singularName": "", "namespaced": true,
						"group": "policy", "version": "v1", "kind": "Eviction", "verbs": []string{"create"}})
			}
			if scalable[info.Kind] {
				resources = append(resources, map[string]any{"name": info.Resource + "/scale", "singularName": "", "namespaced": info.Namespaced,
					"group": "autoscaling", "version": "v1", "kind": "Scale", "verbs": []string{"get", "patch", "update"}})
			}
		}
		return map[string]any{"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv.String(), "resources": resources}, true
	}
	return nil, false
}

// openAPIV2 is the smallest valid OpenAPI v2 document in the protocol
// buffer encoding kubectl asks for
// (application/com.github.proto-openapi.spec.v2@v1.0+protobuf,
// gnostic's openapi_v2.Document): field 1, swagger, "2.0", and nothing
// else: no paths, no definitions. kubectl's client-side validation
// (apply, create with --validate=strict) skips kinds the document does
// not define, and its check whether the server validates fields finds no
// path: it validates nothing itself (under --validate=warn it logs that
// it skips the check) and sends its fieldValidation directive all the
// same, which the simulated API server honours (fieldvalidation.go).
func openAPIV2() []byte { return []byte{1<<3 | 2, 3, '2', '.', '0'} }
