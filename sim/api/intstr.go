package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// IntOrStringType says which member of an IntOrString is set.
type IntOrStringType int64

const (
	// IntOrStringInt means IntVal holds the value.
	IntOrStringInt IntOrStringType = iota
	// IntOrStringString means StrVal holds the value.
	IntOrStringString
)

// String returns "Int" or "String".
func (t IntOrStringType) String() string {
	switch t {
	case IntOrStringInt:
		return "Int"
	case IntOrStringString:
		return "String"
	}
	return "IntOrStringType(" + strconv.FormatInt(int64(t), 10) + ")"
}

// IntOrString holds an int32 or a string, like apimachinery's intstr: ports
// ("8080" or "http") and rolling-update budgets (2 or "25%"). In JSON it is
// a bare number or a string. It is a value type: copy it by assignment.
type IntOrString struct {
	// Type says which member holds the value.
	Type IntOrStringType
	// IntVal is the value when Type is IntOrStringInt.
	IntVal int32
	// StrVal is the value when Type is IntOrStringString.
	StrVal string
}

// FromInt32 returns an IntOrString holding v.
func FromInt32(v int32) IntOrString { return IntOrString{Type: IntOrStringInt, IntVal: v} }

// FromString returns an IntOrString holding s.
func FromString(s string) IntOrString { return IntOrString{Type: IntOrStringString, StrVal: s} }

// ParseIntOrString returns an int IntOrString when s is a decimal int32 and
// a string IntOrString otherwise, as intstr.Parse does.
func ParseIntOrString(s string) IntOrString {
	if v, err := strconv.ParseInt(s, 10, 32); err == nil {
		return FromInt32(int32(v))
	}
	return FromString(s)
}

// String returns the string member, or the int member in decimal.
func (v IntOrString) String() string {
	if v.Type == IntOrStringString {
		return v.StrVal
	}
	return strconv.Itoa(int(v.IntVal))
}

// IntValue returns the int member, or the string member parsed as an
// integer (0 when it is not one), as upstream does.
func (v IntOrString) IntValue() int {
	if v.Type == IntOrStringString {
		i, _ := strconv.Atoi(v.StrVal)
		return i
	}
	return int(v.IntVal)
}

// MarshalJSON writes a JSON number or string.
func (v IntOrString) MarshalJSON() ([]byte, error) {
	switch v.Type {
	case IntOrStringInt:
		return json.Marshal(v.IntVal)
	case IntOrStringString:
		return json.Marshal(v.StrVal)
	}
	return nil, errors.New("impossible IntOrString.Type")
}

// UnmarshalJSON accepts a JSON number or string.
func (v *IntOrString) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		v.Type = IntOrStringString
		return json.Unmarshal(b, &v.StrVal)
	}
	v.Type = IntOrStringInt
	return json.Unmarshal(b, &v.IntVal)
}

// IntOrStringError is the error GetScaledValueFromIntOrPercent returns for
// a value that is neither an int nor a percentage; its message is
// apimachinery's, e.g. "invalid value for IntOrString: invalid type: string
// is not a percentage".
type IntOrStringError struct {
	Value IntOrString // the offending value
	Err   error       // the cause, a *strconv.NumError for "oops%"
}

// Error returns apimachinery's message.
func (e *IntOrStringError) Error() string {
	return "invalid value for IntOrString: " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *IntOrStringError) Unwrap() error { return e.Err }

// ErrNilIntOrString is returned by GetScaledValueFromIntOrPercent for a nil
// value; the message is apimachinery's.
var ErrNilIntOrString = errors.New("nil value for IntOrString")

// GetScaledValueFromIntOrPercent resolves an int or a percentage of total,
// exactly as apimachinery: "25%" of 10 is 3 rounded up and 2 rounded down;
// an int is returned as is. A string without '%' and a non-numeric percent
// are *IntOrStringError values.
func GetScaledValueFromIntOrPercent(intOrPercent *IntOrString, total int, roundUp bool) (int, error) {
	if intOrPercent == nil {
		return 0, ErrNilIntOrString
	}
	value, isPercent, err := intOrPercentValue(intOrPercent)
	if err != nil {
		return 0, &IntOrStringError{Value: *intOrPercent, Err: err}
	}
	if isPercent {
		if roundUp {
			value = int(math.Ceil(float64(value) * float64(total) / 100))
		} else {
			value = int(math.Floor(float64(value) * float64(total) / 100))
		}
	}
	return value, nil
}

func intOrPercentValue(v *IntOrString) (int, bool, error) {
	switch v.Type {
	case IntOrStringInt:
		return v.IntValue(), false, nil
	case IntOrStringString:
		s, ok := strings.CutSuffix(v.StrVal, "%")
		if !ok {
			return 0, false, errors.New("invalid type: string is not a percentage")
		}
		n, err := strconv.Atoi(s)
		if err != nil {
			return 0, false, fmt.Errorf("invalid value %q: %w", v.StrVal, err)
		}
		return n, true, nil
	}
	return 0, false, errors.New("invalid type: neither int nor percentage")
}
