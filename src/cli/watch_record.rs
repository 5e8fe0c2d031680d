//! `memwb watch --record`: journal every change made to memory folders outside memwb, by
//! anyone ([`Backend::record_outside_changes`]: the formats that can, say Claude Code; the
//! others say why not in [`Backend::lacks`]), so `memwb log` shows them and `memwb undo`
//! reverts them. One line per entry on stdout.

use std::io::Write;

use crate::formats::{Capability, Open, OpenOptions, Recorded};
use crate::sanitize;
use crate::time::format_ms;

#[derive(serde::Serialize)]
struct RecordedLine<'a> {
    at: i64,
    folder: &'a str,
    entry: u64,
    files: Vec<String>,
}

pub(super) fn run(folders: Vec<Open>, json: bool) -> anyhow::Result<u8> {
    if folders.is_empty() {
        anyhow::bail!(
            "no memory folder found whose outside changes can be recorded (Claude Code's folders)"
        );
    }
    let (tx, rx) = std::sync::mpsc::channel();
    let mut watchers = Vec::with_capacity(folders.len());
    for (i, folder) in folders.iter().enumerate() {
        let tx = tx.clone();
        let watcher = folder
            .backend()
            .record_outside_changes(Box::new(move |recorded| {
                let _ = tx.send((i, recorded));
            }))?;
        watchers.push(watcher);
    }
    drop(tx);
    for folder in &folders {
        eprintln!(
            "watching {} (recording)",
            sanitize::line(&folder.root().display().to_string())
        );
    }
    let stdout = std::io::stdout();
    for (i, recorded) in rx {
        let entry = match recorded {
            Recorded::Journaled(entry) => entry,
            Recorded::Warning(message) => {
                eprintln!("warning: {}", sanitize::line(&message));
                continue;
            }
        };
        let path = folders[i].root().display().to_string();
        let files = entry.touched_files();
        let line = if json {
            super::output::escape_json(&serde_json::to_string(&RecordedLine {
                at: entry.at,
                folder: &path,
                entry: entry.id,
                files,
            })?)
        } else {
            let names: Vec<String> = files
                .iter()
                .map(|f| sanitize::line(f).into_owned())
                .collect();
            format!(
                "{} journaled #{} in {}: {}",
                format_ms(entry.at),
                entry.id,
                sanitize::line(&path),
                names.join(", ")
            )
        };
        let mut out = stdout.lock();
        writeln!(out, "{line}")?;
        out.flush()?;
    }
    Ok(0)
}

/// Every memory folder `memwb sets` finds under the agents' own folders whose outside changes
/// can be recorded (`watch --record --all`).
pub(super) fn run_all(options: &OpenOptions, json: bool) -> anyhow::Result<u8> {
    let config = crate::formats::agent_config();
    let discovery = crate::folder::sets::discover(config.as_deref(), &[], &mut |_| {});
    let folders = discovery
        .found
        .iter()
        .filter_map(|found| crate::formats::open(&found.path, Some(found.format), options).ok())
        .filter(|open| {
            open.backend()
                .lacks(Capability::RecordOutsideChanges)
                .is_none()
        })
        .collect();
    run(folders, json)
}
