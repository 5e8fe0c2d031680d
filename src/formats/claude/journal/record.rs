//! Journaling a change someone else already made to a Claude Code folder (Claude Code itself,
//! with the hook in `record` mode, or anyone, seen by `memwb watch --record`): an entry with
//! the images, committed at once; nothing is written to the folder. `log` shows it and `undo`
//! reverts it like any other change.

use super::observer::{ClaudeJournalObserver, journal_of, kept, op_of};
use crate::claude::write::{self, FileImage};
use crate::claude::{ClaudeFolder, ClaudeState};
use crate::review::error::ReviewError;
use crate::review::intent::{Expect, Intent};
use crate::review::journal::{Entry, EntryMeta, Journal};
use crate::time::now_ms;

/// Appends the committed entry for `images` (files as they were and are now). An earlier
/// change a crash interrupted is resolved first, as every change does.
pub fn record(
    folder: &ClaudeFolder,
    images: Vec<FileImage>,
    meta: EntryMeta,
) -> Result<Entry, ReviewError> {
    let observer = ClaudeJournalObserver::new(journal_of(folder)?, EntryMeta::default());
    write::apply(folder, Vec::new(), Some(&observer))?;
    let state = ClaudeState::for_folder(folder)?;
    let _lock = state.lock()?;
    let journal = Journal::of_claude(&state);
    let intent = Intent {
        entry: kept(&images).into_entry(Entry::new(
            journal.next_id()?,
            now_ms(),
            meta.op.unwrap_or_else(|| op_of(&images)),
            &meta,
        )),
        expect: Expect::Files,
        decision: None,
    };
    journal.write_intent(&intent)?;
    journal.finish(&intent)?;
    Ok(intent.entry)
}
