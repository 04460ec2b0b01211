package serve

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/cluster"
)

// TestValidateListOptions is apimachinery's TestValidateListOptions
// (pkg/apis/meta/internalversion/validation), row for row, with the
// WatchList feature on, as serve has it: the rows that expect, beside
// their own error, "sendInitialEvents is forbidden for watch unless the
// WatchList feature gate is enabled" expect their own error alone, and
// the one that expects only that error expects none.
func TestValidateListOptions(t *testing.T) {
	for _, tc := range []struct {
		name, query string
		want        []string
	}{
		{"valid-default", "", nil},
		{"valid-resourceversionmatch-exact", "resourceVersion=1&resourceVersionMatch=Exact", nil},
		{"invalid-resourceversionmatch-exact", "resourceVersion=0&resourceVersionMatch=Exact",
			[]string{`resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"`}},
		{"valid-resourceversionmatch-notolderthan", "resourceVersion=0&resourceVersionMatch=NotOlderThan", nil},
		{"invalid-resourceversionmatch", "resourceVersion=0&resourceVersionMatch=foo",
			[]string{`resourceVersionMatch: Unsupported value: "foo": supported values: "Exact", "NotOlderThan", ""`}},
		{"list-sendInitialEvents-forbidden", "sendInitialEvents=true",
			[]string{"sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list"}},
		{"valid-watch-default", "watch=true", nil},
		{"valid-watch-sendInitialEvents-on", "watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true", nil},
		{"valid-watch-sendInitialEvents-off", "watch=true&sendInitialEvents=false&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true", nil},
		{"watch-resourceversionmatch-without-sendInitialEvents-forbidden", "watch=true&resourceVersionMatch=NotOlderThan",
			[]string{"resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"}},
		{"watch-sendInitialEvents-without-resourceversionmatch-forbidden", "watch=true&sendInitialEvents=true",
			[]string{"resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"}},
		{"watch-sendInitialEvents-with-exact-resourceversionmatch-forbidden", "watch=true&sendInitialEvents=true&resourceVersionMatch=Exact&allowWatchBookmarks=true",
			[]string{"resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
				`resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"`}},
		{"watch-sendInitialEvents-on-with-empty-resourceversionmatch-forbidden", "watch=true&sendInitialEvents=true&resourceVersionMatch=",
			[]string{"resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"}},
		{"watch-sendInitialEvents-off-with-empty-resourceversionmatch-forbidden", "watch=true&sendInitialEvents=false&resourceVersionMatch=",
			[]string{"resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"}},
		{"watch-sendInitialEvents-with-incorrect-resourceversionmatch-forbidden", "watch=true&sendInitialEvents=true&resourceVersionMatch=incorrect&allowWatchBookmarks=true",
			[]string{"resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
				`resourceVersionMatch: Unsupported value: "incorrect": supported values: "NotOlderThan"`}},
		{"watch-sendInitialEvents-no-allowWatchBookmark", "watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan", nil},
		{"watch-sendInitialEvents-no-watchlist-fg-disabled", "watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true", nil},
		{"watch-sendInitialEvents-no-watchlist-fg-disabled (continue)", "watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&continue=123",
			[]string{"resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided"}},
	} {
		q, err := url.ParseQuery(tc.query)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		if _, err := parseListQuery(q); err != nil {
			var se *apierr.StatusError
			if !errors.As(err, &se) || se.Code != 422 || se.Kind != "ListOptions" || se.Group != "meta.k8s.io" {
				t.Errorf("%s: %v; want a 422 of ListOptions.meta.k8s.io", tc.name, err)
				continue
			}
			for _, e := range se.Causes {
				got = append(got, e.Error())
			}
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s: %q; want %q", tc.name, got, tc.want)
		}
	}
}

// tickLoop is a Loop for tests that runs the simulation on its own
// goroutine as clustersim serve's pacing loop does: posted functions
// between steps of 100 ms of virtual time, the gateway's Tick after
// each step, about 100 virtual seconds a wall-clock second.
type tickLoop struct {
	jobs chan func()
	done chan struct{}
	once sync.Once
}

func (l *tickLoop) Post(fn func()) bool {
	select {
	case l.jobs <- fn:
		return true
	case <-l.done:
		return false
	}
}

func (l *tickLoop) Done() <-chan struct{} { return l.done }

// liveServer is an HTTP server in front of a bare simulated control
// plane run by a tickLoop.
type liveServer struct {
	t   *testing.T
	url string
}

func newLiveServer(t *testing.T) *liveServer {
	t.Helper()
	c, err := cluster.New(cluster.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	gw := NewGateway(c, "kubectl")
	l := &tickLoop{jobs: make(chan func()), done: make(chan struct{})}
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			select {
			case fn := <-l.jobs:
				fn()
			case <-l.done:
				return
			case <-time.After(time.Millisecond):
			}
			c.RunFor(100 * time.Millisecond)
			gw.Tick()
		}
	}()
	srv := httptest.NewServer(NewHandler(l, gw, Options{Token: "t"}))
	t.Cleanup(func() {
		srv.CloseClientConnections()
		l.once.Do(func() { close(l.done) })
		<-stopped
		srv.Close()
		c.Close()
	})
	return &liveServer{t: t, url: srv.URL}
}

// do sends a request and returns its status and body; a watch's body is
// read to its end, which must come within 10 s of wall time (a
// failure of the test, answered as status 0).
func (s *liveServer) do(method, path, body string) (int, string) {
	s.t.Helper()
	r, err := http.NewRequest(method, s.url+path, strings.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	r.Header.Set("Authorization", "Bearer t")
	if body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(r)
	if err != nil {
		s.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		s.t.Errorf("%s %s: reading the body: %v", method, path, err)
		return 0, string(b)
	}
	return resp.StatusCode, string(b)
}

// rv is the resourceVersion of a list of configmaps now.
func (s *liveServer) rv() uint64 {
	s.t.Helper()
	code, body := s.do("GET", "/api/v1/configmaps", "")
	var l struct {
		Metadata struct {
			ResourceVersion string `json:"resourceVersion"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal([]byte(body), &l); code != 200 || err != nil {
		s.t.Fatalf("list: %d %s", code, body)
	}
	n, _ := strconv.ParseUint(l.Metadata.ResourceVersion, 10, 64)
	return n
}

func (s *liveServer) createConfigMap(name string) uint64 {
	s.t.Helper()
	code, body := s.do("POST", "/api/v1/namespaces/default/configmaps", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"`+name+`"}}`)
	var m struct {
		Metadata struct {
			ResourceVersion string `json:"resourceVersion"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal([]byte(body), &m); code != 201 || err != nil {
		s.t.Fatalf("create %s: %d %s", name, code, body)
	}
	n, _ := strconv.ParseUint(m.Metadata.ResourceVersion, 10, 64)
	return n
}

// token is a well-formed continue token (storage.ContinueToken).
func token(v string, rv int64, start string) string {
	b, _ := json.Marshal(continueToken{APIVersion: v, ResourceVersion: rv, StartKey: start})
	return base64.RawURLEncoding.EncodeToString(b)
}

// TestListOptionsServed holds the answers to lists' and watches' options
// to the API server's (v1.32): ValidateListOptions' refusals are a 422
// Invalid of ListOptions.meta.k8s.io (ListResource's NewInvalid); a
// value that does not convert is a 400 with the conversion's error; a
// resourceVersion that is not a number is etcd's 400 "invalid resource
// version" for a list that etcd serves (a limit, an Exact match) and
// otherwise the versioner's bare error, a 500 without a reason; a
// continue token serve did not issue is refused as etcd refuses a bad or
// compacted one; a resourceVersion newer than the store's is the watch
// cache's 504 "Too large resource version"; an Exact list of an older
// one is etcd's 410 for a compacted revision. serve ignored all of these
// but sendInitialEvents on a watch (and refused a watch's future
// resourceVersion and a sendInitialEvents that was not true or false
// with a 400).
func TestListOptionsServed(t *testing.T) {
	s := newLiveServer(t)
	s.createConfigMap("a")
	cur := s.rv()
	n := func(d int64) string { return strconv.FormatUint(uint64(int64(cur)+d), 10) }
	const inv = `ListOptions.meta.k8s.io \"\" is invalid: `
	for _, tc := range []struct {
		path string
		code int
		want []string // substrings of the body
	}{
		{"/api/v1/configmaps", 200, []string{`"kind":"ConfigMapList"`}},
		{"/api/v1/configmaps?resourceVersionMatch=NotOlderThan", 422,
			[]string{inv + `resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided"`, `"reason":"Invalid"`, `"group":"meta.k8s.io","kind":"ListOptions"`, `"reason":"FieldValueForbidden"`}},
		{"/api/v1/configmaps?resourceVersion=0&resourceVersionMatch=Exact", 422,
			[]string{inv + `resourceVersionMatch: Forbidden: resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\""`}},
		{"/api/v1/configmaps?resourceVersion=0&resourceVersionMatch=foo", 422,
			[]string{inv + `resourceVersionMatch: Unsupported value: \"foo\": supported values: \"Exact\", \"NotOlderThan\", \"\""`, `"reason":"FieldValueNotSupported"`}},
		{"/api/v1/configmaps?resourceVersion=0&resourceVersionMatch=NotOlderThan", 200, nil},
		{"/api/v1/configmaps?sendInitialEvents=true", 422, []string{inv + `sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list"`}},
		{"/api/v1/configmaps?resourceVersionMatch=foo&continue=x", 422, []string{inv + `[resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided, ` +
			`resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided, resourceVersionMatch: Unsupported value: \"foo\": supported values: \"Exact\", \"NotOlderThan\", \"\"]"`}},
		// The deprecated /watch/ path without watch=true is validated
		// as a list.
		{"/api/v1/watch/configmaps?sendInitialEvents=true&resourceVersionMatch=NotOlderThan", 422, []string{"resourceVersionMatch is forbidden unless resourceVersion is provided", "sendInitialEvents is forbidden for list"}},
		// A label selector that does not parse: the list handler's
		// DecodeParameters error (labels.Parse's text, unwrapped) as a
		// BadRequest, as apiserver's handlers/get.go ListResource answers.
		{"/api/v1/configmaps?labelSelector=a%20in%20(", 400,
			[]string{`"message":"unable to parse requirement: found '', expected: ',', ')' or identifier","metadata":{},"reason":"BadRequest"`}},
		{"/api/v1/configmaps?labelSelector=a=b,,c", 400, []string{`"message":"found ',', expected: identifier after ','","metadata":{},"reason":"BadRequest"`}},
		{"/api/v1/configmaps?limit=x", 400, []string{`"message":"strconv.ParseInt: parsing \"x\": invalid syntax","metadata":{},"reason":"BadRequest"`}},
		{"/api/v1/configmaps?watch=1&timeoutSeconds=1.5", 400, []string{`"message":"strconv.ParseInt: parsing \"1.5\": invalid syntax","metadata":{},"reason":"BadRequest"`}},
		{"/api/v1/configmaps?resourceVersion=abc", 500, []string{`{"apiVersion":"v1","code":500,"kind":"Status","message":"resourceVersion: Invalid value: \"abc\": strconv.ParseUint: parsing \"abc\": invalid syntax","metadata":{},"status":"Failure"}`}},
		{"/api/v1/configmaps?resourceVersion=-1&limit=500", 400, []string{`"message":"invalid resource version: resourceVersion: Invalid value: \"-1\": strconv.ParseUint: parsing \"-1\": invalid syntax","metadata":{},"reason":"BadRequest"`}},
		{"/api/v1/configmaps?resourceVersion=abc&resourceVersionMatch=Exact", 400, []string{"invalid resource version: "}},
		{"/api/v1/configmaps?watch=1&resourceVersion=abc&limit=500", 500, []string{`"message":"resourceVersion: Invalid value: \"abc\": strconv.ParseUint: parsing \"abc\": invalid syntax"`}},
		{"/api/v1/configmaps?limit=1&continue=x!", 400, []string{`"message":"invalid continue token: continue key is not valid: illegal base64 data at input byte 1"`}},
		{"/api/v1/configmaps?continue=" + base64.RawURLEncoding.EncodeToString([]byte("{")), 400, []string{"invalid continue token: continue key is not valid: unexpected end of JSON input"}},
		{"/api/v1/configmaps?continue=" + token("v1", 5, "a"), 400, []string{`invalid continue token: continue key is not valid: server does not recognize this encoded version \"v1\"`}},
		{"/api/v1/configmaps?continue=" + token("meta.k8s.io/v1", 0, "a"), 400, []string{"continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)"}},
		{"/api/v1/configmaps?continue=" + token("meta.k8s.io/v1", 5, ""), 400, []string{"continue key is not valid: encoded start key empty (version meta.k8s.io/v1)"}},
		{"/api/v1/configmaps?continue=" + token("meta.k8s.io/v1", 5, "/a/../../b"), 400, []string{"continue key is not valid: /a/../../b"}},
		{"/api/v1/configmaps?resourceVersion=" + n(0) + "&continue=" + token("meta.k8s.io/v1", 5, "/default/a"), 400, []string{"specifying resource version is not allowed when using continue"}},
		{"/api/v1/configmaps?limit=1&continue=" + token("meta.k8s.io/v1", 5, "/default/a"), 410,
			[]string{`"message":"The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.","metadata":{},"reason":"Expired"`}},
		{"/api/v1/configmaps?resourceVersion=" + n(100), 504,
			[]string{`"message":"Timeout: Too large resource version: ` + n(100) + `, current: ` + n(0) + `"`, `"reason":"Timeout"`, `"details":{"causes":[{"message":"Too large resource version","reason":"ResourceVersionTooLarge"}],"retryAfterSeconds":1}`}},
		{"/api/v1/configmaps?resourceVersion=" + n(1) + "&resourceVersionMatch=NotOlderThan", 504, []string{"Too large resource version"}},
		{"/api/v1/configmaps?resourceVersion=" + n(1) + "&resourceVersionMatch=Exact", 504, []string{"Too large resource version"}},
		{"/api/v1/configmaps?resourceVersion=" + n(0) + "&resourceVersionMatch=NotOlderThan", 200, []string{`"resourceVersion":"` + n(0) + `"`}},
		{"/api/v1/configmaps?resourceVersion=" + n(0) + "&resourceVersionMatch=Exact", 200, []string{`"resourceVersion":"` + n(0) + `"`}},
		{"/api/v1/configmaps?resourceVersion=" + n(-1) + "&resourceVersionMatch=NotOlderThan", 200, []string{`"resourceVersion":"` + n(0) + `"`}},
		{"/api/v1/configmaps?resourceVersion=" + n(-1), 200, []string{`"resourceVersion":"` + n(0) + `"`}},
		{"/api/v1/configmaps?resourceVersion=" + n(-1) + "&resourceVersionMatch=Exact", 410, []string{`"message":"The resourceVersion for the provided list is too old.","metadata":{},"reason":"Expired"`}},
		{"/api/v1/configmaps?resourceVersion=" + n(-1) + "&limit=10", 410, []string{"The resourceVersion for the provided list is too old."}},
		{"/api/v1/configmaps?resourceVersion=0&limit=10", 200, nil},
		// Watches.
		{"/api/v1/configmaps?watch=1&resourceVersionMatch=NotOlderThan", 422, []string{inv + "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"}},
		{"/api/v1/configmaps?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&continue=x", 422, []string{inv + "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided"}},
		{"/api/v1/configmaps?watch=1&sendInitialEvents=yes&resourceVersionMatch=NotOlderThan&timeoutSeconds=1", 200, []string{`"type":"ADDED"}`}},
		{"/api/v1/configmaps?watch=1&timeoutSeconds=-1", 200, nil},
		{"/api/v1/configmaps?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=" + n(100), 200,
			[]string{`"type":"ERROR"}`, `{"object":{"apiVersion":"v1","code":504,"details":{"causes":[{"message":"Too large resource version","reason":"ResourceVersionTooLarge"}],"retryAfterSeconds":1},"kind":"Status","message":"Timeout: Too large resource version: ` + n(100)}},
	} {
		code, body := s.do("GET", tc.path, "")
		ok := code == tc.code
		for _, w := range tc.want {
			ok = ok && strings.Contains(body, w)
		}
		if !ok {
			t.Errorf("GET %s: %d %s\nwant %d with %q", tc.path, code, body, tc.code, tc.want)
		}
	}
}

// TestWatchTimeoutSeconds holds a watch's timeoutSeconds to the API
// server's: the stream ends cleanly (no ERROR event) once that much time
// has passed, in virtual time here, as serve's bookmarks are; client-go's
// reflector then watches again. A negative one ends it at once. serve
// ignored it: the watch went on until the client left.
func TestWatchTimeoutSeconds(t *testing.T) {
	s := newLiveServer(t)
	s.createConfigMap("a")
	for _, q := range []string{"timeoutSeconds=5", "timeoutSeconds=2&allowWatchBookmarks=true&resourceVersion=0", "timeoutSeconds=-3",
		"timeoutSeconds=3&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true"} {
		code, body := s.do("GET", "/api/v1/namespaces/default/configmaps?watch=true&"+q, "")
		if code != 200 || strings.Contains(body, `"ERROR"`) {
			t.Errorf("watch ?%s: %d %s; want 200 ending without an error", q, code, body)
		}
		if strings.HasPrefix(q, "timeoutSeconds=-") != (body == "") {
			t.Errorf("watch ?%s: %q", q, body)
		}
	}
}

// TestWatchFutureResourceVersion holds a watch from a resourceVersion
// newer than the store's to the API server's watch cache: it starts, and
// sends the events after that resourceVersion (getAllEventsSinceLocked
// has no upper bound; the cache watcher drops what is not newer). serve
// answered 400 "resourceVersion is in the future".
func TestWatchFutureResourceVersion(t *testing.T) {
	s := newLiveServer(t)
	cur := s.rv()
	from := cur + 2
	type line struct {
		Type   string `json:"type"`
		Object struct {
			Metadata struct {
				Name            string `json:"name"`
				ResourceVersion string `json:"resourceVersion"`
			} `json:"metadata"`
		} `json:"object"`
	}
	r, _ := http.NewRequest("GET", s.url+"/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=30&resourceVersion="+strconv.FormatUint(from, 10), nil)
	r.Header.Set("Authorization", "Bearer t")
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("watch from %d (the store at %d): %s %s; want 200", from, cur, resp.Status, b)
	}
	var rvs []uint64
	for _, name := range []string{"a", "b", "c", "d"} {
		rvs = append(rvs, s.createConfigMap(name))
	}
	var got []string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() && len(got) < 2 {
		var l line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		got = append(got, l.Type+" "+l.Object.Metadata.Name)
		if rv, _ := strconv.ParseUint(l.Object.Metadata.ResourceVersion, 10, 64); rv <= from {
			t.Errorf("%s %s at %d: not after %d", l.Type, l.Object.Metadata.Name, rv, from)
		}
	}
	// The creations took the versions after cur one each: those after
	// from are c's and d's.
	if rvs[0] != cur+1 || strings.Join(got, ",") != "ADDED c,ADDED d" {
		t.Errorf("events %q (creations at %v); want ADDED c, ADDED d", got, rvs)
	}
}
