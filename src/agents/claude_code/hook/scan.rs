//! Tools memwb has no model of (an MCP server's file tools, `NotebookEdit`, a tool a later
//! Claude Code adds): which of them only read, and the paths in their input. The gate cannot
//! know what such a tool does with a path, so a call that names a gated place is judged a
//! write unless the tool is known to only read.

use std::path::{Path, PathBuf};

use serde_json::Value;

/// Claude Code's tools that never change a file (their calls pass without a look).
const READ_ONLY_TOOLS: [&str; 17] = [
    "Read",
    "Grep",
    "Glob",
    "LS",
    "NotebookRead",
    "WebFetch",
    "WebSearch",
    "TodoWrite",
    "TodoRead",
    "Task",
    "Agent",
    "ExitPlanMode",
    "BashOutput",
    "KillShell",
    "KillBash",
    "ListMcpResourcesTool",
    "ReadMcpResourceTool",
];

/// How an MCP tool's own name starts when it says it reads (the filesystem server's
/// `read_file`, `list_directory`, `search_files`, `get_file_info`, `directory_tree`, ...).
const MCP_READ_PREFIXES: [&str; 6] = [
    "read_",
    "list_",
    "search_",
    "get_",
    "find_",
    "directory_tree",
];

/// Keys whose string value is a path even when it is relative.
const PATH_KEYS: [&str; 9] = [
    "file_path",
    "path",
    "paths",
    "source",
    "destination",
    "notebook_path",
    "target",
    "cwd",
    "directory",
];

/// Most values looked at in one input: a huge input is judged on what was seen (the budget
/// is the hook's, not the input's).
const MAX_VALUES: usize = 10_000;

/// Whether a tool never changes files: one of Claude Code's read-only tools, or an MCP tool
/// (`mcp__<server>__<tool>`) whose name says it reads.
pub fn is_read_only(tool: &str) -> bool {
    if READ_ONLY_TOOLS.contains(&tool) {
        return true;
    }
    match tool
        .strip_prefix("mcp__")
        .and_then(|rest| rest.split_once("__"))
    {
        Some((_, name)) => MCP_READ_PREFIXES.iter().any(|p| name.starts_with(p)),
        None => false,
    }
}

/// The paths in a tool's input: every string under a path key (and in arrays under one), and
/// every other string, at any depth, that is an absolute path or starts with `~`. Relative
/// ones are taken against `cwd`, `~` against `home`; those that cannot be placed are skipped.
pub fn paths_in(input: &Value, cwd: &Path, home: Option<&Path>) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack: Vec<(&Value, bool)> = vec![(input, false)];
    let mut seen = 0;
    while let Some((value, under_path_key)) = stack.pop() {
        seen += 1;
        if seen > MAX_VALUES {
            break;
        }
        match value {
            Value::String(text) => {
                if let Some(path) = place(text, under_path_key, cwd, home) {
                    found.push(path);
                }
            }
            Value::Array(items) => stack.extend(items.iter().map(|v| (v, under_path_key))),
            Value::Object(map) => stack.extend(
                map.iter()
                    .map(|(key, v)| (v, PATH_KEYS.contains(&key.as_str()))),
            ),
            _ => {}
        }
    }
    found
}

fn place(text: &str, under_path_key: bool, cwd: &Path, home: Option<&Path>) -> Option<PathBuf> {
    if text.is_empty() || text.contains('\n') || text.contains('\0') {
        return None;
    }
    if text == "~" {
        return home.map(Path::to_owned);
    }
    if let Some(rest) = text.strip_prefix("~/") {
        return home.map(|h| h.join(rest));
    }
    let path = Path::new(text);
    if path.is_absolute() {
        Some(path.to_owned())
    } else if under_path_key {
        Some(cwd.join(path))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn read_only_tools_and_mcp_tools_named_for_reading() {
        for tool in [
            "Read",
            "Grep",
            "mcp__filesystem__read_file",
            "mcp__fs__list_directory",
        ] {
            assert!(is_read_only(tool), "{tool}");
        }
        for tool in [
            "Write",
            "NotebookEdit",
            "mcp__filesystem__write_file",
            "mcp__fs__edit_file",
            "mcp__read_file",
            "FutureTool",
        ] {
            assert!(!is_read_only(tool), "{tool}");
        }
    }

    #[test]
    fn paths_under_path_keys_and_absolute_strings_at_any_depth() {
        let input = json!({
            "path": "notes/a.md",
            "edits": [{"target": {"file": "/m/b.md"}}],
            "paths": ["c.md", "~/d.md"],
            "content": "see /m/e.md for more",
            "options": {"dest": "~"},
            "count": 3
        });
        let mut paths = paths_in(&input, Path::new("/w"), Some(Path::new("/h")));
        paths.sort();
        assert_eq!(
            paths,
            ["/h", "/h/d.md", "/m/b.md", "/w/c.md", "/w/notes/a.md"].map(PathBuf::from)
        );
        assert!(paths_in(&json!({"query": "rust"}), Path::new("/w"), None).is_empty());
    }
}
