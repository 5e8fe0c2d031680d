//! Reading files an agent wrote, without trusting what they are: a link is not followed, a
//! FIFO or device is refused without blocking, and a file past a size limit is not read whole.

use std::os::unix::fs::FileTypeExt;
use std::path::Path;

use super::error::Result;
use crate::fs::Links;

/// Most bytes memwb reads from one file of a Claude Code folder (a MEMORY.md far past its load
/// limit is still read; a runaway file is not).
pub const MAX_FILE_BYTES: usize = 4 * 1024 * 1024;

/// The bytes of the regular file at `path`, not through a link; `Ok(None)` when it does not
/// exist. The engine's rule (`fs::read_regular`): a FIFO is refused without blocking.
pub fn read_regular(path: &Path, limit: usize) -> Result<Option<Vec<u8>>> {
    Ok(crate::fs::read_regular(path, limit, Links::Refuse)?)
}

/// What a non-regular file is, in words.
pub fn describe(kind: std::fs::FileType) -> &'static str {
    if kind.is_dir() {
        "a directory"
    } else if kind.is_symlink() {
        "a symbolic link"
    } else if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_block_device() || kind.is_char_device() {
        "a device"
    } else if kind.is_file() {
        "a regular file"
    } else {
        "not a regular file"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fifo_links_and_big_files_are_refused_without_blocking() {
        let dir = tempfile::tempdir().expect("temp dir");
        let fifo = dir.path().join("pipe.md");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .expect("mkfifo");
        let refused = read_regular(&fifo, 10).expect_err("a FIFO");
        assert!(refused.to_string().contains("FIFO"), "{refused}");
        let big = dir.path().join("big.md");
        std::fs::write(&big, "12345").expect("write");
        let refused = read_regular(&big, 4).expect_err("too large");
        assert!(
            refused.to_string().contains("larger than 4 bytes"),
            "{refused}"
        );
        assert_eq!(
            read_regular(&big, 5).expect("read"),
            Some(b"12345".to_vec())
        );
        let link = dir.path().join("link.md");
        std::os::unix::fs::symlink(&big, &link).expect("link");
        assert!(read_regular(&link, 10).is_err(), "a link is not followed");
        assert_eq!(
            read_regular(&dir.path().join("none"), 10).expect("absent"),
            None
        );
    }
}
