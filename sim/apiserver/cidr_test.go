package apiserver

import "testing"

// TestValidCIDRIsParseCIDRSloppy: validCIDR accepts what
// k8s.io/utils/net.ParseCIDRSloppy parses, the legacy (non-strict) check
// of IsValidCIDRForLegacyField in apimachinery v0.37.2 validation/ip.go:
// an IPv4 or IPv6 address (IPv4 octets may have leading zeros), '/', and
// a decimal prefix length (leading zeros allowed) of at most 32 for IPv4
// syntax and 128 for IPv6 syntax, an IPv4-mapped IPv6 address counting as
// IPv6. Bits set beyond the prefix are allowed.
func TestValidCIDRIsParseCIDRSloppy(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"10.9.8.0/24", true},
		{"2001:db8::/64", true},
		{"1.2.3.4/32", true},
		{"1.2.3.4/33", false},
		{"::ffff:1.1.1.0/120", true},
		{"::ffff:1.1.1.0/128", true},
		{"::ffff:1.1.1.0/129", false},
		{"010.009.008.000/24", true},
		{"10.9.8.7/24", true},
		{"10.9.8.0/024", true},
		{"10.9.8.0/+24", false},
		{"10.9.8.0/", false},
		{"10.9.8.0", false},
		{"10.9.8.0/-1", false},
		{"2001:db8::/0128", true},
		{"2001:db8::/129", false},
		{"a.b.c.d/24", false},
	} {
		if got := validCIDR(tc.in); got != tc.want {
			t.Errorf("validCIDR(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
