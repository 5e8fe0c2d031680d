//! The record changes on a Claude Code folder: each planned as text (`claude::edit`) and
//! written by the engine as one journaled compare-and-swap (`formats::claude::journal::journaled`), so
//! a file Claude Code changed after memwb read it is never written over.

use jiff::Timestamp;

use super::ClaudeBackend;
use super::journal;
use crate::claude::edit::{self, Changes, FileWrite, NewMemory, TopicFile};
use crate::claude::folder::IndexFile;
use crate::claude::frontmatter::KNOWN_TYPES;
use crate::claude::fsread::{MAX_FILE_BYTES, read_regular};
use crate::claude::index::INDEX_FILE;
use crate::claude::write::Applied;
use crate::claude::{ClaudeFolder, Snapshot, Topic};
use crate::formats::{
    Edit, FormatError, ReadError, Written, not_durable, placed, set_summary, unchanged,
};
use crate::review::{EntryMeta, Op, ReviewError};
use crate::store::RecordInput;

/// The exact text of `file` in the folder (`None` when it does not exist).
pub(crate) fn read_file(folder: &ClaudeFolder, file: &str) -> Result<Option<String>, FormatError> {
    let path = folder.root().join(file);
    let Some(bytes) = read_regular(&path, MAX_FILE_BYTES)? else {
        return Ok(None);
    };
    String::from_utf8(bytes).map(Some).map_err(|e| {
        FormatError::refused(format!(
            "{} is not valid UTF-8 (first bad byte at offset {}); memwb edits text only",
            path.display(),
            e.utf8_error().valid_up_to()
        ))
    })
}

pub(crate) fn read_index(
    folder: &ClaudeFolder,
    snapshot: &Snapshot,
) -> Result<Option<String>, FormatError> {
    if let IndexFile::Unreadable(why) = &snapshot.index {
        return Err(FormatError::refused(format!(
            "{} cannot be read: {why}",
            folder.index_path().display()
        )));
    }
    read_file(folder, INDEX_FILE)
}

/// Every file in the folder, memories or not: a new file must not take any of their names.
pub(crate) fn existing_files(snapshot: &Snapshot) -> Vec<String> {
    snapshot
        .topics
        .iter()
        .map(|t| t.file.clone())
        .chain(snapshot.others.iter().map(|o| o.file.clone()))
        .collect()
}

/// A topic's exact text, which the change is based on.
pub(crate) fn topic_text(folder: &ClaudeFolder, topic: &Topic) -> Result<String, FormatError> {
    read_file(folder, &topic.file)?.ok_or_else(|| {
        FormatError::Read(ReadError::Removed {
            path: folder.root().join(&topic.file),
        })
    })
}

/// A memory's field as the rules for Claude Code folders take it: one line, not empty.
fn one_line(what: &str, value: &str) -> Result<(), FormatError> {
    if value.trim().is_empty() {
        return Err(FormatError::refused(format!("the {what} is empty")));
    }
    if value.contains(['\n', '\r']) {
        return Err(FormatError::refused(format!("the {what} must be one line")));
    }
    if value.chars().any(char::is_control) {
        return Err(FormatError::refused(format!(
            "the {what} holds a control character"
        )));
    }
    Ok(())
}

fn known_type(kind: &str) -> Result<(), FormatError> {
    if !KNOWN_TYPES.contains(&kind) {
        return Err(
            crate::store::RecordError::Type(crate::sanitize::line(kind).into_owned()).into(),
        );
    }
    Ok(())
}

fn validate(input: &RecordInput) -> Result<NewMemory, FormatError> {
    one_line("name", &input.name)?;
    known_type(&input.kind)?;
    one_line("description", &input.description)?;
    if input.body.trim().is_empty() {
        return Err(FormatError::refused("the body is empty"));
    }
    Ok(NewMemory {
        name: input.name.clone(),
        kind: input.kind.clone(),
        description: input.description.clone(),
        body: input.body.clone(),
    })
}

/// The warning of a journaled change that was written, worded as on every format: its
/// directory sync failed ([`Applied::not_durable`]), or it is written but not journaled (the
/// error's own words); any other error fails.
pub(crate) fn written_warning<E>(
    result: Result<(Applied, E), ReviewError>,
) -> Result<Option<String>, FormatError> {
    match result {
        Ok((applied, _)) => Ok(applied.not_durable.as_deref().map(not_durable)),
        Err(e @ ReviewError::NotJournaled { .. }) => Ok(Some(e.to_string())),
        Err(e) => Err(e.into()),
    }
}

/// The topic `name` addresses (see [`super::address`]).
pub(crate) fn require<'a>(snapshot: &'a Snapshot, name: &str) -> Result<&'a Topic, FormatError> {
    super::address(&snapshot.topics, name, &snapshot.root, Topic::name, |t| {
        &t.file
    })
    .map_err(FormatError::from)
}

/// A change planned on a reading of the folder: its writes, and what it says it did.
struct Planned {
    writes: Vec<FileWrite>,
    summary: String,
}

/// Plans and writes one change of `op` under the folder's lock. What the plan reads (the
/// topics, MEMORY.md) is read there, so a parallel memwb change is waited for rather than
/// refused as a conflict; a file another program changed is still refused by the
/// compare-and-swap. `Written::warning` when it was written but not journaled.
fn write_planned(
    folder: &ClaudeFolder,
    op: Op,
    plan: &mut dyn FnMut(&Snapshot) -> Result<Planned, FormatError>,
) -> Result<Written, FormatError> {
    let mut refused = None;
    let mut summary = String::new();
    let mut under_lock = || match plan(&folder.read()) {
        Ok(planned) => {
            summary = planned.summary;
            Ok(planned.writes)
        }
        Err(error) => {
            // The journal's plan answers a ReviewError; the refusal itself is kept whole
            // and returned below, this carrier is never shown.
            let carrier = ReviewError::ProposalInvalid {
                rule: error.to_string(),
            };
            refused = Some(error);
            Err(carrier)
        }
    };
    let meta = EntryMeta {
        op: Some(op),
        ..EntryMeta::default()
    };
    let result = journal::journaled_planned(folder, &mut under_lock, meta);
    if let Some(error) = refused {
        return Err(error);
    }
    let warning = written_warning(result)?;
    Ok(Written { summary, warning })
}

impl ClaudeBackend<'_> {
    pub(super) fn add_topics(&self, inputs: &[RecordInput]) -> Result<Written, FormatError> {
        let folder = self.folder;
        let memories = inputs
            .iter()
            .enumerate()
            .map(|(i, input)| placed(validate(input), inputs, i))
            .collect::<Result<Vec<_>, FormatError>>()?;
        write_planned(folder, Op::Add, &mut |snapshot| {
            plan_add(folder, snapshot, &memories)
        })
    }

    pub(super) fn set_topic(&self, name: &str, edit: &Edit) -> Result<Written, FormatError> {
        if let Some(name) = &edit.name {
            one_line("name", name)?;
        }
        if let Some(kind) = &edit.kind {
            known_type(kind)?;
        }
        if let Some(description) = &edit.description {
            one_line("description", description)?;
        }
        let folder = self.folder;
        write_planned(folder, Op::Set, &mut |snapshot| {
            plan_set(folder, snapshot, name, edit)
        })
    }

    pub(super) fn rm_topics(&self, names: &[String]) -> Result<Written, FormatError> {
        let folder = self.folder;
        write_planned(folder, Op::Rm, &mut |snapshot| {
            plan_rm(folder, snapshot, names)
        })
    }
}

fn plan_add(
    folder: &ClaudeFolder,
    snapshot: &Snapshot,
    memories: &[NewMemory],
) -> Result<Planned, FormatError> {
    for (i, memory) in memories.iter().enumerate() {
        // Each names the memory already, so no batch place is added (as on `.memory`).
        let name = &memory.name;
        if snapshot.topics.iter().any(|t| t.name() == *name) {
            return Err(FormatError::refused(format!(
                "a memory named {name:?} exists"
            )));
        }
        if memories[..i].iter().any(|m| m.name == *name) {
            return Err(FormatError::refused(format!(
                "memory name {name:?} is twice in this batch"
            )));
        }
    }
    let index = read_index(folder, snapshot)?;
    let existing = existing_files(snapshot);
    let existing: Vec<&str> = existing.iter().map(String::as_str).collect();
    let (_, writes) = edit::plan_add_all(memories, index.as_deref(), &existing, Timestamp::now())?;
    // By memory name only, as on every format: the file memwb chose is the format's own.
    let added: Vec<&str> = memories.iter().map(|m| m.name.as_str()).collect();
    Ok(Planned {
        writes,
        summary: format!("added {}", added.join(", ")),
    })
}

fn plan_set(
    folder: &ClaudeFolder,
    snapshot: &Snapshot,
    name: &str,
    edit: &Edit,
) -> Result<Planned, FormatError> {
    let topic = require(snapshot, name)?;
    if let Some(name) = &edit.name
        && snapshot
            .topics
            .iter()
            .any(|t| t.name() == name && t.file != topic.file)
    {
        return Err(FormatError::refused(format!(
            "a memory named {name:?} exists"
        )));
    }
    let changes = Changes {
        name: edit.name.clone(),
        kind: edit.kind.clone(),
        description: edit.description.clone(),
        body: edit.body.clone(),
        fields: Vec::new(),
    };
    let text = topic_text(folder, topic)?;
    let index = read_index(folder, snapshot)?;
    let existing = existing_files(snapshot);
    let existing: Vec<&str> = existing.iter().map(String::as_str).collect();
    let (_, writes) = edit::plan_edit(
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
        return Ok(Planned {
            writes,
            summary: unchanged(topic.name()),
        });
    }
    let renamed = edit.name.as_deref().unwrap_or(topic.name());
    Ok(Planned {
        writes,
        summary: set_summary(topic.name(), renamed),
    })
}

fn plan_rm(
    folder: &ClaudeFolder,
    snapshot: &Snapshot,
    names: &[String],
) -> Result<Planned, FormatError> {
    let mut topics: Vec<&Topic> = Vec::with_capacity(names.len());
    for name in names {
        let topic = require(snapshot, name)?;
        if !topics.iter().any(|t| t.file == topic.file) {
            topics.push(topic);
        }
    }
    let texts: Vec<String> = topics
        .iter()
        .map(|t| topic_text(folder, t))
        .collect::<Result<_, FormatError>>()?;
    let files: Vec<TopicFile> = topics
        .iter()
        .zip(&texts)
        .map(|(t, text)| TopicFile {
            file: &t.file,
            text,
        })
        .collect();
    let index = read_index(folder, snapshot)?;
    let writes = edit::plan_rm(&files, index.as_deref());
    let names: Vec<&str> = topics.iter().map(|t| t.name()).collect();
    Ok(Planned {
        writes,
        summary: format!("removed {}", names.join(", ")),
    })
}
