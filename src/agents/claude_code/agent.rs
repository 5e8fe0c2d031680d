//! Claude Code as the command line's [`Agent`]: `memwb hook claude` and `memwb hooks`.

use std::path::{Path, PathBuf};

use super::answer::Answer;
use super::hook::settings::ShapeError;
use super::hook::settings_text;
use super::{call, status};
use crate::agents::{Agent, AgentError, HookReply, SettingsRefusal};
use crate::claude::locate::{config_dir, process_env};

/// Claude Code, as `memwb hook claude` and `memwb hooks` meet it.
pub(crate) struct ClaudeCode;

/// The user's settings: `$CLAUDE_CONFIG_DIR/settings.json`, else `~/.claude/settings.json`.
pub(super) fn user_settings() -> Result<PathBuf, AgentError> {
    config_dir(&process_env)
        .map(|dir| dir.join("settings.json"))
        .map_err(|e| AgentError(e.to_string()))
}

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
