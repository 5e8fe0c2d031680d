//! One set's whole check: the folder's own findings (`Store::inspect`), the content audit, and
//! which findings a person accepted. `check`, `check --all` and the workbench all show this.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::Serialize;

use super::accept::{Acceptances, Accepted};
use super::fix::Fix;
use super::gather::{Gathered, gather};
use super::{AuditContext, audit};
use crate::finding::{Finding, Severity};
use crate::folder::sets::Found;
use crate::formats::{Backend, Format, OpenOptions, Summary};
use crate::review::error::ReviewError;

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

/// Checks one folder as its format gave it: the folder's own findings and memwb's state, then
/// the content audit of its memories, with the findings a person accepted. `all_findings`
/// keeps accepted findings in the report (marked).
pub(crate) fn check(gathered: Gathered<'_>, all_findings: bool) -> SetReport {
    let mut findings: Vec<Checked> = gathered.folder_findings.into_iter().map(bare).collect();
    let mut audited = audit(&gathered.memories, &gathered.context);
    audited.findings.extend(gathered.other_secrets);
    let mut notes = audited.notes;
    push_content(
        &mut findings,
        &mut notes,
        audited.findings,
        gathered.acceptances,
        all_findings,
    );
    let mut report = SetReport {
        workspace: gathered.workspace,
        format: gathered.format,
        folder: gathered.folder,
        ok: true,
        records: gathered.records,
        findings,
        notes,
    };
    report.ok = report.count(Severity::Error) == 0;
    report
}

/// Checks the folder `backend` reads: its own findings and memwb's state about it, then the
/// content audit of its memories, with the findings a person accepted. `all_findings` keeps
/// accepted findings in the report (marked).
pub fn check_folder(
    backend: &dyn Backend,
    context: &AuditContext<'_>,
    all_findings: bool,
) -> SetReport {
    check(gather(backend, context), all_findings)
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

/// Checks every set in `sets` on all cores, in the given order; `done` is called once per set
/// as it finishes (a progress bar). A set that cannot be opened reports that as its one
/// finding.
pub fn check_sets(
    sets: &[Found],
    options: &OpenOptions,
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

/// The folders found, summed up with the error and warning counts of `check --all` (the
/// folder's own findings and the content audit): `memwb sets`, `check --all` and the
/// workbench's Sets view give one count. A folder that no longer opens is left out.
pub fn summarize_checked(
    found: &[Found],
    options: &OpenOptions,
    done: &(dyn Fn() + Sync),
) -> Vec<Summary> {
    let reports = check_sets(found, options, &AuditContext::new(None), false, done);
    found
        .iter()
        .zip(reports)
        .filter_map(|(set, report)| {
            let mut summary = crate::folder::sets::summarize(set, options)?;
            summary.errors = report.count(Severity::Error);
            summary.warnings = report.count(Severity::Warning);
            Some(summary)
        })
        .collect()
}

fn check_found(
    set: &Found,
    options: &OpenOptions,
    context: &AuditContext<'_>,
    all_findings: bool,
) -> SetReport {
    // Each set's own project: its workspace, or the directory a Claude Code slug matches.
    let context = context.for_folder(None, None, None);
    let opened = crate::formats::open(&set.path, Some(set.format), options)
        .map(|open| check_folder(&*open.backend(), &context, all_findings))
        .map_err(|e| format!("{e:#}"));
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
