package scenarios

import "testing"

// TestCheckSetPath: --set paths that name a field of the scenario format
// pass, through lists, maps, free-form manifests and self-decoding values;
// a path naming no field is refused with where it went wrong.
func TestCheckSetPath(t *testing.T) {
	for _, tc := range []struct {
		path, err string
	}{
		{"spec.cluster.nodeGroups[0].count", ""},
		{"spec.cluster.nodeGroups[name=zone-a].capacity.cpu", ""},
		{"spec.cluster.nodeGroups[*].count", ""},
		{"spec.controllers.replicaset.qps", ""},
		{"spec.objects[0].spec.replicas", ""},
		{"spec.duration", ""},
		{"spec.network.default.drop", ""},
		{"metadata.name", ""},
		{"spec.nosuch", `spec has no field "nosuch" (docs/scenario-format.md lists them)`},
		{"nosuch", `the scenario has no field "nosuch" (docs/scenario-format.md lists them)`},
		{"spec.cluster.nodeGroups.count", `spec.cluster.nodeGroups is a list: select an item ([0], [name=x] or [*]) before "count"`},
		{"spec.seed.x", `spec.seed is a single value: it has no field "x"`},
		{"spec.seed[0]", `spec.seed is not a list: [0] does not select from it`},
		{"spec..seed", `empty path segment in "spec..seed"`},
	} {
		got := ""
		if err := CheckSetPath(tc.path); err != nil {
			got = err.Error()
		}
		if got != tc.err {
			t.Errorf("CheckSetPath(%q) = %q, want %q", tc.path, got, tc.err)
		}
	}
}
