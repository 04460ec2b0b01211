package apiserver

import (
	"fmt"
	"maps"
	"slices"
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
			// Upstream names the requests field, not the resource.
			"spec.containers[1].resources.requests: Invalid value: \"2\": must be less than or equal to cpu limit of 1"},
		{"a typo in a resource name", api.Container{Resources: api.ResourceRequirements{Requests: api.ResourceList{"memmory": q("1Gi")}}},
			"spec.containers[1].resources.requests[memmory]: Invalid value: \"memmory\": must be a standard resource type or fully qualified; " +
				"spec.containers[1].resources.requests[memmory]: Invalid value: \"memmory\": must be a standard resource for containers"},
		{"a quota name as a resource", api.Container{Resources: api.ResourceRequirements{Limits: api.ResourceList{"limits.cpu": q("1")}}},
			"spec.containers[1].resources.limits[limits.cpu]: Invalid value: \"limits.cpu\": must be a standard resource for containers"},
		{"an extended resource requested without a limit", api.Container{Resources: api.ResourceRequirements{Requests: api.ResourceList{"nvidia.com/gpu": q("1")}}},
			"spec.containers[1].resources.limits: Required value: Limit must be set for non overcommitable resources"},
		{"an extended resource's request below its limit", api.Container{Resources: api.ResourceRequirements{Requests: api.ResourceList{"nvidia.com/gpu": q("1")}, Limits: api.ResourceList{"nvidia.com/gpu": q("2")}}},
			"spec.containers[1].resources.requests: Invalid value: \"1\": must be equal to nvidia.com/gpu limit of 2"},
		{"half a GPU", api.Container{Resources: api.ResourceRequirements{Limits: api.ResourceList{"nvidia.com/gpu": q("500m")}}},
			"spec.containers[1].resources.limits[nvidia.com/gpu]: Invalid value: \"500m\": must be an integer"},
		{"an extended resource and cpu", api.Container{Resources: api.ResourceRequirements{Requests: api.ResourceList{"nvidia.com/gpu": q("1"), "cpu": q("1")}, Limits: api.ResourceList{"nvidia.com/gpu": q("1")}}}, ""},
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

// TestValidatePodSpecContainers checks the containers' names and images,
// reported in order with their field names: duplicates found by a scan
// among a few containers and by a set among many (a planted set that
// forgot each name once checked made the late duplicate's case fail).
func TestValidatePodSpecContainers(t *testing.T) {
	named := func(names ...string) []api.Container {
		var cs []api.Container
		for _, n := range names {
			cs = append(cs, api.Container{Name: n, Image: "nginx"})
		}
		return cs
	}
	many := func(extra ...string) []api.Container {
		var names []string
		for i := range 12 {
			names = append(names, fmt.Sprintf("c%d", i))
		}
		return named(append(names, extra...)...)
	}
	tests := []struct {
		name string
		cs   []api.Container
		want string
	}{
		{"valid", named("a", "b"), ""},
		{"none", nil, "spec.containers: Required value"},
		{"duplicate", named("a", "b", "a"), `spec.containers[2].name: Duplicate value: "a"`},
		{"duplicate among many", many("c3"), `spec.containers[12].name: Duplicate value: "c3"`},
		{"duplicate of a late one among many", many("x", "y", "x"), `spec.containers[14].name: Duplicate value: "x"`},
		{"empty name and image", []api.Container{{}}, "spec.containers[0].name: Required value; spec.containers[0].image: Required value"},
		{"invalid name", named("A"), `spec.containers[0].name: Invalid value: "A": ` + labelMsg},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, e := range validatePodSpec("spec", &api.PodSpec{Containers: tc.cs}) {
				got = append(got, e.Error())
			}
			if g := strings.Join(got, "; "); g != tc.want {
				t.Errorf("errors %q, want %q", g, tc.want)
			}
		})
	}
}

// TestValidateLabelsOrder checks that label errors come in key order
// whatever the map's order (the check that finds none skips the sort).
func TestValidateLabelsOrder(t *testing.T) {
	labels := map[string]string{"b/c/d": "ok", "a": "-bad-", "ok": "fine", "z": "x_"}
	var got []string
	for range 5 {
		got = got[:0]
		for _, e := range validateLabels("metadata.labels", labels, nil) {
			got = append(got, e.Error())
		}
		if len(got) != 3 || !strings.Contains(got[0], `"-bad-"`) || !strings.Contains(got[1], `"b/c/d"`) || !strings.Contains(got[2], `"x_"`) {
			t.Fatalf("errors %q", got)
		}
	}
	if errs := validateLabels("metadata.labels", map[string]string{"app": "web", "example.com/tier": "front"}, nil); len(errs) != 0 {
		t.Errorf("valid labels: %v", errs)
	}
}

// TestValidateInitContainerResources: init containers' resources are
// validated as the containers' are (upstream's validateInitContainers);
// before, a sidecar's typo'd resource name was stored.
func TestValidateInitContainerResources(t *testing.T) {
	spec := &api.PodSpec{Containers: []api.Container{{Name: "c"}}, InitContainers: []api.Container{{Name: "log",
		Resources: api.ResourceRequirements{Limits: api.ResourceList{"cpus": api.MustParseQuantity("1")}}}}}
	var got []string
	for _, e := range validatePodResources("spec", spec, nil) {
		got = append(got, e.Error())
	}
	want := "spec.initContainers[0].resources.limits[cpus]: Invalid value: \"cpus\": must be a standard resource type or fully qualified; " +
		"spec.initContainers[0].resources.limits[cpus]: Invalid value: \"cpus\": must be a standard resource for containers"
	if g := strings.Join(got, "; "); g != want {
		t.Errorf("errors %q\nwant %q", g, want)
	}
}

// TestValidateNames: metadata.name follows the rule of its kind, as
// ValidateObjectMeta's nameFn does: a Namespace's is a DNS-1123 label, a
// Service's a DNS-1035 label (no leading digit, no dot), a CronJob's at
// most 52 characters; before, every kind took the subdomain rule, so a
// Service "2048-game" or a Namespace "team.a" was stored.
func TestValidateNames(t *testing.T) {
	long := strings.Repeat("a", 53)
	long254 := strings.Repeat("a", 254)
	tests := []struct {
		obj  api.Object
		want string
	}{
		{&api.Namespace{ObjectMeta: api.ObjectMeta{Name: "team-a"}}, ""},
		{&api.Namespace{ObjectMeta: api.ObjectMeta{Name: "team.a"}}, `metadata.name: Invalid value: "team.a": ` + labelMsg},
		{&api.Service{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"}}, ""},
		{&api.Service{ObjectMeta: api.ObjectMeta{Name: "2048-game", Namespace: "default"}}, `metadata.name: Invalid value: "2048-game": ` + dns1035LabelMsg},
		{&api.Service{ObjectMeta: api.ObjectMeta{Name: "web.api", Namespace: "default"}}, `metadata.name: Invalid value: "web.api": ` + dns1035LabelMsg},
		{&api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "web.config", Namespace: "default"}}, ""},
		{&api.CronJob{ObjectMeta: api.ObjectMeta{Name: long, Namespace: "default"}}, `metadata.name: Invalid value: "` + long + `": must be no more than 52 characters`},
		// NameIsDNSSubdomain is util/validation's IsDNS1123Subdomain
		// (v0.37.2): the length first, in characters, then the pattern.
		{&api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: long254, Namespace: "default"}}, `metadata.name: Invalid value: "` + long254 + `": must be no more than 253 characters`},
		{&api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: long254 + "-", Namespace: "default"}},
			`metadata.name: Invalid value: "` + long254 + `-": must be no more than 253 characters; metadata.name: Invalid value: "` + long254 + `-": ` + subdomainMsg},
	}
	for _, tc := range tests {
		var got []string
		for _, e := range validateName(tc.obj, tc.obj.GetObjectMeta().Name, nil) {
			got = append(got, e.Error())
		}
		if g := strings.Join(got, "; "); g != tc.want {
			t.Errorf("%T %q: %q\nwant %q", tc.obj, tc.obj.GetObjectMeta().Name, g, tc.want)
		}
	}
}

// TestValidateObjectMeta: the metadata ValidateObjectMeta checks beyond
// the name and labels, with its messages.
func TestValidateObjectMeta(t *testing.T) {
	const prefix = `ConfigMap "c" is invalid: `
	tests := []struct {
		name string
		meta api.ObjectMeta
		want string // "" for valid
	}{
		{"annotations at the limit", api.ObjectMeta{Annotations: map[string]string{"a": strings.Repeat("x", 256<<10-1)}}, ""},
		{"annotations over the limit", api.ObjectMeta{Annotations: map[string]string{"a": strings.Repeat("x", 256<<10)}},
			`metadata.annotations: Too long: may not be more than 262144 bytes`},
		{"annotations over the limit together", api.ObjectMeta{Annotations: map[string]string{"a": strings.Repeat("x", 200<<10), "b": strings.Repeat("x", 100<<10)}},
			`metadata.annotations: Too long: may not be more than 262144 bytes`},
		{"finalizers", api.ObjectMeta{Finalizers: []string{"foregroundDeletion", "orphan", "kubernetes.io/pvc-protection", "example.com/cleanup"}}, ""},
		{"finalizer with spaces", api.ObjectMeta{Finalizers: []string{"example.com/ok", "not a valid finalizer!!"}},
			`metadata.finalizers: Invalid value: "not a valid finalizer!!": name part ` + qualifiedName + nameExamples},
		{"finalizer with an empty prefix", api.ObjectMeta{Finalizers: []string{"/cleanup"}},
			`metadata.finalizers: Invalid value: "/cleanup": prefix part must be non-empty`},
		{"finalizer with two slashes", api.ObjectMeta{Finalizers: []string{"a/b/c"}},
			`metadata.finalizers: Invalid value: "a/b/c": a valid label key ` + qualifiedName + nameExamples + ` with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cm := &api.ConfigMap{ObjectMeta: tc.meta}
			cm.Name, cm.Namespace = "c", "default"
			want := tc.want
			if want != "" {
				want = prefix + want
			}
			got := ""
			if err := Validate(cm, nil); err != nil {
				got = err.Error()
			}
			if got != want {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
}

// TestValidateObjectMetaUpdate: an update's metadata is checked as
// ValidateObjectMetaUpdate checks it. What the update changes in the
// labels, annotations and finalizers is checked as on create, whether
// or not their count changes; the name and namespace are not checked
// again (the update keeps them), nor is what the stored object holds
// unchanged. The stored objects here hold values no create would pass,
// which no store holds, to tell a value checked from one left alone.
func TestValidateObjectMetaUpdate(t *testing.T) {
	const prefix = `ConfigMap "Bad_Name" is invalid: `
	stored := api.ObjectMeta{Name: "Bad_Name", Namespace: "Bad_NS",
		Labels:      map[string]string{"app": "web", "bad key!": "v"},
		Annotations: map[string]string{"bad key!": "v"},
		Finalizers:  []string{"bad finalizer!"}}
	badLabel := `metadata.labels: Invalid value: "bad key!": name part ` + qualifiedName + nameExamples
	tests := []struct {
		name   string
		update func(m *api.ObjectMeta)
		status bool
		want   string // "" for valid
	}{
		{"the stored metadata, the same maps", func(m *api.ObjectMeta) {}, false, ""},
		{"the stored metadata as a status write", func(m *api.ObjectMeta) {}, true, ""},
		{"equal copies of the maps", func(m *api.ObjectMeta) {
			m.Labels, m.Annotations, m.Finalizers = maps.Clone(m.Labels), maps.Clone(m.Annotations), slices.Clone(m.Finalizers)
		}, false, ""},
		{"a label changed, as many labels", func(m *api.ObjectMeta) {
			m.Labels = map[string]string{"app": "web", "bad/key/2": "v"}
		}, false, `metadata.labels: Invalid value: "bad/key/2": a valid label key ` + qualifiedName + nameExamples + ` with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`},
		{"a label value changed", func(m *api.ObjectMeta) {
			m.Labels = map[string]string{"app": "web", "bad key!": "w"}
		}, false, badLabel},
		{"an annotation added", func(m *api.ObjectMeta) {
			m.Annotations = map[string]string{"bad key!": "v", "also bad!": "v"}
		}, true, `[metadata.annotations: Invalid value: "also bad!": name part ` + qualifiedName + nameExamples + `, metadata.annotations: Invalid value: "bad key!": name part ` + qualifiedName + nameExamples + `]`},
		{"a finalizer changed", func(m *api.ObjectMeta) { m.Finalizers = []string{"/cleanup"} }, false,
			`metadata.finalizers: Invalid value: "/cleanup": prefix part must be non-empty`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			old := &api.ConfigMap{ObjectMeta: stored}
			cm := &api.ConfigMap{ObjectMeta: stored}
			tc.update(&cm.ObjectMeta)
			validate := Validate
			if tc.status {
				validate = ValidateStatusUpdate
			}
			want := tc.want
			if want != "" {
				want = prefix + want
			}
			got := ""
			if err := validate(cm, old); err != nil {
				got = err.Error()
			}
			if got != want {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
}
