//! Claude Code as the command line's [`Agent`]: `memwb hook claude` and `memwb hooks`.

use std::path::{Path, PathBuf};

use super::answer::Answer;
use super::hook::Mode;
use super::hook::settings::ShapeError;
use super::hook::settings_text;
use super::{call, status};
use crate::agents::{Agent, AgentError, HookMode, HookReply, SettingsRefusal};
use crate::claude::locate::{config_dir, process_env};

/// Claude Code, as `memwb hook claude` and `memwb hooks` meet it.
pub(crate) struct ClaudeCode;

/// The user's settings: `$CLAUDE_CONFIG_DIR/settings.json`, else `~/.claude/settings.json`.
pub(super) fn user_settings() -> Result<PathBuf, AgentError> {
    config_dir(&process_env)
        .map(|dir| dir.join("settings.json"))
        .map_err(|e| AgentError(e.to_string()))
}

/// The hook's modes (docs/claude-code.md, "The hook"), each the word [`Mode`] reads.
static MODES: [HookMode; 3] = [
    HookMode {
        name: Mode::Review.as_str(),
        help: "memory writes become proposals (the default)",
        installable: true,
    },
    HookMode {
        name: Mode::Record.as_str(),
        help: "memory writes go through and are journaled",
        installable: true,
    },
    HookMode {
        name: Mode::Off.as_str(),
        help: "the hook lets every call through and records nothing",
        installable: false,
    },
];

fn refusal(e: ShapeError) -> SettingsRefusal {
    SettingsRefusal { rule: e.rule }
}

impl Agent for ClaudeCode {
    fn name(&self) -> &'static str {
        "claude"
    }

    fn about(&self) -> &'static str {
        "Answer one Claude Code hook input (PreToolUse, PostToolUse, SessionStart) read on stdin"
    }

    fn modes(&self) -> &'static [HookMode] {
        &MODES
    }

    fn mode_help(&self) -> &'static str {
        "The mode when neither MEMWB_CLAUDE_MODE nor memwb's config file sets one"
    }

    fn answer_stdin(&self, mode: Option<&str>) -> HookReply {
        call::answer_stdin(mode)
    }

    fn unanswered(&self, problem: &str) -> HookReply {
        call::reply(Answer::default_with(problem))
    }

    fn settings_file(&self, project: Option<&Path>) -> Result<PathBuf, AgentError> {
        match project {
            Some(dir) => Ok(dir.join(".claude").join("settings.json")),
            None => user_settings(),
        }
    }

    fn hook_command(&self, mode: Option<&str>) -> String {
        match mode {
            Some(mode) => format!("memwb hook claude --mode {mode}"),
            None => "memwb hook claude".to_owned(),
        }
    }

    fn with_hooks(&self, text: &str, command: &str) -> Result<Option<String>, SettingsRefusal> {
        settings_text::install(text, command).map_err(refusal)
    }

    fn without_hooks(&self, text: &str) -> Result<Option<String>, SettingsRefusal> {
        settings_text::uninstall(text).map_err(refusal)
    }

    fn meaning(&self, text: &str) -> String {
        settings_text::without_layout(text)
    }

    fn means_nothing(&self, meaning: &str) -> bool {
        meaning == "{}" || meaning.is_empty()
    }

    fn status(
        &self,
        project: Option<&Path>,
        read: &dyn Fn(&Path) -> Result<Option<String>, String>,
    ) -> Result<Vec<String>, AgentError> {
        status::report(project, read)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_declared_modes_are_the_hooks_modes() {
        let declared: Vec<Option<Mode>> = MODES.iter().map(|m| Mode::parse(m.name)).collect();
        assert_eq!(
            declared,
            [Some(Mode::Review), Some(Mode::Record), Some(Mode::Off)]
        );
        assert_eq!(MODES[0].name, Mode::default().as_str(), "the default first");
    }
}
