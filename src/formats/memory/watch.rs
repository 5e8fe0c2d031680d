//! Watching a `.memory` set ([`crate::watch`]: a commit is reported at once, as the rename onto
//! the manifest is seen), its news said as every format says it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use super::{MemoryBackend, NO_RECORDING};
use crate::change::Changed;
use crate::formats::{Change, FormatError, RecordSink, Shown, WatchError, WatchEvent, WatchSink};
use crate::formats::{Watched, Watcher};
use crate::store::MemorySet;
use crate::watch::{self as engine, WatchOptions};

impl MemoryBackend<'_> {
    pub(super) fn start_watch(&self, sink: WatchSink) -> Result<(Watcher, Shown), WatchError> {
        let root = self.store.root().to_owned();
        let last = Arc::new(Mutex::new(None));
        let seen = last.clone();
        // A record file edited in place is no manifest event: the quiet-period refresh
        // notices it, so that a record that stops reading is reported, and one another
        // program edited is news, named as on every format.
        let (watcher, baseline) =
            engine::Watcher::start(self.store.clone(), WatchOptions::default(), move |event| {
                let event = match event {
                    engine::WatchEvent::Committed(change) => {
                        changed(with_edits_in_place(change, &seen))
                    }
                    engine::WatchEvent::Refreshed(change) => {
                        let change = with_edits_in_place(change, &seen);
                        if change.commit.is_empty() {
                            WatchEvent::Reread(Shown::from(change.inspection))
                        } else {
                            changed(change)
                        }
                    }
                    engine::WatchEvent::Review => WatchEvent::Review,
                    engine::WatchEvent::Error(message) => WatchEvent::Error(message),
                };
                sink(Watched {
                    root: root.clone(),
                    event,
                });
            })?;
        last.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get_or_insert_with(|| baseline.valid_set());
        Ok((Watcher::new(watcher), Shown::from(baseline)))
    }

    pub(super) fn refuse_recording(&self, _sink: RecordSink) -> Result<Watcher, FormatError> {
        Err(FormatError::refused(NO_RECORDING.to_owned()))
    }
}

fn changed(change: engine::Change) -> WatchEvent {
    WatchEvent::Changed(Change::new(
        Changed::from(&change.commit),
        change.unreadable,
        Shown::from(change.inspection),
    ))
}

/// `change` with the memories whose record file was edited in place since `last` (the set
/// last seen reading) among those it changed: the engine compares sets by file, as a
/// `.memory` commit writes a new file for each new version, so another program's edit of a
/// file where it is would go unsaid. `last` becomes the set `change` saw, when it reads.
fn with_edits_in_place(
    mut change: engine::Change,
    last: &Mutex<Option<MemorySet>>,
) -> engine::Change {
    if change.unreadable.is_some() || !change.inspection.is_readable() {
        return change;
    }
    let now = change.inspection.valid_set();
    let mut last = last.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(before) = last.as_ref() {
        let by_file: HashMap<&str, _> = before
            .entries
            .iter()
            .map(|entry| (entry.file.as_str(), &entry.record))
            .collect();
        for entry in &now.entries {
            let name = entry.record.name();
            let edited = by_file
                .get(entry.file.as_str())
                .is_some_and(|record| **record != entry.record);
            if edited && !change.commit.changed.iter().any(|n| n == name) {
                change.commit.changed.push(name.to_owned());
            }
        }
    }
    *last = Some(now);
    change
}
