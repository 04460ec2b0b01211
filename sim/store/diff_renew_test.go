package store

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
)

// renderedAuditChanges is auditChanges with the times of a lease
// renewal it deferred rendered as the log's consumer renders them: the
// changes the log keeps and traces.
func (l *AuditLog) renderedAuditChanges(old, new api.Object) []Change {
	got := l.auditChanges(old, new)
	if d := &l.scratch; d.renew.at != 0 {
		d.renew.render(&l.render, &got[d.renew.at-1])
		d.renew = deferredRenewal{}
	}
	return got
}

// TestDeferredRenewal holds the lease renewals whose times the store's
// diff leaves to the audit log's consumer to what the walk renders:
// the kept records and the trace carry the same spec.renewTime change as
// Diff gives for the two leases, at microsecond, sub-microsecond and
// whole-second times, before 1970 and at the edges of the years
// RFC3339Micro renders (the times outside are rendered at once); a
// renewal whose times render alike is no change (a no-op write).
func TestDeferredRenewal(t *testing.T) {
	at := func(s string, nanos int64) time.Time {
		tm, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return tm.Add(time.Duration(nanos))
	}
	for _, tc := range []struct {
		name     string
		old, new time.Time
		noop     bool
		deferred bool
	}{
		{"ten seconds", at("2026-01-01T00:00:00Z", 123_456_000), at("2026-01-01T00:00:10Z", 654_321_000), false, true},
		{"whole seconds", at("2026-01-01T00:00:00Z", 0), at("2026-01-01T00:00:10Z", 0), false, true},
		{"sub-microsecond parts", at("2026-01-01T00:00:00Z", 1_999), at("2026-01-01T00:00:00Z", 2_001), false, true},
		{"the same microsecond", at("2026-01-01T00:00:00Z", 1_100), at("2026-01-01T00:00:00Z", 1_900), true, false},
		{"before 1970", at("1969-12-31T23:59:59Z", 999_999_999), at("1960-06-01T00:00:00Z", 1_500), false, true},
		{"year 0", at("0000-01-01T00:00:00Z", 5_000), at("0000-01-01T00:00:00Z", 6_000), false, true},
		{"year 9999", at("9999-12-31T23:59:59Z", 0), at("9999-12-31T23:59:59Z", 999_999_000), false, true},
		{"past year 9999", at("9999-12-31T23:59:59Z", 0), at("9999-12-31T23:59:59Z", 0).Add(time.Second), false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, count := range []bool{false, true} {
				s := New(kernel.New(1))
				var trace bytes.Buffer
				s.Audit().SetTrace(&trace)
				s.Audit().CountHeartbeats(count)
				op := Op{Actor: "system:node:n-1"}
				l := createNodeLease(t, s, op, tc.old)
				first := *l.Spec.RenewTime
				renew := l.DeepCopyObject().(*api.Lease)
				next := api.NewMicroTime(tc.new)
				renew.Spec.RenewTime = &next
				fast, deferred := s.Audit().fastPaths, s.Audit().deferred
				if _, err := s.Update(op, renew, ""); err != nil {
					t.Fatal(err)
				}
				if s.Audit().fastPaths != fast+1 {
					t.Fatal("the renewal did not take leaseRenewal's path")
				}
				if got, want := s.Audit().deferred-deferred, b2u(tc.deferred); got != want {
					t.Errorf("%d renewals handed to the consumer unrendered, want %d", got, want)
				}
				if s.Audit().scratch.renew.at != 0 {
					t.Error("the store's differ still holds a deferred renewal after the write's record")
				}
				var want []Change
				for _, c := range Diff(l, renew) {
					if !skipInAudit(c.Path) {
						want = append(want, c)
					}
				}
				a := s.Audit()
				a.Sync()
				if _, _, ok := (&differ{deferRenew: true}).renewStamps(first, next); ok != (tc.deferred || tc.noop) {
					t.Errorf("renewStamps: deferrable %v, want %v", ok, tc.deferred || tc.noop)
				}
				if _, _, ok := (&differ{}).renewStamps(first, next); ok {
					t.Error("renewStamps: a differ that does not defer got stamps")
				}
				lines := strings.Split(strings.TrimSuffix(trace.String(), "\n"), "\n")
				if len(lines) != 2 {
					t.Fatalf("the trace has %d lines, want 2:\n%s", len(lines), trace.String())
				}
				if tc.noop {
					if len(want) != 0 || !strings.Contains(lines[1], "update") {
						t.Fatalf("want a no-op renewal, Diff gives %v, the trace %q", want, lines[1])
					}
					continue
				}
				if len(want) != 1 {
					t.Fatalf("Diff gives %v, want one change of spec.renewTime", want)
				}
				if c := want[0]; !strings.HasSuffix(lines[1], " spec.renewTime:"+strconv.Quote(c.Old)+"->"+strconv.Quote(c.New)) {
					t.Errorf("the trace's renewal\n%s\nwant it to show %s to %s", lines[1], c.Old, c.New)
				}
				var kept []Change
				a.Each(func(rec *AuditRecord) bool {
					if rec.Kind == api.KindLease && rec.Verb == "update" {
						kept = append(kept, rec.Changes()...)
					}
					return true
				})
				if count {
					if len(kept) != 0 || a.Heartbeats().LeaseRenewals != 1 {
						t.Errorf("counting heartbeats: kept %v, counted %+v; want the renewal counted", kept, a.Heartbeats())
					}
				} else if !slices.Equal(kept, want) {
					t.Errorf("kept %v, want %v (Diff's)", kept, want)
				}
			}
		})
	}
}

// b2u is 1 for true, 0 for false.
func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
