package manifest

import (
	"os"
	"reflect"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
	"gopkg.in/yaml.v3"
)

// Decode loads every object of a YAML stream: one or more documents, block
// or flow style, separated by `---`; empty and comment-only documents are
// skipped. Each document's apiVersion and kind select the Go type through
// api.New, then the whole document is decoded strictly into it. A
// `kind: List` (apiVersion v1) document contributes its items, in order.
// file names the input in errors; every failure in the input is an *Error
// for the first offending node in document order. (yaml.v3 reads a little
// past the end of a document, so a syntax error on the first line of the
// next document is found before the current document is decoded.)
func Decode(file string, data []byte) ([]api.Object, error) {
	var objs []api.Object
	spent := 0
	err := documents(file, data, func(root *yaml.Node) error {
		// One decoder per document: its anchor stack covers List items
		// too, which may be aliases of each other. The alias budget is
		// the whole file's, so that many small bombs in many documents
		// cannot add up.
		d := &decoder{file: file, expanded: spent}
		var err error
		objs, err = d.object(root, objs)
		spent = d.expanded
		return err
	})
	if err != nil {
		return nil, err
	}
	return objs, nil
}

// DecodeFile reads the file at path and decodes it with Decode; errors name
// the path as given.
func DecodeFile(path string) ([]api.Object, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Decode(path, data)
}

// list is the v1 List wrapper `kubectl get -o yaml` prints around several
// objects. Its items stay YAML nodes until their own kinds are known.
type list struct {
	APIVersion string     `json:"apiVersion"`
	Kind       string     `json:"kind"`
	Metadata   listMeta   `json:"metadata"`
	Items      *yaml.Node `json:"items"`
}

// listMeta is metav1.ListMeta, accepted and ignored.
type listMeta struct {
	ResourceVersion    string `json:"resourceVersion,omitempty"`
	Continue           string `json:"continue,omitempty"`
	RemainingItemCount *int64 `json:"remainingItemCount,omitempty"`
	SelfLink           string `json:"selfLink,omitempty"`
}

// object decodes one document (or List item), at the decoder's current
// field path, and appends the result to objs.
func (d *decoder) object(root *yaml.Node, objs []api.Object) ([]api.Object, error) {
	n, token, err := d.enter(root)
	if err != nil {
		return objs, err
	}
	defer d.leave(token)
	defer func(was bool) { d.apiObject = was }(d.apiObject)
	d.apiObject = true
	if n.Kind != yaml.MappingNode {
		return objs, d.typeError(n, "a mapping")
	}
	ps, err := d.pairs(n, "field")
	if err != nil {
		return objs, err
	}
	apiVersion, err := d.typeField(n, ps, "apiVersion")
	if err != nil {
		return objs, err
	}
	kind, err := d.typeField(n, ps, "kind")
	if err != nil {
		return objs, err
	}
	if apiVersion.Value == "v1" && kind.Value == "List" || typedList(apiVersion.Value, kind.Value) {
		return d.list(n, objs)
	}
	obj, err := api.New(apiVersion.Value, kind.Value)
	if err != nil && customGroup(api.GroupOf(apiVersion.Value)) && kind.Value != "" {
		// A kind of a custom group decodes as unstructured; whether a
		// CustomResourceDefinition defines it is for the scenario
		// loader or the API server to say.
		obj, err = &api.Unstructured{}, nil
	}
	d.push(seg{name: "kind"})
	switch v := reflect.ValueOf(obj); {
	case err != nil:
		return objs, d.wrap(kind, err)
	case v.Kind() != reflect.Pointer || v.IsNil():
		return objs, d.errorf(kind, "api.New(%q, %q) returned %T, not a non-nil pointer", apiVersion.Value, kind.Value, obj)
	}
	d.pop()
	if err := d.resolved(n, reflect.ValueOf(obj).Elem()); err != nil {
		return objs, err
	}
	if d.roots != nil {
		*d.roots = append(*d.roots, n)
	}
	return append(objs, obj), nil
}

// typedList reports whether kind is the list kind of a served kind
// (ConfigMapList, apps/v1 DeploymentList), which kubectl reads as a List
// (k8s.io/apimachinery pkg/api/meta IsListType: any object with items).
func typedList(apiVersion, kind string) bool {
	item, ok := strings.CutSuffix(kind, "List")
	if !ok || item == "" {
		return false
	}
	_, err := api.New(apiVersion, item)
	return err == nil
}

// list decodes a v1 List document n and appends its items to objs.
func (d *decoder) list(n *yaml.Node, objs []api.Object) ([]api.Object, error) {
	var l list
	if err := d.resolved(n, reflect.ValueOf(&l).Elem()); err != nil {
		return objs, err
	}
	if l.Items == nil {
		return objs, nil
	}
	d.push(seg{name: "items"})
	defer d.pop()
	if l.Items.Kind != yaml.SequenceNode {
		return objs, d.typeError(l.Items, "a sequence")
	}
	for i, item := range l.Items.Content {
		d.push(seg{index: i, kind: segIndex})
		var err error
		objs, err = d.object(item, objs)
		d.pop()
		if err != nil {
			return objs, err
		}
	}
	return objs, nil
}

// typeField returns the string value node of the required top-level key
// name (apiVersion or kind) among the entries ps of mapping n (so it may come
// through a merge key), or an error at the document if it is missing or
// empty.
func (d *decoder) typeField(n *yaml.Node, ps []pair, name string) (*yaml.Node, error) {
	d.push(seg{name: name})
	defer d.pop()
	for _, p := range ps {
		if p.name != name {
			continue
		}
		v := p.val
		if v.Kind == yaml.AliasNode && v.Alias != nil {
			v = v.Alias
		}
		if isNull(v) || v.Kind == yaml.ScalarNode && v.Value == "" {
			break
		}
		if _, err := d.str(v); err != nil {
			return nil, err
		}
		return v, nil
	}
	return nil, d.errorf(n, "missing required field %q", name)
}

// customGroup reports whether objects of group may be custom resources:
// a group with a dot that is not one of Kubernetes' own (*.k8s.io,
// *.kubernetes.io), as CustomResourceDefinitions require.
func customGroup(group string) bool {
	if !strings.Contains(group, ".") {
		return false
	}
	for _, own := range []string{"k8s.io", "kubernetes.io"} {
		if group == own || strings.HasSuffix(group, "."+own) {
			return false
		}
	}
	return true
}
