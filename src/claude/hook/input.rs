//! The JSON object Claude Code writes on a hook's stdin, and the tool call it describes.

use std::path::PathBuf;

use serde::Deserialize;
use serde_json::Value;

use super::edit::{FileChange, Replacement};

/// The most of stdin a hook reads: a Write of a large file is the biggest input there is.
pub const MAX_INPUT_BYTES: usize = 16 * 1024 * 1024;

/// The fields memwb uses; every other field is ignored.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct HookInput {
    pub hook_event_name: String,
    #[serde(default)]
    pub session_id: Option<String>,
    #[serde(default)]
    pub transcript_path: Option<String>,
    #[serde(default)]
    pub cwd: Option<PathBuf>,
    #[serde(default)]
    pub permission_mode: Option<String>,
    #[serde(default)]
    pub tool_name: Option<String>,
    #[serde(default)]
    pub tool_input: Option<Value>,
    #[serde(default)]
    pub tool_use_id: Option<String>,
    #[serde(default)]
    pub tool_response: Option<Value>,
    /// Set inside a subagent or a background agent.
    #[serde(default)]
    pub agent_id: Option<String>,
    #[serde(default)]
    pub agent_type: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    PreToolUse,
    PostToolUse,
    SessionStart,
    Other,
}

impl HookInput {
    /// The input, which must be a JSON object with a string `hook_event_name` (serde would
    /// also take an array for the struct: refused here).
    pub fn parse(bytes: &[u8]) -> Result<Self, String> {
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let value: Value = serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
        if !value.is_object() {
            return Err("not a JSON object".into());
        }
        serde_json::from_value(value).map_err(|e| e.to_string())
    }

    pub fn event(&self) -> Event {
        match self.hook_event_name.as_str() {
            "PreToolUse" => Event::PreToolUse,
            "PostToolUse" => Event::PostToolUse,
            "SessionStart" => Event::SessionStart,
            _ => Event::Other,
        }
    }

    /// The tool call, when it is one that can write a file.
    pub fn call(&self) -> ToolCall {
        let input = self.tool_input.as_ref();
        let text = |key: &str| input.and_then(|i| i.get(key)).and_then(Value::as_str);
        match self.tool_name.as_deref() {
            Some("Write") => match (text("file_path"), text("content")) {
                (Some(path), Some(content)) => ToolCall::File {
                    path: PathBuf::from(path),
                    change: FileChange::Write {
                        content: content.to_owned(),
                    },
                },
                _ => ToolCall::Malformed("Write without file_path and content"),
            },
            Some("Edit") => {
                let edit =
                    input.and_then(|i| serde_json::from_value::<Replacement>(i.clone()).ok());
                match (text("file_path"), edit) {
                    (Some(path), Some(edit)) => ToolCall::File {
                        path: PathBuf::from(path),
                        change: FileChange::Edit(vec![edit]),
                    },
                    _ => ToolCall::Malformed("Edit without file_path, old_string and new_string"),
                }
            }
            Some("MultiEdit") => {
                let edits = input
                    .and_then(|i| i.get("edits"))
                    .and_then(|e| serde_json::from_value::<Vec<Replacement>>(e.clone()).ok());
                match (text("file_path"), edits) {
                    (Some(path), Some(edits)) => ToolCall::File {
                        path: PathBuf::from(path),
                        change: FileChange::Edit(edits),
                    },
                    _ => ToolCall::Malformed("MultiEdit without file_path and edits"),
                }
            }
            Some("Bash") => match text("command") {
                Some(command) => ToolCall::Bash {
                    command: command.to_owned(),
                },
                None => ToolCall::Malformed("Bash without command"),
            },
            _ => ToolCall::Other,
        }
    }

    /// Who made the call, for a proposal's origin and the journal.
    pub fn agent(&self) -> &str {
        match (self.agent_type.as_deref(), self.agent_id.is_some()) {
            (Some(kind), _) => kind,
            (None, true) => "subagent",
            (None, false) => "main",
        }
    }
}

/// Whether a tool name is one memwb looks at: the rest is answered without reading anything.
pub fn is_watched_tool(name: &str) -> bool {
    matches!(name, "Write" | "Edit" | "MultiEdit" | "Bash")
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolCall {
    File {
        path: PathBuf,
        change: FileChange,
    },
    Bash {
        command: String,
    },
    /// A watched tool without the fields it always has.
    Malformed(&'static str),
    Other,
}
