package serve

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// TestNotAcceptable holds a resource request whose Accept header names
// nothing serve writes (protobuf alone, XML, an unknown "as") to the API
// server's 406 NotAcceptable, where serve answered 200 in JSON the
// client had not asked for; a header that allows JSON anywhere in its
// list is served (a nil loop here: such a request would reach it and
// panic, so only the refusals are sent).
func TestNotAcceptable(t *testing.T) {
	h := NewHandler(nil, nil, Options{Token: "t"})
	for _, accept := range []string{
		"application/vnd.kubernetes.protobuf",
		"application/xml",
		"text/html",
		"application/json;as=Garbage;g=meta.k8s.io;v=v1",
		"application/vnd.kubernetes.protobuf;stream=watch",
	} {
		for _, path := range []string{"/api/v1/pods", "/api/v1/namespaces/default/pods/p", "/apis/apps/v1/deployments?watch=true"} {
			r := httptest.NewRequest("GET", path, nil)
			r.Header.Set("Authorization", "Bearer t")
			r.Header.Set("Accept", accept)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != 406 || !strings.Contains(w.Body.String(), `"reason":"NotAcceptable"`) ||
				!strings.Contains(w.Body.String(), `"message":"only the following media types are accepted: application/json"`) {
				t.Errorf("GET %s, Accept %s: %d %s; want the 406", path, accept, w.Code, w.Body)
			}
		}
	}
	for _, accept := range []string{"", "*/*", "application/*", "application/json", "application/vnd.kubernetes.protobuf, application/json",
		"application/json;as=Table;g=meta.k8s.io;v=v1", "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json",
		"application/json;stream=watch", "application/vnd.kubernetes.protobuf;q=1,*/*;q=0.5", "garbage/;;;, application/json"} {
		r := httptest.NewRequest("GET", "/api/v1/pods", nil)
		r.Header.Set("Accept", accept)
		if err := checkAccept(r); err != nil {
			t.Errorf("Accept %q: %v; want served", accept, err)
		}
	}
}
