package lessons

import (
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/clustersim/clustersim/scenarios"
)

// TestRegistry checks the lessons' bookkeeping: numbered 1 to 16 in
// order, every design a built-in scenario, at least 100 seeds, names
// unique, and every claim naming figures the lesson measures (a typo
// panics, caught here rather than in a long run).
func TestRegistry(t *testing.T) {
	all := All()
	slugs := map[string]bool{}
	for i, l := range all {
		if l.Number != i+1 {
			t.Errorf("lesson %d at position %d: want lessons 1 to 16 in order", l.Number, i+1)
		}
		if slugs[l.Slug] || l.Slug == "" || l.Title == "" {
			t.Errorf("lesson %d: slug %q (duplicate or empty) or empty title", l.Number, l.Slug)
		}
		slugs[l.Slug] = true
		if l.SeedCount() < 100 {
			t.Errorf("lesson %d runs %d seeds; its claims need at least 100", l.Number, l.SeedCount())
		}
		if len(l.Designs) == 0 || len(l.Figures) == 0 || len(l.Claims) == 0 {
			t.Errorf("lesson %d: %d designs, %d figures, %d claims", l.Number, len(l.Designs), len(l.Figures), len(l.Claims))
		}
		for _, d := range l.Designs {
			s, err := scenarios.Builtin(d.Scenario)
			if err != nil {
				t.Errorf("lesson %d: %q is not a built-in scenario: %v", l.Number, d.Scenario, err)
				continue
			}
			if !strings.Contains(s.Metadata.Description, "What to look at") {
				t.Errorf("lesson %d: %s's description does not say what to look at", l.Number, d.Scenario)
			}
		}
		runs := make([][][]float64, len(l.Designs))
		tab := NewTable(l, []uint64{1}, runs)
		for _, c := range l.Claims {
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("lesson %d, claim %q: %v", l.Number, c.Text, r)
					}
				}()
				c.Holds(tab)
			}()
		}
	}
	if len(all) != 16 {
		t.Errorf("%d lessons, want 16", len(all))
	}
	for _, name := range []string{"8", "defaults-trap", "defaults-trap-fixed"} {
		if l, ok := Find(name); !ok || l.Number != 8 {
			t.Errorf("Find(%q) = %v, %v; want lesson 8", name, l, ok)
		}
	}
	if _, ok := Find("no-such-lesson"); ok {
		t.Error("Find found a lesson that does not exist")
	}
}

// TestCells checks how a design's values print.
func TestCells(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		unit Unit
		vals []float64
		want string
	}{
		{Count, []float64{3, 3, 3}, "3"},
		{Count, []float64{1, 2, 3, 4}, "2.5 ± 1.3 (median 2, 1–4)"},
		{Share, []float64{1, 0, 1, 1}, "75.0% (3 of 4)"},
		{Seconds, []float64{61, nan}, "61; n/a in 1"},
		{Seconds, []float64{nan, nan}, "-; n/a in 2"},
		{Rate, []float64{0.25, 0.5}, "0.375 ± 0.177 (median 0.250, 0.250–0.500)"},
	}
	for _, tt := range tests {
		if got := cell(tt.unit, tt.vals); got != tt.want {
			t.Errorf("cell(%v, %v) = %q, want %q", tt.unit, tt.vals, got, tt.want)
		}
	}
}

// TestTableClaims checks All, Mean and Sample on a small table.
func TestTableClaims(t *testing.T) {
	l := &Lesson{Number: 99, Designs: []Design{{Scenario: "a"}, {Scenario: "b"}},
		Figures: []Figure{{Name: "x", Unit: Count}}}
	tab := NewTable(l, []uint64{1, 2, 3}, [][][]float64{{{1}, {2}, {3}}, {{0}, {math.NaN()}, {0}}})
	if !tab.All(0, "x", gt(0)) || tab.All(1, "x", eq(0)) {
		t.Error("All: a NaN must fail it, every value must pass it")
	}
	if tab.Mean(0, "x") != 2 || len(tab.Sample(1, "x")) != 2 {
		t.Errorf("Mean %v, Sample %v", tab.Mean(0, "x"), tab.Sample(1, "x"))
	}
	var b strings.Builder
	if err := WriteMarkdown(&b, tab); err != nil || !strings.Contains(b.String(), "a and b over 3 seeds (1 to 3)") {
		t.Errorf("markdown: %v\n%s", err, b.String())
	}
}

// durationRE finds a duration stated in a claim: "600 s", "11 minutes".
var durationRE = regexp.MustCompile(`\b\d+(\.\d+)?\s*(s|ms|seconds?|minutes?)\b`)

// afterRE finds the moment a claim measures from: "after the hang".
var afterRE = regexp.MustCompile(`\bafter the [a-z]+`)

// TestClaimUnits checks each claim's text against the units of the
// figures it reads (recorded as the claim looks them up):
//   - every figure in seconds is a duration from a moment its name gives,
//     never a time of day (no "... at"), so that durations and times never
//     share a column;
//   - a claim that states a duration reads a figure in seconds, and when it
//     says what the duration is measured from ("after the hang"), a figure
//     measured from the same moment;
//   - a claim that states a ratio ("10 times") reads counts or rates.
func TestClaimUnits(t *testing.T) {
	for _, l := range All() {
		for _, f := range l.Figures {
			if f.Unit != Seconds {
				continue
			}
			if strings.HasSuffix(f.Name, " at") || !regexp.MustCompile(`\b(after|for|by|open)\b`).MatchString(f.Name) {
				t.Errorf("lesson %d: figure %q is in seconds but its name does not say it is a duration from a named moment", l.Number, f.Name)
			}
		}
		runs := make([][][]float64, len(l.Designs))
		for _, c := range l.Claims {
			var read []Figure
			tab := NewTable(l, []uint64{1}, runs)
			tab.read = func(name string) {
				for _, f := range l.Figures {
					if f.Name == name {
						read = append(read, f)
					}
				}
			}
			c.Holds(tab)
			units := map[Unit]bool{}
			for _, f := range read {
				units[f.Unit] = true
			}
			if len(read) == 0 {
				t.Errorf("lesson %d, claim %q reads no figure", l.Number, c.Text)
			}
			if durationRE.MatchString(c.Text) {
				if !units[Seconds] {
					t.Errorf("lesson %d, claim %q states a duration but reads no figure in seconds", l.Number, c.Text)
				}
				for _, after := range afterRE.FindAllString(c.Text, -1) {
					ok := false
					for _, f := range read {
						ok = ok || f.Unit == Seconds && strings.Contains(f.Name, after)
					}
					if !ok {
						t.Errorf("lesson %d, claim %q measures %q, but no figure in seconds it reads does", l.Number, c.Text, after)
					}
				}
			}
			if strings.Contains(c.Text, " times ") && !units[Count] && !units[Rate] {
				t.Errorf("lesson %d, claim %q states a ratio but reads no count or rate", l.Number, c.Text)
			}
		}
	}
}
