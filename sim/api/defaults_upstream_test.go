package api

import (
	"reflect"
	"testing"
)

// TestSetDefaultsWorkloadsUpstream ports the rows of upstream's
// TestSetDefaultDaemonSetSpec and TestSetDefaultStatefulSet (k/k
// pkg/apis/apps/v1/defaults_test.go) and TestSetDefaultCronJob
// (pkg/apis/batch/v1/defaults_test.go): the spec fields each kind
// defaults, and that a set value is kept. StatefulSet rows take the
// MaxUnavailableStatefulSet gate as on (beta, on by default, since v1.35)
// and StatefulSetAutoDeletePVC as GA.
func TestSetDefaultsWorkloadsUpstream(t *testing.T) {
	i32 := func(v int32) *int32 { return &v }
	ios := func(v IntOrString) *IntOrString { return &v }
	f := false
	t.Run("DaemonSet", func(t *testing.T) {
		tests := []struct {
			name string
			in   DaemonSetUpdateStrategy
			want DaemonSetUpdateStrategy
		}{
			{"unset strategy", DaemonSetUpdateStrategy{},
				DaemonSetUpdateStrategy{Type: RollingUpdateDaemonSetStrategyType, RollingUpdate: &RollingUpdateDaemonSet{MaxUnavailable: ios(FromInt32(1)), MaxSurge: ios(FromInt32(0))}}},
			{"OnDelete keeps no rollingUpdate", DaemonSetUpdateStrategy{Type: OnDeleteDaemonSetStrategyType},
				DaemonSetUpdateStrategy{Type: OnDeleteDaemonSetStrategyType}},
			{"set maxSurge kept", DaemonSetUpdateStrategy{Type: RollingUpdateDaemonSetStrategyType, RollingUpdate: &RollingUpdateDaemonSet{MaxSurge: ios(FromString("10%"))}},
				DaemonSetUpdateStrategy{Type: RollingUpdateDaemonSetStrategyType, RollingUpdate: &RollingUpdateDaemonSet{MaxUnavailable: ios(FromInt32(1)), MaxSurge: ios(FromString("10%"))}}},
		}
		for _, tt := range tests {
			ds := &DaemonSet{Spec: DaemonSetSpec{UpdateStrategy: tt.in}}
			SetDefaults(ds)
			if !reflect.DeepEqual(ds.Spec.UpdateStrategy, tt.want) || *ds.Spec.RevisionHistoryLimit != 10 {
				t.Errorf("%s: strategy %+v, history %d; want %+v, 10", tt.name, ds.Spec.UpdateStrategy, *ds.Spec.RevisionHistoryLimit, tt.want)
			}
		}
		ds := &DaemonSet{Spec: DaemonSetSpec{RevisionHistoryLimit: i32(0)}}
		SetDefaults(ds)
		if *ds.Spec.RevisionHistoryLimit != 0 {
			t.Error("explicit revisionHistoryLimit 0 overwritten")
		}
	})
	t.Run("StatefulSet", func(t *testing.T) {
		tests := []struct {
			name string
			in   StatefulSetSpec
			want StatefulSetUpdateStrategy
			pmp  string
		}{
			{"unset strategy", StatefulSetSpec{},
				StatefulSetUpdateStrategy{Type: RollingUpdateStatefulSetStrategyType, RollingUpdate: &RollingUpdateStatefulSetStrategy{Partition: i32(0), MaxUnavailable: ios(FromInt32(1))}}, OrderedReadyPodManagement},
			{"OnDelete", StatefulSetSpec{UpdateStrategy: StatefulSetUpdateStrategy{Type: OnDeleteStatefulSetStrategyType}},
				StatefulSetUpdateStrategy{Type: OnDeleteStatefulSetStrategyType}, OrderedReadyPodManagement},
			{"RollingUpdate without rollingUpdate stays without", StatefulSetSpec{UpdateStrategy: StatefulSetUpdateStrategy{Type: RollingUpdateStatefulSetStrategyType}},
				StatefulSetUpdateStrategy{Type: RollingUpdateStatefulSetStrategyType}, OrderedReadyPodManagement},
			{"partition kept", StatefulSetSpec{PodManagementPolicy: ParallelPodManagement, UpdateStrategy: StatefulSetUpdateStrategy{Type: RollingUpdateStatefulSetStrategyType,
				RollingUpdate: &RollingUpdateStatefulSetStrategy{Partition: i32(2)}}},
				StatefulSetUpdateStrategy{Type: RollingUpdateStatefulSetStrategyType, RollingUpdate: &RollingUpdateStatefulSetStrategy{Partition: i32(2), MaxUnavailable: ios(FromInt32(1))}}, ParallelPodManagement},
		}
		for _, tt := range tests {
			s := &StatefulSet{Spec: tt.in}
			SetDefaults(s)
			retain := &StatefulSetPersistentVolumeClaimRetentionPolicy{WhenDeleted: RetainPersistentVolumeClaimRetentionPolicyType, WhenScaled: RetainPersistentVolumeClaimRetentionPolicyType}
			if !reflect.DeepEqual(s.Spec.UpdateStrategy, tt.want) || s.Spec.PodManagementPolicy != tt.pmp || *s.Spec.Replicas != 1 ||
				*s.Spec.RevisionHistoryLimit != 10 || !reflect.DeepEqual(s.Spec.PersistentVolumeClaimRetentionPolicy, retain) {
				t.Errorf("%s: got %+v (strategy %+v), want strategy %+v, policy %s, replicas 1, history 10, Retain/Retain", tt.name, s.Spec, s.Spec.UpdateStrategy, tt.want, tt.pmp)
			}
		}
	})
	t.Run("CronJob", func(t *testing.T) {
		c := &CronJob{}
		SetDefaults(c)
		if c.Spec.ConcurrencyPolicy != "Allow" || c.Spec.Suspend == nil || *c.Spec.Suspend || *c.Spec.SuccessfulJobsHistoryLimit != 3 || *c.Spec.FailedJobsHistoryLimit != 1 {
			t.Errorf("defaults: %+v", c.Spec)
		}
		set := &CronJob{Spec: CronJobSpec{ConcurrencyPolicy: "Forbid", Suspend: &f, SuccessfulJobsHistoryLimit: i32(5), FailedJobsHistoryLimit: i32(5)}}
		SetDefaults(set)
		if set.Spec.ConcurrencyPolicy != "Forbid" || *set.Spec.SuccessfulJobsHistoryLimit != 5 || *set.Spec.FailedJobsHistoryLimit != 5 {
			t.Errorf("set values overwritten: %+v", set.Spec)
		}
	})
}
