package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"
)

// TestValidateAgreesWithRun: validate checks as a scenario every file
// that run loads as one, however its kind: Scenario is written (CR line
// endings, UTF-16 with a byte order mark, quoted, with a comment, in flow
// style): both accept it, or both refuse it with the same message.
// validate once looked for a line "kind: Scenario" split at LF and
// refused the others as manifests of an unknown kind.
func TestValidateAgreesWithRun(t *testing.T) {
	const body = "apiVersion: clustersim.dev/v1alpha1\nkind: Scenario\nmetadata: {name: sniff}\nspec:\n  duration: 1m\n  cluster:\n    nodeGroups: [{name: w, count: 1, capacity: {cpu: \"2\", memory: 4Gi}}]\n  objects:\n  - {apiVersion: v1, kind: ConfigMap, metadata: {name: c}}\n"
	utf16le := func(s string, bom bool, bigEndian bool) string {
		var b []byte
		units := utf16.Encode([]rune(s))
		if bom {
			units = append([]uint16{0xfeff}, units...)
		}
		for _, u := range units {
			if bigEndian {
				b = append(b, byte(u>>8), byte(u))
			} else {
				b = append(b, byte(u), byte(u>>8))
			}
		}
		return string(b)
	}
	for _, tc := range []struct {
		name, data string
		ok         bool
	}{
		{"LF", body, true},
		{"CR only", strings.ReplaceAll(body, "\n", "\r"), true},
		{"CRLF", strings.ReplaceAll(body, "\n", "\r\n"), true},
		{"UTF-16LE with BOM", utf16le(body, true, false), true},
		{"UTF-16BE with BOM", utf16le(body, true, true), true},
		{"UTF-8 BOM", "\ufeff" + body, true},
		{"quoted kind", strings.Replace(body, "kind: Scenario", `kind: "Scenario"`, 1), true},
		{"kind with a comment", strings.Replace(body, "kind: Scenario", "kind: Scenario # the format", 1), true},
		{"flow style", `{apiVersion: clustersim.dev/v1alpha1, kind: Scenario, metadata: {name: sniff}, spec: {duration: 1m}}`, true},
		{"CR only, invalid", strings.ReplaceAll(strings.Replace(body, "duration: 1m", "duration: soon", 1), "\n", "\r"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "s.yaml")
			if err := os.WriteFile(p, []byte(tc.data), 0o644); err != nil {
				t.Fatal(err)
			}
			vcode, vout, verr := runMain("validate", p)
			rcode, _, rerr := runMain("run", "-q", p)
			if vcode != rcode {
				t.Fatalf("validate exits %d, run %d\nvalidate: %s%s\nrun: %s", vcode, rcode, vout, verr, rerr)
			}
			if tc.ok != (vcode == 0) {
				t.Fatalf("validate exits %d, want success %v: %s%s", vcode, tc.ok, vout, verr)
			}
			if tc.ok && !strings.Contains(vout, "scenario sniff valid") {
				t.Errorf("validate did not check it as a scenario: %s", vout)
			}
			if !tc.ok && verr != rerr {
				t.Errorf("validate says\n%s\nrun says\n%s", verr, rerr)
			}
		})
	}
}
