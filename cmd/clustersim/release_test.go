package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestReleaseTable reads docs/kubernetes-release.md: it must name the
// pinned release, and every row of its Messages table must give a text
// that the clustersim file the row names holds word for word, so that the
// table cannot drift from the code (a message changed in the code and not
// in the table, or the other way round, fails here).
func TestReleaseTable(t *testing.T) {
	root := filepath.Join("..", "..")
	doc, err := os.ReadFile(filepath.Join(root, "docs", "kubernetes-release.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "**"+api.KubernetesRelease+"**") {
		t.Errorf("docs/kubernetes-release.md does not name the release %s", api.KubernetesRelease)
	}
	_, messages, ok := strings.Cut(string(doc), "\n## Messages\n")
	if !ok {
		t.Fatal("docs/kubernetes-release.md has no Messages section")
	}
	messages, _, _ = strings.Cut(messages, "\n## ")
	rows := 0
	for line := range strings.SplitSeq(messages, "\n") {
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) != 4 || !strings.HasPrefix(cells[1], "`") {
			continue
		}
		rows++
		text := strings.Trim(cells[1], "`")
		file := cells[3]
		src, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			t.Errorf("row %q: %v", text, err)
			continue
		}
		if !strings.Contains(string(src), text) {
			t.Errorf("row %q: %s does not hold that text", text, file)
		}
	}
	if rows < 20 {
		t.Errorf("%d message rows read, want at least 20", rows)
	}
}
