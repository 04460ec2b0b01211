package kubectl

import (
	"fmt"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// HumanDuration returns a succinct representation of d with about two or
// three significant figures, exactly as apimachinery's
// duration.HumanDuration: "0s", "45s", "119s", "5m10s", "12m", "3h20m",
// "10h", "2d5h", "30d", "2y100d", "9y"; "<invalid>" below -1s (a clock
// skew of up to two seconds reads as "0s").
func HumanDuration(d time.Duration) string {
	if seconds := int(d.Seconds()); seconds < -1 {
		return "<invalid>"
	} else if seconds < 0 {
		return "0s"
	} else if seconds < 60*2 {
		return fmt.Sprintf("%ds", seconds)
	}
	minutes := int(d / time.Minute)
	if minutes < 10 {
		s := int(d/time.Second) % 60
		if s == 0 {
			return fmt.Sprintf("%dm", minutes)
		}
		return fmt.Sprintf("%dm%ds", minutes, s)
	} else if minutes < 60*3 {
		return fmt.Sprintf("%dm", minutes)
	}
	hours := int(d / time.Hour)
	if hours < 8 {
		m := int(d/time.Minute) % 60
		if m == 0 {
			return fmt.Sprintf("%dh", hours)
		}
		return fmt.Sprintf("%dh%dm", hours, m)
	} else if hours < 48 {
		return fmt.Sprintf("%dh", hours)
	} else if hours < 24*8 {
		h := hours % 24
		if h == 0 {
			return fmt.Sprintf("%dd", hours/24)
		}
		return fmt.Sprintf("%dd%dh", hours/24, h)
	} else if hours < 24*365*2 {
		return fmt.Sprintf("%dd", hours/24)
	} else if hours < 24*365*8 {
		dy := (hours / 24) % 365
		if dy == 0 {
			return fmt.Sprintf("%dy", hours/24/365)
		}
		return fmt.Sprintf("%dy%dd", hours/24/365, dy)
	}
	return fmt.Sprintf("%dy", hours/24/365)
}

// since is kubectl's translateTimestampSince at now: "<unknown>" for an
// unset time.
func since(t api.Time, now time.Time) string {
	if t.IsZero() {
		return "<unknown>"
	}
	return HumanDuration(now.Sub(t.Time))
}

// sinceMicro is translateMicroTimestampSince at now.
func sinceMicro(t api.MicroTime, now time.Time) string {
	if t.IsZero() {
		return "<unknown>"
	}
	return HumanDuration(now.Sub(t.Time))
}

// rfc1123Z is how describe prints times: "Mon, 02 Jan 2006 15:04:05 -0700".
func rfc1123Z(t api.Time) string { return t.Time.Format(time.RFC1123Z) }
