//! Claude Code the program: its hook protocol ([`hook`]: what a hook input asks, whether it
//! reaches a guarded memory folder, the JSON answer), the runner that answers one call
//! ([`answer`]: files a proposal and denies in review mode, journals in record mode), and its
//! settings files, where `memwb hooks` puts memwb's hooks. The folder it guards is read and
//! written through the Claude Code memory backend ([`crate::claude`]) and the review API;
//! nothing here knows how that format is laid out beyond which files are memory.

#[cfg(feature = "cli")]
mod agent;
pub mod answer;
#[cfg(feature = "cli")]
mod call;
pub mod hook;
#[cfg(feature = "cli")]
mod status;

#[cfg(feature = "cli")]
pub(crate) use agent::ClaudeCode;
