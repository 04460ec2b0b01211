package imperative

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
)

// Defaults of Options.
const (
	// DefaultRetries is how many times a timed-out command is sent again.
	DefaultRetries = 3
	// DefaultBackoff is the wait before the first retry.
	DefaultBackoff = time.Second
	// DefaultFactor multiplies the wait before each further retry.
	DefaultFactor = 2.0
	// DefaultMaxBackoff caps the wait between retries.
	DefaultMaxBackoff = 30 * time.Second
	// DefaultConflictRetries is how many times a write that failed with
	// a Conflict is read again and retried: far more than contention
	// between a few writers ever needs (client-go's
	// retry.RetryOnConflict stops after 5 tries, 10 ms apart).
	DefaultConflictRetries = 100
)

// Options are the retry policy of a command-style client. The zero value
// is DefaultRetries retries on timeout, 1s, 2s, 4s... apart (at most 30s),
// and blind read-modify-writes.
type Options struct {
	// Retries is how many times a command that timed out is sent again
	// (default 3); a negative value never retries. A retry runs the whole
	// command again, as a person or a script re-running it would.
	Retries int
	// Backoff is the wait before the first retry (default 1s).
	Backoff time.Duration
	// Factor multiplies the wait before each further retry (default 2; 1
	// keeps it constant).
	Factor float64
	// MaxBackoff caps the wait between retries (default 30s).
	MaxBackoff time.Duration
	// UseResourceVersion makes the writes of ScaleUp and Increment carry
	// the resourceVersion they read, so that a change made in between
	// fails them with a Conflict, which is retried at once by reading
	// again (up to ConflictRetries times); false clears the
	// resourceVersion, which the API server accepts as an unconditional
	// update: the last write wins and a change made in between is lost
	// (default false).
	UseResourceVersion bool
	// ConflictRetries is how many times a command whose write failed
	// with a Conflict is run again at once, when UseResourceVersion is set
	// (default DefaultConflictRetries; a negative value never retries).
	// Conflicts do not count against Retries: a conflict is an answer,
	// not a lost message, and the re-read makes the retry safe.
	ConflictRetries int
}

func (o Options) withDefaults() Options {
	switch {
	case o.Retries == 0:
		o.Retries = DefaultRetries
	case o.Retries < 0:
		o.Retries = 0
	}
	if o.Backoff <= 0 {
		o.Backoff = DefaultBackoff
	}
	if o.Factor < 1 {
		o.Factor = DefaultFactor
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = DefaultMaxBackoff
	}
	switch {
	case o.ConflictRetries == 0:
		o.ConflictRetries = DefaultConflictRetries
	case o.ConflictRetries < 0:
		o.ConflictRetries = 0
	}
	return o
}

// The commands, as Result.Command names them.
const (
	CommandCreateReplica = "create-replica"
	CommandDeleteReplica = "delete-replica"
	CommandScaleUp       = "scale-up"
	CommandIncrement     = "increment"
)

// Errors a command fails with before or instead of an API error.
var (
	// ErrNoReplica: DeleteReplica found no pod to delete.
	ErrNoReplica = errors.New("no replica to delete")
	// ErrNotScalable: ScaleUp of a kind without spec.replicas.
	ErrNotScalable = errors.New("kind has no spec.replicas")
	// ErrNotCounter: Increment found a value that is not an integer.
	ErrNotCounter = errors.New("not an integer counter")
	// ErrCounterOverflow: Increment would take a counter past a 64-bit
	// integer (a shell's $((n + by)) would wrap it silently).
	ErrCounterOverflow = errors.New("counter overflow")
)

// The outcomes of one attempt, as Attempt.Outcome names them.
const (
	// OutcomeOK: the server answered success.
	OutcomeOK = "ok"
	// OutcomeRefused: the server answered an error status (409
	// Conflict, 404 NotFound, ...): it did not act.
	OutcomeRefused = "refused"
	// OutcomeTimedOut: no answer in time. For a write the client cannot
	// know whether the server acted (Attempt.Ambiguous).
	OutcomeTimedOut = "timed out"
	// OutcomeFailed: the command gave up before or without a request
	// (no replica to delete, a value that is not a counter).
	OutcomeFailed = "failed"
)

// Attempt is one run of a command's requests: what it sent, and how it
// ended.
type Attempt struct {
	// Start and End are the virtual times the attempt began and ended.
	Start, End time.Time
	// Request is the last request the attempt sent: "get", "list",
	// "create", "update" or "delete" ("" when it sent none).
	Request string
	// Target names what the request acted on: the object read or
	// written, the pod created (unknown, "", when the create's answer
	// was lost: the server names it).
	Target string
	// Sent is the value the attempt wrote, when it wrote one ("4" for
	// ScaleUp's replicas, "7" for Increment's counter).
	Sent string
	// Outcome is OutcomeOK, OutcomeRefused, OutcomeTimedOut or
	// OutcomeFailed.
	Outcome string
	// Ambiguous marks a write that timed out: it may have been applied.
	Ambiguous bool
	// Err is the attempt's error (nil when ok).
	Err error
}

// String is the attempt as a report prints it: "create pod web-x7k2p:
// ok", "update deployment default/web (replicas 4): timed out:
// ambiguous, may have been applied", "update configmap default/counter
// (count 7): refused: 409 Conflict".
func (a Attempt) String() string {
	s := a.Request
	if s == "" {
		s = "no request"
	}
	if a.Target != "" {
		s += " " + a.Target
	}
	if a.Sent != "" {
		s += " (" + a.Sent + ")"
	}
	s += ": " + a.Outcome
	var se *apierr.StatusError
	switch {
	case a.Outcome == OutcomeRefused && errors.As(a.Err, &se):
		s += fmt.Sprintf(": %d %s", se.Code, se.Reason)
	case a.Outcome == OutcomeFailed && a.Err != nil:
		s += ": " + a.Err.Error()
	}
	if a.Ambiguous {
		s += ": ambiguous, may have been applied"
	} else if a.Outcome == OutcomeTimedOut {
		s += " (a read: nothing written)"
	}
	return s
}

// Result is what one command did.
type Result struct {
	// Command is CommandCreateReplica, CommandDeleteReplica,
	// CommandScaleUp or CommandIncrement.
	Command string
	// Target names the object the last attempt acted on ("default/web-x7k2p",
	// or the scaled object).
	Target string
	// Attempts counts the requests sent (the first and every retry).
	Attempts int
	// Timeouts and Conflicts count the attempts that ended so.
	Timeouts  int
	Conflicts int
	// Replicas is the value ScaleUp's last attempt wrote.
	Replicas int32
	// Value is the counter value Increment's last attempt wrote.
	Value int64
	// Err is the last attempt's error, nil when it succeeded. A command
	// that failed may still have acted.
	Err error
	// Log holds every attempt, in order.
	Log []Attempt
	// current is the attempt in progress.
	current *Attempt
	// Start and End are the virtual times the command began and ended.
	Start, End time.Time
}

// Commands sends commands as one user. It is not safe for use by two
// processes at once (it keeps a log).
type Commands struct {
	c       client.Client
	clock   client.Clock
	opts    Options
	results []Result
}

// New returns a command-style client acting through c, waiting on clock
// between retries.
func New(c client.Client, clock client.Clock, opts Options) *Commands {
	return &Commands{c: c, clock: clock, opts: opts.withDefaults()}
}

// Options returns the options in effect, defaults filled in.
func (c *Commands) Options() Options { return c.opts }

// Results returns every command's result, in the order they ran.
func (c *Commands) Results() []Result { return slices.Clone(c.results) }

// run runs attempt until it succeeds or fails with an error that is not
// retried: a timeout is retried Retries times with back-off, a Conflict
// (with UseResourceVersion) ConflictRetries times at once. It records the
// result.
func (c *Commands) run(command string, attempt func(r *Result) error) (Result, error) {
	r := Result{Command: command, Start: c.clock.Now()}
	wait := c.opts.Backoff
	for {
		r.Attempts++
		a := Attempt{Start: c.clock.Now()}
		r.current = &a
		err := attempt(&r)
		r.current = nil
		a.End, a.Err, a.Outcome = c.clock.Now(), err, outcome(err, a.Request)
		a.Ambiguous = a.Outcome == OutcomeTimedOut && isWrite(a.Request)
		r.Log = append(r.Log, a)
		r.Err = err
		if err == nil {
			break
		}
		if errors.Is(err, apierr.ErrConflict) {
			r.Conflicts++
			if c.opts.UseResourceVersion && r.Conflicts <= c.opts.ConflictRetries {
				continue // read again: the other writer's change is kept
			}
			break
		}
		if !errors.Is(err, apierr.ErrTimeout) {
			break
		}
		r.Timeouts++
		if r.Timeouts > c.opts.Retries {
			break
		}
		c.clock.Sleep(wait)
		wait = min(time.Duration(float64(wait)*c.opts.Factor), c.opts.MaxBackoff)
	}
	r.End = c.clock.Now()
	c.results = append(c.results, r)
	return r, r.Err
}

// outcome classifies an attempt's error; request is the last request it
// sent.
func outcome(err error, request string) string {
	var se *apierr.StatusError
	switch {
	case err == nil:
		return OutcomeOK
	case errors.Is(err, apierr.ErrTimeout):
		return OutcomeTimedOut
	case errors.As(err, &se) && request != "":
		return OutcomeRefused
	}
	return OutcomeFailed
}

func isWrite(request string) bool {
	return request == "create" || request == "update" || request == "delete"
}

// sending records the request an attempt is about to send.
func (r *Result) sending(request, target, sent string) {
	if a := r.current; a != nil {
		a.Request, a.Target, a.Sent = request, target, sent
	}
}

// CreateReplicaFrom is "create one more replica from this Deployment's
// (or ReplicaSet's) template": each attempt reads the object and creates
// a pod from its template as CreateReplica does, so a read that times
// out is retried like the create.
func (c *Commands) CreateReplicaFrom(ctx context.Context, kind api.Kind, key api.Key) (Result, error) {
	return c.run(CommandCreateReplica, func(r *Result) error {
		r.sending("get", strings.ToLower(kind.Name)+" "+key.String(), "")
		o, err := c.c.Get(ctx, kind, key)
		if err != nil {
			return err
		}
		var tmpl api.PodTemplateSpec
		switch t := o.(type) {
		case *api.Deployment:
			tmpl = t.Spec.Template
		case *api.ReplicaSet:
			tmpl = t.Spec.Template
		default:
			return fmt.Errorf("%w: %s", ErrNotScalable, kind)
		}
		return c.createPod(ctx, r, key.Namespace, key.Name+"-", tmpl)
	})
}

// createPod creates a pod from template, named by generateName.
func (c *Commands) createPod(ctx context.Context, r *Result, namespace, generateName string, template api.PodTemplateSpec) error {
	tmpl := template.DeepCopy()
	pod := &api.Pod{
		TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{GenerateName: generateName, Namespace: namespace,
			Labels: tmpl.Labels, Annotations: tmpl.Annotations},
		Spec: tmpl.Spec,
	}
	r.sending("create", "pod "+namespace+"/"+generateName+"?????", "")
	o, err := c.c.Create(ctx, pod)
	if err != nil {
		return err
	}
	r.Target = o.GetObjectMeta().Key().String()
	r.sending("create", "pod "+r.Target, "")
	return nil
}

// CreateReplica is "create one more replica": it creates a Pod named
// generateName plus five random characters from template (its labels,
// annotations and spec), owned by no controller. A retry creates another
// pod: the server names each create anew.
func (c *Commands) CreateReplica(ctx context.Context, namespace, generateName string, template api.PodTemplateSpec) (Result, error) {
	return c.run(CommandCreateReplica, func(r *Result) error {
		return c.createPod(ctx, r, namespace, generateName, template)
	})
}

// DeleteReplica is "delete one replica": it lists the pods of namespace
// that selector matches and deletes the first one (by name) that is not
// already being deleted. A retry lists again and may delete another.
func (c *Commands) DeleteReplica(ctx context.Context, namespace string, selector map[string]string) (Result, error) {
	return c.run(CommandDeleteReplica, func(r *Result) error {
		r.sending("list", "pods "+namespace, "")
		pods, err := client.ListAs[*api.Pod](ctx, c.c, client.InNamespace(namespace), client.MatchingLabels(selector))
		if err != nil {
			return err
		}
		for _, p := range pods {
			if p.DeletionTimestamp != nil {
				continue
			}
			r.Target = p.Key().String()
			r.sending("delete", "pod "+r.Target, "")
			return c.c.Delete(ctx, api.KindPod, p.Key())
		}
		return fmt.Errorf("%w matching %v in namespace %s", ErrNoReplica, selector, namespace)
	})
}

// ScaleUp is "scale up by one": it reads the Deployment or ReplicaSet's
// spec.replicas (1 when unset) and writes it plus one, with or without
// the resourceVersion it read (Options.UseResourceVersion). A retry reads
// again: if the timed-out write happened, it adds one more.
func (c *Commands) ScaleUp(ctx context.Context, kind api.Kind, key api.Key) (Result, error) {
	return c.run(CommandScaleUp, func(r *Result) error {
		r.Target = key.String()
		r.sending("get", strings.ToLower(kind.Name)+" "+r.Target, "")
		o, err := c.c.Get(ctx, kind, key)
		if err != nil {
			return err
		}
		var replicas **int32
		switch obj := o.(type) {
		case *api.Deployment:
			replicas = &obj.Spec.Replicas
		case *api.ReplicaSet:
			replicas = &obj.Spec.Replicas
		default:
			return fmt.Errorf("%w: %s", ErrNotScalable, kind)
		}
		n := int32(1)
		if *replicas != nil {
			n = **replicas
		}
		n++
		*replicas = &n
		if !c.opts.UseResourceVersion {
			o.GetObjectMeta().ResourceVersion = ""
		}
		r.sending("update", strings.ToLower(kind.Name)+" "+r.Target, fmt.Sprintf("replicas %d", n))
		if _, err := c.c.Update(ctx, o); err != nil {
			return err
		}
		r.Replicas = n
		return nil
	})
}

// Increment is "add by to a counter": it reads the ConfigMap key, adds by
// to the integer under data[field] (0 when absent) and writes it back,
// with or without the resourceVersion it read
// (Options.UseResourceVersion). With it, a write by someone else in
// between fails this one with a Conflict, and the retry reads the new
// value: no increment is lost. Without it the API server takes the write
// unconditionally, and an increment made between this read and this
// write is overwritten: a lost update. A value that is not an integer
// fails with ErrNotCounter, a sum past a 64-bit integer with
// ErrCounterOverflow (nothing is written).
func (c *Commands) Increment(ctx context.Context, key api.Key, field string, by int64) (Result, error) {
	return c.run(CommandIncrement, func(r *Result) error {
		r.Target = key.String()
		r.sending("get", "configmap "+r.Target, "")
		o, err := c.c.Get(ctx, api.KindConfigMap, key)
		if err != nil {
			return err
		}
		cm, ok := o.(*api.ConfigMap)
		if !ok {
			return fmt.Errorf("%w: %s is a %T", ErrNotCounter, key, o)
		}
		var n int64
		if s := cm.Data[field]; s != "" {
			if n, err = strconv.ParseInt(s, 10, 64); err != nil {
				return fmt.Errorf("%w: data.%s of configmap %s is %q", ErrNotCounter, field, key, s)
			}
		}
		if (by > 0 && n > math.MaxInt64-by) || (by < 0 && n < math.MinInt64-by) {
			return fmt.Errorf("%w: data.%s of configmap %s is %d, and %d more is past a 64-bit integer", ErrCounterOverflow, field, key, n, by)
		}
		n += by
		cm.Data = maps.Clone(cm.Data)
		if cm.Data == nil {
			cm.Data = map[string]string{}
		}
		cm.Data[field] = strconv.FormatInt(n, 10)
		if !c.opts.UseResourceVersion {
			cm.ResourceVersion = ""
		}
		r.sending("update", "configmap "+r.Target, fmt.Sprintf("%s %d", field, n))
		if _, err := c.c.Update(ctx, cm); err != nil {
			return err
		}
		r.Value = n
		return nil
	})
}
