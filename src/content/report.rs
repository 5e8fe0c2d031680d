//! One set's whole check: the folder's own findings (`Store::inspect`), the content audit, and
//! which findings a person accepted. `check`, `check --all` and the workbench all show this.

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::Serialize;

use super::accept::{Acceptances, Accepted};
use super::fix::Fix;
use super::{AuditContext, Memory, audit, memories_of};
use crate::claude::{self, ClaudeFolder, ClaudeState, LoadLimits};
use crate::finding::{Finding, Severity};
use crate::folder::Format;
use crate::folder::sets::{Found, project_of_folder};
use crate::fs::{Links, read_regular};
use crate::review::audit::findings as state_findings;
use crate::review::error::ReviewError;
use crate::review::journal::MEMWB_DIR;
use crate::store::index::{INDEX_FILE, MAX_INDEX_FILE_BYTES};
use crate::store::inspect::IndexStatus;
use crate::store::{EntryState, Inspection, Store, StoreOptions, StoredRecord};

/// A finding as `check` reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Checked {
    #[serde(flatten)]
    pub finding: Finding,
    /// The memory it is about, for a content finding.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip)]
    pub fix: Option<Fix>,
    /// Set when a person accepted it; it then never fails the check.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accepted: Option<Accepted>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SetReport {
    pub workspace: String,
    pub format: Format,
    pub folder: String,
    pub ok: bool,
    pub records: usize,
    /// Unaccepted findings first-class; accepted ones only when asked for.
    pub findings: Vec<Checked>,
    /// What could not be checked, and why.
    pub notes: Vec<String>,
}

impl SetReport {
    fn open(&self) -> impl Iterator<Item = &Checked> {
        self.findings.iter().filter(|c| c.accepted.is_none())
    }

    pub fn count(&self, severity: Severity) -> usize {
        self.open()
            .filter(|c| c.finding.severity == severity)
            .count()
    }

    pub fn accepted(&self) -> usize {
        self.findings.len() - self.open().count()
    }

    /// The most severe unaccepted finding's code, the first of its severity.
    pub fn worst(&self) -> Option<&Checked> {
        let rank = |s: Severity| match s {
            Severity::Error => 0,
            Severity::Warning => 1,
            Severity::Info => 2,
        };
        self.open().min_by_key(|c| rank(c.finding.severity))
    }
}

/// A finding about the folder or memwb's state: no record, no fix, never accepted.
fn bare(finding: Finding) -> Checked {
    Checked {
        finding,
        name: None,
        fix: None,
        accepted: None,
    }
}

/// Checks one `.memory` set: the folder, memwb's state in it, then the content. `all_findings` keeps accepted findings in the report (marked).
pub fn check_store(store: &Store, context: &AuditContext<'_>, all_findings: bool) -> SetReport {
    let inspection = store.inspect();
    let mut notes = Vec::new();
    let mut findings: Vec<Checked> = inspection
        .findings()
        .into_iter()
        .chain(state_findings(store))
        .map(bare)
        .collect();
    let entries: Vec<StoredRecord> = inspection
        .entries
        .iter()
        .filter_map(|e| {
            e.record().map(|record| StoredRecord {
                file: e.file.clone(),
                record: record.clone(),
            })
        })
        .collect();
    let mut memories = memories_of(store, &entries);
    super::journaled::stamp_store(store, &entries, &mut memories);
    let mut audited = audit(&memories, context);
    audited
        .findings
        .extend(unmanaged_secrets(store, &inspection));
    notes.extend(audited.notes);
    let acceptances = Acceptances::load(&store.root().join(MEMWB_DIR));
    push_content(
        &mut findings,
        &mut notes,
        audited.findings,
        acceptances,
        all_findings,
    );
    let mut report = SetReport {
        workspace: store.workspace().display().to_string(),
        format: Format::Memory,
        folder: store.root().display().to_string(),
        ok: true,
        records: entries.len(),
        findings,
        notes,
    };
    report.ok = report.count(Severity::Error) == 0;
    report
}

/// The secrets in what a `.memory` folder holds besides its valid records: a MEMORY.md that
/// is not the index the manifest derives (a person or an agent wrote into it), record files
/// that do not parse, and files the manifest does not list. Each is read as `check` reads
/// the folder, within the index's size limit.
fn unmanaged_secrets(store: &Store, inspection: &Inspection) -> Vec<super::AuditFinding> {
    let mut out = Vec::new();
    if inspection.index.status != IndexStatus::InSync
        && let Some(text) = &inspection.index.on_disk
    {
        out.extend(super::other_file_secrets(INDEX_FILE, text.clone()));
    }
    for entry in &inspection.entries {
        if let EntryState::Invalid { raw, .. } = &entry.state {
            out.extend(super::other_file_secrets(&entry.file, raw.clone()));
        }
    }
    for file in &inspection.unlisted {
        if let Ok(Some(bytes)) = read_regular(
            &store.root().join(file),
            MAX_INDEX_FILE_BYTES,
            Links::Refuse,
        ) {
            let text = String::from_utf8_lossy(&bytes).into_owned();
            out.extend(super::other_file_secrets(file, text));
        }
    }
    out
}

/// Adds the content findings to `findings`, each marked when a person accepted it; accepted
/// ones only with `all_findings`. Acceptances that do not read are a note, and apply to none.
fn push_content(
    findings: &mut Vec<Checked>,
    notes: &mut Vec<String>,
    found: Vec<super::AuditFinding>,
    acceptances: Result<Acceptances, ReviewError>,
    all_findings: bool,
) {
    let acceptances = acceptances
        .map_err(|e| notes.push(format!("accepted findings not applied: {e}")))
        .ok();
    for found in found {
        let accepted = acceptances.as_ref().and_then(|a| a.covers(&found)).cloned();
        if accepted.is_some() && !all_findings {
            continue;
        }
        findings.push(Checked {
            finding: found.finding,
            name: Some(found.name),
            fix: found.fix,
            accepted,
        });
    }
}

/// The project root of a `.memory` set: its workspace.
pub fn project_root(store: &Store) -> PathBuf {
    store.workspace().to_owned()
}

/// Checks one Claude Code folder: its own audit (`claude::audit`), then the content audit of
/// its topic files, with the findings accepted in its state directory (outside the folder).
/// `all_findings` keeps accepted findings in the report (marked).
pub fn check_claude(
    folder: &ClaudeFolder,
    context: &AuditContext<'_>,
    all_findings: bool,
) -> SetReport {
    let project = context
        .project_root
        .clone()
        .or_else(|| project_of_folder(folder.root()));
    let home = claude::locate::machine_home(folder.root(), &claude::locate::process_env);
    let context = &context.for_folder(project, Some(folder.root().to_owned()), home);
    let snapshot = folder.read();
    let mut findings: Vec<Checked> = claude::audit(&snapshot).into_iter().map(bare).collect();
    findings.extend(
        crate::review::audit::claude_findings(folder)
            .into_iter()
            .map(bare),
    );
    // In the folder's file order, as the audit has always reported them.
    let memories: Vec<Memory> = snapshot
        .topics
        .iter()
        .map(claude::Topic::memory)
        .filter(Memory::is_readable)
        .collect();
    let mut audited = audit(&memories, context);
    if let Some(index) = snapshot.parsed_index() {
        let text: Vec<&str> = index.lines.iter().map(|l| l.text.as_str()).collect();
        audited.findings.extend(super::other_file_secrets(
            claude::index::INDEX_FILE,
            text.join("\n"),
        ));
    }
    let mut notes = audited.notes;
    // Read where `accept` keeps them; a check creates no state directory.
    let acceptances = ClaudeState::path_of(folder)
        .map_err(ReviewError::from)
        .and_then(|dir| Acceptances::load(&dir));
    push_content(
        &mut findings,
        &mut notes,
        audited.findings,
        acceptances,
        all_findings,
    );
    let root = folder.root().display().to_string();
    let mut report = SetReport {
        workspace: root.clone(),
        format: Format::Claude,
        folder: root,
        ok: true,
        records: snapshot.topics.len(),
        findings,
        notes,
    };
    report.ok = report.count(Severity::Error) == 0;
    report
}

/// Checks every set in `sets` on all cores, in the given order; `done` is called once per set
/// as it finishes (a progress bar). A set that cannot be opened reports that as its one
/// finding.
pub fn check_sets(
    sets: &[Found],
    options: &StoreOptions,
    limits: LoadLimits,
    context: &AuditContext<'_>,
    all_findings: bool,
    done: &(dyn Fn() + Sync),
) -> Vec<SetReport> {
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(sets.len().max(1));
    let next = AtomicUsize::new(0);
    let mut reports: Vec<Option<SetReport>> = vec![None; sets.len()];
    let slots: Vec<Mutex<&mut Option<SetReport>>> = reports.iter_mut().map(Mutex::new).collect();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(set) = sets.get(i) else { break };
                    let report = check_found(set, options, limits, context, all_findings);
                    if let Ok(mut slot) = slots[i].lock() {
                        **slot = Some(report);
                    }
                    done();
                }
            });
        }
    });
    drop(slots);
    reports.into_iter().flatten().collect()
}

/// The folders found, summed up with the error and warning counts of `check --all` (the
/// folder's own findings and the content audit): `memwb sets`, `check --all` and the
/// workbench's Sets view give one count. A folder that no longer opens is left out.
pub fn summarize_checked(
    found: &[Found],
    options: &StoreOptions,
    limits: LoadLimits,
    done: &(dyn Fn() + Sync),
) -> Vec<crate::folder::Summary> {
    let reports = check_sets(
        found,
        options,
        limits,
        &AuditContext::new(None),
        false,
        done,
    );
    found
        .iter()
        .zip(reports)
        .filter_map(|(set, report)| {
            let mut summary = crate::folder::sets::summarize(set, options, limits)?;
            summary.errors = report.count(Severity::Error);
            summary.warnings = report.count(Severity::Warning);
            Some(summary)
        })
        .collect()
}

fn check_found(
    set: &Found,
    options: &StoreOptions,
    limits: LoadLimits,
    context: &AuditContext<'_>,
    all_findings: bool,
) -> SetReport {
    let opened = match set.format {
        Format::Memory => set
            .path
            .parent()
            .ok_or_else(|| "a .memory folder without a parent".to_owned())
            .and_then(|workspace| {
                Store::open(workspace, options.clone()).map_err(|e| e.to_string())
            })
            .map(|store| {
                check_store(
                    &store,
                    &context.for_project(project_root(&store)),
                    all_findings,
                )
            }),
        Format::Claude => ClaudeFolder::open(&set.path, limits)
            .map_err(|e| e.to_string())
            // Its project is the directory its slug matches, found by `check_claude`.
            .map(|folder| {
                check_claude(&folder, &context.for_folder(None, None, None), all_findings)
            }),
    };
    opened.unwrap_or_else(|message| SetReport {
        workspace: set.path.display().to_string(),
        format: set.format,
        folder: set.path.display().to_string(),
        ok: false,
        records: 0,
        findings: vec![Checked {
            finding: Finding::new("set-unreadable", Severity::Error, None, message),
            name: None,
            fix: None,
            accepted: None,
        }],
        notes: Vec::new(),
    })
}
