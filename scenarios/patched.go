package scenarios

import (
	"cmp"
	"encoding/json"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/manifest"
)

// key is the world's key of o: its kind, and its namespace (the default
// one for a namespaced kind without one) and name.
func (w *world) key(o api.Object) objKey {
	m := o.GetObjectMeta()
	ns := m.Namespace
	if info, ok := api.Lookup(api.KindOf(o)); ok {
		switch {
		case info.Namespaced && ns == "":
			ns = DefaultNamespace
		case !info.Namespaced:
			ns = "" // the API server clears a cluster-scoped object's namespace
		}
	}
	return objKey{api.KindOf(o), api.Key{Namespace: ns, Name: m.Name}}
}

// patched is the object k as the scenario declared it so far (defaulted,
// as the API server stores it; an empty object of the kind when the
// scenario declared none, such as a ReplicaSet a controller made) with
// patch of type typ applied (as the API server applies it, a JSON
// patch's copies bounded as its are), or nil when the loader cannot tell
// (a custom kind declared nowhere, a patch that does not apply to the
// declared object).
func (w *world) patched(k objKey, patch []byte, typ apiserver.PatchType) api.Object {
	return w.patchedWith(k, patch, typ, "")
}

// patchedWith is patched under a request step's fieldValidation
// directive ("" for none): the fields the kind does not declare are
// dropped, as the server drops them.
func (w *world) patchedWith(k objKey, patch []byte, typ apiserver.PatchType, directive string) api.Object {
	base := w.last[k]
	if base == nil {
		info, ok := api.Lookup(k.kind)
		if !ok || info.Custom {
			return nil
		}
		o, err := api.New(info.APIVersion(), k.kind.Name)
		if err != nil {
			return nil
		}
		base = o
	} else {
		base = base.DeepCopyObject()
	}
	m := base.GetObjectMeta()
	m.Namespace, m.Name = k.key.Namespace, k.key.Name
	api.SetDefaults(base)
	if directive != "" {
		o, _, err := apiserver.ApplyPatchValidated(base, patch, typ, directive)
		if err != nil {
			return nil
		}
		return o
	}
	o, err := apiserver.ApplyPatch(base, patch, typ)
	if err != nil {
		return nil
	}
	return o
}

// patch counts what the patch of an edit or request step makes of the
// object k against the caps: the pods a workload (or an autoscaler's
// maxReplicas) asks for after it.
func (w *world) patch(k objKey, patch []byte, typ apiserver.PatchType) {
	if o := w.patched(k, patch, typ); o != nil {
		w.add(o)
	}
}

// editPatch checks an edit step's patch against the kind's fields, as
// the API server decodes the patched object strictly (a field the kind
// lacks is refused where the step writes it, not when the run gets
// there), and counts what the edit makes of the object. kubectl edit
// sends a strategic merge patch for a built-in kind, a merge patch for a
// custom one.
func (l *loader) editPatch(a string, e *Edit, w *world) error {
	k, _ := l.kind(a+".kind", e.Kind)
	info, ok := api.Lookup(k)
	typ := apiserver.MergePatch
	if ok && !info.Custom {
		typ = apiserver.StrategicMergePatch
		o, err := api.New(info.APIVersion(), k.Name)
		if err == nil {
			if err := manifest.DecodeNode(l.file, e.Patch, a+".patch", o); err != nil {
				return err
			}
		}
	}
	ns := ""
	if !ok || info.Namespaced {
		ns = cmp.Or(e.Namespace, DefaultNamespace)
	}
	w.patch(objKey{k, api.Key{Namespace: ns, Name: e.Name}}, e.PatchJSON, typ)
	return nil
}

// requestCounts counts what a request step makes of its object: the
// object a create, update or apply sends (an apply merged into the
// object declared so far: the fields it leaves out keep their values),
// or the object a patch makes.
func (l *loader) requestCounts(rq *Request, w *world) {
	if rq.Subresource != "" {
		return
	}
	k, _ := l.kind("", rq.Kind)
	name := rq.Name
	if name == "" && rq.Parsed != nil {
		name = rq.Parsed.GetObjectMeta().Name
	}
	key := objKey{k, api.Key{Namespace: rq.Namespace, Name: name}}
	switch rq.Verb {
	case "create", "update":
		o := rq.Parsed.DeepCopyObject()
		m := o.GetObjectMeta()
		m.Namespace, m.Name = key.key.Namespace, key.key.Name
		w.add(o)
	case "apply":
		b, err := json.Marshal(rq.Parsed)
		if err != nil {
			return
		}
		w.patch(key, b, apiserver.MergePatch)
	case "patch":
		if o := w.patchedWith(key, []byte(rq.Patch), patchTypes[rq.PatchType], rq.FieldValidation); o != nil {
			w.add(o)
		}
	}
}

// patchTypes are the API server's patch types by a request step's names.
var patchTypes = map[string]apiserver.PatchType{"merge": apiserver.MergePatch, "strategic": apiserver.StrategicMergePatch, "json": apiserver.JSONPatch}
