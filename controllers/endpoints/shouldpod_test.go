package endpoints

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestShouldPodBeInEndpoints ports upstream's table of the same name
// (k/k pkg/controller/util/endpoint controller_utils_test.go, the form
// with includeTerminating), row by row.
func TestShouldPodBeInEndpoints(t *testing.T) {
	deleted := api.Time{}
	pod := func(restart api.RestartPolicy, phase api.PodPhase, ip string, ips ...string) *api.Pod {
		p := &api.Pod{Spec: api.PodSpec{RestartPolicy: restart}, Status: api.PodStatus{Phase: phase, PodIP: ip}}
		for _, i := range ips {
			p.Status.PodIPs = append(p.Status.PodIPs, api.PodIP{IP: i})
		}
		return p
	}
	terminating := func() *api.Pod {
		p := pod("", api.PodRunning, "1.2.3.4")
		p.DeletionTimestamp = &deleted
		return p
	}
	tests := []struct {
		name               string
		pod                *api.Pod
		expected           bool
		includeTerminating bool
	}{
		// Pod should not be in endpoints:
		{name: "Failed pod with Never RestartPolicy", pod: pod(api.RestartPolicyNever, api.PodFailed, "1.2.3.4")},
		{name: "Succeeded pod with Never RestartPolicy", pod: pod(api.RestartPolicyNever, api.PodSucceeded, "1.2.3.4")},
		{name: "Succeeded pod with OnFailure RestartPolicy", pod: pod(api.RestartPolicyOnFailure, api.PodSucceeded, "1.2.3.4")},
		{name: "Empty Pod IPs, Running pod with OnFailure RestartPolicy", pod: pod(api.RestartPolicyNever, api.PodRunning, "")},
		{name: "Terminating Pod with includeTerminating=false", pod: terminating()},
		{name: "Failed pod with Always RestartPolicy", pod: pod(api.RestartPolicyAlways, api.PodFailed, "1.2.3.4")},
		// Pod should be in endpoints:
		{name: "Pending pod with Never RestartPolicy", pod: pod(api.RestartPolicyNever, api.PodPending, "1.2.3.4"), expected: true},
		{name: "Unknown pod with OnFailure RestartPolicy", pod: pod(api.RestartPolicyOnFailure, api.PodUnknown, "1.2.3.4"), expected: true},
		{name: "Running pod with Never RestartPolicy", pod: pod(api.RestartPolicyNever, api.PodRunning, "1.2.3.4"), expected: true},
		{name: "Multiple Pod IPs, Running pod with OnFailure RestartPolicy", pod: pod(api.RestartPolicyNever, api.PodRunning, "", "1.2.3.4", "1234::5678:0000:0000:9abc:def0"), expected: true},
		{name: "Terminating Pod with includeTerminating=true", pod: terminating(), expected: true, includeTerminating: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ShouldPodBeInEndpoints(tt.pod, tt.includeTerminating); got != tt.expected {
				t.Errorf("expected: %t, got: %t", tt.expected, got)
			}
		})
	}
}
