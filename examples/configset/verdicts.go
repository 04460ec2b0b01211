package configset

import (
	"fmt"
	"time"

	"github.com/clustersim/clustersim/harness"
	"github.com/clustersim/clustersim/sim/api"
)

// OneConfigMapPerConfigSet is checked after every change to the store: no
// ConfigSet ever has two ConfigMaps (by OwnerLabel).
var OneConfigMapPerConfigSet = harness.Invariant{
	Name: "at most one ConfigMap per ConfigSet",
	Check: func(s harness.State) error {
		seen := map[string]string{}
		for _, o := range s.List(api.KindConfigMap, "") {
			m := o.GetObjectMeta()
			owner := m.Labels[OwnerLabel]
			if owner == "" {
				continue
			}
			k := m.Namespace + "/" + owner
			if prev, ok := seen[k]; ok {
				return fmt.Errorf("configset %s has two ConfigMaps: %s and %s", k, prev, m.Name)
			}
			seen[k] = m.Name
		}
		return nil
	},
}

// InSync holds once the operator has settled: every ConfigSet has a
// ConfigMap holding its data, and its status names that ConfigMap at the
// ConfigSet's generation.
var InSync = harness.Invariant{
	Name: "every ConfigSet's ConfigMap holds its data and its status is current",
	Check: func(s harness.State) error {
		byOwner := map[string]*api.ConfigMap{}
		for _, o := range s.List(api.KindConfigMap, "") {
			cm := o.(*api.ConfigMap)
			if owner := cm.Labels[OwnerLabel]; owner != "" {
				byOwner[cm.Namespace+"/"+owner] = cm
			}
		}
		for _, o := range s.List(Kind, "") {
			cs, err := Decode(o)
			if err != nil {
				return err
			}
			cm := byOwner[cs.Namespace+"/"+cs.Name]
			if cm == nil {
				return fmt.Errorf("configset %s/%s has no ConfigMap", cs.Namespace, cs.Name)
			}
			if !holds(cm, cs) {
				return fmt.Errorf("configmap %s/%s holds %v; configset %s declares %v", cm.Namespace, cm.Name, cm.Data, cs.Name, cs.Spec.Data)
			}
			if cs.Status.ConfigMap != cm.Name || cs.Status.ObservedGeneration != cs.Generation {
				return fmt.Errorf("configset %s/%s status says configMap %q at generation %d; want %q at %d",
					cs.Namespace, cs.Name, cs.Status.ConfigMap, cs.Status.ObservedGeneration, cm.Name, cs.Generation)
			}
		}
		return nil
	},
}

// NoOrphans holds once the garbage collector has had its time: no
// ConfigMap outlives the ConfigSet it is for.
var NoOrphans = harness.Invariant{
	Name: "no ConfigMap outlives its ConfigSet",
	Check: func(s harness.State) error {
		for _, o := range s.List(api.KindConfigMap, "") {
			m := o.GetObjectMeta()
			owner := m.Labels[OwnerLabel]
			if owner == "" {
				continue
			}
			if _, ok := s.Get(Kind, m.Namespace, owner); !ok {
				return fmt.Errorf("configmap %s/%s outlives configset %s", m.Namespace, m.Name, owner)
			}
		}
		return nil
	},
}

// NoteKept holds at the end of the scenario testdata/configset.yaml: the
// user's last edit of web-config (note-4) survived the operator's writes.
var NoteKept = harness.Invariant{
	Name: "the user's last note on web-config is kept",
	Check: func(s harness.State) error {
		o, ok := s.Get(api.KindConfigMap, "default", "web-config")
		if !ok {
			return fmt.Errorf("configmap default/web-config is gone")
		}
		if got := o.(*api.ConfigMap).Data["note"]; got != "note-4" {
			return fmt.Errorf("web-config's note is %q, the user last wrote %q", got, "note-4")
		}
		return nil
	},
}

// Config judges a run of the scenario testdata/configset.yaml (or a copy
// naming a variant): the invariant after every change, the end state,
// stable reconciliation within 30s of the last fault or action, and no
// fights or hot loops.
func Config(seeds int, profiles ...string) harness.Config {
	return harness.Config{
		Seeds:      seeds,
		Profiles:   profiles,
		Invariants: []harness.Invariant{OneConfigMapPerConfigSet},
		Eventually: []harness.Invariant{InSync, NoOrphans, NoteKept},
		Stable:     30 * time.Second,
	}
}
