package api

import (
	"bytes"
	"encoding/json"
)

// Defaults inside the parts of a pod spec the simulator keeps as raw JSON
// (k/k pkg/apis/core/v1/defaults.go): an httpGet action's path "/" and
// scheme HTTP (SetDefaults_HTTPGetAction), the defaultMode 0644 (420) of
// configMap, secret, downwardAPI and projected volumes
// (SetDefaults_ConfigMapVolumeSource and its siblings), an env var's
// fieldRef apiVersion "v1" (SetDefaults_ObjectFieldSelector). Each
// decodes the value only when a default is missing, so a value already
// defaulted (a pod copied from a defaulted template) costs a scan and no
// allocation.

// rawDefault is one key a raw JSON object defaults: its name, the name
// quoted (to look for without allocating) and its default value.
type rawDefault struct {
	name   string
	quoted []byte
	value  json.RawMessage
}

func newRawDefault(name, value string) rawDefault {
	return rawDefault{name: name, quoted: []byte(`"` + name + `"`), value: json.RawMessage(value)}
}

// defaultRawKeys returns raw with each key of defaults it lacks added (a
// JSON object re-encoded with sorted keys) and true, or raw and false
// when it has them all or is not an object.
func defaultRawKeys(raw RawValue, defaults ...rawDefault) (RawValue, bool) {
	missing := false
	for _, d := range defaults {
		missing = missing || !bytes.Contains(raw, d.quoted)
	}
	if !missing {
		return raw, false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return raw, false
	}
	changed := false
	for _, d := range defaults {
		if _, ok := m[d.name]; !ok {
			m[d.name] = d.value
			changed = true
		}
	}
	if !changed {
		return raw, false
	}
	out, err := json.Marshal(m)
	if err != nil {
		return raw, false
	}
	return out, true
}

var (
	pathDefault        = newRawDefault("path", `"/"`)
	schemeDefault      = newRawDefault("scheme", `"HTTP"`)
	defaultModeDefault = newRawDefault("defaultMode", `420`)
	apiVersionDefault  = newRawDefault("apiVersion", `"v1"`)
	fieldRefKey        = []byte(`"fieldRef"`)
	modeDefaulted      = []string{"configMap", "secret", "downwardAPI", "projected"}
)

// defaultHTTPGet defaults a probe's httpGet action.
func defaultHTTPGet(p *Probe) {
	if p.HTTPGet != nil {
		if v, changed := defaultRawKeys(*p.HTTPGet, pathDefault, schemeDefault); changed {
			nv := v // only a changed value is moved to the heap
			p.HTTPGet = &nv
		}
	}
}

// defaultVolumeSources gives configMap, secret, downwardAPI and projected
// sources their defaultMode.
func defaultVolumeSources(vols []Volume) {
	for i := range vols {
		for _, k := range modeDefaulted {
			if raw, ok := vols[i].Source[k]; ok {
				if v, changed := defaultRawKeys(raw, defaultModeDefault); changed {
					vols[i].Source[k] = v
				}
			}
		}
	}
}

// defaultFieldRefs gives each env var's valueFrom.fieldRef its apiVersion.
func defaultFieldRefs(env []EnvVar) {
	for i := range env {
		vf := env[i].ValueFrom
		if vf == nil || !bytes.Contains(*vf, fieldRefKey) || bytes.Contains(*vf, apiVersionDefault.quoted) {
			continue
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(*vf, &m) != nil || m["fieldRef"] == nil {
			continue
		}
		ref, changed := defaultRawKeys(RawValue(m["fieldRef"]), apiVersionDefault)
		if !changed {
			continue
		}
		m["fieldRef"] = json.RawMessage(ref)
		if out, err := json.Marshal(m); err == nil {
			v := RawValue(out)
			env[i].ValueFrom = &v
		}
	}
}
