package apiserver

import (
	"fmt"
	"slices"
	"strings"
)

// Rule allows some actors some verbs on some resources. Patterns: an actor
// pattern is a name or a prefix ending in "*" ("system:node:*"); a resource
// is the plural resource name, with "/status" for the subresource; "*"
// matches every main resource and "*/*" every subresource; a verb "*"
// matches every verb.
type Rule struct {
	Actors    []string
	Verbs     []string
	Resources []string
}

// Authorizer decides from a rule table: a request is allowed when some rule
// allows it (RBAC's additive model; there are no deny rules).
type Authorizer struct {
	rules []Rule
}

// NewAuthorizer returns an authorizer over rules.
func NewAuthorizer(rules []Rule) *Authorizer {
	return &Authorizer{rules: slices.Clone(rules)}
}

// DefaultRules is clustersim's default table: system actors (controllers,
// the scheduler, kubelets, whose names start with "system:") may do
// anything; every other actor (users, CI, GitOps tools) may do anything to
// main resources and evict pods (create pods/eviction, as the edit and
// admin roles may) but not write status subresources, which belong to
// controllers.
func DefaultRules() []Rule {
	return []Rule{
		{Actors: []string{"system:*"}, Verbs: []string{"*"}, Resources: []string{"*", "*/*"}},
		{Actors: []string{"*"}, Verbs: []string{"*"}, Resources: []string{"*"}},
		{Actors: []string{"*"}, Verbs: []string{"get", "list", "watch"}, Resources: []string{"*/*"}},
		{Actors: []string{"*"}, Verbs: []string{"create"}, Resources: []string{"pods/eviction"}},
	}
}

// Allowed reports whether actor may do verb on resource (with subresource,
// which may be "").
func (a *Authorizer) Allowed(actor, verb, resource, subresource string) bool {
	res := resource
	if subresource != "" {
		res = resource + "/" + subresource
	}
	for i := range a.rules {
		r := &a.rules[i]
		if matchAny(r.Actors, actor, matchActor) && matchAny(r.Verbs, verb, matchWord) && matchAny(r.Resources, res, matchResource) {
			return true
		}
	}
	return false
}

func matchAny(patterns []string, s string, f func(p, s string) bool) bool {
	for _, p := range patterns {
		if f(p, s) {
			return true
		}
	}
	return false
}

func matchActor(p, s string) bool {
	if prefix, ok := strings.CutSuffix(p, "*"); ok {
		return strings.HasPrefix(s, prefix)
	}
	return p == s
}

func matchWord(p, s string) bool { return p == "*" || p == s }

func matchResource(p, s string) bool {
	switch p {
	case "*":
		return !strings.Contains(s, "/")
	case "*/*":
		return strings.Contains(s, "/")
	}
	if base, ok := strings.CutSuffix(p, "/*"); ok {
		return strings.HasPrefix(s, base+"/")
	}
	return p == s
}

// forbiddenMessage is RBAC's denial text.
func forbiddenMessage(actor, verb, resource, subresource, group, namespace string) string {
	res := resource
	if subresource != "" {
		res = resource + "/" + subresource
	}
	scope := "at the cluster scope"
	if namespace != "" {
		scope = fmt.Sprintf("in the namespace %q", namespace)
	}
	return fmt.Sprintf("User %q cannot %s resource %q in API group %q %s", actor, verb, res, group, scope)
}
