//! `memwb hook <agent>`: the command an agent program runs as a hook (`memwb hooks install`
//! puts it in the program's settings). The agent reads the call on stdin and answers it
//! ([`crate::agents::Agent::answer_stdin`]); this prints at most one line on stdout and exits
//! 0 always: every problem goes to `hook.log` in the state directory instead
//! (docs/claude-code.md says why a hook must fail open).

use std::io::Write;

use clap::builder::PossibleValue;

use super::EXIT_OK;
use crate::agents::{AGENTS, Agent, hook_log, named};

#[derive(clap::Args, Debug)]
pub(super) struct HookArgs {
    /// The agent program whose hook input is on stdin.
    #[arg(value_name = "AGENT", value_parser = agent_names())]
    pub agent: String,
    /// The mode when neither MEMWB_CLAUDE_MODE nor memwb's config file sets one: review, record or off.
    #[arg(long, value_name = "MODE", value_parser = ["review", "record", "off"])]
    pub mode: Option<String>,
}

/// Every registered agent's name, with its help, as `AGENT`'s values.
fn agent_names() -> clap::builder::PossibleValuesParser {
    AGENTS
        .iter()
        .map(|agent| PossibleValue::new(agent.name()).help(agent.about()))
        .collect::<Vec<_>>()
        .into()
}

pub(super) fn run(args: &HookArgs) -> anyhow::Result<u8> {
    // clap admits only the registered names.
    let Some(agent) = named(&args.agent) else {
        anyhow::bail!("no agent program named {}", args.agent);
    };
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
