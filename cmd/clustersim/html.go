package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// writeHTML renders a self-contained HTML report into the file at path
// and names it on stderr (reports never carry paths). Standard output
// holds the text report, so "-" is refused rather than mixed into it.
func writeHTML(path string, stderr io.Writer, render func(io.Writer) error) error {
	if path == "-" {
		return errHTMLStdout
	}
	var buf bytes.Buffer
	if err := render(&buf); err != nil {
		return err
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "wrote %s\n", path)
	return nil
}
