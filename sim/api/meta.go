package api

import (
	"encoding/json"
	"time"
)

// UID identifies one incarnation of an object: a recreated object with the
// same name gets a new UID. The simulator draws UIDs from counters or seeded
// streams, never from a UUID library.
type UID string

// TypeMeta carries an object's apiVersion and kind, inlined into the
// object's JSON as in every Kubernetes type.
type TypeMeta struct {
	// APIVersion is the group/version the object is encoded in, e.g. "apps/v1".
	APIVersion string `json:"apiVersion,omitempty"`
	// Kind is the object's kind in CamelCase, e.g. "Deployment".
	Kind string `json:"kind,omitempty"`
}

// GetTypeMeta returns tm itself, so that every kind embedding TypeMeta
// satisfies Object.
func (tm *TypeMeta) GetTypeMeta() *TypeMeta { return tm }

// ObjectMeta is the metadata every stored object has (metav1.ObjectMeta).
type ObjectMeta struct {
	// Name is unique within a namespace (or the cluster, for cluster-scoped
	// kinds).
	Name string `json:"name,omitempty"`
	// GenerateName asks the server to append 5 random characters to form
	// Name when Name is empty.
	GenerateName string `json:"generateName,omitempty"`
	// Namespace is empty for cluster-scoped kinds.
	Namespace string `json:"namespace,omitempty"`
	// SelfLink is deprecated and never set; kept so old outputs load.
	SelfLink string `json:"selfLink,omitempty"`
	// UID is set by the server on create.
	UID UID `json:"uid,omitempty"`
	// ResourceVersion is the store's opaque version, used for optimistic
	// concurrency and watches.
	ResourceVersion string `json:"resourceVersion,omitempty"`
	// Generation counts changes to the desired state; set to 1 on create.
	Generation int64 `json:"generation,omitempty"`
	// CreationTimestamp is set by the server on create (seconds precision
	// on the wire; null when unset, as kubectl prints it).
	CreationTimestamp Time `json:"creationTimestamp,omitempty"`
	// DeletionTimestamp is set when a graceful delete or finalizers keep
	// the object around after a delete request.
	DeletionTimestamp *Time `json:"deletionTimestamp,omitempty"`
	// DeletionGracePeriodSeconds is the grace period of a pending delete.
	DeletionGracePeriodSeconds *int64 `json:"deletionGracePeriodSeconds,omitempty"`
	// Labels are the identifying key/value pairs selectors match.
	Labels map[string]string `json:"labels,omitempty"`
	// Annotations are non-identifying key/value pairs.
	Annotations map[string]string `json:"annotations,omitempty"`
	// OwnerReferences name the objects this one depends on (for GC).
	OwnerReferences []OwnerReference `json:"ownerReferences,omitempty"`
	// Finalizers must all be removed before a deleted object disappears.
	Finalizers []string `json:"finalizers,omitempty"`
	// ManagedFields records which manager owns which fields (SSA).
	ManagedFields []ManagedFieldsEntry `json:"managedFields,omitempty"`
}

// GetObjectMeta returns m itself, so that every kind embedding ObjectMeta
// satisfies Object. Callers must not mutate a shared object's metadata.
func (m *ObjectMeta) GetObjectMeta() *ObjectMeta { return m }

// Key returns the object's namespace/name key.
func (m *ObjectMeta) Key() Key { return Key{Namespace: m.Namespace, Name: m.Name} }

// OwnerReference points from a dependent to its owner, in the same
// namespace (cross-namespace references are treated as absent).
type OwnerReference struct {
	// APIVersion of the owner, e.g. "apps/v1".
	APIVersion string `json:"apiVersion"`
	// Kind of the owner, e.g. "ReplicaSet".
	Kind string `json:"kind"`
	// Name of the owner.
	Name string `json:"name"`
	// UID of the owner; a reference to a recreated owner is dangling.
	UID UID `json:"uid"`
	// Controller marks the one managing controller of the dependent.
	Controller *bool `json:"controller,omitempty"`
	// BlockOwnerDeletion makes foreground deletion of the owner wait for
	// this dependent.
	BlockOwnerDeletion *bool `json:"blockOwnerDeletion,omitempty"`
}

// Equal reports whether r and o are the same reference: the same
// strings, and Controller and BlockOwnerDeletion each unset in both or
// set to the same value in both. It is what reflect.DeepEqual reports,
// without reflection (owner references are compared on every pod
// update: by the garbage collector's graph and the ReplicaSet
// controller's handlers).
func (r OwnerReference) Equal(o OwnerReference) bool {
	return r.APIVersion == o.APIVersion && r.Kind == o.Kind && r.Name == o.Name && r.UID == o.UID &&
		sameBool(r.Controller, o.Controller) && sameBool(r.BlockOwnerDeletion, o.BlockOwnerDeletion)
}

// SameControllerRef reports whether a and b, controller references
// such as GetControllerOfNoCopy returns, are both nil or both point to
// equal references.
func SameControllerRef(a, b *OwnerReference) bool {
	return a == b || a != nil && b != nil && a.Equal(*b)
}

func sameBool(a, b *bool) bool { return a == b || a != nil && b != nil && *a == *b }

// ManagedFieldsEntry is one manager's field set (server-side apply).
type ManagedFieldsEntry struct {
	// Manager is the field manager's name, e.g. "kubectl-client-side-apply".
	Manager string `json:"manager,omitempty"`
	// Operation is "Apply" or "Update".
	Operation string `json:"operation,omitempty"`
	// APIVersion the fields were written with.
	APIVersion string `json:"apiVersion,omitempty"`
	// Time of the last change by this manager.
	Time *Time `json:"time,omitempty"`
	// FieldsType is "FieldsV1".
	FieldsType string `json:"fieldsType,omitempty"`
	// FieldsV1 is the field set, kept opaque.
	FieldsV1 *RawValue `json:"fieldsV1,omitempty"`
	// Subresource is "" or e.g. "status".
	Subresource string `json:"subresource,omitempty"`
}

// Key names an object within its kind: Namespace is empty for
// cluster-scoped kinds.
type Key struct {
	// Namespace is empty for cluster-scoped kinds.
	Namespace string
	// Name is the object's name.
	Name string
}

// String returns "namespace/name", or "name" when cluster-scoped.
func (k Key) String() string {
	if k.Namespace == "" {
		return k.Name
	}
	return k.Namespace + "/" + k.Name
}

// Well-known finalizers, labels and taint keys shared by several packages.
const (
	// FinalizerKubernetes is the namespace finalizer the namespace controller removes.
	FinalizerKubernetes = "kubernetes"
	// FinalizerOrphanDependents makes the garbage collector orphan dependents.
	FinalizerOrphanDependents = "orphan"
	// FinalizerDeleteDependents makes the garbage collector delete blocking
	// dependents first (foreground deletion).
	FinalizerDeleteDependents = "foregroundDeletion"
	// LabelMetadataName is the label the API server sets on every namespace
	// to its name.
	LabelMetadataName = "kubernetes.io/metadata.name"
	// TaintNodeNotReady is added by node lifecycle when Ready is False.
	TaintNodeNotReady = "node.kubernetes.io/not-ready"
	// TaintNodeUnreachable is added by node lifecycle when Ready is Unknown.
	TaintNodeUnreachable = "node.kubernetes.io/unreachable"
	// TaintNodeUnschedulable mirrors spec.unschedulable (cordon).
	TaintNodeUnschedulable = "node.kubernetes.io/unschedulable"
)

// GetControllerOf returns a copy of the controller owner reference of m, or
// nil when m has none.
func GetControllerOf(m *ObjectMeta) *OwnerReference {
	for i := range m.OwnerReferences {
		if r := &m.OwnerReferences[i]; r.Controller != nil && *r.Controller {
			return r.DeepCopy()
		}
	}
	return nil
}

// GetControllerOfNoCopy returns the controller reference of m (the owner
// reference with controller: true), or nil, without copying it (as
// apimachinery's metav1.GetControllerOfNoCopy): the reference is m's own,
// shared with every reader of a cached object, and must not be changed.
func GetControllerOfNoCopy(m *ObjectMeta) *OwnerReference {
	for i := range m.OwnerReferences {
		if r := &m.OwnerReferences[i]; r.Controller != nil && *r.Controller {
			return r
		}
	}
	return nil
}

// IsControlledBy reports whether obj's controller reference points at
// owner's UID.
func IsControlledBy(obj, owner Object) bool {
	r := GetControllerOfNoCopy(obj.GetObjectMeta())
	return r != nil && r.UID == owner.GetObjectMeta().UID
}

// NewControllerRef returns a controller reference to owner, with
// controller and blockOwnerDeletion true. The owner's apiVersion and kind
// come from its TypeMeta, or from the registry when TypeMeta is empty.
func NewControllerRef(owner Object) OwnerReference {
	tm := owner.GetTypeMeta()
	apiVersion, kind := tm.APIVersion, tm.Kind
	if apiVersion == "" || kind == "" {
		k := KindOf(owner)
		kind = k.Name
		if info, ok := Lookup(k); ok {
			apiVersion = info.APIVersion()
		}
		if _, v1 := owner.(*HorizontalPodAutoscalerV1); v1 {
			apiVersion = "autoscaling/v1"
		}
	}
	yes, block := true, true
	m := owner.GetObjectMeta()
	return OwnerReference{
		APIVersion:         apiVersion,
		Kind:               kind,
		Name:               m.Name,
		UID:                m.UID,
		Controller:         &yes,
		BlockOwnerDeletion: &block,
	}
}

// Time is a timestamp with Kubernetes' JSON form (metav1.Time): RFC 3339
// in UTC with seconds precision, and null for the zero time. Values are
// kept in UTC so that printing never depends on the machine's time zone.
type Time struct {
	// Time is the instant, in UTC.
	time.Time
}

// NewTime returns t (converted to UTC) as a Time. Sub-second precision is
// kept in memory but dropped on the wire, as in Kubernetes.
func NewTime(t time.Time) Time { return Time{t.UTC()} }

// IsZero reports whether t is nil or the zero time.
func (t *Time) IsZero() bool { return t == nil || t.Time.IsZero() }

// Before reports whether t is before u; false if either is nil.
func (t *Time) Before(u *Time) bool {
	return t != nil && u != nil && t.Time.Before(u.Time)
}

// Equal reports whether t and u are the same instant; two nils are equal.
func (t *Time) Equal(u *Time) bool {
	if t == nil || u == nil {
		return t == nil && u == nil
	}
	return t.Time.Equal(u.Time)
}

// Rfc3339Copy returns t truncated to whole seconds, the precision it has
// after a trip through the API.
func (t Time) Rfc3339Copy() Time { return Time{t.Time.Truncate(time.Second)} }

// MarshalJSON writes "2006-01-02T15:04:05Z" or null.
func (t Time) MarshalJSON() ([]byte, error) {
	if t.Time.IsZero() {
		return []byte("null"), nil
	}
	b := make([]byte, 0, len(time.RFC3339)+2)
	b = append(b, '"')
	b = t.UTC().AppendFormat(b, time.RFC3339)
	return append(b, '"'), nil
}

// UnmarshalJSON reads an RFC 3339 string or null.
func (t *Time) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		t.Time = time.Time{}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	pt, err := ParseTime(s)
	if err != nil {
		return err
	}
	*t = pt
	return nil
}

// ParseTime reads a Time as the wire spells it, RFC 3339, as
// UnmarshalJSON does.
func ParseTime(s string) (Time, error) {
	pt, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return Time{}, err
	}
	// Time has second precision on the wire; dropping a fraction here makes
	// decode and encode inverse to each other.
	return Time{Time: pt.UTC().Truncate(time.Second)}, nil
}

// RFC3339Micro is the layout of MicroTime on the wire.
const RFC3339Micro = "2006-01-02T15:04:05.000000Z07:00"

// MaxGeneratedNameLength is apimachinery's names.MaxGeneratedNameLength:
// the longest generateName prefix kept whole, 63 characters less the five
// random ones the API server appends.
const MaxGeneratedNameLength = 58

// MicroTime is a timestamp with microsecond precision on the wire
// (metav1.MicroTime), used by Lease renew/acquire times and Event
// eventTime. The zero time encodes as null.
type MicroTime struct {
	// Time is the instant, in UTC.
	time.Time
}

// NewMicroTime returns t (converted to UTC) as a MicroTime.
func NewMicroTime(t time.Time) MicroTime { return MicroTime{t.UTC()} }

// IsZero reports whether t is nil or the zero time.
func (t *MicroTime) IsZero() bool { return t == nil || t.Time.IsZero() }

// Before reports whether t is before u; false if either is nil.
func (t *MicroTime) Before(u *MicroTime) bool {
	return t != nil && u != nil && t.Time.Before(u.Time)
}

// Equal reports whether t and u are the same instant; two nils are equal.
func (t *MicroTime) Equal(u *MicroTime) bool {
	if t == nil || u == nil {
		return t == nil && u == nil
	}
	return t.Time.Equal(u.Time)
}

// MarshalJSON writes "2006-01-02T15:04:05.000000Z" or null.
func (t MicroTime) MarshalJSON() ([]byte, error) {
	if t.Time.IsZero() {
		return []byte("null"), nil
	}
	b := make([]byte, 0, len(RFC3339Micro)+2)
	b = append(b, '"')
	b = t.UTC().AppendFormat(b, RFC3339Micro)
	return append(b, '"'), nil
}

// UnmarshalJSON reads an RFC 3339 string (any fractional precision,
// truncated to microseconds) or null.
func (t *MicroTime) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		t.Time = time.Time{}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	pt, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return err
	}
	t.Time = pt.UTC().Truncate(time.Microsecond)
	return nil
}

// Duration is a time.Duration whose JSON form is Go's duration string
// ("30s", "1m30s"), as metav1.Duration.
type Duration struct {
	// Duration is the length of time.
	time.Duration
}

// MarshalJSON writes the duration string.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(d.Duration.String()) }

// UnmarshalJSON reads a duration string such as "30s".
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	d.Duration = v
	return nil
}
