//! Reading command input from a file or standard input (`-`).

use std::io::Read;
use std::path::Path;

use anyhow::Context;

/// The text of `path`, or of standard input when `path` is `-`.
pub fn read_text(path: &Path) -> anyhow::Result<String> {
    let bytes = if path == Path::new("-") {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .context("read standard input")?;
        bytes
    } else {
        std::fs::read(path).with_context(|| format!("read {}", path.display()))?
    };
    String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{} is not valid UTF-8 (first bad byte at offset {})",
            describe(path),
            e.utf8_error().valid_up_to()
        )
    })
}

pub fn read_json<T: serde::de::DeserializeOwned>(path: &Path, what: &str) -> anyhow::Result<T> {
    let text = read_text(path)?;
    serde_json::from_str(&text).with_context(|| format!("{} is not a valid {what}", describe(path)))
}

fn describe(path: &Path) -> String {
    if path == Path::new("-") {
        "standard input".into()
    } else {
        path.display().to_string()
    }
}
