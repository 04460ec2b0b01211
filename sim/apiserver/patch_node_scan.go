package apiserver

import (
	"unicode/utf8"

	"github.com/clustersim/clustersim/sim/api"
)

// scanConditionsPatch is parseConditionsPatch read straight from the
// bytes, for the patches whose every string is plain (no escape, valid
// UTF-8) and whose every key appears once: what a kubelet sends. It
// returns what decoding them into maps returns (decodeConditionsPatch;
// FuzzScanConditionsPatch holds the two to it) without building the
// maps, the interface values and their strings: decoding was 10 µs and
// 92 allocations of a heartbeat's 10 (BenchmarkNodeStatusPatch), and
// a seventh of what a 3,000-node cluster allocated once its pods ran
// (BenchmarkNodesSteadyState's profiles, docs/PERFORMANCE.md's
// twenty-ninth pass: 161 of 1,107 MB). ok is false, with nothing
// decided, for anything else: the caller decodes it then.
func scanConditionsPatch(patch []byte) (doc api.NodeConditionsPatchStatus, ok bool) {
	s := patchScanner{b: patch}
	if !s.next('{') || string(s.str()) != "status" || !s.next(':') || !s.next('{') {
		return doc, false
	}
	// seen has a bit for each of the two lists: a key twice is decoding's
	// (which keeps the last).
	seen := 0
	for first := true; !s.next('}'); first = false {
		key := s.key(first)
		if key == nil {
			return doc, false
		}
		var list *[]api.NodeConditionPatch
		bit, typeOnly := 1, false
		switch string(key) {
		case "conditions":
			list = &doc.Conditions
		case "$setElementOrder/conditions":
			list, bit, typeOnly = &doc.Order, 2, true
		default:
			return doc, false
		}
		if seen&bit != 0 {
			return doc, false
		}
		seen |= bit
		if *list, ok = s.patches(typeOnly); !ok {
			return doc, false
		}
	}
	if seen&2 != 0 && doc.Order == nil {
		// An empty element order is an order, as decoding has it.
		doc.Order = []api.NodeConditionPatch{}
	}
	if !s.next('}') {
		return doc, false
	}
	s.space()
	return doc, s.i == len(s.b)
}

// patchScanner reads a patch's bytes from i on.
type patchScanner struct {
	b []byte
	i int
}

// space skips JSON's white space.
func (s *patchScanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// next skips white space and then c, reporting whether c was there.
func (s *patchScanner) next(c byte) bool {
	s.space()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// str reads a string without escapes, of valid UTF-8 (which decoding
// leaves as it is), and returns its bytes; nil when the next value is
// anything else.
func (s *patchScanner) str() []byte {
	s.space()
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return nil
	}
	start := s.i + 1
	for j := start; j < len(s.b); j++ {
		switch c := s.b[j]; {
		case c == '"':
			out := s.b[start:j:j]
			if !utf8.Valid(out) {
				return nil
			}
			s.i = j + 1
			return out
		case c == '\\' || c < 0x20:
			return nil
		}
	}
	return nil
}

// key reads an object member's key and the colon after it, and before
// them the comma that ends the member before unless first; nil when
// they are not there.
func (s *patchScanner) key(first bool) []byte {
	if !first && !s.next(',') {
		return nil
	}
	k := s.str()
	if k == nil || !s.next(':') {
		return nil
	}
	return k
}

// patches reads a list of condition patches as conditionPatches reads
// the decoded list: typeOnly allows the type alone (the element order),
// every element must have a type, and a "$patch" can only delete.
func (s *patchScanner) patches(typeOnly bool) ([]api.NodeConditionPatch, bool) {
	if !s.next('[') {
		return nil, false
	}
	var out []api.NodeConditionPatch
	for first := true; !s.next(']'); first = false {
		if !first && !s.next(',') {
			return nil, false
		}
		p, ok := s.patch(typeOnly)
		if !ok {
			return nil, false
		}
		out = append(out, p)
	}
	return out, true
}

// The keys of one condition patch, as bits of what patch has seen.
const (
	seenType = 1 << iota
	seenStatus
	seenReason
	seenMessage
	seenPatch
	seenHeartbeat
	seenTransition
)

// patch reads one condition patch: an object of strings.
func (s *patchScanner) patch(typeOnly bool) (api.NodeConditionPatch, bool) {
	var p api.NodeConditionPatch
	if !s.next('{') {
		return p, false
	}
	var ok bool
	seen := 0
	for first := true; !s.next('}'); first = false {
		key := s.key(first)
		if key == nil {
			return p, false
		}
		v := s.str()
		if v == nil || (typeOnly && string(key) != "type") {
			return p, false
		}
		var bit int
		switch string(key) {
		case "type":
			bit = seenType
			p.Type = conditionType(v)
		case "status":
			bit = seenStatus
			c := api.ConditionStatus(conditionStatus(v))
			p.Status = &c
		case "reason":
			bit = seenReason
			r := string(v)
			p.Reason = &r
		case "message":
			bit = seenMessage
			m := string(v)
			p.Message = &m
		case "$patch":
			if string(v) != "delete" {
				return p, false
			}
			bit = seenPatch
			p.Patch = "delete"
		case "lastHeartbeatTime":
			bit = seenHeartbeat
			if p.LastHeartbeatTime, ok = parseTime(v); !ok {
				return p, false
			}
		case "lastTransitionTime":
			bit = seenTransition
			if p.LastTransitionTime, ok = parseTime(v); !ok {
				return p, false
			}
		default:
			return p, false
		}
		if seen&bit != 0 {
			return p, false
		}
		seen |= bit
	}
	return p, p.Type != ""
}

// parseTime reads a condition's time as decoding's path does
// (api.ParseTime).
func parseTime(b []byte) (*api.Time, bool) {
	t, err := api.ParseTime(string(b))
	if err != nil {
		return nil, false
	}
	return &t, true
}

// conditionType is b as a condition type, the node conditions a kubelet
// reports without a new string each.
func conditionType(b []byte) api.NodeConditionType {
	for _, t := range [...]api.NodeConditionType{api.NodeReady, api.NodeMemoryPressure, api.NodeDiskPressure, api.NodePIDPressure, api.NodeNetworkUnavailable} {
		if string(b) == string(t) {
			return t
		}
	}
	return api.NodeConditionType(b)
}

// conditionStatus is b as a condition status, without a new string for
// the three there are.
func conditionStatus(b []byte) string {
	for _, st := range [...]api.ConditionStatus{api.ConditionTrue, api.ConditionFalse, api.ConditionUnknown} {
		if string(b) == string(st) {
			return string(st)
		}
	}
	return string(b)
}
