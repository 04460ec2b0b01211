package kubectl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/strategicpatch"
)

// LastAppliedAnnotation is the annotation in which client-side apply keeps
// the configuration it last applied (corev1.LastAppliedConfigAnnotation).
const LastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"

// DefaultNamespace is the namespace of objects that name none, kubectl's
// namespace when the kubeconfig sets none.
const DefaultNamespace = "default"

// ApplyOptions configure Apply. The zero value applies to the "default"
// namespace.
type ApplyOptions struct {
	// Namespace is where objects that name no namespace go (kubectl's -n);
	// "" means DefaultNamespace.
	Namespace string
	// Source names the file the objects came from; when set, a failed
	// create reads `error when creating "<source>": ...`, as kubectl
	// prints it.
	Source string
}

// Apply applies objs as `kubectl apply -f` does with client-side apply,
// one after another, and returns the lines kubectl prints:
// "deployment.apps/web created", "... configured" or "... unchanged". An
// object that fails does not stop the others; the failures are joined
// (errors.Join) in order and each still matches errors.Is. The objects are
// not modified.
func Apply(ctx context.Context, c client.Client, objs []api.Object, opts ApplyOptions) ([]string, error) {
	ns := opts.Namespace
	if ns == "" {
		ns = DefaultNamespace
	}
	var lines []string
	var errs []error
	for _, o := range objs {
		out, err := applyOne(ctx, c, o, ns, opts.Source)
		lines = append(lines, out...)
		if err != nil {
			errs = append(errs, err)
		}
	}
	return lines, errors.Join(errs...)
}

// applyOne applies one object: create it with the annotation when it does
// not exist, otherwise patch it with the three-way patch.
func applyOne(ctx context.Context, c client.Client, o api.Object, ns, source string) ([]string, error) {
	if o == nil || reflect.ValueOf(o).IsNil() {
		return nil, newError(BadInput, "apply needs an object")
	}
	kind := api.KindOf(o)
	info, ok := lookup(c, kind)
	if !ok {
		tm := o.GetTypeMeta()
		return nil, newError(BadInput, "resource mapping not found for kind %q in version %q", tm.Kind, tm.APIVersion)
	}
	input := o.DeepCopyObject()
	m := input.GetObjectMeta()
	if info.Namespaced && m.Namespace == "" {
		m.Namespace = ns
	}
	if !info.Namespaced {
		m.Namespace = ""
	}
	setTypeMeta(input)
	cfg, err := newConfig(input)
	if err != nil {
		return nil, err
	}
	key := m.Key()
	live, err := c.Get(ctx, kind, key)
	if errors.Is(err, apierr.ErrNotFound) {
		obj := normalize(input.DeepCopyObject())
		om := obj.GetObjectMeta()
		if om.Annotations == nil {
			om.Annotations = map[string]string{}
		}
		om.Annotations[LastAppliedAnnotation] = cfg.applied
		if _, err := c.Create(ctx, obj); err != nil {
			return nil, withSource("creating", source, err)
		}
		return []string{line(kind, key.Name, "created")}, nil
	}
	if err != nil {
		return nil, err
	}
	var lines []string
	lm := live.GetObjectMeta()
	var original map[string]any
	if prev, ok := lm.Annotations[LastAppliedAnnotation]; ok {
		original, err = canonicalConfig(prev)
		if err != nil {
			return nil, err
		}
	} else {
		lines = append(lines, fmt.Sprintf("Warning: resource %s is missing the %s annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.",
			resourcePath(kind, key.Name), LastAppliedAnnotation))
	}
	current, err := toTree(normalize(live))
	if err != nil {
		return lines, err
	}
	patch, err := strategicpatch.ThreeWay(original, cfg.modified, current)
	if err != nil {
		return lines, newError(BadInput, "%v", err)
	}
	if len(patch) == 0 {
		return append(lines, line(kind, key.Name, "unchanged")), nil
	}
	pt, body, err := lowerPatch(current, patch, lm.ResourceVersion)
	if err != nil {
		return lines, err
	}
	if _, err := c.Patch(ctx, kind, key, pt, body); err != nil {
		return lines, err
	}
	return append(lines, line(kind, key.Name, "configured")), nil
}

// lowerPatch turns kubectl's strategic merge patch into a request the
// simulator's API server gives the same meaning: the patch itself without
// $setElementOrder when the server's merge yields what kubectl's would,
// otherwise the JSON merge patch from current to kubectl's result, guarded
// by resourceVersion (a concurrent change then fails with Conflict instead
// of being overwritten).
func lowerPatch(current, patch map[string]any, resourceVersion string) (client.PatchType, []byte, error) {
	want, err := strategicpatch.Apply(current, patch)
	if err != nil {
		return 0, nil, newError(BadInput, "%v", err)
	}
	plain := strategicpatch.StripDirectives(patch).(map[string]any)
	if !strategicpatch.HasDirective(patch) && mergesTo(current, plain, want) {
		body, err := encode(plain)
		return client.StrategicMergePatch, body, err
	}
	mp := mergePatchDiff(current, want)
	meta, _ := mp["metadata"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
		mp["metadata"] = meta
	}
	meta["resourceVersion"] = resourceVersion
	body, err := encode(mp)
	return client.MergePatch, body, err
}

// config is an object as apply sees it: the annotation value (the object
// as applied, without the annotation) and the modified configuration (the
// object with the annotation, as a tree).
type config struct {
	applied  string
	modified map[string]any
}

// newConfig builds kubectl's modified configuration of obj
// (GetModifiedConfiguration): the annotation is removed, annotations are
// kept even when empty (kubectl works on unstructured objects), the JSON
// is encoded with sorted keys and a trailing newline (json.Encoder), and
// that text becomes the annotation of the modified configuration.
func newConfig(obj api.Object) (*config, error) {
	tree, err := toConfigTree(obj)
	if err != nil {
		return nil, err
	}
	setAnnotations(tree)
	b, err := encode(tree)
	if err != nil {
		return nil, err
	}
	applied := string(b) + "\n"
	modified := tree
	if norm := normalize(obj.DeepCopyObject()); !sameType(norm, obj) {
		if modified, err = toConfigTree(norm); err != nil {
			return nil, err
		}
		setAnnotations(modified)
	}
	metadataOf(modified)["annotations"].(map[string]any)[LastAppliedAnnotation] = applied
	return &config{applied: applied, modified: modified}, nil
}

func sameType(a, b api.Object) bool { return reflect.TypeOf(a) == reflect.TypeOf(b) }

// setAnnotations makes tree's annotations a map without the
// last-applied annotation.
func setAnnotations(tree map[string]any) {
	meta := metadataOf(tree)
	annots, _ := meta["annotations"].(map[string]any)
	if annots == nil {
		annots = map[string]any{}
	}
	delete(annots, LastAppliedAnnotation)
	meta["annotations"] = annots
}

func metadataOf(tree map[string]any) map[string]any {
	meta, _ := tree["metadata"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
		tree["metadata"] = meta
	}
	return meta
}

// canonicalConfig reads a last-applied annotation back into the form
// newConfig gives a configuration (decoded into the API type and encoded
// again, so formats compare equal), falling back to the raw JSON for a
// kind the simulator does not serve.
func canonicalConfig(s string) (map[string]any, error) {
	raw, err := decodeObject([]byte(s))
	if err != nil {
		return nil, newError(BadInput, "invalid %s annotation: %v", LastAppliedAnnotation, err)
	}
	apiVersion, _ := raw["apiVersion"].(string)
	kind, _ := raw["kind"].(string)
	obj, err := api.New(apiVersion, kind)
	if err != nil {
		return raw, nil
	}
	if err := json.Unmarshal([]byte(s), obj); err != nil {
		return raw, nil
	}
	return toConfigTree(normalize(obj))
}

// normalize returns obj in the version the simulator serves its kind at:
// an autoscaling/v1 HorizontalPodAutoscaler becomes autoscaling/v2, as the
// API server converts it.
func normalize(obj api.Object) api.Object {
	if h, ok := obj.(*api.HorizontalPodAutoscalerV1); ok {
		return h.ToV2()
	}
	return obj
}

// setTypeMeta fills in apiVersion and kind for an object built in code,
// as a serializer writes them.
func setTypeMeta(obj api.Object) {
	tm := obj.GetTypeMeta()
	if tm.APIVersion != "" && tm.Kind != "" {
		return
	}
	kind := api.KindOf(obj)
	tm.Kind = kind.Name
	if _, v1 := obj.(*api.HorizontalPodAutoscalerV1); v1 {
		tm.APIVersion = "autoscaling/v1"
	} else if info, ok := api.Lookup(kind); ok {
		tm.APIVersion = info.APIVersion()
	}
}

// toTree encodes obj as a JSON tree, as the live object reads.
func toTree(obj api.Object) (map[string]any, error) {
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	return decodeObject(b)
}

// configArtifacts are fields the Go types always write, as {} when unset,
// though no manifest wrote them; a configuration drops them when empty.
var configArtifacts = map[string]bool{"metadata": true, "resources": true, "strategy": true, "spec": true}

// toConfigTree encodes obj as a configuration: the JSON of what a manifest
// says, without the status, without nulls and without the empty objects
// the Go types add.
func toConfigTree(obj api.Object) (map[string]any, error) {
	tree, err := toTree(obj)
	if err != nil {
		return nil, err
	}
	delete(tree, "status")
	pruned := prune(tree, true).(map[string]any)
	if _, ok := pruned["metadata"]; !ok {
		pruned["metadata"] = map[string]any{}
	}
	return pruned, nil
}

func prune(v any, root bool) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			if e == nil {
				continue
			}
			pe := prune(e, false)
			if m, ok := pe.(map[string]any); ok && len(m) == 0 && configArtifacts[k] && !(root && k == "metadata") {
				continue
			}
			out[k] = pe
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = prune(e, false)
		}
		return out
	}
	return v
}

// mergesTo reports whether the server's strategic merge of patch into
// current gives want.
func mergesTo(current, patch, want map[string]any) bool {
	got, err := strategicpatch.Apply(current, patch)
	return err == nil && reflect.DeepEqual(got, want)
}
