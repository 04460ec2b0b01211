package report

import (
	"math"
	"testing"
)

// TestMannWhitneyU checks the test against values worked by hand, the
// same as SciPy's mannwhitneyu(a, b, method="asymptotic") gives.
func TestMannWhitneyU(t *testing.T) {
	tests := []struct {
		name   string
		a, b   []float64
		ua     float64
		z, p   float64
		effect float64
	}{
		{
			// SciPy's documented example (males vs females, ages):
			// ranks of a in the 9 pooled values are 3, 5, 7, 8, 9, so
			// R = 32, UA = 32 − 5·6/2 = 17, UB = 20 − 17 = 3; μ = 10,
			// σ = √(5·4·10/12) = 4.082483; z = (17 − 10 − 0.5)/σ =
			// 1.592168; p = 2·(1 − Φ(z)) = 0.111347 (SciPy prints
			// pvalue=0.11134688653314041 with method="asymptotic").
			name: "scipy docs",
			a:    []float64{19, 22, 16, 29, 24}, b: []float64{20, 11, 17, 12},
			ua: 17, z: 1.592168, p: 0.111347, effect: -0.7,
		},
		{
			// Complete separation, no ties, n = 3 + 3: UA = 0, UB = 9,
			// μ = 4.5, σ = √(9·7/12) = 2.291288, z = (9 − 4.5 − 0.5)/σ =
			// 1.745743, p = 0.080856.
			name: "separated",
			a:    []float64{1, 2, 3}, b: []float64{4, 5, 6},
			ua: 0, z: 1.745743, p: 0.080856, effect: 1,
		},
		{
			// Ties: pooled 1,1,2,2,2,3 take ranks 1.5,1.5,4,4,4,6; a's
			// ranks sum to 1.5+1.5+4 = 7, UA = 7 − 6 = 1, UB = 8; tie
			// term Σ(t³−t) = 6 + 24 = 30; σ = √(9/12·(7 − 30/30)) =
			// √4.5 = 2.121320; z = (8 − 4.5 − 0.5)/σ = 1.414214; p =
			// 0.157299.
			name: "ties",
			a:    []float64{1, 1, 2}, b: []float64{2, 2, 3},
			ua: 1, z: 1.414214, p: 0.157299, effect: 7.0 / 9,
		},
		{
			// Every value tied: no evidence either way.
			name: "all tied",
			a:    []float64{4, 4, 4}, b: []float64{4, 4},
			ua: 3, z: 0, p: 1, effect: 0,
		},
		{
			// A never-converged seed (+Inf) ranks above every finite
			// value: a = {1, 2, +Inf}, b = {3, 4, 5} gives ranks 1, 2, 6
			// for a, UA = 9 − 6 = 3, UB = 6, z = (6 − 4.5 − 0.5)/2.291288
			// = 0.436436, p = 0.662521.
			name: "infinite",
			a:    []float64{1, 2, math.Inf(1)}, b: []float64{3, 4, 5},
			ua: 3, z: 0.436436, p: 0.662521, effect: 1.0 / 3,
		},
		{name: "empty", a: nil, b: []float64{1}, ua: 0, z: 0, p: 1, effect: 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := MannWhitneyU(tc.a, tc.b)
			if got.UA != tc.ua || !near(got.Z, tc.z) || !near(got.P, tc.p) || !near(got.Effect, tc.effect) {
				t.Errorf("MannWhitneyU = %+v, want UA %v z %v p %v effect %v", got, tc.ua, tc.z, tc.p, tc.effect)
			}
			if tc.a != nil && got.UA+got.UB != float64(len(tc.a)*len(tc.b)) {
				t.Errorf("UA + UB = %v, want %d", got.UA+got.UB, len(tc.a)*len(tc.b))
			}
		})
	}
}

func near(x, y float64) bool { return math.Abs(x-y) < 5e-6 }
