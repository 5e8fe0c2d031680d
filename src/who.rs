//! Leaf: who made a change (the user and host, and the tool: the memwb CLI, the workbench, the
//! hook, ...), as recorded in the journal and on proposals, and where a proposal came from
//! (memwb's own proposers, a model, or an agent's tool call a hook turned into a proposal).
//! Below the session, which hands a proposal's origin to the folder that files it, and the
//! review gate, which records both (re-exported as `review::who` and `review::Origin`).

use std::sync::atomic::{AtomicU8, Ordering};

use serde::{Deserialize, Serialize};

/// The program that made a change. One process is one tool: the `memwb` binary says which at
/// start ([`Tool::set`]); a program that uses the library and says nothing is `Library`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tool {
    /// A `memwb` command (`add`, `set`, `approve`, `undo`, ...).
    Cli,
    /// The workbench (`memwb`, `memwb tui`, `memwb demo`).
    Workbench,
    /// `memwb hook claude`, run by Claude Code around an agent session's tool call.
    Hook,
    /// `memwb watch --record`, journaling changes others made.
    Watch,
    /// Another program through the memwb library (an agent's own session, say).
    Library,
}

static TOOL: AtomicU8 = AtomicU8::new(Tool::Library as u8);

impl Tool {
    const ALL: [Tool; 5] = [
        Tool::Cli,
        Tool::Workbench,
        Tool::Hook,
        Tool::Watch,
        Tool::Library,
    ];

    /// Says which tool this process is, for every change it records from now on.
    pub fn set(tool: Tool) {
        TOOL.store(tool as u8, Ordering::Relaxed);
    }

    /// The tool this process said it is (`Library` if it said nothing).
    pub fn current() -> Tool {
        let value = TOOL.load(Ordering::Relaxed);
        Self::ALL
            .into_iter()
            .find(|tool| *tool as u8 == value)
            .unwrap_or(Tool::Library)
    }

    /// How the History pane and `memwb log` name it.
    pub fn label(self) -> &'static str {
        match self {
            Tool::Cli => "memwb CLI",
            Tool::Workbench => "workbench",
            Tool::Hook => "Claude Code hook",
            Tool::Watch => "watch --record",
            Tool::Library => "memwb library",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Who {
    pub user: String,
    pub host: String,
    /// The tool that made the change; absent on entries and proposals written before memwb
    /// recorded it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<Tool>,
}

impl Who {
    pub fn current() -> Self {
        Self {
            tool: Some(Tool::current()),
            ..Self::from_env(|var| std::env::var(var).ok())
        }
    }

    /// `$USER` (or `$USERNAME`, `$LOGNAME`), else the system account of the process (the
    /// password database, through `whoami`), and the host; "unknown" only when all fail.
    fn from_env(var: impl Fn(&str) -> Option<String>) -> Self {
        let user = ["USER", "USERNAME", "LOGNAME"]
            .iter()
            .find_map(|name| var(name).filter(|v| !v.is_empty()))
            .or_else(|| whoami::username().ok().filter(|u| !u.is_empty()))
            .unwrap_or_else(|| "unknown".into());
        let host = var("HOSTNAME")
            .filter(|h| !h.is_empty())
            .or_else(|| {
                std::fs::read_to_string("/proc/sys/kernel/hostname")
                    .or_else(|_| std::fs::read_to_string("/etc/hostname"))
                    .ok()
                    .map(|h| h.trim().to_owned())
                    .filter(|h| !h.is_empty())
            })
            .or_else(|| whoami::hostname().ok().filter(|h| !h.is_empty()))
            .unwrap_or_else(|| "unknown".into());
        Self {
            user,
            host,
            tool: None,
        }
    }
}

/// `ana@box (memwb CLI)`; `ana@box` for a change recorded before the tool was.
impl std::fmt::Display for Who {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}@{}", self.user, self.host)?;
        match self.tool {
            Some(tool) => write!(f, " ({})", tool.label()),
            None => Ok(()),
        }
    }
}

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
    fn user_comes_from_the_environment_first() {
        let who = Who::from_env(|var| (var == "LOGNAME").then(|| "ana".to_owned()));
        assert_eq!(who.user, "ana");
    }

    #[test]
    fn an_entry_from_before_the_tool_was_recorded_still_reads() {
        let old: Who = serde_json::from_str(r#"{"user":"ana","host":"box"}"#).expect("old");
        assert_eq!(old.tool, None);
        assert_eq!(old.to_string(), "ana@box");
        let new = Who {
            tool: Some(Tool::Workbench),
            ..old
        };
        let json = serde_json::to_string(&new).expect("json");
        assert_eq!(json, r#"{"user":"ana","host":"box","tool":"workbench"}"#);
        assert_eq!(new.to_string(), "ana@box (workbench)");
    }

    #[test]
    fn without_user_variables_the_system_account_is_used() {
        let who = Who::from_env(|_| None);
        assert_ne!(who.user, "unknown");
        assert_eq!(Some(who.user), whoami::username().ok());
    }

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
