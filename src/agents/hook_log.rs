//! `hook.log`: where a hook call's problems and decision go, since a hook answers its program
//! and nobody else (docs/claude-code.md says why a hook must fail open). `memwb hooks status`
//! reads the last lines back.

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::PathBuf;

use super::HookReply;
use crate::fs::{Links, read_regular};
use crate::sanitize::inert;

/// The file problems are appended to, in the folder's state directory (else the state root).
pub(crate) const LOG_FILE: &str = "hook.log";

/// How a decision's line in `hook.log` starts, after its time.
pub(crate) const DECISION: &str = "decision: ";

/// Most of a `hook.log` read.
const MAX_LOG_BYTES: usize = 16 * 1024 * 1024;

/// Appends the problems, and the decision when there was one, to `hook.log`; a log that
/// cannot be written is not a reason to fail.
pub(crate) fn append(reply: &HookReply) {
    if reply.problems.is_empty() && reply.decision.is_none() {
        return;
    }
    let Some(dir) = &reply.log_dir else {
        return;
    };
    if crate::fs::create_private_dir_all(dir).is_err() {
        return;
    }
    let at = crate::time::format_ms(crate::time::now_ms());
    let mut text = String::new();
    for problem in &reply.problems {
        text.push_str(&format!("{at} {}\n", inert(problem).replace('\n', " ")));
    }
    if let Some(decision) = &reply.decision {
        text.push_str(&format!("{at} {DECISION}{}\n", inert(decision)));
    }
    if let Ok(mut file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .mode(crate::fs::PRIVATE_FILE)
        .open(dir.join(LOG_FILE))
    {
        let _ = file.write_all(text.as_bytes());
    }
}

/// The lines of `hook.log` in each of `dirs`, oldest first (each starts with its time).
pub(crate) fn lines(dirs: &[PathBuf]) -> Vec<String> {
    let mut lines: Vec<String> = dirs
        .iter()
        .filter_map(|dir| read_regular(&dir.join(LOG_FILE), MAX_LOG_BYTES, Links::Refuse).ok()?)
        .flat_map(|bytes| {
            String::from_utf8_lossy(&bytes)
                .lines()
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .collect();
    lines.sort();
    lines
}

/// The newest decision in `lines`, as `<time> (<decision>)`.
pub(crate) fn last_decision(lines: &[String]) -> Option<String> {
    lines.iter().rev().find_map(|line| {
        let (at, rest) = line.split_once(' ')?;
        rest.strip_prefix(DECISION).map(|d| format!("{at} ({d})"))
    })
}
