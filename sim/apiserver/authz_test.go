package apiserver

import (
	"strings"
	"testing"
)

// TestDefaultRules is the default table's decisions: system actors may do
// anything, others anything but write subresources (reading them and
// evicting pods aside).
func TestDefaultRules(t *testing.T) {
	a := NewAuthorizer(DefaultRules())
	for _, c := range []struct {
		actor, verb, resource, sub string
		want                       bool
	}{
		{"system:node:n1", "update", "leases", "", true},
		{"system:node:n1", "update", "pods", "status", true},
		{"system:kube-scheduler", "create", "pods", "binding", true},
		{"alice", "update", "deployments", "", true},
		{"alice", "delete", "pods", "", true},
		{"alice", "update", "pods", "status", false},
		{"alice", "patch", "deployments", "scale", false},
		{"alice", "get", "deployments", "scale", true},
		{"alice", "watch", "pods", "status", true},
		{"alice", "create", "pods", "eviction", true},
		{"alice", "create", "pods", "binding", false},
		{"system", "update", "pods", "status", false}, // "system:*" wants the colon
		{"", "update", "pods", "status", false},
		{"", "update", "pods", "", true},
	} {
		if got := a.Allowed(c.actor, c.verb, c.resource, c.sub); got != c.want {
			t.Errorf("Allowed(%q, %q, %q, %q) = %v, want %v", c.actor, c.verb, c.resource, c.sub, got, c.want)
		}
	}
}

// allowedByJoining is the decision as the rules define it: the resource
// joined to its subresource ("pods/status") matched against each pattern,
// the rules in their given order.
func allowedByJoining(rules []Rule, actor, verb, resource, subresource string) bool {
	res := resource
	if subresource != "" {
		res = resource + "/" + subresource
	}
	matchJoined := func(p, s string) bool {
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
	for _, r := range rules {
		if matchAny(r.Actors, actor, matchActor) && matchAny(r.Verbs, verb, matchWord) && matchAny(r.Resources, res, matchJoined) {
			return true
		}
	}
	return false
}

// TestAllowedAsJoined checks Allowed, which reorders the rules and matches
// resource and subresource without joining them, against
// allowedByJoining on every combination of a set of patterns and
// requests, including resources and subresources with slashes of their
// own and patterns that split a name.
func TestAllowedAsJoined(t *testing.T) {
	resourcePatterns := []string{"*", "*/*", "pods", "pods/status", "pods/*", "po/*", "pods/st", "a/b/*", "a/b", "a/b/c", "/*", "a/", "a//*", "axb", "ax/*"}
	actorPatterns := []string{"*", "system:*", "alice", "system:node:n1", "sys*"}
	verbPatterns := []string{"*", "get", "update"}
	requests := []struct{ resource, sub string }{
		{"pods", ""}, {"pods", "status"}, {"pods", "st"}, {"po", "ds/status"}, {"a", "b"}, {"a", "b/c"}, {"a/b", ""},
		{"a/b", "c"}, {"a", ""}, {"", ""}, {"", "status"}, {"a/", ""}, {"a", "/x"}, {"pods/status", ""},
	}
	actors := []string{"system:node:n1", "alice", "system", "", "sys"}
	verbs := []string{"get", "update", "delete"}
	checked := 0
	for _, rp := range resourcePatterns {
		for _, ap := range actorPatterns {
			for _, vp := range verbPatterns {
				// A rule for one actor before one for every actor, so
				// that NewAuthorizer's reordering is exercised.
				rules := []Rule{
					{Actors: []string{ap}, Verbs: []string{vp}, Resources: []string{rp}},
					{Actors: []string{"*"}, Verbs: []string{"get"}, Resources: []string{"a/*"}},
				}
				a := NewAuthorizer(rules)
				for _, rq := range requests {
					for _, actor := range actors {
						for _, verb := range verbs {
							want := allowedByJoining(rules, actor, verb, rq.resource, rq.sub)
							if got := a.Allowed(actor, verb, rq.resource, rq.sub); got != want {
								t.Fatalf("rules %v: Allowed(%q, %q, %q, %q) = %v, joined %v", rules, actor, verb, rq.resource, rq.sub, got, want)
							}
							checked++
						}
					}
				}
			}
		}
	}
	// A guard against an edit that empties one of the lists above.
	if checked < 10000 {
		t.Fatalf("checked %d combinations", checked)
	}
	t.Logf("%d combinations checked", checked)
}

// TestNewAuthorizerEveryoneFirst checks the order Allowed relies on: the
// rules for every actor first, each group in the table's order, and the
// caller's table left as it was.
func TestNewAuthorizerEveryoneFirst(t *testing.T) {
	rules := DefaultRules()
	a := NewAuthorizer(rules)
	var got []string
	for _, r := range a.rules {
		got = append(got, strings.Join(r.Actors, ",")+" "+strings.Join(r.Verbs, ",")+" "+strings.Join(r.Resources, ","))
	}
	want := []string{"* * *", "* get,list,watch */*", "* create pods/eviction", "system:* * *,*/*"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Fatalf("order %q, want %q", got, want)
	}
	if rules[0].Actors[0] != "system:*" {
		t.Fatalf("the caller's table was reordered: %v", rules)
	}
}

// TestAllowedAllocatesNothing: a decision is made on every request, a
// status write's included, so it must not build "resource/subresource"
// or any other string.
func TestAllowedAllocatesNothing(t *testing.T) {
	a := NewAuthorizer(DefaultRules())
	for _, c := range []struct{ actor, verb, resource, sub string }{
		{"system:node:n1", "update", "leases", ""},
		{"system:node:n1", "update", "pods", "status"},
		{"alice", "create", "pods", "eviction"},
		{"alice", "update", "pods", "status"},
	} {
		if n := testing.AllocsPerRun(100, func() { a.Allowed(c.actor, c.verb, c.resource, c.sub) }); n != 0 {
			t.Errorf("Allowed(%q, %q, %q, %q) allocates %.0f times", c.actor, c.verb, c.resource, c.sub, n)
		}
	}
}
