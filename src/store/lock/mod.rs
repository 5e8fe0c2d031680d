//! Mutual exclusion on one `.memory`: an in-process queue, then the `proper-lockfile` (v4)
//! directory lock `.memory/.lock` that the reference agents honour.
//!
//! Protocol (the reference's options `stale: 30000`, `update: 10000`): `mkdir` acquires; an
//! existing directory whose mtime is older than the stale limit is removed with `rmdir` and
//! `mkdir` is tried once more; while held, the mtime is refreshed periodically after checking
//! that it is still the one we set; `rmdir` releases.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::error::{Result, StoreError};
use crate::locks::GateTurn;
// What every format's lock shares, part of this contract's API since before it was shared.
pub use crate::locks::{LockWait, WAIT_NOTICE_AFTER, WaitNotice};
use crate::time::{format_ms, millis_rounded, now_ms};

mod in_process;

pub use in_process::wait_for_busy_attempts;
use in_process::{QueueTurn, count_busy_attempt};

pub(crate) const LOCK_DIR: &str = ".lock";
const RETRY_INTERVAL: Duration = Duration::from_millis(10);
/// After breaking a stale lock, how long to wait before checking that no other writer, which
/// saw the same stale lock, removed ours and made its own (proper-lockfile's `rmdir` + `mkdir`
/// cannot tell a stale directory from the fresh one that replaced it).
const STALE_BREAK_SETTLE: Duration = Duration::from_millis(50);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LockTiming {
    /// A lock whose mtime is older than this is abandoned and may be broken.
    pub stale: Duration,
    /// How often the holder refreshes the mtime.
    pub update: Duration,
    /// How long to wait for a lock held by someone else before giving up.
    pub timeout: Duration,
}

impl Default for LockTiming {
    fn default() -> Self {
        Self {
            stale: Duration::from_secs(30),
            update: Duration::from_secs(10),
            timeout: Duration::from_secs(60),
        }
    }
}

/// What an observer sees of the lock, without taking it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LockState {
    Free,
    /// Held; `mtime_ms` is the last refresh by the holder.
    Held {
        mtime_ms: i64,
    },
    /// Present but older than the stale limit: the next writer will break it.
    Stale {
        mtime_ms: i64,
    },
}

pub fn observe(root: &Path, stale: Duration) -> LockState {
    match fs::metadata(root.join(LOCK_DIR)).and_then(|m| m.modified()) {
        Ok(mtime) => {
            let mtime_ms = millis_rounded(mtime);
            if is_stale(mtime_ms, stale) {
                LockState::Stale { mtime_ms }
            } else {
                LockState::Held { mtime_ms }
            }
        }
        Err(_) => LockState::Free,
    }
}

fn is_stale(mtime_ms: i64, stale: Duration) -> bool {
    mtime_ms < now_ms() - stale.as_millis() as i64
}

// ---- the directory lock --------------------------------------------------------------

#[derive(Debug)]
struct HeldState {
    /// The lock directory's mtime exactly as the file system stored it when we last set it.
    /// Compared exactly (not in Node's milliseconds), so another writer's directory made in
    /// the same millisecond is still told apart on file systems with finer timestamps.
    mtime: SystemTime,
    /// The lock directory's device and inode: a directory another writer made in its place
    /// (after breaking ours as stale) is not ours even with an equal mtime.
    dir: (u64, u64),
    compromised: Option<String>,
    /// Set when the holder lets go: no refresh may touch the directory after that.
    released: bool,
}

/// A held lock. Dropping it releases the directory (unless it was compromised, in which
/// case it may now be someone else's) and then the in-process turn.
pub struct StoreLock {
    dir: PathBuf,
    state: Arc<Mutex<HeldState>>,
    /// Our entry in the process's [`Refresher`].
    job: u64,
    _turn: QueueTurn,
    /// Dropped last, after the directory is released.
    _gate: GateTurn,
}

impl StoreLock {
    pub fn acquire(root: &Path, timing: LockTiming) -> Result<Self> {
        Self::acquire_noting(root, timing, None)
    }

    /// [`StoreLock::acquire`], telling `notice` once when the lock has been held by another
    /// process for [`WAIT_NOTICE_AFTER`] of our wait.
    pub(crate) fn acquire_noting(
        root: &Path,
        timing: LockTiming,
        notice: Option<&WaitNotice>,
    ) -> Result<Self> {
        let gate = GateTurn::enter();
        let started = Instant::now();
        let mut noticed = false;
        let deadline = started + timing.timeout;
        let turn = QueueTurn::wait(root, started, deadline)?;
        let dir = root.join(LOCK_DIR);
        let mut first_seen: Option<i64> = None;
        let mtime = loop {
            let busy_since = match try_acquire(&dir, timing.stale)? {
                Acquire::Taken { broke_stale } => match touch(&dir) {
                    Ok(mtime) if !broke_stale => break mtime,
                    Ok(mtime) => {
                        thread::sleep(STALE_BREAK_SETTLE);
                        match check_ours(&dir, mtime) {
                            Ok(()) => break mtime,
                            // Replaced by a writer that broke the same stale lock: it holds it.
                            Err(reason) => {
                                tracing::info!(path = %dir.display(), %reason, "lost a stale-lock race");
                                None
                            }
                        }
                    }
                    // Removed under us by a writer that broke the same stale lock.
                    Err(e) if e.kind() == io::ErrorKind::NotFound => None,
                    Err(e) => {
                        let _ = fs::remove_dir(&dir);
                        return Err(StoreError::io("touch", &dir, e));
                    }
                },
                Acquire::Busy { mtime_ms } => {
                    count_busy_attempt(root);
                    mtime_ms
                }
            };
            let since = *first_seen.get_or_insert(busy_since.unwrap_or_else(now_ms));
            if let Some(notice) = notice
                && !noticed
                && started.elapsed() >= WAIT_NOTICE_AFTER
            {
                noticed = true;
                notice(LockWait {
                    held_since_ms: since,
                    waited: started.elapsed(),
                });
            }
            if Instant::now() >= deadline {
                return Err(StoreError::LockTimeout {
                    path: dir,
                    since: format_ms(since),
                    waited_ms: started.elapsed().as_millis(),
                });
            }
            thread::sleep(RETRY_INTERVAL);
        };
        let identity = match dir_identity(&dir) {
            Ok(identity) => identity,
            Err(e) => {
                let _ = fs::remove_dir(&dir);
                return Err(StoreError::io("stat lock", &dir, e));
            }
        };
        let state = Arc::new(Mutex::new(HeldState {
            mtime,
            dir: identity,
            compromised: None,
            released: false,
        }));
        let job = match Refresher::get().register(&dir, &state, timing.update) {
            Ok(job) => job,
            Err(e) => {
                let _ = fs::remove_dir(&dir);
                return Err(StoreError::io("spawn lock refresher for", &dir, e));
            }
        };
        Ok(Self {
            dir,
            state,
            job,
            _turn: turn,
            _gate: gate,
        })
    }

    /// Fails if the lock is no longer ours: checked right before the commit point.
    pub fn verify(&self) -> Result<()> {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        if state.compromised.is_none()
            && let Err(reason) = check_ours(&self.dir, state.mtime)
                .and_then(|()| check_same_dir(&self.dir, state.dir))
        {
            state.compromised = Some(reason);
        }
        match &state.compromised {
            Some(reason) => Err(StoreError::LockCompromised {
                path: self.dir.clone(),
                reason: reason.clone(),
            }),
            None => Ok(()),
        }
    }
}

impl Drop for StoreLock {
    fn drop(&mut self) {
        Refresher::get().unregister(self.job);
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        // A refresh already under way waits for this lock and then does nothing.
        state.released = true;
        if state.compromised.is_none()
            && let Err(e) = fs::remove_dir(&self.dir)
        {
            tracing::warn!(path = %self.dir.display(), error = %e, "could not release the store lock");
        }
    }
}

enum Acquire {
    /// `broke_stale`: we removed an abandoned lock to get here.
    Taken {
        broke_stale: bool,
    },
    Busy {
        mtime_ms: Option<i64>,
    },
}

fn try_acquire(dir: &Path, stale: Duration) -> Result<Acquire> {
    match fs::create_dir(dir) {
        Ok(()) => return Ok(Acquire::Taken { broke_stale: false }),
        Err(e) if e.kind() != io::ErrorKind::AlreadyExists => {
            return Err(StoreError::io("create lock", dir, e));
        }
        Err(_) => {}
    }
    let mtime_ms = match fs::metadata(dir).and_then(|m| m.modified()) {
        Ok(mtime) => millis_rounded(mtime),
        // Released between our mkdir and stat: try again without a stale check.
        Err(e) if e.kind() == io::ErrorKind::NotFound => return mkdir_once(dir, false),
        Err(e) => return Err(StoreError::io("stat lock", dir, e)),
    };
    if !is_stale(mtime_ms, stale) {
        return Ok(Acquire::Busy {
            mtime_ms: Some(mtime_ms),
        });
    }
    tracing::info!(path = %dir.display(), mtime = %format_ms(mtime_ms), "breaking a stale lock");
    match fs::remove_dir(dir) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => {
            return Err(match blocked(dir) {
                Some(what) => StoreError::LockBlocked {
                    path: dir.to_owned(),
                    what,
                },
                None => StoreError::io("remove stale lock", dir, e),
            });
        }
        _ => {}
    }
    mkdir_once(dir, true)
}

/// What a `.lock` is when it is not something the lock protocol could have made (an empty
/// directory): no writer may break it, so it needs a person.
pub fn blocked(dir: &Path) -> Option<&'static str> {
    let meta = fs::symlink_metadata(dir).ok()?;
    if meta.file_type().is_symlink() {
        Some("a symbolic link")
    } else if !meta.is_dir() {
        Some("a file")
    } else if fs::read_dir(dir).ok()?.next().is_some() {
        Some("a directory that is not empty")
    } else {
        None
    }
}

fn mkdir_once(dir: &Path, broke_stale: bool) -> Result<Acquire> {
    match fs::create_dir(dir) {
        Ok(()) => Ok(Acquire::Taken { broke_stale }),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(Acquire::Busy { mtime_ms: None }),
        Err(e) => Err(StoreError::io("create lock", dir, e)),
    }
}

/// Sets the directory's atime and mtime to now and returns the mtime as stored.
fn touch(dir: &Path) -> io::Result<SystemTime> {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_err(io::Error::other)?;
    let now = rustix::fs::Timespec {
        tv_sec: i64::try_from(now.as_secs()).map_err(io::Error::other)?,
        tv_nsec: now.subsec_nanos().into(),
    };
    let times = rustix::fs::Timestamps {
        last_access: now,
        last_modification: now,
    };
    // By path: one system call instead of open, futimens and close.
    rustix::fs::utimensat(rustix::fs::CWD, dir, &times, rustix::fs::AtFlags::empty())?;
    fs::metadata(dir)?.modified()
}

fn check_ours(dir: &Path, ours: SystemTime) -> Result<(), String> {
    match fs::metadata(dir).and_then(|m| m.modified()) {
        Ok(mtime) if mtime == ours => Ok(()),
        Ok(mtime) => Err(format!(
            "its mtime is {} but we last set {}: another process took it",
            crate::time::rfc3339(mtime, crate::time::Precision::Nanos),
            crate::time::rfc3339(ours, crate::time::Precision::Nanos)
        )),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            Err("the lock directory was removed".into())
        }
        Err(e) => Err(format!("cannot stat the lock directory: {e}")),
    }
}

fn dir_identity(dir: &Path) -> io::Result<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let meta = fs::symlink_metadata(dir)?;
    Ok((meta.dev(), meta.ino()))
}

fn check_same_dir(dir: &Path, ours: (u64, u64)) -> Result<(), String> {
    match dir_identity(dir) {
        Ok(identity) if identity == ours => Ok(()),
        Ok(_) => Err("the lock directory was replaced by another process's".into()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            Err("the lock directory was removed".into())
        }
        Err(e) => Err(format!("cannot stat the lock directory: {e}")),
    }
}

fn refresh(dir: &Path, state: &Mutex<HeldState>) -> Result<(), ()> {
    let mut state = state.lock().unwrap_or_else(|p| p.into_inner());
    if state.compromised.is_some() || state.released {
        return Err(());
    }
    if let Err(reason) = check_ours(dir, state.mtime) {
        tracing::error!(path = %dir.display(), %reason, "store lock compromised");
        state.compromised = Some(reason);
        return Err(());
    }
    match touch(dir) {
        Ok(mtime) => {
            state.mtime = mtime;
            Ok(())
        }
        Err(e) => {
            tracing::warn!(path = %dir.display(), error = %e, "could not refresh the store lock");
            Ok(())
        }
    }
}

// ---- the refresher -------------------------------------------------------------------

/// One thread per process refreshes the mtime of every lock held in it, each `update` after it
/// was taken or last refreshed. Started with the first lock and then idle between
/// transactions, so that taking a lock does not spawn (and releasing it join) a thread.
struct Refresher {
    jobs: Mutex<Jobs>,
    wake: Condvar,
}

#[derive(Default)]
struct Jobs {
    running: bool,
    next_id: u64,
    held: Vec<Job>,
    /// The shortest update interval of any lock taken so far.
    shortest_update: Option<Duration>,
    /// While the thread sleeps: when it wakes at the latest (`None`: not sleeping, or until
    /// notified).
    wakes_by: Option<Instant>,
}

struct Job {
    id: u64,
    dir: PathBuf,
    state: Arc<Mutex<HeldState>>,
    update: Duration,
    due: Instant,
}

impl Refresher {
    fn get() -> &'static Self {
        static REFRESHER: OnceLock<Refresher> = OnceLock::new();
        REFRESHER.get_or_init(|| Refresher {
            jobs: Mutex::default(),
            wake: Condvar::new(),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Jobs> {
        self.jobs.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn register(
        &'static self,
        dir: &Path,
        state: &Arc<Mutex<HeldState>>,
        update: Duration,
    ) -> io::Result<u64> {
        let mut jobs = self.lock();
        if !jobs.running {
            thread::Builder::new()
                .name("memwb-lock-refresh".into())
                .spawn(move || self.run())?;
            jobs.running = true;
        }
        jobs.next_id += 1;
        let id = jobs.next_id;
        let due = Instant::now() + update;
        jobs.held.push(Job {
            id,
            dir: dir.to_owned(),
            state: state.clone(),
            update,
            due,
        });
        jobs.shortest_update = Some(jobs.shortest_update.map_or(update, |u| u.min(update)));
        // The thread wakes by itself before this job is due (it never sleeps longer than the
        // shortest update interval); waking it for every lock would cost a context switch per
        // transaction.
        if jobs.wakes_by.is_none_or(|wakes_by| due < wakes_by) {
            self.wake.notify_one();
        }
        Ok(id)
    }

    fn unregister(&self, id: u64) {
        self.lock().held.retain(|job| job.id != id);
    }

    fn run(&self) {
        let mut jobs = self.lock();
        loop {
            let now = Instant::now();
            let due: Vec<(u64, PathBuf, Arc<Mutex<HeldState>>)> = jobs
                .held
                .iter_mut()
                .filter(|job| job.due <= now)
                .map(|job| {
                    job.due = now + job.update;
                    (job.id, job.dir.clone(), job.state.clone())
                })
                .collect();
            if !due.is_empty() {
                drop(jobs);
                for (id, dir, state) in due {
                    if refresh(&dir, &state).is_err() {
                        self.unregister(id);
                    }
                }
                jobs = self.lock();
                continue;
            }
            // Idle, sleep at most the shortest update interval, so that a lock taken meanwhile
            // is refreshed in time without waking this thread.
            let next_due = jobs.held.iter().map(|job| job.due).min();
            let idle_limit = jobs.shortest_update.map(|u| now + u);
            let wakes_by = match (next_due, idle_limit) {
                (Some(due), Some(limit)) => Some(due.min(limit)),
                (due, limit) => due.or(limit),
            };
            jobs.wakes_by = wakes_by;
            jobs = match wakes_by {
                None => self.wake.wait(jobs).unwrap_or_else(|p| p.into_inner()),
                Some(at) => {
                    self.wake
                        .wait_timeout(jobs, at.saturating_duration_since(now))
                        .unwrap_or_else(|p| p.into_inner())
                        .0
                }
            };
            jobs.wakes_by = None;
        }
    }
}
