//! Where a proposal came from: memwb's own proposers, a model, or an agent's tool call that a
//! hook turned into a proposal.

use serde::{Deserialize, Serialize};

use crate::review::who::Who;

/// Where a proposal came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Origin {
    /// `model`, `import`, `dedupe`, `audit`, `copy`, `agent` or `claude-code`.
    pub source: String,
    pub model: Option<String>,
    pub endpoint: Option<String>,
    pub by: Who,
    /// The agent's tool call the proposal was made from (`memwb hook claude`); absent in
    /// proposals filed before it existed and in every other kind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call: Option<AgentCall>,
}

/// The fields of Claude Code's hook input that say who asked for a change, under the names
/// Claude Code gives them (so a hook input deserializes into it directly). All optional: a
/// main-agent call has no `agent_id`, and older versions send fewer fields.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentCall {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// Set inside a subagent or a background agent (extraction, consolidation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_type: Option<String>,
    /// `Write`, `Edit`, `MultiEdit`, `Bash`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_use_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transcript_path: Option<String>,
}

impl AgentCall {
    /// "Write by the main agent in session 0b6f2c1e" / "Edit by subagent dream (a1b2)".
    pub fn describe(&self) -> String {
        let tool = self.tool_name.as_deref().unwrap_or("a tool call");
        let agent = match (&self.agent_type, &self.agent_id) {
            (Some(kind), Some(id)) => format!("{kind} agent {}", short(id)),
            (Some(kind), None) => format!("{kind} agent"),
            (None, Some(id)) => format!("agent {}", short(id)),
            (None, None) => "the main agent".to_owned(),
        };
        match &self.session_id {
            Some(session) => format!("{tool} by {agent} in session {}", short(session)),
            None => format!("{tool} by {agent}"),
        }
    }
}

/// The first 8 characters of an id: enough to tell sessions apart on one line.
fn short(id: &str) -> &str {
    id.char_indices().nth(8).map_or(id, |(at, _)| &id[..at])
}

impl Origin {
    pub fn new(source: &str) -> Self {
        Self {
            source: source.into(),
            model: None,
            endpoint: None,
            by: Who::current(),
            call: None,
        }
    }

    /// A proposal made from an agent's tool call.
    pub fn agent_call(source: &str, call: AgentCall) -> Self {
        Self {
            call: Some(call),
            ..Self::new(source)
        }
    }

    pub fn describe(&self) -> String {
        if let Some(call) = &self.call {
            return format!("{} {}", self.source, call.describe());
        }
        match (&self.model, &self.endpoint) {
            (Some(model), Some(endpoint)) => format!("{} {model} at {endpoint}", self.source),
            (Some(model), None) => format!("{} {model}", self.source),
            _ => format!("{} by {}", self.source, self.by),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_origin_without_a_call_reads_and_writes_as_before() {
        let old =
            r#"{"source":"dedupe","model":null,"endpoint":null,"by":{"user":"ana","host":"box"}}"#;
        let origin: Origin = serde_json::from_str(old).unwrap();
        assert_eq!(origin.call, None);
        assert_eq!(serde_json::to_string(&origin).unwrap(), old);
        assert_eq!(origin.describe(), "dedupe by ana@box");
    }

    #[test]
    fn a_hook_call_is_kept_and_described() {
        let input = r#"{"session_id":"0b6f2c1e-5d0a-4c9b","transcript_path":"/t.jsonl","tool_name":"Write","agent_id":"a1b2c3d4e5f6","agent_type":"extraction","cwd":"/p"}"#;
        let call: AgentCall = serde_json::from_str(input).unwrap();
        assert_eq!(call.transcript_path.as_deref(), Some("/t.jsonl"));
        let origin = Origin::agent_call("claude-code", call.clone());
        assert_eq!(
            origin.describe(),
            "claude-code Write by extraction agent a1b2c3d4 in session 0b6f2c1e"
        );
        let back: Origin = serde_json::from_str(&serde_json::to_string(&origin).unwrap()).unwrap();
        assert_eq!(back.call, Some(call));
        let main = AgentCall {
            tool_name: Some("Edit".into()),
            ..AgentCall::default()
        };
        assert_eq!(main.describe(), "Edit by the main agent");
    }
}
