package scenarios

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"gopkg.in/yaml.v3"

	"github.com/clustersim/clustersim/sim/api"
)

// The scenario format's documentation and its loader are kept in step by
// TestScenarioFormatDocumented: both lists of fields are derived, one by
// reflecting over the scenario types as the strict decoder sees them, the
// other from docs/scenario-format.md (the first column of its tables, the
// YAML in its table cells, and its YAML blocks).

const formatDoc = "../docs/scenario-format.md"

// fieldPath is a path of a scenario field: struct field names, "[]" for a
// list element and "*" for any key of a map of structs.
type fieldPath []string

func (p fieldPath) String() string {
	return strings.ReplaceAll(strings.Join(p, "."), ".[]", "[]")
}

// schemaPath is one path the loader accepts. Opaque paths take any value
// below them (a manifest, a map of labels, a duration).
type schemaPath struct {
	path   fieldPath
	leaf   bool
	opaque bool
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	// refOrMap types decode themselves from a name or a mapping of
	// their fields: their fields are walked.
	refOrMap    = reflect.TypeFor[interface{ nameOrMapping() }]()
	yamlNodePtr = reflect.TypeFor[*yaml.Node]()
)

// loaderPaths lists every path the strict decoder accepts in a scenario
// file, with the visibility rules of sim/manifest (json tags, `json:"-"`
// skipped, embedded or `json:",inline"` structs flattened).
func loaderPaths() []schemaPath {
	var out []schemaPath
	var walk func(t reflect.Type, p fieldPath)
	opaque := func(t reflect.Type) bool {
		if reflect.PointerTo(t).Implements(refOrMap) {
			return false
		}
		if t == yamlNodePtr || t.Implements(jsonUnmarshaler) || reflect.PointerTo(t).Implements(jsonUnmarshaler) {
			return true
		}
		switch t.Kind() {
		case reflect.Struct, reflect.Slice, reflect.Map:
			return false
		}
		return true // a scalar
	}
	walk = func(t reflect.Type, p fieldPath) {
		if t != yamlNodePtr && t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		add := func(leaf, op bool) {
			if len(p) > 0 {
				out = append(out, schemaPath{path: slices.Clone(p), leaf: leaf, opaque: op})
			}
		}
		switch {
		case opaque(t):
			add(true, t.Kind() != reflect.String && t.Kind() != reflect.Bool && !isNumber(t))
		case t.Kind() == reflect.Slice:
			e := t.Elem()
			if e.Kind() == reflect.Pointer && e != yamlNodePtr {
				e = e.Elem()
			}
			if opaque(e) || e.Kind() != reflect.Struct {
				add(true, true) // a list of scalars, durations or manifests
				return
			}
			add(false, false)
			walk(e, append(p, "[]"))
		case t.Kind() == reflect.Map:
			e := t.Elem()
			if e.Kind() == reflect.Pointer {
				e = e.Elem()
			}
			if opaque(e) || e.Kind() != reflect.Struct {
				add(true, true) // labels, capacity: free keys
				return
			}
			add(false, false)
			walk(e, append(p, "*"))
		case t.Kind() == reflect.Struct:
			add(false, false)
			for i := range t.NumField() {
				sf := t.Field(i)
				if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				ft := sf.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if name == "" && ft.Kind() == reflect.Struct && (sf.Anonymous || slices.Contains(strings.Split(opts, ","), "inline")) {
					walk(ft, p)
					continue
				}
				if name == "" {
					name = sf.Name
				}
				walk(sf.Type, append(slices.Clone(p), name))
			}
		}
	}
	walk(reflect.TypeFor[Scenario](), nil)
	return out
}

func isNumber(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

// docMention is a field path the documentation names: relative (a table's
// first column, the YAML of a table cell, matched against the end of a
// loader path under the section's base) or absolute (a YAML block).
type docMention struct {
	path fieldPath
	base fieldPath // the section's field path, "" for the top level
	line int       // in the doc
	abs  bool
}

// yamlBlock is a ```yaml block of the doc.
type yamlBlock struct {
	line int
	text string
}

var (
	codeSpan   = regexp.MustCompile("`([^`]+)`")
	fieldToken = regexp.MustCompile(`^[a-zA-Z][-a-zA-Z0-9]*(\[\])?(\.[a-zA-Z][-a-zA-Z0-9]*(\[\])?)*$`)
	specHeader = regexp.MustCompile(`^#+ (spec(\.[a-zA-Z]+)*)$`)
)

// cellExample is the YAML example of a timeline step or an expectation in
// a table cell of the doc: its one key is a step's action or observation,
// or an expectation's check.
type cellExample struct {
	line int
	list string // "timeline" or "expect"
	node *yaml.Node
}

// parseFormatDoc reads docs/scenario-format.md: the field paths it names,
// its YAML blocks and the step and check examples of its tables.
func parseFormatDoc(t *testing.T) ([]docMention, []yamlBlock) {
	m, b, _ := parseFormatDocExamples(t)
	return m, b
}

func parseFormatDocExamples(t *testing.T) ([]docMention, []yamlBlock, []cellExample) {
	t.Helper()
	data, err := os.ReadFile(formatDoc)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var mentions []docMention
	var blocks []yamlBlock
	var examples []cellExample
	var base fieldPath
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		switch {
		case strings.HasPrefix(line, "```"):
			start := i + 1
			j := start
			for j < len(lines) && !strings.HasPrefix(lines[j], "```") {
				j++
			}
			if strings.TrimSpace(strings.TrimPrefix(line, "```")) == "yaml" {
				text := strings.Join(lines[start:j], "\n")
				blocks = append(blocks, yamlBlock{line: start + 1, text: text})
				var n yaml.Node
				if err := yaml.Unmarshal([]byte(text), &n); err != nil {
					t.Errorf("%s:%d: YAML block does not parse: %v", formatDoc, start+1, err)
				} else {
					root := fieldPath{"spec"}
					if hasKey(n.Content[0], "apiVersion") {
						root = nil
					}
					for _, p := range flatten(n.Content[0], root) {
						mentions = append(mentions, docMention{path: p, line: start + 1, abs: true})
					}
				}
			}
			i = j
		case strings.HasPrefix(line, "#"):
			if m := specHeader.FindStringSubmatch(line); m != nil {
				base = strings.Split(m[1], ".")
			} else if strings.HasPrefix(line, "## ") {
				base = nil // "Top level", "A complete example"
			}
		case strings.HasPrefix(line, "|"):
			if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "| ---") || strings.HasPrefix(line, "| ---") {
				continue // a header row or the separator
			}
			cells := splitRow(line)
			for c, cell := range cells {
				for _, m := range codeSpan.FindAllStringSubmatch(cell, -1) {
					span := m[1]
					if c == 0 && fieldToken.MatchString(span) {
						mentions = append(mentions, docMention{path: parseToken(span), base: base, line: i + 1})
						continue
					}
					var n yaml.Node
					if !strings.Contains(span, ": ") && !strings.HasPrefix(span, "{") || yaml.Unmarshal([]byte(span), &n) != nil || n.Content[0].Kind != yaml.MappingNode {
						continue // prose in code: a command, a value
					}
					for _, p := range flatten(n.Content[0], nil) {
						mentions = append(mentions, docMention{path: p, base: base, line: i + 1})
					}
					if list := base.String(); c == 1 && len(n.Content[0].Content) == 2 && !strings.Contains(span, "...") &&
						(list == "spec.timeline" && slices.Contains(stepKeys, n.Content[0].Content[0].Value) ||
							list == "spec.expect" && slices.Contains(checkKeys, n.Content[0].Content[0].Value)) {
						examples = append(examples, cellExample{line: i + 1, list: strings.TrimPrefix(list, "spec."), node: n.Content[0]})
					}
				}
			}
		}
	}
	return mentions, blocks, examples
}

// stepKeys and checkKeys are the json names of a step's actions and
// observations and of an expectation's checks.
var stepKeys, checkKeys = jsonNames(reflect.TypeFor[Step](), actionFields), jsonNames(reflect.TypeFor[Expectation](), expectFields)

func jsonNames(t reflect.Type, idx []int) []string {
	var out []string
	for _, i := range idx {
		out = append(out, jsonName(t.Field(i)))
	}
	return out
}

// splitRow splits a Markdown table row into its cells; a | inside a code
// span does not split.
func splitRow(line string) []string {
	var cells []string
	var cur strings.Builder
	inCode := false
	for _, r := range strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(line), "|"), "|") {
		switch {
		case r == '`':
			inCode = !inCode
		case r == '|' && !inCode:
			cells = append(cells, cur.String())
			cur.Reset()
			continue
		}
		cur.WriteRune(r)
	}
	return append(cells, cur.String())
}

// parseToken turns "nodeGroups[].name" into its path.
func parseToken(s string) fieldPath {
	var p fieldPath
	for _, part := range strings.Split(s, ".") {
		if name, ok := strings.CutSuffix(part, "[]"); ok {
			p = append(p, name, "[]")
			continue
		}
		p = append(p, part)
	}
	return p
}

func hasKey(n *yaml.Node, key string) bool {
	if n.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return true
		}
	}
	return false
}

// flatten lists every key path in n, prefixed by prefix.
func flatten(n *yaml.Node, prefix fieldPath) []fieldPath {
	var out []fieldPath
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			p := append(slices.Clone(prefix), n.Content[i].Value)
			out = append(out, p)
			out = append(out, flatten(n.Content[i+1], p)...)
		}
	case yaml.SequenceNode:
		p := append(slices.Clone(prefix), "[]")
		for _, c := range n.Content {
			out = append(out, flatten(c, p)...)
		}
	}
	return out
}

// endsWith reports whether loader path l ends with d ("*" in l matches any
// key); abs requires the whole path to match.
func endsWith(l, d fieldPath, abs bool) bool {
	if len(d) > len(l) || abs && len(d) != len(l) {
		return false
	}
	off := len(l) - len(d)
	for i, c := range d {
		if l[off+i] != c && l[off+i] != "*" {
			return false
		}
	}
	return true
}

// covers reports whether the mention names loader path l: l ends with it
// (under the section's base), or l is opaque and ends with a prefix of it
// (a key inside a manifest, a label).
func (m docMention) covers(l schemaPath) bool {
	if !m.abs && (len(l.path) < len(m.base) || !endsWith(l.path[:len(m.base)], m.base, true)) {
		return false
	}
	if endsWith(l.path, m.path, m.abs) {
		return true
	}
	if !l.opaque {
		return false
	}
	for k := len(m.path) - 1; k >= 1; k-- {
		if endsWith(l.path, m.path[:k], m.abs) {
			return true
		}
	}
	return false
}

// TestScenarioFormatDocumented checks that every field the loader accepts
// is named in docs/scenario-format.md, and that every field the doc names
// is accepted.
func TestScenarioFormatDocumented(t *testing.T) {
	paths := loaderPaths()
	if len(paths) < 100 {
		t.Fatalf("the scenario types have only %d paths; the walk is broken", len(paths))
	}
	mentions, _ := parseFormatDoc(t)
	if len(mentions) < 100 {
		t.Fatalf("%s names only %d fields; the parse is broken", formatDoc, len(mentions))
	}
	for _, l := range paths {
		if !l.leaf {
			continue
		}
		if !slices.ContainsFunc(mentions, func(m docMention) bool { return m.covers(l) }) {
			t.Errorf("%s: the loader accepts %s but the doc does not name it (in a field table, an example or a YAML block of its section)", formatDoc, l.path)
		}
	}
	for _, m := range mentions {
		if !slices.ContainsFunc(paths, m.covers) {
			where := "section " + m.base.String()
			if m.abs || len(m.base) == 0 {
				where = "the top level"
			}
			t.Errorf("%s:%d: the doc names %s (in %s), which the loader does not accept", formatDoc, m.line, m.path, where)
		}
	}
}

// TestScenarioFormatExamplesLoad loads every YAML block of the doc: a
// complete scenario as it is, a fragment of spec inside a small scenario
// whose cluster and objects it may replace. File references resolve
// against the built-in scenarios' directory.
func TestScenarioFormatExamplesLoad(t *testing.T) {
	_, blocks := parseFormatDoc(t)
	if len(blocks) < 5 {
		t.Fatalf("%s has only %d YAML blocks", formatDoc, len(blocks))
	}
	for _, b := range blocks {
		data := []byte(b.text)
		var n yaml.Node
		if err := yaml.Unmarshal(data, &n); err != nil {
			continue // reported by the parse
		}
		if !hasKey(n.Content[0], "apiVersion") {
			data = []byte(fragmentScenario(t, n.Content[0]))
		}
		if _, err := Load(fmt.Sprintf("%s:%d", formatDoc, b.line), "builtin", builtinFS, data); err != nil {
			t.Errorf("the YAML block at %s:%d does not load: %v\n%s", formatDoc, b.line, err, data)
		}
	}
}

// fragmentScenario wraps a fragment of spec in a scenario with a cluster
// and the Kubernetes docs' example Deployments, unless the fragment
// declares its own.
func fragmentScenario(t *testing.T, frag *yaml.Node) string {
	t.Helper()
	var spec yaml.Node
	harness := `
duration: 30m
cluster:
  nodeGroups: [{name: worker, count: 3, capacity: {cpu: "4", memory: 16Gi}}]
objects:
- file: manifests/nginx-deployment.yaml
- file: manifests/php-apache.yaml
`
	if err := yaml.Unmarshal([]byte(harness), &spec); err != nil {
		t.Fatal(err)
	}
	m := spec.Content[0]
	for i := 0; i+1 < len(frag.Content); i += 2 {
		key := frag.Content[i].Value
		replaced := false
		for j := 0; j+1 < len(m.Content); j += 2 {
			if m.Content[j].Value == key {
				m.Content[j+1] = frag.Content[i+1]
				replaced = true
			}
		}
		if !replaced {
			m.Content = append(m.Content, frag.Content[i], frag.Content[i+1])
		}
	}
	body, err := yaml.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return "apiVersion: " + APIVersion + "\nkind: Scenario\nmetadata: {name: doc-example}\nspec:\n" + indent(string(body), "  ")
}

func indent(s, pre string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i := range lines {
		lines[i] = pre + lines[i]
	}
	return strings.Join(lines, "\n") + "\n"
}

// TestRolloutChecksFollowTheChange checks that every rolloutComplete
// expectation in the doc's complete examples and in the built-ins checks
// the rollout of the last change the timeline makes to the Deployment
// before its deadline: with after at or past that change, so that an
// earlier rollout (the initial one) cannot pass it.
func TestRolloutChecksFollowTheChange(t *testing.T) {
	var all []*Scenario
	_, blocks := parseFormatDoc(t)
	for _, b := range blocks {
		if !strings.Contains(b.text, "apiVersion:") {
			continue
		}
		s, err := Load(fmt.Sprintf("%s:%d", formatDoc, b.line), "builtin", builtinFS, []byte(b.text))
		if err != nil {
			continue // TestScenarioFormatExamplesLoad reports it
		}
		all = append(all, s)
	}
	for _, name := range BuiltinNames() {
		s, err := Builtin(name)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, s)
	}
	checked := 0
	for _, s := range all {
		for _, e := range s.Spec.Expect {
			rc := e.RolloutComplete
			if rc == nil {
				continue
			}
			checked++
			ns, name := SplitRef(rc.Deployment)
			var last *Step
			for i := range s.Spec.Timeline {
				st := &s.Spec.Timeline[i]
				if st.At.Duration > 0 && st.At.Duration < rc.Within.Duration && changesTemplate(st, ns, name) && (last == nil || st.At.Duration > last.At.Duration) {
					last = st
				}
			}
			if last == nil {
				continue
			}
			if rc.After == nil || rc.After.Duration < last.At.Duration {
				t.Errorf("%s: rolloutComplete of %s passes on a rollout before the change at %v: set after to %v or later", s.File, rc.Deployment, last.At.Duration, last.At.Duration)
			}
		}
	}
	if checked < 3 {
		t.Fatalf("only %d rolloutComplete checks found", checked)
	}
}

// changesTemplate reports whether the step changes the Deployment's pod
// template (a new rollout).
func changesTemplate(st *Step, ns, name string) bool {
	is := func(ref string) bool { n, m := SplitRef(ref); return n == ns && m == name }
	objRef := func(r ObjectRef) bool {
		k, _ := ResolveKind(r.Kind)
		rns := r.Namespace
		if rns == "" {
			rns = DefaultNamespace
		}
		return k == api.KindDeployment && rns == ns && r.Name == name
	}
	switch {
	case st.SetImage != nil:
		return is(st.SetImage.Deployment)
	case st.RolloutUndo != nil:
		return is(st.RolloutUndo.Deployment)
	case st.RolloutRestart != "":
		return is(st.RolloutRestart)
	case st.Edit != nil:
		return objRef(st.Edit.ObjectRef)
	}
	var objs []api.Object
	if st.Apply != nil {
		objs = st.Apply.Parsed
	}
	if st.ServerSideApply != nil {
		objs = st.ServerSideApply.Parsed
	}
	for _, o := range objs {
		m := o.GetObjectMeta()
		ons := m.Namespace
		if ons == "" {
			ons = DefaultNamespace
		}
		if api.KindOf(o) == api.KindDeployment && ons == ns && m.Name == name {
			return true
		}
	}
	return false
}

// exampleHarness is the scenario the doc's step and check examples are
// loaded into: the objects, nodes, application and IaC tool they name.
const exampleHarness = `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: doc-examples}
spec:
  duration: 30m
  cluster:
    nodeGroups: [{name: worker, count: 3, capacity: {cpu: "4", memory: 16Gi}, labels: {topology.kubernetes.io/zone: zone-a}}]
  objects:
  - {apiVersion: v1, kind: Namespace, metadata: {name: team}}
  - {file: web.yaml}
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web, namespace: team}
    spec:
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: nginx, image: "nginx:1.14.2"}]}
  - {apiVersion: v1, kind: ConfigMap, metadata: {name: counter}}
  gitops:
    applications: [{name: web, commits: [{at: 0s, file: web.yaml}]}]
  iac:
    runs: [0s]
    objects: [{file: manifests/nginx-deployment.yaml}]
`

// webManifest is the Deployment the examples call web, as web.yaml and
// v2.yaml.
const webManifest = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: nginx, image: "nginx:1.14.2"}]}
`

// TestScenarioFormatCellExamplesLoad loads the step and check examples
// of the doc's tables (those without an elision, "[...]"), in document
// order, as the timeline and the expectations of one scenario that
// declares what they name.
func TestScenarioFormatCellExamplesLoad(t *testing.T) {
	_, _, examples := parseFormatDocExamples(t)
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(exampleHarness), &doc); err != nil {
		t.Fatal(err)
	}
	spec := doc.Content[0].Content[7]
	lists := map[string]*yaml.Node{}
	lines := map[string][]int{}
	for _, ex := range examples {
		seq := lists[ex.list]
		if seq == nil {
			seq = &yaml.Node{Kind: yaml.SequenceNode}
			lists[ex.list] = seq
			spec.Content = append(spec.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: ex.list}, seq)
		}
		item := ex.node
		if ex.list == "timeline" {
			at := fmt.Sprintf("%ds", 10*(len(seq.Content)+1))
			item = &yaml.Node{Kind: yaml.MappingNode, Content: append([]*yaml.Node{
				{Kind: yaml.ScalarNode, Value: "at"}, {Kind: yaml.ScalarNode, Value: at}}, ex.node.Content...)}
		}
		seq.Content = append(seq.Content, item)
		lines[ex.list] = append(lines[ex.list], ex.line)
	}
	if len(lines["timeline"]) < 25 || len(lines["expect"]) < 8 {
		t.Fatalf("found %d step and %d check examples in %s", len(lines["timeline"]), len(lines["expect"]), formatDoc)
	}
	data, err := yaml.Marshal(&doc)
	if err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{"d/web.yaml": {Data: []byte(webManifest)}, "d/v2.yaml": {Data: []byte(webManifest)}}
	manifests, err := fs.Sub(builtinFS, "builtin/manifests")
	if err != nil {
		t.Fatal(err)
	}
	if err := fs.WalkDir(manifests, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := fs.ReadFile(manifests, p)
			fsys["d/manifests/"+p] = &fstest.MapFile{Data: b}
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := Load("doc-examples.yaml", "d", fsys, data); err != nil {
		where := ""
		if e, ok := err.(*Error); ok {
			var list string
			var i int
			if _, err := fmt.Sscanf(strings.NewReplacer("[", " ", "]", " ", ".", " ").Replace(e.Field), "spec %s %d", &list, &i); err == nil && i < len(lines[list]) {
				where = fmt.Sprintf(" (the example at %s:%d)", formatDoc, lines[list][i])
			}
		}
		t.Errorf("the doc's step and check examples do not load%s: %v", where, err)
	}
}
