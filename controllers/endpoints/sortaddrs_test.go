package endpoints

import (
	"fmt"
	"math/rand/v2"
	"net/netip"
	"slices"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestSortAddrsIsCompareAddrs checks sortAddrs' keyed sort against
// sorting the addresses themselves by compareAddrs, on random address
// lists: IPv4 addresses of one to three digits an octet (so that one IP
// is often a prefix of another, "10.0.1.2" and "10.0.1.23"), IPv6 ones
// longer than the key's 16 bytes, IPs shared by two pods (the UID
// decides), addresses without a target reference.
func TestSortAddrsIsCompareAddrs(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 2000 {
		n := r.IntN(40)
		addrs := make([]api.EndpointAddress, n)
		for j := range addrs {
			var ip string
			switch r.IntN(6) {
			case 0:
				ip = fmt.Sprintf("fd00:10:244:%x::%x", r.IntN(3), r.IntN(300))
			case 1:
				ip = fmt.Sprintf("10.%d.%d.%d", 244, r.IntN(3), r.IntN(3)) // often the same IP
			default:
				ip = fmt.Sprintf("10.%d.%d.%d", r.IntN(300), r.IntN(300), r.IntN(300))
			}
			addrs[j] = api.EndpointAddress{IP: ip}
			if r.IntN(10) != 0 {
				addrs[j].TargetRef = &api.ObjectReference{Kind: "Pod", Name: fmt.Sprintf("p%d", j), UID: api.UID(fmt.Sprintf("uid-%d", j))}
			}
		}
		// No two addresses of a subset are equal (the packing keeps one
		// per IP and UID); the test's lists are made so too.
		addrs = slices.CompactFunc(slices.SortedFunc(slices.Values(addrs), compareAddrs), func(a, b api.EndpointAddress) bool { return compareAddrs(a, b) == 0 })
		r.Shuffle(len(addrs), func(a, b int) { addrs[a], addrs[b] = addrs[b], addrs[a] })
		want := slices.Clone(addrs)
		slices.SortFunc(want, compareAddrs)
		got := slices.Clone(addrs)
		sortAddrs(got)
		if !slices.EqualFunc(got, want, func(a, b api.EndpointAddress) bool { return compareAddrs(a, b) == 0 }) {
			t.Fatalf("list %d: sortAddrs gave\n%v\nwant\n%v", i, ips(got), ips(want))
		}
	}
}

func ips(addrs []api.EndpointAddress) []string {
	out := make([]string, len(addrs))
	for i, a := range addrs {
		out[i] = a.IP
		if a.TargetRef != nil {
			out[i] += "/" + string(a.TargetRef.UID)
		}
	}
	return out
}

// TestIPv6IsParsed checks ipv6's shortcut (no colon, not IPv6) against
// parsing every string.
func TestIPv6IsParsed(t *testing.T) {
	for _, s := range []string{"", "10.0.0.1", "::1", "fd00::1", "::ffff:10.0.0.1", "1.2.3", "abc", ":", "10.0.0.1:80", "fe80::1%eth0", "2001:db8::"} {
		a, err := netip.ParseAddr(s)
		want := err == nil && a.Is6() && !a.Is4In6()
		if got := ipv6(s); got != want {
			t.Errorf("ipv6(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestAddrAllocPointersStayApart checks that the addresses of a sync
// built from one allocator keep their own node names and references.
func TestAddrAllocPointersStayApart(t *testing.T) {
	al := newAddrAlloc(2)
	var got []*string
	for _, n := range []string{"a", "b", "c"} { // the third is past the arrays
		got = append(got, al.node(n))
	}
	r1, r2, r3 := al.ref(api.ObjectReference{Name: "x"}), al.ref(api.ObjectReference{Name: "y"}), al.ref(api.ObjectReference{Name: "z"})
	if *got[0] != "a" || *got[1] != "b" || *got[2] != "c" || r1.Name != "x" || r2.Name != "y" || r3.Name != "z" {
		t.Fatalf("got %s %s %s %s %s %s", *got[0], *got[1], *got[2], r1.Name, r2.Name, r3.Name)
	}
}
