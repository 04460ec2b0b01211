package scenarios

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoad checks that loading any input never panics and fails only with
// an *Error (or a file-system error for a reference it cannot read).
func FuzzLoad(f *testing.F) {
	for _, name := range BuiltinNames() {
		data, err := fs.ReadFile(builtinFS, "builtin/"+name+".yaml")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "broken-scenarios", "*.yaml"))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Load("fuzz.yaml", "builtin", builtinFS, data)
		if err == nil {
			if s == nil || s.Metadata.Name == "" {
				t.Fatalf("Load accepted a scenario without a name")
			}
			return
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("Load error %T is not a *scenarios.Error: %v", err, err)
		}
	})
}
