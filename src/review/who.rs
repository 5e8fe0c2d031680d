//! Who made a change: the user and host, and the tool (the memwb CLI, the workbench, the
//! hook, ...), as recorded in the journal and on proposals.

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
}
