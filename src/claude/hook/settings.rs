//! memwb's entries in a Claude Code settings file (`hooks` in `settings.json`): added, removed
//! and found, on the parsed JSON, keeping every other key, hook and their order (serde_json's
//! `preserve_order`).

use serde_json::{Map, Value, json};

/// What `memwb hooks install` puts under each event, and the tools it matches.
pub const EVENTS: [(&str, Option<&str>); 3] = [
    ("PreToolUse", Some("Write|Edit|MultiEdit|Bash")),
    ("PostToolUse", Some("Write|Edit|MultiEdit")),
    ("SessionStart", None),
];

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

fn group(matcher: Option<&str>, command: &str) -> Value {
    let hook = json!({"type": "command", "command": command, "timeout": TIMEOUT_SECS});
    match matcher {
        Some(matcher) => json!({"matcher": matcher, "hooks": [hook]}),
        None => json!({"hooks": [hook]}),
    }
}

fn is_memwb_hook(hook: &Value) -> bool {
    hook.get("command")
        .and_then(Value::as_str)
        .is_some_and(is_memwb_command)
}

fn hooks_of(group: &Value) -> &[Value] {
    group
        .get("hooks")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// The `hooks` object, checked to have the shape Claude Code reads (so that nothing else is
/// misread and rewritten).
fn hooks_object(
    settings: &mut Map<String, Value>,
    create: bool,
) -> Result<Option<&mut Map<String, Value>>, ShapeError> {
    if !settings.contains_key("hooks") {
        if !create {
            return Ok(None);
        }
        settings.insert("hooks".into(), Value::Object(Map::new()));
    }
    let hooks = settings
        .get_mut("hooks")
        .and_then(Value::as_object_mut)
        .ok_or_else(|| shape("\"hooks\" is not an object"))?;
    for (event, groups) in hooks.iter() {
        let groups = groups
            .as_array()
            .ok_or_else(|| shape(format!("hooks.{event} is not an array")))?;
        if groups.iter().any(|g| !g.is_object()) {
            return Err(shape(format!(
                "hooks.{event} holds something that is not an object"
            )));
        }
    }
    Ok(Some(hooks))
}

/// Adds memwb's entries (running `command`); `Ok(false)` when they are already exactly there.
/// An older memwb entry (another mode, another path) is replaced.
pub fn install(settings: &mut Map<String, Value>, command: &str) -> Result<bool, ShapeError> {
    let hooks = hooks_object(settings, true)?.ok_or_else(|| shape("no hooks object"))?;
    let mut changed = false;
    for (event, matcher) in EVENTS {
        let wanted = group(matcher, command);
        let groups = hooks
            .entry(event)
            .or_insert_with(|| Value::Array(Vec::new()))
            .as_array_mut()
            .ok_or_else(|| shape(format!("hooks.{event} is not an array")))?;
        let ours: Vec<usize> = (0..groups.len())
            .filter(|&i| hooks_of(&groups[i]).iter().any(is_memwb_hook))
            .collect();
        if ours.len() == 1 && groups[ours[0]] == wanted {
            continue;
        }
        remove_memwb(groups);
        groups.push(wanted);
        changed = true;
    }
    Ok(changed)
}

/// Removes memwb's hooks from a list of matcher groups, and the groups left with none.
fn remove_memwb(groups: &mut Vec<Value>) -> bool {
    let mut changed = false;
    groups.retain_mut(|group| {
        let Some(list) = group.get_mut("hooks").and_then(Value::as_array_mut) else {
            return true;
        };
        let before = list.len();
        list.retain(|hook| !is_memwb_hook(hook));
        if list.len() == before {
            return true;
        }
        changed = true;
        !list.is_empty()
    });
    changed
}

/// Removes memwb's entries and nothing else (an event or `hooks` left empty by that goes too);
/// `Ok(false)` when there were none.
pub fn uninstall(settings: &mut Map<String, Value>) -> Result<bool, ShapeError> {
    let Some(hooks) = hooks_object(settings, false)? else {
        return Ok(false);
    };
    let mut changed = false;
    let mut emptied = Vec::new();
    for (event, groups) in hooks.iter_mut() {
        if let Some(groups) = groups.as_array_mut()
            && remove_memwb(groups)
        {
            changed = true;
            if groups.is_empty() {
                emptied.push(event.clone());
            }
        }
    }
    for event in emptied {
        hooks.shift_remove(&event);
    }
    if changed && hooks.is_empty() {
        settings.shift_remove("hooks");
    }
    Ok(changed)
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

    fn parse(text: &str) -> Map<String, Value> {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn install_keeps_every_other_key_and_hook_in_order_and_is_idempotent() {
        let mut settings = parse(
            r#"{"model":"opus","hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"lint"}]}],"Stop":[]},"z":1}"#,
        );
        assert!(install(&mut settings, "memwb hook claude").unwrap());
        let text = serde_json::to_string(&settings).unwrap();
        assert!(text.starts_with(r#"{"model":"opus","hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"lint"}]},{"matcher":"Write|Edit|MultiEdit|Bash""#), "{text}");
        assert!(text.ends_with(r#","z":1}"#), "{text}");
        let once = settings.clone();
        assert!(!install(&mut settings, "memwb hook claude").unwrap());
        assert_eq!(settings, once);
        assert_eq!(installed(&settings).len(), 3);
        // A new mode replaces the old entries, it does not add a second set.
        assert!(install(&mut settings, "memwb hook claude --mode record").unwrap());
        assert_eq!(installed(&settings).len(), 3);
        assert_eq!(command_mode(&installed(&settings)[0].2), Some("record"));
    }

    #[test]
    fn uninstall_removes_only_memwbs_entries() {
        let original = parse(
            r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"lint"}]}]},"env":{"A":"1"}}"#,
        );
        let mut settings = original.clone();
        install(&mut settings, "/usr/local/bin/memwb hook claude").unwrap();
        assert!(uninstall(&mut settings).unwrap());
        assert_eq!(settings, original);
        assert!(!uninstall(&mut settings).unwrap());
        let mut bare = Map::new();
        install(&mut bare, "memwb hook claude").unwrap();
        uninstall(&mut bare).unwrap();
        assert!(bare.is_empty(), "{bare:?}");
    }

    #[test]
    fn a_hooks_value_of_another_shape_is_refused_untouched() {
        let mut settings = parse(r#"{"hooks":{"PreToolUse":{"matcher":"x"}}}"#);
        let before = settings.clone();
        assert_eq!(
            install(&mut settings, "memwb hook claude")
                .unwrap_err()
                .rule,
            "hooks.PreToolUse is not an array"
        );
        assert_eq!(settings, before);
        assert!(is_memwb_command("\"/opt/memwb\" hook claude --mode off"));
        assert!(!is_memwb_command("memwb-other hook claude"));
        assert!(!is_memwb_command("memwb watch"));
    }
}
