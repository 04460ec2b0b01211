package api

import (
	"encoding/json"
	"math/big"
	"testing"
)

// The tables in this file are rows of apimachinery's
// pkg/api/resource/quantity_test.go, named at each table. Upstream writes
// an expected amount as decQuantity(i, exp, format), i × 10^exp; so do
// these tables, and upstreamMilli turns it into our int64 milli-units.
//
// Two kinds of upstream rows cannot apply, as Quantity stores int64
// milli-units (see its doc comment):
//   - amounts of 2^63 milli-units or more (about 9.2e15 units: "3Ei",
//     "1E", "12E", "10000T", TestParseQuantity's 18-to-20-digit rows) are
//     ErrQuantityRange here; they are left out, each table says which;
//   - amounts finer than 1m ("5n", "4u", "1e-9") are rounded away from
//     zero to whole milli-units when parsed, where upstream keeps nano
//     precision. Parse rows of that kind are kept and expect our rounding;
//     String rows of that kind are left out.

// upstreamMilli returns i × 10^exp in milli-units, rounded away from zero.
func upstreamMilli(t *testing.T, i int64, exp int) int64 {
	t.Helper()
	n := big.NewInt(i)
	e := exp + 3
	ten := big.NewInt(10)
	if e >= 0 {
		n.Mul(n, new(big.Int).Exp(ten, big.NewInt(int64(e)), nil))
	} else {
		d := new(big.Int).Exp(ten, big.NewInt(int64(-e)), nil)
		neg := n.Sign() < 0
		n.Abs(n)
		r := new(big.Int)
		n.QuoRem(n, d, r)
		if r.Sign() != 0 {
			n.Add(n, big.NewInt(1))
		}
		if neg {
			n.Neg(n)
		}
	}
	if !n.IsInt64() {
		t.Fatalf("%d×10^%d is beyond int64 milli-units: the row should be left out", i, exp)
	}
	return n.Int64()
}

// TestQuantityParseUpstream ports TestQuantityParse, run as upstream runs
// it: each row as written, with a leading "-" and with a leading "+".
// Left out (beyond int64 milli-units): "3Ei", "1E", "1E18", "1.7E18",
// "1.01E", "9Ei", "9223372036854775807Ki", "12E".
func TestQuantityParseUpstream(t *testing.T) {
	if _, err := ParseQuantity(""); err == nil {
		t.Errorf("empty string parsed")
	}
	tests := []struct {
		input  string
		i      int64
		exp    int
		format Format
	}{
		{"0", 0, 0, DecimalSI},
		{"0n", 0, 0, DecimalSI},
		{"0u", 0, 0, DecimalSI},
		{"0m", 0, 0, DecimalSI},
		{"0Ki", 0, 0, BinarySI},
		{"0k", 0, 0, DecimalSI},
		{"0Mi", 0, 0, BinarySI},
		{"0M", 0, 0, DecimalSI},
		{"0Gi", 0, 0, BinarySI},
		{"0G", 0, 0, DecimalSI},
		{"0Ti", 0, 0, BinarySI},
		{"0T", 0, 0, DecimalSI},

		// Quantity less numbers are allowed
		{"1", 1, 0, DecimalSI},

		// Binary suffixes
		{"1Ki", 1024, 0, BinarySI},
		{"8Ki", 8 * 1024, 0, BinarySI},
		{"7Mi", 7 * 1024 * 1024, 0, BinarySI},
		{"6Gi", 6 * 1024 * 1024 * 1024, 0, BinarySI},
		{"5Ti", 5 * 1024 * 1024 * 1024 * 1024, 0, BinarySI},
		{"4Pi", 4 * 1024 * 1024 * 1024 * 1024 * 1024, 0, BinarySI},
		{"10Ti", 10 * 1024 * 1024 * 1024 * 1024, 0, BinarySI},
		{"100Ti", 100 * 1024 * 1024 * 1024 * 1024, 0, BinarySI},

		// Decimal suffixes ("5n" and "4u" round up to 1m here)
		{"5n", 5, -9, DecimalSI},
		{"4u", 4, -6, DecimalSI},
		{"3m", 3, -3, DecimalSI},
		{"9", 9, 0, DecimalSI},
		{"8k", 8, 3, DecimalSI},
		{"50k", 5, 4, DecimalSI},
		{"7M", 7, 6, DecimalSI},
		{"6G", 6, 9, DecimalSI},
		{"5T", 5, 12, DecimalSI},
		{"40T", 4, 13, DecimalSI},
		{"300T", 3, 14, DecimalSI},
		{"2P", 2, 15, DecimalSI},

		// Decimal exponents
		{"1E-3", 1, -3, DecimalExponent},
		{"1e3", 1, 3, DecimalExponent},
		{"1E6", 1, 6, DecimalExponent},
		{"1e9", 1, 9, DecimalExponent},
		{"1E12", 1, 12, DecimalExponent},
		{"1e15", 1, 15, DecimalExponent},

		// Nonstandard but still parsable
		{"1e14", 1, 14, DecimalExponent},
		{"1e13", 1, 13, DecimalExponent},
		{"1e3", 1, 3, DecimalExponent},
		{"100.035k", 100035, 0, DecimalSI},

		// Things that look like floating point
		{"0.001", 1, -3, DecimalSI},
		{"0.0005k", 5, -1, DecimalSI},
		{"0.005", 5, -3, DecimalSI},
		{"0.05", 5, -2, DecimalSI},
		{"0.5", 5, -1, DecimalSI},
		{"0.00050k", 5, -1, DecimalSI},
		{"0.00500", 5, -3, DecimalSI},
		{"0.05000", 5, -2, DecimalSI},
		{"0.50000", 5, -1, DecimalSI},
		{"0.5e0", 5, -1, DecimalExponent},
		{"0.5e-1", 5, -2, DecimalExponent},
		{"0.5e-2", 5, -3, DecimalExponent},
		{"0.5e0", 5, -1, DecimalExponent},
		{"10.035M", 10035, 3, DecimalSI},

		{"1.2e3", 12, 2, DecimalExponent},
		{"1.3E+6", 13, 5, DecimalExponent},
		{"1.40e9", 14, 8, DecimalExponent},
		{"1.53E12", 153, 10, DecimalExponent},
		{"1.6e15", 16, 14, DecimalExponent},

		{"9.01", 901, -2, DecimalSI},
		{"8.1k", 81, 2, DecimalSI},
		{"7.123456M", 7123456, 0, DecimalSI},
		{"6.987654321G", 6987654321, 0, DecimalSI},
		{"5.444T", 5444, 9, DecimalSI},
		{"40.1T", 401, 11, DecimalSI},
		{"300.2T", 3002, 11, DecimalSI},
		{"2.5P", 25, 14, DecimalSI},

		// Things that saturate/round (all finer than 1m: rounded up to 1m here)
		{"3.001n", 4, -9, DecimalSI},
		{"1.1E-9", 2, -9, DecimalExponent},
		{"0.0000000001", 1, -9, DecimalSI},
		{"0.0000000005", 1, -9, DecimalSI},
		{"0.00000000050", 1, -9, DecimalSI},
		{"0.5e-9", 1, -9, DecimalExponent},
		{"0.9n", 1, -9, DecimalSI},
		{"0.00000012345", 124, -9, DecimalSI},
		{"0.00000012354", 124, -9, DecimalSI},

		// We'll accept fractional binary stuff, too.
		{"100.035Ki", 10243584, -2, BinarySI},
		{"0.5Mi", .5 * 1024 * 1024, 0, BinarySI},
		{"0.05Gi", 536870912, -1, BinarySI},
		{"0.025Ti", 274877906944, -1, BinarySI},

		// Things written by trolls
		{"0.000000000001Ki", 2, -9, DecimalSI}, // rounds up, changes format
		{".001", 1, -3, DecimalSI},
		{".0001k", 100, -3, DecimalSI},
		{"1.", 1, 0, DecimalSI},
		{"1.G", 1, 9, DecimalSI},
	}
	for _, tt := range tests {
		want := upstreamMilli(t, tt.i, tt.exp)
		for _, sign := range []string{"", "-", "+"} {
			in := sign + tt.input
			q, err := ParseQuantity(in)
			if err != nil {
				t.Errorf("ParseQuantity(%q): %v", in, err)
				continue
			}
			w := want
			if sign == "-" {
				w = -want
			}
			if q.MilliValue() != w || q.Format() != tt.format {
				t.Errorf("ParseQuantity(%q) = %d milli %s; want %d %s", in, q.MilliValue(), q.Format(), w, tt.format)
			}
		}
	}

	invalid := []string{
		"1.1.M",
		"1+1.0M",
		"0.1mi",
		"0.1am",
		"aoeu",
		".5i",
		"1i",
		"-3.01i",
		"-3.01e-",
		// an exponent outside the int32 scale is refused, not truncated
		"1e4294967297",
		// surrounding whitespace is refused
		" 1",
		"1 ",
	}
	for _, in := range invalid {
		if q, err := ParseQuantity(in); err == nil {
			t.Errorf("ParseQuantity(%q) = %s, want an error", in, q)
		}
	}
}

// TestParseQuantityStringUpstream ports TestParseQuantityString: how the
// text splits into sign, integer part, fraction and suffix.
func TestParseQuantityStringUpstream(t *testing.T) {
	tests := []struct {
		input              string
		positive           bool
		num, denom, suffix string
	}{
		{"0.025Ti", true, "0", "025", "Ti"},
		{"1.025Ti", true, "1", "025", "Ti"},
		{"-1.025Ti", false, "1", "025", "Ti"},
		{".", true, "0", "", ""},
		{"-.", false, "0", "", ""},
		{"1E-3", true, "1", "", "E-3"},
	}
	for _, tt := range tests {
		positive, num, denom, suffix, err := splitQuantity(tt.input)
		if err != nil {
			t.Errorf("%s: %v", tt.input, err)
			continue
		}
		if positive != tt.positive || num != tt.num || denom != tt.denom || suffix != tt.suffix {
			t.Errorf("%s: %t %q %q %q, want %t %q %q %q", tt.input, positive, num, denom, suffix, tt.positive, tt.num, tt.denom, tt.suffix)
		}
	}
}

// TestQuantityStringUpstream ports TestQuantityString: the canonical form
// of an amount; parsing that form keeps its text, parsing the alternate
// spelling prints the canonical form, and the negated amount prints with
// a "-". Left out: the rows beyond int64 milli-units (1e21, 5e21, 1e24,
// 10e69, 20e69, 1e72) and those finer than 1m (1e-9, 1n, 80n, 1080n and
// their siblings, 1u, 80u, 1080u).
func TestQuantityStringUpstream(t *testing.T) {
	tests := []struct {
		i         int64
		exp       int
		format    Format
		expect    string
		alternate string
	}{
		{1024 * 1024 * 1024, 0, BinarySI, "1Gi", "1024Mi"},
		{300 * 1024 * 1024, 0, BinarySI, "300Mi", "307200Ki"},
		{6 * 1024, 0, BinarySI, "6Ki", ""},
		{1001 * 1024 * 1024 * 1024, 0, BinarySI, "1001Gi", "1025024Mi"},
		{1024 * 1024 * 1024 * 1024, 0, BinarySI, "1Ti", "1024Gi"},
		{5, 0, BinarySI, "5", "5000m"},
		{500, -3, BinarySI, "500m", "0.5"},
		{1, 9, DecimalSI, "1G", "1000M"},
		{1000, 6, DecimalSI, "1G", "0.001T"},
		{1000000, 3, DecimalSI, "1G", ""},
		{1000000000, 0, DecimalSI, "1G", ""},
		{1, -3, DecimalSI, "1m", "1000u"},
		{80, -3, DecimalSI, "80m", ""},
		{1080, -3, DecimalSI, "1080m", "1.08"},
		{108, -2, DecimalSI, "1080m", "1080000000n"},
		{10800, -4, DecimalSI, "1080m", ""},
		{300, 6, DecimalSI, "300M", ""},
		{1, 12, DecimalSI, "1T", ""},
		{1234567, 6, DecimalSI, "1234567M", ""},
		{1234567, -3, BinarySI, "1234567m", ""},
		{3, 3, DecimalSI, "3k", ""},
		{1025, 0, BinarySI, "1025", ""},
		{0, 0, DecimalSI, "0", ""},
		{0, 0, BinarySI, "0", ""},
		{1, 9, DecimalExponent, "1e9", ".001e12"},
		{1, -3, DecimalExponent, "1e-3", "0.001e0"},
		{80, -3, DecimalExponent, "80e-3", ""},
		{300, 6, DecimalExponent, "300e6", ""},
		{1, 12, DecimalExponent, "1e12", ""},
		{1, 3, DecimalExponent, "1e3", ""},
		{3, 3, DecimalExponent, "3e3", ""},
		{3, 3, DecimalSI, "3k", ""},
		{0, 0, DecimalExponent, "0", "00"},
	}
	for _, tt := range tests {
		milli := upstreamMilli(t, tt.i, tt.exp)
		q := NewMilliQuantity(milli, tt.format)
		if got := q.String(); got != tt.expect {
			t.Errorf("%d milli %s: String() = %q, want %q", milli, tt.format, got, tt.expect)
		}
		p, err := ParseQuantity(tt.expect)
		if err != nil {
			t.Errorf("ParseQuantity(%q): %v", tt.expect, err)
		} else if b, _ := p.MarshalJSON(); string(b) != `"`+tt.expect+`"` {
			t.Errorf("ParseQuantity(%q) re-encodes as %s", tt.expect, b)
		}
		if tt.alternate != "" {
			a, err := ParseQuantity(tt.alternate)
			if err != nil {
				t.Errorf("ParseQuantity(%q): %v", tt.alternate, err)
			} else if got := a.String(); got != tt.expect {
				t.Errorf("ParseQuantity(%q).String() = %q, want %q", tt.alternate, got, tt.expect)
			}
		}
		if milli != 0 {
			n := NewMilliQuantity(-milli, tt.format)
			if got := n.String(); got != "-"+tt.expect {
				t.Errorf("%d milli %s: String() = %q, want %q", -milli, tt.format, got, "-"+tt.expect)
			}
		}
	}
}

// TestBinarySIZeroExponentStringUpstream ports TestBinarySIZeroExponentString.
func TestBinarySIZeroExponentStringUpstream(t *testing.T) {
	for _, tt := range []struct {
		units int64
		want  string
	}{
		{2000, "2000"},
		{-2000, "-2000"},
	} {
		if got := NewQuantity(tt.units, BinarySI).String(); got != tt.want {
			t.Errorf("%d BinarySI: String() = %q, want %q", tt.units, got, tt.want)
		}
	}
}

// TestQuantityParseEmitUpstream ports TestQuantityParseEmit, each row also
// negated. Left out, finer than 1m: ".000001Ki" (1024u), ".000000001Ki"
// (1024n), ".000000000001Ki" (2n).
func TestQuantityParseEmitUpstream(t *testing.T) {
	tests := []struct{ in, expect string }{
		{"1Ki", "1Ki"},
		{"1Mi", "1Mi"},
		{"1Gi", "1Gi"},
		{"1024Mi", "1Gi"},
		{"1000M", "1G"},
		{".001Ki", "1024m"},
	}
	for _, tt := range tests {
		for _, sign := range []string{"", "-"} {
			q, err := ParseQuantity(sign + tt.in)
			if err != nil {
				t.Errorf("ParseQuantity(%q): %v", sign+tt.in, err)
				continue
			}
			if got := q.String(); got != sign+tt.expect {
				t.Errorf("ParseQuantity(%q).String() = %q, want %q", sign+tt.in, got, sign+tt.expect)
			}
		}
	}
}

// TestQuantityCmpUpstream ports TestQuantityCmp's parsed rows. Left out:
// {"10000T", "100Gi", 1}, 10000T being beyond int64 milli-units.
func TestQuantityCmpUpstream(t *testing.T) {
	for _, tt := range []struct {
		x, y   string
		expect int
	}{
		{"0", "0", 0},
		{"100m", "50m", 1},
		{"50m", "100m", -1},
	} {
		if got := MustParseQuantity(tt.x).Cmp(MustParseQuantity(tt.y)); got != tt.expect {
			t.Errorf("%s.Cmp(%s) = %d, want %d", tt.x, tt.y, got, tt.expect)
		}
	}
}

// TestQuantityZeroPreservesSuffixUpstream ports
// TestQuantityAddZeroPreservesSuffix and TestQuantitySubZeroPreservesSuffix.
func TestQuantityZeroPreservesSuffixUpstream(t *testing.T) {
	for _, s := range []string{"100m", "1Gi"} {
		v := MustParseQuantity(s)
		v1 := v
		v1.Add(MustParseQuantity("0"))
		v2 := MustParseQuantity("0")
		v2.Add(v)
		v3 := v
		v3.Sub(MustParseQuantity("0"))
		v4 := MustParseQuantity("0")
		v4.Sub(v)
		if v1.String() != s || v2.String() != s || v3.String() != s || v4.String() != "-"+s {
			t.Errorf("%s: %s + 0 = %s, 0 + %s = %s, %s - 0 = %s, 0 - %s = %s", s, s, v1.String(), s, v2.String(), s, v3.String(), s, v4.String())
		}
	}
}

// TestMilliNewSetUpstream ports TestMilliNewSet and TestNewSet.
func TestMilliNewSetUpstream(t *testing.T) {
	for _, tt := range []struct {
		value  int64
		format Format
		expect string
		exact  bool
	}{
		{1, DecimalSI, "1m", true},
		{1000, DecimalSI, "1", true},
		{1234000, DecimalSI, "1234", true},
		{1024, BinarySI, "1024m", false}, // Format changes
		{1000000, "invalidFormatDefaultsToExponent", "1e3", true},
		{1024 * 1024, BinarySI, "1048576m", false}, // Format changes
	} {
		q := NewMilliQuantity(tt.value, tt.format)
		if got := q.String(); got != tt.expect {
			t.Errorf("NewMilliQuantity(%d, %s) = %q, want %q", tt.value, tt.format, got, tt.expect)
		}
		if tt.exact {
			if p, err := ParseQuantity(q.String()); err != nil || p.MilliValue() != tt.value {
				t.Errorf("%q: round trip %d %v, want %d", q.String(), p.MilliValue(), err, tt.value)
			}
		}
	}
	for _, tt := range []struct {
		value  int64
		format Format
		expect string
	}{
		{1, DecimalSI, "1"},
		{1000, DecimalSI, "1k"},
		{1234000, DecimalSI, "1234k"},
		{1024, BinarySI, "1Ki"},
		{1000000, "invalidFormatDefaultsToExponent", "1e6"},
		{1024 * 1024, BinarySI, "1Mi"},
	} {
		q := NewQuantity(tt.value, tt.format)
		if got := q.String(); got != tt.expect {
			t.Errorf("NewQuantity(%d, %s) = %q, want %q", tt.value, tt.format, got, tt.expect)
		}
		if p, err := ParseQuantity(q.String()); err != nil || p.Value() != tt.value {
			t.Errorf("%q: round trip %d %v, want %d", q.String(), p.Value(), err, tt.value)
		}
	}
}

// TestNegativeValueRoundsAwayFromZeroUpstream ports
// TestNegativeValueRoundsAwayFromZero: Value and MilliValue round away
// from zero.
func TestNegativeValueRoundsAwayFromZeroUpstream(t *testing.T) {
	for _, tt := range []struct {
		input       string
		expectValue int64
		expectMilli int64
	}{
		{"-.484785E-7466", -1, -1},
		{".484785E-7466", 1, 1},
		{"-.484785E-1", -1, -49},
		{".484785E-1", 1, 49},
		{"-0.0005", -1, -1},
		{"0.0005", 1, 1},
		{"-1500m", -2, -1500},
		{"1500m", 2, 1500},
		{"-9.5000000001Gi", -10200547329, -10200547328108},
		{"9.5000000001Gi", 10200547329, 10200547328108},
		{"-1", -1, -1000},
		{"1", 1, 1000},
		{"0", 0, 0},
	} {
		q, err := ParseQuantity(tt.input)
		if err != nil {
			t.Errorf("ParseQuantity(%q): %v", tt.input, err)
			continue
		}
		if q.Value() != tt.expectValue || q.MilliValue() != tt.expectMilli {
			t.Errorf("ParseQuantity(%q): Value %d MilliValue %d, want %d %d", tt.input, q.Value(), q.MilliValue(), tt.expectValue, tt.expectMilli)
		}
	}
}

// TestQuantityAddSubUpstream ports TestAdd and TestSub.
func TestQuantityAddSubUpstream(t *testing.T) {
	n := NewQuantity
	for i, tt := range []struct {
		a, b     Quantity
		sub      bool
		expected Quantity
	}{
		{n(10, DecimalSI), n(10, DecimalSI), false, n(20, DecimalSI)},
		{n(10, DecimalSI), n(1, BinarySI), false, n(11, DecimalSI)},
		{n(10, BinarySI), n(1, DecimalSI), false, n(11, BinarySI)},
		{Quantity{format: DecimalSI}, n(50, DecimalSI), false, n(50, DecimalSI)},
		{n(50, DecimalSI), Quantity{format: DecimalSI}, false, n(50, DecimalSI)},
		{Quantity{format: DecimalSI}, Quantity{format: DecimalSI}, false, n(0, DecimalSI)},
		{n(10, DecimalSI), n(10, DecimalSI), true, n(0, DecimalSI)},
		{n(10, DecimalSI), n(1, BinarySI), true, n(9, DecimalSI)},
		{n(10, BinarySI), n(1, DecimalSI), true, n(9, BinarySI)},
		{Quantity{format: DecimalSI}, n(50, DecimalSI), true, n(-50, DecimalSI)},
		{n(50, DecimalSI), Quantity{format: DecimalSI}, true, n(50, DecimalSI)},
		{Quantity{format: DecimalSI}, Quantity{format: DecimalSI}, true, n(0, DecimalSI)},
	} {
		if tt.sub {
			tt.a.Sub(tt.b)
		} else {
			tt.a.Add(tt.b)
		}
		if tt.a.Cmp(tt.expected) != 0 {
			t.Errorf("[%d] got %s, want %s", i, tt.a.String(), tt.expected.String())
		}
	}
}

// TestQuantityJSONWhitespaceUpstream ports TestJSONWhitespace.
func TestQuantityJSONWhitespaceUpstream(t *testing.T) {
	for _, tt := range []struct{ in, expect string }{
		{`" 1"`, "1"},
		{`"1 "`, "1"},
		{`1`, "1"},
		{` 1`, "1"},
		{`1 `, "1"},
		{`10`, "10"},
		{`-1`, "-1"},
		{` -1`, "-1"},
	} {
		var q Quantity
		if err := json.Unmarshal([]byte(tt.in), &q); err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		if q.String() != tt.expect {
			t.Errorf("%q: String() = %q, want %q", tt.in, q.String(), tt.expect)
		}
	}
}

// TestStringQuantityAsApproximateFloat64Upstream ports
// TestStringQuantityAsApproximateFloat64.
func TestStringQuantityAsApproximateFloat64Upstream(t *testing.T) {
	for _, tt := range []struct {
		in  string
		out float64
	}{
		{"2Ki", 2048},
		{"1.1Ki", 1126.4e+0},
		{"1Mi", 1.048576e+06},
		{"2Gi", 2.147483648e+09},
	} {
		if got := MustParseQuantity(tt.in).AsApproximateFloat64(); got != tt.out {
			t.Errorf("%s: %v, want %v", tt.in, got, tt.out)
		}
	}
}

// TestInterpretExponentInt32BoundsUpstream ports
// TestInterpretExponentInt32Bounds: an exponent suffix is read at 64 bits
// and must lie in [-MaxInt32, MaxInt32]; MinInt32 is refused too, as
// upstream negates it into a scale. The rows then go through
// ParseQuantity: an accepted exponent parses or is out of our range, a
// refused one is ErrQuantitySuffix.
func TestInterpretExponentInt32BoundsUpstream(t *testing.T) {
	for _, tt := range []struct {
		suffix  string
		wantExp int
		wantOK  bool
	}{
		{"e14", 14, true},
		{"E2147483647", 2147483647, true},   // MaxInt32
		{"E-2147483647", -2147483647, true}, // -MaxInt32
		{"E2147483648", 0, false},           // MaxInt32 + 1
		{"E-2147483648", 0, false},          // MinInt32
		{"E4294967297", 0, false},           // 2^32 + 1
		{"E8589934592", 0, false},           // 2^33
		{"E9223372036854775807", 0, false},  // MaxInt64
		{"E9223372036854775808", 0, false},  // past int64
		{"E6024865272343", 0, false},        // far past int32
	} {
		base, exp, format, ok := interpretSuffix(tt.suffix)
		if ok != tt.wantOK || (ok && (exp != tt.wantExp || base != 10 || format != DecimalExponent)) {
			t.Errorf("interpretSuffix(%q) = %d, %d, %s, %v; want exponent %d, %v", tt.suffix, base, exp, format, ok, tt.wantExp, tt.wantOK)
		}
		_, err := ParseQuantity("1" + tt.suffix)
		if !tt.wantOK && err != ErrQuantitySuffix {
			t.Errorf("ParseQuantity(%q): %v, want %v", "1"+tt.suffix, err, ErrQuantitySuffix)
		}
	}
}

// TestQuantityKeptTextUpstream follows what TestQuantityString checks of
// the text ParseQuantity keeps (a canonical string is kept, an alternate
// spelling is not): String and MarshalJSON return the parsed text where
// upstream's ParseQuantity keeps it, else the canonical form. The
// expected values are k8s.io/apimachinery v0.37.2's, as is the last
// block: a number without digits is 0 on upstream's int64 fast path and
// "unable to parse numeric part of quantity" off it.
func TestQuantityKeptTextUpstream(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"33E09", "33E09"},
		{"333.", "333."},
		{"1000m", "1"},
		{"0.5", "500m"},
		{"1024Mi", "1Gi"},
		{"100Mi", "100Mi"},
		{"+1", "+1"},
		{"007", "007"},
		{"1.500G", "1.500G"},
		{"1.5Gi", "1536Mi"},
		{"8Ki", "8Ki"},
		{"0.05", "50m"},
		{"2000m", "2"},
		{"1e3", "1e3"},
		{"1E3", "1E3"},
		{"12e-3", "12e-3"},
		{"128974848", "128974848"},
		{"129e6", "129e6"},
		{"1.5G", "1500M"},
		{"16Gi", "16Gi"},
		{"3920m", "3920m"},
		{"Ki", "0"},
		{"e-9", "0"},
		{".", "0"},
		{"-", "0"},
	} {
		q, err := ParseQuantity(tt.in)
		if err != nil {
			t.Errorf("ParseQuantity(%q): %v", tt.in, err)
			continue
		}
		b, _ := json.Marshal(q)
		if q.String() != tt.want || string(b) != `"`+tt.want+`"` {
			t.Errorf("ParseQuantity(%q): String %q JSON %s, want %q", tt.in, q.String(), b, tt.want)
		}
	}
	for _, in := range []string{"Pi", "E-10", "-.Pi", "+Ei", "-e-33"} {
		if _, err := ParseQuantity(in); err != ErrQuantityNumeric {
			t.Errorf("ParseQuantity(%q): %v, want %v", in, err, ErrQuantityNumeric)
		}
	}
}
