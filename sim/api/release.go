package api

// KubernetesRelease is the one Kubernetes release whose behaviour the
// simulator follows: its defaults, messages, events and status fields
// (docs/kubernetes-release.md lists them with their upstream source).
// Nodes report it as their kubeletVersion, the API server's /version as
// its gitVersion, and `clustersim version` names it.
const KubernetesRelease = "v1.37.0"

// KubernetesMajor and KubernetesMinor are KubernetesRelease's major and
// minor numbers, as /version reports them.
const (
	KubernetesMajor = "1"
	KubernetesMinor = "37"
)
