package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/manifest"
	"github.com/clustersim/clustersim/sim/store"
)

func notFoundPath() error {
	return &apierr.StatusError{Code: 404, Reason: apierr.NotFound, Message: "the server could not find the requested resource"}
}

func methodNotAllowed(method string) error {
	return &apierr.StatusError{Code: 405, Reason: apierr.MethodNotAllowed, Message: fmt.Sprintf("the server does not allow this method on the requested resource (%s)", method)}
}

// unsimulated is the refusal of a feature the simulation has nothing
// behind, a 400 that says so (as the dry-run refusal), instead of a 404
// that suggests a wrong path or a missing object.
func unsimulated(what, why string) error {
	return apierr.NewBadRequest("clustersim serve does not simulate " + what + ": " + why)
}

// podStreams are the pod subresources that reach into a running
// container (kubectl logs, exec, attach, port-forward, and debug, which
// adds an ephemeral container), each with its refusal: the simulated
// containers run no processes. kubectl debug must get a Status it can
// read: on a 404 it dereferences the Status's details, which a 404
// Status without details leaves nil (kubectl 1.32 panicked).
var podStreams = map[string]error{
	"log":                 unsimulated("container logs", "the simulated containers write none"),
	"exec":                unsimulated("exec", "the simulated containers run no processes to run a command beside"),
	"attach":              unsimulated("attach", "the simulated containers run no processes to attach to"),
	"portforward":         unsimulated("port forwarding", "the simulated containers listen on no ports"),
	"ephemeralcontainers": unsimulated("ephemeral containers (kubectl debug)", "the simulated containers run no processes to debug"),
}

// selfSubjectReview answers authentication.k8s.io/v1's SelfSubjectReview
// (kubectl auth whoami, GA since 1.28): who the request was authenticated
// as, the gateway's user, in the group every authenticated user is in.
// The request's body holds nothing to read (kubectl sends it as
// protobuf), so it is not decoded.
func (h *Handler) selfSubjectReview(w http.ResponseWriter, r *http.Request, t target) {
	switch {
	case t.version != "v1" || t.name != "" || t.namespace != "" || t.subresource != "":
		writeStatus(w, http.StatusNotFound, apierr.NotFound, "the server could not find the requested resource")
	case r.Method != http.MethodPost:
		writeErr(w, methodNotAllowed(r.Method))
	default:
		writeJSON(w, http.StatusCreated, map[string]any{
			"kind": "SelfSubjectReview", "apiVersion": "authentication.k8s.io/v1",
			"metadata": map[string]any{"creationTimestamp": nil},
			"status": map[string]any{"userInfo": map[string]any{
				"username": h.gw.actor, "groups": []string{"system:authenticated"},
			}},
		})
	}
}

// errAccessReview refuses authorization.k8s.io's reviews (kubectl auth
// can-i): the simulated API server authorizes every request, but does
// not answer questions about it.
var errAccessReview = unsimulated("access reviews (kubectl auth can-i)",
	"the simulated API server authorizes each request itself; make the request, and a refused one answers 403 Forbidden")

// request translates an HTTP request into an API request; post, when not
// nil, runs on a successful response and returns the body to send instead
// of its object (a Scale made from a Deployment), or nil. It runs on the
// loop.
//
// warnings are the strict decoding errors of a create's or update's body
// that the request's fieldValidation directive (Warn, the default) turns
// into warnings: the API server sends each as a Warning header.
func (h *Handler) request(r *http.Request, t target, info api.ResourceInfo, body []byte) (req *apiserver.Request, post func(*apiserver.Response) any, warnings []string, err error) {
	req, post, err = h.requestOf(r, t, info, body, &warnings)
	if err != nil {
		return nil, nil, nil, err
	}
	return req, post, warnings, nil
}

// fieldValidation is the request's directive, Warn when it gives none
// (apiserver handlers/rest.go fieldValidation).
func fieldValidation(r *http.Request) string {
	if v := r.URL.Query().Get("fieldValidation"); v != "" {
		return v
	}
	return apiserver.FieldValidationWarn
}

// optionsKinds name a write's options as the API server decodes its
// query into them: what an invalid fieldValidation is refused as.
var optionsKinds = map[string]string{http.MethodPost: "CreateOptions", http.MethodPut: "UpdateOptions", http.MethodPatch: "PatchOptions"}

// checkFieldValidation refuses a write whose fieldValidation is none of
// the directives, as ValidateCreateOptions, ValidateUpdateOptions and
// ValidatePatchOptions do (apimachinery meta/v1/validation): a 422 of
// the options kind in meta.k8s.io.
func checkFieldValidation(r *http.Request) error {
	kind, ok := optionsKinds[r.Method]
	if !ok {
		return nil
	}
	v := r.URL.Query().Get("fieldValidation")
	if slices.Contains(apiserver.FieldValidations, v) {
		return nil
	}
	quoted := make([]string, len(apiserver.FieldValidations))
	for i, d := range apiserver.FieldValidations {
		quoted[i] = strconv.Quote(d)
	}
	return apierr.NewInvalid(kind+".meta.k8s.io", "", apierr.FieldError{Field: "fieldValidation", Type: "Unsupported value", Value: v,
		Detail: "supported values: " + strings.Join(quoted, ", ")})
}

// queryBool is a boolean query parameter as the API server converts one
// (Convert_Slice_string_To_bool): absent, "0" or "false" (in any case)
// is false, any other value, garbage and the empty string included, true.
func queryBool(q url.Values, key string) bool {
	v, ok := q[key]
	if !ok || len(v) == 0 {
		return false
	}
	return v[0] != "0" && !strings.EqualFold(v[0], "false")
}

// queryInt64 is an integer query parameter as the API server converts
// one (Convert_Slice_string_To_int64): absent or empty is not given,
// anything else must parse.
func queryInt64(q url.Values, key string) (n int64, given bool, err error) {
	v, ok := q[key]
	if !ok || len(v) == 0 || v[0] == "" {
		return 0, false, nil
	}
	n, err = strconv.ParseInt(v[0], 10, 64)
	return n, err == nil, err
}

// fieldManagerMaxLength is the longest fieldManager a write may name
// (validation.FieldManagerMaxLength).
const fieldManagerMaxLength = 128

// checkWriteOptions refuses a write's options as ValidateCreateOptions,
// ValidateUpdateOptions and ValidatePatchOptions do beyond
// fieldValidation: a fieldManager longer than 128 bytes or with an
// unprintable character, and force on a patch that is not an apply; a
// 422 of the options kind in meta.k8s.io.
func checkWriteOptions(r *http.Request) error {
	kind, ok := optionsKinds[r.Method]
	if !ok {
		return nil
	}
	q := r.URL.Query()
	var errs []apierr.FieldError
	if _, force := q["force"]; force && r.Method == http.MethodPatch && mediaType(r) != "application/apply-patch+yaml" {
		errs = append(errs, apierr.FieldError{Field: "force", Type: "Forbidden", Detail: "may not be specified for non-apply patch"})
	}
	fm := q.Get("fieldManager")
	if len(fm) > fieldManagerMaxLength {
		errs = append(errs, apierr.FieldError{Field: "fieldManager", Type: "Too long", Detail: fmt.Sprintf("may not be more than %d bytes", fieldManagerMaxLength)})
	}
	for i, c := range fm {
		if !unicode.IsPrint(c) {
			errs = append(errs, apierr.FieldError{Field: "fieldManager", Type: "Invalid value", Value: fm, Detail: fmt.Sprintf("invalid character %#U (at position %d)", c, i)})
		}
	}
	if len(errs) > 0 {
		return apierr.NewInvalid(kind+".meta.k8s.io", "", errs...)
	}
	return nil
}

// requestOf is request, adding a body's warnings to warnings.
func (h *Handler) requestOf(r *http.Request, t target, info api.ResourceInfo, body []byte, warnings *[]string) (*apiserver.Request, func(*apiserver.Response) any, error) {
	if info.Namespaced && t.namespace == "" && t.name != "" || !info.Namespaced && t.namespace != "" {
		return nil, nil, notFoundPath()
	}
	if err, ok := podStreams[t.subresource]; ok && info.Kind == api.KindPod && t.name != "" {
		return nil, nil, err
	}
	if r.URL.Query().Has("dryRun") || bodyAsksDryRun(r, t, body) {
		// Never a silent real write: kubectl diff and --dry-run=server
		// ask for this, in the query or, for a delete or an eviction, in
		// the DeleteOptions of the body.
		return nil, nil, errDryRun
	}
	if r.Method == http.MethodPost || r.Method == http.MethodPut || r.Method == http.MethodDelete && len(body) > 0 {
		switch mt := mediaType(r); mt {
		case "", "application/json", "application/yaml":
		default:
			return nil, nil, unreadBody(mt)
		}
	}
	if err := checkFieldValidation(r); err != nil {
		return nil, nil, err
	}
	if err := checkWriteOptions(r); err != nil {
		return nil, nil, err
	}
	switch t.subresource {
	case "":
	case "status":
		if !info.HasStatus {
			return nil, nil, notFoundPath()
		}
	case "scale":
		if !scalable[info.Kind] {
			return nil, nil, notFoundPath()
		}
		return h.scaleRequest(r, t, info, body)
	case apiserver.EvictionSubresource:
		return podCreateRequest(r, t, info, body, apiserver.EvictionSubresource, &api.Eviction{}, "an Eviction")
	case apiserver.BindingSubresource:
		return podCreateRequest(r, t, info, body, apiserver.BindingSubresource, &api.Binding{}, "a Binding")
	default:
		return nil, nil, notFoundPath()
	}
	q := r.URL.Query()
	req := &apiserver.Request{Kind: info.Kind, Namespace: t.namespace, Name: t.name, Subresource: t.subresource, FieldManager: q.Get("fieldManager")}
	switch r.Method {
	case http.MethodGet:
		if t.name != "" {
			req.Verb = apiserver.Get
			return req, nil, nil
		}
		lq, err := parseListQuery(q)
		if err != nil {
			return nil, nil, err
		}
		opts, filter, err := listOptions(q, info, t.namespace)
		if err != nil {
			return nil, nil, err
		}
		asked, err := lq.rv(false)
		if err != nil {
			return nil, nil, err
		}
		if err := lq.checkContinue(); err != nil {
			return nil, nil, err
		}
		req.Verb, req.ListOptions = apiserver.List, opts
		return req, func(resp *apiserver.Response) any {
			if err := lq.checkListRV(asked, resp.ResourceVersion); err != nil {
				resp.Err, resp.Items = err, nil
				return nil
			}
			if filter != nil {
				kept := resp.Items[:0:0]
				for _, o := range resp.Items {
					if filter(o) {
						kept = append(kept, o)
					}
				}
				resp.Items = kept
			}
			return nil
		}, nil
	case http.MethodPost:
		if t.name != "" {
			return nil, nil, methodNotAllowed(r.Method)
		}
		obj, err := h.decodeValidated(info, body, fieldValidation(r), warnings)
		if err != nil {
			return nil, nil, err
		}
		req.Verb, req.Object = apiserver.Create, obj
		return req, nil, nil
	case http.MethodPut:
		if t.name == "" {
			return nil, nil, methodNotAllowed(r.Method)
		}
		obj, err := h.decodeValidated(info, body, fieldValidation(r), warnings)
		if err != nil {
			return nil, nil, err
		}
		if n := obj.GetObjectMeta().Name; n != t.name {
			return nil, nil, apierr.NewBadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", n, t.name))
		}
		req.Verb, req.Object = apiserver.Update, obj
		return req, nil, nil
	case http.MethodPatch:
		if t.name == "" {
			return nil, nil, methodNotAllowed(r.Method)
		}
		switch mt := mediaType(r); mt {
		case "application/merge-patch+json":
			req.Verb, req.Patch, req.PatchType = apiserver.Patch, body, apiserver.MergePatch
			req.FieldValidation = fieldValidation(r)
		case "application/strategic-merge-patch+json":
			if info.Custom {
				return nil, nil, unsupportedPatch(mt + " is not supported for custom resources")
			}
			req.Verb, req.Patch, req.PatchType = apiserver.Patch, body, apiserver.StrategicMergePatch
			req.FieldValidation = fieldValidation(r)
		case "application/json-patch+json":
			req.Verb, req.Patch, req.PatchType = apiserver.Patch, body, apiserver.JSONPatch
			req.FieldValidation = fieldValidation(r)
		case "application/apply-patch+yaml":
			obj, err := decodeObject(h.gw.c.Store.Kinds(), info, body)
			if err != nil {
				return nil, nil, err
			}
			if req.FieldManager == "" {
				return nil, nil, apierr.NewBadRequest("PATCH requests with apply-patch+yaml content type require a fieldManager query parameter")
			}
			req.Verb, req.Object, req.Force = apiserver.Apply, obj, queryBool(q, "force")
		default:
			return nil, nil, unsupportedPatch(fmt.Sprintf("the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml (clustersim serve does not implement %q)", mt))
		}
		return req, nil, nil
	case http.MethodDelete:
		if t.name == "" {
			return nil, nil, methodNotAllowed("DELETE of a collection")
		}
		opts, err := deleteOptions(q, body)
		if err != nil {
			return nil, nil, err
		}
		req.Verb, req.DeleteOptions = apiserver.Delete, opts
		return req, nil, nil
	}
	return nil, nil, methodNotAllowed(r.Method)
}

// errDryRun refuses a server-side dry run: the simulated API server has
// none, and the request would be a real write.
var errDryRun = apierr.NewBadRequest("dryRun is not supported by clustersim serve: the request would be a real write (kubectl diff and --dry-run=server need it; --dry-run=client works)")

// bodyAsksDryRun reports whether a DELETE's DeleteOptions, or an
// Eviction's, ask for a dry run (kubectl delete and drain with
// --dry-run=server send it there, not in the query). A body that does
// not decode is left to the request's own decoding to refuse.
func bodyAsksDryRun(r *http.Request, t target, body []byte) bool {
	eviction := r.Method == http.MethodPost && t.subresource == apiserver.EvictionSubresource
	if !isJSON(body) || (r.Method != http.MethodDelete && !eviction) {
		return false
	}
	var in struct {
		DryRun        []string `json:"dryRun"`
		DeleteOptions *struct {
			DryRun []string `json:"dryRun"`
		} `json:"deleteOptions"`
	}
	if json.Unmarshal(body, &in) != nil {
		return false
	}
	if r.Method == http.MethodDelete {
		return len(in.DryRun) > 0
	}
	return in.DeleteOptions != nil && len(in.DeleteOptions.DryRun) > 0
}

func unsupportedPatch(msg string) error {
	return &apierr.StatusError{Code: 415, Reason: "UnsupportedMediaType", Message: msg}
}

// decodeObject decodes a request body (JSON or YAML) strictly into an
// object of info's kind: an unknown field is a 400, as the real API
// server answers fieldValidation=Strict. A create's and update's body
// goes through decodeValidated, which honours the request's directive
// and comes here when there is nothing to drop; a server-side apply's
// comes here directly.
func decodeObject(reg *api.Registry, info api.ResourceInfo, body []byte) (api.Object, error) {
	if info.Custom {
		var tm api.TypeMeta
		if err := json.Unmarshal(body, &tm); err != nil {
			return nil, apierr.NewBadRequest("the body of the request is not a JSON object: " + err.Error())
		}
		obj, err := reg.New(tm.APIVersion, tm.Kind)
		if err != nil {
			return nil, apierr.NewBadRequest(err.Error())
		}
		if err := json.Unmarshal(body, obj); err != nil {
			return nil, apierr.NewBadRequest("decoding the request body: " + err.Error())
		}
		return checkKind(obj, info)
	}
	objs, err := manifest.Decode("request body", body)
	if err != nil {
		return nil, decodeError(reg, info, body, err)
	}
	if len(objs) != 1 {
		return nil, apierr.NewBadRequest(fmt.Sprintf("the request body holds %d objects; want one", len(objs)))
	}
	return checkKind(objs[0], info)
}

// decodeError is the 400 of a body that does not decode, worded as the
// API server's transformDecodeError (apiserver
// pkg/endpoints/handlers/rest.go): `Deployment in version "v1" cannot be
// handled as a Deployment: ` and the decoder's error, which for a value of
// the wrong type is encoding/json's (`json: cannot unmarshal string into
// Go struct field DeploymentSpec.spec.replicas of type int32`, as the
// real server's decoder, a fork of encoding/json, says it) and for an
// unknown field the strict decoder's (`strict decoding error: unknown
// field "spec.colour"`; only the first is named, where the real server
// names them all). A body without a kind keeps the manifest decoder's
// error.
func decodeError(reg *api.Registry, info api.ResourceInfo, body []byte, err error) error {
	var tm api.TypeMeta
	if json.Unmarshal(body, &tm) != nil || tm.Kind == "" {
		return apierr.NewBadRequest("strict decoding error: " + err.Error())
	}
	detail := "strict decoding error: " + err.Error()
	var typeErr *json.UnmarshalTypeError
	var me *manifest.Error
	if obj, e := reg.New(tm.APIVersion, tm.Kind); e == nil && errors.As(json.Unmarshal(body, obj), &typeErr) {
		detail = typeErr.Error()
	} else if errors.As(err, &me) {
		detail = "strict decoding error: " + me.Msg
		if name, ok := strings.CutPrefix(me.Msg, "unknown field "); ok {
			if n, e := strconv.Unquote(name); e == nil && me.Field != "" {
				detail = fmt.Sprintf("strict decoding error: unknown field %q", me.Field+"."+n)
			}
		}
	}
	return apiserver.CannotBeHandled(tm.Kind, tm.APIVersion, info.Kind.Name, detail)
}

// checkKind refuses a body that is not of the resource's kind: one of
// another kind in its group as the API server's decoder does (it cannot
// convert it into the resource's type), one in another group as its
// create handler does (the API version does not match).
func checkKind(obj api.Object, info api.ResourceInfo) (api.Object, error) {
	if k := api.KindOf(obj); k != info.Kind {
		if tm := obj.GetTypeMeta(); k.Group == info.Kind.Group {
			return nil, apiserver.CannotBeHandled(tm.Kind, tm.APIVersion, info.Kind.Name,
				fmt.Sprintf("the body's kind is %s, not the resource's kind %s", tm.Kind, info.Kind.Name))
		}
		return nil, apierr.NewBadRequest(fmt.Sprintf("the API version in the data (%s) does not match the expected API version (%s)", obj.GetTypeMeta().APIVersion, info.APIVersion()))
	}
	return obj, nil
}

// deleteOptions reads a DELETE's options from its query and its body
// (metav1.DeleteOptions).
func deleteOptions(q url.Values, body []byte) (store.DeleteOptions, error) {
	var in struct {
		PropagationPolicy  string `json:"propagationPolicy"`
		GracePeriodSeconds *int64 `json:"gracePeriodSeconds"`
		OrphanDependents   *bool  `json:"orphanDependents"`
		Preconditions      *struct {
			UID             string `json:"uid"`
			ResourceVersion string `json:"resourceVersion"`
		} `json:"preconditions"`
	}
	// A body that is not a JSON object is refused: read as nothing, its
	// preconditions and propagation policy would be silently dropped (a
	// YAML body's were, and the object deleted).
	if b := bytes.TrimSpace(body); len(b) > 0 {
		if b[0] != '{' {
			var v any
			if err := json.Unmarshal(b, &v); err != nil {
				return store.DeleteOptions{}, apierr.NewBadRequest("decoding DeleteOptions: " + err.Error())
			}
			return store.DeleteOptions{}, apierr.NewBadRequest("decoding DeleteOptions: the body is not a JSON object")
		}
		if err := json.Unmarshal(b, &in); err != nil {
			return store.DeleteOptions{}, apierr.NewBadRequest("decoding DeleteOptions: " + err.Error())
		}
	}
	if p := q.Get("propagationPolicy"); p != "" {
		in.PropagationPolicy = p
	}
	// ValidateDeleteOptions (apimachinery meta/v1/validation): a 422 of
	// DeleteOptions.meta.k8s.io, the value quoted as given.
	given := in.PropagationPolicy != "" || q.Has("propagationPolicy")
	if in.OrphanDependents != nil && given {
		return store.DeleteOptions{}, apierr.NewInvalid("DeleteOptions.meta.k8s.io", "", apierr.FieldError{Field: "propagationPolicy", Type: "Invalid value",
			Value: in.PropagationPolicy, Detail: "orphanDependents and deletionPropagation cannot be both set"})
	}
	if n, given, err := queryInt64(q, "gracePeriodSeconds"); err != nil {
		return store.DeleteOptions{}, apierr.NewBadRequest("gracePeriodSeconds: " + err.Error())
	} else if given {
		in.GracePeriodSeconds = &n
	}
	var opts store.DeleteOptions
	switch p := store.Propagation(in.PropagationPolicy); p {
	case "", store.PropagateBackground, store.PropagateForeground, store.PropagateOrphan:
		opts.Propagation = p
	default:
		return opts, apierr.NewInvalid("DeleteOptions.meta.k8s.io", "", apierr.FieldError{Field: "propagationPolicy", Type: "Unsupported value",
			Value: string(p), Detail: `supported values: "Foreground", "Background", "Orphan", "nil"`})
	}
	if in.OrphanDependents != nil && *in.OrphanDependents && opts.Propagation == "" {
		opts.Propagation = store.PropagateOrphan
	}
	opts.GracePeriodSeconds = in.GracePeriodSeconds
	if in.Preconditions != nil {
		opts.PreconditionUID = api.UID(in.Preconditions.UID)
		opts.PreconditionResourceVersion = in.Preconditions.ResourceVersion
	}
	return opts, nil
}

// fieldLabels are the field selectors each kind supports beyond
// metadata.name and metadata.namespace (the real API server's
// GetAttrs/field label conversion functions).
var fieldLabels = map[api.Kind][]string{
	api.KindPod: {"spec.nodeName", "spec.restartPolicy", "spec.schedulerName", "spec.serviceAccountName", "spec.hostNetwork",
		"status.phase", "status.podIP", "status.nominatedNodeName"},
	api.KindEvent: {"involvedObject.kind", "involvedObject.namespace", "involvedObject.name", "involvedObject.uid",
		"involvedObject.apiVersion", "involvedObject.resourceVersion", "involvedObject.fieldPath", "reason", "reportingComponent", "source", "type"},
	api.KindNode:       {"spec.unschedulable"},
	api.KindNamespace:  {"status.phase"},
	api.KindReplicaSet: {"status.replicas"},
	api.KindSecret:     {"type"},
}

type fieldReq struct {
	path, value string
	not         bool
}

// listOptions reads labelSelector and fieldSelector. Selectors the store
// indexes (metadata.name, spec.nodeName of pods) go into the options; the
// others make filter, applied to the result.
func listOptions(q url.Values, info api.ResourceInfo, ns string) (store.ListOptions, func(api.Object) bool, error) {
	opts := store.ListOptions{Namespace: ns}
	if ls := q.Get("labelSelector"); ls != "" {
		sel, err := api.ParseSelector(ls)
		if err != nil {
			// ListResource answers DecodeParameters' error as a
			// BadRequest; the conversion returns labels.Parse's error as
			// it is, without the selector text (SelectorError.Msg).
			msg := err.Error()
			var se *api.SelectorError
			if errors.As(err, &se) {
				msg = se.Msg
			}
			return opts, nil, apierr.NewBadRequest(msg)
		}
		opts.Labels = &sel
	}
	fs := q.Get("fieldSelector")
	if fs == "" {
		return opts, nil, nil
	}
	var reqs []fieldReq
	for _, part := range strings.Split(fs, ",") {
		var fr fieldReq
		var ok bool
		if fr.path, fr.value, ok = strings.Cut(part, "!="); ok {
			fr.not = true
		} else if fr.path, fr.value, ok = strings.Cut(part, "=="); !ok {
			if fr.path, fr.value, ok = strings.Cut(part, "="); !ok {
				return opts, nil, apierr.NewBadRequest(fmt.Sprintf("invalid selector: '%s'; can't understand '%s'", fs, part))
			}
		}
		fr.path = strings.TrimSpace(fr.path)
		if fr.path != "metadata.name" && fr.path != "metadata.namespace" && !contains(fieldLabels[info.Kind], fr.path) {
			return opts, nil, apierr.NewBadRequest(fmt.Sprintf("field label not supported: %s", fr.path))
		}
		switch {
		case fr.not:
		case fr.path == "metadata.name":
			opts.Name = fr.value
		case fr.path == "spec.nodeName" && info.Kind == api.KindPod:
			opts.NodeName = fr.value
		case fr.path == "metadata.namespace" && opts.Namespace == "":
			opts.Namespace = fr.value
		}
		reqs = append(reqs, fr)
	}
	return opts, func(o api.Object) bool { return matchFields(o, reqs) }, nil
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// matchFields evaluates field requirements on an object's JSON form.
func matchFields(o api.Object, reqs []fieldReq) bool {
	var doc map[string]any
	for _, fr := range reqs {
		var v string
		switch fr.path {
		case "metadata.name":
			v = o.GetObjectMeta().Name
		case "metadata.namespace":
			v = o.GetObjectMeta().Namespace
		default:
			if doc == nil {
				b, err := json.Marshal(o)
				if err != nil || json.Unmarshal(b, &doc) != nil {
					return false
				}
			}
			path := fr.path
			if path == "source" {
				path = "source.component"
			}
			v = fieldString(doc, path)
		}
		if (v == fr.value) == fr.not {
			return false
		}
	}
	return true
}

func fieldString(doc map[string]any, path string) string {
	var cur any = doc
	for _, p := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return ""
		}
		cur = m[p]
	}
	switch v := cur.(type) {
	case nil:
		return ""
	case string:
		return v
	case bool:
		return strconv.FormatBool(v)
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return fmt.Sprint(cur)
}

// podCreateRequest is a POST to a pod's create-only subresource sub, whose
// body obj is (what names it in the error of a bad body):
// pods/<name>/eviction (kubectl drain's Evict) takes a policy/v1 (or
// v1beta1) Eviction, pods/<name>/binding (a scheduler's Bind) a v1
// Binding. The answer on success is a Status, as the API server's.
func podCreateRequest(r *http.Request, t target, info api.ResourceInfo, body []byte, sub string, obj api.Object, what string) (*apiserver.Request, func(*apiserver.Response) any, error) {
	if info.Kind != api.KindPod || t.name == "" {
		return nil, nil, notFoundPath()
	}
	if r.Method != http.MethodPost {
		return nil, nil, methodNotAllowed(r.Method)
	}
	if err := json.Unmarshal(body, obj); err != nil {
		return nil, nil, apierr.NewBadRequest("the body of the request is not " + what + ": " + err.Error())
	}
	if m := obj.GetObjectMeta(); m.Namespace == "" {
		m.Namespace = t.namespace
	}
	req := &apiserver.Request{Verb: apiserver.Create, Kind: api.KindPod, Namespace: t.namespace, Name: t.name, Subresource: sub, Object: obj}
	return req, func(*apiserver.Response) any {
		return map[string]any{"kind": "Status", "apiVersion": "v1", "metadata": map[string]any{}, "status": "Success"}
	}, nil
}
