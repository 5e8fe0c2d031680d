//! Engine calls. The engine is synchronous; the event loop runs each job with
//! `tokio::task::spawn_blocking` and feeds the result back as an event. Tests run them inline.
//!
//! Every change is journaled like the CLI's (`formats::memory::journal::journaled_op`), and approving, rejecting
//! and undoing go through the review gate's own functions.

use std::sync::Arc;

use super::claude_jobs::{ClaudeJob, ClaudeJobDone};
use super::review::Review;
use crate::content::fix::file_fixes;
use crate::content::report::Checked;
use crate::eval::{self, Case, EvalError};
use crate::formats::Open as Backend;
use crate::formats::Shown;
use crate::formats::memory::MemoryBackend;
use crate::formats::memory::journal::{self, journaled_op, strays};
use crate::review::{Entry, Op, ReviewError};
use crate::store::inspect::Inspection;
use crate::store::{Commit, Record, Store, StoreError, Touched};

/// A job on the open folder. What every format does is asked for once, in [`Shared`]'s words,
/// whatever folder is open; what only one format's screens ask for (their editors' payloads
/// differ) is in that format's terms. Binding it is the one place the workbench's work branches
/// by format, until the write side is on `formats::Backend` (docs/architecture.md, "Backends").
#[derive(Debug, Clone)]
pub enum Job {
    Shared(Shared),
    Memory(MemoryJob),
    Claude(ClaudeJob),
}

/// A job every format runs: [`Job::bind`] hands it to the open folder's own job.
#[derive(Debug, Clone)]
pub enum Shared {
    /// Read the folder and its journal again.
    Reload,
    /// Apply a pending proposal through the engine.
    Approve { id: String },
    /// Close a pending proposal without applying it.
    Reject { id: String, reason: Option<String> },
    /// Undo a journal entry.
    Undo(Box<Entry>),
    /// Re-plan a stale pending proposal against the folder as it is now.
    Rebase { id: String },
    /// Append an eval case to the folder's cases.
    SaveCase(Case),
    /// File the fix of one finding as a proposal (`check --fix` for one finding).
    FileFix(Box<Checked>),
}

/// `From<Shared>` for a format's own job, which has a variant of each [`Shared`] job's name
/// and fields.
macro_rules! from_shared {
    ($job:ty) => {
        impl From<$crate::tui::jobs::Shared> for $job {
            fn from(job: $crate::tui::jobs::Shared) -> Self {
                use $crate::tui::jobs::Shared;
                match job {
                    Shared::Reload => Self::Reload,
                    Shared::Approve { id } => Self::Approve { id },
                    Shared::Reject { id, reason } => Self::Reject { id, reason },
                    Shared::Undo(entry) => Self::Undo(entry),
                    Shared::Rebase { id } => Self::Rebase { id },
                    Shared::SaveCase(case) => Self::SaveCase(case),
                    Shared::FileFix(checked) => Self::FileFix(checked),
                }
            }
        }
    };
}
pub(crate) use from_shared;

from_shared!(MemoryJob);

impl From<Shared> for Job {
    fn from(job: Shared) -> Self {
        Self::Shared(job)
    }
}

impl From<MemoryJob> for Job {
    fn from(job: MemoryJob) -> Self {
        Self::Memory(job)
    }
}

/// A job finished: what it did and the folder as it is after it.
#[derive(Debug, Clone)]
pub enum JobDone {
    Memory(MemoryJobDone),
    Claude(ClaudeJobDone),
}

impl From<MemoryJobDone> for JobDone {
    fn from(done: MemoryJobDone) -> Self {
        Self::Memory(done)
    }
}

impl From<ClaudeJobDone> for JobDone {
    fn from(done: ClaudeJobDone) -> Self {
        Self::Claude(done)
    }
}

/// A job ready to run off the UI thread.
pub type Bound = Box<dyn FnOnce() -> JobDone + Send>;

impl Job {
    /// The job bound to `backend`, the folder open (`None`: it was made for a folder of another
    /// format, no longer open). A `.memory` job reads the set after it on top of `shown` (the
    /// reading the app shows and how many readings the watcher had delivered), as
    /// [`MemoryJob::run_from`] says.
    pub fn bind(self, backend: &Backend, shown: (Shown, u64)) -> Option<Bound> {
        match backend {
            Backend::Memory(store) => {
                let job = match self {
                    Job::Shared(job) => job.into(),
                    Job::Memory(job) => job,
                    _ => return None,
                };
                let store = store.clone();
                let (shown, readings) = (shown.0.inspection().cloned(), shown.1);
                Some(Box::new(move || {
                    let base = shown.as_deref().map(|shown| (shown, readings));
                    JobDone::Memory(job.run_from(&store, base))
                }))
            }
            Backend::Claude(folder) => {
                let job = match self {
                    Job::Shared(job) => job.into(),
                    Job::Claude(job) => job,
                    _ => return None,
                };
                let folder = folder.clone();
                Some(Box::new(move || JobDone::Claude(job.run(&folder))))
            }
        }
    }
}

#[derive(Debug, Clone)]
pub enum MemoryJob {
    Reload,
    /// `base` is the version the editor opened (`None` for a new record).
    Save {
        base: Option<Record>,
        edited: Record,
    },
    Remove(Record),
    /// Writes MEMORY.md as the manifest derives it, if that is still `shown` (what `R` showed).
    RebuildIndex {
        shown: String,
    },
    Approve {
        id: String,
    },
    Reject {
        id: String,
        reason: Option<String>,
    },
    /// Replaces a pending proposal's records (a reviewer's edit).
    EditProposal {
        id: String,
        /// The proposal's records as the editor opened them: the base of the edit.
        opened: Vec<Record>,
        records: Vec<Record>,
    },
    Undo(Box<Entry>),
    /// Lists an unlisted record file in the set as it is, if it still holds `seen`.
    Adopt {
        file: String,
        seen: Vec<u8>,
    },
    /// Deletes a file in `.memory` outside the set (unlisted or temp), if it still holds `seen`.
    RemoveStray {
        file: String,
        seen: Vec<u8>,
    },
    /// Re-plans a stale pending proposal against the current records.
    Rebase {
        id: String,
    },
    /// Fixes a manifest entry that does not read with a record parsed from its edited text.
    Repair {
        file: String,
        seen: Option<Vec<u8>>,
        replacement: Record,
    },
    /// Appends an eval case to the set's case file.
    SaveCase(Case),
    /// Drops a manifest entry that does not read, if its text is still `seen` (what the
    /// confirmation showed; `None`: it was missing or unreadable).
    DropEntry {
        file: String,
        seen: Option<String>,
    },
    /// Files the fix of one finding as a proposal (`check --fix` for one finding).
    FileFix(Box<Checked>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobError {
    pub message: String,
    /// The record changed or vanished since it was read ("memory collection changed").
    pub conflict: bool,
}

impl From<EvalError> for JobError {
    fn from(e: EvalError) -> Self {
        Self {
            conflict: false,
            message: e.to_string(),
        }
    }
}

impl From<ReviewError> for JobError {
    fn from(e: ReviewError) -> Self {
        Self {
            conflict: e.is_conflict(),
            message: e.to_string(),
        }
    }
}

#[derive(Debug, Clone)]
pub struct MemoryJobDone {
    pub job: MemoryJob,
    pub result: Result<Commit, JobError>,
    /// The folder as it is after the job, so the panes update without waiting on the watcher.
    pub inspection: Arc<Inspection>,
    /// The proposals and the journal after the job.
    pub review: Arc<Review>,
    /// What the job did beyond its commit, for the status line (a rebase's changes).
    pub note: Option<String>,
    /// Set when `inspection` was read incrementally ([`MemoryJob::run_from`]): how many readings the
    /// watcher had delivered to the app when the job started.
    pub read_from: Option<u64>,
}

impl MemoryJob {
    /// Runs the job and reads the whole folder after it.
    pub fn run(self, store: &Store) -> MemoryJobDone {
        self.run_from(store, None)
    }

    /// Runs the job; with `shown` (the reading the app shows, which a watcher keeps current, and
    /// the count of readings it has delivered), the folder is read after it as the watcher
    /// reads it after a commit ([`Store::reinspect`]): only the record files the manifest now
    /// lists and `shown` did not hold are read. A reload reads everything.
    pub fn run_from(self, store: &Store, shown: Option<(&Inspection, u64)>) -> MemoryJobDone {
        let shown = shown.filter(|_| !matches!(self, MemoryJob::Reload));
        let result = match &self {
            MemoryJob::SaveCase(case) => {
                let saved = eval::FolderEval::open(&crate::formats::Open::Memory(store.clone()))
                    .and_then(|folder| folder.add_case(case.clone()));
                return self.done(
                    store,
                    shown,
                    saved.map(|_| Commit::default()).map_err(JobError::from),
                );
            }
            MemoryJob::Reload => Ok(Commit::default()),
            MemoryJob::Adopt { file, seen } => strays::adopt(store, file, seen),
            MemoryJob::RemoveStray { file, seen } => {
                strays::delete(store, file, seen).map(|_| Commit::default())
            }
            MemoryJob::Rebase { id } => {
                let rebased = journal::rebase(store, id);
                let note = rebased.as_ref().ok().map(|r| r.changes.join("; "));
                let result = rebased.map(|_| Commit::default()).map_err(JobError::from);
                let mut done = self.done(store, shown, result);
                done.note = note;
                return done;
            }
            MemoryJob::FileFix(checked) => {
                match file_fixes(&MemoryBackend::new(store), &[checked.as_ref()]) {
                    Ok(filed) if filed.is_empty() => {
                        return self.done(
                            store,
                            shown,
                            Err(JobError {
                                message: "nothing to propose: the fix is already in place".into(),
                                conflict: false,
                            }),
                        );
                    }
                    Ok(_) => Ok(Commit::default()),
                    Err(e) => Err(e),
                }
            }
            MemoryJob::Save {
                base: Some(base),
                edited,
            } => journaled_op(store, Op::Set, |s| s.replace(base, edited.clone())),
            MemoryJob::Save { base: None, edited } => {
                journaled_op(store, Op::Add, |s| s.extend(vec![edited.clone()]))
            }
            MemoryJob::Remove(record) => {
                journaled_op(store, Op::Rm, |s| s.remove(std::slice::from_ref(record)))
            }
            MemoryJob::RebuildIndex { shown } => journaled_op(store, Op::RebuildIndex, |s| {
                if s.read()?.index_text() != *shown {
                    return Err(StoreError::Conflict {
                        detail: "the set changed since the fix was shown; R shows it again".into(),
                    });
                }
                s.rebuild_index()
            }),
            MemoryJob::Approve { id } => journal::approve(store, id).map(|(commit, _)| commit),
            MemoryJob::Reject { id, reason } => {
                journal::reject(store, id, reason.clone()).map(|_| Commit::default())
            }
            MemoryJob::EditProposal {
                id,
                opened,
                records,
            } => {
                journal::edit_records(store, id, opened, records.clone()).map(|_| Commit::default())
            }
            MemoryJob::Undo(entry) => journal::undo(store, entry).map(|(commit, _)| commit),
            MemoryJob::Repair {
                file,
                seen,
                replacement,
            } => journaled_op(store, Op::Repair, |s| {
                s.repair_entry(file, seen.as_deref(), Some(replacement.clone()))
            }),
            MemoryJob::DropEntry { file, seen } => {
                let now = store.entry_bytes(file);
                let shown = now.as_deref().map(String::from_utf8_lossy);
                if shown.as_deref() != seen.as_deref() {
                    Err(StoreError::Conflict {
                        detail: format!(
                            "{file} changed since it was shown; look again before dropping it"
                        ),
                    }
                    .into())
                } else {
                    journaled_op(store, Op::Repair, |s| {
                        s.repair_entry(file, now.as_deref(), None)
                    })
                }
            }
        }
        .map_err(JobError::from);
        self.done(store, shown, result)
    }

    fn done(
        self,
        store: &Store,
        shown: Option<(&Inspection, u64)>,
        result: Result<Commit, JobError>,
    ) -> MemoryJobDone {
        let inspection = match shown {
            Some((shown, _)) => store.reinspect(shown, &Touched::default()),
            None => store.inspect(),
        };
        MemoryJobDone {
            job: self,
            result,
            inspection: Arc::new(inspection),
            review: Arc::new(Review::load(store)),
            note: None,
            read_from: shown.map(|(_, readings)| readings),
        }
    }

    pub fn describe(&self) -> String {
        match self {
            MemoryJob::Reload => "reload".into(),
            MemoryJob::SaveCase(case) => format!("save eval case '{}'", case.label()),
            MemoryJob::Save {
                base: Some(b),
                edited,
            } if b.name() != edited.name() => {
                format!("rename {} to {}", b.name(), edited.name())
            }
            MemoryJob::Save {
                base: Some(_),
                edited,
            } => format!("save {}", edited.name()),
            MemoryJob::Save { base: None, edited } => format!("add {}", edited.name()),
            MemoryJob::Remove(r) => format!("delete {}", r.name()),
            MemoryJob::RebuildIndex { .. } => "fix MEMORY.md".into(),
            MemoryJob::Approve { id } => format!("approve {id}"),
            MemoryJob::Reject { id, .. } => format!("reject {id}"),
            MemoryJob::EditProposal { id, .. } => format!("edit proposal {id}"),
            MemoryJob::Undo(entry) => format!("undo #{}", entry.id),
            MemoryJob::Rebase { id } => format!("rebase {id}"),
            MemoryJob::Adopt { file, .. } => format!("adopt {file}"),
            MemoryJob::RemoveStray { file, .. } => format!("delete {file}"),
            MemoryJob::Repair { file, .. } => format!("repair {file}"),
            MemoryJob::DropEntry { file, .. } => format!("drop {file} from the manifest"),
            MemoryJob::FileFix(checked) => format!(
                "file the {} for {}",
                checked.fix.as_ref().map_or("fix", |f| f.describe()),
                checked.name.as_deref().unwrap_or(checked.finding.code)
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::MemoryJob;
    use crate::store::{MemoryType, Record, Store, StoreOptions};
    use crate::tui::app::{App, Event};
    use crate::tui::theme::Theme;

    fn record(name: &str, body: &str) -> Record {
        Record::new(name, MemoryType::Project, "a fact", body).expect("valid record")
    }

    /// A store of two records, and the first one's file edited in place behind memwb's back
    /// after `shown` was read (so only a full read sees the edit).
    fn edited_behind_the_reading() -> (
        tempfile::TempDir,
        Store,
        Arc<crate::store::inspect::Inspection>,
    ) {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open(dir.path(), StoreOptions::default()).expect("open");
        store
            .extend(vec![record("one", "first"), record("two", "second")])
            .expect("extend");
        let shown = Arc::new(store.inspect());
        let path = store.root().join(&shown.entries[0].file);
        let text = std::fs::read_to_string(&path).expect("read");
        std::fs::write(&path, text.replace("first", "FIRST")).expect("edit in place");
        (dir, store, shown)
    }

    fn body_of_one(inspection: &crate::store::inspect::Inspection) -> String {
        inspection
            .valid_records()
            .find(|r| r.name() == "one")
            .map(|r| r.body().to_owned())
            .unwrap_or_default()
    }

    #[test]
    fn a_commit_reads_only_what_it_changed_on_top_of_the_shown_reading() {
        let (_dir, store, shown) = edited_behind_the_reading();
        let add = MemoryJob::Save {
            base: None,
            edited: record("three", "third"),
        };
        let done = add.clone().run_from(&store, Some((&shown, 7)));
        assert!(done.result.is_ok(), "{:?}", done.result);
        assert_eq!(done.read_from, Some(7));
        let names: Vec<&str> = done.inspection.valid_records().map(Record::name).collect();
        assert_eq!(names, ["one", "two", "three"]);
        // The untouched entry came from the shown reading, unread: the edit is not in it.
        assert_eq!(done.inspection.entries[0], shown.entries[0]);
        assert_eq!(body_of_one(&done.inspection), "first");
        // Without a reading to build on, everything is read.
        let full = MemoryJob::Remove(record("three", "third")).run(&store);
        assert_eq!(full.read_from, None);
        assert_eq!(body_of_one(&full.inspection), "FIRST");
    }

    #[test]
    fn a_reload_reads_everything_even_on_top_of_a_reading() {
        let (_dir, store, shown) = edited_behind_the_reading();
        let done = MemoryJob::Reload.run_from(&store, Some((&shown, 0)));
        assert_eq!(done.read_from, None);
        assert_eq!(*done.inspection, store.inspect());
        assert_eq!(body_of_one(&done.inspection), "FIRST");
    }

    #[test]
    fn a_jobs_reading_yields_to_one_the_watcher_delivered_while_it_ran() {
        let (_dir, store, shown) = edited_behind_the_reading();
        let add = MemoryJob::Save {
            base: None,
            edited: record("three", "third"),
        };
        // The watcher delivered nothing meanwhile: the job's reading is shown.
        let mut app = App::new(store.clone(), shown.clone(), Theme::plain());
        let done = add
            .clone()
            .run_from(&store, Some((&shown, app.watch_readings)));
        app.update(Event::Job(Box::new(done.into())));
        let inspection = |app: &App| app.shown.inspection().cloned().expect(".memory");
        assert_eq!(inspection(&app).valid_records().count(), 3);
        // It did (say, the hand edit): that reading stands; the watcher reports the commit too.
        let mut app = App::new(store.clone(), shown.clone(), Theme::plain());
        let done = MemoryJob::Remove(record("three", "third")).run_from(&store, Some((&shown, 0)));
        let watched = Arc::new(store.inspect());
        app.watch_readings = 1;
        app.shown = watched.clone().into();
        app.update(Event::Job(Box::new(done.into())));
        assert!(Arc::ptr_eq(&inspection(&app), &watched));
        assert_eq!(body_of_one(&inspection(&app)), "FIRST");
    }

    #[test]
    fn a_job_runs_only_on_a_folder_of_its_own_format() {
        let (_dir, store, shown) = edited_behind_the_reading();
        let backend = super::Backend::Memory(store);
        let other = super::Job::Claude(crate::tui::claude_jobs::ClaudeJob::Reload);
        assert!(other.bind(&backend, (shown.clone().into(), 0)).is_none());
        let add = super::Job::Memory(MemoryJob::Save {
            base: None,
            edited: record("three", "third"),
        });
        let job = add
            .bind(&backend, (shown.into(), 4))
            .expect("a .memory job on a .memory set");
        let super::JobDone::Memory(done) = job() else {
            panic!("a .memory job gives a .memory result");
        };
        assert!(done.result.is_ok(), "{:?}", done.result);
        // It read on top of the reading it was given, as the event loop's jobs do.
        assert_eq!(done.read_from, Some(4));
        let names: Vec<&str> = done.inspection.valid_records().map(Record::name).collect();
        assert_eq!(names, ["one", "two", "three"]);
    }

    #[test]
    fn a_shared_job_runs_as_the_open_folders_own() {
        let (_dir, store, shown) = edited_behind_the_reading();
        let memory = super::Backend::Memory(store);
        let reload = super::Job::from(super::Shared::Reload);
        let done = reload
            .clone()
            .bind(&memory, (shown.clone().into(), 0))
            .expect("binds");
        assert!(matches!(done(), super::JobDone::Memory(d) if matches!(d.job, MemoryJob::Reload)));
        let claude_dir = tempfile::tempdir().expect("temp dir");
        let limits = crate::claude::LoadLimits::default();
        let folder = crate::claude::ClaudeFolder::open(claude_dir.path(), limits).expect("open");
        let claude = super::Backend::Claude(folder);
        let done = reload.bind(&claude, (shown.into(), 0)).expect("binds");
        let super::JobDone::Claude(done) = done() else {
            panic!("a shared job on a Claude Code folder runs as its job");
        };
        assert!(
            matches!(done.job, super::ClaudeJob::Reload),
            "{:?}",
            done.job
        );
        assert!(done.result.is_ok());
    }
}
