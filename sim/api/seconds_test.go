package api

import (
	"math"
	"testing"
	"time"
)

func TestSecondsDuration(t *testing.T) {
	most := int64(math.MaxInt64 / int64(time.Second))
	tests := []struct {
		n    int64
		want time.Duration
	}{
		{0, 0},
		{30, 30 * time.Second},
		{-1, -time.Second},
		{most, time.Duration(most) * time.Second},
		{most + 1, math.MaxInt64},
		{9_300_000_000, math.MaxInt64}, // wraps negative unsaturated
		{math.MaxInt64, math.MaxInt64}, // wraps to -1s unsaturated
		{-most - 1, math.MinInt64},
		{math.MinInt64, math.MinInt64},
	}
	for _, tt := range tests {
		if got := SecondsDuration(tt.n); got != tt.want {
			t.Errorf("SecondsDuration(%d) = %v, want %v", tt.n, got, tt.want)
		}
	}
}
