//! The agent programs the command line answers hooks for and installs them into, behind one
//! trait, as the formats are behind `formats::Backend`.

use std::fmt;
use std::path::{Path, PathBuf};

use super::claude_code;

/// What the command line asks of an agent program's integration: `memwb hook <name>` answers
/// one of its hook calls, `memwb hooks install|uninstall|status` edit and read its settings.
/// The command line holds the file handling around an edit (backups, atomic replace) and the
/// output; the agent knows its protocol and its settings' shape.
pub(crate) trait Agent: Sync {
    /// The word after `memwb hook` that names this program.
    fn name(&self) -> &'static str;

    /// One line of help for `memwb hook <name>`.
    fn about(&self) -> &'static str;

    /// The values its hook's `--mode` takes, in the order the help lists them: `memwb hook
    /// <name> --mode` takes every one, `memwb hooks install <name> --mode` the installable ones.
    fn modes(&self) -> &'static [HookMode];

    /// The help of `memwb hook <name> --mode`, before its values: what else sets the mode.
    fn mode_help(&self) -> &'static str;

    /// Reads one hook call on stdin and answers it within the program's time budget; never
    /// fails (a problem is logged, with no decision). `mode` is the hook command's `--mode`,
    /// one of [`Agent::modes`] ([`mode_named`] checks it).
    fn answer_stdin(&self, mode: Option<&str>) -> HookReply;

    /// No decision, and `problem` to log (in the state root: no folder is known).
    fn unanswered(&self, problem: &str) -> HookReply;

    /// The settings file memwb's hooks go in: the project's shared settings under `project`,
    /// else the user's.
    fn settings_file(&self, project: Option<&Path>) -> Result<PathBuf, AgentError>;

    /// The command the settings run for a hook call in `mode`.
    fn hook_command(&self, mode: Option<&str>) -> String;

    /// `text` (a settings file) with memwb's hooks running `command`; `None` when they are
    /// already there. An error says why the file's shape cannot be edited.
    fn with_hooks(&self, text: &str, command: &str) -> Result<Option<String>, SettingsRefusal>;

    /// `text` without memwb's hooks; `None` when there were none.
    fn without_hooks(&self, text: &str) -> Result<Option<String>, SettingsRefusal>;

    /// The settings `text` says, its layout aside: two texts that say the same compare equal.
    fn meaning(&self, text: &str) -> String;

    /// Whether settings that mean `meaning` (from [`Agent::meaning`]) hold nothing at all.
    fn means_nothing(&self, meaning: &str) -> bool;

    /// `memwb hooks status`: the lines to print about where memwb's hooks are installed and
    /// whether the gate works. `read` reads a settings file's text (`None`: no file).
    fn status(
        &self,
        project: Option<&Path>,
        read: &dyn Fn(&Path) -> Result<Option<String>, String>,
    ) -> Result<Vec<String>, AgentError>;
}

/// Every agent program memwb answers hooks for. The first is the one `memwb hooks install`
/// and `uninstall` edit when no agent is named: Claude Code, the first memwb answered, so that
/// `memwb hooks install` keeps meaning what it always did.
pub(crate) static AGENTS: [&dyn Agent; 1] = [&claude_code::ClaudeCode];

/// The registered agent called `name`.
pub(crate) fn named(name: &str) -> Option<&'static dyn Agent> {
    AGENTS.iter().copied().find(|agent| agent.name() == name)
}

/// The agent `memwb hooks install|uninstall` edit when none is named (see [`AGENTS`]).
pub(crate) fn default_agent() -> &'static dyn Agent {
    AGENTS[0]
}

/// One value of an agent's `--mode`, as it declares it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct HookMode {
    /// The word on the command line (`review`).
    pub(crate) name: &'static str,
    /// What the hook does in it, for the help.
    pub(crate) help: &'static str,
    /// Whether `memwb hooks install --mode` may write it into the settings (a mode that turns
    /// the hook off is set where it can be turned on again, not installed).
    pub(crate) installable: bool,
}

/// Which command a `--mode` is given to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ModeUse {
    /// `memwb hook <agent> --mode`: every mode the agent declares.
    Hook,
    /// `memwb hooks install <agent> --mode`: its installable modes.
    Install,
}

impl ModeUse {
    fn admits(self, mode: &HookMode) -> bool {
        self == ModeUse::Hook || mode.installable
    }
}

/// The modes `agent` takes for `usage`, in its order.
pub(crate) fn modes_for(agent: &dyn Agent, usage: ModeUse) -> Vec<&'static HookMode> {
    agent.modes().iter().filter(|m| usage.admits(m)).collect()
}

/// `word` as one of `agent`'s modes for `usage`; else the refusal, worded as the command
/// line's own for a value it does not know.
pub(crate) fn mode_named(
    agent: &dyn Agent,
    word: &str,
    usage: ModeUse,
) -> Result<&'static HookMode, String> {
    let modes = modes_for(agent, usage);
    modes
        .iter()
        .copied()
        .find(|mode| mode.name == word)
        .ok_or_else(|| {
            let names: Vec<&str> = modes.iter().map(|m| m.name).collect();
            format!(
                "invalid value '{word}' for '--mode <MODE>' of {}\n  [possible values: {}]",
                agent.name(),
                names.join(", ")
            )
        })
}

/// What one hook call prints and logs.
#[derive(Debug, Default)]
pub(crate) struct HookReply {
    /// The JSON line for stdout, when there is a decision or context.
    pub(crate) stdout: Option<String>,
    /// Problems met (each ended in "no decision").
    pub(crate) problems: Vec<String>,
    /// What was decided, for the log (`PreToolUse deny`), when something was.
    pub(crate) decision: Option<String>,
    /// Where the log goes: the folder's state directory, else the state root.
    pub(crate) log_dir: Option<PathBuf>,
}

/// Why a settings file's shape cannot be edited (it is not an object, a key appears twice).
#[derive(Debug)]
pub(crate) struct SettingsRefusal {
    /// The rule the file breaks, as a sentence's end: "is not a JSON object (...)".
    pub(crate) rule: String,
}

/// An agent program's place that could not be found (no home directory to hold its config).
#[derive(Debug)]
pub(crate) struct AgentError(pub(crate) String);

impl fmt::Display for AgentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for AgentError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_each_agent_installs_calls_that_agent_back() {
        for agent in AGENTS {
            for mode in [None, Some("record")] {
                let command = agent.hook_command(mode);
                let words: Vec<&str> = command.split_whitespace().collect();
                assert_eq!(words.get(1), Some(&"hook"), "{command}");
                let called = words.get(2).and_then(|name| named(name));
                assert_eq!(called.map(|a| a.name()), Some(agent.name()), "{command}");
            }
        }
    }

    #[test]
    fn a_mode_is_one_the_agent_declares_for_that_command() {
        let claude = named("claude").expect("registered");
        let hook: Vec<&str> = modes_for(claude, ModeUse::Hook)
            .iter()
            .map(|m| m.name)
            .collect();
        assert_eq!(hook, ["review", "record", "off"]);
        let install: Vec<&str> = modes_for(claude, ModeUse::Install)
            .iter()
            .map(|m| m.name)
            .collect();
        assert_eq!(install, ["review", "record"]);
        assert_eq!(
            mode_named(claude, "record", ModeUse::Install).map(|m| m.name),
            Ok("record")
        );
        assert_eq!(
            mode_named(claude, "off", ModeUse::Install),
            Err("invalid value 'off' for '--mode <MODE>' of claude\n  [possible values: review, record]".to_owned())
        );
        assert!(mode_named(claude, "sometimes", ModeUse::Hook).is_err());
    }

    /// `memwb hooks install` said Claude Code before it took an agent; a new agent is
    /// registered after it, never before.
    #[test]
    fn the_default_agent_is_still_claude_code() {
        assert_eq!(default_agent().name(), "claude");
    }

    #[test]
    fn agent_names_are_unique() {
        for (i, agent) in AGENTS.iter().enumerate() {
            assert!(
                AGENTS[..i].iter().all(|other| other.name() != agent.name()),
                "{} twice",
                agent.name()
            );
        }
    }
}
