package apiserver

import (
	"bytes"
	"encoding/json"
	"math"
	"time"
	"unicode/utf8"

	"github.com/clustersim/clustersim/sim/api"
)

// An event recorder that sees an Event again (client-go's EventCorrelator:
// the same event repeated, or similar ones aggregated) patches the Event
// it wrote before with a new count, last timestamp and message: a merge
// patch of exactly {"count":N,"lastTimestamp":"T","message":"M"}. Through
// JSON (the Event encoded, decoded into maps, merged, encoded and decoded
// again) each cost some 93 µs (BenchmarkEventCountPatch), which a run
// whose events repeat (a crash loop's BackOff, a pending pod's
// FailedScheduling, aggregated creates) pays on every repeat.
// eventCountPatch applies that one shape to the typed Event; anything
// else takes the general path. TestEventCountPatchMatches and
// FuzzEventCountPatch hold the two to the same result.

// eventCountPatch applies patch, a merge patch, to old when old is an
// Event whose every other field comes back from JSON unchanged
// (eventRoundTrips) and the patch is the recorder's, keys in its order,
// no space, no escape in its strings (scanEventCountPatch); ok is false
// otherwise. The result shares all but the three fields with old (stored
// objects are never changed in place); its resourceVersion is empty, as
// the general path's patchedIdentity makes it, so that the update applies
// to the latest state.
func eventCountPatch(old api.Object, patch []byte) (api.Object, bool) {
	e, isEvent := old.(*api.Event)
	if !isEvent {
		return nil, false
	}
	count, last, message, ok := scanEventCountPatch(patch)
	if !ok || !eventRoundTrips(e) {
		return nil, false
	}
	p := *e
	p.Count, p.LastTimestamp, p.Message = count, last, message
	p.ResourceVersion = ""
	return &p, true
}

// scanEventCountPatch reads patch as the recorder's merge patch of an
// Event: {"count":N,"lastTimestamp":"T","message":"M"} with N a count
// without sign or leading zero that fits an int32, T a time Time's
// UnmarshalJSON reads, and M a string of valid UTF-8 without a backslash,
// a quote or a control character (json.Marshal escapes none of the
// other characters a message holds but <, > and &, which it writes as
// \u escapes). ok is false for anything else.
func scanEventCountPatch(patch []byte) (count int32, last api.Time, message string, ok bool) {
	rest, ok := bytes.CutPrefix(patch, []byte(`{"count":`))
	if !ok {
		return 0, api.Time{}, "", false
	}
	i, n := 0, int64(0)
	for ; i < len(rest) && rest[i] >= '0' && rest[i] <= '9'; i++ {
		if n = n*10 + int64(rest[i]-'0'); n > math.MaxInt32 {
			return 0, api.Time{}, "", false
		}
	}
	if i == 0 || i > 1 && rest[0] == '0' {
		return 0, api.Time{}, "", false
	}
	if rest, ok = bytes.CutPrefix(rest[i:], []byte(`,"lastTimestamp":`)); !ok {
		return 0, api.Time{}, "", false
	}
	ts, rest, ok := plainString(rest)
	if !ok {
		return 0, api.Time{}, "", false
	}
	// Time's UnmarshalJSON of a string that needs no unescaping: the
	// string's bytes through ParseTime.
	last, err := api.ParseTime(string(ts[1 : len(ts)-1]))
	if err != nil {
		return 0, api.Time{}, "", false
	}
	if rest, ok = bytes.CutPrefix(rest, []byte(`,"message":`)); !ok {
		return 0, api.Time{}, "", false
	}
	msg, rest, ok := plainString(rest)
	if !ok || string(rest) != "}" {
		return 0, api.Time{}, "", false
	}
	return int32(n), last, string(msg[1 : len(msg)-1]), true
}

// plainString splits b after a leading JSON string that needs no
// unescaping and decodes to its own bytes: quoted, valid UTF-8, no
// backslash, no control character. quoted keeps the quotes.
func plainString(b []byte) (quoted, rest []byte, ok bool) {
	if len(b) == 0 || b[0] != '"' {
		return nil, nil, false
	}
	end := bytes.IndexByte(b[1:], '"')
	if end < 0 {
		return nil, nil, false
	}
	s := b[1 : 1+end]
	for _, c := range s {
		if c < 0x20 || c == '\\' {
			return nil, nil, false
		}
	}
	if !utf8.Valid(s) {
		return nil, nil, false
	}
	return b[:end+2], b[end+2:], true
}

// eventRoundTrips reports whether e's fields but the three the patch
// sets are what JSON would give back (the general path encodes the Event
// and decodes the patched one): the fields a recorder's Event leaves
// empty are empty (nil, which encodes as absent, not an empty list or
// map), strings are valid UTF-8, times are whole seconds in UTC, raw
// values compact. It may say false of an Event that would round-trip
// (the general path then patches it), never true of one that would not.
func eventRoundTrips(e *api.Event) bool {
	m := &e.ObjectMeta
	if m.GenerateName != "" || m.SelfLink != "" || m.DeletionTimestamp != nil || m.DeletionGracePeriodSeconds != nil ||
		m.Labels != nil || m.Annotations != nil || m.OwnerReferences != nil || m.Finalizers != nil ||
		m.ManagedFields != nil && len(m.ManagedFields) == 0 ||
		e.EventTime != (api.MicroTime{}) || e.Series != nil || e.Related != nil {
		return false
	}
	in := &e.InvolvedObject
	for _, s := range [...]string{e.APIVersion, e.Kind, m.Name, m.Namespace, string(m.UID),
		in.Kind, in.Namespace, in.Name, string(in.UID), in.APIVersion, in.ResourceVersion, in.FieldPath,
		e.Reason, e.Source.Component, e.Source.Host, e.Type, e.Action, e.ReportingController, e.ReportingInstance} {
		if !utf8.ValidString(s) {
			return false
		}
	}
	if !wholeSecond(m.CreationTimestamp) || !wholeSecond(e.FirstTimestamp) {
		return false
	}
	for i := range m.ManagedFields {
		f := &m.ManagedFields[i]
		if !utf8.ValidString(f.Manager) || !utf8.ValidString(string(f.Operation)) || !utf8.ValidString(f.APIVersion) ||
			!utf8.ValidString(f.FieldsType) || !utf8.ValidString(f.Subresource) ||
			f.Time != nil && !wholeSecond(*f.Time) || f.FieldsV1 != nil && !compactRaw(*f.FieldsV1) {
			return false
		}
	}
	return true
}

// wholeSecond reports whether t is what Time's JSON gives back: the zero
// time, or an instant of a year Format and Parse agree on, in UTC, with
// no fraction of a second (ParseTime).
func wholeSecond(t api.Time) bool {
	if t.Time == (time.Time{}) {
		return true
	}
	y := t.Time.Year()
	return y >= 1 && y <= 9999 && t.Time == t.Time.UTC().Truncate(time.Second)
}

// compactRaw reports whether r is a raw value JSON gives back as it is:
// RawValue's UnmarshalJSON compacts, and encoding a Marshaler's output
// compacts it and escapes <, > and & in its strings, so a value holding
// only printable ASCII but those, no space, and valid JSON comes back
// the same. An empty one encodes as null and comes back nil.
func compactRaw(r api.RawValue) bool {
	if len(r) == 0 {
		return false
	}
	for _, c := range r {
		if c <= ' ' || c > '~' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return json.Valid(r)
}
