package metrics

import (
	"context"
	"errors"
	"math"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/store"
)

// DefaultResolution is metrics-server's default --metric-resolution: pods
// are scraped every 15s, and a query answers with the last scrape.
const DefaultResolution = 15 * time.Second

// ErrUnavailable is PodCPU's error while the source is made unavailable
// (SetAvailable(false)), as a metrics API that does not answer. Its text
// is what the HPA shows for a missing metrics API.
var ErrUnavailable = errors.New("the server could not find the requested resource (get pods.metrics.k8s.io)")

// Model is the CPU usage of one target's pods under one load.
type Model struct {
	// Namespace holds the target's pods.
	Namespace string
	// Selector picks the target's pods, e.g. a Deployment's selector.
	Selector api.Selector
	// Load is the request rate sent to the target's ready pods.
	Load Load
	// BaseMilli is the CPU every running pod uses without load, in
	// millicores (default 0).
	BaseMilli int64
	// PerRequestMilli is the CPU one request per second costs, in
	// millicores: rps requests per second spread over n ready pods add
	// rps × PerRequestMilli / n millicores to each.
	PerRequestMilli float64
	// CapAtLimit caps a pod's usage at the sum of its containers' cpu
	// limits when every container has one, as CFS throttling would
	// (default false: the formula above, uncapped).
	CapAtLimit bool
}

// podReady reports whether a pod receives load: running, Ready and not
// terminating (a terminating pod leaves the service's endpoints).
func podReady(p *api.Pod) bool {
	return p.Status.Phase == api.PodRunning && p.DeletionTimestamp == nil && api.IsPodReady(p)
}

// Usage returns the CPU, in millicores, of pod at virtual time t when
// readyPods pods of the model are ready: BaseMilli for a running pod that
// is not ready, BaseMilli plus its share of the load for a ready one. A
// pod that is not running uses nothing and has no sample (ok false).
func (m *Model) Usage(pod *api.Pod, readyPods int, t time.Duration) (milli int64, ok bool) {
	if pod.Status.Phase != api.PodRunning {
		return 0, false
	}
	v := float64(m.BaseMilli)
	if readyPods > 0 && podReady(pod) && m.Load != nil {
		v += m.Load.RPS(t) * m.PerRequestMilli / float64(readyPods)
	}
	if v > math.MaxInt64/2 {
		v = math.MaxInt64 / 2
	}
	milli = int64(math.Round(v))
	if m.CapAtLimit {
		if limit, all := cpuLimit(pod); all && milli > limit {
			milli = limit
		}
	}
	return max(milli, 0), true
}

// cpuLimit sums the cpu limits of a pod's containers; all is false when a
// container has none.
func cpuLimit(p *api.Pod) (milli int64, all bool) {
	for i := range p.Spec.Containers {
		q, ok := p.Spec.Containers[i].Resources.Limits[api.ResourceCPU]
		if !ok {
			return 0, false
		}
		milli += q.MilliValue()
	}
	return milli, len(p.Spec.Containers) > 0
}

// Sample is one pod's CPU usage at a scrape.
type Sample struct {
	// Key names the pod.
	Key api.Key
	// Milli is the usage in millicores.
	Milli int64
	// labels are the pod's labels at the scrape (shared with the store:
	// read only), for selector queries.
	labels map[string]string
}

// Options configure a Source.
type Options struct {
	// Resolution is the scrape period (default 15s, DefaultResolution).
	Resolution time.Duration
}

// Source serves pods' CPU usage as metrics-server does: it scrapes at
// every multiple of its resolution (virtual time 0, 15s, 30s, ...) and
// answers from the last scrape. Only pods of a Model are scraped; other
// pods have no metrics, as if metrics-server could not reach them. Build
// it with NewSource, add models, then Start it.
type Source struct {
	k       *kernel.Kernel
	st      *store.Store
	res     time.Duration
	models  []Model
	samples []Sample
	// byLabel indexes the last scrape's samples by namespace and the
	// value of one label, a key at a time as queries ask for it (see
	// PodCPU); dropped at each scrape.
	byLabel map[string]map[nsValue][]int32
	at      kernel.Time
	scraped bool
	running bool
	down    bool
	token   uint64
	scrapes uint64
}

// NewSource returns a stopped source reading pods from st on k's clock.
func NewSource(k *kernel.Kernel, st *store.Store, opts Options) *Source {
	if opts.Resolution <= 0 {
		opts.Resolution = DefaultResolution
	}
	return &Source{k: k, st: st, res: opts.Resolution}
}

// AddModel adds a target's model; a pod matched by several models belongs
// to the first one added. Models added while running count from the next
// scrape.
func (s *Source) AddModel(m Model) { s.models = append(s.models, m) }

// Resolution returns the scrape period.
func (s *Source) Resolution() time.Duration { return s.res }

// Start scrapes at once (the sample is stamped with the last resolution
// boundary, as if it had been taken then) and then at every boundary.
// Starting a running source does nothing.
func (s *Source) Start() {
	if s.running {
		return
	}
	s.running = true
	now := s.k.Now()
	s.scrape(now - now%kernel.Time(s.res))
	s.arm()
}

// Stop stops scraping; queries keep answering from the last scrape.
func (s *Source) Stop() {
	s.running = false
	s.token++
}

// SetAvailable makes PodCPU answer (true, the default) or fail with
// ErrUnavailable (false), a metrics API outage.
func (s *Source) SetAvailable(up bool) { s.down = !up }

// Scrapes returns how many scrapes the source has made.
func (s *Source) Scrapes() uint64 { return s.scrapes }

// arm schedules the next scrape at the next resolution boundary.
func (s *Source) arm() {
	now := s.k.Now()
	next := now - now%kernel.Time(s.res) + kernel.Time(s.res)
	s.token++
	s.k.Schedule(next, (*timer)(s), s.token)
}

// timer fires the scrapes.
type timer Source

// Fire scrapes and re-arms, unless the source was stopped since.
func (t *timer) Fire(k *kernel.Kernel, token uint64) {
	s := (*Source)(t)
	if !s.running || token != s.token {
		return
	}
	s.scrape(k.Now())
	s.arm()
}

// scrape samples every model's pods as of now, stamped at.
func (s *Source) scrape(at kernel.Time) {
	s.begin(at)
	selected := s.selected()
	// seen holds the pods of earlier models, by pointer: one scrape's
	// lists come from one state of the store, where a key is one object.
	seen := map[*api.Pod]bool{}
	for i := range s.models {
		m := &s.models[i]
		objs := selected[i]
		ready := 0
		for _, p := range objs {
			if podReady(p) && !seen[p] {
				ready++
			}
		}
		for _, p := range objs {
			if seen[p] {
				continue
			}
			seen[p] = true
			if v, ok := m.Usage(p, ready, at.Duration()); ok {
				s.samples = append(s.samples, Sample{Key: p.Key(), Milli: v, labels: p.Labels})
			}
		}
	}
}

// begin starts a scrape stamped at: no samples, no index of them.
func (s *Source) begin(at kernel.Time) {
	s.scrapes++
	s.samples = s.samples[:0]
	clear(s.byLabel)
	s.at, s.scraped = at, true
}

// Samples returns a copy of the last scrape, in model then
// namespace/name order, and its time (zero before the first scrape).
func (s *Source) Samples() ([]Sample, time.Time) {
	if !s.scraped {
		return nil, time.Time{}
	}
	out := make([]Sample, len(s.samples))
	copy(out, s.samples)
	return out, s.at.Wall()
}

// PodCPU returns the CPU usage in millicores of the pods of namespace
// whose labels sel matches, by pod name, from the last scrape, and that
// scrape's time: the value at the last resolution boundary. Before the
// first scrape the map is empty and the time zero. It implements the HPA
// controller's MetricsClient.
func (s *Source) PodCPU(_ context.Context, namespace string, sel api.Selector) (map[string]int64, time.Time, error) {
	if s.down {
		return nil, time.Time{}, ErrUnavailable
	}
	out := map[string]int64{}
	if !s.scraped {
		return out, time.Time{}, nil
	}
	// A target's selector (an HPA's) mostly requires a label's value:
	// the samples under that value are the only candidates, so that a
	// query costs its own pods, not every pod of the cluster (ten HPAs
	// over 9,000 pods matched 90,000 label sets a scrape).
	if key, value, ok := sel.ExactMatch(); ok {
		for _, i := range s.labelIndex(key)[nsValue{namespace, value}] {
			if smp := &s.samples[i]; sel.Matches(smp.labels) {
				out[smp.Key.Name] = smp.Milli
			}
		}
		return out, s.at.Wall(), nil
	}
	for _, smp := range s.samples {
		if smp.Key.Namespace == namespace && sel.Matches(smp.labels) {
			out[smp.Key.Name] = smp.Milli
		}
	}
	return out, s.at.Wall(), nil
}

// nsValue is a namespace and a label's value.
type nsValue struct{ namespace, value string }

// labelIndex returns the last scrape's samples by namespace and the value
// of label key (those without the label are left out), made on the first
// query for key after a scrape.
func (s *Source) labelIndex(key string) map[nsValue][]int32 {
	if idx, ok := s.byLabel[key]; ok {
		return idx
	}
	idx := map[nsValue][]int32{}
	for i := range s.samples {
		smp := &s.samples[i]
		if v, ok := smp.labels[key]; ok {
			k := nsValue{smp.Key.Namespace, v}
			idx[k] = append(idx[k], int32(i))
		}
	}
	if s.byLabel == nil {
		s.byLabel = map[string]map[nsValue][]int32{}
	}
	s.byLabel[key] = idx
	return idx
}
