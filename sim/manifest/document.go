package manifest

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// DocumentJSON is the one document of a YAML (or JSON) body as JSON,
// scalars typed by their YAML tags and keys sorted: what an API server's
// YAML decoder makes of a request body before decoding it, for a caller
// that reads JSON (clustersim serve's field validation). A body that
// does not parse, holds a duplicate key or more than one document is an
// error, as Decode words it.
func DocumentJSON(file string, data []byte) ([]byte, error) {
	var out []byte
	n := 0
	err := documents(file, data, func(root *yaml.Node) error {
		if n++; n > 1 {
			return &Error{File: file, Line: root.Line, Column: root.Column, Msg: "a second document: want one"}
		}
		d := &decoder{file: file}
		var err error
		out, err = d.toJSON(nil, root)
		return err
	})
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, fmt.Errorf("%s: no document", file)
	}
	return out, nil
}
