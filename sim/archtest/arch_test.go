package archtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/clustersim/clustersim"

// allowed maps a package (directory relative to the module root; a
// trailing "/..." covers every package below) to the module packages and
// third-party modules it may import. Standard library imports are allowed
// everywhere except those listed in forbiddenImports.
var allowed = map[string][]string{
	"sim/kernel": {},
	// The API types (strategic merge patch is sim/strategicpatch's,
	// above them).
	"sim/api":       {},
	"sim/cron":      {},
	"sim/apierr":    {},
	"sim/fieldhash": {"github.com/cespare/xxhash/v2"},
	"sim/addrmemo":  {},
	// Kubernetes' strategic merge patch, made and applied.
	"sim/strategicpatch": {},
	"sim/archtest":       {},
	"sim/manifest":       {"sim/api", "gopkg.in/yaml.v3"},
	"sim/store":          {"sim/kernel", "sim/api", "sim/apierr", "sim/addrmemo"},
	"sim/netsim":         {"sim/kernel"},
	"sim/workqueue":      {"sim/kernel"},
	"sim/flowcontrol":    {"sim/kernel"},
	// client-go's EventCorrelator, for sim/client's and the kubelet's
	// event recorders.
	"sim/eventcorrelator": {"sim/kernel", "sim/api", "sim/fieldhash", "sim/flowcontrol"},
	"sim/apiserver":       {"sim/kernel", "sim/api", "sim/apierr", "sim/store", "sim/netsim", "sim/cron", "sim/strategicpatch", "sim/addrmemo"},
	"sim/client":          {"sim/kernel", "sim/api", "sim/apierr", "sim/store", "sim/netsim", "sim/apiserver", "sim/flowcontrol", "sim/eventcorrelator"},
	"sim/informer":        {"sim/kernel", "sim/api", "sim/apierr", "sim/store", "sim/netsim", "sim/apiserver", "sim/client"},
	"sim/controller":      {"sim/kernel", "sim/api", "sim/apierr", "sim/client", "sim/informer", "sim/workqueue"},
	"sim/kubelet":         {"sim/kernel", "sim/api", "sim/apierr", "sim/store", "sim/netsim", "sim/apiserver", "sim/flowcontrol", "sim/eventcorrelator", "sim/strategicpatch"},
	"sim/metrics":         {"sim/kernel", "sim/api", "sim/store"},
	"sim/gap":             {"sim/kernel", "sim/api", "sim/store"},
	"sim/cluster":         {"sim/...", "controllers/..."},
	// Controllers see API types, errors and the controller runtime only:
	// never the kernel, the store, the network or the API server (and
	// sim/addrmemo, a lookup by a string's address, which knows none).
	"controllers/...": {"sim/api", "sim/apierr", "sim/cron", "sim/client", "sim/informer", "sim/workqueue", "sim/controller", "sim/addrmemo", "controllers/..."},
	// The scenario format; kubectl's user actions; the runner on top of
	// both.
	"scenarios":         {"sim/...", "controllers/...", "gopkg.in/yaml.v3"},
	"scenarios/kubectl": {"sim/api", "sim/apierr", "sim/client", "sim/strategicpatch", "controllers/..."},
	// The command-style user (retried commands), kubectl's peer; its
	// tests compare it with kubectl's declarative apply.
	"scenarios/imperative": {"sim/api", "sim/apierr", "sim/client", "controllers/...", "scenarios/kubectl"},
	"scenarios/runner":     {"sim/...", "controllers/...", "scenarios", "scenarios/kubectl", "scenarios/imperative"},
	// Printers (report/kubectl) below the reports that use them.
	"report/kubectl": {"sim/api", "controllers/...", "scenarios/kubectl", "github.com/olekukonko/tablewriter"},
	"report/measure": {"sim/...", "scenarios/...", "controllers/..."},
	"report/lessons": {"sim/...", "scenarios/...", "report", "report/measure", "report/chart"},
	"report/chart":   {"gonum.org/v1/plot/...", "gonum.org/v1/gonum/..."},
	"report":         {"sim/...", "controllers/...", "scenarios/...", "report/kubectl", "report/measure", "report/chart", "github.com/olekukonko/tablewriter", "github.com/olekukonko/tablewriter/tw", "github.com/olekukonko/tablewriter/renderer", "github.com/clipperhouse/displaywidth", "gonum.org/v1/gonum/...", "gonum.org/v1/plot/..."},
	// The public door for outside code (registration, swarms, verdicts,
	// shrinking), above the runner and the detectors.
	"harness": {"sim/...", "controllers/...", "scenarios/...", "report/measure"},
	// Examples are written as an outside module would write them: the
	// controller runtime, API types and the harness only.
	"examples/...": {"harness", "sim/api", "sim/apierr", "sim/client", "sim/controller", "sim/informer", "sim/workqueue"},
	// The Kubernetes HTTP API of a running simulation (clustersim serve):
	// translation and the loop-side gateway; no clock, no goroutines.
	"serve":   {"sim/...", "report/kubectl"},
	"cmd/...": {"sim/...", "controllers/...", "scenarios/...", "report/...", "serve", "harness", "examples/...", "github.com/spf13/pflag", "github.com/olekukonko/tablewriter", "github.com/schollz/progressbar/v3", "golang.org/x/term", "github.com/creack/pty"},
}

// forbiddenImports may not appear in sim/ or controllers/ at all.
var forbiddenImports = []string{"math/rand", "unsafe"}

// importExceptions are single files allowed one forbidden import, each
// with its reason. sim/store/diff.go compares two struct values' memory
// (sameBits) to skip the audit walk of a status write's unchanged spec
// and metadata; it may only say "different" of equal values (the walk
// then compares them), so the diff, and hence the trace, cannot depend
// on it. It also walks objects through memory, by the field offsets and
// element sizes reflect gives (walkPtr, checked against the reflective
// walk by TestWalkPtrMatchesReflect).
// sim/store/diff_podcreate.go reads a pod's fields for the audit diff
// of its create at the offsets the walk's own type infos give (as
// diff.go's walkPtr does), and hands the fields it does not render to
// that walk; TestPodCreateMatchesWalk holds its changes to the walk's.
// sim/api/equality.go compares two map values' pointers (SameMap), never
// reading through them: equal pointers are the very same map, and
// unequal ones send the caller to compare the entries.
// sim/addrmemo/addrmemo.go finds a string's slot by its address and
// tells a hit by address and length; the slot holds the string, so an
// address is not reused while a slot names it, and a miss sends the
// caller to its own lookup: what a caller computes cannot depend on it
// (TestMemoHitsOnlyTheStringPut); its Addr and Same serve the store's
// memo of a write's changed paths the same way.
// sim/kernel/prefetch.go takes the address a pointer or a Handler holds
// to ask the processor to prefetch it; nothing is read through it, and
// a prefetch changes no value a program computes.
var importExceptions = map[string]string{
	"sim/api/equality.go":         "unsafe",
	"sim/store/diff.go":           "unsafe",
	"sim/store/diff_podcreate.go": "unsafe",
	"sim/addrmemo/addrmemo.go":    "unsafe",
	"sim/kernel/prefetch.go":      "unsafe",
}

// forbiddenCalls are wall-clock and real-sleep functions of package time.
var forbiddenCalls = []string{"Now", "Sleep", "After", "AfterFunc", "NewTimer", "NewTicker", "Tick", "Since", "Until"}

// goAllowed are the packages that may contain go statements: the kernel
// (its coroutines), and the worker pools that run independent simulations
// side by side, results kept by seed (cmd/, the harness's swarms).
var goAllowed = []string{"sim/kernel", "cmd/...", "harness"}

func root(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatalf("module root not found at %s", dir)
	}
	return dir
}

// match reports whether pkg is named by pattern ("a/b" or "a/...").
func match(pattern, pkg string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return pkg == base || strings.HasPrefix(pkg, base+"/")
	}
	return pattern == pkg
}

func rulesFor(pkg string) ([]string, bool) {
	if r, ok := allowed[pkg]; ok {
		return r, true
	}
	keys := make([]string, 0, len(allowed))
	for k := range allowed {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if match(k, pkg) {
			return allowed[k], true
		}
	}
	return nil, false
}

type file struct {
	pkg  string // directory relative to the root
	path string
	ast  *ast.File
	fset *token.FileSet
}

func goFiles(t *testing.T) []file {
	t.Helper()
	return goFilesIn(t, root(t))
}

// goFilesIn parses every Go file under the tree r (a module root), except
// in hidden, testdata and docs directories.
func goFilesIn(t *testing.T, r string) []file {
	t.Helper()
	var out []file
	err := filepath.WalkDir(r, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != r && (strings.HasPrefix(name, ".") || name == "testdata" || name == "docs") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); path != r && err == nil {
				return filepath.SkipDir // a nested module is outside code (examples/outside)
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		rel, _ := filepath.Rel(r, filepath.Dir(path))
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		out = append(out, file{pkg: filepath.ToSlash(rel), path: path, ast: f, fset: fset})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestImportsPointDown(t *testing.T) {
	for _, f := range goFiles(t) {
		if f.pkg == "." {
			continue
		}
		rules, ok := rulesFor(f.pkg)
		if !ok {
			t.Errorf("%s: package %s has no entry in the layering table (add it to archtest and docs/ARCHITECTURE.md)", f.path, f.pkg)
			continue
		}
		test := strings.HasSuffix(f.path, "_test.go")
		for _, imp := range f.ast.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			inSim := strings.HasPrefix(f.pkg, "sim/") || strings.HasPrefix(f.pkg, "controllers")
			if inSim && slices.Contains(forbiddenImports, p) && importExceptions[f.pkg+"/"+filepath.Base(f.path)] != p {
				t.Errorf("%s: imports %s (forbidden in sim/ and controllers/: use the kernel's random streams)", f.path, p)
			}
			var target string
			switch {
			case strings.HasPrefix(p, module+"/"):
				target = strings.TrimPrefix(p, module+"/")
			case strings.Contains(strings.SplitN(p, "/", 2)[0], "."):
				target = p // third party
			default:
				continue // standard library
			}
			if target == f.pkg {
				continue
			}
			if test && (strings.HasPrefix(target, "sim/") || strings.HasPrefix(target, "controllers/")) {
				// Tests may wire up what they test against (an external test
				// of a controller needs a cluster).
				continue
			}
			okImport := false
			for _, r := range rules {
				if match(r, target) {
					okImport = true
					break
				}
			}
			if !okImport {
				t.Errorf("%s: %s may not import %s (see docs/ARCHITECTURE.md)", f.path, f.pkg, target)
			}
		}
	}
}

// wallClockAllowed are the packages that may read the wall clock, sleep
// and start timers: the command line alone (its --stall watchdog, its
// worker pool).
var wallClockAllowed = []string{"cmd/..."}

// deterministic reports whether the rules of determinism bind pkg: every
// package of the module but the command line and the architecture test.
func deterministic(pkg string) bool {
	return pkg != "." && pkg != "sim/archtest" && !slices.ContainsFunc(wallClockAllowed, func(p string) bool { return match(p, pkg) })
}

// determinismViolations lists the wall-clock calls, timers and go
// statements of the non-test files among files whose package the rules
// bind, as "file:line:col: what" lines. TestNoWallClockOrGoroutines runs
// it on the repository, TestDetectorCatchesPlantedViolations on a tree
// with planted violations.
func determinismViolations(files []file) []string {
	var out []string
	for _, f := range files {
		if !deterministic(f.pkg) || strings.HasSuffix(f.path, "_test.go") {
			continue
		}
		timeName := ""
		for _, imp := range f.ast.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "time" {
				timeName = "time"
				if imp.Name != nil {
					timeName = imp.Name.Name
				}
			}
		}
		goOK := slices.ContainsFunc(goAllowed, func(g string) bool { return match(g, f.pkg) })
		ast.Inspect(f.ast, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GoStmt:
				if !goOK {
					out = append(out, fmt.Sprintf("%s: go statement (only the kernel and the worker pools of cmd/ and harness may own goroutines)", f.fset.Position(n.Pos())))
				}
			case *ast.SelectorExpr:
				if id, ok := n.X.(*ast.Ident); ok && timeName != "" && id.Name == timeName && slices.Contains(forbiddenCalls, n.Sel.Name) {
					out = append(out, fmt.Sprintf("%s: time.%s (use the injected virtual clock)", f.fset.Position(n.Pos()), n.Sel.Name))
				}
			}
			return true
		})
	}
	return out
}

// TestNoWallClockOrGoroutines: no package but cmd/ reads the wall clock,
// sleeps or starts a timer, and none but the kernel and cmd/ starts a
// goroutine.
func TestNoWallClockOrGoroutines(t *testing.T) {
	for _, v := range determinismViolations(goFiles(t)) {
		t.Error(v)
	}
}

// TestDetectorCatchesPlantedViolations is the mutation test of the check
// above: it plants time.Now(), time.Sleep and a go statement in a new
// package under each top-level tree of the module, in a temporary copy of
// its layout, and requires the very detector TestNoWallClockOrGoroutines
// uses to report each of them, and to leave a package under cmd/ alone.
func TestDetectorCatchesPlantedViolations(t *testing.T) {
	rules, _ := rulesFor("controllers/deployment")
	for _, r := range rules {
		if match(r, "sim/kernel") || match(r, "sim/store") || match(r, "sim/netsim") {
			t.Errorf("controllers may import %s through rule %s", "kernel/store/netsim", r)
		}
	}
	const planted = "package planted\n\nimport clock \"time\"\n\nfunc F() {\n\tgo F()\n\t_ = clock.Now()\n\tclock.Sleep(1)\n}\n"
	tmp := t.TempDir()
	dirs := []string{"scenarios/planted", "report/planted", "sim/planted", "controllers/planted", "scenarios/runner/planted", "report/measure/planted", "cmd/planted"}
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(tmp, d), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tmp, d, "planted.go"), []byte(planted), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := strings.Join(determinismViolations(goFilesIn(t, tmp)), "\n")
	for _, d := range dirs {
		path := filepath.Join(tmp, d, "planted.go")
		for _, want := range []string{path + ":6:2: go statement", path + ":7:6: time.Now", path + ":8:2: time.Sleep"} {
			caught := strings.Contains(got, want)
			if strings.HasPrefix(d, "cmd/") && caught {
				t.Errorf("%s is reported, but cmd/ may use the wall clock and goroutines", want)
			}
			if !strings.HasPrefix(d, "cmd/") && !caught {
				t.Errorf("planted %s not reported; the detector reported:\n%s", want, got)
			}
		}
	}
}

// adapterModule is the nested module of the controller-runtime adapter
// (crt/, its own go.mod): it may import Kubernetes' modules, which the
// core module may not.
const adapterModule = "crt"

// adapterAllowed maps the adapter module's packages (relative to crt/)
// to what they may import: the adapter reads clustersim through its
// public packages only; the example operator's controller code imports
// controller-runtime and Kubernetes' types, and nothing of clustersim.
var adapterAllowed = map[string][]string{
	".":                  {"harness", "sim/api", "sim/apierr", "sim/client", "sim/controller", "sim/informer", "k8s.io/...", "sigs.k8s.io/...", "github.com/go-logr/logr"},
	"example":            {"crt", "crt/example/...", "harness", "sim/api", "k8s.io/...", "sigs.k8s.io/..."},
	"example/api/v1":     {"k8s.io/apimachinery/...", "sigs.k8s.io/controller-runtime/..."},
	"example/controller": {"crt/example/api/v1", "sigs.k8s.io/controller-runtime/...", "k8s.io/api/...", "k8s.io/apimachinery/...", "k8s.io/client-go/tools/record"},
	"servetest":          {"k8s.io/...", "sigs.k8s.io/...", "github.com/go-logr/..."},
}

// TestAdapterModule: the core module's go.mod requires no Kubernetes
// module; the adapter module's packages import only what adapterAllowed
// lists; its non-test code keeps the determinism rules (no wall clock, no
// go statements).
func TestAdapterModule(t *testing.T) {
	r := root(t)
	gomod, err := os.ReadFile(filepath.Join(r, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(gomod), "\n") {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require "))
		if len(f) > 0 && (strings.HasPrefix(f[0], "k8s.io/") || strings.HasPrefix(f[0], "sigs.k8s.io/")) {
			t.Errorf("go.mod requires %s: Kubernetes modules belong to the adapter module (%s/go.mod)", f[0], adapterModule)
		}
	}
	files := goFilesIn(t, filepath.Join(r, adapterModule))
	if len(files) == 0 {
		t.Fatalf("no Go files under %s", adapterModule)
	}
	for i, f := range files {
		rules, ok := adapterAllowed[f.pkg]
		if !ok {
			t.Errorf("%s: package %s/%s has no entry in adapterAllowed (add it here and to docs/ARCHITECTURE.md)", f.path, adapterModule, f.pkg)
			continue
		}
		test := strings.HasSuffix(f.path, "_test.go")
		for _, imp := range f.ast.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			var target string
			switch {
			case strings.HasPrefix(p, module+"/"):
				target = strings.TrimPrefix(p, module+"/")
			case strings.Contains(strings.SplitN(p, "/", 2)[0], "."):
				target = p
			default:
				continue // standard library
			}
			if test && f.pkg != "example/controller" {
				continue // tests wire the adapter to the harness
			}
			if !slices.ContainsFunc(rules, func(rule string) bool { return match(rule, target) }) {
				t.Errorf("%s: %s/%s may not import %s (see docs/ARCHITECTURE.md)", f.path, adapterModule, f.pkg, target)
			}
		}
		files[i].pkg = path.Join(adapterModule, f.pkg)
	}
	for _, v := range determinismViolations(files) {
		t.Error(v)
	}
}
