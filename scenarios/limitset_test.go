package scenarios

import "testing"

// TestLimitsSet: --limit values are parsed or refused with a message
// that says what is wrong, an overflowing duration as too large rather
// than as not positive.
func TestLimitsSet(t *testing.T) {
	for _, tc := range []struct {
		name, value, err string
	}{
		{"duration", "48h", ""},
		{"duration", "1.5h", ""},
		{"duration", "2562047h", ""},
		{"duration", "2562048h", "limit duration=2562048h: too large: at most 2562047h47m16.854775807s"},
		{"duration", "99999999999999999999s", "limit duration=99999999999999999999s: too large: at most 2562047h47m16.854775807s"},
		{"duration", "-5h", "limit duration=-5h: want a positive duration such as 48h"},
		{"duration", "0s", "limit duration=0s: want a positive duration such as 48h"},
		{"duration", "forever", "limit duration=forever: want a positive duration such as 48h"},
		{"duration", "5x", "limit duration=5x: want a positive duration such as 48h"},
		{"duration", "1.5.5h", "limit duration=1.5.5h: want a positive duration such as 48h"},
		{"nodes", "0", "limit nodes=0: want a positive integer"},
		{"file-bytes", "4Mi", ""},
		{"ref-bytes", "32Mi", ""},
		{"ref-bytes", "0", "limit ref-bytes=0: want a positive size such as 4Mi"},
	} {
		var l Limits
		err := l.Set(tc.name, tc.value)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.err {
			t.Errorf("Set(%s, %s) = %q, want %q", tc.name, tc.value, got, tc.err)
		}
	}
}
