package api

import "encoding/json"

// CustomResourceDefinition is apiextensions.k8s.io/v1
// CustomResourceDefinition: loading one makes the API serve the kind it
// defines (see k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1
// types.go, whose field names and JSON tags these follow).
type CustomResourceDefinition struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`
	// Spec describes the kind.
	Spec CustomResourceDefinitionSpec `json:"spec"`
	// Status tells whether the names were accepted and the kind is served.
	Status CustomResourceDefinitionStatus `json:"status,omitempty"`
}

// CustomResourceDefinitionSpec describes a custom kind.
type CustomResourceDefinitionSpec struct {
	// Group is the API group, e.g. "example.com".
	Group string `json:"group"`
	// Names are the kind's names.
	Names CustomResourceDefinitionNames `json:"names"`
	// Scope is "Namespaced" or "Cluster".
	Scope string `json:"scope"`
	// Versions are the served versions; exactly one is the storage
	// version.
	Versions []CustomResourceDefinitionVersion `json:"versions"`
	// Conversion is kept, not simulated (every version stores as is).
	Conversion RawValue `json:"conversion,omitempty"`
	// PreserveUnknownFields must be false in apiextensions.k8s.io/v1.
	PreserveUnknownFields bool `json:"preserveUnknownFields,omitempty"`
}

// CustomResourceDefinitionNames are a custom kind's names.
type CustomResourceDefinitionNames struct {
	// Plural is the resource name, e.g. "widgets".
	Plural string `json:"plural"`
	// Singular defaults to the lowercase kind.
	Singular string `json:"singular,omitempty"`
	// ShortNames are kubectl's abbreviations.
	ShortNames []string `json:"shortNames,omitempty"`
	// Kind is the CamelCase kind, e.g. "Widget".
	Kind string `json:"kind"`
	// ListKind defaults to Kind + "List".
	ListKind string `json:"listKind,omitempty"`
	// Categories group resources for kubectl get (e.g. "all").
	Categories []string `json:"categories,omitempty"`
}

// CustomResourceDefinitionVersion is one version of a custom kind.
type CustomResourceDefinitionVersion struct {
	// Name is the version, e.g. "v1".
	Name string `json:"name"`
	// Served versions are accepted in requests.
	Served bool `json:"served"`
	// Storage marks the version objects are stored in.
	Storage bool `json:"storage"`
	// Deprecated and DeprecationWarning are kept, not simulated.
	Deprecated         bool    `json:"deprecated,omitempty"`
	DeprecationWarning *string `json:"deprecationWarning,omitempty"`
	// Schema validates the version's objects.
	Schema *CustomResourceValidation `json:"schema,omitempty"`
	// Subresources are status (and scale, kept but not simulated).
	Subresources *CustomResourceSubresources `json:"subresources,omitempty"`
	// AdditionalPrinterColumns are the columns `get` prints after NAME
	// (AGE is added when no column is a date).
	AdditionalPrinterColumns []PrinterColumn `json:"additionalPrinterColumns,omitempty"`
	// SelectableFields are kept, not simulated.
	SelectableFields RawValue `json:"selectableFields,omitempty"`
}

// CustomResourceValidation holds a version's schema.
type CustomResourceValidation struct {
	// OpenAPIV3Schema is the structural schema of the objects.
	OpenAPIV3Schema *JSONSchemaProps `json:"openAPIV3Schema,omitempty"`
}

// CustomResourceSubresources are a custom kind's subresources.
type CustomResourceSubresources struct {
	// Status, when present (an empty object), enables the status
	// subresource: the main resource ignores status and the status
	// subresource ignores everything else.
	Status RawValue `json:"status,omitempty"`
	// Scale is kept, not simulated.
	Scale RawValue `json:"scale,omitempty"`
}

// JSONSchemaProps is an OpenAPI v3 schema as a CustomResourceDefinition
// writes it. The validator (sim/apiserver) enforces type, required, enum,
// minimum/maximum (and their exclusive forms), pattern,
// minLength/maxLength, minItems/maxItems, items, properties and
// x-kubernetes-preserve-unknown-fields, and the server sets defaults
// (apiserver.DefaultCustom); the other keywords are kept.
type JSONSchemaProps struct {
	ID                     string                     `json:"id,omitempty"`
	Schema                 string                     `json:"$schema,omitempty"`
	Ref                    *string                    `json:"$ref,omitempty"`
	Description            string                     `json:"description,omitempty"`
	Type                   string                     `json:"type,omitempty"`
	Format                 string                     `json:"format,omitempty"`
	Title                  string                     `json:"title,omitempty"`
	Default                RawValue                   `json:"default,omitempty"`
	Maximum                *float64                   `json:"maximum,omitempty"`
	ExclusiveMaximum       bool                       `json:"exclusiveMaximum,omitempty"`
	Minimum                *float64                   `json:"minimum,omitempty"`
	ExclusiveMinimum       bool                       `json:"exclusiveMinimum,omitempty"`
	MaxLength              *int64                     `json:"maxLength,omitempty"`
	MinLength              *int64                     `json:"minLength,omitempty"`
	Pattern                string                     `json:"pattern,omitempty"`
	MaxItems               *int64                     `json:"maxItems,omitempty"`
	MinItems               *int64                     `json:"minItems,omitempty"`
	UniqueItems            bool                       `json:"uniqueItems,omitempty"`
	MultipleOf             *float64                   `json:"multipleOf,omitempty"`
	Enum                   []RawValue                 `json:"enum,omitempty"`
	MaxProperties          *int64                     `json:"maxProperties,omitempty"`
	MinProperties          *int64                     `json:"minProperties,omitempty"`
	Required               []string                   `json:"required,omitempty"`
	Items                  *JSONSchemaProps           `json:"items,omitempty"`
	AllOf                  []JSONSchemaProps          `json:"allOf,omitempty"`
	OneOf                  []JSONSchemaProps          `json:"oneOf,omitempty"`
	AnyOf                  []JSONSchemaProps          `json:"anyOf,omitempty"`
	Not                    *JSONSchemaProps           `json:"not,omitempty"`
	Properties             map[string]JSONSchemaProps `json:"properties,omitempty"`
	AdditionalProperties   RawValue                   `json:"additionalProperties,omitempty"`
	PatternProperties      map[string]JSONSchemaProps `json:"patternProperties,omitempty"`
	Dependencies           RawValue                   `json:"dependencies,omitempty"`
	AdditionalItems        RawValue                   `json:"additionalItems,omitempty"`
	Definitions            map[string]JSONSchemaProps `json:"definitions,omitempty"`
	ExternalDocs           RawValue                   `json:"externalDocs,omitempty"`
	Example                RawValue                   `json:"example,omitempty"`
	Nullable               bool                       `json:"nullable,omitempty"`
	XPreserveUnknownFields *bool                      `json:"x-kubernetes-preserve-unknown-fields,omitempty"`
	XEmbeddedResource      bool                       `json:"x-kubernetes-embedded-resource,omitempty"`
	XIntOrString           bool                       `json:"x-kubernetes-int-or-string,omitempty"`
	XListMapKeys           []string                   `json:"x-kubernetes-list-map-keys,omitempty"`
	XListType              *string                    `json:"x-kubernetes-list-type,omitempty"`
	XMapType               *string                    `json:"x-kubernetes-map-type,omitempty"`
	XValidations           RawValue                   `json:"x-kubernetes-validations,omitempty"`
}

// CustomResourceDefinitionStatus is the definition's state.
type CustomResourceDefinitionStatus struct {
	// Conditions are Established and NamesAccepted.
	Conditions []CustomResourceDefinitionCondition `json:"conditions,omitempty"`
	// AcceptedNames are the names in use.
	AcceptedNames CustomResourceDefinitionNames `json:"acceptedNames,omitempty"`
	// StoredVersions are the versions objects were stored in.
	StoredVersions []string `json:"storedVersions,omitempty"`
}

// CustomResourceDefinitionCondition is one condition of a definition.
type CustomResourceDefinitionCondition struct {
	Type               string `json:"type"`
	Status             string `json:"status"`
	LastTransitionTime Time   `json:"lastTransitionTime,omitempty"`
	Reason             string `json:"reason,omitempty"`
	Message            string `json:"message,omitempty"`
}

// DeepCopyObject returns a deep copy of c as an Object.
func (c *CustomResourceDefinition) DeepCopyObject() Object { return c.DeepCopy() }

// DeepCopy returns a deep copy of c, through its JSON form (definitions
// are few and written once).
func (c *CustomResourceDefinition) DeepCopy() *CustomResourceDefinition {
	if c == nil {
		return nil
	}
	b, err := json.Marshal(c)
	if err != nil {
		panic("api: CustomResourceDefinition does not encode: " + err.Error())
	}
	out := &CustomResourceDefinition{}
	if err := json.Unmarshal(b, out); err != nil {
		panic("api: CustomResourceDefinition does not decode: " + err.Error())
	}
	// The wire drops sub-second precision and null times; keep the
	// original's exactly.
	out.ObjectMeta = *c.ObjectMeta.DeepCopy()
	return out
}

// StorageVersion returns the version objects are stored in, and its
// index; false when none is marked.
func (c *CustomResourceDefinition) StorageVersion() (CustomResourceDefinitionVersion, bool) {
	for _, v := range c.Spec.Versions {
		if v.Storage {
			return v, true
		}
	}
	return CustomResourceDefinitionVersion{}, false
}

// ResourceInfo returns how the kind c defines is served.
func (c *CustomResourceDefinition) ResourceInfo() ResourceInfo {
	v, _ := c.StorageVersion()
	singular := c.Spec.Names.Singular
	if singular == "" {
		singular = toLower(c.Spec.Names.Kind)
	}
	return ResourceInfo{
		Kind:       Kind{Group: c.Spec.Group, Name: c.Spec.Names.Kind},
		Version:    v.Name,
		Resource:   c.Spec.Names.Plural,
		Namespaced: c.Spec.Scope != "Cluster",
		HasStatus:  v.Subresources != nil && len(v.Subresources.Status) > 0,
		Generation: true,
		Singular:   singular,
		ShortNames: c.Spec.Names.ShortNames,
		Columns:    v.AdditionalPrinterColumns,
		Custom:     true,
	}.named()
}

// ServedAPIVersions returns "group/version" of every served version.
func (c *CustomResourceDefinition) ServedAPIVersions() []string {
	var out []string
	for _, v := range c.Spec.Versions {
		if v.Served {
			out = append(out, c.Spec.Group+"/"+v.Name)
		}
	}
	return out
}
