// Package chart draws the plots of a clustersim report as PNG or SVG
// images: step series over virtual time for one run (GapChart: the gap
// between declared and actual state, and with its YLabel and Spans any
// other count over time, such as pods by phase or writes per actor with
// fights shaded), the distribution of convergence times across seeds
// (Distribution), and grouped bars (Bars: a lesson's figure, design beside
// design). Plain data goes in, image bytes come out; the package knows
// nothing of the simulator.
//
// Imports: the standard library and gonum.org/v1/plot/... only; never a
// package of this module, so a chart cannot reach live simulation state.
//
// Determinism contract: Render is a pure function of its value and Format.
// The same input gives byte-identical output on every call and on every
// machine of the same GOARCH (the compiler may fuse floating-point
// multiply-adds differently on other architectures, which can move a
// coordinate in its last digit). There are no timestamps, no random
// sources and no map iteration in the output; fonts are the Liberation
// fonts compiled into gonum/plot, looked up in a font cache private to this
// package so a change to gonum/plot's global defaults cannot change a
// chart; the canvas is a fixed WidthInch x HeightInch, and PNG images are
// rasterised at DPI. SVG output names its fonts (Liberation Sans, which is
// metric-compatible with Arial) without embedding them.
//
// Bad input (NaN or infinite values, negative times, points out of time
// order, more than the documented limits) is reported as an error wrapping
// ErrData; an unknown format wraps ErrFormat. Nothing panics on bad input,
// and empty input gives an honest empty plot with a note saying so.
package chart
