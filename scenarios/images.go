package scenarios

import (
	"fmt"
	"time"

	"github.com/clustersim/clustersim/sim/kubelet"
)

// DefaultPullTime is a listed image's pull time when neither the image nor
// spec.registry gives one.
const DefaultPullTime = 2 * time.Second

// ImageRegistry builds the run's image registry from spec.registry. With
// images listed, exactly those repositories and tags exist. Without, the
// built-in registry of common images is used, with the real tag lists of
// its repositories, and every other repository is assumed to exist (with
// any tag): it pulls in a time that depends on the image
// (kubelet.AssumedImage), or in spec.registry.pullTime when given. The
// registry's Assumed lists what was assumed.
func (s *Scenario) ImageRegistry() (*kubelet.Registry, error) {
	spec := s.Spec.Registry
	if len(spec.Images) == 0 {
		reg := kubelet.DefaultRegistry()
		assume := kubelet.AssumedImage
		if spec.PullTime != nil {
			reg.SetPullTime(spec.PullTime.Duration)
			pull := spec.PullTime.Duration
			assume = func(ref kubelet.Reference) kubelet.Image {
				img := kubelet.AssumedImage(ref)
				img.PullTime = pull
				return img
			}
		}
		reg.AssumeUnknown(assume)
		return reg, nil
	}
	pull := DefaultPullTime
	if spec.PullTime != nil {
		pull = spec.PullTime.Duration
	}
	reg := kubelet.NewRegistry()
	for _, im := range spec.Images {
		img := kubelet.Image{PullTime: pull}
		if im.PullTime != nil {
			img.PullTime = im.PullTime.Duration
		}
		if im.ExitAfter != nil {
			code := int32(1)
			if im.ExitCode != nil {
				code = *im.ExitCode
			}
			img.Exit = &kubelet.Exit{After: im.ExitAfter.Duration, Code: code}
		}
		if im.StopTime != nil {
			img.StopTime = im.StopTime.Duration
		}
		img.IgnoresSigterm = im.IgnoresSigterm
		if im.ReadyAfter != nil {
			img.ReadyAfter = im.ReadyAfter.Duration
		}
		if im.UnhealthyAfter != nil {
			img.UnhealthyAfter = im.UnhealthyAfter.Duration
		}
		tags := im.Tags
		if len(tags) == 0 {
			tags = []string{"latest"}
		}
		for _, t := range tags {
			if err := reg.Add(im.Name+":"+t, img); err != nil {
				return nil, fmt.Errorf("registry image %s:%s: %w", im.Name, t, err)
			}
		}
	}
	return reg, nil
}
