package scenarios

import (
	"fmt"

	"github.com/clustersim/clustersim/controllers/scheduler"
	"github.com/clustersim/clustersim/sim/api"
)

// Warning is a field the scenario sets that the simulator accepts but does
// not model: never silently ignored, always named.
type Warning struct {
	// File is the scenario file.
	File string
	// Object is the object holding the field, as kind/namespace/name.
	Object string
	// Field is the field's path in the object.
	Field string
	// Msg says what is not simulated.
	Msg string
}

// String formats the warning for stderr.
func (w Warning) String() string {
	return fmt.Sprintf("warning: %s: %s: %s: accepted but not simulated: %s", w.File, w.Object, w.Field, w.Msg)
}

// Warnings lists the unmodelled fields of the scenario's objects: those
// of spec.objects, then of the timeline's apply steps, in order.
func (s *Scenario) Warnings() []Warning {
	var out []Warning
	add := func(objs []api.Object) {
		for _, o := range objs {
			spec, prefix := podSpecOf(o)
			if spec == nil {
				continue
			}
			m := o.GetObjectMeta()
			name := api.KindOf(o).String() + "/" + m.Name
			if m.Namespace != "" {
				name = api.KindOf(o).String() + "/" + m.Namespace + "/" + m.Name
			}
			for _, u := range scheduler.UnmodelledFields(spec) {
				out = append(out, Warning{File: s.File, Object: name, Field: prefix + u.Field, Msg: u.Why})
			}
		}
	}
	add(s.Objects)
	for i := range s.Spec.Timeline {
		st := &s.Spec.Timeline[i]
		if st.Apply != nil {
			add(st.Apply.Parsed)
		}
		if st.ServerSideApply != nil {
			add(st.ServerSideApply.Parsed)
		}
	}
	return out
}

// podSpecOf returns the pod spec an object carries and its path.
func podSpecOf(o api.Object) (*api.PodSpec, string) {
	switch o := o.(type) {
	case *api.Pod:
		return &o.Spec, "spec."
	case *api.Deployment:
		return &o.Spec.Template.Spec, "spec.template.spec."
	case *api.ReplicaSet:
		return &o.Spec.Template.Spec, "spec.template.spec."
	}
	return nil, ""
}
