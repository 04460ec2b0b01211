package serve

import (
	"strings"
	"testing"
)

func TestParsePath(t *testing.T) {
	for _, tc := range []struct {
		path string
		want target
		ok   bool
	}{
		{"/api/v1", target{version: "v1"}, true},
		{"/apis/apps/v1", target{group: "apps", version: "v1"}, true},
		{"/api/v1/nodes", target{version: "v1", resource: "nodes"}, true},
		{"/api/v1/nodes/worker-1", target{version: "v1", resource: "nodes", name: "worker-1"}, true},
		{"/api/v1/namespaces/default", target{version: "v1", resource: "namespaces", name: "default"}, true},
		{"/api/v1/namespaces/default/status", target{version: "v1", resource: "namespaces", name: "default", subresource: "status"}, true},
		{"/api/v1/namespaces/default/pods", target{version: "v1", namespace: "default", resource: "pods"}, true},
		{"/api/v1/namespaces/default/pods/web-1/status", target{version: "v1", namespace: "default", resource: "pods", name: "web-1", subresource: "status"}, true},
		{"/apis/apps/v1/namespaces/default/deployments/web/scale", target{group: "apps", version: "v1", namespace: "default", resource: "deployments", name: "web", subresource: "scale"}, true},
		{"/api/v1/watch/namespaces/default/pods", target{version: "v1", namespace: "default", resource: "pods", watchPath: true}, true},
		{"/apis/apps", target{}, false},
		{"/api/v1/namespaces/default/pods/a/b/c", target{}, false},
		{"/api/v1/namespaces//pods", target{}, false},
	} {
		got, ok := parsePath(tc.path)
		if ok != tc.ok || ok && got != tc.want {
			t.Errorf("parsePath(%q) = %+v, %v; want %+v, %v", tc.path, got, ok, tc.want, tc.ok)
		}
	}
}

// TestManagerFromUserAgent holds the field manager of a write without a
// fieldManager to the API server's prefixFromUserAgent.
func TestManagerFromUserAgent(t *testing.T) {
	for _, tc := range []struct{ ua, want string }{
		{"kubectl/v1.32.0 (linux/amd64) kubernetes/abc", "kubectl"},
		{"servetest.test/v0.0.0 (linux/amd64) kubernetes/$Format", "servetest.test"},
		{"a\tb/1", "ab"},
		{strings.Repeat("x", 200), strings.Repeat("x", 128)},
		{"", ""},
	} {
		if got := managerFromUserAgent(tc.ua); got != tc.want {
			t.Errorf("managerFromUserAgent(%q) = %q, want %q", tc.ua, got, tc.want)
		}
	}
}
