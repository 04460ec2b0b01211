package runner

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// TestReconcileLogGathersWhatWasAdded: the reconcile log gives back every
// reconcile it was given, in order and field for field, across blocks,
// controllers that come and go and reconciles with and without errors;
// and its kept form stays small, its pointers first.
func TestReconcileLogGathersWhatWasAdded(t *testing.T) {
	var l reconcileLog
	var want []Reconcile
	controllers := []string{"deployment", "replicaset", "scheduler", "my-operator"}
	for i := range 3*reconcileBlock + 17 {
		rec := Reconcile{
			Controller: controllers[(i*7/5)%len(controllers)],
			Key:        api.Key{Namespace: "ns-" + fmt.Sprint(i%3), Name: fmt.Sprint("obj-", i)},
			Start:      time.Duration(i) * time.Millisecond,
			End:        time.Duration(i+1) * time.Millisecond,
			Requeue:    i%5 == 0,
		}
		if i%11 == 0 {
			rec.Err = fmt.Sprint("conflict ", i)
		}
		l.add(rec)
		want = append(want, rec)
	}
	got := l.gather()
	if !reflect.DeepEqual(got, want) {
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Fatalf("reconcile %d: got %+v, want %+v", i, got[i], want[i])
			}
		}
		t.Fatalf("%d reconciles gathered, want %d", len(got), len(want))
	}
	if len(l.controllers) != len(controllers) {
		t.Errorf("controllers numbered %v; want each of %v once", l.controllers, controllers)
	}
	if again := l.gather(); again != nil {
		t.Errorf("a second gather gave %d reconciles; want none", len(again))
	}
	typ := reflect.TypeFor[keptReconcile]()
	if typ.Size() > 56 {
		t.Errorf("a kept reconcile is %d bytes; it was written to fit 56", typ.Size())
	}
	// Its only pointers are the key's two strings, at its start: every
	// other field is a number or a flag.
	for f := range typ.Fields() {
		switch {
		case f.Name == "key":
			if f.Offset != 0 || f.Type != reflect.TypeFor[api.Key]() {
				t.Errorf("keptReconcile.key is a %v at byte %d; it was to be the api.Key at its start", f.Type, f.Offset)
			}
		case f.Type.Kind() < reflect.Bool || f.Type.Kind() > reflect.Uint64:
			t.Errorf("keptReconcile.%s is a %v; only the key was to hold pointers", f.Name, f.Type)
		}
	}
}
