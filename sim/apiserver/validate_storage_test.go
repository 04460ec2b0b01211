package apiserver

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestValidateStorage checks the StatefulSet, claim, volume and class
// rules against upstream's messages (k/k pkg/apis/apps/validation and
// pkg/apis/core/validation validation_test.go cases of the same fields).
func TestValidateStorage(t *testing.T) {
	gi := api.MustParseQuantity("1Gi")
	str := func(s string) *string { return &s }
	claim := func(mod func(*api.PersistentVolumeClaim)) *api.PersistentVolumeClaim {
		c := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: "www", Namespace: "default"}, Spec: api.PersistentVolumeClaimSpec{
			AccessModes: []string{api.ReadWriteOnce}, Resources: api.VolumeResourceRequirements{Requests: api.ResourceList{api.ResourceStorage: gi}}}}
		mod(c)
		return c
	}
	pv := func(mod func(*api.PersistentVolume)) *api.PersistentVolume {
		v := &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: "pv0"}, Spec: api.PersistentVolumeSpec{
			AccessModes: []string{api.ReadWriteOnce}, Capacity: api.ResourceList{api.ResourceStorage: gi},
			Source: map[string]api.RawValue{"hostPath": api.RawValue(`{"path":"/data"}`)}}}
		mod(v)
		return v
	}
	sts := func(mod func(*api.StatefulSet)) *api.StatefulSet {
		s := &api.StatefulSet{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"}, Spec: api.StatefulSetSpec{
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "nginx"}},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "nginx"}},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx"}}}}}}
		api.SetDefaultsStatefulSet(s)
		mod(s)
		return s
	}
	tests := []struct {
		name string
		obj  api.Object
		want string
	}{
		{"valid claim", claim(func(*api.PersistentVolumeClaim) {}), ""},
		{"claim without access modes", claim(func(c *api.PersistentVolumeClaim) { c.Spec.AccessModes = nil }),
			`PersistentVolumeClaim "www" is invalid: spec.accessModes: Required value: at least 1 access mode is required`},
		{"claim with an unknown mode", claim(func(c *api.PersistentVolumeClaim) { c.Spec.AccessModes = []string{"ReadWriteSometimes"} }),
			`PersistentVolumeClaim "www" is invalid: spec.accessModes: Unsupported value: "ReadWriteSometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"`},
		{"claim without storage", claim(func(c *api.PersistentVolumeClaim) { c.Spec.Resources.Requests = nil }),
			`PersistentVolumeClaim "www" is invalid: spec.resources[storage]: Required value`},
		{"claim of a class named with an underscore", claim(func(c *api.PersistentVolumeClaim) { c.Spec.StorageClassName = str("Fast_SSD") }),
			`PersistentVolumeClaim "www" is invalid: spec.storageClassName: Invalid value: "Fast_SSD": ` + subdomainMsg},
		{"claim of no class", claim(func(c *api.PersistentVolumeClaim) { c.Spec.StorageClassName = str("") }), ""},
		{"valid volume", pv(func(*api.PersistentVolume) {}), ""},
		{"volume without a source", pv(func(v *api.PersistentVolume) { v.Spec.Source = nil }),
			`PersistentVolume "pv0" is invalid: spec: Required value: must specify a volume type`},
		{"volume with a bad reclaim policy", pv(func(v *api.PersistentVolume) { v.Spec.PersistentVolumeReclaimPolicy = "Keep" }),
			`PersistentVolume "pv0" is invalid: spec.persistentVolumeReclaimPolicy: Unsupported value: "Keep": supported values: "Delete", "Recycle", "Retain"`},
		{"class without provisioner", &api.StorageClass{ObjectMeta: api.ObjectMeta{Name: "fast"}},
			`StorageClass.storage.k8s.io "fast" is invalid: provisioner: Required value`},
		{"class with a bad binding mode", &api.StorageClass{ObjectMeta: api.ObjectMeta{Name: "fast"}, Provisioner: "p", VolumeBindingMode: str("Later")},
			`StorageClass.storage.k8s.io "fast" is invalid: volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"`},
		{"valid statefulset", sts(func(*api.StatefulSet) {}), ""},
		{"a statefulset mounting its claim template", sts(func(s *api.StatefulSet) {
			s.Spec.VolumeClaimTemplates = []api.PersistentVolumeClaim{*claim(func(*api.PersistentVolumeClaim) {})}
			s.Spec.Template.Spec.Containers[0].VolumeMounts = []api.VolumeMount{{Name: "www", MountPath: "/usr/share/nginx/html"}}
		}), ""},
		{"a statefulset mounting what it does not declare", sts(func(s *api.StatefulSet) {
			s.Spec.Template.Spec.Containers[0].VolumeMounts = []api.VolumeMount{{Name: "www", MountPath: "/usr/share/nginx/html"}}
		}), `StatefulSet.apps "web" is invalid: spec.template.spec.containers[0].volumeMounts[0].name: Not found: "www"`},
		{"statefulset with a bad policy", sts(func(s *api.StatefulSet) { s.Spec.PodManagementPolicy = "Random" }),
			`StatefulSet.apps "web" is invalid: spec.podManagementPolicy: Invalid value: "Random": must be 'OrderedReady' or 'Parallel'`},
		{"statefulset with labels not selected", sts(func(s *api.StatefulSet) { s.Spec.Template.Labels = map[string]string{"app": "web"} }),
			"StatefulSet.apps \"web\" is invalid: spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`"},
		{"statefulset restarting never", sts(func(s *api.StatefulSet) { s.Spec.Template.Spec.RestartPolicy = api.RestartPolicyNever }),
			`StatefulSet.apps "web" is invalid: spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"`},
		{"statefulset with a bad retention", sts(func(s *api.StatefulSet) { s.Spec.PersistentVolumeClaimRetentionPolicy.WhenScaled = "Keep" }),
			`StatefulSet.apps "web" is invalid: spec.persistentVolumeClaimRetentionPolicy.whenScaled: Unsupported value: "Keep": supported values: "Retain", "Delete"`},
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
