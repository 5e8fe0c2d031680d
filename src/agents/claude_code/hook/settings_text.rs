//! memwb's entries spliced into a settings file's text and taken out of it, through the file's
//! concrete syntax tree: every byte that is not memwb's entry stays as written (a number too
//! big for a double, a duplicate key, the layout). What memwb's entries are, and which groups
//! hold them, is [`super::settings`].

use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstArray, CstInputValue, CstNode, CstObject, CstRootNode};
use serde_json::{Map, Value};

use super::settings::{
    EVENTS, ShapeError, check_shape, group, holds_memwb, is_memwb_hook, only_memwb,
};

fn shape(rule: impl Into<String>) -> ShapeError {
    ShapeError { rule: rule.into() }
}

/// The parsed text, its root object (set to `{}` in an empty file), and the checks every edit
/// needs: `hooks` has Claude Code's shape, and neither it nor an event in it appears twice
/// (which one Claude Code reads is not memwb's guess to make).
fn open(text: &str) -> Result<(CstRootNode, CstObject), ShapeError> {
    // serde_json holds the text to strict JSON, as Claude Code reads it, before the (lenient)
    // syntax tree is built.
    if !text.trim().is_empty() {
        let parsed: Map<String, Value> =
            serde_json::from_str(text).map_err(|e| shape(format!("is not a JSON object ({e})")))?;
        check_shape(&parsed)?;
    }
    let root =
        CstRootNode::parse(text, &ParseOptions::default()).map_err(|e| shape(e.to_string()))?;
    let object = root.object_value_or_set();
    once(&object, "hooks", "the key \"hooks\"")?;
    if let Some(hooks) = object.object_value("hooks") {
        for prop in hooks.properties() {
            if let Some(event) = prop.decoded_name() {
                once(&hooks, &event, &format!("hooks.{event}"))?;
            }
        }
    }
    Ok((root, object))
}

fn once(object: &CstObject, key: &str, what: &str) -> Result<(), ShapeError> {
    let count = object
        .properties()
        .iter()
        .filter(|p| p.decoded_name().as_deref() == Some(key))
        .count();
    if count > 1 {
        return Err(shape(format!(
            "{what} appears {count} times, and memwb does not guess which one Claude Code reads"
        )));
    }
    Ok(())
}

fn value_of(node: &CstNode) -> Value {
    serde_json::from_str(&node.to_string()).unwrap_or(Value::Null)
}

fn input(value: &Value) -> CstInputValue {
    match value {
        Value::Null => CstInputValue::Null,
        Value::Bool(b) => CstInputValue::Bool(*b),
        Value::Number(n) => CstInputValue::Number(n.to_string()),
        Value::String(s) => CstInputValue::String(s.clone()),
        Value::Array(items) => CstInputValue::Array(items.iter().map(input).collect()),
        Value::Object(map) => {
            CstInputValue::Object(map.iter().map(|(k, v)| (k.clone(), input(v))).collect())
        }
    }
}

/// Takes memwb's hooks out of the groups at `indices` of `groups`, and a group left with none.
fn remove_memwb_hooks(groups: &[CstNode], indices: &[usize]) {
    for &index in indices.iter().rev() {
        let Some(list) = groups[index]
            .as_object()
            .and_then(|group| group.array_value("hooks"))
        else {
            continue;
        };
        let hooks = list.elements();
        let ours: Vec<CstNode> = hooks
            .iter()
            .filter(|hook| is_memwb_hook(&value_of(hook)))
            .cloned()
            .collect();
        if ours.len() == hooks.len() {
            groups[index].clone().remove();
        } else {
            ours.into_iter().for_each(CstNode::remove);
        }
    }
}

/// The event's array of groups, created empty when the event is missing.
fn groups_of(hooks: &CstObject, event: &str) -> Result<CstArray, ShapeError> {
    hooks
        .array_value_or_create(event)
        .ok_or_else(|| shape(format!("hooks.{event} is not an array")))
}

/// The text with memwb's entries (running `command`) in it; `None` when they are exactly there
/// already. An older entry of memwb's (another mode, another path, a narrower matcher) is
/// replaced where it stands.
pub(crate) fn install(text: &str, command: &str) -> Result<Option<String>, ShapeError> {
    let (root, object) = open(text)?;
    let hooks = object
        .object_value_or_create("hooks")
        .ok_or_else(|| shape("\"hooks\" is not an object"))?;
    let mut changed = false;
    for (event, matcher) in EVENTS {
        let wanted = group(matcher, command);
        let array = groups_of(&hooks, event)?;
        let groups = array.elements();
        let values: Vec<Value> = groups.iter().map(value_of).collect();
        let ours: Vec<usize> = (0..values.len())
            .filter(|&i| holds_memwb(&values[i]))
            .collect();
        if ours.len() == 1 && values[ours[0]] == wanted {
            continue;
        }
        changed = true;
        match ours.iter().copied().find(|&i| only_memwb(&values[i])) {
            Some(place) => {
                let others: Vec<usize> = ours.iter().copied().filter(|&i| i != place).collect();
                remove_memwb_hooks(&groups, &others);
                if let Some(old) = groups[place].as_object() {
                    old.replace_with(input(&wanted));
                }
            }
            None => {
                remove_memwb_hooks(&groups, &ours);
                array.append(input(&wanted));
            }
        }
    }
    Ok(changed.then(|| root.to_string()))
}

/// The text without memwb's entries (an event or `hooks` left empty by that goes too); `None`
/// when there were none.
pub(crate) fn uninstall(text: &str) -> Result<Option<String>, ShapeError> {
    let (root, object) = open(text)?;
    let Some(hooks_prop) = object.get("hooks") else {
        return Ok(None);
    };
    let Some(hooks) = hooks_prop.object_value() else {
        return Ok(None);
    };
    let mut changed = false;
    for prop in hooks.properties() {
        let Some(array) = prop.array_value() else {
            continue;
        };
        let groups = array.elements();
        let ours: Vec<usize> = (0..groups.len())
            .filter(|&i| holds_memwb(&value_of(&groups[i])))
            .collect();
        if ours.is_empty() {
            continue;
        }
        changed = true;
        remove_memwb_hooks(&groups, &ours);
        if array.elements().is_empty() {
            prop.remove();
        }
    }
    if changed && hooks.properties().is_empty() {
        hooks_prop.remove();
    }
    Ok(changed.then(|| root.to_string()))
}

/// The text's JSON tokens with the layout between them left out: two texts that differ only in
/// whitespace outside strings compare equal.
pub(crate) fn without_layout(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in text.chars() {
        if in_string {
            out.push(c);
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if !c.is_whitespace() && c != '\u{feff}' {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const PRETTY: &str = r#"{
  "model": "opus",
  "big": 12345678901234567890123,
  "env": {"A": "1", "A": "2"},
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "lint"}]}
    ],
    "Stop": []
  },
  "z": 1.50
}
"#;

    #[test]
    fn install_changes_nothing_but_memwbs_entries_and_uninstall_takes_exactly_them_out() {
        let installed = install(PRETTY, "memwb hook claude").unwrap().unwrap();
        for kept in [
            "\"big\": 12345678901234567890123,",
            "\"env\": {\"A\": \"1\", \"A\": \"2\"},",
            "\"z\": 1.50\n}\n",
            "{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"lint\"}]}",
            "\"Stop\": []",
        ] {
            assert!(installed.contains(kept), "{kept} lost:\n{installed}");
        }
        let value: Value = serde_json::from_str(&installed).unwrap();
        assert_eq!(value["hooks"]["PreToolUse"][1]["matcher"], "*");
        assert_eq!(value["hooks"]["PostToolUse"][0]["matcher"], "*");
        assert_eq!(install(&installed, "memwb hook claude").unwrap(), None);
        let removed = uninstall(&installed).unwrap().unwrap();
        assert_eq!(without_layout(&removed), without_layout(PRETTY));
        assert_eq!(uninstall(&removed).unwrap(), None);
    }

    #[test]
    fn an_old_narrow_entry_is_upgraded_where_it_stands() {
        let old = r#"{"hooks": {"PreToolUse": [
  {"matcher": "Write|Edit|MultiEdit|Bash", "hooks": [{"type": "command", "command": "memwb hook claude", "timeout": 10}]},
  {"matcher": "Bash", "hooks": [{"type": "command", "command": "lint"}]}
]}}"#;
        let new = install(old, "memwb hook claude").unwrap().unwrap();
        let value: Value = serde_json::from_str(&new).unwrap();
        let pre = value["hooks"]["PreToolUse"].as_array().unwrap();
        assert_eq!(pre.len(), 2, "{new}");
        assert_eq!(pre[0], group(Some("*"), "memwb hook claude"));
        assert_eq!(pre[1]["hooks"][0]["command"], "lint");
    }

    #[test]
    fn memwbs_hook_sharing_a_group_with_another_leaves_the_other() {
        let shared = r#"{"hooks": {"PreToolUse": [{"matcher": "Write", "hooks": [
  {"type": "command", "command": "lint"},
  {"type": "command", "command": "/usr/bin/memwb hook claude --mode record"}]}]}}"#;
        let removed = uninstall(shared).unwrap().unwrap();
        let value: Value = serde_json::from_str(&removed).unwrap();
        assert_eq!(
            value,
            serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Write", "hooks": [
                {"type": "command", "command": "lint"}]}]}})
        );
    }

    #[test]
    fn a_duplicate_hooks_key_or_another_shape_is_refused() {
        let twice = r#"{"hooks": {}, "hooks": {"Stop": []}}"#;
        assert!(
            install(twice, "memwb hook claude")
                .unwrap_err()
                .rule
                .contains("2 times")
        );
        let event_twice = r#"{"hooks": {"PreToolUse": [], "PreToolUse": []}}"#;
        assert!(
            uninstall(event_twice)
                .unwrap_err()
                .rule
                .contains("hooks.PreToolUse")
        );
        assert!(install("{\"hooks\": []}", "memwb hook claude").is_err());
        assert!(install("[1]", "memwb hook claude").is_err());
    }

    #[test]
    fn an_empty_file_gets_an_object() {
        let new = install("", "memwb hook claude").unwrap().unwrap();
        let value: Value = serde_json::from_str(&new).unwrap();
        assert_eq!(
            value["hooks"]["SessionStart"][0],
            group(None, "memwb hook claude")
        );
        let removed = uninstall(&new).unwrap().unwrap();
        assert_eq!(without_layout(&removed), "{}");
    }
}
