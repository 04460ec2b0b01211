package scenarios

import (
	"encoding/json"
	"fmt"

	"github.com/clustersim/clustersim/sim/api"
)

// configRef is a pod spec's reference to a ConfigMap or Secret: where it
// is written, what it names, and whether it is optional.
type configRef struct {
	field    string
	kind     string // "configmap" or "secret", as the kubelet's message says
	name     string
	optional bool
}

// refSource is what envFrom, valueFrom and volume sources hold of a
// reference: a ConfigMap's name, a Secret's secretName (volumes) or name.
type refSource struct {
	Name       string `json:"name"`
	SecretName string `json:"secretName"`
	Optional   *bool  `json:"optional"`
}

// configRefs lists the ConfigMaps and Secrets spec refers to (prefix is
// the spec's path): envFrom and env valueFrom of every container and init
// container, configMap, secret and projected volumes. A value that does
// not decode is skipped (the loader has refused such a manifest).
func configRefs(spec *api.PodSpec, prefix string) []configRef {
	var out []configRef
	add := func(field, kind string, raw json.RawMessage) {
		var s refSource
		if len(raw) == 0 || json.Unmarshal(raw, &s) != nil {
			return
		}
		name := s.Name
		if s.SecretName != "" {
			name = s.SecretName
		}
		if name != "" {
			out = append(out, configRef{field: field, kind: kind, name: name, optional: s.Optional != nil && *s.Optional})
		}
	}
	for _, list := range []struct {
		field string
		cs    []api.Container
	}{{"initContainers", spec.InitContainers}, {"containers", spec.Containers}} {
		for i, c := range list.cs {
			at := fmt.Sprintf("%s%s[%d].", prefix, list.field, i)
			for j, e := range c.EnvFrom {
				var from struct {
					ConfigMapRef json.RawMessage `json:"configMapRef"`
					SecretRef    json.RawMessage `json:"secretRef"`
				}
				if json.Unmarshal(e, &from) == nil {
					add(fmt.Sprintf("%senvFrom[%d].configMapRef", at, j), "configmap", from.ConfigMapRef)
					add(fmt.Sprintf("%senvFrom[%d].secretRef", at, j), "secret", from.SecretRef)
				}
			}
			for j, e := range c.Env {
				if e.ValueFrom == nil {
					continue
				}
				var from struct {
					ConfigMapKeyRef json.RawMessage `json:"configMapKeyRef"`
					SecretKeyRef    json.RawMessage `json:"secretKeyRef"`
				}
				if json.Unmarshal(*e.ValueFrom, &from) == nil {
					add(fmt.Sprintf("%senv[%d].valueFrom.configMapKeyRef", at, j), "configmap", from.ConfigMapKeyRef)
					add(fmt.Sprintf("%senv[%d].valueFrom.secretKeyRef", at, j), "secret", from.SecretKeyRef)
				}
			}
		}
	}
	for i, v := range spec.Volumes {
		at := fmt.Sprintf("%svolumes[%d].", prefix, i)
		add(at+"configMap", "configmap", json.RawMessage(v.Source["configMap"]))
		add(at+"secret", "secret", json.RawMessage(v.Source["secret"]))
		if p, ok := v.Source["projected"]; ok {
			var proj struct {
				Sources []struct {
					ConfigMap json.RawMessage `json:"configMap"`
					Secret    json.RawMessage `json:"secret"`
				} `json:"sources"`
			}
			if json.Unmarshal(p, &proj) == nil {
				for j, s := range proj.Sources {
					add(fmt.Sprintf("%sprojected.sources[%d].configMap", at, j), "configmap", s.ConfigMap)
					add(fmt.Sprintf("%sprojected.sources[%d].secret", at, j), "secret", s.Secret)
				}
			}
		}
	}
	return out
}

// configRefWarnings names the references of objs' pod specs to a
// ConfigMap or Secret that is not optional and that no object of objs
// is: in Kubernetes the kubelet would not start the container
// (CreateContainerConfigError) or mount the volume (FailedMount); the
// simulated kubelet does not read ConfigMaps and Secrets and starts it.
func configRefWarnings(file string, objs []api.Object) []Warning {
	have := map[string]bool{}
	for _, o := range objs {
		m := o.GetObjectMeta()
		switch o.(type) {
		case *api.ConfigMap:
			have["configmap/"+namespaceOf(m)+"/"+m.Name] = true
		case *api.Secret:
			have["secret/"+namespaceOf(m)+"/"+m.Name] = true
		}
	}
	var out []Warning
	for _, o := range objs {
		spec, prefix := podSpecOf(o)
		if spec == nil {
			continue
		}
		ns := namespaceOf(o.GetObjectMeta())
		for _, r := range configRefs(spec, prefix) {
			if r.optional || have[r.kind+"/"+ns+"/"+r.name] {
				continue
			}
			out = append(out, Warning{File: file, Object: objectName(o), Field: r.field,
				Msg: fmt.Sprintf("%s %q is in no object of the scenario: in Kubernetes the pod would wait for it (%s %q not found); the simulated kubelet does not read ConfigMaps and Secrets and starts the container", kindTitle(r.kind), r.name, r.kind, r.name)})
		}
	}
	return out
}

// namespaceOf is an object's namespace, "default" when empty.
func namespaceOf(m *api.ObjectMeta) string {
	if m.Namespace == "" {
		return DefaultNamespace
	}
	return m.Namespace
}

func kindTitle(kind string) string {
	if kind == "configmap" {
		return "ConfigMap"
	}
	return "Secret"
}
