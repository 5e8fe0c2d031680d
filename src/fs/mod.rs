//! The file operations a commit is made of: exclusive create, atomic replace, directory sync,
//! and capped reads of regular files only. Each write step passes through [`IoHooks`], so tests
//! can fail or crash any one of them. A leaf: it knows no format, and its errors are its own
//! ([`FsError`]); each backend maps them into its own error.
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;
use std::sync::Arc;

mod error;

pub use error::FsError;
pub(crate) use error::Result;

/// One step of a commit, as seen by a fault hook.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IoOp {
    CreateRecord,
    WriteRecord,
    SyncRecord,
    VerifyRecord,
    WriteTemp,
    SyncTemp,
    Rename,
    SyncDir,
    RemoveReplaced,
    /// memwb's journal: the intent appended (and fsynced) before a commit point.
    JournalIntent,
    /// memwb's journal: the mark appended after a commit point (or an abort).
    JournalMark,
}

/// Called before each step; an error returned here is treated as if the step had failed.
pub trait FaultHook: Send + Sync {
    fn before(&self, op: IoOp, path: &Path) -> io::Result<()>;
}

#[derive(Clone, Default)]
pub struct IoHooks(Option<Arc<dyn FaultHook>>);

impl fmt::Debug for IoHooks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_some() {
            "IoHooks(set)"
        } else {
            "IoHooks(none)"
        })
    }
}

impl IoHooks {
    pub fn new(hook: Arc<dyn FaultHook>) -> Self {
        Self(Some(hook))
    }

    /// Passes one step to the hook (and, with the `fault-injection` feature, the crash point).
    pub(crate) fn step(&self, op: IoOp, op_name: &'static str, path: &Path) -> Result<()> {
        #[cfg(feature = "fault-injection")]
        {
            crash_point::reached(op, path);
            if let Some(injected) = crash_point::fails_here(op, path) {
                return Err(FsError::io(op_name, path, injected));
            }
        }
        match &self.0 {
            Some(hook) => hook
                .before(op, path)
                .map_err(|e| FsError::io(op_name, path, e)),
            None => Ok(()),
        }
    }
}

/// With the `fault-injection` feature only (tests): `MEMWB_CRASH_AT=<n>` aborts the process right before its n-th (0-based)
/// commit step, as a crash would, so that the crash tests can stop a `memwb` process at every
/// step deterministically (see docs/testing.md); `MEMWB_STOP_AT=<n>` stops it there with
/// SIGSTOP instead (a stalled writer); `MEMWB_FAIL_AT=<n>` fails it with an I/O error (a full
/// disk, a read-only folder), so that a test can fail every step of either format's writes
/// through the binary. Without the feature nothing reads the variables.
#[cfg(feature = "fault-injection")]
pub(crate) mod crash_point {
    use std::path::Path;
    use std::sync::OnceLock;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::IoOp;

    /// `MEMWB_STOP_AFTER_CHECK=1` stops the process (SIGSTOP) between the last lock check
    /// before the commit rename and the rename itself, so that a test can take its lock away
    /// there.
    pub(crate) fn after_lock_check() {
        if std::env::var_os("MEMWB_STOP_AFTER_CHECK").is_some() {
            stop_self();
        }
    }

    /// Stops this process as SIGSTOP does from outside: the test that waits for it (waitpid
    /// with WUNTRACED) resumes it with SIGCONT.
    fn stop_self() {
        let _ =
            rustix::process::kill_process(rustix::process::getpid(), rustix::process::Signal::STOP);
    }

    /// The error `MEMWB_FAIL_AT=<n>` injects at the n-th (0-based) step, said on stderr so
    /// that a test knows the run got that far.
    pub(super) fn fails_here(op: IoOp, path: &Path) -> Option<std::io::Error> {
        static AT: OnceLock<Option<usize>> = OnceLock::new();
        static STEPS: AtomicUsize = AtomicUsize::new(0);
        let at = AT
            .get_or_init(|| {
                std::env::var("MEMWB_FAIL_AT")
                    .ok()
                    .and_then(|v| v.parse().ok())
            })
            .as_ref()?;
        if STEPS.fetch_add(1, Ordering::SeqCst) != *at {
            return None;
        }
        eprintln!("MEMWB_FAIL_AT={at}: failing {op:?} {}", path.display());
        Some(std::io::Error::other(format!(
            "injected failure (MEMWB_FAIL_AT={at})"
        )))
    }

    pub(super) fn reached(op: IoOp, path: &Path) {
        static STOP_AT: OnceLock<Option<usize>> = OnceLock::new();
        static STOP_STEPS: AtomicUsize = AtomicUsize::new(0);
        let stop_at = STOP_AT.get_or_init(|| {
            std::env::var("MEMWB_STOP_AT")
                .ok()
                .and_then(|v| v.parse().ok())
        });
        if let Some(at) = *stop_at
            && STOP_STEPS.fetch_add(1, Ordering::SeqCst) == at
        {
            stop_self();
        }
        static AT: OnceLock<Option<usize>> = OnceLock::new();
        static STEPS: AtomicUsize = AtomicUsize::new(0);
        let at = AT.get_or_init(|| {
            std::env::var("MEMWB_CRASH_AT")
                .ok()
                .and_then(|v| v.parse().ok())
        });
        if let Some(at) = *at
            && STEPS.fetch_add(1, Ordering::SeqCst) == at
        {
            eprintln!(
                "MEMWB_CRASH_AT={at}: aborting before {op:?} {}",
                path.display()
            );
            std::process::abort();
        }
    }
}

pub(crate) fn io_err<'a>(
    op: &'static str,
    path: &'a Path,
) -> impl FnOnce(io::Error) -> FsError + 'a {
    move |e| FsError::io(op, path, e)
}

/// `mkdir`, where a directory that already exists is fine.
pub(crate) fn create_dir_if_missing(path: &Path) -> Result<()> {
    match fs::create_dir(path) {
        Err(e) if e.kind() != io::ErrorKind::AlreadyExists => Err(FsError::io("create", path, e)),
        _ => Ok(()),
    }
}

/// Writes a new file that must not exist yet, syncs it, and reads it back to compare.
pub(crate) fn create_exclusive(path: &Path, bytes: &[u8], hooks: &IoHooks) -> Result<()> {
    hooks.step(IoOp::CreateRecord, "create", path)?;
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(io_err("create", path))?;
    let written = (|| {
        hooks.step(IoOp::WriteRecord, "write", path)?;
        file.write_all(bytes).map_err(io_err("write", path))?;
        hooks.step(IoOp::SyncRecord, "fsync", path)?;
        file.sync_all().map_err(io_err("fsync", path))?;
        hooks.step(IoOp::VerifyRecord, "read back", path)?;
        // Through the descriptor we wrote with (no second open), one byte more than we wrote,
        // so that anything appended is seen too.
        let back = read_back(&file, bytes.len() + 1).map_err(io_err("read back", path))?;
        if back != bytes {
            return Err(FsError::ReadBackMismatch {
                path: path.to_owned(),
            });
        }
        Ok(())
    })();
    if written.is_err() {
        let _ = fs::remove_file(path);
    }
    written
}

/// Up to `limit` bytes of `file` from its start.
fn read_back(file: &File, limit: usize) -> io::Result<Vec<u8>> {
    use std::os::unix::fs::FileExt;
    let mut back = vec![0; limit];
    let mut got = 0;
    while got < limit {
        match file.read_at(&mut back[got..], got as u64) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    back.truncate(got);
    Ok(back)
}

pub(crate) fn temp_name() -> String {
    format!(".{}.tmp", uuid::Uuid::new_v4().simple())
}

/// The mode of every file memwb keeps about a folder outside it (journal, proposals, stash,
/// logs, backups): they hold before images and may hold what a secret scan missed.
pub(crate) const PRIVATE_FILE: u32 = 0o600;
/// The mode of memwb's state directories.
pub(crate) const PRIVATE_DIR: u32 = 0o700;

/// Creates `path` and its missing parents, each private to the user.
pub(crate) fn create_private_dir_all(path: &Path) -> io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    fs::DirBuilder::new()
        .recursive(true)
        .mode(PRIVATE_DIR)
        .create(path)
}

/// [`atomic_replace`] for a file of memwb's own state: a new file is private to the user.
pub(crate) fn atomic_replace_private(target: &Path, bytes: &[u8], hooks: &IoHooks) -> Result<()> {
    replace_file_with_mode(target, bytes, hooks, || Ok::<_, FsError>(()), PRIVATE_FILE)?;
    sync_dir(target.parent().unwrap_or(Path::new(".")), hooks)
}

/// Replaces `target` so that readers see the old or the new content, never a mix.
pub(crate) fn atomic_replace(target: &Path, bytes: &[u8], hooks: &IoHooks) -> Result<()> {
    replace_file(target, bytes, hooks)?;
    sync_dir(target.parent().unwrap_or(Path::new(".")), hooks)
}

/// [`atomic_replace`] without the final directory sync: on `Ok` the new content is in place
/// (visible to every reader); on `Err` the old content is, and no temp file is left.
pub(crate) fn replace_file(target: &Path, bytes: &[u8], hooks: &IoHooks) -> Result<()> {
    replace_file_checked(target, bytes, hooks, || Ok::<_, FsError>(()))
}

/// [`replace_file`] that runs `check` as the very last step before the rename, after every
/// fsync and fault hook: a commit that must still hold its lock checks it there, so that a
/// writer stalled at any earlier step (a suspended laptop, SIGSTOP) cannot rename over a
/// newer commit. `check` failing leaves the old content in place.
pub(crate) fn replace_file_checked<E: From<FsError>>(
    target: &Path,
    bytes: &[u8],
    hooks: &IoHooks,
    check: impl FnOnce() -> Result<(), E>,
) -> Result<(), E> {
    replace_file_with_mode(target, bytes, hooks, check, 0o666)
}

/// [`replace_file_checked`] creating the new file with `mode` (less the umask).
fn replace_file_with_mode<E: From<FsError>>(
    target: &Path,
    bytes: &[u8],
    hooks: &IoHooks,
    check: impl FnOnce() -> Result<(), E>,
    mode: u32,
) -> Result<(), E> {
    use std::os::unix::fs::OpenOptionsExt;
    let dir = target.parent().unwrap_or(Path::new("."));
    let temp = dir.join(temp_name());
    let result = (|| {
        hooks.step(IoOp::WriteTemp, "write", &temp)?;
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(mode)
            .open(&temp)
            .map_err(io_err("create", &temp))?;
        file.write_all(bytes).map_err(io_err("write", &temp))?;
        hooks.step(IoOp::SyncTemp, "fsync", &temp)?;
        file.sync_all().map_err(io_err("fsync", &temp))?;
        hooks.step(IoOp::Rename, "rename", target)?;
        check()?;
        fs::rename(&temp, target).map_err(io_err("rename", target))?;
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result
}

pub(crate) fn sync_dir(dir: &Path, hooks: &IoHooks) -> Result<()> {
    hooks.step(IoOp::SyncDir, "fsync", dir)?;
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(io_err("fsync", dir))
}

pub(crate) fn remove_replaced(path: &Path, hooks: &IoHooks) -> Result<()> {
    hooks.step(IoOp::RemoveReplaced, "remove", path)?;
    match fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(FsError::io("remove", path, e)),
        _ => Ok(()),
    }
}

/// Reads a file that may be absent, refusing anything but a regular file (as
/// [`read_regular`] does, with no size limit). Prefer [`read_regular`] with a budget.
pub(crate) fn read_optional(path: &Path) -> Result<Option<Vec<u8>>> {
    read_regular(path, usize::MAX, Links::Follow)
}

// ---- reading untrusted files ----------------------------------------------------------
//
// Anything memwb reads from a folder or a path it was given may be a FIFO (an open blocks
// until a writer comes, inside the lock), a device (`/dev/zero` never ends), a directory or a
// huge file. Every such read goes through these: open with `O_NONBLOCK` (an open of a FIFO
// returns at once), `fstat` the descriptor and refuse anything but a regular file (no race
// between the check and the read: it is the same descriptor), then read at most the budget
// plus one byte, so that "too large" is seen without reading the rest.

/// Whether the last component of a path may be a symbolic link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Links {
    Follow,
    /// `O_NOFOLLOW`: a link is refused (`ELOOP`), for files inside `.memory`.
    Refuse,
}

/// Opens an existing regular file for reading without blocking on a FIFO or a device;
/// `Ok(None)` when it does not exist. Anything else is [`FsError::NotAFile`].
// Only the command line opens files by a path it was given; the library opens relative to a
// directory it holds (`open_regular_at_stat`).
#[cfg(feature = "cli")]
pub(crate) fn open_regular(path: &Path, links: Links) -> Result<Option<File>> {
    open_regular_at(rustix::fs::CWD, path, links, path)
}

/// `open_regular` for `name` relative to the directory `dir` (`shown` is the path errors
/// name).
#[cfg(feature = "cli")]
pub(crate) fn open_regular_at<Fd: std::os::fd::AsFd>(
    dir: Fd,
    name: &Path,
    links: Links,
    shown: &Path,
) -> Result<Option<File>> {
    Ok(open_regular_at_stat(dir, name, links, shown)?.map(|(file, _)| file))
}

/// [`open_regular_at`], with the `fstat` it checked the descriptor with (its identity tells a
/// caller whether a name still holds the file it opened).
pub(crate) fn open_regular_at_stat<Fd: std::os::fd::AsFd>(
    dir: Fd,
    name: &Path,
    links: Links,
    shown: &Path,
) -> Result<Option<(File, rustix::fs::Stat)>> {
    match open_regular_with_stat(dir, name, links) {
        Ok(opened) => Ok(Some(opened)),
        Err(OpenError::Io(e)) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e.into_fs(shown)),
    }
}

/// Why [`open_regular_at_io`] failed.
#[derive(Debug)]
pub(crate) enum OpenError {
    NotAFile(&'static str),
    Io(io::Error),
}

impl OpenError {
    pub(crate) fn into_fs(self, path: &Path) -> FsError {
        match self {
            OpenError::NotAFile(kind) => FsError::NotAFile {
                path: path.to_owned(),
                kind,
            },
            OpenError::Io(e) => FsError::io("open", path, e),
        }
    }
}

pub(crate) fn open_regular_at_io<Fd: std::os::fd::AsFd>(
    dir: Fd,
    name: &Path,
    links: Links,
) -> std::result::Result<File, OpenError> {
    open_regular_with_stat(dir, name, links).map(|(file, _)| file)
}

/// [`open_regular_at_io`], with the `fstat` it checked the descriptor with: its size lets a
/// read take one `read` call ([`read_capped_sized`]), its identity keys the record cache.
pub(crate) fn open_regular_with_stat<Fd: std::os::fd::AsFd>(
    dir: Fd,
    name: &Path,
    links: Links,
) -> std::result::Result<(File, rustix::fs::Stat), OpenError> {
    use rustix::fs::{FileType, Mode, OFlags};
    let mut flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC | OFlags::NOCTTY;
    if links == Links::Refuse {
        flags |= OFlags::NOFOLLOW;
    }
    let fd =
        rustix::fs::openat(dir, name, flags, Mode::empty()).map_err(|e| OpenError::Io(e.into()))?;
    let stat = rustix::fs::fstat(&fd).map_err(|e| OpenError::Io(e.into()))?;
    match FileType::from_raw_mode(stat.st_mode) {
        FileType::RegularFile => Ok((File::from(fd), stat)),
        other => Err(OpenError::NotAFile(file_kind(other))),
    }
}

fn file_kind(kind: rustix::fs::FileType) -> &'static str {
    use rustix::fs::FileType;
    match kind {
        FileType::RegularFile => "regular file",
        FileType::Directory => "directory",
        FileType::Symlink => "symbolic link",
        FileType::Fifo => "FIFO",
        FileType::Socket => "socket",
        FileType::CharacterDevice => "character device",
        FileType::BlockDevice => "block device",
        FileType::Unknown => "special file",
    }
}

/// Reads `reader` to its end, refusing more than `max` bytes ([`FsError::TooLarge`]):
/// never reads more than `max + 1`.
pub(crate) fn read_capped(reader: impl io::Read, max: usize, path: &Path) -> Result<Vec<u8>> {
    read_capped_sized(reader, 0, max, path)
}

/// [`read_capped`] of a file whose `fstat` gave `expected` bytes: the buffer is sized for
/// them and one more up front, so a file is read in one `read` call, not in the doubling reads
/// `read_to_end` probes an empty buffer with (four or more calls per record file, most of a
/// cold load's cost). A call that returns exactly `expected` bytes, one fewer than asked for,
/// has met the end of the file at the size its `fstat` gave, so the call that would return 0
/// is not made; any other count (the file grew or shrank since) reads on to the end as
/// before. The cap still holds whatever the size said: a file that grew is read up to
/// `max + 1` bytes and refused.
pub(crate) fn read_capped_sized(
    mut reader: impl io::Read,
    expected: u64,
    max: usize,
    path: &Path,
) -> Result<Vec<u8>> {
    use io::Read;
    let limit = u64::try_from(max).unwrap_or(u64::MAX).saturating_add(1);
    // Never more up front than any file memwb reads whole should need: a sparse file claiming
    // terabytes grows the buffer as it is read, as before, instead of aborting the process.
    const MAX_PRESIZE: u64 = 16 * 1024 * 1024;
    let capacity = usize::try_from(expected.min(limit).min(MAX_PRESIZE)).unwrap_or(0);
    let mut bytes = Vec::with_capacity(capacity.saturating_add(1));
    if capacity > 0 && capacity <= max && u64::try_from(capacity) == Ok(expected) {
        bytes.resize(capacity + 1, 0);
        let read = loop {
            match reader.read(&mut bytes) {
                Ok(read) => break read,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(io_err("read", path)(e)),
            }
        };
        bytes.truncate(read);
        if read == capacity {
            return Ok(bytes);
        }
    }
    let read_so_far = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
    reader
        .take(limit.saturating_sub(read_so_far))
        .read_to_end(&mut bytes)
        .map_err(io_err("read", path))?;
    if bytes.len() > max {
        return Err(FsError::TooLarge {
            path: path.to_owned(),
            max,
        });
    }
    Ok(bytes)
}

/// A regular file's bytes, at most `max` of them; `Ok(None)` when it does not exist. A FIFO,
/// device or directory is [`FsError::NotAFile`], a longer file [`FsError::TooLarge`].
pub(crate) fn read_regular(path: &Path, max: usize, links: Links) -> Result<Option<Vec<u8>>> {
    match open_regular_with_stat(rustix::fs::CWD, path, links) {
        Ok((file, stat)) => read_capped_sized(file, stat_len(&stat), max, path).map(Some),
        Err(OpenError::Io(e)) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e.into_fs(path)),
    }
}

/// The size an `fstat` reported (0 for a negative size, which no regular file has).
pub(crate) fn stat_len(stat: &rustix::fs::Stat) -> u64 {
    u64::try_from(stat.st_size).unwrap_or(0)
}

/// The subdirectories of `dir`, sorted, with their names (those whose name is UTF-8); none
/// when `dir` does not list.
pub(crate) fn subdirectories(dir: &Path) -> Vec<(std::path::PathBuf, String)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<(std::path::PathBuf, String)> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| Some((e.path(), e.file_name().into_string().ok()?)))
        .collect();
    out.sort();
    out
}
