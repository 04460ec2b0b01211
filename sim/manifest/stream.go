package manifest

import (
	"bytes"
	"fmt"
	"io"

	"gopkg.in/yaml.v3"
)

// documents calls fn with the root node of every non-empty document of the
// YAML stream data, in order, parsing each document only after the previous
// one was handled so that the first error in document order is the one
// returned. Empty documents (nothing, a comment, a bare `---`) are skipped.
func documents(file string, data []byte, fn func(root *yaml.Node) error) error {
	// yaml.v3 reports a bad character at line 1, without a column.
	if e := checkText(file, data); e != nil {
		return e
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var doc yaml.Node
		err := parse(dec, &doc)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			if e, ok := err.(*Error); ok {
				e.File = file
				return e
			}
			return syntaxError(file, data, err)
		}
		if len(doc.Content) == 0 || isNull(doc.Content[0]) {
			continue
		}
		if err := fn(doc.Content[0]); err != nil {
			return err
		}
	}
}

// parse reads the next document. yaml.v3 turns its own failures into errors,
// but re-panics anything else ("internal error ... please report"); such a
// panic is a yaml.v3 bug triggered by bad input, so it becomes an *Error
// rather than crashing the caller.
func parse(dec *yaml.Decoder, doc *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &Error{Msg: fmt.Sprintf("yaml parser failed: %v", r)}
		}
	}()
	return dec.Decode(doc)
}

// Documents parses a YAML stream into the root nodes of its non-empty
// documents, for formats other than manifests (scenario files) that decode
// them with DecodeNode. Syntax errors are *Error values naming file and
// line (and column where it can be found).
func Documents(file string, data []byte) ([]*yaml.Node, error) {
	var roots []*yaml.Node
	err := documents(file, data, func(root *yaml.Node) error {
		roots = append(roots, root)
		return nil
	})
	return roots, err
}
