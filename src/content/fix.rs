//! What fixes a finding, and the proposals `check --fix` files for it, written once for
//! every format: the fixes are computed on the read model ([`Memory`]: which memory, its
//! description and body with the dates replaced), and only filing one as a proposal is the
//! format's ([`Backend::file_fixes`]). Nothing here applies a change: each fix is a proposal a
//! person approves or rejects.

use super::report::Checked;
use super::{AuditFinding, Memory};
#[cfg(test)]
use crate::finding::Finding;
use crate::formats::fix::sorted;
use crate::formats::{Backend, PlannedFix as Planned};
use crate::review::{Proposal, ReviewError};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fix {
    /// The record with every credential replaced by `[REDACTED]`.
    Redact,
    /// The relative phrase replaced by the absolute date it meant.
    AbsoluteDate(DateEdit),
    /// The dedupe proposal for the group of these records.
    Dedupe { names: Vec<String> },
    /// Nothing to propose: a person opens the record and decides.
    OpenInEditor,
}

impl Fix {
    pub fn describe(&self) -> &'static str {
        match self {
            Fix::Redact => "redaction proposal",
            Fix::AbsoluteDate(_) => "edit proposal with the absolute date",
            Fix::Dedupe { .. } => "dedupe proposal",
            Fix::OpenInEditor => "open the record in the editor",
        }
    }
}

/// One relative phrase and its absolute date, where the audit found it: the edit replaces
/// those bytes only, never another occurrence of the same word (`Tomorrow.io`, a code span).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DateEdit {
    pub phrase: String,
    pub absolute: String,
    pub field: DateField,
    /// The phrase's byte offset in that field.
    pub at: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DateField {
    Description,
    Body,
}

/// `description` and `body` with each phrase of `edits` replaced by its absolute date. An
/// edit whose phrase is no longer at its place (the text changed since the check) is left
/// out; the answer says how many were applied.
pub fn apply_date_edits(edits: &[&DateEdit], description: &mut String, body: &mut String) -> usize {
    let mut ordered: Vec<&DateEdit> = edits.to_vec();
    // From the end, so an earlier offset stays valid after a later replacement.
    ordered.sort_by_key(|e| std::cmp::Reverse(e.at));
    let mut applied = 0;
    for edit in ordered {
        let text = match edit.field {
            DateField::Description => &mut *description,
            DateField::Body => &mut *body,
        };
        let end = edit.at + edit.phrase.len();
        if text.get(edit.at..end) == Some(edit.phrase.as_str()) {
            text.replace_range(edit.at..end, &edit.absolute);
            applied += 1;
        }
    }
    applied
}

/// The fixes for `findings` among `memories`: one redaction, one date edit per memory at
/// most (all its relative dates in one edit, so approving one never makes another stale) and
/// one dedupe per group. Redactions and dedupes come in the findings' order, date edits
/// after. A finding is about the memory of its file, else of its name; findings of memories
/// not among `memories` are skipped.
pub(crate) fn plan(memories: &[Memory], findings: &[&AuditFinding]) -> Vec<Planned> {
    let mut out = Vec::new();
    let mut redacted: Vec<&str> = Vec::new();
    let mut dedupes: Vec<Vec<String>> = Vec::new();
    let mut dated: Vec<(&Memory, Vec<&DateEdit>)> = Vec::new();
    for finding in findings {
        let Some(fix) = &finding.fix else { continue };
        let Some(memory) = memory_of(memories, finding) else {
            continue;
        };
        match fix {
            Fix::Redact if !redacted.contains(&memory.file.as_str()) => {
                redacted.push(&memory.file);
                out.push(Planned::Redact {
                    memory: memory.clone(),
                });
            }
            Fix::Redact | Fix::OpenInEditor => {}
            Fix::AbsoluteDate(date) => {
                match dated.iter_mut().find(|(m, _)| m.file == memory.file) {
                    Some((_, edits)) => edits.push(date),
                    None => dated.push((memory, vec![date])),
                }
            }
            Fix::Dedupe { names } => {
                let group = sorted(names);
                if !dedupes.contains(&group) {
                    dedupes.push(group);
                    out.push(Planned::Dedupe {
                        names: names.clone(),
                    });
                }
            }
        }
    }
    for (memory, edits) in dated {
        let mut description = memory.description().to_owned();
        let mut body = memory.body.clone();
        apply_date_edits(&edits, &mut description, &mut body);
        let description = (description != memory.description()).then_some(description);
        let body = (body != memory.body).then_some(body);
        if description.is_none() && body.is_none() {
            continue;
        }
        let phrases: Vec<String> = edits
            .iter()
            .map(|d| format!("{:?} → {}", d.phrase, d.absolute))
            .collect();
        out.push(Planned::Dates {
            memory: memory.clone(),
            description,
            body,
            why: format!(
                "relative dates replaced by the dates they meant when written: {}",
                phrases.join(", ")
            ),
        });
    }
    out
}

/// The memory a finding is about: by its file, else by its name.
fn memory_of<'a>(memories: &'a [Memory], finding: &AuditFinding) -> Option<&'a Memory> {
    let by_file = finding
        .finding
        .file
        .as_deref()
        .and_then(|file| memories.iter().find(|m| m.file == file));
    by_file.or_else(|| memories.iter().find(|m| m.name == finding.name))
}

/// Files the proposals for the unaccepted content findings among `checked` in the folder
/// `backend` reads, against the folder as it reads now (`check --fix` and the workbench's
/// `f`). Applies nothing; an empty answer means no finding has a fix that is not already
/// filed.
pub fn file_fixes(
    backend: &dyn Backend,
    checked: &[&Checked],
) -> Result<Vec<Proposal>, ReviewError> {
    let fixable = fixable(checked);
    let refs: Vec<&AuditFinding> = fixable.iter().collect();
    backend.file_fixes(&|memories| plan(memories, &refs))
}

/// The unaccepted content findings among `checked`, as the audit found them.
fn fixable(checked: &[&Checked]) -> Vec<AuditFinding> {
    checked
        .iter()
        .filter(|c| c.accepted.is_none())
        .filter_map(|c| {
            Some(AuditFinding {
                finding: c.finding.clone(),
                name: c.name.clone()?,
                fix: c.fix.clone(),
                fingerprint: None,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::Severity;

    fn memory(name: &str, file: &str, body: &str) -> Memory {
        Memory {
            name: name.to_owned(),
            body: body.to_owned(),
            file: file.to_owned(),
            ..Memory::other_file(file, String::new())
        }
    }

    fn finding(name: &str, file: Option<&str>, fix: Fix) -> AuditFinding {
        AuditFinding {
            finding: Finding::new(
                "x",
                Severity::Warning,
                file.map(str::to_owned),
                String::new(),
            ),
            name: name.to_owned(),
            fix: Some(fix),
            fingerprint: None,
        }
    }

    fn date(phrase: &str, absolute: &str, at: usize) -> Fix {
        Fix::AbsoluteDate(DateEdit {
            phrase: phrase.to_owned(),
            absolute: absolute.to_owned(),
            field: DateField::Body,
            at,
        })
    }

    #[test]
    fn a_memory_gets_one_redaction_and_one_date_edit_and_a_group_one_dedupe() {
        let memories = [
            memory("a", "a.md", "ship today, review tomorrow"),
            memory("b", "b.md", "key"),
        ];
        let group = Fix::Dedupe {
            names: vec!["b".into(), "a".into()],
        };
        let findings = [
            finding("b", Some("b.md"), Fix::Redact),
            finding("a", Some("a.md"), date("tomorrow", "2026-01-02", 19)),
            finding("b", None, Fix::Redact),
            finding("a", None, date("today", "2026-01-01", 5)),
            finding("a", Some("a.md"), group.clone()),
            finding(
                "b",
                Some("b.md"),
                Fix::Dedupe {
                    names: vec!["a".into(), "b".into()],
                },
            ),
            finding("gone", Some("gone.md"), Fix::Redact),
            finding("a", Some("a.md"), Fix::OpenInEditor),
        ];
        let refs: Vec<&AuditFinding> = findings.iter().collect();
        let planned = plan(&memories, &refs);
        assert_eq!(planned.len(), 3, "{planned:?}");
        assert!(matches!(&planned[0], Planned::Redact { memory } if memory.file == "b.md"));
        assert!(matches!(&planned[1], Planned::Dedupe { names } if *names == ["b", "a"]));
        let Planned::Dates {
            memory,
            description,
            body,
            why,
        } = &planned[2]
        else {
            panic!("{planned:?}")
        };
        assert_eq!(memory.file, "a.md");
        assert_eq!(*description, None);
        assert_eq!(body.as_deref(), Some("ship 2026-01-01, review 2026-01-02"));
        assert!(why.contains("\"today\" → 2026-01-01"), "{why}");
    }

    #[test]
    fn a_date_no_longer_at_its_place_plans_nothing() {
        let memories = [memory("a", "a.md", "ship later")];
        let findings = [finding("a", Some("a.md"), date("today", "2026-01-01", 5))];
        let refs: Vec<&AuditFinding> = findings.iter().collect();
        assert!(plan(&memories, &refs).is_empty());
    }
}
