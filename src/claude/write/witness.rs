//! Catching a plain write that lands between a change's compare and its rename.
//!
//! Claude Code writes a file by truncating and writing it in place. When that happens after
//! memwb compared the file with the change's base and before memwb's rename put the new file
//! in its place, no check before the rename can see it, and the rename throws the write away.
//! But the write went into the file memwb compared, the inode the rename took out of the
//! folder: kept open since the compare, it still holds the other writer's bytes. After every
//! rename, each compared file is read again; one whose bytes are no longer the ones compared
//! was written meanwhile, and [`super::apply`] puts those bytes back and the change back.

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
}
