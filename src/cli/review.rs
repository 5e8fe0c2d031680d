//! The review loop on the command line: propose, list, approve, reject, log, undo.

use std::path::PathBuf;

use anyhow::Context;
use serde_json::Value;

use super::EXIT_OK;
use super::input::read_json;
use super::model_args::ModelArgs;
use super::output::{inert, print_json};
use super::read::failed;
use super::records::said;
use crate::formats::{Backend, Candidates, Decided, Deduped, Draft, Proposing, Refusal, Written};
use crate::review::journal::Entry;
use crate::review::sink::evidence;
use crate::review::{Kind, Origin, Proposal, ProposalStatus, ReviewError, State};
use crate::session::Plan;
use crate::session::config::{ModelEndpoint, ModelSettings};
use crate::session::history::{Message, validate_tool_pairing};
use crate::session::model::ModelClient;
use crate::session::replies::{ask_consolidator, ask_extractor};

#[derive(clap::Args, Debug)]
pub(super) struct ProposeArgs {
    #[command(subcommand)]
    pub(super) source: ProposeSource,
}

#[derive(clap::Subcommand, Debug)]
pub(super) enum ProposeSource {
    /// Ask the configured model to consolidate the named memories (default: all of them).
    Consolidate(ConsolidateProposalArgs),
    /// Ask the configured model to extract memories from a chat history (JSON messages).
    Extract(ExtractArgs),
    /// File a side-query reply someone already has (the reference's exact JSON formats).
    Import(ImportArgs),
    /// No model: one consolidation proposal per group of near-duplicate memories.
    Dedupe,
}

#[derive(clap::Args, Debug)]
pub(super) struct ConsolidateProposalArgs {
    /// The candidates (default: every memory in the set).
    #[arg(value_name = "NAME")]
    pub(super) names: Vec<String>,
    #[command(flatten)]
    pub(super) model: ModelArgs,
}

#[derive(clap::Args, Debug)]
pub(super) struct ExtractArgs {
    /// A JSON array of messages ({"role":"user","content":"..."}, ...), or - for stdin.
    #[arg(long, value_name = "FILE")]
    pub(super) history: PathBuf,
    #[command(flatten)]
    pub(super) model: ModelArgs,
}

#[derive(clap::Args, Debug)]
pub(super) struct ImportArgs {
    /// Which reply format; by default an array is an extraction, an object a consolidation.
    #[arg(long, value_enum, value_name = "KIND")]
    kind: Option<KindArg>,
    /// The excerpt of conversation the proposal came from, shown to the reviewer (any text,
    /// leading dashes included).
    #[arg(long, allow_hyphen_values = true)]
    pub(super) evidence: Option<String>,
    /// The reply (a path, or - for standard input).
    path: PathBuf,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub(super) enum KindArg {
    /// An array of new memories.
    Extraction,
    /// {"source_names":[...],"records":[...]}.
    Consolidation,
}

#[derive(clap::Args, Debug)]
pub(super) struct ProposalsArgs {
    /// Print a JSON array of {"id","kind","state","changes","summary","memories","files",
    /// "origin","created_at","evidence","reason","journal_entry"}, the same on every format:
    /// "memories" and "files" as `log --json` gives an entry's (docs/cli.md).
    #[arg(long)]
    json: bool,
    /// Include approved and rejected proposals.
    #[arg(long)]
    all: bool,
}

#[derive(clap::Args, Debug)]
pub(super) struct ApproveArgs {
    /// The proposal's id (see `memwb proposals`).
    pub(super) id: String,
}

#[derive(clap::Args, Debug)]
pub(super) struct RejectArgs {
    /// The proposal's id (see `memwb proposals`).
    pub(super) id: String,
    /// Why, kept in the journal (any text, leading dashes included).
    #[arg(long, allow_hyphen_values = true)]
    pub(super) reason: Option<String>,
}

#[derive(clap::Args, Debug)]
pub(super) struct LogArgs {
    /// Print a JSON array of the entries {"id","at","op","who","summary","memories","files",
    /// "proposal","reason","undoes"}, the same on every format (docs/cli.md).
    #[arg(long)]
    pub(super) json: bool,
    /// Only the newest N entries (the journal is then read from its end only that far).
    #[arg(long, value_name = "N")]
    pub(super) last: Option<usize>,
}

#[derive(clap::Args, Debug)]
pub(super) struct UndoArgs {
    /// The journal entry to revert, an undo included (default: the newest change not undone
    /// yet, so repeated `undo` steps back through history).
    pub(super) entry: Option<u64>,
}

pub(super) fn propose(backend: &dyn Backend, args: &ProposeArgs) -> anyhow::Result<u8> {
    let filed = match &args.source {
        ProposeSource::Dedupe => return dedupe(backend),
        ProposeSource::Consolidate(consolidate) => {
            let (client, origin) = model(&consolidate.model)?;
            let begun = backend.propose(&consolidate.names).map_err(failed)?;
            say_left_out(&begun.candidates().left_out);
            let records = &begun.candidates().records;
            anyhow::ensure!(
                !records.is_empty(),
                "no memory here can be consolidated; nothing was proposed"
            );
            let reply = ask_consolidator(client.as_ref(), records)
                .context("the consolidator failed; nothing was proposed")?;
            let plan = Plan::Consolidation {
                source_names: reply.source_names,
                records: reply.records,
            };
            file(begun, plan, origin, None)?
        }
        ProposeSource::Extract(extract) => {
            let history: Vec<Message> =
                read_json(&extract.history, "chat history (a JSON array of messages)")?;
            validate_tool_pairing(&history)?;
            let (client, origin) = model(&extract.model)?;
            let begun = backend.propose(&[]).map_err(failed)?;
            let records = ask_extractor(client.as_ref(), &history, &begun.candidates().catalog)
                .context("the extractor failed; nothing was proposed")?;
            anyhow::ensure!(
                !records.is_empty(),
                "the extractor found nothing to remember; nothing was proposed"
            );
            file(begun, Plan::Extraction(records), origin, evidence(&history))?
        }
        ProposeSource::Import(import) => {
            let begun = backend.propose(&[]).map_err(failed)?;
            let plan = imported_plan(import, begun.candidates())?;
            let evidence = import.evidence.clone();
            file(begun, plan, Origin::new("import"), evidence)?
        }
    };
    say!("{}", filed.id)?;
    Ok(EXIT_OK)
}

/// Files `plan` as the proposal `begun` began, the memories the format refused on stderr.
fn file(
    begun: Box<dyn Proposing + '_>,
    plan: Plan,
    origin: Origin,
    evidence: Option<String>,
) -> anyhow::Result<Proposal> {
    let proposed = begun
        .file(Draft {
            plan,
            origin,
            evidence,
        })
        .map_err(failed)?;
    say_refused(&proposed.refused);
    proposed
        .filed
        .context("the reply changes nothing in this folder; nothing was proposed")
}

/// `propose dedupe`: one proposal per new group of near-duplicates, a group already held by
/// a proposal said on stderr.
fn dedupe(backend: &dyn Backend) -> anyhow::Result<u8> {
    let mut filed = 0;
    for group in backend.propose_dedupe().map_err(failed)? {
        match group {
            Deduped::Filed(proposal) => {
                filed += 1;
                say!("{}", proposal.id)?;
            }
            Deduped::Skipped { names, known } => say_skipped(&names, &known),
        }
    }
    if filed == 0 {
        eprintln!("no new near-duplicates found; nothing proposed");
    }
    Ok(EXIT_OK)
}

/// The configured model, and how a proposal names it.
pub(super) fn model(args: &ModelArgs) -> anyhow::Result<(Box<dyn ModelClient>, Origin)> {
    let settings = ModelSettings::resolve(&args.flags(), &|name| std::env::var(name).ok())?.context(
        "this needs a model: --model-url URL --model NAME, or --model-cmd CMD (or MEMWB_MODEL_URL / MEMWB_MODEL_CMD)",
    )?;
    let mut origin = Origin::new("model");
    match &settings.endpoint {
        ModelEndpoint::Http { url, model, .. } => {
            origin.model = Some(model.clone());
            origin.endpoint = Some(url.clone());
        }
        ModelEndpoint::Command { command_line } => {
            origin.endpoint = Some(format!("command {command_line}"))
        }
    }
    Ok((settings.client()?, origin))
}

/// The memories a side-query could not be shown, on stderr.
fn say_left_out(left_out: &[Refusal]) {
    for refusal in left_out {
        eprintln!(
            "note: left out {}: {}",
            inert(&refusal.name),
            inert(&refusal.reason)
        );
    }
}

/// Every refused memory on stderr, one line each.
pub(super) fn say_refused(refused: &[Refusal]) {
    for refusal in refused {
        eprintln!(
            "refused {}: {}",
            inert(&refusal.name),
            inert(&refusal.reason)
        );
    }
}

/// A dedupe group not filed again, and the proposal that holds it, on stderr.
pub(super) fn say_skipped(names: &[String], known: &Proposal) {
    let how = if known.status == ProposalStatus::Pending {
        "already pending as"
    } else {
        "rejected before as"
    };
    eprintln!(
        "skipped {}: {how} proposal {}",
        inert(&names.join(", ")),
        known.id
    );
}

/// The reply `propose import` reads, validated against `candidates` as a model's would be.
pub(super) fn imported_plan(args: &ImportArgs, candidates: &Candidates) -> anyhow::Result<Plan> {
    let value: Value = read_json(&args.path, "side-query reply")?;
    let kind = match (args.kind, &value) {
        (Some(KindArg::Extraction), _) | (None, Value::Array(_)) => Kind::Extraction,
        (Some(KindArg::Consolidation), _) | (None, Value::Object(_)) => Kind::Consolidation,
        (None, _) => {
            anyhow::bail!("a reply must be an array (extraction) or an object (consolidation)")
        }
    };
    let plan = match kind {
        Kind::Consolidation => Plan::consolidation(&value, &candidates.records),
        _ => Plan::extraction(&value),
    };
    plan.map_err(|rule| anyhow::anyhow!("invalid {} reply: {rule}", kind.as_str()))
}

pub(super) fn proposals(backend: &dyn Backend, args: &ProposalsArgs) -> anyhow::Result<u8> {
    let all = backend.proposals().map_err(failed)?;
    let listed: Vec<(Proposal, State)> = all
        .listed
        .into_iter()
        .filter(|(_, state)| args.all || matches!(state, State::Ready | State::Stale(_)))
        .collect();
    if args.json {
        let mut rows: Vec<serde_json::Value> = listed
            .iter()
            .map(|(p, s)| serde_json::to_value(p.json(s)))
            .collect::<Result<_, _>>()?;
        rows.extend(
            all.corrupt.iter().map(
                |c| serde_json::json!({ "file": c.file, "state": "corrupt", "error": c.error }),
            ),
        );
        print_json(&rows)?;
        return Ok(EXIT_OK);
    }
    for corrupt in &all.corrupt {
        say!(
            "{}  corrupt   {}",
            inert(&corrupt.file),
            inert(&corrupt.error)
        )?;
    }
    if listed.is_empty() && all.corrupt.is_empty() {
        let which = if args.all {
            "no proposals"
        } else {
            "no pending proposals"
        };
        say!(
            "{which}; file one with: memwb check --fix, memwb propose dedupe, memwb propose import FILE, or memwb copy FROM"
        )?;
    }
    for (p, state) in &listed {
        say!(
            "{}  {:8}  {:13}  {}  ({})",
            p.id,
            state.as_str(),
            p.change_kind().as_str(),
            inert(&p.summary()),
            inert(&p.origin.describe())
        )?;
        if let State::Stale(changes) = state {
            for change in changes {
                say!("    {}", inert(change))?;
            }
        }
    }
    Ok(EXIT_OK)
}

pub(super) fn approve(backend: &dyn Backend, args: &ApproveArgs) -> anyhow::Result<u8> {
    let approved = backend.approve(&args.id).map_err(failed)?;
    let head = format!(
        "approved {}{}: ",
        args.id,
        as_entry(approved.entry.as_ref())
    );
    decided(&head, approved)
}

/// Prints what a decision did after `head`, its warning (then exits 1), and its notes.
fn decided(head: &str, decided: Decided) -> anyhow::Result<u8> {
    let code = said(Written {
        summary: format!("{head}{}", decided.written.summary),
        warning: decided.written.warning,
    })?;
    for note in &decided.notes {
        say!("note: {}", super::output::one_line(note))?;
    }
    Ok(code)
}

/// " as #N": the journal entry a change became (what `log` lists and `undo N` takes).
pub(super) fn as_entry(entry: Option<&Entry>) -> String {
    entry.map(|e| format!(" as #{}", e.id)).unwrap_or_default()
}

pub(super) fn reject(backend: &dyn Backend, args: &RejectArgs) -> anyhow::Result<u8> {
    backend
        .reject(&args.id, args.reason.clone())
        .map_err(failed)?;
    say!("rejected {}", args.id)?;
    Ok(EXIT_OK)
}

/// `memwb log`: the whole journal, with a warning per damaged line, or with `--last N` only
/// its newest entries, read from its end.
pub(super) fn log(backend: &dyn Backend, args: &LogArgs) -> anyhow::Result<u8> {
    let journal = backend.journal().map_err(failed)?;
    let entries = match args.last {
        Some(count) => journal.last_entries(count)?,
        None => {
            let scan = journal.scan()?;
            for damage in &scan.damaged {
                eprintln!(
                    "warning: {}: skipping line {}: {}; `memwb repair --journal` moves it aside",
                    inert(&journal.path().display().to_string()),
                    damage.line,
                    inert(&damage.reason)
                );
            }
            scan.entries
        }
    };
    if args.json {
        let shown: Vec<_> = entries.iter().map(Entry::json).collect();
        print_json(&shown)?;
        return Ok(EXIT_OK);
    }
    if entries.is_empty() {
        say!("no changes journaled yet; memwb add, set, rm, approve and undo each write an entry")?;
    }
    for entry in &entries {
        say!("{}", super::output::one_line(&describe(entry)))?;
    }
    Ok(EXIT_OK)
}

/// One line of `memwb log`: the entry's number, time, op and who, then what it did, worded
/// the same on both formats (`review::summary`).
pub(super) fn describe(entry: &Entry) -> String {
    let head = format!(
        "#{:<4} {}  {:13} {}",
        entry.id,
        crate::time::format_ms(entry.at),
        entry.op.as_str(),
        entry.who
    );
    let said = crate::review::summary::entry_summary(entry);
    if said.is_empty() {
        head
    } else {
        format!("{head}  {said}")
    }
}

/// `memwb undo [N]`: entry N, or what a plain undo reverts (`Journal::newest_undoable`).
pub(super) fn undo(backend: &dyn Backend, args: &UndoArgs) -> anyhow::Result<u8> {
    let journal = backend.journal().map_err(failed)?;
    let entry = match args.entry {
        Some(id) => journal
            .entry(id)?
            .ok_or(ReviewError::EntryNotFound { id })?,
        None => journal.newest_undoable()?.context(NOTHING_TO_UNDO)?,
    };
    let undone = backend.undo(&entry).map_err(failed)?;
    let head = format!(
        "undid #{} ({}){}: ",
        entry.id,
        entry.op.as_str(),
        as_entry(undone.entry.as_ref())
    );
    decided(&head, undone)
}

/// What a plain `undo` says when every change is undone already (or there was none).
const NOTHING_TO_UNDO: &str = "the journal has no change left to undo (every change is undone; `memwb log` lists them, `memwb undo N` reverts any one entry, an undo included)";
