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

use rustix::fs::{Mode, OFlags};
use sha2::{Digest, Sha256};

use super::error::{ClaudeError, Result};
use super::folder::ClaudeFolder;
use crate::store::fsutil::IoHooks;

/// Overrides the state directory (tests always set it).
pub const STATE_DIR_ENV: &str = "MEMWB_STATE_DIR";
/// The lock file inside a folder's state directory.
pub const LOCK_FILE: &str = "lock";
/// The canonical path of the folder a state directory is about, for people.
pub const FOLDER_FILE: &str = "folder";
/// Most characters of the path's slug kept in the directory's name (its end: the project).
const SLUG_CHARS: usize = 64;

/// The state directory of one Claude Code folder.
#[derive(Debug, Clone)]
pub struct ClaudeState {
    path: PathBuf,
    hooks: IoHooks,
}

/// Held while a memwb process changes the folder; dropping it releases the lock.
#[derive(Debug)]
pub struct StateLock {
    _file: File,
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
        fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&path)
            .map_err(|e| ClaudeError::io("create", &path, e))?;
        let state = Self {
            path,
            hooks: folder.hooks().clone(),
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

    /// Takes the lock, waiting for another memwb process that holds it.
    pub fn lock(&self) -> Result<StateLock> {
        let file = self.open_lock()?;
        fs4::FileExt::lock(&file).map_err(|e| ClaudeError::io("lock", self.lock_path(), e))?;
        Ok(StateLock { _file: file })
    }

    /// Takes the lock if no one holds it; `None` when another holder has it.
    pub fn try_lock(&self) -> Result<Option<StateLock>> {
        let file = self.open_lock()?;
        match fs4::FileExt::try_lock(&file) {
            Ok(()) => Ok(Some(StateLock { _file: file })),
            Err(fs4::TryLockError::WouldBlock) => Ok(None),
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
        match crate::store::fsutil::read_regular(
            &path,
            64 * 1024,
            crate::store::fsutil::Links::Refuse,
        ) {
            Ok(Some(there)) if there == text => return Ok(()),
            Ok(_) => {}
            Err(e) => return Err(e.into()),
        }
        Ok(crate::store::fsutil::atomic_replace(
            &path,
            &text,
            &IoHooks::default(),
        )?)
    }
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
