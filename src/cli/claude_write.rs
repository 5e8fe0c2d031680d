//! The write commands on a Claude Code folder: `add`, `set`, `rm`, `index --fix`, `log` and
//! `undo`, with the flags and JSON they take on `.memory` sets. Each change is planned as text
//! (`claude::edit`) and written by the engine as one journaled compare-and-swap
//! (`review::claude::journaled`), so a file Claude Code changed after memwb read it is never
//! written over.

use anyhow::Context;
use jiff::Timestamp;

use super::claude::require;
use super::input::read_json;
use super::output::{inert, print_untrusted};
use super::records::{AddArgs, IndexArgs, RmArgs, SetArgs};
use super::review::{LogArgs, UndoArgs};
use super::{EXIT_FINDINGS, EXIT_OK};
use crate::claude::edit::{self, Changes, FileWrite, NewMemory, TopicFile};
use crate::claude::folder::IndexFile;
use crate::claude::frontmatter::KNOWN_TYPES;
use crate::claude::fsread::{MAX_FILE_BYTES, read_regular};
use crate::claude::index::ARCHIVE_FILE;
use crate::claude::index::INDEX_FILE;
use crate::claude::write::FileImage;
use crate::claude::{ClaudeFolder, Snapshot, Topic};
use crate::review::claude as journal;
use crate::review::journal::Entry;
use crate::review::{EntryMeta, Op, ReviewError};
use crate::store::RecordInput;

/// The exact text of `file` in the folder (`None` when it does not exist).
fn read_file(folder: &ClaudeFolder, file: &str) -> anyhow::Result<Option<String>> {
    let path = folder.root().join(file);
    let Some(bytes) = read_regular(&path, MAX_FILE_BYTES)? else {
        return Ok(None);
    };
    String::from_utf8(bytes).map(Some).map_err(|e| {
        anyhow::anyhow!(
            "{} is not valid UTF-8 (first bad byte at offset {}); memwb edits text only",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

fn read_index(folder: &ClaudeFolder, snapshot: &Snapshot) -> anyhow::Result<Option<String>> {
    if let IndexFile::Unreadable(why) = &snapshot.index {
        anyhow::bail!("{} cannot be read: {why}", folder.index_path().display());
    }
    read_file(folder, INDEX_FILE)
}

/// Every file in the folder, memories or not: a new file must not take any of their names.
fn existing_files(snapshot: &Snapshot) -> Vec<String> {
    snapshot
        .topics
        .iter()
        .map(|t| t.file.clone())
        .chain(snapshot.others.iter().map(|o| o.file.clone()))
        .collect()
}

/// A topic's exact text, which the change is based on.
fn topic_text(folder: &ClaudeFolder, topic: &Topic) -> anyhow::Result<String> {
    read_file(folder, &topic.file)?
        .with_context(|| format!("{} was removed", folder.root().join(&topic.file).display()))
}

/// A memory's field as the rules for Claude Code folders take it: one line, not empty.
fn one_line(what: &str, value: &str) -> anyhow::Result<()> {
    if value.trim().is_empty() {
        anyhow::bail!("the {what} is empty");
    }
    if value.contains(['\n', '\r']) {
        anyhow::bail!("the {what} must be one line");
    }
    if value.chars().any(char::is_control) {
        anyhow::bail!("the {what} holds a control character");
    }
    Ok(())
}

fn known_type(kind: &str) -> anyhow::Result<()> {
    if !KNOWN_TYPES.contains(&kind) {
        anyhow::bail!(crate::store::RecordError::Type(inert(kind)));
    }
    Ok(())
}

fn validate(input: &RecordInput) -> anyhow::Result<NewMemory> {
    one_line("name", &input.name)?;
    known_type(&input.kind)?;
    one_line("description", &input.description)?;
    if input.body.trim().is_empty() {
        anyhow::bail!("the body is empty");
    }
    Ok(NewMemory {
        name: input.name.clone(),
        kind: input.kind.clone(),
        description: input.description.clone(),
        body: input.body.clone(),
    })
}

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
    match result {
        Ok(_) => Ok(None),
        Err(ReviewError::NotJournaled { path, detail }) => {
            eprintln!(
                "warning: committed, but not journaled: {}: {}; the next change records it",
                inert(&path.display().to_string()),
                inert(&detail)
            );
            Ok(Some(EXIT_FINDINGS))
        }
        Err(e) => Err(e.into()),
    }
}

pub(super) fn done(summary: &str, code: Option<u8>) -> anyhow::Result<u8> {
    say!("{}", super::output::one_line(summary))?;
    Ok(code.unwrap_or(EXIT_OK))
}

pub fn add(folder: &crate::claude::ClaudeFolder, args: &AddArgs) -> anyhow::Result<u8> {
    let inputs: Vec<RecordInput> = match &args.json {
        Some(path) => read_json(path, "JSON array of records")?,
        None => vec![RecordInput {
            name: args.name.clone().unwrap_or_default(),
            kind: args.kind.clone().unwrap_or_default(),
            description: args.description.clone().unwrap_or_default(),
            body: args
                .body
                .read()?
                .context("--body or --body-file is required with --name")?,
        }],
    };
    let snapshot = folder.read();
    let mut memories = Vec::with_capacity(inputs.len());
    for (i, input) in inputs.iter().enumerate() {
        let memory =
            validate(input).with_context(|| format!("record {} ({:?})", i + 1, input.name))?;
        if let Some(topic) = snapshot.topics.iter().find(|t| t.name() == memory.name) {
            anyhow::bail!(
                "record {} ({:?}): a memory with this name exists ({})",
                i + 1,
                input.name,
                topic.file
            );
        }
        if memories.iter().any(|m: &NewMemory| m.name == memory.name) {
            anyhow::bail!(
                "record {} ({:?}): the name is twice in the batch",
                i + 1,
                input.name
            );
        }
        memories.push(memory);
    }
    let index = read_index(folder, &snapshot)?;
    let existing = existing_files(&snapshot);
    let existing: Vec<&str> = existing.iter().map(String::as_str).collect();
    let (files, writes) =
        edit::plan_add_all(&memories, index.as_deref(), &existing, Timestamp::now())?;
    let code = commit(folder, writes, Op::Add)?;
    let added: Vec<String> = memories
        .iter()
        .zip(&files)
        .map(|(m, f)| format!("{} ({f})", m.name))
        .collect();
    done(&format!("added {}", added.join(", ")), code)
}

pub fn set(folder: &crate::claude::ClaudeFolder, args: &SetArgs) -> anyhow::Result<u8> {
    let snapshot = folder.read();
    let topic = require(&snapshot, &args.target)?;
    if let Some(name) = &args.name {
        one_line("name", name)?;
        if let Some(other) = snapshot
            .topics
            .iter()
            .find(|t| t.name() == name && t.file != topic.file)
        {
            anyhow::bail!("a memory named {name:?} exists ({})", other.file);
        }
    }
    if let Some(kind) = &args.kind {
        known_type(kind)?;
    }
    if let Some(description) = &args.description {
        one_line("description", description)?;
    }
    let changes = Changes {
        name: args.name.clone(),
        kind: args.kind.clone(),
        description: args.description.clone(),
        body: args.body.read()?,
        fields: Vec::new(),
    };
    let text = topic_text(folder, topic)?;
    let index = read_index(folder, &snapshot)?;
    let existing = existing_files(&snapshot);
    let existing: Vec<&str> = existing.iter().map(String::as_str).collect();
    let (file, writes) = edit::plan_edit(
        TopicFile {
            file: &topic.file,
            text: &text,
        },
        index.as_deref(),
        &changes,
        Some(&existing),
        Timestamp::now(),
    )?;
    if writes.is_empty() {
        return done(&super::records::unchanged(topic.name()), None);
    }
    let code = commit(folder, writes, Op::Set)?;
    let name = args.name.as_deref().unwrap_or(topic.name());
    let moved = if file == topic.file {
        String::new()
    } else {
        format!(" (now {file})")
    };
    done(
        &format!("{}{moved}", super::records::set_summary(topic.name(), name)),
        code,
    )
}

pub fn rm(folder: &crate::claude::ClaudeFolder, args: &RmArgs) -> anyhow::Result<u8> {
    let snapshot = folder.read();
    let mut topics: Vec<&Topic> = Vec::with_capacity(args.names.len());
    for name in &args.names {
        let topic = require(&snapshot, name)?;
        if !topics.iter().any(|t| t.file == topic.file) {
            topics.push(topic);
        }
    }
    let texts: Vec<String> = topics
        .iter()
        .map(|t| topic_text(folder, t))
        .collect::<anyhow::Result<_>>()?;
    let files: Vec<TopicFile> = topics
        .iter()
        .zip(&texts)
        .map(|(t, text)| TopicFile {
            file: &t.file,
            text,
        })
        .collect();
    let index = read_index(folder, &snapshot)?;
    let writes = edit::plan_rm(&files, index.as_deref());
    let code = commit(folder, writes, Op::Rm)?;
    let names: Vec<&str> = topics.iter().map(|t| t.name()).collect();
    done(&format!("removed {}", names.join(", ")), code)
}

/// `index --fix`: the plan as a diff; written (journaled) only with `--yes`.
pub fn index_fix(folder: &crate::claude::ClaudeFolder, args: &IndexArgs) -> anyhow::Result<u8> {
    let snapshot = folder.read();
    let index = read_index(folder, &snapshot)?;
    let archive = read_file(folder, ARCHIVE_FILE)?;
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

pub fn log(folder: &crate::claude::ClaudeFolder, args: &LogArgs) -> anyhow::Result<u8> {
    // An empty change only resolves one a crash interrupted, so the log is true.
    journal::journaled(folder, Vec::new(), EntryMeta::default())?;
    super::review::print_log(&journal::journal_of(folder)?, args)
}

pub fn undo(folder: &crate::claude::ClaudeFolder, args: &UndoArgs) -> anyhow::Result<u8> {
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
