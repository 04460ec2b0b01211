package serve

import "testing"

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
