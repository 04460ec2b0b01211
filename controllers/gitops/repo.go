package gitops

import (
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"slices"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// Commit is one revision of a Repo.
type Commit struct {
	// Revision is the commit's id: 40 hex digits, derived from its parent,
	// time and content like a Git SHA-1.
	Revision string
	// Time is when the commit becomes visible, as the manager's clock
	// reads time.
	Time time.Time
	// Objects are the manifests at this revision (shared: never mutate).
	Objects []api.Object
}

// Short returns the revision's first 7 digits, as Argo CD shows it.
func (c Commit) Short() string {
	if len(c.Revision) < 7 {
		return c.Revision
	}
	return c.Revision[:7]
}

// Repo is a simulated Git repository: a history of commits in time order.
// It is plain data, read by the syncer and written by a scenario; it is not
// safe for use by two goroutines (the simulator runs one at a time).
type Repo struct {
	// URL names the repository in statuses, e.g.
	// "https://github.com/argoproj/argocd-example-apps".
	URL     string
	commits []Commit
	last    string // revision of the last commit added
}

// NewRepo returns an empty repository named url.
func NewRepo(url string) *Repo { return &Repo{URL: url} }

// Commit adds a commit of objs (deep-copied; nil entries are dropped) that
// becomes visible at at, and returns its revision. Commits may be added in
// any order; a commit is the parent of the next one added.
func (r *Repo) Commit(at time.Time, objs []api.Object) string {
	c := Commit{Time: at}
	for _, o := range objs {
		if o == nil {
			continue
		}
		c.Objects = append(c.Objects, o.DeepCopyObject())
	}
	h := sha1.New()
	h.Write([]byte(r.last))
	h.Write([]byte(at.UTC().Format(time.RFC3339Nano)))
	for _, o := range c.Objects {
		b, _ := json.Marshal(o) // API types always encode
		h.Write(b)
	}
	c.Revision = hex.EncodeToString(h.Sum(nil))
	r.last = c.Revision
	i, _ := slices.BinarySearchFunc(r.commits, at, func(e Commit, t time.Time) int {
		if e.Time.After(t) {
			return 1
		}
		return -1 // equal times keep insertion order
	})
	r.commits = slices.Insert(r.commits, i, c)
	return c.Revision
}

// Head returns the latest commit visible at now, and false when there is
// none yet.
func (r *Repo) Head(now time.Time) (Commit, bool) {
	for i := len(r.commits) - 1; i >= 0; i-- {
		if !r.commits[i].Time.After(now) {
			return r.commits[i], true
		}
	}
	return Commit{}, false
}

// History returns every commit, visible or not, in time order.
func (r *Repo) History() []Commit { return slices.Clone(r.commits) }
