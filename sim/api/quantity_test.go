package api

import (
	"encoding/json"
	"errors"
	"math"
	"testing"
)

func TestParseQuantity(t *testing.T) {
	tests := []struct {
		in        string
		milli     int64
		canonical string
		format    Format
	}{
		{"500m", 500, "500m", DecimalSI},
		{"100Mi", 100 << 20 * 1000, "100Mi", BinarySI},
		{"16Gi", 16 << 30 * 1000, "16Gi", BinarySI},
		{"1", 1000, "1", DecimalSI},
		{"0.5", 500, "500m", DecimalSI},
		{"1.5", 1500, "1500m", DecimalSI},
		{"1e3", 1000000, "1e3", DecimalExponent},
		{"1E3", 1000000, "1E3", DecimalExponent}, // upstream keeps text it deems canonical
		{"2k", 2000000, "2k", DecimalSI},
		{"1.5G", 1500000000000, "1500M", DecimalSI},
		{"128974848", 128974848000, "128974848", DecimalSI},
		{"129e6", 129000000000, "129e6", DecimalExponent},
		{"129M", 129000000000, "129M", DecimalSI},
		{"123Mi", 123 << 20 * 1000, "123Mi", BinarySI},
		{"1Ki", 1024000, "1Ki", BinarySI},
		{"+1", 1000, "+1", DecimalSI}, // kept, as upstream
		{"0", 0, "0", DecimalSI},
		{"-0", 0, "0", DecimalSI},
		{"1000m", 1000, "1", DecimalSI},
		{"-500m", -500, "-500m", DecimalSI},
		{"1.5Gi", 1536 << 20 * 1000, "1536Mi", BinarySI},
		{"1024Mi", 1 << 30 * 1000, "1Gi", BinarySI},
		{"0.5Ki", 512000, "512", BinarySI}, // below 1024 prints decimal
		{"0.5Mi", 524288000, "512Ki", BinarySI},
		{"1025Ki", 1025 << 10 * 1000, "1025Ki", BinarySI},
		{"1024", 1024000, "1024", DecimalSI},
		{"12e-3", 12, "12e-3", DecimalExponent},
		{"100u", 1, "1m", DecimalSI}, // below milli precision: rounded up
		{"1n", 1, "1m", DecimalSI},
		{"-1n", -1, "-1m", DecimalSI},
		{"0.0001Ki", 103, "103m", DecimalSI}, // fractional binary becomes decimal
		{"8Pi", 8 << 50 * 1000, "8Pi", BinarySI},
		{"007", 7000, "007", DecimalSI}, // kept, as upstream
		{".5", 500, "500m", DecimalSI},
		{"1e-20", 1, "1e-3", DecimalExponent},
		{"3920m", 3920, "3920m", DecimalSI},
		{"103677024Ki", 103677024 << 10 * 1000, "103677024Ki", BinarySI},
	}
	for _, tt := range tests {
		q, err := ParseQuantity(tt.in)
		if err != nil {
			t.Errorf("ParseQuantity(%q): %v", tt.in, err)
			continue
		}
		if q.MilliValue() != tt.milli || q.String() != tt.canonical || q.Format() != tt.format {
			t.Errorf("ParseQuantity(%q) = %d milli %q %s; want %d %q %s",
				tt.in, q.MilliValue(), q.String(), q.Format(), tt.milli, tt.canonical, tt.format)
		}
	}
}

func TestParseQuantityErrors(t *testing.T) {
	tests := []struct {
		in   string
		want error
	}{
		{"1.5.5", ErrQuantityFormat},
		{"abc", ErrQuantityFormat},
		{"5Zi", ErrQuantityFormat},
		{"", ErrQuantityFormat},
		{"1 Gi", ErrQuantityFormat},
		{" 1", ErrQuantityFormat},
		{"1e", ErrQuantitySuffix},
		{"1ki", ErrQuantitySuffix},
		{"1Ki5", ErrQuantitySuffix},
		{"1e99999999999", ErrQuantitySuffix},
		{"1E", ErrQuantityRange}, // one exa-unit does not fit in int64 milli-units
		{"9Pi", ErrQuantityRange},
		{"1e999999", ErrQuantityRange},
		{"99999999999999999999", ErrQuantityRange},
	}
	for _, tt := range tests {
		_, err := ParseQuantity(tt.in)
		if !errors.Is(err, tt.want) {
			t.Errorf("ParseQuantity(%q) error = %v, want %v", tt.in, err, tt.want)
		}
	}
	want := "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
	if ErrQuantityFormat.Error() != want {
		t.Errorf("ErrQuantityFormat = %q", ErrQuantityFormat)
	}
}

func TestQuantityValue(t *testing.T) {
	tests := []struct {
		in    string
		value int64
	}{
		{"1500m", 2}, {"-1500m", -2}, {"1", 1}, {"0.5", 1}, {"1m", 1}, {"0", 0},
		{"100Mi", 104857600}, {"2000m", 2}, {"-2000m", -2},
	}
	for _, tt := range tests {
		if got := MustParseQuantity(tt.in).Value(); got != tt.value {
			t.Errorf("%q.Value() = %d, want %d", tt.in, got, tt.value)
		}
	}
}

func TestQuantityArithmetic(t *testing.T) {
	tests := []struct {
		a, b   string
		sub    bool
		want   string
		cmpAB  int
		isZero bool
	}{
		{"500m", "1500m", false, "2", -1, false},
		{"1Gi", "512Mi", true, "512Mi", 1, false},
		{"0", "100Mi", false, "100Mi", -1, false},
		{"2", "2000m", true, "0", 0, true},
		{"1", "1500m", true, "-500m", -1, false},
	}
	for _, tt := range tests {
		a, b := MustParseQuantity(tt.a), MustParseQuantity(tt.b)
		if c := a.Cmp(b); c != tt.cmpAB {
			t.Errorf("%s.Cmp(%s) = %d, want %d", tt.a, tt.b, c, tt.cmpAB)
		}
		if tt.sub {
			a.Sub(b)
		} else {
			a.Add(b)
		}
		if a.String() != tt.want || a.IsZero() != tt.isZero {
			t.Errorf("%s op %s = %s (zero %v), want %s", tt.a, tt.b, a, a.IsZero(), tt.want)
		}
		// Computed values forget their text and encode canonically.
		if b, _ := a.MarshalJSON(); string(b) != `"`+tt.want+`"` {
			t.Errorf("MarshalJSON after arithmetic = %s, want %q", b, tt.want)
		}
	}
	big := NewQuantity(math.MaxInt64, DecimalSI)
	big.Add(NewQuantity(5, DecimalSI))
	if big.MilliValue() != math.MaxInt64 {
		t.Errorf("saturating add = %d", big.MilliValue())
	}
	if !MustParseQuantity("1").Equal(MustParseQuantity("1000m")) {
		t.Error("1 != 1000m")
	}
}

func TestNewQuantity(t *testing.T) {
	tests := []struct {
		q    Quantity
		want string
	}{
		{NewMilliQuantity(250, DecimalSI), "250m"},
		{NewMilliQuantity(1500, DecimalSI), "1500m"},
		{NewQuantity(3, DecimalSI), "3"},
		{NewQuantity(64<<20, BinarySI), "64Mi"},
		{NewQuantity(1000, BinarySI), "1k"}, // below 1024 prints decimal, as upstream
		{NewQuantity(5000, DecimalSI), "5k"},
		{NewQuantity(5000, DecimalExponent), "5e3"},
		{NewQuantity(5, ""), "5"},
		{Quantity{}, "0"},
	}
	for _, tt := range tests {
		if got := tt.q.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
	}
}

func TestQuantityJSON(t *testing.T) {
	var rl ResourceList
	in := `{"cpu":"500m","pods":2,"memory":"1Gi","ephemeral-storage":0.5,"storage":null}`
	if err := json.Unmarshal([]byte(in), &rl); err != nil {
		t.Fatal(err)
	}
	if rl.Cpu().MilliValue() != 500 || rl.Pods().Value() != 2 || rl.Memory().Value() != 1<<30 ||
		rl.StorageEphemeral().MilliValue() != 500 || !rl[ResourceStorage].IsZero() {
		t.Fatalf("decoded %v", rl)
	}
	out, err := json.Marshal(rl)
	if err != nil {
		t.Fatal(err)
	}
	// Text upstream deems canonical is kept ("500m", "1Gi"), other text is
	// canonicalised (0.5 is "500m"); numbers come back as strings.
	want := `{"cpu":"500m","ephemeral-storage":"500m","memory":"1Gi","pods":"2","storage":"0"}`
	if string(out) != want {
		t.Errorf("encoded %s, want %s", out, want)
	}
	var q Quantity
	if err := json.Unmarshal([]byte(`"1.5.5"`), &q); !errors.Is(err, ErrQuantityFormat) {
		t.Errorf("bad quantity error = %v", err)
	}
	if err := json.Unmarshal([]byte(`" 2 "`), &q); err != nil || q.Value() != 2 {
		t.Errorf("spaces: %v %v", q, err)
	}
	if got := (ResourceList{}).Memory(); got.Format() != BinarySI || !got.IsZero() {
		t.Errorf("absent memory = %v %s", got, got.Format())
	}
	names := ResourceList{"pods": {}, "cpu": {}, "memory": {}}.SortedNames()
	if len(names) != 3 || names[0] != "cpu" || names[2] != "pods" {
		t.Errorf("SortedNames = %v", names)
	}
	if ObjectCountResource("deployments.apps") != "count/deployments.apps" {
		t.Error("ObjectCountResource")
	}
}

func BenchmarkParseQuantity(b *testing.B) {
	inputs := []string{"500m", "128Mi", "2", "1.5Gi", "0.25"}
	for b.Loop() {
		for _, s := range inputs {
			if _, err := ParseQuantity(s); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N*len(inputs))/b.Elapsed().Seconds(), "parses/s")
}
