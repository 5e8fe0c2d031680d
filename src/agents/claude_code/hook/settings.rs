//! memwb's entries in a Claude Code settings file (`hooks` in `settings.json`): what they are
//! and how they are found on the parsed JSON. `memwb hooks install` edits the file's text
//! (`settings_text`) so that nothing else in it changes.

use serde_json::{Map, Value, json};

/// The matcher Claude Code's hooks reference defines as "every tool": a write by any tool (an
/// MCP server's, `NotebookEdit`, one a later version adds) reaches the hook.
pub const ALL_TOOLS: &str = "*";

/// What `memwb hooks install` puts under each event, and the tools it matches.
pub const EVENTS: [(&str, Option<&str>); 3] = [
    ("PreToolUse", Some(ALL_TOOLS)),
    ("PostToolUse", Some(ALL_TOOLS)),
    ("SessionStart", None),
];

/// Whether an installed matcher leaves tools out: an older memwb's `Write|Edit|MultiEdit|Bash`
/// or any list narrower than every tool (`SessionStart` takes no matcher).
pub fn is_narrow_matcher(event: &str, matcher: Option<&str>) -> bool {
    event != "SessionStart" && !matches!(matcher, None | Some("" | ALL_TOOLS))
}

/// Seconds Claude Code waits for the hook before going on without it. The hook answers in
/// milliseconds; this only bounds a stuck disk.
pub const TIMEOUT_SECS: u64 = 10;

/// Whether a hook command is memwb's: `memwb hook claude ...`, memwb named by any path.
pub fn is_memwb_command(command: &str) -> bool {
    let mut words = command.split_whitespace();
    let program = words
        .next()
        .unwrap_or("")
        .trim_matches(|c| c == '"' || c == '\'');
    let name = program.rsplit('/').next().unwrap_or(program);
    name == "memwb" && words.next() == Some("hook") && words.next() == Some("claude")
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{rule}")]
pub struct ShapeError {
    pub rule: String,
}

fn shape(rule: impl Into<String>) -> ShapeError {
    ShapeError { rule: rule.into() }
}

/// memwb's matcher group for one event.
pub fn group(matcher: Option<&str>, command: &str) -> Value {
    let hook = json!({"type": "command", "command": command, "timeout": TIMEOUT_SECS});
    match matcher {
        Some(matcher) => json!({"matcher": matcher, "hooks": [hook]}),
        None => json!({"hooks": [hook]}),
    }
}

fn hooks_of(group: &Value) -> &[Value] {
    group
        .get("hooks")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// Checks that `hooks`, when present, has the shape Claude Code reads (an object of arrays of
/// objects), so that nothing else is misread and rewritten.
pub fn check_shape(settings: &Map<String, Value>) -> Result<(), ShapeError> {
    let Some(hooks) = settings.get("hooks") else {
        return Ok(());
    };
    let hooks = hooks
        .as_object()
        .ok_or_else(|| shape("\"hooks\" is not an object"))?;
    for (event, groups) in hooks {
        let groups = groups
            .as_array()
            .ok_or_else(|| shape(format!("hooks.{event} is not an array")))?;
        if groups.iter().any(|g| !g.is_object()) {
            return Err(shape(format!(
                "hooks.{event} holds something that is not an object"
            )));
        }
    }
    Ok(())
}

/// Whether a matcher group holds one of memwb's hooks.
pub fn holds_memwb(group: &Value) -> bool {
    hooks_of(group).iter().any(is_memwb_hook)
}

/// Whether a matcher group holds memwb's hooks and nothing else.
pub fn only_memwb(group: &Value) -> bool {
    let hooks = hooks_of(group);
    !hooks.is_empty() && hooks.iter().all(is_memwb_hook)
}

/// Whether a hook entry (`{"type": "command", "command": ...}`) is memwb's.
pub fn is_memwb_hook(hook: &Value) -> bool {
    hook.get("command")
        .and_then(Value::as_str)
        .is_some_and(is_memwb_command)
}

/// memwb's hooks in a settings file: (event, matcher, command).
pub fn installed(settings: &Map<String, Value>) -> Vec<(String, Option<String>, String)> {
    let Some(hooks) = settings.get("hooks").and_then(Value::as_object) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for (event, groups) in hooks {
        for group in groups.as_array().map_or(&[][..], Vec::as_slice) {
            let matcher = group
                .get("matcher")
                .and_then(Value::as_str)
                .map(str::to_owned);
            for hook in hooks_of(group) {
                if let Some(command) = hook.get("command").and_then(Value::as_str)
                    && is_memwb_command(command)
                {
                    found.push((event.clone(), matcher.clone(), command.to_owned()));
                }
            }
        }
    }
    found
}

/// The mode a memwb hook command sets (`--mode X`), if any.
pub fn command_mode(command: &str) -> Option<&str> {
    let mut words = command.split_whitespace();
    while let Some(word) = words.next() {
        if word == "--mode" {
            return words.next();
        }
        if let Some(mode) = word.strip_prefix("--mode=") {
            return Some(mode);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hooks_value_of_another_shape_is_refused() {
        let settings: Map<String, Value> =
            serde_json::from_str(r#"{"hooks":{"PreToolUse":{"matcher":"x"}}}"#).unwrap();
        assert_eq!(
            check_shape(&settings).unwrap_err().rule,
            "hooks.PreToolUse is not an array"
        );
        assert!(is_memwb_command("\"/opt/memwb\" hook claude --mode off"));
        assert!(!is_memwb_command("memwb-other hook claude"));
        assert!(!is_memwb_command("memwb watch"));
    }

    #[test]
    fn only_every_tool_is_a_wide_matcher() {
        assert!(is_narrow_matcher(
            "PreToolUse",
            Some("Write|Edit|MultiEdit|Bash")
        ));
        assert!(is_narrow_matcher(
            "PostToolUse",
            Some("Write|Edit|MultiEdit")
        ));
        for wide in [None, Some(""), Some("*")] {
            assert!(!is_narrow_matcher("PreToolUse", wide));
        }
        assert!(!is_narrow_matcher("SessionStart", None));
    }
}
