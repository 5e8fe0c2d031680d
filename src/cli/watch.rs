//! `memwb watch [--json]`: a headless view of the workbench's watcher, written once over
//! [`Backend::watch`]. Prints nothing on stdout at start (unless the folder does not read) and
//! `watching PATH` on stderr once the watch is set up (scripts and tests wait for that line),
//! then one line per change (flushed at once) naming every memory it touched, until
//! interrupted. A folder that stops reading is one line with why (`{"at","error"}`; human:
//! `set unreadable: ...`), not every memory removed; once it reads again, the next line names
//! only what changed since it last read.

use std::io::Write;

use crate::formats::{Backend, Capability, Change, Open, WatchEvent};
use crate::sanitize;
use crate::time::{format_ms, now_ms};

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

/// The JSON line of a change.
#[derive(serde::Serialize)]
struct ChangeLine<'a> {
    at: i64,
    added: &'a [String],
    removed: &'a [String],
    changed: &'a [String],
}

/// The JSON line said when the folder stops reading.
#[derive(serde::Serialize)]
struct UnreadableLine<'a> {
    at: i64,
    error: &'a str,
}

fn human(change: &Change) -> String {
    human_line(
        change.at_ms,
        [
            ("added", &change.added),
            ("removed", &change.removed),
            ("changed", &change.changed),
        ],
    )
}

/// The line said of a change at `at_ms`: each non-empty list of names under its label.
fn human_line(at_ms: i64, lists: [(&str, &[String]); 3]) -> String {
    let list = |names: &[String]| {
        names
            .iter()
            .map(|n| sanitize::line(n).into_owned())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut parts = Vec::new();
    for (label, names) in lists {
        if !names.is_empty() {
            parts.push(format!("{label}: {}", list(names)));
        }
    }
    if parts.is_empty() {
        parts.push("no memory changed".into());
    }
    format!("{} {}", format_ms(at_ms), parts.join("; "))
}

fn unreadable(line: &UnreadableLine<'_>, json: bool) -> anyhow::Result<String> {
    Ok(if json {
        super::output::escape_json(&serde_json::to_string(line)?)
    } else {
        let at = format_ms(line.at);
        format!("{at} set unreadable: {}", sanitize::line(line.error))
    })
}

/// The line said of `change` (`None`: nothing to say, the folder is shown only).
fn said(change: &Change, json: bool) -> anyhow::Result<Option<String>> {
    if let Some(error) = &change.unreadable {
        let line = UnreadableLine {
            at: change.at_ms,
            error,
        };
        return unreadable(&line, json).map(Some);
    }
    if !change.is_news() {
        return Ok(None);
    }
    Ok(Some(if json {
        super::output::escape_json(&serde_json::to_string(&ChangeLine {
            at: change.at_ms,
            added: &change.added,
            removed: &change.removed,
            changed: &change.changed,
        })?)
    } else {
        human(change)
    }))
}

/// `memwb watch` on the folder `open` holds: one line per change another program makes.
pub(super) fn run(open: &Open, args: &WatchArgs) -> anyhow::Result<u8> {
    let backend = open.backend();
    if args.record {
        if let Some(why) = backend.lacks(Capability::RecordOutsideChanges) {
            anyhow::bail!("--record: {why}");
        }
        return super::watch_record::run(vec![open.clone()], args.json);
    }
    watch(backend.as_ref(), args.json)
}

fn watch(backend: &dyn Backend, json: bool) -> anyhow::Result<u8> {
    let (tx, rx) = std::sync::mpsc::channel();
    let (_watcher, baseline) = backend.watch(Box::new(move |watched| {
        let _ = tx.send(watched.event);
    }))?;
    let stdout = std::io::stdout();
    if let Some(error) = baseline.unreadable_reason() {
        let line = UnreadableLine {
            at: now_ms(),
            error: &error,
        };
        let mut out = stdout.lock();
        writeln!(out, "{}", unreadable(&line, json)?)?;
        out.flush()?;
    }
    // Every change from here on is reported: the watch is set up and the baseline taken.
    eprintln!(
        "watching {}",
        sanitize::line(&backend.root().display().to_string())
    );
    for event in rx {
        match event {
            WatchEvent::Changed(change) => {
                let Some(line) = said(&change, json)? else {
                    continue;
                };
                let mut out = stdout.lock();
                writeln!(out, "{line}")?;
                out.flush()?;
            }
            WatchEvent::Reread(_) | WatchEvent::Review => {}
            WatchEvent::Error(message) => eprintln!("warning: {}", sanitize::line(&message)),
        }
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A change that names no memory says so in the product's word on both formats (the
    /// line is format-neutral): "memory", not a `.memory` set's "record".
    #[test]
    fn a_change_naming_no_memory_says_no_memory_changed() {
        let line = human_line(0, [("added", &[]), ("removed", &[]), ("changed", &[])]);
        assert!(line.ends_with(" no memory changed"), "{line}");
        let named = ["beta".to_owned()];
        let line = human_line(0, [("added", &named), ("removed", &[]), ("changed", &[])]);
        assert!(line.ends_with(" added: beta"), "{line}");
    }
}
