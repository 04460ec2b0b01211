// Command clustersim runs the discrete-event simulator of a Kubernetes-like
// control plane.
//
//	clustersim run [--seed N] [--duration D] [-o table|json]
//	clustersim validate FILE...
//
// Exit codes: 0 success, 1 an expectation failed (or the run did not
// converge), 2 bad input or usage, 3 an internal invariant of the
// simulator broke (a bug: the seed to replay it is printed).
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/pflag"

	"github.com/clustersim/clustersim/report"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/manifest"
)

// Exit codes.
const (
	exitOK       = 0
	exitFailed   = 1
	exitBadInput = 2
	exitInternal = 3
)

const usage = `clustersim simulates a Kubernetes-like control plane on a virtual clock.

Usage:
  clustersim run [flags]          run the built-in runtime demo
  clustersim validate FILE...     check Kubernetes manifests strictly
  clustersim help                 show this help

Run "clustersim COMMAND --help" for a command's flags.
`

func main() {
	os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr))
}

// Main runs the command line args and returns the exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return run(nil, stdout, stderr)
	}
	switch args[0] {
	case "run":
		return run(args[1:], stdout, stderr)
	case "validate":
		return validate(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "clustersim: unknown command %q\n\n%s", args[0], usage)
	return exitBadInput
}

// run runs the built-in demo.
func run(args []string, stdout, stderr io.Writer) (code int) {
	fs := pflag.NewFlagSet("clustersim run", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	seed := fs.Uint64("seed", 1, "root seed of the run's random streams")
	duration := fs.Duration("duration", 10*time.Minute, "virtual time to simulate")
	output := fs.StringP("output", "o", "table", "output format: table or json")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return exitOK
		}
		return exitBadInput
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "clustersim run: unexpected argument %q (scenario files come with the control-plane release)\n", fs.Arg(0))
		return exitBadInput
	}
	if *output != "table" && *output != "json" {
		fmt.Fprintf(stderr, "clustersim run: -o %q: want table or json\n", *output)
		return exitBadInput
	}
	if *duration < 3*time.Minute {
		fmt.Fprintf(stderr, "clustersim run: --duration %v: the demo needs at least 3m\n", *duration)
		return exitBadInput
	}
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "clustersim: internal error (seed %d): %v\n", *seed, r)
			code = exitInternal
		}
	}()
	res, err := cluster.RunDemo(cluster.DemoConfig{Seed: *seed, Duration: *duration})
	if err != nil {
		fmt.Fprintf(stderr, "clustersim run: %v\n", err)
		return exitBadInput
	}
	if *output == "json" {
		err = report.DemoJSON(stdout, res)
	} else {
		err = report.Demo(stdout, res)
	}
	if err != nil {
		fmt.Fprintf(stderr, "clustersim run: %v\n", err)
		return exitInternal
	}
	if res.Published != res.Namespaces {
		return exitFailed
	}
	return exitOK
}

// validate loads every manifest file strictly and checks each object as
// the API server would; it reports every bad file and exits 2 if any.
func validate(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("clustersim validate", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return exitOK
		}
		return exitBadInput
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "clustersim validate: name at least one file")
		return exitBadInput
	}
	code := exitOK
	for _, path := range fs.Args() {
		objs, err := manifest.DecodeFileLocated(path)
		if err != nil {
			fmt.Fprintln(stderr, err)
			code = exitBadInput
			continue
		}
		bad := false
		for _, o := range objs {
			err := apiserver.Validate(o.Object, nil)
			if err == nil {
				continue
			}
			bad = true
			var se *apierr.StatusError
			if errors.As(err, &se) && len(se.Causes) > 0 {
				// Point at the first offending field in the source.
				line, col := o.Position(se.Causes[0].Field)
				fmt.Fprintf(stderr, "%s:%d:%d: %s: %v\n", path, line, col, se.Causes[0].Field, err)
				continue
			}
			fmt.Fprintf(stderr, "%s: %v\n", path, err)
		}
		if bad {
			code = exitBadInput
			continue
		}
		fmt.Fprintf(stdout, "%s: %d object(s) valid\n", path, len(objs))
	}
	return code
}
