package resourcequota

import (
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// TestReplenishes ports the cases of upstream's QuotaMonitor UpdateFunc:
// an update gives usage back only for a pod that stops being charged
// (QuotaV1Pod: finished, or terminating past its grace period) and a
// Service whose quota type changes. Anything else (a pod turning Running
// or Ready, a label) waits for the periodic recount.
func TestReplenishes(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 10, 0, 0, time.UTC)
	grace := int64(30)
	pod := func(phase api.PodPhase, deletedAgo time.Duration) *api.Pod {
		p := &api.Pod{Status: api.PodStatus{Phase: phase}}
		if deletedAgo > 0 {
			ts := api.NewTime(now.Add(-deletedAgo))
			p.DeletionTimestamp, p.DeletionGracePeriodSeconds = &ts, &grace
		}
		return p
	}
	svc := func(typ api.ServiceType) *api.Service { return &api.Service{Spec: api.ServiceSpec{Type: typ}} }
	tests := []struct {
		name     string
		old, cur api.Object
		want     bool
	}{
		{"pod pending to running", pod(api.PodPending, 0), pod(api.PodRunning, 0), false},
		{"pod running to succeeded", pod(api.PodRunning, 0), pod(api.PodSucceeded, 0), true},
		{"pod running to failed", pod(api.PodRunning, 0), pod(api.PodFailed, 0), true},
		{"pod failed, updated again", pod(api.PodFailed, 0), pod(api.PodFailed, 0), false},
		{"pod marked for deletion, within its grace period", pod(api.PodRunning, 0), pod(api.PodRunning, 10*time.Second), false},
		{"pod terminating, past its grace period", pod(api.PodRunning, 10*time.Second), pod(api.PodRunning, time.Minute), true},
		{"service ClusterIP to NodePort", svc(api.ServiceTypeClusterIP), svc(api.ServiceTypeNodePort), true},
		{"service NodePort to LoadBalancer", svc(api.ServiceTypeNodePort), svc(api.ServiceTypeLoadBalancer), true},
		{"service ClusterIP to ExternalName", svc(api.ServiceTypeClusterIP), svc(api.ServiceTypeExternalName), false},
		{"service unchanged", svc(api.ServiceTypeNodePort), svc(api.ServiceTypeNodePort), false},
		{"configmap", &api.ConfigMap{}, &api.ConfigMap{Data: map[string]string{"a": "b"}}, false},
	}
	r := &Reconciler{Clock: fixedClock{now}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := r.replenishes(tt.old, tt.cur); got != tt.want {
				t.Errorf("replenishes = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestTracks checks which quotas a deleted object's kind syncs
// (upstream's evaluator.MatchingResources on status.hard's names).
func TestTracks(t *testing.T) {
	tests := []struct {
		name api.ResourceName
		kind api.Kind
		want bool
	}{
		{"pods", api.KindPod, true},
		{"count/pods", api.KindPod, true},
		{"requests.cpu", api.KindPod, true},
		{"limits.memory", api.KindPod, true},
		{"cpu", api.KindPod, true},
		{"services", api.KindPod, false},
		{"services", api.KindService, true},
		{"services.nodeports", api.KindService, true},
		{"count/deployments.apps", api.KindDeployment, true},
		{"count/deployments.apps", api.KindPod, false},
		{"configmaps", api.KindConfigMap, true},
		{"configmaps", api.KindSecret, false},
		{"requests.storage", api.KindPersistentVolumeClaim, true},
		{"requests.storage", api.KindPod, false},
	}
	for _, tt := range tests {
		if got := tracks(tt.name, tt.kind); got != tt.want {
			t.Errorf("tracks(%s, %s) = %v, want %v", tt.name, tt.kind, got, tt.want)
		}
	}
}
