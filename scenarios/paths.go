package scenarios

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/manifest"
)

// The checks of this file refuse at load time what could only fail, or
// match nothing, when the scenario runs: a field path no object of the
// kind has, a condition type the kind never gets, a container the
// Deployment lacks, an ignoreDifferences entry of no served kind; and
// decodeError words a badly written duration in the format's terms.

// conditionTypes are the condition types Kubernetes defines for the
// built-in kinds that have well-known ones (the API's constants). Other
// kinds' conditions, and custom resources', are not checked.
var conditionTypes = map[api.Kind][]string{
	api.KindDeployment: {string(api.DeploymentAvailable), string(api.DeploymentProgressing), string(api.DeploymentReplicaFailure)},
	api.KindReplicaSet: {string(api.ReplicaSetReplicaFailure)},
	api.KindPod: {string(api.PodScheduled), string(api.PodInitialized), string(api.ContainersReady), string(api.PodReady),
		string(api.PodReadyToStartContainers), string(api.DisruptionTarget)},
	api.KindNode: {string(api.NodeReady), string(api.NodeMemoryPressure), string(api.NodeDiskPressure), string(api.NodePIDPressure),
		string(api.NodeNetworkUnavailable)},
	api.KindJob:                     {api.JobComplete, api.JobFailed, api.JobSuspended, api.JobFailureTarget, api.JobSuccessCriteriaMet},
	api.KindHorizontalPodAutoscaler: {string(api.AbleToScale), string(api.ScalingActive), string(api.ScalingLimited), string(api.ScaledToZero)},
	api.KindPodDisruptionBudget:     {api.DisruptionAllowedCondition},
}

// conditions checks a condition expectation's kind and type: a built-in
// kind must have status.conditions, and the type must be one of the
// kind's (conditionType).
func (l *loader) conditions(field, kind, typ string) error {
	k, err := l.kind(field+".kind", kind)
	if err != nil {
		return err
	}
	if t := builtinType(k); t != nil {
		if bad, _, _, _ := typePath(t, []string{"status", "conditions"}, false); bad >= 0 {
			return l.errorf(field+".kind", "a %s has no status.conditions", k.Name)
		}
	}
	return l.conditionType(field+".type", k, typ)
}

// conditionType checks a condition expectation's type against the
// condition types of kind k. A type with a slash is a domain-qualified
// custom condition (a pod's readiness gate, a node problem detector's),
// which any object may carry.
func (l *loader) conditionType(field string, k api.Kind, typ string) error {
	known, ok := conditionTypes[k]
	if !ok || slices.Contains(known, typ) || strings.Contains(typ, "/") {
		return nil
	}
	hint := didYouMean(typ, known)
	if hint == "" {
		hint = " (its condition types: " + strings.Join(known, ", ") + ")"
	}
	return l.errorf(field, "%q is not a condition type of a %s%s", typ, k.Name, hint)
}

// builtinType is the Go type that a built-in kind's objects have in the
// store (its preferred version), or nil for a custom or unknown kind.
func builtinType(k api.Kind) reflect.Type {
	info, ok := api.Lookup(k)
	if !ok || info.Custom {
		return nil
	}
	o, err := api.New(info.APIVersion(), k.Name)
	if err != nil {
		return nil
	}
	return reflect.TypeOf(o).Elem()
}

// fieldPath checks the field path p at field (its syntax, then, for a
// built-in kind k, that objects of the kind have such a field) as the
// run reads it: a field name in a struct, any key in a map, and in a list
// an element's type or name, or an index.
func (l *loader) fieldPath(field string, k api.Kind, p string) error {
	if err := l.path(field, p); err != nil {
		return err
	}
	segs, _ := manifest.ParsePath(p)
	if msg := pathProblem(k, segs); msg != "" {
		return l.errorf(field, "%q: %s", p, msg)
	}
	return nil
}

// pathProblem says why objects of the built-in kind k have no field at
// the path segs, or "" when they may (or k is not built in).
func pathProblem(k api.Kind, segs []string) string {
	t := builtinType(k)
	if t == nil {
		return ""
	}
	bad, names, inMap, _ := typePath(t, segs, false)
	if bad < 0 {
		return negativeIndex(t, segs)
	}
	if len(names) == 0 {
		msg := fmt.Sprintf("%s is a value, without fields (a %s has no field %s)", manifest.FormatPath(segs[:bad]), k.Name, manifest.FormatPath(segs[:bad+1]))
		if inMap {
			msg += "; a key holding dots or slashes goes in brackets (metadata.annotations[deployment.kubernetes.io/revision]) or has its dots escaped"
		}
		return msg
	}
	where := "at the top"
	if bad > 0 {
		where = "under " + manifest.FormatPath(segs[:bad])
	}
	hint := didYouMean(segs[bad], names)
	if hint == "" {
		hint = " (its fields there: " + strings.Join(names, ", ") + ")"
	}
	return fmt.Sprintf("a %s has no field %q %s%s", k.Name, segs[bad], where, hint)
}

// negativeIndex says why a path that exists by its types still selects
// nothing: a list element given as a negative number, which is no index
// and no element's name or type either (names and types never start with
// "-"), so the run would only ever find it not set. "" when there is none.
func negativeIndex(t reflect.Type, segs []string) string {
	for i, seg := range segs {
		if len(seg) < 2 || seg[0] != '-' || strings.Trim(seg[1:], "0123456789") != "" {
			continue
		}
		if _, _, _, at := typePath(t, segs[:i], false); at.Kind() == reflect.Slice || at.Kind() == reflect.Array {
			return fmt.Sprintf("%s[%s] selects no element: an index is 0 or more, and no name or type starts with \"-\"", manifest.FormatPath(segs[:i]), seg)
		}
	}
	return ""
}

var (
	marshalerType = reflect.TypeFor[json.Marshaler]()
	yamlNodeType  = reflect.TypeFor[yaml.Node]()
)

// typePath walks the path segs over the JSON form of the Go type t (by
// json tags: inline and embedded structs flattened; maps take any key;
// lists any element name, type or index). It returns -1 when the path
// exists, else the index of the first segment that does not, the field
// names there (none: the value there is a scalar) and whether that value
// is a map's, and the type there (for a path that exists: the type it
// ends at, or the opaque type it stopped at). A type with its own JSON form
// (json.Marshaler), an interface or a YAML node is opaque: any path under
// it is taken. bracketed is SetPaths' syntax, where a list's element is
// always selected by a "[...]" segment and nothing else is: a list met by
// another segment, or a "[...]" segment on anything but a list, is where
// the path goes wrong.
func typePath(t reflect.Type, segs []string, bracketed bool) (bad int, names []string, inMap bool, at reflect.Type) {
	for i, s := range segs {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Implements(marshalerType) || reflect.PointerTo(t).Implements(marshalerType) || t == yamlNodeType {
			return -1, nil, false, t
		}
		fromMap := inMap
		inMap = false
		isList := t.Kind() == reflect.Slice || t.Kind() == reflect.Array
		if bracketed && t.Kind() != reflect.Interface && isList != strings.HasPrefix(s, "[") {
			return i, nil, fromMap, t
		}
		switch t.Kind() {
		case reflect.Interface:
			return -1, nil, false, t
		case reflect.Map:
			t, inMap = t.Elem(), true
		case reflect.Slice, reflect.Array:
			if t.Elem().Kind() == reflect.Uint8 {
				return i, nil, fromMap, t // bytes: a string in JSON
			}
			t = t.Elem()
		case reflect.Struct:
			fields := jsonFields(t)
			f, ok := fields[s]
			if !ok {
				return i, slices.Sorted(maps.Keys(fields)), false, t
			}
			t = f
		default:
			return i, nil, fromMap, t
		}
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return -1, nil, false, t
}

// jsonFields are the JSON names of a struct's fields and their types, as
// encoding/json sees them (embedded structs and `json:",inline"` fields
// flattened, `json:"-"` left out).
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		sf := t.Field(i)
		ft := sf.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		tag := sf.Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		switch {
		case tag == "-":
		case name == "" && ft.Kind() == reflect.Struct && (sf.Anonymous || slices.Contains(strings.Split(opts, ","), "inline")):
			for n, typ := range jsonFields(ft) {
				if _, shadowed := out[n]; !shadowed {
					out[n] = typ
				}
			}
		case !sf.IsExported():
		case name == "":
			out[sf.Name] = sf.Type
		default:
			out[name] = sf.Type
		}
	}
	return out
}

// didYouMean is " (did you mean X?)" for the candidate nearest to word,
// when one is near enough to be a slip (the same but for case, or within
// an edit distance of a third of its length, at least 1), else "".
func didYouMean(word string, candidates []string) string {
	best, bestD := "", -1
	for _, c := range candidates {
		d := editDistance(strings.ToLower(word), strings.ToLower(c))
		if bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	if bestD < 0 || bestD > max(1, len(word)/3) {
		return ""
	}
	return "; did you mean " + best + "?"
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// forgetContainers marks the containers of the Deployment k unknown
// from now on: an edit or a request may change them.
func (w *world) forgetContainers(k objKey) {
	if w.unknownContainers == nil {
		w.unknownContainers = map[objKey]bool{}
	}
	w.unknownContainers[k] = true
}

// container checks that the Deployment ref (as a setImage step names it)
// has a container (or init container) named name in the templates
// declared for it so far; "*" names every container. A Deployment whose
// containers an edit or request may have changed is not checked.
func (l *loader) container(field, ref, name string, w *world) error {
	ns, n := SplitRef(ref)
	k := objKey{api.KindDeployment, api.Key{Namespace: ns, Name: n}}
	have, known := w.containers[k]
	if !known || w.unknownContainers[k] || name == "*" || slices.Contains(have, name) {
		return nil
	}
	return l.errorf(field, "Deployment %s/%s has no container named %q (kubectl: unable to find container named %q); its containers: %s", ns, n, name, name, strings.Join(have, ", "))
}

// addContainers records the containers of a Deployment's template,
// adding to those of earlier manifests of it (an apply merges lists of
// containers by name, and a name kept from before is not an error).
func (w *world) addContainers(k objKey, d *api.Deployment) {
	if w.containers == nil {
		w.containers = map[objKey][]string{}
	}
	if w.unknownContainers[k] {
		return
	}
	have := w.containers[k]
	spec := d.Spec.Template.Spec
	for _, c := range slices.Concat(spec.InitContainers, spec.Containers) {
		if !slices.Contains(have, c.Name) {
			have = append(have, c.Name)
		}
	}
	w.containers[k] = have
}

// durationHint is how a message on a duration says to write one.
const durationHint = "write it with a unit, as 90s, 5m, 1h30m"

// decodeError rewrites an error of strict decoding into out (a value of
// type t) whose message tells of Go's JSON decoding rather than of the
// value (a duration written as a bare number or .inf: "json: cannot
// unmarshal number into Go value of type string"), keeping its position.
// root is the YAML tree decoded, prefix the field path of its top.
func decodeError(err error, root *yaml.Node, t reflect.Type, prefix string) error {
	var e *Error
	if !errors.As(err, &e) || e.Field == "" {
		return err
	}
	rel := strings.TrimPrefix(strings.TrimPrefix(e.Field, prefix), ".")
	bad, _, _, ft := typePath(t, manifest.SplitPath(rel), false)
	if bad >= 0 || ft != reflect.TypeFor[api.Duration]() {
		return err
	}
	what := "this value"
	n := nodeAt(root, e.Line, e.Column)
	if n != nil {
		switch n.Kind {
		case yaml.ScalarNode:
			what = n.Value
			if n.Value == "" || strings.ContainsAny(n.Value, " \t") {
				what = fmt.Sprintf("%q", n.Value)
			}
			if n.Style&yaml.TaggedStyle != 0 && n.ShortTag() != "!!str" {
				// Its tag made it another type (!!int 1m).
				what = n.Tag + " " + what
			}
		case yaml.SequenceNode:
			what = "a list"
		case yaml.MappingNode:
			what = "a mapping"
		}
	}
	out := *e
	out.Msg = fmt.Sprintf("%s is not a duration (%s)", what, durationHint)
	if n != nil && n.Kind == yaml.ScalarNode && !parses(n.Value) {
		// A value that has its unit but is beyond time.Duration's range.
		switch v := n.Value; {
		case durationOverflows(strings.TrimPrefix(v, "+")):
			out.Msg = fmt.Sprintf("%s is out of range: a duration is at most %v (about 292 years)", what, time.Duration(math.MaxInt64))
		case strings.HasPrefix(v, "-") && durationOverflows(v[1:]):
			out.Msg = fmt.Sprintf("%s is out of range: a duration is at least %v", what, time.Duration(math.MinInt64))
		}
	}
	return &out
}

// parses reports whether v is a duration time.ParseDuration reads: one
// that failed only for its tag (!!int 1m) is not out of range.
func parses(v string) bool {
	_, err := time.ParseDuration(strings.TrimPrefix(v, "+"))
	return err == nil
}

// nodeAt finds the node at line and column under n.
func nodeAt(n *yaml.Node, line, col int) *yaml.Node {
	if n == nil {
		return nil
	}
	if n.Line == line && n.Column == col && n.Kind != yaml.DocumentNode {
		return n
	}
	for _, c := range n.Content {
		if f := nodeAt(c, line, col); f != nil {
			return f
		}
	}
	return nil
}

// ignoreDifferences checks the applications' ignoreDifferences once
// every definition of the scenario is known: the group and kind of each
// entry must name a kind the API serves (built in, or defined by a
// CustomResourceDefinition of the scenario), as the syncer matches them
// exactly, and each JSON pointer a field of a built-in kind.
func (l *loader) ignoreDifferences(s *Scenario) error {
	if s.Spec.GitOps == nil {
		return nil
	}
	served := api.Kinds()
	for _, k := range slices.SortedFunc(maps.Keys(l.crds), api.Kind.Compare) {
		served = append(served, k)
	}
	for i, app := range s.Spec.GitOps.Applications {
		for j, d := range app.IgnoreDifferences {
			f := fmt.Sprintf("spec.gitops.applications[%d].ignoreDifferences[%d]", i, j)
			k := api.Kind{Group: d.Group, Name: d.Kind}
			if err := l.servedKind(f, k, served); err != nil {
				return err
			}
			for n, p := range d.JSONPointers {
				segs := strings.Split(strings.TrimPrefix(p, "/"), "/")
				for m := range segs {
					segs[m] = strings.NewReplacer("~1", "/", "~0", "~").Replace(segs[m])
				}
				if msg := pathProblem(k, segs); msg != "" {
					return l.errorf(fmt.Sprintf("%s.jsonPointers[%d]", f, n), "%q: %s", p, msg)
				}
			}
		}
	}
	return nil
}

// servedKind checks that k, given by the group and kind fields under
// field, is among the served kinds, suggesting a near miss.
func (l *loader) servedKind(field string, k api.Kind, served []api.Kind) error {
	if k.Name == "" {
		return l.errorf(field+".kind", "required")
	}
	if slices.Contains(served, k) {
		return nil
	}
	var inGroup, groups []string
	for _, sk := range served {
		if sk.Name == k.Name {
			return l.errorf(field+".group", "%q: kind %s is in group %q (the core group is \"\")", k.Group, k.Name, sk.Group)
		}
		if sk.Group == k.Group {
			inGroup = append(inGroup, sk.Name)
		}
		if !slices.Contains(groups, sk.Group) {
			groups = append(groups, sk.Group)
		}
	}
	if len(inGroup) == 0 {
		return l.errorf(field+".group", "%q: the API serves no group of that name%s", k.Group, didYouMean(k.Group, groups))
	}
	hint := didYouMean(k.Name, inGroup)
	if hint == "" {
		hint = " (it serves " + strings.Join(inGroup, ", ") + ")"
	}
	return l.errorf(field+".kind", "%q: the API serves no such kind in group %q%s", k.Name, k.Group, hint)
}
