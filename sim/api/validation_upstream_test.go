package api

import (
	"strings"
	"testing"
)

// Rows of apimachinery's pkg/util/validation/validation_test.go for the
// helpers sim/api has: validateLabelKey (IsQualifiedName),
// validateLabelValue (IsValidLabelValue) and dnsSubdomainProblems
// (IsDNS1123Subdomain), used by label selectors. Upstream only wants an
// error or none; so do these.

// TestIsQualifiedNameUpstream ports TestIsQualifiedName.
func TestIsQualifiedNameUpstream(t *testing.T) {
	for _, s := range []string{
		"simple",
		"now-with-dashes",
		"1-starts-with-num",
		"1234",
		"simple/simple",
		"now-with-dashes/simple",
		"now-with-dashes/now-with-dashes",
		"now.with.dots/simple",
		"now-with.dashes-and.dots/simple",
		"1-num.2-num/3-num",
		"1234/5678",
		"1.2.3.4/5678",
		"Uppercase_Is_OK_123",
		"example.com/Uppercase_Is_OK_123",
		"requests.storage-foo",
		strings.Repeat("a", 63),
		strings.Repeat("a", 253) + "/" + strings.Repeat("b", 63),
	} {
		if msg := validateLabelKey(s); msg != "" {
			t.Errorf("%.40q: %s", s, msg)
		}
	}
	for _, s := range []string{
		"nospecialchars%^=@",
		"cantendwithadash-",
		"-cantstartwithadash-",
		"only/one/slash",
		"Example.com/abc",
		"example_com/abc",
		"example.com/",
		"/simple",
		strings.Repeat("a", 64),
		strings.Repeat("a", 254) + "/abc",
	} {
		if validateLabelKey(s) == "" {
			t.Errorf("%.40q: no error", s)
		}
	}
	// Ours: the message of a prefix that is too long but well formed.
	if got, want := validateLabelKey(strings.Repeat("a", 254)+"/abc"), "prefix part must be no more than 253 bytes"; got != want {
		t.Errorf("254-byte prefix: %q, want %q", got, want)
	}
}

// TestIsValidLabelValueUpstream ports TestIsValidLabelValue.
func TestIsValidLabelValueUpstream(t *testing.T) {
	for _, s := range []string{
		"simple",
		"now-with-dashes",
		"1-starts-with-num",
		"end-with-num-1",
		"1234",                  // only num
		strings.Repeat("a", 63), // to the limit
		"",                      // empty value
	} {
		if msg := validateLabelValue(s); msg != "" || !ValidLabelValue(s) {
			t.Errorf("%q: %s", s, msg)
		}
	}
	for _, s := range []string{
		"nospecialchars%^=@",
		"Tama-nui-te-rā.is.Māori.sun",
		"\\backslashes\\are\\bad",
		"-starts-with-dash",
		"ends-with-dash-",
		".starts.with.dot",
		"ends.with.dot.",
		strings.Repeat("a", 64), // over the limit
	} {
		if validateLabelValue(s) == "" || ValidLabelValue(s) {
			t.Errorf("%q: no error", s)
		}
	}
}

// TestIsDNS1123SubdomainUpstream ports TestIsDNS1123Subdomain.
func TestIsDNS1123SubdomainUpstream(t *testing.T) {
	for _, s := range []string{
		"a", "ab", "abc", "a1", "a-1", "a--1--2--b",
		"0", "01", "012", "1a", "1-a", "1--a--b--2",
		"a.a", "ab.a", "abc.a", "a1.a", "a-1.a", "a--1--2--b.a",
		"a.1", "ab.1", "abc.1", "a1.1", "a-1.1", "a--1--2--b.1",
		"0.a", "01.a", "012.a", "1a.a", "1-a.a", "1--a--b--2",
		"0.1", "01.1", "012.1", "1a.1", "1-a.1", "1--a--b--2.1",
		"a.b.c.d.e", "aa.bb.cc.dd.ee", "1.2.3.4.5", "11.22.33.44.55",
		strings.Repeat("a", 253),
	} {
		if msgs := dnsSubdomainProblems(s); len(msgs) != 0 {
			t.Errorf("%.40q: %v", s, msgs)
		}
	}
	for _, s := range []string{
		"", "A", "ABC", "aBc", "A1", "A-1", "1-A",
		"-", "a-", "-a", "1-", "-1",
		"_", "a_", "_a", "a_b", "1_", "_1", "1_2",
		".", "a.", ".a", "a..b", "1.", ".1", "1..2",
		" ", "a ", " a", "a b", "1 ", " 1", "1 2",
		"A.a", "aB.a", "ab.A", "A1.a", "a1.A",
		"A.1", "aB.1", "A1.1", "1A.1",
		"0.A", "01.A", "012.A", "1A.a", "1a.A",
		"A.B.C.D.E", "AA.BB.CC.DD.EE", "a.B.c.d.e", "aa.bB.cc.dd.ee",
		"a@b", "a,b", "a_b", "a;b",
		"a:b", "a%b", "a?b", "a$b",
		strings.Repeat("a", 254),
	} {
		if len(dnsSubdomainProblems(s)) == 0 {
			t.Errorf("%.40q: no error", s)
		}
	}
}
