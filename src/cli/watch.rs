//! `memwb watch [--json]`: a headless view of the workbench's watcher. Prints nothing on
//! stdout at start (unless the set does not read) and `watching PATH` on stderr once the watch
//! is set up (scripts and tests wait for that line), then one line per commit (flushed at once) naming
//! every record it touched, until interrupted. A set that stops reading is one line with why
//! (`{"at","error"}`; human: `set unreadable: ...`), not every record removed; once it reads
//! again, the next line names only what changed since it last read.

use std::io::Write;

use crate::formats::Open;
use crate::sanitize;
use crate::store::Store;
use crate::store::time::{format_ms, now_ms};
use crate::watch::{Change, UnreadableLine, WatchEvent, WatchOptions, Watcher};

#[derive(clap::Args, Debug, Default)]
pub(super) struct WatchArgs {
    /// One JSON object per line: {"at":<unix ms>,"added":[...],"removed":[...],"changed":[...]},
    /// or {"at":<unix ms>,"error":"..."} when the set stops reading.
    #[arg(long)]
    pub json: bool,
    /// Journal every change to a Claude Code folder, by anyone, with its previous content (from
    /// the watcher's own reading), so it can be undone; with --all, every Claude Code folder found.
    #[arg(long)]
    pub record: bool,
    /// With --record: every Claude Code memory folder `memwb sets` finds.
    #[arg(long, requires = "record")]
    pub all: bool,
}

fn human(change: &Change) -> String {
    human_line(change.at_ms, &change.commit)
}

fn human_line(at_ms: i64, c: &crate::store::Commit) -> String {
    let list = |names: &[String]| {
        names
            .iter()
            .map(|n| sanitize::line(n).into_owned())
            .collect::<Vec<_>>()
            .join(", ")
    };
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
    let at = format_ms(at_ms);
    format!("{at} {}", parts.join("; "))
}

fn unreadable(line: &UnreadableLine<'_>, json: bool) -> anyhow::Result<String> {
    Ok(if json {
        super::output::escape_json(&serde_json::to_string(line)?)
    } else {
        let at = format_ms(line.at);
        format!("{at} set unreadable: {}", sanitize::line(line.error))
    })
}

/// `memwb watch` on the folder `open` holds: one line per change another program makes.
pub(super) fn run(open: &Open, args: &WatchArgs) -> anyhow::Result<u8> {
    match open {
        Open::Memory(store) => run_on_set(store, args),
        Open::Claude(folder) => run_on_topics(folder, args),
    }
}

fn run_on_set(store: &Store, args: &WatchArgs) -> anyhow::Result<u8> {
    if args.record {
        anyhow::bail!(
            "--record is for Claude Code folders (--claude, --memory-dir DIR or --all); memwb journals every change it makes to a .memory set itself"
        );
    }
    let (tx, rx) = std::sync::mpsc::channel();
    // Record files edited in place are not manifest events: a quiet-period refresh notices
    // them, so that a record that stops reading is reported.
    let options = WatchOptions::default();
    let (_watcher, baseline) = Watcher::start(store.clone(), options, move |event| {
        let _ = tx.send(event);
    })?;
    let stdout = std::io::stdout();
    if let Some(error) = crate::watch::unreadable_reason(&baseline) {
        let line = UnreadableLine {
            at: now_ms(),
            error: &error,
        };
        let mut out = stdout.lock();
        writeln!(out, "{}", unreadable(&line, args.json)?)?;
        out.flush()?;
    }
    // Every commit from here on is reported: the watch is set up and the baseline taken.
    eprintln!(
        "watching {}",
        sanitize::line(&store.root().display().to_string())
    );
    for event in rx {
        match event {
            WatchEvent::Committed(change) => {
                let line = if let Some(line) = change.unreadable_line() {
                    unreadable(&line, args.json)?
                } else if !change.inspection.is_readable() {
                    continue;
                } else if args.json {
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

/// `memwb watch` on a Claude Code folder: the same lines, once the folder has been quiet.
/// Says on stderr when the watch is set up (scripts can wait for that line).
fn run_on_topics(folder: &crate::claude::ClaudeFolder, args: &WatchArgs) -> anyhow::Result<u8> {
    use crate::claude_watch::{ClaudeEvent, ClaudeWatcher};
    if args.record {
        return super::watch_record::run(vec![folder.clone()], args.json);
    }
    let (tx, rx) = std::sync::mpsc::channel();
    let (_watcher, _baseline) = ClaudeWatcher::start(folder.clone(), move |event| {
        let _ = tx.send(event);
    })?;
    eprintln!(
        "watching {}",
        sanitize::line(&folder.root().display().to_string())
    );
    let stdout = std::io::stdout();
    for event in rx {
        match event {
            ClaudeEvent::Changed(change) => {
                let line = if args.json {
                    super::output::escape_json(&serde_json::to_string(&change.json_line())?)
                } else {
                    human_line(change.at_ms, &change.commit)
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
