package api

// KindLimitRange is core/v1 LimitRange.
var KindLimitRange = Kind{"", "LimitRange"}

// LimitRange is core/v1 LimitRange: per-namespace defaults and bounds of
// the resources of containers and pods, enforced by the LimitRanger
// admission plugin when a pod is created.
type LimitRange struct {
	// TypeMeta holds apiVersion and kind.
	TypeMeta `json:",inline"`
	// ObjectMeta is the limit range's metadata.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec lists the limits.
	Spec LimitRangeSpec `json:"spec,omitempty"`
}

// LimitRangeSpec lists the limits.
type LimitRangeSpec struct {
	Limits []LimitRangeItem `json:"limits"`
}

// The limit types.
const (
	LimitTypePod                   = "Pod"
	LimitTypeContainer             = "Container"
	LimitTypePersistentVolumeClaim = "PersistentVolumeClaim"
)

// LimitRangeItem bounds one type of object.
type LimitRangeItem struct {
	// Type is Container, Pod or PersistentVolumeClaim.
	Type string `json:"type"`
	// Max and Min bound the limits and requests.
	Max ResourceList `json:"max,omitempty"`
	Min ResourceList `json:"min,omitempty"`
	// Default is a container's limit when it gives none.
	Default ResourceList `json:"default,omitempty"`
	// DefaultRequest is a container's request when it gives none.
	DefaultRequest ResourceList `json:"defaultRequest,omitempty"`
	// MaxLimitRequestRatio bounds limit / request.
	MaxLimitRequestRatio ResourceList `json:"maxLimitRequestRatio,omitempty"`
}

// DeepCopyObject returns a deep copy of in.
func (in *LimitRange) DeepCopyObject() Object { return deepCopyReflect(in) }

// SetDefaultsLimitRange applies core/v1 defaults (k/k
// pkg/apis/core/v1/defaults.go SetDefaults_LimitRangeItem): for a
// Container item, default from max, then defaultRequest from default,
// then from min.
func SetDefaultsLimitRange(l *LimitRange) {
	for i := range l.Spec.Limits {
		it := &l.Spec.Limits[i]
		if it.Type != LimitTypeContainer {
			continue
		}
		if it.Default == nil {
			it.Default = ResourceList{}
		}
		if it.DefaultRequest == nil {
			it.DefaultRequest = ResourceList{}
		}
		for _, from := range []struct{ src, dst ResourceList }{{it.Max, it.Default}, {it.Default, it.DefaultRequest}, {it.Min, it.DefaultRequest}} {
			for k, v := range from.src {
				if _, ok := from.dst[k]; !ok {
					from.dst[k] = v
				}
			}
		}
	}
}
