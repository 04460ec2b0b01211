package apierr

import "testing"

// TestNewInvalidNamesItsObject: NewInvalid keeps the kind, group and
// name it is given as metav1.StatusDetails does (kind without its group),
// which kubectl prints an Invalid error from; a request-level one (a
// patch that does not decode) names none.
func TestNewInvalidNamesItsObject(t *testing.T) {
	for _, tc := range []struct {
		kindGroup, name   string
		kind, group, want string
	}{
		{"Pod", "p5", "Pod", "", `Pod "p5" is invalid: f: Required value`},
		{"Deployment.apps", "web", "Deployment", "apps", `Deployment.apps "web" is invalid: f: Required value`},
		{"Widget.example.com", `w"x`, "Widget", "example.com", `Widget.example.com "w\"x" is invalid: f: Required value`},
		{"PatchOptions.meta.k8s.io", "", "PatchOptions", "meta.k8s.io", `PatchOptions.meta.k8s.io "" is invalid: f: Required value`},
		{"", "", "", "", ` "" is invalid: f: Required value`},
	} {
		se := NewInvalid(tc.kindGroup, tc.name, FieldError{Field: "f", Type: "Required value"})
		if se.Kind != tc.kind || se.Group != tc.group || se.Name != tc.name || se.Message != tc.want {
			t.Errorf("NewInvalid(%q, %q) = kind %q group %q name %q message %q; want %q %q %q %q", tc.kindGroup, tc.name, se.Kind, se.Group, se.Name, se.Message, tc.kind, tc.group, tc.name, tc.want)
		}
	}
}
