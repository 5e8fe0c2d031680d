//! Engine calls. The engine is synchronous; the event loop runs each job with
//! `tokio::task::spawn_blocking` and feeds the result back as an event. Tests run them inline.

use std::sync::Arc;

use crate::store::inspect::Inspection;
use crate::store::{Commit, Record, Store, StoreError};

#[derive(Debug, Clone)]
pub enum Job {
    Reload,
    /// `base` is the version the editor opened (`None` for a new record).
    Save {
        base: Option<Record>,
        edited: Record,
    },
    Remove(Record),
    RebuildIndex,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobError {
    pub message: String,
    /// The record changed or vanished since it was read ("memory collection changed").
    pub conflict: bool,
}

impl From<StoreError> for JobError {
    fn from(e: StoreError) -> Self {
        Self {
            conflict: matches!(e, StoreError::Conflict { .. }),
            message: e.to_string(),
        }
    }
}

#[derive(Debug, Clone)]
pub struct JobDone {
    pub job: Job,
    pub result: Result<Commit, JobError>,
    /// The folder as it is after the job, so the panes update without waiting on the watcher.
    pub inspection: Arc<Inspection>,
}

impl Job {
    pub fn run(self, store: &Store) -> JobDone {
        let result = match &self {
            Job::Reload => Ok(Commit::default()),
            Job::Save {
                base: Some(base),
                edited,
            } => store.replace(base, edited.clone()).map_err(JobError::from),
            Job::Save { base: None, edited } => {
                store.extend(vec![edited.clone()]).map_err(JobError::from)
            }
            Job::Remove(record) => store
                .remove(std::slice::from_ref(record))
                .map_err(JobError::from),
            Job::RebuildIndex => store.rebuild_index().map_err(JobError::from),
        };
        JobDone {
            job: self,
            result,
            inspection: Arc::new(store.inspect()),
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Job::Reload => "reload".into(),
            Job::Save {
                base: Some(b),
                edited,
            } if b.name() != edited.name() => {
                format!("rename {} to {}", b.name(), edited.name())
            }
            Job::Save {
                base: Some(_),
                edited,
            } => format!("save {}", edited.name()),
            Job::Save { base: None, edited } => format!("add {}", edited.name()),
            Job::Remove(r) => format!("delete {}", r.name()),
            Job::RebuildIndex => "rebuild MEMORY.md".into(),
        }
    }
}
