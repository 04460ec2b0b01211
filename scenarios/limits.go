package scenarios

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/clustersim/clustersim/sim/api"
)

// Limits caps what one scenario may ask for, so that a typo (count:
// 1000000000) or a hostile file is refused with a message before any work
// starts, instead of eating the machine's memory. A zero field means its
// default (DefaultLimits). Each cap has a name (Names) that errors quote
// and that `clustersim run --limit NAME=N` raises.
type Limits struct {
	// FileBytes caps the size of the scenario file and of every file it
	// references (manifests, load CSVs). Default 1 MiB: parsing a YAML file
	// of that size takes about a quarter of a second and 40 MB.
	FileBytes int64
	// RefBytes caps the bytes all the file references of one scenario
	// read, a file counted each time it is referenced (and each file of a
	// directory reference), so that many references to files under the
	// file-bytes cap (one file named a thousand times) cannot add up to
	// gigabytes of decoded objects. Default 8 MiB: a scenario that reads that
	// much peaks near 60 MB; the largest built-in reads 23 KB.
	RefBytes int64
	// Nodes caps the nodes of the run: every node group's count plus every
	// addNodes step. Default 5,000 (Kubernetes' documented limit).
	Nodes int
	// Pods caps the pods the declared workloads ask for at any point of
	// the timeline: the replicas of every Deployment, ReplicaSet and
	// StatefulSet (or a HorizontalPodAutoscaler's maxReplicas for its
	// target, when larger), a Job's parallelism or completions, a
	// CronJob's Jobs kept by its history limits plus one running, a pod
	// on every node for each DaemonSet, and bare pods. Default 150,000
	// (Kubernetes' documented limit).
	Pods int
	// Objects caps the objects declared (spec.objects, applies, GitOps
	// commits, spec.iac). Default 10,000.
	Objects int
	// Timeline caps spec.timeline's steps, and separately the entries of
	// spec.faults.schedule and of spec.iac.runs. Default 10,000.
	Timeline int
	// Duration caps spec.duration. Default 24h.
	Duration time.Duration
	// Events caps the kernel events one run fires (the runner enforces
	// it). Default 200,000,000.
	Events uint64
	// Checks caps the times spec.expect looks at the cluster: an
	// expectation with a within window once every CheckInterval of it,
	// any other once (Expectation.Checks). Each look reads and encodes
	// an object or lists pods, some 50 µs: without the cap, ten thousand
	// expectations over a day of virtual time would take hours. Default
	// 1,000,000.
	Checks int64
}

// CheckInterval is how often an expectation with a within window looks
// at the cluster (the runner polls at this period).
const CheckInterval = time.Second

// Checks is how many times the expectation looks at the cluster: once a
// CheckInterval over its window (after to within) when it has one, else
// once.
func (e *Expectation) Checks() int64 {
	var from, to time.Duration
	switch {
	case e.RolloutComplete != nil:
		to = e.RolloutComplete.Within.Duration
		if a := e.RolloutComplete.After; a != nil {
			from = a.Duration
		}
	case e.Condition != nil && e.Condition.Within != nil:
		to = e.Condition.Within.Duration
	case e.Field != nil && e.Field.Within != nil:
		to = e.Field.Within.Duration
	case e.Pods != nil && e.Pods.Within != nil:
		to = e.Pods.Within.Duration
	}
	if to <= from {
		return 1
	}
	return int64((to-from)/CheckInterval) + 1
}

// DefaultLimits are the caps a scenario runs under unless raised.
var DefaultLimits = Limits{
	FileBytes: 1 << 20,
	RefBytes:  8 << 20,
	Nodes:     5000,
	Pods:      150_000,
	Objects:   10_000,
	Timeline:  10_000,
	Duration:  24 * time.Hour,
	Events:    200_000_000,
	Checks:    1_000_000,
}

// LimitNames are the names of the caps, as `--limit NAME=N` takes them.
var LimitNames = []string{"file-bytes", "ref-bytes", "nodes", "pods", "objects", "timeline", "duration", "events", "checks"}

// WithDefaults returns l with every zero field set to its default.
func (l Limits) WithDefaults() Limits {
	d := DefaultLimits
	return Limits{
		FileBytes: positiveOr(l.FileBytes, d.FileBytes),
		RefBytes:  positiveOr(l.RefBytes, d.RefBytes),
		Nodes:     positiveOr(l.Nodes, d.Nodes),
		Pods:      positiveOr(l.Pods, d.Pods),
		Objects:   positiveOr(l.Objects, d.Objects),
		Timeline:  positiveOr(l.Timeline, d.Timeline),
		Duration:  positiveOr(l.Duration, d.Duration),
		Events:    positiveOr(l.Events, d.Events),
		Checks:    positiveOr(l.Checks, d.Checks),
	}
}

// positiveOr is v if positive, else def.
func positiveOr[T int | int64 | uint64 | time.Duration](v, def T) T {
	if v > 0 {
		return v
	}
	return def
}

// Set raises (or lowers) the cap name to value: a positive integer, a
// quantity for file-bytes and ref-bytes (4Mi) and a duration for duration (48h).
func (l *Limits) Set(name, value string) error {
	bad := func(what string) error { return fmt.Errorf("limit %s=%s: want %s", name, value, what) }
	switch name {
	case "file-bytes", "ref-bytes":
		q, err := api.ParseQuantity(value)
		if err != nil || q.Value() <= 0 {
			return bad("a positive size such as 4Mi")
		}
		if name == "file-bytes" {
			l.FileBytes = q.Value()
		} else {
			l.RefBytes = q.Value()
		}
	case "duration":
		d, err := time.ParseDuration(value)
		if err != nil && strings.Contains(err.Error(), "invalid duration") && durationOverflows(value) {
			return fmt.Errorf("limit %s=%s: too large: at most %v", name, value, time.Duration(math.MaxInt64))
		}
		if err != nil || d <= 0 {
			return bad("a positive duration such as 48h")
		}
		l.Duration = d
	case "nodes", "pods", "objects", "timeline", "events", "checks":
		n, err := strconv.ParseUint(value, 10, 63)
		if err != nil || n == 0 {
			return bad("a positive integer")
		}
		switch name {
		case "nodes":
			l.Nodes = int(n)
		case "pods":
			l.Pods = int(n)
		case "objects":
			l.Objects = int(n)
		case "timeline":
			l.Timeline = int(n)
		case "events":
			l.Events = n
		case "checks":
			l.Checks = int64(n)
		}
	default:
		return fmt.Errorf("no limit %q (known: %s)", name, strings.Join(LimitNames, ", "))
	}
	return nil
}

// capError is the message of a cap that a scenario exceeds.
func capError(name string, got, limit any) string {
	return fmt.Sprintf("%v exceeds the %s limit of %v (raise it with --limit %s=N if you mean it)", got, name, limit, name)
}

// Options are how LoadFileWith reads a scenario.
type Options struct {
	// Root is the directory whose tree file references may reach; it must
	// hold the scenario file. Default: the scenario file's directory.
	Root string
	// Limits are the caps; zero fields take their defaults.
	Limits Limits
	// Users are users the run acts as besides the timeline's (clustersim
	// serve's "kubectl"): their endpoints user/<name> may be named by
	// spec.network.links and partitions.
	Users []string
}

// refFile is one file a reference names: its name as the scenario
// would write it, and its bytes.
type refFile struct {
	name string
	data []byte
}

// manifestExts are the extensions of the files a directory reference
// reads, as kubectl apply -f DIR (k8s.io/cli-runtime
// pkg/resource/visitor.go FileExtensions).
var manifestExts = []string{".json", ".yaml", ".yml"}

// readRefs reads what a scenario's file reference names: one file, or a
// directory's manifest files (.json, .yaml, .yml, by name order, not its
// subdirectories: kubectl apply -f DIR without -R), each checked as
// readRef checks a file. A directory without a manifest file is an error.
func (l *loader) readRefs(field, name string) ([]refFile, error) {
	p, fi, err := l.statRef(field, name)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		data, err := l.readRef(field, name)
		if err != nil {
			return nil, err
		}
		return []refFile{{name, data}}, nil
	}
	entries, err := fs.ReadDir(l.fsys, p)
	if err != nil {
		return nil, l.errorf(field, "%q: %s", name, refProblem(err, l.rootName()))
	}
	var out []refFile
	for _, e := range entries { // fs.ReadDir sorts by name
		if e.IsDir() || !slices.Contains(manifestExts, path.Ext(e.Name())) {
			continue
		}
		child := path.Join(filepath.ToSlash(name), e.Name())
		data, err := l.readRef(field, child)
		if err != nil {
			return nil, err
		}
		out = append(out, refFile{child, data})
	}
	if len(out) == 0 {
		return nil, l.errorf(field, "%q is a directory without a manifest file (%s)", name, strings.Join(manifestExts, ", "))
	}
	// The directory's documents in order, as one multi-document file,
	// for a scenario written out with its manifests inlined.
	docs := make([][]byte, len(out))
	for i, f := range out {
		docs[i] = f.data
	}
	l.refs[name] = bytes.Join(docs, []byte("\n---\n"))
	return out, nil
}

// statRef checks a reference's path and returns it inside the loader's
// file system, with what it names.
func (l *loader) statRef(field, name string) (string, fs.FileInfo, error) {
	if name == "" {
		return "", nil, l.errorf(field, "required")
	}
	if filepath.IsAbs(name) || strings.HasPrefix(name, "/") || strings.HasPrefix(name, `\`) {
		return "", nil, l.errorf(field, "%q is an absolute path; name files relative to the scenario's directory", name)
	}
	p := path.Join(l.dir, filepath.ToSlash(name))
	if !fs.ValidPath(p) {
		return "", nil, l.errorf(field, "%q leaves %s (file references stay in the scenario's folder tree; clustersim's --root widens it)", name, l.rootName())
	}
	fi, err := fs.Stat(l.fsys, p)
	if err != nil {
		return "", nil, l.errorf(field, "%q: %s", name, refProblem(err, l.rootName()))
	}
	return p, fi, nil
}

// readRef reads the file a scenario names at field: a path relative to
// the scenario's directory that stays inside the loader's tree after
// symbolic links are resolved (the file system is an os.Root, or the
// embedded built-ins), names a regular file, and is no larger than the
// file-bytes cap. The errors never quote the file's content.
func (l *loader) readRef(field, name string) ([]byte, error) {
	p, fi, err := l.statRef(field, name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, l.errorf(field, "%q is not a regular file (%s)", name, fileKind(fi.Mode()))
	}
	if fi.Size() > l.limits.FileBytes {
		return nil, l.errorf(field, "%q: %s", name, capError("file-bytes", fmt.Sprintf("%d bytes", fi.Size()), l.limits.FileBytes))
	}
	if err := l.addRefBytes(field, name, fi.Size()); err != nil {
		return nil, err
	}
	f, err := l.fsys.Open(p)
	if err != nil {
		return nil, l.errorf(field, "%q: %s", name, refProblem(err, l.rootName()))
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, l.limits.FileBytes+1))
	if err != nil {
		return nil, l.errorf(field, "cannot read %q: %v", name, unwrapPathError(err))
	}
	if int64(len(data)) > l.limits.FileBytes {
		return nil, l.errorf(field, "%q: %s", name, capError("file-bytes", "its size", l.limits.FileBytes))
	}
	// The file may have grown since fs.Stat: count what was read.
	if err := l.addRefBytes(field, name, int64(len(data))-fi.Size()); err != nil {
		return nil, err
	}
	if l.refs == nil {
		l.refs = map[string][]byte{}
	}
	l.refs[name] = data
	return data, nil
}

// addRefBytes counts n more bytes read by the scenario's file references
// (name, at field, reads them) against the ref-bytes cap, before they are
// read. Reads for an error's position (l.uncounted) are not counted: the
// file was counted when it was first read.
func (l *loader) addRefBytes(field, name string, n int64) error {
	if l.uncounted {
		return nil
	}
	l.refBytes += n
	if l.refBytes > l.limits.RefBytes {
		return l.errorf(field, "%q: %s", name, capError("ref-bytes", fmt.Sprintf("%d bytes read by the scenario's file references in all", l.refBytes), l.limits.RefBytes))
	}
	return nil
}

// rootName names the tree references are confined to, for messages.
func (l *loader) rootName() string {
	if l.rootDir == "" {
		return "the scenario's directory"
	}
	return l.rootDir
}

// refProblem says honestly why a reference cannot be opened.
func refProblem(err error, root string) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file"
	case errors.Is(err, syscall.ELOOP):
		return "a loop of symbolic links"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	case strings.Contains(err.Error(), "path escapes from parent"):
		return "a symbolic link on the way leads out of " + root + " (file references stay in the scenario's folder tree)"
	}
	return unwrapPathError(err).Error()
}

// fileKind names what a non-regular file is.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeDevice != 0 || m&fs.ModeCharDevice != 0:
		return "a device"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return m.Type().String()
}

// ReadFile reads the file at p, which must be a regular file no larger
// than lim's file-bytes cap; the error names p and never quotes the
// content.
func ReadFile(p string, lim Limits) ([]byte, error) {
	lim = lim.WithDefaults()
	fi, err := os.Stat(p)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", p, refProblem(err, ""))
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file (%s)", p, fileKind(fi.Mode()))
	}
	if fi.Size() > lim.FileBytes {
		return nil, fmt.Errorf("%s: %s", p, capError("file-bytes", fmt.Sprintf("%d bytes", fi.Size()), lim.FileBytes))
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", p, refProblem(err, ""))
	}
	defer f.Close()
	return ReadAll(p, f, lim)
}

// ReadAll reads r, named name in messages, under lim's file-bytes cap: it
// stops reading one byte past the cap, so an endless input (a pipe from
// /dev/zero) costs no more memory than the cap.
func ReadAll(name string, r io.Reader, lim Limits) ([]byte, error) {
	lim = lim.WithDefaults()
	data, err := io.ReadAll(io.LimitReader(r, lim.FileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, unwrapPathError(err))
	}
	if int64(len(data)) > lim.FileBytes {
		return nil, fmt.Errorf("%s: %s", name, capError("file-bytes", "its size", lim.FileBytes))
	}
	return data, nil
}

// counts checks the lengths of the big lists of the file (spec.timeline,
// spec.objects) on the parsed YAML, before they are decoded into steps and
// objects, so that a file of a million steps costs its parse and no more.
func (l *loader) counts() error {
	spec := mapValue(l.root, "spec")
	for _, c := range []struct {
		key, name string
		limit     int
	}{{"timeline", "timeline", l.limits.Timeline}, {"objects", "objects", l.limits.Objects}} {
		n := mapValue(spec, c.key)
		if n != nil && n.Kind == yaml.SequenceNode && len(n.Content) > c.limit {
			return l.errorf("spec."+c.key, "%s", capError(c.name, fmt.Sprintf("%d entries", len(n.Content)), c.limit))
		}
	}
	// The other lists of timed events each count against the timeline's
	// cap as its steps do: a fault schedule or a tool's runs of a
	// megabyte would otherwise be tens of thousands of events.
	for _, path := range [][2]string{{"faults", "schedule"}, {"iac", "runs"}} {
		n := mapValue(mapValue(spec, path[0]), path[1])
		if n != nil && n.Kind == yaml.SequenceNode && len(n.Content) > l.limits.Timeline {
			field := "spec." + path[0] + "." + path[1]
			return l.errorf(field, "%s", capError("timeline", fmt.Sprintf("%d entries", len(n.Content)), l.limits.Timeline))
		}
	}
	return nil
}

// addObjects counts objs against the objects cap.
func (l *loader) addObjects(field string, objs int) error {
	l.nObjects += objs
	if l.nObjects > l.limits.Objects {
		return l.errorf(field, "%s", capError("objects", fmt.Sprintf("%d objects declared so far", l.nObjects), l.limits.Objects))
	}
	return nil
}

// addNodes counts n (not negative) more nodes against the nodes cap,
// before any of them is listed. The total in the message is unsigned: n
// may be as large as an int holds.
func (l *loader) addNodes(field string, n int) error {
	if n > l.limits.Nodes-l.nNodes {
		return l.errorf(field, "%s", capError("nodes", fmt.Sprintf("%d nodes in all", uint64(l.nNodes)+uint64(n)), l.limits.Nodes))
	}
	l.nNodes += n
	return nil
}

// checkPods fails at field if the workloads declared so far ask for more
// pods than the pods cap.
// A DaemonSet asks for a pod on every node of the run.
func (l *loader) checkPods(field string, w *world) error {
	total := w.totalPods + int64(len(w.daemonSets))*int64(l.nNodes)
	if total > int64(l.limits.Pods) {
		return l.errorf(field, "%s", capError("pods", fmt.Sprintf("%d pods asked for by the workloads declared so far", total), l.limits.Pods))
	}
	return nil
}

// durationOverflows reports whether v is a positive duration that
// time.ParseDuration refuses only for being beyond time.Duration's
// range: the same text with every number (digits with at most one
// decimal point) cut to one digit parses.
func durationOverflows(v string) bool {
	if v == "" || v[0] == '-' {
		return false
	}
	var b strings.Builder
	for i := 0; i < len(v); {
		j := i
		for j < len(v) && (v[j] >= '0' && v[j] <= '9' || v[j] == '.') {
			j++
		}
		if j == i {
			b.WriteByte(v[i])
			i++
			continue
		}
		if num := v[i:j]; strings.Count(num, ".") > 1 || num == "." {
			return false
		}
		b.WriteByte('1')
		i = j
	}
	_, err := time.ParseDuration(b.String())
	return err == nil
}
