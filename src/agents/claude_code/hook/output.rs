//! What the hook prints: Claude Code's `hookSpecificOutput` objects, and the words the model
//! reads in them (they must say what happened and what to do next, since the model cannot ask).

use serde_json::json;

/// PreToolUse: the call is not run, and the model is told why.
pub fn deny(reason: &str) -> String {
    json!({
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }
    })
    .to_string()
}

/// SessionStart: one line added to the model's context.
pub fn session_context(text: &str) -> String {
    json!({
        "hookSpecificOutput": {
            "hookEventName": "SessionStart",
            "additionalContext": text,
        }
    })
    .to_string()
}

/// Why a memory write was queued instead of written.
pub fn queued_reason(id: &str, file: &str, new_file: bool) -> String {
    let index = if new_file {
        " Its MEMORY.md line is added when the user approves it: do not add one now."
    } else {
        ""
    };
    format!(
        "memwb queued this memory change to {file} as proposal {id} for the user to review; it is not written yet.{index} Do not retry it or write the file another way; continue with the task."
    )
}

/// Why a Bash command that may change the memory folder was not run; `why` names what the
/// gate found in it.
pub fn bash_reason(folder: &str, why: &str) -> String {
    format!(
        "memwb reviews every change to the memory folder {folder}, and this Bash command may change it ({why}), so it was not run. In review mode only read-only commands (cat, head, tail, ls, grep, rg, wc, diff, find without -delete/-exec, git log/show/diff/status) may touch the folder. Write memory files with the Write or Edit tool instead (those changes are queued for the user's review); continue with the task."
    )
}

/// Why a call that may change a file configuring the gate was not run.
pub fn protected_reason(path: &str, tool: &str) -> String {
    format!(
        "memwb protects {path}, which configures the memory review gate (Claude Code's settings, memwb's config or state), so this {tool} call was not run. Ask the user to make this change; continue with the task."
    )
}

/// Why a write through a link in the memory folder to a file outside it was not run.
pub fn link_out_reason(folder: &str, lands: &str) -> String {
    format!(
        "memwb reviews every change to the memory folder {folder}; this path is a link there that leads to {lands}, outside it, so the call was not run. Write memory files inside the folder with the Write or Edit tool; continue with the task."
    )
}

/// Why a tool memwb has no model of was not run on a memory file.
pub fn tool_reason(tool: &str, file: &str) -> String {
    format!(
        "memwb reviews every change to the memory folder, and {tool} names the memory file {file}, so this call was not run. Write memory files with the Write or Edit tool instead (those changes are queued for the user's review); continue with the task."
    )
}

/// Why a write into a gated folder that could not be decided was denied.
pub fn undecided_reason(folder: &str, tool: &str, why: &str) -> String {
    format!(
        "memwb reviews every change to the memory folder {folder}, and could not decide on this {tool} call ({why}), so it was not run. Try again later or ask the user; continue with the task."
    )
}

/// Why an edit that does not apply to the file as it is was not queued.
pub fn stale_edit_reason(file: &str, why: &str) -> String {
    format!(
        "memwb could not apply this edit to {file} as the file is now ({why}), so nothing was queued or written. Read the file again before editing it."
    )
}

/// Why a file that is not a memory was not written in the memory folder.
pub fn not_memory_reason(file: &str) -> String {
    format!(
        "memwb keeps the memory folder to Markdown memory files (*.md, MEMORY.md); {file} was not written. Continue with the task."
    )
}

/// The SessionStart line, when proposals wait.
pub fn pending_line(count: usize) -> String {
    if count == 1 {
        "1 memory change is waiting for the user's review in memwb; it is not in memory yet.".into()
    } else {
        format!(
            "{count} memory changes are waiting for the user's review in memwb; they are not in memory yet."
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deny_object_is_what_claude_code_reads() {
        let value: serde_json::Value = serde_json::from_str(&deny("why")).unwrap();
        assert_eq!(
            value,
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                "permissionDecision": "deny", "permissionDecisionReason": "why"}})
        );
        assert_eq!(
            session_context(&pending_line(3)),
            r#"{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"3 memory changes are waiting for the user's review in memwb; they are not in memory yet."}}"#
        );
    }
}
