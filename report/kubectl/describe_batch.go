package kubectl

import (
	"fmt"
	"slices"

	"github.com/clustersim/clustersim/sim/api"
)

// selectorText is a label selector as describe prints it
// (labels.Selector's String: "" for an empty one), or kubectl's failure.
func selectorText(ls *api.LabelSelector) string {
	sel, err := api.LabelSelectorAsSelector(ls)
	if err != nil {
		return "Failed to get selector: " + err.Error()
	}
	return sel.String()
}

// job is kubectl's describeJob (k8s.io/kubectl pkg/describe/describe.go).
func (p *prefixWriter) job(j *api.Job, events []*api.Event) {
	p.write(level0, "Name:\t%s\n", j.Name)
	p.write(level0, "Namespace:\t%s\n", j.Namespace)
	p.write(level0, "Selector:\t%s\n", selectorText(j.Spec.Selector))
	p.labels("Labels", j.Labels)
	p.annotations("Annotations", j.Annotations)
	if c := controlledBy(&j.ObjectMeta); c != "" {
		p.write(level0, "Controlled By:\t%s\n", c)
	}
	s, st := &j.Spec, &j.Status
	if s.Parallelism != nil {
		p.write(level0, "Parallelism:\t%d\n", *s.Parallelism)
	}
	if s.Completions != nil {
		p.write(level0, "Completions:\t%d\n", *s.Completions)
	} else {
		p.write(level0, "Completions:\t<unset>\n")
	}
	if s.CompletionMode != nil {
		p.write(level0, "Completion Mode:\t%s\n", *s.CompletionMode)
	}
	if s.Suspend != nil {
		p.write(level0, "Suspend:\t%v\n", *s.Suspend)
	}
	if s.BackoffLimit != nil {
		p.write(level0, "Backoff Limit:\t%v\n", *s.BackoffLimit)
	}
	if s.TTLSecondsAfterFinished != nil {
		p.write(level0, "TTL Seconds After Finished:\t%v\n", *s.TTLSecondsAfterFinished)
	}
	if st.StartTime != nil {
		p.write(level0, "Start Time:\t%s\n", rfc1123Z(*st.StartTime))
	}
	if st.CompletionTime != nil {
		p.write(level0, "Completed At:\t%s\n", rfc1123Z(*st.CompletionTime))
	}
	if st.StartTime != nil && st.CompletionTime != nil {
		p.write(level0, "Duration:\t%s\n", HumanDuration(st.CompletionTime.Time.Sub(st.StartTime.Time)))
	}
	if s.ActiveDeadlineSeconds != nil {
		p.write(level0, "Active Deadline Seconds:\t%ds\n", *s.ActiveDeadlineSeconds)
	}
	if st.Ready == nil {
		p.write(level0, "Pods Statuses:\t%d Active / %d Succeeded / %d Failed\n", st.Active, st.Succeeded, st.Failed)
	} else {
		p.write(level0, "Pods Statuses:\t%d Active (%d Ready) / %d Succeeded / %d Failed\n", st.Active, *st.Ready, st.Succeeded, st.Failed)
	}
	if s.CompletionMode != nil && *s.CompletionMode == api.IndexedCompletion {
		p.write(level0, "Completed Indexes:\t%s\n", capIndexesListOrNone(st.CompletedIndexes, 50))
	}
	p.podTemplate(&s.Template)
	p.events(events)
}

// capIndexesListOrNone cuts a completed-indexes list at the first comma
// after softLimit characters, "<none>" for none.
func capIndexesListOrNone(indexes string, softLimit int) string {
	if indexes == "" {
		return "<none>"
	}
	ix := softLimit
	for ; ix < len(indexes); ix++ {
		if indexes[ix] == ',' {
			break
		}
	}
	if ix >= len(indexes) {
		return indexes
	}
	return indexes[:ix+1] + "..."
}

// cronJob is kubectl's describeCronJob.
func (p *prefixWriter) cronJob(c *api.CronJob, events []*api.Event) {
	p.write(level0, "Name:\t%s\n", c.Name)
	p.write(level0, "Namespace:\t%s\n", c.Namespace)
	p.labels("Labels", c.Labels)
	p.annotations("Annotations", c.Annotations)
	s := &c.Spec
	p.write(level0, "Schedule:\t%s\n", s.Schedule)
	p.write(level0, "Concurrency Policy:\t%s\n", s.ConcurrencyPolicy)
	p.write(level0, "Suspend:\t%s\n", boolPtrText(s.Suspend))
	unsetOr := func(title string, v *int32) {
		if v != nil {
			p.write(level0, "%s:\t%d\n", title, *v)
		} else {
			p.write(level0, "%s:\t<unset>\n", title)
		}
	}
	unsetOr("Successful Job History Limit", s.SuccessfulJobsHistoryLimit)
	unsetOr("Failed Job History Limit", s.FailedJobsHistoryLimit)
	if s.StartingDeadlineSeconds != nil {
		p.write(level0, "Starting Deadline Seconds:\t%ds\n", *s.StartingDeadlineSeconds)
	} else {
		p.write(level0, "Starting Deadline Seconds:\t<unset>\n")
	}
	// describeJobTemplate
	t := &s.JobTemplate.Spec
	if t.Selector != nil {
		p.write(level0, "Selector:\t%s\n", selectorText(t.Selector))
	} else {
		p.write(level0, "Selector:\t<unset>\n")
	}
	unsetOr("Parallelism", t.Parallelism)
	unsetOr("Completions", t.Completions)
	if t.ActiveDeadlineSeconds != nil {
		p.write(level0, "Active Deadline Seconds:\t%ds\n", *t.ActiveDeadlineSeconds)
	}
	p.podTemplate(&t.Template)
	if c.Status.LastScheduleTime != nil {
		p.write(level0, "Last Schedule Time:\t%s\n", rfc1123Z(*c.Status.LastScheduleTime))
	} else {
		p.write(level0, "Last Schedule Time:\t<unset>\n")
	}
	// printActiveJobs
	p.write(level0, "Active Jobs:\t")
	if len(c.Status.Active) == 0 {
		p.writeLine("<none>")
	} else {
		for i, j := range c.Status.Active {
			if i != 0 {
				p.write(level0, ", ")
			}
			p.write(level0, "%s", j.Name)
		}
		p.writeLine("")
	}
	p.events(events)
}

// boolPtrText is printBoolPtr: "<unset>" for nil.
func boolPtrText(b *bool) string {
	if b == nil {
		return "<unset>"
	}
	return fmt.Sprint(*b)
}

// claim is kubectl's describePersistentVolumeClaim: the claim (class,
// status, volume, labels, annotations, finalizers, capacity and access
// modes once bound, volume mode), the pods that use it, its events.
// related holds the namespace's pods; those naming the claim in a volume
// are listed as "Used By".
func (p *prefixWriter) claim(c *api.PersistentVolumeClaim, related Related) {
	p.write(level0, "Name:\t%s\n", c.Name)
	p.write(level0, "Namespace:\t%s\n", c.Namespace)
	p.write(level0, "StorageClass:\t%s\n", c.StorageClassName())
	if c.DeletionTimestamp != nil {
		p.write(level0, "Status:\tTerminating (lasts %s)\n", since(*c.DeletionTimestamp, p.now))
	} else {
		p.write(level0, "Status:\t%v\n", c.Status.Phase)
	}
	p.write(level0, "Volume:\t%s\n", c.Spec.VolumeName)
	p.labels("Labels", c.Labels)
	p.annotations("Annotations", c.Annotations)
	p.write(level0, "Finalizers:\t%v\n", c.Finalizers)
	capacity, modes := "", ""
	if c.Spec.VolumeName != "" {
		modes = accessModes(c.Status.AccessModes)
		q := c.Status.Capacity[api.ResourceStorage]
		capacity = q.String()
	}
	p.write(level0, "Capacity:\t%s\n", capacity)
	p.write(level0, "Access Modes:\t%s\n", modes)
	if c.Spec.VolumeMode != nil {
		p.write(level0, "VolumeMode:\t%v\n", *c.Spec.VolumeMode)
	}
	// printPodsMultiline: the pods whose volumes name the claim, by name.
	var users []string
	for _, o := range related.Objects {
		if pod, ok := o.(*api.Pod); ok && pod.Namespace == c.Namespace && slices.Contains(api.ClaimNames(pod), c.Name) {
			users = append(users, pod.Name)
		}
	}
	slices.Sort(users)
	p.write(level0, "Used By:\t")
	if len(users) == 0 {
		p.writeLine("<none>")
	}
	for i, u := range users {
		if i != 0 {
			p.write(level0, "\t")
		}
		p.write(level0, "%s\n", u)
	}
	p.events(related.Events)
}
