//! The proposals `check --fix` files on a Claude Code folder, the counterpart of
//! [`super::fix::proposals`]: the same fixes as file images, filed in the folder's state
//! directory through `review::claude::file_proposal`. Nothing here writes the folder.

use jiff::Timestamp;

use super::AuditFinding;
use super::fix::{DateEdit, Fix, apply_date_edits, fixable};
use super::report::Checked;
use crate::claude::ClaudeFolder;
use crate::claude::edit::{Changes, edit_topic};
use crate::claude::write::FileImage;
use crate::redact::{redact, redaction_evidence};
use crate::review::ReviewError;
use crate::review::claude::propose::{self, Read, TopicText};
use crate::review::claude::{self as review_claude, NewFiles};
use crate::review::proposal::{Kind, Origin, Proposal, ProposalStatus, images};

/// The proposals for `findings` against `read` (the folder as read now): one redaction and
/// one date edit per topic file at most, and one dedupe proposal per group that is not
/// already pending or rejected among `filed`. Findings of files that no longer read are
/// skipped.
pub fn claude_proposals(
    read: &Read,
    findings: &[&AuditFinding],
    filed: &[Proposal],
    now: Timestamp,
) -> Result<Vec<NewFiles>, ReviewError> {
    let mut out: Vec<NewFiles> = Vec::new();
    let mut redacted: Vec<&str> = Vec::new();
    let mut dated: Vec<(&TopicText, Vec<&DateEdit>)> = Vec::new();
    let mut groups: Option<Vec<NewFiles>> = None;
    for finding in findings {
        let Some(fix) = &finding.fix else { continue };
        let Some(source) = topic_of(read, finding) else {
            continue;
        };
        match fix {
            Fix::Redact if !redacted.contains(&source.topic.file.as_str()) => {
                redacted.push(&source.topic.file);
                let after = redact(&source.text).into_owned();
                if after != source.text {
                    let why = redaction_evidence(&source.text);
                    out.push(edit(source, after, why));
                }
            }
            Fix::Redact => {}
            Fix::AbsoluteDate(date) => {
                match dated
                    .iter_mut()
                    .find(|(t, _)| t.topic.file == source.topic.file)
                {
                    Some((_, edits)) => edits.push(date),
                    None => dated.push((source, vec![date])),
                }
            }
            Fix::Dedupe { names } => {
                if groups.is_none() {
                    groups = Some(propose::dedupe(read, now)?);
                }
                let Some(all) = groups.as_mut() else { continue };
                let wanted = sorted(names.iter().cloned());
                if let Some(i) = all
                    .iter()
                    .position(|g| sorted(images::source_names(&g.files)) == wanted)
                {
                    let group = all.remove(i);
                    let known = images::already_filed(&group.files, filed).is_some()
                        || out.iter().any(|o| {
                            o.kind == Kind::Consolidation
                                && sorted(images::source_names(&o.files)) == wanted
                        });
                    if !known {
                        out.push(group);
                    }
                }
            }
            Fix::OpenInEditor => {}
        }
    }
    for (source, edits) in dated {
        let topic = &source.topic;
        let mut description = topic.description().unwrap_or_default().to_owned();
        let mut body = topic.body().to_owned();
        apply_date_edits(&edits, &mut description, &mut body);
        let changes = Changes {
            description: (Some(description.as_str()) != topic.description()).then_some(description),
            body: (body != topic.body()).then_some(body),
            ..Changes::default()
        };
        if changes.description.is_none() && changes.body.is_none() {
            continue;
        }
        let after =
            edit_topic(&source.text, &changes, now).map_err(|e| ReviewError::ProposalInvalid {
                rule: e.to_string(),
            })?;
        if after != source.text {
            let phrases: Vec<String> = edits
                .iter()
                .map(|d| format!("{:?} → {}", d.phrase, d.absolute))
                .collect();
            out.push(edit(
                source,
                after,
                format!(
                    "relative dates replaced by the dates they meant when written: {}",
                    phrases.join(", ")
                ),
            ));
        }
    }
    // An edit still pending for the same file as read, for the same reason, is not filed again.
    out.retain(|new| {
        new.kind != Kind::Edit
            || !filed.iter().any(|p| {
                p.status == ProposalStatus::Pending
                    && p.kind == Kind::Edit
                    && p.evidence == new.evidence
                    && before_images(&p.files)
                        == before_images(&images::redacted(new.files.clone()))
            })
    });
    Ok(out)
}

fn before_images(files: &[FileImage]) -> Vec<(&str, Option<&str>)> {
    files
        .iter()
        .map(|f| (f.file.as_str(), f.before.as_deref()))
        .collect()
}

/// Files the proposals for the unaccepted content findings among `checked`, against the
/// folder as it reads now, in its state directory (`check --fix` and the workbench's `f`).
/// Applies nothing; an empty answer means no finding has a fix that is not already filed.
pub fn file_claude_fixes(
    folder: &ClaudeFolder,
    checked: &[&Checked],
) -> Result<Vec<Proposal>, ReviewError> {
    let read = propose::read(folder);
    let fixable = fixable(checked);
    let refs: Vec<&AuditFinding> = fixable.iter().collect();
    let filed = review_claude::list(folder)?.proposals;
    claude_proposals(&read, &refs, &filed, Timestamp::now())?
        .into_iter()
        .map(|new| review_claude::file_proposal(folder, new))
        .collect()
}

/// The topic file a finding is about: by its file, else by the memory's name.
fn topic_of<'a>(read: &'a Read, finding: &AuditFinding) -> Option<&'a TopicText> {
    let by_file = finding
        .finding
        .file
        .as_deref()
        .and_then(|file| read.topics.iter().find(|t| t.topic.file == file));
    by_file.or_else(|| read.topics.iter().find(|t| t.topic.name() == finding.name))
}

fn sorted(names: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut names: Vec<String> = names.into_iter().collect();
    names.sort();
    names
}

fn edit(source: &TopicText, after: String, why: String) -> NewFiles {
    NewFiles {
        kind: Kind::Edit,
        files: vec![FileImage {
            file: source.topic.file.clone(),
            before: Some(source.text.clone()),
            after: Some(after),
        }],
        origin: Origin::new("audit"),
        evidence: Some(why),
    }
}
