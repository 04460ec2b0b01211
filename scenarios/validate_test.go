package scenarios

import (
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

// validateBase is a small valid scenario; TestValidateRejects replaces its
// node group, adds to its cluster and appends to its spec.
const validateBase = `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: v}
spec:
  duration: 2m
  cluster:
    nodeGroups:
    - GROUP
CLUSTER  objects:
  - {apiVersion: apps/v1, kind: Deployment, metadata: {name: web}, spec: {selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: web, image: nginx}]}}}}
  - {apiVersion: v1, kind: ConfigMap, metadata: {name: c}}
`

// defaultGroup is validateBase's node group unless a case names another.
const defaultGroup = `{name: worker, count: 2, capacity: {cpu: "4", memory: 16Gi}}`

// TestValidateRejects: values a hostile-input sweep found accepted at
// validate time that then hung the run, ate the machine's memory, broke
// the report midway or never took effect are refused when the scenario
// loads, with file:line:column and the field; the values next to them
// that make sense still load.
func TestValidateRejects(t *testing.T) {
	for _, tc := range []struct {
		name, group, cluster, spec string
		// err is the whole error; "" means the scenario loads.
		err string
	}{
		// Periods: a tiny one fires rounds of work without end.
		{name: "iac every 1ns", spec: "  iac: {every: 1ns, objects: [{apiVersion: v1, kind: ConfigMap, metadata: {name: d}}]}\n",
			err: "v.yaml:12:16: spec.iac.every: 1ns is below the minimum period of 1s"},
		{name: "iac every 1s", spec: "  iac: {every: 1s, objects: [{apiVersion: v1, kind: ConfigMap, metadata: {name: d}}]}\n"},
		{name: "autoscaler scan interval 1ns", group: `{name: worker, count: 2, capacity: {cpu: "4", memory: 16Gi}, autoscaling: {minSize: 1, maxSize: 3}}`,
			cluster: "    autoscaler: {scanInterval: 1ns}\n",
			err:     "v.yaml:9:32: spec.cluster.autoscaler.scanInterval: 1ns is below the minimum period of 1s"},
		{name: "autoscaler scan interval 1s", group: `{name: worker, count: 2, capacity: {cpu: "4", memory: 16Gi}, autoscaling: {minSize: 1, maxSize: 3}}`,
			cluster: "    autoscaler: {scanInterval: 1s}\n"},
		{name: "autoscaler max pod eviction time 0", group: `{name: worker, count: 2, capacity: {cpu: "4", memory: 16Gi}, autoscaling: {minSize: 1, maxSize: 3}}`,
			cluster: "    autoscaler: {maxPodEvictionTime: 0s}\n",
			err:     "v.yaml:9:38: spec.cluster.autoscaler.maxPodEvictionTime: must be positive"},
		{name: "autoscaler max graceful termination 0", group: `{name: worker, count: 2, capacity: {cpu: "4", memory: 16Gi}, autoscaling: {minSize: 1, maxSize: 3}}`,
			cluster: "    autoscaler: {maxGracefulTerminationSec: 0}\n",
			err:     "v.yaml:9:45: spec.cluster.autoscaler.maxGracefulTerminationSec: must be positive"},
		{name: "autoscaler drain flags", group: `{name: worker, count: 2, capacity: {cpu: "4", memory: 16Gi}, autoscaling: {minSize: 1, maxSize: 3}}`,
			cluster: "    autoscaler: {skipNodesWithSystemPods: false, skipNodesWithLocalStorage: false, skipNodesWithCustomControllerPods: false, maxPodEvictionTime: 5m, maxGracefulTerminationSec: 30}\n"},
		{name: "autoscaler max node provision time 0", group: `{name: worker, count: 2, capacity: {cpu: "4", memory: 16Gi}, autoscaling: {minSize: 1, maxSize: 3}}`,
			cluster: "    autoscaler: {maxNodeProvisionTime: 0s}\n",
			err:     "v.yaml:9:40: spec.cluster.autoscaler.maxNodeProvisionTime: must be positive"},
		{name: "autoscaler unready time 0", group: `{name: worker, count: 2, capacity: {cpu: "4", memory: 16Gi}, autoscaling: {minSize: 1, maxSize: 3}}`,
			cluster: "    autoscaler: {scaleDownUnreadyTime: 0s}\n",
			err:     "v.yaml:9:40: spec.cluster.autoscaler.scaleDownUnreadyTime: must be positive"},
		{name: "autoscaler backoff reset 0", group: `{name: worker, count: 2, capacity: {cpu: "4", memory: 16Gi}, autoscaling: {minSize: 1, maxSize: 3}}`,
			cluster: "    autoscaler: {nodeGroupBackoffResetTimeout: 0s}\n",
			err:     "v.yaml:9:48: spec.cluster.autoscaler.nodeGroupBackoffResetTimeout: must be positive"},
		{name: "autoscaler unready percentage 101", group: `{name: worker, count: 2, capacity: {cpu: "4", memory: 16Gi}, autoscaling: {minSize: 1, maxSize: 3}}`,
			cluster: "    autoscaler: {maxTotalUnreadyPercentage: 101}\n",
			err:     "v.yaml:9:45: spec.cluster.autoscaler.maxTotalUnreadyPercentage: 101 is not in [0, 100]"},
		{name: "autoscaler ok unready count -1", group: `{name: worker, count: 2, capacity: {cpu: "4", memory: 16Gi}, autoscaling: {minSize: 1, maxSize: 3}}`,
			cluster: "    autoscaler: {okTotalUnreadyCount: -1}\n",
			err:     "v.yaml:9:39: spec.cluster.autoscaler.okTotalUnreadyCount: must not be negative"},
		{name: "autoscaler cluster state flags", group: `{name: worker, count: 2, capacity: {cpu: "4", memory: 16Gi}, autoscaling: {minSize: 1, maxSize: 3}}`,
			cluster: "    autoscaler: {maxNodeProvisionTime: 5m, scaleDownUnreadyEnabled: false, scaleDownUnreadyTime: 5m, maxTotalUnreadyPercentage: 0, okTotalUnreadyCount: 0, initialNodeGroupBackoffDuration: 1m, maxNodeGroupBackoffDuration: 2m, nodeGroupBackoffResetTimeout: 1h}\n"},
		{name: "autoscaler client qps 0", group: `{name: worker, count: 2, capacity: {cpu: "4", memory: 16Gi}, autoscaling: {minSize: 1, maxSize: 3}}`,
			cluster: "    autoscaler: {kubeClientQPS: 0}\n",
			err:     "v.yaml:9:33: spec.cluster.autoscaler.kubeClientQPS: must be a positive number (absent: cluster-autoscaler's default 5; unpaced: true leaves its clients unpaced)"},
		{name: "autoscaler client burst -1", group: `{name: worker, count: 2, capacity: {cpu: "4", memory: 16Gi}, autoscaling: {minSize: 1, maxSize: 3}}`,
			cluster: "    autoscaler: {kubeClientBurst: -1}\n",
			err:     "v.yaml:9:35: spec.cluster.autoscaler.kubeClientBurst: must not be negative"},
		// A burst written as 0 decodes as one left out: refused, not
		// taken for the default.
		{name: "autoscaler client burst 0", group: `{name: worker, count: 2, capacity: {cpu: "4", memory: 16Gi}, autoscaling: {minSize: 1, maxSize: 3}}`,
			cluster: "    autoscaler: {kubeClientBurst: 0}\n",
			err:     "v.yaml:9:35: spec.cluster.autoscaler.kubeClientBurst: must be at least 1: client-go refuses a burst of 0 for a paced client (\"burst is required to be greater than 0 when RateLimiter is not set and QPS is set to greater than 0\"); leave it out for the default, or set unpaced: true"},
		{name: "kubelet event burst 0", cluster: "    kubelet: {eventBurst: 0}\n",
			err: "v.yaml:9:27: spec.cluster.kubelet.eventBurst: must be at least 1: client-go refuses a burst of 0 for a paced client (\"burst is required to be greater than 0 when RateLimiter is not set and QPS is set to greater than 0\"); leave it out for the default, or set unpaced: true"},
		{name: "controller burst 0", spec: "  controllers: {replicaset: {qps: 5, burst: 0}}\n",
			err: "v.yaml:12:45: spec.controllers.replicaset.burst: must be at least 1: client-go refuses a burst of 0 for a paced client (\"burst is required to be greater than 0 when RateLimiter is not set and QPS is set to greater than 0\"); leave it out for the default, or set unpaced: true"},
		{name: "controller burst 1", spec: "  controllers: {replicaset: {qps: 5, burst: 1}}\n"},
		// A work queue's retry limits: positive, coherent, and only where a
		// work queue limits the retries.
		{name: "workqueue", spec: "  controllers: {replicaset: {workqueue: {baseDelay: 1s, maxDelay: 1m, qps: 5, burst: 10}}}\n"},
		{name: "workqueue qps alone on the job controller (a bucket added)", spec: "  controllers: {job: {workqueue: {qps: 5}}}\n"},
		{name: "workqueue empty", spec: "  controllers: {replicaset: {workqueue: {}}}\n",
			err: "v.yaml:12:30: spec.controllers.replicaset.workqueue: sets nothing: give baseDelay, maxDelay, qps or burst (absent: replicaset's own, 5ms·2^n up to 16m40s, 10 qps burst 100)"},
		{name: "workqueue on the scheduler", spec: "  controllers: {scheduler: {workqueue: {baseDelay: 1s}}}\n",
			err: "v.yaml:12:29: spec.controllers.scheduler.workqueue: scheduler has no work queue limits to set: kube-scheduler retries an unschedulable pod by its scheduling queue's backoff (podInitialBackoffSeconds 1, podMaxBackoffSeconds 10), not by a controller work queue"},
		{name: "workqueue on the HPA controller", spec: "  controllers: {horizontal-pod-autoscaler: {workqueue: {baseDelay: 1s}}}\n",
			err: "v.yaml:12:45: spec.controllers.horizontal-pod-autoscaler.workqueue: horizontal-pod-autoscaler has no work queue limits to set: the HPA controller retries every HorizontalPodAutoscaler at its sync period (upstream's FixedItemIntervalRateLimiter), not with a work queue's backoff"},
		{name: "workqueue base delay 0", spec: "  controllers: {replicaset: {workqueue: {baseDelay: 0s}}}\n",
			err: "v.yaml:12:53: spec.controllers.replicaset.workqueue.baseDelay: must be positive"},
		{name: "workqueue cap of 1us", spec: "  controllers: {replicaset: {workqueue: {maxDelay: 1us}}}\n",
			err: "v.yaml:12:52: spec.controllers.replicaset.workqueue.maxDelay: 1µs is below the minimum of 1ms: a request failing every time would be retried thousands of times a virtual second"},
		{name: "workqueue cap below the first delay", spec: "  controllers: {replicaset: {workqueue: {baseDelay: 10s, maxDelay: 1s}}}\n",
			err: "v.yaml:12:68: spec.controllers.replicaset.workqueue.maxDelay: 1s is below baseDelay 10s: the cap would be every retry's delay"},
		{name: "workqueue cap below the controller's own first delay", spec: "  controllers: {job: {workqueue: {maxDelay: 500ms}}}\n",
			err: "v.yaml:12:45: spec.controllers.job.workqueue.maxDelay: 500ms is below job's own baseDelay 1s: the cap would be every retry's delay; set a baseDelay too"},
		{name: "workqueue first delay above the controller's own cap", spec: "  controllers: {replicaset: {workqueue: {baseDelay: 2h}}}\n",
			err: "v.yaml:12:53: spec.controllers.replicaset.workqueue.baseDelay: 2h0m0s is above replicaset's own maxDelay 16m40s: the cap would be every retry's delay; set a maxDelay too"},
		{name: "workqueue qps 0", spec: "  controllers: {replicaset: {workqueue: {qps: 0}}}\n",
			err: "v.yaml:12:47: spec.controllers.replicaset.workqueue.qps: must be a positive number (absent: replicaset's own, 5ms·2^n up to 16m40s, 10 qps burst 100)"},
		{name: "workqueue burst 0", spec: "  controllers: {replicaset: {workqueue: {burst: 0}}}\n",
			err: "v.yaml:12:49: spec.controllers.replicaset.workqueue.burst: must be at least 1: a bucket of burst 0 lets no retry through (golang.org/x/time/rate's Limiter); leave it out for replicaset's own"},
		{name: "workqueue burst alone on the job controller", spec: "  controllers: {job: {workqueue: {burst: 5}}}\n",
			err: "v.yaml:12:42: spec.controllers.job.workqueue.burst: job: a burst without a qps: this queue has no overall bucket, so set qps as well (its own limits: 1s·2^n up to 1m0s)"},
		{name: "autoscaler unpaced with a qps", group: `{name: worker, count: 2, capacity: {cpu: "4", memory: 16Gi}, autoscaling: {minSize: 1, maxSize: 3}}`,
			cluster: "    autoscaler: {unpaced: true, kubeClientQPS: 20}\n",
			err:     "v.yaml:9:27: spec.cluster.autoscaler.unpaced: unpaced clients have no kubeClientQPS or kubeClientBurst: set unpaced or the rates, not both"},
		{name: "autoscaler client pacing", group: `{name: worker, count: 2, capacity: {cpu: "4", memory: 16Gi}, autoscaling: {minSize: 1, maxSize: 3}}`,
			cluster: "    autoscaler: {kubeClientQPS: 20, kubeClientBurst: 40}\n"},
		{name: "gitops resync 1ms", spec: "  gitops:\n    resync: 1ms\n    applications: [{name: app, commits: [{at: 0s, objects: [{apiVersion: v1, kind: ConfigMap, metadata: {name: g}}]}]}]\n",
			err: "v.yaml:13:13: spec.gitops.resync: 1ms is below the minimum period of 1s"},
		{name: "controller resync 1ns", spec: "  controllers: {replicaset: {resync: 1ns}}\n",
			err: "v.yaml:12:38: spec.controllers.replicaset.resync: 1ns is below client-go's minimum resync period of 1s (0 or absent: no resync)"},
		{name: "controller resync 0 is none", spec: "  controllers: {replicaset: {resync: 0s}}\n"},
		// Batching is two controllers' setting: elsewhere it would be ignored.
		{name: "batch period on the replicaset controller", spec: "  controllers: {replicaset: {updatesBatchPeriod: 1s}}\n",
			err: "v.yaml:12:50: spec.controllers.replicaset.updatesBatchPeriod: only the endpoints and endpointslice controllers batch their updates (kube-controller-manager's --endpoint-updates-batch-period and --endpointslice-updates-batch-period)"},
		{name: "negative batch period", spec: "  controllers: {endpoints: {updatesBatchPeriod: -1s}}\n",
			err: "v.yaml:12:49: spec.controllers.endpoints.updatesBatchPeriod: must not be negative"},
		{name: "batch periods of both", spec: "  controllers: {endpoints: {updatesBatchPeriod: 1s}, endpointslice: {updatesBatchPeriod: 500ms}}\n"},
		// percentageOfNodesToScore: the scheduler's, 0 to 100 as kube-scheduler validates it.
		{name: "percentage of nodes to score", spec: "  controllers: {scheduler: {percentageOfNodesToScore: 10}}\n"},
		{name: "percentage of nodes to score 0 is adaptive", spec: "  controllers: {scheduler: {percentageOfNodesToScore: 0}}\n"},
		{name: "percentage of nodes to score above 100", spec: "  controllers: {scheduler: {percentageOfNodesToScore: 101}}\n",
			err: "v.yaml:12:55: spec.controllers.scheduler.percentageOfNodesToScore: 101: not in valid range [0-100]"},
		{name: "negative percentage of nodes to score", spec: "  controllers: {scheduler: {percentageOfNodesToScore: -1}}\n",
			err: "v.yaml:12:55: spec.controllers.scheduler.percentageOfNodesToScore: -1: not in valid range [0-100]"},
		{name: "percentage of nodes to score on the replicaset controller", spec: "  controllers: {replicaset: {percentageOfNodesToScore: 10}}\n",
			err: "v.yaml:12:56: spec.controllers.replicaset.percentageOfNodesToScore: only the scheduler scores nodes (KubeSchedulerConfiguration's percentageOfNodesToScore)"},
		{name: "percentage of nodes to score of a disabled scheduler", spec: "  controllers: {scheduler: {enabled: false, percentageOfNodesToScore: 10}}\n",
			err: "v.yaml:12:71: spec.controllers.scheduler.percentageOfNodesToScore: scheduler is disabled (enabled: false), so this would tune nothing: drop one or the other"},
		// A disabled controller's settings would tune nothing.
		{name: "batch period of a disabled controller", spec: "  controllers: {endpoints: {enabled: false, updatesBatchPeriod: 1s}}\n",
			err: "v.yaml:12:65: spec.controllers.endpoints.updatesBatchPeriod: endpoints is disabled (enabled: false), so this would tune nothing: drop one or the other"},
		{name: "qps of a disabled controller", spec: "  controllers: {replicaset: {qps: 50, enabled: false}}\n",
			err: "v.yaml:12:35: spec.controllers.replicaset.qps: replicaset is disabled (enabled: false), so this would tune nothing: drop one or the other"},
		{name: "a disabled controller alone", spec: "  controllers: {replicaset: {enabled: false}}\n"},
		{name: "settings of an enabled controller", spec: "  controllers: {replicaset: {enabled: true, workers: 2}}\n"},
		// Objects the cluster could not create at the start.
		{name: "pod of an undeclared namespace", spec: "  - {apiVersion: v1, kind: Pod, metadata: {name: p, namespace: team}, spec: {containers: [{name: c, image: nginx}]}}\n",
			err: `v.yaml:12:5: spec.objects[2]: Pod team/p: namespace "team" does not exist when it is created (declare the Namespace earlier in spec.objects; built in: default, kube-system, kube-public, kube-node-lease)`},
		{name: "namespace declared after the pod", spec: "  - {apiVersion: v1, kind: Pod, metadata: {name: p, namespace: team}, spec: {containers: [{name: c, image: nginx}]}}\n  - {apiVersion: v1, kind: Namespace, metadata: {name: team}}\n",
			err: `v.yaml:12:5: spec.objects[2]: Pod team/p: namespace "team" does not exist when it is created (declare the Namespace earlier in spec.objects; built in: default, kube-system, kube-public, kube-node-lease)`},
		{name: "namespace declared before the pod", spec: "  - {apiVersion: v1, kind: Namespace, metadata: {name: team}}\n  - {apiVersion: v1, kind: Pod, metadata: {name: p, namespace: team}, spec: {containers: [{name: c, image: nginx}]}}\n"},
		{name: "pod of a built-in namespace", spec: "  - {apiVersion: v1, kind: Pod, metadata: {name: p, namespace: kube-system}, spec: {containers: [{name: c, image: nginx}]}}\n"},
		{name: "object without a name", spec: "  - {apiVersion: v1, kind: ConfigMap, metadata: {name: \"\"}}\n",
			err: "v.yaml:12:5: spec.objects[2]: ConfigMap: metadata.name: Required value: name or generateName is required"},
		{name: "object with a generateName", spec: "  - {apiVersion: v1, kind: ConfigMap, metadata: {generateName: c-}}\n"},
		// An increment of a billion writes.
		{name: "increment a billion times", spec: "  - {apiVersion: v1, kind: ConfigMap, metadata: {name: n}, data: {v: \"0\"}}\n  timeline:\n  - {at: 1s, increment: {configMap: n, key: v, times: 1000000000}}\n",
			err: "v.yaml:14:55: spec.timeline[0].increment.times: 1000000000 is more than the timeline cap of 10000 writes (--limit timeline=N raises it)"},
		{name: "increment ten times", spec: "  - {apiVersion: v1, kind: ConfigMap, metadata: {name: n}, data: {v: \"0\"}}\n  timeline:\n  - {at: 1s, increment: {configMap: n, key: v, times: 10}}\n"},
		// Per-controller counts and rates.
		{name: "a billion workers", spec: "  controllers: {deployment: {workers: 1000000000}}\n",
			err: "v.yaml:12:39: spec.controllers.deployment.workers: 1000000000 is not between 0 (the controller's default) and 1000"},
		{name: "qps too small to pace", spec: "  controllers: {deployment: {qps: 1e-300}}\n",
			err: "v.yaml:12:35: spec.controllers.deployment.qps: 1e-300 is below the minimum of 0.001 (a request every 16m40s)"},
		{name: "kubelet qps too small", cluster: "    kubelet: {kubeAPIQPS: 1e-12}\n",
			err: "v.yaml:9:27: spec.cluster.kubelet.kubeAPIQPS: 1e-12 is below the minimum of 0.001 (a request every 16m40s)"},
		{name: "qps NaN", spec: "  controllers: {deployment: {qps: .nan}}\n",
			err: "v.yaml:12:35: spec.controllers.deployment.qps: must be a positive number (absent: the default 20 QPS, burst 30; unpaced: true leaves the client unpaced)"},
		// Workloads the pods cap did not count.
		{name: "statefulset of a million", spec: "  timeline:\n  - at: 1s\n    apply: {objects: [{apiVersion: apps/v1, kind: StatefulSet, metadata: {name: db}, spec: {serviceName: db, replicas: 1000000, selector: {matchLabels: {app: db}}, template: {metadata: {labels: {app: db}}, spec: {containers: [{name: db, image: nginx}]}}}}]}\n",
			err: "v.yaml:13:5: spec.timeline[0]: 1000001 pods asked for by the workloads declared so far exceeds the pods limit of 150000 (raise it with --limit pods=N if you mean it)"},
		{name: "job of a million", spec: "  timeline:\n  - at: 1s\n    apply: {objects: [{apiVersion: batch/v1, kind: Job, metadata: {name: j}, spec: {parallelism: 10, completions: 1000000, template: {spec: {restartPolicy: Never, containers: [{name: c, image: nginx}]}}}}]}\n",
			err: "v.yaml:13:5: spec.timeline[0]: 1000001 pods asked for by the workloads declared so far exceeds the pods limit of 150000 (raise it with --limit pods=N if you mean it)"},
		{name: "autoscaler of two billion", spec: "  timeline:\n  - at: 1s\n    apply: {objects: [{apiVersion: autoscaling/v2, kind: HorizontalPodAutoscaler, metadata: {name: web}, spec: {scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}, maxReplicas: 2000000000}}]}\n",
			err: "v.yaml:13:5: spec.timeline[0]: 2000000000 pods asked for by the workloads declared so far exceeds the pods limit of 150000 (raise it with --limit pods=N if you mean it)"},
		// Describe of a kind the printer lacks.
		{name: "describe a configmap", spec: "  timeline:\n  - at: 1s\n    describe: {kind: cm, name: c}\n",
			err: "v.yaml:14:22: spec.timeline[0].describe.kind: describe does not print a ConfigMap (it prints Deployment, ReplicaSet, Pod, Node, Service, Endpoints, ResourceQuota, PodDisruptionBudget, Job, CronJob, PersistentVolumeClaim; get lists the others)"},
		{name: "describe a deployment", spec: "  timeline:\n  - at: 1s\n    describe: {kind: deploy, name: web}\n"},
		// Pod phases.
		{name: "phase typo", spec: "  expect:\n  - pods: {selector: app=web, phase: Faild, equals: 1, within: 1m}\n",
			err: `v.yaml:13:38: spec.expect[0].pods.phase: "Faild" is not a pod phase (Pending, Running, Succeeded, Failed, Unknown)`},
		{name: "phase in lower case", spec: "  expect:\n  - pods: {selector: app=web, phase: running, equals: 1, within: 1m}\n",
			err: `v.yaml:13:38: spec.expect[0].pods.phase: "running" is not a pod phase; did you mean Running? (phases are case-sensitive)`},
		// Times after the end of the run.
		{name: "fault after the end", spec: "  controllers: {app-operator: {}}\n  faults: {schedule: [{at: 3m, for: 10s, type: partition}]}\n",
			err: "v.yaml:13:28: spec.faults.schedule[0].at: 3m0s is outside the run (0 to 2m0s)"},
		{name: "fault at the end", spec: "  controllers: {app-operator: {}}\n  faults: {schedule: [{at: 2m, for: 10s, type: partition}]}\n"},
		{name: "load step after the end", spec: "  load: [{deployment: web, cpuPerRequest: 1m, rps: {steps: [{at: 0s, rps: 1}, {at: 5m, rps: 10}]}}]\n",
			err: "v.yaml:12:84: spec.load[0].rps.steps[1].at: 5m0s is outside the run (0 to 2m0s)"},
		{name: "load of NaN", spec: "  load: [{deployment: web, cpuPerRequest: 1m, rps: {constant: .nan}}]\n",
			err: "v.yaml:12:63: spec.load[0].rps.constant: NaN is not a rate: give a finite number of requests per second"},
		{name: "load step of infinity", spec: "  load: [{deployment: web, cpuPerRequest: 1m, rps: {steps: [{at: 0s, rps: .inf}]}}]\n",
			err: "v.yaml:12:75: spec.load[0].rps.steps[0].rps: +Inf is not a rate: give a finite number of requests per second"},
		{name: "load ramp past the end", spec: "  load: [{deployment: web, cpuPerRequest: 1m, rps: {ramp: [{at: 0s, rps: 1}, {at: 5m, rps: 10}]}}]\n"},
		// Registry images the run's registry could not push: validate
		// passed them and run stopped at its start, without a position.
		{name: "image tag with a space", spec: "  registry: {images: [{name: nginx, tags: [\"1.0\", \"bad tag\"]}]}\n",
			err: `v.yaml:12:51: spec.registry.images[0].tags[1]: "bad tag" is not an image tag (up to 128 letters, digits, _, . and -, not starting with . or -)`},
		{name: "image name in upper case", spec: "  registry: {images: [{name: Nginx}]}\n",
			err: `v.yaml:12:30: spec.registry.images[0].name: "Nginx" is not a repository name: couldn't parse image name "Nginx": invalid reference format`},
		{name: "image listed twice under two spellings", spec: "  registry: {images: [{name: nginx}, {name: docker.io/library/nginx}]}\n",
			err: `v.yaml:12:45: spec.registry.images[1].name: image "docker.io/library/nginx" is listed twice (as "nginx", the same repository docker.io/library/nginx)`},
		{name: "image tags and names that parse", spec: "  registry: {images: [{name: nginx, tags: [\"1.14.2\", latest, v1_2-rc.3]}, {name: registry.k8s.io/hpa-example}, {name: \"localhost:5000/team/app\", tags: [v1]}]}\n"},
		{name: "image name with a tag after a registry's port", spec: "  registry: {images: [{name: \"localhost:5000/app:v1\"}]}\n",
			err: `v.yaml:12:30: spec.registry.images[0].name: "localhost:5000/app:v1": a repository name has no tag or digest (list tags under tags)`},
		// Node groups.
		{name: "negative pods", group: `{name: worker, count: 2, capacity: {cpu: "4", memory: 16Gi, pods: "-3"}}`,
			err: `v.yaml:8:73: spec.cluster.nodeGroups[0].capacity[pods]: Invalid value: "-3": must be greater than or equal to 0`},
		{name: "fractional pods", group: `{name: worker, count: 2, capacity: {cpu: "4", memory: 16Gi, pods: "1.5"}}`,
			err: `v.yaml:8:73: spec.cluster.nodeGroups[0].capacity[pods]: Invalid value: "1500m": must be an integer`},
		{name: "negative storage", group: `{name: worker, count: 2, capacity: {cpu: "4", memory: 16Gi, ephemeral-storage: "-1Gi"}}`,
			err: `v.yaml:8:86: spec.cluster.nodeGroups[0].capacity[ephemeral-storage]: Invalid value: "-1Gi": must be greater than or equal to 0`},
		{name: "negative reservation", group: `{name: worker, count: 2, capacity: {cpu: "4", memory: 16Gi}, kubeReserved: {cpu: "-8"}}`,
			err: `v.yaml:8:88: spec.cluster.nodeGroups[0].kubeReserved[cpu]: Invalid value: "-8": must be greater than or equal to 0`},
		{name: "bad taint key", group: `{name: worker, count: 2, capacity: {cpu: "4", memory: 16Gi}, taints: [{key: "bad key!", effect: NoSchedule}]}`,
			err: `v.yaml:8:83: spec.cluster.nodeGroups[0].taints[0].key: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`},
		{name: "bad taint value", group: `{name: worker, count: 2, capacity: {cpu: "4", memory: 16Gi}, taints: [{key: dedicated, value: "a b", effect: NoSchedule}]}`,
			err: `v.yaml:8:101: spec.cluster.nodeGroups[0].taints[0].value: Invalid value: "a b": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`},
		{name: "taint without key", group: `{name: worker, count: 2, capacity: {cpu: "4", memory: 16Gi}, taints: [{effect: NoSchedule}]}`,
			err: `v.yaml:8:77: spec.cluster.nodeGroups[0].taints[0].key: required`},
		{name: "bad label key", group: `{name: worker, count: 2, capacity: {cpu: "4", memory: 16Gi}, labels: {"bad key!": x}}`,
			err: `v.yaml:8:89: spec.cluster.nodeGroups[0].labels[bad key!]: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`},
		{name: "good labels and taints", group: `{name: worker, count: 2, capacity: {cpu: "4", memory: 16Gi, pods: "110"}, labels: {topology.kubernetes.io/zone: a}, taints: [{key: example.com/gpu, value: "true", effect: NoSchedule}]}`},
		// The total in the message wrapped to a negative number.
		{name: "add the most nodes an int holds", spec: "  timeline:\n  - {at: 1s, addNodes: {group: worker, count: 9223372036854775807}}\n",
			err: `v.yaml:13:47: spec.timeline[0].addNodes.count: 9223372036854775809 nodes in all exceeds the nodes limit of 5000 (raise it with --limit nodes=N if you mean it)`},
		{name: "count above maxSize", group: `{name: worker, count: 5, capacity: {cpu: "4", memory: 16Gi}, autoscaling: {minSize: 1, maxSize: 3}}`,
			err: `v.yaml:8:29: spec.cluster.nodeGroups[0].count: 5 is outside the autoscaling bounds: minSize 1 to maxSize 3`},
		// Ends of what never began.
		{name: "recover a node never crashed", spec: "  timeline:\n  - {at: 1s, recoverNode: worker-1}\n",
			err: `v.yaml:13:27: spec.timeline[0].recoverNode: node "worker-1" is not down at 1s (recoverNode brings back a node an earlier crashNode, crashNodes or stopKubelet stopped)`},
		{name: "recover a crashed node", spec: "  timeline:\n  - {at: 1s, crashNode: worker-1}\n  - {at: 2s, recoverNode: worker-1}\n  - {at: 3s, stopKubelet: worker-2}\n  - {at: 4s, recoverNode: worker-2}\n"},
		{name: "recover before the crash", spec: "  timeline:\n  - {at: 2s, crashNode: worker-1}\n  - {at: 1s, recoverNode: worker-1}\n",
			err: `v.yaml:14:27: spec.timeline[1].recoverNode: node "worker-1" is not down at 1s (recoverNode brings back a node an earlier crashNode, crashNodes or stopKubelet stopped)`},
		// A controller crashed twice: the second step only printed
		// "error: controller deployment is not running" in the run.
		{name: "crash a controller twice", spec: "  timeline:\n  - {at: 1s, crashController: deployment}\n  - {at: 2s, crashController: deployment}\n",
			err: `v.yaml:14:31: spec.timeline[1].crashController: controller "deployment" is already down at 2s (an earlier crashController stopped it; restartController brings it back)`},
		{name: "crash, restart and crash a controller", spec: "  timeline:\n  - {at: 1s, crashController: deployment}\n  - {at: 2s, restartController: deployment}\n  - {at: 3s, crashController: deployment}\n  - {at: 4s, restartController: replicaset}\n"},
		{name: "crash a controller faults may restart twice", spec: "  controllers: {app-operator: {}}\n  faults: {schedule: [{at: 1s, type: crash}]}\n  timeline:\n  - {at: 1s, crashController: app-operator}\n  - {at: 2s, crashController: app-operator}\n"},
		{name: "api server up never down", spec: "  timeline:\n  - {at: 1s, apiServerUp: true}\n",
			err: `v.yaml:13:27: spec.timeline[0].apiServerUp: the API server is not down at 1s (apiServerUp ends an earlier apiServerDown)`},
		{name: "api server down twice", spec: "  timeline:\n  - {at: 1s, apiServerDown: true}\n  - {at: 2s, apiServerDown: true}\n",
			err: `v.yaml:14:29: spec.timeline[1].apiServerDown: the API server is already down at 2s`},
		{name: "api server down and up", spec: "  timeline:\n  - {at: 1s, apiServerDown: true}\n  - {at: 2s, apiServerUp: true}\n"},
		// Expectations that could never hold: a condition type the kind
		// never gets, a field path no object of the kind has.
		{name: "condition type typo", spec: "  expect:\n  - condition: {kind: deployment, name: web, type: Progresing, status: \"True\", within: 1m}\n",
			err: `v.yaml:13:52: spec.expect[0].condition.type: "Progresing" is not a condition type of a Deployment; did you mean Progressing?`},
		{name: "condition type far off", spec: "  expect:\n  - condition: {kind: deploy, name: web, type: Healthy, status: \"True\", within: 1m}\n",
			err: `v.yaml:13:48: spec.expect[0].condition.type: "Healthy" is not a condition type of a Deployment (its condition types: Available, Progressing, ReplicaFailure)`},
		{name: "condition of a kind without conditions", spec: "  expect:\n  - condition: {kind: cm, name: c, type: Ready, status: \"True\", within: 1m}\n",
			err: `v.yaml:13:23: spec.expect[0].condition.kind: a ConfigMap has no status.conditions`},
		{name: "condition types of the kinds", spec: "  expect:\n  - condition: {kind: deployment, name: web, type: Progressing, status: \"True\", within: 1m}\n" +
			"  - condition: {kind: node, name: worker-1, type: MemoryPressure, status: \"False\", within: 1m}\n" +
			"  - condition: {kind: pod, name: p, type: PodReadyToStartContainers, status: \"True\", within: 1m}\n" +
			"  - condition: {kind: pod, name: p, type: example.com/feature-1, status: \"True\", within: 1m}\n" +
			"  - condition: {kind: replicaset, name: web-1, type: ReplicaFailure, status: \"False\", within: 1m}\n"},
		{name: "field path typo", spec: "  expect:\n  - field: {kind: deployment, name: web, path: status.availableReplica, equals: \"1\", within: 1m}\n",
			err: `v.yaml:13:48: spec.expect[0].field.path: "status.availableReplica": a Deployment has no field "availableReplica" under status; did you mean availableReplicas?`},
		{name: "field path far off", spec: "  expect:\n  - field: {kind: cm, name: c, path: spec.replicas, equals: \"1\", within: 1m}\n",
			err: `v.yaml:13:38: spec.expect[0].field.path: "spec.replicas": a ConfigMap has no field "spec" at the top (its fields there: apiVersion, binaryData, data, immutable, kind, metadata)`},
		{name: "field path past a value", spec: "  expect:\n  - field: {kind: deployment, name: web, path: spec.replicas.count, equals: \"1\", within: 1m}\n",
			err: `v.yaml:13:48: spec.expect[0].field.path: "spec.replicas.count": spec.replicas is a value, without fields (a Deployment has no field spec.replicas.count)`},
		{name: "field path of a dotted key unescaped", spec: "  expect:\n  - field: {kind: deployment, name: web, path: metadata.annotations.deployment.kubernetes.io/revision, equals: \"2\", within: 1m}\n",
			err: `v.yaml:13:48: spec.expect[0].field.path: "metadata.annotations.deployment.kubernetes.io/revision": metadata.annotations.deployment is a value, without fields (a Deployment has no field metadata.annotations.deployment.kubernetes); a key holding dots or slashes goes in brackets (metadata.annotations[deployment.kubernetes.io/revision]) or has its dots escaped`},
		{name: "field path with a negative index", spec: "  expect:\n  - field: {kind: deployment, name: web, path: \"spec.template.spec.containers[-1].image\", equals: nginx, within: 1m}\n",
			err: `v.yaml:13:48: spec.expect[0].field.path: "spec.template.spec.containers[-1].image": spec.template.spec.containers[-1] selects no element: an index is 0 or more, and no name or type starts with "-"`},
		{name: "a negative-looking map key is a key", spec: "  expect:\n  - field: {kind: cm, name: c, path: \"data[-1]\", equals: \"1\", within: 1m}\n"},
		{name: "field paths the run reads", spec: "  expect:\n  - field: {kind: deployment, name: web, path: \"spec.template.spec.containers[web].resources.limits.cpu\", equals: \"1\", within: 1m}\n" +
			"  - field: {kind: deployment, name: web, path: \"status.conditions[Available].status\", equals: \"True\", within: 1m}\n" +
			"  - field: {kind: deployment, name: web, path: \"spec.template.spec.containers.0.image\", equals: nginx, within: 1m}\n" +
			"  - field: {kind: deployment, name: web, path: \"metadata.annotations[deployment.kubernetes.io/revision]\", equals: \"1\", within: 1m}\n" +
			"  - field: {kind: deployment, name: web, path: \"spec.template.spec.volumes[data].emptyDir.medium\", equals: \"\", within: 1m}\n" +
			"  - field: {kind: pod, name: p, path: \"spec.containers[c].resources.limits.cpu\", equals: \"1\", within: 1m}\n" +
			"  - field: {kind: cm, name: c, path: data.count, equals: \"1\", within: 1m}\n"},
		// A container the Deployment lacks: kubectl set image fails at
		// run time, and the run went on.
		{name: "set image of no such container", spec: "  timeline:\n  - at: 1s\n    setImage: {deployment: web, container: nosuch, image: nginx:1.25}\n",
			err: `v.yaml:14:44: spec.timeline[0].setImage.container: Deployment default/web has no container named "nosuch" (kubectl: unable to find container named "nosuch"); its containers: web`},
		{name: "set image of a container applied later", spec: "  timeline:\n  - at: 2s\n    setImage: {deployment: web, container: sidecar, image: nginx:1.25}\n" +
			"  - at: 1s\n    apply: {objects: [{apiVersion: apps/v1, kind: Deployment, metadata: {name: web}, spec: {selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {initContainers: [{name: init, image: busybox}], containers: [{name: sidecar, image: nginx}]}}}}]}\n" +
			"  - at: 3s\n    setImage: {deployment: web, container: init, image: busybox:1.36}\n  - at: 4s\n    setImage: {deployment: web, container: web, image: nginx:1.25}\n"},
		{name: "set image before the container is applied", spec: "  timeline:\n  - at: 1s\n    setImage: {deployment: web, container: sidecar, image: nginx:1.25}\n" +
			"  - at: 2s\n    apply: {objects: [{apiVersion: apps/v1, kind: Deployment, metadata: {name: web}, spec: {selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: sidecar, image: nginx}]}}}}]}\n",
			err: `v.yaml:14:44: spec.timeline[0].setImage.container: Deployment default/web has no container named "sidecar" (kubectl: unable to find container named "sidecar"); its containers: web`},
		{name: "set image of every container", spec: "  timeline:\n  - at: 1s\n    setImage: {deployment: web, container: \"*\", image: nginx:1.25}\n"},
		{name: "set image after an edit", spec: "  timeline:\n  - {at: 1s, edit: {kind: deployment, name: web, patch: {spec: {template: {spec: {containers: [{name: app, image: nginx}]}}}}}}\n" +
			"  - at: 2s\n    setImage: {deployment: web, container: app, image: nginx:1.25}\n"},
		// A writes step on a path no object of the kind has.
		{name: "writes of a path typo", spec: "  timeline:\n  - {at: 1s, writes: {kind: deployment, name: web, path: spec.replica}}\n",
			err: `v.yaml:13:58: spec.timeline[0].writes.path: "spec.replica": a Deployment has no field "replica" under spec; did you mean replicas?`},
		{name: "writes of paths", spec: "  timeline:\n  - {at: 1s, writes: {kind: deployment, name: web, path: spec.replicas}}\n" +
			"  - {at: 1s, writes: {kind: cm, name: c, path: \"data[count]\"}}\n" +
			"  - {at: 1s, writes: {kind: deployment, name: web, path: \"metadata.annotations.deployment\\\\.kubernetes\\\\.io/revision\"}}\n"},
		// GitOps ignoreDifferences that match no kind, or no field: the
		// syncer compares group and kind exactly.
		{name: "gitops commit declaring an object twice", spec: "  gitops:\n    applications: [{name: app, commits: [{at: 0s, objects: [{apiVersion: v1, kind: ConfigMap, metadata: {name: g}}, {apiVersion: v1, kind: ConfigMap, metadata: {name: g, namespace: default}}]}]}]\n",
			err: "v.yaml:13:168: spec.gitops.applications[0].commits[0]: the commit declares ConfigMap/default/g twice: Argo CD would sync only one of them (RepeatedResourceWarning)"},
		{name: "gitops commit with one name in two namespaces", spec: "  gitops:\n    applications: [{name: app, commits: [{at: 0s, objects: [{apiVersion: v1, kind: ConfigMap, metadata: {name: g}}, {apiVersion: v1, kind: ConfigMap, metadata: {name: g, namespace: other}}]}]}]\n"},
		{name: "ignore differences of a kind typo", spec: "  gitops:\n    applications: [{name: app, ignoreDifferences: [{group: apps, kind: Deploymnt, jsonPointers: [/spec/replicas]}], commits: [{at: 0s, objects: [{apiVersion: v1, kind: ConfigMap, metadata: {name: g}}]}]}]\n",
			err: `v.yaml:13:72: spec.gitops.applications[0].ignoreDifferences[0].kind: "Deploymnt": the API serves no such kind in group "apps"; did you mean Deployment?`},
		{name: "ignore differences in the wrong group", spec: "  gitops:\n    applications: [{name: app, ignoreDifferences: [{kind: Deployment, jsonPointers: [/spec/replicas]}], commits: [{at: 0s, objects: [{apiVersion: v1, kind: ConfigMap, metadata: {name: g}}]}]}]\n",
			err: `v.yaml:13:52: spec.gitops.applications[0].ignoreDifferences[0].group: "": kind Deployment is in group "apps" (the core group is "")`},
		{name: "ignore differences of no group", spec: "  gitops:\n    applications: [{name: app, ignoreDifferences: [{group: app, kind: Thing, jsonPointers: [/spec/replicas]}], commits: [{at: 0s, objects: [{apiVersion: v1, kind: ConfigMap, metadata: {name: g}}]}]}]\n",
			err: `v.yaml:13:60: spec.gitops.applications[0].ignoreDifferences[0].group: "app": the API serves no group of that name; did you mean apps?`},
		{name: "ignore differences of no field", spec: "  gitops:\n    applications: [{name: app, ignoreDifferences: [{group: apps, kind: Deployment, jsonPointers: [/spec/replica]}], commits: [{at: 0s, objects: [{apiVersion: v1, kind: ConfigMap, metadata: {name: g}}]}]}]\n",
			err: `v.yaml:13:99: spec.gitops.applications[0].ignoreDifferences[0].jsonPointers[0]: "/spec/replica": a Deployment has no field "replica" under spec; did you mean replicas?`},
		{name: "ignore differences of kinds served", spec: "  gitops:\n    applications: [{name: app, ignoreDifferences: [{group: apps, kind: Deployment, jsonPointers: [/spec/replicas, /spec/template/spec/containers/0/image]}, {kind: ConfigMap, jsonPointers: [/data/a~1b]}, {group: autoscaling, kind: HorizontalPodAutoscaler, jsonPointers: [/spec/minReplicas]}], commits: [{at: 0s, objects: [{apiVersion: v1, kind: ConfigMap, metadata: {name: g}}]}]}]\n"},
		// Durations in the words of the format, not of Go's JSON decoder.
		{name: "duration without a unit", spec: "  timeline:\n  - {at: 1, cordon: worker-1}\n",
			err: `v.yaml:13:10: spec.timeline[0].at: 1 is not a duration (write it with a unit, as 90s, 5m, 1h30m)`},
		{name: "duration of infinity", spec: "  measure: {settle: .inf}\n",
			err: `v.yaml:12:21: spec.measure.settle: .inf is not a duration (write it with a unit, as 90s, 5m, 1h30m)`},
		{name: "duration in words", spec: "  measure: {settle: ten minutes}\n",
			err: `v.yaml:12:21: spec.measure.settle: "ten minutes" is not a duration (write it with a unit, as 90s, 5m, 1h30m)`},
		{name: "network step duration without a unit", spec: "  timeline:\n  - {at: 1s, network: {from: apiserver, to: \"kubelet/*\", link: {latency: 5}}}\n",
			err: `v.yaml:13:74: spec.timeline[0].network.link.latency: 5 is not a duration (write it with a unit, as 90s, 5m, 1h30m)`},
		// A value with its unit beyond time.Duration's range is out of
		// range, not "not a duration".
		{name: "duration past the range in hours", spec: "  timeline:\n  - {at: 2562048h, cordon: worker-1}\n",
			err: `v.yaml:13:10: spec.timeline[0].at: 2562048h is out of range: a duration is at most 2562047h47m16.854775807s (about 292 years)`},
		{name: "duration past the range in nanoseconds", spec: "  measure: {settle: 9223372036854775808ns}\n",
			err: `v.yaml:12:21: spec.measure.settle: 9223372036854775808ns is out of range: a duration is at most 2562047h47m16.854775807s (about 292 years)`},
		{name: "duration past the range in several units", spec: "  measure: {settle: 1h99999999999999m}\n",
			err: `v.yaml:12:21: spec.measure.settle: 1h99999999999999m is out of range: a duration is at most 2562047h47m16.854775807s (about 292 years)`},
		// A duration tagged as another type is not out of range: its
		// tag is what is wrong.
		{name: "duration tagged as an integer", spec: "  measure: {settle: !!int 1m}\n",
			err: `v.yaml:12:21: spec.measure.settle: !!int 1m is not a duration (write it with a unit, as 90s, 5m, 1h30m)`},
		{name: "negative duration past the range", spec: "  measure: {settle: -9999999h}\n",
			err: `v.yaml:12:21: spec.measure.settle: -9999999h is out of range: a duration is at least -2562047h47m16.854775808s`},
		{name: "number with two decimal points", spec: "  measure: {settle: 1.5.5h}\n",
			err: `v.yaml:12:21: spec.measure.settle: 1.5.5h is not a duration (write it with a unit, as 90s, 5m, 1h30m)`},
		{name: "huge number without a unit", spec: "  measure: {settle: 99999999999999999999}\n",
			err: `v.yaml:12:21: spec.measure.settle: 99999999999999999999 is not a duration (write it with a unit, as 90s, 5m, 1h30m)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			group := tc.group
			if group == "" {
				group = defaultGroup
			}
			doc := strings.NewReplacer("GROUP", group, "CLUSTER", tc.cluster).Replace(validateBase) + tc.spec
			_, err := Load("v.yaml", ".", fstest.MapFS{}, []byte(doc))
			wantError(t, err, tc.err)
		})
	}
}

// TestPodsCapCountsEveryWorkload: under a pods cap of 10, a DaemonSet
// counts a pod on every node of the run (the autoscaler's maxSize
// included) and a CronJob its Jobs kept by the history limits plus one
// running, each Job its parallelism or completions.
func TestPodsCapCountsEveryWorkload(t *testing.T) {
	const head = "apiVersion: clustersim.dev/v1alpha1\nkind: Scenario\nmetadata: {name: p}\nspec:\n  duration: 2m\n  cluster:\n" +
		"    nodeGroups: [{name: worker, count: 3, capacity: {cpu: \"4\", memory: 16Gi}, autoscaling: {minSize: 1, maxSize: 5}}]\n  objects:\n"
	const ds = "  - {apiVersion: apps/v1, kind: DaemonSet, metadata: {name: DS}, spec: {selector: {matchLabels: {app: DS}}, template: {metadata: {labels: {app: DS}}, spec: {containers: [{name: c, image: nginx}]}}}}\n"
	cron := func(parallelism, kept string) string {
		return "  - {apiVersion: batch/v1, kind: CronJob, metadata: {name: c}, spec: {schedule: \"* * * * *\"" + kept +
			", jobTemplate: {spec: {parallelism: " + parallelism + ", template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}}}}}\n"
	}
	for _, tc := range []struct{ name, objects, err string }{
		{"two daemon sets", strings.ReplaceAll(ds, "DS", "a") + strings.ReplaceAll(ds, "DS", "b"), ""},
		{"three daemon sets", strings.ReplaceAll(ds, "DS", "a") + strings.ReplaceAll(ds, "DS", "b") + strings.ReplaceAll(ds, "DS", "c"),
			"p.yaml:11:5: spec.objects[2]: 15 pods asked for by the workloads declared so far exceeds the pods limit of 10 (raise it with --limit pods=N if you mean it)"},
		{"cron job of 2 by default limits", cron("2", ""), ""},
		{"cron job of 3 by default limits", cron("3", ""),
			"p.yaml:9:5: spec.objects[0]: 15 pods asked for by the workloads declared so far exceeds the pods limit of 10 (raise it with --limit pods=N if you mean it)"},
		{"cron job of 3 keeping none", cron("3", ", successfulJobsHistoryLimit: 0, failedJobsHistoryLimit: 0"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadWith("p.yaml", ".", fstest.MapFS{}, []byte(head+tc.objects), Options{Limits: Limits{Pods: 10}})
			wantError(t, err, tc.err)
		})
	}
}

// wantError fails t unless err is the error want, or nil for want "".
func wantError(t *testing.T, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Errorf("error %v, want none", err)
	case want != "" && (err == nil || err.Error() != want):
		t.Errorf("error\n%v\nwant\n%s", err, want)
	}
}

// TestTunedCoversEverySetting sets each field of ControllerSettings but
// enabled in turn: tuned must name each by its JSON name, so that a
// setting added later cannot be silently dropped beside enabled: false.
func TestTunedCoversEverySetting(t *testing.T) {
	typ := reflect.TypeFor[ControllerSettings]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "enabled" {
			continue
		}
		var cs ControllerSettings
		v := reflect.ValueOf(&cs).Elem().Field(i)
		switch v.Kind() {
		case reflect.Pointer:
			v.Set(reflect.New(f.Type.Elem()))
		case reflect.Int:
			v.SetInt(1)
		case reflect.Bool:
			v.SetBool(true)
		default:
			t.Fatalf("field %s of kind %v: teach this test to set it", f.Name, v.Kind())
		}
		if got := cs.tuned(); got != name {
			t.Errorf("with only %s set, tuned() = %q, want %q", f.Name, got, name)
		}
	}
	if got := (ControllerSettings{}).tuned(); got != "" {
		t.Errorf("nothing set, tuned() = %q", got)
	}
}

// TestDNSLabelLength: a DNS label has at most 63 characters; the
// pattern alone let a 64-character scenario or application name through.
func TestDNSLabelLength(t *testing.T) {
	long := strings.Repeat("a", 64)
	app := func(name string) string {
		return "  gitops:\n    applications: [{name: " + name + ", commits: [{at: 0s, objects: [{apiVersion: v1, kind: ConfigMap, metadata: {name: g}}]}]}]\n"
	}
	src := func(name, spec string) []byte {
		s := strings.Replace(validateBase, "metadata: {name: v}", "metadata: {name: "+name+"}", 1)
		s = strings.Replace(s, "GROUP", defaultGroup, 1)
		return []byte(strings.Replace(s, "CLUSTER", "", 1) + spec)
	}
	for _, tc := range []struct {
		name string
		src  []byte
		err  string
	}{
		{"scenario name of 64", src(long, ""), `v.yaml:3:18: metadata.name: "` + long + `" is not a lowercase DNS label (a-z, 0-9 and -, at most 63 characters)`},
		{"scenario name of 63", src(long[1:], ""), ""},
		{"application name of 64", src("v", app(long)), `v.yaml:13:27: spec.gitops.applications[0].name: "` + long + `" is not a lowercase DNS label (a-z, 0-9 and -, at most 63 characters)`},
		{"application name of 63", src("v", app(long[1:])), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load("v.yaml", "", fstest.MapFS{}, tc.src)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.err {
				t.Errorf("got  %s\nwant %s", got, tc.err)
			}
		})
	}
}

// TestTimedListsCountAgainstTimelineCap: spec.faults.schedule and
// spec.iac.runs are each capped as spec.timeline is, before they are
// decoded (50,000 IaC runs fit in a megabyte and took 32 s to run).
func TestTimedListsCountAgainstTimelineCap(t *testing.T) {
	const head = "apiVersion: clustersim.dev/v1alpha1\nkind: Scenario\nmetadata: {name: p}\nspec:\n  duration: 2m\n  cluster:\n" +
		"    nodeGroups: [{name: worker, count: 3, capacity: {cpu: \"4\", memory: 16Gi}}]\n"
	faults := func(n int) string {
		return "  faults:\n    target: deployment\n    schedule:\n" + strings.Repeat("    - {at: 10s, type: lossy, drop: 0.1, for: 5s}\n", n)
	}
	runs := func(n int) string {
		return "  iac:\n    objects: [{apiVersion: v1, kind: ConfigMap, metadata: {name: c}}]\n    runs: [" + strings.TrimSuffix(strings.Repeat("10s, ", n), ", ") + "]\n"
	}
	for _, tc := range []struct{ name, spec, err string }{
		{"three faults", faults(3), ""},
		{"four faults", faults(4), "p.yaml:10:5: spec.faults.schedule: 4 entries exceeds the timeline limit of 3 (raise it with --limit timeline=N if you mean it)"},
		{"three runs", runs(3), ""},
		{"four runs", runs(4), "p.yaml:10:5: spec.iac.runs: 4 entries exceeds the timeline limit of 3 (raise it with --limit timeline=N if you mean it)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadWith("p.yaml", ".", fstest.MapFS{}, []byte(head+tc.spec), Options{Limits: Limits{Timeline: 3}})
			wantError(t, err, tc.err)
		})
	}
}
