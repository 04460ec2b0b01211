package apiserver

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// configMapKeyMsg is IsConfigMapKey's pattern message
// (k8s.io/apimachinery/pkg/util/validation).
const configMapKeyMsg = "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key_name', regex used for validation is '[-._a-zA-Z0-9]+')"

// configMapKeyProblems is IsConfigMapKey: at most 253 characters of
// [-._a-zA-Z0-9], not "." or "..", not starting with "..".
func configMapKeyProblems(k string) []string {
	var out []string
	if len(k) > 253 {
		out = append(out, "must be no more than 253 characters")
	}
	valid := k != ""
	for i := 0; i < len(k) && valid; i++ {
		c := k[i]
		valid = c == '-' || c == '.' || c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	if !valid {
		out = append(out, configMapKeyMsg)
	}
	switch {
	case k == ".":
		out = append(out, "must not be '.'")
	case k == "..":
		out = append(out, "must not be '..'")
	case strings.HasPrefix(k, ".."):
		out = append(out, "must not start with '..'")
	}
	return out
}

// validateKeys checks the keys of a ConfigMap's or Secret's data map
// (field names it: "data", "binaryData"), in sorted order.
func validateKeys[V any](field string, m map[string]V, errs []apierr.FieldError) []apierr.FieldError {
	bad := false
	for k := range m {
		bad = bad || len(configMapKeyProblems(k)) > 0
	}
	if !bad {
		return errs // nothing to report: no keys to sort
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		for _, p := range configMapKeyProblems(k) {
			errs = append(errs, apierr.FieldError{Field: fmt.Sprintf("%s[%s]", field, k), Type: "Invalid value", Value: k, Detail: p})
		}
	}
	return errs
}

// validateSecret is ValidateSecret (k/k pkg/apis/core/validation) after
// the size: data keys, and the keys each built-in type requires.
func validateSecret(s *api.Secret, errs []apierr.FieldError) []apierr.FieldError {
	errs = validateKeys("data", s.Data, errs)
	required := func(key string) {
		errs = append(errs, apierr.FieldError{Field: fmt.Sprintf("data[%s]", key), Type: "Required value"})
	}
	has := func(key string) bool { _, ok := s.Data[key]; return ok }
	switch s.Type {
	case "kubernetes.io/service-account-token":
		if s.Annotations["kubernetes.io/service-account.name"] == "" {
			errs = append(errs, apierr.FieldError{Field: "metadata.annotations[kubernetes.io/service-account.name]", Type: "Required value"})
		}
	case "kubernetes.io/dockercfg":
		if !has(".dockercfg") {
			required(".dockercfg")
		}
	case "kubernetes.io/dockerconfigjson":
		if !has(".dockerconfigjson") {
			required(".dockerconfigjson")
		}
	case "kubernetes.io/basic-auth":
		if !has("username") && !has("password") {
			required("username")
			required("password")
		}
	case "kubernetes.io/ssh-auth":
		if len(s.Data["ssh-privatekey"]) == 0 {
			required("ssh-privatekey")
		}
	case "kubernetes.io/tls":
		if !has("tls.crt") {
			required("tls.crt")
		}
		if !has("tls.key") {
			required("tls.key")
		}
	}
	return errs
}

// immutableMsg is the Forbidden detail of a change to an immutable
// ConfigMap or Secret.
const immutableMsg = "field is immutable when `immutable` is set"

// validateDataUpdate is ValidateConfigMapUpdate's and
// ValidateSecretUpdate's checks against the stored object: a Secret's
// type never changes, and once immutable is set neither it nor the data
// may change. Without it immutable would be accepted and do nothing.
func validateDataUpdate(obj, old api.Object, errs []apierr.FieldError) []apierr.FieldError {
	immutable := func(is *bool) {
		if is == nil || !*is {
			errs = append(errs, apierr.FieldError{Field: "immutable", Type: "Forbidden", Detail: immutableMsg})
		}
	}
	changed := func(field string, differ bool) {
		if differ {
			errs = append(errs, apierr.FieldError{Field: field, Type: "Forbidden", Detail: immutableMsg})
		}
	}
	switch o := obj.(type) {
	case *api.ConfigMap:
		if was, ok := old.(*api.ConfigMap); ok && was.Immutable != nil && *was.Immutable {
			immutable(o.Immutable)
			changed("data", !maps.Equal(o.Data, was.Data))
			changed("binaryData", !maps.EqualFunc(o.BinaryData, was.BinaryData, bytes.Equal))
		}
	case *api.Secret:
		was, ok := old.(*api.Secret)
		if !ok {
			return errs
		}
		if o.Type != was.Type {
			errs = append(errs, apierr.FieldError{Field: "type", Type: "Invalid value", Value: o.Type, Detail: "field is immutable"})
		}
		if was.Immutable != nil && *was.Immutable {
			immutable(o.Immutable)
			changed("data", !maps.EqualFunc(o.Data, was.Data, bytes.Equal))
		}
	}
	return errs
}
