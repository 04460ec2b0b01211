package resourcequota

import (
	"fmt"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

type fixedClock struct{ t time.Time }

func (c fixedClock) Now() time.Time                  { return c.t }
func (c fixedClock) Since(t time.Time) time.Duration { return c.t.Sub(t) }

// TestPodEvaluatorUsage ports upstream's table of the same name (k/k
// pkg/quota/v1/evaluator/core/pods_test.go) onto what this controller
// charges a pod (api.QuotaUsage, and pastGrace with the controller's
// clock). The pod-level rows run with PodLevelResources on, as the
// simulator always has it.
func TestPodEvaluatorUsage(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r := &Reconciler{Clock: fixedClock{now}}
	terminationGracePeriodSeconds := int64(30)
	deletionTimestampPastGracePeriod := api.NewTime(now.Add(time.Duration(terminationGracePeriodSeconds) * time.Second * time.Duration(-2)))
	deletionTimestampNotPastGracePeriod := api.NewTime(now)

	q := api.MustParseQuantity
	rl := func(kv ...string) api.ResourceList {
		out := api.ResourceList{}
		for i := 0; i < len(kv); i += 2 {
			out[api.ResourceName(kv[i])] = q(kv[i+1])
		}
		return out
	}
	res := func(req, lim api.ResourceList) api.ResourceRequirements {
		return api.ResourceRequirements{Requests: req, Limits: lim}
	}
	one := func(r api.ResourceRequirements) []api.Container { return []api.Container{{Name: "c", Resources: r}} }
	const pods = "count/pods"
	tests := map[string]struct {
		pod   *api.Pod
		usage api.ResourceList
	}{
		"init container CPU": {
			pod:   &api.Pod{Spec: api.PodSpec{InitContainers: one(res(rl("cpu", "1m"), rl("cpu", "2m")))}},
			usage: rl("requests.cpu", "1m", "limits.cpu", "2m", "pods", "1", "cpu", "1m", pods, "1"),
		},
		"init container MEM": {
			pod:   &api.Pod{Spec: api.PodSpec{InitContainers: one(res(rl("memory", "1m"), rl("memory", "2m")))}},
			usage: rl("requests.memory", "1m", "limits.memory", "2m", "pods", "1", "memory", "1m", pods, "1"),
		},
		"init container local ephemeral storage": {
			pod:   &api.Pod{Spec: api.PodSpec{InitContainers: one(res(rl("ephemeral-storage", "32Mi"), rl("ephemeral-storage", "64Mi")))}},
			usage: rl("ephemeral-storage", "32Mi", "requests.ephemeral-storage", "32Mi", "limits.ephemeral-storage", "64Mi", "pods", "1", pods, "1"),
		},
		"init container hugepages": {
			pod:   &api.Pod{Spec: api.PodSpec{InitContainers: one(res(rl("hugepages-2Mi", "100Mi"), nil))}},
			usage: rl("hugepages-2Mi", "100Mi", "requests.hugepages-2Mi", "100Mi", "pods", "1", pods, "1"),
		},
		"init container extended resources": {
			pod:   &api.Pod{Spec: api.PodSpec{InitContainers: one(res(rl("example.com/dongle", "3"), rl("example.com/dongle", "3")))}},
			usage: rl("requests.example.com/dongle", "3", "pods", "1", pods, "1"),
		},
		"container CPU": {
			pod:   &api.Pod{Spec: api.PodSpec{Containers: one(res(rl("cpu", "1m"), rl("cpu", "2m")))}},
			usage: rl("requests.cpu", "1m", "limits.cpu", "2m", "pods", "1", "cpu", "1m", pods, "1"),
		},
		"container MEM": {
			pod:   &api.Pod{Spec: api.PodSpec{Containers: one(res(rl("memory", "1m"), rl("memory", "2m")))}},
			usage: rl("requests.memory", "1m", "limits.memory", "2m", "pods", "1", "memory", "1m", pods, "1"),
		},
		"container local ephemeral storage": {
			pod:   &api.Pod{Spec: api.PodSpec{Containers: one(res(rl("ephemeral-storage", "32Mi"), rl("ephemeral-storage", "64Mi")))}},
			usage: rl("ephemeral-storage", "32Mi", "requests.ephemeral-storage", "32Mi", "limits.ephemeral-storage", "64Mi", "pods", "1", pods, "1"),
		},
		"container hugepages": {
			pod:   &api.Pod{Spec: api.PodSpec{Containers: one(res(rl("hugepages-2Mi", "100Mi"), nil))}},
			usage: rl("hugepages-2Mi", "100Mi", "requests.hugepages-2Mi", "100Mi", "pods", "1", pods, "1"),
		},
		"container extended resources": {
			pod:   &api.Pod{Spec: api.PodSpec{Containers: one(res(rl("example.com/dongle", "3"), rl("example.com/dongle", "3")))}},
			usage: rl("requests.example.com/dongle", "3", "pods", "1", pods, "1"),
		},
		"terminated generic count still appears": {
			pod: &api.Pod{Spec: api.PodSpec{Containers: one(res(rl("example.com/dongle", "3"), rl("example.com/dongle", "3")))},
				Status: api.PodStatus{Phase: api.PodSucceeded}},
			usage: rl(pods, "1"),
		},
		"init container maximums override sum of containers": {
			pod: &api.Pod{Spec: api.PodSpec{
				InitContainers: []api.Container{
					{Name: "i1", Resources: res(rl("cpu", "4", "memory", "100M", "example.com/dongle", "4"), rl("cpu", "8", "memory", "200M", "example.com/dongle", "4"))},
					{Name: "i2", Resources: res(rl("cpu", "1", "memory", "50M", "example.com/dongle", "2"), rl("cpu", "2", "memory", "100M", "example.com/dongle", "2"))},
				},
				Containers: []api.Container{
					{Name: "c1", Resources: res(rl("cpu", "1", "memory", "50M", "example.com/dongle", "1"), rl("cpu", "2", "memory", "100M", "example.com/dongle", "1"))},
					{Name: "c2", Resources: res(rl("cpu", "2", "memory", "25M", "example.com/dongle", "2"), rl("cpu", "5", "memory", "50M", "example.com/dongle", "2"))},
				},
			}},
			usage: rl("requests.cpu", "4", "requests.memory", "100M", "limits.cpu", "8", "limits.memory", "200M", "pods", "1",
				"cpu", "4", "memory", "100M", "requests.example.com/dongle", "4", pods, "1"),
		},
		"pod deletion timestamp exceeded": {
			pod: &api.Pod{
				ObjectMeta: api.ObjectMeta{DeletionTimestamp: &deletionTimestampPastGracePeriod, DeletionGracePeriodSeconds: &terminationGracePeriodSeconds},
				Status:     api.PodStatus{Reason: "NodeLost"},
				Spec: api.PodSpec{TerminationGracePeriodSeconds: &terminationGracePeriodSeconds,
					Containers: one(res(rl("cpu", "1", "memory", "50M"), rl("cpu", "2", "memory", "100M")))},
			},
			usage: rl(pods, "1"),
		},
		"pod deletion timestamp not exceeded": {
			pod: &api.Pod{
				ObjectMeta: api.ObjectMeta{DeletionTimestamp: &deletionTimestampNotPastGracePeriod, DeletionGracePeriodSeconds: &terminationGracePeriodSeconds},
				Status:     api.PodStatus{Reason: "NodeLost"},
				Spec:       api.PodSpec{Containers: one(res(rl("cpu", "1"), rl("cpu", "2")))},
			},
			usage: rl("requests.cpu", "1", "limits.cpu", "2", "pods", "1", "cpu", "1", pods, "1"),
		},
		"count pod overhead as usage": {
			pod:   &api.Pod{Spec: api.PodSpec{Overhead: rl("cpu", "1"), Containers: one(res(rl("cpu", "1"), rl("cpu", "2")))}},
			usage: rl("requests.cpu", "2", "limits.cpu", "3", "pods", "1", "cpu", "2", pods, "1"),
		},
		"pod-level CPU": {
			pod:   &api.Pod{Spec: api.PodSpec{Resources: &api.ResourceRequirements{Requests: rl("cpu", "1m"), Limits: rl("cpu", "2m")}}},
			usage: rl("requests.cpu", "1m", "limits.cpu", "2m", "pods", "1", "cpu", "1m", pods, "1"),
		},
		"pod-level Memory": {
			pod:   &api.Pod{Spec: api.PodSpec{Resources: &api.ResourceRequirements{Requests: rl("memory", "1Mi"), Limits: rl("memory", "2Mi")}}},
			usage: rl("requests.memory", "1Mi", "limits.memory", "2Mi", "pods", "1", "memory", "1Mi", pods, "1"),
		},
		"pod-level memory with container-level ephemeral storage": {
			pod: &api.Pod{Spec: api.PodSpec{Resources: &api.ResourceRequirements{Requests: rl("memory", "1Mi"), Limits: rl("memory", "2Mi")},
				Containers: one(res(rl("ephemeral-storage", "32Mi"), rl("ephemeral-storage", "64Mi")))}},
			usage: rl("ephemeral-storage", "32Mi", "requests.ephemeral-storage", "32Mi", "limits.ephemeral-storage", "64Mi", "pods", "1",
				"requests.memory", "1Mi", "limits.memory", "2Mi", "memory", "1Mi", pods, "1"),
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			tc.pod.Name, tc.pod.Namespace = "p", "default"
			if got := r.usage(tc.pod, now); !equalLists(got, tc.usage) {
				t.Errorf("expected: %v, actual: %v", fmt.Sprint(tc.usage), fmt.Sprint(got))
			}
		})
	}
}
