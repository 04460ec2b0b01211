package apiserver_test

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/manifest"
	"github.com/clustersim/clustersim/sim/store"
)

// TestCustomResourceUpdateNeedsResourceVersion: an update of a custom
// resource, or of its status, without a resourceVersion is refused as
// apiextensions-apiserver refuses it (customResourceStrategy does not
// AllowUnconditionalUpdate); a built-in kind that allows it (a ConfigMap)
// is updated, and a patch carries the live object's resourceVersion.
func TestCustomResourceUpdateNeedsResourceVersion(t *testing.T) {
	k := kernel.New(1)
	srv := apiserver.New(k, store.New(k))
	do := func(req *apiserver.Request) (api.Object, error) {
		req.Actor = "system:admin"
		resp := srv.Handle(req)
		return resp.Object, resp.Err
	}
	objs, err := manifest.DecodeFile("../../testdata/custom-resources/gadgets-crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	gadget := api.Kind{Group: "example.com", Name: "Gadget"}
	for _, o := range []api.Object{
		&api.Namespace{ObjectMeta: api.ObjectMeta{Name: "default"}},
		objs[0],
		&api.Unstructured{TypeMeta: api.TypeMeta{APIVersion: "example.com/v1", Kind: "Gadget"}, ObjectMeta: api.ObjectMeta{Name: "g", Namespace: "default"}},
		&api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "c", Namespace: "default"}},
	} {
		if _, err := do(&apiserver.Request{Verb: apiserver.Create, Kind: api.KindOf(o), Namespace: o.GetObjectMeta().Namespace, Object: o}); err != nil {
			t.Fatal(err)
		}
	}
	const refused = `gadgets.example.com "g" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update`
	g := &api.Unstructured{TypeMeta: api.TypeMeta{APIVersion: "example.com/v1", Kind: "Gadget"}, ObjectMeta: api.ObjectMeta{Name: "g", Namespace: "default"}}
	g.Set("spec.replicas", 2)
	for _, tc := range []struct {
		name string
		req  *apiserver.Request
		want string
	}{
		{"custom resource", &apiserver.Request{Verb: apiserver.Update, Kind: gadget, Object: g.DeepCopy()}, refused},
		{"its status", &apiserver.Request{Verb: apiserver.Update, Kind: gadget, Subresource: "status", Object: g.DeepCopy()}, refused},
		{"patch", &apiserver.Request{Verb: apiserver.Patch, Kind: gadget, PatchType: apiserver.MergePatch, Patch: []byte(`{"spec":{"replicas":3}}`)}, ""},
		{"configmap", &apiserver.Request{Verb: apiserver.Update, Kind: api.KindConfigMap, Object: &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "c", Namespace: "default"}, Data: map[string]string{"a": "b"}}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.Namespace = "default"
			if tc.req.Object != nil {
				tc.req.Name = tc.req.Object.GetObjectMeta().Name
			} else {
				tc.req.Name = "g"
			}
			_, err := do(tc.req)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}
