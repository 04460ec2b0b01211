package main

import (
	"fmt"
	"os"
	"time"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apiserver"
)

// recorder keeps the writes made through clustersim serve's API as
// request steps, for --record.
type recorder struct {
	s     *scenarios.Scenario
	seed  uint64
	kinds *api.Registry
	steps []scenarios.Recorded
	// timeline is false when serve left the scenario's timeline out.
	timeline bool
	err      error // the first write that could not be recorded
}

func newRecorder(s *scenarios.Scenario, seed uint64, kinds *api.Registry, timeline bool) *recorder {
	return &recorder{s: s, seed: seed, kinds: kinds, timeline: timeline}
}

var verbNames = map[apiserver.Verb]string{apiserver.Create: "create", apiserver.Update: "update", apiserver.Patch: "patch", apiserver.Apply: "apply", apiserver.Delete: "delete"}

var patchTypeNames = map[apiserver.PatchType]string{apiserver.MergePatch: "merge", apiserver.StrategicMergePatch: "strategic", apiserver.JSONPatch: "json"}

// write records one write request at its virtual time, as a request
// step run as the serve user. It runs on the simulation's goroutine,
// before the request is sent.
func (r *recorder) write(at time.Duration, req *apiserver.Request) {
	if r.err != nil {
		return
	}
	info, ok := r.kinds.Lookup(req.Kind)
	if !ok {
		r.err = fmt.Errorf("a write to kind %s, which the server does not serve", req.Kind)
		return
	}
	rq := scenarios.Request{Verb: verbNames[req.Verb], APIVersion: info.APIVersion(), Kind: info.Kind.Name,
		Namespace: req.Namespace, Name: req.Name, Subresource: req.Subresource, FieldManager: req.FieldManager, Force: req.Force}
	if req.Verb == apiserver.Patch {
		// The directive goes with the patch: the replay drops (or
		// refuses) the same fields serve did. A create's or update's
		// object is recorded as serve sent it, its unknown fields
		// already dropped.
		rq.PatchType, rq.Patch, rq.FieldValidation = patchTypeNames[req.PatchType], string(req.Patch), req.FieldValidation
	}
	if req.Verb == apiserver.Delete {
		o := req.DeleteOptions
		rq.Propagation, rq.GracePeriodSeconds = string(o.Propagation), o.GracePeriodSeconds
		rq.PreconditionUID, rq.PreconditionResourceVersion = string(o.PreconditionUID), o.PreconditionResourceVersion
	}
	if req.Object != nil {
		// The request is sent right after: keep a copy of its body.
		rq.Parsed = req.Object.DeepCopyObject()
	}
	r.steps = append(r.steps, scenarios.Recorded{At: at, As: serveUser, Request: rq})
}

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

// save writes the scenario with the recorded steps, ending where res
// ended.
func (r *recorder) save(path string, res *runner.Result) error {
	if r.err != nil {
		return r.err
	}
	data, err := r.s.WithRecording(r.seed, res.Duration, res.Faults, r.timeline, r.steps)
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
