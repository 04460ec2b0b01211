// Package controller is the App operator's controller, written as a
// kubebuilder project writes one: it imports controller-runtime,
// k8s.io/api and k8s.io/apimachinery, and nothing of clustersim.
package controller

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/tools/record"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	webappv1 "github.com/clustersim/clustersim/crt/example/api/v1"
)

// Finalizer is the App's finalizer: the operator records the App's
// deletion before letting it go.
const Finalizer = "webapp.example.com/finalizer"

// TypeAvailable is the App's condition type.
const TypeAvailable = "Available"

// AppReconciler reconciles an App object.
type AppReconciler struct {
	client.Client
	Scheme   *runtime.Scheme
	Recorder record.EventRecorder

	// AdoptServiceLate is a planted bug for the tests: the Service is
	// created without an owner reference and given one by a second
	// write. A fault between the two (a lost request, a crash) leaves it
	// without one: the next reconcile finds the Service and moves on, and
	// the Service outlives its App. Without faults the bug never shows.
	AdoptServiceLate bool
}

// Reconcile moves the cluster towards the App's spec: a finalizer, a
// Deployment and a Service owned by the App, and the App's status.
func (r *AppReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	log := logf.FromContext(ctx)

	app := &webappv1.App{}
	if err := r.Get(ctx, req.NamespacedName, app); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}

	if !app.DeletionTimestamp.IsZero() {
		if controllerutil.ContainsFinalizer(app, Finalizer) {
			r.Recorder.Event(app, corev1.EventTypeNormal, "Deleting", "releasing the App; its Deployment and Service go with it")
			controllerutil.RemoveFinalizer(app, Finalizer)
			if err := r.Update(ctx, app); err != nil {
				return ctrl.Result{}, err
			}
		}
		return ctrl.Result{}, nil
	}
	if !controllerutil.ContainsFinalizer(app, Finalizer) {
		controllerutil.AddFinalizer(app, Finalizer)
		if err := r.Update(ctx, app); err != nil {
			return ctrl.Result{}, err
		}
		return ctrl.Result{}, nil
	}

	dep, err := r.reconcileDeployment(ctx, app)
	if err != nil {
		return ctrl.Result{}, err
	}
	if err := r.reconcileService(ctx, app); err != nil {
		return ctrl.Result{}, err
	}

	replicas := desiredReplicas(app)
	status := metav1.ConditionFalse
	reason, msg := "Progressing", fmt.Sprintf("%d of %d replicas available", dep.Status.AvailableReplicas, replicas)
	if dep.Status.AvailableReplicas >= replicas {
		status, reason = metav1.ConditionTrue, "MinimumReplicasAvailable"
	}
	changed := meta.SetStatusCondition(&app.Status.Conditions, metav1.Condition{
		Type: TypeAvailable, Status: status, Reason: reason, Message: msg, ObservedGeneration: app.Generation,
	})
	if changed || app.Status.AvailableReplicas != dep.Status.AvailableReplicas || app.Status.ObservedGeneration != app.Generation {
		app.Status.AvailableReplicas = dep.Status.AvailableReplicas
		app.Status.ObservedGeneration = app.Generation
		if err := r.Status().Update(ctx, app); err != nil {
			return ctrl.Result{}, err
		}
		log.Info("status updated", "available", dep.Status.AvailableReplicas)
	}
	return ctrl.Result{}, nil
}

func desiredReplicas(app *webappv1.App) int32 {
	if app.Spec.Replicas == nil {
		return 1
	}
	return *app.Spec.Replicas
}

// reconcileDeployment creates or corrects the App's Deployment.
func (r *AppReconciler) reconcileDeployment(ctx context.Context, app *webappv1.App) (*appsv1.Deployment, error) {
	labels := map[string]string{"app.kubernetes.io/name": app.Name}
	replicas := desiredReplicas(app)
	dep := &appsv1.Deployment{}
	err := r.Get(ctx, client.ObjectKey{Namespace: app.Namespace, Name: app.Name}, dep)
	if apierrors.IsNotFound(err) {
		dep = &appsv1.Deployment{
			ObjectMeta: metav1.ObjectMeta{Name: app.Name, Namespace: app.Namespace, Labels: labels},
			Spec: appsv1.DeploymentSpec{
				Replicas: &replicas,
				Selector: &metav1.LabelSelector{MatchLabels: labels},
				Template: corev1.PodTemplateSpec{
					ObjectMeta: metav1.ObjectMeta{Labels: labels},
					Spec: corev1.PodSpec{Containers: []corev1.Container{{
						Name:  "app",
						Image: app.Spec.Image,
						Ports: []corev1.ContainerPort{{ContainerPort: app.Spec.Port, Protocol: corev1.ProtocolTCP}},
					}}},
				},
			},
		}
		if err := ctrl.SetControllerReference(app, dep, r.Scheme); err != nil {
			return nil, err
		}
		return dep, r.Create(ctx, dep)
	}
	if err != nil {
		return nil, err
	}
	c := &dep.Spec.Template.Spec.Containers[0]
	if *dep.Spec.Replicas == replicas && c.Image == app.Spec.Image {
		return dep, nil
	}
	dep.Spec.Replicas = &replicas
	c.Image = app.Spec.Image
	return dep, r.Update(ctx, dep)
}

// reconcileService creates the App's Service.
func (r *AppReconciler) reconcileService(ctx context.Context, app *webappv1.App) error {
	svc := &corev1.Service{}
	err := r.Get(ctx, client.ObjectKey{Namespace: app.Namespace, Name: app.Name}, svc)
	if !apierrors.IsNotFound(err) {
		return err
	}
	svc = &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: app.Name, Namespace: app.Namespace},
		Spec: corev1.ServiceSpec{
			Selector: map[string]string{"app.kubernetes.io/name": app.Name},
			Ports:    []corev1.ServicePort{{Port: app.Spec.Port, TargetPort: intstr.FromInt32(app.Spec.Port), Protocol: corev1.ProtocolTCP}},
		},
	}
	if r.AdoptServiceLate {
		if err := r.Create(ctx, svc); err != nil {
			return client.IgnoreAlreadyExists(err)
		}
		if err := ctrl.SetControllerReference(app, svc, r.Scheme); err != nil {
			return err
		}
		return r.Update(ctx, svc)
	}
	if err := ctrl.SetControllerReference(app, svc, r.Scheme); err != nil {
		return err
	}
	err = r.Create(ctx, svc)
	if apierrors.IsAlreadyExists(err) {
		return nil // an earlier try got through
	}
	return err
}
