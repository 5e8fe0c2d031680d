//! Watching the open folder through its backend ([`crate::formats::Backend::watch`]): its news
//! reaches the app as one [`Event::Watch`], the same on every format.

use std::sync::Arc;

use tokio::sync::mpsc::UnboundedSender;

use super::TuiError;
use super::app::{Event, Reading};
use crate::formats::Open;

pub use crate::formats::Watched;

/// The watch on the folder open; replaced when another one is opened.
pub(crate) type Watching = crate::formats::Watcher;

/// Starts watching `open`, sending its news to `tx`; its first reading is the baseline.
pub(crate) fn watch(
    open: &Open,
    tx: &UnboundedSender<Event>,
) -> Result<(Watching, Reading), TuiError> {
    let tx = tx.clone();
    let (watcher, baseline) = open.backend().watch(Box::new(move |watched| {
        let _ = tx.send(Event::Watch(watched));
    }))?;
    let review = Arc::new(super::review::Review::of(open));
    Ok((
        watcher,
        Reading {
            shown: baseline,
            review,
        },
    ))
}
