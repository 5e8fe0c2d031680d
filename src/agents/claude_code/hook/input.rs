//! The JSON object Claude Code writes on a hook's stdin, and the tool call it describes.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::Value;

use super::edit::{FileChange, Replacement};

/// The most of stdin a hook reads: a Write of a large file is the biggest input there is.
pub const MAX_INPUT_BYTES: usize = 16 * 1024 * 1024;

/// Reads one JSON value from `reader` and stops at its last byte (Claude Code may keep the
/// pipe open): the bytes read, at most `max + 1` (more means too large). At end of input,
/// whatever came.
pub fn read_one_value(reader: &mut dyn std::io::Read, max: usize) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    let mut scan = ValueEnd::default();
    let mut chunk = [0u8; 8192];
    loop {
        let read = match reader.read(&mut chunk) {
            Ok(0) => return Ok(bytes),
            Ok(read) => read,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        for (i, &byte) in chunk[..read].iter().enumerate() {
            if scan.feed(byte) {
                bytes.extend_from_slice(&chunk[..=i]);
                return Ok(bytes);
            }
        }
        bytes.extend_from_slice(&chunk[..read]);
        if bytes.len() > max {
            return Ok(bytes);
        }
    }
}

/// Finds where the first JSON object or array ends: brackets counted outside strings.
#[derive(Default)]
struct ValueEnd {
    depth: usize,
    in_string: bool,
    escaped: bool,
}

impl ValueEnd {
    /// Whether `byte` closes the first top-level object or array.
    fn feed(&mut self, byte: u8) -> bool {
        if self.in_string {
            match byte {
                _ if self.escaped => self.escaped = false,
                b'\\' => self.escaped = true,
                b'"' => self.in_string = false,
                _ => {}
            }
            return false;
        }
        match byte {
            b'"' => self.in_string = true,
            b'{' | b'[' => self.depth += 1,
            b'}' | b']' if self.depth > 0 => {
                self.depth -= 1;
                return self.depth == 0;
            }
            _ => {}
        }
        false
    }
}

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

    /// The tool call, `~` in an unknown tool's paths left unplaced.
    pub fn call(&self) -> ToolCall {
        self.call_in(None)
    }

    /// The tool call: a file write, a Bash command, or any other tool with the paths in its
    /// input (`~` taken against `home`, relative paths against the input's `cwd`).
    pub fn call_in(&self, home: Option<&Path>) -> ToolCall {
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
            Some(tool) if !super::scan::is_read_only(tool) => {
                let cwd = self.cwd.as_deref().filter(|c| c.is_absolute());
                let paths = input.map_or_else(Vec::new, |i| {
                    super::scan::paths_in(i, cwd.unwrap_or(Path::new("")), home)
                        .into_iter()
                        .filter(|p| p.is_absolute())
                        .collect()
                });
                if paths.is_empty() {
                    ToolCall::Other
                } else {
                    ToolCall::Paths {
                        tool: tool.to_owned(),
                        paths,
                    }
                }
            }
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

/// Whether a call can be answered without reading anything: a tool that only reads.
pub fn passes_unseen(name: &str) -> bool {
    super::scan::is_read_only(name)
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
    /// A tool memwb has no model of, and the paths its input names.
    Paths {
        tool: String,
        paths: Vec<PathBuf>,
    },
    /// A watched tool without the fields it always has.
    Malformed(&'static str),
    /// A tool that only reads, or names no path.
    Other,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_value_is_read_up_to_its_last_byte_strings_and_escapes_understood() {
        let text = br#"{"a": "}\"{", "b": [1, {"c": 2}]} trailing"#;
        let got = read_one_value(&mut &text[..], 1024).expect("read");
        assert_eq!(got, br#"{"a": "}\"{", "b": [1, {"c": 2}]}"#.to_vec());
        let open = b"{\"a\": ";
        assert_eq!(
            read_one_value(&mut &open[..], 1024).expect("read"),
            open.to_vec()
        );
        let big = [b'['; 100];
        assert_eq!(read_one_value(&mut &big[..], 10).expect("read").len(), 100);
    }
}
