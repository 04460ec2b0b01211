package manifest

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/clustersim/clustersim/sim/api"
	"gopkg.in/yaml.v3"
)

// Encode writes objs as YAML the way `kubectl get -o yaml` prints them: the
// object's JSON form (encoding/json, so omitempty and the API types' own
// marshalers decide what appears), keys sorted alphabetically, two-space
// indentation, documents separated by `---`. Integers stay integers and a
// string that looks like a number or boolean is quoted, so Decode reads the
// output back into equal objects. Unlike kubectl, yaml.v3 indents sequences
// under their key.
func Encode(objs ...api.Object) ([]byte, error) {
	docs := make([]*yaml.Node, 0, len(objs))
	for i, obj := range objs {
		if obj == nil || reflect.ValueOf(obj).Kind() == reflect.Pointer && reflect.ValueOf(obj).IsNil() {
			return nil, fmt.Errorf("manifest: encode object %d: nil object", i)
		}
		data, err := json.Marshal(obj)
		if err != nil {
			return nil, fmt.Errorf("manifest: encode object %d: %w", i, err)
		}
		tree, err := jsonTree(data)
		if err != nil {
			return nil, fmt.Errorf("manifest: encode object %d: %w", i, err)
		}
		if _, ok := tree.(map[string]any); !ok {
			return nil, fmt.Errorf("manifest: encode object %d: JSON form is %T, not an object", i, tree)
		}
		n, err := treeNode(tree)
		if err != nil {
			return nil, fmt.Errorf("manifest: encode object %d: %w", i, err)
		}
		docs = append(docs, n)
	}
	return emit(docs)
}
