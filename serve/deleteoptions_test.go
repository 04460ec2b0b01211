package serve

import (
	"errors"
	"net/url"
	"testing"

	"github.com/clustersim/clustersim/sim/apierr"
)

// TestDeleteOptionsRefused holds DeleteOptions, from the query or the
// body, to what the API server's ValidateDeleteOptions refuses, a 422 of
// DeleteOptions.meta.k8s.io (serve answered an unknown propagationPolicy
// 400, and deleted with both orphanDependents and propagationPolicy),
// and a body serve cannot read to a refusal (a YAML body's preconditions
// were dropped and the object deleted).
func TestDeleteOptionsRefused(t *testing.T) {
	for _, tc := range []struct {
		query, body string
		code        int
		msg         string
	}{
		{"propagationPolicy=garbage", "", 422, `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "garbage": supported values: "Foreground", "Background", "Orphan", "nil"`},
		{"", `{"propagationPolicy":"Sideways"}`, 422, `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"`},
		{"", `{"propagationPolicy":"Foreground","orphanDependents":true}`, 422, `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Foreground": orphanDependents and deletionPropagation cannot be both set`},
		{"propagationPolicy=Background", `{"orphanDependents":false}`, 422, `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Background": orphanDependents and deletionPropagation cannot be both set`},
		{"", "preconditions:\n  uid: abc\n", 400, "decoding DeleteOptions: invalid character 'p' looking for beginning of value"},
		{"", "not json", 400, "decoding DeleteOptions: invalid character 'o' in literal null (expecting 'u')"},
		{"", "null", 400, "decoding DeleteOptions: the body is not a JSON object"},
		{"", `"x"`, 400, "decoding DeleteOptions: the body is not a JSON object"},
	} {
		q, _ := url.ParseQuery(tc.query)
		_, err := deleteOptions(q, []byte(tc.body))
		var se *apierr.StatusError
		if !errors.As(err, &se) || se.Code != tc.code || se.Message != tc.msg {
			t.Errorf("query %q body %q: %v; want %d %q", tc.query, tc.body, err, tc.code, tc.msg)
		}
	}
	for _, body := range []string{"", "  \n", `{}`, `{"kind":"DeleteOptions","apiVersion":"v1","propagationPolicy":"Orphan"}`, `{"orphanDependents":true}`} {
		if _, err := deleteOptions(url.Values{}, []byte(body)); err != nil {
			t.Errorf("body %q: %v; want accepted", body, err)
		}
	}
}
