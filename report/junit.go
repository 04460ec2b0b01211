package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"

	"github.com/clustersim/clustersim/scenarios/runner"
)

// junitSuites is JUnit XML's root element as CI systems (Jenkins, GitLab,
// GitHub test reporters) read it.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

// junitSuite is one seed's run.
type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

// junitCase is one expectation of one seed.
type junitCase struct {
	ClassName string        `xml:"classname,attr"`
	Name      string        `xml:"name,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// JUnit writes runs as JUnit XML: one test suite per seed and one test
// case per expectation, failed cases carrying the expectation's detail
// and the command that replays the seed. Times are virtual, so the report
// has no time attributes and is the same on every machine.
func JUnit(w io.Writer, results []*runner.Result) error {
	root := junitSuites{Name: "clustersim"}
	for _, r := range results {
		suite := junitSuite{
			Name: fmt.Sprintf("%s seed %d", r.Scenario, r.Seed),
			Properties: []junitProperty{
				{Name: "scenario", Value: r.Scenario},
				{Name: "seed", Value: strconv.FormatUint(r.Seed, 10)},
				{Name: "virtualDuration", Value: r.Duration.String()},
				{Name: "trace", Value: r.TraceHash},
			},
		}
		class := fmt.Sprintf("%s.seed-%d", r.Scenario, r.Seed)
		for _, o := range r.Expectations {
			c := junitCase{ClassName: class, Name: o.Name}
			if o.Passed {
				c.SystemOut = o.Detail
			} else {
				c.Failure = &junitFailure{
					Message: o.Detail,
					Type:    "ExpectationFailed",
					Text:    fmt.Sprintf("%s\nreplay: run scenario %s with --seed %d\n", o.Detail, r.Scenario, r.Seed),
				}
				suite.Failures++
			}
			suite.Tests++
			suite.Cases = append(suite.Cases, c)
		}
		root.Tests += suite.Tests
		root.Failures += suite.Failures
		root.Suites = append(root.Suites, suite)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(root); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
