package api

import (
	"encoding/json"
	"testing"
)

// widget is a custom resource's Go type, as an operator author writes it.
type widget struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	Spec       struct {
		Replicas int32             `json:"replicas"`
		Size     string            `json:"size,omitempty"`
		Labels   map[string]string `json:"labels,omitempty"`
	} `json:"spec"`
	Status struct {
		Ready float64 `json:"ready"`
	} `json:"status"`
}

// TestUnstructured: a Go struct converts to an unstructured object and
// back through JSON; numbers come out as int64 when integral; the JSON
// form is stable (keys sorted); a deep copy shares nothing.
func TestUnstructured(t *testing.T) {
	var w widget
	w.APIVersion, w.Kind, w.Name, w.Namespace = "example.com/v1", "Widget", "gear", "default"
	w.Spec.Replicas, w.Spec.Size, w.Spec.Labels = 3, "big", map[string]string{"a": "b"}
	w.Status.Ready = 2.5
	u, err := FromObject(&w)
	if err != nil {
		t.Fatal(err)
	}
	if got := KindOf(u); got != (Kind{Group: "example.com", Name: "Widget"}) {
		t.Errorf("KindOf = %+v", got)
	}
	if r, _ := u.Get("spec.replicas"); r != int64(3) {
		t.Errorf("spec.replicas = %#v, want int64 3", r)
	}
	if r, _ := u.Get("status.ready"); r != 2.5 {
		t.Errorf("status.ready = %#v, want 2.5", r)
	}
	b, err := json.Marshal(u)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"gear","namespace":"default","creationTimestamp":null},"spec":{"labels":{"a":"b"},"replicas":3,"size":"big"},"status":{"ready":2.5}}`
	if string(b) != want {
		t.Errorf("JSON\n got %s\nwant %s", b, want)
	}
	var back widget
	if err := u.Into(&back); err != nil {
		t.Fatal(err)
	}
	if back.Spec.Replicas != 3 || back.Spec.Labels["a"] != "b" || back.Name != "gear" || back.Status.Ready != 2.5 {
		t.Errorf("round trip = %+v", back)
	}
	cp := u.DeepCopy()
	cp.Set("spec.labels.a", "c")
	cp.Labels = map[string]string{"x": "y"}
	if v, _ := u.Get("spec.labels.a"); v != "b" || u.Labels != nil {
		t.Errorf("deep copy shares memory: %v %v", v, u.Labels)
	}
	var decoded Unstructured
	if err := json.Unmarshal([]byte(`[1]`), &decoded); err == nil {
		t.Error("an array decoded as an object")
	}
}
