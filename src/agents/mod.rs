//! Integrations with the agent programs themselves, beside the format backends
//! ([`crate::formats`]): a backend knows how a format's folder reads and is written; an
//! integration knows how a program asks (its hook protocol, its settings files) and answers
//! it, reaching the memory folder only through the backend and the review API below it.
//! Claude Code the program is [`claude_code`]; a Codex or Gemini CLI hook would be a sibling
//! module here, over whichever backend its program writes, and one more entry in `AGENTS`.
//! docs/architecture.md, "Agent integrations and format backends".

pub mod claude_code;
#[cfg(feature = "cli")]
pub(crate) mod hook_log;
#[cfg(feature = "cli")]
mod registry;

#[cfg(feature = "cli")]
pub(crate) use registry::{
    AGENTS, Agent, AgentError, HookMode, HookReply, ModeUse, SettingsRefusal, default_agent,
    mode_named, modes_for, named,
};
