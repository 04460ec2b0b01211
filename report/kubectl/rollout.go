package kubectl

import (
	"bytes"
	"fmt"
	"io"
	"time"

	kubectlcmd "github.com/clustersim/clustersim/scenarios/kubectl"
	"github.com/clustersim/clustersim/sim/api"
)

// RolloutStatus prints what one poll of `kubectl rollout status
// deployment/<name>` prints for d: its waiting or success line, or
// "error: deployment "<name>" exceeded its progress deadline". now is
// the observation time; rollout status prints no ages.
func RolloutStatus(w io.Writer, d *api.Deployment, now time.Time) error {
	if d == nil {
		return fmt.Errorf("%w: rollout status of nothing", ErrUnsupportedKind)
	}
	msg, _, err := kubectlcmd.RolloutStatus(d)
	if err != nil {
		msg = kubectlcmd.ErrorLine(err)
	}
	_, werr := fmt.Fprintln(w, msg)
	return werr
}

// RolloutHistory prints `kubectl rollout history deployment/<name>`: the
// revision table for revision 0, otherwise `kubectl rollout history
// --revision=n`: the name "with revision #n" and the revision's pod
// template as describe prints it, tabs unexpanded as kubectl leaves them. A revision the history lacks fails with
// kubectl's "unable to find the specified revision".
func RolloutHistory(w io.Writer, h *kubectlcmd.History, revision int64) error {
	if h == nil {
		return fmt.Errorf("%w: rollout history of nothing", ErrUnsupportedKind)
	}
	if revision <= 0 {
		for _, l := range h.Lines() {
			if _, err := fmt.Fprintln(w, l); err != nil {
				return err
			}
		}
		return nil
	}
	r, err := h.Revision(revision)
	if err != nil {
		return err
	}
	// kubectl prints the template through a prefix writer without a tab
	// writer: its tabs stay tabs.
	var buf bytes.Buffer
	p := &prefixWriter{w: &buf}
	p.podTemplate(&r.Template)
	_, err = fmt.Fprintf(w, "%s with revision #%d\n%s\n", kubectlcmd.ObjectName(api.KindDeployment, h.Name), revision, buf.String())
	return err
}
