package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// writeHTML renders a self-contained HTML report and writes it to path
// ("-" for stdout), naming the file on stderr (reports never carry
// paths).
func writeHTML(path string, stdout, stderr io.Writer, render func(io.Writer) error) error {
	var buf bytes.Buffer
	if err := render(&buf); err != nil {
		return err
	}
	if path == "-" {
		_, err := stdout.Write(buf.Bytes())
		return err
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "wrote %s\n", path)
	return nil
}
