//! The content audit: what a well-formed memory can still get wrong. Credentials (`secret`),
//! files that are gone (`stale-path`), times that will be wrong tomorrow (`relative-date`),
//! deadlines already past (`date-past`), near-duplicates (`duplicate`) and, with a model,
//! contradictions (`conflict`).
//!
//! It works on a format-neutral list of [`Memory`] values, so every memory format audits the
//! same way: each backend gives its memories and the rest of what the check reads
//! ([`crate::formats::Backend::audit_inputs`]). Synchronous and UI-free; the model, when there
//! is one, is called once per set.

pub mod accept;
mod conflict;
mod dates;
pub mod fix;
mod gather;
mod paths;
pub mod report;

use std::path::PathBuf;

use serde::Serialize;

use crate::finding::{Finding, Severity};
use crate::redact;
use crate::review::dedupe;
use crate::session::model::ModelClient;
use crate::store::MemoryType;

pub use dates::Clock;

/// One memory as the audit reads it: the read model, whatever the format.
pub use crate::memory::Memory;

impl Memory {
    /// The type, when it is one of the four the audit knows.
    fn memory_type(&self) -> Option<MemoryType> {
        self.kind.as_deref().and_then(|kind| kind.parse().ok())
    }

    /// The fields the audit reads, each with the file line it starts on.
    fn texts(&self) -> [(&str, Option<usize>); 2] {
        [
            (self.description(), self.description_line),
            (self.body.as_str(), Some(self.body_line)),
        ]
    }

    /// Every text of the file the secret scan reads: the whole frontmatter when there is one
    /// (any field can hold a credential), else the description; and the body.
    fn secret_texts(&self) -> [(&str, Option<usize>); 2] {
        match &self.frontmatter {
            // The opening `---` is line 1.
            Some(raw) => [
                (raw.as_str(), Some(2)),
                (self.body.as_str(), Some(self.body_line)),
            ],
            None => self.texts(),
        }
    }

    /// A file that is no memory but is read with the memories (MEMORY.md): scanned for
    /// secrets only, from line 1.
    pub fn other_file(file: &str, text: String) -> Self {
        Self {
            name: file.to_owned(),
            name_from_file: false,
            kind: None,
            description: None,
            body: text,
            file: file.to_owned(),
            extra: None,
            position: None,
            unreadable: None,
            description_line: None,
            body_line: 1,
            frontmatter: None,
            modified: None,
            journaled: None,
        }
    }
}

/// What the audit is given besides the memories.
pub struct AuditContext<'a> {
    /// Where paths the memories mention are looked up; `None` skips `stale-path` for
    /// relative paths, with a note.
    pub project_root: Option<PathBuf>,
    /// The folder holding the memories: a mention of a sibling memory file resolves there.
    pub memory_folder: Option<PathBuf>,
    /// The home directory, when the memories are this machine's (a Claude Code folder in this
    /// machine's config): absolute and `~` paths inside it are then checked too.
    pub machine_home: Option<PathBuf>,
    /// Asked about contradictions; `None` skips `conflict` with a note.
    pub model: Option<&'a dyn ModelClient>,
    /// Today, and the zone in which file times become dates.
    pub clock: Clock,
}

impl AuditContext<'_> {
    pub fn new(project_root: Option<PathBuf>) -> Self {
        Self {
            project_root,
            memory_folder: None,
            machine_home: None,
            model: None,
            clock: Clock::system(),
        }
    }

    /// The same model and clock, for another set's project.
    pub fn for_project(&self, project_root: PathBuf) -> AuditContext<'_> {
        self.for_folder(Some(project_root), None, None)
    }

    /// The same model and clock, for a folder of memories with its own roots.
    pub fn for_folder(
        &self,
        project_root: Option<PathBuf>,
        memory_folder: Option<PathBuf>,
        machine_home: Option<PathBuf>,
    ) -> AuditContext<'_> {
        AuditContext {
            project_root,
            memory_folder,
            machine_home,
            model: self.model,
            clock: self.clock.clone(),
        }
    }
}

/// One content finding, with the record it is about and what would fix it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AuditFinding {
    #[serde(flatten)]
    pub finding: Finding,
    /// The memory's name.
    pub name: String,
    #[serde(skip)]
    pub fix: Option<fix::Fix>,
    /// For a `secret` or `secret-example`: the fingerprint of the value
    /// ([`redact::fingerprint`]), which an acceptance binds to.
    #[serde(skip)]
    pub fingerprint: Option<String>,
}

/// The audit's findings, and what it could not check and why.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuditReport {
    pub findings: Vec<AuditFinding>,
    pub notes: Vec<String>,
}

/// Audits `memories`: per memory in order, then across them (duplicates, conflicts).
pub fn audit(memories: &[Memory], context: &AuditContext<'_>) -> AuditReport {
    let mut report = AuditReport::default();
    if let Some(error) = redact::scanner_error() {
        report
            .notes
            .push(format!("the secret scanner could not start: {error}"));
    }
    let roots = paths::Roots::new(context);
    if context.project_root.is_none() && !memories.is_empty() {
        report.notes.push(
            "stale-path: relative paths were not checked, no project is known for this folder (it is not Claude Code's projects/<slug>/memory of a directory that exists)".into(),
        );
    }
    for memory in memories {
        secret_findings(memory, &mut report.findings);
        if roots.can_judge() {
            report.findings.extend(roots.stale_paths(memory));
        }
        report
            .findings
            .extend(dates::relative_dates(memory, &context.clock));
        report
            .findings
            .extend(dates::past_deadlines(memory, &context.clock));
    }
    report.findings.extend(duplicates(memories));
    match context.model {
        Some(model) => match conflict::conflicts(memories, model) {
            Ok(found) => report.findings.extend(found),
            Err(e) => report
                .notes
                .push(format!("conflict check failed, nothing was reported: {e}")),
        },
        // One memory cannot contradict another; nothing was skipped.
        None if memories.len() < 2 => {}
        None => report.notes.push(
            "conflict check skipped: no model configured (--model-url URL --model NAME, or --model-cmd CMD)".into(),
        ),
    }
    report
}

pub(crate) fn finding(
    memory: &Memory,
    code: &'static str,
    severity: Severity,
    line: Option<usize>,
    message: String,
    fix: Option<fix::Fix>,
) -> AuditFinding {
    AuditFinding {
        finding: Finding {
            line,
            ..Finding::new(code, severity, Some(memory.file.clone()), message)
        },
        name: memory.name.clone(),
        fix,
        fingerprint: None,
    }
}

/// The file line of byte `offset` in a field that starts on `first_line`.
pub(crate) fn line_at(text: &str, offset: usize, first_line: Option<usize>) -> Option<usize> {
    first_line.map(|first| first + text[..offset].matches('\n').count())
}

/// The secrets in a file that is read with the memories but is not one (MEMORY.md, which
/// Claude Code puts in every prompt): findings without a fix, since no memory's redaction
/// reaches that file; the person edits it.
pub fn other_file_secrets(file: &str, text: String) -> Vec<AuditFinding> {
    let mut out = Vec::new();
    secret_findings(&Memory::other_file(file, text), &mut out);
    for found in &mut out {
        found.fix = None;
    }
    out
}

/// The fingerprints of the credentials in `memory` (leaks and examples): what `accept secret`
/// binds to.
pub fn secret_fingerprints(memory: &Memory) -> Vec<String> {
    let mut found = Vec::new();
    secret_findings(memory, &mut found);
    found.into_iter().filter_map(|f| f.fingerprint).collect()
}

fn secret_findings(memory: &Memory, out: &mut Vec<AuditFinding>) {
    let mut last_leak = None;
    for (text, first_line) in memory.secret_texts() {
        for hit in redact::find(text) {
            let line = line_at(text, hit.range.start, first_line);
            let at = line.map(|l| format!(" on line {l}")).unwrap_or_default();
            let value = &text[hit.range.clone()];
            let shown = redact::preview(value);
            let at_finding = out.len();
            if hit.example {
                out.push(finding(
                    memory,
                    "secret-example",
                    Severity::Info,
                    line,
                    format!(
                        "{}{at}: {shown} is a documented example key, not a leak",
                        hit.rule
                    ),
                    None,
                ));
            } else {
                last_leak = Some(out.len());
                out.push(finding(
                    memory,
                    "secret",
                    Severity::Error,
                    line,
                    format!(
                        "{}{at}: {shown} looks like a credential; it is injected into every prompt that loads this memory",
                        hit.rule
                    ),
                    None,
                ));
            }
            if let Some(found) = out.get_mut(at_finding) {
                found.fingerprint = Some(redact::fingerprint(value));
            }
        }
    }
    // One redaction fixes every secret of the record; it rides on the record's last one.
    if let Some(last) = last_leak.and_then(|i| out.get_mut(i)) {
        last.fix = Some(fix::Fix::Redact);
    }
}

/// Each member of a near-duplicate group gets a finding, but the group is listed once, on its
/// first member (which carries the dedupe fix); the others name that member, so a group of
/// 200 reports 200 short lines, not 200 lists of the other 199.
fn duplicates(memories: &[Memory]) -> Vec<AuditFinding> {
    let mut out = Vec::new();
    let groups = dedupe::similar_groups(
        memories
            .iter()
            .map(|m| (m.name.as_str(), m.description(), m.body.as_str())),
    );
    for group in groups {
        let names: Vec<String> = group
            .members
            .iter()
            .map(|&i| memories[i].name.clone())
            .collect();
        for (position, &i) in group.members.iter().enumerate() {
            let memory = &memories[i];
            let of = if position == 0 {
                let others: Vec<&str> = names
                    .iter()
                    .filter(|n| **n != memory.name)
                    .map(String::as_str)
                    .collect();
                others.join(", ")
            } else if names.len() == 2 {
                names[0].clone()
            } else {
                format!(
                    "{} and {} more (the group is listed under {})",
                    names[0],
                    names.len() - 2,
                    names[0]
                )
            };
            out.push(finding(
                memory,
                "duplicate",
                Severity::Warning,
                memory.description_line,
                format!(
                    "near-duplicate of {of} (shared words: {})",
                    group.shared_words.join(", ")
                ),
                // The group's one dedupe proposal rides on its first member.
                (position == 0).then(|| fix::Fix::Dedupe {
                    names: names.clone(),
                }),
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn similar(count: usize) -> Vec<Memory> {
        (0..count)
            .map(|i| Memory {
                name: format!("deploy-note-{i}"),
                name_from_file: false,
                extra: None,
                position: None,
                unreadable: None,
                kind: Some("project".into()),
                description: Some("deploy the checkout service from main on fridays".into()),
                body: "b".into(),
                file: format!("deploy-note-{i}.md"),
                description_line: Some(3),
                body_line: 6,
                modified: None,
                journaled: None,
                frontmatter: None,
            })
            .collect()
    }

    /// The duplicates' JSON for `count` near-identical notes, in bytes.
    fn duplicate_bytes(count: usize) -> usize {
        let found = duplicates(&similar(count));
        assert_eq!(found.len(), count, "every member has its finding");
        assert_eq!(found.iter().filter(|f| f.fix.is_some()).count(), 1);
        serde_json::to_string(&found).expect("json").len()
    }

    #[test]
    fn a_duplicate_group_is_listed_once() {
        let found = duplicates(&similar(200));
        let last = "deploy-note-199";
        let naming_last = found
            .iter()
            .filter(|f| f.finding.message.contains(last))
            .count();
        assert_eq!(naming_last, 1, "only the group's first member lists it");
        assert!(
            found[5]
                .finding
                .message
                .contains("deploy-note-0 and 198 more")
        );
        // Linear in the group, not quadratic: twice the members, about twice the bytes.
        let (small, large) = (duplicate_bytes(100), duplicate_bytes(200));
        assert!(
            large < small * 5 / 2,
            "{small} bytes for 100, {large} for 200"
        );
        assert!(large < 200 * 300, "{large} bytes for 200");
    }
}
