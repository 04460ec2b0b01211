package scenarios

// OpenSourceData is OpenSource for a scenario whose text was read from
// elsewhere (standard input, named name in messages): its relative file
// references resolve against dir, an absolute directory that must lie
// inside opts.Root (default: dir itself), as a file's do against its own
// directory. The caller reads data under the file-bytes cap (ReadAll).
func OpenSourceData(name string, data []byte, dir string, opts Options) (*Source, error) {
	return sourceAt(name, data, dir, "the current directory", opts)
}
