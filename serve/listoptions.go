package serve

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/clustersim/clustersim/sim/apierr"
)

// The values of resourceVersionMatch (metav1.ResourceVersionMatch).
const (
	matchExact        = "Exact"
	matchNotOlderThan = "NotOlderThan"
)

// listQuery is a list's or a watch's options (metainternalversion
// ListOptions) as the API server reads them from the query.
type listQuery struct {
	// watch is the query's watch parameter, which is what the API
	// server validates by: a watch through the deprecated /watch/ path
	// without watch=true is validated as a list.
	watch           bool
	resourceVersion string
	match           string
	sendInitial     *bool
	cont            string
	limit           int64
	// timeout is timeoutSeconds (nil when not given or 0).
	timeout *time.Duration
}

// parseListQuery reads a list's or a watch's options and refuses them as
// the API server's ListResource does, in its order: a value that does
// not convert (limit=x) is a 400 with the conversion's error; options
// that ValidateListOptions refuses (apimachinery
// pkg/apis/meta/internalversion/validation, the WatchList feature on)
// are a 422 Invalid of ListOptions.meta.k8s.io naming each field error.
func parseListQuery(q url.Values) (listQuery, error) {
	lq := listQuery{
		watch:           queryBool(q, "watch"),
		resourceVersion: q.Get("resourceVersion"),
		match:           q.Get("resourceVersionMatch"),
		cont:            q.Get("continue"),
	}
	if _, ok := q["sendInitialEvents"]; ok {
		// A *bool converts as a bool (Convert_Slice_string_To_bool)
		// once present.
		b := queryBool(q, "sendInitialEvents")
		lq.sendInitial = &b
	}
	limit, _, err := queryInt64(q, "limit")
	if err != nil {
		return lq, apierr.NewBadRequest(err.Error())
	}
	lq.limit = limit
	timeout, _, err := queryInt64(q, "timeoutSeconds")
	if err != nil {
		return lq, apierr.NewBadRequest(err.Error())
	}
	if timeout != 0 {
		d := time.Duration(timeout) * time.Second
		lq.timeout = &d
	}
	if errs := lq.validate(); len(errs) > 0 {
		return lq, apierr.NewInvalid("ListOptions.meta.k8s.io", "", errs...)
	}
	return lq, nil
}

// validate is ValidateListOptions: a list's rules, or a watch's
// (validateWatchOptions) when the query asks for a watch.
func (lq listQuery) validate() []apierr.FieldError {
	forbidden := func(field, detail string) apierr.FieldError {
		return apierr.FieldError{Field: field, Type: "Forbidden", Detail: detail}
	}
	unsupported := func(value string, supported ...string) apierr.FieldError {
		quoted := make([]string, len(supported))
		for i, s := range supported {
			quoted[i] = strconv.Quote(s)
		}
		return apierr.FieldError{Field: "resourceVersionMatch", Type: "Unsupported value", Value: value,
			Detail: "supported values: " + strings.Join(quoted, ", ")}
	}
	var errs []apierr.FieldError
	if lq.watch {
		if lq.sendInitial != nil && lq.match != matchNotOlderThan {
			errs = append(errs, forbidden("resourceVersionMatch", "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"))
		}
		if lq.match != "" {
			if lq.sendInitial == nil {
				errs = append(errs, forbidden("resourceVersionMatch", "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"))
			}
			if lq.match != matchNotOlderThan {
				errs = append(errs, unsupported(lq.match, matchNotOlderThan))
			}
			if lq.cont != "" {
				errs = append(errs, forbidden("resourceVersionMatch", "resourceVersionMatch is forbidden when continue is provided"))
			}
		}
		return errs
	}
	if lq.match != "" {
		if lq.resourceVersion == "" {
			errs = append(errs, forbidden("resourceVersionMatch", "resourceVersionMatch is forbidden unless resourceVersion is provided"))
		}
		if lq.cont != "" {
			errs = append(errs, forbidden("resourceVersionMatch", "resourceVersionMatch is forbidden when continue is provided"))
		}
		if lq.match != matchExact && lq.match != matchNotOlderThan {
			errs = append(errs, unsupported(lq.match, matchExact, matchNotOlderThan, ""))
		}
		if lq.match == matchExact && lq.resourceVersion == "0" {
			errs = append(errs, forbidden("resourceVersionMatch", `resourceVersionMatch "exact" is forbidden for resourceVersion "0"`))
		}
	}
	if lq.sendInitial != nil {
		errs = append(errs, forbidden("sendInitialEvents", "sendInitialEvents is forbidden for list"))
	}
	return errs
}

// fromStorage reports whether the API server's watch cache hands this
// list to etcd (the cacher's shouldDelegateList, ConsistentListFromCache
// on): a continue, a limit at a resourceVersion other than "0", or an
// Exact match. etcd reads such a list at the resourceVersion given
// (Exact; a legacy one with a limit too); the cache serves the others
// at its newest state, at least as new as the resourceVersion given.
func (lq listQuery) fromStorage() bool {
	return lq.cont != "" || lq.limit > 0 && lq.resourceVersion != "0" || lq.match != "" && lq.match != matchNotOlderThan
}

// exact reports whether the list must be at exactly its resourceVersion
// (etcd's reading of an Exact or a legacy one with a limit).
func (lq listQuery) exact() bool {
	return lq.fromStorage() && lq.resourceVersion != "" && lq.resourceVersion != "0" && lq.match != matchNotOlderThan
}

// rv parses the resourceVersion as the API server's versioner does
// (APIObjectVersioner.ParseResourceVersion: "" and "0" are 0). What a
// version that is not a number becomes depends on who reads it: etcd's
// store wraps the versioner's error in a 400 "invalid resource version:
// ..."; the watch cache, and every watch, return the versioner's error
// as it is, which is not a Status, so the handler answers it as a 500
// without a reason (kubernetes/kubernetes#101350 and #139485, open).
// isWatch is whether the request is a watch (by its query or its path).
func (lq listQuery) rv(isWatch bool) (uint64, error) {
	if lq.resourceVersion == "" || lq.resourceVersion == "0" {
		return 0, nil
	}
	n, err := strconv.ParseUint(lq.resourceVersion, 10, 64)
	if err == nil {
		return n, nil
	}
	fe := apierr.FieldError{Field: "resourceVersion", Type: "Invalid value", Value: lq.resourceVersion, Detail: err.Error()}
	if !isWatch && lq.fromStorage() {
		return 0, apierr.NewBadRequest("invalid resource version: " + fe.Error())
	}
	return 0, &apierr.StatusError{Code: 500, Message: fe.Error()}
}

// continueToken is the API server's continue token (storage
// ContinueToken), base64 (URL alphabet, unpadded) of this JSON.
type continueToken struct {
	APIVersion      string `json:"v"`
	ResourceVersion int64  `json:"rv"`
	StartKey        string `json:"start"`
}

// checkContinue refuses a list's continue token. serve never pages (it
// answers every list whole, at one resourceVersion, and so never hands
// out a token), so no token is one of its own: a token that does not
// decode is refused as etcd's store refuses it (DecodeContinue's error,
// a 400), then one with a resourceVersion other than "0" beside it; a
// well-formed token is answered as one whose revision etcd has compacted
// (410 Expired): the client starts a new list.
func (lq listQuery) checkContinue() error {
	if lq.cont == "" {
		return nil
	}
	if err := decodeContinue(lq.cont); err != nil {
		return apierr.NewBadRequest("invalid continue token: " + err.Error())
	}
	if lq.resourceVersion != "" && lq.resourceVersion != "0" {
		return apierr.NewBadRequest("specifying resource version is not allowed when using continue")
	}
	return &apierr.StatusError{Code: 410, Reason: apierr.Expired,
		Message: "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter."}
}

// decodeContinue checks a continue token as storage.DecodeContinue
// does (the key prefix aside: serve has no keys).
func decodeContinue(s string) error {
	data, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return fmt.Errorf("continue key is not valid: %v", err)
	}
	var c continueToken
	if err := json.Unmarshal(data, &c); err != nil {
		return fmt.Errorf("continue key is not valid: %v", err)
	}
	if c.APIVersion != "meta.k8s.io/v1" {
		return fmt.Errorf("continue key is not valid: server does not recognize this encoded version %q", c.APIVersion)
	}
	if c.ResourceVersion == 0 {
		return fmt.Errorf("continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)")
	}
	if c.StartKey == "" {
		return fmt.Errorf("continue key is not valid: encoded start key empty (version meta.k8s.io/v1)")
	}
	key := c.StartKey
	if !strings.HasPrefix(key, "/") {
		key = "/" + key
	}
	if cleaned := path.Clean(key); cleaned != key {
		return fmt.Errorf("continue key is not valid: %s", c.StartKey)
	}
	return nil
}

// tooLargeRV is the watch cache's answer to a list (or a watch list)
// that asks for a resourceVersion newer than its newest
// (storage.NewTooLargeResourceVersionError): a 504 Timeout with the
// cause ResourceVersionTooLarge and a retry after retry seconds (1 from
// the cache, 0, left out, from etcd's store).
func tooLargeRV(asked, current uint64, retry int) *apierr.StatusError {
	return &apierr.StatusError{Code: 504, Reason: apierr.Timeout,
		Message:           fmt.Sprintf("Timeout: Too large resource version: %d, current: %d", asked, current),
		Causes:            []apierr.FieldError{{Type: "ResourceVersionTooLarge", Detail: "Too large resource version"}},
		RetryAfterSeconds: retry}
}

// checkListRV holds a list's answer, taken at resourceVersion current,
// to the resourceVersion asked for: newer than current is tooLargeRV;
// an exact list (Exact, or a legacy one with a limit, which etcd reads
// at that revision) of an older resourceVersion is a 410 Expired, the
// API server's answer once etcd has compacted that revision: the store
// keeps no past states, and serve will not pass the present off as one.
func (lq listQuery) checkListRV(asked, current uint64) error {
	switch {
	case asked > current && lq.fromStorage():
		return tooLargeRV(asked, current, 0)
	case asked > current:
		return tooLargeRV(asked, current, 1)
	case asked < current && lq.exact():
		return &apierr.StatusError{Code: 410, Reason: apierr.Expired, Message: "The resourceVersion for the provided list is too old."}
	}
	return nil
}
