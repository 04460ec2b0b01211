package kubelet

import (
	"errors"
	"fmt"
	"net/netip"
)

// ErrNoAddresses is the error of an allocation from a full pod CIDR.
var ErrNoAddresses = errors.New("no IP addresses available in range set")

// IPAM hands out pod IPs from a node's pod CIDR as the host-local IPAM
// plugin does: sequentially from the first usable address (the network
// address and the gateway, .0 and .1 of a /24, and the broadcast address
// are never handed out), continuing after the last one handed out and
// wrapping around, so that a freed address is reused last.
type IPAM struct {
	base   uint32 // network address
	first  uint32 // first usable offset
	last   uint32 // last usable offset
	next   uint32 // offset to try first
	used   []uint64
	inUse  int
	prefix netip.Prefix
}

// NewIPAM returns the allocator of an IPv4 CIDR such as "10.244.3.0/24".
// Prefixes longer than /30 leave no usable address and are refused.
func NewIPAM(cidr string) (*IPAM, error) {
	p, err := netip.ParsePrefix(cidr)
	if err != nil {
		return nil, fmt.Errorf("pod CIDR %q: %w", cidr, err)
	}
	if !p.Addr().Is4() {
		return nil, fmt.Errorf("pod CIDR %q: only IPv4 is simulated", cidr)
	}
	if p.Bits() > 30 || p.Bits() < 8 {
		return nil, fmt.Errorf("pod CIDR %q: prefix length must be between /8 and /30", cidr)
	}
	p = p.Masked()
	a4 := p.Addr().As4()
	size := uint32(1) << (32 - p.Bits())
	a := &IPAM{
		base:   uint32(a4[0])<<24 | uint32(a4[1])<<16 | uint32(a4[2])<<8 | uint32(a4[3]),
		first:  2,
		last:   size - 2,
		used:   make([]uint64, (size+63)/64),
		prefix: p,
	}
	a.next = a.first
	return a, nil
}

// Prefix returns the CIDR.
func (a *IPAM) Prefix() netip.Prefix { return a.prefix }

// Gateway returns the first address after the network address, which is
// never handed out.
func (a *IPAM) Gateway() netip.Addr { return a.addr(1) }

// InUse returns how many addresses are handed out.
func (a *IPAM) InUse() int { return a.inUse }

// Capacity returns how many addresses can be handed out at once.
func (a *IPAM) Capacity() int { return int(a.last - a.first + 1) }

func (a *IPAM) addr(off uint32) netip.Addr {
	v := a.base + off
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)})
}

// Allocate hands out the next free address, or fails with ErrNoAddresses.
func (a *IPAM) Allocate() (netip.Addr, error) {
	n := a.last - a.first + 1
	for i := uint32(0); i < n; i++ {
		off := a.first + (a.next-a.first+i)%n
		w, bit := off/64, uint64(1)<<(off%64)
		if a.used[w]&bit != 0 {
			continue
		}
		a.used[w] |= bit
		a.inUse++
		a.next = off + 1
		if a.next > a.last {
			a.next = a.first
		}
		return a.addr(off), nil
	}
	return netip.Addr{}, ErrNoAddresses
}

// Release returns ip to the pool; an address not handed out is ignored.
func (a *IPAM) Release(ip netip.Addr) {
	if !ip.Is4() || !a.prefix.Contains(ip) {
		return
	}
	b := ip.As4()
	off := (uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])) - a.base
	if off < a.first || off > a.last {
		return
	}
	w, bit := off/64, uint64(1)<<(off%64)
	if a.used[w]&bit != 0 {
		a.used[w] &^= bit
		a.inUse--
	}
}
