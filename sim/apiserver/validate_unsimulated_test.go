package apiserver

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestValidateUnsimulated: the kinds stored and not simulated are
// validated with Kubernetes' messages (cases after k/k
// pkg/apis/networking/validation/validation_test.go TestValidateIngress*
// and pkg/apis/rbac/validation/validation_test.go TestValidateRoleBinding*,
// TestValidateClusterRoleBinding*, TestValidatePolicyRule*); valid objects
// pass.
func TestValidateUnsimulated(t *testing.T) {
	prefix := func(s string) *string { return &s }
	backend := api.IngressBackend{Service: &api.IngressServiceBackend{Name: "web", Port: api.ServiceBackendPort{Number: 80}}}
	ingress := func(p api.HTTPIngressPath) *api.Ingress {
		return &api.Ingress{ObjectMeta: api.ObjectMeta{Name: "web"}, Spec: api.IngressSpec{Rules: []api.IngressRule{{HTTP: &api.HTTPIngressRuleValue{Paths: []api.HTTPIngressPath{p}}}}}}
	}
	ref := api.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "Role", Name: "reader"}
	tests := []struct {
		name string
		obj  api.Object
		want string
	}{
		{"valid ingress", ingress(api.HTTPIngressPath{Path: "/", PathType: prefix("Prefix"), Backend: backend}), ""},
		{"ingress without pathType", ingress(api.HTTPIngressPath{Path: "/", Backend: backend}),
			`Ingress.networking.k8s.io "web" is invalid: spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified`},
		{"ingress relative path", ingress(api.HTTPIngressPath{Path: "shop", PathType: prefix("Exact"), Backend: backend}),
			`Ingress.networking.k8s.io "web" is invalid: spec.rules[0].http.paths[0].path: Invalid value: "shop": must be an absolute path`},
		{"ingress unknown pathType", ingress(api.HTTPIngressPath{Path: "/", PathType: prefix("Regex"), Backend: backend}),
			`Ingress.networking.k8s.io "web" is invalid: spec.rules[0].http.paths[0].pathType: Unsupported value: "Regex": supported values: "Exact", "ImplementationSpecific", "Prefix"`},
		{"ingress backend without port", ingress(api.HTTPIngressPath{Path: "/", PathType: prefix("Prefix"), Backend: api.IngressBackend{Service: &api.IngressServiceBackend{Name: "web"}}}),
			`Ingress.networking.k8s.io "web" is invalid: spec.rules[0].http.paths[0].backend: Required value: port name or number is required`},
		{"ingress without backend", ingress(api.HTTPIngressPath{Path: "/", PathType: prefix("Prefix")}),
			`Ingress.networking.k8s.io "web" is invalid: spec.rules[0].http.paths[0].backend: Invalid value: "": resource or service backend is required`},
		{"network policy type", &api.NetworkPolicy{ObjectMeta: api.ObjectMeta{Name: "np"}, Spec: api.NetworkPolicySpec{PolicyTypes: []string{"Ingress", "Both"}}},
			`NetworkPolicy.networking.k8s.io "np" is invalid: spec.policyTypes[1]: Unsupported value: "Both": supported values: "Egress", "Ingress"`},
		{"network policy ports", &api.NetworkPolicy{ObjectMeta: api.ObjectMeta{Name: "np"}, Spec: api.NetworkPolicySpec{
			Ingress: []api.NetworkPolicyIngressRule{{Ports: []api.NetworkPolicyPort{{Port: ptr(api.FromInt32(70000))}, {Port: ptr(api.FromInt32(8000)), EndPort: ptr(int32(7000))}}}},
			Egress:  []api.NetworkPolicyEgressRule{{Ports: []api.NetworkPolicyPort{{Port: ptr(api.FromString("dns_udp")), EndPort: ptr(int32(60))}}}}}},
			`NetworkPolicy.networking.k8s.io "np" is invalid: [spec.ingress[0].ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive, ` +
				"spec.ingress[0].ports[1].endPort: Invalid value: 8000: must be greater than or equal to `port`, " +
				"spec.egress[0].ports[0].endPort: Invalid value: 60: may not be specified when `port` is non-numeric, " +
				`spec.egress[0].ports[0].port: Invalid value: "dns_udp": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)]`},
		{"valid network policy ports", &api.NetworkPolicy{ObjectMeta: api.ObjectMeta{Name: "np"}, Spec: api.NetworkPolicySpec{
			Ingress: []api.NetworkPolicyIngressRule{{Ports: []api.NetworkPolicyPort{{Port: ptr(api.FromInt32(8000)), EndPort: ptr(int32(9000))}, {Port: ptr(api.FromString("metrics"))}}}}}}, ""},
		{"valid role", &api.Role{ObjectMeta: api.ObjectMeta{Name: "r"}, Rules: []api.PolicyRule{{Verbs: []string{"get"}, APIGroups: []string{""}, Resources: []string{"pods"}}}}, ""},
		{"role rule without verbs and groups", &api.Role{ObjectMeta: api.ObjectMeta{Name: "r"}, Rules: []api.PolicyRule{{Resources: []string{"pods"}}}},
			`Role.rbac.authorization.k8s.io "r" is invalid: [rules[0].verbs: Required value: verbs must contain at least one value, rules[0].apiGroups: Required value: resource rules must supply at least one api group]`},
		{"namespaced rule on a URL", &api.Role{ObjectMeta: api.ObjectMeta{Name: "r"}, Rules: []api.PolicyRule{{Verbs: []string{"get"}, NonResourceURLs: []string{"/healthz"}}}},
			`Role.rbac.authorization.k8s.io "r" is invalid: rules[0].nonResourceURLs: Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs`},
		{"valid binding", &api.RoleBinding{ObjectMeta: api.ObjectMeta{Name: "b"}, RoleRef: ref, Subjects: []api.Subject{{Kind: "User", Name: "jane"}, {Kind: "ServiceAccount", Name: "app"}}}, ""},
		{"binding to a Pod", &api.RoleBinding{ObjectMeta: api.ObjectMeta{Name: "b"}, RoleRef: api.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "Pod", Name: "x"}},
			`RoleBinding.rbac.authorization.k8s.io "b" is invalid: roleRef.kind: Unsupported value: "Pod": supported values: "Role", "ClusterRole"`},
		{"cluster binding to a Role", &api.ClusterRoleBinding{ObjectMeta: api.ObjectMeta{Name: "b"}, RoleRef: ref},
			`ClusterRoleBinding.rbac.authorization.k8s.io "b" is invalid: roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"`},
		{"cluster binding of a ServiceAccount without namespace", &api.ClusterRoleBinding{ObjectMeta: api.ObjectMeta{Name: "b"}, RoleRef: api.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "x"}, Subjects: []api.Subject{{Kind: "ServiceAccount", Name: "app"}}},
			`ClusterRoleBinding.rbac.authorization.k8s.io "b" is invalid: subjects[0].namespace: Required value`},
		{"binding of a robot", &api.RoleBinding{ObjectMeta: api.ObjectMeta{Name: "b"}, RoleRef: ref, Subjects: []api.Subject{{Kind: "Robot", Name: "r2"}}},
			`RoleBinding.rbac.authorization.k8s.io "b" is invalid: subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := ""
			if err := Validate(tc.obj, nil); err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestValidateBatch: Jobs and CronJobs are validated with Kubernetes'
// messages (k/k pkg/apis/batch/validation/validation_test.go
// TestValidateJob, TestValidateCronJob); valid ones pass.
func TestValidateBatch(t *testing.T) {
	tmpl := func(rp api.RestartPolicy) api.PodTemplateSpec {
		return api.PodTemplateSpec{Spec: api.PodSpec{RestartPolicy: rp, Containers: []api.Container{{Name: "c", Image: "busybox"}}}}
	}
	neg := int32(-1)
	tz := func(s string) *string { return &s }
	cron := func(schedule string, zone *string) *api.CronJob {
		return &api.CronJob{ObjectMeta: api.ObjectMeta{Name: "cj"}, Spec: api.CronJobSpec{Schedule: schedule, TimeZone: zone, ConcurrencyPolicy: "Allow",
			JobTemplate: api.JobTemplateSpec{Spec: api.JobSpec{Template: tmpl(api.RestartPolicyOnFailure)}}}}
	}
	tests := []struct {
		name string
		obj  api.Object
		want string
	}{
		{"valid job", &api.Job{ObjectMeta: api.ObjectMeta{Name: "j"}, Spec: api.JobSpec{Template: tmpl(api.RestartPolicyNever)}}, ""},
		{"job restarting always", &api.Job{ObjectMeta: api.ObjectMeta{Name: "j"}, Spec: api.JobSpec{Template: tmpl(api.RestartPolicyAlways)}},
			`Job.batch "j" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"`},
		{"negative backoffLimit", &api.Job{ObjectMeta: api.ObjectMeta{Name: "j"}, Spec: api.JobSpec{BackoffLimit: &neg, Template: tmpl(api.RestartPolicyNever)}},
			`Job.batch "j" is invalid: spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0`},
		{"valid cronjob in a zone", cron("0 9 * * *", tz("Europe/Paris")), ""},
		{"TZ in the schedule", cron("TZ=UTC 0 9 * * *", nil),
			`CronJob.batch "cj" is invalid: spec.schedule: Invalid value: "TZ=UTC 0 9 * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead`},
		{"schedule of four fields", cron("* * * *", nil),
			`CronJob.batch "cj" is invalid: spec.schedule: Invalid value: "* * * *": expected exactly 5 fields, found 4: [* * * *]`},
		{"hour out of range", cron("0 25 * * *", nil),
			`CronJob.batch "cj" is invalid: spec.schedule: Invalid value: "0 25 * * *": end of range (25) above maximum (23): 25`},
		{"unknown zone", cron("0 9 * * *", tz("Mars/Olympus")),
			`CronJob.batch "cj" is invalid: spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := ""
			if err := Validate(tc.obj, nil); err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestBindingWithoutAPIGroup: a RoleBinding whose roleRef omits apiGroup
// (as hand-written manifests often do) is defaulted to
// rbac.authorization.k8s.io and accepted, as upstream's rbac/v1 defaults
// make it; before, validation saw the empty group and refused it with
// 'roleRef.apiGroup: Unsupported value: ""'.
func TestBindingWithoutAPIGroup(t *testing.T) {
	f := newFixture(t)
	resp := f.do(&Request{Verb: Create, Kind: api.KindRoleBinding, Actor: user, Object: &api.RoleBinding{
		ObjectMeta: api.ObjectMeta{Name: "b", Namespace: "default"},
		RoleRef:    api.RoleRef{Kind: "Role", Name: "reader"},
		Subjects:   []api.Subject{{Kind: "User", Name: "jane"}, {Kind: "ServiceAccount", Name: "web", Namespace: "default"}}}})
	if resp.Err != nil {
		t.Fatalf("create: %v", resp.Err)
	}
	rb := resp.Object.(*api.RoleBinding)
	if rb.RoleRef.APIGroup != "rbac.authorization.k8s.io" || rb.Subjects[0].APIGroup != "rbac.authorization.k8s.io" || rb.Subjects[1].APIGroup != "" {
		t.Errorf("stored %+v", rb)
	}
}
