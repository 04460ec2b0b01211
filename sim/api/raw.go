package api

import (
	"bytes"
	"encoding/json"
	"errors"
)

// RawValue is an opaque JSON value (object, array or scalar) kept verbatim
// for sub-objects the simulator does not interpret, such as volume sources
// or security contexts. It stores compact JSON bytes with object keys in the
// order received, so a manifest re-encodes to the same JSON tree. An empty
// RawValue means "absent" and is dropped by omitempty.
type RawValue []byte

// ErrRawValue is returned when a RawValue is given bytes that are not a
// single valid JSON value.
var ErrRawValue = errors.New("raw value is not valid JSON")

// NewRawValue encodes v with encoding/json and returns it as a RawValue.
func NewRawValue(v any) (RawValue, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return RawValue(b), nil
}

// MarshalJSON returns the stored bytes, or null when the value is empty.
func (r RawValue) MarshalJSON() ([]byte, error) {
	if len(r) == 0 {
		return []byte("null"), nil
	}
	return r, nil
}

// UnmarshalJSON stores a compact copy of b; the decoder may reuse b, so
// keeping a slice of it would alias someone else's buffer.
func (r *RawValue) UnmarshalJSON(b []byte) error {
	if !json.Valid(b) {
		return ErrRawValue
	}
	var buf bytes.Buffer
	buf.Grow(len(b))
	if err := json.Compact(&buf, b); err != nil {
		return ErrRawValue
	}
	*r = RawValue(buf.Bytes())
	return nil
}

// Decode unmarshals the stored JSON into v, for callers that want to look
// inside an opaque sub-object.
func (r RawValue) Decode(v any) error {
	if len(r) == 0 {
		return json.Unmarshal([]byte("null"), v)
	}
	return json.Unmarshal(r, v)
}

// String returns the stored JSON text.
func (r RawValue) String() string { return string(r) }

// DeepCopy returns an independent copy of r (nil stays nil).
func (r RawValue) DeepCopy() RawValue {
	if r == nil {
		return nil
	}
	out := make(RawValue, len(r))
	copy(out, r)
	return out
}
