// Package iac is a point-in-time infrastructure-as-code tool in the manner
// of Terraform: a declaration (a list of objects) and the tool's own state
// file (what it last applied: each object's identity, the fields it set
// and the resourceVersion it saw), applied at scheduled times only.
//
// A run plans, then applies. The plan compares the declaration with the
// state file, not with the live objects: an object in the declaration and
// not in the state is to add, one whose declared fields differ from the
// state's is to change, one in the state and no longer declared is to
// destroy. Apply creates, patches (only the fields that differ from the
// state, as a strategic merge patch) and deletes, and writes the state
// file. Between runs the tool does nothing, so drift made by someone else
// goes unnoticed until the next run, and then:
//
//   - without refresh (Options.Refresh false, `terraform plan
//     -refresh=false`, the refresh-less plan) the state still holds the
//     values the tool set, the plan sees no difference, and the drift
//     persists until the declaration itself changes that field;
//   - with refresh (Options.Refresh true, Terraform's own default) the run
//     first reads every object of its state and takes the live values of
//     the fields it set (an object deleted by someone else leaves the
//     state), so the plan sees the drift and the apply reverts it.
//
// Every run's plan ("Plan: 1 to add, 0 to change, 0 to destroy.") and
// outcome are recorded for the runner (Tool.Runs). The state file lives in
// the Tool, as a state file on disk outlives the process: it survives a
// crash and restart of the manager that schedules the runs. A write that
// fails leaves the state as it was; a create whose reply was lost leaves
// an object the state does not know, and the next run's create fails with
// AlreadyExists, as Terraform's does until the object is imported.
//
// Imports: api, apierr and the controller runtime only. Determinism: no
// randomness; objects are planned in declaration order by kind, then name;
// time comes from the manager's clock.
package iac
