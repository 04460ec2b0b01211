package scenarios

import (
	"strings"
	"testing"
	"testing/fstest"
)

// TestWarnings: scheduling fields that are accepted and not simulated
// are named, with the object and path; modelled ones are not.
func TestWarnings(t *testing.T) {
	doc := `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: warn}
spec:
  duration: 1m
  cluster:
    nodeGroups: [{name: worker, count: 1, capacity: {cpu: "4", memory: 16Gi}}]
  objects:
  - {apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: {name: high}, value: 1000}
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec:
          priorityClassName: high
          topologySpreadConstraints:
          - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}}
          affinity:
            podAntiAffinity:
              requiredDuringSchedulingIgnoredDuringExecution:
              - {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: web}}, namespaceSelector: {}}
              preferredDuringSchedulingIgnoredDuringExecution:
              - weight: 10
                podAffinityTerm: {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: web}}, namespaceSelector: {matchLabels: {team: a}}}
          containers: [{name: web, image: nginx:1.14.2}]
`
	s, err := Load("warn.yaml", ".", fstest.MapFS{}, []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range s.Warnings() {
		got = append(got, w.String())
	}
	want := []string{
		"warning: warn.yaml:27:114: Deployment/web: spec.template.spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.namespaceSelector: accepted but not simulated: namespaces are not selected by label; only the listed namespaces (or {} for all) count",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestImageWarnings: images that would fail to pull are named with their
// object, field and reason: with no registry listed, only typos of known
// repositories' tags and unparsable references (unknown repositories are
// assumed); with a registry listed, every repository it lacks.
func TestImageWarnings(t *testing.T) {
	const objects = `
  objects:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec:
          initContainers: [{name: init, image: busybox:1.28}]
          containers: [{name: web, image: nginx:1.161}, {name: cache, image: redis:alpine}, {name: app, image: gcr.io/acme/app:v1}]
  timeline:
  - at: 10s
    setImage: {deployment: web, container: web, image: "nginx:1.16.1"}
`
	tests := []struct {
		name     string
		registry string
		want     []string
	}{
		{"no registry", "", []string{
			`warning: img.yaml:16:43: Deployment/web: spec.template.spec.containers[0].image: image "nginx:1.161" would fail to pull: docker.io/library/nginx has no tag "1.161" (nearest of its 100 tags: 1.16, 1.16.0, 1.16.1)`,
		}},
		{"registry listed", "\n  registry: {images: [{name: nginx, tags: [\"1.16.1\"]}]}", []string{
			`warning: img.yaml:16:48: Deployment/web: spec.template.spec.initContainers[0].image: image "busybox:1.28" would fail to pull: its repository is not in spec.registry.images`,
			`warning: img.yaml:17:43: Deployment/web: spec.template.spec.containers[0].image: image "nginx:1.161" would fail to pull: docker.io/library/nginx has no tag "1.161" in spec.registry.images (tags: 1.16.1)`,
			`warning: img.yaml:17:78: Deployment/web: spec.template.spec.containers[1].image: image "redis:alpine" would fail to pull: its repository is not in spec.registry.images`,
			`warning: img.yaml:17:112: Deployment/web: spec.template.spec.containers[2].image: image "gcr.io/acme/app:v1" would fail to pull: its repository is not in spec.registry.images`,
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := "apiVersion: clustersim.dev/v1alpha1\nkind: Scenario\nmetadata: {name: img}\nspec:\n  duration: 1m" + tc.registry + objects
			s, err := Load("img.yaml", ".", fstest.MapFS{}, []byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range s.ImageWarnings() {
				got = append(got, w.String())
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestUnsimulatedKindWarnings: every object of a kind that is stored and
// not simulated is named once with why; simulated kinds are not.
func TestUnsimulatedKindWarnings(t *testing.T) {
	got := manifestWarnings(t, `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: deny, namespace: shop}
spec: {podSelector: {}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: c}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: b}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}
`)
	want := []string{
		"warning: app.yaml: NetworkPolicy/shop/deny: kind: accepted but not simulated: the simulated network carries no pod traffic: the NetworkPolicy is stored and listed, and enforces nothing",
		"warning: app.yaml: ClusterRoleBinding/b: kind: accepted but not simulated: authorization is the simulator's own rule table: the RBAC object is stored and listed, and grants nothing",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestJobWarnings: Job fields the Job controller does not act on are
// named; a plain Job gives none.
func TestJobWarnings(t *testing.T) {
	objs, err := DecodeManifests("jobs.yaml", []byte(`apiVersion: batch/v1
kind: Job
metadata: {name: plain}
spec:
  template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox:1.36}]}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: odd}
spec:
  suspend: true
  completions: 2
  completionMode: Indexed
  backoffLimitPerIndex: 1
  podFailurePolicy:
    rules:
    - {action: FailIndex, onExitCodes: {operator: In, values: [3]}}
  template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox:1.36}]}}
`), nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range ManifestWarnings("jobs.yaml", objs) {
		got = append(got, w.Field)
	}
	want := []string{"spec.suspend", "spec.backoffLimitPerIndex", "spec.podFailurePolicy.rules[0].action"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("warned about %q, want %q", got, want)
	}
}

// TestTrafficWarnings: a Service's load balancer (and its fields), session
// affinity, local traffic policies, external IPs, traffic distribution,
// health check port and IP families, an HPA's custom and external metrics, and a
// pod's deadline and runtime class are named; a plain Service and an
// HPA on CPU give none.
func TestTrafficWarnings(t *testing.T) {
	got := manifestWarnings(t, `apiVersion: v1
kind: Service
metadata: {name: lb}
spec: {type: LoadBalancer, sessionAffinity: ClientIP, externalTrafficPolicy: Local, internalTrafficPolicy: Local, selector: {app: web}, ports: [{port: 80}]}
---
apiVersion: v1
kind: Service
metadata: {name: plain}
spec: {selector: {app: web}, ports: [{port: 80}]}
---
apiVersion: v1
kind: Service
metadata: {name: lb2}
spec:
  type: LoadBalancer
  selector: {app: web}
  ports: [{port: 80, nodePort: 30080}]
  externalIPs: [192.0.2.10]
  trafficDistribution: PreferClose
  loadBalancerIP: 192.0.2.20
  loadBalancerSourceRanges: [10.0.0.0/8]
  loadBalancerClass: example.com/lb
  allocateLoadBalancerNodePorts: true
  externalTrafficPolicy: Local
  healthCheckNodePort: 30999
  ipFamilies: [IPv4]
  ipFamilyPolicy: SingleStack
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 5
  metrics:
  - {type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}}
  - {type: External, external: {metric: {name: queue}, target: {type: Value, value: "10"}}}
  - {type: Pods, pods: {metric: {name: rps}, target: {type: AverageValue, averageValue: "1"}}}
  - {type: ContainerResource, containerResource: {name: cpu, container: app, target: {type: Utilization, averageUtilization: 60}}}
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec: {activeDeadlineSeconds: 5, runtimeClassName: gvisor, containers: [{name: c, image: nginx}]}
---
apiVersion: v1
kind: Pod
metadata: {name: pod-level}
spec: {resources: {requests: {cpu: "2"}}, containers: [{name: c, image: nginx}]}
`)
	want := []string{
		"warning: app.yaml: Service/lb: spec.type: accepted but not simulated: no load balancer is provisioned (no cloud controller runs): EXTERNAL-IP stays <pending>",
		"warning: app.yaml: Service/lb: spec.sessionAffinity: accepted but not simulated: no client traffic is simulated",
		"warning: app.yaml: Service/lb: spec.externalTrafficPolicy: accepted but not simulated: no client traffic is simulated",
		"warning: app.yaml: Service/lb: spec.internalTrafficPolicy: accepted but not simulated: no client traffic is simulated",
		"warning: app.yaml: Service/lb2: spec.type: accepted but not simulated: no load balancer is provisioned (no cloud controller runs): EXTERNAL-IP stays <pending>",
		"warning: app.yaml: Service/lb2: spec.externalTrafficPolicy: accepted but not simulated: no client traffic is simulated",
		"warning: app.yaml: Service/lb2: spec.externalIPs: accepted but not simulated: no client traffic is simulated: the addresses are stored and shown, and route nothing",
		"warning: app.yaml: Service/lb2: spec.trafficDistribution: accepted but not simulated: the EndpointSlice controller writes no topology hints, and no client traffic is simulated",
		"warning: app.yaml: Service/lb2: spec.loadBalancerIP: accepted but not simulated: no load balancer is provisioned (no cloud controller runs)",
		"warning: app.yaml: Service/lb2: spec.loadBalancerSourceRanges: accepted but not simulated: no load balancer is provisioned (no cloud controller runs)",
		"warning: app.yaml: Service/lb2: spec.loadBalancerClass: accepted but not simulated: no load balancer is provisioned (no cloud controller runs)",
		"warning: app.yaml: Service/lb2: spec.allocateLoadBalancerNodePorts: accepted but not simulated: no load balancer is provisioned (no cloud controller runs)",
		"warning: app.yaml: Service/lb2: spec.healthCheckNodePort: accepted but not simulated: no cluster IP, node port or health check port is allocated: the value is stored as written",
		"warning: app.yaml: Service/lb2: spec.ipFamilies: accepted but not simulated: no cluster IP is allocated: the families only choose the EndpointSlices' address type",
		"warning: app.yaml: HorizontalPodAutoscaler/web: spec.metrics[1]: accepted but not simulated: no external metrics API is simulated: the autoscaler reports it cannot get the metric (FailedGetExternalMetric)",
		"warning: app.yaml: HorizontalPodAutoscaler/web: spec.metrics[2]: accepted but not simulated: no custom metrics API is simulated: the autoscaler reports it cannot get the metric (FailedGetPodsMetric)",
		"warning: app.yaml: HorizontalPodAutoscaler/web: spec.metrics[3]: accepted but not simulated: per-container resource metrics are not simulated: the autoscaler reports it cannot get the metric (FailedGetContainerResourceMetric)",
		"warning: app.yaml: Pod/p: spec.activeDeadlineSeconds: accepted but not simulated: the kubelet does not end the pod at its deadline (no DeadlineExceeded): it runs on",
		"warning: app.yaml: Pod/p: spec.runtimeClassName: accepted but not simulated: RuntimeClasses are not simulated: the pod runs without one, admitted even when the class does not exist (Kubernetes refuses it then) and without the class's overhead",
		"warning: app.yaml: Pod/pod-level: spec.resources: accepted but not simulated: pod-level resources are not simulated by the scheduler and the kubelet: the pod is placed and admitted by its containers' requests (the resource quota and the autoscaler count the pod-level ones)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// manifestWarnings decodes the manifests of doc (as app.yaml) and returns
// their warnings as stderr shows them.
func manifestWarnings(t *testing.T, doc string) []string {
	t.Helper()
	objs, err := DecodeManifests("app.yaml", []byte(doc), nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range ManifestWarnings("app.yaml", objs) {
		got = append(got, w.String())
	}
	return got
}

// TestConfigRefWarnings: a workload's reference to a ConfigMap or Secret
// that no object of the scenario is, and that is not optional, is named:
// Kubernetes would keep the pod waiting (CreateContainerConfigError,
// FailedMount) where the simulated kubelet starts it. References to
// objects of the scenario, in the workload's namespace, and optional ones
// are not.
func TestConfigRefWarnings(t *testing.T) {
	doc := `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: refs}
spec:
  duration: 1m
  cluster:
    nodeGroups: [{name: worker, count: 1, capacity: {cpu: "4", memory: 16Gi}}]
  objects:
  - {apiVersion: v1, kind: Namespace, metadata: {name: shop}}
  - {apiVersion: v1, kind: ConfigMap, metadata: {name: web-config, namespace: shop}, data: {a: b}}
  - {apiVersion: v1, kind: ConfigMap, metadata: {name: other-ns}, data: {a: b}}
  - {apiVersion: v1, kind: Secret, metadata: {name: tls, namespace: shop}, stringData: {k: v}}
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web, namespace: shop}
    spec:
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec:
          containers:
          - name: web
            image: nginx:1.14.2
            envFrom:
            - configMapRef: {name: web-config}
            - secretRef: {name: web-secret}
            - configMapRef: {name: extra, optional: true}
            env:
            - {name: A, valueFrom: {configMapKeyRef: {name: other-ns, key: a}}}
            - {name: B, valueFrom: {fieldRef: {fieldPath: metadata.name}}}
          volumes:
          - {name: certs, secret: {secretName: tls}}
          - {name: cfg, configMap: {name: missing-cm}}
          - name: all
            projected: {sources: [{configMap: {name: web-config}}, {secret: {name: api-token}}]}
`
	s, err := Load("refs.yaml", ".", fstest.MapFS{}, []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range s.Warnings() {
		got = append(got, w.String())
	}
	const tail = "the simulated kubelet does not read ConfigMaps and Secrets and starts the container"
	want := []string{
		`warning: refs.yaml:26:15: Deployment/shop/web: spec.template.spec.containers[0].envFrom[1].secretRef: accepted but not simulated: Secret "web-secret" is in no object of the scenario: in Kubernetes the pod would wait for it (secret "web-secret" not found); ` + tail,
		`warning: refs.yaml:29:37: Deployment/shop/web: spec.template.spec.containers[0].env[0].valueFrom.configMapKeyRef: accepted but not simulated: ConfigMap "other-ns" is in no object of the scenario: in Kubernetes the pod would wait for it (configmap "other-ns" not found); ` + tail,
		`warning: refs.yaml:33:25: Deployment/shop/web: spec.template.spec.volumes[1].configMap: accepted but not simulated: ConfigMap "missing-cm" is in no object of the scenario: in Kubernetes the pod would wait for it (configmap "missing-cm" not found); ` + tail,
		`warning: refs.yaml:35:69: Deployment/shop/web: spec.template.spec.volumes[2].projected.sources[1].secret: accepted but not simulated: Secret "api-token" is in no object of the scenario: in Kubernetes the pod would wait for it (secret "api-token" not found); ` + tail,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestDefinitionWarnings: the schema keywords a CustomResourceDefinition
// may use that the API server does not enforce (validation rules, allOf,
// oneOf, anyOf, not) are named at any depth, in properties, items and
// additionalProperties; the keywords it enforces give none.
func TestDefinitionWarnings(t *testing.T) {
	got := manifestWarnings(t, `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {plural: widgets, singular: widget, kind: Widget}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations: [{rule: "self.min <= self.max"}]
            properties:
              min: {type: integer, minimum: 0, default: 0}
              max: {type: integer, maximum: 10}
              ports:
                type: array
                items: {type: integer, oneOf: [{minimum: 1}, {maximum: 0}]}
              labels:
                type: object
                additionalProperties: {type: string, not: {pattern: "^x"}}
`)
	const prefix = "warning: app.yaml: CustomResourceDefinition/widgets.example.com: spec.versions[0].schema.openAPIV3Schema.properties.spec."
	want := []string{
		prefix + "x-kubernetes-validations: accepted but not simulated: validation rules (CEL) are not evaluated: an object that breaks them is stored",
		prefix + "properties.labels.additionalProperties.not: accepted but not simulated: not is not checked: an object that breaks it is stored",
		prefix + "properties.ports.items.oneOf: accepted but not simulated: oneOf is not checked: an object that breaks it is stored",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestWarningsNameTheirFile: a warning about an object of a referenced
// manifest file names that file, and the field's line and column in it;
// an inline object's names the scenario's line and column (an item of an
// inline List, the item's); `clustersim
// validate` of a manifest file places its warnings the same way.
func TestWarningsNameTheirFile(t *testing.T) {
	app := `apiVersion: v1
kind: ConfigMap
metadata: {name: c}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx
        lifecycle:
          postStart: {exec: {command: ["true"]}}
`
	doc := `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: warn}
spec:
  duration: 1m
  cluster:
    nodeGroups: [{name: worker, count: 1, capacity: {cpu: "4", memory: 16Gi}}]
  objects:
  - file: manifests/app.yaml
  - apiVersion: networking.k8s.io/v1
    kind: NetworkPolicy
    metadata: {name: deny}
    spec: {podSelector: {}}
  - apiVersion: v1
    kind: List
    items:
    - {apiVersion: networking.k8s.io/v1, kind: NetworkPolicy, metadata: {name: deny2}, spec: {podSelector: {}}}
  timeline:
  - at: 10s
    apply: {file: manifests/app.yaml}
`
	s, err := Load("dir/warn.yaml", "dir", fstest.MapFS{"dir/manifests/app.yaml": {Data: []byte(app)}}, []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range s.Warnings() {
		got = append(got, w.String())
	}
	hook := ": Deployment/web: spec.template.spec.containers[0].lifecycle.postStart: accepted but not simulated: the hook is not run: the container counts as started at once (Kubernetes starts the next container only once the hook returns, and kills the container if it fails)"
	want := []string{
		"warning: dir/manifests/app.yaml:17:11" + hook,
		"warning: dir/warn.yaml:11:11: NetworkPolicy/deny: kind: accepted but not simulated: the simulated network carries no pod traffic: the NetworkPolicy is stored and listed, and enforces nothing",
		"warning: dir/warn.yaml:17:48: NetworkPolicy/deny2: kind: accepted but not simulated: the simulated network carries no pod traffic: the NetworkPolicy is stored and listed, and enforces nothing",
		"warning: dir/manifests/app.yaml:17:11" + hook,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	_, ws, err := DecodeManifestsWarnings("app.yaml", []byte(app), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 1 || ws[0].String() != "warning: app.yaml:17:11"+hook {
		t.Errorf("manifest warnings: %v, want one at app.yaml:17:11", ws)
	}
}

// TestDeclaredObjectsWarn: the objects a GitOps repository's commits and
// an IaC tool's declaration hold are applied during the run, so their
// unmodelled fields and unpullable images are named as an apply step's
// are (they were not named at all).
func TestDeclaredObjectsWarn(t *testing.T) {
	doc := `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: warn}
spec:
  duration: 1m
  cluster:
    nodeGroups: [{name: worker, count: 1, capacity: {cpu: "4", memory: 16Gi}}]
  gitops:
    applications:
    - name: shop
      commits:
      - at: 0s
        objects:
        - {apiVersion: networking.k8s.io/v1, kind: NetworkPolicy, metadata: {name: deny}, spec: {podSelector: {}}}
  iac:
    runs: [30s]
    objects:
    - apiVersion: v1
      kind: Pod
      metadata: {name: p}
      spec:
        containers: [{name: c, image: "nginx:1.161"}]
`
	s, err := Load("warn.yaml", ".", fstest.MapFS{}, []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range append(s.Warnings(), s.ImageWarnings()...) {
		got = append(got, w.String())
	}
	want := []string{
		"warning: warn.yaml:14:52: NetworkPolicy/deny: kind: accepted but not simulated: the simulated network carries no pod traffic: the NetworkPolicy is stored and listed, and enforces nothing",
		`warning: warn.yaml:22:39: Pod/p: spec.containers[0].image: image "nginx:1.161" would fail to pull: docker.io/library/nginx has no tag "1.161" (nearest of its 100 tags: 1.16, 1.16.0, 1.16.1)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
