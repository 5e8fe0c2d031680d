//! `memwb hook claude`: one answer to one Claude Code hook input. Classifies the call
//! ([`crate::agents::claude_code::hook`]), and for a memory write either files a proposal and denies the
//! call (`review`), or lets it through and journals it (`record`: the before image stashed at
//! PreToolUse, the change journaled at PostToolUse).
//!
//! It never fails: anything that goes wrong (malformed input, an unreadable folder, a full
//! disk) is a problem to log and no decision, because Claude Code treats a failing hook as
//! "go on" anyway, and a hook that blocks by accident would stop the user's session.

mod budget;
mod filing;

use std::path::{Path, PathBuf};

use crate::agents::claude_code::hook::gate::gate_files;
use crate::agents::claude_code::hook::input::passes_unseen;
use crate::agents::claude_code::hook::output::{
    bash_reason, deny, link_out_reason, not_memory_reason, pending_line, protected_reason,
    queued_reason, session_context, stale_edit_reason, tool_reason,
};
use crate::agents::claude_code::hook::{
    Concern, Config, Event, Gate, HookInput, Mode, PathContext, ToolCall, classify, is_memory_file,
};
use crate::claude::fsread::{MAX_FILE_BYTES, read_regular};
use crate::claude::locate::{Env, config_dir, locate, project_root};
use crate::claude::{ClaudeFolder, LoadLimits};

pub use budget::{BUDGET, Budget};
pub use filing::{HookImage, log_dir};

/// What the hook prints and what it has to log.
#[derive(Debug, Default, Clone)]
pub struct Answer {
    /// The JSON line for stdout, when there is a decision or context.
    pub stdout: Option<String>,
    /// Problems met (each ended in "no decision"), for `hook.log`.
    pub problems: Vec<String>,
    /// The memory folder concerned, when known (its state directory holds the log).
    pub folder: Option<ClaudeFolder>,
}

impl Answer {
    /// No decision, and `problem` for the log.
    pub fn default_with(problem: &str) -> Self {
        Self::default().problem(problem)
    }

    fn problem(mut self, text: impl Into<String>) -> Self {
        self.problems.push(text.into());
        self
    }

    fn say(mut self, stdout: String) -> Self {
        self.stdout = Some(stdout);
        self
    }
}

/// The answer to one hook input. `installed` is the `--mode` the hook command was given;
/// `budget` is told what to answer if the time runs out before this returns.
pub fn answer(stdin: &[u8], env: Env, installed: Option<Mode>, budget: &Budget) -> Answer {
    let input = match HookInput::parse(stdin) {
        Ok(input) => input,
        Err(e) => {
            return Answer::default()
                .problem(format!("the input is not a hook's JSON object: {e}"));
        }
    };
    match input.event() {
        Event::PreToolUse | Event::PostToolUse => tool_call(&input, env, installed, budget),
        Event::SessionStart => session_start(&input, env),
        Event::Other => Answer::default(),
    }
}

/// The folders the session's writes are checked against: its auto memory, then every folder
/// in memwb's config.
fn guarded(cwd: &Path, config: &Config, env: Env, answer: &mut Answer) -> Vec<PathBuf> {
    let mut folders = Vec::new();
    match locate(cwd, env) {
        Ok(location) => folders.push(location.folder),
        Err(e) => answer
            .problems
            .push(format!("finding the auto memory of {}: {e}", cwd.display())),
    }
    folders.extend(config.folders(env));
    folders
}

fn load_config(env: Env, answer: &mut Answer) -> Config {
    Config::load(env).unwrap_or_else(|e| {
        answer
            .problems
            .push(format!("{e} (ignored: the defaults apply)"));
        Config::default()
    })
}

fn tool_call(input: &HookInput, env: Env, installed: Option<Mode>, budget: &Budget) -> Answer {
    // The fast path: a tool that only reads is answered without reading anything.
    if input.tool_name.as_deref().is_none_or(passes_unseen) {
        return Answer::default();
    }
    let mut answer = Answer::default();
    let home = env("HOME").map(PathBuf::from);
    let call = input.call_in(home.as_deref());
    match call {
        ToolCall::Malformed(why) => return answer.problem(why),
        // No path at all: nothing the gate could guard (at today's cost).
        ToolCall::Other => return answer,
        _ => {}
    }
    let Some(cwd) = input.cwd.as_deref().filter(|c| c.is_absolute()) else {
        return answer.problem("the input has no absolute cwd");
    };
    let config = load_config(env, &mut answer);
    let claude_config = config_dir(env).ok();
    let context = PathContext {
        cwd,
        home: home.as_deref(),
        claude_config: claude_config.as_deref(),
    };
    let project = project_root(cwd);
    let gate = Gate::new(
        &guarded(cwd, &config, env, &mut answer),
        &project,
        cwd,
        claude_config.as_deref(),
        &gate_files(&project, cwd, claude_config.as_deref(), env),
    );
    let pre = input.event() == Event::PreToolUse;
    let tool = input.tool_name.clone().unwrap_or_default();
    let concern = classify(&call, &gate, &context);
    let folder = match &concern {
        Concern::None => return answer,
        Concern::Protected { path } => {
            let mode = config.mode_for(&[], env, installed);
            return if pre && mode == Mode::Review {
                answer.say(deny(&protected_reason(&path.display().to_string(), &tool)))
            } else {
                answer
            };
        }
        Concern::File { folder, .. }
        | Concern::Tool { folder, .. }
        | Concern::LinkOut { folder, .. }
        | Concern::Bash { folder, .. } => folder.clone(),
    };
    let mode = config.mode_for(&folder.aliases, env, installed);
    if mode == Mode::Off {
        return answer;
    }
    let shown = folder.aliases[0].display().to_string();
    if pre && mode == Mode::Review {
        budget.undecided(&shown, &tool);
        match &concern {
            Concern::Bash { why, .. } => return answer.say(deny(&bash_reason(&shown, why))),
            Concern::LinkOut { lands, .. } => {
                return answer.say(deny(&link_out_reason(&shown, &lands.display().to_string())));
            }
            Concern::Tool { file, .. } => return answer.say(deny(&tool_reason(&tool, file))),
            _ => {}
        }
    } else if !pre {
        budget.unjournaled(&shown);
    }
    let (file, change) = match concern {
        Concern::File { file, change, .. } => (file, Some(change)),
        Concern::Tool { file, .. } => (file, None),
        Concern::LinkOut { lands, .. } => {
            return answer.problem(format!(
                "{tool} wrote through a link in {shown} to {}: not journaled",
                lands.display()
            ));
        }
        _ => return answer,
    };
    if !is_memory_file(&file) {
        return if pre && mode == Mode::Review {
            answer.say(deny(&not_memory_reason(&file)))
        } else {
            answer
        };
    }
    let folder = match open_folder(&folder.aliases[0], mode, budget) {
        Ok(folder) => folder,
        Err(e) if pre && mode == Mode::Review => {
            return answer.say(deny(&budget.undecided_reason(&shown, &tool, &e)));
        }
        Err(e) => {
            return answer.problem(format!(
                "the memory folder cannot be opened, so this call is not reviewed: {e}"
            ));
        }
    };
    answer.folder = Some(folder.clone());
    let before = match current(&folder, &file) {
        Ok(before) => before,
        Err(e) if pre && mode == Mode::Review => {
            return answer.say(deny(&budget.undecided_reason(&shown, &tool, &e)));
        }
        Err(e) => return answer.problem(e),
    };
    if !pre {
        return recorded(input, &folder, &file, before, answer);
    }
    let Some(change) = change else {
        // Record mode, a tool without a model: keep the before image for PostToolUse.
        let image = HookImage {
            file: file.clone(),
            before: before.clone(),
            after: before,
        };
        return stash(&folder, input, &image, answer);
    };
    let after = match change.apply(before.as_deref()) {
        Ok(after) => after,
        Err(e) if mode == Mode::Review => {
            return answer.say(deny(&stale_edit_reason(&file, &e.to_string())));
        }
        // Claude Code's own tool fails the same way: nothing is written.
        Err(_) => return answer,
    };
    if before.as_deref() == Some(after.as_str()) {
        return answer;
    }
    let image = HookImage {
        file: file.clone(),
        before,
        after: Some(after),
    };
    if mode != Mode::Review {
        return stash(&folder, input, &image, answer);
    }
    let new_file = image.before.is_none();
    match filing::file_proposal(&folder, image, input) {
        Ok(id) => answer.say(deny(&queued_reason(&id, &file, new_file))),
        Err(e) => answer.say(deny(&budget.undecided_reason(&shown, &tool, &e))),
    }
}

fn stash(folder: &ClaudeFolder, input: &HookInput, image: &HookImage, answer: Answer) -> Answer {
    match filing::stash(folder, input, image) {
        Ok(()) => answer,
        Err(e) => answer.problem(format!(
            "keeping the before image failed, so this change will not be journaled: {e}"
        )),
    }
}

/// The guarded folder, made when it does not exist yet (Claude Code makes it on its first
/// write; a proposal needs it to be filed against), its state lock waited for only as long
/// as the budget lasts.
fn open_folder(path: &Path, mode: Mode, budget: &Budget) -> Result<ClaudeFolder, String> {
    if mode == Mode::Review && !path.exists() {
        std::fs::create_dir_all(path)
            .map_err(|e| format!("making the folder {}: {e}", path.display()))?;
    }
    ClaudeFolder::open(path, LoadLimits::default())
        .map(|folder| folder.with_lock_wait(budget.lock_wait()))
        .map_err(|e| e.to_string())
}

/// PostToolUse of a write that went through: journal it with the image from before.
fn recorded(
    input: &HookInput,
    folder: &ClaudeFolder,
    file: &str,
    after: Option<String>,
    answer: Answer,
) -> Answer {
    let (before, before_redacted) = match filing::take_stash(folder, input, file) {
        Ok(Some(stashed)) => (stashed.before, stashed.redacted),
        Ok(None) => match original_file(input) {
            Some(before) => (before, false),
            None => {
                return answer.problem(format!(
                    "no before image of {file} (PreToolUse did not run in record mode), so the change is not journaled"
                ));
            }
        },
        Err(e) => return answer.problem(e),
    };
    if before == after {
        return answer;
    }
    let image = HookImage {
        file: file.to_owned(),
        before,
        after,
    };
    match filing::record(folder, image, before_redacted, input) {
        Ok(()) => answer,
        Err(e) => answer.problem(format!(
            "the change to {file} is not journaled ({e}); `memwb watch --record` journals it when it runs"
        )),
    }
}

/// The file's previous content as Claude Code reports it in a Write's or Edit's
/// `tool_response` (`originalFile`; `type: "create"` for a new file). Inferred from current
/// versions; only used when no stash was kept.
fn original_file(input: &HookInput) -> Option<Option<String>> {
    let response = input.tool_response.as_ref()?;
    if response.get("type").and_then(|t| t.as_str()) == Some("create") {
        return Some(None);
    }
    response
        .get("originalFile")
        .and_then(|o| o.as_str())
        .map(|text| Some(text.to_owned()))
}

/// A memory file's text now; `None` when it does not exist.
fn current(folder: &ClaudeFolder, file: &str) -> Result<Option<String>, String> {
    let path = folder.root().join(file);
    match read_regular(&path, MAX_FILE_BYTES) {
        Ok(None) => Ok(None),
        Ok(Some(bytes)) => String::from_utf8(bytes).map(Some).map_err(|_| {
            format!(
                "{} is not UTF-8, so this call is not reviewed",
                path.display()
            )
        }),
        Err(e) => Err(format!("{e}, so this call is not reviewed")),
    }
}

fn session_start(input: &HookInput, env: Env) -> Answer {
    let mut answer = Answer::default();
    let Some(cwd) = input.cwd.as_deref().filter(|c| c.is_absolute()) else {
        return answer.problem("the input has no absolute cwd");
    };
    let config = load_config(env, &mut answer);
    let mut waiting = 0;
    for guarded in guarded(cwd, &config, env, &mut answer) {
        let Ok(folder) = ClaudeFolder::open(&guarded, LoadLimits::default()) else {
            continue;
        };
        match filing::pending(&folder) {
            Ok(count) => waiting += count,
            Err(e) => answer.problems.push(format!("counting proposals: {e}")),
        }
        if answer.folder.is_none() {
            answer.folder = Some(folder);
        }
    }
    if waiting > 0 {
        answer.say(session_context(&pending_line(waiting)))
    } else {
        answer
    }
}
