package scenarios

import (
	"fmt"
	"io/fs"
	"path/filepath"
)

// OpenSourceData is OpenSource for a scenario whose text was read from
// elsewhere (standard input, named name in messages): its relative file
// references resolve against dir, an absolute directory that must lie
// inside opts.Root (default: dir itself), as a file's do against its own
// directory. The caller reads data under the file-bytes cap (ReadAll).
func OpenSourceData(name string, data []byte, dir string, opts Options) (*Source, error) {
	lim := opts.Limits.WithDefaults()
	root := dir
	if opts.Root != "" {
		var err error
		if root, err = filepath.Abs(opts.Root); err != nil {
			return nil, err
		}
	}
	rel, err := filepath.Rel(root, dir)
	if err != nil || !fs.ValidPath(filepath.ToSlash(rel)) {
		return nil, fmt.Errorf("%s: the current directory is not inside --root %s", name, opts.Root)
	}
	return &Source{Name: name, data: data, dir: filepath.ToSlash(rel), root: root, rootDir: opts.Root, limits: lim, users: opts.Users}, nil
}
