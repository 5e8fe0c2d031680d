//! The audit: everything about a `.memory` folder, never failing on bad content.

use std::collections::HashSet;
use std::fs;
use std::os::fd::OwnedFd;
use std::path::PathBuf;
use std::time::SystemTime;

use serde::Serialize;

use super::error::StoreError;
use super::lock::{self, LockState};
use super::record_file::EntryFailure;
use super::{Commit, MemorySet, Record, Store, StoredRecord, codec, index, manifest, parallel};
use crate::finding::{Finding, Severity};
use crate::fs::{Links, read_regular};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntryState {
    Valid(Record),
    /// The file is there but does not parse or validate; `raw` is its text (lossy UTF-8).
    Invalid {
        error: codec::ParseError,
        raw: String,
    },
    Missing,
    Escapes,
    /// The manifest lists a name that breaks the file-name rules; it was not opened.
    UnsafeName,
    /// A FIFO, device, socket or directory in place of the record file: refused unread.
    NotAFile {
        kind: &'static str,
    },
    Unreadable(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManifestEntry {
    pub file: String,
    pub state: EntryState,
}

impl ManifestEntry {
    pub fn record(&self) -> Option<&Record> {
        match &self.state {
            EntryState::Valid(r) => Some(r),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ManifestState {
    Missing,
    Valid,
    Invalid(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum IndexStatus {
    /// MEMORY.md is absent although the set is not empty.
    Missing,
    InSync,
    Drifted,
    /// The set cannot be read, so there is nothing to compare with.
    Unknown,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexState {
    pub on_disk: Option<String>,
    pub derived: Option<String>,
    pub status: IndexStatus,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct BudgetUse {
    pub index_lines: usize,
    pub index_bytes: usize,
    pub max_index_lines: usize,
    pub max_index_bytes: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inspection {
    pub workspace: PathBuf,
    pub root: PathBuf,
    /// Set when `.memory` is a link or resolves outside the workspace.
    pub root_error: Option<String>,
    pub manifest: ManifestState,
    pub entries: Vec<ManifestEntry>,
    /// `.md` files in `.memory` that the manifest does not list.
    pub unlisted: Vec<String>,
    /// Leftover `.<random>.tmp` files of interrupted atomic replaces.
    pub temp_files: Vec<String>,
    /// `manifest.json` or `MEMORY.md` that is not a regular file (or is too large to read),
    /// with why: refused unread.
    pub refused_files: Vec<(String, String)>,
    /// `manifest.json` or `MEMORY.md` that is a symbolic link: never followed.
    pub linked_files: Vec<String>,
    pub lock: LockState,
    /// A `.lock` that the lock protocol cannot have made (a file, a link, a directory that is
    /// not empty), with what it is: no writer breaks it when it is stale.
    pub lock_blocked: Option<&'static str>,
    pub index: IndexState,
    pub budget: BudgetUse,
}

/// Share of a budget at which `check` warns.
const BUDGET_WARNING: f64 = 0.9;

impl Inspection {
    /// The entries that are valid records, in manifest order, as a set.
    pub(crate) fn valid_set(&self) -> MemorySet {
        MemorySet {
            entries: self
                .entries
                .iter()
                .filter_map(|e| {
                    e.record().map(|r| StoredRecord {
                        file: e.file.clone(),
                        record: r.clone(),
                    })
                })
                .collect(),
        }
    }

    /// What changed from this inspection to `after`: [`Commit::between`] on the valid records,
    /// plus the files of entries that are not valid records, by file name.
    pub fn diff(&self, after: &Inspection) -> Commit {
        let mut commit = Commit::between(&self.valid_set(), after.valid_set());
        let invalid = |i: &Inspection| -> Vec<String> {
            i.entries
                .iter()
                .filter(|e| e.record().is_none())
                .map(|e| e.file.clone())
                .collect()
        };
        let (old, new) = (invalid(self), invalid(after));
        commit
            .added
            .extend(new.iter().filter(|f| !old.contains(f)).cloned());
        commit
            .removed
            .extend(old.iter().filter(|f| !new.contains(f)).cloned());
        commit
    }

    /// Whether the strict reader would accept the set.
    pub fn is_readable(&self) -> bool {
        self.root_error.is_none()
            && !matches!(self.manifest, ManifestState::Invalid(_))
            && self.entries.iter().all(|e| e.record().is_some())
    }

    pub fn valid_records(&self) -> impl Iterator<Item = &Record> {
        self.entries.iter().filter_map(ManifestEntry::record)
    }

    pub fn findings(&self) -> Vec<Finding> {
        let mut out = Vec::new();
        let mut push = |code, severity, file: Option<&str>, message: String| {
            out.push(Finding::new(
                code,
                severity,
                file.map(str::to_owned),
                message,
            ))
        };
        use Severity::{Error, Warning};
        if let Some(message) = &self.root_error {
            push("root-escapes", Error, None, message.clone());
            return out;
        }
        for file in &self.linked_files {
            push(
                "symlink",
                Error,
                Some(file),
                "a symbolic link, which is never followed (it could lead outside the workspace); replace it with the file itself".into(),
            );
        }
        for (file, message) in &self.refused_files {
            if !self.linked_files.contains(file) {
                push("not-a-file", Error, Some(file), message.clone());
            }
        }
        let manifest_refused = self
            .refused_files
            .iter()
            .any(|(file, _)| file == manifest::MANIFEST_FILE)
            || self
                .linked_files
                .iter()
                .any(|file| file == manifest::MANIFEST_FILE);
        if let ManifestState::Invalid(rule) = &self.manifest
            && !manifest_refused
        {
            push(
                "manifest-invalid",
                Error,
                Some(manifest::MANIFEST_FILE),
                rule.clone(),
            );
        }
        for entry in &self.entries {
            let file = Some(entry.file.as_str());
            match &entry.state {
                EntryState::Valid(_) | EntryState::UnsafeName => {}
                EntryState::Invalid { error, .. } => {
                    let message = error.to_string();
                    // Most parse errors already say where; add the line only when they do not.
                    let at = error
                        .line()
                        .filter(|l| !message.contains(&format!("line {l}")))
                        .map(|l| format!(" (line {l})"))
                        .unwrap_or_default();
                    push("record-invalid", Error, file, format!("{message}{at}"));
                }
                EntryState::Missing => push(
                    "record-missing",
                    Error,
                    file,
                    "listed in the manifest but missing".into(),
                ),
                EntryState::Escapes => push(
                    "record-escapes",
                    Error,
                    file,
                    "resolves outside .memory".into(),
                ),
                EntryState::NotAFile { kind } => push(
                    "not-a-file",
                    Error,
                    file,
                    format!("is a {kind}, not a regular file; it was not read"),
                ),
                EntryState::Unreadable(e) => push("record-invalid", Error, file, e.clone()),
            }
        }
        let valid = self
            .entries
            .iter()
            .filter_map(|e| e.record().map(|r| (r.name(), e.file.as_str())));
        for (name, files) in super::set::duplicate_names(valid.clone()) {
            push(
                "name-duplicate",
                Error,
                files.first().copied(),
                format!(
                    "the name {name:?} is held by {}: commands that address it by name refuse it; \
                     repair one of them (memwb repair FILE --from FIXED | --drop) or address it by file",
                    files.join(" and ")
                ),
            );
        }
        for (name, file) in valid {
            if !file
                .strip_prefix(name)
                .is_some_and(|rest| rest.starts_with('-'))
            {
                push(
                    "name-mismatch",
                    Warning,
                    Some(file),
                    format!(
                        "holds the record named {name:?}, which its file name does not start with"
                    ),
                );
            }
        }
        for file in &self.unlisted {
            push(
                "orphan-file",
                Warning,
                Some(file),
                "not listed in the manifest, so not in the set".into(),
            );
        }
        for file in &self.temp_files {
            push(
                "temp-file",
                Warning,
                Some(file),
                "leftover temporary file of an interrupted write".into(),
            );
        }
        let index_linked = self.linked_files.iter().any(|f| f == index::INDEX_FILE);
        match self.index.status {
            // A linked MEMORY.md is reported as such, not also as missing.
            _ if index_linked => {}
            IndexStatus::Missing => push("index-missing", Warning, Some(index::INDEX_FILE), "MEMORY.md is missing; `memwb index --fix --yes` rebuilds it".into()),
            IndexStatus::Drifted => push("index-drift", Warning, Some(index::INDEX_FILE), "MEMORY.md differs from the index the manifest derives; `memwb index --fix --yes` rebuilds it".into()),
            IndexStatus::InSync | IndexStatus::Unknown => {}
        }
        if let (LockState::Stale { .. }, Some(what)) = (&self.lock, self.lock_blocked) {
            push(
                "lock-blocked",
                Error,
                Some(lock::LOCK_DIR),
                format!(
                    "abandoned lock that is {what}, which no writer can break; once no agent is writing, remove it by hand (rm -r .memory/{})",
                    lock::LOCK_DIR
                ),
            );
        } else if let LockState::Stale { mtime_ms } = self.lock {
            push(
                "lock-stale",
                Warning,
                Some(lock::LOCK_DIR),
                format!(
                    "abandoned lock, last refreshed {}; the next writer breaks it",
                    crate::time::format_ms(mtime_ms)
                ),
            );
        }
        let b = self.budget;
        for (what, used, max) in [
            ("lines", b.index_lines, b.max_index_lines),
            ("bytes", b.index_bytes, b.max_index_bytes),
        ] {
            if max > 0 && used as f64 >= BUDGET_WARNING * max as f64 {
                push(
                    "budget",
                    Warning,
                    Some(index::INDEX_FILE),
                    format!("index uses {used} of {max} {what}"),
                );
            }
        }
        out
    }
}

impl Store {
    /// Audits the folder. Only problems with the workspace itself (which `open` already
    /// resolved) could stop it, so it returns a report for every folder state.
    pub fn inspect(&self) -> Inspection {
        self.inspect_reusing(&|_| None)
    }

    /// [`Store::inspect`], taking the state of a listed entry from `reuse` where it answers
    /// (see `reinspect.rs`) instead of reading its file.
    pub(super) fn inspect_reusing(
        &self,
        reuse: &(dyn Fn(&str) -> Option<EntryState> + Sync),
    ) -> Inspection {
        let options = &self.options;
        let mut report = Inspection {
            workspace: self.workspace.clone(),
            root: self.root.clone(),
            root_error: None,
            manifest: ManifestState::Missing,
            entries: Vec::new(),
            unlisted: Vec::new(),
            temp_files: Vec::new(),
            refused_files: Vec::new(),
            linked_files: Vec::new(),
            lock: LockState::Free,
            lock_blocked: None,
            index: IndexState {
                on_disk: None,
                derived: Some(String::new()),
                status: IndexStatus::InSync,
            },
            budget: BudgetUse {
                index_lines: 0,
                index_bytes: 0,
                max_index_lines: options.max_index_lines,
                max_index_bytes: options.max_index_bytes,
            },
        };
        match self.check_root() {
            Ok(true) => {}
            Ok(false) => return report,
            Err(e) => {
                report.root_error = Some(e.to_string());
                report.index.status = IndexStatus::Unknown;
                report.index.derived = None;
                return report;
            }
        }
        let listed = self.inspect_manifest(&mut report);
        // Relative to `.memory` as checked above; a failure here only means no cache.
        let dir = self.open_root().ok().flatten();
        let looked_at = SystemTime::now();
        report.entries = parallel::map_in_order(&listed, |(file, safe)| ManifestEntry {
            file: file.clone(),
            state: if !*safe {
                EntryState::UnsafeName
            } else if let Some(state) = reuse(file) {
                state
            } else {
                self.inspect_entry(dir.as_ref(), file, looked_at)
            },
        });
        self.scan_folder(&mut report, &listed);
        report.lock = lock::observe(&self.root, options.lock.stale);
        report.lock_blocked = lock::blocked(&self.root.join(lock::LOCK_DIR));
        report.linked_files = [manifest::MANIFEST_FILE, index::INDEX_FILE]
            .into_iter()
            .filter(|file| {
                fs::symlink_metadata(self.root.join(file)).is_ok_and(|m| m.file_type().is_symlink())
            })
            .map(str::to_owned)
            .collect();
        report.index.on_disk = match read_regular(
            &self.index_path(),
            index::MAX_INDEX_FILE_BYTES,
            Links::Refuse,
        ) {
            Ok(bytes) => bytes.map(|b| String::from_utf8_lossy(&b).into_owned()),
            Err(e) => {
                report
                    .refused_files
                    .push((index::INDEX_FILE.to_owned(), e.to_string()));
                None
            }
        };
        if report.is_readable() {
            let derived = index::render(
                report
                    .entries
                    .iter()
                    .filter_map(|e| e.record().map(|r| (e.file.as_str(), r))),
            );
            let (lines, bytes) = index::measure(&derived);
            report.budget.index_lines = lines;
            report.budget.index_bytes = bytes;
            report.index.status = match &report.index.on_disk {
                None if derived.is_empty() => IndexStatus::InSync,
                None => IndexStatus::Missing,
                Some(text) if *text == derived => IndexStatus::InSync,
                Some(_) => IndexStatus::Drifted,
            };
            report.index.derived = Some(derived);
        } else {
            report.index.derived = None;
            report.index.status = IndexStatus::Unknown;
        }
        report
    }

    /// The listed file names, each with whether it passes the file-name rules.
    fn inspect_manifest(&self, report: &mut Inspection) -> Vec<(String, bool)> {
        let bytes = match self.read_manifest_bytes() {
            Ok(Some(bytes)) => bytes,
            Ok(None) => return Vec::new(),
            Err(e) => {
                if matches!(e, StoreError::NotAFile { .. } | StoreError::TooLarge { .. }) {
                    report
                        .refused_files
                        .push((manifest::MANIFEST_FILE.to_owned(), e.to_string()));
                }
                report.manifest = ManifestState::Invalid(e.to_string());
                return Vec::new();
            }
        };
        match manifest::parse(&bytes, self.options.max_index_lines) {
            Ok(files) => {
                report.manifest = ManifestState::Valid;
                files.into_iter().map(|f| (f, true)).collect()
            }
            Err(e) => {
                report.manifest = ManifestState::Invalid(e.to_string());
                manifest::parse_lenient(&bytes)
                    .unwrap_or_default()
                    .into_iter()
                    .map(|f| {
                        let safe = manifest::is_safe_file_name(&f);
                        (f, safe)
                    })
                    .collect()
            }
        }
    }

    /// One listed entry with a safe name, read the one way record files are read
    /// ([`Store::load_entry`]: the record cache when one `lstat` shows the very file it was
    /// parsed from, else the file), every failure kept as what it says about the entry.
    fn inspect_entry(
        &self,
        dir: Option<&OwnedFd>,
        file: &str,
        looked_at: SystemTime,
    ) -> EntryState {
        match self.load_entry(dir, file, looked_at) {
            Ok(record) => EntryState::Valid(record),
            Err(EntryFailure::Invalid { error, bytes }) => EntryState::Invalid {
                error,
                raw: String::from_utf8_lossy(&bytes).into_owned(),
            },
            Err(EntryFailure::Unread(error)) => match error {
                StoreError::RecordMissing { .. } => EntryState::Missing,
                StoreError::RecordEscapes { .. } => EntryState::Escapes,
                StoreError::NotAFile { kind, .. } => EntryState::NotAFile { kind },
                e => EntryState::Unreadable(e.to_string()),
            },
        }
    }

    fn scan_folder(&self, report: &mut Inspection, listed: &[(String, bool)]) {
        let Ok(dir) = fs::read_dir(&self.root) else {
            return;
        };
        let mut names: Vec<String> = dir
            .filter_map(|e| e.ok())
            .filter_map(|e| e.file_name().into_string().ok())
            .collect();
        names.sort();
        let listed: HashSet<&str> = listed.iter().map(|(f, _)| f.as_str()).collect();
        for name in names {
            if name.starts_with('.') && name.ends_with(".tmp") {
                report.temp_files.push(name);
            } else if name.ends_with(".md")
                && name != index::INDEX_FILE
                && !listed.contains(name.as_str())
            {
                report.unlisted.push(name);
            }
        }
    }
}
