package apiserver

import (
	"fmt"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/store"
)

// Priority is the Priority admission plugin (k/k
// plugin/pkg/admission/priority/admission.go). Its mutating half resolves
// a new pod's spec.priorityClassName into spec.priority and
// spec.preemptionPolicy: a named class from the store or one of the two
// system classes, or, for a pod naming none, the global default class
// (the one with the lowest value if several claim it; its name is written
// into priorityClassName), else priority 0 and PreemptLowerPriority. A
// class that does not exist, or a pod that already carries a different
// priority or preemption policy, is refused with 403 and upstream's
// message. On update a pod keeps the priority it was created with. Its
// validating half refuses a second globalDefault class.
//
// Today's kube-apiserver stores system-node-critical and
// system-cluster-critical as PriorityClass objects it creates at start;
// clustersim resolves them from api.SystemPriorityClasses without storing
// them (as the plugin did before 1.11), so that they do not show up in
// every listing and request count.
type Priority struct {
	// Validate selects the validating half; else the mutating one.
	Validate bool
}

// Name returns "Priority".
func (Priority) Name() string { return "Priority" }

// Admit resolves a pod's priority or checks a PriorityClass.
func (p Priority) Admit(a *Attributes) error {
	if a.Subresource != "" {
		return nil
	}
	if p.Validate {
		if pc, ok := a.Object.(*api.PriorityClass); ok && (a.Verb == Create || a.Verb == Update || a.Verb == Patch) {
			return validateGlobalDefault(a, pc)
		}
		return nil
	}
	pod, ok := a.Object.(*api.Pod)
	if !ok || a.Kind != api.KindPod {
		return nil
	}
	switch a.Verb {
	case Create:
		return admitPodPriority(a.Store, pod)
	case Update, Patch:
		// API validation keeps priority immutable; a writer that left it
		// out (an apply of the original manifest) keeps the stored one.
		if old, ok := a.Old.(*api.Pod); ok && pod.Spec.Priority == nil && old.Spec.Priority != nil {
			v := *old.Spec.Priority
			pod.Spec.Priority = &v
		}
		if old, ok := a.Old.(*api.Pod); ok && pod.Spec.PreemptionPolicy == nil && old.Spec.PreemptionPolicy != nil {
			v := *old.Spec.PreemptionPolicy
			pod.Spec.PreemptionPolicy = &v
		}
	}
	return nil
}

// admitPodPriority is upstream's admitPod for a create.
func admitPodPriority(st *store.Store, pod *api.Pod) error {
	var priority int32
	var policy *api.PreemptionPolicy
	if pod.Spec.PriorityClassName == "" {
		if dpc := defaultPriorityClass(st); dpc != nil {
			pod.Spec.PriorityClassName = dpc.Name
			priority, policy = dpc.Value, dpc.PreemptionPolicy
		} else {
			lower := api.PreemptLowerPriority
			priority, policy = api.DefaultPriorityWhenNoDefaultClassExists, &lower
		}
	} else {
		pc := LookupPriorityClass(st, pod.Spec.PriorityClassName)
		if pc == nil {
			return apierr.NewForbidden("pods", pod.Name, fmt.Sprintf("no PriorityClass with name %v was found", pod.Spec.PriorityClassName))
		}
		priority, policy = pc.Value, pc.PreemptionPolicy
	}
	if pod.Spec.Priority != nil && *pod.Spec.Priority != priority {
		return apierr.NewForbidden("pods", pod.Name, fmt.Sprintf("the integer value of priority (%d) must not be provided in pod spec; priority admission controller computed %d from the given PriorityClass name", *pod.Spec.Priority, priority))
	}
	pod.Spec.Priority = &priority
	if policy != nil {
		if pod.Spec.PreemptionPolicy != nil && *pod.Spec.PreemptionPolicy != *policy {
			return apierr.NewForbidden("pods", pod.Name, fmt.Sprintf("the string value of PreemptionPolicy (%s) must not be provided in pod spec; priority admission controller computed %s from the given PriorityClass name", *pod.Spec.PreemptionPolicy, *policy))
		}
		v := *policy
		pod.Spec.PreemptionPolicy = &v
	}
	return nil
}

// LookupPriorityClass returns the class called name: a stored one, or a
// system class; nil if there is none.
func LookupPriorityClass(st *store.Store, name string) *api.PriorityClass {
	if o, err := st.Get(api.KindPriorityClass, api.Key{Name: name}); err == nil {
		if pc, ok := o.(*api.PriorityClass); ok {
			return pc
		}
	}
	for _, pc := range api.SystemPriorityClasses() {
		if pc.Name == name {
			return pc
		}
	}
	return nil
}

// defaultPriorityClass is the stored globalDefault class with the lowest
// value (ties: the first listed), or nil.
func defaultPriorityClass(st *store.Store) *api.PriorityClass {
	objs, _, err := st.List(api.KindPriorityClass, store.ListOptions{})
	if err != nil {
		return nil
	}
	var dpc *api.PriorityClass
	for _, o := range objs {
		if pc, ok := o.(*api.PriorityClass); ok && pc.GlobalDefault && (dpc == nil || dpc.Value > pc.Value) {
			dpc = pc
		}
	}
	return dpc
}

// validateGlobalDefault is upstream's validatePriorityClass: only one
// class may be the global default.
func validateGlobalDefault(a *Attributes, pc *api.PriorityClass) error {
	if !pc.GlobalDefault {
		return nil
	}
	dpc := defaultPriorityClass(a.Store)
	if dpc == nil || (a.Verb != Create && dpc.Name == pc.Name) {
		return nil
	}
	return apierr.NewForbidden("priorityclasses.scheduling.k8s.io", pc.Name, fmt.Sprintf("PriorityClass %v is already marked as default. Only one default can exist", dpc.Name))
}

// validatePriorityClass adds the rules of k/k
// pkg/apis/scheduling/validation/validation.go (ValidatePriorityClass,
// ValidatePriorityClassUpdate) and a pod's preemptionPolicy values
// (core validation ValidatePreemptionPolicy).
func validatePriorityClass(obj, old api.Object, errs []apierr.FieldError) []apierr.FieldError {
	switch o := obj.(type) {
	case *api.Pod:
		errs = validatePreemptionPolicy("spec.preemptionPolicy", o.Spec.PreemptionPolicy, errs)
	case *api.PriorityClass:
		if strings.HasPrefix(o.Name, api.SystemPriorityClassPrefix) {
			if err := knownSystemPriorityClass(o); err != "" {
				errs = append(errs, apierr.FieldError{Field: "metadata.name", Type: "Forbidden",
					Detail: "priority class names with '" + api.SystemPriorityClassPrefix + "' prefix are reserved for system use only. error: " + err})
			}
		} else if o.Value > api.HighestUserDefinablePriority {
			errs = append(errs, apierr.FieldError{Field: "value", Type: "Forbidden", Detail: fmt.Sprintf("maximum allowed value of a user defined priority is %v", api.HighestUserDefinablePriority)})
		}
		errs = validatePreemptionPolicy("preemptionPolicy", o.PreemptionPolicy, errs)
		if op, ok := old.(*api.PriorityClass); ok {
			if o.Value != op.Value {
				errs = append(errs, apierr.FieldError{Field: "value", Type: "Forbidden", Detail: "may not be changed in an update."})
			}
			if (o.PreemptionPolicy == nil) != (op.PreemptionPolicy == nil) || (o.PreemptionPolicy != nil && *o.PreemptionPolicy != *op.PreemptionPolicy) {
				errs = append(errs, apierr.FieldError{Field: "preemptionPolicy", Type: "Invalid value", Value: o.PreemptionPolicy, Detail: "field is immutable"})
			}
		}
	}
	return errs
}

func validatePreemptionPolicy(field string, p *api.PreemptionPolicy, errs []apierr.FieldError) []apierr.FieldError {
	if p == nil {
		return errs
	}
	switch *p {
	case api.PreemptLowerPriority, api.PreemptNever:
		return errs
	}
	return append(errs, apierr.FieldError{Field: field, Type: "Unsupported value", Value: string(*p), Detail: `supported values: "Never", "PreemptLowerPriority"`})
}

// knownSystemPriorityClass is scheduling/v1 IsKnownSystemPriorityClass:
// "" if pc is one of the system classes as defined, else why not.
func knownSystemPriorityClass(pc *api.PriorityClass) string {
	for _, spc := range api.SystemPriorityClasses() {
		if spc.Name != pc.Name {
			continue
		}
		if spc.Value != pc.Value {
			return fmt.Sprintf("value of %v PriorityClass must be %v", spc.Name, spc.Value)
		}
		if spc.GlobalDefault != pc.GlobalDefault {
			return fmt.Sprintf("globalDefault of %v PriorityClass must be %v", spc.Name, spc.GlobalDefault)
		}
		return ""
	}
	return fmt.Sprintf("%v is not a known system priority class", pc.Name)
}
