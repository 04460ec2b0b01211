package api

import "testing"

// TestContainerHooks: the hooks the kubelet and the API server's
// validation read, from the one decoding of a container's lifecycle.
func TestContainerHooks(t *testing.T) {
	for _, tc := range []struct {
		name, lifecycle    string
		ok                 bool
		postStart, preStop bool
		sleep              int64
	}{
		{"none", "", false, false, false, 0},
		{"preStop sleep", `{"preStop":{"sleep":{"seconds":5}}}`, true, false, true, 5},
		{"postStart exec", `{"postStart":{"exec":{"command":["true"]}}}`, true, true, false, 0},
		{"null postStart", `{"postStart":null,"preStop":{"httpGet":{"port":80}}}`, true, false, true, 0},
		{"malformed", `{"preStop":[]}`, false, false, false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &Container{Name: "c"}
			if tc.lifecycle != "" {
				raw := RawValue(tc.lifecycle)
				c.Lifecycle = &raw
			}
			h, ok := c.Hooks()
			if ok != tc.ok || (h.PostStart != nil) != tc.postStart || (h.PreStop != nil) != tc.preStop {
				t.Fatalf("ok %v, postStart %v, preStop %v; want %v, %v, %v", ok, h.PostStart != nil, h.PreStop != nil, tc.ok, tc.postStart, tc.preStop)
			}
			if h.PreStop != nil && h.PreStop.Sleep != nil && h.PreStop.Sleep.Seconds != tc.sleep {
				t.Errorf("sleep %d, want %d", h.PreStop.Sleep.Seconds, tc.sleep)
			}
		})
	}
}
