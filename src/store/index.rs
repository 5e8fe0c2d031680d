//! `MEMORY.md`: the derived, rebuildable index, one line per record in manifest order.

use super::record::{Record, count_lines};

pub const INDEX_FILE: &str = "MEMORY.md";

/// The most bytes of an existing MEMORY.md memwb reads (to compare it, or to restore it after
/// a failed commit); one byte more is refused as too large. Far above any budget in use.
pub const MAX_INDEX_FILE_BYTES: usize = 1 << 20;

pub fn render<'a>(entries: impl IntoIterator<Item = (&'a str, &'a Record)>) -> String {
    let mut out = String::new();
    for (file, record) in entries {
        for part in [
            "- [",
            record.name(),
            "](",
            file,
            ") - ",
            record.description(),
            "\n",
        ] {
            out.push_str(part);
        }
    }
    out
}

/// Lines and bytes of an index text, measured as the budget measures them.
pub fn measure(text: &str) -> (usize, usize) {
    (count_lines(text), text.len())
}
