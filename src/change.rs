//! The unit of a change to a folder's files, whatever the format: one file's text before and
//! after. A journal entry and a proposal hold their files as these, and a backend's write
//! engine writes and recovers from them, so the type lives in a leaf below both (the one
//! change model of docs/architecture.md).

use serde::{Deserialize, Serialize};

/// One file a change touched, as it was and as it became (`None`: absent).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileImage {
    /// Relative to the folder, `/`-separated.
    pub file: String,
    pub before: Option<String>,
    pub after: Option<String>,
}
