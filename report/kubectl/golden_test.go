package kubectl_test

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/clustersim/clustersim/report/kubectl"
	kubectlcmd "github.com/clustersim/clustersim/scenarios/kubectl"
	"github.com/clustersim/clustersim/sim/api"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func objects[T api.Object](list []T) []api.Object {
	out := make([]api.Object, len(list))
	for i, o := range list {
		out[i] = o
	}
	return out
}

// goldenCases render every printer over the fixtures; each output is
// compared with testdata/<name>.txt.
func goldenCases() map[string]func(w io.Writer) error {
	d, rss := webDeployment()
	done := d.DeepCopy()
	done.Name, done.UID = "api", "uid-api"
	done.Spec.Replicas = ptr(int32(2))
	done.CreationTimestamp = ago(3 * 24 * time.Hour)
	done.Status = api.DeploymentStatus{ObservedGeneration: 2, Replicas: 2, UpdatedReplicas: 2, ReadyReplicas: 2, AvailableReplicas: 2}
	pods := statusPods()
	return map[string]func(w io.Writer) error{
		"get-pods": func(w io.Writer) error {
			return kubectl.Get(w, api.KindPod, objects(pods), now, kubectl.GetOptions{})
		},
		"get-pods-wide": func(w io.Writer) error {
			return kubectl.Get(w, api.KindPod, objects(pods[len(pods)-4:]), now, kubectl.GetOptions{Wide: true})
		},
		"get-pods-all-namespaces": func(w io.Writer) error {
			other := pod("coredns-7db6d8ff4d-5x2kq", api.PodRunning, running("coredns", true, 0, time.Hour))
			other.Namespace = "kube-system"
			return kubectl.Get(w, api.KindPod, []api.Object{pods[0], other, pods[1]}, now, kubectl.GetOptions{AllNamespaces: true})
		},
		"get-deployments": func(w io.Writer) error {
			return kubectl.Get(w, api.KindDeployment, []api.Object{done, d}, now, kubectl.GetOptions{})
		},
		"get-deployments-wide": func(w io.Writer) error {
			return kubectl.Get(w, api.KindDeployment, []api.Object{d, done}, now, kubectl.GetOptions{Wide: true})
		},
		"get-replicasets-wide": func(w io.Writer) error {
			return kubectl.Get(w, api.KindReplicaSet, objects(rss), now, kubectl.GetOptions{Wide: true})
		},
		"get-nodes": func(w io.Writer) error {
			return kubectl.Get(w, api.KindNode, objects(nodes()), now, kubectl.GetOptions{})
		},
		"get-nodes-wide": func(w io.Writer) error {
			return kubectl.Get(w, api.KindNode, objects(nodes()), now, kubectl.GetOptions{Wide: true})
		},
		"get-services-wide": func(w io.Writer) error {
			return kubectl.Get(w, api.KindService, objects(services()), now, kubectl.GetOptions{Wide: true})
		},
		"get-endpoints": func(w io.Writer) error {
			return kubectl.Get(w, api.KindEndpoints, objects(endpoints()), now, kubectl.GetOptions{})
		},
		"get-hpa": func(w io.Writer) error {
			return kubectl.Get(w, api.KindHorizontalPodAutoscaler, autoscalers(), now, kubectl.GetOptions{})
		},
		"get-events": func(w io.Writer) error {
			return kubectl.Get(w, api.KindEvent, objects(allEvents()), now, kubectl.GetOptions{SortBy: ".lastTimestamp"})
		},
		"get-events-wide": func(w io.Writer) error {
			return kubectl.Get(w, api.KindEvent, objects(allEvents()), now, kubectl.GetOptions{Wide: true})
		},
		"get-resourcequotas": func(w io.Writer) error {
			return kubectl.Get(w, api.KindResourceQuota, []api.Object{quota()}, now, kubectl.GetOptions{})
		},
		"get-misc": func(w io.Writer) error {
			cm := &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "kube-root-ca.crt", Namespace: "default", CreationTimestamp: ago(50 * time.Hour)},
				Data: map[string]string{"ca.crt": "x"}}
			ns := &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "default", CreationTimestamp: ago(50 * time.Hour)}, Status: api.NamespaceStatus{Phase: api.NamespaceActive}}
			lease := &api.Lease{ObjectMeta: api.ObjectMeta{Name: "worker-1", Namespace: "kube-node-lease", CreationTimestamp: ago(50 * time.Hour)},
				Spec: api.LeaseSpec{HolderIdentity: ptr("worker-1")}}
			for _, f := range []func() error{
				func() error { return kubectl.Get(w, api.KindConfigMap, []api.Object{cm}, now, kubectl.GetOptions{}) },
				func() error { return kubectl.Get(w, api.KindNamespace, []api.Object{ns}, now, kubectl.GetOptions{}) },
				func() error { return kubectl.Get(w, api.KindLease, []api.Object{lease}, now, kubectl.GetOptions{}) },
			} {
				if err := f(); err != nil {
					return err
				}
			}
			return nil
		},
		"get-empty": func(w io.Writer) error {
			for _, f := range []func() error{
				func() error { return kubectl.Get(w, api.KindPod, nil, now, kubectl.GetOptions{}) },
				func() error { return kubectl.Get(w, api.KindPod, nil, now, kubectl.GetOptions{Namespace: "team-a"}) },
				func() error { return kubectl.Get(w, api.KindPod, nil, now, kubectl.GetOptions{AllNamespaces: true}) },
				func() error { return kubectl.Get(w, api.KindNode, nil, now, kubectl.GetOptions{}) },
				func() error { return kubectl.Events(w, nil, now) },
				func() error { return kubectl.Events(w, nil, now, kubectl.EventsAllNamespaces()) },
			} {
				if err := f(); err != nil {
					return err
				}
			}
			return nil
		},
		"events": func(w io.Writer) error {
			return kubectl.Events(w, allEvents(), now)
		},
		"events-all-namespaces": func(w io.Writer) error {
			return kubectl.Events(w, allEvents()[:2], now, kubectl.EventsAllNamespaces())
		},
		"describe-job": func(w io.Writer) error {
			start, done := api.NewTime(now.Add(-5*time.Minute)), api.NewTime(now.Add(-4*time.Minute-30*time.Second))
			j := &api.Job{ObjectMeta: api.ObjectMeta{Name: "pi", Namespace: "default", UID: "2b4c"},
				Spec: api.JobSpec{Parallelism: ptr(int32(1)), Completions: ptr(int32(1)), CompletionMode: ptr(api.NonIndexedCompletion), Suspend: ptr(false), BackoffLimit: ptr(int32(4)),
					Selector: &api.LabelSelector{MatchLabels: map[string]string{api.JobControllerUIDLabel: "2b4c"}},
					Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{api.JobNameLabel: "pi"}},
						Spec: api.PodSpec{RestartPolicy: api.RestartPolicyNever, Containers: []api.Container{{Name: "pi", Image: "perl:5.34.0", Command: []string{"perl", "-Mbignum=bpi", "-wle", "print bpi(2000)"}}}}}},
				Status: api.JobStatus{StartTime: &start, CompletionTime: &done, Succeeded: 1, Ready: ptr(int32(0))}}
			return kubectl.Describe(w, j, kubectl.Related{Events: []*api.Event{
				event("pi.1", "Job", "pi", "Normal", "SuccessfulCreate", "Created pod: pi-xh2lk", "job-controller", 1, 5*time.Minute, 5*time.Minute),
				event("pi.2", "Job", "pi", "Normal", "Completed", "Job completed", "job-controller", 1, 4*time.Minute+30*time.Second, 4*time.Minute+30*time.Second)}}, now)
		},
		"describe-cronjob": func(w io.Writer) error {
			last := api.NewTime(now.Add(-time.Minute))
			c := &api.CronJob{ObjectMeta: api.ObjectMeta{Name: "hello", Namespace: "default"},
				Spec: api.CronJobSpec{Schedule: "* * * * *", ConcurrencyPolicy: "Allow", Suspend: ptr(false), SuccessfulJobsHistoryLimit: ptr(int32(3)), FailedJobsHistoryLimit: ptr(int32(1)),
					JobTemplate: api.JobTemplateSpec{Spec: api.JobSpec{Template: api.PodTemplateSpec{
						Spec: api.PodSpec{RestartPolicy: api.RestartPolicyOnFailure, Containers: []api.Container{{Name: "hello", Image: "busybox:1.28"}}}}}}},
				Status: api.CronJobStatus{LastScheduleTime: &last, Active: []api.ObjectReference{{Name: "hello-29430001"}, {Name: "hello-29430002"}}}}
			return kubectl.Describe(w, c, kubectl.Related{}, now)
		},
		"describe-pvc": func(w io.Writer) error {
			class, fs := "my-storage-class", api.VolumeModeFilesystem
			c := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: "www-web-0", Namespace: "default", Labels: map[string]string{"app": "nginx"},
				Annotations: map[string]string{api.AnnBindCompleted: "yes", api.AnnSelectedNode: "zone-a-1"}},
				Spec:   api.PersistentVolumeClaimSpec{StorageClassName: &class, VolumeName: "pvc-0a1b", VolumeMode: &fs, AccessModes: []string{api.ReadWriteOnce}},
				Status: api.PersistentVolumeClaimStatus{Phase: api.ClaimBound, AccessModes: []string{api.ReadWriteOnce}, Capacity: api.ResourceList{api.ResourceStorage: qty("1Gi")}}}
			user := pod("web-0", api.PodRunning)
			raw, _ := api.NewRawValue(map[string]string{"claimName": "www-web-0"})
			user.Spec.Volumes = []api.Volume{{Name: "www", Source: map[string]api.RawValue{"persistentVolumeClaim": raw}}}
			return kubectl.Describe(w, c, kubectl.Related{Objects: []api.Object{user, pod("web-1", api.PodRunning)},
				Events: []*api.Event{event("www.1", "PersistentVolumeClaim", "www-web-0", "Normal", "WaitForFirstConsumer", "waiting for first consumer to be created before binding",
					"persistentvolume-controller", 1, 2*time.Minute, 2*time.Minute)}}, now)
		},
		"get-storage": func(w io.Writer) error {
			gi, class, fs := qty("1Gi"), "my-storage-class", api.VolumeModeFilesystem
			created := api.NewTime(now.Add(-2 * time.Minute))
			three := int32(3)
			sts := &api.StatefulSet{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default", CreationTimestamp: created},
				Spec:   api.StatefulSetSpec{Replicas: &three, Template: api.PodTemplateSpec{Spec: api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "registry.k8s.io/nginx-slim:0.24"}}}}},
				Status: api.StatefulSetStatus{ReadyReplicas: 2}}
			bound := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: "www-web-0", Namespace: "default", CreationTimestamp: created},
				Spec:   api.PersistentVolumeClaimSpec{StorageClassName: &class, VolumeName: "pvc-0a1b", VolumeMode: &fs, AccessModes: []string{api.ReadWriteOnce}},
				Status: api.PersistentVolumeClaimStatus{Phase: api.ClaimBound, AccessModes: []string{api.ReadWriteOnce}, Capacity: api.ResourceList{api.ResourceStorage: gi}}}
			pending := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: "www-web-1", Namespace: "default", CreationTimestamp: created},
				Spec: api.PersistentVolumeClaimSpec{StorageClassName: &class, VolumeMode: &fs}, Status: api.PersistentVolumeClaimStatus{Phase: api.ClaimPending}}
			pv := &api.PersistentVolume{ObjectMeta: api.ObjectMeta{Name: "pvc-0a1b", CreationTimestamp: created},
				Spec: api.PersistentVolumeSpec{Capacity: api.ResourceList{api.ResourceStorage: gi}, AccessModes: []string{api.ReadWriteOnce, api.ReadOnlyMany},
					PersistentVolumeReclaimPolicy: api.ReclaimDelete, StorageClassName: class, VolumeMode: &fs,
					ClaimRef: &api.ObjectReference{Namespace: "default", Name: "www-web-0"}}, Status: api.PersistentVolumeStatus{Phase: api.VolumeBound}}
			sc := &api.StorageClass{ObjectMeta: api.ObjectMeta{Name: class, CreationTimestamp: created, Annotations: map[string]string{api.AnnDefaultStorageClass: "true"}},
				Provisioner: "ebs.csi.aws.com", ReclaimPolicy: ptr(api.ReclaimDelete), VolumeBindingMode: ptr(api.VolumeBindingWaitForFirstConsumer)}
			for _, f := range []func() error{
				func() error {
					return kubectl.Get(w, api.KindStatefulSet, []api.Object{sts}, now, kubectl.GetOptions{Wide: true})
				},
				func() error {
					return kubectl.Get(w, api.KindPersistentVolumeClaim, []api.Object{bound, pending}, now, kubectl.GetOptions{})
				},
				func() error {
					return kubectl.Get(w, api.KindPersistentVolume, []api.Object{pv}, now, kubectl.GetOptions{})
				},
				func() error { return kubectl.Get(w, api.KindStorageClass, []api.Object{sc}, now, kubectl.GetOptions{}) },
			} {
				if err := f(); err != nil {
					return err
				}
			}
			return nil
		},
		"describe-deployment": func(w io.Writer) error {
			return kubectl.Describe(w, d, kubectl.Related{Objects: objects(rss), Events: deploymentEvents()}, now)
		},
		"describe-deployment-complete": func(w io.Writer) error {
			c := done.DeepCopy()
			c.Spec.Strategy = api.DeploymentStrategy{Type: api.RecreateDeploymentStrategyType}
			c.Status.Conditions = []api.DeploymentCondition{
				{Type: api.DeploymentProgressing, Status: api.ConditionFalse, Reason: "ProgressDeadlineExceeded"},
				{Type: api.DeploymentReplicaFailure, Status: api.ConditionTrue, Reason: "FailedCreate"},
			}
			return kubectl.Describe(w, c, kubectl.Related{}, now)
		},
		"describe-replicaset": func(w io.Writer) error {
			rs := rss[1].DeepCopy()
			rs.Status.Conditions = []api.ReplicaSetCondition{{Type: api.ReplicaSetReplicaFailure, Status: api.ConditionTrue, Reason: "FailedCreate"}}
			owned := func(name string, phase api.PodPhase) *api.Pod {
				p := pod(name, phase)
				p.OwnerReferences = []api.OwnerReference{controllerRef("ReplicaSet", rs.Name, string(rs.UID))}
				return p
			}
			stranger := pod("nginx-deployment-1564180365-other", api.PodRunning)
			return kubectl.Describe(w, rs, kubectl.Related{
				Objects: []api.Object{owned("nginx-deployment-1564180365-abcde", api.PodPending), owned("nginx-deployment-1564180365-fghij", api.PodRunning), stranger},
				Events: []*api.Event{event("rs.1", "ReplicaSet", rs.Name, "Warning", "FailedCreate",
					`Error creating: pods "nginx-deployment-1564180365-x" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=10, limited: pods=10`,
					"replicaset-controller", 5, 10*time.Minute, 15*time.Second)},
			}, now)
		},
		"describe-pod": func(w io.Writer) error {
			p, events := richPod()
			return kubectl.Describe(w, p, kubectl.Related{Events: events}, now)
		},
		"describe-pod-pending": func(w io.Writer) error {
			return kubectl.Describe(w, pods[14], kubectl.Related{Events: []*api.Event{event("p.1", "Pod", "web-pending", "Warning", "FailedScheduling",
				"0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..",
				"default-scheduler", 0, 5*time.Minute, 5*time.Minute)}}, now)
		},
		"describe-pod-terminating": func(w io.Writer) error {
			p := pods[12].DeepCopyObject().(*api.Pod)
			p.DeletionGracePeriodSeconds = ptr(int64(30))
			p.Status.PodIP = "10.244.1.5"
			p.Status.PodIPs = []api.PodIP{{IP: "10.244.1.5"}}
			p.Status.HostIP = "172.18.0.3"
			return kubectl.Describe(w, p, kubectl.Related{}, now)
		},
		"describe-node": func(w io.Writer) error {
			n := nodes()[1]
			n.Annotations = map[string]string{"node.alpha.kubernetes.io/ttl": "0", "volumes.kubernetes.io/controller-managed-attach-detach": "true"}
			lease := &api.Lease{ObjectMeta: api.ObjectMeta{Name: "worker-1", Namespace: "kube-node-lease"},
				Spec: api.LeaseSpec{HolderIdentity: ptr("worker-1"), AcquireTime: ptr(api.NewMicroTime(now.Add(-50 * time.Hour))), RenewTime: ptr(api.NewMicroTime(now.Add(-7 * time.Second)))}}
			a := pod("web-1", api.PodRunning)
			a.Spec.Containers[0].Resources = api.ResourceRequirements{Requests: api.ResourceList{"cpu": qty("250m"), "memory": qty("64Mi")},
				Limits: api.ResourceList{"cpu": qty("500m"), "memory": qty("128Mi")}}
			b := pod("coredns-7db6d8ff4d-5x2kq", api.PodRunning)
			b.Namespace = "kube-system"
			b.Spec.Containers[0].Resources = api.ResourceRequirements{Requests: api.ResourceList{"cpu": qty("100m"), "memory": qty("70Mi")},
				Limits: api.ResourceList{"memory": qty("170Mi")}}
			finished := pod("job-1", api.PodSucceeded)
			elsewhere := pod("web-2", api.PodRunning)
			elsewhere.Spec.NodeName = "worker-2"
			return kubectl.Describe(w, n, kubectl.Related{
				Objects: []api.Object{a, b, finished, elsewhere, lease},
				Events: []*api.Event{
					event("worker-1.1", "Node", "worker-1", "Normal", "NodeNotSchedulable", "Node worker-1 status is now: NodeNotSchedulable", "kubelet", 1, time.Minute, time.Minute),
				},
			}, now)
		},
		"describe-node-without-lease": func(w io.Writer) error {
			return kubectl.Describe(w, nodes()[3], kubectl.Related{}, now)
		},
		"describe-resourcequota": func(w io.Writer) error {
			q := quota()
			q.Spec.Scopes = []api.ResourceQuotaScope{"NotTerminating", "BestEffort"}
			return kubectl.Describe(w, q, kubectl.Related{}, now)
		},
		"describe-service": func(w io.Writer) error {
			s := services()[1]
			return kubectl.Describe(w, s, kubectl.Related{Objects: []api.Object{endpoints()[1]}}, now)
		},
		"describe-service-loadbalancer": func(w io.Writer) error {
			return kubectl.Describe(w, services()[3], kubectl.Related{}, now)
		},
		"describe-endpoints": func(w io.Writer) error {
			return kubectl.Describe(w, endpoints()[1], kubectl.Related{}, now)
		},
		"rollout-status": func(w io.Writer) error {
			stuck := d.DeepCopy()
			stuck.Status.Conditions[1].Reason = "ProgressDeadlineExceeded"
			observed := d.DeepCopy()
			observed.Generation = 3
			for _, x := range []*api.Deployment{observed, d, done, stuck} {
				if err := kubectl.RolloutStatus(w, x, now); err != nil {
					return err
				}
			}
			return nil
		},
		"rollout-history": func(w io.Writer) error {
			h := &kubectlcmd.History{Name: "nginx-deployment"}
			for i, rs := range rss {
				t := *rs.Spec.Template.DeepCopy()
				cause := ""
				if i == 1 {
					cause = "kubectl set image deployment/nginx-deployment nginx=nginx:1.16.1"
					t.Annotations = map[string]string{kubectlcmd.ChangeCauseAnnotation: cause}
				}
				h.Revisions = append(h.Revisions, kubectlcmd.Revision{Number: int64(i + 1), ChangeCause: cause, Template: t})
			}
			if err := kubectl.RolloutHistory(w, h, 0); err != nil {
				return err
			}
			return kubectl.RolloutHistory(w, h, 2)
		},
	}
}

// TestGolden compares every printer's output with its golden file; run
// with -update to rewrite them (and read the diff before committing).
func TestGolden(t *testing.T) {
	for name, render := range goldenCases() {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := render(&buf); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", name+".txt")
			if *update {
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("output differs from %s:\n--- got\n%s\n--- want\n%s", path, buf.Bytes(), want)
			}
		})
	}
}

// TestGoldenDeterministic renders every case twice: no output may depend
// on map order.
func TestGoldenDeterministic(t *testing.T) {
	for name, render := range goldenCases() {
		var a, b bytes.Buffer
		for range 5 {
			a.Reset()
			b.Reset()
			if err := render(&a); err != nil {
				t.Fatal(err)
			}
			if err := render(&b); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Fatalf("%s: two renderings differ", name)
			}
		}
	}
}
