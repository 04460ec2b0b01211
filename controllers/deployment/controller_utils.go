package deployment

import (
	"encoding/binary"
	"encoding/json"
	"hash/fnv"
	"strconv"

	"github.com/clustersim/clustersim/sim/api"
)

// The helpers of this file follow k/k pkg/controller/controller_utils.go
// (ComputeHash, FilterActiveReplicaSets, the ReplicaSet orderings) and
// apimachinery's semantic equality.

// alphanums are the characters of generated names and hashes
// (apimachinery's util/rand): no vowels, no 0, 1 or 3, so that no word
// can be spelled.
const alphanums = "bcdfghjklmnpqrstvwxz2456789"

// ComputeHash returns the pod-template-hash of template: the FNV-32a hash
// of its deterministic JSON serialisation followed, when collisionCount is
// set, by the count as 8 bytes (little-endian uint32, then zeros), printed
// in decimal and re-encoded letter by letter into alphanums, as upstream
// does. Upstream serialises with spew; the sequence of steps is the same,
// the bytes hashed are JSON, so hashes differ from a real cluster's but are
// stable across runs and restarts.
func ComputeHash(template *api.PodTemplateSpec, collisionCount *int32) string {
	h := fnv.New32a()
	b, err := json.Marshal(template)
	if err != nil {
		// Only a template built in code with an impossible value fails to
		// encode; hash the failure, which is deterministic too.
		b = []byte("unencodable pod template: " + err.Error())
	}
	h.Write(b)
	if collisionCount != nil {
		buf := make([]byte, 8)
		binary.LittleEndian.PutUint32(buf, uint32(*collisionCount))
		h.Write(buf)
	}
	return safeEncodeString(strconv.FormatUint(uint64(h.Sum32()), 10))
}

// safeEncodeString maps each character of s into alphanums.
func safeEncodeString(s string) string {
	r := make([]byte, 0, len(s))
	for _, c := range s {
		r = append(r, alphanums[int(c)%len(alphanums)])
	}
	return string(r)
}

// FilterActiveReplicaSets returns the ReplicaSets of rss that are not nil
// and want at least one pod.
func FilterActiveReplicaSets(rss []*api.ReplicaSet) []*api.ReplicaSet {
	var out []*api.ReplicaSet
	for _, rs := range rss {
		if rs != nil && rsReplicas(rs) > 0 {
			out = append(out, rs)
		}
	}
	return out
}

// ReplicaSetsByCreationTimestamp sorts ReplicaSets oldest first, by name
// among equals.
type ReplicaSetsByCreationTimestamp []*api.ReplicaSet

// Len is the number of ReplicaSets.
func (o ReplicaSetsByCreationTimestamp) Len() int { return len(o) }

// Swap swaps two ReplicaSets.
func (o ReplicaSetsByCreationTimestamp) Swap(i, j int) { o[i], o[j] = o[j], o[i] }

// Less orders by creation time, then name.
func (o ReplicaSetsByCreationTimestamp) Less(i, j int) bool {
	ti, tj := o[i].CreationTimestamp.Time, o[j].CreationTimestamp.Time
	if ti.Equal(tj) {
		return o[i].Name < o[j].Name
	}
	return ti.Before(tj)
}

// replicaSetsBySizeOlder sorts ReplicaSets largest first, older first among
// equals: the order proportional scaling removes replicas in.
type replicaSetsBySizeOlder []*api.ReplicaSet

// Len is the number of ReplicaSets.
func (o replicaSetsBySizeOlder) Len() int { return len(o) }

// Swap swaps two ReplicaSets.
func (o replicaSetsBySizeOlder) Swap(i, j int) { o[i], o[j] = o[j], o[i] }

// Less orders by size descending, then creation time ascending.
func (o replicaSetsBySizeOlder) Less(i, j int) bool {
	if rsReplicas(o[i]) == rsReplicas(o[j]) {
		return ReplicaSetsByCreationTimestamp(o).Less(i, j)
	}
	return rsReplicas(o[i]) > rsReplicas(o[j])
}

// replicaSetsBySizeNewer sorts ReplicaSets largest first, newer first among
// equals: the order proportional scaling adds replicas in.
type replicaSetsBySizeNewer []*api.ReplicaSet

// Len is the number of ReplicaSets.
func (o replicaSetsBySizeNewer) Len() int { return len(o) }

// Swap swaps two ReplicaSets.
func (o replicaSetsBySizeNewer) Swap(i, j int) { o[i], o[j] = o[j], o[i] }

// Less orders by size descending, then creation time descending.
func (o replicaSetsBySizeNewer) Less(i, j int) bool {
	if rsReplicas(o[i]) == rsReplicas(o[j]) {
		return ReplicaSetsByCreationTimestamp(o).Less(j, i)
	}
	return rsReplicas(o[i]) > rsReplicas(o[j])
}

// ReplicaSetsByRevision sorts ReplicaSets by revision, oldest first; when a
// revision is missing, unparsable or equal, by creation time and name.
type ReplicaSetsByRevision []*api.ReplicaSet

// Len is the number of ReplicaSets.
func (o ReplicaSetsByRevision) Len() int { return len(o) }

// Swap swaps two ReplicaSets.
func (o ReplicaSetsByRevision) Swap(i, j int) { o[i], o[j] = o[j], o[i] }

// Less orders by revision, then creation time, then name.
func (o ReplicaSetsByRevision) Less(i, j int) bool {
	r1, err1 := Revision(o[i])
	r2, err2 := Revision(o[j])
	if err1 != nil || err2 != nil || r1 == r2 {
		return ReplicaSetsByCreationTimestamp(o).Less(i, j)
	}
	return r1 < r2
}
