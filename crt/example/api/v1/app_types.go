// Package v1 holds the App custom resource (webapp.example.com/v1), as a
// kubebuilder project lays out its API types.
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/scheme"
)

// GroupVersion is the group and version of the App kind.
var GroupVersion = schema.GroupVersion{Group: "webapp.example.com", Version: "v1"}

var (
	// SchemeBuilder registers the API's types.
	SchemeBuilder = &scheme.Builder{GroupVersion: GroupVersion}
	// AddToScheme adds the API's types to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

func init() {
	SchemeBuilder.Register(&App{}, &AppList{})
}

// AppSpec is the desired state of an App: a Deployment of Image with
// Replicas, exposed by a Service on Port.
type AppSpec struct {
	// Image is the container image.
	Image string `json:"image"`
	// Replicas is the number of pods (default 1).
	Replicas *int32 `json:"replicas,omitempty"`
	// Port is the container's and the Service's port.
	Port int32 `json:"port"`
}

// AppStatus is the observed state of an App.
type AppStatus struct {
	// AvailableReplicas is the Deployment's available replicas.
	AvailableReplicas int32 `json:"availableReplicas,omitempty"`
	// ObservedGeneration is the generation the status reflects.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Conditions: Available.
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// App is a web application: a Deployment and a Service.
type App struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   AppSpec   `json:"spec,omitempty"`
	Status AppStatus `json:"status,omitempty"`
}

// AppList is a list of Apps.
type AppList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []App `json:"items"`
}

// DeepCopyInto copies in into out (controller-gen's output, by hand).
func (in *App) DeepCopyInto(out *App) {
	*out = *in
	out.TypeMeta = in.TypeMeta
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	if in.Spec.Replicas != nil {
		r := *in.Spec.Replicas
		out.Spec.Replicas = &r
	}
	if in.Status.Conditions != nil {
		out.Status.Conditions = make([]metav1.Condition, len(in.Status.Conditions))
		for i := range in.Status.Conditions {
			in.Status.Conditions[i].DeepCopyInto(&out.Status.Conditions[i])
		}
	}
}

// DeepCopy returns a copy of in.
func (in *App) DeepCopy() *App {
	if in == nil {
		return nil
	}
	out := new(App)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject returns a copy of in.
func (in *App) DeepCopyObject() runtime.Object { return in.DeepCopy() }

// DeepCopyInto copies in into out.
func (in *AppList) DeepCopyInto(out *AppList) {
	*out = *in
	out.TypeMeta = in.TypeMeta
	in.ListMeta.DeepCopyInto(&out.ListMeta)
	if in.Items != nil {
		out.Items = make([]App, len(in.Items))
		for i := range in.Items {
			in.Items[i].DeepCopyInto(&out.Items[i])
		}
	}
}

// DeepCopy returns a copy of in.
func (in *AppList) DeepCopy() *AppList {
	if in == nil {
		return nil
	}
	out := new(AppList)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject returns a copy of in.
func (in *AppList) DeepCopyObject() runtime.Object { return in.DeepCopy() }
