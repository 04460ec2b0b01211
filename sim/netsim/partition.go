package netsim

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"
)

// maxPartitions bounds the partitions active at once: membership is a bit
// per partition in each endpoint, so checking a message costs three AND
// operations however many partitions are active.
const maxPartitions = 64

// Partition errors, matched with errors.Is.
var (
	// ErrPartitionExists: a partition with that name is already active.
	ErrPartitionExists = errors.New("netsim: partition already exists")
	// ErrUnknownPartition: no active partition has that name.
	ErrUnknownPartition = errors.New("netsim: unknown partition")
	// ErrInvalidPartition: an empty name, an empty side, or an address on
	// both sides.
	ErrInvalidPartition = errors.New("netsim: invalid partition")
	// ErrTooManyPartitions: 64 partitions are active already.
	ErrTooManyPartitions = errors.New("netsim: too many partitions")
)

// partition is one active partition.
type partition struct {
	name   string
	bit    int
	oneWay bool
	a, b   map[Addr]bool
	addrs  []Addr // members of both sides, sorted, for Heal
}

// Partition starts partition name: messages from any member of a to any
// member of b are dropped, and from b to a too unless oneWay. Members need
// not be registered yet. Messages already in flight across it are lost on
// arrival, and streams across it break when they next carry a message.
// Several partitions may be active; names are unique.
func (n *Network) Partition(name string, a, b []Addr, oneWay bool) error {
	switch {
	case name == "":
		return fmt.Errorf("%w: empty name", ErrInvalidPartition)
	case len(a) == 0 || len(b) == 0:
		return fmt.Errorf("partition %q: %w: empty side", name, ErrInvalidPartition)
	}
	if _, ok := n.byName[name]; ok {
		return fmt.Errorf("partition %q: %w", name, ErrPartitionExists)
	}
	if n.active == ^uint64(0) {
		return fmt.Errorf("partition %q: %w", name, ErrTooManyPartitions)
	}
	p := &partition{name: name, oneWay: oneWay, a: make(map[Addr]bool, len(a)), b: make(map[Addr]bool, len(b))}
	for _, x := range a {
		p.a[x] = true
	}
	for _, x := range b {
		if p.a[x] {
			return fmt.Errorf("partition %q: %w: %s on both sides", name, ErrInvalidPartition, x)
		}
		p.b[x] = true
	}
	for x := range p.a {
		p.addrs = append(p.addrs, x)
	}
	for x := range p.b {
		p.addrs = append(p.addrs, x)
	}
	slices.Sort(p.addrs)
	p.bit = bits.TrailingZeros64(^n.active)
	bit := uint64(1) << p.bit
	n.parts[p.bit] = p
	n.byName[name] = p
	n.active |= bit
	if !oneWay {
		n.twoWay |= bit
	}
	for _, x := range p.addrs {
		if e, ok := n.byAddr[x]; ok {
			if p.a[x] {
				e.sideA |= bit
			} else {
				e.sideB |= bit
			}
		}
	}
	return nil
}

// Heal ends partition name. Messages dropped while it was active stay lost.
func (n *Network) Heal(name string) error {
	p, ok := n.byName[name]
	if !ok {
		return fmt.Errorf("partition %q: %w", name, ErrUnknownPartition)
	}
	bit := uint64(1) << p.bit
	for _, x := range p.addrs {
		if e, ok := n.byAddr[x]; ok {
			e.sideA &^= bit
			e.sideB &^= bit
		}
	}
	n.active &^= bit
	n.twoWay &^= bit
	n.parts[p.bit] = nil
	delete(n.byName, name)
	return nil
}

// Partitioned reports whether an active partition blocks messages from ->
// to. Down endpoints are not partitions and do not count.
func (n *Network) Partitioned(from, to Addr) bool {
	for _, p := range n.parts {
		if p == nil {
			continue
		}
		if p.a[from] && p.b[to] || !p.oneWay && p.b[from] && p.a[to] {
			return true
		}
	}
	return false
}

// Partitions returns the names of the active partitions, sorted.
func (n *Network) Partitions() []string {
	out := make([]string, 0, len(n.byName))
	for _, p := range n.parts {
		if p != nil {
			out = append(out, p.name)
		}
	}
	slices.Sort(out)
	return out
}
