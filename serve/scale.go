package serve

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/apiserver"
)

// scaleRequest serves the scale subresource (autoscaling/v1 Scale) of a
// Deployment, ReplicaSet or StatefulSet: a GET reads the object, a PUT or PATCH of
// spec.replicas becomes a JSON merge patch of the object's spec.replicas,
// with the Scale's resourceVersion, when it has one, as a precondition
// (the audit log records a patch of the object, where a real API server
// records the scale subresource).
func (h *Handler) scaleRequest(r *http.Request, t target, info api.ResourceInfo, body []byte) (*apiserver.Request, func(*apiserver.Response) any, error) {
	req := &apiserver.Request{Kind: info.Kind, Namespace: t.namespace, Name: t.name, FieldManager: r.URL.Query().Get("fieldManager")}
	post := func(resp *apiserver.Response) any { return scaleOf(resp.Object) }
	switch r.Method {
	case http.MethodGet:
		req.Verb = apiserver.Get
		return req, post, nil
	case http.MethodPut, http.MethodPatch:
	default:
		return nil, nil, methodNotAllowed(r.Method)
	}
	var replicas *int32
	var rv string // the Scale's resourceVersion: a precondition, as the API server's scale update makes it
	if r.Method == http.MethodPatch && mediaType(r) == "application/json-patch+json" {
		var ops []struct {
			Op    string          `json:"op"`
			Path  string          `json:"path"`
			Value json.RawMessage `json:"value"`
		}
		if err := json.Unmarshal(body, &ops); err != nil {
			return nil, nil, apierr.NewBadRequest("decoding the JSON patch: " + err.Error())
		}
		for _, op := range ops {
			if (op.Op != "replace" && op.Op != "add") || op.Path != "/spec/replicas" {
				return nil, nil, unsupportedPatch(fmt.Sprintf("clustersim serve patches a scale only at /spec/replicas; got %s %s", op.Op, op.Path))
			}
			var n int32
			if err := json.Unmarshal(op.Value, &n); err != nil {
				return nil, nil, apierr.NewBadRequest("spec.replicas: " + err.Error())
			}
			replicas = &n
		}
	} else {
		var in struct {
			Metadata struct {
				ResourceVersion string `json:"resourceVersion"`
			} `json:"metadata"`
			Spec struct {
				Replicas *int32 `json:"replicas"`
			} `json:"spec"`
		}
		if err := json.Unmarshal(body, &in); err != nil {
			return nil, nil, apierr.NewBadRequest("decoding the Scale: " + err.Error())
		}
		replicas, rv = in.Spec.Replicas, in.Metadata.ResourceVersion
	}
	if replicas == nil {
		// Nothing to change: answer with the current scale.
		req.Verb = apiserver.Get
		return req, post, nil
	}
	req.Verb, req.PatchType = apiserver.Patch, apiserver.MergePatch
	req.Patch = fmt.Appendf(nil, `{"spec":{"replicas":%d}}`, *replicas)
	if rv != "" {
		// The scale registry copies a Scale's resourceVersion onto the
		// object it updates (scaleUpdatedObjectInfo), so a stale one
		// is a 409 Conflict: RetryOnConflict around
		// GetScale/UpdateScale relies on it. In a merge patch it is
		// the same precondition.
		b, _ := json.Marshal(rv)
		req.Patch = fmt.Appendf(nil, `{"metadata":{"resourceVersion":%s},"spec":{"replicas":%d}}`, b, *replicas)
	}
	return req, post, nil
}

// scaleOf is the autoscaling/v1 Scale of a Deployment, ReplicaSet or
// StatefulSet.
func scaleOf(o api.Object) map[string]any {
	spec, status, sel := replicasOf(o)
	selector := ""
	if s, err := api.LabelSelectorAsSelector(sel); err == nil && sel != nil {
		selector = s.String()
	}
	return map[string]any{"kind": "Scale", "apiVersion": "autoscaling/v1",
		"metadata": scaleMeta(o),
		"spec":     map[string]any{"replicas": spec},
		"status":   map[string]any{"replicas": status, "selector": selector}}
}

// scaleMeta is the metadata of o's Scale: what the scale registries copy
// from the object.
func scaleMeta(o api.Object) map[string]any {
	m := o.GetObjectMeta()
	return map[string]any{"name": m.Name, "namespace": m.Namespace, "uid": m.UID, "resourceVersion": m.ResourceVersion, "creationTimestamp": m.CreationTimestamp}
}

// replicasOf is what a Deployment's, ReplicaSet's or StatefulSet's Scale
// reads: the desired replicas, the current ones and the selector.
func replicasOf(o api.Object) (spec, status int32, sel *api.LabelSelector) {
	switch v := o.(type) {
	case *api.Deployment:
		return deref32(v.Spec.Replicas), v.Status.Replicas, v.Spec.Selector
	case *api.ReplicaSet:
		return deref32(v.Spec.Replicas), v.Status.Replicas, v.Spec.Selector
	case *api.StatefulSet:
		return deref32(v.Spec.Replicas), v.Status.Replicas, v.Spec.Selector
	}
	return 0, 0, nil
}

func deref32(p *int32) int32 {
	if p == nil {
		return 0
	}
	return *p
}
