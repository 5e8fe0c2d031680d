//! What fixes a finding, and the proposals `check --fix` files for it. Nothing here applies a
//! change: each fix is a proposal a person approves or rejects.

use super::AuditFinding;
use super::report::Checked;
use crate::redact::records::redact_record;
use crate::redact::redaction_evidence;
use crate::review::dedupe::find_groups;
use crate::review::{NewProposal, Origin, Plan, Proposal, ReviewError, proposal};
use crate::store::{MemorySet, Record, Store};

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

/// The proposals for `findings` against `seen` (the set they were found in), one per
/// record and kind of fix: a record's relative dates are corrected in one edit, so approving
/// one never makes another stale. Findings of records not in `seen` are skipped.
pub fn proposals(seen: &MemorySet, findings: &[&AuditFinding]) -> Vec<NewProposal> {
    let mut out = Vec::new();
    let mut dated: Vec<(&str, Vec<&DateEdit>)> = Vec::new();
    for finding in findings {
        let Some(fix) = &finding.fix else { continue };
        let name = finding.name.as_str();
        match fix {
            Fix::Redact => {
                if let Some(record) = seen.get(name).map(|e| &e.record)
                    && let Some(redacted) = redact_record(record)
                    && redacted != *record
                {
                    let why = redaction_evidence(&record.to_file_text());
                    out.push(edit(seen, record, redacted, &why));
                }
            }
            Fix::AbsoluteDate(date) => match dated.iter_mut().find(|(n, _)| *n == name) {
                Some((_, edits)) => edits.push(date),
                None => dated.push((name, vec![date])),
            },
            Fix::Dedupe { names } => {
                if let Some(group) = find_groups(seen).into_iter().find(|g| {
                    g.sources
                        .iter()
                        .map(Record::name)
                        .eq(names.iter().map(String::as_str))
                }) {
                    out.push(dedupe_proposal(seen, group));
                }
            }
            Fix::OpenInEditor => {}
        }
    }
    for (name, edits) in dated {
        let Some(record) = seen.get(name).map(|e| &e.record) else {
            continue;
        };
        let mut body = record.body().to_owned();
        let mut description = record.description().to_owned();
        apply_date_edits(&edits, &mut description, &mut body);
        if let Ok(edited) = Record::new(name, record.kind(), description, body)
            && edited != *record
        {
            let phrases: Vec<String> = edits
                .iter()
                .map(|d| format!("{:?} → {}", d.phrase, d.absolute))
                .collect();
            out.push(edit(
                seen,
                record,
                edited,
                &format!(
                    "relative dates replaced by the dates they meant when written: {}",
                    phrases.join(", ")
                ),
            ));
        }
    }
    out
}

/// Files the proposals for the unaccepted content findings among `checked`, against the set
/// as it reads now, and returns them as filed (`check --fix` and the workbench's `f`). Applies
/// nothing; an empty answer means no finding has a fix that is not already in place.
pub fn file_fixes(store: &Store, checked: &[&Checked]) -> Result<Vec<Proposal>, ReviewError> {
    let seen = store.read()?;
    let fixable = fixable(checked);
    let refs: Vec<&AuditFinding> = fixable.iter().collect();
    // A dedupe group already pending or rejected is not filed again, as `propose dedupe` says.
    let filed = proposal::list(store)?;
    proposals(&seen, &refs)
        .into_iter()
        .filter(|new| {
            new.origin.source != "dedupe"
                || proposal::already_filed(&new.plan, &filed, &seen).is_none()
        })
        .map(|new| proposal::file(store, new))
        .collect()
}

/// The unaccepted content findings among `checked`, as the audit found them.
pub(super) fn fixable(checked: &[&Checked]) -> Vec<AuditFinding> {
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

fn edit(seen: &MemorySet, record: &Record, edited: Record, why: &str) -> NewProposal {
    NewProposal {
        plan: Plan::Consolidation {
            source_names: vec![record.name().to_owned()],
            records: vec![edited],
        },
        origin: Origin::new("audit"),
        seen: seen.clone(),
        additions: Vec::new(),
        evidence: Some(why.to_owned()),
    }
}

/// The proposal `propose dedupe` files for one group, also filed by `check --fix`.
pub fn dedupe_proposal(seen: &MemorySet, group: crate::review::dedupe::Group) -> NewProposal {
    NewProposal {
        plan: Plan::Consolidation {
            source_names: group.sources.iter().map(|r| r.name().to_owned()).collect(),
            records: vec![group.draft],
        },
        origin: Origin::new("dedupe"),
        seen: seen.clone(),
        additions: Vec::new(),
        evidence: Some(format!(
            "near-duplicates sharing the words: {}; the merged record is a draft to edit",
            group.shared_words.join(", ")
        )),
    }
}
