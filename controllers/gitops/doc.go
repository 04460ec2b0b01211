// Package gitops is a GitOps syncer in the manner of Argo CD's application
// controller: it keeps the objects of a simulated Git repository applied to
// the cluster.
//
// A Repo is a history of commits, each a set of manifests with a commit
// time; a scenario schedules commits ahead (Repo.Commit) and the syncer
// sees a commit once its time has come (Repo.Head). An Application names a
// repo, a destination namespace, a sync policy (manual, or automated with
// prune and selfHeal), ignoreDifferences (JSON pointers per group and
// kind) and the sync option RespectIgnoreDifferences.
//
// The Syncer polls every repo every Options.Resync plus a random jitter up
// to Options.Jitter (Argo CD's --app-resync 120s and --app-resync-jitter
// 60s), and refreshes an application whenever one of its live objects
// changes (informers on the kinds its repo holds). A refresh compares the
// desired manifests of the head commit with the live objects the way Argo
// CD's normalised diff does: only fields present in the manifest count,
// server-set fields and defaults do not, and ignoreDifferences pointers are
// skipped. The result, Synced or OutOfSync per resource and overall, and a
// history of syncs (revision, time, initiator, result) are kept in memory
// and read with Syncer.Status.
//
// Automated sync applies the out-of-sync objects once per commit, by
// server-side apply as field manager "argocd-controller" with
// --force-conflicts (Argo CD's ServerSideApply=true); objects carry Argo
// CD's tracking annotation, so that prune can delete what a newer commit
// no longer holds. With RespectIgnoreDifferences the ignored fields are
// sent with their live values (not Git's); without it Git's values are
// applied whenever the object syncs, which is how Argo CD and an HPA fight
// over spec.replicas. With selfHeal a live change made by someone else is
// reverted: the first self-heal after a new revision runs at once, the
// next ones no sooner than 2s, 6s, 18s ... (capped at 300s) after the
// previous sync, Argo CD's current self-heal back-off; without selfHeal
// drift stays until the next commit. A failed sync is retried up to
// SyncRetryLimit times with back-off (5s doubling to 3m); a failed sync
// whose writes did happen (only their replies were lost) counts as done
// once a comparison finds the application Synced.
//
// Imports: api, apierr and the controller runtime only. Determinism: the
// only randomness is the poll jitter, drawn from the manager's stream
// "gitops"; applications, resources and pruned objects are handled in a
// sorted order; time comes from the manager's clock. The syncer's status
// and history live in the Syncer, not in the manager: they survive a crash
// and restart of the manager, as Argo CD's Application status survives in
// its custom resource.
package gitops
