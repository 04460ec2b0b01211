package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/clustersim/clustersim/report/lessons"
	"github.com/clustersim/clustersim/scenarios"
)

// docCommand is a clustersim command line quoted in the README or docs/.
type docCommand struct {
	where string   // file:line
	args  []string // after "clustersim"
}

var (
	docSpan     = regexp.MustCompile("`([^`]+)`")
	placeholder = regexp.MustCompile(`^[A-Z]+$`)
)

// docCommands collects the clustersim command lines of the README's and
// docs' shell blocks and code spans.
func docCommands(t *testing.T) []docCommand {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	files = append([]string{filepath.Join("..", "..", "README.md")}, files...)
	var out []docCommand
	add := func(where, text string) {
		_, cmd, ok := strings.Cut(text, "clustersim ")
		if !ok {
			return
		}
		if c, _, ok := strings.Cut(cmd, " #"); ok {
			cmd = c // a comment
		}
		if c, _, ok := strings.Cut(cmd, ">"); ok {
			cmd = c // a redirection
		}
		out = append(out, docCommand{where: where, args: strings.Fields(cmd)})
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(f, filepath.Join("..", "..")+string(filepath.Separator))
		lines := strings.Split(string(data), "\n")
		var prose []string // prose lines, with their numbers, blank for fences
		for i := 0; i < len(lines); i++ {
			if !strings.HasPrefix(lines[i], "```") {
				prose = append(prose, lines[i])
				continue
			}
			lang := strings.TrimPrefix(lines[i], "```")
			prose = append(prose, "")
			for i++; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
				prose = append(prose, "")
				if lang == "sh" && strings.HasPrefix(strings.TrimSpace(lines[i]), "./bin/clustersim ") {
					add(name+":"+strconv.Itoa(i+1), lines[i])
				}
			}
			prose = append(prose, "")
		}
		text := strings.Join(prose, "\n")
		for _, m := range docSpan.FindAllStringSubmatchIndex(text, -1) {
			span := strings.ReplaceAll(text[m[2]:m[3]], "\n", " ")
			line := strings.Count(text[:m[0]], "\n") + 1
			if strings.HasPrefix(span, "clustersim ") || strings.Contains(span, "./bin/clustersim ") {
				add(name+":"+strconv.Itoa(line), span)
			}
		}
	}
	return out
}

// TestDocCommands runs the commands the README and docs/ quote that name
// a built-in scenario or a lesson, and checks that each exits 0, as the
// text around each implies (an expectation held, a lesson's claims held).
// A command's scenario argument without a dot or a slash is a built-in
// name, so a misspelt one fails here (exit 2) rather than being skipped.
// --seeds is capped at 3 and --plot and --html write into a temporary
// directory, to keep the test fast and the tree clean; a lesson is only looked up, because `make
// lessons-check` (run by CI) runs every lesson on its full seeds and requires exit 0.
func TestDocCommands(t *testing.T) {
	t.Parallel()
	ran := 0
	for _, c := range docCommands(t) {
		if len(c.args) < 2 || !slices.Contains([]string{"run", "explain", "lesson"}, c.args[0]) {
			continue
		}
		arg := c.args[1]
		if strings.HasPrefix(arg, "-") || strings.ContainsAny(arg, "./") || placeholder.MatchString(arg) {
			continue // no scenario, a file, or a placeholder (NAME)
		}
		if slices.ContainsFunc(c.args, placeholder.MatchString) {
			continue // a template (--seeds N), not a command to type as is
		}
		if c.args[0] == "lesson" {
			if _, ok := lessons.Find(arg); !ok {
				t.Errorf("%s: clustersim %s: no lesson %q", c.where, strings.Join(c.args, " "), arg)
			}
			continue
		}
		if c.args[0] == "run" && !scenarios.IsBuiltin(arg) {
			t.Errorf("%s: clustersim %s: no built-in scenario %q", c.where, strings.Join(c.args, " "), arg)
			continue
		}
		args := make([]string, len(c.args))
		copy(args, c.args)
		for i := 1; i < len(args); i++ {
			switch args[i-1] {
			case "--seeds":
				if n, err := strconv.Atoi(args[i]); err == nil && n > 3 {
					args[i] = "3"
				}
			case "--plot":
				args[i] = t.TempDir()
			case "--html":
				args[i] = filepath.Join(t.TempDir(), filepath.Base(args[i]))
			}
		}
		ran++
		t.Logf("%s: clustersim %s", c.where, strings.Join(args, " "))
		if code, _, errOut := runMain(args...); code != exitOK {
			t.Errorf("%s: clustersim %s: exit %d, want %d\n%s", c.where, strings.Join(c.args, " "), code, exitOK, errOut)
		}
	}
	if ran < 10 {
		t.Errorf("ran %d documented commands; the README alone quotes more", ran)
	}
}
