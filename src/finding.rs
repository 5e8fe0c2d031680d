//! One finding of an audit, whatever the format: the `.memory` folder's own audit
//! (`store::inspect`), a Claude Code folder's (`claude::audit`), memwb's state and the content
//! audit all report this one shape, and `check` (its `--json` too), `check --all` and the
//! workbench show it. A leaf: it depends on nothing in the crate.
#![warn(missing_docs)]

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
/// How much a finding matters.
pub enum Severity {
    /// Something is wrong; fails `check`.
    Error,
    /// Worth fixing; does not fail `check`.
    Warning,
    /// Worth knowing; never fails `check`.
    Info,
}

impl Severity {
    /// The word `check` prints and its JSON holds.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// The envelope `memwb check` prints for every format. The field order is the JSON's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// What kind of finding it is (`index-dangling`, `secret`, ...), one word per rule.
    pub code: &'static str,
    /// How much it matters.
    pub severity: Severity,
    /// The file it is about, relative to the memory folder; `None` for the folder itself.
    pub file: Option<String>,
    /// The line of `file` (1-based) the finding is about, where there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// What is wrong, for people (untrusted text in it is the caller's to make inert).
    pub message: String,
    /// The other files a finding about an index concerns: for `index-truncated`, the memory
    /// files whose only index entries are past the cut, in index order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cut: Option<Vec<String>>,
}

impl Finding {
    /// A finding about `file` (`None`: the folder), with no line.
    pub fn new(
        code: &'static str,
        severity: Severity,
        file: Option<String>,
        message: String,
    ) -> Self {
        Self {
            code,
            severity,
            file,
            line: None,
            message,
            cut: None,
        }
    }

    /// The same finding, about line `line` of its file.
    pub fn at(mut self, line: usize) -> Self {
        self.line = Some(line);
        self
    }
}
