package kernel

// IsKill reports whether v, a value recovered from a panic inside a
// process, is the sentinel that unwinds a killed process. Code that
// recovers panics on a process's stack (a controller worker turning a
// reconciler's panic into an error) must re-panic with v when IsKill(v):
// swallowing the sentinel would let a crashed process run on.
func IsKill(v any) bool {
	_, ok := v.(killSignal)
	return ok
}
