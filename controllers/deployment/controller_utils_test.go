package deployment

import (
	"encoding/json"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// podSpec is upstream's hash_test.go template; @@VERSION@@ varies the
// image.
const podSpec = `{
  "metadata": {"creationTimestamp": null, "labels": {"app": "cats"}},
  "spec": {
    "containers": [{
      "name": "cats",
      "image": "registry/test/cats:v0.@@VERSION@@.0",
      "ports": [{"name": "http", "containerPort": 9077, "protocol": "TCP"}],
      "env": [{"name": "DEPLOYMENT_ENVIRONMENT", "value": "cats-stubbed-functional"}, {"name": "APP_NAME", "value": "cats"}],
      "resources": {"limits": {"cpu": "1", "memory": "1Gi"}, "requests": {"cpu": "1", "memory": "1Gi"}},
      "livenessProbe": {"httpGet": {"path": "/private/status", "port": 9077, "scheme": "HTTP"}, "initialDelaySeconds": 30, "timeoutSeconds": 1, "periodSeconds": 10, "successThreshold": 1, "failureThreshold": 3},
      "readinessProbe": {"httpGet": {"path": "/private/status", "port": 9077, "scheme": "HTTP"}, "initialDelaySeconds": 1, "timeoutSeconds": 1, "periodSeconds": 10, "successThreshold": 1, "failureThreshold": 3},
      "terminationMessagePath": "/dev/termination-log",
      "imagePullPolicy": "IfNotPresent"
    }],
    "restartPolicy": "Always",
    "terminationGracePeriodSeconds": 30,
    "dnsPolicy": "ClusterFirst",
    "securityContext": {}
  }
}`

func catsTemplate(t testing.TB, version int) *api.PodTemplateSpec {
	t.Helper()
	var spec api.PodTemplateSpec
	if err := json.Unmarshal([]byte(strings.Replace(podSpec, "@@VERSION@@", strconv.Itoa(version), 1)), &spec); err != nil {
		t.Fatal(err)
	}
	return &spec
}

// TestComputeHashNoCollisions is upstream's TestPodTemplateSpecHashFnv: a
// thousand templates differing in one digit hash differently.
func TestComputeHashNoCollisions(t *testing.T) {
	seen := map[string]int{}
	for i := range 1000 {
		h := ComputeHash(catsTemplate(t, i), nil)
		if j, ok := seen[h]; ok {
			t.Fatalf("hash collision between versions %d and %d: %s", j, i, h)
		}
		seen[h] = i
	}
}

// TestComputeHashStable pins the hash of a fixed template, so that a change
// of the serialisation (which would rename every ReplicaSet of a running
// simulation) is noticed.
func TestComputeHashStable(t *testing.T) {
	one, two := int32(1), int32(2)
	tests := []struct {
		name      string
		template  *api.PodTemplateSpec
		collision *int32
		want      string
	}{
		{"cats v0.0.0", catsTemplate(t, 0), nil, "b5f9b79f9"},
		{"cats v0.0.0, one collision", catsTemplate(t, 0), &one, "66f88949c4"},
		{"cats v0.0.0, two collisions", catsTemplate(t, 0), &two, "c6ccdd57c"},
		{"cats v0.1.0", catsTemplate(t, 1), nil, "74c746d9b6"},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ComputeHash(tt.template, tt.collision)
			if got != tt.want {
				t.Errorf("ComputeHash = %q, want %q", got, tt.want)
			}
			if again := ComputeHash(tt.template.DeepCopy(), tt.collision); again != got {
				t.Errorf("hash of a copy %q differs from %q", again, got)
			}
			for _, c := range got {
				if !strings.ContainsRune(alphanums, c) {
					t.Errorf("hash %q has %q, not one of %q", got, c, alphanums)
				}
			}
			if seen[got] {
				t.Errorf("hash %q seen twice", got)
			}
			seen[got] = true
		})
	}
}

// TestComputeHash is upstream's table of the same name (k/k
// pkg/controller/controller_utils_test.go): the collision count must change
// the hash, also from nil to math.MaxInt32.
func TestComputeHash(t *testing.T) {
	collisionCount := int32(1)
	otherCollisionCount := int32(2)
	maxCollisionCount := int32(math.MaxInt32)
	tests := []struct {
		name                string
		template            *api.PodTemplateSpec
		collisionCount      *int32
		otherCollisionCount *int32
	}{
		{name: "simple", template: &api.PodTemplateSpec{}, collisionCount: &collisionCount, otherCollisionCount: &otherCollisionCount},
		{name: "using math.MaxInt64", template: &api.PodTemplateSpec{}, collisionCount: nil, otherCollisionCount: &maxCollisionCount},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hash := ComputeHash(tt.template, tt.collisionCount)
			otherHash := ComputeHash(tt.template, tt.otherCollisionCount)
			if hash == otherHash {
				t.Errorf("expected different hashes but got the same: %s", hash)
			}
		})
	}
}

func TestSafeEncodeString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		// '0' is 48: 48 % 27 = 21 → '4'; '9' is 57: 57 % 27 = 3 → 'f'.
		{"0", "4"},
		{"9", "f"},
		{"1234567890", "56789bcdf4"},
	}
	for _, tt := range tests {
		if got := safeEncodeString(tt.in); got != tt.want {
			t.Errorf("safeEncodeString(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestFilterActiveReplicaSets(t *testing.T) {
	in := []*api.ReplicaSet{rs("a", 1, nil, testTime), nil, rs("b", 0, nil, testTime), rs("c", 3, nil, testTime)}
	if got := names(FilterActiveReplicaSets(in)); !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("got %v, want [a c]", got)
	}
}

func TestReplicaSetOrders(t *testing.T) {
	t0, t1, t2 := testTime, testTime.Add(time.Minute), testTime.Add(2*time.Minute)
	withRev := func(r *api.ReplicaSet, rev string) *api.ReplicaSet {
		if rev != "" {
			r.Annotations = map[string]string{RevisionAnnotation: rev}
		}
		return r
	}
	tests := []struct {
		name string
		sort func([]*api.ReplicaSet)
		in   []*api.ReplicaSet
		want []string
	}{
		{"by creation timestamp, then name", func(s []*api.ReplicaSet) { sort.Sort(ReplicaSetsByCreationTimestamp(s)) },
			[]*api.ReplicaSet{rs("c", 1, nil, t1), rs("b", 1, nil, t0), rs("a", 1, nil, t1)}, []string{"b", "a", "c"}},
		{"by size, older first among equals", func(s []*api.ReplicaSet) { sort.Sort(replicaSetsBySizeOlder(s)) },
			[]*api.ReplicaSet{rs("new", 2, nil, t2), rs("mid", 5, nil, t1), rs("old", 2, nil, t0)}, []string{"mid", "old", "new"}},
		{"by size, newer first among equals", func(s []*api.ReplicaSet) { sort.Sort(replicaSetsBySizeNewer(s)) },
			[]*api.ReplicaSet{rs("old", 2, nil, t0), rs("mid", 5, nil, t1), rs("new", 2, nil, t2)}, []string{"mid", "new", "old"}},
		{"by revision, a missing one counting as 0", func(s []*api.ReplicaSet) { sort.Sort(ReplicaSetsByRevision(s)) },
			[]*api.ReplicaSet{withRev(rs("r3", 0, nil, t0), "3"), withRev(rs("r1", 0, nil, t2), "1"), withRev(rs("x", 0, nil, t1), "")},
			[]string{"x", "r1", "r3"}},
		{"by revision, creation time among equals", func(s []*api.ReplicaSet) { sort.Sort(ReplicaSetsByRevision(s)) },
			[]*api.ReplicaSet{withRev(rs("late", 0, nil, t2), "2"), withRev(rs("early", 0, nil, t0), "2"), withRev(rs("one", 0, nil, t1), "1")},
			[]string{"one", "early", "late"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.sort(tt.in)
			if got := names(tt.in); !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
