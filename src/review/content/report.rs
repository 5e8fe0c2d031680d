//! One set's whole check: the folder's own findings (`Store::inspect`), the content audit, and
//! which findings a person accepted. `check`, `check --all` and the workbench all show this.

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::Serialize;

use super::accept::{Acceptances, Accepted};
use super::discover::{FoundSet, SetFormat};
use super::fix::Fix;
use super::{AuditContext, audit, memories_of};
use crate::review::audit::findings as state_findings;
use crate::review::journal::MEMWB_DIR;
use crate::store::{Finding, Severity, Store, StoreOptions, StoredRecord};

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
    pub format: SetFormat,
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

/// Checks one `.memory` set: the folder, memwb's state in it, then the content. `all_findings` keeps accepted findings in the report (marked).
pub fn check_store(store: &Store, context: &AuditContext<'_>, all_findings: bool) -> SetReport {
    let inspection = store.inspect();
    let mut notes = Vec::new();
    let mut findings: Vec<Checked> = inspection
        .findings()
        .into_iter()
        .chain(state_findings(store))
        .map(|finding| Checked {
            finding,
            name: None,
            fix: None,
            accepted: None,
        })
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
    let audited = audit(&memories_of(store, &entries), context);
    notes.extend(audited.notes);
    let acceptances = match Acceptances::load(&store.root().join(MEMWB_DIR)) {
        Ok(a) => Some(a),
        Err(e) => {
            notes.push(format!("accepted findings not applied: {e}"));
            None
        }
    };
    for found in audited.findings {
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
    let mut report = SetReport {
        workspace: store.workspace().display().to_string(),
        format: SetFormat::Memory,
        folder: store.root().display().to_string(),
        ok: true,
        records: entries.len(),
        findings,
        notes,
    };
    report.ok = report.count(Severity::Error) == 0;
    report
}

/// The project root of a `.memory` set: its workspace.
pub fn project_root(store: &Store) -> PathBuf {
    store.workspace().to_owned()
}

/// Checks every set in `sets` on all cores, in the given order; `done` is called once per set
/// as it finishes (a progress bar). A set whose workspace cannot be opened reports that as
/// its one finding.
pub fn check_sets(
    sets: &[FoundSet],
    options: &StoreOptions,
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
                    let report = check_found(set, options, context, all_findings);
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

fn check_found(
    set: &FoundSet,
    options: &StoreOptions,
    context: &AuditContext<'_>,
    all_findings: bool,
) -> SetReport {
    match set.format {
        SetFormat::Memory => match Store::open(&set.project, options.clone()) {
            Ok(store) => check_store(
                &store,
                &context.for_project(project_root(&store)),
                all_findings,
            ),
            Err(e) => SetReport {
                workspace: set.project.display().to_string(),
                format: set.format,
                folder: set.folder.display().to_string(),
                ok: false,
                records: 0,
                findings: vec![Checked {
                    finding: Finding {
                        code: "set-unreadable",
                        severity: Severity::Error,
                        file: None,
                        line: None,
                        message: e.to_string(),
                    },
                    name: None,
                    fix: None,
                    accepted: None,
                }],
                notes: Vec::new(),
            },
        },
    }
}
