//! A write another program makes to a Claude Code folder's topic files, as an agent's hook
//! reports it (`src/agents/claude_code/answer/`): filed as a proposal in place of the write
//! (review mode), or journaled once it was made (record mode).

use super::journal::{self, NewFiles, observed::not_journaled};
use crate::change::FileImage;
use crate::claude::ClaudeFolder;
use crate::formats::FormatError;
use crate::review::journal::Entry;
use crate::review::proposal::images;
use crate::review::{EntryMeta, Origin, Proposal};

/// How many of the journal's newest entries are looked through for the same change already
/// journaled (by `memwb watch --record`, or a hook installed twice).
const RECENT: usize = 16;

/// The change filed as a pending proposal of its files' images, its kind what they do.
pub(super) fn propose(
    folder: &ClaudeFolder,
    files: Vec<FileImage>,
    origin: Origin,
    evidence: Option<String>,
) -> Result<Proposal, FormatError> {
    let new = NewFiles {
        kind: images::kind_of(&files),
        files,
        origin,
        evidence,
    };
    Ok(journal::file_proposal(folder, new)?)
}

/// The change journaled, less the files the newest entries already hold as made.
pub(super) fn record(
    folder: &ClaudeFolder,
    files: Vec<FileImage>,
    meta: EntryMeta,
) -> Result<Option<Entry>, FormatError> {
    let recent: Vec<Entry> = journal::journal_of(folder)?
        .last_entries(RECENT)?
        .into_iter()
        .rev()
        .collect();
    let files = not_journaled(files, &recent);
    if files.is_empty() {
        return Ok(None);
    }
    Ok(Some(journal::record(folder, files, meta)?))
}
