//! An agent session's plan on a Claude Code folder: its records made topic files as
//! `memwb propose` makes them (`journal::propose::from_plan`), written as one journaled
//! compare-and-swap with MEMORY.md's lines derived under the lock, or filed as a proposal
//! (review mode). The session's records are the ones the folder's topic files were shown to
//! the side-queries as (`propose::candidates`), so a consolidation's sources are found by them.

use jiff::Timestamp;

use super::ClaudeBackend;
use super::journal::{self, propose, writes_for_images};
use super::write::written_warning;
use crate::change::Changed;
use crate::claude::ClaudeFolder;
use crate::formats::{Draft, FormatError, Open};
use crate::memory::Refusal;
use crate::review::{EntryMeta, Op, Origin};
use crate::session::{Committed, MemoryFolder, MemoryPlan, Plan};
use crate::store::Record;

impl ClaudeBackend<'_> {
    pub(super) fn commit_session_plan(&self, plan: &MemoryPlan) -> Result<Committed, FormatError> {
        let folder = self.folder;
        let read = propose::read(folder);
        let candidates = propose::candidates(&read, &[])?;
        let (as_files, op) = as_files_plan(&candidates.records, plan)?;
        let (files, refused) = propose::from_plan(&read, &candidates, &as_files, Timestamp::now())?;
        refuse_any(&refused)?;
        if files.is_empty() {
            return Ok(Committed::default());
        }
        // The topic files compare with the text the plan was made from; MEMORY.md's new
        // lines are derived under the lock from the index as it is then, so lines other
        // writers added meanwhile are kept.
        let meta = EntryMeta {
            op: Some(op),
            ..EntryMeta::default()
        };
        let result =
            journal::journaled_planned(folder, &mut || writes_for_images(folder, &files), meta);
        Ok(Committed {
            warning: written_warning(result)?,
            changed: changed_by(plan),
        })
    }

    pub(super) fn propose_session_plan(
        &self,
        plan: &MemoryPlan,
        origin: &Origin,
        evidence: Option<String>,
    ) -> Result<String, FormatError> {
        let begun = self.begin_proposal(&[])?;
        let (as_files, _) = as_files_plan(&begun.candidates().records, plan)?;
        let proposed = begun.file(Draft {
            plan: as_files,
            origin: origin.clone(),
            evidence,
        })?;
        refuse_any(&proposed.refused)?;
        let filed = proposed.filed.ok_or_else(|| {
            FormatError::refused("the plan changes nothing in this folder: nothing was filed")
        })?;
        Ok(filed.id)
    }
}

/// The session's plan as a plan of files, checked against the records the folder's topic
/// files read as now (`current`). A consolidation's base must read as the session read it
/// (as the `.memory` engine checks it under its lock); its extracted records that are not
/// among its sources are written beside its replacements, and only sources the folder holds
/// are replaced (an extracted record named as a source is simply not written).
fn as_files_plan(current: &[Record], plan: &MemoryPlan) -> Result<(Plan, Op), FormatError> {
    match plan {
        MemoryPlan::Extend { records } => Ok((Plan::Extraction(records.clone()), Op::Add)),
        MemoryPlan::Consolidate {
            base,
            additions,
            source_names,
            replacements,
        } => Ok((
            consolidation_as_files(current, base, additions, source_names, replacements)?,
            Op::Consolidate,
        )),
    }
}

fn consolidation_as_files(
    current: &[Record],
    base: &[Record],
    additions: &[Record],
    source_names: &[String],
    replacements: &[Record],
) -> Result<Plan, FormatError> {
    for record in base {
        match current.iter().find(|r| r.name() == record.name()) {
            None => return Err(conflict(record, "removed")),
            Some(now) if now != record => return Err(conflict(record, "changed")),
            Some(_) => {}
        }
    }
    let is_source = |name: &str| source_names.iter().any(|s| s == name);
    let replaced: Vec<String> = source_names
        .iter()
        .filter(|name| base.iter().any(|r| r.name() == name.as_str()))
        .cloned()
        .collect();
    let records: Vec<Record> = additions
        .iter()
        .filter(|r| !is_source(r.name()))
        .chain(replacements)
        .cloned()
        .collect();
    for record in &records {
        let taken = current.iter().any(|r| r.name() == record.name());
        if taken && !is_source(record.name()) {
            return Err(FormatError::refused(format!(
                "a memory named {:?} is already in the folder: nothing was written",
                record.name()
            )));
        }
    }
    Ok(if replaced.is_empty() {
        Plan::Extraction(records)
    } else {
        Plan::Consolidation {
            source_names: replaced,
            records,
        }
    })
}

fn conflict(record: &Record, what: &str) -> FormatError {
    FormatError::refused(format!(
        "{:?} was {what} since it was read: nothing was written",
        record.name()
    ))
}

/// Every memory of the plan the folder refused, or nothing: a session's plan is written
/// whole or not at all.
fn refuse_any(refused: &[Refusal]) -> Result<(), FormatError> {
    if refused.is_empty() {
        return Ok(());
    }
    let why: Vec<String> = refused
        .iter()
        .map(|r| format!("{}: {}", r.name, r.reason))
        .collect();
    Err(FormatError::refused(format!(
        "the plan is refused whole ({}): nothing was written",
        why.join("; ")
    )))
}

/// The memories the plan adds, changes and removes, by the names the session knows them by.
fn changed_by(plan: &MemoryPlan) -> Changed {
    match plan {
        MemoryPlan::Extend { records } => Changed {
            added: records.iter().map(|r| r.name().to_owned()).collect(),
            ..Changed::default()
        },
        MemoryPlan::Consolidate {
            base,
            additions,
            source_names,
            replacements,
        } => {
            let is_source = |name: &str| source_names.iter().any(|s| s == name);
            let before: Vec<String> = base
                .iter()
                .filter(|r| is_source(r.name()))
                .map(|r| r.name().to_owned())
                .collect();
            let after: Vec<String> = additions
                .iter()
                .filter(|r| !is_source(r.name()))
                .chain(replacements)
                .map(|r| r.name().to_owned())
                .collect();
            Changed::between(&before, &after)
        }
    }
}

/// `MemorySession::new(folder)`: a session on a Claude Code folder.
impl From<ClaudeFolder> for Box<dyn MemoryFolder> {
    fn from(folder: ClaudeFolder) -> Self {
        Box::new(Open::from(folder))
    }
}
