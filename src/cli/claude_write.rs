//! The journal commands on a Claude Code folder not yet on [`crate::formats::Backend`]:
//! `log` and `undo`. Each change is planned as text (`claude::edit`) and
//! written by the engine as one journaled compare-and-swap (`review::claude::journaled`), so
//! a file Claude Code changed after memwb read it is never written over.

use anyhow::Context;

use super::EXIT_OK;
use super::review::{LogArgs, UndoArgs};
use crate::review::claude as journal;
use crate::review::{EntryMeta, ReviewError};

pub(super) fn done(summary: &str, code: Option<u8>) -> anyhow::Result<u8> {
    say!("{}", super::output::one_line(summary))?;
    Ok(code.unwrap_or(EXIT_OK))
}

pub(super) fn log(folder: &crate::claude::ClaudeFolder, args: &LogArgs) -> anyhow::Result<u8> {
    // An empty change only resolves one a crash interrupted, so the log is true.
    journal::journaled(folder, Vec::new(), EntryMeta::default())?;
    super::review::print_log(&journal::journal_of(folder)?, args)
}

pub(super) fn undo(folder: &crate::claude::ClaudeFolder, args: &UndoArgs) -> anyhow::Result<u8> {
    journal::journaled(folder, Vec::new(), EntryMeta::default())?;
    let journal = journal::journal_of(folder)?;
    let entry = match args.entry {
        Some(id) => journal
            .entry(id)?
            .ok_or(ReviewError::EntryNotFound { id })?,
        None => journal
            .newest_undoable()?
            .context(super::review::NOTHING_TO_UNDO)?,
    };
    let (images, undo) = journal::undo(folder, &entry)?;
    // Files whose only change was a redaction: the journal's images of them are the same.
    let redacted = entry.only_redacted();
    let not_restored = if redacted.is_empty() {
        String::new()
    } else {
        format!(
            "; the credentials redacted in {} are not restored (a redacted secret is kept nowhere)",
            redacted.join(", ")
        )
    };
    done(
        &format!(
            "{}{}{not_restored}",
            super::review::undid(&entry, undo.as_ref()),
            super::claude_review::summary(&images)
        ),
        None,
    )
}
