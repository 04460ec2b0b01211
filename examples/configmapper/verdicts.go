package configmapper

import (
	"fmt"
	"time"

	"github.com/clustersim/clustersim/harness"
	"github.com/clustersim/clustersim/sim/api"
)

// OneConfigMapPerDeployment is checked after every change to the store:
// no Deployment ever has two ConfigMaps (by OwnerLabel).
var OneConfigMapPerDeployment = harness.Invariant{
	Name: "at most one ConfigMap per Deployment",
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
				return fmt.Errorf("deployment %s has two ConfigMaps: %s and %s", k, prev, m.Name)
			}
			seen[k] = m.Name
		}
		return nil
	},
}

// InSync holds once the operator has settled: every annotated Deployment
// has a ConfigMap with its image and replicas.
var InSync = harness.Invariant{
	Name: "every annotated Deployment's ConfigMap holds its image and replicas",
	Check: func(s harness.State) error {
		byOwner := map[string]*api.ConfigMap{}
		for _, o := range s.List(api.KindConfigMap, "") {
			cm := o.(*api.ConfigMap)
			if owner := cm.Labels[OwnerLabel]; owner != "" {
				byOwner[cm.Namespace+"/"+owner] = cm
			}
		}
		for _, o := range s.List(api.KindDeployment, "") {
			d := o.(*api.Deployment)
			if d.Annotations[Enabled] != "true" {
				continue
			}
			cm := byOwner[d.Namespace+"/"+d.Name]
			if cm == nil {
				return fmt.Errorf("deployment %s/%s has no ConfigMap", d.Namespace, d.Name)
			}
			want := Data(d)
			if cm.Data["image"] != want["image"] || cm.Data["replicas"] != want["replicas"] {
				return fmt.Errorf("configmap %s/%s holds image %q replicas %q; deployment %s has %q and %q",
					cm.Namespace, cm.Name, cm.Data["image"], cm.Data["replicas"], d.Name, want["image"], want["replicas"])
			}
		}
		return nil
	},
}

// NoOrphans holds once the garbage collector has had its time: no
// ConfigMap outlives the Deployment it is for.
var NoOrphans = harness.Invariant{
	Name: "no ConfigMap outlives its Deployment",
	Check: func(s harness.State) error {
		for _, o := range s.List(api.KindConfigMap, "") {
			m := o.GetObjectMeta()
			owner := m.Labels[OwnerLabel]
			if owner == "" {
				continue
			}
			if _, ok := s.Get(api.KindDeployment, m.Namespace, owner); !ok {
				return fmt.Errorf("configmap %s/%s outlives deployment %s", m.Namespace, m.Name, owner)
			}
		}
		return nil
	},
}

// NoteKept holds at the end of the scenario testdata/configmapper.yaml: the
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

// Config judges a run of the scenario testdata/configmapper.yaml (or a
// copy naming a variant): the invariant after every change, the end state,
// stable reconciliation within 30s of the last fault or action, and no
// fights or hot loops.
func Config(seeds int, profiles ...string) harness.Config {
	return harness.Config{
		Seeds:      seeds,
		Profiles:   profiles,
		Invariants: []harness.Invariant{OneConfigMapPerDeployment},
		Eventually: []harness.Invariant{InSync, NoOrphans, NoteKept},
		Stable:     30 * time.Second,
	}
}
