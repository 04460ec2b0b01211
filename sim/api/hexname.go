package api

// hexDigits are the lowercase hexadecimal digits.
const hexDigits = "0123456789abcdef"

// AppendHex16 appends x as 16 lowercase hexadecimal digits, zero-padded
// (fmt's %016x), to dst. The simulation's Event names and container IDs
// end in such random digits, one or more per Event and container: fmt
// allocated for each argument it boxed, this allocates nothing when dst
// has room.
func AppendHex16(dst []byte, x uint64) []byte {
	for shift := 60; shift >= 0; shift -= 4 {
		dst = append(dst, hexDigits[x>>shift&0xf])
	}
	return dst
}

// EventName is the name the simulation's event recorders give a new
// Event about the object named object: the name, a dot, and suffix as 16
// hexadecimal digits (fmt's "%s.%016x"). client-go's recorder ends the
// name in the time instead; the simulation draws it from its seeded
// source, so that names are the same on every run of a seed.
func EventName(object string, suffix uint64) string {
	var buf [16]byte
	return object + "." + string(AppendHex16(buf[:0], suffix))
}
