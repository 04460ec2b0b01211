package kubectl

import (
	"strconv"
	"strings"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// The tables of the kinds that are stored and not simulated, after
// kubectl's printers (k/k pkg/printers/internalversion/printers.go:
// printIngress, printNetworkPolicy, printRole, printRoleBinding,
// printClusterRole, printClusterRoleBinding), and of ServiceAccount and
// Secret (printServiceAccount, printSecret), stored and never interpreted.
func init() {
	tables[api.KindIngress] = table{cols("Name", "Class", "Hosts", "Address", "Ports", "Age"), ingressRow}
	tables[api.KindNetworkPolicy] = table{cols("Name", "Pod-Selector", "Age"), networkPolicyRow}
	tables[api.KindRole] = table{cols("Name", "Created At"), func(o api.Object, _ time.Time) []string { return createdAtRow(o) }}
	tables[api.KindLimitRange] = table{cols("Name", "Created At"), func(o api.Object, _ time.Time) []string { return createdAtRow(o) }}
	// printPriorityClass.
	tables[api.KindPriorityClass] = table{cols("Name", "Value", "Global-Default", "Age", "PreemptionPolicy"), func(o api.Object, now time.Time) []string {
		pc := o.(*api.PriorityClass)
		policy := ""
		if pc.PreemptionPolicy != nil {
			policy = string(*pc.PreemptionPolicy)
		}
		return []string{pc.Name, strconv.Itoa(int(pc.Value)), strconv.FormatBool(pc.GlobalDefault), since(pc.CreationTimestamp, now), policy}
	}}
	tables[api.KindClusterRole] = table{cols("Name", "Created At"), func(o api.Object, _ time.Time) []string { return createdAtRow(o) }}
	tables[api.KindServiceAccount] = table{cols("Name", "Secrets", "Age"), func(o api.Object, now time.Time) []string {
		sa := o.(*api.ServiceAccount)
		return []string{sa.Name, strconv.Itoa(len(sa.Secrets)), since(sa.CreationTimestamp, now)}
	}}
	tables[api.KindSecret] = table{cols("Name", "Type", "Data", "Age"), func(o api.Object, now time.Time) []string {
		s := o.(*api.Secret)
		return []string{s.Name, s.Type, strconv.Itoa(len(s.Data)), since(s.CreationTimestamp, now)}
	}}
	bindingCols := cols("Name", "Role", "Age", "+Users", "+Groups", "+ServiceAccounts")
	tables[api.KindRoleBinding] = table{bindingCols, func(o api.Object, now time.Time) []string {
		b := o.(*api.RoleBinding)
		return bindingRow(b.ObjectMeta, b.RoleRef, b.Subjects, now)
	}}
	tables[api.KindClusterRoleBinding] = table{bindingCols, func(o api.Object, now time.Time) []string {
		b := o.(*api.ClusterRoleBinding)
		return bindingRow(b.ObjectMeta, b.RoleRef, b.Subjects, now)
	}}
}

func ingressRow(o api.Object, now time.Time) []string {
	ing := o.(*api.Ingress)
	class := "<none>"
	if ing.Spec.IngressClassName != nil {
		class = *ing.Spec.IngressClassName
	}
	// formatHosts: up to three hosts, then "+ N more..." (N counts the
	// rules past the third), "*" for none.
	var hosts []string
	more := false
	for _, r := range ing.Spec.Rules {
		if len(hosts) == 3 {
			more = true
		}
		if !more && r.Host != "" {
			hosts = append(hosts, r.Host)
		}
	}
	hostText := "*"
	if len(hosts) > 0 {
		hostText = strings.Join(hosts, ",")
	}
	if more {
		hostText += " + " + strconv.Itoa(len(ing.Spec.Rules)-3) + " more..."
	}
	ports := "80"
	if len(ing.Spec.TLS) != 0 {
		ports = "80, 443"
	}
	// No ingress controller runs, so no load balancer address is ever set.
	return []string{ing.Name, class, hostText, "", ports, since(ing.CreationTimestamp, now)}
}

func networkPolicyRow(o api.Object, now time.Time) []string {
	np := o.(*api.NetworkPolicy)
	return []string{np.Name, formatLabelSelector(&np.Spec.PodSelector), since(np.CreationTimestamp, now)}
}

func createdAtRow(o api.Object) []string {
	m := o.GetObjectMeta()
	return []string{m.Name, m.CreationTimestamp.UTC().Format(time.RFC3339)}
}

func bindingRow(m api.ObjectMeta, ref api.RoleRef, subjects []api.Subject, now time.Time) []string {
	var users, groups, sas []string
	for _, s := range subjects {
		switch s.Kind {
		case "User":
			users = append(users, s.Name)
		case "Group":
			groups = append(groups, s.Name)
		case "ServiceAccount":
			sas = append(sas, s.Namespace+"/"+s.Name)
		}
	}
	return []string{m.Name, ref.Kind + "/" + ref.Name, since(m.CreationTimestamp, now),
		strings.Join(users, ", "), strings.Join(groups, ", "), strings.Join(sas, ", ")}
}

// The Job and CronJob tables (printers.go printJob, printCronJob).
func init() {
	tables[api.KindJob] = table{cols("Name", "Status", "Completions", "Duration", "Age", "+Containers", "+Images", "+Selector"), jobRow}
	tables[api.KindCronJob] = table{cols("Name", "Schedule", "Timezone", "Suspend", "Active", "Last Schedule", "Age", "+Containers", "+Images", "+Selector"), cronJobRow}
}

func jobRow(o api.Object, now time.Time) []string {
	j := o.(*api.Job)
	var completions string
	switch {
	case j.Spec.Completions != nil:
		completions = strconv.Itoa(int(j.Status.Succeeded)) + "/" + strconv.Itoa(int(*j.Spec.Completions))
	case j.Spec.Parallelism != nil && *j.Spec.Parallelism > 1:
		completions = strconv.Itoa(int(j.Status.Succeeded)) + "/1 of " + strconv.Itoa(int(*j.Spec.Parallelism))
	default:
		completions = strconv.Itoa(int(j.Status.Succeeded)) + "/1"
	}
	var dur string
	switch {
	case j.Status.StartTime == nil:
	case j.Status.CompletionTime == nil:
		dur = HumanDuration(now.Sub(j.Status.StartTime.Time))
	default:
		dur = HumanDuration(j.Status.CompletionTime.Time.Sub(j.Status.StartTime.Time))
	}
	has := func(t string) bool {
		c := j.Condition(t)
		return c != nil && c.Status == api.ConditionTrue
	}
	status := "Running"
	switch {
	case has(api.JobComplete):
		status = "Complete"
	case has(api.JobFailed):
		status = "Failed"
	case j.DeletionTimestamp != nil:
		status = "Terminating"
	case has(api.JobFailureTarget):
		status = "FailureTarget"
	case has(api.JobSuspended):
		status = "Suspended"
	case has(api.JobSuccessCriteriaMet):
		status = "SuccessCriteriaMet"
	}
	names, images := containerCells(j.Spec.Template.Spec.Containers)
	return []string{j.Name, status, completions, dur, since(j.CreationTimestamp, now), names, images, formatLabelSelector(j.Spec.Selector)}
}

func cronJobRow(o api.Object, now time.Time) []string {
	c := o.(*api.CronJob)
	last := "<none>"
	if c.Status.LastScheduleTime != nil {
		last = since(*c.Status.LastScheduleTime, now)
	}
	tz := "<none>"
	if c.Spec.TimeZone != nil {
		tz = *c.Spec.TimeZone
	}
	suspend := "False"
	if c.Spec.Suspend != nil && *c.Spec.Suspend {
		suspend = "True"
	}
	names, images := containerCells(c.Spec.JobTemplate.Spec.Template.Spec.Containers)
	return []string{c.Name, c.Spec.Schedule, tz, suspend, strconv.Itoa(len(c.Status.Active)), last, since(c.CreationTimestamp, now),
		names, images, formatLabelSelector(c.Spec.JobTemplate.Spec.Selector)}
}
