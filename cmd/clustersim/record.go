package main

import (
	"errors"
	"time"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/apiserver"
)

// recorder keeps the writes made through clustersim serve's API, for
// --record.
type recorder struct {
	s    *scenarios.Scenario
	seed uint64
}

func newRecorder(s *scenarios.Scenario, seed uint64) *recorder { return &recorder{s: s, seed: seed} }

func (r *recorder) write(at time.Duration, req *apiserver.Request) {}

// count is how many accepted writes the serve user made.
func (r *recorder) count(res *runner.Result) int {
	n := 0
	for _, a := range res.Audit {
		if a.Actor == serveUser {
			n++
		}
	}
	return n
}

func (r *recorder) save(path string, end time.Duration) error {
	return errors.New("not implemented yet")
}
