package serve

import (
	"slices"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// upstreamResources is what `kubectl api-resources` lists against a real
// v1.32 API server for each resource clustersim serves: its short names
// and whether it is in the "all" category (k/k pkg/registry/*/storage,
// ShortNames() and Categories()).
var upstreamResources = map[string]struct {
	short []string
	all   bool
}{
	"clusterroles":              {},
	"clusterrolebindings":       {},
	"configmaps":                {short: []string{"cm"}},
	"cronjobs":                  {short: []string{"cj"}, all: true},
	"customresourcedefinitions": {short: []string{"crd", "crds"}},
	"daemonsets":                {short: []string{"ds"}, all: true},
	"deployments":               {short: []string{"deploy"}, all: true},
	"endpointslices":            {},
	"endpoints":                 {short: []string{"ep"}},
	"events":                    {short: []string{"ev"}},
	"horizontalpodautoscalers":  {short: []string{"hpa"}, all: true},
	"ingresses":                 {short: []string{"ing"}},
	"jobs":                      {all: true},
	"leases":                    {},
	"limitranges":               {short: []string{"limits"}},
	"namespaces":                {short: []string{"ns"}},
	"networkpolicies":           {short: []string{"netpol"}},
	"nodes":                     {short: []string{"no"}},
	"persistentvolumes":         {short: []string{"pv"}},
	"persistentvolumeclaims":    {short: []string{"pvc"}},
	"pods":                      {short: []string{"po"}, all: true},
	"poddisruptionbudgets":      {short: []string{"pdb"}},
	"priorityclasses":           {short: []string{"pc"}},
	"replicasets":               {short: []string{"rs"}, all: true},
	"resourcequotas":            {short: []string{"quota"}},
	"roles":                     {},
	"rolebindings":              {},
	"secrets":                   {},
	"services":                  {short: []string{"svc"}, all: true},
	"serviceaccounts":           {short: []string{"sa"}},
	"statefulsets":              {short: []string{"sts"}, all: true},
	"storageclasses":            {short: []string{"sc"}},
}

// TestDiscoveryShortNames holds every built-in resource's discovery entry
// to upstream's short names and categories, and every served resource to
// the table (a new kind must be added to it).
func TestDiscoveryShortNames(t *testing.T) {
	reg := api.NewRegistry()
	seen := map[string]bool{}
	for _, gv := range servedVersions(reg) {
		doc, ok := apiResourceList(reg, gv.group, gv.version)
		if !ok {
			t.Fatalf("%s: not served", gv)
		}
		for _, r := range doc["resources"].([]map[string]any) {
			name := r["name"].(string)
			if r["singularName"] == "" {
				continue // a subresource
			}
			seen[name] = true
			want, ok := upstreamResources[name]
			if !ok {
				t.Errorf("%s: %s is not in upstreamResources", gv, name)
				continue
			}
			short, _ := r["shortNames"].([]string)
			if !slices.Equal(short, want.short) {
				t.Errorf("%s %s: shortNames %q; want %q", gv, name, short, want.short)
			}
			cats, _ := r["categories"].([]string)
			if all := slices.Contains(cats, "all"); all != want.all {
				t.Errorf(`%s %s: in category "all" %v; want %v`, gv, name, all, want.all)
			}
		}
	}
	for name := range upstreamResources {
		if !seen[name] {
			t.Errorf("%s: in upstreamResources but not served", name)
		}
	}
}

// TestDiscoverySubresources holds the served subresources to discovery:
// scale for Deployments, ReplicaSets and StatefulSets (kubectl scale
// checks discovery before it sends), binding and eviction for pods.
func TestDiscoverySubresources(t *testing.T) {
	reg := api.NewRegistry()
	for _, tc := range []struct {
		group, version, name, kind string
	}{
		{"apps", "v1", "deployments/scale", "Scale"},
		{"apps", "v1", "replicasets/scale", "Scale"},
		{"apps", "v1", "statefulsets/scale", "Scale"},
		{"apps", "v1", "statefulsets/status", "StatefulSet"},
		{"", "v1", "pods/eviction", "Eviction"},
		{"", "v1", "pods/binding", "Binding"},
	} {
		doc, ok := apiResourceList(reg, tc.group, tc.version)
		if !ok {
			t.Fatalf("%s/%s: not served", tc.group, tc.version)
		}
		i := slices.IndexFunc(doc["resources"].([]map[string]any), func(r map[string]any) bool { return r["name"] == tc.name })
		if i < 0 {
			t.Errorf("%s/%s: no %s", tc.group, tc.version, tc.name)
			continue
		}
		if k := doc["resources"].([]map[string]any)[i]["kind"]; k != tc.kind {
			t.Errorf("%s: kind %v; want %s", tc.name, k, tc.kind)
		}
	}
}
