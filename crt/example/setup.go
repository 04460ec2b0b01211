// Package example registers the App operator (crt/example/controller, a
// kubebuilder-style controller-runtime operator) with the simulator, as
// its main.go would set it up with a manager: app-operator is the
// operator, app-operator-orphans the same with a planted bug (its Service
// gets its owner reference by a second write, which a fault can prevent).
package example

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"

	"github.com/clustersim/clustersim/crt"
	webappv1 "github.com/clustersim/clustersim/crt/example/api/v1"
	"github.com/clustersim/clustersim/crt/example/controller"
)

// Names of the registered operators.
const (
	Name        = "webapp-operator"
	NameOrphans = "webapp-operator-orphans"
)

// Scheme holds k8s.io/api's types and the App's.
var Scheme = runtime.NewScheme()

func init() {
	if err := clientgoscheme.AddToScheme(Scheme); err != nil {
		panic(err)
	}
	if err := webappv1.AddToScheme(Scheme); err != nil {
		panic(err)
	}
	crt.MustRegister(crt.Operator{Name: Name, Scheme: Scheme, Setup: setup(false)})
	crt.MustRegister(crt.Operator{Name: NameOrphans, Scheme: Scheme, Setup: setup(true)})
}

// setup is what the operator's main.go does with its manager.
func setup(adoptServiceLate bool) func(mgr *crt.Manager) error {
	return func(mgr *crt.Manager) error {
		r := &controller.AppReconciler{
			Client:           mgr.GetClient(),
			Scheme:           mgr.GetScheme(),
			Recorder:         mgr.GetEventRecorderFor("app-controller"),
			AdoptServiceLate: adoptServiceLate,
		}
		return crt.NewControllerManagedBy(mgr).
			For(&webappv1.App{}).
			Owns(&appsv1.Deployment{}).
			Owns(&corev1.Service{}).
			Named("app").
			Complete(r)
	}
}
