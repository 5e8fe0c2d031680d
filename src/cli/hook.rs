//! `memwb hook <agent>`: the command an agent program runs as a hook (`memwb hooks install`
//! puts it in the program's settings). The agent reads the call on stdin and answers it
//! ([`crate::agents::Agent::answer_stdin`]); this prints at most one line on stdout and exits
//! 0 always: every problem goes to `hook.log` in the state directory instead
//! (docs/claude-code.md says why a hook must fail open).

use std::io::Write;

use clap::builder::PossibleValue;

use super::EXIT_OK;
use crate::agents::{AGENTS, Agent, ModeUse, hook_log, mode_named, modes_for, named};

#[derive(clap::Args, Debug)]
pub(super) struct HookArgs {
    /// The agent program whose hook input is on stdin.
    #[arg(value_name = "AGENT", value_parser = agent_names())]
    pub agent: String,
    // Its values and help are the agents' own (`Agent::modes`); `run` checks that the value
    // is one the named agent takes.
    #[arg(
        long,
        value_name = "MODE",
        value_parser = mode_values(ModeUse::Hook),
        help = hook_mode_help()
    )]
    pub mode: Option<String>,
}

/// Every registered agent's name, with its help, as `AGENT`'s values.
pub(super) fn agent_names() -> clap::builder::PossibleValuesParser {
    AGENTS
        .iter()
        .map(|agent| PossibleValue::new(agent.name()).help(agent.about()))
        .collect::<Vec<_>>()
        .into()
}

/// Every mode a registered agent takes for `usage`, each once, as `--mode`'s values.
pub(super) fn mode_values(usage: ModeUse) -> clap::builder::PossibleValuesParser {
    let mut names: Vec<&str> = Vec::new();
    for agent in AGENTS {
        for mode in modes_for(agent, usage) {
            if !names.contains(&mode.name) {
                names.push(mode.name);
            }
        }
    }
    names.into()
}

/// `text` for each registered agent, after its name when there are several.
pub(super) fn per_agent(text: impl Fn(&dyn Agent) -> String) -> String {
    match AGENTS.as_slice() {
        [only] => text(*only),
        all => all
            .iter()
            .map(|agent| format!("{}: {}", agent.name(), text(*agent)))
            .collect::<Vec<_>>()
            .join("; "),
    }
}

/// `--mode`'s help: what else sets an agent's mode, then its modes ("review, record or off").
fn hook_mode_help() -> String {
    per_agent(|agent| {
        let names: Vec<&str> = modes_for(agent, ModeUse::Hook)
            .iter()
            .map(|m| m.name)
            .collect();
        let list = match names.split_last() {
            Some((last, [])) => (*last).to_owned(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        };
        format!("{}: {list}.", agent.mode_help())
    })
}

pub(super) fn run(args: &HookArgs) -> anyhow::Result<u8> {
    // clap admits only the registered names.
    let Some(agent) = named(&args.agent) else {
        anyhow::bail!("no agent program named {}", args.agent);
    };
    if let Some(mode) = &args.mode
        && let Err(refusal) = mode_named(agent, mode, ModeUse::Hook)
    {
        // As a command line that does not parse: no decision, the reason in `hook.log`.
        log_unparsed(agent, &format!("error: {refusal}"));
        return Ok(EXIT_OK);
    }
    let reply = agent.answer_stdin(args.mode.as_deref());
    if let Some(line) = &reply.stdout {
        let mut out = std::io::stdout().lock();
        // A closed pipe means the program stopped waiting: nothing more to do.
        let _ = writeln!(out, "{line}").and_then(|()| out.flush());
    }
    hook_log::append(&reply);
    Ok(EXIT_OK)
}

/// The agent a command line `memwb [global options] hook <agent> ...` calls for, if it is one.
pub(super) fn hook_invocation(args: impl Iterator<Item = String>) -> Option<&'static dyn Agent> {
    let args: Vec<String> = args.skip(1).collect();
    args.windows(2)
        .find_map(|pair| (pair[0] == "hook").then(|| named(&pair[1])).flatten())
}

/// Logs a command line that did not parse, for a hook invocation (there is no folder yet).
pub(super) fn log_unparsed(agent: &dyn Agent, message: &str) {
    let first = message.lines().next().unwrap_or(message);
    hook_log::append(&agent.unanswered(&format!("the hook's command line did not parse: {first}")));
}
