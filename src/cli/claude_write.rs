//! The write commands on a Claude Code folder not yet on [`crate::formats::Backend`]:
//! `index --fix`, `log` and `undo`. Each change is planned as text (`claude::edit`) and
//! written by the engine as one journaled compare-and-swap (`review::claude::journaled`), so
//! a file Claude Code changed after memwb read it is never written over.

use anyhow::Context;

use super::output::{inert, print_untrusted};
use super::read::failed;
use super::records::IndexArgs;
use super::review::{LogArgs, UndoArgs};
use super::{EXIT_FINDINGS, EXIT_OK};
use crate::claude::ClaudeFolder;
use crate::claude::edit::{self, FileWrite};
use crate::claude::index::ARCHIVE_FILE;
use crate::claude::write::FileImage;
use crate::formats::claude::write::{not_journaled, read_file, read_index};
use crate::review::claude as journal;
use crate::review::journal::Entry;
use crate::review::{EntryMeta, Op, ReviewError};

/// Writes the change through the journal. `Ok(None)` when it was written; `Ok(Some(code))`
/// when it was written but the journal could not record it (said on stderr).
pub(super) fn commit(
    folder: &ClaudeFolder,
    writes: Vec<FileWrite>,
    op: Op,
) -> anyhow::Result<Option<u8>> {
    let meta = EntryMeta {
        op: Some(op),
        ..EntryMeta::default()
    };
    committed(journal::journaled(folder, writes, meta))
}

/// [`commit`] of the writes `plan` makes under the folder's lock (what they derive from,
/// MEMORY.md's lines, is read there, so a parallel memwb change is no false conflict).
pub(super) fn commit_planned(
    folder: &ClaudeFolder,
    plan: &mut dyn FnMut() -> Result<Vec<FileWrite>, ReviewError>,
    op: Op,
) -> anyhow::Result<Option<u8>> {
    let meta = EntryMeta {
        op: Some(op),
        ..EntryMeta::default()
    };
    committed(journal::journaled_planned(folder, plan, meta))
}

fn committed(
    result: Result<(Vec<FileImage>, Option<Entry>), ReviewError>,
) -> anyhow::Result<Option<u8>> {
    Ok(not_journaled(result.map(|_| ()))
        .map_err(failed)?
        .map(|warning| {
            eprintln!("warning: {}", inert(&warning));
            EXIT_FINDINGS
        }))
}

pub(super) fn done(summary: &str, code: Option<u8>) -> anyhow::Result<u8> {
    say!("{}", super::output::one_line(summary))?;
    Ok(code.unwrap_or(EXIT_OK))
}

/// `index --fix`: the plan as a diff; written (journaled) only with `--yes`.
pub(super) fn index_fix(
    folder: &crate::claude::ClaudeFolder,
    args: &IndexArgs,
) -> anyhow::Result<u8> {
    let snapshot = folder.read();
    let index = read_index(folder, &snapshot).map_err(failed)?;
    let archive = read_file(folder, ARCHIVE_FILE).map_err(failed)?;
    let topics = edit::TopicSummary::all(&snapshot);
    let fix = edit::plan_index_fix(
        index.as_deref(),
        archive.as_deref(),
        &topics,
        folder.limits(),
    );
    if fix.is_empty() {
        say!("MEMORY.md needs no fix")?;
        return Ok(EXIT_OK);
    }
    let mut diff = String::new();
    for change in std::iter::once(&fix.index).chain(fix.archive.as_ref()) {
        if change.changed() {
            diff.push_str(&unified_diff(change));
        }
    }
    print_untrusted(&diff)?;
    let mut parts = Vec::new();
    if !fix.removed.is_empty() {
        parts.push(format!(
            "{} removed",
            super::output::counted(fix.removed.len(), "dangling entry", "dangling entries")
        ));
    }
    if !fix.added.is_empty() {
        parts.push(format!(
            "{} added",
            super::output::counted(fix.added.len(), "unlisted file", "unlisted files")
        ));
    }
    if !fix.archived.is_empty() {
        parts.push(format!(
            "{} moved to {ARCHIVE_FILE}",
            super::output::counted(fix.archived.len(), "entry", "entries")
        ));
    }
    if fix.still_over {
        parts.push("still past the load limit: what remains is not entries".into());
    }
    let summary = parts.join("; ");
    if !args.yes {
        eprintln!("{summary}; nothing written (run with --yes to write it)");
        return Ok(EXIT_OK);
    }
    let writes: Vec<FileWrite> = std::iter::once(fix.index)
        .chain(fix.archive)
        .filter(|c| c.changed())
        .map(|c| FileWrite {
            file: c.file,
            base: c.before,
            after: Some(c.after),
        })
        .collect();
    let code = commit(folder, writes, Op::RebuildIndex)?;
    eprintln!("fixed: {summary}");
    Ok(code.unwrap_or(EXIT_OK))
}

/// A planned change as a unified diff (`/dev/null` for a new file).
pub(super) fn unified_diff(change: &edit::TextChange) -> String {
    let before = change.before.as_deref().unwrap_or("");
    let old = if change.before.is_some() {
        format!("a/{}", change.file)
    } else {
        "/dev/null".to_owned()
    };
    similar::TextDiff::from_lines(before, &change.after)
        .unified_diff()
        .context_radius(2)
        .header(&old, &format!("b/{}", change.file))
        .missing_newline_hint(true)
        .to_string()
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
