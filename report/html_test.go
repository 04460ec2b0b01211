package report

import (
	"testing"
	"time"
)

func TestWriteBucket(t *testing.T) {
	for _, tt := range []struct {
		run, want time.Duration
	}{
		{30 * time.Second, time.Second},
		{time.Minute, time.Second},
		{5 * time.Minute, 5 * time.Second},
		{12 * time.Minute, 30 * time.Second},
		{time.Hour, time.Minute},
		{100 * time.Hour, time.Hour},
	} {
		if got := writeBucket(tt.run); got != tt.want {
			t.Errorf("writeBucket(%v) = %v, want %v", tt.run, got, tt.want)
		}
	}
}

func TestActorGroup(t *testing.T) {
	for actor, want := range map[string]string{
		"system:serviceaccount:kube-system:replicaset-controller":    "replicaset-controller",
		"system:serviceaccount:argocd:argocd-application-controller": "argocd/argocd-application-controller",
		"system:node:worker-1":  "kubelets",
		"system:kube-scheduler": "system:kube-scheduler",
		"alice":                 "alice",
	} {
		if got := actorGroup(actor); got != want {
			t.Errorf("actorGroup(%q) = %q, want %q", actor, got, want)
		}
	}
}
