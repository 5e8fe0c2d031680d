//! The workbench's jobs: one enum, each job run through the open folder's backend
//! (`formats::Backend`), written once whatever the format. The engine is synchronous; the event
//! loop runs each job with `tokio::task::spawn_blocking` and feeds the result back as an
//! event. Tests run them inline.
//!
//! Every change is journaled by the backend, compare-and-swap against what was shown or
//! opened; approving, rejecting and undoing go through the review gate's own methods.

use std::sync::Arc;

use super::app::Reading;
use super::review::Review;
use crate::content::fix::file_fixes;
use crate::content::report::Checked;
use crate::eval::{Case, EvalError, FolderEval};
use crate::formats::{
    Decided, EditorChange, FormatError, IndexPlan, Open, SavedFile, Shown, Written, not_journaled,
};
use crate::review::{Entry, ReviewError};

/// What a memory file's text is read for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadFor {
    /// The editor opens on it.
    Edit,
    /// `$VISUAL`/`$EDITOR` is handed it.
    EditExternally,
    /// The deletion is asked, based on it.
    Delete,
}

/// A job on the open folder.
#[derive(Debug, Clone)]
pub enum Job {
    /// Read the folder and its journal again.
    Reload,
    /// Read a memory file's exact text (the base of an edit or a delete); nothing else is
    /// read.
    Read { file: String, purpose: ReadFor },
    /// Plan `R`'s fix of the index; nothing is written or read again.
    PlanIndexFix,
    /// Write the fix `R` showed, if it is still the fix.
    IndexFix(Box<IndexPlan>),
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
    /// Write a change an editor made (or a question answered yes).
    Edit(EditorChange),
}

impl From<EditorChange> for Job {
    fn from(change: EditorChange) -> Self {
        Self::Edit(change)
    }
}

/// What a job gave, beside the folder and the journal as they are after it.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// Done, with nothing written to the folder's memories (the status says so).
    Done,
    /// A file's text, for [`ReadFor`].
    Read {
        file: String,
        text: String,
        purpose: ReadFor,
    },
    /// A written change, in words; `select` is the list's key to select afterwards;
    /// `warning`, what about it needs a look (its journal entry could not be marked, it is not
    /// yet durable); `saved`, the memory file a save wrote; `notes`, what a person must know
    /// about what came back (an approval's or an undo's `Decided::notes`).
    Written {
        summary: String,
        select: Option<String>,
        warning: Option<String>,
        saved: Option<SavedFile>,
        notes: Vec<String>,
    },
    /// The fix `R` would write, to show before it does.
    Planned(Box<IndexPlan>),
    /// A proposal edited by the reviewer.
    ProposalEdited { id: String },
    /// A proposal rebased: what the rebase changed, in the reviewer's words.
    Rebased { id: String, changes: String },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobError {
    pub message: String,
    /// What was read changed or vanished since ("memory collection changed").
    pub conflict: bool,
    /// On a conflict over a file's text, the text now (`None`: gone, or not known).
    pub current: Option<String>,
}

impl JobError {
    fn refused(message: String) -> Self {
        Self {
            message,
            conflict: false,
            current: None,
        }
    }
}

impl From<FormatError> for JobError {
    fn from(e: FormatError) -> Self {
        Self {
            conflict: e.is_conflict(),
            current: e.current_text(),
            message: e.to_string(),
        }
    }
}

impl From<ReviewError> for JobError {
    fn from(e: ReviewError) -> Self {
        FormatError::from(e).into()
    }
}

impl From<EvalError> for JobError {
    fn from(e: EvalError) -> Self {
        Self::refused(e.to_string())
    }
}

/// A job finished: what it did and the folder as it is after it.
pub struct JobDone {
    pub job: Job,
    pub result: Result<Outcome, JobError>,
    /// The folder and its review state after the job, so the panes update without waiting on
    /// the watcher (`None`: the job only read; what is shown stands).
    pub after: Option<Reading>,
    /// Set when `after` was read on top of the reading shown ([`Job::run_from`]): how many
    /// readings the watcher had delivered to the app when the job started.
    pub read_from: Option<u64>,
}

impl std::fmt::Debug for JobDone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JobDone")
            .field("job", &self.job)
            .field("result", &self.result)
            .field("after", &self.after.is_some())
            .field("read_from", &self.read_from)
            .finish()
    }
}

/// A job ready to run off the UI thread.
pub type Bound = Box<dyn FnOnce() -> JobDone + Send>;

impl Job {
    /// The job bound to `open`, the folder open; the folder is read after it on top of
    /// `shown` (the reading the app shows and how many readings the watcher had delivered),
    /// as [`Job::run_from`] says.
    pub fn bind(self, open: &Open, shown: (Shown, u64)) -> Bound {
        let open = open.clone();
        Box::new(move || self.run_from(&open, Some((&shown.0, shown.1))))
    }

    /// Runs the job and reads the whole folder after it.
    pub fn run(self, open: &Open) -> JobDone {
        self.run_from(open, None)
    }

    /// Runs the job, then reads the folder and its journal once, unless it only read (the
    /// text to edit, the fix `R` shows): the watcher reports what others change meanwhile.
    /// With `shown` (the reading the app shows, which a watcher keeps current, and the count
    /// of readings it has delivered), the folder is read after it on top of that reading
    /// where its backend can (`Backend::shown_after_change`: on `.memory`, only the record
    /// files the manifest now lists and `shown` did not hold). A reload reads everything.
    pub fn run_from(self, open: &Open, shown: Option<(&Shown, u64)>) -> JobDone {
        let result = self.outcome(open);
        if matches!(self, Self::Read { .. } | Self::PlanIndexFix) {
            return JobDone {
                job: self,
                result,
                after: None,
                read_from: None,
            };
        }
        let shown = shown.filter(|_| !matches!(self, Self::Reload));
        let on_top = shown.and_then(|(shown, readings)| {
            let after = open.backend().shown_after_change(shown)?;
            Some((after, readings))
        });
        let (after, read_from) = match on_top {
            Some((shown, readings)) => {
                let after = Reading {
                    shown,
                    review: Arc::new(Review::of(open)),
                };
                (after, Some(readings))
            }
            None => (Reading::of(open), None),
        };
        JobDone {
            job: self,
            result,
            after: Some(after),
            read_from,
        }
    }

    fn outcome(&self, open: &Open) -> Result<Outcome, JobError> {
        let backend = open.backend();
        let noted = |written: Written, notes: Vec<String>| Outcome::Written {
            summary: written.summary,
            select: None,
            warning: written.warning,
            saved: None,
            notes,
        };
        let written = |written: Written| noted(written, Vec::new());
        let decided = |decided: Decided| noted(decided.written, decided.notes);
        Ok(match self {
            Self::Reload => Outcome::Done,
            Self::Read { file, purpose } => match backend.file_text(file)? {
                Some(text) => Outcome::Read {
                    file: file.clone(),
                    text,
                    purpose: *purpose,
                },
                None => return Err(JobError::refused(format!("{file} is gone"))),
            },
            Self::PlanIndexFix => Outcome::Planned(Box::new(backend.plan_index_fix()?)),
            Self::IndexFix(plan) => written(backend.write_index_fix(plan)?),
            Self::Approve { id } => decided(backend.approve(id)?),
            Self::Reject { id, reason } => {
                backend.reject(id, reason.clone())?;
                Outcome::Done
            }
            Self::Undo(entry) => decided(backend.undo(entry)?),
            Self::Rebase { id } => Outcome::Rebased {
                id: id.clone(),
                changes: backend.rebase(id)?.join("; "),
            },
            Self::SaveCase(case) => {
                FolderEval::open(open)?.add_case(case.clone())?;
                Outcome::Done
            }
            Self::FileFix(checked) => {
                if file_fixes(&*backend, &[checked.as_ref()])?.is_empty() {
                    return Err(JobError::refused(
                        "nothing to propose: the fix is already filed or in place".into(),
                    ));
                }
                Outcome::Done
            }
            Self::Edit(change) => {
                let changed = match backend.apply_edit(change) {
                    Ok(changed) => changed,
                    // In place, only its journal entry waits: said as written, with why.
                    Err(error) => return not_journaled(&error).map(written).ok_or(error.into()),
                };
                match (change, changed.summary) {
                    (EditorChange::EditProposal { id, .. }, _) => {
                        Outcome::ProposalEdited { id: id.clone() }
                    }
                    (_, Some(summary)) => Outcome::Written {
                        summary,
                        select: changed.select,
                        warning: changed.warning,
                        saved: changed.saved,
                        notes: Vec::new(),
                    },
                    (_, None) => Outcome::Done,
                }
            }
        })
    }

    pub fn describe(&self) -> String {
        match self {
            Self::Reload => "reload".into(),
            Self::Read { file, .. } => format!("read {file}"),
            Self::PlanIndexFix => "plan the MEMORY.md fix".into(),
            Self::IndexFix(_) => "fix MEMORY.md".into(),
            Self::Approve { id } => format!("approve {id}"),
            Self::Reject { id, .. } => format!("reject {id}"),
            Self::Undo(entry) => format!("undo #{}", entry.id),
            Self::Rebase { id } => format!("rebase {id}"),
            Self::SaveCase(case) => format!("save eval case '{}'", case.label()),
            Self::FileFix(checked) => format!(
                "file the {} for {}",
                checked.fix.as_ref().map_or("fix", |f| f.describe()),
                checked.name.as_deref().unwrap_or(checked.finding.code)
            ),
            Self::Edit(change) => change.describe(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::{Job, JobDone, Outcome, ReadFor};
    use crate::formats::{EditorChange, Open, Shown};
    use crate::store::inspect::Inspection;
    use crate::store::{MemoryType, Record, Store, StoreOptions};
    use crate::tui::app::{App, Event};
    use crate::tui::theme::Theme;

    fn record(name: &str, body: &str) -> Record {
        Record::new(name, MemoryType::Project, "a fact", body).expect("valid record")
    }

    fn add(name: &str) -> Job {
        let input = record(name, "third").to_input();
        EditorChange::SaveFields {
            file: None,
            base: None,
            fields: [input.name, input.kind, input.description, input.body],
        }
        .into()
    }

    fn remove(name: &str) -> Job {
        EditorChange::RemoveFile {
            file: format!("{name}.md"),
            base: record(name, "third").to_file_text(),
        }
        .into()
    }

    /// A store of two records, and the first one's file edited in place behind memwb's back
    /// after `shown` was read (so only a full read sees the edit).
    fn edited_behind_the_reading() -> (tempfile::TempDir, Store, Arc<Inspection>) {
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

    fn inspection_after(done: &JobDone) -> Arc<Inspection> {
        match done
            .after
            .as_ref()
            .and_then(|after| crate::formats::memory::shown_inspection(&after.shown))
        {
            Some(inspection) => inspection,
            None => panic!("a job on a .memory set reads the set after it"),
        }
    }

    fn body_of_one(inspection: &Inspection) -> String {
        inspection
            .valid_records()
            .find(|r| r.name() == "one")
            .map(|r| r.body().to_owned())
            .unwrap_or_default()
    }

    fn folder_of_one_topic() -> (tempfile::TempDir, Open) {
        let dir = tempfile::tempdir().expect("temp dir");
        let topic = "---\nname: role\ndescription: what I do\ntype: user\n---\nI review code.\n";
        std::fs::write(dir.path().join("user_role.md"), topic).expect("write topic");
        std::fs::write(
            dir.path().join("MEMORY.md"),
            "- [role](user_role.md) - what I do\n",
        )
        .expect("write index");
        let limits = crate::claude::LoadLimits::default();
        let folder = crate::claude::ClaudeFolder::open(dir.path(), limits).expect("open");
        (dir, Open::from(folder))
    }

    #[test]
    fn a_commit_reads_only_what_it_changed_on_top_of_the_shown_reading() {
        let (_dir, store, shown) = edited_behind_the_reading();
        let open = Open::from(store);
        let done = add("three").run_from(&open, Some((&shown.clone().into(), 7)));
        assert!(done.result.is_ok(), "{:?}", done.result);
        assert_eq!(done.read_from, Some(7));
        let after = inspection_after(&done);
        let names: Vec<&str> = after.valid_records().map(Record::name).collect();
        assert_eq!(names, ["one", "two", "three"]);
        // The untouched entry came from the shown reading, unread: the edit is not in it.
        assert_eq!(after.entries[0], shown.entries[0]);
        assert_eq!(body_of_one(&after), "first");
        // Without a reading to build on, everything is read.
        let full = remove("three").run(&open);
        assert_eq!(full.read_from, None);
        assert_eq!(body_of_one(&inspection_after(&full)), "FIRST");
    }

    #[test]
    fn a_reload_reads_everything_even_on_top_of_a_reading() {
        let (_dir, store, shown) = edited_behind_the_reading();
        let open = Open::from(store.clone());
        let done = Job::Reload.run_from(&open, Some((&shown.clone().into(), 0)));
        assert_eq!(done.read_from, None);
        assert_eq!(*inspection_after(&done), store.inspect());
        assert_eq!(body_of_one(&inspection_after(&done)), "FIRST");
    }

    #[test]
    fn a_jobs_reading_yields_to_one_the_watcher_delivered_while_it_ran() {
        let (_dir, store, shown) = edited_behind_the_reading();
        let open = Open::from(store.clone());
        // The watcher delivered nothing meanwhile: the job's reading is shown.
        let reading = Shown::from(shown.clone());
        let mut app = App::new(open.clone(), reading.clone(), Theme::plain());
        let done = add("three").run_from(&open, Some((&reading, app.watch_readings)));
        app.update(Event::Job(Box::new(done)));
        let inspection =
            |app: &App| crate::formats::memory::shown_inspection(&app.shown).expect(".memory");
        assert_eq!(inspection(&app).valid_records().count(), 3);
        // It did (say, the hand edit): that reading stands; the watcher reports the commit too.
        let mut app = App::new(open.clone(), reading.clone(), Theme::plain());
        let done = remove("three").run_from(&open, Some((&reading, 0)));
        let watched = Arc::new(store.inspect());
        app.watch_readings = 1;
        app.shown = watched.clone().into();
        app.update(Event::Job(Box::new(done)));
        assert!(Arc::ptr_eq(&inspection(&app), &watched));
        assert_eq!(body_of_one(&inspection(&app)), "FIRST");
    }

    #[test]
    fn a_change_another_formats_editor_makes_is_refused_and_writes_nothing() {
        // Adopting a file into the manifest is a .memory editor's change: a topic folder,
        // which has no manifest, refuses it.
        let (_dir, open) = folder_of_one_topic();
        let before = std::fs::read_to_string(open.root().join("MEMORY.md")).expect("index");
        let adopt = Job::from(EditorChange::Adopt {
            file: "three.md".into(),
            seen: b"---\nname: three\n---\n".to_vec(),
        });
        let error = adopt
            .run(&open)
            .result
            .expect_err("an adoption on a topic folder");
        assert!(error.message.contains("nothing was written"), "{error:?}");
        let after = std::fs::read_to_string(open.root().join("MEMORY.md")).expect("index");
        assert_eq!(before, after);
        assert_eq!(std::fs::read_dir(open.root()).expect("list").count(), 2);
    }

    #[test]
    fn one_job_runs_on_either_format_through_its_backend() {
        let (_dir, store, shown) = edited_behind_the_reading();
        let memory = Open::from(store);
        let bound = Job::Reload.bind(&memory, (shown.clone().into(), 0));
        let done = bound();
        assert!(
            matches!(done.result, Ok(Outcome::Done)),
            "{:?}",
            done.result
        );
        let after = done.after.expect("a reload reads the folder");
        assert!(crate::formats::memory::shown_inspection(&after.shown).is_some());
        let (_dir, claude) = folder_of_one_topic();
        let done = Job::Reload.bind(&claude, (shown.into(), 0))();
        assert!(
            matches!(done.result, Ok(Outcome::Done)),
            "{:?}",
            done.result
        );
        let Some(view) = done
            .after
            .as_ref()
            .and_then(|after| crate::formats::claude::shown_topics(&after.shown))
        else {
            panic!("a reload reads the folder it is bound to");
        };
        assert_eq!(view.snapshot.topics.len(), 1);
    }

    #[test]
    fn a_job_that_only_reads_reads_neither_the_folder_nor_the_journal_after_it() {
        for (_dir, open) in [folder_of_one_topic(), {
            let (dir, store, _) = edited_behind_the_reading();
            (dir, Open::from(store))
        }] {
            let done = Job::PlanIndexFix.run(&open);
            assert!(done.result.is_ok(), "{:?}", done.result);
            assert!(done.after.is_none(), "{:?} read the folder again", done.job);
        }
        let (_dir, open) = folder_of_one_topic();
        let read = Job::Read {
            file: "user_role.md".into(),
            purpose: ReadFor::Edit,
        };
        let done = read.run(&open);
        assert!(done.after.is_none(), "a read read the folder again");
        let Ok(Outcome::Read { text, .. }) = done.result else {
            panic!("the topic's text: {:?}", done.result);
        };
        assert!(text.contains("I review code."), "{text}");
        // A reload is a reading of both, which the app shows in place of its own.
        let reload = Job::Reload.run(&open);
        let Some(view) = reload
            .after
            .as_ref()
            .and_then(|after| crate::formats::claude::shown_topics(&after.shown))
        else {
            panic!("a reload reads the folder");
        };
        assert_eq!(view.snapshot.topics.len(), 1);
    }
}
