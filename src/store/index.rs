//! `MEMORY.md`: the derived, rebuildable index, one line per record in manifest order.

use super::record::{Record, count_lines};

pub(crate) const INDEX_FILE: &str = "MEMORY.md";

/// The most bytes of an existing MEMORY.md memwb reads (to compare it, or to restore it after
/// a failed commit); one byte more is refused as too large. Far above any budget in use.
pub(crate) const MAX_INDEX_FILE_BYTES: usize = 1 << 20;

pub fn render<'a>(entries: impl IntoIterator<Item = (&'a str, &'a Record)>) -> String {
    let mut out = String::new();
    for (file, record) in entries {
        push_entry_line(&mut out, record.name(), file, record.description());
    }
    out
}

/// Appends one line of the index to `out`: `- [name](file) - description`.
pub(crate) fn push_entry_line(out: &mut String, name: &str, file: &str, description: &str) {
    for part in ["- [", name, "](", file, ") - ", description, "\n"] {
        out.push_str(part);
    }
}

/// Lines and bytes of an index text, measured as the budget measures them.
pub fn measure(text: &str) -> (usize, usize) {
    (count_lines(text), text.len())
}
