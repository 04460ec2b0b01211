package cron

import (
	"testing"
	"time"
)

// TestNext follows robfig/cron/v3's TestNext (spec_test.go), the parser
// kube-controller-manager uses: each row is a time, a schedule and the
// next activation after it.
func TestNext(t *testing.T) {
	tests := []struct {
		time, spec, expected string
	}{
		// Simple cases
		{"Mon Jul 9 14:45 2012", "0/15 * * * *", "Mon Jul 9 15:00 2012"},
		{"Mon Jul 9 14:59 2012", "0/15 * * * *", "Mon Jul 9 15:00 2012"},
		{"Mon Jul 9 14:59:59 2012", "0/15 * * * *", "Mon Jul 9 15:00 2012"},
		// Wrap around hours
		{"Mon Jul 9 15:45 2012", "20-35/15 * * * *", "Mon Jul 9 16:20 2012"},
		// Wrap around days
		{"Mon Jul 9 23:46 2012", "*/15 * * * *", "Tue Jul 10 00:00 2012"},
		{"Mon Jul 9 23:45 2012", "20-35/15 * * * *", "Tue Jul 10 00:20 2012"},
		{"Mon Jul 9 23:35:51 2012", "20-35/15 * * * *", "Tue Jul 10 00:20 2012"},
		{"Mon Jul 9 23:35:51 2012", "20-35/15 1/2 * * *", "Tue Jul 10 01:20 2012"},
		{"Mon Jul 9 23:35:51 2012", "20-35/15 10-12 * * *", "Tue Jul 10 10:20 2012"},
		{"Mon Jul 9 23:35:51 2012", "20-35/15 1/2 */2 * *", "Thu Jul 11 01:20 2012"},
		{"Mon Jul 9 23:35:51 2012", "20-35/15 * 9-20 * *", "Wed Jul 10 00:20 2012"},
		{"Mon Jul 9 23:35:51 2012", "20-35/15 * 9-20 Jul *", "Wed Jul 10 00:20 2012"},
		// Wrap around months
		{"Mon Jul 9 23:35 2012", "0 0 9 Apr-Oct ?", "Thu Aug 9 00:00 2012"},
		{"Mon Jul 9 23:35 2012", "0 0 */5 Apr,Aug,Oct Mon", "Tue Aug 1 00:00 2012"},
		{"Mon Jul 9 23:35 2012", "0 0 */5 Oct Mon", "Mon Oct 1 00:00 2012"},
		// Wrap around years
		{"Mon Jul 9 23:35 2012", "0 0 * Feb Mon", "Mon Feb 4 00:00 2013"},
		{"Mon Jul 9 23:35 2012", "0 0 * Feb Mon/2", "Fri Feb 1 00:00 2013"},
		// Leap year
		{"Mon Jul 9 23:35 2012", "0 0 29 Feb ?", "Mon Feb 29 00:00 2016"},
		// Descriptors
		{"Mon Jul 9 23:35 2012", "@hourly", "Tue Jul 10 00:00 2012"},
		{"Mon Jul 9 23:35 2012", "@daily", "Tue Jul 10 00:00 2012"},
		{"Mon Jul 9 23:35 2012", "@weekly", "Sun Jul 15 00:00 2012"},
		{"Mon Jul 9 23:35 2012", "@monthly", "Wed Aug 1 00:00 2012"},
		{"Mon Jul 9 23:35 2012", "@yearly", "Tue Jan 1 00:00 2013"},
		{"Mon Jul 9 23:35 2012", "@every 1h30m", "Tue Jul 10 01:05 2012"},
		// Unsatisfiable
		{"Mon Jul 9 23:35 2012", "0 0 30 Feb ?", ""},
		{"Mon Jul 9 23:35 2012", "0 0 31 Apr ?", ""},
	}
	for _, c := range tests {
		sched, err := ParseStandard(c.spec)
		if err != nil {
			t.Error(err)
			continue
		}
		actual := sched.Next(getTime(c.time))
		expected := getTime(c.expected)
		if !actual.Equal(expected) {
			t.Errorf("%s, %q: (expected) %v != %v (actual)", c.time, c.spec, expected, actual)
		}
	}
}

// TestNextInTimeZone: a schedule read in a time zone fires at that zone's
// wall time (spec.timeZone, or the TZ= prefix robfig/cron accepts).
func TestNextInTimeZone(t *testing.T) {
	for _, spec := range []string{"TZ=America/New_York 0 9 * * *", "CRON_TZ=America/New_York 0 9 * * *"} {
		sched, err := ParseStandard(spec)
		if err != nil {
			t.Fatal(err)
		}
		got := sched.Next(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
		if want := time.Date(2026, 1, 1, 14, 0, 0, 0, time.UTC); !got.Equal(want) {
			t.Errorf("%s: next %v, want %v (09:00 EST)", spec, got, want)
		}
	}
}

// TestErrors follows robfig/cron/v3's TestErrors (parser_test.go).
func TestErrors(t *testing.T) {
	for _, tc := range []struct{ spec, want string }{
		{"xyz", "expected exactly 5 fields, found 1: xyz"},
		{"60 0 * * *", "end of range (60) above maximum (59): 60"},
		{"0 24 * * *", "end of range (24) above maximum (23): 24"},
		{"0 0 0 * *", "beginning of range (0) below minimum (1): 0"},
		{"* 5-1 * * *", "beginning of range (5) beyond end of range (1): 5-1"},
		{"*/0 * * * *", "step of range should be a positive number: */0"},
		{"@unrecognized", "unrecognized descriptor: @unrecognized"},
		{"", "empty spec string"},
	} {
		_, err := ParseStandard(tc.spec)
		if err == nil || err.Error() != tc.want {
			t.Errorf("ParseStandard(%q) = %v, want %s", tc.spec, err, tc.want)
		}
	}
}

func getTime(value string) time.Time {
	if value == "" {
		return time.Time{}
	}
	for _, layout := range []string{"Mon Jan 2 15:04 2006", "Mon Jan 2 15:04:05 2006"} {
		if t, err := time.ParseInLocation(layout, value, time.UTC); err == nil {
			return t
		}
	}
	panic("could not parse time value " + value)
}
