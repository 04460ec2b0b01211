package apiserver

import (
	"strings"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestValidateContainerFields holds port names, environment variable
// names and probes to upstream's validateContainerPorts, ValidateEnv and
// validateProbe, and a Service's port names to validateServicePort:
// before, a port named "prometheus-metrics" (16 characters), two ports
// named http, a probe without a handler and a two-port Service without
// port names were stored.
func TestValidateContainerFields(t *testing.T) {
	raw := func(js string) *api.RawValue { v := api.RawValue(js); return &v }
	probe := func(p api.Probe) *api.Probe { return &p }
	tests := []struct {
		name string
		c    api.Container
		want string
	}{
		{"usual ports, env and probes", api.Container{Ports: []api.ContainerPort{{Name: "http", ContainerPort: 80}, {Name: "http-metrics", ContainerPort: 9090}},
			Env:            []api.EnvVar{{Name: "LOG_LEVEL", Value: "info"}, {Name: "my.dotted-name", Value: "x"}},
			ReadinessProbe: probe(api.Probe{ProbeHandler: api.ProbeHandler{HTTPGet: raw(`{"port":80}`)}, SuccessThreshold: 2}),
			LivenessProbe:  probe(api.Probe{ProbeHandler: api.ProbeHandler{TCPSocket: raw(`{"port":80}`)}, SuccessThreshold: 1})}, ""},
		{"a port name over 15 characters", api.Container{Ports: []api.ContainerPort{{Name: "prometheus-metrics", ContainerPort: 9090}}},
			`spec.containers[0].ports[0].name: Invalid value: "prometheus-metrics": must be no more than 15 characters`},
		{"a port name with a capital and no letter", api.Container{Ports: []api.ContainerPort{{Name: "HTTP", ContainerPort: 80}, {Name: "8080", ContainerPort: 8080}}},
			`spec.containers[0].ports[0].name: Invalid value: "HTTP": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-); ` +
				`spec.containers[0].ports[0].name: Invalid value: "HTTP": must contain at least one letter (a-z); ` +
				`spec.containers[0].ports[1].name: Invalid value: "8080": must contain at least one letter (a-z)`},
		{"two ports of one name", api.Container{Ports: []api.ContainerPort{{Name: "http", ContainerPort: 80}, {Name: "http", ContainerPort: 81}}},
			`spec.containers[0].ports[1].name: Duplicate value: "http"`},
		{"an env name with =", api.Container{Env: []api.EnvVar{{Name: "A=B"}}},
			`spec.containers[0].env[0].name: Invalid value: "A=B": a valid environment variable name must consist only of printable ASCII characters other than '='`},
		{"a probe without a handler", api.Container{ReadinessProbe: probe(api.Probe{PeriodSeconds: 5})},
			`spec.containers[0].readinessProbe: Required value: must specify a handler type`},
		{"a probe with two handlers", api.Container{LivenessProbe: probe(api.Probe{ProbeHandler: api.ProbeHandler{Exec: raw(`{"command":["true"]}`), HTTPGet: raw(`{"port":80}`)}, SuccessThreshold: 1})},
			`spec.containers[0].livenessProbe.httpGet: Forbidden: may not specify more than 1 handler type`},
		{"a liveness probe's success threshold", api.Container{LivenessProbe: probe(api.Probe{ProbeHandler: api.ProbeHandler{Exec: raw(`{"command":["true"]}`)}, SuccessThreshold: 3})},
			`spec.containers[0].livenessProbe.successThreshold: Invalid value: 3: must be 1`},
		{"a negative period", api.Container{StartupProbe: probe(api.Probe{ProbeHandler: api.ProbeHandler{Exec: raw(`{"command":["true"]}`)}, PeriodSeconds: -1, SuccessThreshold: 1})},
			`spec.containers[0].startupProbe.periodSeconds: Invalid value: -1: must be greater than or equal to 0`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.c.Name, tc.c.Image = "c", "nginx"
			var got []string
			for _, e := range validatePodSpec("spec", &api.PodSpec{Containers: []api.Container{tc.c}}) {
				got = append(got, e.Error())
			}
			if g := strings.Join(got, "; "); g != tc.want {
				t.Errorf("errors %q\nwant %q", g, tc.want)
			}
		})
	}
	svc := func(names ...string) *api.ServiceSpec {
		s := &api.ServiceSpec{}
		for i, n := range names {
			// As defaulted: protocol TCP, targetPort the port.
			s.Ports = append(s.Ports, api.ServicePort{Name: n, Port: int32(80 + i), Protocol: api.ProtocolTCP, TargetPort: api.FromInt32(int32(80 + i))})
		}
		return s
	}
	for _, tc := range []struct {
		name string
		spec *api.ServiceSpec
		want string
	}{
		{"one unnamed port", svc(""), ""},
		{"two named ports", svc("http", "https"), ""},
		{"two unnamed ports", svc("", ""), "spec.ports[0].name: Required value; spec.ports[1].name: Required value"},
		{"two ports of one name", svc("http", "http"), `spec.ports[1].name: Duplicate value: "http"`},
		{"a port name that is no label", svc("HTTP"), `spec.ports[0].name: Invalid value: "HTTP": ` + labelMsg},
		{"a named target port that is no port name", func() *api.ServiceSpec {
			s := svc("http")
			s.Ports[0].TargetPort = api.FromString("http_port")
			return s
		}(), `spec.ports[0].targetPort: Invalid value: "http_port": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)`},
		{"a named target port", func() *api.ServiceSpec {
			s := svc("http")
			s.Ports[0].TargetPort = api.FromString("http-alt")
			return s
		}(), ""},
	} {
		var got []string
		for _, e := range validateServicePorts(tc.spec, nil) {
			got = append(got, e.Error())
		}
		if g := strings.Join(got, "; "); g != tc.want {
			t.Errorf("%s: errors %q\nwant %q", tc.name, g, tc.want)
		}
	}
}

// TestValidateLifecycleSleep: a hook's sleep action may not be negative
// nor last longer than the pod's grace period (validateSleepAction; 0 is
// allowed since PodLifecycleSleepActionAllowZero went GA).
func TestValidateLifecycleSleep(t *testing.T) {
	grace := func(s int64) *int64 { return &s }
	tests := []struct {
		name      string
		lifecycle string
		grace     *int64
		want      string
	}{
		{"a preStop sleep within the grace period", `{"preStop":{"sleep":{"seconds":30}}}`, grace(30), ""},
		{"a preStop sleep of 0", `{"preStop":{"sleep":{"seconds":0}}}`, grace(30), ""},
		{"a preStop sleep longer than the grace period", `{"preStop":{"sleep":{"seconds":9223372036854775807}}}`, grace(30),
			`spec.containers[0].lifecycle.preStop.sleep: Invalid value: 9223372036854775807: must be non-negative and less than terminationGracePeriodSeconds (30)`},
		{"a negative postStart sleep", `{"postStart":{"sleep":{"seconds":-1}}}`, grace(30),
			`spec.containers[0].lifecycle.postStart.sleep: Invalid value: -1: must be non-negative and less than terminationGracePeriodSeconds (30)`},
		{"a preStop sleep with no grace period", `{"preStop":{"sleep":{"seconds":90}}}`, nil, ""},
		{"an exec preStop", `{"preStop":{"exec":{"command":["sleep","90"]}}}`, grace(30), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lc := api.RawValue(tc.lifecycle)
			spec := &api.PodSpec{TerminationGracePeriodSeconds: tc.grace, Containers: []api.Container{{Name: "c", Image: "nginx", Lifecycle: &lc}}}
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
