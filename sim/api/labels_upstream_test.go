package api

import (
	"errors"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// The tables in this file are rows of apimachinery's pkg/labels
// selector_test.go, named at each table. Upstream's Requirement and
// internalSelector are our requirement and Selector; upstream's
// NewRequirement is newRequirement, its error text our message.

// req builds a requirement as upstream's getRequirement does: values go
// through a set, so they arrive sorted and unique.
func req(t *testing.T, key string, op selOp, vals ...string) requirement {
	t.Helper()
	if vals != nil {
		vals = append([]string(nil), vals...)
		sort.Strings(vals)
		vals = compactStrings(vals)
	}
	r, msg := newRequirement(key, op, vals)
	if msg != "" {
		t.Fatalf("newRequirement(%q, %d, %q): %s", key, op, vals, msg)
	}
	return r
}

func sel(reqs ...requirement) Selector { return Selector{reqs: reqs, valid: true} }

// TestSelectorParseUpstream ports TestSelectorParse: good strings parse and
// print back without their spaces; bad strings are refused.
func TestSelectorParseUpstream(t *testing.T) {
	for _, in := range []string{
		"x=a,y=b,z=c",
		"",
		"x!=a,y=b",
		"x=",
		"x= ",
		"x=,z= ",
		"x= ,z= ",
		"!x",
		"x>1",
		"x>1,z<5",
	} {
		s, err := ParseSelector(in)
		if err != nil {
			t.Errorf("ParseSelector(%q): %v", in, err)
			continue
		}
		if want := strings.ReplaceAll(in, " ", ""); s.String() != want {
			t.Errorf("ParseSelector(%q).String() = %q, want %q", in, s.String(), want)
		}
	}
	for _, in := range []string{"x=a||y=b", "x==a==b", "!x=a", "x<a"} {
		if s, err := ParseSelector(in); err == nil {
			t.Errorf("ParseSelector(%q) = %q, want an error", in, s.String())
		}
	}
}

// TestDeterministicParseUpstream ports TestDeterministicParse.
func TestDeterministicParseUpstream(t *testing.T) {
	s1, err1 := ParseSelector("x=a,a=x")
	s2, err2 := ParseSelector("a=x,x=a")
	if err1 != nil || err2 != nil || s1.String() != s2.String() {
		t.Errorf("%q %v, %q %v", s1.String(), err1, s2.String(), err2)
	}
}

// TestSelectorMatchesUpstream ports TestSelectorMatches and TestSetMatches.
func TestSelectorMatchesUpstream(t *testing.T) {
	labelset := map[string]string{"foo": "bar", "baz": "blah"}
	for _, tt := range []struct {
		selector string
		labels   map[string]string
		match    bool
	}{
		{"", map[string]string{"x": "y"}, true},
		{"x=y", map[string]string{"x": "y"}, true},
		{"x=y,z=w", map[string]string{"x": "y", "z": "w"}, true},
		{"x!=y,z!=w", map[string]string{"x": "z", "z": "a"}, true},
		{"notin=in", map[string]string{"notin": "in"}, true}, // in and notin in exactMatch
		{"x", map[string]string{"x": "z"}, true},
		{"!x", map[string]string{"y": "z"}, true},
		{"x>1", map[string]string{"x": "2"}, true},
		{"x<1", map[string]string{"x": "0"}, true},
		{"x=z", map[string]string{}, false},
		{"x=y", map[string]string{"x": "z"}, false},
		{"x=y,z=w", map[string]string{"x": "w", "z": "w"}, false},
		{"x!=y,z!=w", map[string]string{"x": "z", "z": "w"}, false},
		{"x", map[string]string{"y": "z"}, false},
		{"!x", map[string]string{"x": "z"}, false},
		{"x>1", map[string]string{"x": "0"}, false},
		{"x<1", map[string]string{"x": "2"}, false},
		{"foo=bar", labelset, true},
		{"baz=blah", labelset, true},
		{"foo=bar,baz=blah", labelset, true},
		{"foo=blah", labelset, false},
		{"baz=bar", labelset, false},
		{"foo=bar,foobar=bar,baz=blah", labelset, false},
	} {
		s, err := ParseSelector(tt.selector)
		if err != nil {
			t.Errorf("ParseSelector(%q): %v", tt.selector, err)
			continue
		}
		if s.Matches(tt.labels) != tt.match {
			t.Errorf("%q matches %v: %v, want %v", tt.selector, tt.labels, !tt.match, tt.match)
		}
	}
	for _, set := range []map[string]string{{}, {"foo": "bar"}, {"baz": "blah"}, {"foo": "bar", "baz": "blah"}} {
		if !SelectorFromSet(set).Matches(labelset) {
			t.Errorf("SelectorFromSet(%v) does not match %v", set, labelset)
		}
	}
}

// upstream's lexer tokens, by our names.
var upstreamTokens = map[string]tokKind{
	"EndOfString": tokEnd, "Comma": tokComma, "NotIn": tokNotIn, "In": tokIn,
	"Equals": tokEq, "DoubleEquals": tokDoubleEq, "GreaterThan": tokGt,
	"LessThan": tokLt, "DoesNotExist": tokNot, "NotEquals": tokNotEq,
	"OpenPar": tokOpen, "ClosedPar": tokClose, "Identifier": tokIdent,
}

func tokens(names string) []tokKind {
	var out []tokKind
	for _, n := range strings.Fields(names) {
		out = append(out, upstreamTokens[n])
	}
	return out
}

// TestLexerUpstream ports TestLexer: the first token of each string and
// its literal.
func TestLexerUpstream(t *testing.T) {
	for _, tt := range []struct{ s, tok string }{
		{"", "EndOfString"},
		{",", "Comma"},
		{"notin", "NotIn"},
		{"in", "In"},
		{"=", "Equals"},
		{"==", "DoubleEquals"},
		{">", "GreaterThan"},
		{"<", "LessThan"},
		// the longest valid token is taken
		{"!", "DoesNotExist"},
		{"!=", "NotEquals"},
		{"(", "OpenPar"},
		{")", "ClosedPar"},
		// characters that are not special are part of an identifier
		{"~", "Identifier"},
		{"||", "Identifier"},
	} {
		got := lexSelector(tt.s)[0]
		if got.kind != upstreamTokens[tt.tok] || got.lit != tt.s {
			t.Errorf("lexSelector(%q)[0] = %d %q, want %s %q", tt.s, got.kind, got.lit, tt.tok, tt.s)
		}
	}
}

// TestLexerSequenceUpstream ports TestLexerSequence and TestParserLookahead
// (the same strings, the latter with the end of string and "").
func TestLexerSequenceUpstream(t *testing.T) {
	for _, tt := range []struct{ s, toks string }{
		{"key in ( value )", "Identifier In OpenPar Identifier ClosedPar"},
		{"key notin ( value )", "Identifier NotIn OpenPar Identifier ClosedPar"},
		{"key in ( value1, value2 )", "Identifier In OpenPar Identifier Comma Identifier ClosedPar"},
		{"key", "Identifier"},
		{"!key", "DoesNotExist Identifier"},
		{"()", "OpenPar ClosedPar"},
		{"", ""},
		{"x in (),y", "Identifier In OpenPar ClosedPar Comma Identifier"},
		{"== != (), = notin", "DoubleEquals NotEquals OpenPar ClosedPar Comma Equals NotIn"},
		{"key>2", "Identifier GreaterThan Identifier"},
		{"key<1", "Identifier LessThan Identifier"},
	} {
		want := append(tokens(tt.toks), tokEnd)
		var got []tokKind
		for _, tok := range lexSelector(tt.s) {
			got = append(got, tok.kind)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("lexSelector(%q) = %v, want %v", tt.s, got, want)
		}
	}
}

// TestRequirementConstructorUpstream ports TestRequirementConstructor, in
// its field.ErrorList form: each error is "<path>: Invalid value: <bad
// value>: <detail>", as v0.37's field.Error prints it (a slice as JSON). Left out: the row with the
// operator "unsupportedOp", which our operators cannot spell (a
// LabelSelector's unknown operator is refused before a requirement is
// built: TestLabelSelectorErrors).
func TestRequirementConstructorUpstream(t *testing.T) {
	long := strings.Repeat("a", 254)
	for _, tt := range []struct {
		key  string
		op   selOp
		vals []string
		want string
	}{
		{"x1", opIn, []string{}, "values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty"},
		{"x2", opNotIn, []string{}, "values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty"},
		{"x3", opIn, []string{"foo"}, ""},
		{"x4", opNotIn, []string{"foo"}, ""},
		{"x5", opEquals, []string{"bar", "foo"}, `values: Invalid value: ["bar","foo"]: exact-match compatibility requires one single value`},
		{"x6", opExists, []string{}, ""},
		{"x7", opDoesNotExist, []string{}, ""},
		{"x8", opExists, []string{"foo"}, `values: Invalid value: ["foo"]: values set must be empty for exists and does not exist`},
		{"1foo", opIn, []string{"bar"}, ""},
		{"1234", opIn, []string{"bar"}, ""},
		{"x11", opGreaterThan, []string{"1"}, ""},
		{"x12", opLessThan, []string{"6"}, ""},
		{"x13", opGreaterThan, []string{}, "values: Invalid value: []: for 'Gt', 'Lt' operators, exactly one value is required"},
		{"x14", opGreaterThan, []string{"bar"}, `values[0]: Invalid value: "bar": for 'Gt', 'Lt' operators, the value must be an integer`},
		{"x15", opLessThan, []string{"bar"}, `values[0]: Invalid value: "bar": for 'Gt', 'Lt' operators, the value must be an integer`},
		// breaks DNS rule that len(key) <= 253
		{long, opExists, []string{}, `key: Invalid value: "` + long + `": name part must be no more than 63 bytes`},
		{"x16", opEquals, []string{long}, `values[0][x16]: Invalid value: "` + long + `": must be no more than 63 bytes`},
		{"x17", opEquals, []string{"a b"}, `values[0][x17]: Invalid value: "a b": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`},
		// Ours: several errors are aggregated as upstream's ErrorList.ToAggregate.
		{"a b", opGreaterThan, []string{"c d"}, `[key: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), values[0]: Invalid value: "c d": for 'Gt', 'Lt' operators, the value must be an integer, values[0][a b]: Invalid value: "c d": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')]`},
	} {
		_, msg := newRequirement(tt.key, tt.op, tt.vals)
		if msg != tt.want {
			t.Errorf("newRequirement(%.20q, %d, %.20q):\n got %s\nwant %s", tt.key, tt.op, tt.vals, msg, tt.want)
		}
	}
}

// TestToStringUpstream ports TestToString. Left out: the row with an empty
// Requirement ("x in (abc,def),"), which our requirements cannot be.
func TestToStringUpstream(t *testing.T) {
	for _, tt := range []struct {
		in  Selector
		out string
	}{
		{sel(req(t, "x", opIn, "abc", "def"), req(t, "y", opNotIn, "jkl"), req(t, "z", opExists)), "x in (abc,def),y notin (jkl),z"},
		{sel(req(t, "x", opNotIn, "abc", "def"), req(t, "y", opNotEquals, "jkl"), req(t, "z", opDoesNotExist)), "x notin (abc,def),y!=jkl,!z"},
		{sel(req(t, "x", opNotIn, "abc"), req(t, "y", opIn, "jkl", "mno"), req(t, "z", opNotIn, "")), "x notin (abc),y in (jkl,mno),z notin ()"},
		{sel(req(t, "x", opEquals, "abc"), req(t, "y", opDoubleEquals, "jkl"), req(t, "z", opNotEquals, "a"), req(t, "z", opExists)), "x=abc,y==jkl,z!=a,z"},
		{sel(req(t, "x", opGreaterThan, "2"), req(t, "y", opLessThan, "8"), req(t, "z", opExists)), "x>2,y<8,z"},
	} {
		if got := tt.in.String(); got != tt.out {
			t.Errorf("String() = %q, want %q", got, tt.out)
		}
	}
}

// TestRequirementSelectorMatchingUpstream ports TestRequirementSelectorMatching.
func TestRequirementSelectorMatchingUpstream(t *testing.T) {
	for i, tt := range []struct {
		set   map[string]string
		sel   Selector
		match bool
	}{
		{map[string]string{"x": "foo", "y": "baz"}, sel(requirement{}), false},
		{map[string]string{"x": "foo", "y": "baz"}, sel(req(t, "x", opIn, "foo"), req(t, "y", opNotIn, "alpha")), true},
		{map[string]string{"x": "foo", "y": "baz"}, sel(req(t, "x", opIn, "foo"), req(t, "y", opIn, "alpha")), false},
		{map[string]string{"y": ""}, sel(req(t, "x", opNotIn, ""), req(t, "y", opExists)), true},
		{map[string]string{"y": ""}, sel(req(t, "x", opDoesNotExist), req(t, "y", opExists)), true},
		{map[string]string{"y": ""}, sel(req(t, "x", opNotIn, ""), req(t, "y", opDoesNotExist)), false},
		{map[string]string{"y": "baz"}, sel(req(t, "x", opIn, "")), false},
		{map[string]string{"z": "2"}, sel(req(t, "z", opGreaterThan, "1")), true},
		{map[string]string{"z": "v2"}, sel(req(t, "z", opGreaterThan, "1")), false},
	} {
		if got := tt.sel.Matches(tt.set); got != tt.match {
			t.Errorf("[%d] %q matches %v: %v, want %v", i, tt.sel.String(), tt.set, got, tt.match)
		}
	}
}

// TestSetSelectorParserUpstream ports TestSetSelectorParser: whether the
// string parses and, where upstream compares, to which selector.
func TestSetSelectorParserUpstream(t *testing.T) {
	for _, tt := range []struct {
		in    string
		out   Selector
		match bool
		valid bool
	}{
		{"", Everything(), true, true},
		{"\rx", sel(req(t, "x", opExists)), true, true},
		{"this-is-a-dns.domain.com/key-with-dash", sel(req(t, "this-is-a-dns.domain.com/key-with-dash", opExists)), true, true},
		{"this-is-another-dns.domain.com/key-with-dash in (so,what)", sel(req(t, "this-is-another-dns.domain.com/key-with-dash", opIn, "so", "what")), true, true},
		{"0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)", sel(req(t, "0.1.2.domain/99", opNotIn, "10.10.100.1", "tick.tack.clock")), true, true},
		{"foo  in\t (abc)", sel(req(t, "foo", opIn, "abc")), true, true},
		{"x notin\n (abc)", sel(req(t, "x", opNotIn, "abc")), true, true},
		{"x  notin\t\t\t(abc,def)", sel(req(t, "x", opNotIn, "abc", "def")), true, true},
		{"x in (abc,def)", sel(req(t, "x", opIn, "abc", "def")), true, true},
		{"x in (abc,)", sel(req(t, "x", opIn, "abc", "")), true, true},
		{"x in ()", sel(req(t, "x", opIn, "")), true, true},
		{"x notin (abc,,def),bar,z in (),w", sel(req(t, "bar", opExists), req(t, "w", opExists), req(t, "x", opNotIn, "abc", "", "def"), req(t, "z", opIn, "")), true, true},
		{"x,y in (a)", sel(req(t, "y", opIn, "a"), req(t, "x", opExists)), false, true},
		{"x=a", sel(req(t, "x", opEquals, "a")), true, true},
		{"x>1", sel(req(t, "x", opGreaterThan, "1")), true, true},
		{"x<7", sel(req(t, "x", opLessThan, "7")), true, true},
		{"x=a,y!=b", sel(req(t, "x", opEquals, "a"), req(t, "y", opNotEquals, "b")), true, true},
		{"x=a,y!=b,z in (h,i,j)", sel(req(t, "x", opEquals, "a"), req(t, "y", opNotEquals, "b"), req(t, "z", opIn, "h", "i", "j")), true, true},
		{"x=a||y=b", Selector{}, false, false},
		{"x,,y", Selector{}, true, false},
		{",x,y", Selector{}, true, false},
		{"x nott in (y)", Selector{}, true, false},
		{"x notin ( )", sel(req(t, "x", opNotIn, "")), true, true},
		{"x notin (, a)", sel(req(t, "x", opNotIn, "", "a")), true, true},
		{"a in (xyz),", Selector{}, true, false},
		{"a in (xyz)b notin ()", Selector{}, true, false},
		{"a ", sel(req(t, "a", opExists)), true, true},
		{"a in (x,y,notin, z,in)", sel(req(t, "a", opIn, "in", "notin", "x", "y", "z")), true, true}, // operator 'in' inside list of identifiers
		{"a in (xyz abc)", Selector{}, false, false},                                                 // no comma
		{"a notin(", Selector{}, true, false},                                                        // bad formed
		{"a (", Selector{}, false, false},                                                            // cpar
		{"(", Selector{}, false, false},                                                              // opar
	} {
		got, err := ParseSelector(tt.in)
		switch {
		case err != nil && tt.valid:
			t.Errorf("ParseSelector(%q): %v", tt.in, err)
		case err == nil && !tt.valid:
			t.Errorf("ParseSelector(%q) = %q, want an error", tt.in, got.String())
		case err == nil && tt.match && !reflect.DeepEqual(got, tt.out):
			t.Errorf("ParseSelector(%q) = %#v, want %#v", tt.in, got, tt.out)
		}
	}
}

// TestRequiresExactMatchUpstream ports TestRequiresExactMatch.
func TestRequiresExactMatchUpstream(t *testing.T) {
	for _, tt := range []struct {
		name          string
		sel           Selector
		label         string
		expectedFound bool
		expectedValue string
	}{
		{"keyInOperatorExactMatch", sel(req(t, "key", opIn, "value")), "key", true, "value"},
		{"keyInOperatorNotExactMatch", sel(req(t, "key", opIn, "value", "value2")), "key", false, ""},
		{"keyInOperatorNotExactMatch", sel(req(t, "key", opIn, "value", "value1"), req(t, "key2", opIn, "value2")), "key2", true, "value2"},
		{"keyEqualOperatorExactMatch", sel(req(t, "key", opEquals, "value")), "key", true, "value"},
		{"keyDoubleEqualOperatorExactMatch", sel(req(t, "key", opDoubleEquals, "value")), "key", true, "value"},
		{"keyNotEqualOperatorExactMatch", sel(req(t, "key", opNotEquals, "value")), "key", false, ""},
		{"keyEqualOperatorExactMatchFirst", sel(req(t, "key", opIn, "value"), req(t, "key2", opIn, "value2")), "key", true, "value"},
	} {
		value, found := tt.sel.RequiresExactMatch(tt.label)
		if found != tt.expectedFound || (found && value != tt.expectedValue) {
			t.Errorf("%s: %q %v, want %q %v", tt.name, value, found, tt.expectedValue, tt.expectedFound)
		}
	}
}

// TestParseSelectorMessagesUpstream pins the parser's messages, which
// upstream's Parse returns as the error text (our SelectorError.Msg):
// rows from its parser code paths, and the key error the API server
// answers for "kubectl get pods -l app:monolith".
func TestParseSelectorMessagesUpstream(t *testing.T) {
	const nameMsg = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
	for _, tt := range []struct{ in, want string }{
		{"app:monolith", `unable to parse requirement: <nil>: Invalid value: "app:monolith": ` + nameMsg},
		{"a/b/c=d", `unable to parse requirement: <nil>: Invalid value: "a/b/c": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`},
		{"app.kubernetes_io/name=x", `unable to parse requirement: <nil>: Invalid value: "app.kubernetes_io/name": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`},
		{"/a", `unable to parse requirement: <nil>: Invalid value: "/a": prefix part must be non-empty`},
		{"a/", `unable to parse requirement: <nil>: Invalid value: "a/": name part must be non-empty; ` + nameMsg},
		// the key is checked before the rest of the requirement is read
		{"a_ in (b", `unable to parse requirement: <nil>: Invalid value: "a_": ` + nameMsg},
		{"x=a_", `unable to parse requirement: values[0][x]: Invalid value: "a_": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`},
		{"x in (a,b_)", `unable to parse requirement: values[1][x]: Invalid value: "b_": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`},
		// parseIdentifiersList
		{"a in (b", "unable to parse requirement: found '', expected: ',' or ')'"},
		{"a in (b c)", "unable to parse requirement: found 'c', expected: ',' or ')'"},
		{"a in (b,=)", "unable to parse requirement: found '=', expected: ',', or identifier"},
		{"a in (,", "unable to parse requirement: found '', expected: ',', or identifier"},
		{"a in (,,)", "unable to parse requirement: found ')', expected: ',', or identifier"},
		{"a in (b,,)", "unable to parse requirement: found ')', expected: ',', or identifier"},
		// parseValues
		{"a in (=", "unable to parse requirement: found '=', expected: ',', ')' or identifier"},
		{"a in b", "unable to parse requirement: found 'b' expected: '('"},
		// parseExactValue, parseOperator, parseKeyAndInferOperator, parse
		{"a=(", "unable to parse requirement: found '(', expected: identifier"},
		{"a b", "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"},
		{"!=a", "found '!=', expected: !, identifier, or 'end of string'"},
		{"!,a", "unable to parse requirement: found ',', expected: identifier"},
		// TestParseOperator's refused operators, in a requirement
		{"a !", "unable to parse requirement: found '!', expected: in, notin, =, ==, !=, gt, lt"},
		{"a exists", "unable to parse requirement: found 'exists', expected: in, notin, =, ==, !=, gt, lt"},
		{"a (", "unable to parse requirement: found '(', expected: in, notin, =, ==, !=, gt, lt"},
		// a NUL byte ends the input where a token would start, and is
		// swallowed right after one
		{"a=b\x00c=d", "found 'c', expected: ',' or 'end of string'"},
		{"a,\x00", "found '', expected: identifier after ','"},
		{"a=b,", "found '', expected: identifier after ','"},
		{"a=b)", "found ')', expected: ',' or 'end of string'"},
		{",a", "found ',', expected: !, identifier, or 'end of string'"},
	} {
		_, err := ParseSelector(tt.in)
		var se *SelectorError
		if !errors.As(err, &se) {
			t.Errorf("ParseSelector(%q): %v is not a *SelectorError", tt.in, err)
			continue
		}
		if se.Msg != tt.want {
			t.Errorf("ParseSelector(%q):\n got %s\nwant %s", tt.in, se.Msg, tt.want)
		}
	}
	// Rows upstream accepts that the checks above must not refuse.
	for in, want := range map[string]string{"a in (b,,,c)": "a in (,b,c)", "a in (,b)": "a in (,b)", "a in (b,)": "a in (,b)", "\x00a": "", "a\x00": "a", "a \x00b": "a"} {
		if s, err := ParseSelector(in); err != nil || s.String() != want {
			t.Errorf("ParseSelector(%q) = %q, %v; want %q", in, s.String(), err, want)
		}
	}
}

// TestSetStringUpstream ports labels_test.go's TestSetString: a Set prints
// as the selector it makes (upstream's Set.String is
// SelectorFromSet(ls).String()). The rest of labels_test.go (Has, Get,
// Conflicts, Merge, ConvertSelectorToLabelsMap) tests helpers sim/api
// does not have: labels here are plain maps.
func TestSetStringUpstream(t *testing.T) {
	for _, tt := range []struct {
		set  map[string]string
		want string
	}{
		{map[string]string{"x": "y"}, "x=y"},
		{map[string]string{"foo": "bar"}, "foo=bar"},
		{map[string]string{"foo": "bar", "baz": "qup"}, "baz=qup,foo=bar"},
		// selector_test.go's TestSetSelectorString
		{map[string]string{}, ""},
		{map[string]string{"app": "foo"}, "app=foo"},
		{map[string]string{"app": "foo", "a": "b"}, "a=b,app=foo"},
	} {
		if got := SelectorFromSet(tt.set).String(); got != tt.want {
			t.Errorf("SelectorFromSet(%v).String() = %q, want %q", tt.set, got, tt.want)
		}
	}
}

// TestParseSortOrderUpstream: upstream's parse sorts requirements by key
// with sort.Sort, which is not stable; from 13 requirements on, those
// sharing a key can print in another order than written. The expected
// string is labels.Parse(in).String() of apimachinery v0.37.2.
func TestParseSortOrderUpstream(t *testing.T) {
	in := "!a,a>5,a notin (4),a==7,a=1,b,a notin (4),!a,!a,a==7,a>5,a!=2,a notin (4)"
	want := "a notin (4),a>5,a notin (4),a==7,a=1,!a,!a,!a,a==7,a>5,a!=2,a notin (4),b"
	s, err := ParseSelector(in)
	if err != nil || s.String() != want {
		t.Errorf("ParseSelector(%q) = %q, %v; want %q", in, s.String(), err, want)
	}
}
