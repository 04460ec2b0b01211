package apiserver

import (
	"regexp"
	"testing"
)

// TestDNS1123Matchers holds isDNS1123Label and isDNS1123Subdomain to the
// upstream patterns they replace, on every string of up to four
// characters over an alphabet with each character class the patterns
// treat differently, and on a few longer names.
func TestDNS1123Matchers(t *testing.T) {
	label := regexp.MustCompile(dns1123LabelPattern)
	subdomain := regexp.MustCompile(dns1123SubdomainPattern)
	check := func(s string) {
		if got, want := isDNS1123Label(s), label.MatchString(s); got != want {
			t.Errorf("isDNS1123Label(%q) = %v, the pattern says %v", s, got, want)
		}
		if got, want := isDNS1123Subdomain(s), subdomain.MatchString(s); got != want {
			t.Errorf("isDNS1123Subdomain(%q) = %v, the pattern says %v", s, got, want)
		}
	}
	alphabet := []string{"a", "z", "0", "9", "-", ".", "A", "_", "é"}
	var gen func(prefix string, n int)
	gen = func(prefix string, n int) {
		check(prefix)
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			gen(prefix+c, n-1)
		}
	}
	gen("", 4)
	for _, s := range []string{
		"web-7d4b9c8f6-x2x9z", "kube-system", "zone-a-1", "app-10-5ffdd9bb86.17f3a2b1c9d0e8f7",
		"example.com", "a..b", "a.-b", "a-.b", "my_name", "name\n", "\nname",
	} {
		check(s)
	}
}
