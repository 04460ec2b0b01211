package api

import (
	"errors"
	"testing"
)

func TestLabelSelectorAsSelector(t *testing.T) {
	web := map[string]string{"app": "web", "tier": "frontend", "env": "prod"}
	db := map[string]string{"app": "db", "tier": "backend"}
	none := map[string]string(nil)
	tests := []struct {
		name    string
		sel     *LabelSelector
		str     string
		empty   bool
		matches []map[string]string
		misses  []map[string]string
	}{
		{"nil matches nothing", nil, "", false, nil, []map[string]string{web, db, none}},
		{"empty matches everything", &LabelSelector{}, "", true, []map[string]string{web, db, none}, nil},
		{"matchLabels", &LabelSelector{MatchLabels: map[string]string{"tier": "frontend", "app": "web"}},
			"app=web,tier=frontend", false, []map[string]string{web}, []map[string]string{db, none}},
		{"In", &LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "tier", Operator: LabelSelectorOpIn, Values: []string{"frontend", "backend"}}}},
			"tier in (backend,frontend)", false, []map[string]string{web, db}, []map[string]string{none}},
		{"NotIn", &LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "tier", Operator: LabelSelectorOpNotIn, Values: []string{"backend"}}}},
			"tier notin (backend)", false, []map[string]string{web, none}, []map[string]string{db}},
		{"Exists", &LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "env", Operator: LabelSelectorOpExists}}},
			"env", false, []map[string]string{web}, []map[string]string{db, none}},
		{"DoesNotExist", &LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "env", Operator: LabelSelectorOpDoesNotExist}}},
			"!env", false, []map[string]string{db, none}, []map[string]string{web}},
		{"both ANDed and sorted by key", &LabelSelector{MatchLabels: map[string]string{"tier": "frontend"},
			MatchExpressions: []LabelSelectorRequirement{{Key: "app", Operator: LabelSelectorOpIn, Values: []string{"web"}}}},
			"app in (web),tier=frontend", false, []map[string]string{web}, []map[string]string{db}},
	}
	for _, tt := range tests {
		s, err := LabelSelectorAsSelector(tt.sel)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if s.String() != tt.str || s.Empty() != tt.empty {
			t.Errorf("%s: String %q Empty %v, want %q %v", tt.name, s, s.Empty(), tt.str, tt.empty)
		}
		for _, l := range tt.matches {
			if !s.Matches(l) {
				t.Errorf("%s: does not match %v", tt.name, l)
			}
		}
		for _, l := range tt.misses {
			if s.Matches(l) {
				t.Errorf("%s: matches %v", tt.name, l)
			}
		}
	}
}

func TestLabelSelectorErrors(t *testing.T) {
	tests := []struct {
		sel  LabelSelector
		want string
	}{
		{LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "a", Operator: "Foo"}}}, `"Foo" is not a valid label selector operator`},
		{LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "a", Operator: LabelSelectorOpIn}}}, "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty"},
		{LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "a", Operator: LabelSelectorOpExists, Values: []string{"x"}}}}, `values: Invalid value: ["x"]: values set must be empty for exists and does not exist`},
		{LabelSelector{MatchLabels: map[string]string{"bad key": "x"}}, ""},
		{LabelSelector{MatchLabels: map[string]string{"a": "bad value"}}, ""},
		{LabelSelector{MatchLabels: map[string]string{"Example.com/a": "x"}}, ""},
	}
	for _, tt := range tests {
		s, err := LabelSelectorAsSelector(&tt.sel)
		var se *SelectorError
		if !errors.As(err, &se) {
			t.Errorf("%+v: error %v is not a *SelectorError", tt.sel, err)
			continue
		}
		if tt.want != "" && err.Error() != tt.want {
			t.Errorf("%+v: error %q, want %q", tt.sel, err, tt.want)
		}
		if s.Matches(map[string]string{"a": "x"}) {
			t.Errorf("%+v: failed selector matches", tt.sel)
		}
	}
	ok := []string{"a", "example.com/a", "a.b_c-d", "k8s.io/x"}
	for _, k := range ok {
		if _, err := LabelSelectorAsSelector(&LabelSelector{MatchLabels: map[string]string{k: ""}}); err != nil {
			t.Errorf("key %q rejected: %v", k, err)
		}
	}
}

func TestParseSelector(t *testing.T) {
	tests := []struct {
		in      string
		str     string
		matches []map[string]string
		misses  []map[string]string
	}{
		{"", "", []map[string]string{nil, {"a": "b"}}, nil},
		{"a=b,c!=d,e in (x,y),!f,g", "a=b,c!=d,e in (x,y),!f,g",
			[]map[string]string{{"a": "b", "e": "x", "g": ""}, {"a": "b", "c": "z", "e": "y", "g": "1"}},
			[]map[string]string{{"a": "b", "c": "d", "e": "x", "g": ""}, {"a": "b", "e": "x", "f": "", "g": ""}, {"a": "b", "e": "z", "g": ""}, {"a": "b", "e": "x"}}},
		{"tier in (b, a), app = web", "app=web,tier in (a,b)", []map[string]string{{"app": "web", "tier": "a"}}, []map[string]string{{"app": "web"}}},
		{"x notin (a)", "x notin (a)", []map[string]string{nil, {"x": "b"}}, []map[string]string{{"x": "a"}}},
		{"a==b", "a==b", []map[string]string{{"a": "b"}}, []map[string]string{{"a": "c"}}},
		{"a=", "a=", []map[string]string{{"a": ""}}, []map[string]string{{"a": "x"}, nil}},
		{"n>3,m<10", "m<10,n>3", []map[string]string{{"n": "4", "m": "9"}}, []map[string]string{{"n": "3", "m": "9"}, {"n": "x", "m": "1"}, {"n": "4"}}},
		{"x in (in,notin)", "x in (in,notin)", []map[string]string{{"x": "in"}}, []map[string]string{{"x": "y"}}},
		{"x in (a,,b)", "x in (,a,b)", []map[string]string{{"x": ""}}, nil},
		{"x in ()", "x in ()", []map[string]string{{"x": ""}}, []map[string]string{{"x": "a"}}},
	}
	for _, tt := range tests {
		s, err := ParseSelector(tt.in)
		if err != nil {
			t.Errorf("ParseSelector(%q): %v", tt.in, err)
			continue
		}
		if s.String() != tt.str {
			t.Errorf("ParseSelector(%q).String() = %q, want %q", tt.in, s, tt.str)
		}
		for _, l := range tt.matches {
			if !s.Matches(l) {
				t.Errorf("%q does not match %v", tt.in, l)
			}
		}
		for _, l := range tt.misses {
			if s.Matches(l) {
				t.Errorf("%q matches %v", tt.in, l)
			}
		}
		if again, err := ParseSelector(s.String()); err != nil || again.String() != s.String() {
			t.Errorf("%q: String does not re-parse: %q %v", tt.in, again, err)
		}
	}
}

func TestParseSelectorErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a=b,", `unable to parse selector "a=b,": found '', expected: identifier after ','`},
		{"!a=b", `unable to parse selector "!a=b": found '=', expected: ',' or 'end of string'`},
		{"a b", `unable to parse selector "a b": unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt`},
		{"a in b", `unable to parse selector "a in b": unable to parse requirement: found 'b' expected: '('`},
		{"a in (b", `unable to parse selector "a in (b": unable to parse requirement: found '', expected: ',' or ')'`},
		{"a>x", `unable to parse selector "a>x": unable to parse requirement: values[0]: Invalid value: "x": for 'Gt', 'Lt' operators, the value must be an integer`},
		{",a", `unable to parse selector ",a": found ',', expected: !, identifier, or 'end of string'`},
		{"a=b c", `unable to parse selector "a=b c": found 'c', expected: ',' or 'end of string'`},
		{"bad key!=x", ""},
		{"a=(", ""},
	}
	for _, tt := range tests {
		_, err := ParseSelector(tt.in)
		var se *SelectorError
		if !errors.As(err, &se) {
			t.Errorf("ParseSelector(%q) error %v is not a *SelectorError", tt.in, err)
			continue
		}
		if tt.want != "" && err.Error() != tt.want {
			t.Errorf("ParseSelector(%q) error\n %q\nwant %q", tt.in, err, tt.want)
		}
	}
}

func TestSelectorFromSet(t *testing.T) {
	s := SelectorFromSet(map[string]string{"b": "2", "a": "1"})
	if s.String() != "a=1,b=2" || !s.Matches(map[string]string{"a": "1", "b": "2", "c": "3"}) || s.Matches(map[string]string{"a": "1"}) {
		t.Errorf("SelectorFromSet = %q", s)
	}
	if !SelectorFromSet(nil).Empty() || !Everything().Matches(nil) || Nothing().Matches(nil) || Nothing().Empty() {
		t.Error("Everything/Nothing")
	}
	var zero Selector
	if zero.Matches(map[string]string{}) {
		t.Error("zero Selector matches")
	}
	if v, ok := s.RequiresExactMatch("b"); !ok || v != "2" {
		t.Errorf("RequiresExactMatch(b) = %q %v", v, ok)
	}
	if _, ok := s.RequiresExactMatch("c"); ok {
		t.Error("RequiresExactMatch(c)")
	}
}

func TestSelectorMatchesDoesNotAllocate(t *testing.T) {
	s, err := ParseSelector("app=web,tier in (a,b,c),!canary,zone,n>3,x notin (y)")
	if err != nil {
		t.Fatal(err)
	}
	l := map[string]string{"app": "web", "tier": "b", "zone": "z1", "n": "5"}
	if !s.Matches(l) {
		t.Fatal("no match")
	}
	if a := testing.AllocsPerRun(100, func() { s.Matches(l) }); a != 0 {
		t.Errorf("Matches allocates %v times", a)
	}
}

func BenchmarkSelectorMatches(b *testing.B) {
	s, _ := LabelSelectorAsSelector(&LabelSelector{MatchLabels: map[string]string{"app": "web", "pod-template-hash": "7d4b9c"}})
	l := map[string]string{"app": "web", "pod-template-hash": "7d4b9c", "tier": "frontend"}
	for b.Loop() {
		s.Matches(l)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "matches/s")
}

// TestExactMatch: the first label, by key, a selector requires a single
// value of: what an index of labels serves a list from.
func TestExactMatch(t *testing.T) {
	for _, tc := range []struct {
		sel        string
		key, value string
		ok         bool
	}{
		{"app=web", "app", "web", true},
		{"app==web", "app", "web", true},
		{"app in (web)", "app", "web", true},
		{"app in (web,db)", "", "", false},
		{"app!=web", "", "", false},
		{"app notin (web)", "", "", false},
		{"app", "", "", false},
		{"!app", "", "", false},
		{"", "", "", false},
		{"tier=front,app in (web,db)", "tier", "front", true},
		{"tier=front,app=web", "app", "web", true}, // key order
		{"zone in (a,b),app notin (x),tier=front", "tier", "front", true},
	} {
		sel, err := ParseSelector(tc.sel)
		if err != nil {
			t.Fatalf("%q: %v", tc.sel, err)
		}
		key, value, ok := sel.ExactMatch()
		if key != tc.key || value != tc.value || ok != tc.ok {
			t.Errorf("%q: ExactMatch() = %q, %q, %v; want %q, %q, %v", tc.sel, key, value, ok, tc.key, tc.value, tc.ok)
		}
	}
	if _, _, ok := Nothing().ExactMatch(); ok {
		t.Error("Nothing().ExactMatch() is ok")
	}
	for sel, want := range map[string]int{"": 0, "app=web": 1, "tier=front,app in (web,db)": 2, "a,!b,c=d": 3} {
		if s, err := ParseSelector(sel); err != nil || s.Requirements() != want {
			t.Errorf("%q: %d requirements (%v), want %d", sel, s.Requirements(), err, want)
		}
	}
}
