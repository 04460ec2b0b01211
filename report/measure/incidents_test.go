package measure

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/gap"
)

// TestIncidentsFold checks that Findings folds more than FoldAbove
// incidents of one kind and namespace that peaked alike into one line
// with counts, where the first of them was, and lists every other
// incident on its own line.
func TestIncidentsFold(t *testing.T) {
	node := func(i int, from, to time.Duration, open bool) gap.Interval {
		return gap.Interval{Object: gap.Object{Kind: api.KindNode, Key: api.Key{Name: fmt.Sprintf("zone-a-%d", i)}},
			From: from, To: to, Open: open, Peak: 1, PeakDetail: "Ready=Unknown (NodeStatusUnknown)"}
	}
	web := gap.Interval{Object: gap.Object{Kind: api.KindDeployment, Key: api.Key{Namespace: "default", Name: "web"}},
		From: 10 * time.Minute, To: 29 * time.Minute, Peak: 500, PeakDetail: "ready 1000/1500"}
	nodes := func(n int, open func(i int) bool) []gap.Interval {
		var out []gap.Interval
		for i := 1; i <= n; i++ {
			from := 10*time.Minute + time.Duration(i)*time.Second
			out = append(out, node(i, from, 30*time.Minute-time.Duration(i)*time.Second, open(i)))
		}
		return out
	}
	all := func(int) bool { return true }
	none := func(int) bool { return false }
	for _, tc := range []struct {
		name      string
		incidents []gap.Interval
		want      []string
	}{
		{"FoldAbove are listed", append([]gap.Interval{web}, nodes(FoldAbove, all)...), []string{
			"incident: deployment default/web gap open 19m0s (longer than the 5m0s SLO) from 10:00, until 29:00; peak 500 (ready 1000/1500)",
			"incident: node zone-a-1 gap open 19m58s (longer than the 5m0s SLO) from 10:01, still open at the end; peak 1 (Ready=Unknown (NodeStatusUnknown))",
			"incident: node zone-a-2 gap open 19m56s (longer than the 5m0s SLO) from 10:02, still open at the end; peak 1 (Ready=Unknown (NodeStatusUnknown))",
			"incident: node zone-a-3 gap open 19m54s (longer than the 5m0s SLO) from 10:03, still open at the end; peak 1 (Ready=Unknown (NodeStatusUnknown))",
		}},
		{"more fold where the first was", append(nodes(100, all), web), []string{
			"incident: 100 node objects (zone-a-1, zone-a-2, zone-a-3, …) gaps open 16m40s to 19m58s (longer than the 5m0s SLO) opened from 10:01 to 11:40, all still open at the end; peak 1 (Ready=Unknown (NodeStatusUnknown))",
			"incident: deployment default/web gap open 19m0s (longer than the 5m0s SLO) from 10:00, until 29:00; peak 500 (ready 1000/1500)",
		}},
		{"times that print alike are one", []gap.Interval{
			node(1, 10*time.Minute, 20*time.Minute, false), node(2, 10*time.Minute+time.Millisecond, 20*time.Minute+time.Millisecond, false),
			node(3, 10*time.Minute+2*time.Millisecond, 20*time.Minute+2*time.Millisecond, false), node(4, 10*time.Minute+3*time.Millisecond, 20*time.Minute+3*time.Millisecond, false),
		}, []string{
			"incident: 4 node objects (zone-a-1, zone-a-2, zone-a-3, …) gaps open 10m0s (longer than the 5m0s SLO) opened from 10:00, all closed by 20:00; peak 1 (Ready=Unknown (NodeStatusUnknown))",
		}},
		{"all closed", nodes(5, none), []string{
			"incident: 5 node objects (zone-a-1, zone-a-2, zone-a-3, …) gaps open 19m50s to 19m58s (longer than the 5m0s SLO) opened from 10:01 to 10:05, all closed by 29:59; peak 1 (Ready=Unknown (NodeStatusUnknown))",
		}},
		{"some open", nodes(6, func(i int) bool { return i%2 == 0 }), []string{
			"incident: 6 node objects (zone-a-1, zone-a-2, zone-a-3, …) gaps open 19m48s to 19m58s (longer than the 5m0s SLO) opened from 10:01 to 10:06, 3 still open at the end, the rest closed by 29:59; peak 1 (Ready=Unknown (NodeStatusUnknown))",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := &Gaps{SLO: 5 * time.Minute, Incidents: tc.incidents}
			if got := g.Findings(); !slices.Equal(got, tc.want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}
