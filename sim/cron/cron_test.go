package cron

import (
	"strings"
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

		// The rows below are robfig/cron/v3's TestNext (spec_test.go) rows
		// written for its seconds parser; those whose seconds field is "0"
		// are ported with that field dropped, since ParseStandard reads the
		// same schedule from the other five. Rows with another seconds field
		// ("15/35 20-35/15 * * * *" and its siblings) are skipped: standard
		// schedules have no seconds field, so they cannot be written here.

		// Wrap around minutes, hours, days, months and years at once.
		{"Mon Dec 31 23:59:45 2012", "* * * * *", "Tue Jan 1 00:00:00 2013"},
		// Daylight saving time 2am EST (-5) -> 3am EDT (-4).
		{"2012-03-11T00:00:00-0500", "TZ=America/New_York 30 2 11 Mar ?", "2013-03-11T02:30:00-0400"},
		// hourly job
		{"2012-03-11T00:00:00-0500", "TZ=America/New_York 0 * * * ?", "2012-03-11T01:00:00-0500"},
		{"2012-03-11T01:00:00-0500", "TZ=America/New_York 0 * * * ?", "2012-03-11T03:00:00-0400"},
		{"2012-03-11T03:00:00-0400", "TZ=America/New_York 0 * * * ?", "2012-03-11T04:00:00-0400"},
		{"2012-03-11T04:00:00-0400", "TZ=America/New_York 0 * * * ?", "2012-03-11T05:00:00-0400"},
		// hourly job using CRON_TZ
		{"2012-03-11T00:00:00-0500", "CRON_TZ=America/New_York 0 * * * ?", "2012-03-11T01:00:00-0500"},
		{"2012-03-11T01:00:00-0500", "CRON_TZ=America/New_York 0 * * * ?", "2012-03-11T03:00:00-0400"},
		{"2012-03-11T03:00:00-0400", "CRON_TZ=America/New_York 0 * * * ?", "2012-03-11T04:00:00-0400"},
		{"2012-03-11T04:00:00-0400", "CRON_TZ=America/New_York 0 * * * ?", "2012-03-11T05:00:00-0400"},
		// 1am nightly job
		{"2012-03-11T00:00:00-0500", "TZ=America/New_York 0 1 * * ?", "2012-03-11T01:00:00-0500"},
		{"2012-03-11T01:00:00-0500", "TZ=America/New_York 0 1 * * ?", "2012-03-12T01:00:00-0400"},
		// 2am nightly job (skipped)
		{"2012-03-11T00:00:00-0500", "TZ=America/New_York 0 2 * * ?", "2012-03-12T02:00:00-0400"},
		// Daylight saving time 2am EDT (-4) => 1am EST (-5)
		{"2012-11-04T00:00:00-0400", "TZ=America/New_York 30 2 04 Nov ?", "2012-11-04T02:30:00-0500"},
		{"2012-11-04T01:45:00-0400", "TZ=America/New_York 30 1 04 Nov ?", "2012-11-04T01:30:00-0500"},
		// hourly job
		{"2012-11-04T00:00:00-0400", "TZ=America/New_York 0 * * * ?", "2012-11-04T01:00:00-0400"},
		{"2012-11-04T01:00:00-0400", "TZ=America/New_York 0 * * * ?", "2012-11-04T01:00:00-0500"},
		{"2012-11-04T01:00:00-0500", "TZ=America/New_York 0 * * * ?", "2012-11-04T02:00:00-0500"},
		// 1am nightly job (runs twice)
		{"2012-11-04T00:00:00-0400", "TZ=America/New_York 0 1 * * ?", "2012-11-04T01:00:00-0400"},
		{"2012-11-04T01:00:00-0400", "TZ=America/New_York 0 1 * * ?", "2012-11-04T01:00:00-0500"},
		{"2012-11-04T01:00:00-0500", "TZ=America/New_York 0 1 * * ?", "2012-11-05T01:00:00-0500"},
		// 2am nightly job
		{"2012-11-04T00:00:00-0400", "TZ=America/New_York 0 2 * * ?", "2012-11-04T02:00:00-0500"},
		{"2012-11-04T02:00:00-0500", "TZ=America/New_York 0 2 * * ?", "2012-11-05T02:00:00-0500"},
		// 3am nightly job
		{"2012-11-04T00:00:00-0400", "TZ=America/New_York 0 3 * * ?", "2012-11-04T03:00:00-0500"},
		{"2012-11-04T03:00:00-0500", "TZ=America/New_York 0 3 * * ?", "2012-11-05T03:00:00-0500"},
		// hourly job, the zone given by the time
		{"TZ=America/New_York 2012-11-04T00:00:00-0400", "0 * * * ?", "2012-11-04T01:00:00-0400"},
		{"TZ=America/New_York 2012-11-04T01:00:00-0400", "0 * * * ?", "2012-11-04T01:00:00-0500"},
		{"TZ=America/New_York 2012-11-04T01:00:00-0500", "0 * * * ?", "2012-11-04T02:00:00-0500"},
		// 1am nightly job (runs twice)
		{"TZ=America/New_York 2012-11-04T00:00:00-0400", "0 1 * * ?", "2012-11-04T01:00:00-0400"},
		{"TZ=America/New_York 2012-11-04T01:00:00-0400", "0 1 * * ?", "2012-11-04T01:00:00-0500"},
		{"TZ=America/New_York 2012-11-04T01:00:00-0500", "0 1 * * ?", "2012-11-05T01:00:00-0500"},
		// 2am nightly job
		{"TZ=America/New_York 2012-11-04T00:00:00-0400", "0 2 * * ?", "2012-11-04T02:00:00-0500"},
		{"TZ=America/New_York 2012-11-04T02:00:00-0500", "0 2 * * ?", "2012-11-05T02:00:00-0500"},
		// 3am nightly job
		{"TZ=America/New_York 2012-11-04T00:00:00-0400", "0 3 * * ?", "2012-11-04T03:00:00-0500"},
		{"TZ=America/New_York 2012-11-04T03:00:00-0500", "0 3 * * ?", "2012-11-05T03:00:00-0500"},
		// Monthly job
		{"TZ=America/New_York 2012-11-04T00:00:00-0400", "0 3 3 * ?", "2012-12-03T03:00:00-0500"},
		// Test the scenario of DST resulting in midnight not being a valid time.
		{"2018-10-17T05:00:00-0400", "TZ=America/Sao_Paulo 0 9 10 * ?", "2018-11-10T06:00:00-0500"},
		{"2018-02-14T05:00:00-0500", "TZ=America/Sao_Paulo 0 9 22 * ?", "2018-02-22T07:00:00-0500"},
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
		// robfig/cron/v3's TestErrors (spec_test.go); upstream only wants an
		// error, the messages are what robfig/cron returns.
		{"xyz", "expected exactly 5 fields, found 1: [xyz]"},
		{"0 60 * * *", "end of range (60) above maximum (23): 60"},
		{"0 0 * * XYZ", `failed to parse int from XYZ: strconv.Atoi: parsing "XYZ": invalid syntax`},
		// TestStandardSpecSchedule and TestParseScheduleErrors (parser_test.go).
		{"5 j * * *", `failed to parse int from j: strconv.Atoi: parsing "j": invalid syntax`},
		{"* * * *", "expected exactly 5 fields, found 4: [* * * *]"},
		{"@every Xm", `failed to parse duration @every Xm: time: invalid duration "Xm"`},
		// TestSlash0NoHang (spec_test.go).
		{"TZ=America/New_York 15/0 * * * *", "step of range should be a positive number: 15/0"},
		// Ours from here.
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

// getTime reads a test time as robfig/cron's spec_test.go does, in UTC
// rather than the machine's zone (ours must not depend on it): an optional
// "TZ=<zone> " prefix gives the zone, and a numeric offset is read as is.
func getTime(value string) time.Time {
	if value == "" {
		return time.Time{}
	}
	loc := time.UTC
	if rest, ok := strings.CutPrefix(value, "TZ="); ok {
		zone, v, _ := strings.Cut(rest, " ")
		var err error
		if loc, err = time.LoadLocation(zone); err != nil {
			panic("could not parse location: " + err.Error())
		}
		value = v
	}
	for _, layout := range []string{"Mon Jan 2 15:04 2006", "Mon Jan 2 15:04:05 2006", "2006-01-02T15:04:05-0700"} {
		if t, err := time.ParseInLocation(layout, value, loc); err == nil {
			return t
		}
	}
	panic("could not parse time value " + value)
}

// TestActivation follows robfig/cron/v3's TestActivation (spec_test.go):
// whether a schedule fires at a given minute.
func TestActivation(t *testing.T) {
	tests := []struct {
		time, spec string
		expected   bool
	}{
		// Every fifteen minutes.
		{"Mon Jul 9 15:00 2012", "0/15 * * * *", true},
		{"Mon Jul 9 15:45 2012", "0/15 * * * *", true},
		{"Mon Jul 9 15:40 2012", "0/15 * * * *", false},
		// Every fifteen minutes, starting at 5 minutes.
		{"Mon Jul 9 15:05 2012", "5/15 * * * *", true},
		{"Mon Jul 9 15:20 2012", "5/15 * * * *", true},
		{"Mon Jul 9 15:50 2012", "5/15 * * * *", true},
		// Named months
		{"Sun Jul 15 15:00 2012", "0/15 * * Jul *", true},
		{"Sun Jul 15 15:00 2012", "0/15 * * Jun *", false},
		// Everything set.
		{"Sun Jul 15 08:30 2012", "30 08 ? Jul Sun", true},
		{"Sun Jul 15 08:30 2012", "30 08 15 Jul ?", true},
		{"Mon Jul 16 08:30 2012", "30 08 ? Jul Sun", false},
		{"Mon Jul 16 08:30 2012", "30 08 15 Jul ?", false},
		// Predefined schedules
		{"Mon Jul 9 15:00 2012", "@hourly", true},
		{"Mon Jul 9 15:04 2012", "@hourly", false},
		{"Mon Jul 9 15:00 2012", "@daily", false},
		{"Mon Jul 9 00:00 2012", "@daily", true},
		{"Mon Jul 9 00:00 2012", "@weekly", false},
		{"Sun Jul 8 00:00 2012", "@weekly", true},
		{"Sun Jul 8 01:00 2012", "@weekly", false},
		{"Sun Jul 8 00:00 2012", "@monthly", false},
		{"Sun Jul 1 00:00 2012", "@monthly", true},
		// Test interaction of DOW and DOM.
		// If both are restricted, then only one needs to match.
		{"Sun Jul 15 00:00 2012", "* * 1,15 * Sun", true},
		{"Fri Jun 15 00:00 2012", "* * 1,15 * Sun", true},
		{"Wed Aug 1 00:00 2012", "* * 1,15 * Sun", true},
		{"Sun Jul 15 00:00 2012", "* * */10 * Sun", true},
		// However, if one has a star, then both need to match.
		{"Sun Jul 15 00:00 2012", "* * * * Mon", false},
		{"Mon Jul 9 00:00 2012", "* * 1,15 * *", false},
		{"Sun Jul 15 00:00 2012", "* * 1,15 * *", true},
		{"Sun Jul 15 00:00 2012", "* * */2 * Sun", true},
	}
	for _, tc := range tests {
		sched, err := ParseStandard(tc.spec)
		if err != nil {
			t.Error(err)
			continue
		}
		at := getTime(tc.time)
		got := sched.Next(at.Add(-time.Second))
		if got.Equal(at) != tc.expected {
			t.Errorf("%q at %s: next %v, fires %v, want %v", tc.spec, tc.time, got, got.Equal(at), tc.expected)
		}
	}
}

// TestNextWithTz follows robfig/cron/v3's TestNextWithTz (spec_test.go):
// a schedule without a zone is read in the zone of the time it is given.
func TestNextWithTz(t *testing.T) {
	tests := []struct {
		time, spec, expected string
	}{
		// Failing tests
		{"2016-01-03T13:09:03+0530", "14 14 * * *", "2016-01-03T14:14:00+0530"},
		{"2016-01-03T04:09:03+0530", "14 14 * * ?", "2016-01-03T14:14:00+0530"},
		// Passing tests
		{"2016-01-03T14:09:03+0530", "14 14 * * *", "2016-01-03T14:14:00+0530"},
		{"2016-01-03T14:00:00+0530", "14 14 * * ?", "2016-01-03T14:14:00+0530"},
	}
	for _, tc := range tests {
		sched, err := ParseStandard(tc.spec)
		if err != nil {
			t.Error(err)
			continue
		}
		from, _ := time.Parse("2006-01-02T15:04:05-0700", tc.time)
		want, _ := time.Parse("2006-01-02T15:04:05-0700", tc.expected)
		if got := sched.Next(from); !got.Equal(want) {
			t.Errorf("%s, %q: next %v, want %v", tc.time, tc.spec, got, want)
		}
	}
}

// TestRange follows robfig/cron/v3's TestRange (parser_test.go): one range
// of a field, its bits and its errors (matched as substrings, as there).
func TestRange(t *testing.T) {
	tests := []struct {
		expr     string
		min, max uint
		expected uint64
		err      string
	}{
		{"5", 0, 7, 1 << 5, ""},
		{"0", 0, 7, 1 << 0, ""},
		{"7", 0, 7, 1 << 7, ""},
		{"5-5", 0, 7, 1 << 5, ""},
		{"5-6", 0, 7, 1<<5 | 1<<6, ""},
		{"5-7", 0, 7, 1<<5 | 1<<6 | 1<<7, ""},
		{"5-6/2", 0, 7, 1 << 5, ""},
		{"5-7/2", 0, 7, 1<<5 | 1<<7, ""},
		{"5-7/1", 0, 7, 1<<5 | 1<<6 | 1<<7, ""},
		{"*", 1, 3, 1<<1 | 1<<2 | 1<<3 | starBit, ""},
		{"*/2", 1, 3, 1<<1 | 1<<3, ""},
		{"5--5", 0, 0, 0, "too many hyphens"},
		{"jan-x", 0, 0, 0, "failed to parse int from"},
		{"2-x", 1, 5, 0, "failed to parse int from"},
		{"*/-12", 0, 0, 0, "negative number"},
		{"*//2", 0, 0, 0, "too many slashes"},
		{"1", 3, 5, 0, "below minimum"},
		{"6", 3, 5, 0, "above maximum"},
		{"5-3", 3, 5, 0, "beyond end of range"},
		{"*/0", 0, 0, 0, "should be a positive number"},
	}
	for _, tc := range tests {
		got, err := getRange(tc.expr, bounds{tc.min, tc.max, nil})
		if tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%s: error %v, want %q", tc.expr, err, tc.err)
		}
		if tc.err == "" && err != nil {
			t.Errorf("%s: unexpected error %v", tc.expr, err)
		}
		if got != tc.expected {
			t.Errorf("%s: %b, want %b", tc.expr, got, tc.expected)
		}
	}
}

// TestField follows robfig/cron/v3's TestField (parser_test.go): a field is
// a comma list of ranges. The last row is not upstream's: it pins that
// getField, like robfig's (strings.FieldsFunc on ','), skips empty members.
func TestField(t *testing.T) {
	tests := []struct {
		expr     string
		min, max uint
		expected uint64
	}{
		{"5", 1, 7, 1 << 5},
		{"5,6", 1, 7, 1<<5 | 1<<6},
		{"5,6,7", 1, 7, 1<<5 | 1<<6 | 1<<7},
		{"1,5-7/2,3", 1, 7, 1<<1 | 1<<5 | 1<<7 | 1<<3},
		{"5,,6,", 1, 7, 1<<5 | 1<<6},
	}
	for _, tc := range tests {
		got, err := getField(tc.expr, bounds{tc.min, tc.max, nil})
		if err != nil || got != tc.expected {
			t.Errorf("%s: %b %v, want %b", tc.expr, got, err, tc.expected)
		}
	}
}

// TestBits follows robfig/cron/v3's TestBits (parser_test.go).
func TestBits(t *testing.T) {
	tests := []struct {
		min, max, step uint
		expected       uint64
	}{
		{0, 0, 1, 0x1},
		{1, 1, 1, 0x2},
		{1, 5, 2, 0x2a}, // 101010
		{1, 4, 2, 0xa},  // 1010
	}
	for _, tc := range tests {
		if got := bitRange(tc.min, tc.max, tc.step); got != tc.expected {
			t.Errorf("%d-%d/%d: %b, want %b", tc.min, tc.max, tc.step, got, tc.expected)
		}
	}
}
