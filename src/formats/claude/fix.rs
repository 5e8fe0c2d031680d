//! Filing a fix in a Claude Code folder: an edit proposal of the topic file's text, before
//! and after, in the folder's state directory through `formats::claude::journal::file_proposal`.
//! Nothing here writes the folder.

use jiff::Timestamp;

use super::ClaudeBackend;
use super::journal::propose::{self, Read, TopicText};
use super::journal::{self as review_claude, NewFiles};
use crate::claude::ClaudeFolder;
use crate::claude::edit::{Changes, edit_topic};
use crate::claude::write::FileImage;
use crate::formats::fix::{FixPlanner, FixTarget, PlannedFix as Planned, file_planned, sorted};
use crate::memory::Memory;
use crate::redact::{redact, redaction_evidence};
use crate::review::ReviewError;
use crate::review::proposal::{Kind, Origin, Proposal, ProposalStatus, images};

/// A Claude Code folder as read now (with each topic file's exact text), with the proposals
/// already filed for it.
struct ClaudeFixes<'a> {
    folder: &'a ClaudeFolder,
    read: Read,
    memories: Vec<Memory>,
    filed: Vec<Proposal>,
    now: Timestamp,
    /// The dedupe groups of the folder, found once when a finding first asks for one.
    groups: Option<Vec<NewFiles>>,
}

impl<'a> ClaudeFixes<'a> {
    fn read(folder: &'a ClaudeFolder, now: Timestamp) -> Result<Self, ReviewError> {
        let read = propose::read(folder);
        Ok(Self {
            folder,
            memories: read.topics.iter().map(|t| t.topic.memory()).collect(),
            read,
            filed: review_claude::list(folder)?.proposals,
            now,
            groups: None,
        })
    }

    fn source(&self, memory: &Memory) -> Option<&TopicText> {
        self.read
            .topics
            .iter()
            .find(|t| t.topic.file == memory.file)
    }

    /// An edit still pending for the same file as read, for the same reason, is not filed
    /// again.
    fn pending(&self, new: &NewFiles) -> bool {
        self.filed.iter().any(|p| {
            p.status == ProposalStatus::Pending
                && p.kind == Kind::Edit
                && p.evidence == new.evidence
                && before_images(&p.files) == before_images(&images::redacted(new.files.clone()))
        })
    }

    fn dedupe(
        &mut self,
        names: &[String],
        proposed: &[NewFiles],
    ) -> Result<Option<NewFiles>, ReviewError> {
        if self.groups.is_none() {
            self.groups = Some(propose::dedupe(&self.read, self.now)?);
        }
        let Some(all) = self.groups.as_mut() else {
            return Ok(None);
        };
        let wanted = sorted(names);
        let Some(i) = all
            .iter()
            .position(|g| sorted(&images::source_names(&g.files)) == wanted)
        else {
            return Ok(None);
        };
        let group = all.remove(i);
        let known = images::already_filed(&group.files, &self.filed).is_some()
            || proposed.iter().any(|o| {
                o.kind == Kind::Consolidation && sorted(&images::source_names(&o.files)) == wanted
            });
        Ok((!known).then_some(group))
    }
}

impl FixTarget for ClaudeFixes<'_> {
    type New = NewFiles;

    fn memories(&self) -> &[Memory] {
        &self.memories
    }

    fn propose(
        &mut self,
        planned: Planned,
        proposed: &[NewFiles],
    ) -> Result<Option<NewFiles>, ReviewError> {
        let new = match planned {
            Planned::Redact { memory } => self.source(&memory).and_then(|source| {
                let after = redact(&source.text).into_owned();
                (after != source.text)
                    .then(|| edit(source, after, redaction_evidence(&source.text)))
            }),
            Planned::Dates {
                memory,
                description,
                body,
                why,
            } => match self.source(&memory) {
                None => None,
                Some(source) => {
                    let changes = Changes {
                        description,
                        body,
                        ..Changes::default()
                    };
                    let after = edit_topic(&source.text, &changes, self.now).map_err(|e| {
                        ReviewError::ProposalInvalid {
                            rule: e.to_string(),
                        }
                    })?;
                    (after != source.text).then(|| edit(source, after, why))
                }
            },
            Planned::Dedupe { names } => return self.dedupe(&names, proposed),
        };
        Ok(new.filter(|new| !self.pending(new)))
    }

    fn file(&self, new: NewFiles) -> Result<Proposal, ReviewError> {
        review_claude::file_proposal(self.folder, new)
    }
}

fn before_images(files: &[FileImage]) -> Vec<(&str, Option<&str>)> {
    files
        .iter()
        .map(|f| (f.file.as_str(), f.before.as_deref()))
        .collect()
}

impl ClaudeBackend<'_> {
    /// Files against the folder as it reads now, in its state directory; the folder is not
    /// written.
    pub(super) fn file_planned_fixes(
        &self,
        plan: FixPlanner<'_>,
    ) -> Result<Vec<Proposal>, ReviewError> {
        file_planned(&mut ClaudeFixes::read(self.folder, Timestamp::now())?, plan)
    }
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
