package apiserver

import (
	"strings"
	"testing"
)

// TestNameProblemsAsV037: the messages of apimachinery v0.37.2's name
// checks. IsQualifiedName is content.IsLabelKey there (a key with two
// '/' is "a valid label key ...", a prefix over 253 bytes is "prefix
// part must be no more than 253 bytes", lengths in bytes), IsValidLabelValue
// is content.IsLabelValue (bytes), and util/validation's own
// IsDNS1123Subdomain, which NameIsDNSSubdomain and ValidateNodeName call,
// reports a length over 253 as "must be no more than 253 characters"
// before the pattern. Rows marked "upstream" take their input from the
// error cases of content/kube_test.go TestIsLabelKey / TestIsLabelValue
// and util/validation/validation_test.go TestIsDNS1123Subdomain
// (v0.37.2), which check only that there is an error; the messages are
// what v0.37.2's code returns for them.
func TestNameProblemsAsV037(t *testing.T) {
	const keyName = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
	long := strings.Repeat("a", 254)
	for _, tc := range []struct {
		name  string
		check func(string) []string
		in    string
		want  []string
	}{
		{"qualified name ok", qualifiedNameProblems, "example.com/MyName", nil},
		{"upstream: two slashes", qualifiedNameProblems, "only/one/slash", []string{"a valid label key " + keyName + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"}},
		{"upstream: name part too long", qualifiedNameProblems, strings.Repeat("a", 64), []string{"name part must be no more than 63 bytes"}},
		{"upstream: prefix over 253 bytes", qualifiedNameProblems, strings.Repeat("a", 254) + "/abc", []string{"prefix part must be no more than 253 bytes"}},
		{"prefix empty", qualifiedNameProblems, "/a", []string{"prefix part must be non-empty"}},
		{"prefix bad", qualifiedNameProblems, "Ex.com/a", []string{"prefix part " + subdomainMsg}},
		{"name empty", qualifiedNameProblems, "a/", []string{"name part must be non-empty", "name part " + keyName}},
		{"label value ok", labelValueProblems, "my_value", nil},
		{"upstream: label value too long", labelValueProblems, strings.Repeat("a", 64), []string{"must be no more than 63 bytes"}},
		{"subdomain ok", dns1123SubdomainProblems, "example.com", nil},
		{"upstream: subdomain too long", dns1123SubdomainProblems, long, []string{"must be no more than 253 characters"}},
		{"subdomain too long and bad", dns1123SubdomainProblems, long + "_", []string{"must be no more than 253 characters", subdomainMsg}},
		{"subdomain bad", dns1123SubdomainProblems, "A.com", []string{subdomainMsg}},
	} {
		got := tc.check(tc.in)
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s: %q\ngot  %q\nwant %q", tc.name, tc.in, got, tc.want)
		}
	}
}
