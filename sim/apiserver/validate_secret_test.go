package apiserver

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestValidateSecretAndConfigMap holds Secrets and ConfigMaps to
// upstream's ValidateSecret and ValidateConfigMap: before, a TLS Secret
// without its key and a data key with a slash were stored.
func TestValidateSecretAndConfigMap(t *testing.T) {
	tests := []struct {
		name string
		obj  api.Object
		want string
	}{
		{"an Opaque secret from stringData", &api.Secret{ObjectMeta: api.ObjectMeta{Name: "s", Namespace: "default"}, StringData: map[string]string{"token": "abc"}}, ""},
		{"a TLS secret without its key", &api.Secret{ObjectMeta: api.ObjectMeta{Name: "s", Namespace: "default"}, Type: "kubernetes.io/tls", StringData: map[string]string{"tls.crt": "c"}},
			`Secret "s" is invalid: data[tls.key]: Required value`},
		{"basic auth without username and password", &api.Secret{ObjectMeta: api.ObjectMeta{Name: "s", Namespace: "default"}, Type: "kubernetes.io/basic-auth", Data: map[string][]byte{"user": nil}},
			`Secret "s" is invalid: [data[username]: Required value, data[password]: Required value]`},
		{"a dockerconfigjson secret without its key", &api.Secret{ObjectMeta: api.ObjectMeta{Name: "s", Namespace: "default"}, Type: "kubernetes.io/dockerconfigjson"},
			`Secret "s" is invalid: data[.dockerconfigjson]: Required value`},
		{"a secret key with a slash", &api.Secret{ObjectMeta: api.ObjectMeta{Name: "s", Namespace: "default"}, Data: map[string][]byte{"conf/app.yaml": nil}},
			`Secret "s" is invalid: data[conf/app.yaml]: Invalid value: "conf/app.yaml": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key_name', regex used for validation is '[-._a-zA-Z0-9]+')`},
		{"a ConfigMap key ..data", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "c", Namespace: "default"}, Data: map[string]string{"..data": "x", "ok": "y"}},
			`ConfigMap "c" is invalid: data[..data]: Invalid value: "..data": must not start with '..'`},
		{"a ConfigMap key in data and binaryData", &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "c", Namespace: "default"}, Data: map[string]string{"k": "x"}, BinaryData: map[string][]byte{"k": {1}}},
			`ConfigMap "c" is invalid: data[k]: Invalid value: "k": duplicate of key present in binaryData`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			resp := f.do(&Request{Verb: Create, Kind: api.KindOf(tc.obj), Actor: user, Object: tc.obj})
			got := ""
			if resp.Err != nil {
				got = resp.Err.Error()
			}
			if got != tc.want {
				t.Errorf("create:\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestImmutableConfigMapAndSecret holds updates to upstream's
// ValidateConfigMapUpdate and ValidateSecretUpdate: before, immutable was
// stored and ignored, and a Secret's type could change.
func TestImmutableConfigMapAndSecret(t *testing.T) {
	yes := true
	f := newFixture(t)
	cm := f.must(t, &Request{Verb: Create, Kind: api.KindConfigMap, Actor: user, Object: &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "c", Namespace: "default"},
		Immutable: &yes, Data: map[string]string{"k": "v"}}}).(*api.ConfigMap)
	relabelled := cm.DeepCopyObject().(*api.ConfigMap)
	relabelled.Labels = map[string]string{"app": "web"}
	cm = f.must(t, &Request{Verb: Update, Kind: api.KindConfigMap, Actor: user, Object: relabelled}).(*api.ConfigMap)
	changed := cm.DeepCopyObject().(*api.ConfigMap)
	changed.Data["k"] = "w"
	changed.Immutable = nil
	resp := f.do(&Request{Verb: Update, Kind: api.KindConfigMap, Actor: user, Object: changed})
	want := "ConfigMap \"c\" is invalid: [immutable: Forbidden: field is immutable when `immutable` is set, data: Forbidden: field is immutable when `immutable` is set]"
	if resp.Err == nil || resp.Err.Error() != want {
		t.Errorf("configmap update:\n got %v\nwant %s", resp.Err, want)
	}

	s := f.must(t, &Request{Verb: Create, Kind: api.KindSecret, Actor: user, Object: &api.Secret{ObjectMeta: api.ObjectMeta{Name: "s", Namespace: "default"},
		Immutable: &yes, Data: map[string][]byte{"k": []byte("v")}}}).(*api.Secret)
	retyped := s.DeepCopyObject().(*api.Secret)
	retyped.Type = "example.com/other"
	retyped.Data["k"] = []byte("w")
	resp = f.do(&Request{Verb: Update, Kind: api.KindSecret, Actor: user, Object: retyped})
	want = "Secret \"s\" is invalid: [type: Invalid value: \"example.com/other\": field is immutable, data: Forbidden: field is immutable when `immutable` is set]"
	if resp.Err == nil || resp.Err.Error() != want {
		t.Errorf("secret update:\n got %v\nwant %s", resp.Err, want)
	}
}
