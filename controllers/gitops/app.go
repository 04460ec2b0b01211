package gitops

import (
	"errors"
	"fmt"
	"strings"
)

// Application is what Argo CD's Application resource says: where the
// manifests come from, where they go, and how to sync them.
type Application struct {
	// Name identifies the application (required, unique in a Syncer).
	Name string
	// Repo is the source of the manifests (required).
	Repo *Repo
	// Namespace is the destination namespace: namespaced objects that name
	// none go there (default "default").
	Namespace string
	// SyncPolicy is manual (Automated nil) or automated.
	SyncPolicy SyncPolicy
	// IgnoreDifferences are fields the diff skips.
	IgnoreDifferences []IgnoreDifference
	// SyncOptions are the application's sync options.
	SyncOptions SyncOptions
}

// SyncPolicy is an application's spec.syncPolicy.
type SyncPolicy struct {
	// Automated, when set, syncs without a person asking; nil is a manual
	// policy (Sync must be called).
	Automated *Automated
}

// Automated is syncPolicy.automated.
type Automated struct {
	// Prune deletes live objects of the application that the head commit no
	// longer holds (default false, as in Argo CD).
	Prune bool
	// SelfHeal re-syncs when the live state drifts from Git without a new
	// commit (default false).
	SelfHeal bool
}

// IgnoreDifference is one entry of spec.ignoreDifferences: the JSON
// pointers to skip for objects of a group and kind (and, when set, a name
// and namespace).
type IgnoreDifference struct {
	// Group is the API group, "" for core, e.g. "apps".
	Group string
	// Kind is the object kind, e.g. "Deployment".
	Kind string
	// Name and Namespace, when set, narrow the entry to one object.
	Name      string
	Namespace string
	// JSONPointers are RFC 6901 pointers, e.g. "/spec/replicas".
	JSONPointers []string
}

// SyncOptions are the sync options this syncer understands.
type SyncOptions struct {
	// RespectIgnoreDifferences keeps ignored fields out of a sync: they are
	// sent with their live values (RespectIgnoreDifferences=true). Without
	// it a sync applies Git's values to them too.
	RespectIgnoreDifferences bool
}

// ParseSyncOptions reads Argo CD's string form ("RespectIgnoreDifferences=true").
// Options this syncer does not model (CreateNamespace=true,
// ServerSideApply=true, ...) are accepted and ignored; a malformed one is an
// error.
func ParseSyncOptions(opts []string) (SyncOptions, error) {
	var o SyncOptions
	for _, s := range opts {
		k, v, ok := strings.Cut(s, "=")
		if !ok || (v != "true" && v != "false") {
			return o, fmt.Errorf("%w: sync option %q is not <Name>=true|false", ErrInvalidApplication, s)
		}
		if k == "RespectIgnoreDifferences" {
			o.RespectIgnoreDifferences = v == "true"
		}
	}
	return o, nil
}

// ErrInvalidApplication is returned for an application the syncer cannot
// run (no name, a duplicate name, no repo, a bad JSON pointer).
var ErrInvalidApplication = errors.New("invalid application")

// ErrUnknownApplication is returned by Sync and Refresh for a name the
// syncer does not have.
var ErrUnknownApplication = errors.New("unknown application")

func (a *Application) validate() error {
	if a.Name == "" {
		return fmt.Errorf("%w: no name", ErrInvalidApplication)
	}
	if a.Repo == nil {
		return fmt.Errorf("%w %s: no repo", ErrInvalidApplication, a.Name)
	}
	for _, d := range a.IgnoreDifferences {
		if d.Kind == "" {
			return fmt.Errorf("%w %s: ignoreDifferences entry without a kind", ErrInvalidApplication, a.Name)
		}
		for _, p := range d.JSONPointers {
			if !strings.HasPrefix(p, "/") {
				return fmt.Errorf("%w %s: json pointer %q does not start with /", ErrInvalidApplication, a.Name, p)
			}
		}
	}
	return nil
}
