package api

// Secret is core/v1 Secret: like a ConfigMap, for values that are secret.
// The simulator stores it and never interprets it; it exists so that real
// manifests, which often carry Secrets next to their workloads, load.
type Secret struct {
	// TypeMeta holds apiVersion and kind.
	TypeMeta `json:",inline"`
	// ObjectMeta is the secret's metadata.
	ObjectMeta `json:"metadata,omitempty"`
	// Immutable forbids changes to the data.
	Immutable *bool `json:"immutable,omitempty"`
	// Data holds the values (base64 in JSON).
	Data map[string][]byte `json:"data,omitempty"`
	// StringData holds values given as plain text (write-only upstream).
	StringData map[string]string `json:"stringData,omitempty"`
	// Type is the secret's type, e.g. Opaque or kubernetes.io/tls.
	Type string `json:"type,omitempty"`
}

// ServiceAccount is core/v1 ServiceAccount: an identity for pods. The
// simulator stores it and never interprets it.
type ServiceAccount struct {
	// TypeMeta holds apiVersion and kind.
	TypeMeta `json:",inline"`
	// ObjectMeta is the service account's metadata.
	ObjectMeta `json:"metadata,omitempty"`
	// Secrets are the secrets the account may use.
	Secrets []ObjectReference `json:"secrets,omitempty"`
	// ImagePullSecrets are the secrets for pulling images.
	ImagePullSecrets []LocalObjectReference `json:"imagePullSecrets,omitempty"`
	// AutomountServiceAccountToken controls mounting the account's token.
	AutomountServiceAccountToken *bool `json:"automountServiceAccountToken,omitempty"`
}

// DeepCopyInto copies in into out.
func (in *Secret) DeepCopyInto(out *Secret) {
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	if in.Immutable != nil {
		v := *in.Immutable
		out.Immutable = &v
	}
	if in.Data != nil {
		out.Data = make(map[string][]byte, len(in.Data))
		for k, v := range in.Data {
			if v == nil {
				out.Data[k] = nil
			} else {
				out.Data[k] = append([]byte{}, v...)
			}
		}
	}
	if in.StringData != nil {
		out.StringData = make(map[string]string, len(in.StringData))
		for k, v := range in.StringData {
			out.StringData[k] = v
		}
	}
}

// DeepCopy returns a deep copy of in.
func (in *Secret) DeepCopy() *Secret {
	if in == nil {
		return nil
	}
	out := new(Secret)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject returns a deep copy of in as an Object.
func (in *Secret) DeepCopyObject() Object {
	if c := in.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopyInto copies in into out.
func (in *ServiceAccount) DeepCopyInto(out *ServiceAccount) {
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	if in.Secrets != nil {
		out.Secrets = make([]ObjectReference, len(in.Secrets))
		for i := range in.Secrets {
			in.Secrets[i].DeepCopyInto(&out.Secrets[i])
		}
	}
	if in.ImagePullSecrets != nil {
		out.ImagePullSecrets = append([]LocalObjectReference(nil), in.ImagePullSecrets...)
	}
	if in.AutomountServiceAccountToken != nil {
		v := *in.AutomountServiceAccountToken
		out.AutomountServiceAccountToken = &v
	}
}

// DeepCopy returns a deep copy of in.
func (in *ServiceAccount) DeepCopy() *ServiceAccount {
	if in == nil {
		return nil
	}
	out := new(ServiceAccount)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject returns a deep copy of in as an Object.
func (in *ServiceAccount) DeepCopyObject() Object {
	if c := in.DeepCopy(); c != nil {
		return c
	}
	return nil
}
