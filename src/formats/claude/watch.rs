//! Watching a Claude Code folder ([`crate::claude_watch`]: a change is reported once the
//! folder has been quiet for a moment), its news said as every format says it; and recording
//! the changes made outside memwb into the folder's journal (`memwb watch --record`).

use std::sync::Mutex;

use super::ClaudeBackend;
use super::journal::observed::{images, not_journaled, texts};
use super::journal::{journal_of, record};
use crate::change::Changed;
use crate::claude::ClaudeState;
use crate::claude_watch::{ClaudeEvent, ClaudeWatcher};
use crate::formats::{Change, FormatError, RecordSink, Recorded, Shown, WatchError, WatchEvent};
use crate::formats::{WatchSink, Watched, Watcher};
use crate::review::EntryMeta;

/// How many of the journal's last entries a change seen is compared with (memwb's own
/// writes and the hook's record mode are journaled already).
const RECENT: usize = 64;

/// Why an entry was journaled by the recording watch.
const RECORDED: &str = "recorded by memwb watch: changed outside memwb";

impl ClaudeBackend<'_> {
    pub(super) fn start_watch(&self, sink: WatchSink) -> Result<(Watcher, Shown), WatchError> {
        // memwb's state for the folder is made first, so that proposals filed there by other
        // processes are watched too (a state that cannot be made is said by whoever reads it).
        let _ = ClaudeState::for_folder(self.folder);
        let root = self.folder.root().to_owned();
        let shown = {
            let folder = self.folder.clone();
            move |snapshot| Shown::of_topics(&folder, snapshot)
        };
        let (watcher, baseline) = ClaudeWatcher::start(self.folder.clone(), move |event| {
            let event = match event {
                ClaudeEvent::Changed(change) => {
                    let commit = change.commit;
                    let changed = Changed {
                        added: commit.added,
                        changed: commit.changed,
                        removed: commit.removed,
                    };
                    WatchEvent::Changed(Change::new(changed, None, shown(change.snapshot)))
                }
                ClaudeEvent::Review => WatchEvent::Review,
                ClaudeEvent::Error(message) => {
                    WatchEvent::Error(format!("cannot watch {}: {message}", root.display()))
                }
            };
            sink(Watched {
                root: root.clone(),
                event,
            });
        })?;
        Ok((
            Watcher::new(watcher),
            Shown::of_topics(self.folder, baseline),
        ))
    }

    /// Keeps its own reading of every memory file's exact text (taken before the watch
    /// starts, so nothing is missed); once the folder has been quiet after a change, the files
    /// that differ from it are journaled with their previous text, unless the journal already
    /// has that change.
    pub(super) fn record_changes(&self, sink: RecordSink) -> Result<Watcher, FormatError> {
        let folder = self.folder.clone();
        let last = Mutex::new(texts(&folder));
        let watched = folder.clone();
        let (watcher, _) = ClaudeWatcher::start(watched, move |event| match event {
            ClaudeEvent::Changed(_) => {
                let now = texts(&folder);
                let Ok(mut last) = last.lock() else {
                    return;
                };
                let changed = images(&last, &now);
                *last = now;
                drop(last);
                if changed.is_empty() {
                    return;
                }
                let recent = match journal_of(&folder).and_then(|j| j.last_entries(RECENT)) {
                    Ok(entries) => entries.into_iter().rev().collect::<Vec<_>>(),
                    Err(e) => {
                        sink(Recorded::Warning(e.to_string()));
                        Vec::new()
                    }
                };
                let changed = not_journaled(changed, &recent);
                if changed.is_empty() {
                    return;
                }
                let meta = EntryMeta {
                    reason: Some(RECORDED.into()),
                    ..EntryMeta::default()
                };
                sink(match record(&folder, changed, meta) {
                    Ok(entry) => Recorded::Journaled(Box::new(entry)),
                    Err(e) => Recorded::Warning(format!("not journaled: {e}")),
                });
            }
            ClaudeEvent::Error(message) => sink(Recorded::Warning(message)),
            ClaudeEvent::Review => {}
        })?;
        Ok(Watcher::new(watcher))
    }
}
