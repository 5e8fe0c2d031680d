//! Proposals on a Claude Code folder: the same proposal files as a `.memory` set's (one
//! `<id>.json` each), kept in the folder's state directory, outside the folder. Each holds the
//! full text of every file it changes, before and after; approving writes the after images
//! through the write engine with the before images as bases (a file changed since is a
//! conflict and nothing is written) and MEMORY.md's lines derived from the index as it is then.

use super::image_rules;
use super::index_lines::{LINE_FILES, derived_index};
use super::observer::{journal_of, journaled, journaled_deciding};
use crate::change::Touched;
use crate::claude::edit::claude_form;
use crate::claude::fsread::{MAX_FILE_BYTES, read_regular};
use crate::claude::index::INDEX_FILE;
use crate::claude::write::{FileImage, FileWrite};
use crate::claude::{ClaudeError, ClaudeFolder, ClaudeState};
use crate::review::error::ReviewError;
use crate::review::journal::{Entry, EntryMeta, Op};
use crate::review::proposal::{
    self, Deciding, Kind, Listing, Origin, Proposal, ProposalStatus, State, create_in, images,
};
use crate::review::state::StateDir;

/// What a proposer hands in for a Claude Code folder.
#[derive(Debug, Clone)]
pub struct NewFiles {
    /// `extraction` for new files only, `consolidation` for a merge, `edit` otherwise.
    pub kind: Kind,
    /// Every file the change touches, with its text as the proposer read it (`before`; `None`:
    /// it did not exist) and as it should be (`after`; `None`: removed). MEMORY.md only when the
    /// proposer edits the index itself; otherwise approving keeps its lines true.
    pub files: Vec<FileImage>,
    pub origin: Origin,
    /// What the change came from, shown to the reviewer.
    pub evidence: Option<String>,
}

/// Files a proposal for `folder`, changing nothing in it: the files must be Markdown files
/// inside it, each really changed. Credentials in the images and the evidence are kept
/// redacted (docs/audit.md).
pub fn file_proposal(folder: &ClaudeFolder, new: NewFiles) -> Result<Proposal, ReviewError> {
    if let Some(rule) = image_rules::filing_rule(&new.files) {
        return Err(ReviewError::ProposalInvalid { rule });
    }
    let mut proposal = Proposal::pending(new.kind, new.origin, new.evidence);
    proposal.files = images::redacted(new.files);
    create_in(&state_dir(folder)?, &proposal)?;
    Ok(proposal)
}

/// Every proposal filed for `folder` (and every proposal file that does not read), oldest first.
pub fn list(folder: &ClaudeFolder) -> Result<Listing, ReviewError> {
    proposal::list_all_in(Some(&state_dir(folder)?))
}

pub fn load(folder: &ClaudeFolder, id: &str) -> Result<Proposal, ReviewError> {
    proposal::load_in(&state_dir(folder)?, id)
}

/// The text of `file` in the folder now (`None`: absent).
pub(super) fn current_text(folder: &ClaudeFolder, file: &str) -> Result<Option<String>, String> {
    if let Some(rule) = image_rules::path_rule(file) {
        return Err(rule.to_owned());
    }
    match read_regular(&folder.root().join(file), MAX_FILE_BYTES) {
        Ok(None) => Ok(None),
        Ok(Some(bytes)) => String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| "it is not valid UTF-8".to_owned()),
        Err(e) => Err(e.to_string()),
    }
}

/// Whether a proposal still applies to `folder`: ready, or stale with what changed (a file is
/// no longer as its before image says).
pub fn state(folder: &ClaudeFolder, proposal: &Proposal) -> State {
    match proposal.status {
        ProposalStatus::Approved => return State::Approved,
        ProposalStatus::Rejected => return State::Rejected,
        ProposalStatus::Pending => {}
    }
    if let Some(rule) = image_rules::stored_rule(&proposal.files) {
        return State::Stale(vec![format!("it cannot be applied: {rule}")]);
    }
    images::state(&proposal.files, |file| current_text(folder, file))
}

/// The writes that apply `proposal` now: each file's base is its current text (which must be
/// what its before image recorded), and MEMORY.md's lines follow from the index as it is.
fn writes_for(folder: &ClaudeFolder, proposal: &Proposal) -> Result<Vec<FileWrite>, ReviewError> {
    let stale = |detail: String| ReviewError::ProposalStale {
        id: proposal.id.clone(),
        detail,
    };
    if let State::Stale(changes) = state(folder, proposal) {
        return Err(stale(changes.join("; ")));
    }
    let mut writes = Vec::with_capacity(proposal.files.len() + 1);
    let session = proposal
        .origin
        .call
        .as_ref()
        .and_then(|call| call.session_id.as_deref());
    let now = jiff::Timestamp::now();
    for image in &proposal.files {
        writes.push(FileWrite {
            file: image.file.clone(),
            base: current_text(folder, &image.file)
                .map_err(|_| stale(State::cannot_be_read(&images::image_name(image))))?,
            after: in_claude_form(image, session, now)?,
        });
    }
    let index = current_text(folder, INDEX_FILE)
        .map_err(|why| stale(format!("{INDEX_FILE} cannot be read: {why}")))?;
    if let Some(after) = derived_index(index.as_deref(), &proposal.files) {
        writes.push(FileWrite {
            file: INDEX_FILE.into(),
            base: index,
            after: Some(after),
        });
    }
    Ok(writes)
}

/// What approving writes of `image`: a new topic file as Claude Code's own Write would have
/// left it (so its next edit changes nothing memwb wrote; a name it would change is refused),
/// anything else as proposed.
fn in_claude_form(
    image: &FileImage,
    session: Option<&str>,
    now: jiff::Timestamp,
) -> Result<Option<String>, ReviewError> {
    match (&image.before, &image.after) {
        (None, Some(text)) if !LINE_FILES.contains(&image.file.as_str()) => {
            let rewritten = claude_form::rewrite(text, session, now).map_err(|e| {
                ReviewError::ProposalInvalid {
                    rule: e.to_string(),
                }
            })?;
            Ok(Some(rewritten.unwrap_or_else(|| text.clone())))
        }
        _ => Ok(image.after.clone()),
    }
}

/// The writes that apply `files` as they were read: each file's base is its before image, so
/// a file changed since is a conflict and nothing is written; MEMORY.md's lines follow from
/// the index as it is now. `consolidate --plan` writes through this.
pub fn writes_for_images(
    folder: &ClaudeFolder,
    files: &[FileImage],
) -> Result<Vec<FileWrite>, ReviewError> {
    let mut writes: Vec<FileWrite> = files
        .iter()
        .map(|image| FileWrite {
            file: image.file.clone(),
            base: image.before.clone(),
            after: image.after.clone(),
        })
        .collect();
    let index = current_text(folder, INDEX_FILE).map_err(|why| ReviewError::ProposalInvalid {
        rule: format!("{INDEX_FILE} cannot be read: {why}"),
    })?;
    if let Some(after) = derived_index(index.as_deref(), files) {
        writes.push(FileWrite {
            file: INDEX_FILE.into(),
            base: index,
            after: Some(after),
        });
    }
    Ok(writes)
}

/// What an approval did: the files as written (MEMORY.md included), its journal entry, and
/// why it is not yet durable when a directory sync after it failed (`Applied::not_durable`).
#[derive(Debug, Clone)]
pub struct Approved {
    pub files: Vec<FileImage>,
    pub entry: Option<Entry>,
    pub not_durable: Option<String>,
}

/// Applies a pending proposal in one journaled change. A stale proposal, or a file changed
/// between the check and the write, is refused and nothing is written.
pub fn approve(folder: &ClaudeFolder, id: &str) -> Result<Approved, ReviewError> {
    recover(folder)?;
    let read_as = proposal::load_in(&state_dir(folder)?, id)?;
    proposal::pending(&read_as)?;
    let meta = EntryMeta::deciding(Op::Approve, read_as.reference(), None);
    let deciding = Deciding {
        decision: proposal::decision(id, ProposalStatus::Approved, None),
        read_as: read_as.clone(),
    };
    // Under the lock: the writes are made from the files as they are then (MEMORY.md too, so
    // approvals of unrelated proposals in parallel do not make each other stale), the engine
    // checks every base, and the journal that the proposal is still pending and unchanged;
    // the decision is recorded with the entry.
    let mut plan = || writes_for(folder, &read_as);
    let (applied, entry) = journaled_deciding(folder, &mut plan, meta, deciding).map_err(|e| {
        match e.into_engine_error::<ClaudeError>() {
            Ok(ClaudeError::Conflict { file, .. }) => ReviewError::ProposalStale {
                id: id.to_owned(),
                detail: format!("{file} changed while it was being applied"),
            },
            Ok(other) => other.into(),
            Err(other) => other,
        }
    })?;
    Ok(Approved {
        files: applied.images,
        entry,
        not_durable: applied.not_durable,
    })
}

/// Closes a pending proposal without applying it; the folder is not touched.
pub fn reject(
    folder: &ClaudeFolder,
    id: &str,
    reason: Option<String>,
) -> Result<Entry, ReviewError> {
    recover(folder)?;
    let _lock = ClaudeState::for_folder(folder)?.lock()?;
    let journal = journal_of(folder)?;
    let proposal = proposal::load_in(&journal.create_state()?, id)?;
    proposal::pending(&proposal)?;
    let meta = EntryMeta::deciding(Op::Reject, proposal.reference(), reason.clone());
    let decision = proposal::decision(id, ProposalStatus::Rejected, reason);
    journal.record_decision_only(meta, decision)
}

/// Replaces what the pending proposal `id` writes at `at` (a place in its change, as
/// [`Proposal::change`] lays it out: one file image each) with `after` (a reviewer's edit).
/// `opened` is the proposal's change as the reviewer read it: if someone else edited the
/// proposal since, nothing is written; the folder is not touched.
pub fn edit_file(
    folder: &ClaudeFolder,
    id: &str,
    opened: &[Touched],
    at: usize,
    after: String,
) -> Result<Proposal, ReviewError> {
    recover(folder)?;
    let _lock = ClaudeState::for_folder(folder)?.lock()?;
    let state = state_dir(folder)?;
    let mut proposal = proposal::load_in(&state, id)?;
    proposal::pending(&proposal)?;
    if proposal.change().touched != opened {
        return Err(ReviewError::ProposalEdited { id: id.to_owned() });
    }
    let file = opened
        .get(at)
        .filter(|t| t.after.is_some())
        .map(|t| &t.file);
    let Some(image) = proposal
        .files
        .iter_mut()
        .find(|f| Some(&f.file) == file && f.after.is_some())
    else {
        return Err(ReviewError::NothingToEdit { id: id.to_owned() });
    };
    image.after = Some(after);
    proposal.files = images::redacted(proposal.files);
    if let Some(rule) = image_rules::stored_rule(&proposal.files) {
        return Err(ReviewError::ProposalInvalid { rule });
    }
    proposal::rewrite_in(&state, &proposal)?;
    Ok(proposal)
}

/// The folder's state directory, where its journal and proposals are.
fn state_dir(folder: &ClaudeFolder) -> Result<StateDir, ReviewError> {
    journal_of(folder)?.create_state()
}

/// Resolves a change or a decision a crash interrupted, so that what follows reads the
/// folder and the proposals as they really are.
/// Nothing is locked or written when no intent waits (a live consolidation then blocks only
/// what writes the folder).
pub fn recover(folder: &ClaudeFolder) -> Result<(), ReviewError> {
    if !journal_of(folder)?.has_pending() {
        return Ok(());
    }
    journaled(folder, Vec::new(), EntryMeta::default()).map(|_| ())
}
