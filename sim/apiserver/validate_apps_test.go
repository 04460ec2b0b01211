package apiserver

import (
	"math"
	"strings"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestValidateDeploymentUpstream ports the error rows of upstream's
// TestValidateDeployment (k/k pkg/apis/apps/validation/validation_test.go),
// each keyed, as there, by a piece of the message it must produce, on a
// defaulted Deployment shaped like upstream's validDeployment.
//
// Rows that cannot apply: "metadata.name: Required value" (a nameless
// object is refused before validation here, by the store); the
// non-negative rollbackTo.revision row (spec.rollbackTo, an
// extensions/v1beta1 field, is not modelled).
func TestValidateDeploymentUpstream(t *testing.T) {
	valid := func(mod func(d *api.Deployment)) *api.Deployment {
		one := api.FromInt32(1)
		d := &api.Deployment{ObjectMeta: api.ObjectMeta{Name: "abc", Namespace: "default"},
			Spec: api.DeploymentSpec{
				Selector: &api.LabelSelector{MatchLabels: map[string]string{"name": "abc"}},
				Strategy: api.DeploymentStrategy{Type: api.RollingUpdateDeploymentStrategyType,
					RollingUpdate: &api.RollingUpdateDeployment{MaxSurge: &one, MaxUnavailable: &one}},
				Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"name": "abc"}},
					Spec: api.PodSpec{Containers: []api.Container{{Name: "ctr", Image: "image"}}}}}}
		api.SetDefaultsDeployment(d)
		mod(d)
		return d
	}
	pct := func(s string) *api.IntOrString { v := api.FromString(s); return &v }
	num := func(n int32) *api.IntOrString { v := api.FromInt32(n); return &v }
	seconds := int64(60)
	tests := []struct {
		name string
		obj  *api.Deployment
		want string // "" for valid
	}{
		{"valid", valid(func(*api.Deployment) {}), ""},
		{"hostNetwork with a port", valid(func(d *api.Deployment) {
			d.Spec.Template.Spec.HostNetwork = true
			d.Spec.Template.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 12345, Protocol: api.ProtocolTCP}}
		}), ""},
		{"`selector` does not match template `labels`", valid(func(d *api.Deployment) {
			d.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"name": "def"}}
		}), "spec.template.metadata.labels: Invalid value: {\"name\":\"abc\"}: `selector` does not match template `labels`"},
		{`Unsupported value: "Never"`, valid(func(d *api.Deployment) { d.Spec.Template.Spec.RestartPolicy = api.RestartPolicyNever }),
			`spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"`},
		{`supported values: "Recreate", "RollingUpdate"`, valid(func(d *api.Deployment) { d.Spec.Strategy.Type = "randomType" }),
			`supported values: "Recreate", "RollingUpdate"`},
		{"may not be specified when strategy `type` is 'Recreate'", valid(func(d *api.Deployment) {
			d.Spec.Strategy = api.DeploymentStrategy{Type: api.RecreateDeploymentStrategyType, RollingUpdate: &api.RollingUpdateDeployment{}}
		}), "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"},
		{"a valid percent string must be", valid(func(d *api.Deployment) {
			d.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{MaxSurge: pct("20Percent"), MaxUnavailable: num(1)}
		}), `spec.strategy.rollingUpdate.maxSurge: Invalid value: "20Percent": a valid percent string must be`},
		{"may not be 0 when `maxSurge` is 0", valid(func(d *api.Deployment) {
			d.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{MaxSurge: pct("0%"), MaxUnavailable: num(0)}
		}), "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: \"0\": may not be 0 when `maxSurge` is 0"},
		{"must not be greater than 100%", valid(func(d *api.Deployment) {
			d.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{MaxSurge: num(1), MaxUnavailable: pct("110%")}
		}), `spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "110%": must not be greater than 100%`},
		{"maxSurge above 100% is allowed", valid(func(d *api.Deployment) {
			d.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{MaxSurge: pct("200%"), MaxUnavailable: num(0)}
		}), ""},
		{"must be greater than minReadySeconds", valid(func(d *api.Deployment) {
			p := int32(600)
			d.Spec.ProgressDeadlineSeconds, d.Spec.MinReadySeconds = &p, 600
		}), "spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds"},
		{"ephemeral containers not allowed", valid(func(d *api.Deployment) {
			d.Spec.Template.Spec.EphemeralContainers = []api.RawValue{api.RawValue(`{"name":"ec","image":"image"}`)}
		}), "spec.template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template"},
		// ValidatePodTemplateSpecForReplicaSet, which Deployments share.
		{"set active deadline seconds", valid(func(d *api.Deployment) { d.Spec.Template.Spec.ActiveDeadlineSeconds = &seconds }),
			"spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported"},
		{"negative minReadySeconds", valid(func(d *api.Deployment) { d.Spec.MinReadySeconds = -1 }),
			"spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0"},
		{"negative revisionHistoryLimit", valid(func(d *api.Deployment) { l := int32(-1); d.Spec.RevisionHistoryLimit = &l }),
			"spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Validate(tt.obj, nil)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("error %v, want one holding %q", err, tt.want)
			}
		})
	}
}

// TestValidateReplicaSetUpstream ports the rows of upstream's
// TestValidateReplicaSet that concern the spec (the same
// ValidatePodTemplateSpecForReplicaSet as Deployments').
//
// Rows that cannot apply: "zero-length ID" (refused by the store before
// validation), "missing-namespace" (the server fills the request's
// namespace), "read-only persistent disk" (gcePersistentDisk volumes are
// opaque here), "invalid manifest" (a template without containers:
// covered as spec.template.spec.containers Required).
func TestValidateReplicaSetUpstream(t *testing.T) {
	valid := func(mod func(rs *api.ReplicaSet)) *api.ReplicaSet {
		rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "abc", Namespace: "default"},
			Spec: api.ReplicaSetSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"a": "b"}},
				Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"a": "b"}},
					Spec: api.PodSpec{Containers: []api.Container{{Name: "abc", Image: "image"}}}}}}
		api.SetDefaultsReplicaSet(rs)
		mod(rs)
		return rs
	}
	seconds := int64(60)
	tests := []struct {
		name string
		obj  *api.ReplicaSet
		want string
	}{
		{"valid", valid(func(*api.ReplicaSet) {}), ""},
		{"empty selector", valid(func(rs *api.ReplicaSet) { rs.Spec.Selector = &api.LabelSelector{} }),
			`spec.selector: Invalid value: {}: empty selector is invalid for deployment`},
		{"selector_doesnt_match", valid(func(rs *api.ReplicaSet) { rs.Spec.Selector.MatchLabels = map[string]string{"foo": "bar"} }),
			"spec.template.metadata.labels: Invalid value: {\"a\":\"b\"}: `selector` does not match template `labels`"},
		{"invalid manifest", valid(func(rs *api.ReplicaSet) { rs.Spec.Template.Spec.Containers = nil }),
			"spec.template.spec.containers: Required value"},
		{"negative_replicas", valid(func(rs *api.ReplicaSet) { r := int32(-1); rs.Spec.Replicas = &r }),
			"spec.replicas: Invalid value: -1: must be greater than or equal to 0"},
		{"invalid_label", valid(func(rs *api.ReplicaSet) { rs.Labels = map[string]string{"NoUppercaseOrSpecialCharsLike=Equals": "bar"} }),
			`metadata.labels: Invalid value: "NoUppercaseOrSpecialCharsLike=Equals"`},
		{"invalid_annotation", valid(func(rs *api.ReplicaSet) {
			rs.Annotations = map[string]string{"NoUppercaseOrSpecialCharsLike=Equals": "bar"}
		}), `metadata.annotations: Invalid value: "NoUppercaseOrSpecialCharsLike=Equals": name part must consist of alphanumeric characters`},
		{"invalid restart policy 1", valid(func(rs *api.ReplicaSet) { rs.Spec.Template.Spec.RestartPolicy = api.RestartPolicyOnFailure }),
			`spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"`},
		{"invalid restart policy 2", valid(func(rs *api.ReplicaSet) { rs.Spec.Template.Spec.RestartPolicy = api.RestartPolicyNever }),
			`spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"`},
		{"set active deadline seconds", valid(func(rs *api.ReplicaSet) { rs.Spec.Template.Spec.ActiveDeadlineSeconds = &seconds }),
			"spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported"},
		{"negative minReadySeconds", valid(func(rs *api.ReplicaSet) { rs.Spec.MinReadySeconds = -1 }),
			"spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Validate(tt.obj, nil)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("error %v, want one holding %q", err, tt.want)
			}
		})
	}
}

// TestValidateStatefulSetUpstream ports the rows of upstream's
// TestValidateStatefulSet and TestValidateStatefulSetUpdate, on a
// defaulted StatefulSet like upstream's mkStatefulSet, with the messages
// of ValidateStatefulSetSpec (upstream's rows compare field paths and
// types only).
//
// Rows that cannot apply: "zero-length name" (the store refuses it),
// "missing-namespace" (the server fills it), "empty pod management
// policy" and "empty update strategy" (defaulting fills both, and the
// rows are of undefaulted objects), "invalid_label 2" (its selector's
// label key errors are ValidateLabelSelector's, at
// spec.selector.matchLabels, not modelled), "update name" and "update
// namespace" (a request cannot rename an object here).
func TestValidateStatefulSetUpstream(t *testing.T) {
	mk := func(mod func(s *api.StatefulSet)) *api.StatefulSet {
		s := &api.StatefulSet{ObjectMeta: api.ObjectMeta{Name: "abc", Namespace: "default"},
			Spec: api.StatefulSetSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"a": "b"}},
				Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"a": "b"}},
					Spec: api.PodSpec{Containers: []api.Container{{Name: "abc", Image: "image"}}}}}}
		api.SetDefaultsStatefulSet(s)
		if mod != nil {
			mod(s)
		}
		return s
	}
	mu := func(v api.IntOrString) func(s *api.StatefulSet) {
		return func(s *api.StatefulSet) { s.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = &v }
	}
	seconds := int64(60)
	gi := api.MustParseQuantity("1Gi")
	pvc := func(name string) api.PersistentVolumeClaim {
		c := api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: name}, Spec: api.PersistentVolumeClaimSpec{
			AccessModes: []string{api.ReadWriteOnce}, Resources: api.VolumeResourceRequirements{Requests: api.ResourceList{api.ResourceStorage: gi}}}}
		api.SetDefaultsPersistentVolumeClaim(&c)
		return c
	}
	const forbidden = "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"
	tests := []struct {
		name     string
		old, obj *api.StatefulSet
		want     string
	}{
		{"alphanumeric name", nil, mk(func(s *api.StatefulSet) { s.Name = "abc-123" }), ""},
		{"parallel pod management", nil, mk(func(s *api.StatefulSet) { s.Spec.PodManagementPolicy = api.ParallelPodManagement }), ""},
		{"maxUnavailable with parallel pod management", nil, mk(mu(api.FromInt32(2))), ""},
		{"name-with-dots", nil, mk(func(s *api.StatefulSet) { s.Name = "abc.123" }),
			`StatefulSet.apps "abc.123" is invalid: metadata.name: Invalid value: "abc.123": ` + labelMsg},
		{"long name", nil, mk(func(s *api.StatefulSet) { s.Name = strings.Repeat("a", 64) }),
			`metadata.name: Invalid value: "` + strings.Repeat("a", 64) + `": must be no more than 63 characters`},
		{"selector_doesnt_match", nil, mk(func(s *api.StatefulSet) { s.Spec.Selector.MatchLabels = map[string]string{"foo": "bar"} }),
			"spec.template.metadata.labels: Invalid value: {\"a\":\"b\"}: `selector` does not match template `labels`"},
		{"empty selector", nil, mk(func(s *api.StatefulSet) { s.Spec.Selector = nil }), "spec.selector: Required value"},
		{"negative_replicas", nil, mk(func(s *api.StatefulSet) { r := int32(-1); s.Spec.Replicas = &r }),
			"spec.replicas: Invalid value: -1: must be greater than or equal to 0"},
		{"invalid restart policy 1", nil, mk(func(s *api.StatefulSet) { s.Spec.Template.Spec.RestartPolicy = api.RestartPolicyOnFailure }),
			`spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"`},
		{"invalid update strategy", nil, mk(func(s *api.StatefulSet) { s.Spec.UpdateStrategy.Type = "foo" }),
			`spec.updateStrategy: Invalid value: "foo": must be 'RollingUpdate' or 'OnDelete'`},
		{"invalid rolling update", nil, mk(func(s *api.StatefulSet) { s.Spec.UpdateStrategy.Type = api.OnDeleteStatefulSetStrategyType }),
			`spec.updateStrategy.rollingUpdate: Invalid value: {"Partition":0,"MaxUnavailable":1}: only allowed for updateStrategy 'RollingUpdate'`},
		{"negative partition", nil, mk(func(s *api.StatefulSet) { p := int32(-1); s.Spec.UpdateStrategy.RollingUpdate.Partition = &p }),
			"spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0"},
		{"invalid pod management policy", nil, mk(func(s *api.StatefulSet) { s.Spec.PodManagementPolicy = "foo" }),
			`spec.podManagementPolicy: Invalid value: "foo": must be 'OrderedReady' or 'Parallel'`},
		{"set active deadline seconds", nil, mk(func(s *api.StatefulSet) { s.Spec.Template.Spec.ActiveDeadlineSeconds = &seconds }),
			"spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in StatefulSet is not Supported"},
		{"invalid PersistentVolumeClaimRetentionPolicy", nil, mk(func(s *api.StatefulSet) {
			s.Spec.PersistentVolumeClaimRetentionPolicy.WhenDeleted = "invalid-retention-policy"
		}), `spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: "invalid-retention-policy": supported values: "Retain", "Delete"`},
		{"zero maxUnavailable", nil, mk(mu(api.FromInt32(0))),
			`spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "0": cannot be 0`},
		{"zero percent maxUnavailable", nil, mk(mu(api.FromString("0%"))),
			`spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "0%": cannot be 0`},
		{"greater than 100 percent maxUnavailable", nil, mk(mu(api.FromString("101%"))),
			`spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "101%": must not be greater than 100%`},
		// ValidateStatefulSetSpec since k/k PR #130233 (v1.33).
		{"serviceName a DNS label", nil, mk(func(s *api.StatefulSet) { s.Spec.ServiceName = "web-svc" }), ""},
		{"serviceName with dots", nil, mk(func(s *api.StatefulSet) { s.Spec.ServiceName = "web.svc" }),
			`spec.serviceName: Invalid value: "web.svc": ` + labelMsg},
		{"serviceName too long", nil, mk(func(s *api.StatefulSet) { s.Spec.ServiceName = strings.Repeat("s", 64) }),
			`spec.serviceName: Invalid value: "` + strings.Repeat("s", 64) + `": must be no more than 63 characters`},
		{"invalid ordinals.start", nil, mk(func(s *api.StatefulSet) { s.Spec.Ordinals = &api.StatefulSetOrdinals{Start: -2} }),
			"spec.ordinals.start: Invalid value: -2: must be greater than or equal to 0"},
		// TestValidateStatefulSetUpdate.
		{"update replica count", mk(nil), mk(func(s *api.StatefulSet) { r := int32(3); s.Spec.Replicas = &r }), ""},
		{"update containers 1", mk(nil), mk(func(s *api.StatefulSet) {
			s.Spec.Template.Spec.Containers = append(s.Spec.Template.Spec.Containers, api.Container{Name: "def", Image: "image2", ImagePullPolicy: api.PullIfNotPresent})
		}), ""},
		{"update update strategy", mk(nil), mk(func(s *api.StatefulSet) {
			s.Spec.UpdateStrategy = api.StatefulSetUpdateStrategy{Type: api.OnDeleteStatefulSetStrategyType}
		}), ""},
		{"update min ready seconds", mk(nil), mk(func(s *api.StatefulSet) { s.Spec.MinReadySeconds = 10 }), ""},
		{"update pvc retention policy", mk(nil), mk(func(s *api.StatefulSet) {
			s.Spec.PersistentVolumeClaimRetentionPolicy.WhenDeleted = api.DeletePersistentVolumeClaimRetentionPolicyType
		}), ""},
		{"update existing instance with .spec.ordinals.start", mk(nil), mk(func(s *api.StatefulSet) { s.Spec.Ordinals = &api.StatefulSetOrdinals{Start: 3} }), ""},
		{"update selector", mk(nil), mk(func(s *api.StatefulSet) {
			s.Spec.Selector.MatchLabels = map[string]string{"c": "d"}
			s.Spec.Template.Labels = map[string]string{"c": "d"}
		}), forbidden},
		{"update pod management policy 2", mk(func(s *api.StatefulSet) { s.Spec.PodManagementPolicy = api.ParallelPodManagement }), mk(nil), forbidden},
		{"update to negative replicas", mk(nil), mk(func(s *api.StatefulSet) { r := int32(-1); s.Spec.Replicas = &r }),
			"spec.replicas: Invalid value: -1: must be greater than or equal to 0"},
		{"update pvc template size", mk(func(s *api.StatefulSet) { s.Spec.VolumeClaimTemplates = []api.PersistentVolumeClaim{pvc("pvc-abc")} }),
			mk(func(s *api.StatefulSet) {
				c := pvc("pvc-abc")
				c.Spec.Resources.Requests[api.ResourceStorage] = api.MustParseQuantity("2Gi")
				s.Spec.VolumeClaimTemplates = []api.PersistentVolumeClaim{c}
			}), forbidden},
		{"add new pvc template", mk(func(s *api.StatefulSet) { s.Spec.VolumeClaimTemplates = []api.PersistentVolumeClaim{pvc("pvc-abc")} }),
			mk(func(s *api.StatefulSet) {
				s.Spec.VolumeClaimTemplates = []api.PersistentVolumeClaim{pvc("pvc-abc"), pvc("pvc-abc2")}
			}), forbidden},
		// serviceName and revisionHistoryLimit are outside the list too.
		{"update service name", mk(nil), mk(func(s *api.StatefulSet) { s.Spec.ServiceName = "other" }), forbidden},
		{"update revision history limit", mk(nil), mk(func(s *api.StatefulSet) { l := int32(3); s.Spec.RevisionHistoryLimit = &l }), forbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var old api.Object
			if tt.old != nil {
				old = tt.old
			}
			err := Validate(tt.obj, old)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("error %v, want one holding %q", err, tt.want)
			}
		})
	}
}

// TestValidatePodSpecUpstream ports rows of upstream's TestValidatePodSpec
// (k/k pkg/apis/core/validation/validation_test.go) for the pod-level
// fields users set: restartPolicy (validateRestartPolicy) and
// activeDeadlineSeconds (1 to MaxInt32, InclusiveRangeError), on a
// defaulted Pod and, for restartPolicy, a Job's template too.
//
// Rows that cannot apply: "bad dns policy" (dnsPolicy is not validated
// here: the pod's DNS is not simulated), and the rows of fields kept
// opaque (securityContext, dnsConfig, hostAliases, ephemeral containers).
func TestValidatePodSpecUpstream(t *testing.T) {
	pod := func(mod func(p *api.Pod)) *api.Pod {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"},
			Spec: api.PodSpec{Containers: []api.Container{{Name: "ctr", Image: "image"}}}}
		api.SetDefaultsPod(p)
		mod(p)
		return p
	}
	ads := func(v int64) func(p *api.Pod) { return func(p *api.Pod) { p.Spec.ActiveDeadlineSeconds = &v } }
	job := &api.Job{ObjectMeta: api.ObjectMeta{Name: "j", Namespace: "default"}, Spec: api.JobSpec{
		Template: api.PodTemplateSpec{Spec: api.PodSpec{RestartPolicy: "UnknowPolicy", Containers: []api.Container{{Name: "ctr", Image: "image"}}}}}}
	api.SetDefaultsJob(job)
	tests := []struct {
		name string
		obj  api.Object
		want string
	}{
		{"restart policy Never", pod(func(p *api.Pod) { p.Spec.RestartPolicy = api.RestartPolicyNever }), ""},
		{"restart policy OnFailure", pod(func(p *api.Pod) { p.Spec.RestartPolicy = api.RestartPolicyOnFailure }), ""},
		{"bad restart policy", pod(func(p *api.Pod) { p.Spec.RestartPolicy = "UnknowPolicy" }),
			`Pod "p" is invalid: spec.restartPolicy: Unsupported value: "UnknowPolicy": supported values: "Always", "OnFailure", "Never"`},
		{"bad restart policy in a job template", job,
			`spec.template.spec.restartPolicy: Unsupported value: "UnknowPolicy": supported values: "OnFailure", "Never"`},
		{"bad restart policy in a job template, first order", job,
			`spec.template.spec.restartPolicy: Unsupported value: "UnknowPolicy": supported values: "Always", "OnFailure", "Never"`},
		{"activeDeadlineSeconds 1", pod(ads(1)), ""},
		{"activeDeadlineSeconds MaxInt32", pod(ads(math.MaxInt32)), ""},
		{"bad-active-deadline-seconds", pod(ads(0)),
			`Pod "p" is invalid: spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive`},
		{"negative activeDeadlineSeconds", pod(ads(-1)), "spec.activeDeadlineSeconds: Invalid value: -1: must be between 1 and 2147483647, inclusive"},
		{"activeDeadlineSeconds too large", pod(ads(math.MaxInt32 + 1)),
			"spec.activeDeadlineSeconds: Invalid value: 2147483648: must be between 1 and 2147483647, inclusive"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Validate(tt.obj, nil)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("error %v, want one holding %q", err, tt.want)
			}
		})
	}
}

// TestValidateJobUpstream ports rows of upstream's TestValidateJob (k/k
// pkg/apis/batch/validation/validation_test.go), keyed as there by the
// message, on a defaulted Job.
//
// Rows that cannot apply: the selector rows ("`selector` not
// auto-generated", the controller-uid label rows, "metadata.uid: Required
// value": the selector is generated after validation here, see
// api.GenerateJobSelector), spec.managedBy and spec.successPolicy (not
// modelled).
func TestValidateJobUpstream(t *testing.T) {
	job := func(mod func(j *api.Job)) *api.Job {
		j := &api.Job{ObjectMeta: api.ObjectMeta{Name: "myjob", Namespace: "default"}, Spec: api.JobSpec{
			Template: api.PodTemplateSpec{Spec: api.PodSpec{RestartPolicy: api.RestartPolicyOnFailure, Containers: []api.Container{{Name: "abc", Image: "image"}}}}}}
		mod(j)
		api.SetDefaultsJob(j)
		return j
	}
	i32 := func(v int32) *int32 { return &v }
	indexed := api.IndexedCompletion
	tests := []struct {
		name string
		obj  *api.Job
		want string
	}{
		{"valid Indexed completion mode", job(func(j *api.Job) {
			j.Spec.CompletionMode, j.Spec.Completions, j.Spec.Parallelism = &indexed, i32(2), i32(100000)
		}), ""},
		{"spec.parallelism: must be less than or equal to 100000 when completion mode is Indexed",
			job(func(j *api.Job) {
				j.Spec.CompletionMode, j.Spec.Completions, j.Spec.Parallelism = &indexed, i32(2), i32(100001)
			}),
			"spec.parallelism: Invalid value: 100001: must be less than or equal to 100000 when completion mode is Indexed"},
		{"spec.completions: Required value: when completion mode is Indexed", job(func(j *api.Job) { j.Spec.CompletionMode, j.Spec.Parallelism = &indexed, i32(1) }),
			"spec.completions: Required value: when completion mode is Indexed"},
		{"spec.ttlSecondsAfterFinished: must be greater than or equal to 0", job(func(j *api.Job) { j.Spec.TTLSecondsAfterFinished = i32(-1) }),
			"spec.ttlSecondsAfterFinished: Invalid value: -1: must be greater than or equal to 0"},
		{"spec.template.spec.restartPolicy: Required value", job(func(j *api.Job) { j.Spec.Template.Spec.RestartPolicy = api.RestartPolicyAlways }),
			`Job.batch "myjob" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"`},
		{"spec.template.spec.restartPolicy: Required value, left to default", job(func(j *api.Job) { j.Spec.Template.Spec.RestartPolicy = "" }),
			`Job.batch "myjob" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"`},
		{"spec.template.spec.restartPolicy: Unsupported value", job(func(j *api.Job) { j.Spec.Template.Spec.RestartPolicy = "Invalid" }),
			`spec.template.spec.restartPolicy: Unsupported value: "Invalid": supported values: "OnFailure", "Never"`},
		{"spec.template.spec.restartPolicy: Unsupported value, first order", job(func(j *api.Job) { j.Spec.Template.Spec.RestartPolicy = "Invalid" }),
			`spec.template.spec.restartPolicy: Unsupported value: "Invalid": supported values: "Always", "OnFailure", "Never"`},
		{"spec.parallelism:must be greater than or equal to 0", job(func(j *api.Job) { j.Spec.Parallelism = i32(-1) }),
			"spec.parallelism: Invalid value: -1: must be greater than or equal to 0"},
		{"spec.backoffLimit:must be greater than or equal to 0", job(func(j *api.Job) { j.Spec.BackoffLimit = i32(-1) }),
			"spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Validate(tt.obj, nil)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("error %v, want one holding %q", err, tt.want)
			}
		})
	}
}
