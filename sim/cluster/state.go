package cluster

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"github.com/clustersim/clustersim/sim/store"
)

// StateHash identifies the objects the store holds now: a SHA-256 of
// every object's JSON, by kind, then namespace and name. Two runs that
// end with the same objects (the same content, resourceVersions,
// timestamps and UIDs) have the same state hash, whatever reads they
// served; clustersim serve --record checks its replays with it.
func (c *Cluster) StateHash() (string, error) {
	h := sha256.New()
	for _, k := range c.Store.Kinds().Kinds() {
		objs, _, err := c.Store.List(k, store.ListOptions{})
		if err != nil {
			return "", err
		}
		for _, o := range objs {
			b, err := json.Marshal(o)
			if err != nil {
				return "", err
			}
			h.Write(b)
			h.Write([]byte{'\n'})
		}
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}
