package api

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// LabelSelector is the API form of a label query (metav1.LabelSelector):
// matchLabels and matchExpressions are ANDed. A nil selector matches
// nothing and an empty one matches everything; compile it with
// LabelSelectorAsSelector before matching.
type LabelSelector struct {
	// MatchLabels requires each key to be present with exactly this value.
	MatchLabels map[string]string `json:"matchLabels,omitempty"`
	// MatchExpressions are set-based requirements.
	MatchExpressions []LabelSelectorRequirement `json:"matchExpressions,omitempty"`
}

// LabelSelectorRequirement is one set-based requirement of a LabelSelector.
type LabelSelectorRequirement struct {
	// Key is the label key the requirement applies to.
	Key string `json:"key"`
	// Operator relates the key to Values.
	Operator LabelSelectorOperator `json:"operator"`
	// Values must be non-empty for In and NotIn and empty otherwise.
	Values []string `json:"values,omitempty"`
}

// LabelSelectorOperator is the operator of a LabelSelectorRequirement.
type LabelSelectorOperator string

const (
	// LabelSelectorOpIn requires the label's value to be one of Values.
	LabelSelectorOpIn LabelSelectorOperator = "In"
	// LabelSelectorOpNotIn requires the label to be absent or not in Values.
	LabelSelectorOpNotIn LabelSelectorOperator = "NotIn"
	// LabelSelectorOpExists requires the label to be present.
	LabelSelectorOpExists LabelSelectorOperator = "Exists"
	// LabelSelectorOpDoesNotExist requires the label to be absent.
	LabelSelectorOpDoesNotExist LabelSelectorOperator = "DoesNotExist"
)

// SelectorError reports a label selector that cannot be compiled or parsed.
// Its message follows apimachinery's wording where there is one.
type SelectorError struct {
	Input string // the selector text, or "" for a LabelSelector
	Msg   string // what is wrong
}

// Error returns the message, prefixed with the input when there is one.
func (e *SelectorError) Error() string {
	if e.Input == "" {
		return e.Msg
	}
	return "unable to parse selector " + strconv.Quote(e.Input) + ": " + e.Msg
}

// selOp is a compiled selector operator.
type selOp uint8

const (
	opEquals selOp = iota
	opDoubleEquals
	opNotEquals
	opIn
	opNotIn
	opExists
	opDoesNotExist
	opGreaterThan
	opLessThan
)

// requirement is one compiled requirement; values are sorted and unique.
type requirement struct {
	key    string
	op     selOp
	values []string
	num    int64 // the bound of opGreaterThan and opLessThan
}

func (r *requirement) has(v string) bool {
	for _, x := range r.values {
		if x == v {
			return true
		}
	}
	return false
}

func (r *requirement) matches(labels map[string]string) bool {
	v, ok := labels[r.key]
	switch r.op {
	case opEquals, opDoubleEquals, opIn:
		return ok && r.has(v)
	case opNotEquals, opNotIn:
		return !ok || !r.has(v)
	case opExists:
		return ok
	case opDoesNotExist:
		return !ok
	case opGreaterThan, opLessThan:
		if !ok {
			return false
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return false
		}
		if r.op == opGreaterThan {
			return n > r.num
		}
		return n < r.num
	}
	return false
}

func (r *requirement) write(b *strings.Builder) {
	if r.op == opDoesNotExist {
		b.WriteByte('!')
	}
	b.WriteString(r.key)
	switch r.op {
	case opExists, opDoesNotExist:
		return
	case opEquals:
		b.WriteByte('=')
	case opDoubleEquals:
		b.WriteString("==")
	case opNotEquals:
		b.WriteString("!=")
	case opGreaterThan:
		b.WriteByte('>')
	case opLessThan:
		b.WriteByte('<')
	case opIn:
		b.WriteString(" in (")
	case opNotIn:
		b.WriteString(" notin (")
	}
	b.WriteString(strings.Join(r.values, ","))
	if r.op == opIn || r.op == opNotIn {
		b.WriteByte(')')
	}
}

// Selector is a compiled label selector: a conjunction of requirements
// sorted by key. The zero Selector, like Nothing(), matches no labels; a
// Selector is immutable once built, so it may be shared freely.
type Selector struct {
	reqs  []requirement
	valid bool // false for Nothing() and the zero Selector
}

// Everything returns a selector that matches all labels.
func Everything() Selector { return Selector{valid: true} }

// Nothing returns a selector that matches no labels.
func Nothing() Selector { return Selector{} }

// Matches reports whether labels satisfy every requirement. It does not
// allocate.
func (s Selector) Matches(labels map[string]string) bool {
	if !s.valid {
		return false
	}
	for i := range s.reqs {
		if !s.reqs[i].matches(labels) {
			return false
		}
	}
	return true
}

// Empty reports whether s matches everything (Nothing is not empty).
func (s Selector) Empty() bool { return s.valid && len(s.reqs) == 0 }

// String returns the kubectl form, requirements sorted by key and values
// sorted: "app=nginx,tier in (a,b)". Everything and Nothing both print "",
// as upstream.
func (s Selector) String() string {
	var b strings.Builder
	for i := range s.reqs {
		if i > 0 {
			b.WriteByte(',')
		}
		s.reqs[i].write(&b)
	}
	return b.String()
}

// RequiresExactMatch returns the value s requires label key to have, when a
// single value is required ("app=web" or "app in (web)").
func (s Selector) RequiresExactMatch(key string) (value string, found bool) {
	for i := range s.reqs {
		r := &s.reqs[i]
		if r.key != key {
			continue
		}
		switch r.op {
		case opEquals, opDoubleEquals, opIn:
			if len(r.values) == 1 {
				return r.values[0], true
			}
		}
		return "", false
	}
	return "", false
}

// ExactMatch returns the first label, in key order, that s requires to
// have a single value ("app=web", "app==web" or "app in (web)"): the key
// and value under which an index of labels finds every object s can
// match. ok is false when s requires no label a single value (Everything,
// Nothing, or only sets, negations and existence tests).
func (s Selector) ExactMatch() (key, value string, ok bool) {
	if !s.valid {
		return "", "", false
	}
	for i := range s.reqs {
		r := &s.reqs[i]
		switch r.op {
		case opEquals, opDoubleEquals, opIn:
			if len(r.values) == 1 {
				return r.key, r.values[0], true
			}
		}
	}
	return "", "", false
}

// Requirements returns how many requirements s has (0 for Everything and
// Nothing): with ExactMatch, whether an index of that label alone decides
// the match.
func (s Selector) Requirements() int { return len(s.reqs) }

// newSelector sorts reqs by key with sort.Sort, as upstream's parse and
// Selector.Add do: that sort is not stable, and upstream prints
// requirements sharing a key in the order it leaves them (from 13
// requirements on it can differ from the written order), so ours does the
// same swaps on the same input. It is deterministic.
func newSelector(reqs []requirement) Selector {
	sort.Sort(byKey(reqs))
	return Selector{reqs: reqs, valid: true}
}

type byKey []requirement

func (a byKey) Len() int           { return len(a) }
func (a byKey) Swap(i, j int)      { a[i], a[j] = a[j], a[i] }
func (a byKey) Less(i, j int) bool { return a[i].key < a[j].key }

// SelectorFromSet returns a selector requiring every key of set to have its
// value; nil or empty sets give Everything. Like upstream it does not
// validate keys or values.
func SelectorFromSet(set map[string]string) Selector {
	if len(set) == 0 {
		return Everything()
	}
	reqs := make([]requirement, 0, len(set))
	for k, v := range set {
		reqs = append(reqs, requirement{key: k, op: opEquals, values: []string{v}})
	}
	return newSelector(reqs) // sorted by key, so map order does not leak
}

// LabelSelectorAsSelector compiles a LabelSelector with upstream semantics:
// nil matches nothing, an empty selector matches everything, and an unknown
// operator or an invalid key or value is a *SelectorError.
func LabelSelectorAsSelector(ls *LabelSelector) (Selector, error) {
	if ls == nil {
		return Nothing(), nil
	}
	if len(ls.MatchLabels)+len(ls.MatchExpressions) == 0 {
		return Everything(), nil
	}
	reqs := make([]requirement, 0, len(ls.MatchLabels)+len(ls.MatchExpressions))
	keys := make([]string, 0, len(ls.MatchLabels))
	for k := range ls.MatchLabels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		r, msg := newRequirement(k, opEquals, []string{ls.MatchLabels[k]})
		if msg != "" {
			return Nothing(), &SelectorError{Msg: msg}
		}
		reqs = append(reqs, r)
	}
	for _, e := range ls.MatchExpressions {
		var op selOp
		switch e.Operator {
		case LabelSelectorOpIn:
			op = opIn
		case LabelSelectorOpNotIn:
			op = opNotIn
		case LabelSelectorOpExists:
			op = opExists
		case LabelSelectorOpDoesNotExist:
			op = opDoesNotExist
		default:
			return Nothing(), &SelectorError{Msg: strconv.Quote(string(e.Operator)) + " is not a valid label selector operator"}
		}
		r, msg := newRequirement(e.Key, op, append([]string(nil), e.Values...))
		if msg != "" {
			return Nothing(), &SelectorError{Msg: msg}
		}
		reqs = append(reqs, r)
	}
	return newSelector(reqs), nil
}

// newRequirement validates and builds a requirement, copying and sorting
// values; it returns a non-empty message when the input is invalid. Like
// apimachinery's NewRequirement it reports every problem, each as
// field.Error prints one ("values[0][app]: Invalid value: \"a b\": ..."),
// several as an aggregate ("[first, second]"). Values are checked in the
// order given, so their indexes are the caller's.
func newRequirement(key string, op selOp, values []string) (requirement, string) {
	var errs []string
	if msg := validateLabelKey(key); msg != "" {
		errs = append(errs, invalidValue("key", strconv.Quote(key), msg))
	}
	r := requirement{key: key, op: op}
	switch op {
	case opIn, opNotIn:
		if len(values) == 0 {
			errs = append(errs, invalidValue("values", jsonValue(values), "for 'in', 'notin' operators, values set can't be empty"))
		}
	case opEquals, opDoubleEquals, opNotEquals:
		if len(values) != 1 {
			errs = append(errs, invalidValue("values", jsonValue(values), "exact-match compatibility requires one single value"))
		}
	case opExists, opDoesNotExist:
		if len(values) != 0 {
			errs = append(errs, invalidValue("values", jsonValue(values), "values set must be empty for exists and does not exist"))
		}
	case opGreaterThan, opLessThan:
		if len(values) != 1 {
			errs = append(errs, invalidValue("values", jsonValue(values), "for 'Gt', 'Lt' operators, exactly one value is required"))
		}
		for i, v := range values {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				errs = append(errs, invalidValue("values["+strconv.Itoa(i)+"]", strconv.Quote(v), "for 'Gt', 'Lt' operators, the value must be an integer"))
				continue
			}
			r.num = n
		}
	}
	for i, v := range values {
		if msg := validateLabelValue(v); msg != "" {
			errs = append(errs, invalidValue("values["+strconv.Itoa(i)+"]["+key+"]", strconv.Quote(v), msg))
		}
	}
	if len(errs) > 0 {
		return requirement{}, aggregate(errs)
	}
	if len(values) > 0 {
		r.values = append([]string(nil), values...)
		sort.Strings(r.values)
		r.values = compactStrings(r.values)
	}
	return r, ""
}

// jsonValue renders a bad value that is not a string or number as
// apimachinery v0.37's field.Error does: as JSON ("null", "[]",
// "[\"a\",\"b\"]").
func jsonValue(v []string) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	return string(b)
}

// invalidValue prints a field.Invalid error: path, the bad value as
// upstream formats it (quoted strings, JSON slices), and the detail.
func invalidValue(path, value, detail string) string {
	return path + ": Invalid value: " + value + ": " + detail
}

// aggregate joins messages as apimachinery's error aggregate does: one
// alone, several in brackets, duplicates once.
func aggregate(msgs []string) string {
	var out []string
	for _, m := range msgs {
		seen := false
		for _, o := range out {
			seen = seen || o == m
		}
		if !seen {
			out = append(out, m)
		}
	}
	if len(out) == 1 {
		return out[0]
	}
	return "[" + strings.Join(out, ", ") + "]"
}

func compactStrings(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// The messages of apimachinery's api/validate/content IsLabelKey (what
// validation.IsQualifiedName is in v0.37), IsLabelValue and
// IsDNS1123Subdomain, with their examples. Their lengths are in bytes
// ("must be no more than 63 bytes"), unlike util/validation's own
// IsDNS1123Subdomain, which counts characters.
const (
	qualifiedNameMsg    = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
	labelValueMsg       = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
	dns1123SubdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
)

// validateLabelKey checks a qualified name as IsQualifiedName does: an
// optional DNS-subdomain prefix and '/', then a name of at most 63
// bytes. Every problem is reported, joined by "; ".
func validateLabelKey(k string) string { return strings.Join(LabelKeyProblems(k), "; ") }

// LabelKeyProblems returns apimachinery v0.37's content.IsLabelKey
// problems with k (what validation.IsQualifiedName is there): nil for a
// valid key; for a key with more than one '/' only "a valid label key
// ..."; otherwise the prefix's (empty, or content.IsDNS1123Subdomain's:
// over 253 bytes, the pattern) and then the name's (empty or over 63
// bytes, the pattern), each reported.
func LabelKeyProblems(k string) []string {
	var errs []string
	name := k
	switch strings.Count(k, "/") {
	case 0:
	case 1:
		var prefix string
		prefix, name, _ = strings.Cut(k, "/")
		if prefix == "" {
			errs = append(errs, "prefix part must be non-empty")
		} else {
			for _, msg := range dnsSubdomainProblems(prefix) {
				errs = append(errs, "prefix part "+msg)
			}
		}
	default:
		return []string{"a valid label key " + qualifiedNameMsg + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"}
	}
	if name == "" {
		errs = append(errs, "name part must be non-empty")
	} else if len(name) > 63 {
		errs = append(errs, "name part must be no more than 63 bytes")
	}
	if !IsLabelToken(name) {
		errs = append(errs, "name part "+qualifiedNameMsg)
	}
	return errs
}

// ValidLabelValue reports whether v may be a label value: at most 63
// characters, empty or alphanumerics with '-', '_' and '.' inside
// (apimachinery validation.IsValidLabelValue). A selector requirement
// with any other value is invalid and matches nothing.
func ValidLabelValue(v string) bool { return validateLabelValue(v) == "" }

// validateLabelValue returns IsValidLabelValue's problems, joined by "; ".
func validateLabelValue(v string) string { return strings.Join(LabelValueProblems(v), "; ") }

// LabelValueProblems returns apimachinery v0.37's content.IsLabelValue
// problems with v (validation.IsValidLabelValue): over 63 bytes, and the
// pattern, each reported; nil for a valid value.
func LabelValueProblems(v string) []string {
	var errs []string
	if len(v) > 63 {
		errs = append(errs, "must be no more than 63 bytes")
	}
	if v != "" && !IsLabelToken(v) {
		errs = append(errs, labelValueMsg)
	}
	return errs
}

func isAlnum(c byte) bool {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// IsLabelToken matches ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]: a label
// value, or the name part of a qualified name, that is not empty.
func IsLabelToken(s string) bool {
	if s == "" || !isAlnum(s[0]) || !isAlnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		c := s[i]
		if !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

func isLowerAlnum(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') }

// dnsSubdomainProblems returns content.IsDNS1123Subdomain's problems: the
// length (at most 253 bytes) and the form, each reported.
func dnsSubdomainProblems(s string) []string {
	var errs []string
	if len(s) > 253 {
		errs = append(errs, "must be no more than 253 bytes")
	}
	ok := s != ""
	for rest, more := s, true; ok && more; {
		var part string
		part, rest, more = strings.Cut(rest, ".")
		if part == "" || !isLowerAlnum(part[0]) || !isLowerAlnum(part[len(part)-1]) {
			ok = false
		}
		for i := 0; i < len(part) && ok; i++ {
			ok = isLowerAlnum(part[i]) || part[i] == '-'
		}
	}
	if !ok {
		errs = append(errs, dns1123SubdomainMsg)
	}
	return errs
}

// ParseSelector parses the string form used by list options and kubectl -l:
// "a=b,c!=d,e in (x,y),f notin (z),g,!h,i>3". The empty string selects
// everything. Errors are *SelectorError values.
func ParseSelector(s string) (Selector, error) {
	p := selParser{toks: lexSelector(s)}
	reqs, msg := p.parse()
	if msg != "" {
		return Nothing(), &SelectorError{Input: s, Msg: msg}
	}
	return newSelector(reqs), nil
}

type tokKind uint8

const (
	tokEnd tokKind = iota
	tokIdent
	tokComma
	tokOpen
	tokClose
	tokNot
	tokEq
	tokDoubleEq
	tokNotEq
	tokGt
	tokLt
	tokIn
	tokNotIn
)

type token struct {
	kind tokKind
	lit  string
}

func isSelectorSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func isSelectorSymbol(c byte) bool {
	switch c {
	case '=', '!', '(', ')', ',', '>', '<':
		return true
	}
	return false
}

// lexSelector tokenises like apimachinery's Lexer: symbol runs take the
// longest known operator, everything else up to a space or symbol is an
// identifier, and "in"/"notin" are keywords.
func lexSelector(s string) []token {
	var toks []token
	i := 0
	for {
		for i < len(s) && isSelectorSpace(s[i]) {
			i++
		}
		// Upstream's lexer reads a NUL byte as the end of the input when a
		// token would start there ("\x00a" selects everything); right
		// after a token it is swallowed as a separator ("b\x00c" is two
		// identifiers).
		if i == len(s) || s[i] == 0 {
			return append(toks, token{kind: tokEnd})
		}
		c := s[i]
		if isSelectorSymbol(c) {
			switch {
			case strings.HasPrefix(s[i:], "!="):
				toks = append(toks, token{tokNotEq, "!="})
				i += 2
			case strings.HasPrefix(s[i:], "=="):
				toks = append(toks, token{tokDoubleEq, "=="})
				i += 2
			default:
				toks = append(toks, token{symbolKind(c), s[i : i+1]})
				i++
			}
		} else {
			j := i
			for j < len(s) && s[j] != 0 && !isSelectorSpace(s[j]) && !isSelectorSymbol(s[j]) {
				j++
			}
			lit := s[i:j]
			kind := tokIdent
			switch lit {
			case "in":
				kind = tokIn
			case "notin":
				kind = tokNotIn
			}
			toks = append(toks, token{kind, lit})
			i = j
		}
		if i < len(s) && s[i] == 0 {
			i++
		}
	}
}

func symbolKind(c byte) tokKind {
	switch c {
	case '=':
		return tokEq
	case '!':
		return tokNot
	case '(':
		return tokOpen
	case ')':
		return tokClose
	case ',':
		return tokComma
	case '>':
		return tokGt
	}
	return tokLt
}

type selParser struct {
	toks []token
	pos  int
}

// peek returns the next token; in value position the keywords are plain
// identifiers ("x in (in)").
func (p *selParser) peek(value bool) token {
	t := p.toks[p.pos]
	if value && (t.kind == tokIn || t.kind == tokNotIn) {
		t.kind = tokIdent
	}
	return t
}

func (p *selParser) next(value bool) token {
	t := p.peek(value)
	if p.pos < len(p.toks)-1 {
		p.pos++
	}
	return t
}

func (p *selParser) parse() ([]requirement, string) {
	var reqs []requirement
	for {
		t := p.peek(true)
		switch t.kind {
		case tokEnd:
			return reqs, ""
		case tokIdent, tokNot:
		default:
			return nil, "found '" + t.lit + "', expected: !, identifier, or 'end of string'"
		}
		r, msg := p.requirement()
		if msg != "" {
			return nil, "unable to parse requirement: " + msg
		}
		reqs = append(reqs, r)
		t = p.next(true)
		switch t.kind {
		case tokEnd:
			return reqs, ""
		case tokComma:
			if n := p.peek(true); n.kind != tokIdent && n.kind != tokNot {
				return nil, "found '" + n.lit + "', expected: identifier after ','"
			}
		default:
			return nil, "found '" + t.lit + "', expected: ',' or 'end of string'"
		}
	}
}

func (p *selParser) requirement() (requirement, string) {
	t := p.next(true)
	notExist := t.kind == tokNot
	if notExist {
		t = p.next(true)
	}
	if t.kind != tokIdent {
		return requirement{}, "found '" + t.lit + "', expected: identifier"
	}
	key := t.lit
	// Upstream checks the key as soon as it is read, before the operator
	// and values, under a nil field path (printed "<nil>").
	if msg := validateLabelKey(key); msg != "" {
		return requirement{}, invalidValue("<nil>", strconv.Quote(key), msg)
	}
	if notExist {
		// Anything after "!key" is reported by the caller, as upstream.
		return newRequirement(key, opDoesNotExist, nil)
	}
	if n := p.peek(true); n.kind == tokEnd || n.kind == tokComma {
		return newRequirement(key, opExists, nil)
	}
	opTok := p.next(false)
	var op selOp
	switch opTok.kind {
	case tokIn:
		op = opIn
	case tokNotIn:
		op = opNotIn
	case tokEq:
		op = opEquals
	case tokDoubleEq:
		op = opDoubleEquals
	case tokNotEq:
		op = opNotEquals
	case tokGt:
		op = opGreaterThan
	case tokLt:
		op = opLessThan
	default:
		return requirement{}, "found '" + opTok.lit + "', expected: in, notin, =, ==, !=, gt, lt"
	}
	if op == opIn || op == opNotIn {
		values, msg := p.valueSet()
		if msg != "" {
			return requirement{}, msg
		}
		// Upstream collects the values in a set and passes its sorted
		// list, so a bad value's index is its place in that order.
		sort.Strings(values)
		return newRequirement(key, op, compactStrings(values))
	}
	n := p.peek(true)
	if n.kind == tokEnd || n.kind == tokComma {
		return newRequirement(key, op, []string{""})
	}
	if n = p.next(true); n.kind != tokIdent {
		return requirement{}, "found '" + n.lit + "', expected: identifier"
	}
	return newRequirement(key, op, []string{n.lit})
}

// valueSet parses "(a,b,c)" as upstream's parseValues and
// parseIdentifiersList: "()" and empty members stand for "", but a ",,"
// is consumed with the member after it, so "(a,,)" and "(,,)" are refused
// where "(a,,b)" and "(a,)" are not.
func (p *selParser) valueSet() ([]string, string) {
	if t := p.next(true); t.kind != tokOpen {
		return nil, "found '" + t.lit + "' expected: '('"
	}
	switch t := p.peek(true); t.kind {
	case tokClose:
		p.next(true)
		return []string{""}, ""
	case tokIdent, tokComma:
	default:
		return nil, "found '" + t.lit + "', expected: ',', ')' or identifier"
	}
	var values []string
	for {
		t := p.next(true)
		switch t.kind {
		case tokIdent:
			values = append(values, t.lit)
			switch n := p.peek(true); n.kind {
			case tokComma:
			case tokClose:
				p.next(true)
				return values, ""
			default:
				return nil, "found '" + n.lit + "', expected: ',' or ')'"
			}
		case tokComma:
			if len(values) == 0 {
				values = append(values, "") // "(,"
			}
			switch n := p.peek(true); n.kind {
			case tokClose:
				p.next(true)
				return append(values, ""), "" // ",)"
			case tokComma:
				p.next(true)
				values = append(values, "") // ",,"
			}
		default:
			return nil, "found '" + t.lit + "', expected: ',', or identifier"
		}
	}
}
