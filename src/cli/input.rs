//! Reading command input from a file or standard input (`-`).
//!
//! Every input is read through the engine's bounded reader: a FIFO, device or directory given
//! as a path is refused without blocking, and no input is read past its limit plus one byte
//! (standard input included), so `--body-file /dev/zero` fails at once instead of filling
//! memory.

use std::path::Path;

use anyhow::Context;

use crate::fs::{Links, open_regular, read_capped};

/// The most bytes of a JSON input (`add --json`, `consolidate --plan`, `propose extract
/// --history`, `propose import`): a full batch of 200 records at their byte budget, escaped,
/// fits several times over.
pub(super) const MAX_JSON_INPUT_BYTES: usize = 16 << 20;
/// The most bytes of `--body-file`: far above the 4096-byte record budget, so that CRLF line
/// ends and outer blank lines (normalised away) never make a body that fits refused here.
pub(super) const MAX_BODY_INPUT_BYTES: usize = 64 << 10;
/// The most bytes of `repair --from`, a memory file as a person corrected it: what a file of
/// the folder's format may hold is the backend's to say, with its own reason (a `.memory`
/// record's 4096 bytes); this only keeps a runaway input out of memory.
pub(super) const MAX_FILE_INPUT_BYTES: usize = 1 << 20;

/// The text of `path`, or of standard input when `path` is `-`, at most `max` bytes.
pub(super) fn read_text(path: &Path, max: usize) -> anyhow::Result<String> {
    let bytes = if path == Path::new("-") {
        read_capped(std::io::stdin().lock(), max, Path::new("standard input"))?
    } else {
        let file = open_regular(path, Links::Follow)?
            .with_context(|| format!("read {}: no such file", path.display()))?;
        read_capped(file, max, path)?
    };
    String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{} is not valid UTF-8 (first bad byte at offset {})",
            describe(path),
            e.utf8_error().valid_up_to()
        )
    })
}

/// JSON from `path` (or `-`); a UTF-8 byte order mark at the start, as some editors and
/// Windows tools write, is skipped.
pub(super) fn read_json<T: serde::de::DeserializeOwned>(
    path: &Path,
    what: &str,
) -> anyhow::Result<T> {
    let text = read_text(path, MAX_JSON_INPUT_BYTES)?;
    let json = text.strip_prefix('\u{feff}').unwrap_or(&text);
    serde_json::from_str(json).with_context(|| format!("{} is not a valid {what}", describe(path)))
}

/// A path as messages name it: `-` is standard input.
pub(super) fn describe(path: &Path) -> String {
    if path == Path::new("-") {
        "standard input".into()
    } else {
        path.display().to_string()
    }
}
