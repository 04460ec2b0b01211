package api

import (
	"encoding/json"
	"errors"
	"strconv"
	"testing"
)

func TestIntOrStringJSON(t *testing.T) {
	tests := []struct {
		in   string
		want IntOrString
	}{
		{`80`, FromInt32(80)},
		{`"http"`, FromString("http")},
		{`"25%"`, FromString("25%")},
		{`"8080"`, FromString("8080")},
		{`0`, FromInt32(0)},
	}
	for _, tt := range tests {
		var v IntOrString
		if err := json.Unmarshal([]byte(tt.in), &v); err != nil {
			t.Fatalf("%s: %v", tt.in, err)
		}
		if v != tt.want {
			t.Errorf("%s decoded %+v, want %+v", tt.in, v, tt.want)
		}
		out, err := json.Marshal(v)
		if err != nil || string(out) != tt.in {
			t.Errorf("%s re-encoded %s (%v)", tt.in, out, err)
		}
	}
	var v IntOrString
	if err := json.Unmarshal([]byte(`true`), &v); err == nil {
		t.Error("bool accepted")
	}
	if _, err := json.Marshal(IntOrString{Type: 9}); err == nil {
		t.Error("bad type encoded")
	}
	if FromString("25%").String() != "25%" || FromInt32(3).String() != "3" {
		t.Error("String")
	}
	if ParseIntOrString("12") != FromInt32(12) || ParseIntOrString("12%") != FromString("12%") {
		t.Error("ParseIntOrString")
	}
	if FromString("7").IntValue() != 7 || FromString("x").IntValue() != 0 {
		t.Error("IntValue")
	}
}

func TestGetScaledValueFromIntOrPercent(t *testing.T) {
	tests := []struct {
		v       IntOrString
		total   int
		roundUp bool
		want    int
		err     string
	}{
		{FromString("39%"), 10, true, 4, ""},
		{FromString("39%"), 10, false, 3, ""},
		{FromString("0%"), 0, true, 0, ""},
		{FromString("0%"), 0, false, 0, ""},
		{FromString("25%"), 1, true, 1, ""},
		{FromString("25%"), 1, false, 0, ""},
		{FromString("25%"), 4, false, 1, ""},
		{FromString("25%"), 10, true, 3, ""},
		{FromString("25%"), 10, false, 2, ""},
		{FromString("100%"), 7, false, 7, ""},
		{FromString("150%"), 10, true, 15, ""},
		{FromInt32(5), 10, true, 5, ""},
		{FromInt32(5), 3, false, 5, ""},
		{FromString("oops"), 10, true, 0, "invalid value for IntOrString: invalid type: string is not a percentage"},
		{FromString("5"), 10, true, 0, "invalid value for IntOrString: invalid type: string is not a percentage"},
		{FromString("oops%"), 10, true, 0, `invalid value for IntOrString: invalid value "oops%": strconv.Atoi: parsing "oops": invalid syntax`},
		{IntOrString{Type: 7}, 10, true, 0, "invalid value for IntOrString: invalid type: neither int nor percentage"},
	}
	for _, tt := range tests {
		got, err := GetScaledValueFromIntOrPercent(&tt.v, tt.total, tt.roundUp)
		if tt.err != "" {
			var ie *IntOrStringError
			if err == nil || err.Error() != tt.err || !errors.As(err, &ie) {
				t.Errorf("%v of %d: error %v, want %q", tt.v, tt.total, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%v of %d (up=%v) = %d, %v; want %d", tt.v, tt.total, tt.roundUp, got, err, tt.want)
		}
	}
	_, err := GetScaledValueFromIntOrPercent(&IntOrString{Type: IntOrStringString, StrVal: "x%"}, 1, true)
	var ne *strconv.NumError
	if !errors.As(err, &ne) {
		t.Errorf("cause not reachable: %v", err)
	}
	if _, err := GetScaledValueFromIntOrPercent(nil, 1, true); !errors.Is(err, ErrNilIntOrString) {
		t.Errorf("nil: %v", err)
	}
}

// TestResolveFenceposts runs the upstream TestResolveFenceposts table
// (KUBERNETES.md appendix) through the rolling-update arithmetic built on
// GetScaledValueFromIntOrPercent: surge rounds up, unavailable rounds down,
// nil counts as 0, and both 0 means unavailable 1.
func TestResolveFenceposts(t *testing.T) {
	resolve := func(maxSurge, maxUnavailable *string, desired int) (int, int, error) {
		zero := FromInt32(0)
		surge, unavail := &zero, &zero
		if maxSurge != nil {
			v := ParseIntOrString(*maxSurge)
			surge = &v
		}
		if maxUnavailable != nil {
			v := ParseIntOrString(*maxUnavailable)
			unavail = &v
		}
		s, err := GetScaledValueFromIntOrPercent(surge, desired, true)
		if err != nil {
			return 0, 0, err
		}
		u, err := GetScaledValueFromIntOrPercent(unavail, desired, false)
		if err != nil {
			return 0, 0, err
		}
		if s == 0 && u == 0 {
			u = 1
		}
		return s, u, nil
	}
	str := func(s string) *string { return &s }
	tests := []struct {
		maxSurge, maxUnavailable *string
		desired, surge, unavail  int
		err                      bool
	}{
		{str("0%"), str("0%"), 0, 0, 1, false},
		{str("39%"), str("39%"), 10, 4, 3, false},
		{str("oops"), str("39%"), 10, 0, 0, true},
		{str("55%"), str("urg"), 10, 0, 0, true},
		{nil, str("39%"), 10, 0, 3, false},
		{str("39%"), nil, 10, 4, 0, false},
		{nil, nil, 10, 0, 1, false},
	}
	for i, tt := range tests {
		s, u, err := resolve(tt.maxSurge, tt.maxUnavailable, tt.desired)
		if (err != nil) != tt.err || s != tt.surge || u != tt.unavail {
			t.Errorf("row %d: got (%d, %d, %v), want (%d, %d, err=%v)", i, s, u, err, tt.surge, tt.unavail, tt.err)
		}
	}
}
