package apiserver

import (
	"fmt"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// Container checks after k/k pkg/apis/core/validation: port names
// (validateContainerPorts, IsValidPortName), environment variable names
// (ValidateEnv with the relaxed names of 1.34+, IsRelaxedEnvVarName) and
// probes (validateProbe, validateHandler). cf names the container; each
// check allocates nothing for a valid container.

// portNameProblems is IsValidPortName.
func portNameProblems(s string) []string {
	var out []string
	if len(s) > 15 {
		out = append(out, "must be no more than 15 characters")
	}
	charset, letter := true, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter = letter || 'a' <= c && c <= 'z'
		charset = charset && ('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-')
	}
	if !charset || s == "" {
		out = append(out, "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)")
	}
	if !letter {
		out = append(out, "must contain at least one letter (a-z)")
	}
	if strings.Contains(s, "--") {
		out = append(out, "must not contain consecutive hyphens")
	}
	if s != "" && (s[0] == '-' || s[len(s)-1] == '-') {
		out = append(out, "must not begin or end with a hyphen")
	}
	return out
}

// validPortName reports whether IsValidPortName finds nothing, without
// building messages.
func validPortName(s string) bool {
	if len(s) == 0 || len(s) > 15 || s[0] == '-' || s[len(s)-1] == '-' || strings.Contains(s, "--") {
		return false
	}
	letter := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z':
			letter = true
		case '0' <= c && c <= '9' || c == '-':
		default:
			return false
		}
	}
	return letter
}

// validateContainerPortNames checks a container's named ports: each a
// valid port name, unique in the container.
func validateContainerPortNames(cf func() string, ports []api.ContainerPort, errs []apierr.FieldError) []apierr.FieldError {
	for i := range ports {
		name := ports[i].Name
		if name == "" {
			continue
		}
		f := func() string { return fmt.Sprintf("%s.ports[%d].name", cf(), i) }
		if !validPortName(name) {
			for _, msg := range portNameProblems(name) {
				errs = append(errs, apierr.FieldError{Field: f(), Type: "Invalid value", Value: name, Detail: msg})
			}
			continue
		}
		for j := range i {
			if ports[j].Name == name {
				errs = append(errs, apierr.FieldError{Field: f(), Type: "Duplicate value", Value: name})
				break
			}
		}
	}
	return errs
}

// validateEnvNames is ValidateEnv's name checks: a name is required and
// is printable ASCII other than '='.
func validateEnvNames(cf func() string, env []api.EnvVar, errs []apierr.FieldError) []apierr.FieldError {
	for i := range env {
		name := env[i].Name
		f := func() string { return fmt.Sprintf("%s.env[%d].name", cf(), i) }
		if name == "" {
			errs = append(errs, apierr.FieldError{Field: f(), Type: "Required value"},
				apierr.FieldError{Field: f(), Type: "Invalid value", Value: name, Detail: "environment variable name must be non-empty"})
			continue
		}
		for j := 0; j < len(name); j++ {
			if c := name[j]; c < ' ' || c > '~' || c == '=' {
				errs = append(errs, apierr.FieldError{Field: f(), Type: "Invalid value", Value: name,
					Detail: "a valid environment variable name must consist only of printable ASCII characters other than '='"})
				break
			}
		}
	}
	return errs
}

// validateProbes is validateProbe for a container's probes (and its
// liveness and startup probes' successThreshold of 1): exactly one
// handler, non-negative numbers.
func validateProbes(cf func() string, c *api.Container, errs []apierr.FieldError) []apierr.FieldError {
	if c.LivenessProbe == nil && c.ReadinessProbe == nil && c.StartupProbe == nil {
		return errs
	}
	for _, p := range []struct {
		name  string
		probe *api.Probe
	}{{"livenessProbe", c.LivenessProbe}, {"readinessProbe", c.ReadinessProbe}, {"startupProbe", c.StartupProbe}} {
		pr := p.probe
		if pr == nil {
			continue
		}
		f := func() string { return cf() + "." + p.name }
		n := 0
		for _, h := range []struct {
			name string
			set  bool
		}{{"exec", pr.Exec != nil}, {"httpGet", pr.HTTPGet != nil}, {"tcpSocket", pr.TCPSocket != nil}, {"grpc", pr.GRPC != nil}} {
			if !h.set {
				continue
			}
			if n > 0 {
				errs = append(errs, apierr.FieldError{Field: f() + "." + h.name, Type: "Forbidden", Detail: "may not specify more than 1 handler type"})
			}
			n++
		}
		if n == 0 {
			errs = append(errs, apierr.FieldError{Field: f(), Type: "Required value", Detail: "must specify a handler type"})
		}
		for _, v := range []struct {
			name string
			v    int32
		}{{"initialDelaySeconds", pr.InitialDelaySeconds}, {"timeoutSeconds", pr.TimeoutSeconds}, {"periodSeconds", pr.PeriodSeconds},
			{"successThreshold", pr.SuccessThreshold}, {"failureThreshold", pr.FailureThreshold}} {
			if v.v < 0 {
				errs = append(errs, apierr.FieldError{Field: f() + "." + v.name, Type: "Invalid value", Value: int64(v.v), Detail: nonNegative})
			}
		}
		if p.name != "readinessProbe" && pr.SuccessThreshold != 1 {
			errs = append(errs, apierr.FieldError{Field: f() + ".successThreshold", Type: "Invalid value", Value: int64(pr.SuccessThreshold), Detail: "must be 1"})
		}
	}
	return errs
}

// validateLifecycleSleep checks the sleep action of a container's
// postStart and preStop hooks as validateLifecycle's validateSleepAction
// does with PodLifecycleSleepActionAllowZero (GA in 1.34, so a sleep of 0
// is allowed): no negative seconds, and no more than the pod's
// terminationGracePeriodSeconds (unchecked when that is unset, as
// upstream leaves it to the grace period's own error).
func validateLifecycleSleep(cf func() string, c *api.Container, gracePeriod *int64, errs []apierr.FieldError) []apierr.FieldError {
	h, ok := c.Hooks()
	if !ok || gracePeriod == nil {
		return errs
	}
	check := func(hook string, seconds int64) {
		if seconds < 0 || seconds > *gracePeriod {
			errs = append(errs, apierr.FieldError{Field: cf() + ".lifecycle." + hook + ".sleep", Type: "Invalid value", Value: seconds,
				Detail: fmt.Sprintf("must be non-negative and less than terminationGracePeriodSeconds (%d)", *gracePeriod)})
		}
	}
	if h.PostStart != nil && h.PostStart.Sleep != nil {
		check("postStart", h.PostStart.Sleep.Seconds)
	}
	if h.PreStop != nil && h.PreStop.Sleep != nil {
		check("preStop", h.PreStop.Sleep.Seconds)
	}
	return errs
}
