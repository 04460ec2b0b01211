package report

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// MannWhitney is the outcome of a two-sided Mann-Whitney U test of sample
// B against sample A.
type MannWhitney struct {
	// UA counts the pairs (a, b) with a > b, ties counting one half; UB =
	// len(A)·len(B) − UA counts those with b > a. SciPy's mannwhitneyu(A,
	// B) returns UA as its statistic.
	UA, UB float64
	// Z is the normal approximation's statistic, continuity-corrected, of
	// max(UA, UB): 0 when every value is tied.
	Z float64
	// P is the two-sided p-value (at most 1).
	P float64
	// Effect is the rank-biserial correlation (UB − UA)/(len(A)·len(B)),
	// from −1 (every B below every A) to +1 (every B above every A); 0
	// means neither sample tends to be larger (Cliff's delta).
	Effect float64
}

// standardNormal is N(0, 1). Its Src is never used (only Survival is).
var standardNormal = distuv.Normal{Mu: 0, Sigma: 1}

// MannWhitneyU tests whether a and b come from the same distribution
// against the alternative that one tends to be larger, with the normal
// approximation, tie correction and continuity correction: SciPy's
// mannwhitneyu(a, b, alternative="two-sided", method="asymptotic",
// use_continuity=True). Values may be +Inf (a seed that never converged
// ranks above every finite one). An empty sample gives P 1.
func MannWhitneyU(a, b []float64) MannWhitney {
	n1, n2 := len(a), len(b)
	if n1 == 0 || n2 == 0 {
		return MannWhitney{P: 1}
	}
	type obs struct {
		v     float64
		fromA bool
	}
	all := make([]obs, 0, n1+n2)
	for _, v := range a {
		all = append(all, obs{v, true})
	}
	for _, v := range b {
		all = append(all, obs{v, false})
	}
	slices.SortStableFunc(all, func(x, y obs) int {
		switch {
		case x.v < y.v:
			return -1
		case x.v > y.v:
			return 1
		}
		return 0
	})
	// Average ranks over ties; tieSum is Σ(t³ − t) over tie groups.
	n := float64(n1 + n2)
	rankA, tieSum := 0.0, 0.0
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].v == all[i].v {
			j++
		}
		avg := float64(float64(i+j+1) / 2) // ranks i+1..j; rounded apart, as every product below: no fused multiply-add (docs/fma-check.sh)
		for k := i; k < j; k++ {
			if all[k].fromA {
				rankA += avg
			}
		}
		t := float64(j - i)
		tieSum += float64(t*t*t) - t
		i = j
	}
	f1, f2 := float64(n1), float64(n2)
	ua := rankA - float64(f1*(f1+1)/2)
	ub := float64(f1*f2) - ua
	res := MannWhitney{UA: ua, UB: ub, Effect: (ub - ua) / (f1 * f2), P: 1}
	mu := float64(f1 * f2 / 2)
	sigma := math.Sqrt(f1 * f2 / 12 * ((n + 1) - tieSum/(n*(n-1))))
	if sigma == 0 || math.IsNaN(sigma) {
		return res
	}
	u := math.Max(ua, ub)
	res.Z = (u - mu - 0.5) / sigma
	res.P = math.Min(1, 2*float64(standardNormal.Survival(res.Z)))
	return res
}
