package metrics

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Load is a request rate that changes over virtual time.
type Load interface {
	// RPS returns the requests per second at t, the virtual time since the
	// run began; never negative.
	RPS(t time.Duration) float64
}

// Constant is a load that never changes, in requests per second.
type Constant float64

// RPS returns c (0 if c is negative or not a number).
func (c Constant) RPS(time.Duration) float64 { return clean(float64(c)) }

// Point is a request rate at a virtual time.
type Point struct {
	// At is the virtual time since the run began.
	At time.Duration
	// RPS is the rate in requests per second.
	RPS float64
}

// ErrInvalidLoad is matched (errors.Is) by every error about a load's
// points: times not strictly increasing, negative times, negative or
// non-finite rates.
var ErrInvalidLoad = errors.New("invalid load")

// checkPoints validates points for Steps and Ramp.
func checkPoints(points []Point) error {
	for i, p := range points {
		switch {
		case p.At < 0:
			return fmt.Errorf("%w: point %d: time %v is negative", ErrInvalidLoad, i, p.At)
		case math.IsNaN(p.RPS) || math.IsInf(p.RPS, 0):
			return fmt.Errorf("%w: point %d: rate %v is not a finite number", ErrInvalidLoad, i, p.RPS)
		case p.RPS < 0:
			return fmt.Errorf("%w: point %d: rate %v is negative", ErrInvalidLoad, i, p.RPS)
		case i > 0 && p.At <= points[i-1].At:
			return fmt.Errorf("%w: point %d: time %v is not after the previous point's %v", ErrInvalidLoad, i, p.At, points[i-1].At)
		}
	}
	return nil
}

// Steps is a piecewise-constant load: from each point's time on, the rate
// is that point's, until the next point; before the first point it is 0.
// Build it with NewSteps, which checks the points.
type Steps []Point

// NewSteps returns the steps of points (copied), which must have strictly
// increasing, non-negative times and finite, non-negative rates.
func NewSteps(points ...Point) (Steps, error) {
	if err := checkPoints(points); err != nil {
		return nil, err
	}
	return Steps(append([]Point(nil), points...)), nil
}

// RPS returns the rate of the last point at or before t, 0 before the
// first.
func (s Steps) RPS(t time.Duration) float64 {
	i := sort.Search(len(s), func(i int) bool { return s[i].At > t })
	if i == 0 {
		return 0
	}
	return clean(s[i-1].RPS)
}

// Ramp is a piecewise-linear load: the rate moves linearly from each point
// to the next; before the first point it is the first point's rate, after
// the last the last point's. Build it with NewRamp, which checks the
// points.
type Ramp []Point

// NewRamp returns the ramp through points (copied), which must have
// strictly increasing, non-negative times and finite, non-negative rates.
func NewRamp(points ...Point) (Ramp, error) {
	if err := checkPoints(points); err != nil {
		return nil, err
	}
	return Ramp(append([]Point(nil), points...)), nil
}

// RPS interpolates the rate at t.
func (r Ramp) RPS(t time.Duration) float64 {
	if len(r) == 0 {
		return 0
	}
	i := sort.Search(len(r), func(i int) bool { return r[i].At > t })
	switch {
	case i == 0:
		return clean(r[0].RPS)
	case i == len(r):
		return clean(r[len(r)-1].RPS)
	}
	a, b := r[i-1], r[i]
	f := float64(t-a.At) / float64(b.At-a.At)
	return clean(a.RPS + float64(f*(b.RPS-a.RPS))) // rounded apart: no fused multiply-add (docs/fma-check.sh)
}

func clean(v float64) float64 {
	if v > 0 && !math.IsInf(v, 1) {
		return v
	}
	return 0
}

// CSVError is a bad line of a load CSV file.
type CSVError struct {
	// Line is the 1-based line number.
	Line int
	// Err says what is wrong; it matches ErrInvalidLoad.
	Err error
}

// Error returns "line <n>: <what is wrong>".
func (e *CSVError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }

// Unwrap returns the cause.
func (e *CSVError) Unwrap() error { return e.Err }

// fieldOf says what a field that is not a number is without quoting it:
// a load CSV is a file the scenario references, and no error quotes the
// content of one (docs/scenario-format.md).
func fieldOf(s string) string {
	if len(s) == 1 {
		return "a field of 1 byte"
	}
	return fmt.Sprintf("a field of %d bytes", len(s))
}

// ParseCSV reads load points from CSV text with two columns,
// time_seconds,rps: the virtual time in seconds (fractions allowed) and
// the rate from then on. A first line that is not numeric is a header and
// is skipped; blank lines and lines starting with '#' are skipped. Times
// must increase strictly; rates must be finite and non-negative. Errors
// are *CSVError values naming the line; they do not quote a field that is
// not a number. Wrap the result in Steps or Ramp
// to choose how the rate moves between points.
func ParseCSV(r io.Reader) ([]Point, error) {
	points, _, err := ParseCSVLines(r)
	return points, err
}

// ParseCSVLines is ParseCSV that also returns the line (counted from 1)
// each point was read from, for a caller that checks the points further
// and names the line of one it refuses.
func ParseCSVLines(r io.Reader) (points []Point, lines []int, err error) {
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Split(text, ",")
		if len(fields) != 2 {
			return nil, nil, &CSVError{Line: line, Err: fmt.Errorf("%w: want 2 fields (time_seconds,rps), got %d", ErrInvalidLoad, len(fields))}
		}
		ts, rs := strings.TrimSpace(fields[0]), strings.TrimSpace(fields[1])
		secs, err := strconv.ParseFloat(ts, 64)
		if err != nil {
			if line == 1 && len(points) == 0 {
				continue // a header
			}
			return nil, nil, &CSVError{Line: line, Err: fmt.Errorf("%w: time_seconds is not a number (%s)", ErrInvalidLoad, fieldOf(ts))}
		}
		rps, err := strconv.ParseFloat(rs, 64)
		if err != nil {
			return nil, nil, &CSVError{Line: line, Err: fmt.Errorf("%w: rps is not a number (%s)", ErrInvalidLoad, fieldOf(rs))}
		}
		if math.IsNaN(secs) || math.IsInf(secs, 0) || secs < 0 || secs > math.MaxInt64/float64(time.Second) {
			return nil, nil, &CSVError{Line: line, Err: fmt.Errorf("%w: time_seconds %s is out of range", ErrInvalidLoad, ts)}
		}
		p := Point{At: time.Duration(math.Round(secs * float64(time.Second))), RPS: rps}
		if err := checkPoints(append(points[len(points)-min(len(points), 1):], p)); err != nil {
			return nil, nil, &CSVError{Line: line, Err: loadErr(p, points)}
		}
		points = append(points, p)
		lines = append(lines, line)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("read load csv: %w", err)
	}
	return points, lines, nil
}

// loadErr explains why p cannot follow points, without the point indexes
// checkPoints uses.
func loadErr(p Point, points []Point) error {
	switch {
	case math.IsNaN(p.RPS) || math.IsInf(p.RPS, 0):
		return fmt.Errorf("%w: rps %v is not a finite number", ErrInvalidLoad, p.RPS)
	case p.RPS < 0:
		return fmt.Errorf("%w: rps %v is negative", ErrInvalidLoad, p.RPS)
	}
	prev := points[len(points)-1].At
	return fmt.Errorf("%w: time %v is not after the previous line's %v", ErrInvalidLoad, p.At, prev)
}
