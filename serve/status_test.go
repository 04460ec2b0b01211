package serve

import (
	"encoding/json"
	"testing"

	"github.com/clustersim/clustersim/sim/apierr"
)

// TestStatusJSON holds the encoding of status errors to what
// apimachinery's constructors make of them: an Invalid error names its
// object in details (kubectl prints `The Pod "p5" is invalid: ...` from
// them) and each cause is {reason: the field.ErrorType, message: the
// ErrorBody, without the field, field}.
func TestStatusJSON(t *testing.T) {
	required := apierr.FieldError{Field: "spec.containers", Type: "Required value"}
	selector := apierr.FieldError{Field: "spec.template.metadata.labels", Type: "Invalid value",
		Value: map[string]string{"app": "y"}, Detail: "`selector` does not match template `labels`"}
	name := apierr.FieldError{Field: "metadata.name", Type: "Invalid value", Value: "Bad_Name", Detail: "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters"}
	policy := apierr.FieldError{Field: "spec.restartPolicy", Type: "Unsupported value", Value: "Sometimes", Detail: `supported values: "Always", "Never", "OnFailure"`}
	dup := apierr.FieldError{Field: "spec.containers[1].name", Type: "Duplicate value", Value: "c"}
	forbidden := apierr.FieldError{Field: "spec.selector", Type: "Forbidden", Detail: "field is immutable"}
	budget := apierr.NewTooManyRequests("Cannot evict pod as it would violate the pod's disruption budget.", 10)
	budget.Causes = []apierr.FieldError{{Type: "DisruptionBudget", Detail: "The disruption budget web needs 3 healthy pods and has 3 currently"}}
	conflict := &apierr.StatusError{Code: 409, Reason: apierr.Conflict, Message: `Apply failed with 1 conflict: conflict with "hpa" using apps/v1: .spec.replicas`,
		Causes: []apierr.FieldError{{Field: ".spec.replicas", Type: "FieldManagerConflict", Detail: `conflict with "hpa" using apps/v1`}}}
	for _, tc := range []struct {
		name string
		err  *apierr.StatusError
		want string // details, as JSON; "" for none
	}{
		{"pod required", apierr.NewInvalid("Pod", "p5", required),
			`{"causes":[{"field":"spec.containers","message":"Required value","reason":"FieldValueRequired"}],"kind":"Pod","name":"p5"}`},
		{"deployment, three causes", apierr.NewInvalid("Deployment.apps", "Bad_Name", name, selector, policy),
			`{"causes":[` +
				`{"field":"metadata.name","message":"Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters","reason":"FieldValueInvalid"},` +
				`{"field":"spec.template.metadata.labels","message":"Invalid value: {\"app\":\"y\"}: ` + "`selector` does not match template `labels`" + `","reason":"FieldValueInvalid"},` +
				`{"field":"spec.restartPolicy","message":"Unsupported value: \"Sometimes\": supported values: \"Always\", \"Never\", \"OnFailure\"","reason":"FieldValueNotSupported"}],` +
				`"group":"apps","kind":"Deployment","name":"Bad_Name"}`},
		{"duplicate and forbidden", apierr.NewInvalid("StatefulSet.apps", "web", dup, forbidden),
			`{"causes":[{"field":"spec.containers[1].name","message":"Duplicate value: \"c\"","reason":"FieldValueDuplicate"},` +
				`{"field":"spec.selector","message":"Forbidden: field is immutable","reason":"FieldValueForbidden"}],"group":"apps","kind":"StatefulSet","name":"web"}`},
		{"custom kind, no causes", apierr.NewInvalid("Widget.example.com", "w 1"),
			`{"group":"example.com","kind":"Widget","name":"w 1"}`},
		{"disruption budget", budget,
			`{"causes":[{"message":"The disruption budget web needs 3 healthy pods and has 3 currently","reason":"DisruptionBudget"}],"retryAfterSeconds":10}`},
		{"apply conflict", conflict,
			`{"causes":[{"field":".spec.replicas","message":"conflict with \"hpa\" using apps/v1","reason":"FieldManagerConflict"}]}`},
		{"not found", apierr.NewNotFound("pods", "p5"), ""},
		{"invalid without a subject", &apierr.StatusError{Code: 422, Reason: apierr.Invalid, Message: "the request is invalid"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := errorStatus(tc.err)
			if st["message"] != tc.err.Message || st["code"] != tc.err.Code || st["reason"] != string(tc.err.Reason) {
				t.Errorf("status = %v; want message %q, code %d, reason %s", st, tc.err.Message, tc.err.Code, tc.err.Reason)
			}
			d, ok := st["details"]
			if tc.want == "" {
				if ok {
					t.Errorf("details = %v; want none", d)
				}
				return
			}
			got, err := json.Marshal(d)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("details =\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}
