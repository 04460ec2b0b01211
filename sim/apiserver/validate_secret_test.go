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
