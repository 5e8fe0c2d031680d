//! Watching a `.memory` set ([`crate::watch`]: a commit is reported at once, as the rename onto
//! the manifest is seen), its news said as every format says it.

use super::{MemoryBackend, NO_RECORDING};
use crate::formats::{Change, FormatError, RecordSink, Shown, WatchError, WatchEvent, WatchSink};
use crate::formats::{Watched, Watcher};
use crate::watch::{self as engine, WatchOptions};

impl MemoryBackend<'_> {
    pub(super) fn start_watch(&self, sink: WatchSink) -> Result<(Watcher, Shown), WatchError> {
        let root = self.store.root().to_owned();
        // A record file edited in place is no manifest event: the quiet-period refresh
        // notices it, so that a record that stops reading is reported.
        let (watcher, baseline) =
            engine::Watcher::start(self.store.clone(), WatchOptions::default(), move |event| {
                let event = match event {
                    engine::WatchEvent::Committed(change) => WatchEvent::Changed(Change::new(
                        change.commit,
                        change.unreadable,
                        Shown::from(change.inspection),
                    )),
                    engine::WatchEvent::Refreshed(change) => {
                        WatchEvent::Reread(Shown::from(change.inspection))
                    }
                    engine::WatchEvent::Review => WatchEvent::Review,
                    engine::WatchEvent::Error(message) => WatchEvent::Error(message),
                };
                sink(Watched {
                    root: root.clone(),
                    event,
                });
            })?;
        Ok((Watcher::new(watcher), Shown::from(baseline)))
    }

    pub(super) fn refuse_recording(&self, _sink: RecordSink) -> Result<Watcher, FormatError> {
        Err(FormatError::refused(NO_RECORDING.to_owned()))
    }
}
