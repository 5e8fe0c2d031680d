//! What `check` reports about memwb's own state (`.memory/.memwb`, a Claude Code folder's
//! state directory): links and non-regular files where state belongs, leftover temp files,
//! corrupt proposals, and the journal's damage and pending intent. Never fails: whatever
//! cannot be read is itself a finding. Each format's engine finds its state directory and
//! journal and adds its own traces (`formats::memory::journal::audit`,
//! `formats::claude::audit_inputs`).

use rustix::fs::FileType;

use super::error::ReviewError;
use super::journal::{DAMAGED_PREFIX, JOURNAL_FILE, Journal, MEMWB_DIR, TORN_PREFIX};
use super::proposal::{self, PROPOSALS_DIR};
use super::state::CACHE_DIR;
use super::state::StateDir;

use crate::finding::{Finding, Severity};
use crate::fs::FsError;

pub(crate) fn finding(
    code: &'static str,
    severity: Severity,
    file: String,
    message: String,
) -> Finding {
    Finding::new(code, severity, Some(file), message)
}

const LINK_RULE: &str =
    "a symbolic link where memwb keeps its state; it is never followed (remove it)";

fn link(file: String) -> Finding {
    finding("state-escapes", Severity::Error, file, LINK_RULE.into())
}

fn not_a_file(file: String, kind: &str) -> Finding {
    finding(
        "not-a-file",
        Severity::Error,
        file,
        format!("a {kind} where memwb keeps a file; it is never read (remove it)"),
    )
}

fn not_a_directory(file: String) -> Finding {
    finding(
        "state-not-a-directory",
        Severity::Error,
        file,
        "not a directory; memwb cannot keep its state here until it is moved aside".into(),
    )
}

fn is_temp(name: &str) -> bool {
    name.starts_with('.') && name.ends_with(".tmp")
}

/// Links, non-regular files and temp files directly in `dir` (shown as `prefix/<name>`).
fn scan_dir(dir: &StateDir, prefix: &str, subdirs: &[&str], out: &mut Vec<Finding>) {
    let names = match dir.names() {
        Ok(names) => names,
        Err(e) => {
            out.push(finding(
                "state-unreadable",
                Severity::Error,
                prefix.to_owned(),
                e.to_string(),
            ));
            return;
        }
    };
    for name in names {
        let file = format!("{prefix}/{name}");
        match dir.file_type(&name) {
            Some(FileType::Symlink) => out.push(link(file)),
            // memwb's own folders (proposals, the evaluation's reply cache, ...).
            Some(FileType::Directory) => {}
            Some(_) if subdirs.contains(&name.as_str()) => out.push(not_a_directory(file)),
            Some(FileType::RegularFile) if is_temp(&name) => out.push(finding(
                "temp-file",
                Severity::Warning,
                file,
                "leftover temporary file of an interrupted write".into(),
            )),
            Some(FileType::RegularFile) => {}
            Some(FileType::Fifo) => out.push(not_a_file(file, "FIFO")),
            Some(FileType::Socket) => out.push(not_a_file(file, "socket")),
            Some(_) => out.push(not_a_file(file, "device or special file")),
            None => {}
        }
    }
}

/// Every finding about a format's state directory `state` (shown as `.memwb`, where a
/// `.memory` set keeps it), whose journal is `journal`. The format's engine opens `state` and
/// reports what keeps it from opening ([`error_finding`]).
pub(crate) fn state_dir_findings(state: &StateDir, journal: &Journal) -> Vec<Finding> {
    let mut out = Vec::new();
    scan_dir(state, MEMWB_DIR, &[PROPOSALS_DIR, CACHE_DIR], &mut out);
    if let Ok(Some(cache)) = state.subdir(CACHE_DIR) {
        scan_dir(&cache, &format!("{MEMWB_DIR}/{CACHE_DIR}"), &[], &mut out);
    }
    let proposals_dir = format!("{MEMWB_DIR}/{PROPOSALS_DIR}");
    match state.subdir(PROPOSALS_DIR) {
        Ok(Some(dir)) => scan_dir(&dir, &proposals_dir, &[], &mut out),
        Ok(None) => {}
        // Already reported by the scan of `.memwb`.
        Err(_) => {}
    }
    if let Ok(listing) = proposal::list_all_in(Some(state)) {
        for corrupt in listing.corrupt {
            let file = format!("{proposals_dir}/{}", corrupt.file);
            // A link or FIFO was reported above; here only what reads but does not parse.
            if matches!(
                state_type(state, &corrupt.file),
                Some(FileType::RegularFile)
            ) {
                out.push(finding(
                    "proposal-corrupt",
                    Severity::Error,
                    file,
                    format!("{}; `memwb proposals` lists it as corrupt", corrupt.error),
                ));
            }
        }
    }
    for name in state.names().unwrap_or_default() {
        if name.starts_with(TORN_PREFIX) || name.starts_with(DAMAGED_PREFIX) {
            out.push(finding(
                "journal-set-aside",
                Severity::Warning,
                format!("{MEMWB_DIR}/{name}"),
                "journal lines that were torn or damaged, moved aside; look at them, then delete the file".into(),
            ));
        }
    }
    let file = format!("{MEMWB_DIR}/{JOURNAL_FILE}");
    journal_findings(journal, file, "the next change (or `memwb log`)", &mut out);
    out
}

fn state_type(state: &StateDir, proposal_file: &str) -> Option<FileType> {
    state
        .subdir(PROPOSALS_DIR)
        .ok()
        .flatten()
        .and_then(|dir| dir.file_type(proposal_file))
}

/// What keeps a state file or directory from being read, as a finding about `file`.
pub(crate) fn error_finding(error: &ReviewError, file: String) -> Finding {
    match error {
        ReviewError::StateEscapes { .. } => link(file),
        ReviewError::StateNotADirectory { .. } => not_a_directory(file),
        ReviewError::Fs(FsError::NotAFile { kind, .. }) => not_a_file(file, kind),
        other => finding("state-unreadable", Severity::Error, file, other.to_string()),
    }
}

/// The damage, torn line and pending intent of `journal` (shown as `file`); `decided_by` says
/// what decides a pending intent.
pub(crate) fn journal_findings(
    journal: &Journal,
    file: String,
    decided_by: &str,
    out: &mut Vec<Finding>,
) {
    let scan = match journal.scan() {
        Ok(scan) => scan,
        Err(e) => {
            // A link or FIFO in its place was reported by the folder scan.
            if !out.iter().any(|f| f.file.as_deref() == Some(file.as_str())) {
                out.push(error_finding(&e, file));
            }
            return;
        }
    };
    for damage in &scan.damaged {
        out.push(finding(
            "journal-damaged",
            Severity::Error,
            file.clone(),
            format!(
                "line {}: {}; `memwb log` skips it, `memwb repair --journal` moves it aside",
                damage.line, damage.reason
            ),
        ));
    }
    if scan.torn > 0 {
        out.push(finding(
            "journal-torn",
            Severity::Warning,
            file.clone(),
            format!(
                "the last {} bytes are a torn line (an interrupted append); the next change moves them to {TORN_PREFIX}<time>",
                scan.torn
            ),
        ));
    }
    if let Some(entry) = &scan.pending {
        out.push(finding(
            "journal-pending",
            Severity::Warning,
            file,
            format!(
                "entry #{} ({}) is an intent not yet marked committed or aborted: a change in progress, or one whose journal write failed; {decided_by} decides it from the files",
                entry.id,
                entry.op.as_str()
            ),
        ));
    }
}
