//! memwb's own files about one Claude Code folder, kept OUTSIDE that folder (Claude Code would
//! take anything inside it for a memory): `<state>/claude/<slug>-<12 hex>/`, where `<state>` is
//! `$MEMWB_STATE_DIR`, else the user's state directory (`$XDG_STATE_HOME/memwb`, else
//! `~/.local/state/memwb`), and the 12 hex digits start the SHA-256 of the folder's canonical
//! path. It holds `folder` (that path, for people), the journal, proposals, evaluation state,
//! and `lock`: the advisory lock memwb processes take around every change to the folder.

use std::fs::{self, File};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use rustix::fs::{Mode, OFlags};
use sha2::{Digest, Sha256};

use super::error::{ClaudeError, Result};
use super::folder::{ClaudeFolder, LockWaitPolicy};
use crate::fs::IoHooks;
use crate::locks::{GateTurn, LockWait, WAIT_NOTICE_AFTER};

/// Overrides the state directory (tests always set it).
pub const STATE_DIR_ENV: &str = "MEMWB_STATE_DIR";
/// The lock file inside a folder's state directory.
pub const LOCK_FILE: &str = "lock";
/// The canonical path of the folder a state directory is about, for people.
pub const FOLDER_FILE: &str = "folder";
/// Most characters of the path's slug kept in the directory's name (its end: the project).
const SLUG_CHARS: usize = 64;
/// How often a waiting change tries the lock again.
const LOCK_RETRY: Duration = Duration::from_millis(10);

/// The state directory of one Claude Code folder.
#[derive(Debug, Clone)]
pub struct ClaudeState {
    path: PathBuf,
    folder: PathBuf,
    hooks: IoHooks,
    lock_wait: LockWaitPolicy,
}

/// Held while a memwb process changes the folder; dropping it releases the lock. It also
/// counts in the process's exit gate (`locks::close_for_exit`), so a signal
/// lets the change finish or roll back before the process exits.
pub struct StateLock {
    // Dropped in this order: the lock is released before the exit gate lets the process go.
    _file: File,
    _gate: GateTurn,
}

impl std::fmt::Debug for StateLock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StateLock")
    }
}

/// Where memwb keeps state: `$MEMWB_STATE_DIR`, else the platform's state directory (on Linux
/// `$XDG_STATE_HOME`, else `~/.local/state`; elsewhere the local data directory) + `memwb`.
pub fn state_root() -> Result<PathBuf> {
    if let Some(dir) = std::env::var_os(STATE_DIR_ENV).filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    let base = directories::BaseDirs::new().ok_or(ClaudeError::NoStateDir)?;
    let dir = base.state_dir().unwrap_or_else(|| base.data_local_dir());
    Ok(dir.join("memwb"))
}

/// The name of a folder's state directory: a readable slug of its path and the first 12 hex
/// digits of the path's SHA-256 (the slug alone loses `/`, `.` and `_`, so it is not a key).
pub fn key(canonical: &Path) -> String {
    let slug: String = canonical
        .to_string_lossy()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let start = slug.len().saturating_sub(SLUG_CHARS);
    let slug = slug[start..].trim_matches('-');
    let digest = Sha256::digest(canonical.as_os_str().as_bytes());
    let hex: String = digest[..6].iter().map(|b| format!("{b:02x}")).collect();
    if slug.is_empty() {
        hex
    } else {
        format!("{slug}-{hex}")
    }
}

impl ClaudeState {
    /// The state directory of `folder`, created (private to the user) if needed.
    pub fn for_folder(folder: &ClaudeFolder) -> Result<Self> {
        let path = Self::path_of(folder)?;
        refuse_link(&path)?;
        fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&path)
            .map_err(|e| ClaudeError::io("create", &path, e))?;
        // Checked again once it exists: nothing is written until it is a real directory.
        refuse_link(&path)?;
        let state = Self {
            path,
            folder: folder.root().to_owned(),
            hooks: folder.hooks().clone(),
            lock_wait: folder.lock_wait().clone(),
        };
        state.note_folder(folder.root())?;
        Ok(state)
    }

    /// Where the state directory of `folder` is, whether or not it exists yet (what only
    /// reads, such as `check`, looks at without creating it).
    pub fn path_of(folder: &ClaudeFolder) -> Result<PathBuf> {
        let root = match folder.state_root() {
            Some(root) => root.to_owned(),
            None => state_root()?,
        };
        if !root.is_absolute() {
            return Err(ClaudeError::WriteRefused {
                path: root,
                rule: format!("{STATE_DIR_ENV} must be an absolute path"),
            });
        }
        Ok(root.join("claude").join(key(folder.root())))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The fault hooks of the folder this state is about.
    pub fn hooks(&self) -> &IoHooks {
        &self.hooks
    }

    /// Takes the lock, waiting for another memwb process that holds it as the folder's
    /// [`LockWaitPolicy`] says: its notice once the wait passes [`WAIT_NOTICE_AFTER`], then
    /// [`ClaudeError::LockTimeout`] at its timeout.
    pub fn lock(&self) -> Result<StateLock> {
        self.lock_until(Instant::now() + self.lock_wait.timeout)
    }

    /// Takes the lock, waiting for another holder until `deadline` at the latest (a caller
    /// with its own budget, such as a hook, passes its own deadline).
    pub fn lock_until(&self, deadline: Instant) -> Result<StateLock> {
        // Entered first: once the process is closing for a signal, no new change starts.
        let gate = GateTurn::enter();
        let file = self.open_lock()?;
        let started = Instant::now();
        let mut held_since: Option<i64> = None;
        let mut noticed = false;
        loop {
            if self.try_flock(&file)? {
                break;
            }
            let since = *held_since.get_or_insert_with(|| holder_since_ms(&file));
            if let Some(notice) = &self.lock_wait.notice
                && !noticed
                && started.elapsed() >= WAIT_NOTICE_AFTER
            {
                noticed = true;
                notice(LockWait {
                    held_since_ms: since,
                    waited: started.elapsed(),
                });
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(ClaudeError::LockTimeout {
                    folder: self.folder.clone(),
                    path: self.lock_path(),
                    waited_ms: started.elapsed().as_millis(),
                });
            }
            std::thread::sleep(LOCK_RETRY.min(deadline - now));
        }
        mark_held_now(&file);
        Ok(StateLock {
            _file: file,
            _gate: gate,
        })
    }

    /// Takes the lock if no one holds it; `None` when another holder has it.
    pub fn try_lock(&self) -> Result<Option<StateLock>> {
        let gate = GateTurn::enter();
        let file = self.open_lock()?;
        if !self.try_flock(&file)? {
            return Ok(None);
        }
        mark_held_now(&file);
        Ok(Some(StateLock {
            _file: file,
            _gate: gate,
        }))
    }

    fn try_flock(&self, file: &File) -> Result<bool> {
        match fs4::FileExt::try_lock(file) {
            Ok(()) => Ok(true),
            Err(fs4::TryLockError::WouldBlock) => Ok(false),
            Err(fs4::TryLockError::Error(e)) => Err(ClaudeError::io("lock", self.lock_path(), e)),
        }
    }

    fn lock_path(&self) -> PathBuf {
        self.path.join(LOCK_FILE)
    }

    /// The lock file, created if missing; never through a link, never a FIFO.
    fn open_lock(&self) -> Result<File> {
        let path = self.lock_path();
        let flags = OFlags::RDWR
            | OFlags::CREATE
            | OFlags::NOFOLLOW
            | OFlags::NONBLOCK
            | OFlags::CLOEXEC
            | OFlags::NOCTTY;
        let fd = rustix::fs::openat(rustix::fs::CWD, &path, flags, Mode::from_raw_mode(0o600))
            .map_err(|e| ClaudeError::io("open", &path, e.into()))?;
        let stat = rustix::fs::fstat(&fd).map_err(|e| ClaudeError::io("stat", &path, e.into()))?;
        if rustix::fs::FileType::from_raw_mode(stat.st_mode) != rustix::fs::FileType::RegularFile {
            return Err(ClaudeError::WriteRefused {
                path,
                rule: "the state lock must be a regular file".into(),
            });
        }
        Ok(File::from(fd))
    }

    /// Writes `folder` (the canonical path) when it is missing or says something else.
    fn note_folder(&self, canonical: &Path) -> Result<()> {
        let path = self.path.join(FOLDER_FILE);
        let mut text = canonical.as_os_str().as_bytes().to_vec();
        text.push(b'\n');
        match crate::fs::read_regular(&path, 64 * 1024, crate::fs::Links::Refuse) {
            Ok(Some(there)) if there == text => return Ok(()),
            Ok(_) => {}
            Err(e) => return Err(e.into()),
        }
        Ok(crate::fs::atomic_replace_private(
            &path,
            &text,
            &IoHooks::default(),
        )?)
    }
}

/// Refuses a state directory that is a symbolic link (or not a directory), before anything
/// is written through it.
fn refuse_link(path: &Path) -> Result<()> {
    let rule = match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            "memwb's state directory for this Claude Code folder is a symbolic link; memwb never writes its journal or lock through one (remove the link)"
        }
        Ok(meta) if !meta.is_dir() => {
            "memwb's state directory for this Claude Code folder is not a directory"
        }
        _ => return Ok(()),
    };
    Err(ClaudeError::WriteRefused {
        path: path.to_owned(),
        rule: rule.into(),
    })
}

/// The holder stamps the lock file's mtime when it takes the lock, so that a waiter can say
/// since when it is held (as the `.memory` lock's mtime says).
fn mark_held_now(file: &File) {
    if let Err(e) = file.set_modified(SystemTime::now()) {
        tracing::debug!(error = %e, "could not stamp the state lock's time");
    }
}

/// When the lock's holder took it (Unix ms), from the stamp [`mark_held_now`] left; now when
/// the stamp cannot be read.
fn holder_since_ms(file: &File) -> i64 {
    let now = crate::time::now_ms();
    file.metadata()
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok())
        .and_then(|d| i64::try_from(d.as_millis()).ok())
        .map_or(now, |ms| ms.min(now))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claude::LoadLimits;

    #[test]
    fn the_key_is_a_readable_slug_and_a_hash_of_the_whole_path() {
        let a = key(Path::new(
            "/home/ana/.claude/projects/-home-ana-shop/memory",
        ));
        assert!(
            a.starts_with("home-ana--claude-projects--home-ana-shop-memory-"),
            "{a}"
        );
        assert_eq!(
            a.len(),
            "home-ana--claude-projects--home-ana-shop-memory-".len() + 12
        );
        // The slug loses `.` and `_`: the hash keeps the folders apart.
        let b = key(Path::new(
            "/home/ana/_claude/projects/-home-ana-shop/memory",
        ));
        assert_ne!(a, b);
        let long = format!("/{}", "x".repeat(300));
        assert_eq!(key(Path::new(&long)).len(), SLUG_CHARS + 13);
    }

    #[test]
    fn the_state_directory_is_outside_the_folder_and_names_it() {
        let dir = tempfile::tempdir().expect("temp dir");
        let memory = dir.path().join("memory");
        fs::create_dir(&memory).expect("mkdir");
        let state_root = dir.path().join("state");
        let folder = ClaudeFolder::open(&memory, LoadLimits::default())
            .expect("open")
            .with_state_root(state_root.clone());
        let state = ClaudeState::for_folder(&folder).expect("state");
        assert!(state.path().starts_with(state_root.join("claude")));
        let named = fs::read_to_string(state.path().join(FOLDER_FILE)).expect("folder file");
        assert_eq!(named, format!("{}\n", folder.root().display()));
        let held = state.lock().expect("lock");
        assert!(state.try_lock().expect("try").is_none(), "held");
        drop(held);
        assert!(state.try_lock().expect("try").is_some(), "released");
        assert_eq!(fs::read_dir(&memory).expect("list").count(), 0);
    }
}
