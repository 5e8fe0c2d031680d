//! Rebasing a stale proposal: re-planning it against the records as they are now instead of
//! only rejecting it, and not filing a dedupe group again that was already decided against or
//! is already waiting.
//!
//! A rebase (written once, `review::proposal::rebase`) rewrites the pending proposal in place:
//! here, its base becomes the current version of each source still in the set, a source that was
//! removed leaves the plan, and the plan is validated again as a filer's would be. A dedupe
//! draft nobody edited is recomputed from the current sources; an edited draft, an imported or
//! a model plan keeps its proposed records. What changed is returned, for the reviewer.

use std::collections::BTreeSet;

use super::Readable;
use super::decide::{addition_records, base_records, load_pending};
use crate::formats::memory::merged_draft;
use crate::redact::records::is_copy_of;
use crate::review::ReviewError;
use crate::review::journal::JournalRecord;
use crate::review::proposal::{
    self, ALREADY_APPLIED, DRAFT_EDIT_KEPT, DRAFT_RECOMPUTED, NOTHING_TO_MERGE, Proposal, Rebased,
    Replanning, State, name_taken, plan_invalid, refused, removed, rewrite,
};
use crate::session::Plan;
use crate::store::{MemorySet, Record, Store};

/// Whether every source record `proposal` was made from is in `current` as it saw it: a
/// rejected dedupe group stays decided against until one of its sources changes.
pub(crate) fn base_is_current(proposal: &Proposal, current: &MemorySet) -> bool {
    proposal.base.iter().all(|source| {
        current
            .get(&source.record.name)
            .is_some_and(|entry| is_copy_of(&source.record, &entry.record))
    })
}

/// Re-plans the stale pending proposal `id` against the current set, under the lock
/// (`review::proposal::rebase`). A proposal that is ready, or whose plan cannot hold against
/// the current set (a proposed name now taken by another record, every source gone), is
/// refused and left unchanged.
pub fn rebase(store: &Store, id: &str) -> Result<Rebased, ReviewError> {
    let _lock = store.lock_for_write()?;
    let proposal = load_pending(store, id)?;
    let current = match store.read() {
        Ok(current) => current,
        Err(strict) => {
            // A source that does not read is refused as every format refuses it.
            let unreadable = Readable::when_strict_fails(store)
                .and_then(|readable| readable.unreadable_source(&proposal));
            return Err(match unreadable {
                Some(reason) => refused(&proposal.id, &reason),
                None => strict.into(),
            });
        }
    };
    proposal::rebase(&Records { store, current }, &proposal)
}

/// The set as read under the lock, re-planned against by [`rebase`].
struct Records<'a> {
    store: &'a Store,
    current: MemorySet,
}

impl Replanning for Records<'_> {
    fn state(&self, proposal: &Proposal) -> State {
        super::state(proposal, &self.current)
    }

    fn replan(
        &self,
        proposal: &Proposal,
        changes: &mut Vec<String>,
    ) -> Result<Proposal, ReviewError> {
        let current = &self.current;
        let refuse = |rule: String| refused(&proposal.id, &rule);
        let plan = proposal.plan().map_err(|e| refuse(plan_invalid(&e)))?;
        let additions: Vec<Record> = addition_records(proposal)?;
        let plan = match plan {
            Plan::Extraction(records) => Plan::Extraction(records),
            Plan::Consolidation {
                source_names,
                records,
            } => {
                let (kept, gone): (Vec<String>, Vec<String>) =
                    source_names.into_iter().partition(|name| {
                        current.get(name).is_some() || additions.iter().any(|a| a.name() == name)
                    });
                for name in &gone {
                    changes.push(format!("{name:?} left the plan's sources"));
                }
                if kept.is_empty() {
                    return Err(refuse(removed(&gone)));
                }
                let records = if proposal.origin.source == "dedupe" {
                    redraft(proposal, &kept, current, records, changes)
                        .map_err(|rule| refuse(rule.into()))?
                } else {
                    records
                };
                Plan::Consolidation {
                    source_names: kept,
                    records,
                }
            }
        };
        let sources: BTreeSet<&str> = plan.source_names().iter().map(String::as_str).collect();
        for record in plan.records() {
            if current.get(record.name()).is_some() && !sources.contains(record.name()) {
                return Err(refuse(name_taken(record.name())));
            }
        }
        if changes_nothing(&plan, current) {
            return Err(refuse(ALREADY_APPLIED.into()));
        }
        // Validated again exactly as a filer's plan is, against the current sources.
        let candidates: Vec<Record> = current.records().cloned().chain(additions).collect();
        let replanned = plan.to_value();
        let plan = match plan {
            Plan::Extraction(_) => Plan::extraction(&replanned),
            Plan::Consolidation { .. } => Plan::consolidation(&replanned, &candidates),
        }
        .map_err(|e| refuse(plan_invalid(&e)))?;
        let mut rebased = proposal.clone();
        rebased.base = current
            .entries
            .iter()
            .filter(|e| sources.contains(e.record.name()))
            .map(JournalRecord::from)
            .collect();
        rebased.plan = plan.to_value();
        Ok(rebased)
    }

    fn rewrite(&self, proposal: &Proposal) -> Result<(), ReviewError> {
        rewrite(self.store, proposal)
    }
}

/// Whether approving `plan` would leave the set as it is: every memory it writes is already
/// there as it would write it, and it removes none (a Claude Code folder finds the same when
/// every file it would write already holds its text).
fn changes_nothing(plan: &Plan, current: &MemorySet) -> bool {
    let written: BTreeSet<&str> = plan.records().iter().map(Record::name).collect();
    plan.source_names()
        .iter()
        .all(|name| written.contains(name.as_str()))
        && plan.records().iter().all(|record| {
            current
                .get(record.name())
                .is_some_and(|entry| is_copy_of(&record.to_input(), &entry.record))
        })
}

/// A dedupe proposal's records after a rebase: the draft recomputed from the current sources
/// when the reviewer left it as it was drafted, else their edit, kept.
fn redraft(
    proposal: &Proposal,
    kept: &[String],
    current: &MemorySet,
    records: Vec<Record>,
    changes: &mut Vec<String>,
) -> Result<Vec<Record>, &'static str> {
    let sources: Vec<Record> = kept
        .iter()
        .filter_map(|name| current.get(name).map(|e| e.record.clone()))
        .collect();
    if sources.len() < 2 {
        return Err(NOTHING_TO_MERGE);
    }
    let drafted_from = base_records(proposal)
        .ok()
        .filter(|base| base.len() >= 2)
        .map(|base| merged_draft(&base));
    if records.len() == 1 && drafted_from.as_ref() == records.first() {
        changes.push(DRAFT_RECOMPUTED.into());
        Ok(vec![merged_draft(&sources)])
    } else {
        changes.push(DRAFT_EDIT_KEPT.into());
        Ok(records)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::memory::already_filed;
    use crate::formats::memory::dedupe_proposal;
    use crate::formats::memory::find_groups;
    use crate::formats::memory::journal::{NewProposal, file, state};
    use crate::formats::memory::journal::{edit_records, reject};
    use crate::review::Origin;
    use crate::review::proposal::{ProposalStatus, load};
    use crate::store::{MemoryType, StoreOptions};

    fn record(name: &str, description: &str, body: &str) -> Record {
        Record::new(name, MemoryType::User, description, body).expect("valid")
    }

    /// Two near-duplicates and an unrelated record.
    fn store() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open(dir.path(), StoreOptions::default()).expect("open");
        store
            .extend(vec![
                record(
                    "tabs-indentation",
                    "User prefers tabs for indentation",
                    "Use tabs.",
                ),
                record(
                    "indentation-tabs",
                    "Indentation with tabs preferred by user",
                    "Tabs.",
                ),
                record("deploys", "deploys go from main", "Main only."),
            ])
            .expect("seed");
        (dir, store)
    }

    fn file_dedupe(store: &Store) -> Proposal {
        let seen = store.read().expect("read");
        let group = find_groups(&seen).into_iter().next().expect("a group");
        file(store, dedupe_proposal(&seen, group)).expect("file")
    }

    fn file_plan(store: &Store, plan: Plan) -> Proposal {
        let new = NewProposal {
            plan,
            origin: Origin::new("import"),
            seen: store.read().expect("read"),
            additions: Vec::new(),
            evidence: None,
        };
        file(store, new).expect("file")
    }

    fn change_body(store: &Store, name: &str, body: &str) -> Record {
        let before = store
            .read()
            .expect("read")
            .get(name)
            .expect("there")
            .record
            .clone();
        let after = record(name, before.description(), body);
        store.replace(&before, after.clone()).expect("replace");
        after
    }

    fn current(store: &Store) -> MemorySet {
        store.read().expect("read")
    }

    #[test]
    fn a_stale_dedupe_draft_is_recomputed_from_the_current_records() {
        let (_dir, store) = store();
        let filed = file_dedupe(&store);
        let changed = change_body(&store, "indentation-tabs", "Tabs, not spaces.");
        assert!(matches!(state(&filed, &current(&store)), State::Stale(_)));
        let rebased = rebase(&store, &filed.id).expect("rebase");
        assert_eq!(rebased.proposal.id, filed.id);
        assert_eq!(state(&rebased.proposal, &current(&store)), State::Ready);
        let sources: Vec<Record> = vec![
            current(&store)
                .get("tabs-indentation")
                .expect("a")
                .record
                .clone(),
            changed,
        ];
        let plan = rebased.proposal.plan().expect("plan");
        assert_eq!(plan.records(), [merged_draft(&sources)]);
        assert!(plan.records()[0].body().contains("Tabs, not spaces."));
        assert!(
            rebased
                .changes
                .iter()
                .any(|c| c.contains("\"indentation-tabs\" was changed")),
            "{:?}",
            rebased.changes
        );
        assert!(rebased.changes.iter().any(|c| c.contains("recomputed")));
        // what is on disk is the rebased proposal, and it approves
        assert_eq!(load(&store, &filed.id).expect("load"), rebased.proposal);
        super::super::approve(&store, &filed.id).expect("approve");
        assert!(current(&store).get("indentation-tabs").is_none());
    }

    #[test]
    fn an_edited_draft_keeps_the_reviewers_record() {
        let (_dir, store) = store();
        let filed = file_dedupe(&store);
        let opened = filed.change().touched;
        let at = opened
            .iter()
            .position(|t| t.after.is_some())
            .expect("the draft writes a memory");
        let edited = record("tabs-indentation", "tabs, always", "Edited by hand.");
        edit_records(&store, &filed.id, &opened, at, edited.clone()).expect("edit");
        change_body(&store, "indentation-tabs", "Tabs, not spaces.");
        let rebased = rebase(&store, &filed.id).expect("rebase");
        assert_eq!(rebased.proposal.plan().expect("plan").records(), [edited]);
        assert!(rebased.changes.iter().any(|c| c.contains("your edit")));
        assert_eq!(state(&rebased.proposal, &current(&store)), State::Ready);
    }

    #[test]
    fn an_imported_plan_keeps_its_records_and_drops_a_removed_source() {
        let (_dir, store) = store();
        let merged = record("everything", "all of it", "All.");
        let filed = file_plan(
            &store,
            Plan::Consolidation {
                source_names: vec![
                    "tabs-indentation".into(),
                    "indentation-tabs".into(),
                    "deploys".into(),
                ],
                records: vec![merged.clone()],
            },
        );
        let deploys = current(&store)
            .get("deploys")
            .expect("there")
            .record
            .clone();
        store.remove(&[deploys]).expect("rm");
        change_body(&store, "tabs-indentation", "Tabs!");
        let rebased = rebase(&store, &filed.id).expect("rebase");
        let plan = rebased.proposal.plan().expect("plan");
        assert_eq!(plan.records(), [merged]);
        assert_eq!(
            plan.source_names(),
            ["tabs-indentation", "indentation-tabs"]
        );
        let base: Vec<&str> = rebased
            .proposal
            .base
            .iter()
            .map(|b| b.record.name.as_str())
            .collect();
        assert_eq!(base, ["tabs-indentation", "indentation-tabs"]);
        assert_eq!(rebased.proposal.base[0].record.body, "Tabs!");
        assert!(
            rebased
                .changes
                .iter()
                .any(|c| c.contains("\"deploys\" left"))
        );
        assert_eq!(state(&rebased.proposal, &current(&store)), State::Ready);
    }

    #[test]
    fn a_ready_proposal_a_taken_name_and_a_lost_group_are_refused_unchanged() {
        let (_dir, store) = store();
        let ready = file_plan(&store, Plan::Extraction(vec![record("delta", "new", "D.")]));
        let err = rebase(&store, &ready.id).expect_err("ready");
        assert!(err.to_string().contains("it is not stale"), "{err}");
        // the proposed name is taken by another record now
        store
            .extend(vec![record("delta", "someone else's", "X.")])
            .expect("add");
        let err = rebase(&store, &ready.id).expect_err("taken");
        assert!(
            err.to_string()
                .contains("\"delta\" exists now and the proposal would replace it"),
            "{err}"
        );
        assert_eq!(load(&store, &ready.id).expect("load"), ready);
        // a dedupe group with one record left has nothing to merge
        let dedupe = file_dedupe(&store);
        let gone = current(&store)
            .get("indentation-tabs")
            .expect("there")
            .record
            .clone();
        store.remove(&[gone]).expect("rm");
        let err = rebase(&store, &dedupe.id).expect_err("one left");
        assert!(err.to_string().contains("nothing to merge"), "{err}");
        assert_eq!(load(&store, &dedupe.id).expect("load"), dedupe);
    }

    #[test]
    fn a_pending_or_rejected_group_is_already_filed_an_approved_one_is_not() {
        let (_dir, store) = store();
        let seen = current(&store);
        let group = || find_groups(&seen).into_iter().next().expect("group");
        let plan = dedupe_proposal(&seen, group()).plan;
        assert!(already_filed(&plan, &[], &seen).is_none());
        let pending = file_dedupe(&store);
        assert_eq!(
            already_filed(&plan, std::slice::from_ref(&pending), &seen).map(|p| &p.id),
            Some(&pending.id)
        );
        reject(&store, &pending.id, None).expect("reject");
        let rejected = load(&store, &pending.id).expect("load");
        assert_eq!(
            already_filed(&plan, std::slice::from_ref(&rejected), &seen).map(|p| &p.id),
            Some(&rejected.id)
        );
        // a member changed since the rejection: the group is proposed again
        change_body(&store, "indentation-tabs", "Tabs, not spaces.");
        let changed = current(&store);
        let replan = dedupe_proposal(&changed, find_groups(&changed).remove(0)).plan;
        assert!(already_filed(&replan, std::slice::from_ref(&rejected), &changed).is_none());
        let mut approved = rejected;
        approved.status = ProposalStatus::Approved;
        assert!(already_filed(&plan, &[approved], &seen).is_none());
        // another group of records is not the same group
        let other = Plan::Consolidation {
            source_names: vec!["tabs-indentation".into(), "deploys".into()],
            records: vec![record("x", "x", "x")],
        };
        assert!(already_filed(&other, &[pending], &seen).is_none());
    }
}
