//! The review gate on a `.memory` set: proposals kept in `.memory/.memwb/proposals/`, decided
//! through the store's journaled transactions, and undo (`formats::memory::journal`).

use super::MemoryBackend;
use super::find_groups;
use super::fix::dedupe_proposal;
use super::journal::{self, NewProposal, Readable, file};
use super::write::written;
use crate::formats::{
    Candidates, Decided, Deduped, Draft, FormatError, Proposals, Proposed, Proposing,
};
use crate::memory::Refusal;
use crate::review::journal::{Entry, Journal};
use crate::review::proposal;
use crate::review::summary::undo_commit_summary;
use crate::review::undo::Reverted;
use crate::store::{MemorySet, Store};

impl MemoryBackend<'_> {
    pub(super) fn begin_proposal(
        &self,
        names: &[String],
    ) -> Result<Box<dyn Proposing + '_>, FormatError> {
        let seen = self.store.read()?;
        let records = if names.is_empty() {
            seen.records().cloned().collect()
        } else {
            seen.require_all(names)?
                .into_iter()
                .map(|entry| entry.record)
                .collect()
        };
        let candidates = Candidates {
            records,
            left_out: Vec::<Refusal>::new(),
            catalog: seen.index_text(),
        };
        Ok(Box::new(Seen {
            store: self.store,
            seen,
            candidates,
        }))
    }

    pub(super) fn dedupe(&self) -> Result<Vec<Deduped>, FormatError> {
        let seen = self.store.read()?;
        let filed = proposal::list(self.store)?;
        let mut out = Vec::new();
        for group in find_groups(&seen) {
            let new = dedupe_proposal(&seen, group);
            out.push(match super::already_filed(&new.plan, &filed, &seen) {
                Some(known) => Deduped::Skipped {
                    names: new.plan.source_names().to_vec(),
                    known: known.clone(),
                },
                None => Deduped::Filed(file(self.store, new)?),
            });
        }
        Ok(out)
    }

    pub(super) fn listed(&self) -> Result<Proposals, FormatError> {
        // A record that does not read makes the proposals about it stale, as a file that does
        // not read does on every format; it does not keep the others from being listed.
        let readable = match self.store.read() {
            Ok(current) => Readable::all(current),
            Err(strict) => Readable::when_strict_fails(self.store).ok_or(strict)?,
        };
        let listing = proposal::list_all(self.store)?;
        Ok(Proposals {
            listed: listing
                .proposals
                .into_iter()
                .map(|p| {
                    let state = readable.state(&p);
                    (p, state)
                })
                .collect(),
            corrupt: listing.corrupt,
        })
    }

    pub(super) fn approved(&self, id: &str) -> Result<Decided, FormatError> {
        let (commit, entry) = journal::approve(self.store, id)?;
        Ok(Decided::new(entry, written(commit, None)))
    }

    pub(super) fn rejected(&self, id: &str, reason: Option<String>) -> Result<Entry, FormatError> {
        Ok(journal::reject(self.store, id, reason)?)
    }

    pub(super) fn recovered_journal(&self) -> Result<Journal, FormatError> {
        recover_if_pending(self.store)?;
        Ok(Journal::of(self.store))
    }

    pub(super) fn undone(&self, entry: &Entry) -> Result<Reverted<Decided>, FormatError> {
        recover_if_pending(self.store)?;
        let reverted = journal::revert(self.store, entry)?;
        Ok(reverted.map(|(commit, undone), _| {
            let mut parts = Vec::new();
            let stray = undone.as_ref().and_then(|e| e.stray.clone());
            if let Some(stray) = &stray {
                parts.push(format!("{} {}", stray.action.as_str(), stray.file));
            }
            if stray.is_none() || !commit.is_empty() {
                parts.push(undo_commit_summary(&commit));
            }
            Decided::new(undone, written(commit, Some(parts.join("; "))))
        }))
    }
}

/// Finishes a journal intent a crash left behind, so that reads show the recovered entry.
fn recover_if_pending(store: &Store) -> Result<(), FormatError> {
    if Journal::of(store).has_pending() {
        let _lock = store.lock_for_write()?;
        Journal::of(store).recover(store)?;
    }
    Ok(())
}

/// A proposal begun on the set as read then.
struct Seen<'a> {
    store: &'a Store,
    seen: MemorySet,
    candidates: Candidates,
}

impl Proposing for Seen<'_> {
    fn candidates(&self) -> &Candidates {
        &self.candidates
    }

    fn file(self: Box<Self>, draft: Draft) -> Result<Proposed, FormatError> {
        let filed = file(
            self.store,
            NewProposal {
                plan: draft.plan,
                origin: draft.origin,
                seen: self.seen,
                additions: Vec::new(),
                evidence: draft.evidence,
            },
        )?;
        Ok(Proposed {
            filed: Some(filed),
            refused: Vec::new(),
        })
    }
}
