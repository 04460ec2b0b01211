package deployment

import (
	"slices"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/manifest"
)

const nginx = "nginx-deployment"

// nginxDeployment loads the Kubernetes docs' nginx-deployment (3
// replicas, default strategy: maxSurge and maxUnavailable 25%).
func nginxDeployment(t testing.TB) *api.Deployment {
	t.Helper()
	objs, err := manifest.DecodeFile("../../testdata/kubernetes-docs/nginx-deployment.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) != 1 {
		t.Fatalf("%d objects in nginx-deployment.yaml, want 1", len(objs))
	}
	return objs[0].(*api.Deployment)
}

// rolledOut starts a cluster with nginx-deployment and runs until it is
// rolled out.
func rolledOut(t *testing.T, o envOptions, mutate ...func(d *api.Deployment)) (*env, *api.Deployment) {
	t.Helper()
	d := nginxDeployment(t)
	for _, f := range mutate {
		f(d)
	}
	e := newEnv(t, o, d)
	// Over a lossy network a lost list reply costs the informer its 60s
	// list timeout before the controllers start.
	wait := 30 * time.Second
	if o.link.Drop > 0 {
		wait = 5 * time.Minute
	}
	e.run(wait)
	got := e.deployment(nginx)
	if !DeploymentComplete(got, &got.Status) {
		t.Fatalf("not rolled out after %v: %+v", wait, got.Status)
	}
	return e, got
}

func setImage(image string) func(d *api.Deployment) {
	return func(d *api.Deployment) { d.Spec.Template.Spec.Containers[0].Image = image }
}

func TestE2ENginxRollsOut(t *testing.T) {
	e, d := rolledOut(t, envOptions{seed: 1})
	hash := ComputeHash(&d.Spec.Template, nil)
	rsName := nginx + "-" + hash

	if d.Generation != 1 || d.Status.ObservedGeneration != 1 {
		t.Errorf("generation %d, observed %d; want 1 and 1", d.Generation, d.Status.ObservedGeneration)
	}
	st := d.Status
	if st.Replicas != 3 || st.UpdatedReplicas != 3 || st.ReadyReplicas != 3 || st.AvailableReplicas != 3 || st.UnavailableReplicas != 0 {
		t.Errorf("status %+v, want 3 replicas all updated, ready and available", st)
	}
	if st.TerminatingReplicas == nil || *st.TerminatingReplicas != 0 {
		t.Errorf("terminatingReplicas = %v, want 0", deref(st.TerminatingReplicas))
	}
	// As kubectl describe shows them, in this order.
	var conds []string
	for _, c := range st.Conditions {
		conds = append(conds, string(c.Type)+" "+string(c.Status)+" "+c.Reason+" "+c.Message)
	}
	wantConds := []string{
		"Available True MinimumReplicasAvailable Deployment has minimum availability.",
		`Progressing True NewReplicaSetAvailable ReplicaSet "` + rsName + `" has successfully progressed.`,
	}
	if !slices.Equal(conds, wantConds) {
		t.Errorf("conditions\n%q\nwant\n%q", conds, wantConds)
	}

	rss := e.replicaSets()
	if len(rss) != 1 || rss[0].Name != rsName {
		t.Fatalf("ReplicaSets %v, want [%s]", names(rss), rsName)
	}
	r := rss[0]
	if !api.IsControlledBy(r, d) || *r.Spec.Replicas != 3 || r.Labels[DefaultDeploymentUniqueLabelKey] != hash || r.Spec.Selector.MatchLabels[DefaultDeploymentUniqueLabelKey] != hash {
		t.Errorf("ReplicaSet %s: owner %v, replicas %d, labels %v, selector %v", r.Name, r.OwnerReferences, *r.Spec.Replicas, r.Labels, r.Spec.Selector.MatchLabels)
	}
	wantAnn := map[string]string{RevisionAnnotation: "1", DesiredReplicasAnnotation: "3", MaxReplicasAnnotation: "4"}
	if !api.SemanticEqual(r.Annotations, wantAnn) {
		t.Errorf("ReplicaSet annotations %v, want %v", r.Annotations, wantAnn)
	}
	pods := e.pods()
	if len(pods) != 3 {
		t.Fatalf("%d pods, want 3", len(pods))
	}
	for _, p := range pods {
		if p.Labels[DefaultDeploymentUniqueLabelKey] != hash || !api.IsPodReady(p) {
			t.Errorf("pod %s: labels %v, ready %v", p.Name, p.Labels, api.IsPodReady(p))
		}
	}
	if got, want := e.events(nginx), []string{"Normal ScalingReplicaSet Scaled up replica set " + rsName + " from 0 to 3"}; !slices.Equal(got, want) {
		t.Errorf("events %q, want %q", got, want)
	}
}

// TestE2ERevisionCopiedToDeployment checks the Deployment's own revision
// annotation, which upstream writes through the status subresource
// (deploymentStatusStrategy keeps every metadata change but labels).
func TestE2ERevisionCopiedToDeployment(t *testing.T) {
	e, d := rolledOut(t, envOptions{seed: 1})
	if d.Annotations[RevisionAnnotation] == "" {
		// Say which layer lost it: a status write that drops annotations
		// is the store's regression (upstream's deploymentStatusStrategy
		// resets only spec and labels), else the controller's.
		probe := d.DeepCopy()
		probe.Annotations = map[string]string{"probe": "x"}
		resp := e.c.API.Handle(statusUpdate(probe))
		if resp.Err == nil && resp.Object.GetObjectMeta().Annotations["probe"] == "" {
			t.Fatalf("the store drops metadata.annotations on deployments/status updates; upstream keeps them, so the revision never reaches the Deployment")
		}
		t.Fatalf("Deployment revision annotation missing: %v", d.Annotations)
	}
	if got := d.Annotations[RevisionAnnotation]; got != "1" {
		t.Errorf("revision %q, want 1", got)
	}
}

// TestE2EImageChangeRollsWithinBudget changes nginx's image: 25% of 3 is
// maxSurge 1 (rounded up) and maxUnavailable 0 (rounded down), so the
// rollout goes one pod at a time, never above 4 pods, never below 3
// available, checked after every pod change.
func TestE2EImageChangeRollsWithinBudget(t *testing.T) {
	e, d := rolledOut(t, envOptions{seed: 2})
	oldRS := e.replicaSet("nginx:1.14.2")
	b := e.watchBudget(d, 3, 1, 0)
	e.update(nginx, setImage("nginx:1.16.1"))
	e.run(60 * time.Second)

	d = e.deployment(nginx)
	if !DeploymentComplete(d, &d.Status) || d.Generation != 2 {
		t.Fatalf("not complete: generation %d, status %+v", d.Generation, d.Status)
	}
	newRS := e.replicaSet("nginx:1.16.1")
	oldRS = e.replicaSet("nginx:1.14.2")
	if *newRS.Spec.Replicas != 3 || *oldRS.Spec.Replicas != 0 {
		t.Errorf("new %d, old %d replicas; want 3 and 0", *newRS.Spec.Replicas, *oldRS.Spec.Replicas)
	}
	if newRS.Annotations[RevisionAnnotation] != "2" || oldRS.Annotations[RevisionAnnotation] != "1" {
		t.Errorf("revisions new %q old %q, want 2 and 1", newRS.Annotations[RevisionAnnotation], oldRS.Annotations[RevisionAnnotation])
	}
	if b.checks < 12 || b.peakPods != 4 || b.lowestAvailable != 3 {
		t.Errorf("budget: %d checks, peak %d pods, lowest %d available; want ≥12, 4, 3", b.checks, b.peakPods, b.lowestAvailable)
	}
	// The familiar kubectl describe sequence.
	want := []string{
		"Normal ScalingReplicaSet Scaled up replica set " + oldRS.Name + " from 0 to 3",
		"Normal ScalingReplicaSet Scaled up replica set " + newRS.Name + " from 0 to 1",
		"Normal ScalingReplicaSet Scaled down replica set " + oldRS.Name + " from 3 to 2",
		"Normal ScalingReplicaSet Scaled up replica set " + newRS.Name + " from 1 to 2",
		"Normal ScalingReplicaSet Scaled down replica set " + oldRS.Name + " from 2 to 1",
		"Normal ScalingReplicaSet Scaled up replica set " + newRS.Name + " from 2 to 3",
		"Normal ScalingReplicaSet Scaled down replica set " + oldRS.Name + " from 1 to 0",
	}
	if got := e.events(nginx); !slices.Equal(got, want) {
		t.Errorf("events\n%q\nwant\n%q", got, want)
	}
	if got := condition(d, api.DeploymentProgressing); got != `True NewReplicaSetAvailable ReplicaSet "`+newRS.Name+`" has successfully progressed.` {
		t.Errorf("Progressing: %s", got)
	}
}

// TestE2EStuckRolloutTimesOutAndRollsBack: the new image never becomes
// ready. The rollout stays at 1 of 3 updated with the 3 old pods running,
// and 600 virtual seconds after the last progress Progressing turns False
// ProgressDeadlineExceeded. Setting the template back (kubectl rollout
// undo) makes the old ReplicaSet the new one again, with a bumped
// revision, and its 3 pods are available throughout.
func TestE2EStuckRolloutTimesOutAndRollsBack(t *testing.T) {
	e, _ := rolledOut(t, envOptions{seed: 3})
	e.badImages["nginx:broken"] = true
	oldPods := podNames(e.pods())
	e.update(nginx, setImage("nginx:broken"))
	changed := e.now()
	e.run(30 * time.Second)

	d := e.deployment(nginx)
	broken := e.replicaSet("nginx:broken")
	st := d.Status
	// kubectl: "1 out of 3 new replicas have been updated..."
	if st.UpdatedReplicas != 1 || st.Replicas != 4 || st.AvailableReplicas != 3 || st.UnavailableReplicas != 1 {
		t.Errorf("status %+v, want 1 of 4 updated, 3 available", st)
	}
	var running []string
	for _, p := range e.pods() {
		if p.Labels[DefaultDeploymentUniqueLabelKey] != broken.Labels[DefaultDeploymentUniqueLabelKey] {
			running = append(running, p.Name)
		}
	}
	if !slices.Equal(running, oldPods) {
		t.Errorf("old pods %v, want %v kept", running, oldPods)
	}
	progressing := GetDeploymentCondition(d.Status, api.DeploymentProgressing)
	if progressing.Reason != ReplicaSetUpdatedReason {
		t.Fatalf("Progressing: %s", condition(d, api.DeploymentProgressing))
	}
	lastProgress := progressing.LastUpdateTime.Time

	// Just before the deadline: still progressing.
	e.run(lastProgress.Add(599 * time.Second).Sub(e.now()))
	if got := condition(e.deployment(nginx), api.DeploymentProgressing); got != `True ReplicaSetUpdated ReplicaSet "`+broken.Name+`" is progressing.` {
		t.Fatalf("at 599s: Progressing %s", got)
	}
	// The stuck Deployment was requeued for its deadline: at
	// lastUpdate + 600s + 1s it times out, without any other event.
	e.run(5 * time.Second)
	d = e.deployment(nginx)
	if got, want := condition(d, api.DeploymentProgressing), `False ProgressDeadlineExceeded ReplicaSet "`+broken.Name+`" has timed out progressing.`; got != want {
		t.Fatalf("Progressing %q, want %q", got, want)
	}
	c := GetDeploymentCondition(d.Status, api.DeploymentProgressing)
	if at := c.LastTransitionTime.Sub(lastProgress); at < 600*time.Second || at > 602*time.Second {
		t.Errorf("timed out %v after the last progress (change at %v), want 600-602s", at, changed)
	}
	if got := condition(d, api.DeploymentAvailable); got != "True MinimumReplicasAvailable Deployment has minimum availability." {
		t.Errorf("Available: %s", got)
	}
	if !slices.Equal(podNamesWithout(e.pods(), broken), oldPods) {
		t.Errorf("old pods changed while stuck")
	}

	// kubectl rollout undo: the template goes back.
	e.update(nginx, setImage("nginx:1.14.2"))
	e.run(30 * time.Second)
	d = e.deployment(nginx)
	old := e.replicaSet("nginx:1.14.2")
	broken = e.replicaSet("nginx:broken")
	if !DeploymentComplete(d, &d.Status) || d.Status.AvailableReplicas != 3 {
		t.Fatalf("not complete after the rollback: %+v", d.Status)
	}
	if old.Annotations[RevisionAnnotation] != "3" || old.Annotations[RevisionHistoryAnnotation] != "1" {
		t.Errorf("reused ReplicaSet annotations %v, want revision 3 with history 1", old.Annotations)
	}
	if *broken.Spec.Replicas != 0 || *old.Spec.Replicas != 3 {
		t.Errorf("broken %d, old %d replicas; want 0 and 3", *broken.Spec.Replicas, *old.Spec.Replicas)
	}
	if got := podNames(e.pods()); !slices.Equal(got, oldPods) {
		t.Errorf("pods %v, want the original %v (no new pod needed)", got, oldPods)
	}
	if got := condition(d, api.DeploymentProgressing); got != `True NewReplicaSetAvailable ReplicaSet "`+old.Name+`" has successfully progressed.` {
		t.Errorf("Progressing: %s", got)
	}
	if len(e.replicaSets()) != 2 {
		t.Errorf("ReplicaSets %v, want the two", names(e.replicaSets()))
	}
}

func podNamesWithout(pods []*api.Pod, r *api.ReplicaSet) []string {
	var keep []*api.Pod
	for _, p := range pods {
		if !api.IsControlledBy(p, r) {
			keep = append(keep, p)
		}
	}
	return podNames(keep)
}

// TestE2ERecreate: with the Recreate strategy no new pod exists while an
// old one does (terminating ones included).
func TestE2ERecreate(t *testing.T) {
	e, d := rolledOut(t, envOptions{seed: 4}, func(d *api.Deployment) {
		d.Spec.Strategy = api.DeploymentStrategy{Type: api.RecreateDeploymentStrategyType}
	})
	oldHash := e.replicaSet("nginx:1.14.2").Labels[DefaultDeploymentUniqueLabelKey]
	b := e.watchBudget(d, 3, 0, 3)
	mixed := 0
	_, err := e.c.Store.Watch(api.KindPod, 0, storeAll, sinkFunc(func() {
		hashes := map[string]bool{}
		for _, p := range b.pods {
			hashes[p.Labels[DefaultDeploymentUniqueLabelKey]] = true
		}
		if len(hashes) > 1 {
			mixed++
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	e.update(nginx, setImage("nginx:1.16.1"))
	e.run(60 * time.Second)
	if mixed > 0 {
		t.Errorf("old and new pods coexisted after %d pod changes", mixed)
	}
	d = e.deployment(nginx)
	if !DeploymentComplete(d, &d.Status) {
		t.Fatalf("not complete: %+v", d.Status)
	}
	newRS := e.replicaSet("nginx:1.16.1")
	for _, p := range e.pods() {
		if p.Labels[DefaultDeploymentUniqueLabelKey] == oldHash {
			t.Errorf("old pod %s left", p.Name)
		}
	}
	want := []string{
		"Normal ScalingReplicaSet Scaled up replica set " + e.replicaSet("nginx:1.14.2").Name + " from 0 to 3",
		"Normal ScalingReplicaSet Scaled down replica set " + e.replicaSet("nginx:1.14.2").Name + " from 3 to 0",
		"Normal ScalingReplicaSet Scaled up replica set " + newRS.Name + " from 0 to 3",
	}
	if got := e.events(nginx); !slices.Equal(got, want) {
		t.Errorf("events\n%q\nwant\n%q", got, want)
	}
}

// TestE2EPauseResume: a paused Deployment does not roll a new template
// out but is still scaled; resuming rolls it out.
func TestE2EPauseResume(t *testing.T) {
	e, _ := rolledOut(t, envOptions{seed: 5})
	e.update(nginx, func(d *api.Deployment) { d.Spec.Paused = true })
	e.run(5 * time.Second)
	if got := condition(e.deployment(nginx), api.DeploymentProgressing); got != "Unknown DeploymentPaused Deployment is paused" {
		t.Errorf("paused: Progressing %s", got)
	}
	e.update(nginx, setImage("nginx:1.16.1"))
	e.update(nginx, func(d *api.Deployment) { d.Spec.Replicas = int32p(5) })
	e.run(30 * time.Second)
	if rss := e.replicaSets(); len(rss) != 1 || *rss[0].Spec.Replicas != 5 {
		t.Fatalf("while paused: ReplicaSets %v, want only the old one, scaled to 5", names(rss))
	}
	d := e.deployment(nginx)
	if d.Status.Replicas != 5 || d.Status.UpdatedReplicas != 0 || d.Status.ObservedGeneration != d.Generation {
		t.Errorf("while paused: status %+v (generation %d)", d.Status, d.Generation)
	}

	e.update(nginx, func(d *api.Deployment) { d.Spec.Paused = false })
	e.run(100 * time.Millisecond)
	if got := condition(e.deployment(nginx), api.DeploymentProgressing); got != "Unknown DeploymentResumed Deployment is resumed" && !hasPrefix(got, "True ") {
		t.Errorf("resumed: Progressing %s", got)
	}
	e.run(60 * time.Second)
	d = e.deployment(nginx)
	if !DeploymentComplete(d, &d.Status) || d.Status.Replicas != 5 {
		t.Fatalf("not complete after resume: %+v", d.Status)
	}
	if got := condition(d, api.DeploymentProgressing); !hasPrefix(got, "True NewReplicaSetAvailable") {
		t.Errorf("Progressing %s", got)
	}
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }

// TestE2EProportionalScaling is the Kubernetes documentation's example: 10
// replicas, maxSurge 3, maxUnavailable 2, a new image that never becomes
// ready leaves the rollout at 8 old and 5 new; scaling to 15 spreads the 5
// extra replicas in proportion: 3 to the old ReplicaSet, 2 to the new.
func TestE2EProportionalScaling(t *testing.T) {
	e, _ := rolledOut(t, envOptions{seed: 6}, func(d *api.Deployment) {
		d.Spec.Replicas = int32p(10)
		d.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{MaxSurge: intstrp(api.FromInt32(3)), MaxUnavailable: intstrp(api.FromInt32(2))}
	})
	e.badImages["nginx:sometag"] = true
	e.update(nginx, setImage("nginx:sometag"))
	e.run(30 * time.Second)
	if o, n := *e.replicaSet("nginx:1.14.2").Spec.Replicas, *e.replicaSet("nginx:sometag").Spec.Replicas; o != 8 || n != 5 {
		t.Fatalf("stuck rollout: old %d, new %d; want 8 and 5", o, n)
	}
	e.update(nginx, func(d *api.Deployment) { d.Spec.Replicas = int32p(15) })
	e.run(30 * time.Second)
	oldRS, newRS := e.replicaSet("nginx:1.14.2"), e.replicaSet("nginx:sometag")
	if *oldRS.Spec.Replicas != 11 || *newRS.Spec.Replicas != 7 {
		t.Errorf("after scaling to 15: old %d, new %d; want 11 and 7", *oldRS.Spec.Replicas, *newRS.Spec.Replicas)
	}
	for _, r := range []*api.ReplicaSet{oldRS, newRS} {
		if r.Annotations[DesiredReplicasAnnotation] != "15" || r.Annotations[MaxReplicasAnnotation] != "18" {
			t.Errorf("%s annotations %v, want desired 15 and max 18", r.Name, r.Annotations)
		}
	}
	events := e.events(nginx)
	tail := events[len(events)-2:]
	want := []string{
		"Normal ScalingReplicaSet Scaled up replica set " + oldRS.Name + " from 8 to 11",
		"Normal ScalingReplicaSet Scaled up replica set " + newRS.Name + " from 5 to 7",
	}
	if !slices.Equal(tail, want) {
		t.Errorf("last events %q, want %q", tail, want)
	}
}

// TestE2ERevisionHistoryLimit: after five rollouts with
// revisionHistoryLimit 2, only the two newest old ReplicaSets remain.
func TestE2ERevisionHistoryLimit(t *testing.T) {
	e, _ := rolledOut(t, envOptions{seed: 7}, func(d *api.Deployment) { d.Spec.RevisionHistoryLimit = int32p(2) })
	for i, image := range []string{"nginx:1.15", "nginx:1.16", "nginx:1.17", "nginx:1.18"} {
		e.update(nginx, setImage(image))
		e.run(60 * time.Second)
		d := e.deployment(nginx)
		if !DeploymentComplete(d, &d.Status) {
			t.Fatalf("rollout %d not complete: %+v", i+2, d.Status)
		}
	}
	var revs []string
	for _, r := range e.replicaSets() {
		revs = append(revs, r.Annotations[RevisionAnnotation])
	}
	slices.Sort(revs)
	if want := []string{"3", "4", "5"}; !slices.Equal(revs, want) {
		t.Errorf("revisions left %v, want %v", revs, want)
	}
	if n := len(e.pods()); n != 3 {
		t.Errorf("%d pods, want 3", n)
	}
}

// TestE2EDeterministic: the same seed gives the same trace.
func TestE2EDeterministic(t *testing.T) {
	run := func() string {
		e, _ := rolledOut(t, envOptions{seed: 8, link: lossyLink})
		e.update(nginx, setImage("nginx:1.16.1"))
		e.run(90 * time.Second)
		return e.c.TraceHash()
	}
	if a, b := run(), run(); a != b {
		t.Errorf("trace hashes differ: %s and %s", a, b)
	}
}

// TestE2ELossyNetwork: over a network that drops, duplicates and delays
// messages (timeouts with unknown outcomes), rollouts still complete.
func TestE2ELossyNetwork(t *testing.T) {
	for seed := uint64(20); seed < 26; seed++ {
		e, _ := rolledOut(t, envOptions{seed: seed, link: lossyLink})
		e.update(nginx, setImage("nginx:1.16.1"))
		e.run(120 * time.Second)
		d := e.deployment(nginx)
		if !DeploymentComplete(d, &d.Status) {
			t.Errorf("seed %d: not complete: %+v", seed, d.Status)
			continue
		}
		if n := len(e.pods()); n != 3 {
			t.Errorf("seed %d: %d pods, want 3", seed, n)
		}
		if got := condition(d, api.DeploymentProgressing); !hasPrefix(got, "True NewReplicaSetAvailable") {
			t.Errorf("seed %d: Progressing %s", seed, got)
		}
	}
}

// TestE2EWithRealReplicaSetController repeats the rolling update and the
// stuck rollout with controllers/replicaset instead of the stand-in.
func TestE2EWithRealReplicaSetController(t *testing.T) {
	e, d := rolledOut(t, envOptions{seed: 9, realRS: true})
	b := e.watchBudget(d, 3, 1, 0)
	e.update(nginx, setImage("nginx:1.16.1"))
	e.run(60 * time.Second)
	d = e.deployment(nginx)
	if !DeploymentComplete(d, &d.Status) {
		t.Fatalf("not complete: %+v", d.Status)
	}
	if b.peakPods != 4 || b.lowestAvailable != 3 {
		t.Errorf("budget: peak %d pods, lowest %d available; want 4 and 3", b.peakPods, b.lowestAvailable)
	}

	e.badImages["nginx:broken"] = true
	e.update(nginx, setImage("nginx:broken"))
	e.run(11 * time.Minute)
	d = e.deployment(nginx)
	broken := e.replicaSet("nginx:broken")
	if got, want := condition(d, api.DeploymentProgressing), `False ProgressDeadlineExceeded ReplicaSet "`+broken.Name+`" has timed out progressing.`; got != want {
		t.Errorf("Progressing %q, want %q", got, want)
	}
	if d.Status.UpdatedReplicas != 1 || d.Status.AvailableReplicas != 3 {
		t.Errorf("status %+v, want 1 updated and 3 available", d.Status)
	}
}
