//! `memwb watch [--json]`: a headless view of the workbench's watcher. Prints nothing at
//! start, then one line per commit (flushed at once) naming every record it touched, until
//! interrupted.

use std::io::Write;

use anyhow::Context;

use crate::sanitize;
use crate::store::Store;
use crate::watch::{Change, WatchEvent, WatchOptions, Watcher};

#[derive(clap::Args, Debug, Default)]
pub struct WatchArgs {
    /// One JSON object per line: {"at":<unix ms>,"added":[...],"removed":[...],"changed":[...]}.
    #[arg(long)]
    pub json: bool,
}

fn human(change: &Change) -> String {
    let list = |names: &[String]| {
        names
            .iter()
            .map(|n| sanitize::line(n).into_owned())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let c = &change.commit;
    let mut parts = Vec::new();
    for (label, names) in [
        ("added", &c.added),
        ("removed", &c.removed),
        ("changed", &c.changed),
    ] {
        if !names.is_empty() {
            parts.push(format!("{label}: {}", list(names)));
        }
    }
    if parts.is_empty() {
        parts.push("no record changed".into());
    }
    let at = crate::store::lock::format_ms(change.at_ms);
    format!("{at} {}", parts.join("; "))
}

pub fn run(store: &Store, args: &WatchArgs) -> anyhow::Result<u8> {
    let (tx, rx) = std::sync::mpsc::channel();
    let options = WatchOptions {
        refresh_on_touch: None,
    };
    let (_watcher, _baseline) = Watcher::start(store.clone(), options, move |event| {
        let _ = tx.send(event);
    })
    .with_context(|| format!("cannot watch {}", store.root().display()))?;
    let stdout = std::io::stdout();
    for event in rx {
        match event {
            WatchEvent::Committed(change) => {
                let line = if args.json {
                    super::output::escape_json(&serde_json::to_string(&change.json_line())?)
                } else {
                    human(&change)
                };
                let mut out = stdout.lock();
                writeln!(out, "{line}")?;
                out.flush()?;
            }
            WatchEvent::Refreshed(_) | WatchEvent::Review => {}
            WatchEvent::Error(message) => eprintln!("warning: {}", sanitize::line(&message)),
        }
    }
    Ok(0)
}
