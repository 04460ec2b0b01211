package iac

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
)

// Actor is the identity a tool's scheduled runs act as (a CI job's
// service account).
const Actor = "system:serviceaccount:ci:terraform"

// DefaultFieldManager is the field manager of the tool's writes, as
// Terraform's Kubernetes provider names itself.
const DefaultFieldManager = "Terraform"

// Schedule says when the tool runs: at fixed instants, periodically, or
// both. The instants are virtual, as the manager's clock reads time.
type Schedule struct {
	// At lists single runs.
	At []time.Time
	// Every, when positive, runs the tool periodically, first at Start.
	Every time.Duration
	// Start is the first periodic run; the zero time means when the
	// manager starts.
	Start time.Time
}

// next returns the first scheduled instant at or after t, and whether
// there is one.
func (s Schedule) next(t, started time.Time) (time.Time, bool) {
	var best time.Time
	found := false
	for _, a := range s.At {
		if !a.Before(t) && (!found || a.Before(best)) {
			best, found = a, true
		}
	}
	if s.Every > 0 {
		start := s.Start
		if start.IsZero() {
			start = started
		}
		p := start
		if p.Before(t) {
			n := t.Sub(start) / s.Every
			p = start.Add(n * s.Every)
			if p.Before(t) {
				p = p.Add(s.Every)
			}
		}
		if !found || p.Before(best) {
			best, found = p, true
		}
	}
	return best, found
}

// Options configure a Tool.
type Options struct {
	// Schedule is when Setup's runnable runs the tool (no schedule: never).
	Schedule Schedule
	// Refresh reads the live objects of the state before planning
	// (Terraform's default); false plans from the state file alone
	// (-refresh=false, the default here: the point-in-time tool the
	// package describes).
	Refresh bool
	// FieldManager names the tool's writes in managedFields (default
	// "Terraform").
	FieldManager string
	// Namespace is where declared objects that name none go (default
	// "default").
	Namespace string
}

func (o Options) withDefaults() Options {
	if o.FieldManager == "" {
		o.FieldManager = DefaultFieldManager
	}
	if o.Namespace == "" {
		o.Namespace = "default"
	}
	return o
}

// Action is what a plan does to one object.
type Action string

// The actions.
const (
	// Create adds an object the state does not have.
	Create Action = "create"
	// Update patches the fields that differ from the state.
	Update Action = "update"
	// Delete destroys an object no longer declared.
	Delete Action = "delete"
)

// Change is one planned action.
type Change struct {
	// Action is create, update or delete.
	Action Action
	// Address names the object: "<kind>.<namespace>.<name>" in lower-case
	// kind ("deployment.default.web"), without the namespace for a
	// cluster-scoped object.
	Address string
	// Fields are the JSON pointers an update changes.
	Fields []string
}

// Plan is a run's plan.
type Plan struct {
	// Add, Change and Destroy count the planned creates, updates and
	// deletes.
	Add, Change, Destroy int
	// Changes lists them in the order they are applied.
	Changes []Change
}

// String returns Terraform's plan summary: "Plan: 1 to add, 2 to change,
// 0 to destroy." or "No changes. Your infrastructure matches the
// configuration."
func (p Plan) String() string {
	if len(p.Changes) == 0 {
		return "No changes. Your infrastructure matches the configuration."
	}
	return fmt.Sprintf("Plan: %d to add, %d to change, %d to destroy.", p.Add, p.Change, p.Destroy)
}

// RunRecord is one run of the tool.
type RunRecord struct {
	// ID numbers runs from 1.
	ID int
	// At is when the run started, by the manager's clock (zero when Run
	// was called without Setup).
	At time.Time
	// Refreshed tells whether the run read the live objects first.
	Refreshed bool
	// Plan is what the run planned.
	Plan Plan
	// Added, Changed and Destroyed count the changes applied.
	Added, Changed, Destroyed int
	// Errors are the failures of the run, in order ("<address>: <error>").
	Errors []string
}

// Summary returns Terraform's apply summary, "Apply complete! Resources: 1
// added, 0 changed, 0 destroyed.", or the error count when some change
// failed.
func (r RunRecord) Summary() string {
	if len(r.Errors) > 0 {
		return fmt.Sprintf("Apply failed with %d error(s): %d added, %d changed, %d destroyed.", len(r.Errors), r.Added, r.Changed, r.Destroyed)
	}
	return fmt.Sprintf("Apply complete! Resources: %d added, %d changed, %d destroyed.", r.Added, r.Changed, r.Destroyed)
}

// StateEntry is one object of the state file.
type StateEntry struct {
	// Address names the object (see Change.Address).
	Address string
	// Kind and Key identify it; UID is the incarnation the tool created or
	// last saw.
	Kind api.Kind
	Key  api.Key
	UID  api.UID
	// APIVersion is the version the tool wrote.
	APIVersion string
	// ResourceVersion is the one the tool last saw.
	ResourceVersion string
	// Fields are the fields the tool set, as JSON with sorted keys.
	Fields string
}

// State is the tool's state file.
type State struct {
	// Serial counts the writes of the state.
	Serial int
	// Resources are the entries, sorted by address.
	Resources []StateEntry
}

// Tool is an IaC tool: a declaration, a state file and a run history.
type Tool struct {
	opts   Options
	decl   []api.Object
	state  map[string]StateEntry
	serial int
	runs   []RunRecord
	clock  client.PassiveClock
}

// ErrBadDeclaration is returned by Run for a declaration the tool cannot
// plan (an unserved kind, an object without a name, two objects at one
// address).
var ErrBadDeclaration = errors.New("bad declaration")

// New returns a tool with declaration decl (deep-copied) and an empty
// state.
func New(decl []api.Object, opts Options) *Tool {
	t := &Tool{opts: opts.withDefaults(), state: map[string]StateEntry{}}
	t.Declare(decl)
	return t
}

// Options returns the options in effect, defaults filled in.
func (t *Tool) Options() Options { return t.opts }

// Declare replaces the declaration (deep-copied; nil entries are dropped);
// the next run plans from it.
func (t *Tool) Declare(decl []api.Object) {
	t.decl = t.decl[:0]
	for _, o := range decl {
		if o != nil {
			t.decl = append(t.decl, o.DeepCopyObject())
		}
	}
}

// State returns a copy of the state file.
func (t *Tool) State() State {
	s := State{Serial: t.serial}
	for _, e := range t.state {
		s.Resources = append(s.Resources, e)
	}
	slices.SortFunc(s.Resources, func(a, b StateEntry) int { return strings.Compare(a.Address, b.Address) })
	return s
}

// Runs returns every run's record, oldest first.
func (t *Tool) Runs() []RunRecord { return slices.Clone(t.runs) }

// Setup registers the tool's schedule with m: a runnable that sleeps until
// each scheduled instant and runs the tool with the manager's client (runs
// whose time passed while the manager was down are skipped). Call it from
// the manager's setup function.
func (t *Tool) Setup(m *controller.Manager) error {
	clock := m.Clock()
	t.clock = clock
	c := m.Client()
	started := clock.Now()
	return m.Add("iac", func(ctx context.Context) {
		last := time.Time{}
		for ctx.Err() == nil {
			now := clock.Now()
			from := now
			if !last.IsZero() && !from.After(last) {
				from = last.Add(time.Nanosecond)
			}
			next, ok := t.opts.Schedule.next(from, started)
			if !ok {
				return
			}
			if d := next.Sub(now); d > 0 {
				clock.Sleep(d)
			}
			last = next
			_, _ = t.Run(ctx, c) // failures are recorded in the run
		}
	})
}

// kindRank orders creates and updates (deletes go in reverse).
func kindRank(k api.Kind) int {
	switch k {
	case api.KindNamespace:
		return 0
	case api.KindResourceQuota:
		return 1
	case api.KindConfigMap:
		return 2
	case api.KindService:
		return 3
	case api.KindPod, api.KindReplicaSet, api.KindDeployment:
		return 4
	case api.KindHorizontalPodAutoscaler:
		return 5
	}
	return 6
}

// address returns "<kind>.<namespace>.<name>".
func address(kind api.Kind, key api.Key) string {
	if key.Namespace == "" {
		return strings.ToLower(kind.Name) + "." + key.Name
	}
	return strings.ToLower(kind.Name) + "." + key.Namespace + "." + key.Name
}

// desired is one declared object, prepared.
type desired struct {
	obj    api.Object
	kind   api.Kind
	key    api.Key
	addr   string
	fields map[string]any
}

func (t *Tool) prepare() ([]*desired, error) {
	var out []*desired
	seen := map[string]bool{}
	for _, o := range t.decl {
		obj := o.DeepCopyObject()
		if h, ok := obj.(*api.HorizontalPodAutoscalerV1); ok {
			obj = h.ToV2()
		}
		kind := api.KindOf(obj)
		info, ok := api.Lookup(kind)
		if !ok {
			return nil, fmt.Errorf("%w: kind %s is not served", ErrBadDeclaration, kind)
		}
		m := obj.GetObjectMeta()
		if m.Name == "" {
			return nil, fmt.Errorf("%w: a %s without a name", ErrBadDeclaration, kind)
		}
		switch {
		case !info.Namespaced:
			m.Namespace = ""
		case m.Namespace == "":
			m.Namespace = t.opts.Namespace
		}
		tm := obj.GetTypeMeta()
		tm.APIVersion, tm.Kind = info.APIVersion(), kind.Name
		f, err := fieldsOf(obj)
		if err != nil {
			return nil, err
		}
		d := &desired{obj: obj, kind: kind, key: m.Key(), addr: address(kind, m.Key()), fields: f}
		if seen[d.addr] {
			return nil, fmt.Errorf("%w: %s declared twice", ErrBadDeclaration, d.addr)
		}
		seen[d.addr] = true
		out = append(out, d)
	}
	slices.SortStableFunc(out, func(a, b *desired) int {
		return cmp.Or(cmp.Compare(kindRank(a.kind), kindRank(b.kind)), strings.Compare(a.addr, b.addr))
	})
	return out, nil
}

// refresh replaces the fields of every state entry with the live values
// of those fields; an object gone leaves the state. A read that fails
// leaves its entry as it was and is reported.
func (t *Tool) refresh(ctx context.Context, c client.Client, rec *RunRecord) {
	addrs := make([]string, 0, len(t.state))
	for a := range t.state {
		addrs = append(addrs, a)
	}
	slices.Sort(addrs)
	changed := false
	for _, a := range addrs {
		e := t.state[a]
		live, err := c.Get(ctx, e.Kind, e.Key)
		if errors.Is(err, apierr.ErrNotFound) {
			delete(t.state, a)
			changed = true
			continue
		}
		if err != nil {
			rec.Errors = append(rec.Errors, fmt.Sprintf("%s: refresh: %v", a, err))
			continue
		}
		shape, err := parseFields(e.Fields)
		if err != nil {
			rec.Errors = append(rec.Errors, fmt.Sprintf("%s: refresh: %v", a, err))
			continue
		}
		lt, err := tree(live)
		if err != nil {
			rec.Errors = append(rec.Errors, fmt.Sprintf("%s: refresh: %v", a, err))
			continue
		}
		p, _ := project(shape, lt)
		nf := canonical(p)
		m := live.GetObjectMeta()
		if nf != e.Fields || m.ResourceVersion != e.ResourceVersion || m.UID != e.UID {
			e.Fields, e.ResourceVersion, e.UID = nf, m.ResourceVersion, m.UID
			t.state[a] = e
			changed = true
		}
	}
	if changed {
		t.serial++
	}
}

// plan compares the declaration with the state.
func (t *Tool) plan(ds []*desired) (Plan, map[string]map[string]any, error) {
	var p Plan
	patches := map[string]map[string]any{}
	declared := map[string]bool{}
	for _, d := range ds {
		declared[d.addr] = true
		e, ok := t.state[d.addr]
		if !ok {
			p.Changes = append(p.Changes, Change{Action: Create, Address: d.addr})
			p.Add++
			continue
		}
		old, err := parseFields(e.Fields)
		if err != nil {
			return p, nil, err
		}
		patch, ptrs := mergeDiff(old, d.fields)
		if len(ptrs) == 0 {
			continue
		}
		patches[d.addr] = patch
		p.Changes = append(p.Changes, Change{Action: Update, Address: d.addr, Fields: ptrs})
		p.Change++
	}
	var gone []StateEntry
	for a, e := range t.state {
		if !declared[a] {
			gone = append(gone, e)
		}
	}
	// Deletes in reverse dependency order.
	slices.SortFunc(gone, func(a, b StateEntry) int {
		return cmp.Or(cmp.Compare(kindRank(b.Kind), kindRank(a.Kind)), strings.Compare(a.Address, b.Address))
	})
	for _, e := range gone {
		p.Changes = append(p.Changes, Change{Action: Delete, Address: e.Address})
		p.Destroy++
	}
	return p, patches, nil
}

// Run plans and applies once through c: a refresh first when
// Options.Refresh is set, then the plan against the state file, then each
// change in order. A change that fails is recorded and leaves its state
// entry as it was; the others go on. The record is kept (Runs) and
// returned; the error is ErrBadDeclaration for a declaration that cannot
// be planned, nil otherwise (failed changes are in the record).
func (t *Tool) Run(ctx context.Context, c client.Client) (RunRecord, error) {
	rec := RunRecord{ID: len(t.runs) + 1, Refreshed: t.opts.Refresh}
	if t.clock != nil {
		rec.At = t.clock.Now()
	}
	defer func() { t.runs = append(t.runs, rec) }()
	ds, err := t.prepare()
	if err != nil {
		rec.Errors = append(rec.Errors, err.Error())
		return rec, err
	}
	if t.opts.Refresh {
		t.refresh(ctx, c, &rec)
	}
	plan, patches, err := t.plan(ds)
	rec.Plan = plan
	if err != nil {
		rec.Errors = append(rec.Errors, err.Error())
		return rec, nil
	}
	byAddr := map[string]*desired{}
	for _, d := range ds {
		byAddr[d.addr] = d
	}
	wctx := client.WithFieldManager(ctx, t.opts.FieldManager)
	for _, ch := range plan.Changes {
		var err error
		switch ch.Action {
		case Create:
			err = t.create(wctx, c, byAddr[ch.Address])
			if err == nil {
				rec.Added++
			}
		case Update:
			err = t.update(wctx, c, byAddr[ch.Address], patches[ch.Address])
			if err == nil {
				rec.Changed++
			}
		case Delete:
			err = t.destroy(wctx, c, t.state[ch.Address])
			if err == nil {
				rec.Destroyed++
			}
		}
		if err != nil {
			rec.Errors = append(rec.Errors, fmt.Sprintf("%s: %v", ch.Address, err))
		}
	}
	return rec, nil
}

func (t *Tool) record(d *desired, got api.Object) {
	m := got.GetObjectMeta()
	t.state[d.addr] = StateEntry{Address: d.addr, Kind: d.kind, Key: d.key, UID: m.UID, APIVersion: d.obj.GetTypeMeta().APIVersion,
		ResourceVersion: m.ResourceVersion, Fields: canonical(d.fields)}
	t.serial++
}

func (t *Tool) create(ctx context.Context, c client.Client, d *desired) error {
	got, err := c.Create(ctx, d.obj.DeepCopyObject())
	if err != nil {
		return err
	}
	t.record(d, got)
	return nil
}

func (t *Tool) update(ctx context.Context, c client.Client, d *desired, patch map[string]any) error {
	body, err := json.Marshal(patch)
	if err != nil {
		return err
	}
	got, err := c.Patch(ctx, d.kind, d.key, client.StrategicMergePatch, body)
	if err != nil {
		return err
	}
	t.record(d, got)
	return nil
}

func (t *Tool) destroy(ctx context.Context, c client.Client, e StateEntry) error {
	err := c.Delete(ctx, e.Kind, e.Key)
	if err != nil && !errors.Is(err, apierr.ErrNotFound) {
		return err
	}
	delete(t.state, e.Address)
	t.serial++
	return nil
}
