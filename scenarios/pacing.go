package scenarios

import (
	"math"
	"strconv"
)

// The client pacing defaults of the pinned release (api.KubernetesRelease),
// each a client-go token bucket (flowcontrol.NewTokenBucketRateLimiter):
// Burst requests at once, then QPS a second.
const (
	// SchedulerQPS and SchedulerBurst are kube-scheduler's client
	// defaults (clientConnection.qps and .burst;
	// pkg/scheduler/apis/config/v1/defaults.go: "Scheduler has an opinion
	// about QPS/Burst, setting specific defaults for itself").
	SchedulerQPS   = 50
	SchedulerBurst = 100
	// KubeletQPS and KubeletBurst are the kubelet's client defaults, for
	// its API client (kubeAPIQPS, kubeAPIBurst) and its event client
	// (eventRecordQPS, eventBurst) alike
	// (pkg/kubelet/apis/config/v1beta1/defaults.go).
	KubeletQPS   = 50
	KubeletBurst = 100
	// AutoscalerQPS and AutoscalerBurst are cluster-autoscaler's client
	// defaults (--kube-client-qps and --kube-client-burst, which default
	// to client-go's rest.DefaultQPS and rest.DefaultBurst;
	// cluster-autoscaler/config/flags/flags.go).
	AutoscalerQPS   = 5
	AutoscalerBurst = 10
)

// Pacing is a client's token bucket: Burst requests at once, then QPS a
// second. QPS 0 is an unpaced client.
type Pacing struct {
	QPS   float64
	Burst int
}

// Unpaced reports whether p paces nothing.
func (p Pacing) Unpaced() bool { return p.QPS == 0 }

// DefaultPacing is the pacing of controller name's client when
// spec.controllers sets none:
//
//   - the scheduler's is kube-scheduler's, SchedulerQPS and SchedulerBurst;
//   - each controller of kube-controller-manager (every built-in but the
//     opt-in operators) has its own client of ControllerManagerQPS and
//     ControllerManagerBurst (--kube-api-qps 20, --kube-api-burst 30;
//     pkg/controller/apis/config/v1alpha1/defaults.go,
//     SetDefaults_KubeControllerManagerConfiguration). The bucket is per
//     controller as upstream's is: each controller's client comes from
//     the client builder's ClientOrDie(name), a clientset.NewForConfig
//     of its own, which makes a token bucket of its own
//     (k8s.io/controller-manager pkg/clientbuilder/client_builder.go);
//   - the opt-in operators and the controllers registered through
//     controller.Register are unpaced: controller-runtime, which most
//     operators are built with, turns client-side rate limiting off by
//     default and relies on API priority and fairness
//     (controller-runtime pkg/client/config/config.go sets QPS -1).
func DefaultPacing(name string) Pacing {
	switch {
	case name == "scheduler":
		return Pacing{QPS: SchedulerQPS, Burst: SchedulerBurst}
	case InControllerManager(name):
		return Pacing{QPS: ControllerManagerQPS, Burst: ControllerManagerBurst}
	}
	return Pacing{}
}

// Pacing is the pacing of controller name's client under these settings:
// unpaced with Unpaced, else QPS and Burst where set and name's
// DefaultPacing where not (a burst without a default takes the QPS
// rounded up, at least 1).
func (cs ControllerSettings) Pacing(name string) Pacing {
	if cs.Unpaced {
		return Pacing{}
	}
	p := DefaultPacing(name)
	if cs.QPS != nil {
		p.QPS = *cs.QPS
	}
	if cs.Burst > 0 {
		p.Burst = cs.Burst
	}
	if p.QPS > 0 && p.Burst == 0 {
		p.Burst = max(1, int(math.Ceil(p.QPS)))
	}
	return p
}

// String is "20 QPS, burst 30", or "unpaced".
func (p Pacing) String() string {
	if p.Unpaced() {
		return "unpaced"
	}
	return strconv.FormatFloat(p.QPS, 'g', -1, 64) + " QPS, burst " + strconv.Itoa(p.Burst)
}

// AutoscalerPacing is the pacing of the cluster autoscaler's API client
// under s's spec.cluster.autoscaler: cluster-autoscaler's defaults where
// it sets none.
func AutoscalerPacing(s *Scenario) Pacing {
	p := Pacing{QPS: AutoscalerQPS, Burst: AutoscalerBurst}
	a := s.Spec.Cluster.Autoscaler
	if a == nil {
		return p
	}
	if a.Unpaced {
		return Pacing{}
	}
	if a.KubeClientQPS != nil {
		p.QPS = *a.KubeClientQPS
	}
	if a.KubeClientBurst > 0 {
		p.Burst = a.KubeClientBurst
	}
	return p
}
