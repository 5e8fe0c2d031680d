//! Catching a plain write that lands between a change's compare and its rename.
//!
//! Claude Code writes a file by truncating and writing it in place. When that happens after
//! memwb compared the file with the change's base and before memwb's rename put the new file
//! in its place, no check before the rename can see it, and the rename throws the write away.
//! But the write went into the file memwb compared, the inode the rename took out of the
//! folder: kept open since the compare, it still holds the other writer's bytes. After every
//! rename, each compared file is read again; one whose bytes are no longer the ones compared
//! was written meanwhile, and [`super::apply`] puts those bytes back and the change back.
//!
//! Those open files are then the last references to the inodes the renames replaced, so
//! letting go of them frees the old files: [`Compared::release`] does that off the caller's
//! thread.

use std::collections::HashMap;
use std::fs::File;
use std::io::{Seek, SeekFrom};
use std::path::Path;

use super::FileImage;
use crate::fs::read_capped;

/// Most bytes read back from a compared file to keep another writer's text: far above
/// memwb's read limit, since what is put back need not be a file memwb would read.
const MOST_KEPT_BYTES: usize = 64 * 1024 * 1024;

/// The files a change compared, open, with the text each held at the compare.
#[derive(Default)]
pub(super) struct Compared {
    files: HashMap<String, (File, String)>,
}

impl Compared {
    pub(super) fn keep(&mut self, file: &str, handle: File, text: &str) {
        self.files
            .insert(file.to_owned(), (handle, text.to_owned()));
    }

    /// The files of `images` written by someone else since their compare, with the bytes
    /// they hold now.
    pub(super) fn written_since(
        &self,
        images: &[FileImage],
        root: &Path,
    ) -> Vec<(String, Vec<u8>)> {
        let mut written = Vec::new();
        for image in images {
            let Some((handle, compared)) = self.files.get(&image.file) else {
                continue;
            };
            let mut handle = handle;
            let now = handle
                .seek(SeekFrom::Start(0))
                .map_err(|e| e.to_string())
                .and_then(|_| {
                    read_capped(handle, MOST_KEPT_BYTES, &root.join(&image.file))
                        .map_err(|e| e.to_string())
                });
            match now {
                Ok(bytes) if bytes != compared.as_bytes() => {
                    written.push((image.file.clone(), bytes));
                }
                Ok(_) => {}
                Err(error) => tracing::warn!(
                    file = %root.join(&image.file).display(),
                    %error,
                    "could not read a replaced file again to see whether another program wrote it meanwhile"
                ),
            }
        }
        written
    }

    /// Lets go of the compared files on a thread of its own, so that the change returns
    /// without waiting for it. Each replaced file's handle here is the last reference to its
    /// inode, and closing it frees the inode and its blocks: on ext4 without a journal mounted
    /// with `discard` (this project's VM disk), each freed block is discarded synchronously,
    /// one disk round trip per replaced file (the largest wait of a 200-file undo there,
    /// docs/performance.md, sixth round). The change does not depend on it: every new file is
    /// in place and synced before this, and a crash before the old files are freed loses
    /// nothing (the file system frees an unlinked inode at mount or fsck).
    pub(super) fn release(self) {
        drop_off_thread(self.files);
    }
}

/// Drops `held` on a new thread, without waiting for it; the thread's handle is for tests to
/// wait on. When no thread can be started, `spawn` drops its closure, and `held` with it, on
/// this thread.
fn drop_off_thread<T: Send + 'static>(held: T) -> Option<std::thread::JoinHandle<()>> {
    std::thread::Builder::new()
        .name("memwb-release".into())
        .spawn(move || drop(held))
        .ok()
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::thread::ThreadId;

    use super::*;

    /// Says on which thread it was dropped.
    struct Dropped(mpsc::Sender<ThreadId>);

    impl Drop for Dropped {
        fn drop(&mut self) {
            let _ = self.0.send(std::thread::current().id());
        }
    }

    #[test]
    fn what_is_released_is_dropped_on_another_thread() {
        let (tx, rx) = mpsc::channel();
        let handle = drop_off_thread(Dropped(tx)).expect("a thread starts");
        handle.join().expect("the thread ends");
        let dropped_on = rx.try_recv().expect("dropped once the thread ended");
        assert_ne!(dropped_on, std::thread::current().id());
    }
}
