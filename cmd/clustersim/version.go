package main

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/clustersim/clustersim/report/lessons"
	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/sim/api"
)

// version prints the module version and, when the build recorded them,
// the commit and whether the tree was modified, with the Go version.
func version(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("clustersim version", stderr)
	if c, done := parse(fs, args); done {
		return c
	}
	if fs.NArg() > 0 {
		return usageError(fs, "unexpected argument %q", fs.Arg(0))
	}
	fmt.Fprintln(stdout, versionLine())
	return exitOK
}

// versionLine is "clustersim VERSION (commit REV[, modified]) GOVERSION,
// simulating Kubernetes RELEASE": the last part names the one release
// whose defaults and messages the simulator follows.
func versionLine() string {
	return buildLine() + ", simulating Kubernetes " + api.KubernetesRelease
}

// buildLine is "clustersim VERSION (commit REV[, modified]) GOVERSION".
func buildLine() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "clustersim (unknown version)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	line := "clustersim " + v
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev != "" {
		line += " (commit " + rev[:min(12, len(rev))]
		if modified == "true" {
			line += ", modified"
		}
		line += ")"
	}
	return line + " " + bi.GoVersion
}

// Completion scripts ask clustersim itself what may come next
// (clustersim __complete WORDS...), so they know every command, flag,
// built-in scenario and lesson of the binary they complete; where it
// offers nothing (a file argument), the shell completes file names.
var completionScripts = map[string]string{
	"bash": `# clustersim completion for bash: source <(clustersim completion bash)
_clustersim() {
  local IFS=$'\n'
  COMPREPLY=($(clustersim __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
}
complete -o default -F _clustersim clustersim
`,
	"zsh": `#compdef clustersim
# clustersim completion for zsh: source <(clustersim completion zsh)
_clustersim() {
  local -a c
  c=("${(@f)$(clustersim __complete "${(@)words[2,CURRENT]}" 2>/dev/null)}")
  if [[ -n "${c[1]}" ]]; then compadd -a c; else _files; fi
}
compdef _clustersim clustersim
`,
	"fish": `# clustersim completion for fish: clustersim completion fish | source
complete -c clustersim -a '(clustersim __complete (commandline -opc)[2..-1] (commandline -ct))'
`,
}

// completion prints a shell's completion script.
func completion(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("clustersim completion", stderr)
	if c, done := parse(fs, args); done {
		return c
	}
	script, ok := completionScripts[fs.Arg(0)]
	if fs.NArg() != 1 || !ok {
		return usageError(fs, "name one shell: bash, zsh or fish")
	}
	fmt.Fprint(stdout, script)
	return exitOK
}

// commands are the commands completion offers.
var commands = []string{"run", "validate", "list", "explain", "lesson", "compare", "sweep", "merge", "demo", "generate", "version", "completion", "help"}

// complete prints, one a line, what may replace the last of words (the
// words after "clustersim", the last one being typed).
func complete(words []string, stdout io.Writer) int {
	if len(words) == 0 {
		words = []string{""}
	}
	cur := words[len(words)-1]
	var out []string
	switch {
	case len(words) == 1:
		out = commands
	case strings.HasPrefix(cur, "-"):
		out = flagNames(words[0])
	default:
		out = argumentsOf(words[0], words[len(words)-2])
	}
	seen := map[string]bool{}
	for _, c := range out {
		if strings.HasPrefix(c, cur) && !seen[c] {
			seen[c] = true
			fmt.Fprintln(stdout, c)
		}
	}
	return exitOK
}

// argumentsOf is what may follow prev as an argument of cmd.
func argumentsOf(cmd, prev string) []string {
	if prev == "-o" || prev == "--output" {
		switch cmd {
		case "run":
			return outputFormats
		case "lesson", "lessons":
			return []string{"table", "wide", "markdown"}
		case "demo":
			return []string{"table", "json"}
		case "sweep":
			return sweepFormats
		}
	}
	if strings.HasPrefix(prev, "-") && !slices.Contains(boolFlags(cmd), prev) {
		return nil // a flag's value: a number, a duration, a file
	}
	switch cmd {
	case "run":
		return scenarios.BuiltinNames()
	case "explain", "lesson", "lessons":
		var out []string
		for _, l := range lessons.All() {
			out = append(out, strconv.Itoa(l.Number), l.Slug)
		}
		return append(out, scenarios.BuiltinNames()...)
	case "completion":
		return []string{"bash", "fish", "zsh"}
	case "generate":
		return []string{"scale"}
	}
	return nil
}

// flagLine finds a flag in pflag's usage: "  -o, --output string   ...".
var flagLine = regexp.MustCompile(`(?m)^\s+(?:-(\w), )?--([\w-]+)( \w+)?`)

// flagNames are cmd's flags, as its --help lists them.
func flagNames(cmd string) []string {
	var out []string
	for _, m := range flagLine.FindAllStringSubmatch(helpOf(cmd), -1) {
		out = append(out, "--"+m[2])
		if m[1] != "" {
			out = append(out, "-"+m[1])
		}
	}
	return out
}

// boolFlags are cmd's flags that take no value.
func boolFlags(cmd string) []string {
	var out []string
	for _, m := range flagLine.FindAllStringSubmatch(helpOf(cmd), -1) {
		if m[3] == "" {
			out = append(out, "--"+m[2])
			if m[1] != "" {
				out = append(out, "-"+m[1])
			}
		}
	}
	return out
}

// helpOf is cmd's --help text (its flags, by pflag), or "" for an
// unknown command.
func helpOf(cmd string) string {
	if !slices.Contains(commands, cmd) && cmd != "lessons" || cmd == "help" {
		return ""
	}
	var help bytes.Buffer
	Main([]string{cmd, "--help"}, io.Discard, &help)
	return help.String()
}
