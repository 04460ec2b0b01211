package apiserver

import (
	"strings"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestValidatePodResources checks the container ports and resources
// validation, whose field names are only built for a container with
// something to report (containerValid): a planted containerValid that
// always says true made the invalid cases fail.
func TestValidatePodResources(t *testing.T) {
	q := api.MustParseQuantity
	tests := []struct {
		name string
		c    api.Container
		want string // "" for valid
	}{
		{"valid", api.Container{Ports: []api.ContainerPort{{ContainerPort: 80, HostPort: 8080}},
			Resources: api.ResourceRequirements{Requests: api.ResourceList{"cpu": q("100m")}, Limits: api.ResourceList{"cpu": q("1")}}}, ""},
		{"negative limit", api.Container{Resources: api.ResourceRequirements{Limits: api.ResourceList{"cpu": q("-1")}}},
			"spec.containers[1].resources.limits[cpu]: Invalid value: \"-1\": must be greater than or equal to 0"},
		{"negative request", api.Container{Resources: api.ResourceRequirements{Requests: api.ResourceList{"memory": q("-1Mi")}}},
			"spec.containers[1].resources.requests[memory]: Invalid value: \"-1Mi\": must be greater than or equal to 0"},
		{"request above limit", api.Container{Resources: api.ResourceRequirements{Requests: api.ResourceList{"cpu": q("2")}, Limits: api.ResourceList{"cpu": q("1")}}},
			"spec.containers[1].resources.requests[cpu]: Invalid value: \"2\": must be less than or equal to cpu limit of 1"},
		{"no container port", api.Container{Ports: []api.ContainerPort{{}}}, "spec.containers[1].ports[0].containerPort: Required value"},
		{"host port out of range", api.Container{Ports: []api.ContainerPort{{ContainerPort: 80, HostPort: 70000}}},
			"spec.containers[1].ports[0].hostPort: Invalid value: 70000: must be between 1 and 65535, inclusive"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.c.Name = "second"
			spec := &api.PodSpec{Containers: []api.Container{{Name: "first"}, tc.c}}
			errs := validatePodResources("spec", spec, nil)
			var got []string
			for _, e := range errs {
				got = append(got, e.Error())
			}
			if g := strings.Join(got, "; "); g != tc.want {
				t.Errorf("errors %q, want %q", g, tc.want)
			}
		})
	}
}
