package store

import (
	"fmt"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
)

// AuditRecord is one accepted write: when, who, what, and which fields it
// changed. Rejected writes (conflicts, forbidden, invalid) are not
// recorded here; the API server counts them separately.
type AuditRecord struct {
	Time            kernel.Time
	Actor           string
	Verb            string // create, update, patch, delete, or the caller's verb
	Subresource     string // "" or "status"
	Kind            api.Kind
	Key             api.Key
	ResourceVersion uint64 // the object's resourceVersion after the write
	// Changes are the leaf fields the write changed (for a create: every
	// field set). resourceVersion and managedFields are never listed.
	Changes []Change
	// NoOp is true for an update that changed nothing: the store kept the
	// object and its resourceVersion, and sent no watch event.
	NoOp bool
	// Removed is true when the object left the store with this write.
	Removed bool
}

// String renders the record on one line, for traces and debugging.
func (r AuditRecord) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%v %s %s %s", r.Time, r.Actor, r.Verb, r.Kind)
	if r.Subresource != "" {
		b.WriteString("/" + r.Subresource)
	}
	fmt.Fprintf(&b, " %s rv=%d", r.Key, r.ResourceVersion)
	switch {
	case r.NoOp:
		b.WriteString(" no-op")
	case r.Removed:
		b.WriteString(" removed")
	}
	for _, c := range r.Changes {
		fmt.Fprintf(&b, " %s:", c.Path)
		if c.OldSet {
			fmt.Fprintf(&b, "%q", c.Old)
		} else {
			b.WriteString("-")
		}
		b.WriteString("->")
		if c.NewSet {
			fmt.Fprintf(&b, "%q", c.New)
		} else {
			b.WriteString("-")
		}
	}
	return b.String()
}

// auditChunk is how many records one block of the log holds. The log
// grows block by block, so appending never copies the records already
// there (a long run keeps millions).
const auditChunk = 4096

// AuditLog is the append-only list of accepted writes, in the order the
// store accepted them.
type AuditLog struct {
	chunks [][]AuditRecord
	n      int
	paths  map[string]string // interned change paths: a few hundred repeat
}

// Records returns a copy of the log as one slice.
func (l *AuditLog) Records() []AuditRecord {
	out := make([]AuditRecord, 0, l.n)
	for _, c := range l.chunks {
		out = append(out, c...)
	}
	return out
}

// Each calls fn with every record in order, without copying the log, and
// stops early when fn returns false.
func (l *AuditLog) Each(fn func(r *AuditRecord) bool) {
	for _, c := range l.chunks {
		for i := range c {
			if !fn(&c[i]) {
				return
			}
		}
	}
}

// At returns the i-th record (0 is the oldest); it must not be changed.
func (l *AuditLog) At(i int) *AuditRecord {
	return &l.chunks[i/auditChunk][i%auditChunk]
}

// Len returns the number of records.
func (l *AuditLog) Len() int { return l.n }

func (l *AuditLog) add(r AuditRecord) {
	if l.paths == nil {
		l.paths = map[string]string{}
	}
	for i := range r.Changes {
		p := r.Changes[i].Path
		if q, ok := l.paths[p]; ok {
			r.Changes[i].Path = q
		} else {
			l.paths[p] = p
		}
	}
	if len(l.chunks) == 0 || len(l.chunks[len(l.chunks)-1]) == auditChunk {
		l.chunks = append(l.chunks, make([]AuditRecord, 0, auditChunk))
	}
	last := &l.chunks[len(l.chunks)-1]
	*last = append(*last, r)
	l.n++
}

// skipInAudit reports whether a changed path is bookkeeping rather than
// content.
func skipInAudit(path string) bool {
	return path == "metadata.resourceVersion" || strings.HasPrefix(path, "metadata.managedFields")
}

func auditChanges(old, new api.Object) []Change {
	var oldV any
	if old != nil {
		oldV = old
	}
	all := Diff(oldV, new)
	out := all[:0]
	for _, c := range all {
		if !skipInAudit(c.Path) {
			out = append(out, c)
		}
	}
	return out
}
