//! Watching the open folder: its format's watcher, and what it reports as one event
//! ([`Event::Watch`]). The one place the workbench's watching branches by format, until watching
//! is on `formats::Backend` (docs/architecture.md, "Backends").

use tokio::sync::mpsc::UnboundedSender;

use super::TuiError;
use super::app::{Event, Reading};
use crate::claude_watch::{ClaudeEvent, ClaudeWatcher};
use crate::formats::Open as Backend;
use crate::watch::{WatchEvent, WatchOptions, Watcher};

/// What the watcher of the open folder saw, in its format's terms.
#[derive(Debug)]
pub enum Watched {
    Memory(WatchEvent),
    Claude(ClaudeEvent),
}

impl Watched {
    /// memwb's own state for the folder changed (a proposal filed, a decision, a journal
    /// entry): the proposals and the journal are read again.
    pub fn is_review(&self) -> bool {
        matches!(
            self,
            Self::Memory(WatchEvent::Review) | Self::Claude(ClaudeEvent::Review)
        )
    }
}

impl From<WatchEvent> for Watched {
    fn from(event: WatchEvent) -> Self {
        Self::Memory(event)
    }
}

impl From<ClaudeEvent> for Watched {
    fn from(event: ClaudeEvent) -> Self {
        Self::Claude(event)
    }
}

/// The watch on the folder open; replaced when another one is opened.
pub(crate) enum Watching {
    Memory(#[allow(dead_code)] Watcher),
    Claude(#[allow(dead_code)] ClaudeWatcher),
}

/// Starts watching `backend`, sending its news to `tx`; its first reading is the baseline.
pub(crate) fn watch(
    backend: &Backend,
    tx: &UnboundedSender<Event>,
) -> Result<(Watching, Reading), TuiError> {
    let tx = tx.clone();
    Ok(match backend {
        Backend::Memory(store) => {
            let (watcher, baseline) =
                Watcher::start(store.clone(), WatchOptions::default(), move |event| {
                    let _ = tx.send(Event::Watch(Watched::Memory(event)));
                })?;
            let review = std::sync::Arc::new(super::review::Review::of(backend));
            (
                Watching::Memory(watcher),
                Reading::Memory {
                    inspection: baseline,
                    review,
                },
            )
        }
        Backend::Claude(folder) => {
            // The workbench keeps its journal there; made first so that its proposals are
            // watched too (the loader below reports why, if it cannot be).
            let _ = crate::claude::ClaudeState::for_folder(folder);
            let (watcher, baseline) = ClaudeWatcher::start(folder.clone(), move |event| {
                let _ = tx.send(Event::Watch(Watched::Claude(event)));
            })?;
            let review = std::sync::Arc::new(super::review::Review::of(backend));
            (
                Watching::Claude(watcher),
                Reading::Claude {
                    snapshot: baseline,
                    review,
                },
            )
        }
    })
}
