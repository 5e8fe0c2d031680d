//! Changes to a Claude Code folder from the workbench, run off the UI thread like [`super::jobs`]:
//! each is planned by `claude::edit` against the files as read, then applied by the write engine
//! as one journaled change (`formats::claude::journal::journaled`), which refuses it when a file changed
//! since it was read (the editor's conflict flow) or while Claude Code consolidates.

use std::sync::Arc;

use jiff::Timestamp;

use super::jobs::JobError;
use super::review::Review;
use crate::claude::edit::{self, Changes, IndexFix, NewMemory, TopicFile, TopicSummary};
use crate::claude::fsread::{MAX_FILE_BYTES, read_regular};
use crate::claude::index::{ARCHIVE_FILE, INDEX_FILE};
use crate::claude::write::FileWrite;
use crate::claude::{ClaudeError, ClaudeFolder, Snapshot};
use crate::content::fix::file_fixes;
use crate::content::report::Checked;
use crate::eval::{Case, FolderEval};
use crate::formats::claude::journal;
use crate::review::{Entry, EntryMeta, Op, ReviewError};

/// The four fields the editor edits, in its order (name, type, description, body).
pub type Fields = [String; 4];

/// What the text read is wanted for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadFor {
    Edit,
    External,
    Delete,
}

#[derive(Debug, Clone)]
pub enum ClaudeJob {
    Reload,
    /// Read a topic file's exact text (the base of an edit or a delete).
    Read {
        file: String,
        purpose: ReadFor,
    },
    /// Save the editor's fields: into `file` (whose text was `base`), or a new file.
    Save {
        file: Option<String>,
        base: Option<String>,
        fields: Fields,
    },
    /// Replace `file`'s whole text (an edit in `$EDITOR`), based on `base`.
    Replace {
        file: String,
        base: String,
        text: String,
    },
    /// Delete `file` (whose text was `base`) and its index lines.
    Remove {
        file: String,
        base: String,
    },
    /// Plan `index --fix`; nothing is written.
    PlanIndexFix,
    /// Write the planned fix (its texts are the bases).
    IndexFix(Box<IndexFix>),
    Undo(Box<Entry>),
    /// Append an eval case to the folder's cases (in its state directory).
    SaveCase(Case),
    /// Apply a pending proposal (`formats::claude::journal::approve`).
    Approve {
        id: String,
    },
    /// Save a reviewer's edit of what a pending proposal writes into `file`.
    EditProposal {
        id: String,
        opened: Vec<crate::claude::write::FileImage>,
        file: String,
        after: String,
    },
    /// Re-plan a stale pending proposal against the files as they are now.
    Rebase {
        id: String,
    },
    /// Close a pending proposal without applying it.
    Reject {
        id: String,
        reason: Option<String>,
    },
    /// Files the fix of one finding as a proposal in the state directory (`check --fix` for
    /// one finding); the folder is not written.
    FileFix(Box<Checked>),
}

super::jobs::from_shared!(ClaudeJob);

/// What a job gave, beside the folder and the journal as they are after it.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// Nothing to show but the status line.
    Done(String),
    /// A topic file's text, for [`ReadFor`].
    Read {
        file: String,
        text: String,
        purpose: ReadFor,
    },
    /// A written change; `select` is the topic file to select afterwards.
    Written {
        summary: String,
        select: Option<String>,
    },
    /// The fix `R` would write, to show before it does.
    Planned(Box<IndexFix>),
    /// A proposal's file edited by the reviewer.
    ProposalEdited { id: String },
    /// A proposal rebased: what the rebase changed, in the reviewer's words.
    Rebased { id: String, changes: String },
}

#[derive(Debug, Clone)]
pub struct ClaudeJobDone {
    pub job: ClaudeJob,
    pub result: Result<Outcome, ClaudeJobError>,
    /// The folder as it is after the job (`None`: the job only read it; what is shown stands).
    pub snapshot: Option<Arc<Snapshot>>,
    /// The proposals and the journal after the job (`None`: the job cannot change them).
    pub review: Option<Arc<Review>>,
}

/// A failed job; a conflict carries the file's text now (`None`: it is gone).
#[derive(Debug, Clone)]
pub struct ClaudeJobError {
    pub error: JobError,
    pub current: Option<String>,
}

impl From<ReviewError> for ClaudeJobError {
    fn from(e: ReviewError) -> Self {
        let current = match &e {
            ReviewError::Claude(ClaudeError::Conflict { current, .. }) => current.clone(),
            _ => None,
        };
        Self {
            error: e.into(),
            current,
        }
    }
}

impl From<ClaudeError> for ClaudeJobError {
    fn from(e: ClaudeError) -> Self {
        ReviewError::from(e).into()
    }
}

fn failed(message: String) -> ClaudeJobError {
    ClaudeJobError {
        error: JobError {
            message,
            conflict: false,
        },
        current: None,
    }
}

/// The exact text of `file` in the folder (`None`: absent).
fn read_text(folder: &ClaudeFolder, file: &str) -> Result<Option<String>, ClaudeJobError> {
    let path = folder.root().join(file);
    match read_regular(&path, MAX_FILE_BYTES) {
        Ok(None) => Ok(None),
        Ok(Some(bytes)) => String::from_utf8(bytes).map(Some).map_err(|_| {
            failed(format!(
                "{file} is not valid UTF-8: edit it as text elsewhere"
            ))
        }),
        Err(e) => Err(failed(e.to_string())),
    }
}

/// The planner's writes as the engine takes them.
fn engine(writes: Vec<edit::FileWrite>) -> Vec<FileWrite> {
    writes
        .into_iter()
        .map(|w| FileWrite {
            file: w.file,
            base: w.base,
            after: w.after,
        })
        .collect()
}

fn summary(images: &[crate::claude::write::FileImage]) -> String {
    crate::review::summary::files_summary(images)
}

fn write(
    folder: &ClaudeFolder,
    op: Op,
    writes: Vec<edit::FileWrite>,
    select: Option<String>,
) -> Result<Outcome, ClaudeJobError> {
    let meta = EntryMeta {
        op: Some(op),
        ..EntryMeta::default()
    };
    let (images, _) = journal::journaled(folder, engine(writes), meta)?;
    Ok(Outcome::Written {
        summary: summary(&images),
        select,
    })
}

fn edit_error(e: edit::EditError) -> ClaudeJobError {
    failed(e.to_string())
}

/// The changes the editor's fields make to the topic as it was read.
fn changes(fields: &Fields) -> Changes {
    let [name, kind, description, body] = fields.clone();
    Changes {
        name: Some(name),
        kind: Some(kind),
        description: Some(description),
        body: Some(body),
        fields: Vec::new(),
    }
}

impl ClaudeJob {
    /// Runs the job. One that only reads (the text to edit, the fix `R` shows) reads what it
    /// needs once and neither re-reads the folder nor the journal after it: the watcher reports
    /// what others change meanwhile.
    pub fn run(self, folder: &ClaudeFolder) -> ClaudeJobDone {
        let result = self.outcome(folder);
        let reads_only = matches!(self, Self::Read { .. } | Self::PlanIndexFix);
        let (snapshot, review) = if reads_only {
            (None, None)
        } else {
            let snapshot = Arc::new(folder.read());
            (Some(snapshot), Some(Arc::new(Review::load_claude(folder))))
        };
        ClaudeJobDone {
            job: self,
            result,
            snapshot,
            review,
        }
    }

    fn outcome(&self, folder: &ClaudeFolder) -> Result<Outcome, ClaudeJobError> {
        let now = Timestamp::now();
        match self {
            ClaudeJob::Reload => Ok(Outcome::Done("reloaded".into())),
            ClaudeJob::SaveCase(case) => {
                let saved = FolderEval::open(&crate::formats::Open::Claude(folder.clone()))
                    .and_then(|e| e.add_case(case.clone()));
                match saved {
                    Ok(_) => Ok(Outcome::Done(format!("{}: done", self.describe()))),
                    Err(e) => Err(failed(e.to_string())),
                }
            }
            ClaudeJob::Read { file, purpose } => match read_text(folder, file)? {
                Some(text) => Ok(Outcome::Read {
                    file: file.clone(),
                    text,
                    purpose: *purpose,
                }),
                None => Err(failed(format!("{file} is gone"))),
            },
            ClaudeJob::Save { file, base, fields } => {
                let index = read_text(folder, INDEX_FILE)?;
                let snapshot = folder.read();
                let existing: Vec<&str> = snapshot.topics.iter().map(|t| t.file.as_str()).collect();
                match (file, base) {
                    (Some(file), Some(base)) => {
                        let topic = TopicFile { file, text: base };
                        let (moved, writes) = edit::plan_edit(
                            topic,
                            index.as_deref(),
                            &changes(fields),
                            Some(&existing),
                            now,
                        )
                        .map_err(edit_error)?;
                        write(folder, Op::Set, writes, Some(moved))
                    }
                    _ => {
                        let [name, kind, description, body] = fields.clone();
                        let memory = NewMemory {
                            name,
                            kind,
                            description,
                            body,
                        };
                        let (file, writes) =
                            edit::plan_add(&memory, index.as_deref(), &existing, now)
                                .map_err(edit_error)?;
                        write(folder, Op::Add, writes, Some(file))
                    }
                }
            }
            ClaudeJob::Replace { file, base, text } => {
                let writes = vec![edit::FileWrite {
                    file: file.clone(),
                    base: Some(base.clone()),
                    after: Some(text.clone()),
                }];
                write(folder, Op::Set, writes, Some(file.clone()))
            }
            ClaudeJob::Remove { file, base } => {
                let index = read_text(folder, INDEX_FILE)?;
                let writes = edit::plan_rm(&[TopicFile { file, text: base }], index.as_deref());
                write(folder, Op::Rm, writes, None)
            }
            ClaudeJob::PlanIndexFix => {
                let index = read_text(folder, INDEX_FILE)?;
                let archive = read_text(folder, ARCHIVE_FILE)?;
                let snapshot = folder.read();
                let fix = edit::plan_index_fix(
                    index.as_deref(),
                    archive.as_deref(),
                    &TopicSummary::all(&snapshot),
                    folder.limits(),
                );
                Ok(Outcome::Planned(Box::new(fix)))
            }
            ClaudeJob::IndexFix(fix) => {
                let writes = [Some(&fix.index), fix.archive.as_ref()]
                    .into_iter()
                    .flatten()
                    .filter(|change| change.changed())
                    .map(|change| edit::FileWrite {
                        file: change.file.clone(),
                        base: change.before.clone(),
                        after: Some(change.after.clone()),
                    })
                    .collect();
                write(folder, Op::RebuildIndex, writes, None)
            }
            ClaudeJob::Undo(entry) => {
                let (images, _) = journal::undo(folder, entry)?;
                Ok(Outcome::Written {
                    summary: summary(&images),
                    select: None,
                })
            }
            ClaudeJob::Approve { id } => {
                let approved = journal::approve(folder, id)?;
                Ok(Outcome::Written {
                    summary: summary(&approved.files),
                    select: None,
                })
            }
            ClaudeJob::EditProposal {
                id,
                opened,
                file,
                after,
            } => {
                journal::edit_file(folder, id, opened, file, after.clone())?;
                Ok(Outcome::ProposalEdited { id: id.clone() })
            }
            ClaudeJob::Rebase { id } => {
                let rebased = journal::rebase(folder, id)?;
                Ok(Outcome::Rebased {
                    id: id.clone(),
                    changes: rebased.changes.join("; "),
                })
            }
            ClaudeJob::Reject { id, reason } => {
                journal::reject(folder, id, reason.clone())?;
                Ok(Outcome::Done(format!(
                    "rejected {id}; the folder is unchanged"
                )))
            }
            ClaudeJob::FileFix(checked) => {
                let filed = file_fixes(
                    &*crate::formats::Open::Claude(folder.clone()).backend(),
                    &[checked.as_ref()],
                )?;
                if filed.is_empty() {
                    return Err(failed(
                        "nothing to propose: the fix is already filed or in place".into(),
                    ));
                }
                let ids: Vec<&str> = filed.iter().map(|p| p.id.as_str()).collect();
                // Worded as a proposal filed from elsewhere is announced on `.memory`.
                Ok(Outcome::Done(format!(
                    "new proposal: {}; {} shows it",
                    ids.join(", "),
                    super::keymap::label(
                        super::keymap::Scope::Global,
                        super::keymap::Action::ShowProposals
                    )
                )))
            }
        }
    }

    pub fn describe(&self) -> String {
        match self {
            ClaudeJob::Reload => "reload".into(),
            ClaudeJob::Read { file, .. } => format!("read {file}"),
            // Said by memory name, as on every format: a rename as such.
            ClaudeJob::Save {
                file: Some(file),
                base,
                fields,
            } => {
                let before = base.as_deref().map(|text| TopicFile { file, text }.name());
                match before {
                    Some(before) if before != fields[0] => {
                        format!("rename {before} to {}", fields[0])
                    }
                    _ => format!("save {}", fields[0]),
                }
            }
            ClaudeJob::Save { fields, .. } => format!("add {}", fields[0]),
            ClaudeJob::Replace { file, text, .. } => {
                format!("save {}", TopicFile { file, text }.name())
            }
            ClaudeJob::Remove { file, base } => {
                format!("delete {}", TopicFile { file, text: base }.name())
            }
            ClaudeJob::PlanIndexFix => "plan the MEMORY.md fix".into(),
            ClaudeJob::IndexFix(_) => "fix MEMORY.md".into(),
            ClaudeJob::Undo(entry) => format!("undo #{}", entry.id),
            ClaudeJob::SaveCase(case) => format!("save eval case '{}'", case.label()),
            ClaudeJob::Approve { id } => format!("approve {id}"),
            ClaudeJob::EditProposal { id, .. } => format!("edit proposal {id}"),
            ClaudeJob::Rebase { id } => format!("rebase {id}"),
            ClaudeJob::Reject { id, .. } => format!("reject {id}"),
            ClaudeJob::FileFix(checked) => format!(
                "file the {} for {}",
                checked.fix.as_ref().map_or("fix", |f| f.describe()),
                checked.name.as_deref().unwrap_or(checked.finding.code)
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{ClaudeJob, Outcome, ReadFor};
    use crate::claude::{ClaudeFolder, LoadLimits};

    fn folder_of_one_topic() -> (tempfile::TempDir, ClaudeFolder) {
        let dir = tempfile::tempdir().expect("temp dir");
        let topic = "---\nname: role\ndescription: what I do\ntype: user\n---\nI review code.\n";
        std::fs::write(dir.path().join("user_role.md"), topic).expect("write topic");
        std::fs::write(
            dir.path().join("MEMORY.md"),
            "- [role](user_role.md) - what I do\n",
        )
        .expect("write index");
        let folder = ClaudeFolder::open(dir.path(), LoadLimits::default()).expect("open");
        (dir, folder)
    }

    #[test]
    fn a_job_that_only_reads_reads_neither_the_folder_nor_the_journal_after_it() {
        let (_dir, folder) = folder_of_one_topic();
        for job in [
            ClaudeJob::PlanIndexFix,
            ClaudeJob::Read {
                file: "user_role.md".into(),
                purpose: ReadFor::Edit,
            },
        ] {
            let done = job.run(&folder);
            assert!(done.result.is_ok(), "{:?}", done.result);
            assert!(
                done.snapshot.is_none(),
                "{:?} read the folder again",
                done.job
            );
            assert!(
                done.review.is_none(),
                "{:?} read the journal again",
                done.job
            );
        }
        let read = ClaudeJob::Read {
            file: "user_role.md".into(),
            purpose: ReadFor::Edit,
        };
        let Ok(Outcome::Read { text, .. }) = read.run(&folder).result else {
            panic!("the topic's text");
        };
        assert!(text.contains("I review code."), "{text}");
        // A reload is a reading of both, which the app shows in place of its own.
        let reload = ClaudeJob::Reload.run(&folder);
        let snapshot = reload.snapshot.expect("a reload reads the folder");
        assert_eq!(snapshot.topics.len(), 1);
        assert!(reload.review.is_some(), "a reload reads the journal");
    }
}
