package measure

import (
	"strings"
	"testing"
)

// TestIgnoredThroughTheMemo holds ignored, with its memo of answers by
// the path string's address, to the patterns' own answer (match): one
// path string given for kinds the patterns tell apart, in turn, so that
// the slot holds the other kind's answer; the same path as a copy; and
// DefaultKeep's exception beside the pattern it excepts. Planted: a slot
// that answers whatever kind it was given for fails it.
func TestIgnoredThroughTheMemo(t *testing.T) {
	o := Options{}.withDefaults()
	renew, status, labels, cond := "spec.renewTime", "status.conditions[Ready].status", "metadata.labels.app", "status.phase"
	tests := []struct{ kind, path string }{
		{"Lease", renew}, {"Pod", renew}, {"Lease", renew}, {"Deployment", renew},
		{"Node", status}, {"Pod", status}, {"Node", status}, {"Node", strings.Clone(status)},
		{"Event", labels}, {"Pod", labels}, {"Event", labels},
		{"Pod", cond}, {"Pod", strings.Clone(cond)}, {"Pod", cond},
	}
	for round := range 2 {
		for _, tt := range tests {
			if got, want := o.ignored(tt.kind, tt.path), o.match(tt.kind, tt.path); got != want {
				t.Errorf("round %d: ignored(%s, %s) = %v, the patterns say %v", round, tt.kind, tt.path, got, want)
			}
		}
	}
	if !o.ignored("Lease", renew) || o.ignored("Pod", renew) || o.ignored("Node", status) || !o.ignored("Pod", status) {
		t.Error("the table above does not tell kinds apart: it cannot catch a memo that ignores the kind")
	}
}
