package kubelet

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Registry errors, matched with errors.Is on the error a pull returns.
var (
	// ErrInvalidReference: the image string is not a valid reference; the
	// container waits with reason InvalidImageName and is never pulled.
	ErrInvalidReference = errors.New("invalid reference format")
	// ErrUnknownRepository: the registry has no such repository.
	ErrUnknownRepository = errors.New("repository does not exist")
	// ErrUnknownTag: the repository has no such tag or digest.
	ErrUnknownTag = errors.New("tag not found")
)

// Reference is a parsed image reference, normalized as containerd shows
// it: "nginx:1.14.2" is docker.io/library/nginx with tag 1.14.2.
type Reference struct {
	// Domain is the registry host, "docker.io" when the reference names
	// none.
	Domain string
	// Path is the repository path within the registry, with "library/"
	// added for single-component Docker Hub names.
	Path string
	// Tag is the tag; "latest" when the reference has neither tag nor
	// digest.
	Tag string
	// Digest is "sha256:<hex>" when the reference pins one.
	Digest string
}

var (
	// pathComponent is distribution/reference's path component grammar.
	pathComponent = regexp.MustCompile(`^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$`)
	tagPattern    = regexp.MustCompile(`^[\w][\w.-]{0,127}$`)
	digestPattern = regexp.MustCompile(`^sha256:[a-f0-9]{64}$`)
	domainPattern = regexp.MustCompile(`^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*|\[[a-fA-F0-9:]+\])(?::[0-9]+)?$`)
)

// ParseReference parses "[domain/]path[:tag][@digest]" as the container
// runtime does (docker's ParseNormalizedNamed): the first component is a
// domain when it contains "." or ":" or is "localhost"; Docker Hub names
// get "library/"; no tag and no digest means "latest". Errors wrap
// ErrInvalidReference.
func ParseReference(s string) (Reference, error) {
	bad := func() (Reference, error) {
		return Reference{}, fmt.Errorf("couldn't parse image name %q: %w", s, ErrInvalidReference)
	}
	if s == "" {
		return bad()
	}
	var r Reference
	rest := s
	if i := strings.IndexByte(rest, '@'); i >= 0 {
		r.Digest = rest[i+1:]
		rest = rest[:i]
		if !digestPattern.MatchString(r.Digest) {
			return bad()
		}
	}
	// A tag is a ":" after the last "/" (a ":" before it is a port).
	if i := strings.LastIndexByte(rest, ':'); i > strings.LastIndexByte(rest, '/') {
		r.Tag = rest[i+1:]
		rest = rest[:i]
		if !tagPattern.MatchString(r.Tag) {
			return bad()
		}
	}
	first, remainder, hasSlash := strings.Cut(rest, "/")
	if hasSlash && (strings.ContainsAny(first, ".:") || first == "localhost") {
		if !domainPattern.MatchString(first) {
			return bad()
		}
		r.Domain, r.Path = first, remainder
	} else {
		r.Domain, r.Path = "docker.io", rest
	}
	if r.Domain == "index.docker.io" {
		r.Domain = "docker.io"
	}
	for _, c := range strings.Split(r.Path, "/") {
		if !pathComponent.MatchString(c) {
			return bad()
		}
	}
	if r.Domain == "docker.io" && !strings.Contains(r.Path, "/") {
		r.Path = "library/" + r.Path
	}
	if len(r.Domain)+1+len(r.Path) > 255 {
		return bad()
	}
	if r.Tag == "" && r.Digest == "" {
		r.Tag = "latest"
	}
	return r, nil
}

// Repository returns "domain/path", e.g. "docker.io/library/nginx".
func (r Reference) Repository() string { return r.Domain + "/" + r.Path }

// String returns the normalized reference, e.g.
// "docker.io/library/nginx:1.14.2" or "registry.k8s.io/pause@sha256:...".
func (r Reference) String() string {
	s := r.Repository()
	if r.Tag != "" {
		s += ":" + r.Tag
	}
	if r.Digest != "" {
		s += "@" + r.Digest
	}
	return s
}

// Exit makes every container of an image stop by itself.
type Exit struct {
	// After is how long the container runs before it exits.
	After time.Duration
	// Code is its exit code: 0 reads "Completed", anything else "Error".
	Code int32
}

// Image is how an image behaves in the simulation: how long it takes to
// pull, and what its containers do (run until stopped unless Exit says
// otherwise). Commands and arguments in pod specs are not interpreted.
type Image struct {
	// PullTime is how long pulling the image takes when the node does not
	// have it (default 1s).
	PullTime time.Duration
	// Size is the image size in bytes, shown in the Pulled event.
	Size int64
	// Exit, if set, makes containers exit on their own: a crash-looping
	// image is Exit{After: 5 * time.Second, Code: 1}.
	Exit *Exit
	// StopTime is how long a container takes to exit (with code 0) after
	// SIGTERM, or after the image's own stop signal (nginx's SIGQUIT,
	// httpd's SIGWINCH: containerd sends the image's STOPSIGNAL); 0 means
	// DefaultStopTime. It is killed (exit code 137) if the grace period
	// ends first.
	StopTime time.Duration
	// IgnoresSigterm: the container's main process does not exit on the
	// stop signal (a shell or "sleep" running as PID 1 without a handler):
	// it runs until it is killed with SIGKILL (exit code 137) when the
	// grace period ends, as every container did before images reacted to
	// SIGTERM.
	IgnoresSigterm bool
	// ReadyAfter is how long after a container starts its application
	// answers: before, every probe of it fails (the connection is
	// refused; an exec probe's command fails). 0: at once.
	ReadyAfter time.Duration
	// UnhealthyAfter, if positive, is how long after a container starts
	// its application hangs: from then its httpGet, exec and grpc probes
	// fail after their timeoutSeconds (a tcpSocket probe still connects).
	UnhealthyAfter time.Duration
	// digest is "sha256:<hex>", derived from the reference.
	digest string
}

// DefaultPullTime is the pull time of an image added without one.
const DefaultPullTime = time.Second

// Registry is the image registry every kubelet of a run pulls from: known
// repositories and their tags. A reference to an unknown repository or tag
// fails to pull, with the runtime's error. It may be changed between
// events (a tag pushed mid-run); it is not safe for concurrent use, like
// everything on the event loop.
type Registry struct {
	repos map[string]map[string]*Image // repository -> tag -> image
	// assume, when set, makes a repository the registry does not know
	// pull anyway (see AssumeUnknown); assumed holds those images by
	// normalized reference.
	assume  func(Reference) Image
	assumed map[string]*Image
	// known holds what resolve found for each reference asked about since
	// the registry last changed, shared by every container of the image:
	// a container keeps a pointer, not its own copy (150,000 containers at
	// 5,000 nodes, one image).
	known map[string]*resolved
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{repos: map[string]map[string]*Image{}} }

// Add pushes img as ref ("nginx:1.14.2", "registry.k8s.io/pause:3.10");
// a reference without a tag is pushed as "latest". Its digest is derived
// from the normalized reference, so it is the same in every run.
func (r *Registry) Add(ref string, img Image) error {
	p, err := ParseReference(ref)
	if err != nil {
		return err
	}
	if p.Digest != "" {
		return fmt.Errorf("add %q: push by tag, not by digest: %w", ref, ErrInvalidReference)
	}
	if img.PullTime <= 0 {
		img.PullTime = DefaultPullTime
	}
	sum := sha256.Sum256([]byte(p.String()))
	img.digest = "sha256:" + hex.EncodeToString(sum[:])
	tags := r.repos[p.Repository()]
	if tags == nil {
		tags = map[string]*Image{}
		r.repos[p.Repository()] = tags
	}
	tags[p.Tag] = &img
	clear(r.known)
	return nil
}

// SetPullTime sets the pull time of every image pushed so far (a value
// not above zero means DefaultPullTime, as in Add).
func (r *Registry) SetPullTime(d time.Duration) {
	if d <= 0 {
		d = DefaultPullTime
	}
	for _, tags := range r.repos {
		for _, img := range tags {
			img.PullTime = d
		}
	}
	clear(r.known)
}

// Tags returns the tags of a repository ("nginx" or its normalized form),
// sorted.
func (r *Registry) Tags(repo string) []string {
	p, err := ParseReference(repo)
	if err != nil {
		return nil
	}
	var out []string
	for t := range r.repos[p.Repository()] {
		out = append(out, t)
	}
	slices.Sort(out)
	return out
}

// AssumeUnknown makes every repository the registry does not know exist,
// with every tag: a reference to one pulls an image that image(ref)
// describes (its digest is derived from the reference) instead of failing.
// Repositories the registry knows keep their tag lists, so a typo of a
// known image's tag still fails; a digest pinned on one of them that the
// registry does not know is assumed too (the built-in digests are made
// up), as the image of its tag when it has the tag. Assumed lists the
// images assumed so far.
func (r *Registry) AssumeUnknown(image func(Reference) Image) {
	r.assume = image
	r.assumed = map[string]*Image{}
	clear(r.known)
}

// AssumedImage is the image AssumeUnknown's callers use by default: its
// pull time depends on the reference, between 1s and 4s in steps of
// 100ms (derived from the reference's SHA-256, so the same in every run),
// its size is 20 MiB per second of pull, and it exits on SIGTERM within
// 100ms to 1s (in steps of 100ms, from the same hash).
func AssumedImage(ref Reference) Image {
	sum := sha256.Sum256([]byte(ref.Repository() + ":" + ref.Tag))
	tenths := 10 + (int64(sum[0])<<8|int64(sum[1]))%31
	stop := time.Duration(1+int64(sum[2])%10) * 100 * time.Millisecond
	return Image{PullTime: time.Duration(tenths) * 100 * time.Millisecond, Size: tenths * 2 << 20, StopTime: stop}
}

// Known reports whether the registry has the repository of ref
// ("redis:alpine" asks about docker.io/library/redis), not counting
// assumed ones.
func (r *Registry) Known(ref string) bool {
	p, err := ParseReference(ref)
	if err != nil {
		return false
	}
	_, ok := r.repos[p.Repository()]
	return ok
}

// Assumed returns the normalized references of the images pulled (or
// looked up) so far that AssumeUnknown let exist, sorted.
func (r *Registry) Assumed() []string {
	out := make([]string, 0, len(r.assumed))
	for ref := range r.assumed {
		out = append(out, ref)
	}
	slices.Sort(out)
	return out
}

// resolved is a reference the registry knows.
type resolved struct {
	ref   Reference
	image *Image
	// id is the image ID a container status shows:
	// "<repository>@<digest>".
	id string
	// name is the normalized "repository:tag" (or "@digest") the node's
	// image cache is keyed by.
	name string
}

// resolveShared is resolve, remembered until the registry changes: the
// result is shared and must not be changed. A failure is not kept.
func (r *Registry) resolveShared(ref string) (*resolved, error) {
	if res, ok := r.known[ref]; ok {
		return res, nil
	}
	res, err := r.resolve(ref)
	if err != nil {
		return nil, err
	}
	if r.known == nil {
		r.known = map[string]*resolved{}
	}
	r.known[ref] = &res
	return &res, nil
}

// Resolve looks ref up. Errors wrap ErrInvalidReference,
// ErrUnknownRepository or ErrUnknownTag and read as containerd's.
func (r *Registry) Resolve(ref string) (Image, error) {
	res, err := r.resolve(ref)
	if err != nil {
		return Image{}, err
	}
	return *res.image, nil
}

func (r *Registry) resolve(ref string) (resolved, error) {
	p, err := ParseReference(ref)
	if err != nil {
		return resolved{}, err
	}
	full := p.String()
	tags, ok := r.repos[p.Repository()]
	if ok && r.assume != nil && p.Digest != "" && !hasDigest(tags, p.Digest) {
		// The built-in registry's digests are made up, so a pinned
		// digest of a known repository cannot be checked: it is assumed,
		// as the image of its tag when the repository has the tag.
		ok = false
	}
	if !ok && r.assume != nil {
		img := r.assumed[full]
		if img == nil {
			a := r.assume(p)
			if known := tags[p.Tag]; known != nil {
				a = *known
			}
			if a.PullTime <= 0 {
				a.PullTime = DefaultPullTime
			}
			a.digest = p.Digest
			if a.digest == "" {
				sum := sha256.Sum256([]byte(full))
				a.digest = "sha256:" + hex.EncodeToString(sum[:])
			}
			img = &a
			r.assumed[full] = img
		}
		return resolved{ref: p, image: img, id: p.Repository() + "@" + img.digest, name: full}, nil
	}
	if !ok {
		return resolved{}, &PullError{Err: ErrUnknownRepository, msg: fmt.Sprintf(
			"rpc error: code = Unknown desc = failed to pull and unpack image %q: failed to resolve reference %q: "+
				"pull access denied, repository does not exist or may require authorization: server message: "+
				"insufficient_scope: authorization failed", full, full)}
	}
	notFound := &PullError{Err: ErrUnknownTag, msg: fmt.Sprintf(
		"rpc error: code = NotFound desc = failed to pull and unpack image %q: failed to resolve reference %q: %s: not found",
		full, full, full)}
	var img *Image
	if p.Digest != "" {
		for _, t := range sortedTags(tags) {
			if tags[t].digest == p.Digest {
				img = tags[t]
				break
			}
		}
		if img == nil || (p.Tag != "" && tags[p.Tag] != img) {
			return resolved{}, notFound
		}
	} else if img = tags[p.Tag]; img == nil {
		return resolved{}, notFound
	}
	return resolved{ref: p, image: img, id: p.Repository() + "@" + img.digest, name: full}, nil
}

// hasDigest reports whether one of tags' images has digest d.
func hasDigest(tags map[string]*Image, d string) bool {
	for _, img := range tags {
		if img.digest == d {
			return true
		}
	}
	return false
}

func sortedTags(tags map[string]*Image) []string {
	out := make([]string, 0, len(tags))
	for t := range tags {
		out = append(out, t)
	}
	slices.Sort(out)
	return out
}

// PullError is a failed pull: the registry's message, and the sentinel
// (ErrUnknownRepository, ErrUnknownTag) it matches with errors.Is.
type PullError struct {
	// Err is the sentinel.
	Err error
	msg string
}

// Error returns the container runtime's message.
func (e *PullError) Error() string { return e.msg }

// Unwrap returns the sentinel.
func (e *PullError) Unwrap() error { return e.Err }

// defaultStops is how the built-in registry's images react to being
// stopped. nginx's image stops with SIGQUIT (its STOPSIGNAL: a graceful
// shutdown that ends at once on idle connections), httpd's with SIGWINCH
// (graceful, likewise), redis exits on SIGTERM after closing its clients
// (no persistence configured in the image), the pause container exits on
// SIGTERM at once; the PHP/Apache samples (gb-frontend, hpa-example)
// stop like httpd. busybox's containers run a shell or "sleep" as PID 1,
// which ignores SIGTERM: they wait for the grace period and are killed.
var defaultStops = map[string]struct {
	stop    time.Duration
	ignores bool
}{
	"docker.io/library/nginx":                                     {stop: 100 * time.Millisecond},
	"docker.io/library/httpd":                                     {stop: 200 * time.Millisecond},
	"docker.io/library/redis":                                     {stop: 200 * time.Millisecond},
	"docker.io/library/busybox":                                   {ignores: true},
	"registry.k8s.io/pause":                                       {stop: 10 * time.Millisecond},
	"registry.k8s.io/e2e-test-images/agnhost":                     {stop: 100 * time.Millisecond},
	"registry.k8s.io/hpa-example":                                 {stop: 300 * time.Millisecond},
	"gcr.io/google-samples/gb-frontend":                           {stop: 300 * time.Millisecond},
	"us-docker.pkg.dev/google-samples/containers/gke/gb-frontend": {stop: 300 * time.Millisecond},
}

// DefaultRegistry returns a registry with the images Kubernetes' examples
// and tutorials use, with plausible pull times and sizes. Each repository
// carries tags that exist on its real registry (Docker Hub's official
// images, registry.k8s.io), so a typo of a tag (nginx:1.161) fails as it
// would in a real cluster. Every container runs until stopped and reacts
// to its stop signal as defaultStops says; add images with an Exit to
// model crash loops.
func DefaultRegistry() *Registry {
	r := NewRegistry()
	const mb = 1 << 20
	add := func(ref string, pull time.Duration, size int64) {
		img := Image{PullTime: pull, Size: size}
		if p, err := ParseReference(ref); err == nil {
			s := defaultStops[p.Repository()]
			img.StopTime, img.IgnoresSigterm = s.stop, s.ignores
		}
		if err := r.Add(ref, img); err != nil {
			panic("kubelet invariant default-registry: " + err.Error())
		}
	}
	for _, e := range []struct {
		ref  string
		pull time.Duration
		size int64
	}{
		{"nginx:1.14.2", 3 * time.Second, 44 * mb},
		{"nginx:1.16.1", 3 * time.Second, 48 * mb},
		{"nginx:1.25", 3500 * time.Millisecond, 67 * mb},
		{"nginx:1.27", 3500 * time.Millisecond, 68 * mb},
		{"nginx:latest", 3500 * time.Millisecond, 68 * mb},
		{"nginx:alpine", 1500 * time.Millisecond, 20 * mb},
		{"busybox:1.36", 800 * time.Millisecond, 2 * mb},
		{"busybox:latest", 800 * time.Millisecond, 2 * mb},
		{"httpd:2.4", 3 * time.Second, 55 * mb},
		{"redis:7", 3 * time.Second, 45 * mb},
		{"gcr.io/google-samples/gb-frontend:v5", 4 * time.Second, 90 * mb},
		{"us-docker.pkg.dev/google-samples/containers/gke/gb-frontend:v5", 4 * time.Second, 90 * mb},
		{"registry.k8s.io/pause:3.9", 300 * time.Millisecond, mb / 2},
		{"registry.k8s.io/pause:3.10", 300 * time.Millisecond, mb / 2},
		{"registry.k8s.io/e2e-test-images/agnhost:2.39", 2 * time.Second, 50 * mb},
		{"registry.k8s.io/hpa-example:latest", 2 * time.Second, 180 * mb},
	} {
		add(e.ref, e.pull, e.size)
	}
	// Every nginx release from 1.14.0 to 1.29.1 is a tag (nginx.org's
	// release history, Docker Hub's tag list), as is each minor line.
	for i, last := range []int{2, 12, 1, 10, 0, 10, 2, 6, 1, 4, 0, 5, 3, 5, 0, 1} {
		minor := 14 + i
		for patch := 0; patch <= last; patch++ {
			if ref := fmt.Sprintf("nginx:1.%d.%d", minor, patch); r.repos["docker.io/library/nginx"][ref[len("nginx:"):]] == nil {
				add(ref, 3500*time.Millisecond, 68*mb)
			}
		}
	}
	// More of the real tags of the same repositories (Docker Hub's tag
	// lists), so that manifests written for them pull.
	for _, e := range []struct {
		repo string
		tags []string
		pull time.Duration
		size int64
	}{
		{"nginx", []string{"1.7.9", "1.15", "1.16", "1.17", "1.18", "1.19", "1.20", "1.21", "1.22", "1.23", "1.24", "1.26", "1.28", "1.29",
			"stable", "mainline"}, 3500 * time.Millisecond, 68 * mb},
		{"nginx", []string{"stable-alpine", "mainline-alpine"}, 1500 * time.Millisecond, 20 * mb},
		{"busybox", []string{"1.28", "1.28.4", "1.29", "1.36.0", "1.36.1", "1.37.0", "1.38", "1.38.0", "1.30", "1.31", "1.32", "1.33", "1.34", "1.35", "1.37", "stable", "musl", "glibc", "uclibc"},
			800 * time.Millisecond, 2 * mb},
		{"httpd", []string{"2.4-alpine", "alpine", "latest"}, 3 * time.Second, 55 * mb},
		{"redis", []string{"6", "6.2", "7.0", "7.2", "7.4", "8", "latest"}, 3 * time.Second, 45 * mb},
		{"redis", []string{"alpine", "7-alpine", "6.2-alpine"}, 1500 * time.Millisecond, 15 * mb},
		{"registry.k8s.io/pause", []string{"3.8"}, 300 * time.Millisecond, mb / 2},
	} {
		for _, t := range e.tags {
			add(e.repo+":"+t, e.pull, e.size)
		}
	}
	return r
}
