//! Topic-file frontmatter: read by memwb's neutral frontmatter reader (`src/frontmatter.rs`,
//! re-exported here, where the library has always offered it), and what Claude Code's own
//! rules add to it: the types it knows, a field shown as text.

use serde_json::Value;

pub use crate::frontmatter::{Frontmatter, Parsed, parse};
pub(crate) use crate::frontmatter::{LINE_BREAKS, METADATA_KEY};

/// The four types the agent is told to use.
pub(crate) const KNOWN_TYPES: [&str; 4] = ["user", "feedback", "project", "reference"];

/// A field value as one line of text for people (strings unquoted).
pub(crate) fn display_value(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
