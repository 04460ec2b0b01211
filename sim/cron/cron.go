package cron

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Schedule is a parsed cron schedule, as github.com/robfig/cron/v3's
// ParseStandard reads it (the parser kube-controller-manager uses):
// five fields (minute, hour, day of month, month, day of week) with *,
// ?, ranges a-b, steps /n, lists and month and weekday names; the
// descriptors @yearly, @annually, @monthly, @weekly, @daily, @midnight,
// @hourly and @every <duration>; an optional "TZ=<zone> " or
// "CRON_TZ=<zone> " prefix.
type Schedule struct {
	minute, hour, dom, month, dow uint64
	// every, when positive, is an @every schedule's interval.
	every time.Duration
	// loc is the zone the schedule is read in (nil: the time's own).
	loc *time.Location
}

// starBit marks a field given as * or ?, which matters for the day of
// month and day of week (robfig/cron's starBit): when either is a star,
// both must match; else either may.
const starBit = 1 << 63

type bounds struct {
	min, max uint
	names    map[string]uint
}

var (
	minutes = bounds{0, 59, nil}
	hours   = bounds{0, 23, nil}
	doms    = bounds{1, 31, nil}
	months  = bounds{1, 12, map[string]uint{"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12}}
	dows    = bounds{0, 6, map[string]uint{"sun": 0, "mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6}}
)

// ParseStandard parses a standard cron schedule; its errors read as
// robfig/cron's.
func ParseStandard(spec string) (*Schedule, error) {
	if spec == "" {
		return nil, fmt.Errorf("empty spec string")
	}
	var loc *time.Location
	if strings.HasPrefix(spec, "TZ=") || strings.HasPrefix(spec, "CRON_TZ=") {
		i := strings.Index(spec, " ")
		if i < 0 {
			return nil, fmt.Errorf("provided bad location %s: missing schedule", spec)
		}
		eq := strings.Index(spec, "=")
		var err error
		if loc, err = time.LoadLocation(spec[eq+1 : i]); err != nil {
			return nil, fmt.Errorf("provided bad location %s: %v", spec[eq+1:i], err)
		}
		spec = strings.TrimSpace(spec[i:])
	}
	if strings.HasPrefix(spec, "@") {
		s, err := descriptor(spec)
		if err != nil {
			return nil, err
		}
		s.loc = loc
		return s, nil
	}
	fields := strings.Fields(spec)
	if len(fields) != 5 {
		// robfig/cron prints the fields as a slice: "found 1: [xyz]".
		return nil, fmt.Errorf("expected exactly 5 fields, found %d: %s", len(fields), fields)
	}
	s := &Schedule{loc: loc}
	var err error
	for i, f := range []struct {
		dst *uint64
		b   bounds
	}{{&s.minute, minutes}, {&s.hour, hours}, {&s.dom, doms}, {&s.month, months}, {&s.dow, dows}} {
		if *f.dst, err = getField(fields[i], f.b); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func descriptor(spec string) (*Schedule, error) {
	all := func(b bounds) uint64 { return bitRange(b.min, b.max, 1) | starBit }
	switch spec {
	case "@yearly", "@annually":
		return &Schedule{minute: 1 << 0, hour: 1 << 0, dom: 1 << 1, month: 1 << 1, dow: all(dows)}, nil
	case "@monthly":
		return &Schedule{minute: 1 << 0, hour: 1 << 0, dom: 1 << 1, month: all(months), dow: all(dows)}, nil
	case "@weekly":
		return &Schedule{minute: 1 << 0, hour: 1 << 0, dom: all(doms), month: all(months), dow: 1 << 0}, nil
	case "@daily", "@midnight":
		return &Schedule{minute: 1 << 0, hour: 1 << 0, dom: all(doms), month: all(months), dow: all(dows)}, nil
	case "@hourly":
		return &Schedule{minute: 1 << 0, hour: all(hours), dom: all(doms), month: all(months), dow: all(dows)}, nil
	}
	if d, ok := strings.CutPrefix(spec, "@every "); ok {
		dur, err := time.ParseDuration(d)
		if err != nil {
			return nil, fmt.Errorf("failed to parse duration %s: %s", spec, err)
		}
		// robfig/cron's Every: at least one second, whole seconds.
		dur = max(dur-time.Duration(dur.Nanoseconds())%time.Second, time.Second)
		return &Schedule{every: dur}, nil
	}
	return nil, fmt.Errorf("unrecognized descriptor: %s", spec)
}

// getField parses one field: a comma list of ranges. Empty members are
// skipped ("1,,2" is "1,2"), as robfig/cron splits with strings.FieldsFunc.
func getField(field string, b bounds) (uint64, error) {
	var bits uint64
	for _, expr := range strings.FieldsFunc(field, func(r rune) bool { return r == ',' }) {
		bit, err := getRange(expr, b)
		if err != nil {
			return 0, err
		}
		bits |= bit
	}
	return bits, nil
}

// getRange parses "*", "?", "a", "a-b", each with an optional "/step".
func getRange(expr string, b bounds) (uint64, error) {
	var start, end, step uint
	rangeAndStep := strings.Split(expr, "/")
	lowAndHigh := strings.Split(rangeAndStep[0], "-")
	singleDigit := len(lowAndHigh) == 1
	var extra uint64
	if lowAndHigh[0] == "*" || lowAndHigh[0] == "?" {
		start, end, extra = b.min, b.max, starBit
	} else {
		var err error
		if start, err = parseIntOrName(lowAndHigh[0], b.names); err != nil {
			return 0, err
		}
		switch len(lowAndHigh) {
		case 1:
			end = start
		case 2:
			if end, err = parseIntOrName(lowAndHigh[1], b.names); err != nil {
				return 0, err
			}
		default:
			return 0, fmt.Errorf("too many hyphens: %s", expr)
		}
	}
	switch len(rangeAndStep) {
	case 1:
		step = 1
	case 2:
		n, err := mustParseInt(rangeAndStep[1])
		if err != nil {
			return 0, err
		}
		step = n
		// "N/step" means "N-max/step".
		if singleDigit {
			end = b.max
		}
		if step > 1 {
			extra = 0
		}
	default:
		return 0, fmt.Errorf("too many slashes: %s", expr)
	}
	switch {
	case start < b.min:
		return 0, fmt.Errorf("beginning of range (%d) below minimum (%d): %s", start, b.min, expr)
	case end > b.max:
		return 0, fmt.Errorf("end of range (%d) above maximum (%d): %s", end, b.max, expr)
	case start > end:
		return 0, fmt.Errorf("beginning of range (%d) beyond end of range (%d): %s", start, end, expr)
	case step == 0:
		return 0, fmt.Errorf("step of range should be a positive number: %s", expr)
	}
	return bitRange(start, end, step) | extra, nil
}

func parseIntOrName(expr string, names map[string]uint) (uint, error) {
	if names != nil {
		if v, ok := names[strings.ToLower(expr)]; ok {
			return v, nil
		}
	}
	return mustParseInt(expr)
}

func mustParseInt(expr string) (uint, error) {
	n, err := strconv.Atoi(expr)
	if err != nil {
		return 0, fmt.Errorf("failed to parse int from %s: %s", expr, err)
	}
	if n < 0 {
		return 0, fmt.Errorf("negative number (%d) not allowed: %s", n, expr)
	}
	return uint(n), nil
}

func bitRange(min, max, step uint) uint64 {
	if step == 1 {
		return ^(^uint64(0) << (max + 1)) & (^uint64(0) << min)
	}
	var b uint64
	for i := min; i <= max; i += step {
		b |= 1 << i
	}
	return b
}

// Next returns the first activation time strictly after t, or the zero
// time if there is none within five years (robfig/cron's
// SpecSchedule.Next, in the schedule's zone when it has one).
func (s *Schedule) Next(t time.Time) time.Time {
	if s.every > 0 {
		return t.Add(s.every - time.Duration(t.Nanosecond())*time.Nanosecond)
	}
	origLoc := t.Location()
	loc := s.loc
	if loc == nil {
		loc = origLoc
	}
	if loc != origLoc {
		t = t.In(loc)
	}
	t = t.Add(time.Second - time.Duration(t.Nanosecond())*time.Nanosecond)
	added := false
	yearLimit := t.Year() + 5
WRAP:
	if t.Year() > yearLimit {
		return time.Time{}
	}
	for 1<<uint(t.Month())&s.month == 0 {
		if !added {
			added = true
			t = time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, loc)
		}
		t = t.AddDate(0, 1, 0)
		if t.Month() == time.January {
			goto WRAP
		}
	}
	for !s.dayMatches(t) {
		if !added {
			added = true
			t = time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, loc)
		}
		t = t.AddDate(0, 0, 1)
		// Daylight saving can make midnight 23:00 or 01:00.
		if t.Hour() != 0 {
			if t.Hour() > 12 {
				t = t.Add(time.Duration(24-t.Hour()) * time.Hour)
			} else {
				t = t.Add(time.Duration(-t.Hour()) * time.Hour)
			}
		}
		if t.Day() == 1 {
			goto WRAP
		}
	}
	for 1<<uint(t.Hour())&s.hour == 0 {
		if !added {
			added = true
			t = time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), 0, 0, 0, loc)
		}
		t = t.Add(time.Hour)
		if t.Hour() == 0 {
			goto WRAP
		}
	}
	for 1<<uint(t.Minute())&s.minute == 0 {
		if !added {
			added = true
			t = t.Truncate(time.Minute)
		}
		t = t.Add(time.Minute)
		if t.Minute() == 0 {
			goto WRAP
		}
	}
	// Standard schedules fire at second 0.
	for t.Second() != 0 {
		if !added {
			added = true
			t = t.Truncate(time.Second)
		}
		t = t.Add(time.Second)
		if t.Second() == 0 {
			goto WRAP
		}
	}
	return t.In(origLoc)
}

// dayMatches: with a star in day of month or day of week both must
// match, else either (robfig/cron's dayMatches).
func (s *Schedule) dayMatches(t time.Time) bool {
	domMatch := 1<<uint(t.Day())&s.dom > 0
	dowMatch := 1<<uint(t.Weekday())&s.dow > 0
	if s.dom&starBit > 0 || s.dow&starBit > 0 {
		return domMatch && dowMatch
	}
	return domMatch || dowMatch
}

// Location returns the zone the schedule is read in (a TZ= or CRON_TZ=
// prefix), nil for the time's own.
func (s *Schedule) Location() *time.Location { return s.loc }

// SetLocation sets the zone the schedule is read in.
func (s *Schedule) SetLocation(loc *time.Location) { s.loc = loc }
