package apiserver

import (
	"fmt"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// validateVolumes is the part of ValidateVolumes (k/k
// pkg/apis/core/validation) that does not look into a volume's source
// (kept opaque): each volume has a name, a DNS-1123 label, unique in the
// pod. Nothing is allocated for a valid pod.
func validateVolumes(field string, vols []api.Volume, errs []apierr.FieldError) []apierr.FieldError {
	for i := range vols {
		name := vols[i].Name
		f := func() string { return fmt.Sprintf("%s.volumes[%d].name", field, i) }
		switch {
		case name == "":
			errs = append(errs, apierr.FieldError{Field: f(), Type: "Required value"})
		case len(name) > 63 || !isDNS1123Label(name):
			for _, msg := range dns1123LabelProblems(name) {
				errs = append(errs, apierr.FieldError{Field: f(), Type: "Invalid value", Value: name, Detail: msg})
			}
		default:
			for j := range i {
				if vols[j].Name == name {
					errs = append(errs, apierr.FieldError{Field: f(), Type: "Duplicate value", Value: name})
					break
				}
			}
		}
	}
	return errs
}

// validateVolumeMounts is ValidateVolumeMounts' checks of one container's
// mounts (cf names the container): a name that is one of the pod's
// volumes ("Not found" otherwise), a mountPath, unique in the container.
func validateVolumeMounts(cf func() string, mounts []api.VolumeMount, vols []api.Volume, errs []apierr.FieldError) []apierr.FieldError {
	for i := range mounts {
		m := &mounts[i]
		f := func(child string) string { return fmt.Sprintf("%s.volumeMounts[%d].%s", cf(), i, child) }
		if m.Name == "" {
			errs = append(errs, apierr.FieldError{Field: f("name"), Type: "Required value"})
		}
		found := false
		for j := range vols {
			found = found || vols[j].Name == m.Name
		}
		if !found {
			errs = append(errs, apierr.FieldError{Field: f("name"), Type: "Not found", Value: m.Name})
		}
		if m.MountPath == "" {
			errs = append(errs, apierr.FieldError{Field: f("mountPath"), Type: "Required value"})
		}
		for j := range i {
			if mounts[j].MountPath == m.MountPath {
				errs = append(errs, apierr.FieldError{Field: f("mountPath"), Type: "Invalid value", Value: m.MountPath, Detail: "must be unique"})
				break
			}
		}
	}
	return errs
}
