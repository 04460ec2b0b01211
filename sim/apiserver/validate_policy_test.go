package apiserver

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestValidatePDBUpstream ports the rows of upstream's
// TestValidatePodDisruptionBudgetSpec,
// TestValidateMinAvailablePodDisruptionBudgetSpec,
// TestValidateMinAvailablePodAndMaxUnavailableDisruptionBudgetSpec and
// TestValidateUnhealthyPodEvictionPolicyDisruptionBudgetSpec (k/k
// pkg/apis/policy/validation/validation_test.go), which check only that
// an error is or is not reported; the messages are ValidatePositiveIntOrPercent's,
// IsNotMoreThan100Percent's and field.NotSupported's.
//
// Rows covered by TestPDBValidation already: both bounds set, minAvailable
// -1, a percent string that is not one, an unknown policy. Rows that
// cannot apply: TestValidatePodDisruptionBudgetStatus (the status is the
// disruption controller's and the eviction subresource's to write, not
// validated here).
func TestValidatePDBUpstream(t *testing.T) {
	policy := func(s string) *api.UnhealthyPodEvictionPolicyType {
		p := api.UnhealthyPodEvictionPolicyType(s)
		return &p
	}
	tests := []struct {
		name string
		spec api.PodDisruptionBudgetSpec
		want string // "" for valid
	}{
		{"minAvailable 0%", api.PodDisruptionBudgetSpec{MinAvailable: ptr(api.FromString("0%"))}, ""},
		{"minAvailable 1%", api.PodDisruptionBudgetSpec{MinAvailable: ptr(api.FromString("1%"))}, ""},
		{"minAvailable 100%", api.PodDisruptionBudgetSpec{MinAvailable: ptr(api.FromString("100%"))}, ""},
		{"minAvailable 0", api.PodDisruptionBudgetSpec{MinAvailable: ptr(api.FromInt32(0))}, ""},
		{"minAvailable 1", api.PodDisruptionBudgetSpec{MinAvailable: ptr(api.FromInt32(1))}, ""},
		{"minAvailable 100", api.PodDisruptionBudgetSpec{MinAvailable: ptr(api.FromInt32(100))}, ""},
		{"minAvailable 1.1%", api.PodDisruptionBudgetSpec{MinAvailable: ptr(api.FromString("1.1%"))},
			`spec.minAvailable: Invalid value: "1.1%": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`},
		{"minAvailable nope", api.PodDisruptionBudgetSpec{MinAvailable: ptr(api.FromString("nope"))},
			`spec.minAvailable: Invalid value: "nope": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`},
		// IsValidPercent's pattern has no sign: "-1%" is not a percent
		// (and so not checked against 100%).
		{"minAvailable -1%", api.PodDisruptionBudgetSpec{MinAvailable: ptr(api.FromString("-1%"))},
			`spec.minAvailable: Invalid value: "-1%": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`},
		{"minAvailable +1%", api.PodDisruptionBudgetSpec{MinAvailable: ptr(api.FromString("+1%"))},
			`spec.minAvailable: Invalid value: "+1%": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`},
		{"minAvailable 101%", api.PodDisruptionBudgetSpec{MinAvailable: ptr(api.FromString("101%"))},
			`spec.minAvailable: Invalid value: "101%": must not be greater than 100%`},
		// Past int64: upstream's strconv.Atoi gives the largest int, over 100%.
		{"minAvailable 10^21%", api.PodDisruptionBudgetSpec{MinAvailable: ptr(api.FromString("1000000000000000000000%"))},
			`spec.minAvailable: Invalid value: "1000000000000000000000%": must not be greater than 100%`},
		{"minAvailable -1", api.PodDisruptionBudgetSpec{MinAvailable: ptr(api.FromInt32(-1))},
			`spec.minAvailable: Invalid value: -1: must be greater than or equal to 0`},
		{"maxUnavailable -1%", api.PodDisruptionBudgetSpec{MaxUnavailable: ptr(api.FromString("-1%"))},
			`spec.maxUnavailable: Invalid value: "-1%": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`},
		{"minAvailable 10% and maxUnavailable 1", api.PodDisruptionBudgetSpec{MinAvailable: ptr(api.FromString("10%")), MaxUnavailable: ptr(api.FromInt32(1))},
			`spec: Invalid value: {"MinAvailable":"10%","Selector":null,"MaxUnavailable":1,"UnhealthyPodEvictionPolicy":null}: minAvailable and maxUnavailable cannot be both set`},
		{"valid nil UnhealthyPodEvictionPolicy", api.PodDisruptionBudgetSpec{MinAvailable: ptr(api.FromString("10%"))}, ""},
		{"valid UnhealthyPodEvictionPolicy", api.PodDisruptionBudgetSpec{MinAvailable: ptr(api.FromString("10%")), UnhealthyPodEvictionPolicy: policy("AlwaysAllow")}, ""},
		{"empty UnhealthyPodEvictionPolicy", api.PodDisruptionBudgetSpec{MinAvailable: ptr(api.FromString("10%")), UnhealthyPodEvictionPolicy: policy("")},
			`spec.unhealthyPodEvictionPolicy: Unsupported value: "": supported values: "AlwaysAllow", "IfHealthyBudget"`},
		{"invalid UnhealthyPodEvictionPolicy", api.PodDisruptionBudgetSpec{MinAvailable: ptr(api.FromString("10%")), UnhealthyPodEvictionPolicy: policy("Invalid")},
			`spec.unhealthyPodEvictionPolicy: Unsupported value: "Invalid": supported values: "AlwaysAllow", "IfHealthyBudget"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := tt.want
			if want != "" {
				want = `PodDisruptionBudget.policy "p" is invalid: ` + want
			}
			got := ""
			if err := Validate(&api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"}, Spec: tt.spec}, nil); err != nil {
				got = err.Error()
			}
			if got != want {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
}
