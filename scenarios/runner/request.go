package runner

import (
	"fmt"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/kubectl"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/netsim"
	"github.com/clustersim/clustersim/sim/store"
)

var requestVerbs = map[string]apiserver.Verb{"create": apiserver.Create, "update": apiserver.Update, "patch": apiserver.Patch, "apply": apiserver.Apply, "delete": apiserver.Delete}

var patchTypes = map[string]apiserver.PatchType{"merge": apiserver.MergePatch, "strategic": apiserver.StrategicMergePatch, "json": apiserver.JSONPatch}

// request sends a request step's API request as it is, as the step's
// user, from a process of its own: the way clustersim serve sent it (its
// Gateway spawns the same process at the same instant), so that a
// recording replays to the same state.
func (r *run) request(i int, st *scenarios.Step) {
	rq := st.Request
	user := userName(st.As)
	r.user(st.As)
	tr := r.c.Transport(netsim.Addr("user/" + user))
	kind := api.KindFor(rq.APIVersion, rq.Kind)
	req := &apiserver.Request{Verb: requestVerbs[rq.Verb], Kind: kind, Namespace: rq.Namespace, Name: rq.Name, Subresource: rq.Subresource,
		Actor: user, FieldManager: rq.FieldManager, Force: rq.Force, PatchType: patchTypes[rq.PatchType], FieldValidation: rq.FieldValidation}
	if rq.Patch != "" {
		req.Patch = []byte(rq.Patch)
	}
	if rq.Parsed != nil {
		req.Object = rq.Parsed.DeepCopyObject()
	}
	if req.Verb == apiserver.Delete {
		req.DeleteOptions = store.DeleteOptions{Propagation: store.Propagation(rq.Propagation), GracePeriodSeconds: rq.GracePeriodSeconds,
			PreconditionUID: api.UID(rq.PreconditionUID), PreconditionResourceVersion: rq.PreconditionResourceVersion}
	}
	name := rq.Name
	if name == "" && rq.Parsed != nil {
		name = rq.Parsed.GetObjectMeta().Name
	}
	cmd := fmt.Sprintf("%s %s %s", rq.Verb, typed(kind), name)
	if rq.Subresource != "" {
		cmd += " (" + rq.Subresource + ")"
	}
	at := st.At.Duration
	r.c.Go(fmt.Sprintf("user/%s/step-%d", user, i), func(p *kernel.Process) {
		resp := tr.Do(p, req)
		e := Entry{At: at, Command: cmd}
		switch {
		case resp.Err != nil:
			e.Err = kubectl.ErrorLine(resp.Err)
		case resp.Object != nil:
			m := resp.Object.GetObjectMeta()
			e.Lines = []string{fmt.Sprintf("%s/%s: resourceVersion %s", typed(kind), m.Name, m.ResourceVersion)}
		}
		r.record(e)
	})
}
