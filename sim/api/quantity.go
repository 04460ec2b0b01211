package api

import (
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
)

// Format is the suffix family a Quantity prints with.
type Format string

const (
	// DecimalExponent prints with a power-of-ten exponent, e.g. "12e6".
	DecimalExponent Format = "DecimalExponent"
	// BinarySI prints with a power-of-two suffix, e.g. "12Mi".
	BinarySI Format = "BinarySI"
	// DecimalSI prints with a decimal SI suffix, e.g. "12M" or "500m".
	DecimalSI Format = "DecimalSI"
)

var (
	// ErrQuantityFormat is upstream's error for text that is not a quantity
	// at all; its message is apimachinery's, verbatim.
	ErrQuantityFormat = errors.New("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")
	// ErrQuantityNumeric is upstream's error for a numeric part that cannot
	// be parsed.
	ErrQuantityNumeric = errors.New("unable to parse numeric part of quantity")
	// ErrQuantitySuffix is upstream's error for an unknown suffix such as
	// "Zi" or a bare "e".
	ErrQuantitySuffix = errors.New("unable to parse quantity's suffix")
	// ErrQuantityRange reports a quantity beyond what the simulator stores:
	// int64 milli-units, that is ±9223372036854775.807 (about 8Pi bytes).
	// Upstream accepts larger values; no simulated cluster needs them.
	ErrQuantityRange = errors.New("quantity out of range: magnitude must be below 2^63 milli-units")
)

// Quantity is a Kubernetes resource quantity ("500m", "128Mi", "2"). It is
// stored exactly as int64 milli-units: values finer than 1m are rounded
// away from zero when parsed, as the API server does when it defaults
// resource lists to milli precision. A parsed Quantity keeps its text when
// upstream would (keepsText), so that it prints and re-encodes unchanged;
// other text, and arithmetic, give the canonical form. The zero value is
// 0. Quantity is a value type: copy it by assignment.
type Quantity struct {
	milli  int64
	format Format
	s      string // the text it was parsed from; "" once computed
}

// ParseQuantity parses s (for example "500m", "1.5Gi", "129e6", "+1") with
// apimachinery's grammar. It returns ErrQuantityFormat, ErrQuantityNumeric,
// ErrQuantitySuffix or ErrQuantityRange on bad input.
func ParseQuantity(s string) (Quantity, error) {
	if len(s) == 0 {
		return Quantity{}, ErrQuantityFormat
	}
	if s == "0" {
		// The zero value: so that a quantity given as 0 and one left null
		// are the same value, and both print as "0".
		return Quantity{}, nil
	}
	positive, num, denom, suffix, err := splitQuantity(s)
	if err != nil {
		return Quantity{}, err
	}
	base, exponent, format, ok := interpretSuffix(suffix)
	if !ok {
		return Quantity{}, ErrQuantitySuffix
	}
	if !strings.ContainsAny(s[:len(s)-len(suffix)], "0123456789") && !digitlessFastPath(base, exponent) {
		// Upstream reads a number without digits ("", "-", ".") as 0 only
		// on its int64 fast path; elsewhere inf.Dec refuses the text:
		// "Ki" and "e-9" are 0, "Pi" and "E-10" are not numbers.
		return Quantity{}, ErrQuantityNumeric
	}
	milli, err := toMilli(num, denom, base, exponent)
	if err != nil {
		return Quantity{}, err
	}
	if format == BinarySI && milli > 0 && milli < 1000 {
		// Upstream prints fractional binary quantities as decimal.
		format = DecimalSI
	}
	if !positive {
		milli = -milli
	}
	q := Quantity{milli: milli, format: format}
	if keepsText(num, denom, base, exponent) {
		// Kept only where it differs from the canonical form, so that a
		// quantity decoded from its own encoding is the same value.
		var buf [32]byte
		if string(q.appendCanonical(buf[:0])) != s {
			q.s = s
		}
	}
	return q, nil
}

// digitlessFastPath reports whether upstream's ParseQuantity takes its
// int64 fast path for a number without digits: a decimal scale of at
// least -9, or a binary suffix up to Ti (its precision estimate
// 15 - 1 - exponent*3/10 - 1 is not negative).
func digitlessFastPath(base, exponent int) bool {
	if base == 10 {
		return exponent >= -9
	}
	return 13-exponent*3/10 >= 0
}

// keepsText reports whether upstream's ParseQuantity keeps the text it
// parsed, which String and MarshalJSON then return unchanged; otherwise
// they print the canonical form ("1000m" is "1", "0.5" is "500m",
// "1024Mi" is "1Gi"). Upstream keeps it on its int64 fast path when the
// text looks canonical: a decimal amount whose digits do not start with 0
// or end in 000 and whose scale is a multiple of 3 ("500m", "33E09",
// "+1", "007", "1."), or a binary one with no fraction whose number is
// not a multiple of 8 ("100Mi", "1Gi"). Text finer than 1m ("5n") is not
// kept, as the amount is rounded here.
func keepsText(num, denom string, base, exponent int) bool {
	digits := num + denom
	if base == 10 {
		scale := exponent - len(denom)
		if len(digits) > 18 || scale < -3 || scale%3 != 0 {
			return false
		}
		return digits[0] != '0' && !strings.HasSuffix(digits, "000")
	}
	// upstream's precision estimate for the fast path: 15 - len(num) -
	// exponent*3/10 - 1 must not be negative.
	if denom != "" || 15-len(num)-exponent*3/10-1 < 0 {
		return false
	}
	v, err := strconv.ParseInt(num, 10, 64)
	if err != nil || v > math.MaxInt64>>uint(exponent) {
		return false
	}
	return exponent%10 == 0 && v&7 != 0
}

// MustParseQuantity is ParseQuantity for literals in code and tests; it
// panics on bad input, so never call it on data.
func MustParseQuantity(s string) Quantity {
	q, err := ParseQuantity(s)
	if err != nil {
		panic("api.MustParseQuantity(" + strconv.Quote(s) + "): " + err.Error())
	}
	return q
}

// NewQuantity returns v whole units in the given format, saturating at the
// storable range.
func NewQuantity(v int64, format Format) Quantity {
	return Quantity{milli: mulSat(v, 1000), format: format}
}

// NewMilliQuantity returns v thousandths of a unit (v millicores for cpu) in
// the given format.
func NewMilliQuantity(v int64, format Format) Quantity {
	return Quantity{milli: clampMilli(v), format: format}
}

// splitQuantity mirrors apimachinery's parseQuantityString: an optional
// sign, digits with at most one '.', then a suffix.
func splitQuantity(str string) (positive bool, num, denom, suffix string, err error) {
	positive = true
	pos, end := 0, len(str)
	switch str[0] {
	case '-':
		positive = false
		pos++
	case '+':
		pos++
	}
	for pos < end && str[pos] == '0' {
		pos++
	}
	start := pos
	for pos < end && isDigit(str[pos]) {
		pos++
	}
	num = str[start:pos]
	if num == "" {
		num = "0"
	}
	if pos < end && str[pos] == '.' {
		pos++
		start = pos
		for pos < end && isDigit(str[pos]) {
			pos++
		}
		denom = str[start:pos]
	}
	suffixStart := pos
	for pos < end && strings.IndexByte("eEinumkKMGTP", str[pos]) >= 0 {
		pos++
	}
	if pos < end && (str[pos] == '-' || str[pos] == '+') {
		pos++
	}
	for pos < end && isDigit(str[pos]) {
		pos++
	}
	if pos != end {
		return false, "", "", "", ErrQuantityFormat
	}
	return positive, num, denom, str[suffixStart:end], nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

var decimalSuffixes = map[string]int{"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}

var binarySuffixes = map[string]int{"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}

// interpretSuffix maps a suffix to base^exponent and the format it implies.
func interpretSuffix(s string) (base, exponent int, format Format, ok bool) {
	if e, ok := decimalSuffixes[s]; ok {
		return 10, e, DecimalSI, true
	}
	if e, ok := binarySuffixes[s]; ok {
		return 2, e, BinarySI, true
	}
	if len(s) > 1 && (s[0] == 'e' || s[0] == 'E') {
		// Upstream stores the exponent in an int32 scale that it negates,
		// so it refuses MinInt32 as well as anything past int32.
		e, err := strconv.ParseInt(s[1:], 10, 64)
		if err != nil || e > math.MaxInt32 || e < -math.MaxInt32 {
			return 0, 0, DecimalExponent, false
		}
		return 10, int(e), DecimalExponent, true
	}
	return 0, 0, DecimalExponent, false
}

var pow10 = [...]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18}

// toMilli returns |num.denom × base^exponent| × 1000, rounded up.
func toMilli(num, denom string, base, exponent int) (int64, error) {
	digits := strings.TrimLeft(num+denom, "0")
	if digits == "" {
		return 0, nil
	}
	d := len(digits)
	exp10, exp2 := 3-len(denom), 0
	if base == 10 {
		exp10 += exponent
	} else {
		exp2 = exponent
	}
	// digits >= 10^(d-1), so beyond this the result cannot fit.
	if d-1+exp10 > 18 {
		return 0, ErrQuantityRange
	}
	// digits < 10^d and 2^exp2 <= 2^60, so below this the result is in (0,1).
	if exp10 < -(d + 19) {
		return 1, nil
	}
	if d <= 18 && exp10 >= 0 && d+exp10 <= 18 {
		x, err := strconv.ParseUint(digits, 10, 64)
		if err != nil {
			return 0, ErrQuantityNumeric
		}
		x *= pow10[exp10]
		if bits.Len64(x)+exp2 <= 62 {
			return int64(x << uint(exp2)), nil
		}
	}
	n, ok := new(big.Int).SetString(digits, 10)
	if !ok {
		return 0, ErrQuantityNumeric
	}
	ten := big.NewInt(10)
	if exp10 > 0 {
		n.Mul(n, new(big.Int).Exp(ten, big.NewInt(int64(exp10)), nil))
	}
	n.Lsh(n, uint(exp2))
	if exp10 < 0 {
		r := new(big.Int)
		n.QuoRem(n, new(big.Int).Exp(ten, big.NewInt(int64(-exp10)), nil), r)
		if r.Sign() != 0 {
			n.Add(n, big.NewInt(1))
		}
	}
	if !n.IsInt64() {
		return 0, ErrQuantityRange
	}
	return n.Int64(), nil
}

// MilliValue returns q in thousandths of a unit (millicores for cpu).
func (q Quantity) MilliValue() int64 { return q.milli }

// Value returns q in whole units, rounded up away from zero like upstream
// (so 1500m is 2 and -1500m is -2).
func (q Quantity) Value() int64 {
	if q.milli >= 0 {
		return q.milli/1000 + sign(q.milli%1000)
	}
	return q.milli/1000 - sign(-(q.milli % 1000))
}

func sign(v int64) int64 {
	if v > 0 {
		return 1
	}
	return 0
}

// AsApproximateFloat64 returns q in units as a float64, for ratios such as
// utilisation where exactness does not matter.
func (q Quantity) AsApproximateFloat64() float64 { return float64(q.milli) / 1000 }

// Format returns the suffix family q prints with.
func (q Quantity) Format() Format {
	if q.format == "" {
		return DecimalSI // the zero value is a decimal 0
	}
	return q.format
}

// IsZero reports whether q is 0.
func (q Quantity) IsZero() bool { return q.milli == 0 }

// Cmp returns -1, 0 or 1 as q is less than, equal to or greater than y.
func (q Quantity) Cmp(y Quantity) int {
	switch {
	case q.milli < y.milli:
		return -1
	case q.milli > y.milli:
		return 1
	}
	return 0
}

// Equal reports whether q and y are the same amount, whatever their text.
func (q Quantity) Equal(y Quantity) bool { return q.milli == y.milli }

// Add adds y to q, saturating at the storable range. A zero q takes y's
// format, as upstream does.
func (q *Quantity) Add(y Quantity) {
	if q.milli == 0 {
		q.format = y.format
	}
	q.s = ""
	q.milli = addSat(q.milli, y.milli)
}

// Sub subtracts y from q, saturating at the storable range.
func (q *Quantity) Sub(y Quantity) {
	if q.milli == 0 {
		q.format = y.format
	}
	q.s = ""
	q.milli = addSat(q.milli, -y.milli)
}

func clampMilli(v int64) int64 {
	if v == math.MinInt64 {
		return -math.MaxInt64
	}
	return v
}

func addSat(a, b int64) int64 {
	s := a + b
	switch {
	case a > 0 && b > 0 && s < 0:
		return math.MaxInt64
	case a < 0 && b < 0 && s >= 0:
		return -math.MaxInt64
	}
	return clampMilli(s)
}

func mulSat(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	p := a * b
	if p/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		if (a < 0) != (b < 0) {
			return -math.MaxInt64
		}
		return math.MaxInt64
	}
	return clampMilli(p)
}

var decimalSuffixByExp = map[int]string{-9: "n", -6: "u", -3: "m", 0: "", 3: "k", 6: "M", 9: "G", 12: "T", 15: "P", 18: "E"}

var binarySuffixByPow = [...]string{"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}

// String returns the text q was parsed from when upstream keeps it (see
// keepsText), else upstream's canonical form: "500m", "100Mi", "2",
// "1500m" for 1.5, "1500M" for 1.5G, "129e6".
func (q Quantity) String() string {
	if q.s != "" {
		return q.s
	}
	return q.canonical()
}

// canonical is upstream's CanonicalizeBytes for q.
func (q Quantity) canonical() string {
	var buf [32]byte
	return string(q.appendCanonical(buf[:0]))
}

// appendCanonical appends q's canonical form to dst.
func (q Quantity) appendCanonical(dst []byte) []byte {
	if q.milli == 0 {
		return append(dst, '0')
	}
	format := q.format
	switch format {
	case DecimalExponent, DecimalSI:
	case BinarySI:
		if (q.milli > -1024000 && q.milli < 1024000) || q.milli%1000 != 0 {
			format = DecimalSI // avoid rounding and confusion, as upstream
		}
	default:
		format = DecimalExponent
	}
	if format == BinarySI {
		v, times := q.milli/1000, 0
		for (v >= 1024 || v <= -1024) && v%1024 == 0 {
			v /= 1024
			times++
		}
		return append(strconv.AppendInt(dst, v, 10), binarySuffixByPow[times]...)
	}
	m, exp := q.milli, -3
	for (m >= 10 || m <= -10) && m%10 == 0 {
		m /= 10
		exp++
	}
	switch exp % 3 {
	case 1, -2:
		m *= 10
		exp--
	case 2, -1:
		m *= 100
		exp -= 2
	}
	dst = strconv.AppendInt(dst, m, 10)
	if format == DecimalSI {
		if suffix, ok := decimalSuffixByExp[exp]; ok {
			return append(dst, suffix...)
		}
	}
	if exp == 0 {
		return dst
	}
	return strconv.AppendInt(append(dst, 'e'), int64(exp), 10)
}

// MarshalJSON writes q as a JSON string: its String, the text it was
// parsed from when upstream keeps it, else the canonical form.
func (q Quantity) MarshalJSON() ([]byte, error) {
	s := q.s
	if s == "" {
		s = q.String()
	}
	out := make([]byte, 0, len(s)+2)
	out = append(out, '"')
	out = append(out, s...)
	return append(out, '"'), nil
}

// UnmarshalJSON accepts a JSON string ("2", "500m") or number (2, 0.5);
// null leaves the zero Quantity.
func (q *Quantity) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*q = Quantity{}
		return nil
	}
	s := string(b)
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
	}
	parsed, err := ParseQuantity(strings.TrimSpace(s))
	if err != nil {
		return err
	}
	*q = parsed
	return nil
}
