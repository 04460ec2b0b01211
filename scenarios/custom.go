package scenarios

import (
	"fmt"
	"maps"
	"slices"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apiserver"
)

// Definitions are the CustomResourceDefinitions of a set of manifests
// read so far, by the kind each defines.
type Definitions map[api.Kind]*api.CustomResourceDefinition

// custom checks o against the scenario's definitions so far.
func (l *loader) custom(o api.Object) error {
	if l.crds == nil {
		l.crds = Definitions{}
	}
	return l.crds.Check(o)
}

// Check checks custom resources and their definitions as the API server
// will: a CustomResourceDefinition must be valid and define a new kind (it
// is then recorded in d); a custom resource must follow its definition
// (as kubectl apply needs the definition installed first) and match its
// schema; a cluster-scoped one loses the namespace it was given, as the
// API server clears it.
func (d Definitions) Check(o api.Object) error {
	switch o := o.(type) {
	case *api.CustomResourceDefinition:
		if err := apiserver.ValidateDefinition(o); err != nil {
			return err
		}
		k := o.ResourceInfo().Kind
		if _, builtin := api.Lookup(k); builtin || d[k] != nil {
			return fmt.Errorf("customresourcedefinition %q: the kind %s is already served", o.Name, k.GroupKind())
		}
		d[k] = o
	case *api.Unstructured:
		crd := d[api.KindOf(o)]
		if crd == nil {
			// kubectl's message for a kind no definition serves.
			return fmt.Errorf("resource mapping not found for name: %q namespace: %q: no matches for kind %q in version %q; ensure CRDs are installed first",
				o.Name, o.Namespace, o.Kind, o.APIVersion)
		}
		if !crd.ResourceInfo().Namespaced {
			// The API server clears a cluster-scoped object's namespace
			// (rest.BeforeCreate), so the scenario's record of it does
			// too.
			o.Namespace = ""
		}
		// The server validates it with its schema's defaults set.
		cp := o.DeepCopy()
		apiserver.DefaultCustom(crd, cp)
		return apiserver.ValidateCustom(crd, cp)
	}
	return nil
}

// Kinds returns a registry of the kinds the scenario's objects are served
// at: the built-in kinds and those its CustomResourceDefinitions define.
func (s *Scenario) Kinds() *api.Registry {
	r := api.NewRegistry()
	for _, o := range s.Objects {
		if crd, ok := o.(*api.CustomResourceDefinition); ok {
			_ = r.Register(crd.ResourceInfo(), crd.ServedAPIVersions()...) // the loader rejected duplicates
		}
	}
	return r
}

// customKind resolves a name kubectl accepts for a kind (plural,
// singular, short name, kind) among the definitions loaded so far.
func (l *loader) customKind(name string) (api.Kind, bool) {
	r := api.NewRegistry()
	for _, k := range slices.SortedFunc(maps.Keys(l.crds), api.Kind.Compare) {
		crd := l.crds[k]
		_ = r.Register(crd.ResourceInfo(), crd.ServedAPIVersions()...)
	}
	k, ok := r.Resolve(name)
	if _, builtin := api.Lookup(k); builtin {
		return api.Kind{}, false
	}
	return k, ok
}

// ResolveKindIn maps a kind name as kubectl accepts it to a built-in kind,
// else to one the cluster's registry kinds serves (custom kinds).
func ResolveKindIn(kinds *api.Registry, name string) (api.Kind, bool) {
	if k, ok := ResolveKind(name); ok {
		return k, true
	}
	return kinds.Resolve(name)
}
