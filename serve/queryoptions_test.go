package serve

import (
	"errors"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// TestQueryBool holds a boolean query parameter (watch,
// allowWatchBookmarks, force) to the API server's conversion
// (Convert_Slice_string_To_bool): absent, "0" and "false" in any case are
// false, anything else (garbage, "1", "True", empty) true. serve took
// only "true" (and "1" for watch): force=1 was an unforced apply, and
// watch=yes a list.
func TestQueryBool(t *testing.T) {
	for _, tc := range []struct {
		query string
		want  bool
	}{
		{"", false}, {"x=0", false}, {"x=false", false}, {"x=FALSE", false},
		{"x=true", true}, {"x=1", true}, {"x=True", true}, {"x=garbage", true}, {"x=", true}, {"x=0&x=1", false},
	} {
		q, _ := url.ParseQuery(tc.query)
		if got := queryBool(q, "x"); got != tc.want {
			t.Errorf("%q: %v; want %v", tc.query, got, tc.want)
		}
	}
}

// TestPatchOptions holds a patch's query to the API server's
// ValidatePatchOptions (and the create and update options' field manager
// check): force on a patch that is not an apply is forbidden, a field
// manager longer than 128 bytes or with an unprintable character is
// invalid, each a 422 of the options kind. serve ignored force there and
// took any field manager.
func TestPatchOptions(t *testing.T) {
	long := strings.Repeat("m", 129)
	for _, tc := range []struct {
		method, query, ct string
		msg               string // "" for accepted
	}{
		{"PATCH", "force=true", "application/merge-patch+json", `PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch`},
		{"PATCH", "force=false", "application/json-patch+json", `PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch`},
		{"PATCH", "fieldManager=" + long, "application/merge-patch+json", `PatchOptions.meta.k8s.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes`},
		{"PATCH", "fieldManager=a%07b&force=1", "application/apply-patch+yaml", `PatchOptions.meta.k8s.io "" is invalid: fieldManager: Invalid value: "a\ab": invalid character U+0007 (at position 1)`},
		{"POST", "fieldManager=" + long, "application/json", `CreateOptions.meta.k8s.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes`},
		{"PUT", "fieldManager=" + long, "application/json", `UpdateOptions.meta.k8s.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes`},
		{"PATCH", "fieldManager=me&force=garbage", "application/apply-patch+yaml", ""},
		{"PATCH", "fieldManager=" + long[:128], "application/merge-patch+json", ""},
	} {
		r := httptest.NewRequest(tc.method, "/api/v1/namespaces/default/configmaps/c?"+tc.query, nil)
		r.Header.Set("Content-Type", tc.ct)
		err := checkWriteOptions(r)
		var se *apierr.StatusError
		switch {
		case tc.msg == "" && err != nil:
			t.Errorf("%s ?%s: %v; want accepted", tc.method, tc.query, err)
		case tc.msg != "" && (!errors.As(err, &se) || se.Code != 422 || se.Message != tc.msg):
			t.Errorf("%s ?%s: %v; want 422 %q", tc.method, tc.query, err, tc.msg)
		}
	}
	// Refused before the request reaches the loop (nil here).
	h := NewHandler(nil, nil, Options{Token: "t"})
	r := httptest.NewRequest("PATCH", "/api/v1/namespaces/default/configmaps/c?force=true", strings.NewReader(`{}`))
	r.Header.Set("Content-Type", "application/merge-patch+json")
	tg, _ := parsePath(r.URL.Path)
	info, _ := resolve(api.NewRegistry(), tg)
	if _, _, _, err := h.request(r, tg, info, []byte(`{}`)); err == nil || !strings.Contains(err.Error(), "force: Forbidden") {
		t.Errorf("a merge patch with force: %v; want the 422", err)
	}
}
