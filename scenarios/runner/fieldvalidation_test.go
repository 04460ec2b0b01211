package runner

import (
	"testing"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/cluster"
)

// TestRequestFieldValidation: a request step's patch with a
// fieldValidation directive is applied as the API server applies it
// (the unknown field dropped under Warn), which is how a recording of
// kubectl's patch replays; the same patch without the directive, as the
// simulation's own requests, is refused, as before.
func TestRequestFieldValidation(t *testing.T) {
	s, err := scenarios.Load("fv.yaml", "", nil, []byte(`apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: fv}
spec:
  duration: 20s
  cluster:
    nodeGroups:
    - {name: worker, count: 1, capacity: {cpu: "4", memory: 16Gi, pods: "110"}}
  timeline:
  - at: 1s
    as: kubectl
    request: {verb: create, apiVersion: v1, kind: ConfigMap, object: {apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {a: b}}}
  - at: 5s
    as: kubectl
    request: {verb: patch, apiVersion: v1, kind: ConfigMap, name: c, patchType: merge, patch: '{"data":{"a":"c"},"colour":1}', fieldValidation: Warn}
  - at: 10s
    as: kubectl
    request: {verb: patch, apiVersion: v1, kind: ConfigMap, name: c, patchType: merge, patch: '{"data":{"a":"d"},"colour":1}'}
`))
	if err != nil {
		t.Fatal(err)
	}
	var c *cluster.Cluster
	if _, err := Run(s, Options{OnStart: func(cc *cluster.Cluster) { c = cc }}); err != nil {
		t.Fatal(err)
	}
	o, err := c.Store.Get(api.KindConfigMap, api.Key{Namespace: "default", Name: "c"})
	if err != nil {
		t.Fatal(err)
	}
	if got := o.(*api.ConfigMap).Data["a"]; got != "c" {
		t.Errorf("data.a = %q; want c: the Warn patch applied without its unknown field, the plain one refused", got)
	}
}
