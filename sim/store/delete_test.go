package store

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
)

// TestDeletePreconditions: a delete whose preconditions do not hold is a
// Conflict with the message of the registry's rest.BeforeDelete
// (apiserver pkg/registry/rest/delete.go), which checks them against the
// object it just read, before storage's own check: the group and kind in
// place of the resource, and the precondition's value first.
func TestDeletePreconditions(t *testing.T) {
	s := New(kernel.New(1))
	op := Op{Actor: "test"}
	d, err := s.Create(op, deployment("web", 1, false))
	if err != nil {
		t.Fatal(err)
	}
	cm, err := s.Create(op, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "cfg"}})
	if err != nil {
		t.Fatal(err)
	}
	dm, cmm := d.GetObjectMeta(), cm.GetObjectMeta()
	for _, tc := range []struct {
		name string
		kind api.Kind
		key  api.Key
		opts DeleteOptions
		want string
	}{
		{"uid", api.KindDeployment, dm.Key(), DeleteOptions{PreconditionUID: "other"},
			`Operation cannot be fulfilled on Deployment.apps "web": the UID in the precondition (other) does not match the UID in record (` + string(dm.UID) + `). The object might have been deleted and then recreated`},
		{"resourceVersion", api.KindConfigMap, cmm.Key(), DeleteOptions{PreconditionResourceVersion: "1"},
			`Operation cannot be fulfilled on ConfigMap "cfg": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (` + cmm.ResourceVersion + `). The object might have been modified`},
		{"both hold", api.KindConfigMap, cmm.Key(), DeleteOptions{PreconditionUID: cmm.UID, PreconditionResourceVersion: cmm.ResourceVersion}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := s.Delete(op, tc.kind, tc.key, tc.opts)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}
