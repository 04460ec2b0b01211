package scenarios

import (
	"fmt"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/manifest"
	"gopkg.in/yaml.v3"
)

// entry is one item of spec.objects as loaded: its field path, its node
// (an inline manifest or {file: path}) and the objects it gave.
type entry struct {
	field string
	node  *yaml.Node
	objs  []api.Object
}

// priorityClasses returns the names of the classes a pod in objs may
// name: the system classes and the PriorityClasses among objs.
func priorityClasses(objs []api.Object) map[string]bool {
	out := map[string]bool{}
	for _, pc := range api.SystemPriorityClasses() {
		out[pc.Name] = true
	}
	for _, o := range objs {
		if pc, ok := o.(*api.PriorityClass); ok {
			out[pc.Name] = true
		}
	}
	return out
}

// checkPodClasses refuses a bare Pod of spec.objects whose
// spec.priorityClassName names a class that exists neither among
// spec.objects nor as a system class: the Priority admission plugin
// (plugin/pkg/admission/priority) would refuse it at bootstrap with
// "pods "x" is forbidden: no PriorityClass with name y was found". The
// error points at the field, in the scenario or the referenced file.
func (l *loader) checkPodClasses(entries []entry, objs []api.Object) error {
	classes := priorityClasses(objs)
	for _, e := range entries {
		for j, o := range e.objs {
			pod, ok := o.(*api.Pod)
			if !ok || pod.Spec.PriorityClassName == "" || classes[pod.Spec.PriorityClassName] {
				continue
			}
			msg := apierr.NewForbidden("pods", pod.Name, fmt.Sprintf("no PriorityClass with name %v was found", pod.Spec.PriorityClassName)).Error() +
				"; define the PriorityClass in spec.objects or name " + api.SystemClusterCritical + " or " + api.SystemNodeCritical
			return l.locate(e, j, o, "spec.priorityClassName", msg)
		}
	}
	return nil
}

// locate returns an *Error at path within the j-th object of e: inline,
// in the scenario file; from {file: path}, in the file that holds it.
func (l *loader) locate(e entry, j int, o api.Object, path, msg string) *Error {
	n := e.node
	if n.Kind == yaml.MappingNode && len(n.Content) == 2 && n.Content[0].Value == "file" {
		l.uncounted = true
		files, err := l.readRefs(e.field+".file", n.Content[1].Value)
		l.uncounted = false
		if err == nil {
			for _, f := range files {
				display := l.display(f.name)
				located, err := manifest.DecodeLocated(display, f.data)
				if err != nil {
					continue
				}
				for _, lo := range located {
					m, om := lo.Object.GetObjectMeta(), o.GetObjectMeta()
					if api.KindOf(lo.Object) == api.KindOf(o) && m.Namespace == om.Namespace && m.Name == om.Name {
						line, col := lo.Position(path)
						return &Error{File: display, Line: line, Column: col, Field: path, Msg: msg}
					}
				}
			}
		}
		line, col := manifest.Position(l.root, e.field)
		return &Error{File: l.file, Line: line, Column: col, Field: e.field, Msg: msg}
	}
	if len(e.objs) > 1 || manifestKind(n) == "List" {
		path = fmt.Sprintf("items[%d].%s", j, path)
	}
	line, col := manifest.Position(n, path)
	return &Error{File: l.file, Line: line, Column: col, Field: e.field + "." + path, Msg: msg}
}

// manifestKind is the kind: value of an inline manifest's mapping.
func manifestKind(n *yaml.Node) string {
	if n.Kind != yaml.MappingNode {
		return ""
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == "kind" {
			return n.Content[i+1].Value
		}
	}
	return ""
}
