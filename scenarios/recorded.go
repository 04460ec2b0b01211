package scenarios

import (
	"cmp"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/manifest"
)

// WithRecording returns s as a scenario file that replays a session of
// clustersim serve: its seed fixed to seed, its duration the session's
// end (its timeline steps after that left out), its expectations left
// out (the session changed the story they check), the manifests its file references name inlined (so that the
// file stands alone), its fault profiles replaced by the schedule the
// session drew (faults, cut at the original spec.duration, where the
// session's run stopped them), and steps (timeline steps, in time order)
// appended to its timeline.
//
// Without timeline (the session ran with the scenario's timeline left out)
// the file's timeline is the recorded steps alone.
func (s *Scenario) WithRecording(seed uint64, end time.Duration, faults []Fault, timeline bool, recorded []Recorded) ([]byte, error) {
	steps, err := recordedSteps(recorded)
	if err != nil {
		return nil, err
	}
	root, _, spec, err := s.cloneSpec()
	if err != nil {
		return nil, err
	}
	if len(s.Spec.Objects) > 0 {
		objs, err := objectNodes(s.Objects)
		if err != nil {
			return nil, err
		}
		setMapValue(spec, "objects", &yaml.Node{Kind: yaml.SequenceNode, Content: objs})
	}
	keepTimeline := timeline
	tl := mapValue(spec, "timeline")
	if tl == nil {
		tl = &yaml.Node{Kind: yaml.SequenceNode}
		setMapValue(spec, "timeline", tl)
	}
	for i := range s.Spec.Timeline {
		st := &s.Spec.Timeline[i]
		if i >= len(tl.Content) {
			break
		}
		var parsed []api.Object
		var action string
		switch {
		case st.Apply != nil && st.Apply.File != "":
			parsed, action = st.Apply.Parsed, "apply"
		case st.ServerSideApply != nil && st.ServerSideApply.File != "":
			parsed, action = st.ServerSideApply.Parsed, "serverSideApply"
		default:
			continue
		}
		objs, err := objectNodes(parsed)
		if err != nil {
			return nil, err
		}
		a := mapValue(tl.Content[i], action)
		deleteMapKey(a, "file")
		setMapValue(a, "objects", &yaml.Node{Kind: yaml.SequenceNode, Content: objs})
	}
	if ref := fileRef(spec, "spec"); ref != "" {
		return nil, fmt.Errorf("scenario %s: %s names a file that a recording cannot carry; inline it to record this scenario", s.Metadata.Name, ref)
	}
	if s.Spec.Faults != nil {
		target, err := FaultTarget(s)
		if err != nil {
			return nil, err
		}
		var kept []Fault
		for _, f := range faults {
			if f.At.Duration > s.Spec.Duration.Duration {
				continue
			}
			if f.For.Duration > 0 && f.End() > s.Spec.Duration.Duration {
				f.For.Duration = s.Spec.Duration.Duration - f.At.Duration
			}
			kept = append(kept, f)
		}
		fn, err := s.faultsNode(target, kept)
		if err != nil {
			return nil, err
		}
		setMapValue(spec, "faults", fn)
	}
	// The steps the session never reached are left out: the file's
	// duration ends where the session did.
	var kept []*yaml.Node
	users := map[string]bool{}
	for _, rc := range recorded {
		users["user/"+rc.As] = true
	}
	for i, n := range tl.Content {
		if keepTimeline && (i >= len(s.Spec.Timeline) || s.Spec.Timeline[i].At.Duration <= end) {
			kept = append(kept, n)
			if i < len(s.Spec.Timeline) {
				users["user/"+cmp.Or(s.Spec.Timeline[i].As, "admin")] = true
			}
		}
	}
	tl.Content = append(kept, steps...)
	dropDeadUserLinks(spec, users)
	deleteMapKey(spec, "expect")
	setMapValue(spec, "seed", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatUint(seed, 10)})
	setMapValue(spec, "duration", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: end.String()})
	return encodeRoot(root)
}

// Recorded is one request a session made: a request step (its Object
// left nil: Request.Parsed carries the body).
type Recorded struct {
	At      time.Duration
	As      string
	Request Request
}

// recordedSteps encodes recorded requests as timeline steps.
func recordedSteps(recorded []Recorded) ([]*yaml.Node, error) {
	var out []*yaml.Node
	for _, rc := range recorded {
		rq := rc.Request
		rq.Object = nil
		// Through JSON, so that the keys are the file's (json tags).
		data, err := json.Marshal(&rq)
		if err != nil {
			return nil, err
		}
		var fields map[string]any
		if err := json.Unmarshal(data, &fields); err != nil {
			return nil, err
		}
		var step yaml.Node
		if err := step.Encode(map[string]any{"at": rc.At.String(), "as": rc.As, "request": fields}); err != nil {
			return nil, err
		}
		if rq.Parsed != nil {
			objs, err := objectNodes([]api.Object{rq.Parsed})
			if err != nil {
				return nil, err
			}
			reqNode := mapValue(&step, "request")
			reqNode.Content = append(reqNode.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "object"}, objs[0])
		}
		out = append(out, &step)
	}
	return out, nil
}

// objectNodes encodes objects as inline manifests.
func objectNodes(objs []api.Object) ([]*yaml.Node, error) {
	var out []*yaml.Node
	for _, o := range objs {
		data, err := manifest.Encode(o)
		if err != nil {
			return nil, err
		}
		var n yaml.Node
		if err := yaml.Unmarshal(data, &n); err != nil {
			return nil, err
		}
		if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
			out = append(out, n.Content[0])
		}
	}
	return out, nil
}

// fileRef returns the path of the first "file" or "csv" key left under n
// outside inline manifests, or "".
func fileRef(n *yaml.Node, path string) string {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i].Value
			if k == "file" || k == "csv" {
				return path + "." + k
			}
			if k == "objects" {
				continue // inline manifests, whose own keys are data
			}
			if r := fileRef(n.Content[i+1], path+"."+k); r != "" {
				return r
			}
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			if r := fileRef(c, fmt.Sprintf("%s[%d]", path, i)); r != "" {
				return r
			}
		}
	}
	return ""
}

// deleteMapKey removes key from the mapping m.
func deleteMapKey(m *yaml.Node, key string) {
	if m == nil || m.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content = append(m.Content[:i:i], m.Content[i+2:]...)
			return
		}
	}
}

// dropDeadUserLinks removes the network links of spec that name a user
// (from or to user/...) whom no step of the recording acts as: the steps
// left out took that user with them, a link to no endpoint is an error
// when the file loads, and a link no traffic matches changes nothing.
func dropDeadUserLinks(spec *yaml.Node, users map[string]bool) {
	links := mapValue(mapValue(spec, "network"), "links")
	if links == nil || links.Kind != yaml.SequenceNode {
		return
	}
	live := func(pattern string) bool {
		if !strings.HasPrefix(pattern, "user/") {
			return true
		}
		for u := range users {
			if MatchEndpoint(pattern, u) {
				return true
			}
		}
		return false
	}
	var kept []*yaml.Node
	var dropped []string
	for _, l := range links.Content {
		from, to := mapValue(l, "from"), mapValue(l, "to")
		if from != nil && !live(from.Value) || to != nil && !live(to.Value) {
			dropped = append(dropped, fmt.Sprintf("%s -> %s", from.Value, to.Value))
			continue
		}
		kept = append(kept, l)
	}
	links.Content = kept
	if len(dropped) > 0 {
		// Said in the file, not dropped silently.
		links.HeadComment = "left out, as no step of this recording acts as their user: " + strings.Join(dropped, ", ")
	}
}
