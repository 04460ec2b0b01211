package serve

import (
	"bytes"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/apiserver"
)

// Loop is how the HTTP side reaches the simulation: Post queues fn to run
// on the simulation's goroutine between steps and reports false when the
// simulation has ended (fn will never run); Done is closed then.
type Loop interface {
	Post(fn func()) bool
	Done() <-chan struct{}
}

// DefaultMaxBodyBytes is the largest request body accepted: the real API
// server's limit for JSON bodies (3 MiB,
// k8s.io/apiserver/pkg/server/config.go MaxRequestBodyBytes).
const DefaultMaxBodyBytes = 3 << 20

// DefaultMaxWatches is how many watches may be open at once.
const DefaultMaxWatches = 64

// DefaultWatchBuffer is how many events a watch may have waiting for its
// client before the watch is ended (the client is too slow).
const DefaultWatchBuffer = 4096

// Options configure a Handler.
type Options struct {
	// Token is the bearer token every request must carry; empty refuses
	// every request.
	Token string
	// MaxBodyBytes bounds request bodies (0: DefaultMaxBodyBytes).
	MaxBodyBytes int64
	// MaxWatches bounds the open watches (0: DefaultMaxWatches).
	MaxWatches int
	// WatchBuffer bounds each watch's queued events (0:
	// DefaultWatchBuffer).
	WatchBuffer int
	// Warnings, when set, lists what of an object written through the API
	// the simulator accepts and does not simulate; each entry is sent with
	// the write's answer as a Warning header (299), which kubectl prints
	// as "Warning: ...", as the API server sends its own warnings.
	Warnings func(api.Object) []string
}

// Handler serves the Kubernetes REST API of a simulation.
type Handler struct {
	loop    Loop
	gw      *Gateway
	opts    Options
	watches atomic.Int64
}

// NewHandler returns the HTTP handler of gw's simulation, reached through
// loop.
func NewHandler(loop Loop, gw *Gateway, opts Options) *Handler {
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if opts.MaxWatches <= 0 {
		opts.MaxWatches = DefaultMaxWatches
	}
	if opts.WatchBuffer <= 0 {
		opts.WatchBuffer = DefaultWatchBuffer
	}
	return &Handler{loop: loop, gw: gw, opts: opts}
}

// statusJSON is a failed request's body (metav1.Status).
func statusJSON(se *apierr.StatusError) map[string]any {
	st := map[string]any{"kind": "Status", "apiVersion": "v1", "metadata": map[string]any{},
		"status": "Failure", "message": se.Message, "reason": string(se.Reason), "code": se.Code}
	if se.Reason == "" {
		// An error that is not a Status (the versioner's, of a
		// resourceVersion that is not a number) is a 500 without a
		// reason (metav1.Status' reason is omitempty).
		delete(st, "reason")
	}
	details := map[string]any{}
	// apimachinery's NewInvalid names the object in the details; kubectl
	// prints `The Pod "p5" is invalid: ...` from them, and `The request
	// is invalid` without them. Empty ones are left out
	// (metav1.StatusDetails' omitempty).
	for k, v := range map[string]string{"name": se.Name, "group": se.Group, "kind": se.Kind} {
		if v != "" {
			details[k] = v
		}
	}
	if len(se.Causes) > 0 {
		cs := make([]map[string]string, len(se.Causes))
		for i, c := range se.Causes {
			cs[i] = statusCause(c)
		}
		details["causes"] = cs
	}
	if len(details) > 0 {
		st["details"] = details
	}
	return st
}

// causeTypes are apimachinery's field.ErrorType values (the cause's
// reason) by the text FieldError.Type holds (ErrorType.String()).
var causeTypes = map[string]string{
	"Not found":         "FieldValueNotFound",
	"Required value":    "FieldValueRequired",
	"Duplicate value":   "FieldValueDuplicate",
	"Invalid value":     "FieldValueInvalid",
	"Unsupported value": "FieldValueNotSupported",
	"Forbidden":         "FieldValueForbidden",
	"Too long":          "FieldValueTooLong",
	"Too many":          "FieldValueTooMany",
	"Internal error":    "InternalError",
}

// statusCause is a metav1.StatusCause. A field error's is what
// apimachinery's NewInvalid makes of it: reason its ErrorType, message
// its ErrorBody (the error without the field, which kubectl prints
// before it), field its path. Another cause (a 409's
// FieldManagerConflict, a 429's DisruptionBudget) has its type as
// reason and its detail as message.
func statusCause(c apierr.FieldError) map[string]string {
	out := map[string]string{}
	if t, ok := causeTypes[c.Type]; ok {
		out["reason"] = t
		out["message"] = strings.TrimPrefix(c.Error(), c.Field+": ")
	} else {
		out["reason"] = c.Type
		out["message"] = c.Detail
		if c.Detail == "" {
			out["message"] = c.Type
		}
	}
	if c.Field != "" {
		out["field"] = c.Field
	}
	return out
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(statusJSON(&apierr.StatusError{Code: 500, Reason: "InternalError", Message: "encoding the response: " + err.Error()}))
		code = 500
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(append(b, '\n'))
}

func writeStatus(w http.ResponseWriter, code int, reason apierr.Reason, msg string) {
	writeJSON(w, code, statusJSON(&apierr.StatusError{Code: code, Reason: reason, Message: msg}))
}

func writeErr(w http.ResponseWriter, err error) {
	var se *apierr.StatusError
	if errors.As(err, &se) {
		writeJSON(w, se.Code, errorStatus(se))
		return
	}
	writeStatus(w, 500, "InternalError", err.Error())
}

// errorStatus is the metav1.Status of a status error.
func errorStatus(se *apierr.StatusError) map[string]any {
	st := statusJSON(se)
	if se.RetryAfterSeconds > 0 {
		d, _ := st["details"].(map[string]any)
		if d == nil {
			d = map[string]any{}
		}
		d["retryAfterSeconds"] = se.RetryAfterSeconds
		st["details"] = d
	}
	return st
}

// call runs fn on the loop and waits for its result; ok is false when the
// simulation ended or the client went away first, or fn panicked (the
// client then gets a 500; the simulation goes on). reply never blocks:
// it may be called from an event of the simulation.
func call[T any](h *Handler, w http.ResponseWriter, r *http.Request, fn func(reply func(T))) (T, bool) {
	ch := make(chan T, 1)
	failed := make(chan any, 1)
	var zero T
	posted := h.loop.Post(func() {
		defer func() {
			if p := recover(); p != nil {
				failed <- p
			}
		}()
		fn(func(v T) {
			select {
			case ch <- v:
			default:
			}
		})
	})
	if !posted {
		writeStatus(w, http.StatusServiceUnavailable, apierr.ServiceUnavailable, "the simulation has stopped")
		return zero, false
	}
	select {
	case v := <-ch:
		return v, true
	case p := <-failed:
		writeStatus(w, http.StatusInternalServerError, "InternalError", fmt.Sprintf("clustersim serve: %v", p))
	case <-h.loop.Done():
		writeStatus(w, http.StatusServiceUnavailable, apierr.ServiceUnavailable, "the simulation has stopped")
	case <-r.Context().Done():
	}
	return zero, false
}

// ServeHTTP authenticates the request, bounds its body and serves it.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !h.authorized(r) {
		writeStatus(w, http.StatusUnauthorized, "Unauthorized", "Unauthorized")
		return
	}
	var body []byte
	if r.Body != nil {
		b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.opts.MaxBodyBytes))
		if err != nil {
			var tooLarge *http.MaxBytesError
			if errors.As(err, &tooLarge) {
				writeStatus(w, http.StatusRequestEntityTooLarge, "RequestEntityTooLarge",
					fmt.Sprintf("Request entity too large: limit is %d", h.opts.MaxBodyBytes))
				return
			}
			writeStatus(w, http.StatusBadRequest, apierr.BadRequest, "reading the request body: "+err.Error())
			return
		}
		body = b
	}
	path := strings.TrimSuffix(r.URL.Path, "/")
	switch {
	case path == "/version":
		writeJSON(w, 200, versionInfo())
	case path == "/healthz" || path == "/livez" || path == "/readyz":
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, "ok")
	case path == "/openapi/v2":
		w.Header().Set("Content-Type", "application/com.github.proto-openapi.spec.v2.v1.0+protobuf")
		w.Write(openAPIV2())
	case path == "/api":
		writeJSON(w, 200, apiVersions(r.Host))
	case path == "/apis":
		if v, ok := call(h, w, r, func(reply func(map[string]any)) { reply(apiGroupList(h.gw.c.Store.Kinds())) }); ok {
			writeJSON(w, 200, v)
		}
	case strings.HasPrefix(path, "/api/") || strings.HasPrefix(path, "/apis/"):
		h.serveAPI(w, r, path, body)
	default:
		writeStatus(w, http.StatusNotFound, apierr.NotFound, "the server could not find the requested resource")
	}
}

func (h *Handler) authorized(r *http.Request) bool {
	if h.opts.Token == "" {
		return false
	}
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok && subtle.ConstantTimeCompare([]byte(got), []byte(h.opts.Token)) == 1
}

// target is a resource request's path, parsed.
type target struct {
	group, version string
	namespace      string
	resource       string
	name           string
	subresource    string
	watchPath      bool // the deprecated /watch/ prefix
}

// parsePath splits /api/v1/... or /apis/<group>/<version>/...; a bare
// group/version (no resource) has resource "".
func parsePath(path string) (t target, ok bool) {
	segs := strings.Split(strings.TrimPrefix(path, "/"), "/")
	if slices.Contains(segs, "") {
		return t, false
	}
	switch {
	case segs[0] == "api" && len(segs) >= 2:
		t.version, segs = segs[1], segs[2:]
	case segs[0] == "apis" && len(segs) >= 3:
		t.group, t.version, segs = segs[1], segs[2], segs[3:]
	default:
		return t, false
	}
	if len(segs) > 0 && segs[0] == "watch" {
		t.watchPath, segs = true, segs[1:]
	}
	if len(segs) >= 3 && segs[0] == "namespaces" && !(len(segs) == 3 && (segs[2] == "status" || segs[2] == "finalize")) {
		t.namespace, segs = segs[1], segs[2:]
	}
	switch len(segs) {
	case 0:
	case 1:
		t.resource = segs[0]
	case 2:
		t.resource, t.name = segs[0], segs[1]
	case 3:
		t.resource, t.name, t.subresource = segs[0], segs[1], segs[2]
	default:
		return t, false
	}
	return t, true
}

// resolve finds the kind a target names in reg.
func resolve(reg *api.Registry, t target) (api.ResourceInfo, error) {
	av := t.version
	if t.group != "" {
		av = t.group + "/" + t.version
	}
	for _, k := range reg.Kinds() {
		info, _ := reg.Lookup(k)
		if info.Resource != t.resource || info.Kind.Group != t.group {
			continue
		}
		for _, v := range reg.APIVersions(k) {
			if v == av {
				return info, nil
			}
		}
	}
	return api.ResourceInfo{}, &apierr.StatusError{Code: 404, Reason: apierr.NotFound, Message: "the server could not find the requested resource"}
}

// asTable reports whether the client asked for server-side printing.
func asTable(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept"), ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil || mt != "application/json" {
			continue
		}
		if params["as"] == "Table" && params["g"] == "meta.k8s.io" && (params["v"] == "v1" || params["v"] == "v1beta1") {
			return true
		}
		if params["as"] == "" {
			return false // plain JSON preferred
		}
	}
	return false
}

// errNotAcceptable is the API server's answer to an Accept header that
// names no media type it writes (negotiation.NewNotAcceptableError):
// serve writes JSON only.
var errNotAcceptable = &apierr.StatusError{Code: http.StatusNotAcceptable, Reason: "NotAcceptable",
	Message: "only the following media types are accepted: application/json"}

// checkAccept refuses a resource request whose Accept header allows no
// JSON answer serve can give: no media range that covers
// application/json (a q of 0 refuses it), or only with an "as" serve
// does not convert to. No header accepts anything.
func checkAccept(r *http.Request) error {
	header := r.Header.Get("Accept")
	if strings.TrimSpace(header) == "" {
		return nil
	}
	for _, part := range strings.Split(header, ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		if q, err := strconv.ParseFloat(params["q"], 64); err == nil && q <= 0 {
			continue
		}
		switch mt {
		case "*/*", "application/*":
			return nil
		case "application/json":
			switch params["as"] {
			case "", "Table", "PartialObjectMetadata", "PartialObjectMetadataList":
				return nil
			}
		}
	}
	return errNotAcceptable
}

// partialMetadata reports whether the client asked for objects as
// PartialObjectMetadata (client-go's metadata client, controller-runtime's
// metadata-only watches: `application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1`,
// or PartialObjectMetadataList for a list) ahead of plain JSON, and the
// meta.k8s.io version to answer in. As the API server does, the answer
// is then each object's metadata alone, in a PartialObjectMetadata (a
// list's items in a PartialObjectMetadataList).
func partialMetadata(r *http.Request) (apiVersion string, ok bool) {
	for _, part := range strings.Split(r.Header.Get("Accept"), ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil || mt != "application/json" {
			continue
		}
		switch as := params["as"]; {
		case as == "":
			return "", false // plain JSON preferred
		case (as == "PartialObjectMetadata" || as == "PartialObjectMetadataList") && params["g"] == "meta.k8s.io" && (params["v"] == "v1" || params["v"] == "v1beta1"):
			return "meta.k8s.io/" + params["v"], true
		}
	}
	return "", false
}

// partialObject is o as a PartialObjectMetadata of apiVersion: its kind
// and metadata only.
func partialObject(o api.Object, apiVersion string) map[string]any {
	return map[string]any{"kind": "PartialObjectMetadata", "apiVersion": apiVersion, "metadata": o.GetObjectMeta()}
}

// result is what the loop hands back for one request.
type result struct {
	resp  *apiserver.Response
	info  api.ResourceInfo
	table *tableData // the request asked for a Table: rows computed on the loop's virtual time
	err   error      // a failure before the request was sent
	body  any        // the response body, when it is not resp's object (a Scale)
	post  func(*apiserver.Response) any
	now   time.Time // the virtual time of the response
	// warnings are the strict decoding errors the request's
	// fieldValidation directive (Warn) turned into warnings.
	warnings []string
}

func (h *Handler) serveAPI(w http.ResponseWriter, r *http.Request, path string, body []byte) {
	t, ok := parsePath(path)
	if !ok {
		writeStatus(w, http.StatusNotFound, apierr.NotFound, "the server could not find the requested resource")
		return
	}
	if t.group == "authorization.k8s.io" && t.resource != "" {
		writeErr(w, errAccessReview)
		return
	}
	if t.group == "authentication.k8s.io" && t.resource == "selfsubjectreviews" {
		h.selfSubjectReview(w, r, t)
		return
	}
	if t.resource == "" {
		v, ok := call(h, w, r, func(reply func(map[string]any)) {
			doc, ok := apiResourceList(h.gw.c.Store.Kinds(), t.group, t.version)
			if !ok {
				doc = nil
			}
			reply(doc)
		})
		if !ok {
			return
		}
		if v == nil {
			writeStatus(w, http.StatusNotFound, apierr.NotFound, "the server could not find the requested resource")
			return
		}
		writeJSON(w, 200, v)
		return
	}
	if err := checkAccept(r); err != nil {
		writeErr(w, err)
		return
	}
	q := r.URL.Query()
	isWatch := t.watchPath || queryBool(q, "watch")
	if r.Method == http.MethodGet && isWatch {
		h.serveWatch(w, r, t)
		return
	}
	// The API server prints a subresource with its object's table
	// convertor (kubectl get --subresource): status as the object, scale
	// as a Scale.
	table := asTable(r) && r.Method == http.MethodGet && (t.subresource == "" || t.subresource == "status" || t.subresource == "scale")
	res, ok := call(h, w, r, func(reply func(result)) {
		info, err := resolve(h.gw.c.Store.Kinds(), t)
		if err != nil {
			reply(result{err: err})
			return
		}
		req, post, warnings, err := h.request(r, t, info, body)
		if err != nil {
			reply(result{err: err, info: info})
			return
		}
		if req.FieldManager == "" && (req.Verb == apiserver.Create || req.Verb == apiserver.Update || req.Verb == apiserver.Patch) {
			req.FieldManager = managerFromUserAgent(r.UserAgent())
		}
		h.gw.Do(req, func(resp *apiserver.Response) {
			// Only capture here: this runs in an event of the
			// simulation; the response is shaped on the client's
			// goroutine, where a panic ends one request, not the run.
			reply(result{resp: resp, info: info, post: post, now: h.gw.Now(), warnings: warnings})
		})
	})
	if !ok {
		return
	}
	if res.err == nil && res.resp.Err == nil {
		if res.post != nil {
			res.body = res.post(res.resp)
		}
		if table {
			res.table = newTable(res.info, t.subresource, res.resp, res.now, q.Get("includeObject"))
		}
	}
	if res.err != nil {
		writeErr(w, res.err)
		return
	}
	// The API server sends the warnings a request collected with its
	// answer, a failure's too: the body's strict decoding errors first,
	// then a patch's.
	for _, msg := range append(res.warnings, res.resp.Warnings...) {
		addWarning(w, msg)
	}
	if res.resp.Err != nil {
		writeErr(w, res.resp.Err)
		return
	}
	if res.table != nil {
		writeJSON(w, 200, res.table.json())
		return
	}
	if res.body != nil {
		code := 200
		if r.Method == http.MethodPost {
			// A create of a subresource (an eviction, a binding) is
			// 201 Created, and a Status it answers carries that code
			// (the API server's createHandler).
			code = http.StatusCreated
			if st, ok := res.body.(map[string]any); ok && st["kind"] == "Status" {
				st["code"] = code
			}
		}
		writeJSON(w, code, res.body)
		return
	}
	h.writeResponse(w, r, t, res)
}

// writeResponse writes a successful response's object or list.
func (h *Handler) writeResponse(w http.ResponseWriter, r *http.Request, t target, res result) {
	resp := res.resp
	code := 200
	if r.Method == http.MethodPost {
		code = 201
	}
	switch {
	case resp.Items != nil || (r.Method == http.MethodGet && t.name == ""):
		items := resp.Items
		if items == nil {
			items = []api.Object{}
		}
		listMeta := map[string]any{"resourceVersion": strconv.FormatUint(resp.ResourceVersion, 10)}
		if av, ok := partialMetadata(r); ok {
			partial := make([]map[string]any, len(items))
			for i, o := range items {
				partial[i] = partialObject(o, av)
			}
			writeJSON(w, 200, map[string]any{"kind": "PartialObjectMetadataList", "apiVersion": av, "metadata": listMeta, "items": partial})
			return
		}
		writeJSON(w, 200, map[string]any{"kind": res.info.Kind.Name + "List", "apiVersion": apiVersionOf(t),
			"metadata": listMeta, "items": items})
	case resp.Object != nil:
		if h.opts.Warnings != nil && (r.Method == http.MethodPost || r.Method == http.MethodPut || r.Method == http.MethodPatch) {
			for _, msg := range h.opts.Warnings(resp.Object) {
				addWarning(w, msg)
			}
		}
		if av, ok := partialMetadata(r); ok {
			writeJSON(w, code, partialObject(resp.Object, av))
			return
		}
		writeJSON(w, code, resp.Object)
	default:
		writeJSON(w, 200, map[string]any{"kind": "Status", "apiVersion": "v1", "metadata": map[string]any{}, "status": "Success",
			"details": map[string]any{"name": t.name, "kind": t.resource, "group": t.group}})
	}
}

// addWarning adds a Warning header (299, agent "-", the message quoted),
// as the API server's warning recorder writes one; kubectl prints
// "Warning: <message>".
func addWarning(w http.ResponseWriter, msg string) {
	w.Header().Add("Warning", "299 - "+strconv.Quote(msg))
}

func apiVersionOf(t target) string {
	if t.group == "" {
		return t.version
	}
	return t.group + "/" + t.version
}

// mediaType is a request's Content-Type without parameters.
func mediaType(r *http.Request) string {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil {
		return ""
	}
	return mt
}

// isJSON reports whether b starts like a JSON document.
func isJSON(b []byte) bool {
	b = bytes.TrimSpace(b)
	return len(b) > 0 && (b[0] == '{' || b[0] == '[')
}

// unreadBody refuses a body in a media type serve does not read, a 415
// worded as the API server's, with what to do instead: protobuf is what
// kubectl's typed commands (create deployment, create configmap, create
// namespace), client-go's typed clientset (kubernetes.NewForConfig) and
// controller-runtime's client send for the built-in kinds unless
// rest.Config.ContentType is set. A
// DELETE's DeleteOptions are refused too: read as nothing, their
// preconditions and propagation policy would be silently dropped.
func unreadBody(mt string) error {
	return unsupportedPatch(fmt.Sprintf("the body of the request was in an unknown format - accepted media types include: application/json, application/yaml "+
		"(clustersim serve does not read %q: kubectl's typed commands such as create deployment, create configmap and create namespace send protobuf; "+
		"write the object to a file and use kubectl apply -f or kubectl create -f; "+
		"client-go's typed clientset and controller-runtime's client send protobuf unless their rest.Config sets ContentType: \"application/json\")", mt))
}

// managerFromUserAgent is the field manager of a write that names none,
// as the API server's managerOrUserAgent makes it: the User-Agent up to
// its first "/", its unprintable characters left out, at most 128 bytes
// (validation.FieldManagerMaxLength). kubectl's writes are "kubectl",
// a client-go program's its binary's name. Empty (no User-Agent) leaves
// the simulated API server's default, the actor.
func managerFromUserAgent(ua string) string {
	m, _, _ := strings.Cut(ua, "/")
	var b strings.Builder
	for _, r := range m {
		if !unicode.IsPrint(r) {
			continue
		}
		if b.Len()+utf8.RuneLen(r) > fieldManagerMaxLength {
			break
		}
		b.WriteRune(r)
	}
	return b.String()
}
