//! The Findings view's flows: the set's check, re-run in the background whenever the set may
//! have changed; the Manifest's marks from it; Enter (jump to the record and line) and `f`
//! (file the fix as a proposal, or open the record in the editor for a stale path).

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use super::{App, Effect, StatusKind, View};
use crate::content::fix::Fix;
use crate::content::report::{Checked, SetReport};
use crate::finding::Severity;
use crate::sanitize;
use crate::tui::jobs::Job;
use crate::tui::jobs::ReadFor;
use crate::tui::keymap::{self, Action, Scope};
use crate::tui::panes::Pane;
use crate::tui::panes::findings::{rank, twin_with_fix};

/// The most severe unaccepted finding of each manifest entry, by its file.
pub(super) fn marks(report: &SetReport) -> HashMap<String, Severity> {
    let mut marks: HashMap<String, Severity> = HashMap::new();
    for checked in report.findings.iter().filter(|c| c.accepted.is_none()) {
        let Some(file) = &checked.finding.file else {
            continue;
        };
        let severity = checked.finding.severity;
        marks
            .entry(file.clone())
            .and_modify(|worst| {
                if rank(severity) < rank(*worst) {
                    *worst = severity;
                }
            })
            .or_insert(severity);
    }
    marks
}

impl App {
    /// The check to start now, if one is due and none is running.
    pub(super) fn audit_due(&mut self) -> Option<Effect> {
        if !self.findings.due || self.findings.running {
            return None;
        }
        self.findings.due = false;
        self.findings.running = true;
        Some(Effect::Audit)
    }

    pub(super) fn audited(&mut self, report: Arc<SetReport>) {
        if Path::new(&report.folder) != self.backend.root() {
            // A check of the folder open before `S` switched sets: the new one is due.
            return;
        }
        self.findings.running = false;
        let mut marks = marks(&report);
        marks.retain(|file, _| self.shown.holds_file(file));
        self.manifest.marks = marks;
        self.findings.refresh(report);
    }

    /// Enter: the finding's record in the Manifest and Record panes, scrolled to its line.
    pub(super) fn jump_to_finding(&mut self) {
        let Some(checked) = self.findings.selected_finding().cloned() else {
            self.set_status(StatusKind::Error, "no finding selected".into());
            return;
        };
        let (key, line) = match self.finding_target(&checked) {
            Ok(target) => target,
            Err(text) => return self.set_status(StatusKind::Error, text),
        };
        let mut text = format!("jumped to {}", sanitize::line(&key));
        self.refilter_keeping(Some(&key));
        if self.selected_key().as_deref() != Some(key.as_str()) {
            self.manifest.filter.clear();
            self.refilter_keeping(Some(&key));
            text.push_str("; filter cleared to show it");
        }
        text.push_str(&line);
        self.record.goto = checked.finding.line.or(Some(1));
        self.view = View::Panes;
        self.focus = Pane::Record;
        self.set_status(StatusKind::Info, text);
    }

    /// `f`: the selected finding's fix. A proposal is filed (never applied); a stale path
    /// opens the record in the editor; a finding without a fix says so.
    pub(super) fn file_fix(&mut self) -> Vec<Effect> {
        if self.view != View::Findings {
            return Vec::new();
        }
        let Some(mut checked) = self.findings.selected_finding().cloned() else {
            self.set_status(StatusKind::Error, "no finding selected".into());
            return Vec::new();
        };
        if let Some(report) = &self.findings.report
            && let Some(twin) = twin_with_fix(report, &checked)
        {
            checked = twin.clone();
        }
        match &checked.fix {
            None => {
                let text = format!(
                    "{} has no fix to file: a person decides ({} shows the memory)",
                    checked.finding.code,
                    keymap::label(Scope::Findings, Action::JumpTo)
                );
                self.set_status(StatusKind::Error, text);
            }
            Some(Fix::OpenInEditor) => {
                self.jump_to_finding();
                if self.view == View::Panes {
                    match self.read_selected(ReadFor::Edit) {
                        Some(effects) => {
                            self.say_what_to_edit(&checked);
                            return effects;
                        }
                        None => self.set_status(
                            StatusKind::Error,
                            "the memory no longer reads: nothing to edit".into(),
                        ),
                    }
                }
            }
            Some(_) => return self.run(Job::FileFix(Box::new(checked))),
        }
        Vec::new()
    }

    /// The editor opened for a finding: the status names what to change (the stale path).
    fn say_what_to_edit(&mut self, checked: &Checked) {
        let at = checked
            .finding
            .line
            .map(|line| format!(" (line {line})"))
            .unwrap_or_default();
        let text = format!(
            "editing for {}{at}: {}",
            checked.finding.code,
            sanitize::line(&checked.finding.message)
        );
        self.set_status(StatusKind::Info, text);
    }
}
