package measure

import (
	"strings"
	"testing"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/api"
)

// guestbook is the Kubernetes guestbook's frontend
// (kubernetes/website content/en/examples/application/guestbook/
// frontend-deployment.yaml and frontend-service.yaml), its Service's
// selector written as SELECTOR.
const guestbook = `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: guestbook-frontend}
spec:
  duration: 5m
  cluster:
    nodeGroups:
    - {name: worker, count: 2, capacity: {cpu: "4", memory: 8Gi}}
  network:
    default: {latency: 1ms}
  objects:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: frontend}
    spec:
      replicas: 3
      selector:
        matchLabels: {app: guestbook, tier: frontend}
      template:
        metadata:
          labels: {app: guestbook, tier: frontend}
        spec:
          containers:
          - name: php-redis
            image: docker.io/corelab/gb-frontend:v5
            env: [{name: GET_HOSTS_FROM, value: dns}]
            resources: {requests: {cpu: 100m, memory: 100Mi}}
            ports: [{containerPort: 80}]
  - apiVersion: v1
    kind: Service
    metadata:
      name: frontend
      labels: {app: guestbook, tier: frontend}
    spec:
      ports: [{port: 80}]
      selector: SELECTOR
  expect:
  - converged: {within: 5m}
`

// TestEmptySelector: the guestbook frontend Service with a label typo in
// its selector selects no pod; its gap stays open (the run never
// converges) and the detectors report the selector. Spelled right, the
// gap closes and nothing is reported.
func TestEmptySelector(t *testing.T) {
	for _, tc := range []struct {
		selector string
		typo     bool
	}{
		{"{app: guestbook, tier: frontend}", false},
		{"{app: guestbook, tier: fronted}", true},
	} {
		t.Run(tc.selector, func(t *testing.T) {
			s, err := scenarios.Load("guestbook.yaml", ".", nil, []byte(strings.Replace(guestbook, "SELECTOR", tc.selector, 1)))
			if err != nil {
				t.Fatal(err)
			}
			res, err := runner.Run(s, runner.Options{})
			if err != nil {
				t.Fatal(err)
			}
			g := AnalyzeGaps(res)
			var svc *GapObject
			for i := range g.Objects {
				if g.Objects[i].Kind == api.KindService {
					svc = &g.Objects[i]
				}
			}
			if open := svc != nil && svc.OpenAtEnd; open != tc.typo {
				t.Errorf("service gap open at the end: %v, want %v (%+v)", open, tc.typo, svc)
			}
			if converged := res.Expectations[0].Passed; converged == tc.typo {
				t.Errorf("converged: %v, want %v (%s)", converged, !tc.typo, res.Expectations[0].Detail)
			}
			var found []string
			for _, f := range g.Findings() {
				if strings.HasPrefix(f, "empty selector:") {
					found = append(found, f)
				}
			}
			want := []string(nil)
			if tc.typo {
				want = []string{"empty selector: service default/frontend selector app=guestbook,tier=fronted matched no pod for 5m0s from 0:00, still at the end"}
			}
			if strings.Join(found, "\n") != strings.Join(want, "\n") {
				t.Errorf("findings %q, want %q", found, want)
			}
		})
	}
}
