//! `memwb hook claude`: the command Claude Code runs as a hook (`memwb hooks install` puts it
//! in the settings). One JSON object on stdin, at most one JSON line on stdout, exit 0 always:
//! every problem goes to `hook.log` in the state directory instead (docs/claude-code.md says
//! why a hook must fail open).

use std::io::{IsTerminal, Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::time::Instant;

use super::EXIT_OK;
use super::output::inert;
use crate::agents::claude_code::answer::{Answer, BUDGET, Budget, answer, log_dir};
use crate::agents::claude_code::hook::Mode;
use crate::agents::claude_code::hook::input::{MAX_INPUT_BYTES, read_one_value};
use crate::claude::locate::process_env;

#[derive(clap::Args, Debug)]
pub(super) struct HookArgs {
    #[command(subcommand)]
    pub agent: HookAgent,
}

#[derive(clap::Subcommand, Debug)]
pub(super) enum HookAgent {
    /// Answer one Claude Code hook input (PreToolUse, PostToolUse, SessionStart) read on stdin.
    Claude(ClaudeHookArgs),
}

#[derive(clap::Args, Debug)]
pub(super) struct ClaudeHookArgs {
    /// The mode when neither MEMWB_CLAUDE_MODE nor memwb's config file sets one: review, record or off.
    #[arg(long, value_name = "MODE", value_parser = ["review", "record", "off"])]
    pub mode: Option<String>,
}

/// The file problems are appended to, in the folder's state directory (else the state root).
pub(super) const LOG_FILE: &str = "hook.log";

pub(super) fn run(args: &HookArgs) -> anyhow::Result<u8> {
    let HookAgent::Claude(args) = &args.agent;
    let installed = args.mode.as_deref().and_then(Mode::parse);
    let budget = Budget::until(Instant::now() + BUDGET);
    let result = if std::io::stdin().is_terminal() {
        // A person typed `memwb hook claude`: there is no hook input to wait for.
        Answer::default_with("stdin is a terminal, not a hook's input: nothing to answer")
    } else {
        within_budget(installed, &budget)
    };
    if let Some(line) = &result.stdout {
        let mut out = std::io::stdout().lock();
        // A closed pipe means Claude Code stopped waiting: nothing more to do.
        let _ = writeln!(out, "{line}").and_then(|()| out.flush());
    }
    log(&result);
    Ok(EXIT_OK)
}

/// Reads the input and answers it on a worker thread; at the deadline, answers with what the
/// budget kept instead (the worker, blocked on a stdin that never closes or on a lock, ends
/// with the process).
fn within_budget(installed: Option<Mode>, budget: &Budget) -> Answer {
    let (sender, receiver) = std::sync::mpsc::channel();
    let worker_budget = budget.clone();
    let spawned = std::thread::Builder::new()
        .name("hook".into())
        .spawn(move || {
            let answer = read_and_answer(installed, &worker_budget);
            // The receiver is gone only when the deadline passed: nothing to tell.
            let _ = sender.send(answer);
        });
    if let Err(e) = spawned {
        return Answer::default_with(&format!("starting the hook's worker: {e}"));
    }
    let left = budget.deadline().saturating_duration_since(Instant::now());
    receiver
        .recv_timeout(left)
        .unwrap_or_else(|_| budget.expired())
}

fn read_and_answer(installed: Option<Mode>, budget: &Budget) -> Answer {
    let stdin = std::io::stdin();
    let mut reader = stdin.lock().take(MAX_INPUT_BYTES as u64 + 1);
    match read_one_value(&mut reader, MAX_INPUT_BYTES) {
        Ok(bytes) if bytes.len() > MAX_INPUT_BYTES => {
            Answer::default_with(&format!("the input is larger than {MAX_INPUT_BYTES} bytes"))
        }
        Ok(bytes) => std::panic::catch_unwind(|| answer(&bytes, &process_env, installed, budget))
            .unwrap_or_else(|_| Answer::default_with("the hook panicked; no decision")),
        Err(e) => Answer::default_with(&format!("reading stdin: {e}")),
    }
}

/// Appends the problems, and the decision when there was one, to `hook.log` (`hooks status`
/// shows the last); a log that cannot be written is not a reason to fail.
fn log(answer: &Answer) {
    let decision = answer.stdout.as_deref().and_then(decision_of);
    if answer.problems.is_empty() && decision.is_none() {
        return;
    }
    let Some(dir) = log_dir(answer.folder.as_ref()) else {
        return;
    };
    if crate::fs::create_private_dir_all(&dir).is_err() {
        return;
    }
    let at = crate::time::format_ms(crate::time::now_ms());
    let mut text = String::new();
    for problem in &answer.problems {
        text.push_str(&format!("{at} {}\n", inert(problem).replace('\n', " ")));
    }
    if let Some(decision) = decision {
        text.push_str(&format!("{at} {DECISION}{}\n", inert(&decision)));
    }
    if let Ok(mut file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .mode(crate::fs::PRIVATE_FILE)
        .open(dir.join(LOG_FILE))
    {
        let _ = file.write_all(text.as_bytes());
    }
}

/// How a decision's line in `hook.log` starts, after its time.
pub(super) const DECISION: &str = "decision: ";

/// What an answer decided, for the log: `PreToolUse deny`, `SessionStart context`.
fn decision_of(stdout: &str) -> Option<String> {
    let answer: serde_json::Value = serde_json::from_str(stdout).ok()?;
    let output = answer.get("hookSpecificOutput")?;
    let event = output.get("hookEventName")?.as_str()?;
    let what = match output.get("permissionDecision").and_then(|d| d.as_str()) {
        Some(decision) => decision,
        None if output.get("additionalContext").is_some() => "context",
        None => return None,
    };
    Some(format!("{event} {what}").replace(char::is_control, " "))
}

/// Whether the command line is `memwb [global options] hook claude ...`.
pub(super) fn is_hook_invocation(args: impl Iterator<Item = String>) -> bool {
    let args: Vec<String> = args.skip(1).collect();
    args.windows(2)
        .any(|pair| pair[0] == "hook" && pair[1] == "claude")
}

/// Logs a command line that did not parse, for a hook invocation (there is no folder yet).
pub(super) fn log_unparsed(message: &str) {
    let first = message.lines().next().unwrap_or(message);
    log(&Answer::default_with(&format!(
        "the hook's command line did not parse: {first}"
    )));
}
