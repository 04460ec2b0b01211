package naive

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

func cm(image, replicas string) *api.ConfigMap {
	d := map[string]string{"image": image}
	if replicas != "" {
		d["replicas"] = replicas
	}
	return &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"}, Data: d}
}

func TestEdgeOf(t *testing.T) {
	same := cm("nginx:1.14.2", "2")
	for _, tc := range []struct {
		name     string
		old, app *api.ConfigMap
		ok       bool
		delta    int32
		image    string
	}{
		{"resync replays the same object", same, same, false, 0, ""},
		{"an unchanged copy", cm("nginx:1.14.2", "2"), cm("nginx:1.14.2", "2"), false, 0, ""},
		{"scale up", cm("nginx:1.14.2", "2"), cm("nginx:1.14.2", "5"), true, 3, ""},
		{"scale down", cm("nginx:1.14.2", "5"), cm("nginx:1.14.2", "3"), true, -2, ""},
		{"replicas default to 1", cm("nginx:1.14.2", ""), cm("nginx:1.14.2", "3"), true, 2, ""},
		{"new image", cm("nginx:1.14.2", "2"), cm("nginx:1.16.1", "2"), true, 0, "nginx:1.16.1"},
		{"both", cm("nginx:1.14.2", "2"), cm("nginx:1.16.1", "1"), true, -1, "nginx:1.16.1"},
		{"a bad new value is ignored", cm("nginx:1.14.2", "2"), cm("nginx:1.14.2", "two"), false, 0, ""},
		{"from a bad value: no delta", cm("nginx:1.14.2", "-1"), cm("nginx:1.14.2", "3"), false, 0, ""},
		{"image removed is ignored", cm("nginx:1.14.2", "2"), cm("", "2"), false, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ch, ok := edgeOf(tc.old, tc.app)
			if ok != tc.ok {
				t.Fatalf("ok = %v, want %v", ok, tc.ok)
			}
			if ok && (ch.delta != tc.delta || ch.image != tc.image) {
				t.Errorf("change %+v, want delta %d image %q", *ch, tc.delta, tc.image)
			}
		})
	}
}

func TestNote(t *testing.T) {
	e := &edge{pending: map[api.Key]*change{}}
	k := api.Key{Namespace: "default", Name: "web"}
	add := cm("nginx:1.14.2", "2")
	e.note(k, &change{create: add})
	e.note(k, &change{delta: 3})
	e.note(k, &change{delta: -1, image: "nginx:1.16.1"})
	e.note(k, &change{image: "nginx:1.25"})
	p := e.pending[k]
	if p.create != add || p.delta != 2 || p.image != "nginx:1.25" {
		t.Errorf("pending %+v, want the create, delta 2, the latest image", *p)
	}
}

func TestCorrect(t *testing.T) {
	desired, err := desiredDeployment(cm("nginx:1.16.1", "3"))
	if err != nil {
		t.Fatal(err)
	}
	live := func(image string, replicas int32, name string) *api.Deployment {
		d := desired.DeepCopyObject().(*api.Deployment)
		d.Spec.Replicas = &replicas
		d.Spec.Template.Spec.Containers = []api.Container{{Name: name, Image: image, ImagePullPolicy: "IfNotPresent"}}
		d.Spec.RevisionHistoryLimit = new(int32)
		d.Annotations = map[string]string{"deployment.kubernetes.io/revision": "1"}
		return d
	}
	for _, tc := range []struct {
		name    string
		live    *api.Deployment
		differs bool
	}{
		{"as declared, with defaults and annotations", live("nginx:1.16.1", 3, ContainerName), false},
		{"replicas differ", live("nginx:1.16.1", 2, ContainerName), true},
		{"image differs", live("nginx:1.14.2", 3, ContainerName), true},
		{"container renamed", live("nginx:1.16.1", 3, "other"), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			upd, differs := correct(tc.live, desired)
			if differs != tc.differs {
				t.Fatalf("differs = %v, want %v", differs, tc.differs)
			}
			if *upd.Spec.Replicas != 3 && differs {
				t.Errorf("replicas %d, want 3", *upd.Spec.Replicas)
			}
			if i := containerIndex(upd); i < 0 || upd.Spec.Template.Spec.Containers[i].Image != "nginx:1.16.1" {
				t.Errorf("containers %+v, want the app's at nginx:1.16.1", upd.Spec.Template.Spec.Containers)
			}
			if upd.Annotations["deployment.kubernetes.io/revision"] != "1" || upd.Spec.RevisionHistoryLimit == nil {
				t.Error("fields the operator does not own were changed")
			}
			if differs && upd == tc.live {
				t.Error("the live object was modified in place")
			}
		})
	}
}

func TestFlawString(t *testing.T) {
	for f, want := range map[Flaw]string{
		FlawNone: "none", FlawCompareWithDefaults: "compare with defaults", FlawRequeueWithoutBackoff: "requeue without back-off",
		FlawRetryWithoutBackoff: "retry without back-off", FlawEdgeTriggered: "edge-triggered", Flaw(9): "flaw(9)",
	} {
		if got := f.String(); got != want {
			t.Errorf("%d: %q, want %q", int(f), got, want)
		}
	}
}
