//! The review gate on a Claude Code folder: proposals and the journal kept in the folder's
//! state directory (outside the folder), each change a journaled compare-and-swap of whole
//! file images (`formats::claude::journal`).

use jiff::Timestamp;

use super::ClaudeBackend;
use super::journal::index_lines::LINE_FILES;
use super::journal::propose::{self, Read};
use super::journal::{self as journal, NewFiles};
use crate::claude::ClaudeFolder;
use crate::formats::{
    Candidates, Decided, Deduped, Draft, FormatError, Proposals, Proposed, Proposing, Written,
    not_durable,
};
use crate::review::journal::{Entry, EntryMeta, Journal};
use crate::review::proposal::{Kind, images};
use crate::review::summary::{files_summary, undo_files_summary};
use crate::review::undo::Reverted;

impl ClaudeBackend<'_> {
    pub(super) fn begin_proposal(
        &self,
        names: &[String],
    ) -> Result<Box<dyn Proposing + '_>, FormatError> {
        let read = propose::read(self.folder);
        let chosen = propose::candidates(&read, names)?;
        let candidates = Candidates {
            records: chosen.records.clone(),
            left_out: chosen.left_out.clone(),
            catalog: read
                .snapshot
                .parsed_index()
                .map(|i| i.loaded_text())
                .unwrap_or_default(),
        };
        Ok(Box::new(Begun {
            folder: self.folder,
            names: names.to_vec(),
            read,
            candidates,
        }))
    }

    pub(super) fn dedupe(&self) -> Result<Vec<Deduped>, FormatError> {
        let read = propose::read(self.folder);
        let filed = journal::list(self.folder)?.proposals;
        let mut out = Vec::new();
        for new in propose::dedupe(&read, Timestamp::now())? {
            out.push(match images::already_filed(&new.files, &filed) {
                Some(known) => Deduped::Skipped {
                    names: images::source_names(&new.files),
                    known: known.clone(),
                },
                None => Deduped::Filed(journal::file_proposal(self.folder, new)?),
            });
        }
        Ok(out)
    }

    pub(super) fn listed(&self) -> Result<Proposals, FormatError> {
        // An approval a crash interrupted is finished (or rolled back) first, as `log` does.
        journal::recover(self.folder)?;
        let listing = journal::list(self.folder)?;
        Ok(Proposals {
            listed: listing
                .proposals
                .into_iter()
                .map(|p| {
                    let state = journal::state(self.folder, &p);
                    (p, state)
                })
                .collect(),
            corrupt: listing.corrupt,
        })
    }

    pub(super) fn approved(&self, id: &str) -> Result<Decided, FormatError> {
        let approved = journal::approve(self.folder, id)?;
        Ok(Decided::new(
            approved.entry,
            Written::with_warnings(
                files_summary(&approved.files, &LINE_FILES),
                [approved.not_durable.as_deref().map(not_durable)],
            ),
        ))
    }

    pub(super) fn rejected(&self, id: &str, reason: Option<String>) -> Result<Entry, FormatError> {
        Ok(journal::reject(self.folder, id, reason)?)
    }

    pub(super) fn recovered_journal(&self) -> Result<Journal, FormatError> {
        // An empty change only resolves one a crash interrupted, so the journal reads true.
        journal::journaled(self.folder, Vec::new(), EntryMeta::default())?;
        Ok(journal::journal_of(self.folder)?)
    }

    pub(super) fn undone(&self, entry: &Entry) -> Result<Reverted<Decided>, FormatError> {
        journal::journaled(self.folder, Vec::new(), EntryMeta::default())?;
        let reverted = journal::revert(self.folder, entry)?;
        Ok(reverted.map(|(applied, undo), inverse| {
            Decided::new(
                undo,
                Written::with_warnings(
                    undo_files_summary(&applied.images, &LINE_FILES, Some(inverse)),
                    [applied.not_durable.as_deref().map(not_durable)],
                ),
            )
        }))
    }
}

/// A proposal begun on the folder as read then: its files' before images are that read.
struct Begun<'a> {
    folder: &'a ClaudeFolder,
    names: Vec<String>,
    read: Read,
    candidates: Candidates,
}

impl Proposing for Begun<'_> {
    fn candidates(&self) -> &Candidates {
        &self.candidates
    }

    fn file(self: Box<Self>, draft: Draft) -> Result<Proposed, FormatError> {
        let chosen = propose::candidates(&self.read, &self.names)?;
        let (files, refused) =
            propose::from_plan(&self.read, &chosen, &draft.plan, Timestamp::now())?;
        if files.is_empty() {
            return Ok(Proposed {
                filed: None,
                refused,
            });
        }
        let new = NewFiles {
            kind: Kind::of_plan(&draft.plan),
            files,
            origin: draft.origin,
            evidence: draft.evidence,
        };
        Ok(Proposed {
            filed: Some(journal::file_proposal(self.folder, new)?),
            refused,
        })
    }
}
