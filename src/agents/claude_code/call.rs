//! One hook call as `memwb hook claude` makes it: one JSON object on stdin, at most one JSON
//! line for stdout, never a failure. The answer is worked out on a worker thread and, at the
//! deadline, replaced by what the budget kept (docs/claude-code.md, "The time budget").

use std::io::Read;
use std::time::Instant;

use super::answer::{Answer, BUDGET, Budget, answer, log_dir};
use super::hook::Mode;
use super::hook::input::{MAX_INPUT_BYTES, read_one_value};
use crate::agents::HookReply;
use crate::claude::locate::process_env;

/// Answers the hook input on stdin; `installed` is the hook command's `--mode`.
pub(super) fn answer_stdin(installed: Option<&str>) -> HookReply {
    let installed = installed.and_then(Mode::parse);
    let budget = Budget::until(Instant::now() + BUDGET);
    let answer = if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        // A person typed `memwb hook claude`: there is no hook input to wait for.
        Answer::default_with("stdin is a terminal, not a hook's input: nothing to answer")
    } else {
        within_budget(installed, &budget)
    };
    reply(answer)
}

/// The reply to print and log for `answer`.
pub(super) fn reply(answer: Answer) -> HookReply {
    let decision = answer.stdout.as_deref().and_then(decision_of);
    // Finding the folder's state directory creates it: only for something to log.
    let log_dir = if answer.problems.is_empty() && decision.is_none() {
        None
    } else {
        log_dir(answer.folder.as_ref())
    };
    HookReply {
        decision,
        log_dir,
        stdout: answer.stdout,
        problems: answer.problems,
    }
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
