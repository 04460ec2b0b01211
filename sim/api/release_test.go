package api

import "testing"

// TestKubernetesRelease checks that the major and minor numbers are
// KubernetesRelease's own.
func TestKubernetesRelease(t *testing.T) {
	if want := "v" + KubernetesMajor + "." + KubernetesMinor + ".0"; KubernetesRelease != want {
		t.Errorf("KubernetesRelease %q, major %q and minor %q give %q", KubernetesRelease, KubernetesMajor, KubernetesMinor, want)
	}
}
