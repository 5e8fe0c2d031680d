//! `memwb watch --record`: journal every change to Claude Code folders, by anyone. The watcher
//! keeps its own reading of every memory file's exact text; when a folder has been quiet after
//! a change, the files that differ from that reading are journaled with their previous text
//! (unless the journal already has that change: memwb's own writes, the hook's record mode),
//! so `memwb log` shows them and `memwb undo` reverts them. One line per entry on stdout.

use std::io::Write;

use crate::claude::ClaudeFolder;
use crate::claude_watch::{ClaudeEvent, ClaudeWatcher};
use crate::formats::claude::journal::observed::{images, not_journaled, texts};
use crate::formats::claude::journal::{journal_of, record};
use crate::review::EntryMeta;
use crate::sanitize;
use crate::store::time::now_ms;

/// How many of the journal's last entries are compared with a change seen.
const RECENT: usize = 64;

#[derive(serde::Serialize)]
struct RecordedLine<'a> {
    at: i64,
    folder: &'a str,
    entry: u64,
    files: Vec<&'a str>,
}

pub(super) fn run(folders: Vec<ClaudeFolder>, json: bool) -> anyhow::Result<u8> {
    if folders.is_empty() {
        anyhow::bail!("no Claude Code memory folder to watch");
    }
    let (tx, rx) = std::sync::mpsc::channel();
    let mut watchers = Vec::with_capacity(folders.len());
    let mut last = Vec::with_capacity(folders.len());
    for (i, folder) in folders.iter().enumerate() {
        let tx = tx.clone();
        // The reading to compare with is taken before the watch starts: nothing is missed.
        last.push(texts(folder));
        let (watcher, _) = ClaudeWatcher::start(folder.clone(), move |event| {
            let _ = tx.send((i, event));
        })?;
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
    for (i, event) in rx {
        let folder = &folders[i];
        match event {
            ClaudeEvent::Changed(_) => {
                let now = texts(folder);
                let changed = images(&last[i], &now);
                last[i] = now;
                if changed.is_empty() {
                    continue;
                }
                let recent = match journal_of(folder).and_then(|j| j.last_entries(RECENT)) {
                    Ok(entries) => entries.into_iter().rev().collect::<Vec<_>>(),
                    Err(e) => {
                        eprintln!("warning: {}", sanitize::line(&e.to_string()));
                        Vec::new()
                    }
                };
                let changed = not_journaled(changed, &recent);
                if changed.is_empty() {
                    continue;
                }
                let meta = EntryMeta {
                    reason: Some("recorded by memwb watch: changed outside memwb".into()),
                    ..EntryMeta::default()
                };
                let entry = match record(folder, changed, meta) {
                    Ok(entry) => entry,
                    Err(e) => {
                        eprintln!("warning: not journaled: {}", sanitize::line(&e.to_string()));
                        continue;
                    }
                };
                let path = folder.root().display().to_string();
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
                        crate::store::time::format_ms(now_ms()),
                        entry.id,
                        sanitize::line(&path),
                        names.join(", ")
                    )
                };
                let mut out = stdout.lock();
                writeln!(out, "{line}")?;
                out.flush()?;
            }
            ClaudeEvent::Error(message) => eprintln!("warning: {}", sanitize::line(&message)),
            ClaudeEvent::Review => {}
        }
    }
    Ok(0)
}

/// Every Claude Code folder `memwb sets` finds under Claude Code's config folder.
pub(super) fn all_folders(limits: crate::claude::LoadLimits) -> anyhow::Result<Vec<ClaudeFolder>> {
    let config = crate::claude::locate::config_dir(&crate::claude::locate::process_env)?;
    let discovery = crate::folder::sets::discover(Some(&config), &[], &mut |_| {});
    Ok(discovery
        .found
        .iter()
        .filter(|f| f.format == crate::formats::Format::Claude)
        .filter_map(|f| ClaudeFolder::open(&f.path, limits).ok())
        .collect())
}
