package kubectl_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/clustersim/clustersim/report/kubectl"
	"github.com/clustersim/clustersim/sim/api"
)

// TestGetUnsimulated: the kinds stored and not simulated print kubectl's
// columns (printers.go printIngress, printNetworkPolicy, printRole,
// printRoleBinding, printClusterRoleBinding, printServiceAccount,
// printSecret).
func TestGetUnsimulated(t *testing.T) {
	meta := func(name string) api.ObjectMeta {
		return api.ObjectMeta{Name: name, Namespace: "default", CreationTimestamp: api.NewTime(now.Add(-90 * time.Second))}
	}
	class := "nginx"
	ref := api.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "view"}
	subjects := []api.Subject{{Kind: "User", Name: "jane"}, {Kind: "Group", Name: "ops"}, {Kind: "ServiceAccount", Namespace: "shop", Name: "app"}}
	tests := []struct {
		kind api.Kind
		obj  api.Object
		wide bool
		want string
	}{
		{api.KindIngress, &api.Ingress{ObjectMeta: meta("web"), Spec: api.IngressSpec{IngressClassName: &class, TLS: []api.IngressTLS{{}},
			Rules: []api.IngressRule{{Host: "a.example"}, {Host: "b.example"}, {Host: "c.example"}, {Host: "d.example"}}}}, false,
			"NAME   CLASS   HOSTS                                       ADDRESS   PORTS     AGE\nweb    nginx   a.example,b.example,c.example + 1 more...             80, 443   90s\n"},
		{api.KindIngress, &api.Ingress{ObjectMeta: meta("any")}, false,
			"NAME   CLASS    HOSTS   ADDRESS   PORTS   AGE\nany    <none>   *                 80      90s\n"},
		{api.KindNetworkPolicy, &api.NetworkPolicy{ObjectMeta: meta("deny"), Spec: api.NetworkPolicySpec{PodSelector: api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}, false,
			"NAME   POD-SELECTOR   AGE\ndeny   app=web        90s\n"},
		{api.KindRole, &api.Role{ObjectMeta: meta("reader")}, false,
			"NAME     CREATED AT\nreader   " + now.Add(-90*time.Second).UTC().Format(time.RFC3339) + "\n"},
		{api.KindRoleBinding, &api.RoleBinding{ObjectMeta: meta("b"), RoleRef: ref, Subjects: subjects}, true,
			"NAME   ROLE               AGE   USERS   GROUPS   SERVICEACCOUNTS\nb      ClusterRole/view   90s   jane    ops      shop/app\n"},
		{api.KindClusterRoleBinding, &api.ClusterRoleBinding{ObjectMeta: meta("b"), RoleRef: ref, Subjects: subjects}, false,
			"NAME   ROLE               AGE\nb      ClusterRole/view   90s\n"},
		{api.KindServiceAccount, &api.ServiceAccount{ObjectMeta: meta("app")}, false, "NAME   SECRETS   AGE\napp    0         90s\n"},
		{api.KindSecret, &api.Secret{ObjectMeta: meta("tls"), Type: "kubernetes.io/tls", Data: map[string][]byte{"tls.crt": nil, "tls.key": nil}}, false,
			"NAME   TYPE                DATA   AGE\ntls    kubernetes.io/tls   2      90s\n"},
	}
	for _, tc := range tests {
		t.Run(tc.kind.Name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := kubectl.Get(&buf, tc.kind, []api.Object{tc.obj}, now, kubectl.GetOptions{Wide: tc.wide}); err != nil {
				t.Fatal(err)
			}
			if buf.String() != tc.want {
				t.Errorf("got:\n%q\nwant:\n%q", buf.String(), tc.want)
			}
		})
	}
}
