// Package report turns simulation results into what people and machines
// read: tables for a terminal (tablewriter, fitted to its width by Fit),
// JSON, JUnit, CSV, Markdown, and self-contained HTML pages (HTML,
// SeedsHTML) with inline SVG charts. It reads results,
// never live simulation objects, and prints nothing that depends on the
// wall clock, file paths or map order, so its output can be a golden file.
package report
