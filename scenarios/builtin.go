package scenarios

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// builtinFS holds the built-in scenarios (builtin/*.yaml) and the
// manifests they load (builtin/manifests/, unmodified copies of the
// Kubernetes documentation's examples in testdata/kubernetes-docs).
//
//go:embed builtin
var builtinFS embed.FS

// Default is the built-in scenario `clustersim run` runs with no argument.
const Default = "rolling-update"

// BuiltinNames returns the names of the built-in scenarios, sorted.
func BuiltinNames() []string {
	entries, err := fs.ReadDir(builtinFS, "builtin")
	if err != nil {
		panic("scenarios invariant embedded-dir: " + err.Error())
	}
	var names []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".yaml"); ok && !e.IsDir() {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// Builtin loads the built-in scenario name.
func Builtin(name string) (*Scenario, error) {
	p := path.Join("builtin", name+".yaml")
	data, err := fs.ReadFile(builtinFS, p)
	if err != nil {
		return nil, fmt.Errorf("no built-in scenario %q (clustersim list shows them)", name)
	}
	return Load("builtin:"+name+".yaml", "builtin", builtinFS, data)
}

// IsBuiltin reports whether name is a built-in scenario.
func IsBuiltin(name string) bool { return slices.Contains(BuiltinNames(), name) }
