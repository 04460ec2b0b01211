package chart

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// Format is an image format: PNG or SVG.
type Format string

const (
	// PNG is a raster image of WidthInch x HeightInch at DPI dots per inch.
	PNG Format = "png"
	// SVG is a vector image of WidthInch x HeightInch, fonts not embedded.
	SVG Format = "svg"
)

// ErrFormat is wrapped by every error about an unknown image format.
var ErrFormat = errors.New("chart: unknown image format")

// ErrData is wrapped by every error about input that cannot be plotted:
// NaN, infinite or too large values, negative times, points out of time
// order, or more series, marks, points or bins than the limits allow.
var ErrData = errors.New("chart: data cannot be plotted")

// String returns the format's name as used in file extensions ("png").
func (f Format) String() string { return string(f) }

// valid reports whether f is one of the supported formats.
func (f Format) valid() bool { return f == PNG || f == SVG }

// ParseFormat returns the Format named by s: "png" or "svg", in any case,
// with or without a leading dot.
func ParseFormat(s string) (Format, error) {
	f := Format(strings.ToLower(strings.TrimPrefix(s, ".")))
	if !f.valid() {
		return "", fmt.Errorf("%w %q (want png or svg)", ErrFormat, s)
	}
	return f, nil
}

// FormatFromPath returns the Format named by the extension of path (".png"
// or ".svg", in any case).
func FormatFromPath(path string) (Format, error) {
	ext := filepath.Ext(path)
	f := Format(strings.ToLower(strings.TrimPrefix(ext, ".")))
	if ext == "" || !f.valid() {
		return "", fmt.Errorf("%w: %q has extension %q (want .png or .svg)", ErrFormat, path, ext)
	}
	return f, nil
}
