//! The review loop on the command line: propose, list, approve, reject, log, undo.

use std::path::PathBuf;

use anyhow::Context;
use serde::Serialize;
use serde_json::Value;

use super::EXIT_OK;
use super::input::read_json;
use super::model_args::ModelArgs;
use super::output::{inert, print_json};
use super::records::{finish, summary};
use crate::claude::write::FileImage;
use crate::formats::memory::dedupe_proposal;
use crate::review::dedupe::find_groups;
use crate::review::journal::StrayAction;
use crate::review::journal::{Entry, JournalRecord};
use crate::review::proposal::{self, Listing, NewProposal, images};
use crate::review::sink::evidence;
use crate::review::{Journal, Kind, Origin, Plan, Proposal, ProposalStatus, ReviewError, State};
use crate::session::config::{ModelEndpoint, ModelSettings};
use crate::session::history::{Message, validate_tool_pairing};
use crate::session::model::ModelClient;
use crate::session::replies::{ask_consolidator, ask_extractor};
use crate::store::{Record, RecordInput, Store};

#[derive(clap::Args, Debug)]
pub(super) struct ProposeArgs {
    #[command(subcommand)]
    pub(super) source: ProposeSource,
}

#[derive(clap::Subcommand, Debug)]
pub(super) enum ProposeSource {
    /// Ask the configured model to consolidate the named records (default: the whole set).
    Consolidate(ConsolidateProposalArgs),
    /// Ask the configured model to extract memories from a chat history (JSON messages).
    Extract(ExtractArgs),
    /// File a side-query reply someone already has (the reference's exact JSON formats).
    Import(ImportArgs),
    /// No model: one consolidation proposal per group of near-duplicate records.
    Dedupe,
}

#[derive(clap::Args, Debug)]
pub(super) struct ConsolidateProposalArgs {
    /// The candidates (default: every record in the set).
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
    /// An array of new records.
    Extraction,
    /// {"source_names":[...],"records":[...]}.
    Consolidation,
}

#[derive(clap::Args, Debug)]
pub(super) struct ProposalsArgs {
    /// Print a JSON array of {"id","kind","state","changes","origin","created_at",
    /// "source_names","records","base","additions","evidence","reason","journal_entry"}, and
    /// "files" ({"file","before","after"}) on a Claude Code folder.
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
    /// Print a JSON array of the entries {"id","at","op","who","before","after","proposal",
    /// "reason","undoes"} (on a Claude Code folder also "files": [{"file","before","after"}]).
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

pub(super) fn propose(store: &Store, args: &ProposeArgs) -> anyhow::Result<u8> {
    let proposals = match &args.source {
        ProposeSource::Import(import) => vec![import_proposal(store, import)?],
        ProposeSource::Consolidate(consolidate) => {
            vec![consolidation_proposal(store, consolidate)?]
        }
        ProposeSource::Extract(extract) => vec![extraction_proposal(store, extract)?],
        ProposeSource::Dedupe => dedupe_proposals(store)?,
    };
    if proposals.is_empty() && matches!(args.source, ProposeSource::Dedupe) {
        eprintln!("no new near-duplicates found; nothing proposed");
    }
    for new in proposals {
        say!("{}", proposal::file(store, new)?.id)?;
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

fn consolidation_proposal(
    store: &Store,
    args: &ConsolidateProposalArgs,
) -> anyhow::Result<NewProposal> {
    let (client, origin) = model(&args.model)?;
    let seen = store.read()?;
    let candidates: Vec<Record> = if args.names.is_empty() {
        seen.records().cloned().collect()
    } else {
        seen.require_all(&args.names)?
            .into_iter()
            .map(|entry| entry.record)
            .collect()
    };
    anyhow::ensure!(
        !candidates.is_empty(),
        "the set is empty: nothing to consolidate"
    );
    let reply = ask_consolidator(client.as_ref(), &candidates)
        .context("the consolidator failed; nothing was proposed")?;
    Ok(NewProposal {
        plan: Plan::Consolidation {
            source_names: reply.source_names,
            records: reply.records,
        },
        origin,
        seen,
        additions: Vec::new(),
        evidence: None,
    })
}

fn extraction_proposal(store: &Store, args: &ExtractArgs) -> anyhow::Result<NewProposal> {
    let history: Vec<Message> =
        read_json(&args.history, "chat history (a JSON array of messages)")?;
    validate_tool_pairing(&history)?;
    let (client, origin) = model(&args.model)?;
    let seen = store.read()?;
    let records = ask_extractor(client.as_ref(), &history, &seen.index_text())
        .context("the extractor failed; nothing was proposed")?;
    anyhow::ensure!(
        !records.is_empty(),
        "the extractor found nothing to remember; nothing was proposed"
    );
    Ok(NewProposal {
        plan: Plan::Extraction(records),
        origin,
        seen,
        additions: Vec::new(),
        evidence: evidence(&history),
    })
}

/// One proposal per group of near-duplicates, except a group that is already pending or was
/// rejected (said on stderr, with the proposal that holds it).
fn dedupe_proposals(store: &Store) -> anyhow::Result<Vec<NewProposal>> {
    let seen = store.read()?;
    let filed = proposal::list(store)?;
    let mut out = Vec::new();
    for group in find_groups(&seen) {
        let new = dedupe_proposal(&seen, group);
        match proposal::already_filed(&new.plan, &filed, &seen) {
            Some(known) => say_skipped(new.plan.source_names(), known),
            None => out.push(new),
        }
    }
    Ok(out)
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
pub(super) fn imported_plan(args: &ImportArgs, candidates: &[Record]) -> anyhow::Result<Plan> {
    let value: Value = read_json(&args.path, "side-query reply")?;
    let kind = match (args.kind, &value) {
        (Some(KindArg::Extraction), _) | (None, Value::Array(_)) => Kind::Extraction,
        (Some(KindArg::Consolidation), _) | (None, Value::Object(_)) => Kind::Consolidation,
        (None, _) => {
            anyhow::bail!("a reply must be an array (extraction) or an object (consolidation)")
        }
    };
    Plan::parse(kind, &value, candidates)
        .map_err(|rule| anyhow::anyhow!("invalid {} reply: {rule}", kind.as_str()))
}

fn import_proposal(store: &Store, args: &ImportArgs) -> anyhow::Result<NewProposal> {
    let seen = store.read()?;
    let candidates: Vec<Record> = seen.records().cloned().collect();
    let plan = imported_plan(args, &candidates)?;
    Ok(NewProposal {
        plan,
        origin: Origin::new("import"),
        seen,
        additions: Vec::new(),
        evidence: args.evidence.clone(),
    })
}

#[derive(Serialize)]
struct ProposalJson<'a> {
    id: &'a str,
    kind: Kind,
    state: &'static str,
    changes: Vec<String>,
    origin: &'a Origin,
    created_at: i64,
    source_names: Vec<String>,
    records: Vec<RecordInput>,
    base: &'a [JournalRecord],
    additions: &'a [RecordInput],
    evidence: &'a Option<String>,
    reason: &'a Option<String>,
    journal_entry: Option<u64>,
    /// Claude Code folders: every file's text before and after.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    files: &'a [FileImage],
}

fn proposal_json<'a>(p: &'a Proposal, state: &State) -> ProposalJson<'a> {
    let plan = p.plan().ok();
    let (source_names, records) = if p.files.is_empty() {
        (
            plan.as_ref()
                .map(|p| p.source_names().to_vec())
                .unwrap_or_default(),
            plan.as_ref()
                .map(|p| p.records().iter().map(|r| r.to_input()).collect())
                .unwrap_or_default(),
        )
    } else {
        (images::source_names(&p.files), images::written(&p.files))
    };
    ProposalJson {
        id: &p.id,
        kind: p.kind,
        state: state.as_str(),
        changes: match state {
            State::Stale(changes) => changes.clone(),
            _ => Vec::new(),
        },
        origin: &p.origin,
        created_at: p.created_at,
        source_names,
        records,
        base: &p.base,
        additions: &p.additions,
        evidence: &p.evidence,
        reason: &p.reason,
        journal_entry: p.journal_entry,
        files: &p.files,
    }
}

pub(super) fn proposals(store: &Store, args: &ProposalsArgs) -> anyhow::Result<u8> {
    let current = store.read()?;
    print_proposals(proposal::list_all(store)?, |p| p.state(&current), args)
}

/// `memwb proposals` on any folder: `state_of` says whether each still applies there.
pub(super) fn print_proposals(
    listing: Listing,
    state_of: impl Fn(&Proposal) -> State,
    args: &ProposalsArgs,
) -> anyhow::Result<u8> {
    let listed: Vec<(Proposal, State)> = listing
        .proposals
        .into_iter()
        .map(|p| {
            let state = state_of(&p);
            (p, state)
        })
        .filter(|(_, state)| args.all || matches!(state, State::Ready | State::Stale(_)))
        .collect();
    if args.json {
        let mut rows: Vec<serde_json::Value> = listed
            .iter()
            .map(|(p, s)| serde_json::to_value(proposal_json(p, s)))
            .collect::<Result<_, _>>()?;
        rows.extend(
            listing.corrupt.iter().map(
                |c| serde_json::json!({ "file": c.file, "state": "corrupt", "error": c.error }),
            ),
        );
        print_json(&rows)?;
        return Ok(EXIT_OK);
    }
    for corrupt in &listing.corrupt {
        say!(
            "{}  corrupt   {}",
            inert(&corrupt.file),
            inert(&corrupt.error)
        )?;
    }
    if listed.is_empty() && listing.corrupt.is_empty() {
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
            p.kind.as_str(),
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

pub(super) fn approve(store: &Store, args: &ApproveArgs) -> anyhow::Result<u8> {
    let (commit, entry) = proposal::approve(store, &args.id)?;
    let line = format!(
        "approved {}{}: {}",
        args.id,
        as_entry(entry.as_ref()),
        summary(&commit)
    );
    finish(&line, &commit)
}

/// " as #N": the journal entry a change became (what `log` lists and `undo N` takes).
pub(super) fn as_entry(entry: Option<&Entry>) -> String {
    entry.map(|e| format!(" as #{}", e.id)).unwrap_or_default()
}

pub(super) fn reject(store: &Store, args: &RejectArgs) -> anyhow::Result<u8> {
    proposal::reject(store, &args.id, args.reason.clone())?;
    say!("rejected {}", args.id)?;
    Ok(EXIT_OK)
}

pub(super) fn log(store: &Store, args: &LogArgs) -> anyhow::Result<u8> {
    let journal = Journal::of(store);
    recover_if_pending(store)?;
    print_log(&journal, args)
}

/// Prints the journal as `log` shows it, on either format: the whole journal, with a warning
/// per damaged line, or with `--last N` only its newest entries, read from its end.
pub(super) fn print_log(journal: &Journal, args: &LogArgs) -> anyhow::Result<u8> {
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
        print_json(&entries)?;
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
        crate::store::time::format_ms(entry.at),
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

pub(super) fn undo(store: &Store, args: &UndoArgs) -> anyhow::Result<u8> {
    recover_if_pending(store)?;
    let journal = Journal::of(store);
    let entry = match args.entry {
        Some(id) => journal
            .entry(id)?
            .ok_or(ReviewError::EntryNotFound { id })?,
        None => journal.newest_undoable()?.context(NOTHING_TO_UNDO)?,
    };
    let (commit, undone) = crate::review::undo(store, &entry)?;
    let mut parts = Vec::new();
    let stray = undone.as_ref().and_then(|e| e.stray.as_ref());
    if let Some(stray) = stray {
        parts.push(format!("{} {}", stray.action.as_str(), inert(&stray.file)));
    }
    if stray.is_none() || !commit.is_empty() {
        parts.push(summary(&commit));
    }
    let code = finish(
        &format!("{}{}", undid(&entry, undone.as_ref()), parts.join("; ")),
        &commit,
    )?;
    if let Some(stray) = stray.filter(|s| s.redacted && s.action == StrayAction::Restored) {
        say!(
            "note: {} is back with its credentials as [REDACTED]: the copy memwb kept was redacted, and a redacted secret is not restored",
            inert(&stray.file)
        )?;
    }
    if let Some(dropped) = entry.dropped.as_ref().filter(|d| d.redacted) {
        say!(
            "note: {} is back with its credentials as [REDACTED]: the copy repair kept was redacted, and a redacted secret is not restored",
            inert(&dropped.file)
        )?;
    }
    Ok(code)
}

/// What a plain `undo` says when every change is undone already (or there was none).
pub(super) const NOTHING_TO_UNDO: &str = "the journal has no change left to undo (every change is undone; `memwb log` lists them, `memwb undo N` reverts any one entry, an undo included)";

/// "undid #3 (add) as #5: ", the head of what `undo` says on both formats.
pub(super) fn undid(entry: &Entry, undo: Option<&Entry>) -> String {
    format!(
        "undid #{} ({}){}: ",
        entry.id,
        entry.op.as_str(),
        as_entry(undo)
    )
}

/// Finishes a journal intent a crash left behind, so that reads show the recovered entry.
pub(super) fn recover_if_pending(store: &Store) -> anyhow::Result<()> {
    if Journal::of(store).has_pending() {
        let _lock = store.lock_for_write()?;
        Journal::of(store).recover(store)?;
    }
    Ok(())
}
