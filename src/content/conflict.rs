//! `conflict`: records on the same subject that contradict each other, as the configured model
//! judges them. One side-query per set; the reply is checked strictly (known names, a one-line
//! reason) or nothing is reported. The model sees the records with credentials redacted.

use serde_json::{Value, json};

use super::{AuditFinding, Memory, finding};
use crate::finding::Severity;
use crate::redact::redact;
use crate::session::history::Message;
use crate::session::model::{ModelClient, SideQueryError, side_query, stable_json};

const PROMPT: &str = "You audit the long-term memory of a coding agent. You are given its \
memories as JSON. Find pairs of memories about the same subject that contradict each other \
(one says to do X, the other says not to, or they state incompatible facts). Reply with only a \
JSON array, empty when there is no contradiction; each item is {\"names\": [first, second], \
\"reason\": \"one line saying what contradicts what\"}, using the memories' exact names.";

/// The longest reason kept from a reply, in characters.
const MAX_REASON: usize = 200;

pub(super) fn conflicts(
    memories: &[Memory],
    model: &dyn ModelClient,
) -> Result<Vec<AuditFinding>, SideQueryError> {
    if memories.len() < 2 {
        return Ok(Vec::new());
    }
    let items: Vec<Value> = memories
        .iter()
        .map(|m| {
            json!({
                "name": m.name,
                "type": m.memory_type().map(|k| k.as_str()),
                "description": redact(m.description()),
                "body": redact(&m.body),
            })
        })
        .collect();
    let reply = side_query(
        model,
        vec![
            Message::system(PROMPT),
            Message::user(stable_json(&json!({ "memories": items }))),
        ],
    )?;
    let invalid = |rule: &str| SideQueryError::Invalid(rule.to_owned());
    let pairs = reply
        .as_array()
        .ok_or_else(|| invalid("expected a JSON array"))?;
    let mut out = Vec::new();
    for pair in pairs {
        let names: Vec<&str> = pair
            .get("names")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let reason = pair
            .get("reason")
            .and_then(Value::as_str)
            .map(|r| r.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|r| !r.is_empty())
            .ok_or_else(|| invalid("every item needs a non-empty \"reason\""))?;
        let [first, second] = names[..] else {
            return Err(invalid("every item names exactly two memories"));
        };
        let find = |name: &str| memories.iter().find(|m| m.name == name);
        let (Some(a), Some(b)) = (find(first), find(second)) else {
            return Err(invalid("an item names a memory that is not in the set"));
        };
        if a.name == b.name {
            return Err(invalid("an item names the same memory twice"));
        }
        let reason: String = reason.chars().take(MAX_REASON).collect();
        for (this, other) in [(a, b), (b, a)] {
            out.push(finding(
                this,
                "conflict",
                Severity::Warning,
                this.description_line,
                format!("contradicts {}: {reason}", other.name),
                None,
            ));
        }
    }
    Ok(out)
}
