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
	// rules are the table's rules, those that name every actor ("*")
	// first: the decision is the same in any order, and a rule for every
	// actor decides without reading the actor's name (see Allowed).
	rules []Rule
}

// NewAuthorizer returns an authorizer over rules.
func NewAuthorizer(rules []Rule) *Authorizer {
	a := &Authorizer{rules: make([]Rule, 0, len(rules))}
	for _, everyone := range []bool{true, false} {
		for _, r := range rules {
			if slices.Contains(r.Actors, "*") == everyone {
				a.rules = append(a.rules, r)
			}
		}
	}
	return a
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
//
// A rule's verbs and resources are matched before its actors, and the
// rules for every actor come first: the verbs and resources are a few
// constant strings, but an actor's name is the requester's own (a
// kubelet's "system:node:..."), out of the processor's caches in a large
// cluster, where reading it was a memory access a request. A lease
// renewal, a main resource, is allowed by the default table's rule for
// every actor without it.
func (a *Authorizer) Allowed(actor, verb, resource, subresource string) bool {
	for i := range a.rules {
		r := &a.rules[i]
		if matchAny(r.Verbs, verb, matchWord) && matchAny(r.Resources, resource, func(p, resource string) bool { return matchResource(p, resource, subresource) }) &&
			matchAny(r.Actors, actor, matchActor) {
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

// matchResource matches one pattern against resource/subresource (just
// resource when subresource is ""): "*" every main resource, "*/*" every
// subresource, "base/*" every subresource of base, else that string
// exactly; without building "resource/subresource", which a status
// write would allocate.
func matchResource(p, resource, subresource string) bool {
	switch p {
	case "*":
		return subresource == "" && !strings.Contains(resource, "/")
	case "*/*":
		return subresource != "" || strings.Contains(resource, "/")
	}
	if strings.HasSuffix(p, "/*") {
		return joinedHasPrefix(resource, subresource, p[:len(p)-1])
	}
	if subresource == "" {
		return p == resource
	}
	return len(p) == len(resource)+1+len(subresource) && joinedHasPrefix(resource, subresource, p)
}

// joinedHasPrefix reports whether resource/subresource (resource alone
// when subresource is "") begins with prefix.
func joinedHasPrefix(resource, subresource, prefix string) bool {
	n := len(resource)
	if subresource == "" || len(prefix) <= n {
		return strings.HasPrefix(resource, prefix)
	}
	return prefix[:n] == resource && prefix[n] == '/' && strings.HasPrefix(subresource, prefix[n+1:])
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
