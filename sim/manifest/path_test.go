package manifest

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestParsePath: the forms a field path may take, and the refusals with
// where they point. Planted: splitting bracketed keys at their dots (the
// old SplitPath) failed the annotation rows.
func TestParsePath(t *testing.T) {
	for _, tc := range []struct {
		path string
		want []string
		err  string // the message's start; "" when it parses
		at   int    // the offset the error points at
	}{
		{"spec.replicas", []string{"spec", "replicas"}, "", 0},
		{"spec.template.spec.containers[nginx].image", []string{"spec", "template", "spec", "containers", "nginx", "image"}, "", 0},
		{"status.conditions[Progressing].reason", []string{"status", "conditions", "Progressing", "reason"}, "", 0},
		{"spec.containers[0][1]", []string{"spec", "containers", "0", "1"}, "", 0},
		{"metadata.annotations[deployment.kubernetes.io/revision]", []string{"metadata", "annotations", "deployment.kubernetes.io/revision"}, "", 0},
		{"metadata.annotations['deployment.kubernetes.io/revision']", []string{"metadata", "annotations", "deployment.kubernetes.io/revision"}, "", 0},
		{`metadata.labels["app.kubernetes.io/name"]`, []string{"metadata", "labels", "app.kubernetes.io/name"}, "", 0},
		{`metadata.annotations.deployment\.kubernetes\.io/revision`, []string{"metadata", "annotations", "deployment.kubernetes.io/revision"}, "", 0},
		{`metadata.labels['a]b']`, []string{"metadata", "labels", "a]b"}, "", 0},
		{`data[a.b].x`, []string{"data", "a.b", "x"}, "", 0},
		{"", nil, "empty path", 0},
		{"spec..replicas", nil, "empty field name", 5},
		{".spec", nil, "empty field name", 0},
		{"spec.", nil, "the path ends with '.'", 4},
		{"metadata.annotations[deployment.kubernetes.io/revision", nil, "unclosed '['", 20},
		{"metadata.annotations['x]", nil, "unclosed quote '", 21},
		{"metadata.annotations['x'y]", nil, "a quoted key ends with ']'", 24},
		{"metadata.annotations[]", nil, "empty key in brackets", 20},
		{"spec.containers[0]image", nil, "after ']' comes", 18},
		{"spec]", nil, "']' without '['", 4},
		{`spec.a\`, nil, `the path ends with '\'`, 6},
		{"spec.[x]", nil, "empty field name", 5},
	} {
		t.Run(tc.path, func(t *testing.T) {
			got, err := ParsePath(tc.path)
			if tc.err == "" {
				if err != nil || !slices.Equal(got, tc.want) {
					t.Fatalf("ParsePath(%q) = %q, %v; want %q", tc.path, got, err, tc.want)
				}
				if again, err := ParsePath(FormatPath(got)); err != nil || !slices.Equal(again, got) {
					t.Errorf("FormatPath %q reads back as %q, %v", FormatPath(got), again, err)
				}
				if split := SplitPath(tc.path); !slices.Equal(split, got) {
					t.Errorf("SplitPath(%q) = %q, ParsePath %q", tc.path, split, got)
				}
				return
			}
			var pe *PathError
			if !errors.As(err, &pe) || !strings.HasPrefix(pe.Msg, tc.err) || pe.Offset != tc.at {
				t.Fatalf("ParsePath(%q) error %v, want %q at %d", tc.path, err, tc.err, tc.at)
			}
		})
	}
}

// FuzzParsePath checks the path parser on any input: it never panics; a
// refusal is a *PathError whose offset lies inside the path or just
// after its end; an accepted
// path has no empty segment, reads back to the same segments through
// FormatPath, and SplitPath (the lenient splitter Position and the checks
// use) agrees with it.
func FuzzParsePath(f *testing.F) {
	for _, s := range []string{"spec.replicas", "metadata.annotations[deployment.kubernetes.io/revision]",
		`metadata.annotations.deployment\.kubernetes\.io/revision`, "a['b]c'].d", `x["y"][0]`, "a[", "a..b", `a\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		segs, err := ParsePath(path)
		if err != nil {
			var pe *PathError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T is not a *PathError: %v", err, err)
			}
			if pe.Offset < 0 || pe.Offset > len(path) {
				t.Fatalf("offset %d outside %q", pe.Offset, path)
			}
			_ = SplitPath(path) // lenient: must not panic either
			return
		}
		if len(segs) == 0 {
			t.Fatalf("%q parsed to no segment", path)
		}
		for _, s := range segs {
			if s == "" {
				t.Fatalf("%q parsed to an empty segment: %q", path, segs)
			}
		}
		again, err := ParsePath(FormatPath(segs))
		if err != nil || !slices.Equal(again, segs) {
			t.Fatalf("%q -> %q -> %q -> %q, %v", path, segs, FormatPath(segs), again, err)
		}
		if split := SplitPath(path); !slices.Equal(split, segs) {
			t.Fatalf("SplitPath(%q) = %q, ParsePath %q", path, split, segs)
		}
	})
}
