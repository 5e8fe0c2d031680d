//! Reading one Claude Code memory folder: its topic files, its MEMORY.md and its
//! consolidation lock, all as they are (nothing here fails on bad content).

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::error::{ClaudeError, Result};
use super::frontmatter::{self, Frontmatter, Parsed};
use super::fsread::{MAX_FILE_BYTES, describe, read_regular};
use super::index::{self, INDEX_FILE, LoadLimits, ParsedIndex};
use crate::fs::IoHooks;
use crate::memory::Memory;
use crate::store::Touched;

/// The lock auto dream holds while it consolidates: its text is the PID, its mtime the time of
/// the last consolidation.
pub const CONSOLIDATE_LOCK: &str = ".consolidate-lock";

/// How deep topic files are looked for under the folder.
const MAX_DEPTH: usize = 16;

/// A handle on one Claude Code memory folder.
#[derive(Debug, Clone)]
pub struct ClaudeFolder {
    root: PathBuf,
    limits: LoadLimits,
    /// Fault hooks every write step passes (tests fail or crash any one of them).
    hooks: IoHooks,
    /// Where memwb keeps its state for Claude Code folders, when not the default
    /// ([`super::state::state_root`]).
    state_root: Option<PathBuf>,
    /// How long a change waits for another memwb process's state lock, and who is told.
    lock_wait: LockWaitPolicy,
}

/// How a change waits for the folder's state lock ([`super::state::ClaudeState::lock`]).
#[derive(Clone)]
pub struct LockWaitPolicy {
    /// Give up after this long ([`ClaudeError::LockTimeout`]).
    pub timeout: std::time::Duration,
    /// Told once when the wait passes [`crate::locks::WAIT_NOTICE_AFTER`].
    pub notice: Option<crate::locks::WaitNotice>,
}

impl Default for LockWaitPolicy {
    fn default() -> Self {
        Self {
            timeout: crate::store::LockTiming::default().timeout,
            notice: None,
        }
    }
}

impl std::fmt::Debug for LockWaitPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LockWaitPolicy")
            .field("timeout", &self.timeout)
            .field("notice", &self.notice.is_some())
            .finish()
    }
}

/// One topic file: `file` (relative to the folder, `/`-separated) is its identity.
#[derive(Debug, Clone, PartialEq)]
pub struct Topic {
    pub file: String,
    pub content: TopicContent,
    pub modified: Option<SystemTime>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum TopicContent {
    Read(Parsed),
    /// Not valid UTF-8, not a regular file, too large, or an I/O error.
    Unreadable(String),
}

/// A topic file's name without `.md` and without its folder: the name of a memory whose
/// `name` field is missing or blank.
pub(crate) fn stem_of(file: &str) -> &str {
    let name = file.rsplit('/').next().unwrap_or(file);
    name.strip_suffix(".md").unwrap_or(name)
}

impl Topic {
    pub fn parsed(&self) -> Option<&Parsed> {
        match &self.content {
            TopicContent::Read(parsed) => Some(parsed),
            TopicContent::Unreadable(_) => None,
        }
    }

    /// The file name without `.md` and without its folder.
    pub fn stem(&self) -> &str {
        stem_of(&self.file)
    }

    /// The `name` field, else (missing or blank, as Claude Code leaves a name it could not
    /// slugify) the file's stem: a name never shows empty.
    pub fn name(&self) -> &str {
        self.parsed()
            .and_then(|p| p.field("name"))
            .filter(|name| !name.trim().is_empty())
            .unwrap_or_else(|| self.stem())
    }

    /// Whether [`Topic::name`] is the file's stem because the `name` field is missing or blank.
    pub fn name_from_file(&self) -> bool {
        self.name() == self.stem()
            && self
                .parsed()
                .and_then(|p| p.field("name"))
                .is_none_or(|name| name.trim().is_empty())
    }

    pub fn description(&self) -> Option<&str> {
        self.parsed().and_then(|p| p.field("description"))
    }

    pub fn kind(&self) -> Option<&str> {
        self.parsed().and_then(Parsed::kind)
    }

    /// The body as a person reads it and `add --body` takes it ([`Parsed::trimmed_body`]):
    /// not the blank line after the frontmatter, nor the file's last line breaks.
    pub fn body(&self) -> &str {
        self.parsed().map_or("", Parsed::trimmed_body)
    }

    /// The topic file as the read model, with no place in the set (that is the snapshot's
    /// to say: [`Snapshot::memories`]). The type is kept as written; the description's line
    /// is found in the frontmatter.
    pub fn memory(&self) -> Memory {
        let parsed = self.parsed();
        Memory {
            name: self.name().to_owned(),
            name_from_file: self.name_from_file(),
            kind: self.kind().map(str::to_owned),
            description: self.description().map(str::to_owned),
            body: self.body().to_owned(),
            file: self.file.clone(),
            extra: Some(parsed.map(Parsed::extra).unwrap_or_default()),
            position: None,
            unreadable: match &self.content {
                TopicContent::Read(_) => None,
                TopicContent::Unreadable(why) => Some(why.clone()),
            },
            description_line: parsed.and_then(|p| {
                p.raw
                    .lines()
                    .position(|l| l.trim_start().starts_with("description:"))
                    // The opening `---` is line 1, so the frontmatter's first line is line 2.
                    .map(|i| i + 2)
            }),
            body_line: parsed.map_or(1, Parsed::trimmed_body_line),
            frontmatter: parsed.map(|p| p.raw.clone()),
            modified: self.modified,
            journaled: None,
        }
    }

    pub fn frontmatter(&self) -> Option<&Frontmatter> {
        self.parsed().map(|p| &p.frontmatter)
    }
}

/// A file in the folder that is not a memory, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OtherFile {
    pub file: String,
    pub why: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Consolidation {
    /// The text of `.consolidate-lock` (a PID), trimmed.
    pub pid: String,
    /// Whether the lock holds: written under an hour ago by a process that is running.
    pub live: bool,
    pub last: Option<SystemTime>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum IndexFile {
    Missing,
    Unreadable(String),
    Read(ParsedIndex),
}

/// Everything read from the folder at one moment.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    pub root: PathBuf,
    /// Sorted by `file`.
    pub topics: Vec<Topic>,
    pub index: IndexFile,
    /// `MEMORY-archive.md` (what `index --fix` moved out of MEMORY.md), when it is readable.
    pub archive: Option<ParsedIndex>,
    pub index_modified: Option<SystemTime>,
    pub others: Vec<OtherFile>,
    pub consolidation: Option<Consolidation>,
}

impl ClaudeFolder {
    /// The folder at `path`, which must be a directory (a link to one is resolved).
    pub fn open(path: &Path, limits: LoadLimits) -> Result<Self> {
        let root = fs::canonicalize(path).map_err(|e| ClaudeError::io("open", path, e))?;
        if !root.is_dir() {
            return Err(ClaudeError::NotADirectory { path: root });
        }
        Ok(Self {
            root,
            limits,
            hooks: IoHooks::default(),
            state_root: None,
            lock_wait: LockWaitPolicy::default(),
        })
    }

    /// The same folder, with every write step passing `hooks`.
    pub fn with_hooks(mut self, hooks: IoHooks) -> Self {
        self.hooks = hooks;
        self
    }

    /// The same folder, with memwb's state kept under `root` instead of `$MEMWB_STATE_DIR` or
    /// the user's state directory.
    pub fn with_state_root(mut self, root: PathBuf) -> Self {
        self.state_root = Some(root);
        self
    }

    /// The same folder, its changes waiting for the state lock as `policy` says.
    pub fn with_lock_wait(mut self, policy: LockWaitPolicy) -> Self {
        self.lock_wait = policy;
        self
    }

    pub fn lock_wait(&self) -> &LockWaitPolicy {
        &self.lock_wait
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn hooks(&self) -> &IoHooks {
        &self.hooks
    }

    pub fn state_root(&self) -> Option<&Path> {
        self.state_root.as_deref()
    }

    pub fn limits(&self) -> LoadLimits {
        self.limits
    }

    pub fn index_path(&self) -> PathBuf {
        self.root.join(INDEX_FILE)
    }

    pub fn read(&self) -> Snapshot {
        self.read_reusing(&|_| None)
    }

    /// [`ClaudeFolder::read`], given `previous` (a reading of this folder) and every path
    /// `touched` since: a topic file that `previous` holds and that was not touched (nor a
    /// folder it is in) is taken from `previous` unread. The folder's listing, MEMORY.md and
    /// the consolidation lock are read again.
    pub fn reread(&self, previous: &Snapshot, touched: &Touched) -> Snapshot {
        if matches!(touched, Touched::All) || previous.root != self.root {
            return self.read();
        }
        let known: HashMap<&str, &Topic> = previous
            .topics
            .iter()
            .map(|topic| (topic.file.as_str(), topic))
            .collect();
        self.read_reusing(&|file| {
            if touched.may_have_changed(file) {
                return None;
            }
            known.get(file).map(|topic| (*topic).clone())
        })
    }

    /// Reads the folder, taking a topic file from `reuse` where it answers.
    fn read_reusing(&self, reuse: &dyn Fn(&str) -> Option<Topic>) -> Snapshot {
        let mut snapshot = Snapshot {
            root: self.root.clone(),
            topics: Vec::new(),
            index: IndexFile::Missing,
            archive: None,
            index_modified: None,
            others: Vec::new(),
            consolidation: None,
        };
        self.scan(&self.root, "", 0, reuse, &mut snapshot);
        snapshot.topics.sort_by(|a, b| a.file.cmp(&b.file));
        snapshot.others.sort_by(|a, b| a.file.cmp(&b.file));
        let index_path = self.index_path();
        snapshot.index_modified = modified(&index_path);
        snapshot.index = match read_regular(&index_path, MAX_FILE_BYTES) {
            Ok(None) => IndexFile::Missing,
            Ok(Some(bytes)) => match String::from_utf8(bytes) {
                Ok(text) => IndexFile::Read(index::parse(&text, self.limits)),
                Err(e) => IndexFile::Unreadable(format!(
                    "not valid UTF-8 (first bad byte at offset {})",
                    e.utf8_error().valid_up_to()
                )),
            },
            Err(e) => IndexFile::Unreadable(e.to_string()),
        };
        snapshot.archive =
            read_regular(&self.root.join(super::index::ARCHIVE_FILE), MAX_FILE_BYTES)
                .ok()
                .flatten()
                .and_then(|bytes| String::from_utf8(bytes).ok())
                .map(|text| index::parse(&text, self.limits));
        snapshot.consolidation = read_consolidation(&self.root.join(CONSOLIDATE_LOCK));
        snapshot
    }

    fn scan(
        &self,
        dir: &Path,
        prefix: &str,
        depth: usize,
        reuse: &dyn Fn(&str) -> Option<Topic>,
        out: &mut Snapshot,
    ) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        for entry in entries.filter_map(|e| e.ok()) {
            let Ok(name) = entry.file_name().into_string() else {
                out.others.push(OtherFile {
                    file: format!("{prefix}{}", entry.file_name().to_string_lossy()),
                    why: "its name is not valid UTF-8".into(),
                });
                continue;
            };
            let file = format!("{prefix}{name}");
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                // Hidden folders are tools' own (memwb keeps its journal in one); a subfolder
                // with its own MEMORY.md is a memory folder of its own (a subagent's folder
                // under `agent-memory/`), not topic files of this one.
                let own_index = fs::symlink_metadata(entry.path().join(INDEX_FILE))
                    .is_ok_and(|m| m.file_type().is_file());
                if !name.starts_with('.') && depth < MAX_DEPTH && !own_index {
                    self.scan(&entry.path(), &format!("{file}/"), depth + 1, reuse, out);
                }
                continue;
            }
            // The archive `index --fix` writes is part of the index, not a memory.
            if depth == 0 && (name == INDEX_FILE || name == super::index::ARCHIVE_FILE) {
                continue;
            }
            if !name.ends_with(".md") {
                let why = if depth == 0 && name == CONSOLIDATE_LOCK {
                    "the consolidation lock, not a memory".to_owned()
                } else {
                    "not a memory (only *.md files are)".to_owned()
                };
                out.others.push(OtherFile { file, why });
                continue;
            }
            if !kind.is_file() {
                out.others.push(OtherFile {
                    file,
                    why: format!("{}, not a memory file", describe(kind)),
                });
                continue;
            }
            if let Some(topic) = reuse(&file) {
                out.topics.push(topic);
                continue;
            }
            let path = entry.path();
            let content = match read_regular(&path, MAX_FILE_BYTES) {
                Ok(Some(bytes)) => match String::from_utf8(bytes) {
                    Ok(text) => TopicContent::Read(frontmatter::parse(&text)),
                    Err(e) => TopicContent::Unreadable(format!(
                        "not valid UTF-8 (first bad byte at offset {})",
                        e.utf8_error().valid_up_to()
                    )),
                },
                Ok(None) => continue, // removed while scanning
                Err(e) => TopicContent::Unreadable(e.to_string()),
            };
            out.topics.push(Topic {
                file,
                content,
                modified: modified(&path),
            });
        }
    }
}

impl Snapshot {
    pub fn topic(&self, file: &str) -> Option<&Topic> {
        self.topics.iter().find(|t| t.file == file)
    }

    pub fn parsed_index(&self) -> Option<&ParsedIndex> {
        match &self.index {
            IndexFile::Read(index) => Some(index),
            _ => None,
        }
    }

    /// Topic files in index order (first entry linking to each), then the unlisted ones.
    pub fn ordered(&self) -> Vec<&Topic> {
        // By file, and which are placed: a lookup per entry, not a scan (200 files, 200
        // entries: the scans were 80,000 comparisons per reading).
        let by_file: HashMap<&str, &Topic> =
            self.topics.iter().map(|t| (t.file.as_str(), t)).collect();
        let mut placed: HashSet<&str> = HashSet::with_capacity(self.topics.len());
        let mut out: Vec<&Topic> = Vec::with_capacity(self.topics.len());
        if let Some(index) = self.parsed_index() {
            for file in index.entries().filter_map(|l| l.entry_file()) {
                if let Some(topic) = by_file.get(file)
                    && placed.insert(topic.file.as_str())
                {
                    out.push(topic);
                }
            }
        }
        for topic in &self.topics {
            if placed.insert(topic.file.as_str()) {
                out.push(topic);
            }
        }
        out
    }

    /// Every topic file as the read model, in [`Snapshot::ordered`] order; one that does not
    /// read is there too, named after its file, with why.
    pub fn memories(&self) -> Vec<Memory> {
        self.ordered()
            .into_iter()
            .enumerate()
            .map(|(place, topic)| Memory {
                position: self.is_listed(&topic.file).then_some(place),
                ..topic.memory()
            })
            .collect()
    }

    /// Whether MEMORY.md links to `file`, from an entry or from prose, or links to the
    /// archive that lists it (the agent finds it by following links, not by searching).
    pub fn is_listed(&self, file: &str) -> bool {
        self.parsed_index().is_some_and(|index| {
            index.links_to(file)
                || (index.links_to(super::index::ARCHIVE_FILE)
                    && self.archive.as_ref().is_some_and(|a| a.links_to(file)))
        })
    }

    /// Whether a link from MEMORY.md to `file` reaches something: a topic file, or the archive.
    pub fn links_somewhere(&self, file: &str) -> bool {
        self.topic(file).is_some() || (file == super::index::ARCHIVE_FILE && self.archive.is_some())
    }

    /// The topic a query names: by `name`, else by file (with or without `.md`).
    pub fn find(&self, name: &str) -> Option<&Topic> {
        self.topics.iter().find(|t| t.name() == name).or_else(|| {
            self.topics
                .iter()
                .find(|t| t.file == name || t.file.strip_suffix(".md") == Some(name))
        })
    }

    /// The newest modification among MEMORY.md and the topic files.
    pub fn last_change(&self) -> Option<SystemTime> {
        self.topics
            .iter()
            .filter_map(|t| t.modified)
            .chain(self.index_modified)
            .max()
    }
}

fn modified(path: &Path) -> Option<SystemTime> {
    fs::symlink_metadata(path).ok()?.modified().ok()
}

/// Claude Code takes over a `.consolidate-lock` this old whatever its PID says.
const CONSOLIDATION_STALE_AFTER: std::time::Duration = std::time::Duration::from_secs(3600);

/// The lock, held (`live`) only while its mtime is under an hour old and its PID runs:
/// Claude Code's own rule (a PID alone would hold it forever once reused, PID 1 for one).
pub(crate) fn read_consolidation(path: &Path) -> Option<Consolidation> {
    let last = modified(path);
    let bytes = read_regular(path, 4096).ok()??;
    let pid = String::from_utf8_lossy(&bytes).trim().to_owned();
    // A time in the future (clock skew) counts as fresh, as an age of zero.
    let fresh = last.is_some_and(|at| {
        at.elapsed()
            .map_or(true, |age| age < CONSOLIDATION_STALE_AFTER)
    });
    Some(Consolidation {
        live: fresh && is_running(&pid),
        pid,
        last,
    })
}

/// Whether a process with this PID exists (`kill(pid, 0)`; a process of another user counts).
fn is_running(pid: &str) -> bool {
    let Some(pid) = pid
        .parse::<i32>()
        .ok()
        .filter(|&pid| pid > 0)
        .and_then(rustix::process::Pid::from_raw)
    else {
        return false;
    };
    match rustix::process::test_kill_process(pid) {
        Ok(()) => true,
        Err(e) => e == rustix::io::Errno::PERM,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_pid_is_running_and_nonsense_is_not() {
        assert!(is_running(&std::process::id().to_string()));
        assert!(!is_running("not a pid"));
        assert!(!is_running("0"));
    }

    #[test]
    fn a_consolidate_lock_is_held_only_while_under_an_hour_old_and_its_pid_lives() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join(CONSOLIDATE_LOCK);
        fs::write(&path, std::process::id().to_string()).expect("write");
        assert!(read_consolidation(&path).expect("lock").live, "fresh, live");
        let file = fs::File::options().write(true).open(&path).expect("open");
        let two_hours_ago = SystemTime::now() - std::time::Duration::from_secs(2 * 3600);
        file.set_modified(two_hours_ago).expect("set mtime");
        let old = read_consolidation(&path).expect("lock");
        assert!(!old.live, "an hour old: Claude Code takes it over");
        fs::write(&path, "4194305").expect("write");
        assert!(
            !read_consolidation(&path).expect("lock").live,
            "fresh, dead"
        );
    }

    #[test]
    fn a_rereading_reads_what_was_touched_and_keeps_the_rest() {
        let dir = tempfile::tempdir().expect("temp dir");
        let topic = |text: &str| format!("---\nname: t\ndescription: d\n---\n{text}\n");
        fs::create_dir(dir.path().join("notes")).expect("mkdir");
        fs::write(dir.path().join("a.md"), topic("one")).expect("write");
        fs::write(dir.path().join("notes/b.md"), topic("two")).expect("write");
        let folder = ClaudeFolder::open(dir.path(), LoadLimits::default()).expect("open");
        let before = folder.read();
        fs::write(dir.path().join("a.md"), topic("ONE")).expect("edit");
        fs::write(dir.path().join("notes/b.md"), topic("TWO")).expect("edit");
        fs::write(dir.path().join("c.md"), topic("three")).expect("add");
        let mut touched = Touched::default();
        touched.file("c.md");
        let partly = folder.reread(&before, &touched);
        assert_eq!(
            partly.topic("a.md"),
            before.topic("a.md"),
            "not touched: kept"
        );
        assert_eq!(partly.topic("c.md").expect("added").body(), "three");
        touched.file("a.md");
        touched.file("notes");
        assert_eq!(folder.reread(&before, &touched), folder.read());
        fs::remove_file(dir.path().join("a.md")).expect("remove");
        let gone = folder.reread(&before, &Touched::default());
        assert!(
            gone.topic("a.md").is_none(),
            "a file no longer listed is gone"
        );
        assert_eq!(folder.reread(&before, &Touched::All), folder.read());
    }
}
