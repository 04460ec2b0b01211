package apiserver

import (
	"strings"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestValidateVolumes holds a pod spec's volumes and mounts to upstream's
// ValidateVolumes and ValidateVolumeMounts: before, a mount of a volume
// the pod does not declare (a chart whose volume is behind a condition)
// was stored, where the API server answers "Not found".
func TestValidateVolumes(t *testing.T) {
	vol := func(name string) api.Volume {
		return api.Volume{Name: name, Source: map[string]api.RawValue{"emptyDir": api.RawValue("{}")}}
	}
	mount := func(name, path string) api.VolumeMount { return api.VolumeMount{Name: name, MountPath: path} }
	tests := []struct {
		name   string
		vols   []api.Volume
		mounts []api.VolumeMount
		init   []api.VolumeMount
		want   string
	}{
		{"mounts of declared volumes", []api.Volume{vol("config"), vol("tmp")}, []api.VolumeMount{mount("config", "/etc/web"), mount("tmp", "/tmp")}, nil, ""},
		{"a mount of an undeclared volume", []api.Volume{vol("tmp")}, []api.VolumeMount{mount("config", "/etc/web")}, nil,
			`spec.containers[0].volumeMounts[0].name: Not found: "config"`},
		{"an init container's mount", []api.Volume{vol("tmp")}, nil, []api.VolumeMount{mount("data", "/data")},
			`spec.initContainers[0].volumeMounts[0].name: Not found: "data"`},
		{"two mounts at one path", []api.Volume{vol("a"), vol("b")}, []api.VolumeMount{mount("a", "/x"), mount("b", "/x")}, nil,
			`spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/x": must be unique`},
		{"a mount without a path", []api.Volume{vol("a")}, []api.VolumeMount{{Name: "a"}}, nil,
			`spec.containers[0].volumeMounts[0].mountPath: Required value`},
		{"a duplicate volume, a volume without a name, a bad name", []api.Volume{vol("a"), vol("a"), vol(""), vol("My_Vol")}, nil, nil,
			`spec.volumes[1].name: Duplicate value: "a"; spec.volumes[2].name: Required value; spec.volumes[3].name: Invalid value: "My_Vol": ` + labelMsg},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			spec := &api.PodSpec{Volumes: tc.vols, Containers: []api.Container{{Name: "c", Image: "nginx", VolumeMounts: tc.mounts}}}
			if tc.init != nil {
				spec.InitContainers = []api.Container{{Name: "i", Image: "busybox", VolumeMounts: tc.init}}
			}
			var got []string
			for _, e := range validatePodSpec("spec", spec) {
				got = append(got, e.Error())
			}
			if g := strings.Join(got, "; "); g != tc.want {
				t.Errorf("errors %q\nwant %q", g, tc.want)
			}
		})
	}
}
