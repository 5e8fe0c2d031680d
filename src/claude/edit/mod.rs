//! Planning changes to a Claude Code folder, as pure functions on text (no I/O): frontmatter
//! edits that keep every other byte, the `modified` stamp, the file name of a new memory,
//! MEMORY.md line edits and the `index --fix` plan. The results are [`FileWrite`]s for the write
//! engine, which compares each base with the file on disk before it writes.
//!
//! See docs/claude-code.md, "Writing".

pub(crate) mod claude_form;
pub(crate) mod fields;
pub mod fix;
pub(crate) mod index_lines;
pub(crate) mod naming;
pub mod plan;

use jiff::Timestamp;

pub use fields::TopicText;
pub(crate) use fields::set_nested_field;
pub use fix::{HEADROOM_PERCENT, IndexFix, TextChange, TopicSummary, plan_index_fix};
pub(crate) use index_lines::{
    append_entry, entry_line, rehook_entries, remove_entries, rename_entries,
};
pub use naming::{file_name, slug};
pub use plan::{
    Changes, FileWrite, NewMemory, TopicFile, edit_topic, plan_add, plan_add_all, plan_edit,
    plan_rename, plan_rm, plan_set,
};

/// A planned edit that cannot be written, naming the field and the rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    #[error(
        "field name {key:?} cannot be written: a frontmatter key is one line, without ':' and not starting with '#', '-', a space or a quote"
    )]
    FieldKey { key: String },
    #[error("field {key:?} must be one line: frontmatter values here are single-line strings")]
    FieldLines { key: String },
    /// A name Claude Code rewrites on its next edit of the file (docs/claude-code.md).
    #[error("{}", name_refusal(name, kept))]
    Name { name: String, kept: String },
}

fn name_refusal(name: &str, kept: &str) -> String {
    let why = "Claude Code rewrites a memory's name to ASCII kebab-case (a-z, 0-9, single dashes) whenever it edits the file";
    if kept.is_empty() {
        format!(
            "name {name:?} cannot be kept: {why}, and would erase it; use an ASCII name such as `release-flow` (a title in any script can go in the description)"
        )
    } else {
        format!(
            "name {name:?} cannot be kept: {why}; use `{kept}` (a title can go in the description)"
        )
    }
}

/// `modified` as Claude Code writes it: ISO-8601 UTC with milliseconds.
pub fn stamp(at: Timestamp) -> String {
    format!("{:.3}", at.round(jiff::Unit::Millisecond).unwrap_or(at))
}

/// Stamps `modified` where the file has it (top level or under `metadata:`), else inside
/// `metadata:` when the file has that block, else at the top level. `None` for a file without
/// frontmatter: Claude Code never adds frontmatter to one, and neither does the stamp.
pub fn stamp_modified(text: &str, at: Timestamp) -> Result<Option<String>, EditError> {
    set_nested_field(text, "modified", &stamp(at))
}
